"""Floating drawings (wp:anchor, ECMA-376 Part 1 §20.4): where Word puts them on the page, and how
their wrapping moves the text around them.

- Position (§20.4.2.10/11, §20.4.3.4/5): wp:positionH / wp:positionV give a base (relativeFrom:
  page, margin, column, character, leftMargin, ...; paragraph, line, topMargin, ...) and either an
  offset from its top-left edge (wp:posOffset, EMU; wp14:pctPosHOffset in thousandths of a
  percent) or an alignment in it (wp:align left/center/right/inside/outside, top/center/bottom).
  simplePos="1" puts the object at wp:simplePos from the page's corner.
- Wrap (§20.4.2.15-20): square (tight and through are read as square: the object's box, not its
  polygon) narrows the lines beside the box plus distT/B/L/R on the side(s) wrapText leaves to the
  text; top-and-bottom moves the lines it would cross to below it; none leaves the text alone
  (behindDoc decides whether the object paints under or over it).
- Content: pictures (pic:pic, the blip's r:embed into the story part's media), shapes and text
  boxes (wps:wsp with wps:txbx/w:txbxContent, laid out inside the box less its insets), groups
  (wpg:wgp, children mapped from the group's child coordinates).

Only geometry is computed here; the media bytes are read and decoded when a page is painted
(ui/pages/drawings.py), so layout stays as fast with pictures as without.

Known limits: an object wraps the text laid out after it on its page (Word also wraps the lines
above its anchor paragraph when the object reaches up there); objects in table cells and in
headers are drawn but do not wrap body text; wrap polygons are read as their bounding box.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field, replace

from lxml import etree
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QTextLayout

from ..docx.errors import DocxError
from ..docx.reading.inline import VML_NS, vml_size
from .model import EMU, TWIP, Fragment, Line, MeasuredParagraph, Page

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
WP = "{http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing}"
WP14 = "{http://schemas.microsoft.com/office/word/2010/wordprocessingDrawing}"
A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
PIC = "{http://schemas.openxmlformats.org/drawingml/2006/picture}"
WPS = "{http://schemas.microsoft.com/office/word/2010/wordprocessingShape}"
WPG = "{http://schemas.microsoft.com/office/word/2010/wordprocessingGroup}"
R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
V = "{" + VML_NS + "}"
CHART_URI = "http://schemas.openxmlformats.org/drawingml/2006/chart"
T_ANCHOR, T_INLINE = WP + "anchor", WP + "inline"
# a line beside an object needs room for a few characters, or it goes below (Word leaves a
# sliver this narrow empty rather than set one letter in it)
MIN_SEGMENT = 24.0
# the default text box insets (wps:bodyPr lIns/tIns/rIns/bIns, §21.1.2.1.1): 0.1" and 0.05"
INSETS = (91440 * EMU, 45720 * EMU, 91440 * EMU, 45720 * EMU)  # left, top, right, bottom
_SCHEME = {"bg1": "lt1", "tx1": "dk1", "bg2": "lt2", "tx2": "dk2", "phClr": "accent1"}


@dataclass
class Shape:
    """One thing drawn in a drawing's box (page px)."""

    rect: QRectF
    kind: str  # picture | shape | chart
    embed: str | None = None  # a picture's blip r:embed, in the story's part
    fill: str | None = None  # "#RRGGBB"
    line: str | None = None
    line_width: float = 0.0
    geometry: str = "rect"  # a:prstGeom prst (rect, roundRect, ellipse are drawn as such)
    text: list[Fragment] = field(default_factory=list)  # a text box's paragraphs, laid out


@dataclass
class Drawing:
    """A floating drawing placed on a page."""

    rect: QRectF  # the object's extent on the page (px)
    wrap: str  # square | topAndBottom | none
    side: str  # bothSides | left | right | largest
    dist: tuple[float, float, float, float]  # distance from text: top, bottom, left, right (px)
    behind: bool  # behindDoc: painted under the text
    z: int  # relativeHeight: the stacking order among drawings
    story: str  # the story whose paragraph anchors it (main, header:rId, ...): its part has the media
    shapes: list[Shape] = field(default_factory=list)
    effect: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)  # wp:effectExtent l, t, r, b
    in_flow: bool = True  # anchored in a body paragraph of the flow: its wrap moves the body text

    @property
    def exclusion(self) -> QRectF:
        """The box text keeps clear of: the extent plus its effects (shadows) and the distances."""
        t, b, left, right = self.dist
        el, et, er, eb = self.effect
        r = self.rect
        return QRectF(r.x() - el - left, r.y() - et - t, r.width() + el + er + left + right,
                      r.height() + et + eb + t + b)


