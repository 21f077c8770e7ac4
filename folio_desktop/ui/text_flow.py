"""The body text of a laid-out document as one flow of fragments, for carets and selections.

A position is (entry index, display offset): entries are the main-story fragments in page order
(a paragraph split over two pages has one entry per page), offsets index the paragraph's display
text (what is drawn, deleted text and list labels included).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF

from ..layout import Fragment, Page


@dataclass(frozen=True, order=True)
class TextPos:
    index: int  # into TextFlow.entries
    offset: int  # display offset in that fragment's paragraph


def cursor_x(line, cursor: int) -> float:
    """QTextLine.cursorToX, which PySide returns as (x, cursor) in some versions."""
    x = line.cursorToX(cursor)
    return float(x[0] if isinstance(x, tuple) else x)


def x_cursor(line, x: float) -> int:
    c = line.xToCursor(x)
    return int(c[0] if isinstance(c, tuple) else c)


def frag_range(frag: Fragment) -> tuple[int, int]:
    return frag.display_range


def line_at(frag: Fragment, offset: int) -> int:
    """Index (in the paragraph) of the fragment line holding display offset `offset`."""
    lines = frag.para.lines
    for k in range(frag.first_line, frag.last_line + 1):
        if offset < lines[k].end:
            return k
    return frag.last_line


def range_rects(frag: Fragment, start: int, end: int) -> list[QRectF]:
    """Page rectangles covering display [start, end) of a fragment, one per line."""
    para = frag.para
    out = []
    for k in range(frag.first_line, frag.last_line + 1):
        line_box = para.lines[k]
        s, e = max(start, line_box.start), min(end, line_box.end)
        if s >= e:
            continue
        qline = para.layout.lineAt(k)
        x1, x2 = cursor_x(qline, s), cursor_x(qline, e)
        left = frag.x + para.x + min(x1, x2)
        out.append(QRectF(left, frag.y + line_box.y, abs(x2 - x1), line_box.height))
    return out


def visible_text(frag: Fragment, start: int, end: int) -> str:
    """Display text [start, end) as it reads with the shown changes accepted: deleted text is left
    out, list labels stay, line separators become newlines."""
    para = frag.para
    keep = []
    pos = start
    for span in para.spans:
        if span.kind != "deleted" or span.end <= start or span.start >= end:
            continue
        keep.append(para.text[pos:max(span.start, pos)])
        pos = max(pos, span.end)
    keep.append(para.text[pos:end])
    return "".join(keep).replace("\u2028", "\n").replace("\u2060", "")


class TextFlow:
    def __init__(self) -> None:
        self.entries: list[tuple[int, Fragment]] = []  # (page number, fragment)
        self._index: dict[int, int] = {}
        self._blocks: dict[str, list[int]] = {}

    def add_page(self, page: Page) -> None:
        for frag in page.fragments:
            if frag.story != "main":
                continue
            self._index[id(frag)] = len(self.entries)
            if frag.block_id:
                self._blocks.setdefault(frag.block_id, []).append(len(self.entries))
            self.entries.append((page.number, frag))

    def index_of(self, frag: Fragment) -> int | None:
        return self._index.get(id(frag))

    def block_entries(self, block_id: str) -> list[int]:
        return self._blocks.get(block_id, [])

    def frag(self, pos: TextPos) -> Fragment:
        return self.entries[pos.index][1]

    def start(self, index: int) -> TextPos:
        return TextPos(index, frag_range(self.entries[index][1])[0])

    def end(self, index: int) -> TextPos:
        return TextPos(index, frag_range(self.entries[index][1])[1])

    # -- text --------------------------------------------------------------------------------

    def text(self, a: TextPos, b: TextPos) -> str:
        if b < a:
            a, b = b, a
        parts = []
        prev = None
        for i in range(a.index, b.index + 1):
            frag = self.entries[i][1]
            lo, hi = frag_range(frag)
            s = a.offset if i == a.index else lo
            e = b.offset if i == b.index else hi
            if prev is not None and prev is not frag.para:
                parts.append("\n")
            parts.append(visible_text(frag, s, e))
            prev = frag.para
        return "".join(parts)

    def slices(self, a: TextPos, b: TextPos, index: int) -> tuple[int, int] | None:
        """Display [start, end) of entry `index` inside the selection a..b, or None."""
        if b < a:
            a, b = b, a
        if not a.index <= index <= b.index:
            return None
        lo, hi = frag_range(self.entries[index][1])
        s = a.offset if index == a.index else lo
        e = b.offset if index == b.index else hi
        return (s, e) if s < e else None

    # -- hit testing -------------------------------------------------------------------------

    def locate(self, page: Page, point: QPointF) -> TextPos | None:
        """The position nearest to a page point (inside a line, or the closest line of the page)."""
        best = None
        for frag in page.fragments:
            index = self._index.get(id(frag))
            if index is None:
                continue
            para = frag.para
            left, right = frag.x + para.x, frag.x + para.x + para.width
            dx = max(left - point.x(), 0.0, point.x() - right)
            for k in range(frag.first_line, frag.last_line + 1):
                top = frag.y + para.lines[k].y
                dy = max(top - point.y(), 0.0, point.y() - top - para.lines[k].height)
                score = dy + dx
                if best is None or score < best[0]:
                    best = (score, index, frag, k)
        if best is None:
            return None
        _score, index, frag, k = best
        return TextPos(index, self._cursor_on_line(frag, k, point.x()))

    def char_at(self, page: Page, point: QPointF) -> TextPos | None:
        """The character drawn under a page point (its offset), or None off the body text."""
        for frag in page.fragments:
            index = self._index.get(id(frag))
            if index is None or not frag.rect.contains(point):
                continue
            para = frag.para
            for k in range(frag.first_line, frag.last_line + 1):
                line = para.lines[k]
                top = frag.y + line.y
                if not top <= point.y() < top + line.height:
                    continue
                qline = para.layout.lineAt(k)
                local = point.x() - frag.x - para.x
                cursor = min(max(x_cursor(qline, local), line.start), line.end)
                if cursor > line.start and cursor_x(qline, cursor) > local:
                    cursor -= 1  # xToCursor rounds to the nearest edge; take the char it lies in
                return TextPos(index, cursor) if cursor < line.end else None
        return None

    @staticmethod
    def _cursor_on_line(frag: Fragment, k: int, page_x: float) -> int:
        para = frag.para
        line = para.lines[k]
        cursor = x_cursor(para.layout.lineAt(k), page_x - frag.x - para.x)
        # the end of a wrapped line is the start of the next: stay before a trailing space
        last = line.end if k == frag.last_line or line.end == line.start else line.end - 1
        return min(max(cursor, line.start), max(last, line.start))

    def caret_rect(self, pos: TextPos) -> tuple[int, QRectF]:
        """(page number, page rectangle) of a caret at `pos`."""
        number, frag = self.entries[pos.index]
        k = line_at(frag, pos.offset)
        line = frag.para.lines[k]
        x = frag.x + frag.para.x + cursor_x(frag.para.layout.lineAt(k), pos.offset)
        return number, QRectF(x, frag.y + line.y, 1.0, line.height)

    # -- moving ------------------------------------------------------------------------------

    def move_char(self, pos: TextPos, delta: int) -> TextPos:
        lo, hi = frag_range(self.frag(pos))
        offset = pos.offset + delta
        if lo <= offset <= hi:
            return TextPos(pos.index, offset)
        step = 1 if delta > 0 else -1
        nxt = pos.index + step
        if not 0 <= nxt < len(self.entries):
            return pos
        same_para = self.entries[nxt][1].para is self.frag(pos).para
        edge = self.start(nxt) if step > 0 else self.end(nxt)
        return TextPos(nxt, edge.offset + (step if same_para else 0))

    def move_line(self, pos: TextPos, delta: int, page_x: float) -> TextPos:
        """One line up (delta -1) or down (+1), keeping page x `page_x` as well as the line allows."""
        frag = self.frag(pos)
        k = line_at(frag, pos.offset) + delta
        index = pos.index
        if not frag.first_line <= k <= frag.last_line:
            index += delta
            if not 0 <= index < len(self.entries):
                return self.start(0) if delta < 0 else self.end(len(self.entries) - 1)
            frag = self.entries[index][1]
            k = frag.first_line if delta > 0 else frag.last_line
        return TextPos(index, self._cursor_on_line(frag, k, page_x))

    def line_edge(self, pos: TextPos, end: bool) -> TextPos:
        frag = self.frag(pos)
        line = frag.para.lines[line_at(frag, pos.offset)]
        return TextPos(pos.index, line.end if end else line.start)

    def word_at(self, pos: TextPos) -> tuple[TextPos, TextPos]:
        frag = self.frag(pos)
        lo, hi = frag_range(frag)
        text = frag.para.text
        s = e = pos.offset
        while s > lo and text[s - 1].isalnum():
            s -= 1
        while e < hi and text[e].isalnum():
            e += 1
        return TextPos(pos.index, s), TextPos(pos.index, e)

    def page_x(self, pos: TextPos) -> float:
        return self.caret_rect(pos)[1].x()
