"""Measuring one paragraph: its text as the lawyer sees it (with redlines), shaped by QTextLayout
into lines of a given width, with Word's indents, tabs, line spacing and paragraph spacing.

Units are pixels at 96 dpi (a twip is 1/15 px), as in the spec's page geometry.
"""

from __future__ import annotations

import copy
import math
import re
from dataclasses import dataclass, field, replace

from lxml import etree
from PySide6.QtCore import QPointF
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QTextCharFormat, QTextFormat, QTextLayout, QTextOption

from ..docx.model.font_table import read_font_table
from ..docx.package.ooxml import first_child
from ..docx.reading import inline
from ..docx.reading.accepted import deleting_mark
from ..docx.reading.inline import (
    BREAK,
    COMMENT_END,
    COMMENT_START,
    NOTE,
    OBJECT,
    PAGE_BREAK,
    TAB,
    TEXT,
    StoryState,
)
from .borders import paragraph_frame
from .fonts import KANA

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
TWIP = 1 / 15  # px per twip at 96 dpi
EMU = 1 / 9525  # px per EMU at 96 dpi
OBJECT_CHAR = "\ufffc"
LINE_SEPARATOR = "\u2028"
INSERT_COLORS = ["#1f6feb", "#b4009e", "#0a7d32", "#c2410c", "#6d28d9", "#0e7490"]
HIGHLIGHTS = {"yellow": "#ffff00", "green": "#00ff00", "cyan": "#00ffff", "magenta": "#ff00ff", "blue": "#0000ff",
              "red": "#ff0000", "darkBlue": "#000080", "darkCyan": "#008080", "darkGreen": "#008000",
              "darkMagenta": "#800080", "darkRed": "#800000", "darkYellow": "#808000", "darkGray": "#808080",
              "lightGray": "#c0c0c0", "black": "#000000", "white": "#ffffff"}
COMMENT_BACKGROUND = "#fff1b8"
MOVE_COLOR = "2e7d32"  # moves are green, as Word marks them
# colors="kind": one colour per kind of change whatever its author (the compare window's redline)
KIND_COLORS = {"inserted": "#1f5fbf", "deleted": "#c62828", "formatted": "#8a5a00", "moved": "#" + MOVE_COLOR}
# markup views, as Word names them: all = redlines; simple = the text as accepted, change bars;
# none = the text as accepted, nothing marked; original = the text as if every change were rejected
VIEWS = ("all", "simple", "none", "original")
# the views that show the text as accepted: there a deleted paragraph mark joins its paragraph to
# the next one (docx/reading/accepted.py), laid out as one paragraph as accept-all makes it
ACCEPTED_VIEWS = ("simple", "none")
COLOR_SCHEMES = ("author", "kind")
# Word's superscript and subscript: size and shift per em of the run's size (measured in its PDFs);
# small caps draw lower-case letters as capitals at 70% (as Qt's own small caps font does)
SCRIPT_SIZE = 0.58
SUPERSCRIPT_RAISE = 0.33
SUBSCRIPT_DROP = 0.08
SMALL_CAPS_SIZE = 0.7


def author_color(author: str | None, palette: dict[str, str]) -> str:
    author = author or ""
    if author not in palette:
        palette[author] = INSERT_COLORS[len(palette) % len(INSERT_COLORS)]
    return palette[author]


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


@dataclass
class Line:
    y: float  # top of the line box inside the paragraph, after space before
    height: float
    ascent: float
    start: int  # display text offsets
    end: int
    page_break_before: bool = False


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


