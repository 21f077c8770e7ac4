"""What one applied operation touched and reports: whether it changed only its paragraph's runs
(the snapshot is then patched, not read again), what it can reach (the spans its undo record keeps,
which also put it back when it fails halfway), the elements to validate, and its receipt (spec
§3.9). Apart from operations.py, which runs the batch around them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lxml import etree

from .ops import blocks as op_blocks
from .ops.context import outer_table

TEXT_ONLY = ("replaceRange", "replaceInBlock", "replaceBlock", "commentOnRange", "commentOnBlock")
SLOT_INSERTS = ("insertAfterBlock", "insertBeforeBlock", "insertTable", "insertSignatureTable")
TABLE_SPANS = ("insertTableRow", "deleteTableRow", "insertTableColumn", "deleteTableColumn", "mergeTableCells",
               "splitTableCell", "deleteTable")

if TYPE_CHECKING:
    from .operation_targets import _Planned
    from .ops.context import OpContext


def _text_only(plan: _Planned, ctx: OpContext) -> bool:
    """Did the operation change only the runs of its own paragraph (no new paragraph, style or
    paragraph mark; a comment's range and reference run count as runs)? Then the snapshot can read
    that paragraph again instead of the story (snapshot.patched refuses what it cannot)."""
    t = plan.op["type"]
    if t == "replaceBlock" and ("styleId" in plan.op or plan.op.get("preserveFormatting") is False):
        return False
    return t in TEXT_ONLY and not ctx.created and plan.block is not None and plan.block.element is not None


def _spans(plan: _Planned, body) -> list[tuple]:
    """What the operation can reach, for its undo record (EditRecord.keep_spans): the siblings it may
    change, remove or add to, as (container, left, right, order) spans. Its own paragraphs (and the
    next one, which a deletion or a merge may join); for an insert, the place it lands beside its
    anchor (a table's outermost table); for a table operation, the table."""
    t = plan.op["type"]
    p = plan.block.element if plan.block is not None else None
    order = plan.order
    if p is None:  # nothing to anchor to: the whole story
        return [(body, None, None, order)]
    if t in SLOT_INSERTS:
        after = (t in ("insertAfterBlock",) or
                 (t in ("insertTable", "insertSignatureTable") and plan.op.get("position", "after") == "after"))
        table = outer_table(p)
        anchor = table if table is not None else (p if after else plan.block.paragraphs[0])
        if after:
            return [(anchor.getparent(), anchor, anchor.getnext(), order)]
        return [(anchor.getparent(), anchor.getprevious(), anchor, order)]
    if t in TABLE_SPANS:
        table = plan.resolved.get("table")
        if table is not None:
            if t == "deleteTable":  # a nested table goes with its outermost one
                table = outer_table(table) if outer_table(table) is not None else table
            return [_span([table], order)]
    elements = list(plan.block.paragraphs)
    if t in ("mergeBlockWithNext", "deleteBlock"):  # either may join p with the next one
        nxt = op_blocks.next_paragraph(p)
        if nxt is not None:
            elements.append(nxt)
    return [_span(elements, order)]


def _touched(plan: _Planned, ctx: OpContext) -> list[etree._Element]:
    out = list(ctx.created)
    p = plan.block.element if plan.block is not None else None
    if p is not None:
        out.extend(q for q in plan.block.paragraphs if q.getparent() is not None)
    survivor = ctx.resolved.get("survivor")
    if survivor is not None:
        out.append(survivor)
    table = ctx.resolved.get("table")
    if table is not None and table.getparent() is not None:
        out.append(table)
    return out


def _span(elements: list[etree._Element], order) -> tuple:
    """The run of siblings from the first element to the last (each lifted to the level where they
    share a container)."""
    chains = [list(_chain(el)) for el in elements]
    container = elements[0].getparent()
    while container is not None and not all(container in chain[1:] for chain in chains):
        container = container.getparent()
    tops = [next(a for a in chain if a.getparent() is container) for chain in chains]
    return container, tops[0].getprevious(), tops[-1].getnext(), order


def _chain(el):
    while el is not None:
        yield el
        el = el.getparent()


def receipt_for(i: int, op: dict, entry: dict) -> dict:
    t = op["type"]
    story = "main"
    affected: list[dict] = []
    if t in ("replaceInBlock", "replaceBlock", "setBlockParagraphProperties", "splitBlock", "mergeBlockWithNext"):
        affected.append({"type": "block", "story": story, "blockId": op["blockId"], "effect": "updated"})
    elif t == "replaceRange":
        affected.append({"type": "block", "story": story, "blockId": op["range"]["blockId"], "effect": "updated"})
    elif t in ("deleteBlock", "deleteTable"):
        affected.append({"type": "block", "story": story, "blockId": op["blockId"], "effect": "deleted"})
    elif t == "commentOnBlock":
        affected.append({"type": "block", "story": story, "blockId": op["blockId"], "effect": "commented"})
    elif t in ("commentOnRange", "formatRange"):
        affected.append({"type": "textRange", "range": op["range"],
                         "effect": "commented" if t == "commentOnRange" else "formatted"})
    elif t in ("insertAfterBlock", "insertBeforeBlock"):
        affected.append({"type": "insertion", "story": story, "anchorBlockId": op["blockId"],
                         "position": "after" if t == "insertAfterBlock" else "before", "content": "block"})
    elif t in ("insertSignatureTable", "insertTable", "insertTableRow", "insertTableColumn"):
        content = {"insertSignatureTable": "signatureTable", "insertTable": "table", "insertTableRow": "tableRow",
                   "insertTableColumn": "tableColumn"}[t]
        affected.append({"type": "insertion", "story": story, "anchorBlockId": op["blockId"],
                         "position": op.get("position", "after"), "content": content})
    elif t in ("deleteTableRow", "deleteTableColumn"):
        affected.append({"type": "tableRow" if t == "deleteTableRow" else "tableColumn", "story": story,
                         "anchorBlockId": op["blockId"], "effect": "deleted"})
    elif t == "mergeTableCells":
        target = {"type": "tableCells", "story": story, "anchorBlockId": op["blockId"], "effect": "merged"}
        if "endBlockId" in op:
            target["endAnchorBlockId"] = op["endBlockId"]
        else:
            target["rowCount"] = op["rowCount"]
        affected.append(target)
    elif t == "splitTableCell":
        affected.append({"type": "tableCell", "story": story, "anchorBlockId": op["blockId"], "effect": "split"})
    if entry.get("commentId") is not None:
        affected.append({"type": "comment", "commentId": entry["commentId"]})
    return {"operationId": op["id"], "operationIndex": i, "affected": affected}


def _receipt_position(receipts: list[dict], index: int) -> int:
    for pos, receipt in enumerate(receipts):
        if receipt["operationIndex"] == index:
            return pos
    raise KeyError(index)
