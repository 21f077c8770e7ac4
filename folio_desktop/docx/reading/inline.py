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
from ..package.ooxml import MC_ALTERNATE, MC_CHOICE, MC_FALLBACK, W_NS, W_VAL, on_off

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

    def note_marker(self, note_type: str) -> str:
        """The marker of the story's next note reference: [^3] for a footnote, [^e3] for an endnote."""
        if note_type == "footnote":
            self.footnotes += 1
            return f"[^{self.footnotes}]"
        self.endnotes += 1
        return f"[^e{self.endnotes}]"


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


def _hidden(rpr: etree._Element | None, hidden_styles) -> bool:
    """Whether a run whose w:rPr is rpr is hidden (w:vanish, or a hidden style)."""
    default = getattr(hidden_styles, "runs_hidden", False)
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

    Text in a complex field's instruction part is never produced; a field result is. The paragraph
    is walked whole when the first piece is asked for (the state it carries on is then where the
    paragraph leaves it); pieces() gives the list.
    """
    return iter(pieces(p, state, hidden_styles))


def pieces(p: etree._Element, state: StoryState, hidden_styles: frozenset[str] = frozenset()) -> list[Piece]:
    """iter_pieces as a list (a walk that appends to one list: no generator per run and container)."""
    if isinstance(hidden_styles, HiddenStyles):
        hidden_styles = hidden_styles.for_paragraph(p)
    out: list[Piece] = []
    _walk(p, state, hidden_styles, None, None, out)
    return out


def _walk(parent, state, hidden_styles, ins, dele, out: list) -> None:
    for child in parent:
        tag = child.tag
        if tag == T_R:
            _run(child, state, hidden_styles, ins, dele, out)
        elif tag in _INERT:
            continue
        elif tag in _TRANSPARENT:
            _walk(child, state, hidden_styles, ins, dele, out)
        elif tag in _REVISION_INS:
            _walk(child, state, hidden_styles, child, dele, out)
        elif tag in _REVISION_DEL:
            _walk(child, state, hidden_styles, ins, child, out)
        elif tag == T_SDT:
            content = child.find(T_SDT_CONTENT)
            if content is not None:
                _walk(content, state, hidden_styles, ins, dele, out)
        elif tag == T_CSTART:
            out.append(Piece(COMMENT_START, "", None, ins, dele, False, child.get(_W + "id")))
        elif tag == T_CEND:
            out.append(Piece(COMMENT_END, "", None, ins, dele, False, child.get(_W + "id")))
        elif tag == MC_ALTERNATE:
            branch = child.find(MC_CHOICE)
            if branch is None:
                branch = child.find(MC_FALLBACK)
            if branch is not None:
                _walk(branch, state, hidden_styles, ins, dele, out)
        elif tag == M_T:
            if not state.fields or not state.in_field_code():
                out.append(Piece(TEXT, child.text or "", None, ins, dele, False, None, child))
        elif isinstance(tag, str) and tag.startswith("{http://schemas.openxmlformats.org/officeDocument/2006/math}"):
            _walk(child, state, hidden_styles, ins, dele, out)


def _run(run, state, hidden_styles, ins, dele, out: list) -> None:
    children = list(run)  # (each child's tag is read twice: the first time keeps it on the element)
    rpr = None
    for child in children:
        if child.tag == T_RPR:
            rpr = child
            break
    hidden = _hidden(rpr, hidden_styles)
    fields = state.fields
    append = out.append
    for child in children:
        tag = child.tag
        if tag == T_T or tag == T_DELTEXT:
            if fields and state.in_field_code():
                continue
            text = child.text
            if text:
                append(Piece(TEXT, text, run, ins, dele, hidden, None, child))
        elif tag == T_RPR:
            continue
        elif tag == T_FLDCHAR:
            kind = child.get(T_FLDCHAR_TYPE)
            if kind == "begin":
                fields.append(False)
            elif kind == "separate":
                if fields:
                    fields[-1] = True
            elif kind == "end":
                if fields:
                    fields.pop()
        elif fields and state.in_field_code():
            continue
        elif tag == T_TAB or tag == T_PTAB:
            append(Piece(TAB, "\t", run, ins, dele, hidden, None, child))
        elif tag == T_BR:
            btype = child.get(_W + "type")
            if btype == "page" or btype == "column":
                append(Piece(PAGE_BREAK, "", run, ins, dele, hidden, btype, child))
            else:
                append(Piece(BREAK, "\n", run, ins, dele, hidden, child.get(_W + "clear"), child))
        elif tag == T_CR:
            append(Piece(BREAK, "\n", run, ins, dele, hidden, None, child))
        elif tag == T_NBH:
            append(Piece(TEXT, "-", run, ins, dele, hidden, None, child))
        elif tag == T_SYM:
            code = child.get(_W + "char")
            if code:
                try:
                    from ..model.numbering import bullet_glyph

                    append(Piece(TEXT, bullet_glyph(chr(int(code, 16)), child.get(_W + "font")), run, ins, dele,
                                 hidden, None, child))
                except ValueError:
                    pass
        elif tag == T_DRAWING:
            _drawing(child, run, ins, dele, hidden, out)
        elif tag == T_PICT or tag == T_OBJECT:
            drawing = child.find(T_DRAWING)
            if drawing is not None:  # an embedded object Word shows through a DrawingML picture
                _drawing(drawing, run, ins, dele, hidden, out)
            else:
                size = vml_size(child)
                if size is not None:
                    append(Piece(OBJECT, "", run, ins, dele, hidden, f"inline:{size[1]}:{size[2]}", size[0]))
        elif tag == T_FOOTNOTE_REF:
            append(Piece(NOTE, "", run, ins, dele, hidden, "footnote", child))
        elif tag == T_ENDNOTE_REF:
            append(Piece(NOTE, "", run, ins, dele, hidden, "endnote", child))
        elif tag == MC_ALTERNATE:
            branch = child.find(MC_CHOICE)
            if branch is None:
                branch = child.find(MC_FALLBACK)
            if branch is not None:
                start = len(out)
                _run(branch, state, hidden_styles, ins, dele, out)  # the branch's children are run content
                for sub in out[start:]:
                    sub.run = run


def _drawing(drawing, run, ins, dele, hidden, out: list) -> None:
    """The OBJECT piece of a w:drawing: its wp:inline or wp:anchor, sized by wp:extent (never by the
    picture's own bytes: an EMF or WMF Qt cannot decode takes the same room)."""
    for holder in drawing:
        extent = holder.find(f"{{{WP_NS}}}extent")
        if extent is None:
            continue
        kind = "inline" if holder.tag == f"{{{WP_NS}}}inline" else "anchor"
        out.append(Piece(OBJECT, "", run, ins, dele, hidden,
                         f"{kind}:{extent.get('cx', '0')}:{extent.get('cy', '0')}", holder))


VML_NS = "urn:schemas-microsoft-com:vml"
# the VML elements that draw something (v:shapetype only defines a type for them)
_VML_SHAPES = frozenset(f"{{{VML_NS}}}{name}" for name in (
    "shape", "rect", "roundrect", "oval", "group", "image", "line", "polyline", "arc", "curve"))
_EMU_PER = {"pt": 12700, "in": 914400, "cm": 360000, "mm": 36000, "pc": 152400, "px": 9525, "": 9525}


def _vml_length(raw: str | None) -> int | None:
    """EMU of a VML style length ("468pt", "2.5in", "120"; a bare number is in px)."""
    raw = (raw or "").strip().lower()
    unit = raw[-2:] if raw[-2:] in _EMU_PER else ""
    try:
        return round(float(raw[: len(raw) - len(unit)]) * _EMU_PER[unit])
    except ValueError:
        return None


def vml_size(carrier: etree._Element) -> tuple[etree._Element, int, int] | None:
    """(the shape, width, height in EMU) of the inline VML picture of a w:pict or w:object: its
    first shape's style width and height, the size Word shows it at (an OLE object's w:dxaOrig and
    w:dyaOrig, in twips, are its original size, read only when the shape gives none). None for a
    shape positioned absolutely: a floating VML shape takes no room on the line."""
    shape = next((el for el in carrier if el.tag in _VML_SHAPES), None)
    style: dict[str, str] = {}
    if shape is not None:
        for item in (shape.get("style") or "").split(";"):
            name, _, value = item.partition(":")
            style[name.strip().lower()] = value.strip()
        if style.get("position") == "absolute":
            return None
    w, h = _vml_length(style.get("width")), _vml_length(style.get("height"))
    if (w is None or h is None) and carrier.tag == T_OBJECT:
        try:
            w, h = int(carrier.get(_W + "dxaOrig", "")) * 635, int(carrier.get(_W + "dyaOrig", "")) * 635
        except ValueError:
            return None
    if w is None or h is None or w <= 0 or h <= 0:
        return None
    return (shape if shape is not None else carrier), w, h


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


def _visit_boxes(carrier: etree._Element, found: list) -> None:
    """The text boxes inside one carrier, in document order (a loop, not a recursive closure: a
    closure that calls itself is a reference cycle, garbage the paused collector would keep)."""
    stack = [iter(carrier)]
    while stack:
        child = next(stack[-1], None)
        if child is None:
            stack.pop()
            continue
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
                stack.append(iter(branch))
        elif isinstance(tag, str):
            stack.append(iter(child))
