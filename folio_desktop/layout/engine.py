"""Pagination: flow measured paragraphs and table rows into pages, section by section (spec §10).

Word's rules as far as a contract needs them: page and section breaks, pageBreakBefore, keepNext
chains, keepLines, widow and orphan control, space before dropped at the top of a flowed page,
contextual spacing, table rows that do not split when they fit on a page (with repeated header
rows), headers and footers per section (first page, even pages), footnotes at the foot of the page
of their reference, PAGE, NUMPAGES and SECTIONPAGES fields (page_numbers.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QRectF

from ..docx.model.formatting import Formatter
from ..docx.model.sections import (
    collapses_paragraph_spacing,
    compatibility_mode,
    even_and_odd_headers,
    read_sections,
)
from ..docx.package.ooxml import W_NS, on_off
from ..docx.reading.accepted import table_deleted
from . import floating
from .borders import NO_PADS, TableBorders, cell_pads, close_frames
from .borders import pads as frame_pads
from .borders import piece as frame_piece
from .display_text import ACCEPTED_VIEWS
from .fonts import FontBook
from .model import TWIP, DocumentLayout, Fragment, MeasuredParagraph, Page
from .page_numbers import (
    PageNumbers,
    has_page_field,
    number_pages,
    page_field_results,
    section_counts,
    with_page_fields,
)
from .paragraph import ParagraphMeasurer, joined_away

_W = "{" + W_NS + "}"
T_P, T_TBL, T_TR, T_TC, T_SDT, T_SDT_CONTENT = (_W + t for t in ("p", "tbl", "tr", "tc", "sdt", "sdtContent"))
CELL_MARGIN = 108 * TWIP  # Word's default left/right cell margin
NOTE_SEPARATOR_GAP = 6.0
MIN_BODY_UNDER_NOTES = 96.0  # continued notes leave at least an inch of the page to its own text


@dataclass
class _Column:
    x: float
    top: float
    bottom: float
    width: float


class Paginator:
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
        self._measured: dict = {}
        self.note_numbers = self._number_notes()
        self._note_cache: dict = {}
        self._note_index: dict[str, dict] = {}
        self._header_cache: dict = {}
        self._story_paragraphs: dict = {}  # header or footer part -> [(w:p, shows a page field)]
        self.total_pages_hint = 0
        self.section_pages_hint: dict[int, int] = {}  # SECTIONPAGES: each section's count from the last flow

    # -- measurement -----------------------------------------------------------------------------

    def measure(self, p, width: float, table_style=None, cell=None, story="main", block=None) -> MeasuredParagraph:
        # keyed by the element itself (identity), so a removed paragraph's id can never be reused
        # body text follows the section's line grid; notes (and headers) do not
        pitch = self.section.grid_pitch if story == "main" and getattr(self, "section", None) else None
        grid = pitch * TWIP if pitch else 0.0
        # a note's paragraphs show its number, which renumbering after an edit can change
        mark = self._note_mark(story) if story != "main" else None
        # comment ranges that began in an earlier paragraph are still open here (multi-paragraph ranges)
        open_comments = self.open_comments.get(p, ())
        key = (p, round(width, 1), table_style, cell, grid, mark, open_comments)
        cached = self._measured.get(key)
        if cached is None:
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
                            self._measured[key] = cached = joined_away()
                            return cached
                        joined = block.joined
                        if self.doc.related_part("comments") is not None:
                            joined_open = tuple(self.open_comments.get(q, ()) for q in block.paragraphs[1:])
                        open_comments = self.open_comments.get(joined[0], ())
                    else:
                        start = block.start_of(p)
                        block = block if block.element is p else None
            cached = self.measurer.measure(p, block, width, table_style, cell, self.note_numbers, grid, mark,
                                           open_comments, joined, joined_open)
            if start:
                cached.accepted = cached.accepted.shifted(start)
            self._measured[key] = cached
        return cached

    def _note_mark(self, story: str) -> str | None:
        """The number a footnote:N / endnote:N story shows at its w:footnoteRef; None for other stories."""
        kind, _, note_id = story.partition(":")
        if kind not in ("footnote", "endnote") or not note_id.lstrip("-").isdigit():
            return None
        return self.note_numbers.get((kind, int(note_id)))

    def invalidate(self, paragraphs=()) -> None:
        """After an edit: forget the measurements of the given paragraphs and of every paragraph
        whose text or list label changed (renumbering), and re-read sections and note numbers."""
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
        self._measured = {k: v for k, v in self._measured.items() if k[0] not in stale}
        self.open_comments = _open_comments(self.doc)
        self.sections = read_sections(self.doc)
        self.note_numbers = self._number_notes()
        self._note_cache = {}
        self._note_index = {}  # an edit may have added or removed notes
        self._story_paragraphs = {}  # or a header's paragraphs

    def _number_notes(self) -> dict:
        numbers: dict = {}
        counters = {"footnote": 0, "endnote": 0}
        for ref in self.doc.body.iter(_W + "footnoteReference", _W + "endnoteReference"):
            kind = "footnote" if ref.tag.endswith("footnoteReference") else "endnote"
            raw = ref.get(_W + "id", "")
            if not raw.lstrip("-").isdigit():
                continue
            if (kind, int(raw)) not in numbers:
                counters[kind] += 1
                numbers[(kind, int(raw))] = str(counters[kind])
        return numbers

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
            else:
                continuous = section.break_type == "continuous" and self._page is not None and \
                    abs(self._page.width - section.page_width * TWIP) < 1 and \
                    abs(self._page.height - section.page_height * TWIP) < 1
                if not continuous:
                    yield from self._new_page(parity=section.break_type)
                else:
                    self._set_columns(keep_y=True)
            start = None
            self._prev_para: MeasuredParagraph | None = None
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
        self._header_bottom, self._footer_top = self._place_headers_footers()
        self._set_columns(keep_y=False)
        self._carried_in = bool(self._note_carry)
        if self._note_carry:
            self._place_note_carry()

    def _append_page(self, page: Page) -> None:
        self.pages.append(page)
        self._section_pages[page.section] = self._section_pages.get(page.section, 0) + 1

    def _blank_page(self, number: int) -> Page:
        """The empty page Word adds before an odd- or even-page section: it belongs to the section
        before, so the new section's first page is still its first (titlePg headers)."""
        s = self.section
        previous = self.pages[-1].section if self.pages else s.index
        return Page(number, s.page_width * TWIP, s.page_height * TWIP, previous, view=self.view)

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
        self._columns = [_Column(left + i * (col_width + space), top, bottom, col_width) for i in range(n)]
        self._col = 0
        self._y = top
        self._at_top = not keep_y

    @property
    def _column(self) -> _Column:
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

    def _cell_gap(self, after: float | None, para: MeasuredParagraph) -> float:
        """Space before a paragraph in a table cell, after the previous one's space after (None: the first)."""
        if after is None:
            return 0.0 if para.auto_before else para.space_before  # no auto spacing at the top of a cell
        return self._gap(after, para.space_before)

    def _gap(self, after: float, before: float) -> float:
        """Space to add before a paragraph whose predecessor's space after (already added) is after:
        with HTML paragraph auto spacing the larger of the two is the gap, not their sum."""
        return max(before - after, 0.0) if self.collapse_spacing else before

    def _space_after(self, para: MeasuredParagraph, nxt: MeasuredParagraph | None) -> float:
        if nxt is not None and para.contextual_key is not None and nxt.contextual_key == para.contextual_key:
            return 0.0
        return para.space_after

    def _place_element(self, element):
        if element.tag == T_TBL:
            yield from self._place_table(element)
        else:
            para = self.measure(element, self._column.width)
            yield from self._place_paragraph(element, para)

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
            if para.keep_next and not self._ends_page_section(el):
                height += gap + para.content_height + para.space_after
            else:
                # the chain ends with the lines that must open this paragraph's page: all of them
                # when keepLines (or widow control leaves no 2 + 1 split), else its first two
                whole = para.keep_lines or (para.widow_control and len(para.lines) <= 3)
                head = para.lines if whole else para.lines[:2]
                height += gap + sum(line.height for line in head)
        return height

    def _place_paragraph(self, element, para: MeasuredParagraph, story="main", block_id=None):
        if para.vanished:  # a paragraph this view leaves out takes no room
            return
        if block_id is None:
            block = self.snapshot.block_of_paragraph.get(element)
            block_id = block.id if block is not None else None
        if para.page_break_before and not self._at_top:
            yield from self._next_column_or_page(hard=True)
        if para.keep_next and not self._at_top and not self._ends_page_section(element):
            chain = self._keep_chain_height(element, para)
            full = self._column.bottom - self._column.top
            if chain > self._room() and chain <= full * 0.9:
                yield from self._next_column_or_page()
        if para.drawings or self._page.drawings:  # floating drawings: placed here, text wrapped around them
            para = yield from floating.flow(self, element, para, story)
        space_before = self._space_before(para)
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
                extra = self._notes_for_line(para, i + fit)
                if used + line.height + notes_extra + extra > room + 0.01:
                    # the line may still end this page if its notes' first lines fit with it:
                    # the rest of them continues on the next page (Word)
                    least = self._notes_for_line(para, i + fit, least=True)
                    if least < extra and used + line.height + notes_extra + least <= room + 0.01:
                        fit += 1
                    break
                used += line.height
                notes_extra += extra
                fit += 1
            remaining = len(lines) - i - fit
            if fit and remaining and not (i + fit < len(lines) and lines[i + fit].page_break_before):
                if para.keep_lines and i == 0 and not self._at_top:
                    fit = 0
                elif para.widow_control and len(lines) > 1:
                    if i == 0 and fit == 1 and not self._at_top:
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
                self._take_notes(para, k)
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

    # -- footnotes -----------------------------------------------------------------------------------

    def _note_paragraphs(self, kind: str, note_id: int):
        key = (kind, note_id)
        if key in self._note_cache:
            return self._note_cache[key]
        out = []
        note = self._note_elements(kind).get(str(note_id))
        if note is not None and kind == "footnote":
            for p in note.iter(T_P):
                out.append((p, self.measure(p, self._column.width, story=f"{kind}:{note_id}")))
        self._note_cache[key] = out
        return out

    def _note_elements(self, kind: str) -> dict:
        """w:id -> the w:footnote (or w:endnote) element, indexed once rather than searched per note."""
        index = self._note_index.get(kind)
        if index is None:
            index = {}
            part = self.doc.related_part(kind + "s")
            if part is not None:
                for note in self.doc.package.xml(part).iterchildren(_W + kind):
                    index.setdefault(note.get(_W + "id"), note)
            self._note_index[kind] = index
        return index

    def _line_notes(self, para: MeasuredParagraph, line_index: int):
        if not para.note_refs:  # (most paragraphs: asked for every line placed)
            return
        line = para.lines[line_index]
        for offset, kind, note_id in para.note_refs:
            if line.start <= offset < line.end and kind == "footnote":
                yield note_id, self._note_paragraphs(kind, note_id)

    def _notes_for_line(self, para: MeasuredParagraph, line_index: int, least: bool = False) -> float:
        """Height the footnotes referenced on this line add to the page: all of them, or with
        least, the smallest start that may stay with the line (the last note's opening lines)."""
        notes = list(self._line_notes(para, line_index)) if para.note_refs else None
        if not notes:
            return 0.0
        height = 0.0 if self._page_notes else NOTE_SEPARATOR_GAP * 2
        for n, (_note_id, paragraphs) in enumerate(notes):
            if least and n == len(notes) - 1:
                if self._note_carry:
                    return float("inf")  # notes already continue to the next page: no room to start another
                # under notes already on the page the note may go whole to the next one
                return height + (0.0 if self._page_notes else _note_head_height(paragraphs))
            height += _note_height(paragraphs)
        return height

    def _take_notes(self, para: MeasuredParagraph, line_index: int) -> None:
        """Give the page the notes referenced on this (placed) line, as much of them as fits
        under the text; the rest continues at the foot of the next page."""
        for note_id, paragraphs in self._line_notes(para, line_index):
            if not self._page_notes:
                self._notes_height += NOTE_SEPARATOR_GAP * 2
            if self._note_carry:  # an earlier note already continues: this one follows it there
                self._note_carry.append((note_id, [(p, m, 0) for p, m in paragraphs]))
                continue
            room = self._column.bottom - self._notes_height - self._y
            pieces = [(p, m, 0) for p, m in paragraphs]
            if self._page_notes and _note_height(paragraphs) > room + 0.01:
                # under notes the page already holds, one that does not fit whole goes whole to
                # the next page while its reference stays (LibreOffice: ILPA LPA page 41, note 17);
                # only a page's first note is split to keep its opening lines with the reference
                self._note_carry.append((note_id, pieces))
                continue
            taken, rest, height = _split_note(pieces, room)
            self._page_notes.append((note_id, taken))
            self._notes_height += height
            if rest:
                self._note_carry.append((note_id, rest))

    def _place_note_carry(self) -> None:
        """The notes held over from the page before open this page's footnote area (under a
        full-width continuation separator when the first of them is continued mid-way); what
        still does not fit goes on to the next page."""
        carry, self._note_carry = self._note_carry, []
        col = self._columns[0]
        self._notes_height += NOTE_SEPARATOR_GAP * 2
        _note_id, first_pieces = carry[0]
        if first_pieces and first_pieces[0][2] > 0:
            self._page_notes.append(("continuation", []))
        for note_id, pieces in carry:
            if self._note_carry:
                self._note_carry.append((note_id, pieces))
                continue
            room = col.bottom - col.top - self._notes_height - MIN_BODY_UNDER_NOTES
            taken, rest, height = _split_note(pieces, room)
            self._page_notes.append((note_id, taken))
            self._notes_height += height
            if rest:
                self._note_carry.append((note_id, rest))

    def _finish_page(self) -> None:
        """Stack the page's footnotes above its bottom margin, under a short separator rule
        (a full-width one above notes continued from the page before)."""
        page = self._page
        close_frames(page, self._frame_pieces)
        self._frame_pieces = []
        if not self._page_notes:
            return
        col = self._columns[0]
        y = col.bottom - self._notes_height
        continued = self._page_notes[0][0] == "continuation"
        page.rules.append(QRectF(col.x, y + NOTE_SEPARATOR_GAP, col.width if continued else min(144.0, col.width / 3),
                                 0.75))
        y += NOTE_SEPARATOR_GAP * 2
        for note_id, pieces in self._page_notes:
            if note_id == "continuation":
                continue
            for p, measured, first, last in pieces:
                frag = Fragment(f"footnote:{note_id}", p.get("{http://schemas.microsoft.com/office/word/2010/wordml}paraId"),
                                measured, first, last, col.x, y - measured.lines[first].y)
                page.fragments.append(frag)
                y = frag.bottom + (measured.space_after if last == len(measured.lines) - 1 else 0.0)

    # -- headers and footers -------------------------------------------------------------------------------

    def _header_ref(self, kind: str) -> str | None:
        s = self.section
        refs = s.headers if kind == "header" else s.footers
        number = self._page.number_value  # even pages are even by the number they print (Word)
        first_of_section = self._section_pages.get(s.index, 0) == 1  # this page is its section's first
        if s.title_page and first_of_section:
            return refs.first
        if self.even_odd and number % 2 == 0:
            return refs.even or refs.default
        return refs.default

    def _page_numbers(self, page: Page) -> PageNumbers:
        """The counts come from the last flow (a first flow shows the count so far, as Word does
        before its fields are updated); settle_counts() and a second flow make them final."""
        in_section = self._section_pages.get(page.section, 0)
        section = self.sections[page.section] if page.section < len(self.sections) else self.section
        return PageNumbers(page.number_value, section.page_number_format,
                           self.section_pages_hint.get(page.section) or in_section,
                           self.total_pages_hint or page.number)

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

    def _place_headers_footers(self) -> tuple[float, float]:
        s = self.section
        page = self._page
        left = (s.margin_left + s.gutter) * TWIP
        width = (s.page_width - s.margin_left - s.margin_right - s.gutter) * TWIP
        header_bottom, footer_top = 0.0, page.height
        for kind in ("header", "footer"):
            rid = self._header_ref(kind)
            if not rid:
                continue
            rel = next((r for r in self.doc.package.rels(self.doc.main_part) if r.id == rid), None)
            if rel is None or not self.doc.package.has_part(rel.target):
                continue
            paragraphs = self._story_paragraphs.get(rel.target)
            if paragraphs is None:  # a header's paragraphs, and whether each shows a page field: once per part
                root = self.doc.package.xml(rel.target)
                paragraphs = self._story_paragraphs[rel.target] = [
                    (p, has_page_field(p)) for p in root.iter(T_P) if _top_story_paragraph(p, root)]
            measured = []
            numbers = self._page_numbers(page)
            for p, fields in paragraphs:
                # a header is the same on every page that prints the same field results: measure it once
                key = (p, round(width, 1), page_field_results(p, numbers) if fields else ())
                measured_p = self._header_cache.get(key)
                if measured_p is None:
                    copy_p = with_page_fields(p, numbers)[0] if fields else p
                    measured_p = self.measurer.measure(copy_p, None, width, None, None, self.note_numbers)
                    self._header_cache[key] = measured_p
                measured.append((p, measured_p))
            # a footer's rule (a paragraph border) takes its room and is drawn, as in the body
            story = [m for _p, m in measured]
            pads = [frame_pads(story[i - 1] if i else None, m, story[i + 1] if i + 1 < len(story) else None)
                    if m.frame is not None else NO_PADS for i, m in enumerate(story)]
            total = sum(m.space_before + pad.top + m.content_height + pad.bottom + m.space_after
                        for (_p, m), pad in zip(measured, pads))
            if kind == "header":
                y = s.header * TWIP
                header_bottom = y + total
            else:
                y = page.height - s.footer * TWIP - total
                footer_top = y
            for (_p, m), pad in zip(measured, pads):
                y += m.space_before + pad.top
                frag = Fragment(f"{kind}:{rid}", None, m, 0, len(m.lines) - 1, left, y)
                page.fragments.append(frag)
                if m.frame is not None:
                    self._frame_pieces.append(frame_piece(frag, pad, True, True))
                if m.drawings:
                    floating.place_fragment_anchors(self, page, frag, _Column(left, 0.0, page.height, width))
                y = frag.bottom + pad.bottom + m.space_after
        return header_bottom, footer_top

    # -- tables ----------------------------------------------------------------------------------------------

    def _place_table(self, tbl):
        from ..docx.model.tables import row_cells, table_rows

        if self.view in ACCEPTED_VIEWS and table_deleted(tbl):
            # every row pending deletion: accept-all removes the table (and a deleted mark before it
            # joins across it), so it is not there to part the paragraphs around it
            return
        tblpr = tbl.find(_W + "tblPr")
        style_el = tblpr.find(_W + "tblStyle") if tblpr is not None else None
        style = style_el.get(_W + "val") if style_el is not None else None
        grid = [(_number(c.get(_W + "w")) or 0.0) * TWIP for c in tbl.findall(f"{_W}tblGrid/{_W}gridCol")]
        rows = list(table_rows(tbl))
        width = self._column.width
        if not grid or sum(grid) <= 0:
            cols = max((sum(c[2] for c in row_cells(r)) for r in rows), default=1)
            grid = [width / max(cols, 1)] * max(cols, 1)
        scale = min(1.0, width * 1.2 / sum(grid)) if sum(grid) > width * 1.2 else 1.0
        grid = [g * scale for g in grid]
        indent = 0.0
        if tblpr is not None:
            ind = tblpr.find(_W + "tblInd")
            if ind is not None and _number(ind.get(_W + "w")) is not None:
                indent = _number(ind.get(_W + "w")) * TWIP
        borders = TableBorders(self.formatter, tbl, [tr for tr in rows if not self._row_hidden(tr)], grid)
        header_rows: list = []
        row_count = len(rows)
        for r_index, tr in enumerate(rows):
            trpr = tr.find(_W + "trPr")
            if self._row_hidden(tr):
                continue
            measured_row = self._measure_row(tr, r_index, row_count, grid, style)
            borders.attach(measured_row, tr)
            if trpr is not None and on_off(trpr.find(_W + "tblHeader")) and r_index == len(header_rows):
                header_rows.append(measured_row)
            height = measured_row["height"]
            full = self._column.bottom - self._column.top
            cant_split = trpr is not None and on_off(trpr.find(_W + "cantSplit"))
            # a row that may split breaks across the page where it is (Word, LibreOffice); one that may not
            # moves, and so does one that cannot start here (no empty border box left at the page foot)
            if height > self._room() + 0.01 and not self._at_top and (cant_split or not self._row_starts(measured_row)):
                yield from self._next_column_or_page()
                self._repeat_headers(header_rows, measured_row, indent, borders)
            if height > self._room() + 0.01 and not (cant_split and height <= full):
                yield from self._emit_split_row(measured_row, header_rows, indent, borders)
            else:
                self._emit_row(measured_row, indent, borders)
        self._prev_para = None

    def _row_starts(self, row: dict) -> bool:
        """Whether some cell of a row can put its first line in the room left (its margins and the
        first paragraph's space before included). A row with no text at all starts anywhere."""
        room = self._room()
        empty = True
        for cell in row["cells"]:
            if not cell["paras"] or not cell["paras"][0][1].lines:
                continue
            empty = False
            m = cell["paras"][0][1]
            margins = cell["margins"]
            if margins["top"] + self._cell_gap(None, m) + m.lines[0].height + margins["bottom"] <= room + 0.01:
                return True
        return empty

    def _row_hidden(self, tr) -> bool:
        trpr = tr.find(_W + "trPr")
        return trpr is not None and (on_off(trpr.find(_W + "hidden")) or self._row_left_out(trpr))

    def _row_left_out(self, trpr) -> bool:
        """A row this view leaves out: a deleted row in an accepted view, an inserted one in Original."""
        if self.view in ("simple", "none"):
            return trpr.find(_W + "del") is not None
        if self.view == "original":
            return trpr.find(_W + "ins") is not None
        return False

    def _repeat_headers(self, header_rows, current, indent, borders) -> None:
        for hdr in header_rows:
            if hdr is not current:
                self._emit_row(hdr, indent, borders)

    def _emit_split_row(self, row: dict, header_rows, indent: float, borders: bool):
        """A row taller than the room left: its cells continue line by line on the next pages."""
        progress = [[(p, m, 0) for p, m in cell["paras"]] for cell in row["cells"]]
        while True:
            x0, y0 = self._column.x + indent, self._y
            room = self._room()
            used = 0.0
            remaining = False
            for cell, queue in zip(row["cells"], progress, strict=True):
                margins = cell["margins"]
                y = y0 + margins["top"]
                limit = y0 + room - margins["bottom"]
                rest = []
                after = None
                for p, m, start in queue:
                    if rest or y >= limit:
                        rest.append((p, m, start))
                        continue
                    if start == 0:
                        y += self._cell_gap(after, m)
                    end = start
                    while end < len(m.lines) and y + m.lines[end].height <= limit + 0.01:
                        y += m.lines[end].height
                        end += 1
                    if end == start and self._at_top and y0 == self._column.top:
                        y += m.lines[end].height  # a line taller than the page goes anyway
                        end += 1
                    if end > start:
                        x = x0 + cell["x"] + margins["left"]
                        top = y - sum(line.height for line in m.lines[start:end])
                        if isinstance(m, _NestedTable):
                            self._emit_nested(m, x, top, start, end - 1)
                        else:
                            block = self.snapshot.block_of_paragraph.get(p)
                            frag = Fragment("main", block.id if block is not None else None, m, start, end - 1,
                                            x, top - m.lines[start].y, p)
                            self._page.fragments.append(frag)
                    if end < len(m.lines):
                        rest.append((p, m, end))
                    else:
                        y += m.space_after
                        after = m.space_after
                used = max(used, y - y0 + margins["bottom"])
                queue[:] = rest
                remaining |= bool(rest)
            height = min(max(used, 4.0), room) if remaining else max(used, 4.0)
            if borders:
                borders.emit(self._page, row, x0, y0, height)
            self._y = y0 + height
            self._at_top = False
            if not remaining:
                return
            yield from self._next_column_or_page()
            self._repeat_headers(header_rows, row, indent, borders)

    def _measure_row(self, tr, r_index, row_count, grid, style) -> dict:
        from ..docx.model.tables import row_cells

        cells = []
        height = 0.0
        cell_list = row_cells(tr)
        table_margins = _margins(tr.getparent().find(f"{_W}tblPr/{_W}tblCellMar"), _DEFAULT_MARGINS)
        for tc, col, span, vmerge in cell_list:
            width = sum(grid[col:col + span]) if col < len(grid) else grid[-1]
            margins = _margins(tc.find(f"{_W}tcPr/{_W}tcMar"), table_margins)
            content_w = max(width - margins["left"] - margins["right"], 10.0)
            paras = []
            h = margins["top"] + margins["bottom"]
            if vmerge != "continue":
                after = None
                for p in _cell_blocks(tc):
                    if p.tag == T_TBL:
                        m = self._measure_nested(p, content_w)
                    else:
                        m = self.measure(p, content_w, style)  # the formatter finds the cell position itself
                        if m.vanished:
                            continue
                    paras.append((p, m))
                    before = self._cell_gap(after, m)
                    h += before + m.content_height + m.space_after
                    after = m.space_after
            pads = cell_pads(paras)
            if pads:
                h += sum(pad.top + pad.bottom for pad in pads)
            valign = tc.find(f"{_W}tcPr/{_W}vAlign")
            cells.append({"x": sum(grid[:col]), "width": width, "paras": paras, "vmerge": vmerge, "pads": pads,
                          "margins": margins, "fill": _cell_fill(tc), "content": h,
                          "valign": valign.get(_W + "val") if valign is not None else None})
            height = max(height, h)
        trpr = tr.find(_W + "trPr")
        if trpr is not None:
            th = trpr.find(_W + "trHeight")
            if th is not None and _number(th.get(_W + "val")) is not None:
                value = _number(th.get(_W + "val")) * TWIP
                height = value if th.get(_W + "hRule") == "exact" else max(height, value)
        return {"cells": cells, "height": max(height, 4.0)}

    def _emit_row(self, row: dict, indent: float, borders: bool, origin: tuple[float, float] | None = None) -> None:
        """Place a row at the flow position, or at `origin` (a row of a nested table, which leaves the
        flow position alone)."""
        x0, y0 = origin if origin is not None else (self._column.x + indent, self._y)
        page = self._page
        for cell in row["cells"]:
            y = y0 + cell["margins"]["top"]
            # a vertically merged cell spans rows not measured yet: it stays at the top
            spare = max(row["height"] - cell["content"], 0.0) if not cell["vmerge"] else 0.0
            y += {"center": spare / 2, "bottom": spare}.get(cell["valign"], 0.0)  # w:vAlign
            after = None
            x = x0 + cell["x"] + cell["margins"]["left"]
            pads = cell.get("pads")
            for k, (p, m) in enumerate(cell["paras"]):
                y += self._cell_gap(after, m)
                pad = pads[k] if pads else NO_PADS
                after = m.space_after
                if isinstance(m, _NestedTable):
                    self._emit_nested(m, x, y, 0, len(m.rows) - 1)
                    y += m.content_height
                    continue
                block = self.snapshot.block_of_paragraph.get(p)
                frag = Fragment("main", block.id if block is not None else None, m, 0, len(m.lines) - 1,
                                x, y + pad.top - m.lines[0].y, p)
                page.fragments.append(frag)
                if m.drawings:
                    floating.place_fragment_anchors(self, page, frag, self._column)
                if m.frame is not None:
                    self._frame_pieces.append(frame_piece(frag, pad, True, True))
                for line in range(len(m.lines)):
                    self._take_notes(m, line)
                y = frag.bottom + pad.bottom + m.space_after
            if cell.get("fill"):
                page.fills.append((QRectF(x0 + cell["x"], y0, cell["width"], row["height"]), cell["fill"]))
        if borders:
            borders.emit(page, row, x0, y0, row["height"])
        if origin is None:
            self._y = y0 + row["height"]
            self._at_top = False

    # -- nested tables ---------------------------------------------------------------------------------

    def _measure_nested(self, tbl, width: float) -> _NestedTable:
        """A table inside a cell: its rows side by side within the cell's width, as one block."""
        from ..docx.model.tables import table_rows

        tblpr = tbl.find(_W + "tblPr")
        style_el = tblpr.find(_W + "tblStyle") if tblpr is not None else None
        style = style_el.get(_W + "val") if style_el is not None else None
        grid = [(_number(c.get(_W + "w")) or 0.0) * TWIP for c in tbl.findall(f"{_W}tblGrid/{_W}gridCol")]
        rows = [tr for tr in table_rows(tbl) if tr.find(_W + "trPr") is None
                or not self._row_left_out(tr.find(_W + "trPr"))]
        if not grid or sum(grid) <= 0:
            from ..docx.model.tables import row_cells

            cols = max((sum(c[2] for c in row_cells(r)) for r in rows), default=1)
            grid = [width / max(cols, 1)] * max(cols, 1)
        if sum(grid) > width:
            grid = [g * width / sum(grid) for g in grid]
        measured = [self._measure_row(tr, i, len(rows), grid, style) for i, tr in enumerate(rows)]
        borders = TableBorders(self.formatter, tbl, rows, grid)
        for row, tr in zip(measured, rows, strict=True):
            borders.attach(row, tr)
        return _NestedTable(measured, borders)

    def _emit_nested(self, table: _NestedTable, x: float, y: float, first: int, last: int) -> None:
        for row in table.rows[first:last + 1]:
            self._emit_row(row, 0.0, table.borders, origin=(x, y))
            y += row["height"]


