"""Selection, caret, mouse and keyboard for PageView: select with the mouse (drag, shift+click,
double-click for a word) or the keyboard; move the caret by character, word (Ctrl+arrows), line,
Home/End, Ctrl+Home/End and PgUp/PgDn (Shift extends the selection); copy as text; click a tracked
change or comment to select it and report its id. Keys that edit go to the view's PageEditor
(page_editing.py), as does input-method text.

The caret is a TextPos, an index into the laid-out fragments; the document knows it as a Mark
(block id, accepted-view offset, and whether it stands after text shown struck through), which is
what survives laying the pages out again.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QApplication

from .geometry import text_edges
from .marks import MARKED, accepted_offset, display_offset, span_groups
from .text_flow import TextPos, text_start

NAVIGATION = (Qt.Key_Left, Qt.Key_Right, Qt.Key_Up, Qt.Key_Down, Qt.Key_Home, Qt.Key_End, Qt.Key_PageUp,
              Qt.Key_PageDown)


@dataclass(frozen=True)
class Mark:
    """A caret position as the document knows it."""

    block_id: str
    offset: int  # accepted-view str offset in the block's text
    after_deleted: bool = False  # drawn after struck-through text that stands at this offset


STORY_NOTICE = {
    "header": "Headers and footers cannot be edited here yet; edit them in Word. The body text can be typed in.",
    "footer": "Headers and footers cannot be edited here yet; edit them in Word. The body text can be typed in.",
    "footnote": "Footnotes cannot be edited here yet; edit them in Word. The body text can be typed in.",
    "endnote": "Endnotes cannot be edited here yet; edit them in Word. The body text can be typed in.",
}


class SelectionMixin:
    """Mixed into PageView (before QAbstractScrollArea); uses its flow, marks, pages and signals."""

    editor = None  # a PageEditor when the pages can be typed in

    # -- selection ------------------------------------------------------------------------------------

    def selection_text(self) -> str:
        """The selected text as it reads with the shown changes accepted (deleted text left out)."""
        if self._anchor is None or self._caret is None or self._anchor == self._caret:
            return ""
        # the Original view shows deleted text as text: a copy there takes it along
        return self._flow.text(self._anchor, self._caret, keep_deleted=self.markup_view == "original")

    def select_block(self, block_id: str) -> bool:
        entries = self._flow.block_entries(block_id)
        if not entries:
            return False
        self._select(self._flow.start(entries[0]), self._flow.end(entries[-1]))
        return True

    def select_range(self, block_id: str, start: int, end: int) -> bool:
        """Select accepted-view [start, end) of a block, which may run over a page break."""
        flow = self._flow
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

        self._select(position(start, False), position(end, True))
        return True

    def _ends(self) -> tuple[TextPos, TextPos] | None:
        if self._anchor is None or self._caret is None or not self._flow.entries:
            return None
        a, c = self._anchor, self._caret
        return (a, c) if a <= c else (c, a)

    def caret_block_id(self) -> str | None:
        """The block holding the caret (the start of a selection), or None without one."""
        ends = self._ends()
        return self._flow.frag(ends[0]).block_id if ends else None

    def selection_block_range(self) -> tuple[str, int, int] | None:
        """(block id, start, end) of a non-empty selection inside one block, in accepted-view str
        offsets (text shown as deleted maps to where it stood); None across blocks or without one."""
        ends = self._ends()
        if ends is None or ends[0] == ends[1]:
            return None
        first, last = (self._flow.frag(p) for p in ends)
        if first.block_id is None or first.block_id != last.block_id:
            return None
        start, end = accepted_offset(first.para, ends[0].offset), accepted_offset(last.para, ends[1].offset)
        return (first.block_id, start, end) if start < end else None

    def change_at_selection(self) -> int | None:
        """The census id of the tracked change under the selection's start or end, if any."""
        for pos, back in ((self._anchor, 0), (self._caret, 1)):
            if pos is None or not self._flow.entries:
                continue
            found = self._marks.change_at(self._flow.frag(pos), max(pos.offset - back, 0))
            if found is not None:
                return found[0]
        return None

    def select_change(self, change) -> bool:
        """Select the redline of a census change and scroll to it; the whole block when its marks
        cannot be told apart (a paragraph mark, a formatting change). False when not shown."""
        if change is None or not change.block_id:
            return False
        flow = self._flow
        for index in flow.block_entries(change.block_id):
            frag = flow.entries[index][1]
            lo, hi = frag.display_range
            for start, end, _kind, _author in span_groups(frag.para, MARKED):
                if end <= lo or start >= hi:
                    continue  # drawn on the other page of a split paragraph
                found = self._marks.change_at(frag, start)
                if found is not None and found[0] == change.id:
                    s, e = max(found[1][0], lo), min(found[1][1], hi)
                    if not self.scroll_to_block(change.block_id, accepted_offset(frag.para, s)):
                        return False
                    self._select(TextPos(index, s), TextPos(index, e))
                    return True
        return self.scroll_to_block(change.block_id)

    def select_all(self) -> None:
        if self._flow.entries:
            self._select(self._flow.start(0), self._flow.end(len(self._flow.entries) - 1))

    def clear_selection(self) -> None:
        self._select(None, None)

    def copy(self) -> None:
        text = self.selection_text()
        if text:
            QApplication.clipboard().setText(text)

    def set_highlights(self, hits) -> None:
        """Highlight search hits: [(block_id, start, end), ...] in accepted-view offsets."""
        self._highlights = {}
        for block_id, start, end in hits:
            self._highlights.setdefault(block_id, []).append((start, end))
        self.viewport().update()

    def _select(self, anchor: TextPos | None, caret: TextPos | None) -> None:
        self._anchor, self._caret = anchor, caret
        self.viewport().update()
        self.selectionChanged.emit()

    # -- the caret as the document knows it ---------------------------------------------------------

    def caret_mark(self) -> Mark | None:
        return self._mark(self._caret)

    def anchor_mark(self) -> Mark | None:
        return self._mark(self._anchor)

    def selection_marks(self) -> tuple[Mark, Mark] | None:
        """(start, end) of a non-empty selection, in document order."""
        ends = self._ends()
        if ends is None or ends[0] == ends[1]:
            return None
        start, end = self._mark(ends[0]), self._mark(ends[1])
        return (start, end) if start is not None and end is not None else None

    def word_mark(self, direction: int) -> Mark | None:
        """Where Ctrl+Right (direction 1) or Ctrl+Left (-1) would take the caret."""
        return self._mark(self._flow.move_word(self._caret, direction)) if self._caret is not None else None

    def place_caret(self, caret: Mark, anchor: Mark | None = None) -> bool:
        """Put the caret (and the selection's other end) at document positions; False when the
        block is not laid out."""
        pos = self._unmark(caret)
        if pos is None:
            return False
        self._desired_x = None
        self._select(self._unmark(anchor) if anchor is not None else pos, pos)
        self._ensure_caret_visible()
        return True

    def _mark(self, pos: TextPos | None) -> Mark | None:
        if pos is None or not self._flow.entries:
            return None
        frag = self._flow.frag(pos)
        if frag.block_id is None:
            return None
        para, k = frag.para, pos.offset
        after = any(span.kind == "deleted" and span.start < k <= span.end for span in para.spans)
        return Mark(frag.block_id, accepted_offset(para, k), after)

    def _unmark(self, mark: Mark | None) -> TextPos | None:
        if mark is None:
            return None
        flow = self._flow
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

    # -- mouse ----------------------------------------------------------------------------------------

    def _locate(self, point: QPointF) -> TextPos | None:
        hit = self.viewport_to_page(point)
        return self._flow.locate(self.pages[hit[0] - 1], hit[1]) if hit else None

    def mousePressEvent(self, event) -> None:  # noqa: N802
        if event.button() != Qt.LeftButton:
            return super().mousePressEvent(event)
        self.setFocus(Qt.MouseFocusReason)
        self._press, self._dragging, self._desired_x = event.position(), False, None
        pos = self._locate(event.position())
        if pos is not None and event.modifiers() & Qt.ShiftModifier and self._anchor is not None:
            self._select(self._anchor, pos)
        else:
            self._select(pos, pos)

    def mouseMoveEvent(self, event) -> None:  # noqa: N802
        if self._press is None:
            return
        if (event.position() - self._press).manhattanLength() >= 3:
            self._dragging = True
        if not self._dragging or self._anchor is None:
            return
        y, vh = event.position().y(), self.viewport().height()
        if y < 0 or y > vh:  # dragging past the edge scrolls
            v = self.verticalScrollBar()
            v.setValue(v.value() + round(y if y < 0 else y - vh))
        pos = self._locate(event.position())
        if pos is not None:
            self._select(self._anchor, pos)

    def mouseReleaseEvent(self, event) -> None:  # noqa: N802
        if event.button() == Qt.LeftButton and self._press is not None and not self._dragging:
            self._click(event.position())
        self._press = None

    def mouseDoubleClickEvent(self, event) -> None:  # noqa: N802
        story = self._story_at(event.position())
        if story is not None:
            self.editingNotice.emit(STORY_NOTICE.get(story.split(":")[0], STORY_NOTICE["header"]))
            return
        pos = self._locate(event.position())
        if pos is not None:
            self._select(*self._flow.word_at(pos))

    def _story_at(self, point: QPointF) -> str | None:
        """The header, footer or note story under a viewport point, if the point is on one."""
        hit = self.viewport_to_page(point)
        if hit is None:
            return None
        for frag in self.pages[hit[0] - 1].fragments:
            if frag.story != "main" and frag.rect.contains(hit[1]):
                return frag.story
        return None

    def _click(self, point: QPointF) -> None:
        """A click on a comment balloon, a tracked change or commented text says which it is. In pages
        that can be typed in the caret stays where the click put it (as in Word: a click into a
        pending insertion to fix a typo must not select the whole insertion); read-only pages select
        the change or the commented text."""
        hit = self.viewport_to_page(point)
        if hit is None:
            return
        page = self.pages[hit[0] - 1]
        for balloon in self._marks.balloons(page, text_edges(page)[1]):
            if balloon.comment_id is not None and balloon.rect.adjusted(-3, -3, 3, 3).contains(hit[1]):
                self.commentClicked.emit(balloon.comment_id)
                return
        pos = self._flow.char_at(page, hit[1])
        if pos is None:
            return
        frag = self._flow.frag(pos)
        found = self._marks.change_at(frag, pos.offset)
        signal = self.changeClicked
        if found is None:
            found, signal = self._marks.comment_at(frag, pos.offset), self.commentClicked
        if found is None:
            return
        item_id, (start, end) = found
        lo, hi = frag.display_range
        if self.editor is None:
            self._select(TextPos(pos.index, max(start, lo)), TextPos(pos.index, min(end, hi)))
        signal.emit(item_id)

    # -- keyboard -------------------------------------------------------------------------------------

    def keyPressEvent(self, event) -> None:  # noqa: N802
        editor = self.editor
        if event.matches(QKeySequence.Copy):
            self.copy()
        elif editor is not None and event.matches(QKeySequence.Cut):
            editor.cut()
        elif editor is not None and event.matches(QKeySequence.Paste):
            editor.paste()
        elif editor is not None and event.key() not in NAVIGATION and editor.key(event):
            pass  # typed, deleted, a new paragraph or a line break
        elif event.matches(QKeySequence.SelectAll):
            self.select_all()
        elif event.matches(QKeySequence.ZoomIn) or (event.modifiers() & Qt.ControlModifier
                                                    and event.key() == Qt.Key_Equal):
            self.zoom_in()
        elif event.matches(QKeySequence.ZoomOut):
            self.zoom_out()
        elif event.modifiers() & Qt.ControlModifier and event.key() == Qt.Key_0:
            self.set_zoom(1.0)
        elif event.key() == Qt.Key_Escape and self._anchor is not None:
            if editor is not None and self._caret is not None:
                self._select(self._caret, self._caret)  # pages one types in keep their caret
            else:
                self.clear_selection()
        elif not (event.key() in NAVIGATION and self._move_caret(event)):
            super().keyPressEvent(event)

    def _move_caret(self, event) -> bool:
        key, mods = event.key(), event.modifiers()
        shift, ctrl = bool(mods & Qt.ShiftModifier), bool(mods & Qt.ControlModifier)
        if ctrl and key in (Qt.Key_Home, Qt.Key_End):
            self.finish_layout()  # the real end, not the end of the pages laid out so far
        if not self._flow.entries:
            return False
        if self._caret is None:  # no caret yet: keys start from the top of what is on screen
            self._caret = self._anchor = self._first_visible()
        caret, anchor, flow = self._caret, self._anchor, self._flow
        if key in (Qt.Key_Up, Qt.Key_Down):
            if self._desired_x is None:
                self._desired_x = flow.page_x(caret)
            new = flow.move_line(caret, -1 if key == Qt.Key_Up else 1, self._desired_x)
        elif key in (Qt.Key_PageUp, Qt.Key_PageDown):
            new = self._page_move(caret, -1 if key == Qt.Key_PageUp else 1)
        else:
            self._desired_x = None
            if key in (Qt.Key_Left, Qt.Key_Right) and not shift and anchor != caret and not ctrl:
                first, last = sorted((anchor, caret))
                new = first if key == Qt.Key_Left else last  # collapse the selection
            elif key in (Qt.Key_Left, Qt.Key_Right):
                step = -1 if key == Qt.Key_Left else 1
                new = flow.move_word(caret, step) if ctrl else flow.move_char(caret, step)
            elif key in (Qt.Key_Home, Qt.Key_End) and ctrl:
                new = flow.document_start() if key == Qt.Key_Home else flow.document_end()
            elif key in (Qt.Key_Home, Qt.Key_End):
                new = flow.line_edge(caret, end=key == Qt.Key_End)
            else:
                return False
        self._select(anchor if shift else new, new)
        self._ensure_caret_visible()
        return True

    def caret_page(self) -> int:
        """The page the caret is on (0 without a caret)."""
        return self._flow.caret_rect(self._caret)[0] if self._caret is not None and self._flow.entries else 0

    def caret_to_page(self, number: int) -> bool:
        """Show page `number` from its top with the caret at its first body text (Go to page)."""
        entries = self._flow.page_entries(number)
        if not entries:
            self.scroll_to_page(number)
            return False
        pos = self._flow.caret_start(entries[0])
        self._desired_x = None
        self._select(pos, pos)
        self.scroll_to_page(number)
        return True

    def _first_visible(self) -> TextPos:
        """The body text nearest the top left of what the viewport shows."""
        pos = self._locate(QPointF(self.viewport().width() / 2, 24.0))
        return pos if pos is not None else self._flow.document_start()

    def _page_move(self, caret: TextPos, delta: int) -> TextPos:
        """PgDn / PgUp: scroll a screen and put the caret where it was on the screen."""
        number, rect = self._flow.caret_rect(caret)
        point = self.page_to_viewport(number, QPointF(rect.center()))
        v = self.verticalScrollBar()
        before = v.value()
        self._scroll_to_canvas_y(before + delta * self.viewport().height())
        moved = v.value() - before
        if not moved:
            return self._flow.document_start() if delta < 0 else self._flow.document_end()
        y = min(max(point.y(), 1.0), self.viewport().height() - 1.0)
        found = self._locate(QPointF(point.x(), y))
        return found if found is not None else caret

    def focusNextPrevChild(self, forward: bool) -> bool:  # noqa: N802 - Qt override
        # Tab types a tab in the pages (as in Word) instead of moving the focus on
        return False if self.editor is not None else super().focusNextPrevChild(forward)

    # -- input methods (CJK and other composed text) -----------------------------------------------

    def inputMethodEvent(self, event) -> None:  # noqa: N802 - Qt override
        if self.editor is not None and event.commitString():
            self.editor.type_text(event.commitString())
        event.accept()

    def inputMethodQuery(self, query):  # noqa: N802 - Qt override
        if query == Qt.ImEnabled:
            return self.editor is not None
        if query in (Qt.ImCursorRectangle, Qt.ImAnchorRectangle) and self._caret is not None:
            number, rect = self._flow.caret_rect(self._caret)
            top = self.page_to_viewport(number, rect.topLeft())
            return QRectF(top.x(), top.y(), 1.0, rect.height() * self.zoom)
        if query == Qt.ImHints:
            return int(Qt.ImhMultiLine)
        return super().inputMethodQuery(query)
