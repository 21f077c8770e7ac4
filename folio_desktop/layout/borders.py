"""Borders and shading as Word draws them (ECMA-376 17.3.1.24 pBdr, 17.4.38-39 tblBorders, 17.4.66
tcBorders, with MS-OI29500's notes on how Word itself resolves cell borders).

Paragraphs: consecutive paragraphs with identical borders and indents form one box: the top border
above the first, the bottom border below the last, the between border (when there is one) between
members. A border's width and w:space take room above / below the text; left and right borders sit
outside the indents and take none. Paragraph shading fills the box, across the gaps inside it.

Tables: each cell edge is the cell's own w:tcBorders, else the table style's cell borders (the
conditional formats at the cell's position), else the row's w:tblPrEx borders, else the table's
w:tblBorders over its style's; inner edges use insideH / insideV. Where two cells meet, Word's
conflict rule picks one: nil on a cell removes the edge, a cell border beats a table border, then
the greater weight (width x border number) wins, then the style listed first, then the darker
colour. A vertically merged cell has no edge between its rows, and its shading spans them.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from PySide6.QtCore import QRectF

from ..docx.model.properties import hex_color
from ..docx.package.ooxml import W_NS

_W = "{" + W_NS + "}"
PX_PER_PT = 96 / 72


class Border(NamedTuple):
    style: str  # ST_Border value (single, double, dashed, ...)
    width: float  # px, all of the border's lines and gaps together
    space: float  # px between the text and the border (paragraph borders)
    color: str  # "#RRGGBB"
    sz: int  # eighths of a point, as written (conflict weights)


class BorderSegment(NamedTuple):
    """One straight border line on a page: its centre line, its width in px, colour and style."""

    x1: float
    y1: float
    x2: float
    y2: float
    width: float
    color: str
    style: str


# total width of a border in units of w:sz, for the styles drawn with several lines
_LINE_UNITS = {"double": 3.0, "triple": 5.0, "thinThickSmallGap": 2.5, "thickThinSmallGap": 2.5,
               "thinThickThinSmallGap": 3.5, "thinThickMediumGap": 3.0, "thickThinMediumGap": 3.0,
               "thinThickThinMediumGap": 4.0, "thinThickLargeGap": 3.5, "thickThinLargeGap": 3.5,
               "thinThickThinLargeGap": 5.0, "doubleWave": 3.0}


def _int(raw: str | None, default: int) -> int:
    try:
        return int(float(raw)) if raw is not None else default
    except ValueError:
        return default


def _tinted(rgb: str, tint: str | None, shade: str | None) -> str:
    """w:themeTint lightens towards white, w:themeShade darkens towards black (0-FF, FF = unchanged)."""
    channels = [int(rgb[i:i + 2], 16) for i in (0, 2, 4)]
    t, s = _hex_byte(tint), _hex_byte(shade)
    if t is not None:
        channels = [round(255 - (255 - c) * t / 255) for c in channels]
    if s is not None:
        channels = [round(c * s / 255) for c in channels]
    return "".join(f"{c:02X}" for c in channels)


def _hex_byte(raw: str | None) -> int | None:
    try:
        return max(0, min(255, int(raw, 16))) if raw else None
    except ValueError:
        return None


@lru_cache(maxsize=4096)
def make_border(attrs: tuple, theme) -> Border | None:
    """A Border from properties.border_attrs (val, sz, space, color, themeColor, themeTint,
    themeShade); None for none / nil. "auto" is black, as Word draws it on a white page."""
    val, sz, space, color, theme_color, tint, shade = attrs
    if val in ("none", "nil"):
        return None
    eighths = max(2, min(96, _int(sz, 4)))  # ST_EighthPointMeasure: Word clamps to 1/4 .. 12 pt
    rgb = theme.color(theme_color) if theme_color and theme is not None else None
    rgb = _tinted(rgb, tint, shade) if rgb and hex_color(rgb) else hex_color(color)
    width = eighths / 8 * PX_PER_PT * _LINE_UNITS.get(val, 1.0)
    return Border(val, width, max(_int(space, 0), 0) * PX_PER_PT, "#" + (rgb or "000000"), eighths)


# -- paragraphs -------------------------------------------------------------------------------------


class Frame(NamedTuple):
    """A paragraph's borders and shading."""

    key: tuple  # paragraphs with equal keys share one box
    top: Border | None
    left: Border | None
    bottom: Border | None
    right: Border | None
    between: Border | None
    shading: str | None  # "#RRGGBB"
    hang: float  # px the first line starts left of the indent (a hanging indent)


