"""The selection and the caret in the pages: PageSelection, the page view's `selection`. Select a block,
a range, a tracked change or everything; read the selected text; copy it; move the caret to a page.

The caret is a TextPos, an index into the laid-out fragments; the document knows it as a Mark
(block id, accepted-view offset, and whether it stands after text shown struck through), which is
what survives laying the pages out again (PageView.relayout_blocks, PageEditor).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtWidgets import QApplication

from .marks import MARKED, accepted_offset, display_offset, span_groups
from .text_flow import TextPos, text_start


@dataclass(frozen=True)
class Mark:
    """A caret position as the document knows it."""

    block_id: str
    offset: int  # accepted-view str offset in the block's text
    after_deleted: bool = False  # drawn after struck-through text that stands at this offset


class PageSelection:
    """The page view's selection (view.selection): its two ends, the anchor and the caret, as
    positions in the view's text flow, and the x the caret keeps while it moves up and down lines."""

    def __init__(self, view):
        self.view = view  # the PageView: its text flow, review marks, scrolling and selectionChanged
        self.anchor: TextPos | None = None
        self.caret: TextPos | None = None
        self.desired_x: float | None = None  # the page x Up and Down keep to, set by the first of them

    # -- selection ------------------------------------------------------------------------------------

    def selection_text(self) -> str:
        """The selected text as it reads with the shown changes accepted (deleted text left out)."""
        if self.anchor is None or self.caret is None or self.anchor == self.caret:
            return ""
        # the Original view shows deleted text as text: a copy there takes it along
        return self.view.flow.text(self.anchor, self.caret, keep_deleted=self.view.markup_view == "original")

    def select_block(self, block_id: str) -> bool:
        flow = self.view.flow
        entries = flow.block_entries(block_id)
        if not entries:
            return False
        self.select(flow.start(entries[0]), flow.end(entries[-1]))
        return True

    def select_range(self, block_id: str, start: int, end: int) -> bool:
        """Select accepted-view [start, end) of a block, which may run over a page break."""
        flow = self.view.flow
        entries = flow.block_entries(block_id)
        if not entries:
            return False

        def position(offset: int, at_end: bool) -> TextPos:
            index = entries[-1]
            for candidate in entries:
                lo, hi = flow.entries[candidate][1].accepted_range
                if lo <= offset < hi or (at_end and lo < offset <= hi):
                    index = candidate
                    break
            return TextPos(index, display_offset(flow.entries[index][1].para, offset, end=at_end))

        self.select(position(start, False), position(end, True))
        return True

    def _ends(self) -> tuple[TextPos, TextPos] | None:
        if self.anchor is None or self.caret is None or not self.view.flow.entries:
            return None
        a, c = self.anchor, self.caret
        return (a, c) if a <= c else (c, a)

    def caret_block_id(self) -> str | None:
        """The block holding the caret (the start of a selection), or None without one."""
        ends = self._ends()
        return self.view.flow.frag(ends[0]).block_id if ends else None

    def selection_block_range(self) -> tuple[str, int, int] | None:
        """(block id, start, end) of a non-empty selection inside one block, in accepted-view str
        offsets (text shown as deleted maps to where it stood); None across blocks or without one."""
        ends = self._ends()
        if ends is None or ends[0] == ends[1]:
            return None
        first, last = (self.view.flow.frag(p) for p in ends)
        if first.block_id is None or first.block_id != last.block_id:
            return None
        start, end = accepted_offset(first.para, ends[0].offset), accepted_offset(last.para, ends[1].offset)
        return (first.block_id, start, end) if start < end else None

    def change_at_selection(self) -> int | None:
        """The census id of the tracked change under the selection's start or end, if any."""
        flow = self.view.flow
        for pos, back in ((self.anchor, 0), (self.caret, 1)):
            if pos is None or not flow.entries:
                continue
            found = self.view.marks.change_at(flow.frag(pos), max(pos.offset - back, 0))
            if found is not None:
                return found[0]
        return None

    def select_change(self, change) -> bool:
        """Select the redline of a census change and scroll to it; the whole block when its marks
        cannot be told apart (a paragraph mark, a formatting change). False when not shown."""
        if change is None or not change.block_id:
            return False
        flow = self.view.flow
        for index in flow.block_entries(change.block_id):
            frag = flow.entries[index][1]
            lo, hi = frag.display_range
            for start, end, _kind, _author in span_groups(frag.para, MARKED):
                if end <= lo or start >= hi:
                    continue  # drawn on the other page of a split paragraph
                found = self.view.marks.change_at(frag, start)
                if found is not None and found[0] == change.id:
                    s, e = max(found[1][0], lo), min(found[1][1], hi)
                    if not self.view.scroll_to_block(change.block_id, accepted_offset(frag.para, s)):
                        return False
                    self.select(TextPos(index, s), TextPos(index, e))
                    return True
        return self.view.scroll_to_block(change.block_id)

    def select_all(self) -> None:
        flow = self.view.flow
        if flow.entries:
            self.select(flow.start(0), flow.end(len(flow.entries) - 1))

    def clear_selection(self) -> None:
        self.select(None, None)

    def copy(self) -> None:
        text = self.selection_text()
        if text:
            QApplication.clipboard().setText(text)

    def select(self, anchor: TextPos | None, caret: TextPos | None) -> None:
        self.anchor, self.caret = anchor, caret
        self.view.viewport().update()
        self.view.selectionChanged.emit()

    # -- the caret as the document knows it ---------------------------------------------------------

    def caret_mark(self) -> Mark | None:
        return self.mark(self.caret)

    def anchor_mark(self) -> Mark | None:
        return self.mark(self.anchor)

    def selection_marks(self) -> tuple[Mark, Mark] | None:
        """(start, end) of a non-empty selection, in document order."""
        ends = self._ends()
        if ends is None or ends[0] == ends[1]:
            return None
        start, end = self.mark(ends[0]), self.mark(ends[1])
        return (start, end) if start is not None and end is not None else None

    def word_mark(self, direction: int) -> Mark | None:
        """Where Ctrl+Right (direction 1) or Ctrl+Left (-1) would take the caret."""
        return self.mark(self.view.flow.move_word(self.caret, direction)) if self.caret is not None else None

    def place_caret(self, caret: Mark, anchor: Mark | None = None) -> bool:
        """Put the caret (and the selection's other end) at document positions; False when the
        block is not laid out."""
        pos = self.unmark(caret)
        if pos is None:
            return False
        self.desired_x = None
        self.select(self.unmark(anchor) if anchor is not None else pos, pos)
        self.view.ensure_caret_visible()
        return True

    def mark(self, pos: TextPos | None) -> Mark | None:
        flow = self.view.flow
        if pos is None or not flow.entries:
            return None
        frag = flow.frag(pos)
        if frag.block_id is None:
            return None
        para, k = frag.para, pos.offset
        after = any(span.kind == "deleted" and span.start < k <= span.end for span in para.spans)
        return Mark(frag.block_id, accepted_offset(para, k), after)

    def unmark(self, mark: Mark | None) -> TextPos | None:
        if mark is None:
            return None
        flow = self.view.flow
        entries = flow.block_entries(mark.block_id)
        if not entries:
            return None
        para = flow.entries[entries[0]][1].para
        if any(flow.entries[i][1].para is not para for i in entries):
            # a block that joins paragraphs over deleted marks (docx/reading/accepted.py): the caret goes in
            # the paragraph holding the character it follows (or precedes, after struck text)
            target = mark.offset if mark.after_deleted or not mark.offset else mark.offset - 1
            para = next((flow.entries[i][1].para for i in entries
                         if flow.entries[i][1].accepted_range[0] <= target < flow.entries[i][1].accepted_range[1]),
                        flow.entries[entries[-1]][1].para)
            entries = [i for i in entries if flow.entries[i][1].para is para]
        if mark.after_deleted:
            display = display_offset(para, mark.offset)
        else:  # right after the character before it, ahead of any struck-through text
            display = display_offset(para, mark.offset, end=True) if mark.offset else 0
        display = max(display, text_start(flow.entries[entries[0]][1]))
        for index in entries:
            lo, hi = flow.entries[index][1].display_range
            if lo <= display < hi:
                return TextPos(index, display)
        index = entries[-1]
        lo, hi = flow.entries[index][1].display_range
        return TextPos(index, min(max(display, lo), hi))

    # -- pages ----------------------------------------------------------------------------------------

    def caret_page(self) -> int:
        """The page the caret is on (0 without a caret)."""
        flow = self.view.flow
        return flow.caret_rect(self.caret)[0] if self.caret is not None and flow.entries else 0

    def caret_to_page(self, number: int) -> bool:
        """Show page `number` from its top with the caret at its first body text (Go to page)."""
        flow = self.view.flow
        entries = flow.page_entries(number)
        if not entries:
            self.view.scroll_to_page(number)
            return False
        pos = flow.caret_start(entries[0])
        self.desired_x = None
        self.select(pos, pos)
        self.view.scroll_to_page(number)
        return True