class ParagraphMeasurer:
    """Builds and shapes paragraphs for one document (fonts and formats are cached across calls)."""

    def __init__(self, doc, formatter, fonts, show_markup: bool = True, view: str | None = None,
                 colors: str = "author"):
        """view: one of VIEWS (show_markup=False is the older name of "none"); colors: "author" gives
        each author a colour, "kind" colours insertions and deletions apart whoever made them."""
        self.doc = doc
        self.formatter = formatter
        self.fonts = fonts
        self.view = view or ("all" if show_markup else "none")
        if self.view not in VIEWS:
            raise ValueError(f"unknown markup view {self.view!r}; expected one of {', '.join(VIEWS)}")
        if colors not in COLOR_SCHEMES:
            raise ValueError(f"unknown change colours {colors!r}; expected one of {', '.join(COLOR_SCHEMES)}")
        self.colors = colors
        self.show_markup = self.view == "all"  # redline formats (colours, underlines, strikes)
        self.show_comments = self.view in ("all", "simple")
        self.author_colors: dict[str, str] = {}
        self._formats: dict = {}
        self._gaps: dict = {}  # (id of a format, character) -> it widened by the auto-space gap
        self._heights: dict = {}  # id of a format -> (the format, _range_height of it)
        self._geometries: dict = {}  # (id of a paragraph format, width) -> (the format, its _Geometry)
        self._capitals: set[int] = set()  # id() of the cached formats in caps or small caps
        fonts.use_font_table(read_font_table(doc))  # a missing font's stand-in by its kind

    # -- text ---------------------------------------------------------------------------------

    def change_color(self, span_kind: str, author: str | None, moved: bool = False) -> str:
        """"#rrggbb" a change is drawn in: its author's, or with colors="kind" its kind's."""
        if self.colors == "kind":
            return KIND_COLORS["moved" if moved else span_kind]
        if moved:
            return "#" + MOVE_COLOR
        return author_color(author, self.author_colors)

    def _char_format(self, fmt, span_kind: str, author: str | None, comment: bool,
                     moved: bool = False, small: bool = False, height_of=None) -> QTextCharFormat:
        """The cached Qt format of a run format as this view draws it. height_of: the run format
        whose font gives the line height (East Asian text set in a stand-in keeps its run's)."""
        key = (fmt, span_kind, author, comment, moved, small, height_of)
        cached = self._formats.get(key)
        if cached is not None:
            return cached
        cf = QTextCharFormat()
        size, raise_pt = _vertical(fmt)
        if small:  # a lower-case letter in small caps: a capital at Word's reduced size
            size *= SMALL_CAPS_SIZE
        font = self.fonts.font(fmt.font_family, size, fmt.bold, fmt.italic, fmt.caps, fmt.small_caps,
                               fmt.spacing_twips * TWIP)
        cf.setFont(font)
        if raise_pt:
            # Qt's AlignSuperScript shrinks the font again (to 2/3 of a whole point size) and raises
            # by half its height; a baseline offset (percent of the item font's ascent + descent)
            # puts the text exactly where Word does
            metrics = QFontMetricsF(font)
            cf.setBaselineOffset(100.0 * raise_pt * 96 / 72 / max(metrics.ascent() + metrics.descent(), 1.0))
        marked = self.show_markup and span_kind in ("inserted", "deleted", "formatted")
        color = fmt.color
        if marked and span_kind != "formatted":
            color = self.change_color(span_kind, author, moved).lstrip("#")
        if color:
            cf.setForeground(QColor("#" + color))
        if fmt.underline or (marked and span_kind == "inserted"):
            cf.setFontUnderline(True)
            if moved and span_kind == "inserted" and marked:
                cf.setUnderlineStyle(QTextCharFormat.DashUnderline)
        if marked and span_kind == "formatted":  # a pending formatting change
            cf.setUnderlineStyle(QTextCharFormat.DotLine)
            cf.setUnderlineColor(QColor(self.change_color("formatted", author)))
        if fmt.strike or fmt.double_strike or (marked and span_kind == "deleted"):
            cf.setFontStrikeOut(True)
        background = None
        if fmt.highlight and fmt.highlight in HIGHLIGHTS:
            background = HIGHLIGHTS[fmt.highlight]
        elif fmt.shading:
            background = "#" + fmt.shading
        if comment and self.show_comments:
            background = COMMENT_BACKGROUND
        if background:
            cf.setBackground(QColor(background))
        if height_of is not None:
            cf.setProperty(HEIGHT_FONT, self._char_format(height_of, span_kind, author, comment, moved).font())
        self._formats[key] = cf
        if fmt.caps or fmt.small_caps:
            self._capitals.add(id(cf))
        return cf

    def display_text(self, p: etree._Element, para_fmt, label: str | None, table_style=None, note_numbers=None,
                     note_mark: str | None = None, open_comments: tuple[str, ...] = (), joined: tuple = (),
                     joined_open: tuple | None = None):
        """(text, formats, accepted map, spans, page-break offsets, note refs) for a paragraph, as
        this view shows it; the comment ranges and the changes left out go to self._last_marks.
        note_mark: in a footnote or endnote, the number its w:footnoteRef / w:endnoteRef shows;
        open_comments: ids of comment ranges that started in an earlier paragraph and are still open;
        joined: the paragraphs whose deleted marks run them on into p (an accepted view), read first
        and formatted as runs of p, whose mark survives; joined_open: for each paragraph after the
        first, the comment ranges open where it starts (ranges may start or end between two)."""
        parts: list[str] = []
        formats: list[tuple[int, int, QTextCharFormat]] = []
        accepted = AcceptedMap()
        spans: list[Span] = []
        breaks: list[int] = []
        notes: list[tuple[int, str, int]] = []
        objects: list[tuple[int, float, float]] = []
        floating: list[tuple[float, float]] = []
        drawings: list[tuple[int, object]] = []
        comment_marks: list[tuple[str, int, int, bool]] = []
        hidden_changes: list[tuple[int, str | None]] = []
        pos = 0
        acc = 0
        view = self.view
        drop_deleted = view in ("simple", "none")  # the text as accepted
        drop_inserted = view == "original"  # the text as if every change were rejected

        def add_label(text: str, fmt) -> None:
            """Shown text that is not document text: a list label, a note's own number."""
            nonlocal pos
            parts.append(text)
            self._add_formats(formats, pos, text, fmt, "label", None, False)
            accepted.add(len(text), -1, 0)
            spans.append(Span(pos, pos + len(text), "label"))
            pos += len(text)

        if label:
            suffix = {"tab": "\t", "space": " "}.get(para_fmt.number_suffix, "")
            add_label(label + suffix, para_fmt.number_format or para_fmt.mark)
        # comment id -> (display start, whether it starts here), in the order the ranges opened
        active: dict[str, tuple[int, bool]] = {cid: (0, False) for cid in open_comments}
        active_ids: tuple[str, ...] = tuple(active)
        run_cache: dict = {}
        # the note's own number (w:footnoteRef) takes width on its line, as in Word and LibreOffice
        mark_run = run_order = None
        if note_mark:
            ref = next(p.iter(_W + "footnoteRef", _W + "endnoteRef"), None)
            if ref is not None and ref.getparent() is not None:
                mark_run = ref.getparent()
                run_order = {r: i for i, r in enumerate(p.iter(_W + "r"))}

        hidden_styles = self.doc.hidden_character_styles
        if joined:
            def joined_pieces():
                """The pieces of the joined paragraphs, then p's: one story state, as in one
                paragraph. Where a deleted mark joins two, Simple Markup's change bar marks the line."""
                nonlocal active_ids
                state = StoryState()
                for i, q in enumerate(joined):
                    yield from inline.iter_pieces(q, state, hidden_styles)
                    gone = deleting_mark(q)
                    if not hidden_changes or hidden_changes[-1][0] != pos:
                        hidden_changes.append((pos, gone.get(_W + "author") if gone is not None else None))
                    if joined_open is not None:  # ranges that end or start between the two paragraphs
                        now_open = joined_open[i]
                        for cid in [c for c in active if c not in now_open]:
                            start, here = active.pop(cid)
                            comment_marks.append((cid, start, pos, here))
                        for cid in now_open:
                            active.setdefault(cid, (pos, True))
                        active_ids = tuple(active)
                yield from inline.iter_pieces(p, state, hidden_styles)

            pieces = joined_pieces()
        else:
            pieces = inline.iter_pieces(p, StoryState(), hidden_styles)
        for piece in pieces:
            kind = piece.kind
            if mark_run is not None and run_order.get(piece.run, -1) >= run_order.get(mark_run, 0):
                add_label(note_mark, self.formatter.run(mark_run, p, para_fmt, table_style))
                mark_run = None
            if kind == COMMENT_START:
                if piece.extra not in active:
                    active[piece.extra] = (pos, True)
                    active_ids = tuple(active)
                continue
            if kind == COMMENT_END:
                opened = active.pop(piece.extra, None)
                if opened is not None:
                    comment_marks.append((piece.extra, opened[0], pos, opened[1]))
                    active_ids = tuple(active)
                continue
            if piece.hidden:
                continue
            deleted = piece.dele is not None
            inserted = not deleted and piece.ins is not None
            # text inserted and then deleted was never in the original, and is not in the accepted text
            if (deleted and drop_deleted) or (piece.ins is not None and drop_inserted):
                mark = piece.dele if drop_deleted else piece.ins
                if not hidden_changes or hidden_changes[-1][0] != pos:
                    hidden_changes.append((pos, mark.get(_W + "author")))
                if not deleted and kind in (TEXT, TAB, BREAK, NOTE):
                    # the text is in the accepted view: later offsets still count it
                    if kind == NOTE:
                        raw_id = piece.node.get(_W + "id", "0")
                        number = (note_numbers or {}).get((piece.extra, int(raw_id) if raw_id.lstrip("-").isdigit()
                                                           else 0), "")
                        acc += len(f"[^{number}]" if piece.extra == "footnote" else f"[^e{number}]")
                    else:
                        acc += len(LINE_SEPARATOR if kind == BREAK else piece.text)
                continue
            if kind == PAGE_BREAK:
                if piece.extra == "page":
                    breaks.append(pos)
                    parts.append(LINE_SEPARATOR)
                    accepted.add(1, -1, 0)
                    pos += 1
                continue
            if kind == OBJECT:
                drawings.append((pos, piece.node))
                self._object(piece, p, para_fmt, table_style, pos, objects, floating, formats, spans)
                if piece.extra.startswith("inline"):
                    parts.append(OBJECT_CHAR)
                    accepted.add(1, -1, 0)
                    pos += 1
                continue
            if kind == NOTE:
                raw_id = piece.node.get(_W + "id", "0")
                note_id = int(raw_id) if raw_id.lstrip("-").isdigit() else 0
                number = (note_numbers or {}).get((piece.extra, note_id), "")
                notes.append((pos, piece.extra, note_id))
                text = number or "\u2060"
            elif kind == BREAK:
                text = LINE_SEPARATOR
            elif kind in (TEXT, TAB):
                text = piece.text
            else:
                continue
            if not text:
                continue
            run = piece.run
            cached = run_cache.get(run)
            if cached is None:
                rpr = first_child(run, _W + "rPr") if run is not None else None
                cached = run_cache[run] = (self.formatter.run(run, p, para_fmt, table_style),
                                           first_child(rpr, _W + "rPrChange") if rpr is not None else None)
            fmt, change = cached
            span_kind = "deleted" if deleted else ("inserted" if inserted else "text")
            mark = piece.dele if deleted else piece.ins
            moved = mark is not None and mark.tag.endswith(("}moveFrom", "}moveTo"))
            if span_kind == "text" and run is not None:
                if change is not None:
                    span_kind, mark = "formatted", change
                    if drop_inserted:  # Original: the run as it was formatted before the change
                        fmt = self._original_format(run, change, p, para_fmt, table_style, run_cache)
            if kind == NOTE:
                fmt = replace(fmt, vert_align="superscript")
            author = mark.get(_W + "author") if mark is not None else None
            comment = bool(active_ids)
            self._text_formats(formats, pos, text, fmt, span_kind, author, comment, moved)
            spans.append(Span(pos, pos + len(text), "note" if kind == NOTE else span_kind, author, comment, moved,
                              active_ids))
            parts.append(text)
            if deleted:
                accepted.add(len(text), -1, 0)
            else:
                if kind == NOTE:
                    # the accepted view reads the marker as [^n] / [^en]
                    marker = f"[^{number}]" if piece.extra == "footnote" else f"[^e{number}]"
                    accepted.add(len(text), acc, 0)
                    acc += len(marker)
                else:
                    accepted.add(len(text), acc, 1)
                    acc += len(text)
            pos += len(text)
        if mark_run is not None:
            add_label(note_mark, self.formatter.run(mark_run, p, para_fmt, table_style))
        for cid, (start, here) in active.items():  # ranges that go on into the next paragraph
            comment_marks.append((cid, start, pos, here))
        self._last_objects = (objects, floating)
        self._last_drawings = drawings
        self._last_marks = (comment_marks, hidden_changes)
        return "".join(parts), formats, accepted, spans, breaks, notes

    def _text_formats(self, formats, pos: int, text: str, fmt, span_kind, author, comment, moved) -> None:
        """The formats of one run's text: Chinese, Japanese and Korean characters in the run's East
        Asian font (w:rFonts/@w:eastAsia), the rest in its own, as Word picks a font per character."""
        if not _EAST_ASIAN.search(text):
            self._add_formats(formats, pos, text, fmt, span_kind, author, comment, moved)
            return
        family = self.fonts.east_asian_family(fmt.east_asian_font)
        east, kana = replace(fmt, font_family=family), replace(fmt, font_family=family + KANA)
        for match in _SCRIPT_RUNS.finditer(text):
            piece = match.group()
            if _EAST_ASIAN.match(piece):
                cf = self._char_format(kana if _KANA.match(piece) else east, span_kind, author, comment, moved,
                                       height_of=fmt)
                formats.append((pos + match.start(), pos + match.end(), cf))
            else:
                self._add_formats(formats, pos + match.start(), piece, fmt, span_kind, author, comment, moved)

    def _gapped(self, cf: QTextCharFormat, ch: str) -> QTextCharFormat:
        """A cached _gapped_format (a copy of cf, so it measures its line as cf does)."""
        key = (id(cf), ch)
        gapped = self._gaps.get(key)
        if gapped is None:
            gapped = self._gaps[key] = _gapped_format(cf, ch)
        return gapped

    def _add_formats(self, formats, pos: int, text: str, fmt, span_kind: str, author: str | None,
                     comment: bool, moved: bool = False) -> None:
        """The format ranges of `text` at `pos`: one, or in small caps one per stretch of lower-case
        letters (drawn as smaller capitals) and of everything else."""
        if not fmt.small_caps or fmt.caps or text.isupper() or not any(c.islower() for c in text):
            cf = self._char_format(fmt, span_kind, author, comment, moved)
            if formats and formats[-1][2] is cf and formats[-1][1] == pos:
                # a run split from the one before without a change of format (Word splits runs at
                # every editing session): one range, so Qt itemizes and shapes them as one
                formats[-1] = (formats[-1][0], pos + len(text), cf)
            else:
                formats.append((pos, pos + len(text), cf))
            return
        start = 0
        for i in range(1, len(text) + 1):
            if i == len(text) or text[i].islower() != text[start].islower():
                small = text[start].islower()
                formats.append((pos + start, pos + i,
                                self._char_format(fmt, span_kind, author, comment, moved, small)))
                start = i

    def _original_format(self, run, change, p, para_fmt, table_style, cache):
        """The format a run had before its pending formatting change (w:rPrChange holds the old rPr)."""
        key = ("original", run)
        fmt = cache.get(key)
        if fmt is None:
            stand_in = etree.Element(_W + "r")
            old = change.find(_W + "rPr")
            if old is not None:
                stand_in.append(copy.deepcopy(old))
            fmt = cache[key] = self.formatter.run(stand_in, p, para_fmt, table_style)
        return fmt

    def _object(self, piece, p, para_fmt, table_style, pos, objects, floating, formats, spans) -> None:
        """An inline drawing takes its extent on the line; an anchored one is only reported."""
        kind, cx, cy = (piece.extra.split(":") + ["0", "0"])[:3]
        w = int(cx) * EMU if cx.isdigit() else 0.0
        h = int(cy) * EMU if cy.isdigit() else 0.0
        if kind == "anchor":
            floating.append((w, h))
            return
        objects.append((pos, w, h))
        cf = QTextCharFormat(self._char_format(self.formatter.run(piece.run, p, para_fmt, table_style),
                                               "text", None, False))
        font = cf.font()
        # the replacement glyph, spaced out to the picture's width, holds its place on the line
        font.setLetterSpacing(QFont.AbsoluteSpacing, max(w - 8.0, 0.0))
        cf.setFont(font)
        cf.setForeground(QColor(0, 0, 0, 0))  # the picture is painted there (ui/pages/drawings.py), not the glyph
        formats.append((pos, pos + 1, cf))
        spans.append(Span(pos, pos + 1, "object"))

    # -- shaping --------------------------------------------------------------------------------

    def _range_height(self, cf: QTextCharFormat) -> float:
        """The line height a format range needs: its font's (or its HEIGHT_FONT's), and text raised
        or lowered off the baseline (w:position, superscript) takes that much more, as in Word."""
        cached = self._heights.get(id(cf))
        if cached is not None and cached[0] is cf:
            return cached[1]
        height_font = cf.property(HEIGHT_FONT)
        height = self.fonts.line_height(height_font if isinstance(height_font, QFont) else cf.font())
        offset = cf.baselineOffset()
        if offset:
            metrics = QFontMetricsF(cf.font())
            height += abs(offset) / 100.0 * (metrics.ascent() + metrics.descent())
        self._heights[id(cf)] = (cf, height)
        return height

    def _geometry(self, para, width: float) -> _Geometry:
        """What a paragraph format and a column width give every paragraph of that format: built
        once per pair (a long contract has a few dozen), not per paragraph."""
        key = (id(para), width)
        cached = self._geometries.get(key)
        if cached is None or cached[0] is not para:
            cached = self._geometries[key] = (para, _Geometry(para, width, self.formatter.default_tab_stop))
        return cached[1]

    def measure(self, p: etree._Element, block, width: float, table_style=None, cell_position=None,
                note_numbers: dict | None = None, grid: float = 0.0, note_mark: str | None = None,
                open_comments: tuple[str, ...] = (), joined: tuple = (),
                joined_open: tuple | None = None) -> MeasuredParagraph:
        """grid: the section's line pitch in px when it has a line grid and p is body text;
        note_mark: the number a footnote or endnote paragraph shows at its w:footnoteRef;
        open_comments: comment ranges open where the paragraph starts (where the first joined one
        starts); joined: the paragraphs a deleted mark runs on into p, in an accepted view (the
        whole is one paragraph with p's properties, its accepted offsets those of their block);
        joined_open: the comment ranges open where each of them after the first starts."""
        para = self.formatter.paragraph(p, table_style, cell_position)
        if not para.snap_to_grid:
            grid = 0.0
        label = _shown_label(block)
        text, formats, accepted, spans, breaks, notes = self.display_text(p, para, label, table_style, note_numbers,
                                                                          note_mark, open_comments, joined,
                                                                          joined_open)
        objects, floating = self._last_objects
        drawings = self._last_drawings
        comment_marks, hidden_changes = self._last_marks
        vanished = self.view != "all" and _vanishes(p, self.view, spans, breaks)
        # a page break that ends the paragraph starts the next block on a new page; it does not
        # leave an empty line behind (Word and LibreOffice keep the mark with the text before it)
        break_before = bool(breaks) and breaks[0] == 0 and len(text) > 1
        if break_before:  # a page break that opens the paragraph is a page break before it
            text = text[1:]
            accepted = accepted.trimmed(1, 0)
            breaks = [b - 1 for b in breaks[1:]]
            notes = [(o - 1, t, i) for o, t, i in notes]
            spans = [replace(sp, start=max(sp.start - 1, 0), end=sp.end - 1) for sp in spans if sp.end > 1]
            formats = [(max(a - 1, 0), b - 1, cf) for a, b, cf in formats if b > 1]
            comment_marks = [(c, max(a - 1, 0), max(b - 1, 0), here) for c, a, b, here in comment_marks]
            hidden_changes = [(max(o - 1, 0), a) for o, a in hidden_changes]
            drawings = [(max(o - 1, 0), el) for o, el in drawings]
        break_after = bool(breaks) and breaks[-1] == len(text) - 1 and text.endswith(LINE_SEPARATOR)
        if break_after:
            text = text[:-1]
            accepted = accepted.trimmed(0, 1)
            breaks = breaks[:-1]
            formats = [(a, min(b, len(text)), cf) for a, b, cf in formats if a < len(text)]
            comment_marks = [(c, min(a, len(text)), min(b, len(text)), here) for c, a, b, here in comment_marks]
            hidden_changes = [(min(o, len(text)), a) for o, a in hidden_changes]
        mark_font = self.fonts.font(para.mark.font_family, para.mark.size_pt, para.mark.bold, para.mark.italic)
        # QTextLayout applies a font's capitalization only from its own font, never from a format
        # range: caps and small caps are shaped from capitals, while `text` keeps the document's case
        layout = QTextLayout(_capitalized(text, formats, self._capitals), mark_font)
        layout.setCacheEnabled(True)
        geo = self._geometry(para, width)
        left, first, avail = geo.left, geo.first, geo.avail
        has_tab = "\t" in text  # (stops matter only to a paragraph with a tab: most have none)
        shift = -first
        layout.setTextOption(geo.option(shift if has_tab else None))
        if (para.auto_space_de or para.auto_space_dn) and _EAST_ASIAN.search(text):
            formats = _auto_space(text, formats, para.auto_space_de, para.auto_space_dn, self._gapped)
        layout.setFormats([_format_range(a, b, cf) for a, b, cf in formats])

        furthest = geo.furthest
        # a tab stop past the right indent (TOC page numbers at a stop in the margin): text still
        # wraps at the indent, but the last tab and what follows it may run on to that stop
        last_tab = text.rfind("\t")
        tab_width = furthest + 1.0 if furthest > avail and last_tab >= 0 else 0.0
        # LibreOffice scales the whole single line height, line gap included, for multiples
        # (measured: Carlito 12 pt at 1.15 lines is 16.8 pt, not 13.8)
        mark_metrics = self.fonts.line_height(mark_font)
        # East Asian text set in a stand-in keeps the line height of the run's own font, as when
        # Qt fell back to it glyph by glyph (its taller metrics are not those of Word's CJK fonts)
        ranges = [(a, b, self._range_height(cf)) for a, b, cf in formats]
        # one height over the whole text (the common case): no line needs to look up its ranges
        heights = {h for _a, _b, h in ranges}
        covered = sum(b - a for a, b, _h in ranges) == len(text)
        uniform = heights.pop() if len(heights) == 1 and covered else None

        size = len(text)
        pictures_at = [(o, h) for o, _w, h in objects]
        break_starts = {b + 1 for b in breaks}

        def lay_out_lines() -> list[Line]:
            # (the hot loop of a layout: each Qt call is asked once per line)
            lines: list[Line] = []
            heights: dict[float, float] = {}  # natural height -> the line's height with spacing
            layout.beginLayout()
            y = 0.0
            offset = first
            while True:
                line = layout.createLine()
                if not line.isValid():
                    break
                line.setLeadingIncluded(True)
                width_here = max(avail - offset, 10.0)
                line.setLineWidth(width_here)  # broken at the origin (where new lines are), moved below
                start = line.textStart()
                end = start + line.textLength()
                if tab_width and end < size and start <= last_tab + 1 and end >= last_tab:
                    line.setLineWidth(max(tab_width - offset, 10.0))
                    if start + line.textLength() < size:
                        line.setLineWidth(width_here)  # the tail does not fit either
                    end = start + line.textLength()
                if start < end < size and text[end - 1] == "/":
                    end = _keep_slashed_words(line, text, start, end, width_here)
                if start == end:
                    natural = mark_metrics
                elif uniform is not None:
                    natural = uniform
                else:
                    natural = max((h for a, b, h in ranges if a < end and b > start), default=mark_metrics)
                height = heights.get(natural)
                if height is None:
                    height = heights[natural] = _grid_height(natural, para, grid) if grid else _line_height(natural, para)
                if pictures_at and para.line_rule != "exact":
                    pictures = [h for o, h in pictures_at if start <= o < end]
                    if pictures:
                        # an inline picture stands on the baseline: its line is the picture and the text's
                        # descent, which a multiple line spacing does not scale (Word: the OpenChain
                        # handout's 179.5 pt logo line is 185 pt at 1.15 lines, not 213)
                        height = max(height, max(pictures) + natural * 0.2)
                lines.append(Line(y, height, line.ascent(), start, end,
                                  page_break_before=bool(lines) and start in break_starts))
                qt_height = line.height()
                # the baseline sits low in a taller ("exact" or "atLeast") box, as in Word
                line.setPosition(QPointF(offset, y + (height - qt_height) * 0.8 if height > qt_height else y))
                y += height
                offset = 0.0
            layout.endLayout()
            return lines

        lines = lay_out_lines()
        if shift and not geo.aligned and len(lines) > 1 and "\t" in text[lines[1].start:]:
            # (entries laid out against a right-aligned stop, tables of contents, keep the shift
            # on every line: measured against LibreOffice it breaks them the same way)
            layout.setTextOption(geo.option(0.0))
            lines = lay_out_lines()
        if not lines:
            height = _grid_height(mark_metrics, para, grid) if grid else _line_height(mark_metrics, para)
            lines.append(Line(0.0, height, mark_metrics * 0.8, 0, 0))
        before = para.space_before * TWIP if not para.before_autospacing else 14 * 96 / 72
        after = para.space_after * TWIP if not para.after_autospacing else 14 * 96 / 72
        return MeasuredParagraph(
            text=text, layout=layout, lines=lines, space_before=before, space_after=after, x=left, width=avail,
            accepted=accepted, spans=spans, note_refs=notes, keep_next=para.keep_next, keep_lines=para.keep_lines,
            widow_control=para.widow_control, page_break_before=para.page_break_before or break_before,
            page_break_after=break_after, objects=objects, floating=floating, drawings=drawings, leaders=geo.leaders,
            contextual_key=para.style_id if para.contextual_spacing else None,
            list_key=para.num_id, auto_before=para.before_autospacing, auto_after=para.after_autospacing,
            comment_marks=comment_marks, hidden_changes=hidden_changes, vanished=vanished,
            frame=paragraph_frame(para, self.formatter.theme) if para.borders or para.shading else None,
        )


