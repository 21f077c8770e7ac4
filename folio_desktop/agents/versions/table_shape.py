"""The shape of a table, which a block's text does not show: how many grid columns, and per row the
grid offsets (w:gridBefore / w:gridAfter) and each cell's span (w:gridSpan) and vertical merge
(w:vMerge). The redline plan replaces a row whose shape changed as a whole row (deleted and
inserted) and a table whose grid changed as a whole table; the redline's check compares the shapes
of every table after accepting and rejecting, so a change of shape alone is never lost."""

from __future__ import annotations

from lxml import etree

from folio_desktop.docx.model.tables import row_cells, table_rows
from folio_desktop.docx.package.ooxml import W_NS

_W = "{" + W_NS + "}"
T_TBL, T_TR = _W + "tbl", _W + "tr"
_VAL = _W + "val"


def _int(parent: etree._Element | None, tag: str, default: int) -> int:
    el = parent.find(_W + tag) if parent is not None else None
    try:
        return int(el.get(_VAL)) if el is not None else default
    except (TypeError, ValueError):
        return default


def row_shape(tr: etree._Element) -> tuple:
    """(gridBefore, gridAfter, ((gridSpan, vMerge, hMerge) per cell)), cells read through content
    controls around them as the reader does."""
    pr = tr.find(_W + "trPr")
    cells = []
    for tc, _col, span, vmerge in row_cells(tr):
        tcpr = tc.find(_W + "tcPr")
        h_merge = tcpr.find(_W + "hMerge") if tcpr is not None else None
        cells.append((span, vmerge, None if h_merge is None else h_merge.get(_VAL) or "continue"))
    return _int(pr, "gridBefore", 0), _int(pr, "gridAfter", 0), tuple(cells)


def grid_shape(tbl: etree._Element) -> int:
    grid = tbl.find(_W + "tblGrid")
    return 0 if grid is None else len(grid.findall(_W + "gridCol"))


def table_shape(tbl: etree._Element) -> tuple:
    return grid_shape(tbl), tuple(row_shape(tr) for tr in table_rows(tbl))


def root_shapes(root: etree._Element) -> list[tuple]:
    """Every table under a story root (nested ones too), in document order; a table left without a
    row (not valid, and dropped when its last row's deletion is accepted) is not counted."""
    return [shape for shape in (table_shape(tbl) for tbl in root.iter(T_TBL)) if shape[1]]


__all__ = ["grid_shape", "reshaped", "root_shapes", "row_shape", "story_shapes", "table_shape"]


def story_shapes(rev) -> dict[str, list[tuple]]:
    """Story key -> the shapes of its tables, for a reviewer (DocxReviewer) as it reads now."""
    doc = rev.document
    return {story.key: root_shapes(doc.story_container(story)) for story in rev.stories()}


def reshaped(pairs) -> tuple[set, int]:
    """Of the paired containers (base element, revised element) a plan's paired blocks sit in: the
    ids of those (base and revised) whose shape differs, so every block pair inside them is written
    as a deletion and an insertion instead (a row whose offsets, spans, merges or cell count changed
    becomes a whole row deleted and inserted; a table whose grid changed, a whole table); and how
    many tables go whole for their grid."""
    seen: set = set()
    out: set = set()
    grids = 0
    for b_el, r_el in pairs:
        if (id(b_el), id(r_el)) in seen:
            continue
        seen.add((id(b_el), id(r_el)))
        if b_el.tag == T_TR and r_el.tag == T_TR:
            differs = row_shape(b_el) != row_shape(r_el)
        elif b_el.tag == T_TBL and r_el.tag == T_TBL:
            differs = grid_shape(b_el) != grid_shape(r_el)
            grids += differs
        else:
            continue
        if differs:
            out |= {id(b_el), id(r_el)}
    return out, grids
