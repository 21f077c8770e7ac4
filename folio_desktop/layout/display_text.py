"""A paragraph's text as the lawyer sees it: the runs' text with redlines (or as accepted, or as it
was), list labels, note numbers, comment ranges, inline drawings, and the Qt character format of
each stretch (change colours, highlights, scripts, small caps, East Asian fonts).

Apart from paragraph.py, which shapes this text into lines: what a view shows, not where it breaks.
"""

from __future__ import annotations

import copy
import re
from dataclasses import replace

from lxml import etree
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
from .floating import effect_extent
from .fonts import KANA
from .model import EMU, TWIP, AcceptedMap, Span

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
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


# Han, kana, Hangul and the full-width forms and punctuation they are set with
_EAST_ASIAN_CHARS = "\u1100-\u11ff\u2e80-\u303f\u3040-\u30ff\u3100-\u31ff\u3200-\u9fff\uac00-\ud7af" \
    "\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef"
# East Asian text set in a stand-in keeps the line height of the run's own font: its format holds
# that font under this property (copies of the format keep it)
HEIGHT_FONT = QTextFormat.UserProperty + 1
# "underline" or "strike": the stretch is drawn with two lines (model.MeasuredParagraph.double_lines)
DOUBLE_LINE = QTextFormat.UserProperty + 2
_KANA_CHARS = "\u3041-\u3096\u30a1-\u30fa"  # hiragana and katakana letters
EAST_ASIAN = re.compile(f"[{_EAST_ASIAN_CHARS}]")
_KANA = re.compile(f"[{_KANA_CHARS}]")
# runs of kana, of other East Asian characters, and of everything else
_SCRIPT_RUNS = re.compile(f"[{_KANA_CHARS}]+|(?:(?![{_KANA_CHARS}])[{_EAST_ASIAN_CHARS}])+|[^{_EAST_ASIAN_CHARS}]+")


class DisplayText:
    """A paragraph's display text as one markup view shows it, and the Qt character formats each
    stretch is drawn in, for one document (the formats are cached across calls)."""

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
        self._capitals: set[int] = set()  # id() of the cached formats in caps or small caps
        fonts.use_font_table(read_font_table(doc))  # a missing font's stand-in by its kind

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
        if moved and marked:
            # Word's double underline (moved to) or double strike-through (moved from), which Qt's
            # formats cannot draw: the fragment draws them (model.Fragment) from this property
            cf.setProperty(DOUBLE_LINE, "underline" if span_kind == "inserted" else "strike")
        elif fmt.underline or (marked and span_kind == "inserted"):
            cf.setFontUnderline(True)
        if marked and span_kind == "formatted":  # a pending formatting change
            cf.setUnderlineStyle(QTextCharFormat.DotLine)
            cf.setUnderlineColor(QColor(self.change_color("formatted", author)))
        if (fmt.strike or fmt.double_strike or (marked and span_kind == "deleted")) and not (moved and marked):
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
                              active_ids, mark if moved else None))
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
        if not EAST_ASIAN.search(text):
            self._add_formats(formats, pos, text, fmt, span_kind, author, comment, moved)
            return
        family = self.fonts.east_asian_family(fmt.east_asian_font)
        east, kana = replace(fmt, font_family=family), replace(fmt, font_family=family + KANA)
        for match in _SCRIPT_RUNS.finditer(text):
            piece = match.group()
            if EAST_ASIAN.match(piece):
                cf = self._char_format(kana if _KANA.match(piece) else east, span_kind, author, comment, moved,
                                       height_of=fmt)
                formats.append((pos + match.start(), pos + match.end(), cf))
            else:
                self._add_formats(formats, pos + match.start(), piece, fmt, span_kind, author, comment, moved)
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
        left, top, right, bottom = effect_extent(piece.node)
        w, h = w + left + right, h + top + bottom
        objects.append((pos, w, h))
        cf = QTextCharFormat(self._char_format(self.formatter.run(piece.run, p, para_fmt, table_style),
                                               "text", None, False))
        font = cf.font()
        # the replacement glyph, spaced out to the picture's width, holds its place on the line:
        # its own advance (which depends on the run's font) is taken off the spacing
        font.setLetterSpacing(QFont.AbsoluteSpacing, w - self._object_advance(font))
        cf.setFont(font)
        cf.setForeground(QColor(0, 0, 0, 0))  # the picture is painted there (ui/pages/drawings.py), not the glyph
        formats.append((pos, pos + 1, cf))
        spans.append(Span(pos, pos + 1, "object"))

    def _object_advance(self, font: QFont) -> float:
        """The advance of OBJECT_CHAR set alone in font (px, without letter spacing), as a line measures it."""
        key = ("object advance", font.key())
        advance = self._formats.get(key)
        if advance is None:
            plain = QFont(font)
            plain.setLetterSpacing(QFont.AbsoluteSpacing, 0.0)
            layout = QTextLayout(OBJECT_CHAR + " ", plain)  # (alone, its width is rounded up)
            option = QTextOption()
            option.setUseDesignMetrics(True)
            layout.setTextOption(option)
            layout.beginLayout()
            line = layout.createLine()
            line.setLineWidth(1e6)
            layout.endLayout()
            advance = self._formats[key] = line.cursorToX(1)[0]
        return advance


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