# -- reading an anchor -------------------------------------------------------------------------------


def _emu(raw, default: float = 0.0) -> float:
    try:
        return int(raw) * EMU
    except (TypeError, ValueError):
        return default


def _position(el):
    """(relativeFrom, ("offset", px) | ("align", value) | ("pct", fraction)) of a wp:positionH/V."""
    if el is None:
        return None
    base = el.get("relativeFrom", "")
    offset = el.find(WP + "posOffset")
    if offset is not None:
        return base, ("offset", _emu((offset.text or "").strip()))
    align = el.find(WP + "align")
    if align is not None:
        return base, ("align", (align.text or "").strip())
    pct = el.find(WP14 + "pctPosHOffset")
    if pct is None:
        pct = el.find(WP14 + "pctPosVOffset")
    if pct is not None:
        try:
            return base, ("pct", int((pct.text or "0").strip()) / 100000)
        except ValueError:
            pass
    return base, ("offset", 0.0)


def _wrap(anchor) -> tuple[str, str, etree._Element | None]:
    for child in anchor:
        tag = child.tag
        if tag in (WP + "wrapSquare", WP + "wrapTight", WP + "wrapThrough"):
            return "square", child.get("wrapText", "bothSides"), child
        if tag == WP + "wrapTopAndBottom":
            return "topAndBottom", "bothSides", child
        if tag == WP + "wrapNone":
            return "none", "bothSides", child
    return "none", "bothSides", None


def _on(raw) -> bool:
    return (raw or "").lower() in ("1", "true", "on")


def _place_axis(base: tuple[float, float], how, size: float, inside_is_start: bool = True) -> float:
    start, end = base
    mode, value = how
    if mode == "offset":
        return start + value
    if mode == "pct":
        return start + value * (end - start)
    if value in ("center",):
        return start + (end - start - size) / 2
    if value in ("right", "bottom") or (value == "outside" and inside_is_start) or \
            (value == "inside" and not inside_is_start):
        return end - size
    return start  # left, top, inside (odd page)


# -- the frames an anchor is positioned against ---------------------------------------------------


def _frames(pg, page: Page, column, para: MeasuredParagraph, top: float, x0: float, offset: int):
    """Horizontal and vertical bases (start, end) in page px for each relativeFrom value."""
    s = pg.section
    left = (s.margin_left + s.gutter) * TWIP
    right = page.width - s.margin_right * TWIP
    m_top = abs(s.margin_top) * TWIP
    m_bottom = page.height - abs(s.margin_bottom) * TWIP
    char_x, line_top = x0 + para.x, top
    try:
        qline = para.layout.lineForTextPosition(min(offset, max(len(para.text) - 1, 0)))
        if qline.isValid():
            char_x = x0 + para.x + qline.cursorToX(offset)[0]
            line_top = top + para.lines[qline.lineNumber()].y
    except (IndexError, RuntimeError):
        pass
    horizontal = {
        "page": (0.0, page.width), "margin": (left, right), "column": (column.x, column.x + column.width),
        "character": (char_x, char_x), "leftMargin": (0.0, left), "rightMargin": (right, page.width),
        "insideMargin": (0.0, left), "outsideMargin": (right, page.width),
    }
    vertical = {
        "page": (0.0, page.height), "margin": (m_top, m_bottom), "paragraph": (top, top + para.content_height),
        "line": (line_top, line_top), "topMargin": (0.0, m_top), "bottomMargin": (m_bottom, page.height),
        "insideMargin": (0.0, m_top), "outsideMargin": (m_bottom, page.height),
    }
    return horizontal, vertical


