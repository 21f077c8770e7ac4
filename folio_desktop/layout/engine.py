"""Pagination: flow measured paragraphs and table rows into pages, section by section (spec §10).

Word's rules as far as a contract needs them: page and section breaks, pageBreakBefore, keepNext
chains, keepLines, widow and orphan control, space before dropped at the top of a flowed page,
contextual spacing, table rows that do not split when they fit on a page (with repeated header
rows), headers and footers per section (first page, even pages), footnotes at the foot of the page
of their reference, PAGE, NUMPAGES and SECTIONPAGES fields (page_numbers.py).

Here: the Paginator, its flow cursor (page, column, y) and the paragraphs' rules. Tables
(tables.py), footnotes (footnotes.py) and headers and footers (headers_footers.py) continue the
same flow in functions that take the Paginator, as floating.py's drawings do.
"""

from __future__ import annotations

from ..docx.model.formatting import Formatter
from ..docx.model.sections import (
    collapses_paragraph_spacing,
    compatibility_mode,
    even_and_odd_headers,
    read_sections,
)
from ..docx.package.ooxml import W_NS
from . import floating, footnotes, headers_footers, tables
from .borders import NO_PADS, close_frames
from .borders import pads as frame_pads
from .borders import piece as frame_piece
from .display_text import ACCEPTED_VIEWS
from .fonts import FontBook
from .headers_footers import uses_numpages
from .model import TWIP, Column, DocumentLayout, Fragment, MeasuredParagraph, Page
from .page_numbers import number_pages, section_counts
from .paragraph import ParagraphMeasurer, joined_away

_W = "{" + W_NS + "}"
T_P, T_TBL, T_SDT, T_SDT_CONTENT = (_W + t for t in ("p", "tbl", "sdt", "sdtContent"))
MIN_RUN_IN = 24.0  # px: less room than this after a run-in heading, and the paragraph starts its own line


