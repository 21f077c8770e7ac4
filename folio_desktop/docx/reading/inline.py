"""Walking the inline content of one paragraph as pieces of text (spec §5.5).

A piece is what a reader sees at one spot: text, a tab, a line break, a page break carrier, a note
marker. Each carries the run it came from and the revision wrapper (w:ins / w:del / moves) around
it, so the accepted view, the annotated view, comment quotes and the change census all read the
document through this one walk.

State that crosses paragraph boundaries (complex fields such as a TOC span many paragraphs; comment
ranges can start in one paragraph and end in another; notes are numbered over the story) lives in
a StoryState that the caller threads through the paragraphs of one story.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from lxml import etree

from ..model.styles import HiddenStyles
from ..package.ooxml import MC_ALTERNATE, MC_CHOICE, MC_FALLBACK, W_NS, W_VAL, first_child, on_off

# piece kinds (OBJECT: a drawing; it has no text in any view, only a size for the layout)
TEXT, TAB, BREAK, PAGE_BREAK, NOTE, COMMENT_START, COMMENT_END, OBJECT = range(8)
WP_NS = "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"

_W = "{" + W_NS + "}"
T_R = _W + "r"
T_T = _W + "t"
T_DELTEXT = _W + "delText"
T_TAB = _W + "tab"
T_PTAB = _W + "ptab"
T_BR = _W + "br"
T_CR = _W + "cr"
T_RPR = _W + "rPr"
T_VANISH = _W + "vanish"
T_RSTYLE = _W + "rStyle"
T_FLDCHAR = _W + "fldChar"
T_FOOTNOTE_REF = _W + "footnoteReference"
T_ENDNOTE_REF = _W + "endnoteReference"
T_SYM = _W + "sym"
T_NBH = _W + "noBreakHyphen"
T_INS = _W + "ins"
T_DEL = _W + "del"
T_MOVE_FROM = _W + "moveFrom"
T_MOVE_TO = _W + "moveTo"
T_CSTART = _W + "commentRangeStart"
T_CEND = _W + "commentRangeEnd"
T_FLDSIMPLE = _W + "fldSimple"
T_SDT = _W + "sdt"
T_SDT_CONTENT = _W + "sdtContent"
T_PPR = _W + "pPr"
T_PSTYLE = _W + "pStyle"
T_DRAWING = _W + "drawing"
T_PICT = _W + "pict"
T_OBJECT = _W + "object"
T_TXBX = _W + "txbxContent"
T_FLDCHAR_TYPE = _W + "fldCharType"
M_T = "{http://schemas.openxmlformats.org/officeDocument/2006/math}t"

# Inline containers whose children are walked as if they stood in the paragraph.
_TRANSPARENT = {
    _W + "hyperlink", _W + "smartTag", _W + "customXml", _W + "bdo", _W + "dir", T_FLDSIMPLE,
    "{http://schemas.openxmlformats.org/officeDocument/2006/math}oMathPara",
    "{http://schemas.openxmlformats.org/officeDocument/2006/math}oMath",
}
# What a paragraph holds besides its content, skipped before the tests below (Word writes a
# proofing mark or bookmark beside nearly every run)
_INERT = {T_PPR, *(_W + name for name in (
    "proofErr", "bookmarkStart", "bookmarkEnd", "permStart", "permEnd", "moveFromRangeStart", "moveFromRangeEnd",
    "moveToRangeStart", "moveToRangeEnd"))}
_REVISION_INS = {T_INS, T_MOVE_TO}
_REVISION_DEL = {T_DEL, T_MOVE_FROM}


@dataclass
class StoryState:
    """What carries over from one paragraph to the next while walking a story."""

    fields: list[bool] = field(default_factory=list)  # per open complex field: in its result part?
    footnotes: int = 0
    endnotes: int = 0

    def in_field_code(self) -> bool:
        return False in self.fields  # (some open field is still in its instruction part)


@dataclass(slots=True)
class Piece:
    kind: int
    text: str
    run: etree._Element | None
    ins: etree._Element | None
    dele: etree._Element | None
    hidden: bool = False
    extra: str | None = None  # comment id, break clear value, or note type
    node: etree._Element | None = None  # the w:t / w:tab / w:br / note reference element itself


def run_is_hidden(run: etree._Element, hidden_styles) -> bool:
    default = getattr(hidden_styles, "runs_hidden", False)
    rpr = first_child(run, T_RPR)
    if rpr is None:
        return default
    rstyle = None
    for node in rpr:  # (one pass for both: this runs for every run the engine reads)
        tag = node.tag
        if tag == T_VANISH:
            return on_off(node)
        if tag == T_RSTYLE:
            rstyle = node
    if hidden_styles and rstyle is not None and rstyle.get(W_VAL) in hidden_styles:
        return True
    return default


def iter_pieces(
    p: etree._Element, state: StoryState, hidden_styles: frozenset[str] = frozenset()
) -> Iterator[Piece]:
    """Every piece of paragraph p in reading order, deleted and hidden pieces included (flagged).

    Text in a complex field's instruction part is never produced; a field result is.
    """
    if isinstance(hidden_styles, HiddenStyles):
        hidden_styles = hidden_styles.for_paragraph(p)
    yield from _walk(p, state, hidden_styles, None, None)


def _walk(parent, state, hidden_styles, ins, dele) -> Iterator[Piece]:
    for child in parent:
        tag = child.tag
        if tag == T_R:
            yield from _run(child, state, hidden_styles, ins, dele)
        elif tag in _INERT:
            continue
        elif tag in _TRANSPARENT:
            yield from _walk(child, state, hidden_styles, ins, dele)
        elif tag in _REVISION_INS:
            yield from _walk(child, state, hidden_styles, child, dele)
        elif tag in _REVISION_DEL:
            yield from _walk(child, state, hidden_styles, ins, child)
        elif tag == T_SDT:
            content = child.find(T_SDT_CONTENT)
            if content is not None:
                yield from _walk(content, state, hidden_styles, ins, dele)
        elif tag == T_CSTART:
            yield Piece(COMMENT_START, "", None, ins, dele, extra=child.get(_W + "id"))
        elif tag == T_CEND:
            yield Piece(COMMENT_END, "", None, ins, dele, extra=child.get(_W + "id"))
        elif tag == MC_ALTERNATE:
            branch = child.find(MC_CHOICE)
            if branch is None:
                branch = child.find(MC_FALLBACK)
            if branch is not None:
                yield from _walk(branch, state, hidden_styles, ins, dele)
        elif tag == M_T:
            if not state.fields or not state.in_field_code():
                yield Piece(TEXT, child.text or "", None, ins, dele, node=child)
        elif isinstance(tag, str) and tag.startswith("{http://schemas.openxmlformats.org/officeDocument/2006/math}"):
            yield from _walk(child, state, hidden_styles, ins, dele)


def _run(run, state, hidden_styles, ins, dele) -> Iterator[Piece]:
    hidden = run_is_hidden(run, hidden_styles)
    for child in run:
        tag = child.tag
        if tag == T_T or tag == T_DELTEXT:
            if state.fields and state.in_field_code():
                continue
            text = child.text
            if text:
                yield Piece(TEXT, text, run, ins, dele, hidden, node=child)
        elif tag == T_FLDCHAR:
            kind = child.get(T_FLDCHAR_TYPE)
            if kind == "begin":
                state.fields.append(False)
            elif kind == "separate":
                if state.fields:
                    state.fields[-1] = True
            elif kind == "end":
                if state.fields:
                    state.fields.pop()
        elif state.fields and state.in_field_code():
            continue
        elif tag == T_TAB or tag == T_PTAB:
            yield Piece(TAB, "\t", run, ins, dele, hidden, node=child)
        elif tag == T_BR:
            btype = child.get(_W + "type")
            if btype == "page" or btype == "column":
                yield Piece(PAGE_BREAK, "", run, ins, dele, hidden, extra=btype, node=child)
            else:
                yield Piece(BREAK, "\n", run, ins, dele, hidden, extra=child.get(_W + "clear"), node=child)
        elif tag == T_CR:
            yield Piece(BREAK, "\n", run, ins, dele, hidden, node=child)
        elif tag == T_NBH:
            yield Piece(TEXT, "-", run, ins, dele, hidden, node=child)
        elif tag == T_SYM:
            code = child.get(_W + "char")
            if code:
                try:
                    from ..model.numbering import bullet_glyph

                    yield Piece(TEXT, bullet_glyph(chr(int(code, 16)), child.get(_W + "font")), run, ins, dele, hidden,
                                node=child)
                except ValueError:
                    pass
        elif tag == T_DRAWING:
            for holder in child:
                extent = holder.find(f"{{{WP_NS}}}extent")
                if extent is None:
                    continue
                kind = "inline" if holder.tag == f"{{{WP_NS}}}inline" else "anchor"
                yield Piece(OBJECT, "", run, ins, dele, hidden,
                            extra=f"{kind}:{extent.get('cx', '0')}:{extent.get('cy', '0')}", node=holder)
        elif tag == T_FOOTNOTE_REF or tag == T_ENDNOTE_REF:
            if tag == T_FOOTNOTE_REF:
                yield Piece(NOTE, "", run, ins, dele, hidden, extra="footnote", node=child)
            else:
                yield Piece(NOTE, "", run, ins, dele, hidden, extra="endnote", node=child)
        elif tag == MC_ALTERNATE:
            branch = child.find(MC_CHOICE)
            if branch is None:
                branch = child.find(MC_FALLBACK)
            if branch is not None:
                fake_run = branch  # children of the branch are run content
                for sub in _run(fake_run, state, hidden_styles, ins, dele):
                    sub.run = run
                    yield sub


def text_boxes(p: etree._Element) -> list[etree._Element]:
    """The w:txbxContent elements anchored in a paragraph's runs (never the mc:Fallback copy)."""
    found: list[etree._Element] = []
    for run in p.iter(T_DRAWING, T_PICT, T_OBJECT, MC_ALTERNATE):
        # only outermost carriers: nested ones are reached through their own paragraphs
        anc = run.getparent()
        nested = False
        while anc is not None and anc is not p:
            if anc.tag in (T_DRAWING, T_PICT, T_OBJECT, MC_ALTERNATE, T_TXBX):
                nested = True
                break
            anc = anc.getparent()
        if not nested:
            _visit_boxes(run, found)
    return found


def _visit_boxes(el: etree._Element, found: list) -> None:
    # a module function, not a closure that calls itself: that would be a reference cycle per
    # paragraph read, garbage only the cycle collector frees (16 000 of them per read of a long contract)
    for child in el:
        tag = child.tag
        if tag == T_TXBX:
            found.append(child)
        elif tag == MC_FALLBACK or tag == T_PPR:
            continue
        elif tag == MC_ALTERNATE:
            branch = child.find(MC_CHOICE)
            if branch is None:
                branch = child.find(MC_FALLBACK)
            if branch is not None:
                _visit_boxes(branch, found)
        elif isinstance(tag, str):
            _visit_boxes(child, found)
