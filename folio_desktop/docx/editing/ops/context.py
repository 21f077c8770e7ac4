"""What an operation implementation gets to work with, and small helpers they share."""

from __future__ import annotations

import copy
import re
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from lxml import etree

from ...model.textkit import utf16_to_index
from ...package.ooxml import W14_PARA_ID, W14_TEXT_ID, W_NS, W_PPR, W_RPR
from ..paragraph_edit import EditError, JoinedView, ParagraphView, Stamp
from .paragraph_props import PPR_ORDER, ensure_ppr, property_elements

if TYPE_CHECKING:
    from ...model.document import Document
    from ...reading.blocks import Block, Snapshot

_W = "{" + W_NS + "}"
T_P, T_TBL, T_TC, T_BODY = _W + "p", _W + "tbl", _W + "tc", _W + "body"


class RecordingStamp(Stamp):
    """A stamp that remembers the revision ids it issued for one operation."""

    def __init__(self, base: Stamp, tag_override: dict[str, str] | None = None):
        super().__init__(base.author, base.date, base.cursor)
        self.issued: list[int] = []
        self.tag_override = tag_override or {}

    def next_id(self) -> int:
        value = super().next_id()
        self.issued.append(value)
        return value

    def mark(self, tag: str) -> etree._Element:
        return super().mark(self.tag_override.get(tag, tag))


@dataclass
class OpContext:
    doc: Document
    op: dict
    index: int
    snapshot: Snapshot
    block: Block | None
    mode: str
    stamp: RecordingStamp
    comments: Any  # CommentStore, created on first use
    taken_ids: set[str]
    resolved: dict = field(default_factory=dict)  # what resolution found (offsets, table cells, ...)
    normalizations: list[dict] = field(default_factory=list)
    comment_id: int | None = None
    created: list[etree._Element] = field(default_factory=list)
    move: str | None = None  # "from" / "to" when this operation is one side of a tracked move
    move_name: str | None = None

    @property
    def tracked(self) -> bool:
        return self.mode == "tracked-changes"

    @property
    def op_id(self) -> str:
        return self.op["id"]

    def run_stamp(self) -> Stamp | None:
        return self.stamp if self.tracked else None

    def view(self, p: etree._Element | None = None, block: Block | None = None) -> ParagraphView:
        block = block or self.block
        if p is None and block.joined:  # paragraphs joined by deleted marks read as one (accepted.py)
            return JoinedView(block.paragraphs, self.doc.hidden_character_styles, note_texts(block))
        p = p if p is not None else block.element
        return ParagraphView(p, self.doc.hidden_character_styles, note_texts(block))

    def new_para_id(self) -> str:
        while True:
            candidate = f"{secrets.randbelow(0x7FFFFFFE) + 1:08X}"
            if candidate not in self.taken_ids:
                self.taken_ids.add(candidate)
                return candidate

    def normalize(self, code: str, **extra) -> None:
        self.normalizations.append({"operationId": self.op_id, "code": code, **extra})


def note_texts(block: Block | None) -> list[str]:
    if block is None:
        return []
    out = []
    for boundary in block.structural_boundaries or ():
        if boundary.get("type") == "noteReference":
            start = utf16_to_index(block.text, boundary["offset"]) or 0
            out.append(block.text[start:start + boundary["length"]])
    return out


def new_paragraph(ctx: OpContext) -> etree._Element:
    p = etree.Element(T_P)
    pid = ctx.new_para_id()
    p.set(W14_PARA_ID, pid)
    p.set(W14_TEXT_ID, pid)
    return p


def append_runs(ctx: OpContext, p: etree._Element, runs: list[etree._Element]) -> None:
    """Add new runs at the end of a paragraph, inside one w:ins when tracked (w:moveTo in a move)."""
    if not runs:
        return
    if ctx.tracked:
        wrapper = ctx.stamp.mark("ins")
        for run in runs:
            wrapper.append(run)
        p.append(wrapper)
    else:
        for run in runs:
            p.append(run)