class Paginator:
    """Flows one document's paragraphs and tables into pages, section by section: run() yields each
    page as it is completed; invalidate() and run(resume_page) lay out again after an edit."""

    def __init__(self, doc, fonts: FontBook | None = None, show_markup: bool = True, view: str | None = None,
                 colors: str = "author"):
        """view: the markup view (display_text.VIEWS; show_markup=False is "none"); colors: "author"
        or "kind" (insertions and deletions in two colours whoever made them)."""
        self.doc = doc
        self.fonts = fonts or FontBook()
        self.formatter = Formatter(doc)
        self.measurer = ParagraphMeasurer(doc, self.formatter, self.fonts, show_markup, view, colors)
        self.view = self.measurer.view
        self.snapshot = doc.snapshot()
        self.open_comments = _open_comments(doc)
        self.sections = read_sections(doc)
        self.even_odd = even_and_odd_headers(doc)
        self.collapse_spacing = collapses_paragraph_spacing(doc)
        # Word 2010 and earlier drop the space before a paragraph at the top of a page after a
        # manual page break too; Word 2013 keeps it (word-pdf/docxide-case10, compatibility mode 14)
        self.space_after_break = compatibility_mode(doc) >= 15
        self._measured: dict = {}  # paragraph -> {the rest of its measurement's key: MeasuredParagraph}
        self.note_numbers = footnotes.number_notes(doc)
        self._note_cache: dict = {}
        self._note_index: dict[str, dict] = {}
        self._header_cache: dict = {}
        self._story_paragraphs: dict = {}  # header or footer part -> [(w:p, shows a page field)]
        self.total_pages_hint = 0
        self.section_pages_hint: dict[int, int] = {}  # SECTIONPAGES: each section's count from the last flow

    # -- measurement -----------------------------------------------------------------------------

    def measure(self, p, width: float, table_style=None, cell=None, story="main", block=None,
                run_in: float | None = None) -> MeasuredParagraph:
        # keyed by the element itself (identity), so a removed paragraph's id can never be reused
        # body text follows the section's line grid; notes (and headers) do not
        pitch = self.section.grid_pitch if story == "main" and getattr(self, "section", None) else None
        grid = pitch * TWIP if pitch else 0.0
        # a note's paragraphs show its number, which renumbering after an edit can change
        mark = self._note_mark(story) if story != "main" else None
        # comment ranges that began in an earlier paragraph are still open here (multi-paragraph ranges)
        open_comments = self.open_comments.get(p, ())
        key = (round(width, 1), table_style, cell, grid, mark, open_comments,
               None if run_in is None else round(run_in, 1))
        known = self._measured.get(p)
        cached = known.get(key) if known is not None else None
        if cached is None:
            if known is None:
                known = self._measured[p] = {}
            start = 0
            joined = ()
            joined_open = None
            if block is None and story == "main":
                block = self.snapshot.block_of_paragraph.get(p)
                if block is not None and block.joined:
                    # paragraphs joined by deleted marks (docx/reading/accepted.py) read as one block, labelled
                    # as the paragraph whose mark survives. The views of the text as accepted lay them
                    # out as that one paragraph (as accept-all makes it); the others each on its own,
                    # with accepted offsets that run on over them
                    if self.view in ACCEPTED_VIEWS:
                        if block.element is not p:
                            known[key] = cached = joined_away()
                            return cached
                        joined = block.joined
                        if self.doc.related_part("comments") is not None:
                            joined_open = tuple(self.open_comments.get(q, ()) for q in block.paragraphs[1:])
                        open_comments = self.open_comments.get(joined[0], ())
                    else:
                        start = block.start_of(p)
                        block = block if block.element is p else None
            cached = self.measurer.measure(p, block, width, table_style, cell, self.note_numbers, grid, mark,
                                           open_comments, joined, joined_open, run_in)
            if start:
                cached.accepted = cached.accepted.shifted(start)
            known[key] = cached
        return cached

    def forget(self, paragraphs) -> None:
        """Drop the measurements of these paragraphs (an edit changed them)."""
        for p in paragraphs:
            self._measured.pop(p, None)

    def _note_mark(self, story: str) -> str | None:
        """The number a footnote:N / endnote:N story shows at its w:footnoteRef; None for other stories."""
        kind, _, note_id = story.partition(":")
        if kind not in ("footnote", "endnote") or not note_id.lstrip("-").isdigit():
            return None
        return self.note_numbers.get((kind, int(note_id)))

    def invalidate(self, paragraphs=()) -> set:
        """After an edit: forget the measurements of the given paragraphs and of every paragraph
        whose text or list label changed (renumbering), and re-read sections and note numbers.
        Returns the paragraphs forgotten: the pages that hold them must be laid out again."""
        stretch = self._invalidate_stretch(self.doc.snapshot(), paragraphs)
        if stretch is not None:
            return stretch
        old = {b.element: (b.text, b.display_label) for b in self.snapshot.blocks if b.element is not None}
        self.snapshot = self.doc.snapshot()
        stale = set(paragraphs)
        for block in self.snapshot.blocks:
            if block.element is not None and old.get(block.element) != (block.text, block.display_label):
                stale.add(block.element)
        # paragraphs joined by deleted marks are measured as one: an edit of any of them (a new join
        # too) is an edit of all
        for p in list(stale):
            block = self.snapshot.block_of_paragraph.get(p)
            if block is not None and block.joined:
                stale.update(block.paragraphs)
        self.forget(stale)
        self.open_comments = _open_comments(self.doc)
        self.sections = read_sections(self.doc)
        self.note_numbers = footnotes.number_notes(self.doc)
        self._note_cache = {}
        self._note_index = {}  # an edit may have added or removed notes
        self._story_paragraphs = {}  # or a header's paragraphs
        return stale

    def _invalidate_stretch(self, snapshot, paragraphs) -> set | None:
        """invalidate() after an edit that replaced a stretch of body paragraphs and left every other block
        the very object it was (a keystroke's Enter or Backspace: reading.splice): forget those paragraphs
        only and put the new ones in their section's place, without reading the body's sections, notes
        and comment ranges again (a tenth of a second on a 500-page contract); the paragraphs forgotten
        (those after it a renumbered list moved too). None, having changed nothing, for any other edit
        (a section break or a table in the stretch)."""
        old, new = self.snapshot.blocks, snapshot.blocks
        n = min(len(old), len(new))
        head = 0
        while head < n and old[head] is new[head]:
            head += 1
        tail = 0
        while tail < n - head and old[-1 - tail] is new[-1 - tail]:
            tail += 1
        gone, came = old[head:len(old) - tail], new[head:len(new) - tail]
        if not head or not tail or not (gone or came) or any(b.table is not None or b.element is None
                                                              for b in (*gone, *came)):
            return None
        body = self.doc.body
        lo, hi = new[head - 1].element, new[len(new) - tail].element
        if lo.getparent() is not body or hi.getparent() is not body:
            return None
        between = [el for el in body[body.index(lo) + 1:body.index(hi)] if isinstance(el.tag, str)]
        section = next((s for s in self.sections if lo in s.elements), None)
        if section is None or hi not in section.elements:
            return None
        first, last = section.elements.index(lo), section.elements.index(hi)
        stretch = {p for b in (*gone, *came) for p in b.paragraphs} | set(paragraphs)
        if first >= last or any((el.tag != T_P and el.tag not in _POINT_MARKS) or _breaks_section(el)
                                for el in (*section.elements[first + 1:last], *between, *stretch)):
            return None
        section.elements[first + 1:last] = between
        self.snapshot = snapshot
        self.forget(stretch)
        if not _same_notes(gone, came, between, self.note_numbers):
            self.note_numbers = footnotes.number_notes(self.doc)
        self.open_comments = _open_comments(self.doc)
        return stretch


    # -- the page flow ---------------------------------------------------------------------------------

    def run(self, resume_page: int | None = None):
        """Yield pages as they are completed (the view shows the first ones while the rest flow).

        With resume_page, the pages before it are kept and the flow restarts where that page
        started (after invalidate(), for an edit on or after it)."""
        kept: list[Page] = []
        start = None
        if resume_page is not None and resume_page > 1:
            start = self._restart_point(resume_page)
            if start is not None:
                kept = self.pages[:start[0] - 1]
        if start is None:
            self.restarts: dict[int, tuple[int, object]] = {}
        else:
            self.restarts = {n: r for n, r in self.restarts.items() if n < start[0]}
        self.pages = kept
        # pages of each section so far (headers ask for it on every page: counted as they come)
        self._section_pages: dict[int, int] = {}
        for page in kept:
            self._section_pages[page.section] = self._section_pages.get(page.section, 0) + 1
        self._page = None
        self._current = None
        self._note_carry: list = []
        self._frame_pieces: list = []  # the current page's bordered or shaded paragraphs (borders.py)
        for s_index, section in enumerate(self.sections):
            if start is not None and s_index < start[1]:
                continue
            self.section = section
            flow = list(self._flow_elements(section.elements))
            first = 0
            if start is not None and s_index == start[1]:
                first = flow.index(start[2])
                yield from self._new_page()
                self._gap_above = self._section_gap(s_index) if first == 0 else None
            else:
                continuous = section.break_type == "continuous" and self._page is not None and \
                    abs(self._page.width - section.page_width * TWIP) < 1 and \
                    abs(self._page.height - section.page_height * TWIP) < 1
                if not continuous:
                    yield from self._new_page(parity=section.break_type)
                    self._gap_above = self._section_gap(s_index)
                else:
                    self._set_columns(keep_y=True)
            start = None
            self._prev_para: MeasuredParagraph | None = None
            self._run_on = None  # (paragraph, its last fragment) whose hidden mark runs the next one on
            self._break_pending = False
            for element in flow[first:]:
                self._current = (s_index, element)
                if self._at_top and self._page.number not in self.restarts and not self._page.fragments_body() \
                        and not self._carried_in:
                    self.restarts[self._page.number] = (s_index, element)
                if self._break_pending:
                    self._break_pending = False
                    if not self._at_top:
                        yield from self._next_column_or_page(hard=True)
                        self.restarts.setdefault(self._page.number, (s_index, element))
                yield from self._place_element(element)
        if self._page is not None:
            self._finish_page()
            yield self._page

    def _restart_point(self, page: int):
        """(page number, section index, element) of the latest clean page start at or before page:
        a page whose body begins with the first line of a block that still exists."""
        for number in range(min(page, len(self.pages)), 1, -1):
            point = self.restarts.get(number)
            if point is None:
                continue
            s_index, element = point
            if s_index < len(self.sections) and element in list(self._flow_elements(self.sections[s_index].elements)):
                return number, s_index, element
        return None

    def _flow_elements(self, elements):
        for el in elements:
            if el.tag == T_SDT:
                content = el.find(T_SDT_CONTENT)
                if content is not None:
                    yield from self._flow_elements(list(content))
            elif el.tag in (T_P, T_TBL):
                yield el
            elif el.tag == _W + "customXml":
                yield from self._flow_elements(list(el))

    def _new_page(self, parity: str | None = None):
        if self._page is not None:
            self._finish_page()
            yield self._page
        number = len(self.pages) + 1
        if parity in ("evenPage", "oddPage") and self.pages:
            want_even = parity == "evenPage"
            if (number % 2 == 0) != want_even:  # Word inserts a blank page to reach the right parity
                blank = self._blank_page(number)
                number_pages(blank, self.pages[-1], self.sections)
                self._append_page(blank)
                yield blank
                number += 1
        s = self.section
        self._page = Page(number, s.page_width * TWIP, s.page_height * TWIP, s.index, view=self.view)
        number_pages(self._page, self.pages[-1] if self.pages else None, self.sections)
        self._page.media = floating.media_store(self)
        self._append_page(self._page)
        self._page_notes: list = []
        self._notes_height = 0.0
        self._flowed = False
        self._hard_break = False
        self._gap_above = None  # the space after that ends the section before, on a page a section opens
        self._header_bottom, self._footer_top = headers_footers.place_headers_footers(self)
        self._set_columns(keep_y=False)
        self._carried_in = bool(self._note_carry)
        if self._note_carry:
            footnotes.place_note_carry(self)

    def _append_page(self, page: Page) -> None:
        self.pages.append(page)
        self._section_pages[page.section] = self._section_pages.get(page.section, 0) + 1

    def _blank_page(self, number: int) -> Page:
        """The empty page Word adds before an odd- or even-page section: it belongs to the section
        before, so the new section's first page is still its first (titlePg headers)."""
        s = self.section
        previous = self.pages[-1].section if self.pages else s.index
        return Page(number, s.page_width * TWIP, s.page_height * TWIP, previous, view=self.view)

    def _finish_page(self) -> None:
        """Close the page's bordered or shaded paragraphs (borders.py) and stack its footnotes
        (footnotes.py)."""
        close_frames(self._page, self._frame_pieces)
        self._frame_pieces = []
        footnotes.stack_notes(self)

    def _set_columns(self, keep_y: bool) -> None:
        s = self.section
        left = (s.margin_left + s.gutter) * TWIP
        width = (s.page_width - s.margin_left - s.margin_right - s.gutter) * TWIP
        top = max(abs(s.margin_top) * TWIP, self._header_bottom)
        bottom = min((s.page_height - abs(s.margin_bottom)) * TWIP, self._footer_top)
        n = max(s.columns, 1)
        space = s.column_space * TWIP
        col_width = (width - space * (n - 1)) / n
        if keep_y:
            top = max(self._y, top)
        self._columns = [Column(left + i * (col_width + space), top, bottom, col_width) for i in range(n)]
        self._col = 0
        self._y = top
        self._at_top = not keep_y

    @property
    def _column(self) -> Column:
        return self._columns[self._col]

    def _next_column_or_page(self, hard: bool = False):
        self._flowed = not hard
        if self._col + 1 < len(self._columns):
            self._col += 1
            self._y = self._column.top
            self._at_top = True
            return
        yield from self._new_page()
        self._flowed = not hard
        self._hard_break = hard

    def _room(self) -> float:
        return self._column.bottom - self._notes_height - self._y

    # -- paragraphs ------------------------------------------------------------------------------------

    def _space_before(self, para: MeasuredParagraph) -> float:
        prev = self._prev_para
        if prev is not None and para.contextual_key is not None and prev.contextual_key == para.contextual_key:
            # no space between paragraphs of one style: the previous one's space after (already added) goes too
            return 0.0 if self._at_top else -prev.space_after
        if self._at_top and (self._flowed or (self._hard_break and not self.space_after_break)):
            return 0.0  # Word drops space before at the top of a page the text flowed onto
        if self._at_top and self._gap_above is not None:
            # on the page a section opens, Word keeps the space before less the space after that
            # ended the section before (word-pdf/docxide-case25, -26 in Word 2013's mode, -28 in Word
            # 2010's: 24 pt before a heading after 10 pt gives 14)
            return max(para.space_before - self._gap_above, 0.0)
        if para.auto_before and self._at_top and self._page.number == 1 and not self._page.fragments_body():
            return 0.0  # auto spacing adds nothing above the document's first paragraph
        if prev is not None and not self._at_top:
            after, before = prev.space_after, para.space_before
            if para.list_key is not None and prev.list_key == para.list_key:
                # auto spacing is not added between the items of a list (Word, LibreOffice)
                before = 0.0 if para.auto_before else before
                if prev.auto_after:  # already added: take it back
                    return self._gap(0.0, before) - after
            return self._gap(after, before)
        return para.space_before


    def _section_gap(self, s_index: int) -> float | None:
        """The space after the last paragraph of the section before s_index (None: the first section,
        or one that ends with a table)."""
        if s_index == 0:
            return None
        flow = list(self._flow_elements(self.sections[s_index - 1].elements))
        if not flow or flow[-1].tag != T_P:
            return None
        para = self.formatter.paragraph(flow[-1])
        return 14 * 96 / 72 if para.after_autospacing else para.space_after * TWIP

    def _gap(self, after: float, before: float) -> float:
        """Space to add before a paragraph whose predecessor's space after (already added) is after:
        with HTML paragraph auto spacing the larger of the two is the gap, not their sum."""
        return max(before - after, 0.0) if self.collapse_spacing else before

    def _place_element(self, element):
        run_on, self._run_on = self._run_on, None
        if element.tag == T_TBL:
            yield from tables.place_table(self, element)
            return
        run_in = self._run_in(run_on)
        para = self.measure(element, self._column.width, run_in=run_in[0] if run_in else None)
        if run_in is not None and (para.drawings or para.vanished):
            run_in = None  # (wrapped around a drawing, or not shown: on its own lines)
            para = self.measure(element, self._column.width)
        yield from self._place_paragraph(element, para, run_in=run_in)
        last = self._page.fragments[-1] if self._page.fragments else None
        if last is not None and last.para_element is element and last.para.runs_on \
                and last.last_line == len(last.para.lines) - 1:
            self._run_on = last

    def _run_in(self, frag: Fragment | None) -> tuple[float, float] | None:
        """(x from the column's left, baseline y) where a paragraph runs on after `frag`, the last
        fragment of one whose mark is hidden: on its last line, after its text (Word's style
        separator). None when there is no such paragraph on this column, or too little room is left
        on that line (the paragraph then starts a line of its own)."""
        if frag is None or not self._page.fragments or self._page.fragments[-1] is not frag:
            return None
        column = self._column
        if not column.x - 1 <= frag.x <= column.x + column.width:
            return None
        para = frag.para
        line = para.layout.lineAt(frag.last_line)
        end = frag.x + para.x + line.position().x() + line.naturalTextWidth() - column.x
        if column.width - end < MIN_RUN_IN:
            return None
        return end, frag.y + line.position().y() + line.ascent()

    def _ends_page_section(self, element) -> bool:
        """Whether this paragraph ends a section and the next section starts on a new page: nothing
        follows it on this page, so keepNext has nothing to keep it with (Word, LibreOffice)."""
        if element.find(f"{_W}pPr/{_W}sectPr") is None:
            return False
        nxt = self.section.index + 1
        return nxt < len(self.sections) and self.sections[nxt].break_type != "continuous"

    def _keep_chain_height(self, element, para: MeasuredParagraph) -> float:
        """Height of a keepNext chain starting here, up to the first two lines of the paragraph after it."""
        # the gaps are the ones the paragraphs will get (collapsed with the space after above)
        height = self._space_before(para) + para.content_height + para.space_after
        el = element
        guard = 0
        while para.keep_next and guard < 20:
            guard += 1
            el = el.getnext()
            while el is not None and el.tag not in (T_P, T_TBL):
                el = el.getnext()
            if el is None or el.tag != T_P:
                break
            nxt = self.measure(el, self._column.width)
            if nxt.vanished:  # left out of this view: the chain goes on past it
                continue
            prev, para = para, nxt
            gap = self._gap(prev.space_after, para.space_before)
            # a paragraph run on after a hidden mark shares its first line with the one before
            shared = para.lines[0].height + gap + prev.space_after if prev.runs_on else 0.0
            if para.keep_next and not self._ends_page_section(el):
                height += gap + para.content_height + para.space_after - shared
            else:
                # the chain ends with the lines that must open this paragraph's page: all of them
                # when keepLines (or widow control leaves no 2 + 1 split), else its first two
                whole = para.keep_lines or (para.widow_control and len(para.lines) <= 3)
                head = para.lines if whole else para.lines[:2]
                # (the last line fits when its text does: the spacing below it may run past the foot)
                height += gap + sum(line.height for line in head) - shared - head[-1].slack
        return height

    def _place_paragraph(self, element, para: MeasuredParagraph, story="main", block_id=None,
                         run_in: tuple[float, float] | None = None):
        """run_in: (x, baseline) of the line the paragraph's first line runs on into (_run_in)."""
        if para.vanished:  # a paragraph this view leaves out takes no room
            return
        if block_id is None:
            block = self.snapshot.block_of_paragraph.get(element)
            block_id = block.id if block is not None else None
        if run_in is not None:
            # its first line is the run-in heading's last: baselines level, no space between them
            first = para.layout.lineAt(0)
            self._y = run_in[1] - (first.position().y() + first.ascent())
            self._at_top = False
        elif para.page_break_before and not self._at_top:
            yield from self._next_column_or_page(hard=True)
        if para.keep_next and run_in is None and not self._at_top and not self._ends_page_section(element):
            chain = self._keep_chain_height(element, para)
            # a chain that fits on an empty page goes there whole (a figure with its caption);
            # one taller than a page is broken where the page ends, as in Word
            full = self._column.bottom - self._column.top
            if self._room() < chain <= full:
                yield from self._next_column_or_page()
        if para.drawings or self._page.drawings:  # floating drawings: placed here, text wrapped around them
            para = yield from floating.flow(self, element, para, story)
        space_before = self._space_before(para) if run_in is None else 0.0
        pad = frame_pads(self._prev_para, para, self._next_measured(element)) if para.frame is not None else NO_PADS
        lines = para.lines
        i = 0
        first_fragment = True
        while i < len(lines):
            if i > 0 and lines[i].page_break_before:
                yield from self._next_column_or_page(hard=True)
            room = self._room() - (space_before + pad.top if first_fragment else 0.0)
            fit = 0
            used = 0.0
            notes_extra = 0.0
            while i + fit < len(lines):
                line = lines[i + fit]
                if fit > 0 and line.page_break_before:
                    break
                extra = footnotes.notes_for_line(self, para, i + fit)
                if used + line.height - line.slack + notes_extra + extra > room + 0.01:
                    # the line may still end this page if its notes' first lines fit with it:
                    # the rest of them continues on the next page (Word)
                    least = footnotes.notes_for_line(self, para, i + fit, least=True)
                    if least < extra and used + line.height + notes_extra + least <= room + 0.01:
                        fit += 1
                    break
                used += line.height
                notes_extra += extra
                fit += 1
            remaining = len(lines) - i - fit
            if fit and remaining and not (i + fit < len(lines) and lines[i + fit].page_break_before):
                if para.keep_lines and i == 0 and not self._at_top and run_in is None:
                    fit = 0
                elif para.widow_control and len(lines) > 1:
                    if i == 0 and fit == 1 and not self._at_top and run_in is None:
                        fit = 0  # an orphan first line goes with the rest
                    elif remaining == 1 and fit > 1:
                        fit -= 1  # leave no widow on the next page
                        if i == 0 and fit == 1 and not self._at_top:
                            fit = 0
            if fit == 0:
                if self._at_top:
                    fit = 1  # a line taller than the page still has to go somewhere
                else:
                    yield from self._next_column_or_page()
                    first_fragment = False if i > 0 else first_fragment
                    space_before = 0.0
                    continue
            y0 = self._y + (space_before + pad.top if first_fragment else 0.0) - lines[i].y
            frag = Fragment(story, block_id, para, i, i + fit - 1, self._column.x, y0, element)
            self._page.fragments.append(frag)
            if para.frame is not None:
                self._frame_pieces.append(frame_piece(frag, pad, i == 0, i + fit == len(lines)))
            self._y = frag.bottom
            for k in range(i, i + fit):
                footnotes.take_notes(self, para, k)
            self._at_top = False
            first_fragment = False
            space_before = 0.0
            i += fit
            if i < len(lines) and not lines[i].page_break_before:
                yield from self._next_column_or_page()
        self._y += pad.bottom + para.space_after
        self._prev_para = para
        self._break_pending = para.page_break_after

    def _next_measured(self, element) -> MeasuredParagraph | None:
        """The paragraph that follows this one in the flow, measured (None before a table); one
        this view leaves out is passed over."""
        el = element.getnext()
        while el is not None:
            if el.tag == T_TBL:
                return None
            if el.tag == T_P:
                measured = self.measure(el, self._column.width)
                if not measured.vanished:
                    return measured
            el = el.getnext()
        return None

    # -- page counts (printed by headers and footers: headers_footers.py) --------------------------------

    def counts_stale(self) -> bool:
        """Whether headers or footers printed NUMPAGES / SECTIONPAGES counts that this flow's pages
        no longer have (another flow with settle_counts() puts them right)."""
        if not uses_numpages(self.doc):
            return False
        return self.total_pages_hint != len(self.pages) or \
            (self.section_pages_hint != section_counts(self.pages) and uses_numpages(self.doc, "SECTIONPAGES"))

    def settle_counts(self) -> None:
        self.total_pages_hint = len(self.pages)
        self.section_pages_hint = section_counts(self.pages)


