"""Redline marks beside the text: change bars, comment balloons, and which change or comment a
display offset belongs to.

The layout's spans say *that* text is inserted, deleted or commented, not which census entry it
is. The mapping here is an approximation within one block:
- changes: spans of one kind and author that touch form a group; the n-th such group of a block
  is the n-th census change of that type and author in the block (census order is document
  order); failing that, the change whose text equals the group's text, then the first candidate.
- comments: a comment's range starts where its quoted text first occurs in the block's
  accepted-view text; a click goes to the comment whose quote covers the offset, else to the one
  starting nearest before it. A comment that spans several paragraphs is recorded on its first
  block only, so commented text in a later block goes to the last comment anchored before it.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QTextFormat

from ..layout import Fragment, Page

BAR_OFFSET = 18.0  # layout px left of the body text
BAR_WIDTH = 2.0
BALLOON_OFFSET = 12.0  # layout px right of the body text
BALLOON_SIZE = 18.0
CHANGE_TYPES = {"inserted": ("insertion",), "deleted": ("deletion",), "formatted": ("formatting",)}
MARKED = ("inserted", "deleted", "formatted")


@dataclass
class Balloon:
    rect: QRectF  # page coordinates
    comment_id: int | None
    number: int


def span_groups(para, kinds: tuple[str, ...]) -> list[tuple[int, int, str, str | None]]:
    """(start, end, kind, author) of touching spans of one kind and author, in display order."""
    groups: list[list] = []
    for span in para.spans:
        if span.kind not in kinds:
            continue
        last = groups[-1] if groups else None
        if last and last[1] == span.start and last[2] == span.kind and last[3] == span.author:
            last[1] = span.end
        else:
            groups.append([span.start, span.end, span.kind, span.author])
    return [tuple(g) for g in groups]


def comment_runs(para) -> list[tuple[int, int]]:
    runs: list[list[int]] = []
    for span in para.spans:
        if not span.comment:
            continue
        if runs and runs[-1][1] == span.start:
            runs[-1][1] = span.end
        else:
            runs.append([span.start, span.end])
    return [tuple(r) for r in runs]


def span_color(para, offset: int) -> QColor:
    """The foreground colour the layout gave display offset `offset` (the author's colour)."""
    for fr in para.layout.formats():
        if fr.start <= offset < fr.start + fr.length and fr.format.hasProperty(QTextFormat.ForegroundBrush):
            return fr.format.foreground().color()
    return QColor("#444444")


def text_edges(page: Page) -> tuple[float, float]:
    """Left and right edges of the page's body text (the margins the marks sit in)."""
    body = page.body_fragments()
    if not body:
        return 96.0, page.width - 96.0
    return min(f.x + f.para.x for f in body), max(f.x + f.para.x + f.para.width for f in body)


def change_bars(page: Page, left: float) -> list[tuple[QRectF, QColor]]:
    """A bar in the left margin beside every line holding an inserted, deleted or reformatted span."""
    out = []
    for frag in page.body_fragments():
        groups = span_groups(frag.para, MARKED)
        if not groups:
            continue
        for k in range(frag.first_line, frag.last_line + 1):
            line = frag.para.lines[k]
            hit = next((g for g in groups if g[0] < line.end and g[1] > line.start), None)
            if hit is not None:
                rect = QRectF(left - BAR_OFFSET, frag.y + line.y, BAR_WIDTH, line.height)
                out.append((rect, span_color(frag.para, max(hit[0], line.start))))
    return out


def accepted_offset(para, display: int) -> int:
    """Accepted-view offset at a display offset (deleted text maps to where it stood)."""
    acc = para.accepted
    for i in range(min(display, len(acc) - 1), -1, -1):
        if acc[i] >= 0:
            return acc[i] + (1 if i < display else 0)
    return 0


def display_offset(para, accepted: int, end: bool = False) -> int:
    """Display offset of accepted-view offset `accepted` (the first display char at or after it;
    with end=True, just past the last display char before it)."""
    acc = para.accepted
    if end:
        last = next((i for i in range(len(acc) - 1, -1, -1) if 0 <= acc[i] < accepted), None)
        return 0 if last is None else last + 1
    return next((i for i, a in enumerate(acc) if a >= accepted), len(acc))


class ReviewIndex:
    """Changes and comments of one open document, matched to the spans the layout drew."""

    def __init__(self, reviewer=None) -> None:
        self.reviewer = reviewer
        self._changes = None
        self._comments = None  # block id -> [(accepted start, end, comment id)]
        self.numbers: dict[int, int] = {}  # comment id -> balloon number
        self._order: dict[str, int] = {}  # block id -> index in the snapshot
        self._ordered: list = []  # (block index, accepted start, Comment) in document order

    def changes(self) -> list:
        if self._changes is None:  # the census is slow on long documents: only on first click
            self._changes = self.reviewer.get_changes() if self.reviewer is not None else []
        return self._changes

    def _comment_map(self) -> dict[str, list[tuple[int, int, int]]]:
        if self._comments is None:
            self._comments = {}
            if self.reviewer is not None:
                self._load_comments()
        return self._comments

    def _load_comments(self) -> None:
        snap = self.reviewer.snapshot()
        order = {b.id: i for i, b in enumerate(snap.blocks)}
        placed = []
        for c in self.reviewer.get_comments():
            block = snap.block(c.block_id) if c.block_id else None
            start = max(block.text.find(c.anchored_text), 0) if block is not None and c.anchored_text else 0
            placed.append((order.get(c.block_id, len(order)), start, c))
        placed.sort(key=lambda t: (t[0], t[1]))
        self._order = order
        self._ordered = placed
        for n, (_i, start, c) in enumerate(placed, 1):
            self.numbers[c.id] = n
            if c.block_id:
                self._comments.setdefault(c.block_id, []).append((start, start + len(c.anchored_text), c.id))

    # -- lookups -----------------------------------------------------------------------------

    def change_at(self, frag: Fragment, offset: int) -> tuple[int, tuple[int, int]] | None:
        """(change id, display range of its span group) of the tracked change drawn at `offset`."""
        groups = span_groups(frag.para, MARKED)
        hit = next((g for g in groups if g[0] <= offset < g[1]), None)
        if hit is None or not frag.block_id:
            return None
        start, end, kind, author = hit
        same = [g for g in groups if g[2] == kind and g[3] == author]
        candidates = [c for c in self.changes() if c.block_id == frag.block_id and c.type in CHANGE_TYPES[kind]
                      and (c.author or None) == (author or None)]
        if not candidates:
            candidates = [c for c in self.changes() if c.block_id == frag.block_id and c.type in CHANGE_TYPES[kind]]
        if not candidates:
            return None
        n = same.index(hit)
        if len(candidates) == len(same):
            change = candidates[n]
        else:
            text = frag.para.text[start:end]
            change = next((c for c in candidates if c.text == text), candidates[min(n, len(candidates) - 1)])
        return change.id, (start, end)

    def comment_at(self, frag: Fragment, offset: int) -> tuple[int, tuple[int, int]] | None:
        """(comment id, display range of the commented run) at `offset`."""
        run = next((r for r in comment_runs(frag.para) if r[0] <= offset < r[1]), None)
        if run is None:
            return None
        comment_id = self.comment_for(frag.block_id, accepted_offset(frag.para, offset))
        return (comment_id, run) if comment_id is not None else None

    def comment_for(self, block_id: str | None, accepted: int) -> int | None:
        anchored = self._comment_map().get(block_id or "", [])
        covering = [c for c in anchored if c[0] <= accepted < max(c[1], c[0] + 1)]
        if covering:
            return covering[-1][2]
        before = [c for c in anchored if c[0] <= accepted]
        if before:
            return before[-1][2]
        if anchored:
            return anchored[0][2]
        # a range that started in an earlier block: the last comment anchored before this one
        index = self._order.get(block_id, -1)
        earlier = [c for i, _s, c in self._ordered if i < index]
        return earlier[-1].id if earlier else None

    def balloons(self, page: Page, right: float) -> list[Balloon]:
        """One balloon in the right margin at the start of each commented run on the page."""
        out: list[Balloon] = []
        bottom = -1e9
        for frag in page.body_fragments():
            lo, hi = frag.display_range
            for start, end in comment_runs(frag.para):
                if end <= lo or start >= hi:
                    continue
                first = max(start, lo)
                k = next(k for k in range(frag.first_line, frag.last_line + 1) if first < frag.para.lines[k].end)
                line = frag.para.lines[k]
                y = max(frag.y + line.y + (line.height - BALLOON_SIZE) / 2, bottom + 2)  # no overlaps
                comment_id = self.comment_for(frag.block_id, accepted_offset(frag.para, first))
                width = BALLOON_SIZE * 1.4
                x = min(right + BALLOON_OFFSET, page.width - width - 2)
                rect = QRectF(x, y, width, BALLOON_SIZE)
                out.append(Balloon(rect, comment_id, self.numbers.get(comment_id, 0)))
                bottom = rect.bottom()
        return out
