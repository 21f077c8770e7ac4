"""An operation resolved against its target before anything is written: the plan record, the live
block (an id re-found in a newer snapshot), UTF-16 ranges turned into indices without splitting a
character, find and quote matched once, note markers kept, hidden text refused (issue 12). Apart
from operations.py, which runs the batch: each check here raises the EditError whose reason the
batch reports as a skip."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..model import graphemes
from ..model.textkit import index_to_utf16, utf16_to_index
from ..package.ooxml import W_NS, W_PPR, W_RPR
from ..reading.concealed import hidden_spans
from .ops.context import note_texts
from .paragraph_edit import EditError

if TYPE_CHECKING:
    from ..model.document import Document
    from ..reading.blocks import Block, Snapshot

_W = "{" + W_NS + "}"


@dataclass
class _Planned:
    index: int
    op: dict
    block: Block | None
    resolved: dict = field(default_factory=dict)
    order: tuple = ()
    move: str | None = None
    move_name: str | None = None


def _live_block(block_id: str, current: Snapshot, built_against: Snapshot | None) -> Block:
    if block_id.startswith("opaque-"):
        opaque = next((b for b in current.blocks if b.id == block_id and b.kind == "diagnostic"), None)
        if opaque is not None:  # found, but not a place to edit: saying "not found" would send the model round
            carrier = (opaque.diagnostic or {}).get("carrier", "content")
            raise EditError("unsupportedBlock", f'block "{block_id}" is {carrier} the editor cannot read or change; '
                                                "edit the blocks around it instead")
    if built_against is None or built_against is current:
        block = current.block(block_id)
        if block is None:
            raise EditError("missingBlock", f'block "{block_id}" was not found')
        return block
    old = built_against.block(block_id)
    if old is None:
        raise EditError("missingBlock", f'block "{block_id}" was not found')
    if block_id.startswith(("seq-", "blank-")):
        same = [b for b in built_against.blocks if b.kind != "diagnostic" and b.text_hash == old.text_hash]
        ordinal = same.index(old)
        live = [b for b in current.blocks if b.kind != "diagnostic" and b.text_hash == old.text_hash]
        if ordinal >= len(live):
            raise EditError("changedBlock")
        return live[ordinal]
    block = current.block(block_id)
    if block is None:
        raise EditError("missingBlock", f'block "{block_id}" was not found')
    if block.text_hash != old.text_hash:
        raise EditError("changedBlock")
    return block


def pending_deletion(block: Block) -> bool:
    p = block.element
    if p is None:
        return False
    mark = p.find(f"{W_PPR}/{W_RPR}")
    if mark is not None and (mark.find(_W + "del") is not None or mark.find(_W + "moveFrom") is not None) \
            and not block.text.strip():
        return True
    tr = p.getparent()
    while tr is not None and tr.tag != _W + "tr":
        if tr.tag == _W + "tc":
            tcpr = tr.find(_W + "tcPr")
            if tcpr is not None and tcpr.find(_W + "cellDel") is not None:
                return True
        tr = tr.getparent()
    if tr is not None:
        trpr = tr.find(_W + "trPr")
        if trpr is not None and trpr.find(_W + "del") is not None:
            return True
    return False


def _splits(text: str, offset16: int) -> EditError:
    for i, ch in enumerate(text):
        start16 = index_to_utf16(text, i)
        if start16 < offset16 < start16 + (2 if ord(ch) > 0xFFFF else 1):
            cluster = graphemes.cluster_around(text, i + 1) or (i, i + 1)
            if not cluster[0] <= i < cluster[1]:
                cluster = (i, i + 1)
            return EditError("splitsCharacter", graphemes.splits_message(text, offset16, *cluster))
    return EditError("staleRange", f"offset {offset16} is outside the block")


def _range_indices(text: str, rng: dict, check_clusters: bool) -> tuple[int, int]:
    total = index_to_utf16(text, len(text))
    start16, end16 = rng["startOffset"], rng["endOffset"]
    if end16 > total:
        raise EditError("staleRange", f"the range ends at {end16}, past the block's {total} characters")
    a, b = utf16_to_index(text, start16), utf16_to_index(text, end16)
    if a is None:
        raise _splits(text, start16)
    if b is None:
        raise _splits(text, end16)
    if check_clusters:
        for index, off in ((a, start16), (b, end16)):
            cluster = graphemes.cluster_around(text, index)
            if cluster:
                raise EditError("splitsCharacter", graphemes.splits_message(text, off, *cluster))
    return a, b


def _refuse_hidden_text(doc: Document, block: Block, t: str, resolved: dict) -> None:
    """Hidden text is never shown to the model, so an edit that rewrites or deletes a whole paragraph
    holding some, or replaces a stretch with some inside, would leave text nobody reviewed live in
    the document: refuse it (issue 12). Text merely beside the replaced stretch is untouched."""
    p = block.element
    if p is None:
        return
    # over every paragraph the block reads (those joined to it by deleted marks first)
    spans = [(offset + block.start_of(q), n) for q in block.paragraphs
             for offset, n in hidden_spans(q, doc.hidden_character_styles, note_texts(block))]
    if not spans:
        return
    reveal = "or ask the lawyer to reveal the hidden text (Word: Home > Show/Hide) first"
    if t in ("replaceBlock", "deleteBlock"):
        n = sum(count for _offset, count in spans)
        verb = "replacing" if t == "replaceBlock" else "deleting"
        raise EditError("hiddenText", f"this paragraph holds {_characters(n)} of hidden text the model cannot "
                                      f"see, so {verb} the whole paragraph would leave that text live and "
                                      f"unreviewed; edit the visible words with replaceInBlock or replaceRange "
                                      f"instead, {reveal}")
    a, b = resolved["start"], resolved["end"]
    n = sum(count for offset, count in spans if a < offset < b)
    if n:
        raise EditError("hiddenText", f"the replaced text has {_characters(n)} of hidden text inside it that the "
                                      f"model cannot see, so replacing it would leave that text live and "
                                      f"unreviewed; replace the visible words on each side of it separately, "
                                      f"{reveal}")


def _characters(n: int) -> str:
    return f"{n:,} character{'' if n == 1 else 's'}"


_MARKER = re.compile(r"\[\^e?\d+\]")


def _keep_markers(old: str, new: str) -> None:
    """Footnote and endnote markers are references, not text: an edit keeps them all, in order,
    and never invents one."""
    if _MARKER.findall(old) != _MARKER.findall(new):
        raise EditError("protectedReference", "keep each [^n] marker of the original text in the new text, in "
                                              "order, and add none")


def _find_once(text: str, needle: str) -> tuple[int, int]:
    if not needle:
        raise EditError("emptyOperation", "`find` is empty")
    first = text.find(needle)
    if first < 0:
        raise EditError("missingFind", f'"{needle[:80]}" does not occur in the block')
    if text.find(needle, first + 1) >= 0:
        raise EditError("ambiguousFind", f'"{needle[:80]}" occurs more than once in the block')
    return first, first + len(needle)
