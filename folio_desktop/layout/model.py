"""The layout result: measured paragraphs (lines, spans, the accepted-offset map) and pages of
positioned fragments that know their story, block and text offsets.

Units are pixels at 96 dpi (a twip is 1/15 px), as in the spec's page geometry.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QFontMetricsF, QPainter, QTextLayout

TWIP = 1 / 15  # px per twip at 96 dpi
EMU = 1 / 9525  # px per EMU at 96 dpi
_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_P = _W + "p"
_FALLBACK = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"


@dataclass
class Span:
    """A stretch of display text with one format and where it came from."""

    start: int
    end: int
    kind: str  # text | inserted | deleted | formatted | label | note | object
    author: str | None = None
    comment: bool = False  # inside at least one comment's range
    moved: bool = False
    comments: tuple[str, ...] = ()  # the w:id of every comment whose range covers the span
    move_mark: object = None  # a moved span's w:moveFrom / w:moveTo, which names the move it is half of


@dataclass
class Line:
    y: float  # top of the line box inside the paragraph, after space before
    height: float
    ascent: float
    start: int  # display text offsets
    end: int
    page_break_before: bool = False
    # the part of the height that multiple line spacing adds below the text: a line at the foot of
    # a page fits when the rest does (Word)
    slack: float = 0.0


class AcceptedMap:
    """Display offset -> accepted-view offset (-1 where the accepted view has no such text: deleted
    text, list labels, a note's own number), kept as stretches and expanded into a list on first
    use: pagination never reads it, and a long contract has millions of characters.

    Reads as the list it stands for (index, slice, len, iterate, index(), ==)."""

    __slots__ = ("_stretches", "_size", "_list")

    def __init__(self) -> None:
        self._stretches: list[tuple[int, int, int]] = []  # (length, first accepted offset, step 0 or 1)
        self._size = 0
        self._list: list[int] | None = None

    def add(self, length: int, first: int, step: int) -> None:
        """length characters mapping to first, first + step, ... (step 0: all to first)."""
        if length > 0:
            self._stretches.append((length, first, step))
            self._size += length
            self._list = None

    def trimmed(self, head: int, tail: int) -> AcceptedMap:
        """This map without its first head and last tail characters."""
        out = AcceptedMap()
        skip, keep = head, self._size - head - tail
        for length, first, step in self._stretches:
            if skip >= length:
                skip -= length
                continue
            take = min(length - skip, keep)
            if take <= 0:
                break
            out.add(take, first + step * skip, step)
            keep -= take
            skip = 0
        return out

    def shifted(self, offset: int) -> AcceptedMap:
        """This map with every accepted offset moved by `offset` (a paragraph whose text a block
        reads after that of paragraphs joined to it by deleted marks)."""
        out = AcceptedMap()
        for length, first, step in self._stretches:
            out.add(length, first + offset if first >= 0 else first, step)
        return out

    def _expanded(self) -> list[int]:
        if self._list is None:
            out: list[int] = []
            for length, first, step in self._stretches:
                out.extend(range(first, first + length) if step else [first] * length)
            self._list = out
        return self._list

    def __len__(self) -> int:
        return self._size

    def __bool__(self) -> bool:
        return self._size > 0

    def __getitem__(self, index):
        return self._expanded()[index]

    def __iter__(self):
        return iter(self._expanded())

    def index(self, value: int) -> int:
        return self._expanded().index(value)

    def __eq__(self, other) -> bool:
        return list(self) == list(other) if isinstance(other, (list, AcceptedMap)) else NotImplemented

    def __repr__(self) -> str:
        return f"AcceptedMap({self._expanded()!r})"


@dataclass
class MeasuredParagraph:
    text: str
    layout: QTextLayout
    lines: list[Line]
    space_before: float
    space_after: float
    x: float  # left edge of the text area relative to the column
    width: float
    accepted: AcceptedMap | list[int]  # display offset -> accepted-view offset (-1 for deleted/label text)
    spans: list[Span] = field(default_factory=list)
    note_refs: list[tuple[int, str, int]] = field(default_factory=list)  # (display offset, type, note id)
    objects: list[tuple[int, float, float]] = field(default_factory=list)  # inline drawings: (offset, w, h) px
    floating: list[tuple[float, float]] = field(default_factory=list)  # anchored drawings (w, h), reported
    # every drawing's wp:inline / wp:anchor element at its display offset (layout/floating.py places
    # the anchored ones; the painter draws both)
    drawings: list[tuple[int, object]] = field(default_factory=list)
    leaders: list[tuple[float, str]] = field(default_factory=list)  # tab stops with leaders: (x, kind)
    # comment ranges in this paragraph: (w:id, display start, end, whether the range starts here);
    # a range open at the paragraph's start or end runs to that edge
    comment_marks: list[tuple[str, int, int, bool]] = field(default_factory=list)
    # where a change's text is left out of this view (deleted text in Simple Markup): (offset, author)
    hidden_changes: list[tuple[int, str | None]] = field(default_factory=list)
    vanished: bool = False  # a paragraph this view leaves out (deleted in an accepted view, inserted in Original)
    runs_on: bool = False  # its mark is hidden (a style separator): the next paragraph goes on on its last line
    keep_next: bool = False
    keep_lines: bool = False
    widow_control: bool = True
    page_break_before: bool = False
    page_break_after: bool = False  # a page break was the paragraph's last content
    contextual_key: str | None = None  # style id when contextual spacing applies
    list_key: str | None = None  # numId of a numbered paragraph
    auto_before: bool = False  # space before / after is HTML auto spacing
    auto_after: bool = False
    frame: object = None  # borders.Frame: the paragraph's borders and shading (None: neither)
    # Word's double lines, which Qt's formats cannot draw (moves): (start, end, "underline" or "strike", format)
    double_lines: list[tuple[int, int, str, object]] = field(default_factory=list)

    @property
    def content_height(self) -> float:
        return sum(line.height for line in self.lines)

    def accepted_range(self, start: int, end: int) -> tuple[int, int]:
        """Accepted-view [start, end) covered by display [start, end)."""
        lo = next((self.accepted[i] for i in range(start, min(end, len(self.accepted))) if self.accepted[i] >= 0), None)
        hi = next((self.accepted[i] + 1 for i in range(min(end, len(self.accepted)) - 1, start - 1, -1)
                   if self.accepted[i] >= 0), None)
        if lo is None:
            before = next((self.accepted[i] + 1 for i in range(start - 1, -1, -1) if self.accepted[i] >= 0), 0)
            return before, before
        last = min(end, len(self.accepted)) - 1
        note = next((sp for sp in self.spans if sp.kind == "note" and sp.start <= last < sp.end), None)
        if note is not None:
            # a note's number reads as a whole [^n] marker in the accepted view: the range ends after it
            hi = self.accepted[note.start] + len(self._note_marker(note))
        return lo, hi

    def _note_marker(self, span) -> str:
        number = self.text[span.start:span.end].replace("\u2060", "")
        kind = next((k for offset, k, _id in self.note_refs if offset == span.start), "footnote")
        return f"[^{number}]" if kind == "footnote" else f"[^e{number}]"



@dataclass
class Column:
    """One column of a page's text area (page px): where the flow puts lines, between top and bottom."""

    x: float
    top: float
    bottom: float
    width: float


@dataclass
class Fragment:
    """Lines first_line..last_line of one measured paragraph, placed on a page."""

    story: str  # main | header:<rId> | footer:<rId> | footnote:<id>
    block_id: str | None
    para: MeasuredParagraph
    first_line: int
    last_line: int  # inclusive
    x: float  # page position of the paragraph's layout origin
    y: float  # page y of the paragraph layout's origin (lines keep their own y inside it)
    para_element: object = None  # the w:p this fragment lays out (for relayout after edits)

    @property
    def display_range(self) -> tuple[int, int]:
        return self.para.lines[self.first_line].start, self.para.lines[self.last_line].end

    @property
    def accepted_range(self) -> tuple[int, int]:
        return self.para.accepted_range(*self.display_range)

    @property
    def top(self) -> float:
        return self.y + self.para.lines[self.first_line].y

    @property
    def bottom(self) -> float:
        line = self.para.lines[self.last_line]
        return self.y + line.y + line.height

    @property
    def rect(self) -> QRectF:
        return QRectF(self.x + self.para.x - 2, self.top, self.para.width + 4, self.bottom - self.top)

    def text(self) -> str:
        start, end = self.display_range
        return self.para.text[start:end].replace("\u2028", "\n").replace("\u2060", "")

    def draw(self, painter: QPainter) -> None:
        layout = self.para.layout
        origin = QPointF(self.x + self.para.x, self.y)
        for i in range(self.first_line, self.last_line + 1):
            line = layout.lineAt(i)
            line.draw(painter, origin)
            if self.para.leaders:
                self._draw_leaders(painter, line, origin)
            if self.para.double_lines:
                self._draw_double_lines(painter, line, origin)

    def _draw_double_lines(self, painter: QPainter, line, origin: QPointF) -> None:
        """Two thin lines under (or through) each stretch that has them on this line, in its colour:
        Word's double underline of moved-to text and double strike-through of moved-from text."""
        start, end = line.textStart(), line.textStart() + line.textLength()
        baseline = origin.y() + line.y() + line.ascent()
        for a, b, kind, cf in self.para.double_lines:
            a, b = max(a, start), min(b, end)
            if a >= b:
                continue
            x1, x2 = (origin.x() + line.cursorToX(k)[0] for k in (a, b))
            metrics = QFontMetricsF(cf.font())
            weight = max(metrics.lineWidth(), 0.75)
            gap = weight  # as far apart as they are thick: two lines at any zoom, inside the descent
            if kind == "underline":
                tops = (baseline + metrics.underlinePos(), baseline + metrics.underlinePos() + weight + gap)
            else:
                middle = baseline - metrics.strikeOutPos()
                tops = (middle - gap / 2 - weight, middle + gap / 2)
            color = cf.underlineColor() if cf.underlineColor().isValid() else cf.foreground().color()
            for top in tops:
                painter.fillRect(QRectF(min(x1, x2), top, abs(x2 - x1), weight), color)

    def _draw_leaders(self, painter: QPainter, line, origin: QPointF) -> None:
        """Dots (or dashes, underscores) across a tab gap that ends at a leader tab stop."""
        text = self.para.text
        start, end = line.textStart(), line.textStart() + line.textLength()
        for pos in range(start, end):
            if text[pos] != "\t":
                continue
            x1, x2 = line.cursorToX(pos)[0], line.cursorToX(pos + 1)[0]
            # the tab jumps to the first stop past its start (a right tab's text ends at the stop)
            kind = next((k for stop, k in sorted(self.para.leaders) if stop > x1 + 1.0), None)
            if kind is None or x2 - x1 < 6:
                continue
            char = {"dot": ".", "middleDot": "\u00b7", "hyphen": "-", "underscore": "_", "heavy": "_"}[kind]
            fm = painter.fontMetrics()
            step = max(fm.horizontalAdvance(char), 3.0)
            y = origin.y() + line.y() + line.ascent()
            x = origin.x() + x1 + step
            stop_x = origin.x() + x2 - step
            while x < stop_x:
                painter.drawText(QPointF(x, y), char)
                x += step


@dataclass
class Page:
    number: int  # 1-based
    width: float
    height: float
    section: int
    fragments: list[Fragment] = field(default_factory=list)
    rules: list[QRectF] = field(default_factory=list)  # table borders and the footnote separator
    change_bars: list[QRectF] = field(default_factory=list)
    fills: list[tuple[QRectF, str]] = field(default_factory=list)  # cell and paragraph shading: (rect, "#RRGGBB")
    # table cell and paragraph borders with their colours, widths and styles (borders.BorderSegment)
    borders: list = field(default_factory=list)
    view: str = "all"  # the markup view it was laid out in (display_text.VIEWS)
    # the number its PAGE fields print before formatting: section-relative after a w:pgNumType
    # restart, so not `number` (the physical index the view, the status bar and the tools use)
    number_value: int = 0
    drawings: list = field(default_factory=list)  # floating drawings placed on it (floating.Drawing)
    media: object = None  # reads the media its pictures name, at paint time (floating.MediaStore)

    def body_fragments(self) -> list[Fragment]:
        return [f for f in self.fragments if f.story == "main"]

    def fragments_body(self) -> bool:
        return any(f.story == "main" for f in self.fragments)

    def text(self, include_headers: bool = False, boxes: bool = False) -> str:
        """The page's text, a line per fragment: headers, body, notes, footers, each top to bottom.
        boxes: in reading order with the text of text boxes and shapes, each where it stands on the
        page (a cover title drawn in a shape opens its page); a box the layout does not draw (VML,
        inline) is read where its anchor paragraph stands."""
        frags = self.fragments if include_headers else self.body_fragments()
        items = [(_story_rank(f.story), f.top, f.x, f.text()) for f in frags]
        if boxes:
            items += _box_items(self, frags, include_headers)
            # (a picture's stand-in character is not text)
            items = [(*place, text.replace("\ufffc", "")) for *place, text in items]
        return "\n".join(text for *_place, text in sorted(items, key=lambda item: item[:3]))


def _box_items(page: Page, frags: list[Fragment], include_headers: bool) -> list[tuple]:
    """(rank, top, x, text) of the text in the page's drawings, and of the text boxes in its
    paragraphs that no drawing lays out, read at the paragraph's first line."""
    from ..docx.package.ooxml import ancestor
    from ..docx.reading.inline import TAB, TEXT, StoryState, pieces, text_boxes

    def accepted(p) -> str:  # the paragraph as the reader reads it: no hidden or deleted text
        return "".join(pc.text for pc in pieces(p, StoryState()) if pc.kind in (TEXT, TAB) and not pc.hidden
                       and pc.dele is None)

    items = []
    drawn = set()
    for drawing in page.drawings:
        story = drawing.story
        if not include_headers and story != "main":
            continue
        for shape in drawing.shapes:
            for frag in shape.text:
                drawn.add(frag.para_element)
                items.append((_story_rank(story), frag.top, frag.x, frag.text()))
    for frag in frags:
        if frag.first_line != 0 or frag.para_element is None:
            continue
        for content in text_boxes(frag.para_element):
            paragraphs = [p for p in content.iter(_P) if ancestor(p, _FALLBACK, content) is None]
            if paragraphs and not any(p in drawn for p in paragraphs):
                words = "\n".join(accepted(p) for p in paragraphs)
                items.append((_story_rank(frag.story), frag.top, frag.x - 0.5, words))
    return items


def _story_rank(story: str) -> int:
    if story.startswith("header"):
        return 0
    if story == "main":
        return 1
    if story.startswith(("footnote", "endnote")):
        return 2
    return 3


class DocumentLayout:
    """All pages of a document, and the maps between pages and blocks."""

    def __init__(self, pages: list[Page], font_substitutions: dict[str, str], paginator=None):
        self.paginator = paginator
        self.font_substitutions = font_substitutions
        self._index(pages)

    def _index(self, pages: list[Page]) -> None:
        self.pages = pages
        self._block_pages: dict[str, list[tuple[int, Fragment]]] = {}
        for page in pages:
            for frag in page.fragments:
                if frag.story == "main" and frag.block_id:
                    self._block_pages.setdefault(frag.block_id, []).append((page.number, frag))

    def relayout(self, changed_block_ids=(), changed_paragraphs=()) -> int:
        """Lay the document out again after an edit. Only the edited paragraphs (and those whose
        text or list label changed) are measured again, and pagination restarts from the first
        page the edit can affect. Returns that page number."""
        paginator = self.paginator
        first = min((n for bid in changed_block_ids for n, _ in self._block_pages.get(bid, ())), default=None)
        paragraphs = list(changed_paragraphs)
        for bid in changed_block_ids:
            paragraphs.extend(f.para_element for _, f in self._block_pages.get(bid, ()) if f.para_element is not None)
        paginator.invalidate(paragraphs)
        if first is None:  # a new block or an unknown one: start from where its neighbours were
            first = 1
        pages = list(paginator.run(resume_page=first))
        restart = pages[0].number if pages else 1
        if paginator.total_pages_hint and paginator.counts_stale():
            # "Page X of Y" on every page shows the new total (and SECTIONPAGES the section's): lay the
            # pages out again with it (the paragraphs stay measured, only pagination and the headers are redone)
            paginator.settle_counts()
            list(paginator.run())
            restart = 1
        self._index(paginator.pages)
        return restart

    @property
    def view(self) -> str:
        """The markup view the pages show ("all", "simple", "none" or "original")."""
        return self.paginator.view if self.paginator is not None else (self.pages[0].view if self.pages else "all")

    @property
    def page_count(self) -> int:
        return len(self.pages)

    def page_of(self, block_id: str, offset: int = 0) -> int | None:
        """The 1-based page holding accepted-view offset `offset` of a block (boundaries go to the next)."""
        placed = self._block_pages.get(block_id)
        if not placed:
            return None
        for number, frag in placed:
            start, end = frag.accepted_range
            if start <= offset < end:
                return number
        last_number, last = placed[-1]
        if offset >= last.accepted_range[1]:
            return last_number
        return placed[0][0]

    def page_text(self, number: int, include_headers: bool = False) -> str | None:
        if not 1 <= number <= len(self.pages):
            return None
        return self.pages[number - 1].text(include_headers)

    def fragments_of(self, block_id: str) -> list[tuple[int, Fragment]]:
        return list(self._block_pages.get(block_id, ()))

    def hit_test(self, number: int, point: QPointF) -> tuple[str, int] | None:
        """(blockId, accepted-view offset) at a point of a page, or None outside any body text."""
        if not 1 <= number <= len(self.pages):
            return None
        found = None
        for frag in self.pages[number - 1].body_fragments():
            if frag.rect.contains(point) and frag.block_id:
                para = frag.para
                for i in range(frag.first_line, frag.last_line + 1):
                    line = para.layout.lineAt(i)
                    top = frag.y + para.lines[i].y
                    if top <= point.y() <= top + para.lines[i].height:
                        x = point.x() - frag.x - para.x
                        cursor = line.xToCursor(x)
                        cursor = min(max(cursor, 0), len(para.accepted) - 1) if para.accepted else 0
                        acc = para.accepted[cursor] if para.accepted else 0
                        # two paragraphs share a line after a run-in heading: the one whose text is at x
                        start = line.position().x()
                        if start <= x <= start + line.naturalTextWidth() or found is None:
                            found = (frag.block_id, max(acc, 0))
                        if start <= x <= start + line.naturalTextWidth():
                            return found
        return found