def paragraph_frame(fmt, theme) -> Frame | None:
    """The Frame of a resolved ParagraphFormat, or None when it has neither borders nor shading."""
    if not fmt.borders and not fmt.shading:
        return None
    return _frame(fmt.borders, fmt.shading, fmt.indent_left, fmt.indent_right, fmt.first_line, theme)


@lru_cache(maxsize=1024)
def _frame(borders: tuple, shading: str | None, left: int, right: int, first: int, theme) -> Frame:
    sides = {side: make_border(attrs, theme) for side, attrs in borders}
    return Frame((borders, left, right), sides.get("top"), sides.get("left"), sides.get("bottom"),
                 sides.get("right"), sides.get("between"), "#" + shading if shading else None,
                 max(-first, 0) / 15)


class Pads(NamedTuple):
    top: float  # room above the text for the top (or between) border
    bottom: float  # room below it for the bottom border
    joins_prev: bool  # shares its box with the paragraph before
    joins_next: bool


NO_PADS = Pads(0.0, 0.0, False, False)


def pads(prev, para, nxt) -> Pads:
    """Room a paragraph's borders take, given the measured paragraphs placed before and after it
    (None at a table, a cell's edge or the end): a box's top border above its first paragraph,
    the between border above each other one, the bottom border below the last."""
    frame = para.frame
    if frame is None:
        return NO_PADS
    prev_frame = prev.frame if prev is not None else None
    next_frame = nxt.frame if nxt is not None else None
    joins_prev = prev_frame is not None and prev_frame.key == frame.key
    joins_next = next_frame is not None and next_frame.key == frame.key
    above = frame.between if joins_prev else frame.top
    below = None if joins_next else frame.bottom
    return Pads(above.space + above.width if above is not None else 0.0,
                below.space + below.width if below is not None else 0.0, joins_prev, joins_next)


def cell_pads(paras: list) -> list[Pads] | None:
    """Pads of a table cell's measured paragraphs [(p, measured)], the cell's edges closing its
    boxes; None when none of them has borders or shading."""
    if not any(m.frame is not None for _p, m in paras):
        return None
    ms = [m for _p, m in paras]
    return [pads(ms[i - 1] if i else None, m, ms[i + 1] if i + 1 < len(ms) else None) for i, m in enumerate(ms)]


class FramePiece(NamedTuple):
    """The lines of one paragraph placed in one column of a page, with the room its borders took."""

    frame: Frame
    left: float  # page x of the text column's left and right indents
    right: float
    top: float  # page y of the piece, border room included
    bottom: float
    text_top: float
    text_bottom: float
    joins_prev: bool  # continues the box of the piece before it
    joins_next: bool


def piece(frag, pad: Pads, first: bool, last: bool) -> FramePiece:
    """The FramePiece of a placed fragment (first / last: it holds its paragraph's first / last line)."""
    para = frag.para
    left = frag.x + para.x - para.frame.hang
    text_top, text_bottom = frag.top, frag.bottom
    return FramePiece(para.frame, left, frag.x + para.x + para.width, text_top - (pad.top if first else 0.0),
                      text_bottom + (pad.bottom if last else 0.0), text_top, text_bottom,
                      pad.joins_prev and first, pad.joins_next and last)


def close_frames(page, pieces: list[FramePiece]) -> None:
    """Draw the page's paragraph boxes: consecutive pieces that share a box are one box (a box
    that runs on to the next page is closed at the foot of this one and opened again there)."""
    run: list[FramePiece] = []
    for p in pieces:
        if run:
            last = run[-1]
            if last.joins_next and p.joins_prev and abs(last.left - p.left) < 0.5 and p.top >= last.bottom - 0.5:
                run.append(p)
                continue
            _draw_box(page, run)
        run = [p]
    if run:
        _draw_box(page, run)