def copied_paragraph_properties(ppr: etree._Element | None, drop=("pPrChange", "sectPr")) -> etree._Element | None:
    """A copy of paragraph properties for a new paragraph: no revision marks, no section break."""
    if ppr is None:
        return None
    out = copy.deepcopy(ppr)
    for tag in drop:
        for el in out.findall(_W + tag):
            out.remove(el)
    mark = out.find(W_RPR)
    if mark is not None:
        for tag in ("ins", "del", "moveFrom", "moveTo", "rPrChange"):
            for el in mark.findall(_W + tag):
                mark.remove(el)
    return out


def mark_paragraph(ctx: OpContext, p: etree._Element, tag: str) -> None:
    """Record the paragraph mark itself as inserted or deleted (w:pPr/w:rPr/w:ins|w:del)."""
    ppr = ensure_ppr(p)
    rpr = ppr.find(W_RPR)
    if rpr is None:
        rpr = etree.Element(W_RPR)
        rank = PPR_ORDER.index("rPr")
        for i, child in enumerate(ppr):
            local = child.tag[len(_W):]
            if local in PPR_ORDER and PPR_ORDER.index(local) > rank:
                ppr.insert(i, rpr)
                break
        else:
            ppr.append(rpr)
    for old in rpr.findall(_W + "ins") + rpr.findall(_W + "del"):
        rpr.remove(old)
    rpr.insert(0, ctx.stamp.mark(tag))


def record_ppr_change(ctx: OpContext, p: etree._Element) -> None:
    """Keep the paragraph's current properties in a w:pPrChange before they are changed."""
    ppr = ensure_ppr(p)
    if ppr.find(_W + "pPrChange") is not None:
        raise EditError("pendingParagraphPropertyChange",
                        "the paragraph already carries a pending paragraph-property change")
    change = ctx.stamp.mark("pPrChange")
    old = etree.SubElement(change, W_PPR)
    for el in property_elements(ppr):
        old.append(copy.deepcopy(el))
    ppr.append(change)


def same_properties(before: list[etree._Element], after: list[etree._Element]) -> bool:
    return [etree.tostring(e) for e in before] == [etree.tostring(e) for e in after]


def container_of(p: etree._Element) -> etree._Element:
    return p.getparent()


def is_last_paragraph(p: etree._Element) -> bool:
    """A paragraph its container cannot lose (the last one of a body, cell, note, header, text box)."""
    el = p
    while True:
        sib = el.getnext()
        while sib is not None:
            if sib.tag in (T_P, T_TBL, _W + "sdt", _W + "customXml"):
                return False
            sib = sib.getnext()
        parent = el.getparent()
        if parent is None:
            return True
        if parent.tag == _W + "sdtContent" and parent.getparent() is not None:
            el = parent.getparent()
        elif parent.tag == _W + "customXml":
            el = parent
        else:
            return True


def outer_table(p: etree._Element) -> etree._Element | None:
    """The outermost table a paragraph sits in, or None."""
    found = None
    anc = p.getparent()
    while anc is not None:
        if anc.tag == T_TBL:
            found = anc
        anc = anc.getparent()
    return found


_EMPHASIS = re.compile(r"\*\*\*(.+?)\*\*\*|\*\*(.+?)\*\*")


def parse_emphasis(text: str) -> list[tuple[str, bool, bool]]:
    """`***bold italic***` and `**bold**` as real formatting: [(text, bold, italic)]."""
    out: list[tuple[str, bool, bool]] = []
    pos = 0
    for m in _EMPHASIS.finditer(text):
        if m.start() > pos:
            out.append((text[pos:m.start()], False, False))
        if m.group(1) is not None:
            out.append((m.group(1), True, True))
        else:
            out.append((m.group(2), True, False))
        pos = m.end()
    if pos < len(text) or not out:
        out.append((text[pos:], False, False))
    return out


__all__ = ["EditError", "OpContext", "append_runs", "copied_paragraph_properties", "RecordingStamp", "new_paragraph", "mark_paragraph", "record_ppr_change",
           "parse_emphasis", "outer_table", "is_last_paragraph", "same_properties", "note_texts", "container_of",
           "T_BODY", "T_TC"]
