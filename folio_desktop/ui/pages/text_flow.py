"""The body text of a laid-out document as one flow of fragments, for carets and selections.

A position is (entry index, display offset): entries are the main-story fragments in page order
(a paragraph split over two pages has one entry per page), offsets index the paragraph's display
text (what is drawn, deleted text and list labels included).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF

from ...layout import Fragment, Page


@dataclass(frozen=True, order=True)
class TextPos:
    index: int  # into TextFlow.entries
    offset: int  # display offset in that fragment's paragraph


def cursor_x(line, cursor: int) -> float:
    """QTextLine.cursorToX, which PySide returns as (x, cursor) in some versions. Qt clamps a
    negative x to 0, but a line outdented past the text's left edge starts at its own x (where its
    first character is drawn, and where xToCursor puts cursor 0)."""
    x = line.cursorToX(cursor)
    x = float(x[0] if isinstance(x, tuple) else x)
    if x == 0.0 and line.x() < 0 and cursor <= line.textStart():
        return float(line.x())
    return x


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


def visible_text(frag: Fragment, start: int, end: int, keep_deleted: bool = False) -> str:
    """Display text [start, end) as it reads with the shown changes accepted: deleted text is left
    out (unless `keep_deleted`: the Original view shows it as text), list labels stay, line
    separators become newlines."""
    para = frag.para
    keep = []
    pos = start
    for span in para.spans:
        if keep_deleted or span.kind != "deleted" or span.end <= start or span.start >= end:
            continue
        keep.append(para.text[pos:max(span.start, pos)])
        pos = max(pos, span.end)
    keep.append(para.text[pos:end])
    return "".join(keep).replace("\u2028", "\n").replace("\u2060", "")


def text_start(frag: Fragment) -> int:
    """The first caret position of a fragment: after the list label a paragraph begins with."""
    lo, hi = frag.display_range
    if frag.first_line == 0:
        for span in frag.para.spans:
            if span.kind == "label" and span.start <= lo < span.end:
                lo = min(span.end, hi)
    return lo


def _word_class(ch: str) -> int:
    return 0 if ch.isspace() or ch in "\u2028\u2060" else (1 if ch.isalnum() or ch in "_'’" else 2)


class TextFlow:
    """The main-story fragments in page order (`entries`). Where a fragment or a block's fragments sit is
    kept as (page number, place among the page's body fragments), not as an entry index: an edit that
    adds a line to page 256 shifts the entry index of every fragment after it, but not their pages or
    places, so it costs the pages it replaced rather than the rest of the document."""

    def __init__(self) -> None:
        self.entries: list[tuple[int, Fragment]] = []  # (page number, fragment)
        self._where: dict[int, tuple[int, int]] = {}  # id(fragment) -> (page number, place on the page)
        self._blocks: dict[str, list[tuple[int, int]]] = {}  # block id -> its fragments' (page, place), in order
        self._page_start: list[int] = []  # entry index of each page's first body fragment

    def add_page(self, page: Page) -> None:
        self._page_start.append(len(self.entries))
        self._index_page(page)
        self.entries.extend((page.number, frag) for frag in page.fragments if frag.story == "main")

    def _index_page(self, page: Page) -> None:
        place = 0
        for frag in page.fragments:
            if frag.story != "main":
                continue
            self._where[id(frag)] = (page.number, place)
            if frag.block_id:
                self._blocks.setdefault(frag.block_id, []).append((page.number, place))
            place += 1

    def replace_pages(self, pages: list[Page], first: int, last: int, old_last: int) -> None:
        """Pages first..last (1-based) of `pages` are new and took the place of the flow's pages
        first..old_last; every other page is the same object as before, at the same number. Cheaper
        than a new flow: a keystroke changes a page or two of hundreds."""
        starts = self._page_start
        k0 = starts[first - 1] if first <= len(starts) else len(self.entries)
        k1 = starts[old_last] if old_last < len(starts) else len(self.entries)
        old = self.entries[k0:k1]
        touched = set()
        for _n, frag in old:
            self._where.pop(id(frag), None)
            if frag.block_id:
                touched.add(frag.block_id)
        for block_id in touched:
            kept = [at for at in self._blocks[block_id] if not first <= at[0] <= old_last]
            if kept:
                self._blocks[block_id] = kept
            else:
                del self._blocks[block_id]
        fresh = pages[first - 1:last]
        new = [(page.number, frag) for page in fresh for frag in page.fragments if frag.story == "main"]
        for page in fresh:
            self._index_page(page)
        for block_id in {frag.block_id for _n, frag in new if frag.block_id}:
            self._blocks[block_id].sort()  # the new pages' places among those of the pages before and after
        self.entries[k0:k1] = new
        delta = len(new) - len(old)
        middle, at = [], k0
        for page in fresh:
            middle.append(at)
            at += sum(1 for f in page.fragments if f.story == "main")
        self._page_start = starts[:first - 1] + middle + [s + delta for s in starts[old_last:]]

    def page_entries(self, number: int) -> range:
        """Entry indexes of page `number`'s body fragments."""
        starts = self._page_start
        if not 1 <= number <= len(starts):
            return range(0)
        end = starts[number] if number < len(starts) else len(self.entries)
        return range(starts[number - 1], end)

    def index_of(self, frag: Fragment) -> int | None:
        where = self._where.get(id(frag))
        return self._page_start[where[0] - 1] + where[1] if where is not None else None

    def block_entries(self, block_id: str) -> list[int]:
        starts = self._page_start
        return [starts[number - 1] + place for number, place in self._blocks.get(block_id, ())]

    def frag(self, pos: TextPos) -> Fragment:
        return self.entries[pos.index][1]

    def start(self, index: int) -> TextPos:
        return TextPos(index, frag_range(self.entries[index][1])[0])

    def caret_start(self, index: int) -> TextPos:
        """Where a caret entering entry `index` goes: its first position after a list label."""
        return TextPos(index, text_start(self.entries[index][1]))

    def end(self, index: int) -> TextPos:
        return TextPos(index, frag_range(self.entries[index][1])[1])

    # -- text --------------------------------------------------------------------------------

    def text(self, a: TextPos, b: TextPos, keep_deleted: bool = False) -> str:
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
            parts.append(visible_text(frag, s, e, keep_deleted))
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
            index = self.index_of(frag)
            if index is None:
                continue
            para = frag.para
            left, right = frag.x + para.x, frag.x + para.x + para.width
            dx = max(left - point.x(), 0.0, point.x() - right)
            for k in range(frag.first_line, frag.last_line + 1):
                top = frag.y + para.lines[k].y
                dy = max(top - point.y(), 0.0, point.y() - top - para.lines[k].height)
                # two paragraphs share a line after a run-in heading: the one whose text is nearer wins
                qline = para.layout.lineAt(k)
                start = left + qline.position().x()
                near = max(start - point.x(), 0.0, point.x() - start - qline.naturalTextWidth())
                score = (dy + dx, near)
                if best is None or score < best[0]:
                    best = (score, index, frag, k)
        if best is None:
            return None
        _score, index, frag, k = best
        return TextPos(index, self._cursor_on_line(frag, k, point.x()))

    def char_at(self, page: Page, point: QPointF) -> TextPos | None:
        """The character drawn under a page point (its offset), or None off the body text."""
        for frag in page.fragments:
            index = self.index_of(frag)
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
                if cursor < line.end:
                    return TextPos(index, cursor)
                break  # past this line's text: the text run on after a run-in heading may be there
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
        """One character on (delta 1) or back (-1): a whole grapheme, a whole note number; from a
        paragraph's end to the next one's first caret position (after its list label)."""
        frag = self.frag(pos)
        lo, hi = text_start(frag), frag_range(frag)[1]
        offset = _step(frag.para, pos.offset, delta)
        if lo <= offset <= hi and offset != pos.offset:
            return TextPos(pos.index, offset)
        step = 1 if delta > 0 else -1
        nxt = pos.index + step
        if not 0 <= nxt < len(self.entries):
            return pos
        next_frag = self.entries[nxt][1]
        if next_frag.para is frag.para:  # the same paragraph on the next page (or the previous one)
            edge = frag_range(next_frag)[0] if step > 0 else frag_range(next_frag)[1]
            return TextPos(nxt, _step(next_frag.para, edge, step))
        return self.caret_start(nxt) if step > 0 else self.end(nxt)

    def move_word(self, pos: TextPos, delta: int) -> TextPos:
        """To the start of the next word (delta 1) or of this or the previous word (-1), as
        Ctrl+Right and Ctrl+Left do in Word; over a paragraph's edge to the next one."""
        frag = self.frag(pos)
        text, lo, hi = frag.para.text, text_start(frag), frag_range(frag)[1]
        k = pos.offset
        if delta > 0:
            if k >= hi:
                return self.move_char(pos, 1)
            kind = _word_class(text[k])
            while k < hi and kind and _word_class(text[k]) == kind:
                k += 1
            while k < hi and not _word_class(text[k]):
                k += 1
        else:
            if k <= lo:
                return self.move_char(pos, -1)
            while k > lo and not _word_class(text[k - 1]):
                k -= 1
            kind = _word_class(text[k - 1]) if k > lo else 0
            while k > lo and kind and _word_class(text[k - 1]) == kind:
                k -= 1
        return TextPos(pos.index, k)

    def move_line(self, pos: TextPos, delta: int, page_x: float) -> TextPos:
        """One line up (delta -1) or down (+1), keeping page x `page_x` as well as the line allows:
        the nearest line above or below that lies under that x (in a table, the next row's cell
        rather than the next cell along), on this page or the next."""
        number, rect = self.caret_rect(pos)
        here = self.frag(pos)
        k_here = line_at(here, pos.offset)
        for page_number in (number, number + delta):
            best = None
            for index in self._entries_of_page(page_number):
                frag = self.entries[index][1]
                left, right = frag.x + frag.para.x, frag.x + frag.para.x + frag.para.width
                across = max(left - page_x, 0.0, page_x - right)
                for k in range(frag.first_line, frag.last_line + 1):
                    top = frag.y + frag.para.lines[k].y
                    if page_number == number:
                        if frag is here and k == k_here:
                            continue
                        if (top - rect.top() if delta > 0 else rect.top() - top) <= 0.5:
                            continue
                    score = (across > 1.0, top * delta, across)
                    if best is None or score < best[0]:
                        best = (score, index, frag, k)
            if best is not None:
                _score, index, frag, k = best
                return TextPos(index, max(self._cursor_on_line(frag, k, page_x), text_start(frag)))
        return self.caret_start(0) if delta < 0 else self.end(len(self.entries) - 1)

    def _entries_of_page(self, number: int) -> range:
        return self.page_entries(number)

    def line_edge(self, pos: TextPos, end: bool) -> TextPos:
        """Home / End: the start of the caret's line (after a list label) or its end (before the
        space a wrapped line ends with, which belongs to the line's end, not the next line)."""
        frag = self.frag(pos)
        k = line_at(frag, pos.offset)
        line = frag.para.lines[k]
        if not end:
            return TextPos(pos.index, max(line.start, text_start(frag)) if k == frag.first_line else line.start)
        last = k == len(frag.para.lines) - 1
        return TextPos(pos.index, line.end if last or line.end == line.start else line.end - 1)

    def document_start(self) -> TextPos:
        return self.caret_start(0)

    def document_end(self) -> TextPos:
        return self.end(len(self.entries) - 1)

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


def _step(para, offset: int, delta: int) -> int:
    """The caret position one grapheme (a whole note number) on or back from `offset`."""
    text = para.text
    if delta > 0:
        k = offset + 1
        if text.isascii() or k >= len(text):
            nxt = k
        else:
            nxt = para.layout.nextCursorPosition(offset) if _bmp(text) else k
    else:
        k = offset - 1
        nxt = k if text.isascii() or k <= 0 or not _bmp(text) else para.layout.previousCursorPosition(offset)
    for span in para.spans:
        if span.kind == "note" and span.start < nxt < span.end:
            return span.end if delta > 0 else span.start
    return nxt


def _bmp(text: str) -> bool:
    """No character outside the Basic Multilingual Plane: str offsets are then QTextLayout's too."""
    return all(ord(ch) < 0x10000 for ch in text)
