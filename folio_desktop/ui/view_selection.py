"""Where the lawyer is in the pages: the paragraph under the caret, the selection as an
accepted-view range of one block, the paragraph at the top of the viewport.

PageView keeps its caret, selection and text flow private; these read them the way its own click
handling does, so the editing commands and the outline's "follow the scroll" need nothing new
from the view.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF

from .review_marks import MARKED, accepted_offset, span_groups
from .text_flow import TextPos


def _ends(view):
    anchor, caret = view._anchor, view._caret
    if anchor is None or caret is None or not view._flow.entries:
        return None
    return (anchor, caret) if anchor <= caret else (caret, anchor)


def current_block_id(view) -> str | None:
    """The block holding the caret (the start of a selection), or None without one."""
    ends = _ends(view)
    return view._flow.frag(ends[0]).block_id if ends else None


def selection_range(view) -> tuple[str, int, int] | None:
    """(block id, start, end) of a non-empty selection inside one block, in accepted-view str
    offsets (text shown as deleted maps to where it stood). None across blocks or with no selection."""
    ends = _ends(view)
    if ends is None or ends[0] == ends[1]:
        return None
    first, last = (view._flow.frag(p) for p in ends)
    if first.block_id is None or first.block_id != last.block_id:
        return None
    start, end = accepted_offset(first.para, ends[0].offset), accepted_offset(last.para, ends[1].offset)
    return (first.block_id, start, end) if start < end else None


def top_block_id(view, margin: float = 24.0) -> str | None:
    """The body block at the top of the viewport (the section being read while scrolling)."""
    hit = view.viewport_to_page(QPointF(view.viewport().width() / 2, margin))
    if hit is None:
        return None
    number, point = hit
    page = view.pages[number - 1]
    below = [f for f in page.body_fragments() if f.block_id and f.bottom >= point.y()]
    if below:
        return min(below, key=lambda f: f.top).block_id
    before = [f for f in page.body_fragments() if f.block_id]
    return before[-1].block_id if before else None


def show_change(view, change) -> bool:
    """Select the redline of `change` in the pages and scroll to it; the whole block when its
    marks cannot be told apart (a paragraph mark, a formatting change). False when not shown."""
    if change is None or not change.block_id:
        return False
    flow = view._flow
    for index in flow.block_entries(change.block_id):
        frag = flow.entries[index][1]
        lo, hi = frag.display_range
        for start, end, _kind, _author in span_groups(frag.para, MARKED):
            if end <= lo or start >= hi:
                continue  # drawn on the other page of a split paragraph
            found = view._marks.change_at(frag, start)
            if found is not None and found[0] == change.id:
                s, e = max(found[1][0], lo), min(found[1][1], hi)
                if not view.scroll_to_block(change.block_id, accepted_offset(frag.para, s)):
                    return False
                view._select(TextPos(index, s), TextPos(index, e))
                return True
    return view.scroll_to_block(change.block_id)