def place_anchor(pg, anchor, page: Page, column, para: MeasuredParagraph, top: float, x0: float, offset: int,
                 story: str) -> Drawing | None:
    """The drawing of one wp:anchor of a paragraph whose first line's top is at page y `top` and
    whose column (text area origin) starts at page x `x0`."""
    extent = anchor.find(WP + "extent")
    if extent is None:
        return None
    w, h = _emu(extent.get("cx")), _emu(extent.get("cy"))
    if _on(anchor.get("simplePos")) and anchor.find(WP + "simplePos") is not None:
        sp = anchor.find(WP + "simplePos")
        x, y = _emu(sp.get("x")), _emu(sp.get("y"))
    else:
        horizontal, vertical = _frames(pg, page, column, para, top, x0, offset)
        odd = page.number % 2 == 1
        ph = _position(anchor.find(WP + "positionH")) or ("column", ("align", "left"))
        pv = _position(anchor.find(WP + "positionV")) or ("paragraph", ("offset", 0.0))
        x = _place_axis(horizontal.get(ph[0], horizontal["column"]), ph[1], w, odd)
        y = _place_axis(vertical.get(pv[0], vertical["paragraph"]), pv[1], h, odd)
        if pv[0] not in vertical or pv[0] in ("paragraph", "line"):
            # an object that moves with its text stays on its anchor's page: near the page's foot
            # it is moved up until its bottom edge is the page's (Word)
            y = max(min(y, page.height - h), 0.0)
    wrap, side, wrap_el = _wrap(anchor)
    dist_holder = anchor if wrap_el is None or wrap_el.get("distT") is None else wrap_el
    dist = tuple(_emu(dist_holder.get(k) or anchor.get(k)) for k in ("distT", "distB", "distL", "distR"))
    effect_el = anchor.find(WP + "effectExtent")
    effect = tuple(_emu(effect_el.get(k)) for k in ("l", "t", "r", "b")) if effect_el is not None else (0.0,) * 4
    try:
        z = int(anchor.get("relativeHeight", "0"))
    except ValueError:
        z = 0
    rect = QRectF(x, y, w, h)
    drawing = Drawing(rect, wrap, side, dist, _on(anchor.get("behindDoc")), z, story, effect=effect)
    graphic = anchor.find(f"{A}graphic/{A}graphicData")
    if graphic is not None:
        drawing.shapes = list(_shapes(pg, graphic, rect, story))
    return drawing


def effect_extent(holder) -> tuple[float, float, float, float]:
    """(left, top, right, bottom) px a wp:inline's wp:effectExtent adds around its extent for
    shadows and outlines (ECMA-376 §20.4.2.6): Word's line holds them too. Zero for other holders."""
    effect = holder.find(WP + "effectExtent") if holder is not None else None
    if effect is None:
        return 0.0, 0.0, 0.0, 0.0
    left, top, right, bottom = (max(_emu(effect.get(k)), 0.0) for k in ("l", "t", "r", "b"))
    return left, top, right, bottom


def inline_picture(holder, x: float, baseline: float) -> QRectF | None:
    """Where an inline object whose room starts at page x `x` on a line with that baseline draws:
    a wp:inline its extent (inside its effect extent), a VML picture or OLE object (v:shape) its
    style size; None for anything else."""
    if holder.tag == T_INLINE:
        extent = holder.find(WP + "extent")
        if extent is None:
            return None
        left, _top, _right, bottom = effect_extent(holder)
        w, h = _emu(extent.get("cx")), _emu(extent.get("cy"))
        return QRectF(x + left, baseline - bottom - h, w, h)
    if holder.tag.startswith(V):
        size = vml_size(holder.getparent())
        if size is None:
            return None
        return QRectF(x, baseline - size[2] * EMU, size[1] * EMU, size[2] * EMU)
    return None


def inline_shapes(holder, rect: QRectF) -> list[Shape]:
    """What a wp:inline or an inline VML shape draws in the room its line holds: its picture, or a
    chart's placeholder (inline shapes and groups keep their room but are not drawn yet)."""
    if holder.tag.startswith(V):  # a VML picture or an OLE object's preview (v:imagedata)
        data = holder.find(V + "imagedata")
        return [Shape(rect, "picture", embed=data.get(R + "id") if data is not None else None)]
    graphic = holder.find(f"{A}graphic/{A}graphicData")
    if graphic is None:
        return []
    pic = graphic.find(PIC + "pic")
    if pic is not None:
        return [_picture(pic, rect)]
    return [Shape(rect, "chart")] if graphic.get("uri") == CHART_URI else []


