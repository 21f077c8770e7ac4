"""Where each page sits on the canvas: pages stacked top to bottom, centred, with a gap between;
where its body text runs, and the markup area beside it.

Page sizes are layout pixels (96 dpi); canvas coordinates are screen pixels at the current zoom.
"""

from __future__ import annotations

from bisect import bisect_right
from operator import itemgetter

from PySide6.QtCore import QPointF, QRectF

from ...layout import Page

GAP = 16.0  # screen pixels around and between pages
MARKUP_WIDTH = 288.0  # layout px (3 in) of the markup area right of each page, when comments show
DRAFT_ID = -(2**31)  # the balloon of a comment still being written (no comment has this id; fits a Qt int)


class PageStrip:
    def __init__(self) -> None:
        self.sizes: list[tuple[float, float]] = []
        self.zoom = 1.0
        self._tops: list[float] = []  # canvas y of each page's top at the current zoom
        self._max_width = 0.0

    def clear(self) -> None:
        self.sizes.clear()
        self._tops.clear()
        self._max_width = 0.0

    def append(self, width: float, height: float) -> None:
        self.sizes.append((width, height))
        self._tops.append(self._next_top())
        self._max_width = max(self._max_width, width)

    def set_sizes(self, sizes: list[tuple[float, float]]) -> None:
        self.sizes = list(sizes)
        self._restack()

    def splice(self, start: int, stop: int, sizes: list[tuple[float, float]]) -> None:
        """Pages start..stop (0-based, stop excluded) take these sizes (a relayout made them anew)."""
        self.sizes[start:stop] = sizes
        self._restack()

    def set_zoom(self, zoom: float) -> None:
        self.zoom = zoom
        self._restack()

    def _next_top(self) -> float:
        if not self._tops:
            return GAP
        return self._tops[-1] + self.sizes[len(self._tops) - 1][1] * self.zoom + GAP

    def _restack(self) -> None:
        tops, top, zoom = [], GAP, self.zoom
        for _w, h in self.sizes:
            tops.append(top)
            top += h * zoom + GAP
        self._tops = tops
        self._max_width = max(map(itemgetter(0), self.sizes), default=0.0)

    # -- sizes -------------------------------------------------------------------------------

    @property
    def count(self) -> int:
        return len(self.sizes)

    def max_width(self) -> float:
        return self._max_width if self.sizes else 816.0

    def canvas_width(self, viewport_width: float) -> float:
        return max(viewport_width, self.max_width() * self.zoom + 2 * GAP)

    def canvas_height(self) -> float:
        return self._next_top() if self.sizes else 0.0

    # -- page rectangles ---------------------------------------------------------------------

    def page_rect(self, index: int, viewport_width: float) -> QRectF:
        """Canvas rectangle of page `index` (0-based)."""
        w, h = self.sizes[index]
        x = (self.canvas_width(viewport_width) - w * self.zoom) / 2
        return QRectF(x, self._tops[index], w * self.zoom, h * self.zoom)

    def visible(self, y0: float, y1: float) -> range:
        """0-based indexes of the pages that intersect canvas rows y0..y1."""
        if not self.sizes:
            return range(0)
        first = max(bisect_right(self._tops, y0) - 1, 0)
        if self._tops[first] + self.sizes[first][1] * self.zoom < y0:
            first += 1
        last = bisect_right(self._tops, y1)
        return range(first, min(last, self.count))

    def nearest(self, y: float) -> int:
        """0-based index of the page at canvas row y, or the nearest one (gaps go to the page above)."""
        if not self.sizes:
            return -1
        return min(max(bisect_right(self._tops, y) - 1, 0), self.count - 1)

    def to_page(self, index: int, canvas: QPointF, viewport_width: float) -> QPointF:
        r = self.page_rect(index, viewport_width)
        return QPointF((canvas.x() - r.x()) / self.zoom, (canvas.y() - r.y()) / self.zoom)

    def from_page(self, index: int, point: QPointF, viewport_width: float) -> QPointF:
        r = self.page_rect(index, viewport_width)
        return QPointF(r.x() + point.x() * self.zoom, r.y() + point.y() * self.zoom)


def text_edges(page: Page) -> tuple[float, float]:
    """Left and right edges of the page's body text (the margins the marks sit in)."""
    body = page.body_fragments()
    if not body:
        return 96.0, page.width - 96.0
    return min(f.x + f.para.x for f in body), max(f.x + f.para.x + f.para.width for f in body)


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
