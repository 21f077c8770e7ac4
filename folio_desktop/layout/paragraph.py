"""Measuring one paragraph: its display text (display_text.py) shaped by QTextLayout into lines of
a given width, with Word's indents, tabs, line spacing and paragraph spacing.

Units are pixels at 96 dpi (a twip is 1/15 px), as in the spec's page geometry.
"""

from __future__ import annotations

import math
import re
from dataclasses import replace

from lxml import etree
from PySide6.QtCore import QPointF
from PySide6.QtGui import QFont, QFontMetricsF, QTextCharFormat, QTextLayout, QTextOption

from .borders import paragraph_frame
from .display_text import DOUBLE_LINE, EAST_ASIAN, HEIGHT_FONT, LINE_SEPARATOR, DisplayText
from .model import TWIP, AcceptedMap, Line, MeasuredParagraph

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


class ParagraphMeasurer(DisplayText):
    """Builds and shapes paragraphs for one document (fonts and formats are cached across calls):
    the text and its formats as DisplayText builds them, laid out in lines by QTextLayout."""

    def __init__(self, doc, formatter, fonts, show_markup: bool = True, view: str | None = None,
                 colors: str = "author"):
        """show_markup, view and colors: as DisplayText reads them (display_text.VIEWS, COLOR_SCHEMES)."""
        super().__init__(doc, formatter, fonts, show_markup, view, colors)
        self._gaps: dict = {}  # (id of a format, character) -> it widened by the auto-space gap
        self._heights: dict = {}  # id of a format -> (the format, _range_height of it)
        self._geometries: dict = {}  # (id of a paragraph format, width) -> (the format, its _Geometry)

    # -- shaping --------------------------------------------------------------------------------

    def _gapped(self, cf: QTextCharFormat, ch: str) -> QTextCharFormat:
        """A cached _gapped_format (a copy of cf, so it measures its line as cf does)."""
        key = (id(cf), ch)
        gapped = self._gaps.get(key)
        if gapped is None:
            gapped = self._gaps[key] = _gapped_format(cf, ch)
        return gapped

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
                joined_open: tuple | None = None, run_in: float | None = None) -> MeasuredParagraph:
        """grid: the section's line pitch in px when it has a line grid and p is body text;
        note_mark: the number a footnote or endnote paragraph shows at its w:footnoteRef;
        open_comments: comment ranges open where the paragraph starts (where the first joined one
        starts); joined: the paragraphs a deleted mark runs on into p, in an accepted view (the
        whole is one paragraph with p's properties, its accepted offsets those of their block);
        joined_open: the comment ranges open where each of them after the first starts;
        run_in: where the first line starts, px from the column's left edge, in place of the first-line
        indent: the paragraph runs on from the last line of one whose mark is hidden (a style
        separator: a run-in heading's text, then this paragraph's on the same line)."""
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
        vanished = ((self.view != "all" and _vanishes(p, self.view, spans, breaks))
                    or _hidden_whole(p, para, spans, breaks or drawings))
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
        if run_in is not None:
            first = run_in - left
        has_tab = "\t" in text  # (stops matter only to a paragraph with a tab: most have none)
        shift = -first
        layout.setTextOption(geo.option(shift if has_tab else None))
        if (para.auto_space_de or para.auto_space_dn) and EAST_ASIAN.search(text):
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
                picture = 0.0
                if pictures_at and para.line_rule != "exact":
                    pictures = [h for o, h in pictures_at if start <= o < end]
                    if pictures and max(pictures) + natural * 0.2 >= height:
                        # an inline picture stands on the baseline: its line is the picture and the text's
                        # descent, which a multiple line spacing does not scale (Word: the OpenChain
                        # handout's 179.5 pt logo line is 185 pt at 1.15 lines, not 213)
                        picture = max(pictures)
                        height = picture + natural * 0.2
                slack = height - natural if not picture and not grid and para.line_rule == "auto" else 0.0
                lines.append(Line(y, height, line.ascent(), start, end,
                                  page_break_before=bool(lines) and start in break_starts, slack=max(slack, 0.0)))
                qt_height = line.height()
                if picture:  # the picture's top is the line's top
                    line.setPosition(QPointF(offset, y + picture - line.ascent()))
                else:  # the baseline sits low in a taller ("exact" or "atLeast") box, as in Word
                    line.setPosition(QPointF(offset, y + (height - qt_height) * 0.8 if height > qt_height else y))
                y += height
                offset = 0.0
            layout.endLayout()
            return lines

        lines = lay_out_lines()
        if shift and len(lines) > 1 and "\t" in text[lines[1].start:]:
            # later lines hold tabs too: their stops count from the indent, unshifted; an entry laid
            # out against a right-aligned stop (a table of contents) keeps the shifted stops its
            # first line reaches (measured against LibreOffice, it breaks its lines the same way)
            layout.setTextOption(geo.split_option(shift, layout.lineAt(0).naturalTextWidth()) if geo.aligned
                                 else geo.option(0.0))
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
            runs_on=para.mark.hidden and not vanished and not break_after and bool(text.strip()),
            frame=paragraph_frame(para, self.formatter.theme) if para.borders or para.shading else None,
            double_lines=[(a, b, cf.property(DOUBLE_LINE), cf) for a, b, cf in formats if cf.hasProperty(DOUBLE_LINE)],
        )



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
            stops = None
            if shift is not None:
                stops = [QTextOption.Tab(t.position + shift, t.type, t.delimiter) for t in self._stops()
                         if t.position + shift >= 0]
            option = self._options[shift] = self._make_option(stops)
        return option

    def split_option(self, shift: float, first_width: float) -> QTextOption:
        """The text option of a paragraph whose first line is moved by -shift px and whose later
        lines hold tabs as well, with a right or centre stop (a wrapped contents entry under a
        hanging indent: its number's tab on the first line, its page number's on the last). Qt
        keeps one list of stops for every line: the stops the first line can reach (up to its
        width, first_width) go in shifted, the ones beyond unshifted, right for the later lines."""
        stops = self._stops()
        early = [QTextOption.Tab(t.position + shift, t.type, t.delimiter) for t in stops
                 if 0 <= t.position + shift <= first_width]
        cut = max((t.position for t in early), default=0.0)
        return self._make_option(early + [t for t in stops if t.position > cut])

    def _stops(self) -> list:
        return _tab_stops(self.custom, self.first, self.left, self.default_tab, self.width)

    def _make_option(self, stops: list | None) -> QTextOption:
        option = QTextOption()
        option.setWrapMode(QTextOption.WrapAtWordBoundaryOrAnywhere)
        option.setAlignment(self._alignment)
        option.setUseDesignMetrics(True)
        if self._bidi:
            from PySide6.QtCore import Qt

            option.setTextDirection(Qt.RightToLeft)
        option.setTabStopDistance(self.default_tab)
        if stops is not None:
            option.setTabs(sorted(stops, key=lambda t: t.position))
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