def _shapes(pg, graphic, rect: QRectF, story: str):
    uri = graphic.get("uri", "")
    for child in graphic:
        if child.tag == PIC + "pic":
            yield _picture(child, rect)
        elif child.tag == WPS + "wsp":
            yield _shape(pg, child, rect, story)
        elif child.tag == WPG + "wgp":
            yield from _group(pg, child, rect, story)
    if uri == CHART_URI:
        yield Shape(rect, "chart")


def _picture(pic, rect: QRectF) -> Shape:
    blip = pic.find(f"{PIC}blipFill/{A}blip")
    # r:link (an external picture) is never fetched: it draws as a placeholder
    return Shape(rect, "picture", embed=blip.get(R + "embed") if blip is not None else None)


def _color(pg, holder) -> str | None:
    """The colour of an a:solidFill (srgbClr, sysClr, or a theme schemeClr; modifiers ignored)."""
    if holder is None:
        return None
    for c in holder:
        if c.tag == A + "srgbClr" and len(c.get("val", "")) == 6:
            return "#" + c.get("val").upper()
        if c.tag == A + "sysClr" and len(c.get("lastClr", "")) == 6:
            return "#" + c.get("lastClr").upper()
        if c.tag == A + "schemeClr":
            name = c.get("val", "")
            value = pg.formatter.theme.colors.get(_SCHEME.get(name, name))
            return "#" + value if value else None
        if c.tag == A + "prstClr":
            return {"black": "#000000", "white": "#FFFFFF", "red": "#FF0000"}.get(c.get("val", ""))
    return None


def _shape(pg, wsp, rect: QRectF, story: str) -> Shape:
    sppr = wsp.find(WPS + "spPr")
    shape = Shape(rect, "shape")
    if sppr is not None:
        geom = sppr.find(A + "prstGeom")
        shape.geometry = geom.get("prst", "rect") if geom is not None else "rect"
        shape.fill = _color(pg, sppr.find(A + "solidFill"))
        ln = sppr.find(A + "ln")
        if ln is not None and ln.find(A + "noFill") is None:
            shape.line = _color(pg, ln.find(A + "solidFill"))
            shape.line_width = _emu(ln.get("w"), 9525 * EMU) if shape.line else 0.0
        if sppr.find(A + "solidFill") is None and sppr.find(A + "noFill") is None:
            # no fill of its own: the shape style's fill reference (Word's blue default shape)
            ref = wsp.find(f"{WPS}style/{A}fillRef")
            if ref is not None and ref.get("idx", "0") != "0":
                shape.fill = _color(pg, ref)
        if ln is None:
            ref = wsp.find(f"{WPS}style/{A}lnRef")
            if ref is not None and ref.get("idx", "0") != "0":
                shape.line, shape.line_width = _color(pg, ref), 9525 * EMU
    content = wsp.find(f"{WPS}txbx/{_W}txbxContent")
    if content is not None:
        body = wsp.find(WPS + "bodyPr")
        shape.text = _text_box(pg, content, rect, body, story)
    return shape


def _group(pg, wgp, rect: QRectF, story: str, depth: int = 0):
    """Children of a group, mapped from its child coordinate space (a:chOff/a:chExt) to `rect`."""
    xfrm = wgp.find(f"{WPG}grpSpPr/{A}xfrm")
    ch_off = xfrm.find(A + "chOff") if xfrm is not None else None
    ch_ext = xfrm.find(A + "chExt") if xfrm is not None else None
    ox = _emu(ch_off.get("x")) if ch_off is not None else 0.0
    oy = _emu(ch_off.get("y")) if ch_off is not None else 0.0
    cw = _emu(ch_ext.get("cx")) if ch_ext is not None else rect.width()
    chh = _emu(ch_ext.get("cy")) if ch_ext is not None else rect.height()
    sx = rect.width() / cw if cw > 0 else 1.0
    sy = rect.height() / chh if chh > 0 else 1.0

    def child_rect(el_xfrm) -> QRectF | None:
        if el_xfrm is None:
            return None
        off, ext = el_xfrm.find(A + "off"), el_xfrm.find(A + "ext")
        if off is None or ext is None:
            return None
        return QRectF(rect.x() + (_emu(off.get("x")) - ox) * sx, rect.y() + (_emu(off.get("y")) - oy) * sy,
                      _emu(ext.get("cx")) * sx, _emu(ext.get("cy")) * sy)

    for child in wgp:
        if child.tag == WPS + "wsp":
            r = child_rect(child.find(f"{WPS}spPr/{A}xfrm"))
            if r is not None:
                yield _shape(pg, child, r, story)
        elif child.tag == PIC + "pic":
            r = child_rect(child.find(f"{PIC}spPr/{A}xfrm"))
            if r is not None:
                yield _picture(child, r)
        elif child.tag == WPG + "grpSp" and depth < 8:
            r = child_rect(child.find(f"{WPG}grpSpPr/{A}xfrm"))
            if r is not None:
                yield from _group(pg, child, r, story, depth + 1)