@dataclass
class _RowLine:
    y: float
    height: float


class _NestedTable:
    """A table inside a table cell, measured as a block whose "lines" are its rows, so the cell's
    flow (and a row split over pages) treats it like a paragraph that breaks between rows."""

    space_before = 0.0
    space_after = 0.0
    auto_before = False
    frame = None  # no paragraph borders of its own

    def __init__(self, rows: list[dict], borders):  # borders: borders.TableBorders
        self.rows = rows
        self.borders = borders
        self.lines: list[_RowLine] = []
        y = 0.0
        for row in rows:
            self.lines.append(_RowLine(y, row["height"]))
            y += row["height"]
        self.content_height = y


def _note_height(paragraphs) -> float:
    return sum(m.content_height + m.space_after for _p, m in paragraphs)


def _note_head_height(paragraphs) -> float:
    """The least of a note that may start on a page: its first line; under widow control its
    first two, or all of a note of three lines or fewer (which cannot split 2 + 2)."""
    if not paragraphs:
        return 0.0
    m = paragraphs[0][1]
    head = 1 if not m.widow_control else (2 if len(m.lines) > 3 else len(m.lines))
    return sum(line.height for line in m.lines[:head])


def _split_note(pieces, room: float):
    """Split a note's remaining paragraphs [(p, measured, first line)] at the room left: returns
    the placed pieces [(p, measured, first, last)], the rest to continue, and the placed height.
    A note paragraph under widow control leaves neither one line behind nor one line ahead."""
    taken, height = [], 0.0
    for index, (p, m, start) in enumerate(pieces):
        lines = m.lines
        end = start
        used = 0.0
        while end < len(lines) and height + used + lines[end].height <= room + 0.01:
            used += lines[end].height
            end += 1
        if end == len(lines):
            taken.append((p, m, start, end - 1))
            height += used + m.space_after
            continue
        if m.widow_control and end > start:
            if len(lines) - end == 1 and end - start > 1:
                end -= 1  # no widow on the next page
            if start == 0 and end == 1 and len(lines) > 1:
                end = 0  # no orphan here
        if end > start:
            taken.append((p, m, start, end - 1))
            height += sum(line.height for line in lines[start:end])
        rest = [(p, m, end)] + list(pieces[index + 1:])
        return taken, rest, height
    return taken, [], height


