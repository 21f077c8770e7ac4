"""Table operations: insert and delete tables, rows and columns; merge and split cells (spec §3.6).

Each operation checks everything first and only then writes, so a refused operation leaves the
table exactly as it was.
"""

from __future__ import annotations

import copy

from lxml import etree

from ...model.tables import row_cells, table_rows
from ...package.ooxml import W_NS, W_PPR, W_VAL, int_attr
from ..paragraph_edit import EditError, ParagraphView, make_runs
from .context import (
    OpContext,
    append_runs,
    copied_paragraph_properties,
    is_last_paragraph,
    mark_paragraph,
    new_paragraph,
    outer_table,
)

_W = "{" + W_NS + "}"
T_TBL, T_TR, T_TC, T_P, T_R = (_W + t for t in ("tbl", "tr", "tc", "p", "r"))
T_TRPR, T_TCPR, T_TBLGRID = _W + "trPr", _W + "tcPr", _W + "tblGrid"
_CELL_REVISIONS = ("tcPrChange", "cellIns", "cellDel", "cellMerge")


# -- resolution ---------------------------------------------------------------------------------------


def _nearest(el, tag):
    anc = el.getparent()
    while anc is not None and anc.tag != tag:
        anc = anc.getparent()
    return anc


def resolve(plan, snapshot) -> None:
    """Find the anchor's cell, row and table, and refuse what cannot be done before anything runs."""
    op, t = plan.op, plan.op["type"]
    p = plan.block.element
    tc = _nearest(p, T_TC)
    if tc is None:
        raise EditError("unsupportedBlock", "the block is not inside a table")
    tr = _nearest(tc, T_TR)
    tbl = _nearest(tr, T_TBL)
    rows = list(table_rows(tbl))
    grid = [row_cells(r) for r in rows]
    row_index = rows.index(tr)
    cell = next(c for c in grid[row_index] if c[0] is tc)
    plan.resolved.update(table=tbl, row=tr, cell=tc, rows=rows, grid=grid, row_index=row_index,
                         grid_col=cell[1], span=cell[2], vmerge=cell[3])
    texts = op.get("cellTexts") or []
    if t == "insertTableRow" and len(texts) > len(grid[row_index]):
        extra = ", ".join(f'cellTexts[{i}] "{texts[i][:40]}"' for i in range(len(grid[row_index]), len(texts)))
        raise EditError("payloadDoesNotFit", f"the row has {len(grid[row_index])} cells; {extra} do not fit")
    if t == "insertTableColumn" and len(texts) > len(rows):
        extra = ", ".join(f'cellTexts[{i}] "{texts[i][:40]}"' for i in range(len(rows), len(texts)))
        raise EditError("payloadDoesNotFit", f"the table has {len(rows)} rows; {extra} do not fit")
    if t == "mergeTableCells":
        _resolve_merge(plan, snapshot)
    if t == "splitTableCell" and cell[2] == 1 and cell[3] != "restart":
        raise EditError("noopOperation", "the cell is not merged")
    if t == "splitTableCell" and plan.op and cell[2] > 1 and _tracked(plan):
        raise EditError("unsupportedBlock", "tracked changes can only split vertical merges")


def _tracked(plan) -> bool:
    return plan.resolved.get("mode", "tracked-changes") == "tracked-changes"


def _resolve_merge(plan, snapshot) -> None:
    op = plan.op
    r = plan.resolved
    grid, row0, col0 = r["grid"], r["row_index"], r["grid_col"]
    if "rowCount" in op:
        row1, col1 = row0 + op["rowCount"] - 1, col0 + r["span"] - 1
        if row1 >= len(grid):
            raise EditError("unsupportedBlock", "the table has fewer rows below this cell")
    else:
        end_block = snapshot.block(op["endBlockId"])
        if end_block is None:
            raise EditError("missingBlock", f'block "{op["endBlockId"]}" was not found')
        end_tc = _nearest(end_block.element, T_TC)
        if end_tc is None or _nearest(_nearest(end_tc, T_TR), T_TBL) is not r["table"]:
            raise EditError("unsupportedBlock", "the end block is not a cell of the same table")
        row1 = next(i for i, cells in enumerate(grid) if any(c[0] is end_tc for c in cells))
        end_cell = next(c for c in grid[row1] if c[0] is end_tc)
        col1 = end_cell[1] + end_cell[2] - 1
    top, bottom = min(row0, row1), max(row0, row1)
    left, right = min(col0, col1), max(col0, col1)
    if top == bottom and left == right and r["span"] == 1:
        raise EditError("noopOperation", "a single cell is already merged with itself")
    region = []
    for i in range(top, bottom + 1):
        cells = [c for c in grid[i] if c[1] + c[2] - 1 >= left and c[1] <= right]
        if not cells or cells[0][1] < left or cells[-1][1] + cells[-1][2] - 1 > right:
            raise EditError("unsupportedBlock", "the rectangle cuts through a merged cell")
        if (i == top and cells[0][3] == "continue") or (i == bottom and i + 1 < len(grid) and any(
                c[3] == "continue" and left <= c[1] <= right for c in grid[i + 1])):
            raise EditError("unsupportedBlock", "the rectangle cuts through a vertically merged cell")
        region.append(cells)
    r.update(region=region, top=top, left=left, right=right)
    if r.get("mode") == "tracked-changes":
        if left != right or any(len(cells) != 1 for cells in region):
            raise EditError("unsupportedBlock", "tracked changes can only merge cells of one column vertically")
        for cells in region[1:]:
            if "".join(cells[0][0].itertext()).strip():
                raise EditError("unsupportedBlock", "tracked merges need the lower cells to be empty")