def layout_document(doc, fonts: FontBook | None = None, show_markup: bool = True, *, view: str | None = None,
                    colors: str = "author") -> DocumentLayout:
    """Lay out the whole document (needs a QGuiApplication for fonts).

    view: "all" (redlines; the default), "simple" (the text as accepted, change bars), "none" (the
    text as accepted, nothing marked; show_markup=False means this too) or "original" (the text as
    if every change were rejected). colors: "author" (each author's colour) or "kind" (insertions
    blue, deletions red, moves green, formatting brown, whoever made them)."""
    paginator = Paginator(doc, fonts, show_markup, view, colors)
    pages = list(paginator.run())
    # NUMPAGES and SECTIONPAGES need the counts: a second, cheap pass when headers use them and they moved
    if paginator.counts_stale():
        paginator.settle_counts()
        pages = list(paginator.run())
    return DocumentLayout(pages, dict(paginator.fonts.substitutions), paginator)


_COMMENT_TAGS = (_W + "commentRangeStart", _W + "commentRangeEnd", T_P)


# markup that may stand between two body paragraphs and that the page flow passes over
_POINT_MARKS = frozenset(_W + t for t in (
    "bookmarkStart", "bookmarkEnd", "commentRangeStart", "commentRangeEnd", "proofErr", "permStart", "permEnd",
    "moveFromRangeStart", "moveFromRangeEnd", "moveToRangeStart", "moveToRangeEnd"))


