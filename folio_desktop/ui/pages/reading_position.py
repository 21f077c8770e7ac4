"""The paragraph at the top of the viewport: the section the lawyer is reading while scrolling
(the outline panel follows it). The caret, the selection and the changes under them are the page
view's `selection` (selection.py)."""

from __future__ import annotations

from PySide6.QtCore import QPointF


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