# -- building blocks ---------------------------------------------------------------------------------


def _tcpr(tc) -> etree._Element:
    tcpr = tc.find(T_TCPR)
    if tcpr is None:
        tcpr = etree.Element(T_TCPR)
        tc.insert(0, tcpr)
    return tcpr


def _cell_paragraphs(ctx: OpContext, text: str, template_p: etree._Element | None) -> list[etree._Element]:
    out = []
    for line in text.split("\n") if text else [""]:
        p = new_paragraph(ctx)
        ppr = copied_paragraph_properties(template_p.find(W_PPR) if template_p is not None else None,
                                          drop=("pPrChange", "sectPr", "numPr"))
        if ppr is not None:
            p.append(ppr)
        if line:
            append_runs(ctx, p, make_runs(line, None))
        out.append(p)
    if ctx.tracked:  # a cell's inner paragraph marks are new too (its last mark comes with the row)
        for p in out[:-1]:
            mark_paragraph(ctx, p, "ins")
    return out


def _new_cell(ctx: OpContext, width: str | None, text: str, template_tc=None, tracked_insert=False):
    tc = etree.Element(T_TC)
    tcpr = etree.SubElement(tc, T_TCPR)
    if template_tc is not None and template_tc.find(T_TCPR) is not None:
        for child in template_tc.find(T_TCPR):
            if child.tag[len(_W):] not in _CELL_REVISIONS + ("vMerge", "gridSpan"):
                tcpr.append(copy.deepcopy(child))
    elif width:
        w = etree.SubElement(tcpr, _W + "tcW")
        w.set(_W + "w", width)
        w.set(_W + "type", "dxa")
    if tracked_insert:
        tcpr.append(ctx.stamp.mark("cellIns"))
    template_p = template_tc.find(T_P) if template_tc is not None else None
    for p in _cell_paragraphs(ctx, text, template_p):
        tc.append(p)
    return tc


def _mark_row(ctx: OpContext, tr, tag: str) -> None:
    trpr = tr.find(T_TRPR)
    if trpr is None:
        trpr = etree.Element(T_TRPR)
        prex = tr.find(_W + "tblPrEx")
        tr.insert(tr.index(prex) + 1 if prex is not None else 0, trpr)
    for old in trpr.findall(_W + "ins") + trpr.findall(_W + "del"):
        trpr.remove(old)
    change = trpr.find(_W + "trPrChange")
    mark = ctx.stamp.mark(tag)
    if change is not None:
        change.addprevious(mark)
    else:
        trpr.append(mark)


def _delete_cell_text(ctx: OpContext, container, marks: bool = False) -> None:
    """Delete every paragraph's text; with marks, also every paragraph mark but each cell's last
    (LibreOffice keeps a row deletion only when the row's inner marks are deleted too)."""
    for p in list(container.iter(T_P)):
        view = ParagraphView(p, ctx.doc.hidden_character_styles)
        if view.text:
            view.delete(0, len(view.text), ctx.run_stamp(), allow_notes=True)
        if marks and ctx.tracked and _nearest(p, T_TC) is not None and not is_last_paragraph(p):
            mark_paragraph(ctx, p, "del")


def _text_width(ctx: OpContext) -> int:
    sect = ctx.doc.body.find(_W + "sectPr")
    width = 12240
    margins = 2880
    if sect is not None:
        size = sect.find(_W + "pgSz")
        mar = sect.find(_W + "pgMar")
        width = int_attr(size, _W + "w", 12240) if size is not None else 12240
        if mar is not None:
            margins = (int_attr(mar, _W + "left", 1440) or 0) + (int_attr(mar, _W + "right", 1440) or 0)
    return max(width - margins, 1440)