def _text_box(pg, content, rect: QRectF, body, story: str) -> list[Fragment]:
    """The paragraphs of a w:txbxContent laid out in the box less its insets (wps:bodyPr), top,
    centre or bottom anchored."""
    insets = list(INSETS)
    anchor = "t"
    if body is not None:
        for i, key in enumerate(("lIns", "tIns", "rIns", "bIns")):
            if body.get(key) is not None:
                insets[i] = _emu(body.get(key))
        anchor = body.get("anchor", "t")
    width = max(rect.width() - insets[0] - insets[2], 10.0)
    measured = []
    for p in _box_paragraphs(content):
        m = pg.measure(p, width, story="textbox")
        if not m.vanished:
            measured.append((p, m))
    total = sum(m.space_before + m.content_height + m.space_after for _p, m in measured)
    spare = rect.height() - insets[1] - insets[3] - total
    y = rect.y() + insets[1] + ({"ctr": spare / 2, "b": spare}.get(anchor, 0.0) if spare > 0 else 0.0)
    out = []
    for p, m in measured:
        y += m.space_before
        frag = Fragment("textbox:" + story, None, m, 0, len(m.lines) - 1, rect.x() + insets[0], y - m.lines[0].y, p)
        out.append(frag)
        y = frag.bottom + m.space_after
    return out


def _box_paragraphs(content):
    for child in content:
        if child.tag == _W + "p":
            yield child
        elif child.tag == _W + "sdt":
            inner = child.find(_W + "sdtContent")
            if inner is not None:
                yield from _box_paragraphs(inner)


# -- the engine's hooks -----------------------------------------------------------------------------------


def anchors_of(para: MeasuredParagraph):
    return [(offset, el) for offset, el in para.drawings if el.tag == T_ANCHOR]


def flow(pg, element, para: MeasuredParagraph, story: str = "main"):
    """Before a body paragraph is placed: put its floating drawings on the page and, where
    drawings on the page wrap text, lay its lines out around them. A generator (it may move to the
    next page first, when the paragraph cannot start on this one); returns the paragraph to place."""
    anchors = anchors_of(para)
    page = pg._page
    if not anchors and not page.drawings:
        return para
    space_before = pg._space_before(para)
    top = pg._y + space_before
    if anchors:
        if not pg._at_top and top + _opening(para) > pg._column.bottom - pg._notes_height + 0.01:
            # the paragraph starts on the next page: its drawings go there with it
            yield from pg._next_column_or_page()
            page = pg._page
            space_before = pg._space_before(para)
            top = pg._y + space_before
        column = pg._column
        for offset, anchor in anchors:
            drawing = place_anchor(pg, anchor, page, column, para, top, column.x, offset, story)
            if drawing is not None:
                page.drawings.append(drawing)
    wrapped = wrap_paragraph(para, page, pg._column, top, pg._column.bottom - pg._notes_height)
    if wrapped.lines[0].page_break_before and not pg._at_top:
        # no room for its first line beside or below the drawings here: the text moves on to the
        # next page, the drawings stay on their anchor's page
        yield from pg._next_column_or_page()
        wrapped = wrap_paragraph(para, pg._page, pg._column, pg._y + pg._space_before(para),
                                 pg._column.bottom - pg._notes_height)
    return wrapped