def _breaks_section(p) -> bool:
    return p.find(f"{_W}pPr/{_W}sectPr") is not None


def _same_notes(gone, came, between, numbers: dict) -> bool:
    """Whether the note numbers stand after a stretch of paragraphs was replaced: it holds no note
    reference, or as many as before (the story walk's note counts into and out of it are the same: a
    split or a join moves none) and each one already numbered. Numbering them all again walks the
    whole body (a tenth of a second on a 500-page contract with hundreds of footnotes)."""
    refs = [ref for p in between for ref in p.iter(_W + "footnoteReference", _W + "endnoteReference")]
    if not refs:
        return True
    if not gone or not came or gone[0].walk is None or gone[-1].walk is None or came[0].walk is None \
            or came[-1].walk is None:
        return False
    if gone[0].walk[0][1:3] != came[0].walk[0][1:3] or gone[-1].walk[1][1:3] != came[-1].walk[1][1:3]:
        return False
    for ref in refs:
        raw = ref.get(_W + "id", "")
        kind = "footnote" if ref.tag.endswith("footnoteReference") else "endnote"
        if raw.lstrip("-").isdigit() and (kind, int(raw)) not in numbers:
            return False
    return True


def _open_comments(doc) -> dict:
    """Paragraph -> ids of the comment ranges open where it starts (a range that runs over several
    paragraphs), for the main story. Empty, and free, when the document has no comments."""
    if doc.related_part("comments") is None:
        return {}
    out: dict = {}
    open_ids: dict[str, None] = {}
    for el in doc.body.iter(*_COMMENT_TAGS):
        tag = el.tag
        if tag == T_P:
            if open_ids:
                out[el] = tuple(open_ids)
        elif tag == _COMMENT_TAGS[0]:
            open_ids[el.get(_W + "id")] = None
        else:
            open_ids.pop(el.get(_W + "id"), None)
    return out