def _build_table(ctx: OpContext, rows: list[list[str]]) -> etree._Element:
    cols = len(rows[0])
    col_w = str(_text_width(ctx) // cols)
    tbl = etree.Element(T_TBL)
    tblpr = etree.SubElement(tbl, _W + "tblPr")
    style = ctx.doc.styles.get("TableGrid")
    if style is not None and style.type == "table":
        etree.SubElement(tblpr, _W + "tblStyle").set(W_VAL, "TableGrid")
    tblw = etree.SubElement(tblpr, _W + "tblW")
    tblw.set(_W + "w", "0")
    tblw.set(_W + "type", "auto")
    if style is None:
        borders = etree.SubElement(tblpr, _W + "tblBorders")
        for side in ("top", "left", "bottom", "right", "insideH", "insideV"):
            b = etree.SubElement(borders, _W + side)
            b.set(W_VAL, "single")
            b.set(_W + "sz", "4")
            b.set(_W + "space", "0")
            b.set(_W + "color", "auto")
    grid = etree.SubElement(tbl, T_TBLGRID)
    for _ in range(cols):
        etree.SubElement(grid, _W + "gridCol").set(_W + "w", col_w)
    for row in rows:
        tr = etree.SubElement(tbl, T_TR)
        if ctx.tracked:
            _mark_row(ctx, tr, "ins")
        for text in row:
            tr.append(_new_cell(ctx, col_w, text))
    return tbl


def _place_beside(ctx: OpContext, new_el) -> None:
    anchor_p = ctx.block.element
    anchor = outer_table(anchor_p) or anchor_p
    if ctx.op.get("position", "after") == "after":
        anchor.addnext(new_el)
    else:
        anchor.addprevious(new_el)
    ctx.created.append(new_el)


# -- operations ---------------------------------------------------------------------------------------


def insert_table(ctx: OpContext) -> None:
    _place_beside(ctx, _build_table(ctx, ctx.op["rows"]))


def insert_signature_table(ctx: OpContext) -> None:
    parties = ctx.op["parties"]
    if not parties:
        raise EditError("emptyOperation", "no parties were given")
    tbl = _build_table(ctx, [["" for _ in parties]])
    tr = tbl.find(T_TR)
    for tc, party in zip(tr.findall(T_TC), parties, strict=True):
        for p in tc.findall(T_P):
            tc.remove(p)
        lines = [(party["name"], True, False), ("_" * 28, False, False)]
        if party.get("signatory"):
            lines.append((party["signatory"], False, False))
        if party.get("title"):
            lines.append((party["title"], False, True))
        for text, bold, italic in lines:
            p = new_paragraph(ctx)
            for run in make_runs(text, None, bold=bold, italic=italic):
                p.append(run)
            tc.append(p)
    _place_beside(ctx, tbl)
    text = (ctx.op.get("comment") or {}).get("text")
    if text:
        cid = ctx.comments.add(text, ctx.stamp.author, date=ctx.stamp.date)
        start, end, ref = ctx.comments.anchor_markers(cid)
        first_p = tbl.find(f"{T_TR}/{T_TC}/{T_P}")
        first_p.append(start)
        first_p.append(end)
        first_p.append(ref)
        ctx.comment_id = cid


def delete_table(ctx: OpContext) -> None:
    tbl = ctx.resolved["table"]
    tbl = outer_table(tbl) if _nearest(tbl, T_TC) is not None else tbl
    if not ctx.tracked:
        tbl.getparent().remove(tbl)
        return
    for tr in table_rows(tbl):
        trpr = tr.find(T_TRPR)
        if trpr is not None and trpr.find(_W + "del") is not None:
            continue
        _delete_cell_text(ctx, tr, marks=True)
        _mark_row(ctx, tr, "del")


def insert_table_row(ctx: OpContext) -> None:
    r = ctx.resolved
    tr, grid, row_index = r["row"], r["grid"], r["row_index"]
    after = ctx.op.get("position", "after") == "after"
    texts = ctx.op.get("cellTexts") or []
    new_tr = etree.Element(T_TR)
    for key in ("tblPrEx", "trPr"):
        src = tr.find(_W + key)
        if src is not None:
            el = copy.deepcopy(src)
            for tag in ("ins", "del", "trPrChange", "tblPrExChange"):
                for old in el.findall(_W + tag):
                    el.remove(old)
            new_tr.append(el)
    neighbour = grid[row_index + 1] if after and row_index + 1 < len(grid) else (grid[row_index] if not after else None)
    for k, (tc, col, span, vmerge) in enumerate(grid[row_index]):
        grows = False
        if neighbour is not None and vmerge is not None:
            below = next((c for c in neighbour if c[1] == col), None)
            grows = below is not None and below[3] == "continue" and (after or vmerge == "continue")
        cell = _new_cell(ctx, None, "" if grows else (texts[k] if k < len(texts) else ""), template_tc=tc)
        tcpr = _tcpr(cell)
        if span > 1:
            gs = etree.Element(_W + "gridSpan")
            gs.set(W_VAL, str(span))
            _insert_tcpr_child(tcpr, gs)
        if grows:
            _insert_tcpr_child(tcpr, etree.Element(_W + "vMerge"))
        new_tr.append(cell)
    if ctx.tracked:
        _mark_row(ctx, new_tr, "ins")
    (tr.addnext if after else tr.addprevious)(new_tr)
    ctx.created.append(new_tr)


_TCPR_ORDER = ["cnfStyle", "tcW", "gridSpan", "hMerge", "vMerge", "tcBorders", "shd", "noWrap", "tcMar",
               "textDirection", "tcFitText", "vAlign", "hideMark", "headers", "cellIns", "cellDel", "cellMerge",
               "tcPrChange"]


def _insert_tcpr_child(tcpr, el) -> None:
    name = el.tag[len(_W):]
    old = tcpr.find(el.tag)
    if old is not None:
        tcpr.replace(old, el)
        return
    rank = _TCPR_ORDER.index(name)
    for i, child in enumerate(tcpr):
        local = child.tag[len(_W):]
        if local in _TCPR_ORDER and _TCPR_ORDER.index(local) > rank:
            tcpr.insert(i, el)
            return
    tcpr.append(el)


def delete_table_row(ctx: OpContext) -> None:
    tr = ctx.resolved["row"]
    if not ctx.tracked:
        tbl = tr.getparent()
        tbl.remove(tr)
        if not any(c.tag == T_TR for c in tbl):
            tbl.getparent().remove(tbl)
        return
    _delete_cell_text(ctx, tr, marks=True)
    _mark_row(ctx, tr, "del")


def insert_table_column(ctx: OpContext) -> None:
    r = ctx.resolved
    after = ctx.op.get("position", "after") == "after"
    point = r["grid_col"] + r["span"] if after else r["grid_col"]
    texts = ctx.op.get("cellTexts") or []
    anchor_width = None
    tcw = r["cell"].find(f"{T_TCPR}/{_W}tcW")
    if tcw is not None:
        anchor_width = tcw.get(_W + "w")
    for k, cells in enumerate(r["grid"]):
        spanning = next((c for c in cells if c[1] < point < c[1] + c[2]), None)
        if spanning is not None:  # a horizontal merge crossing the new column widens instead
            gs = etree.Element(_W + "gridSpan")
            gs.set(W_VAL, str(spanning[2] + 1))
            _insert_tcpr_child(_tcpr(spanning[0]), gs)
            continue
        template = next((c[0] for c in cells if c[1] + c[2] == point), None)
        if template is None:
            template = next((c[0] for c in cells if c[1] == point), None)
        cell = _new_cell(ctx, anchor_width, texts[k] if k < len(texts) else "", template_tc=template,
                         tracked_insert=ctx.tracked)
        before = next((c for c in cells if c[1] >= point), None)
        if before is not None:
            before[0].addprevious(cell)
        elif cells:
            cells[-1][0].addnext(cell)
        else:
            r["rows"][k].append(cell)
        ctx.created.append(cell)
    grid_el = r["table"].find(T_TBLGRID)
    if grid_el is not None:
        cols = grid_el.findall(_W + "gridCol")
        new_col = etree.Element(_W + "gridCol")
        new_col.set(_W + "w", anchor_width or (cols[0].get(_W + "w") if cols else "1440"))
        if ctx.tracked:
            _record_grid_change(ctx, grid_el)
        if point < len(cols):
            cols[point].addprevious(new_col)
        else:
            (cols[-1].addnext if cols else grid_el.append)(new_col)


def _record_grid_change(ctx: OpContext, grid_el) -> None:
    if grid_el.find(_W + "tblGridChange") is not None:
        return
    change = ctx.stamp.mark("tblGridChange")
    for attr in ("author", "date"):
        del change.attrib[_W + attr]
    old = etree.SubElement(change, T_TBLGRID)
    for col in grid_el.findall(_W + "gridCol"):
        old.append(copy.deepcopy(col))
    grid_el.append(change)


def delete_table_column(ctx: OpContext) -> None:
    r = ctx.resolved
    col = r["grid_col"]
    for cells in r["grid"]:
        cell = next((c for c in cells if c[1] <= col < c[1] + c[2]), None)
        if cell is None:
            continue
        tc, start, span, _ = cell
        if span > 1:  # a merged cell over the column narrows instead of going
            if not ctx.tracked:
                gs = etree.Element(_W + "gridSpan")
                gs.set(W_VAL, str(span - 1))
                _insert_tcpr_child(_tcpr(tc), gs)
            continue
        if ctx.tracked:
            _delete_cell_text(ctx, tc)
            _insert_tcpr_child(_tcpr(tc), ctx.stamp.mark("cellDel"))
        else:
            row = tc.getparent()
            row.remove(tc)
    if not ctx.tracked:
        grid_el = r["table"].find(T_TBLGRID)
        cols = grid_el.findall(_W + "gridCol") if grid_el is not None else []
        if col < len(cols):
            grid_el.remove(cols[col])
        for tr in list(table_rows(r["table"])):
            if not any(c.tag == T_TC for c in tr):
                tr.getparent().remove(tr)


def merge_table_cells(ctx: OpContext) -> None:
    r = ctx.resolved
    region = r["region"]
    if ctx.tracked:
        for i, cells in enumerate(region):
            mark = ctx.stamp.mark("cellMerge")
            mark.set(_W + "vMerge", "rest" if i == 0 else "cont")
            _insert_tcpr_child(_tcpr(cells[0][0]), mark)
        return
    top_cell = region[0][0][0]
    # horizontal: one cell per row spanning the region; vertical: restart + continue
    for i, cells in enumerate(region):
        first = cells[0][0]
        width = sum(c[2] for c in cells)
        for c in cells[1:]:
            _move_content(c[0], top_cell if i == 0 else first)
            c[0].getparent().remove(c[0])
        if width > 1:
            gs = etree.Element(_W + "gridSpan")
            gs.set(W_VAL, str(width))
            _insert_tcpr_child(_tcpr(first), gs)
        if len(region) > 1:
            vm = etree.Element(_W + "vMerge")
            if i == 0:
                vm.set(W_VAL, "restart")
            else:
                _move_content(first, top_cell)
            _insert_tcpr_child(_tcpr(first), vm)


def _move_content(src_tc, dst_tc) -> None:
    """Move a cell's non-empty paragraphs into another cell; leave the source one empty paragraph."""
    paragraphs = [p for p in src_tc if p.tag in (T_P, T_TBL)]
    for p in paragraphs:
        if p.tag == T_TBL or "".join(p.itertext()).strip():
            dst_tc.append(p)
        else:
            src_tc.remove(p)
    if not any(c.tag == T_P for c in src_tc):
        etree.SubElement(src_tc, T_P)
    blocks = [c for c in dst_tc if c.tag in (T_P, T_TBL)]
    if blocks and blocks[-1].tag == T_TBL:
        etree.SubElement(dst_tc, T_P)


def split_table_cell(ctx: OpContext) -> None:
    r = ctx.resolved
    tc, span, vmerge = r["cell"], r["span"], r["vmerge"]
    if span > 1:
        tcpr = _tcpr(tc)
        tcpr.remove(tcpr.find(_W + "gridSpan"))
        for _ in range(span - 1):
            tc.addnext(_new_cell(ctx, None, "", template_tc=tc))
    if vmerge == "restart":
        col = r["grid_col"]
        cells = [tc]
        for row in r["grid"][r["row_index"] + 1:]:
            below = next((c for c in row if c[1] == col), None)
            if below is None or below[3] != "continue":
                break
            cells.append(below[0])
        for cell in cells:
            tcpr = _tcpr(cell)
            if ctx.tracked:
                if tcpr.find(_W + "tcPrChange") is not None:
                    raise EditError("pendingParagraphPropertyChange", "the cell already has a pending change")
                change = ctx.stamp.mark("tcPrChange")
                old = etree.SubElement(change, T_TCPR)
                for child in tcpr:
                    if child.tag[len(_W):] not in _CELL_REVISIONS:
                        old.append(copy.deepcopy(child))
                vm = tcpr.find(_W + "vMerge")
                if vm is not None:
                    tcpr.remove(vm)
                tcpr.append(change)
            else:
                vm = tcpr.find(_W + "vMerge")
                if vm is not None:
                    tcpr.remove(vm)


__all__ = ["resolve", "mark_paragraph"]