def _opening(para: MeasuredParagraph) -> float:
    """Height of the lines that must open a paragraph's first page, as the engine keeps them:
    all of them when keepLines (or when widow control leaves no two-and-one split of three), its
    first two under widow control, else its first (up to a page break inside it)."""
    lines = para.lines
    cut = next((i for i, line in enumerate(lines) if i and line.page_break_before), len(lines))
    lines = lines[:cut]
    if para.keep_lines or (para.widow_control and len(lines) <= 3):
        return sum(line.height for line in lines)
    return sum(line.height for line in lines[:2 if para.widow_control else 1])


def place_fragment_anchors(pg, page: Page, frag: Fragment, column) -> None:
    """Drawings anchored in a paragraph placed outside the body flow (a header, a table cell):
    positioned from its fragment, drawn, not wrapped around."""
    for offset, anchor in anchors_of(frag.para):
        drawing = place_anchor(pg, anchor, page, column, frag.para, frag.top, frag.x, offset, frag.story)
        if drawing is not None:
            drawing.in_flow = False
            page.drawings.append(drawing)


def media_store(pg) -> MediaStore:
    store = getattr(pg, "_media_store", None)
    if store is None:
        store = pg._media_store = MediaStore(pg.doc)
    return store


# -- wrapping lines ------------------------------------------------------------------------------------------


def _segments(obstacles: list[Drawing], y0: float, y1: float, x0: float, x1: float):
    """Free stretches of [x0, x1] for a line spanning page y [y0, y1], and the y below which the
    obstacles in the way end (when nothing is free)."""
    free = [(x0, x1)]
    below = None
    for d in obstacles:
        box = d.exclusion
        if box.bottom() <= y0 + 0.01 or box.top() >= y1 - 0.01:
            continue
        if d.wrap == "topAndBottom":
            lo, hi = float("-inf"), float("inf")
        else:
            lo, hi = box.left(), box.right()
            if hi <= x0 or lo >= x1:
                continue
            side = d.side
            if side == "largest":
                side = "left" if lo - x0 >= x1 - hi else "right"
            if side == "left":  # text on the object's left only
                hi = float("inf")
            elif side == "right":
                lo = float("-inf")
        below = box.bottom() if below is None else min(below, box.bottom())
        cut = []
        for a, b in free:
            if lo > a:
                cut.append((a, min(b, lo)))
            if hi < b:
                cut.append((max(a, hi), b))
        free = [(a, b) for a, b in cut if b - a >= MIN_SEGMENT]
    return free, below


