"""Redline marks beside the text: change bars, comment threads and their anchors, and which change
or comment a display offset belongs to.

The layout's spans say *that* text is inserted, deleted or commented; for comments they also carry
the ids of the comment ranges over them (the document's own commentRangeStart/End), so a comment
is found by its range, never by searching for its quoted text. Threads are numbered in reading
order: the order their ranges start in the document.

Changes are matched approximately within one block: spans of one kind and author that touch form
a group; the n-th such group of a block is the n-th census change of that type and author in the
block (census order is document order); failing that, the change whose text equals the group's
text, then the first candidate.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QTextFormat

from ...docx.reading.moves import T_MOVE_FROM, T_MOVE_TO, find_moves
from ...layout import Fragment, Page
from .geometry import DRAFT_ID, MARKUP_WIDTH, text_edges

BAR_OFFSET = 18.0  # layout px left of the body text
BAR_WIDTH = 2.0
SIMPLE_BAR = QColor("#c62828")  # Simple Markup's change bars: one colour, as in Word
CHANGE_TYPES = {"inserted": ("insertion",), "deleted": ("deletion",), "formatted": ("formatting",)}
MARKED = ("inserted", "deleted", "formatted")
COMMENT_VIEWS = ("all", "simple")  # the markup views that show comments


@dataclass(frozen=True)
class Draft:
    """A new comment being written: its balloon points at accepted-view `offset` of `block_id` and
    reads like a thread of `author`'s with no text yet (the balloons draw it as they draw threads)."""

    block_id: str
    offset: int
    author: str
    date: str | None = None
    id: int = DRAFT_ID
    text: str = ""
    done: bool = False
    replies: tuple = ()


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


def span_color(para, offset: int) -> QColor:
    """The foreground colour the layout gave display offset `offset` (the author's colour)."""
    for fr in para.layout.formats():
        if fr.start <= offset < fr.start + fr.length and fr.format.hasProperty(QTextFormat.ForegroundBrush):
            return fr.format.foreground().color()
    return QColor("#444444")


def change_bars(page: Page, left: float) -> list[tuple[QRectF, QColor]]:
    """A bar in the left margin beside every line holding a change: in All Markup an inserted,
    deleted or reformatted span in its author's colour; in Simple Markup also where a deletion was
    left out, all in one colour; none in No Markup and Original."""
    if page.view not in ("all", "simple"):
        return []
    simple = page.view == "simple"
    out = []
    for frag in page.body_fragments():
        para = frag.para
        groups = span_groups(para, MARKED)
        hidden = para.hidden_changes if simple else ()
        if not groups and not hidden:
            continue
        last = len(para.lines) - 1
        for k in range(frag.first_line, frag.last_line + 1):
            line = para.lines[k]
            hit = next((g for g in groups if g[0] < line.end and g[1] > line.start), None)
            gone = any(line.start <= o < line.end or (k == last and o == line.end) for o, _a in hidden)
            if hit is None and not gone:
                continue
            rect = QRectF(left - BAR_OFFSET, frag.y + line.y, BAR_WIDTH, line.height)
            out.append((rect, SIMPLE_BAR if simple else span_color(para, max(hit[0], line.start))))
    return out