# Han, kana, Hangul and the full-width forms and punctuation they are set with
_EAST_ASIAN_CHARS = "\u1100-\u11ff\u2e80-\u303f\u3040-\u30ff\u3100-\u31ff\u3200-\u9fff\uac00-\ud7af" \
    "\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef"
# East Asian text set in a stand-in keeps the line height of the run's own font: its format holds
# that font under this property (copies of the format keep it)
HEIGHT_FONT = QTextFormat.UserProperty + 1
_KANA_CHARS = "\u3041-\u3096\u30a1-\u30fa"  # hiragana and katakana letters
_EAST_ASIAN = re.compile(f"[{_EAST_ASIAN_CHARS}]")
_KANA = re.compile(f"[{_KANA_CHARS}]")
_EAST_ASIAN_PUNCTUATION = re.compile("[\u3000-\u303f\uff00-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65]")
# runs of kana, of other East Asian characters, and of everything else
_SCRIPT_RUNS = re.compile(f"[{_KANA_CHARS}]+|(?:(?![{_KANA_CHARS}])[{_EAST_ASIAN_CHARS}])+|[^{_EAST_ASIAN_CHARS}]+")
_ALIGN = {}


def _init_align():
    from PySide6.QtCore import Qt

    _ALIGN.update({"left": Qt.AlignLeft, "center": Qt.AlignHCenter, "right": Qt.AlignRight,
                   "both": Qt.AlignJustify, "distribute": Qt.AlignJustify})