_DEFAULT_MARGINS = {"top": 0.0, "bottom": 0.0, "left": CELL_MARGIN, "right": CELL_MARGIN}


def _margins(el, base: dict) -> dict:
    """Cell margins in px from a w:tblCellMar / w:tcMar element over inherited ones."""
    out = dict(base)
    if el is None:
        return out
    for side, names in (("top", ("top",)), ("bottom", ("bottom",)), ("left", ("left", "start")),
                        ("right", ("right", "end"))):
        for name in names:
            m = el.find(_W + name)
            value = _number(m.get(_W + "w")) if m is not None else None
            if value is not None and m.get(_W + "type", "dxa") == "dxa":
                out[side] = value * TWIP
                break
    return out


def _number(raw: str | None) -> float | None:
    """A twips attribute; Google Docs writes decimals (w:w="144.0"), which Word and LibreOffice read."""
    try:
        return float(raw) if raw is not None else None
    except ValueError:
        return None


def _cell_fill(tc) -> str | None:
    """The cell's w:shd fill as "#RRGGBB" (None for none, auto or white)."""
    shd = tc.find(f"{_W}tcPr/{_W}shd")
    fill = shd.get(_W + "fill") if shd is not None else None
    if not fill or fill.lower() in ("auto", "ffffff") or len(fill) != 6:
        return None
    return "#" + fill.upper()


def _cell_blocks(tc):
    """A cell's paragraphs and nested tables in order (a content control's children included)."""
    for child in tc:
        if child.tag in (T_P, T_TBL):
            yield child
        elif child.tag == T_SDT:
            content = child.find(T_SDT_CONTENT)
            if content is not None:
                yield from (c for c in content if c.tag in (T_P, T_TBL))


def _top_story_paragraph(p, root) -> bool:
    anc = p.getparent()
    while anc is not None and anc is not root:
        if anc.tag in (_W + "txbxContent", "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"):
            return False
        anc = anc.getparent()
    return True


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


def uses_numpages(doc, *names: str) -> bool:
    """Whether a header or footer holds a field that prints a page count (NUMPAGES, SECTIONPAGES,
    or only the names given)."""
    wanted = tuple(n.encode() for n in names) or (b"NUMPAGES", b"SECTIONPAGES")
    for rel in doc.package.rels(doc.main_part):
        if rel.type.endswith(("/header", "/footer")) and doc.package.has_part(rel.target):
            data = doc.package.read(rel.target)
            if any(name in data for name in wanted):
                return True
    return False


_COMMENT_TAGS = (_W + "commentRangeStart", _W + "commentRangeEnd", T_P)


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