_EAST_ASIAN_PUNCTUATION = re.compile("[\u3000-\u303f\uff00-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65]")
AUTO_SPACE_EM = 0.22  # Word's gap between East Asian and Latin text (2.4 pt at 11 pt in the OpenChain handout)


def _auto_space(text: str, formats: list, letters: bool, digits: bool, gapped) -> list:
    """Formats with Word's automatic gap where East Asian text meets a Latin letter (letters) or a
    digit (digits): the character before each such boundary is set wider by the gap (gapped(cf, ch)
    gives its format)."""
    def latin(ch: str) -> bool:
        return (letters and ch.isascii() and ch.isalpha()) or (digits and ch.isdigit() and ch.isascii())

    def ideograph(ch: str) -> bool:  # East Asian, not its punctuation ("。OpenChain" has no gap in Word)
        return bool(EAST_ASIAN.match(ch)) and not _EAST_ASIAN_PUNCTUATION.match(ch)

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


def _hidden_whole(p, para, spans, shown_marks) -> bool:
    """Whether a paragraph is hidden whole: its mark hidden (w:vanish, w:specVanish) and nothing
    shown (no text but a list label, which takes the mark's format; shown_marks: its page breaks
    and drawings). Word lays out no line for it, as if it were not there (a contents page between
    hidden drafting notes keeps its place); a cell's paragraph keeps its line (a cell's end mark
    is never hidden)."""
    if not para.mark.hidden or shown_marks or any(sp.kind != "label" for sp in spans):
        return False
    return next(p.iterancestors(_W + "tc"), None) is None


def _shown_label(block) -> str | None:
    if block is None or not block.display_label:
        return None
    if block.kind == "listItem":
        return block.display_label
    if block.kind == "heading" and block.display_label != block.style_id:
        return block.display_label
    return None