def move_label(move, side: str, number: int) -> str:
    """Word's label for a half of a move: where the text arrived, "Moved (insertion) [n]"; where it
    left, "Moved down [n]" or "Moved up [n]" (which way it went)."""
    if side == "to":
        return f"Moved (insertion) [{number}]"
    down = bool(move.marks) and move.marks[0].tag == T_MOVE_FROM  # it left before it arrived
    return f"Moved {'down' if down else 'up'} [{number}]"


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
    """Changes and comment threads of one open document, matched to the spans the layout drew.

    active: the thread the lawyer last picked (its balloon is drawn open and highlighted);
    replying: the thread whose inline reply editor is open; draft: a new comment being written
    (Draft); editing: the comment (a thread's or a reply) whose text is being edited in its balloon;
    author: the lawyer's name (their own comments offer Edit); interactive: False for print (no
    Reply / Resolve buttons)."""

    def __init__(self, reviewer=None, view: str = "all", interactive: bool = True) -> None:
        self.reviewer = reviewer
        self.view = view
        self.interactive = interactive
        self.active: int | None = None
        self.replying: int | None = None
        self.draft: Draft | None = None
        self.editing: int | None = None
        self.author: str | None = None
        self._changes = None
        self._threads: list | None = None
        self._thread_of: dict[str, int] = {}  # w:id of a comment or a reply -> its thread's id
        self._numbers: dict[int, int] = {}  # thread id -> number, in reading order
        self._ranged: set[str] = set()  # w:ids that have a commentRangeStart in the body
        self._balloons: dict[int, tuple] = {}  # id(page) -> (page, state, balloons)
        self._moves: dict | None = None  # moves(): w:moveFrom / w:moveTo -> (Move, number)

    def changes(self) -> list:
        if self._changes is None:  # the census is slow on long documents: only on first click
            self._changes = self.reviewer.get_changes() if self.reviewer is not None else []
        return self._changes

    # -- comment threads ------------------------------------------------------------------------

    def threads(self) -> list:
        """Top-level comments with their replies, in reading order."""
        if self._threads is None:
            self._load_threads()
        return self._threads

    @property
    def numbers(self) -> dict[int, int]:
        self.threads()
        return self._numbers

    def thread(self, thread_id: int | None):
        if thread_id == DRAFT_ID:
            return self.draft
        return next((t for t in self.threads() if t.id == thread_id), None) if thread_id is not None else None

    def thread_of(self, comment_id: str) -> int | None:
        """The thread a comment range's w:id belongs to (a reply's range counts for its thread)."""
        self.threads()
        return self._thread_of.get(comment_id)

    def _load_threads(self) -> None:
        threads = self.reviewer.get_comments() if self.reviewer is not None else []
        for thread in threads:
            self._thread_of[str(thread.id)] = thread.id
            for reply in thread.replies:
                self._thread_of[str(reply.id)] = thread.id
        order: dict[int, int] = {}
        if threads:
            from ...docx.package.ooxml import W_NS

            w = "{" + W_NS + "}"
            start_tag = w + "commentRangeStart"
            # reading order: where each thread's first range (or bare reference) starts in the body
            for el in self.reviewer.document.body.iter(start_tag, w + "commentReference"):
                raw = el.get(w + "id")
                if el.tag == start_tag:
                    self._ranged.add(raw)
                tid = self._thread_of.get(raw)
                if tid is not None and tid not in order:
                    order[tid] = len(order)
        threads.sort(key=lambda t: (order.get(t.id, len(order)), t.id))
        self._threads = threads
        self._numbers = {t.id: n for n, t in enumerate(threads, 1)}

    def ranged_ids(self) -> set[str]:
        """w:ids of the comments that mark a range of their own in the body (a reply's range stands
        in for its thread's only when the thread has none)."""
        self.threads()
        return self._ranged

    def markup_width(self, view: str | None = None) -> float:
        """Width of the markup area right of each page: the balloons' room, when the view shows
        comments and the document has some (or one is being written), or shows redlines (All Markup)
        and it has moves."""
        view = view or self.view
        shown = (view in COMMENT_VIEWS and (self.draft is not None or self.threads())) or (view == "all" and self.moves())
        return MARKUP_WIDTH if shown else 0.0

    # -- moves ----------------------------------------------------------------------------------

    def moves(self) -> dict:
        """Each w:moveFrom / w:moveTo of the body that is half of a move -> (its Move, its number):
        moves numbered in reading order, as Word numbers its "Moved" balloons."""
        if self._moves is None:
            self._moves = {}
            body = self.reviewer.document.body if self.reviewer is not None else None
            found = find_moves(body) if body is not None else {}
            numbers: dict[int, int] = {}
            for el in body.iter(T_MOVE_FROM, T_MOVE_TO) if found else ():  # reading order
                move = found.get(el)
                if move is not None:
                    number = numbers.setdefault(id(move), len(numbers) + 1)
                    self._moves[el] = (move, number)
        return self._moves

    def move_labels(self, page: Page) -> list[tuple[tuple[str, Fragment, int], tuple[float, float, float]]]:
        """((label, fragment, display offset where that half starts in it), (line top, x, line height)
        where the first line of that half on the page ends) for each half of a move on the page, once
        per half and page; the label reads "Moved (insertion) [n]" or "Moved up / down [n]". None
        outside All Markup. (Anchored at the end, the label's leader runs on from the moved text
        instead of over its double lines.)"""
        if page.view != "all" or not self.moves():
            return []
        moves, out, seen = self.moves(), [], set()
        for frag in page.body_fragments():
            para = frag.para
            lo, hi = frag.display_range
            for span in para.spans:
                found = moves.get(span.move_mark) if span.move_mark is not None else None
                if found is None or span.end <= lo or span.start >= hi:
                    continue
                move, number = found
                side = "from" if span.kind == "deleted" else "to"
                if (id(move), side) in seen:
                    continue
                seen.add((id(move), side))
                start = max(span.start, lo)
                k = next(k for k in range(frag.first_line, frag.last_line + 1) if start < para.lines[k].end)
                line = para.lines[k]
                end = min(self._half_end(para.spans, span, move, side), line.end)
                x = para.layout.lineAt(k).cursorToX(end)
                out.append(((move_label(move, side, number), frag, start),
                            (frag.y + line.y, frag.x + para.x + float(x[0] if isinstance(x, tuple) else x), line.height)))
        return out

    def thread_ranges(self, para, thread_id: int) -> list[tuple[int, int, bool]]:
        """(display start, end, starts here) of a thread's own ranges in a paragraph."""
        return [(a, b, here) for cid, a, b, here in para.comment_marks if self.thread_of(cid) == thread_id]

    # -- lookups -----------------------------------------------------------------------------

    def change_at(self, frag: Fragment, offset: int) -> tuple[int, tuple[int, int]] | None:
        """(change id, display range of its span group) of the tracked change drawn at `offset`."""
        moved = self._move_change_at(frag, offset)
        if moved is not None:
            return moved
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

    def _move_change_at(self, frag: Fragment, offset: int) -> tuple[int, tuple[int, int]] | None:
        """change_at for a half of a move, told apart by its own mark from an insertion or deletion
        of the same author that touches it: (the census entry of that half, the half's range here)."""
        spans = frag.para.spans
        at = next((i for i, sp in enumerate(spans) if sp.start <= offset < sp.end), None)
        found = self.moves().get(spans[at].move_mark) if at is not None and spans[at].move_mark is not None else None
        if found is None or not frag.block_id:
            return None
        mark, move = spans[at].move_mark, found[0]
        side = "from" if mark.tag == T_MOVE_FROM else "to"
        here = [c for c in self.changes() if c.block_id == frag.block_id and c.move is not None]
        change = next((c for c in here if c.element is mark), None) or \
            next((c for c in here if c.move.key == move.key and c.move_side == side), None)
        if change is None:
            return None
        first = last = at  # the touching spans of this half
        while first > 0 and spans[first - 1].end == spans[first].start and self._half(spans[first - 1]) == (move, side):
            first -= 1
        while last + 1 < len(spans) and spans[last + 1].start == spans[last].end and \
                self._half(spans[last + 1]) == (move, side):
            last += 1
        return change.id, (spans[first].start, spans[last].end)

    def _half_end(self, spans, first, move, side: str) -> int:
        """Where the touching spans of a half that starts with span `first` end."""
        end = first.end
        for span in spans[spans.index(first) + 1:]:
            if span.start != end or self._half(span) != (move, side):
                break
            end = span.end
        return end

    def _half(self, span) -> tuple | None:
        found = self.moves().get(span.move_mark) if span.move_mark is not None else None
        return (found[0], "from" if span.move_mark.tag == T_MOVE_FROM else "to") if found is not None else None

    def comment_at(self, frag: Fragment, offset: int) -> tuple[int, tuple[int, int]] | None:
        """(thread id, display range of its range in the fragment) of the comment over `offset`.
        Where several ranges cover the text, the first in reading order; clicked again, the next."""
        span = next((sp for sp in frag.para.spans if sp.start <= offset < sp.end and sp.comments), None)
        if span is None:
            return None
        found = dict.fromkeys(t for t in (self.thread_of(c) for c in span.comments) if t is not None)
        if not found:
            return None
        covering = sorted(found, key=lambda t: self.numbers.get(t, 0))
        thread_id = covering[0]
        if self.active in covering:  # cycle through comments on the same words
            thread_id = covering[(covering.index(self.active) + 1) % len(covering)]
        lo, hi = frag.display_range
        ranges = [(max(a, lo), min(b, hi)) for a, b, _h in self.thread_ranges(frag.para, thread_id)
                  if a <= offset < b or a == b == offset]
        start, end = ranges[0] if ranges else (span.start, span.end)
        return thread_id, (start, end)

    def balloons(self, page: Page, right: float | None = None) -> list:
        """The comment balloons of a page in the markup area right of it (balloons.Balloon), stacked
        top to bottom; none in views without comments. Cached per page and state."""
        if self.markup_width(page.view) <= 0:
            return []
        state = (self.active, self.replying, self.interactive, self.draft, self.editing, self.author)
        cached = self._balloons.get(id(page))
        if cached is not None and cached[0] is page and cached[1] == state:
            return cached[2]
        from .balloons import layout_balloons  # balloons draws with QtGui; this module stays light

        placed = layout_balloons(page, self, text_edges(page)[1] if right is None else right)
        self._balloons[id(page)] = (page, state, placed)
        return placed
