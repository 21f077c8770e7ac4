"""The document as the checks read it: every story's blocks in the accepted view (the text as it reads
once the pending changes are accepted), with the clause number Word displays, or the one typed at
the start of the text when Word numbers nothing there."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..docx.model.numbering import list_membership
from ..docx.package.ooxml import W14_PARA_ID, W_NS, W_VAL, first_child
from ..docx.reading import inline

# a number typed at the start of a paragraph: 3. / 3.2 / 3.2.1 / (c) / (iv) / c. / ARTICLE IV / Section 4.2
TYPED_NUMBER = re.compile(
    r"^\s*((?:ARTICLE|Article|SECTION|Section|Clause|CLAUSE)\s+(?:\d+(?:\.\d+)*|[IVXLC]+)\.?"
    r"|\d+(?:\.\d+)+\.?|\d+\.|\([a-z]{1,2}\)|\([ivxl]{1,5}\)|\(\d{1,2}\)|[a-z]\.)(?=[\s\u00a0])")


@dataclass(slots=True)
class Unit:
    """One paragraph of one story, as the checks see it."""
    story: str
    story_index: int
    index: int
    block_id: str
    text: str
    label: str | None  # the clause number Word displays (None when Word numbers nothing)
    level: int | None  # the list level of that number
    num_id: int | None
    heading: bool
    in_table: bool
    element: object = field(default=None, repr=False, compare=False)  # the w:p (highlight test)

    @property
    def typed_number(self) -> str | None:
        m = TYPED_NUMBER.match(self.text)
        return m.group(1) if m else None

    @property
    def shown_label(self) -> str | None:
        """The number a reader sees: Word's, else the one typed at the start."""
        return self.label or self.typed_number


def _label(block) -> str | None:
    label = block.display_label
    # a heading's displayLabel may be its style name (Heading1) when Word numbers nothing
    if not label or label == block.style_id or not any(ch.isalnum() for ch in label):
        return None
    return label.strip()


def read_units(reviewer) -> list[Unit]:
    doc = reviewer.document
    units: list[Unit] = []
    for s_index, story in enumerate(doc.stories()):
        snap = doc.snapshot_story(story)
        if snap is None:
            continue
        for block in snap.blocks:
            if block.kind == "diagnostic":
                continue
            ref = block.list_reference if block.display_label else None
            label = _label(block)
            units.append(Unit(story.key, s_index, len(units), block.id, block.text, label,
                              ref["level"] if ref and label else None, ref["numId"] if ref and label else None,
                              block.kind == "heading", block.table is not None, block.element))
    return units


def has_pending_changes(reviewer) -> bool:
    return bool(reviewer.get_changes())


def original_units(reviewer) -> list[Unit]:
    """The document as it read before the pending changes: a second reviewer with every change rejected
    (exact, but it serializes and reopens the document: the session does it only when
    original_signature says the original view changed)."""
    from ..docx import DocxReviewer

    other = DocxReviewer.from_bytes(reviewer.to_bytes())
    other.reject_all()
    return read_units(other)


_W = "{" + W_NS + "}"
T_P, T_PPR, T_NUMPR, T_PSTYLE = _W + "p", _W + "pPr", _W + "numPr", _W + "pStyle"
# every mark of a tracked change; a paragraph holding one may read differently before the changes
_REVISIONS = tuple(_W + t for t in (
    "ins", "del", "moveFrom", "moveTo", "pPrChange", "rPrChange", "numberingChange", "sectPrChange",
    "tblPrChange", "trPrChange", "tcPrChange", "tblGridChange", "cellIns", "cellDel", "cellMerge"))
_INSERTED_MARK = (_W + "ins", _W + "moveTo")
# changes to tables and sections: what they did before is not a paragraph's to tell
_OUTSIDE_PARAGRAPHS = tuple(_W + t for t in ("trPr", "tcPr", "tblPr", "tblGrid", "sectPr", "tblPrEx"))


def original_signature(reviewer) -> tuple | None:
    """What the document reads like before its pending changes, cheaply: per story, per paragraph of
    that view (block id, text, style, list numbering). Tracked edits leave it as it was (rejecting
    them gives back the same document), so the checks of the original view are kept under it and
    read again only when it changes (a change accepted or rejected, an edit made untracked).
    Paragraphs without a change give their accepted block; only those holding a change are read
    from their XML. None when the changes reach past paragraphs (rows, tables, sections, notes),
    where only reopening the document tells."""
    doc = reviewer.document
    out = []
    for story in doc.stories():
        snap = doc.snapshot_story(story)
        if snap is None:
            continue
        revised = set()
        for mark in doc.story_container(story).iter(_REVISIONS):
            parent = mark.getparent()
            if parent is not None and parent.tag in _OUTSIDE_PARAGRAPHS:
                return None
            p = next(mark.iterancestors(T_P), None)
            if p is None:
                return None  # a change wrapping whole paragraphs
            revised.add(p)
        entries = []
        prefix = ""  # text of a paragraph whose mark a change inserted: before, it ran on into the next
        for block in snap.blocks:
            if block.kind == "diagnostic":
                continue
            parts = (*block.joined, block.element)
            if not revised.isdisjoint(parts):
                read = _original_paragraphs(doc, block, parts, prefix)
                if read is None:
                    return None
                prefix = read[1]
                entries.extend(read[0])
                continue
            ref = block.list_reference
            entries.append((block.id, prefix + block.text, block.style_id,
                            (str(ref["numId"]), ref["level"]) if ref else None))
            prefix = ""
        out.append((story.key, tuple(entries)))
    return tuple(out)


def _original_paragraphs(doc, block, parts, prefix: str):
    """([(id, text, style, numbering)], text left over for the next paragraph): the paragraphs of one
    accepted block as they read before the changes, or None when that cannot be told from them."""
    if block.walk is None:
        return None  # a text box: its paragraphs are read in another order
    fields, footnotes, endnotes, _comments = block.walk[0]
    state = inline.StoryState(fields=list(fields), footnotes=footnotes, endnotes=endnotes)
    entries = []
    for p in parts:
        text = []
        for piece in inline.pieces(p, state, doc.hidden_character_styles):
            if piece.kind == inline.NOTE:
                return None  # the notes are numbered differently before the changes
            if piece.kind in (inline.TEXT, inline.TAB, inline.BREAK) and piece.ins is None and not piece.hidden:
                text.append(piece.text)
        prefix += "".join(text)
        ppr = first_child(p, T_PPR)
        rpr = first_child(ppr, _W + "rPr") if ppr is not None else None
        if rpr is not None and any(node.tag in _INSERTED_MARK for node in rpr):
            continue  # a paragraph mark the changes made: before them its text ran on into the next
        change = first_child(ppr, _W + "pPrChange") if ppr is not None else None
        if change is not None:
            ppr = first_child(change, T_PPR)
        style = first_child(ppr, T_PSTYLE) if ppr is not None else None
        style_id = style.get(W_VAL) if style is not None else None
        _stated, num, level = list_membership(doc.styles, doc.numbering, style_id,
                                              first_child(ppr, T_NUMPR) if ppr is not None else None)
        numbered = None
        if num is not None:
            numbered = (str(int(num)) if num.lstrip("-").isdigit() else num, level)
        entries.append((p.get(W14_PARA_ID), prefix, style_id, numbered))
        prefix = ""
    return entries, prefix