def _draw_box(page, run: list[FramePiece]) -> None:
    f = run[0].frame
    first, last = run[0], run[-1]
    left = min(p.left for p in run)
    right = max(p.right for p in run)
    inner_left = left - f.left.space if f.left is not None else left
    inner_right = right + f.right.space if f.right is not None else right
    outer_left = inner_left - f.left.width if f.left is not None else left
    outer_right = inner_right + f.right.width if f.right is not None else right
    # a border drawn where no room was kept for it (a box continued from the page before) sits outside
    top_edge = first.top
    if f.top is not None and first.text_top - first.top < f.top.width - 0.01:
        top_edge -= f.top.width
    bottom_edge = last.bottom
    if f.bottom is not None and last.bottom - last.text_bottom < f.bottom.width - 0.01:
        bottom_edge += f.bottom.width
    if f.shading:
        for i, p in enumerate(run):
            y1 = top_edge + f.top.width if i == 0 and f.top is not None else p.top
            if i > 0 and f.between is not None:
                y1 += f.between.width
            nxt = run[i + 1] if i + 1 < len(run) else None
            y2 = nxt.top if nxt is not None else bottom_edge - (f.bottom.width if f.bottom is not None else 0.0)
            if y2 > y1:
                page.fills.append((QRectF(inner_left, y1, inner_right - inner_left, y2 - y1), f.shading))
    out = page.borders
    if f.top is not None:
        _horizontal(out, f.top, outer_left, outer_right, top_edge)
    if f.between is not None:
        for p in run[1:]:
            _horizontal(out, f.between, outer_left, outer_right, p.top)
    if f.bottom is not None:
        _horizontal(out, f.bottom, outer_left, outer_right, bottom_edge - f.bottom.width)
    if f.left is not None:
        x = outer_left + f.left.width / 2
        out.append(BorderSegment(x, top_edge, x, bottom_edge, f.left.width, f.left.color, f.left.style))
    if f.right is not None:
        x = outer_right - f.right.width / 2
        out.append(BorderSegment(x, top_edge, x, bottom_edge, f.right.width, f.right.color, f.right.style))


def _horizontal(out: list, b: Border, x1: float, x2: float, top: float) -> None:
    """A horizontal border whose upper edge is at y = top."""
    y = top + b.width / 2
    out.append(BorderSegment(x1, y, x2, y, b.width, b.color, b.style))


# -- tables -----------------------------------------------------------------------------------------

NIL = "nil"  # a cell edge set to nil: no border there, whatever the neighbour says
_CELL, _TABLE = 2, 1

# MS-OI29500 2.1.169: the border number in Word's weight (width x number); dotted and dashed weigh 1
_NUMBERS = {"single": 1, "thick": 2, "double": 3, "dotDash": 8, "dotDotDash": 9, "triple": 10,
            "thinThickSmallGap": 11, "thickThinSmallGap": 12, "thinThickThinSmallGap": 13,
            "thinThickMediumGap": 14, "thickThinMediumGap": 15, "thinThickThinMediumGap": 16,
            "thinThickLargeGap": 17, "thickThinLargeGap": 18, "thinThickThinLargeGap": 19, "wave": 20,
            "doubleWave": 21, "dashSmallGap": 22, "dashDotStroked": 23, "threeDEmboss": 24,
            "threeDEngrave": 25, "outset": 26, "inset": 27}
# ECMA-376 17.4.66: with equal weights the style listed first wins
_PRECEDENCE = {name: i for i, name in enumerate((
    "single", "thick", "double", "dotted", "dashed", "dotDash", "dotDotDash", "triple", "thinThickSmallGap",
    "thickThinSmallGap", "thinThickThinSmallGap", "thinThickMediumGap", "thickThinMediumGap",
    "thinThickThinMediumGap", "thinThickLargeGap", "thickThinLargeGap", "thinThickThinLargeGap", "wave",
    "doubleWave", "dashSmallGap", "dashDotStroked", "threeDEmboss", "threeDEngrave", "outset", "inset"))}

# which edges of a cell are the edges of a conditional format's region (the others are its insides)
_ROW_CONDS = frozenset(("firstRow", "lastRow", "band1Horz", "band2Horz"))
_COL_CONDS = frozenset(("firstCol", "lastCol", "band1Vert", "band2Vert"))


def _weight_key(b: Border) -> tuple:
    weight = 1 if b.style in ("dotted", "dashed") else b.sz * _NUMBERS.get(b.style, 1)
    r, g, bl = (int(b.color[i:i + 2], 16) for i in (1, 3, 5))
    # greater weight, then the style listed first, then the darker colour (R+B+2G, B+2G, G) wins
    return (-weight, _PRECEDENCE.get(b.style, len(_PRECEDENCE)), r + bl + 2 * g, bl + 2 * g, g)