_init_align()
_TAB_TYPES = {"right": QTextOption.RightTab, "center": QTextOption.CenterTab, "decimal": QTextOption.DelimiterTab}
_ALIGNED_TABS = (QTextOption.RightTab, QTextOption.CenterTab)


class _Geometry:
    """A paragraph format in a column of a given width: its indents and width in px, its custom
    tab stops from the indent, their leaders, and the text options with the stops in place."""

    def __init__(self, para, width: float, default_tab_twips: float):
        self.left = para.indent_left * TWIP
        self.first = para.first_line * TWIP
        self.avail = max(width - self.left - para.indent_right * TWIP, 10.0)
        self.width = width
        self.custom: list[QTextOption.Tab] = []
        self.leaders: list[tuple[float, str]] = []
        for stop in para.tabs:
            if stop.kind in ("clear", "bar"):
                continue
            tab_type = _TAB_TYPES.get(stop.kind, QTextOption.LeftTab)
            pos = stop.position * TWIP - self.left  # stops count from the margin, the layout from the indent
            self.custom.append(QTextOption.Tab(pos, tab_type, ".") if stop.kind == "decimal"
                               else QTextOption.Tab(pos, tab_type))
            if stop.leader in ("dot", "hyphen", "underscore", "middleDot", "heavy"):
                self.leaders.append((pos, stop.leader))
        self.default_tab = max(default_tab_twips * TWIP, 8.0)
        self.furthest = max((t.position - self.first for t in self.custom), default=0.0)
        self.aligned = any(t.type in _ALIGNED_TABS for t in self.custom)
        self._alignment = _ALIGN.get(para.alignment, _ALIGN["left"])
        self._bidi = para.bidi
        self._options: dict = {}

    def option(self, shift: float | None) -> QTextOption:
        """The text option, with every reachable tab stop moved by shift px (None: a paragraph
        without a tab, which needs no stops).

        Qt breaks a line measuring its tab stops from the layout's origin but draws it measuring
        them from the line's own start, so a line moved off the origin (a first-line or hanging
        indent, where a list label sits) would be drawn with its text pushed past the right edge
        (ILPA p.4 "(a) credit ... restore"). Each line is broken at x = 0 and moved after, with the
        stops shifted for the first line, where Word's count from the indent. A paragraph whose
        later lines hold tabs as well keeps unshifted stops, right for those lines, unless it has
        a right or centre stop."""
        option = self._options.get(shift)
        if option is None:
            option = QTextOption()
            option.setWrapMode(QTextOption.WrapAtWordBoundaryOrAnywhere)
            option.setAlignment(self._alignment)
            option.setUseDesignMetrics(True)
            if self._bidi:
                from PySide6.QtCore import Qt

                option.setTextDirection(Qt.RightToLeft)
            option.setTabStopDistance(self.default_tab)
            if shift is not None:
                option.setTabs(sorted(
                    (QTextOption.Tab(t.position + shift, t.type, t.delimiter)
                     for t in _tab_stops(self.custom, self.first, self.left, self.default_tab, self.width)
                     if t.position + shift >= 0),
                    key=lambda t: t.position))
            self._options[shift] = option
        return option


