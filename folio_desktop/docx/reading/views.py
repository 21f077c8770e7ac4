"""Text renderings of stories for prompts and story tools (spec §5.5, §5.6, §6.2, §8.5)."""

from __future__ import annotations

import re
from itertools import groupby
from operator import itemgetter
from typing import TYPE_CHECKING

from ..model.textkit import normalize
from ..package.ooxml import W_NS, ancestor
from . import inline
from .inline import BREAK, COMMENT_END, COMMENT_START, NOTE, TAB, TEXT, StoryState

if TYPE_CHECKING:
    from ..model.document import Document, Story
    from .blocks import Block, Snapshot

_W = "{" + W_NS + "}"
T_P, T_CSTART, T_CEND = _W + "p", _W + "commentRangeStart", _W + "commentRangeEnd"
_DIGITS = re.compile(r"\d+")


def _heading_marker(block: Block) -> int:
    """The (hN) of the LLM line format: first digit run of styleId, else of displayLabel (quirk kept)."""
    for source in (block.style_id, block.display_label):
        if source:
            m = _DIGITS.search(source)
            if m:
                n = int(m.group())
                return n if 1 <= n <= 9 else 1
    return 1


def block_line(block: Block, text: str | None = None) -> str:
    body = block.text if text is None else text
    if block.kind == "heading":
        return f"[{block.id}] (h{_heading_marker(block)}) {body}"
    if block.kind == "listItem":
        return f"[{block.id}] {block.display_label or '•'} {body}"
    return f"[{block.id}] {body}"


def content_as_text(doc: Document, snapshot: Snapshot, container, annotated: bool = False) -> str:
    """`[blockId] text` lines for every content block; annotated shows ins/del/comment marks."""
    if not annotated:
        return "\n".join(block_line(b) for b in snapshot.blocks if b.is_content)
    texts = annotated_texts(doc, snapshot, container)
    lines = []
    for block in snapshot.blocks:
        if block.kind == "diagnostic":
            lines.append(block_line(block))
            continue
        text = texts.get(block.id, "")
        if block.is_content or text.strip():
            lines.append(block_line(block, text))
    return "\n".join(lines)


def _esc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def annotated_texts(doc: Document, snapshot: Snapshot, container) -> dict[str, str]:
    """blockId -> redline text: <comment id> over <ins author> over <del author>, merged."""
    state = StoryState()
    active: list[str] = []
    out: dict[str, str] = {}
    by_par = snapshot.block_of_paragraph
    # paragraphs a deleted mark joins to the next read as the start of that block (accepted.py)
    pending: dict[str, list] = {}
    for el in container.iter(T_P, T_CSTART, T_CEND):
        if el.tag != T_P:
            if ancestor(el, T_P, container) is not None:
                continue
            cid = el.get(_W + "id")
            if el.tag == T_CSTART:
                active.append(cid)
            elif cid in active:
                active.remove(cid)
            continue
        block = by_par.get(el)
        if block is None:
            continue
        segments = pending.pop(block.id, []) if block.element is el else pending.setdefault(block.id, [])
        for piece in inline.iter_pieces(el, state, doc.hidden_character_styles):
            kind = piece.kind
            if kind == COMMENT_START:
                active.append(piece.extra)
                continue
            if kind == COMMENT_END:
                if piece.extra in active:
                    active.remove(piece.extra)
                continue
            if piece.hidden:
                continue
            if kind in (TEXT, TAB, BREAK):
                s = piece.text
            elif kind == NOTE and piece.dele is None:
                s = state.note_marker(piece.extra)
            else:
                continue
            ins = piece.ins.get(_W + "author", "") if piece.ins is not None else None
            dele = piece.dele.get(_W + "author", "") if piece.dele is not None else None
            key = (tuple(active), ins, dele)
            if segments and segments[-1][:3] == key:
                segments[-1] = (*key, segments[-1][3] + s)
            else:
                segments.append((*key, s))
        if block.element is el:
            out[block.id] = _render_segments(segments)
    return out


def _render_segments(segments) -> str:
    """Nest the marks comment > ins > del, each merged over adjacent equal segments."""
    parts = []
    for comments, by_comment in groupby(segments, key=itemgetter(0)):
        inner = ""
        for ins, by_ins in groupby(by_comment, key=itemgetter(1)):
            text = ""
            for dele, by_del in groupby(by_ins, key=itemgetter(2)):
                chunk = _esc("".join(seg[3] for seg in by_del))
                text += f'<del author="{_esc(dele)}">{chunk}</del>' if dele is not None else chunk
            inner += f'<ins author="{_esc(ins)}">{text}</ins>' if ins is not None else text
        for cid in reversed(comments):
            inner = f'<comment id="{_esc(str(cid))}">{inner}</comment>'
        parts.append(inner)
    return "".join(parts)


def story_plain_text(doc: Document, story: Story) -> str:
    """A header, footer or note as one line: accepted-view text, whitespace collapsed."""
    snap = doc.snapshot_story(story)
    return normalize(" ".join(b.text for b in snap.blocks if b.kind != "diagnostic"))


def story_text(doc: Document, story: Story) -> str:
    if story.type == "main":
        snap = doc.snapshot()
        return content_as_text(doc, snap, doc.body)
    return story_plain_text(doc, story)


def notes_as_text(doc: Document) -> str:
    """`[header default] …`, `[footer default] …`, `[footnote #N] …` lines, empty stories omitted."""
    lines = []
    sect_types = _header_footer_types(doc)
    for story in doc.stories():
        if story.type == "main":
            continue
        text = story_plain_text(doc, story)
        if not text:
            continue
        if story.type in ("header", "footer"):
            label = f"{story.type} {sect_types.get(story.relationship_id, 'default')}"
        else:
            label = f"{story.type} #{story.note_id}"
        lines.append(f"[{label}] {text}")
    return "\n".join(lines)


def _header_footer_types(doc: Document) -> dict[str, str]:
    out = {}
    r_id = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
    for ref in doc.root.iter(_W + "headerReference", _W + "footerReference"):
        rid = ref.get(r_id)
        if rid and rid not in out:
            out[rid] = ref.get(_W + "type", "default")
    return out
