"""Tables in the page flow: rows measured cell by cell, placed whole on a page or split line by line
over pages (cantSplit rows move instead), header rows repeated on each page, hidden and
left-out rows, cell margins, fills and vertical alignment, and tables nested in cells.

The functions take the Paginator (engine.py) whose flow they continue, as floating.py's do: its
page, column and y are the one cursor that paragraphs and rows share.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QRectF

from ..docx.package.ooxml import W_NS, on_off
from ..docx.reading.accepted import table_deleted
from . import floating, footnotes
from .borders import NO_PADS, TableBorders, cell_pads
from .borders import piece as frame_piece
from .display_text import ACCEPTED_VIEWS, EAST_ASIAN
from .model import TWIP, Fragment, MeasuredParagraph

_W = "{" + W_NS + "}"
T_P, T_TBL, T_SDT, T_SDT_CONTENT = (_W + t for t in ("p", "tbl", "sdt", "sdtContent"))
CELL_MARGIN = 108 * TWIP  # Word's default left/right cell margin


def place_table(pg, tbl):
    """Place a table at the flow position row by row (a generator: rows may start new pages)."""
    from ..docx.model.tables import row_cells, table_rows

    if pg.view in ACCEPTED_VIEWS and table_deleted(tbl):
        # every row pending deletion: accept-all removes the table (and a deleted mark before it
        # joins across it), so it is not there to part the paragraphs around it
        return
    tblpr = tbl.find(_W + "tblPr")
    style_el = tblpr.find(_W + "tblStyle") if tblpr is not None else None
    style = style_el.get(_W + "val") if style_el is not None else None
    grid = [(_number(c.get(_W + "w")) or 0.0) * TWIP for c in tbl.findall(f"{_W}tblGrid/{_W}gridCol")]
    rows = list(table_rows(tbl))
    width = pg._column.width
    if not grid or sum(grid) <= 0:
        cols = max((sum(c[2] for c in row_cells(r)) for r in rows), default=1)
        grid = [width / max(cols, 1)] * max(cols, 1)
    scale = min(1.0, width * 1.2 / sum(grid)) if sum(grid) > width * 1.2 else 1.0
    grid = [g * scale for g in grid]
    if tblpr is None or tblpr.find(f"{_W}tblLayout[@{_W}type='fixed']") is None:
        grid = _autofit(pg, rows, grid, style)
    indent = 0.0
    if tblpr is not None:
        ind = tblpr.find(_W + "tblInd")
        if ind is not None and _number(ind.get(_W + "w")) is not None:
            indent = _number(ind.get(_W + "w")) * TWIP
    shown = [tr for tr in rows if not _row_hidden(pg, tr)]
    borders = TableBorders(pg.formatter, tbl, shown, grid)
    header_rows: list = []
    row_count = len(rows)
    for r_index, tr in enumerate(rows):
        trpr = tr.find(_W + "trPr")
        if _row_hidden(pg, tr):
            continue
        measured_row = _measure_row(pg, tr, r_index, row_count, grid, style)
        borders.attach(measured_row, tr)
        _border_room(measured_row, tr is shown[-1])
        if trpr is not None and on_off(trpr.find(_W + "tblHeader")) and r_index == len(header_rows):
            header_rows.append(measured_row)
        height = measured_row["height"]
        full = pg._column.bottom - pg._column.top
        cant_split = trpr is not None and on_off(trpr.find(_W + "cantSplit"))
        # a row that may split breaks across the page where it is (Word, LibreOffice); one that may not
        # moves, and so does one that cannot start here (no empty border box left at the page foot)
        if height > pg._room() + 0.01 and not pg._at_top and (cant_split or not _row_starts(pg, measured_row)):
            yield from pg._next_column_or_page()
            _repeat_headers(pg, header_rows, measured_row, indent, borders)
        if height > pg._room() + 0.01 and not (cant_split and height <= full):
            yield from _emit_split_row(pg, measured_row, header_rows, indent, borders)
        else:
            _emit_row(pg, measured_row, indent, borders)
    pg._prev_para = None


def _row_starts(pg, row: dict) -> bool:
    """Whether some cell of a row can put its first line in the room left (its margins and the
    first paragraph's space before included). A row with no text at all starts anywhere."""
    room = pg._room()
    empty = True
    for cell in row["cells"]:
        if not cell["paras"] or not cell["paras"][0][1].lines:
            continue
        empty = False
        m = cell["paras"][0][1]
        margins = cell["margins"]
        if margins["top"] + _cell_gap(pg, None, m) + m.lines[0].height + margins["bottom"] <= room + 0.01:
            return True
    return empty


def _row_hidden(pg, tr) -> bool:
    trpr = tr.find(_W + "trPr")
    return trpr is not None and (on_off(trpr.find(_W + "hidden")) or _row_left_out(pg, trpr))


def _row_left_out(pg, trpr) -> bool:
    """A row this view leaves out: a deleted row in an accepted view, an inserted one in Original."""
    if pg.view in ("simple", "none"):
        return trpr.find(_W + "del") is not None
    if pg.view == "original":
        return trpr.find(_W + "ins") is not None
    return False


def _repeat_headers(pg, header_rows, current, indent, borders) -> None:
    for hdr in header_rows:
        if hdr is not current:
            _emit_row(pg, hdr, indent, borders)


def _emit_split_row(pg, row: dict, header_rows, indent: float, borders: bool):
    """A row taller than the room left: its cells continue line by line on the next pages."""
    progress = [[(p, m, 0) for p, m in cell["paras"]] for cell in row["cells"]]
    while True:
        x0, y0 = pg._column.x + indent, pg._y
        room = pg._room()
        used = 0.0
        remaining = False
        for cell, queue in zip(row["cells"], progress, strict=True):
            margins = cell["margins"]
            y = y0 + margins["top"] + row.get("border_top", 0.0)
            limit = y0 + room - margins["bottom"]
            rest = []
            after = None
            for p, m, start in queue:
                if rest or y >= limit:
                    rest.append((p, m, start))
                    continue
                if start == 0:
                    y += _cell_gap(pg, after, m)
                end = start
                while end < len(m.lines) and y + m.lines[end].height <= limit + 0.01:
                    y += m.lines[end].height
                    end += 1
                if end == start and pg._at_top and y0 == pg._column.top:
                    y += m.lines[end].height  # a line taller than the page goes anyway
                    end += 1
                if end > start:
                    x = x0 + cell["x"] + margins["left"]
                    top = y - sum(line.height for line in m.lines[start:end])
                    if isinstance(m, _NestedTable):
                        _emit_nested(pg, m, x, top, start, end - 1)
                    else:
                        block = pg.snapshot.block_of_paragraph.get(p)
                        frag = Fragment("main", block.id if block is not None else None, m, start, end - 1,
                                        x, top - m.lines[start].y, p)
                        pg._page.fragments.append(frag)
                if end < len(m.lines):
                    rest.append((p, m, end))
                else:
                    y += m.space_after
                    after = m.space_after
            used = max(used, y - y0 + margins["bottom"])
            queue[:] = rest
            remaining |= bool(rest)
        height = min(max(used, 4.0), room) if remaining else max(used, 4.0)
        if borders:
            borders.emit(pg._page, row, x0, y0, height)
        pg._y = y0 + height
        pg._at_top = False
        if not remaining:
            return
        yield from pg._next_column_or_page()
        _repeat_headers(pg, header_rows, row, indent, borders)


def _measure_row(pg, tr, r_index, row_count, grid, style) -> dict:
    from ..docx.model.tables import row_cells

    cells = []
    height = 0.0
    cell_list = row_cells(tr)
    table_margins = _margins(tr.getparent().find(f"{_W}tblPr/{_W}tblCellMar"), _DEFAULT_MARGINS)
    for tc, col, span, vmerge in cell_list:
        width = sum(grid[col:col + span]) if col < len(grid) else grid[-1]
        margins = _margins(tc.find(f"{_W}tcPr/{_W}tcMar"), table_margins)
        content_w = max(width - margins["left"] - margins["right"], 10.0)
        paras = []
        h = margins["top"] + margins["bottom"]
        if vmerge != "continue":
            after = None
            for p in _cell_blocks(tc):
                if p.tag == T_TBL:
                    m = _measure_nested(pg, p, content_w)
                else:
                    m = pg.measure(p, content_w, style)  # the formatter finds the cell position itself
                    if m.vanished:
                        continue
                paras.append((p, m))
                before = _cell_gap(pg, after, m)
                h += before + m.content_height + m.space_after
                after = m.space_after
        pads = cell_pads(paras)
        if pads:
            h += sum(pad.top + pad.bottom for pad in pads)
        valign = tc.find(f"{_W}tcPr/{_W}vAlign")
        cells.append({"x": sum(grid[:col]), "width": width, "paras": paras, "vmerge": vmerge, "pads": pads,
                      "margins": margins, "fill": _cell_fill(tc), "content": h,
                      "valign": valign.get(_W + "val") if valign is not None else None})
        height = max(height, h)
    trpr = tr.find(_W + "trPr")
    if trpr is not None:
        th = trpr.find(_W + "trHeight")
        if th is not None and _number(th.get(_W + "val")) is not None:
            value = _number(th.get(_W + "val")) * TWIP
            exact = th.get(_W + "hRule") == "exact"
            height = value if exact else max(height, value)
            return {"cells": cells, "height": max(height, 4.0), "exact": exact}
    return {"cells": cells, "height": max(height, 4.0)}


def _emit_row(pg, row: dict, indent: float, borders: bool, origin: tuple[float, float] | None = None) -> None:
    """Place a row at the flow position, or at `origin` (a row of a nested table, which leaves the
    flow position alone)."""
    x0, y0 = origin if origin is not None else (pg._column.x + indent, pg._y)
    page = pg._page
    for cell in row["cells"]:
        y = y0 + cell["margins"]["top"] + row.get("border_top", 0.0)
        # a vertically merged cell spans rows not measured yet: it stays at the top
        spare = max(row["height"] - cell["content"], 0.0) if not cell["vmerge"] else 0.0
        y += {"center": spare / 2, "bottom": spare}.get(cell["valign"], 0.0)  # w:vAlign
        after = None
        x = x0 + cell["x"] + cell["margins"]["left"]
        pads = cell.get("pads")
        for k, (p, m) in enumerate(cell["paras"]):
            y += _cell_gap(pg, after, m)
            pad = pads[k] if pads else NO_PADS
            after = m.space_after
            if isinstance(m, _NestedTable):
                _emit_nested(pg, m, x, y, 0, len(m.rows) - 1)
                y += m.content_height
                continue
            block = pg.snapshot.block_of_paragraph.get(p)
            frag = Fragment("main", block.id if block is not None else None, m, 0, len(m.lines) - 1,
                            x, y + pad.top - m.lines[0].y, p)
            page.fragments.append(frag)
            if m.drawings:
                floating.place_fragment_anchors(pg, page, frag, pg._column)
            if m.frame is not None:
                pg._frame_pieces.append(frame_piece(frag, pad, True, True))
            for line in range(len(m.lines)):
                footnotes.take_notes(pg, m, line)
            y = frag.bottom + pad.bottom + m.space_after
        if cell.get("fill"):
            page.fills.append((QRectF(x0 + cell["x"], y0, cell["width"], row["height"]), cell["fill"]))
    if borders:
        borders.emit(page, row, x0, y0, row["height"])
    if origin is None:
        pg._y = y0 + row["height"]
        pg._at_top = False


def _cell_gap(pg, after: float | None, para: MeasuredParagraph) -> float:
    """Space before a paragraph in a table cell, after the previous one's space after (None: the first)."""
    if after is None:
        return 0.0 if para.auto_before else para.space_before  # no auto spacing at the top of a cell
    return pg._gap(after, para.space_before)


def _measure_nested(pg, tbl, width: float) -> _NestedTable:
    """A table inside a cell: its rows side by side within the cell's width, as one block."""
    from ..docx.model.tables import table_rows

    tblpr = tbl.find(_W + "tblPr")
    style_el = tblpr.find(_W + "tblStyle") if tblpr is not None else None
    style = style_el.get(_W + "val") if style_el is not None else None
    grid = [(_number(c.get(_W + "w")) or 0.0) * TWIP for c in tbl.findall(f"{_W}tblGrid/{_W}gridCol")]
    rows = [tr for tr in table_rows(tbl) if tr.find(_W + "trPr") is None
            or not _row_left_out(pg, tr.find(_W + "trPr"))]
    if not grid or sum(grid) <= 0:
        from ..docx.model.tables import row_cells

        cols = max((sum(c[2] for c in row_cells(r)) for r in rows), default=1)
        grid = [width / max(cols, 1)] * max(cols, 1)
    if sum(grid) > width:
        grid = [g * width / sum(grid) for g in grid]
    measured = [_measure_row(pg, tr, i, len(rows), grid, style) for i, tr in enumerate(rows)]
    borders = TableBorders(pg.formatter, tbl, rows, grid)
    for row, tr in zip(measured, rows, strict=True):
        borders.attach(row, tr)
        _border_room(row, tr is rows[-1])
    return _NestedTable(measured, borders)


def _border_room(row: dict, last: bool) -> None:
    """A row is as tall as its text and its top border (the last row its bottom border too), and its
    text starts below that border: Word's rows of a Table Grid at 0.5 pt borders stand 0.5 pt further
    apart than their lines (word-pdf/docxide-case06: Aptos 12 pt rows 15.15 pt apart, lines 14.65). A row of
    exact height keeps it."""
    edges = row.get("edges")
    if edges is None or row.get("exact"):
        return
    top = max((border.width for _a, _b, border in edges.top), default=0.0)
    bottom = max((border.width for _a, _b, border in edges.bottom), default=0.0) if last else 0.0
    row["border_top"] = top
    row["height"] += top + bottom
    for cell in row["cells"]:
        cell["content"] += top + bottom


def _emit_nested(pg, table: _NestedTable, x: float, y: float, first: int, last: int) -> None:
    for row in table.rows[first:last + 1]:
        _emit_row(pg, row, 0.0, table.borders, origin=(x, y))
        y += row["height"]


@dataclass
class _RowLine:
    y: float
    height: float


class _NestedTable:
    """A table inside a table cell, measured as a block whose "lines" are its rows, so the cell's
    flow (and a row split over pages) treats it like a paragraph that breaks between rows."""

    space_before = 0.0
    space_after = 0.0
    auto_before = False
    frame = None  # no paragraph borders of its own

    def __init__(self, rows: list[dict], borders):  # borders: borders.TableBorders
        self.rows = rows
        self.borders = borders
        self.lines: list[_RowLine] = []
        y = 0.0
        for row in rows:
            self.lines.append(_RowLine(y, row["height"]))
            y += row["height"]
        self.content_height = y


_DEFAULT_MARGINS = {"top": 0.0, "bottom": 0.0, "left": CELL_MARGIN, "right": CELL_MARGIN}


def _margins(el, base: dict) -> dict:
    """Cell margins in px from a w:tblCellMar / w:tcMar element over inherited ones."""
    out = dict(base)
    if el is None:
        return out
    for side, names in (("top", ("top",)), ("bottom", ("bottom",)), ("left", ("left", "start")),
                        ("right", ("right", "end"))):
        for name in names:
            m = el.find(_W + name)
            value = _number(m.get(_W + "w")) if m is not None else None
            if value is not None and m.get(_W + "type", "dxa") == "dxa":
                out[side] = value * TWIP
                break
    return out


def _autofit(pg, rows, grid: list[float], style) -> list[float]:
    """An autofit table's columns (Word's default layout) as Word widens them: a column whose
    cells hold a word longer than the column is wide (a path, a long number) gets the width of that
    word, taken from the other columns' room to spare; the table keeps its width where they have
    it. Grid columns are unchanged when every word fits (the common case: nothing is measured
    twice, the cells' measurements are the ones the rows reuse)."""
    from ..docx.model.tables import row_cells

    cells = []  # (column, the cell's margins left + right, its paragraphs measured at its width)
    forced = False
    for tr in rows:
        if _row_hidden(pg, tr):
            continue
        table_margins = _margins(tr.getparent().find(f"{_W}tblPr/{_W}tblCellMar"), _DEFAULT_MARGINS)
        for tc, col, span, vmerge in row_cells(tr):
            if span != 1 or vmerge == "continue" or col >= len(grid):
                continue
            margins = _margins(tc.find(f"{_W}tcPr/{_W}tcMar"), table_margins)
            sides = margins["left"] + margins["right"]
            paras = [pg.measure(p, max(grid[col] - sides, 10.0), style) for p in _cell_blocks(tc) if p.tag == T_P]
            forced = forced or any(_breaks_a_word(m) for m in paras)
            cells.append((col, sides, paras))
    if not forced:
        return grid
    need = [0.0] * len(grid)  # each column's longest word, with its margins
    for col, sides, paras in cells:
        for m in paras:
            need[col] = max(need[col], _longest_word(m) + sides)
    wider = [max(g, n) for g, n in zip(grid, need, strict=True)]
    excess = sum(wider) - sum(grid)
    spare = [max(g - n, 0.0) for g, n in zip(grid, need, strict=True)]
    if excess <= 0.01 or sum(spare) <= 0:
        return wider
    share = min(excess / sum(spare), 1.0)
    return [w - s * share if w == g else w for w, g, s in zip(wider, grid, spare, strict=True)]


def _breaks_a_word(m: MeasuredParagraph) -> bool:
    """Whether a line of m ends inside a word (Qt broke a word longer than the line, or after a
    slash with no space before it): Word would widen an autofit column instead."""
    text = m.text
    return any(0 < line.end < len(text) and not _breakable(text[line.end - 1]) and not _breakable(text[line.end])
               and text[line.end - 1] != "-" for line in m.lines[:-1])


def _breakable(ch: str) -> bool:
    """A space, or East Asian text (a line may break between any two of its characters)."""
    return ch.isspace() or bool(EAST_ASIAN.match(ch))


def _longest_word(m: MeasuredParagraph) -> float:
    """The width of m's widest run of characters without a space, as it is set (its formats)."""
    from PySide6.QtGui import QTextLayout, QTextOption

    layout = QTextLayout(m.layout.text(), m.layout.font())
    layout.setFormats(m.layout.formats())
    option = QTextOption(m.layout.textOption())
    option.setWrapMode(QTextOption.NoWrap)
    layout.setTextOption(option)
    layout.beginLayout()
    line = layout.createLine()
    layout.endLayout()
    if not line.isValid():
        return 0.0
    text, widest, start = m.layout.text(), 0.0, 0
    for end in range(len(text) + 1):
        if end == len(text) or _breakable(text[end]):
            if end > start:
                widest = max(widest, line.cursorToX(end)[0] - line.cursorToX(start)[0])
            start = end + 1
    return widest


def _number(raw: str | None) -> float | None:
    """A twips attribute; Google Docs writes decimals (w:w="144.0"), which Word and LibreOffice read."""
    try:
        return float(raw) if raw is not None else None
    except ValueError:
        return None


def _cell_fill(tc) -> str | None:
    """The cell's w:shd fill as "#RRGGBB" (None for none, auto or white)."""
    shd = tc.find(f"{_W}tcPr/{_W}shd")
    fill = shd.get(_W + "fill") if shd is not None else None
    if not fill or fill.lower() in ("auto", "ffffff") or len(fill) != 6:
        return None
    return "#" + fill.upper()


def _cell_blocks(tc):
    """A cell's paragraphs and nested tables in order (a content control's children included)."""
    for child in tc:
        if child.tag in (T_P, T_TBL):
            yield child
        elif child.tag == T_SDT:
            content = child.find(T_SDT_CONTENT)
            if content is not None:
                yield from (c for c in content if c.tag in (T_P, T_TBL))
