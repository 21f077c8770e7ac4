"""What one applied operation touched and reports: whether it changed only its paragraph's runs
(the snapshot is then patched, not read again), the elements to checkpoint and to validate, the
local checkpoint that puts them back when the operation fails halfway, and its receipt (spec §3.9).
Apart from operations.py, which runs the batch around them."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING

from lxml import etree

from .ops import blocks as op_blocks

if TYPE_CHECKING:
    from .operation_targets import _Planned
    from .ops.context import OpContext


def _text_only(plan: _Planned, ctx: OpContext) -> bool:
    """Did the operation change only the runs of its own paragraph (no new paragraph, comment,
    style or paragraph mark)? Then the snapshot can read that paragraph again instead of the story."""
    t = plan.op["type"]
    if t == "replaceBlock" and ("styleId" in plan.op or plan.op.get("preserveFormatting") is False):
        return False
    return t in ("replaceRange", "replaceInBlock", "replaceBlock") and not ctx.created and ctx.comment_id is None \
        and plan.block is not None and plan.block.element is not None


def _checkpoint_elements(plan: _Planned) -> list[etree._Element]:
    p = plan.block.element if plan.block is not None else None
    if p is None:
        return []
    out = list(plan.block.paragraphs)  # with those a deleted mark joins to it (accepted.py)
    if plan.op["type"] in ("mergeBlockWithNext", "deleteBlock"):  # either may join p with the next one
        nxt = op_blocks.next_paragraph(p)
        if nxt is not None:
            out.append(nxt)
    return out


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


class _LocalCheckpoint:
    """Restores paragraphs in place (same element objects) when one operation fails halfway."""

    def __init__(self, elements: list[etree._Element]):
        self.saved = []
        for el in elements:
            parent = el.getparent()
            self.saved.append((el, copy.deepcopy(el), parent, list(parent) if parent is not None else []))

    def restore(self) -> None:
        for el, snap, parent, before in self.saved:
            if parent is None:
                continue
            known = {id(c) for c in before}
            for child in list(parent):
                if id(child) not in known:
                    parent.remove(child)
            for child in list(el):
                el.remove(child)
            el.attrib.clear()
            el.attrib.update(snap.attrib)
            for child in list(snap):
                el.append(child)
            if el.getparent() is not parent:
                prev = None
                for cand in before:
                    if cand is el:
                        break
                    if cand.getparent() is parent:
                        prev = cand
                if prev is None:
                    parent.insert(0, el)
                else:
                    prev.addnext(el)


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