def wrap_paragraph(para: MeasuredParagraph, page: Page, column, top: float, limit: float) -> MeasuredParagraph:
    """The paragraph laid out again around the wrapping drawings of the page, for its first line's
    top at page y `top`; itself when no drawing is in its way."""
    # anything between the paragraph's top and the page foot may be in its way (narrowed, it grows)
    obstacles = [d for d in page.drawings if d.in_flow and d.wrap != "none"
                 and d.exclusion.bottom() > top and d.exclusion.top() < limit]
    if not obstacles:
        return para
    x_origin = column.x + para.x
    old = para.layout
    # the first line starts at the first-line indent (left of the text area when hanging)
    first_offset = old.lineAt(0).position().x() if old.lineCount() else 0.0
    if not para.text and len(para.lines) == 1:
        free, below = _segments(obstacles, top, top + para.lines[0].height, x_origin + first_offset,
                                x_origin + para.width)
        line = para.lines[0]
        if free or below is None:
            return para
        if below + line.height > limit:  # the empty line opens the next page
            return replace(para, lines=[replace(line, page_break_before=True)])
        return replace(para, lines=[replace(line, height=line.height + below - top)])
    layout = QTextLayout(para.text, old.font())
    layout.setCacheEnabled(True)
    layout.setTextOption(old.textOption())
    layout.setFormats(old.formats())
    starts = [line.start for line in para.lines]
    breaks_before = {line.start for line in para.lines if line.page_break_before}
    width = para.width
    lines: list[Line] = []
    y = 0.0
    queue: list[tuple[float, float]] = []  # segments left on the current row
    row_height = 0.0
    layout.beginLayout()
    changed = False
    on_next_page = False  # after a page break in the paragraph no drawing of this page is in the way
    while True:
        qline = layout.createLine()
        if not qline.isValid():
            break
        qline.setLeadingIncluded(True)
        start = qline.textStart()
        # the line's height as first measured (line spacing applied) stands for the wrapped one's
        first = max(bisect.bisect_right(starts, start) - 1, 0)
        height = para.lines[first].height
        gap = 0.0
        if not queue:
            offset = first_offset if not lines else 0.0
            page_y = top + y
            on_next_page = on_next_page or (bool(lines) and start in breaks_before)
            if page_y < limit and not on_next_page:
                while True:
                    free, below = _segments(obstacles, page_y + gap, page_y + gap + height, x_origin + offset,
                                            x_origin + width)
                    if free or below is None:
                        break
                    gap = below - page_y
                if gap and page_y + gap + height > limit:
                    # no room beside or under the object here: the line opens the next page (the
                    # first one too: flow() then moves the whole paragraph on)
                    gap, free = 0.0, [(x_origin + offset, x_origin + width)]
                    breaks_before.add(start)
                    on_next_page = changed = True
            else:
                free = [(x_origin + offset, x_origin + width)]
            if free != [(x_origin + offset, x_origin + width)] or gap:
                changed = True
            queue = [(a - x_origin, b - x_origin) for a, b in free]
            row_height = 0.0
        a, b = queue.pop(0)
        qline.setPosition(QPointF(0.0, y + gap))  # broken at the origin and moved, as measure() does
        qline.setLineWidth(max(b - a, 10.0))
        qline.setPosition(QPointF(a, y + gap))
        end = start + qline.textLength()
        row_height = max(row_height, height)
        last_of_row = not queue or end >= len(para.text)
        box = gap + row_height if last_of_row else 0.0  # a row's segments share one line box
        if height > qline.height():  # the baseline sits as low in the box as measure() set it
            qline.setPosition(QPointF(a, y + gap + _drop(old, para.lines, first, height)))
        lines.append(Line(y, box, qline.ascent(), start, end, page_break_before=start in breaks_before
                          and (bool(lines) or on_next_page)))
        if last_of_row:
            y += box
            queue = []
    layout.endLayout()
    if not changed or not lines:
        return para
    return replace(para, layout=layout, lines=lines)


def _drop(layout: QTextLayout, lines: list[Line], index: int, height: float) -> float:
    """How far below its box's top measure() set line `index`'s text (Qt's line box): near the
    foot of a taller box, at its foot under an inline picture."""
    qline = layout.lineAt(index) if index < layout.lineCount() else None
    if qline is None or not qline.isValid():
        return 0.0
    return min(max(qline.position().y() - lines[index].y, 0.0), height)


# -- media ------------------------------------------------------------------------------------------------------


class MediaStore:
    """The media parts a page's drawings name, read when painted (r:embed ids resolve against the
    relationships of the story's own part: the main document, a header, a footnote part)."""

    def __init__(self, doc):
        self.doc = doc
        self.decoded: dict = {}  # the painter's cache of decoded images, keyed by media part name
        self._parts: dict[str, str | None] = {}

    def part_of(self, story: str) -> str | None:
        if story.startswith("textbox:"):
            story = story[len("textbox:"):]
        if story in self._parts:
            return self._parts[story]
        doc = self.doc
        kind, _, ref = story.partition(":")
        part = None
        if kind == "main":
            part = doc.main_part
        elif kind in ("header", "footer"):
            rel = next((r for r in doc.package.rels(doc.main_part) if r.id == ref), None)
            part = rel.target if rel is not None and not rel.external else None
        elif kind in ("footnote", "endnote"):
            part = doc.related_part(kind + "s")
        self._parts[story] = part
        return part

    def target(self, story: str, rid: str | None) -> str | None:
        """The media part a story's relationship id names (None when external or missing)."""
        part = self.part_of(story)
        if not rid or part is None:
            return None
        rel = next((r for r in self.doc.package.rels(part) if r.id == rid), None)
        if rel is None or rel.external or not self.doc.package.has_part(rel.target):
            return None
        return rel.target

    def read(self, name: str) -> bytes | None:
        try:
            return self.doc.package.read(name)
        except (DocxError, KeyError, OSError):
            return None  # an unreadable or oversized media part draws as a placeholder
