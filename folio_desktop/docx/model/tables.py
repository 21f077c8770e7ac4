"""A table's grid and its conditional formats: rows and cells read through content controls and
customXml, the w:tblLook bits, and which conditional formats (bands, first row, corners...) a cell
gets. Apart because the snapshot, the formatter, the layout and the table operations all walk
tables the same way."""

from __future__ import annotations

from typing import Any

from lxml import etree

from ..package.ooxml import W_NS, W_VAL, int_attr
from .properties import _flag

_W = "{" + W_NS + "}"
T_TR, T_TC, T_SDT, T_SDT_CONTENT = (_W + t for t in ("tr", "tc", "sdt", "sdtContent"))
T_CUSTOM_XML, T_TRPR, T_TCPR = (_W + t for t in ("customXml", "trPr", "tcPr"))
T_TBLPR = _W + "tblPr"

# tblLook bits of the legacy hex w:val, and Word's default look (first row, first column, no vertical bands)
_LOOK_BITS = {"firstRow": 0x0020, "lastRow": 0x0040, "firstColumn": 0x0080, "lastColumn": 0x0100,
              "noHBand": 0x0200, "noVBand": 0x0400}
DEFAULT_LOOK = 0x04A0


def table_rows(tbl):
    """Rows of a table, looking through row-level content controls and customXml."""
    for child in tbl:
        tag = child.tag
        if tag == T_TR:
            yield child
        elif tag == T_SDT:
            content = child.find(T_SDT_CONTENT)
            if content is not None:
                yield from table_rows(content)
        elif tag == T_CUSTOM_XML:
            yield from table_rows(child)


def row_cells(tr):
    """[(tc, gridColumnIndex, gridSpan, vMerge)] of a row, through cell-level wrappers."""
    out = []
    col = 0
    trpr = tr.find(T_TRPR)
    if trpr is not None:
        col = int_attr(trpr.find(_W + "gridBefore"), default=0) or 0

    def cells(parent):
        for child in parent:
            if child.tag == T_TC:
                yield child
            elif child.tag == T_SDT:
                content = child.find(T_SDT_CONTENT)
                if content is not None:
                    yield from cells(content)
            elif child.tag == T_CUSTOM_XML:
                yield from cells(child)

    for tc in cells(tr):
        span = 1
        vmerge = None
        tcpr = tc.find(T_TCPR)
        if tcpr is not None:
            span = max(1, int_attr(tcpr.find(_W + "gridSpan"), default=1) or 1)
            vm = tcpr.find(_W + "vMerge")
            if vm is not None:
                vmerge = "restart" if vm.get(W_VAL) == "restart" else "continue"
        out.append((tc, col, span, vmerge))
        col += span
    return out


def _look(tblpr: etree._Element | None) -> int:
    el = tblpr.find(_W + "tblLook") if tblpr is not None else None
    if el is None:
        return DEFAULT_LOOK
    bits = 0
    raw = el.get(W_VAL)
    if raw:
        try:
            bits = int(raw, 16)
        except ValueError:
            bits = DEFAULT_LOOK
    for attr, bit in _LOOK_BITS.items():
        value = el.get(_W + attr)
        if value is not None:
            bits = bits | bit if _flag(value) else bits & ~bit
    return bits


def conditions(cell_position: tuple[int, int, int, int], look: int, row_band: int = 1,
               col_band: int = 1) -> tuple[str, ...]:
    """The conditional table formats that apply to a cell, lowest precedence first."""
    row, col, rows, cols = cell_position
    first_row, last_row = bool(look & 0x0020), bool(look & 0x0040)
    first_col, last_col = bool(look & 0x0080), bool(look & 0x0100)
    out = ["wholeTable"]
    if not look & 0x0400:
        c = col - (1 if first_col else 0)
        if c >= 0 and not (last_col and col == cols - 1):
            out.append("band1Vert" if (c // max(1, col_band)) % 2 == 0 else "band2Vert")
    if not look & 0x0200:
        r = row - (1 if first_row else 0)
        if r >= 0 and not (last_row and row == rows - 1):
            out.append("band1Horz" if (r // max(1, row_band)) % 2 == 0 else "band2Horz")
    is_first_row, is_last_row = row == 0, row == rows - 1
    is_first_col, is_last_col = col == 0, col == cols - 1
    if last_col and is_last_col:
        out.append("lastCol")
    if first_col and is_first_col:
        out.append("firstCol")
    if last_row and is_last_row:
        out.append("lastRow")
    if first_row and is_first_row:
        out.append("firstRow")
    if first_row and last_col and is_first_row and is_last_col:
        out.append("neCell")
    if first_row and first_col and is_first_row and is_first_col:
        out.append("nwCell")
    if last_row and last_col and is_last_row and is_last_col:
        out.append("seCell")
    if last_row and first_col and is_last_row and is_first_col:
        out.append("swCell")
    return tuple(out)


class _TableInfo:
    """What a table contributes to its paragraphs' formatting: style, look, band sizes, positions."""

    __slots__ = ("style_id", "look", "row_band", "col_band", "rows", "row_index", "_cells")

    def __init__(self, tbl: etree._Element):
        tblpr = tbl.find(T_TBLPR)
        style = tblpr.find(_W + "tblStyle") if tblpr is not None else None
        self.style_id = style.get(W_VAL) if style is not None else None
        self.look = _look(tblpr)
        self.row_band = int_attr(tblpr.find(_W + "tblStyleRowBandSize")) if tblpr is not None else None
        self.col_band = int_attr(tblpr.find(_W + "tblStyleColBandSize")) if tblpr is not None else None
        self.rows = list(table_rows(tbl))
        self.row_index = {tr: i for i, tr in enumerate(self.rows)}
        self._cells: dict[Any, list] = {}

    def position(self, tr, tc) -> tuple[int, int, int, int] | None:
        row = self.row_index.get(tr)
        if row is None:
            return None
        cells = self._cells.get(tr)
        if cells is None:
            cells = self._cells[tr] = [c[0] for c in row_cells(tr)]
        try:
            col = cells.index(tc)
        except ValueError:
            return None
        return (row, col, len(self.rows), len(cells))