def _format_range(start: int, end: int, cf: QTextCharFormat) -> QTextLayout.FormatRange:
    fr = QTextLayout.FormatRange()
    fr.start = start
    fr.length = end - start
    fr.format = cf
    return fr


def _keep_slashed_words(line, text: str, start: int, end: int, width: float) -> int:
    """Word does not break a line after a slash inside a word ("and/or", "bold/italic"); Qt does,
    by the Unicode rules. Such a line (start, end: its text) is cut back to the space before the
    word. Returns the line's end."""
    if not (start < end < len(text) and text[end - 1] == "/" and end - 2 >= start and text[end - 2].isalnum()
            and text[end].isalnum()):
        return end
    space = max(text.rfind(" ", start, end - 1), text.rfind("\t", start, end - 1))
    if space < start:  # a word longer than the line keeps Qt's break
        return end
    line.setNumColumns(space + 1 - start, width)
    return start + line.textLength()


AUTO_SPACE_EM = 0.22  # Word's gap between East Asian and Latin text (2.4 pt at 11 pt in the OpenChain handout)


def _auto_space(text: str, formats: list, letters: bool, digits: bool, gapped) -> list:
    """Formats with Word's automatic gap where East Asian text meets a Latin letter (letters) or a
    digit (digits): the character before each such boundary is set wider by the gap (gapped(cf, ch)
    gives its format)."""
    def latin(ch: str) -> bool:
        return (letters and ch.isascii() and ch.isalpha()) or (digits and ch.isdigit() and ch.isascii())

    def ideograph(ch: str) -> bool:  # East Asian, not its punctuation ("。OpenChain" has no gap in Word)
        return bool(_EAST_ASIAN.match(ch)) and not _EAST_ASIAN_PUNCTUATION.match(ch)

    wider = {i - 1 for i in range(1, len(text))
             if (ideograph(text[i - 1]) and latin(text[i])) or (latin(text[i - 1]) and ideograph(text[i]))}
    if not wider:
        return formats
    out = []
    for a, b, cf in formats:
        cuts = sorted(i for i in wider if a <= i < b)
        start = a
        for i in cuts:
            if start < i:
                out.append((start, i, cf))
            out.append((i, i + 1, gapped(cf, text[i])))
            start = i + 1
        if start < b:
            out.append((start, b, cf))
    return out