def resolve(a: tuple, b: tuple) -> Border | None:
    """The border shown where two cells' edges meet; a and b are (Border | None | NIL, level)."""
    if a[0] is NIL or b[0] is NIL:
        return None
    if a[0] is None or b[0] is None:
        return a[0] or b[0]
    if a[1] != b[1]:  # a cell's own border beats the table's
        return a[0] if a[1] > b[1] else b[0]
    return b[0] if _weight_key(b[0]) < _weight_key(a[0]) else a[0]


class RowEdges(NamedTuple):
    index: int  # the row's index among the table's shown rows
    top: list  # [(x1, x2, Border)] relative to the table's left edge
    bottom: list
    verticals: list  # [(x, Border)]
    fills: dict  # cell index -> fill a vertically merged cell takes from its first row


class TableBorders:
    """The borders of one table, resolved cell by cell and edge by edge before its rows are placed."""

    def __init__(self, formatter, tbl, rows: list, grid: list[float]):
        from ..docx.model.properties import parse_borders
        from ..docx.model.tables import row_cells

        theme = formatter.theme
        self._last: tuple | None = None
        edges = [0.0]
        for g in grid:
            edges.append(edges[-1] + g)
        self._x = edges
        tblpr = tbl.find(_W + "tblPr")
        table_sides = parse_borders(tblpr.find(_W + "tblBorders")) if tblpr is not None else {}
        cells_by_row = [row_cells(tr) for tr in rows]
        own = []  # per row, per cell: {side: (Border | None | NIL, level)}
        table_style = None
        for r, (tr, cells) in enumerate(zip(rows, cells_by_row, strict=True)):
            ex = tr.find(f"{_W}tblPrEx/{_W}tblBorders")
            ex_sides = parse_borders(ex) if ex is not None else {}
            row_own = []
            for i, (tc, _col, _span, _vm) in enumerate(cells):
                p = tc.find(_W + "p")
                style_table, style_cells = formatter.table_style_borders(p) if p is not None else ({}, ())
                if table_style is None:
                    table_style = style_table
                outer = {"top": r == 0, "bottom": r == len(rows) - 1, "left": i == 0, "right": i == len(cells) - 1}
                tcb = tc.find(f"{_W}tcPr/{_W}tcBorders")
                direct = parse_borders(tcb) if tcb is not None else {}
                row_own.append({side: self._side(side, outer, direct, style_cells, ex_sides, style_table,
                                                 table_sides, r, len(rows), i, len(cells), theme)
                                for side in ("top", "bottom", "left", "right")})
            own.append(row_own)
        self.rows: dict = {}
        self.visible = False
        for r, (tr, cells) in enumerate(zip(rows, cells_by_row, strict=True)):
            verticals = []
            for i, (_tc, col, _span, _vm) in enumerate(cells):
                left = own[r][i]["left"]
                b = resolve(own[r][i - 1]["right"], left) if i > 0 else (left[0] if left[0] is not NIL else None)
                if b is not None:
                    verticals.append((self._edge(col), b))
            if cells:
                right = own[r][-1]["right"][0]
                if right is not None and right is not NIL:
                    verticals.append((self._edge(cells[-1][1] + cells[-1][2]), right))
            top = self._horizontal(own, cells_by_row, r - 1, r) if r > 0 else self._outer(own[r], cells, "top")
            bottom = self._horizontal(own, cells_by_row, r, r + 1) if r + 1 < len(rows) else \
                self._outer(own[r], cells, "bottom")
            fills = self._merged_fills(cells_by_row, r)
            self.rows[tr] = RowEdges(r, top, bottom, verticals, fills)
            self.visible = self.visible or bool(top or bottom or verticals)

    def __bool__(self) -> bool:
        return self.visible

    def _edge(self, col: int) -> float:
        return self._x[min(col, len(self._x) - 1)]

    @staticmethod
    def _side(side, outer, direct, style_cells, ex, style_table, table, r, rows, i, cols, theme):
        attrs = direct.get(side)
        if attrs is not None and attrs[0] != "none":  # Word looks past an omitted or none cell border
            return (NIL, _CELL) if attrs[0] == "nil" else (make_border(attrs, theme), _CELL)
        inside = "insideH" if side in ("top", "bottom") else "insideV"
        for cond, sides in reversed(style_cells):  # the highest precedence first
            if cond is None or cond in ("neCell", "nwCell", "seCell", "swCell"):
                boundary = True
            elif cond in _ROW_CONDS:
                boundary = side in ("top", "bottom") or outer[side]
            elif cond in _COL_CONDS:
                boundary = side in ("left", "right") or outer[side]
            else:  # wholeTable
                boundary = outer[side]
            attrs = sides.get(side if boundary else inside)
            if attrs is not None:
                return (make_border(attrs, theme), _CELL)
        key = side if outer[side] else inside
        for sides in (ex, table, style_table):
            attrs = sides.get(key)
            if attrs is not None:
                return (make_border(attrs, theme), _TABLE)
        return (None, 0)

    def _outer(self, row_own, cells, side) -> list:
        out = []
        for own, (_tc, col, span, _vm) in zip(row_own, cells, strict=True):
            b = own[side][0]
            if b is not None and b is not NIL:
                out.append((self._edge(col), self._edge(col + span), b))
        return _joined(out)

    def _horizontal(self, own, cells_by_row, upper: int, lower: int) -> list:
        """The edge between two rows, grid column by grid column (their cells may span differently)."""
        above = _by_column(cells_by_row[upper])
        below = _by_column(cells_by_row[lower])
        out = []
        for col in sorted(set(above) | set(below)):
            a, b = above.get(col), below.get(col)
            if a is not None and b is not None:
                (ai, acell), (bi, bcell) = a, b
                if bcell[3] == "continue" and acell[3] is not None and acell[1] == bcell[1]:
                    continue  # inside a vertically merged cell
                border = resolve(own[upper][ai]["bottom"], own[lower][bi]["top"])
            else:
                index, cell = a or b
                edge = own[upper if a else lower][index]["bottom" if a else "top"][0]
                border = edge if edge is not NIL else None
            if border is not None:
                out.append((self._edge(col), self._edge(col + 1), border))
        return _joined(out)

    @staticmethod
    def _merged_fills(cells_by_row, r) -> dict:
        """Fills that the cells continuing a vertical merge in row r take from the merge's first row."""
        out = {}
        for i, (tc, col, _span, vm) in enumerate(cells_by_row[r]):
            if vm != "continue" or _cell_fill(tc) is not None:
                continue
            for above in range(r - 1, -1, -1):
                cell = next((c for c in cells_by_row[above] if c[1] == col), None)
                if cell is None or cell[3] is None:
                    break
                if cell[3] == "restart":
                    fill = _cell_fill(cell[0])
                    if fill:
                        out[i] = fill
                    break
        return out

    def attach(self, row: dict, tr) -> None:
        """Give a measured row (tables._measure_row) its edges and the fills of its merged cells."""
        edges = self.rows.get(tr)
        row["edges"] = edges
        if edges is not None:
            for i, fill in edges.fills.items():
                if i < len(row["cells"]):
                    row["cells"][i]["fill"] = fill

    def emit(self, page, row: dict, x0: float, y0: float, height: float) -> None:
        """Add a placed row's borders to the page (an edge the row above already drew is skipped)."""
        edges = row.get("edges")
        if edges is None:
            return
        out = page.borders
        y1 = y0 + height
        if self._last != (page.number, round(y0, 1), edges.index - 1):
            for a, b, border in edges.top:
                out.append(BorderSegment(x0 + a, y0, x0 + b, y0, border.width, border.color, border.style))
        for a, b, border in edges.bottom:
            out.append(BorderSegment(x0 + a, y1, x0 + b, y1, border.width, border.color, border.style))
        for x, border in edges.verticals:
            out.append(BorderSegment(x0 + x, y0, x0 + x, y1, border.width, border.color, border.style))
        self._last = (page.number, round(y1, 1), edges.index)


def _cell_fill(tc) -> str | None:
    """A cell's own w:shd fill as tables._cell_fill reads it ("#RRGGBB"; None for none, auto, white)."""
    shd = tc.find(f"{_W}tcPr/{_W}shd")
    fill = hex_color(shd.get(_W + "fill")) if shd is not None else None
    return "#" + fill if fill and fill != "FFFFFF" else None


def _by_column(cells) -> dict:
    out = {}
    for i, cell in enumerate(cells):
        for col in range(cell[1], cell[1] + cell[2]):
            out[col] = (i, cell)
    return out


def _joined(pieces: list) -> list:
    """Adjacent pieces of one edge with the same border as one line."""
    out: list = []
    for a, b, border in pieces:
        if out and out[-1][2] == border and abs(out[-1][1] - a) < 0.01:
            out[-1] = (out[-1][0], b, border)
        else:
            out.append((a, b, border))
    return out
