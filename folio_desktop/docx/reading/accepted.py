"""The one definition of where a pending paragraph-mark deletion takes a paragraph in the accepted view.

A paragraph whose mark is a pending deletion (w:pPr/w:rPr/w:del or w:moveFrom) joins the paragraph
right after it, as Word's No Markup shows it and as accept-all makes it: its content runs on at the
start of that paragraph, whose properties (the mark that survives) apply to the whole. A chain of
such paragraphs folds into the last one. Nothing is joined across a table (unless all its rows are
pending deletions: accepted, it is gone) or other block, or past the end of the container. The
snapshot (blocks, read tools), the edit view and accept-all all ask `joins_into` so they cannot
disagree.
"""

from __future__ import annotations

from lxml import etree

from ..package.ooxml import W_NS, first_child

_W = "{" + W_NS + "}"
T_P, T_TBL, T_TR, T_TRPR, T_DEL = _W + "p", _W + "tbl", _W + "tr", _W + "trPr", _W + "del"
T_PPR, T_RPR = _W + "pPr", _W + "rPr"
_DELETED_MARKS = (_W + "del", _W + "moveFrom")
# point markup that may stand between two paragraphs without separating them
BETWEEN = tuple(_W + t for t in (
    "commentRangeStart", "commentRangeEnd", "bookmarkStart", "bookmarkEnd",
    "moveFromRangeStart", "moveFromRangeEnd", "moveToRangeStart", "moveToRangeEnd",
    "proofErr", "permStart", "permEnd"))


def deleting_mark(p: etree._Element, ppr: etree._Element | None = None) -> etree._Element | None:
    """The pending deletion of the paragraph's mark (its w:pPr/w:rPr/w:del or w:moveFrom), or None.
    `ppr`: p's w:pPr when the caller has it."""
    ppr = first_child(p, T_PPR) if ppr is None else ppr
    rpr = first_child(ppr, T_RPR) if ppr is not None else None
    if rpr is None:
        return None
    return next((child for child in rpr if child.tag in _DELETED_MARKS), None)


def mark_deleted(p: etree._Element) -> bool:
    """Is the paragraph's mark a pending deletion (gone once every change is accepted)?"""
    return deleting_mark(p) is not None


def following_block(p: etree._Element) -> etree._Element | None:
    """The block element right after p, looking past point markup (bookmarks, comment ranges, ...)."""
    nxt = p.getnext()
    while nxt is not None and (not isinstance(nxt.tag, str) or nxt.tag in BETWEEN):
        nxt = nxt.getnext()
    return nxt


def table_deleted(tbl: etree._Element) -> bool:
    """Is every row of the table a pending deletion (w:trPr/w:del)? Accept-all removes such a table
    before it resolves paragraph marks, so a deleted mark before it joins the paragraph after it."""
    rows = 0
    for tr in tbl.iter(T_TR):
        if next(tr.iterancestors(T_TBL)) is not tbl:
            continue  # a nested table's row: its own table goes with the outer row
        trpr = first_child(tr, T_TRPR)
        if trpr is None or first_child(trpr, T_DEL) is None:
            return False
        rows += 1
    return rows > 0


def joins_into(p: etree._Element) -> etree._Element | None:
    """The paragraph p runs on into in the accepted view, or None when p stands as a paragraph.
    Tables whose rows are all pending deletion are looked past: they are gone once accepted."""
    if not mark_deleted(p):
        return None
    nxt = following_block(p)
    while nxt is not None and nxt.tag == T_TBL and table_deleted(nxt):
        nxt = following_block(nxt)
    return nxt if nxt is not None and nxt.tag == T_P else None


__all__ = ["BETWEEN", "deleting_mark", "following_block", "joins_into", "mark_deleted", "table_deleted"]