def _gapped_format(cf: QTextCharFormat, ch: str) -> QTextCharFormat:
    """cf with one character's advance grown by the auto-space gap (its own spacing kept)."""
    font = QFont(cf.font())
    plain = QFont(font)
    plain.setLetterSpacing(QFont.PercentageSpacing, 100.0)
    advance = QFontMetricsF(plain).horizontalAdvance(ch)
    if font.letterSpacingType() == QFont.PercentageSpacing:
        extra = advance * (font.letterSpacing() / 100.0 - 1.0)
    else:
        extra = font.letterSpacing()
    font.setLetterSpacing(QFont.AbsoluteSpacing, extra + AUTO_SPACE_EM * font.pointSizeF() * 96 / 72)
    gapped = QTextCharFormat(cf)
    gapped.setFont(font)
    return gapped


def _tab_stops(custom: list, first: float, left: float, default: float, width: float) -> list:
    """Every stop a tab can reach in a paragraph, from its indent (px): the custom stops, the
    hanging indent (an implicit stop in a hanging paragraph, where a list label's tab lands), and
    Word's default stops right of the last custom one, at whole multiples of the default distance
    from the margin, as far as the column reaches."""
    stops = list(custom)
    if first < 0:
        stops.append(QTextOption.Tab(0.0, QTextOption.LeftTab))
    last = max((t.position for t in custom), default=-left)
    k = max(int((last + left) // default) + 1, 1)
    while k * default - left <= width:
        stops.append(QTextOption.Tab(k * default - left, QTextOption.LeftTab))
        k += 1
    return stops


def _half_points(pt: float) -> float:
    return round(pt * 2) / 2


def _vertical(fmt) -> tuple[float, float]:
    """(font size, baseline raise) in points of a run: w:position raises or lowers it (half
    points); superscript and subscript are drawn smaller and raised or lowered, in half points as
    Word does (its PDF of docxide-case10: Aptos 12 pt gives 7 pt figures 4 pt up, 1 pt down)."""
    size = fmt.size_pt
    raise_pt = fmt.position_half_pts / 2
    if fmt.vert_align == "superscript":
        size = _half_points(fmt.size_pt * SCRIPT_SIZE)
        raise_pt += _half_points(fmt.size_pt * SUPERSCRIPT_RAISE)
    elif fmt.vert_align == "subscript":
        size = _half_points(fmt.size_pt * SCRIPT_SIZE)
        raise_pt -= _half_points(fmt.size_pt * SUBSCRIPT_DROP)
    return max(size, 1.0), raise_pt


def _capitalized(text: str, formats, capitals: set[int]) -> str:
    """The text to shape: capitals over the ranges whose format is in caps or small caps (`capitals`
    holds their id()s; a letter whose capital is two letters, like ß, stays as it is so that offsets
    keep their meaning)."""
    if not capitals:
        return text
    chars = None
    for start, end, cf in formats:
        if id(cf) not in capitals:
            continue
        if chars is None:
            chars = list(text)
        for i in range(start, min(end, len(chars))):
            upper = chars[i].upper()
            if len(upper) == 1:
                chars[i] = upper
    return text if chars is None else "".join(chars)


def _line_height(natural: float, para) -> float:
    rule = para.line_rule
    if rule == "exact":
        return max(para.line * TWIP, 1.0)
    if rule == "atLeast":
        return max(natural, para.line * TWIP)
    return natural * (para.line / 240.0 if para.line > 0 else 1.0)


def _grid_height(natural: float, para, pitch: float) -> float:
    """A line on a document line grid (LibreOffice, as Word): the smallest whole number of grid
    lines that holds it; exact and at-least spacing are ignored, and a multiple of more than one
    then scales it (measured in LibreOffice 7.4: first lines too)."""
    height = max(math.ceil(natural / pitch - 1e-6), 1) * pitch
    if para.line_rule == "auto" and para.line > 240:
        height *= para.line / 240.0
    return height


def joined_away() -> MeasuredParagraph:
    """A paragraph whose deleted mark runs it on into the next one, in an accepted view: it takes
    no room of its own (its text is laid out with the paragraph whose mark survives)."""
    return MeasuredParagraph(text="", layout=QTextLayout(""), lines=[Line(0.0, 0.0, 0.0, 0, 0)], space_before=0.0,
                             space_after=0.0, x=0.0, width=0.0, accepted=AcceptedMap(), vanished=True)


def _vanishes(p, view: str, spans, breaks) -> bool:
    """Whether a paragraph this view leaves out: its mark is deleted (in an accepted view) or
    inserted (in Original) and none of its text is shown, so no empty line stands in its place."""
    if breaks or any(sp.kind != "label" for sp in spans):
        return False
    mark = p.find(f"{_W}pPr/{_W}rPr/{_W}{'ins' if view == 'original' else 'del'}")
    return mark is not None


def _shown_label(block) -> str | None:
    if block is None or not block.display_label:
        return None
    if block.kind == "listItem":
        return block.display_label
    if block.kind == "heading" and block.display_label != block.style_id:
        return block.display_label
    return None
