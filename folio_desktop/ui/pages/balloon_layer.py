"""What the balloons do on a PageView: a click in the markup area selects a thread and its range in the
text (or a half of a move), Reply opens the inline reply field, the buttons the window acts on are
passed on (balloons.py lays the balloons out and paints them)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QLineEdit

from .balloons import Balloon, role_font
from .text_flow import TextPos


class _ReplyEditor(QLineEdit):
    """The inline reply field. It keeps Return, Backspace and Delete for itself, whatever the
    modifiers, so no window shortcut fires from it; Return and Enter (send) and Escape (cancel) are
    taken, never passed up to the pages it sits in, and acted on once the key event is over: the
    editor then closes and hands the focus back to the pages, which must not see the key."""

    submitted = Signal()
    cancelled = Signal()

    def event(self, event) -> bool:
        if event.type() == QEvent.ShortcutOverride and event.key() in (
                Qt.Key_Return, Qt.Key_Enter, Qt.Key_Backspace, Qt.Key_Delete, Qt.Key_Escape):
            event.accept()
            return True
        return super().event(event)

    def keyPressEvent(self, event) -> None:  # noqa: N802 - Qt override
        key = event.key()
        if key in (Qt.Key_Return, Qt.Key_Enter, Qt.Key_Escape):
            event.accept()
            done = self.cancelled if key == Qt.Key_Escape else self.submitted
            QTimer.singleShot(0, self, done.emit)
            return
        super().keyPressEvent(event)


class BalloonLayer(QObject):
    """Clicks in the markup area of a PageView: a balloon selects its thread and its range in the
    text; Reply opens an inline editor (Enter sends, Escape cancels); Resolve and Reopen act at
    once. The document is changed by whoever listens (the window's comment commands, so undo and
    the audit log see it): replyRequested(thread id, text), resolveRequested(thread id, resolved)."""

    replyRequested = Signal(int, str)
    resolveRequested = Signal(int, bool)
    actionRequested = Signal(int, str)  # (thread id, a button the window acts on: post, save, cancel, delete, edit)

    def __init__(self, view) -> None:
        super().__init__(view)
        self.view = view
        self.editor = _ReplyEditor(view.viewport())
        self.editor.setPlaceholderText("Reply…")
        self.editor.hide()
        self.editor.submitted.connect(self._send_reply)
        self.editor.cancelled.connect(self.close_editor)
        self._swallow = False
        self._editor_page: int | None = None  # where the balloon being replied to was last seen
        view.viewport().installEventFilter(self)
        for bar in (view.verticalScrollBar(), view.horizontalScrollBar()):
            bar.valueChanged.connect(lambda _v: self._place_editor())
        view.zoomChanged.connect(lambda _z: self._place_editor())
        view.layoutFinished.connect(lambda _n: self._place_editor())

    @property
    def marks(self):  # the view's ReviewIndex
        return self.view.marks

    # -- hits -------------------------------------------------------------------------------------

    def hit(self, point: QPointF) -> tuple[int, Balloon | None, str | None] | None:
        """(page number, balloon or None, button name or None) under a viewport point in a markup
        area; None anywhere else."""
        found = self.view.viewport_to_page(point)
        if found is None:
            return None
        number, at = found
        page = self.view.pages[number - 1]
        if at.x() < page.width or at.y() > page.height or self.marks.markup_width(page.view) <= 0:
            return None
        for b in self.marks.balloons(page):
            if b.rect.contains(at):
                button = next((name for name, r in b.buttons.items() if r.adjusted(-2, -2, 2, 2).contains(at)), None)
                return number, b, button
        return number, None, None

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt override
        kind = event.type()
        if kind in (QEvent.MouseButtonPress, QEvent.MouseButtonDblClick) and event.button() == Qt.LeftButton:
            found = self.hit(event.position())
            if found is None:
                return False
            self._swallow = True
            if kind == QEvent.MouseButtonPress:
                self._press(*found)
            return True
        if kind in (QEvent.MouseButtonRelease, QEvent.MouseMove) and self._swallow:
            if kind == QEvent.MouseButtonRelease:
                self._swallow = False
            return True
        return False

    def _press(self, number: int, balloon: Balloon | None, button: str | None) -> None:
        self.view.setFocus(Qt.MouseFocusReason)  # as a click in the text gives the pages the keyboard
        if balloon is not None and balloon.move:
            self.close_editor()
            self.activate(None)
            self.show_move(balloon)
            return
        if balloon is None:  # the empty markup area: nothing picked any more
            self.close_editor()
            self.activate(None)
            return
        thread_id = balloon.comment_id
        if button == "reply":
            self.open_editor(thread_id, number)
        elif button in ("resolve", "reopen"):
            self.close_editor()
            self.resolveRequested.emit(thread_id, button == "resolve")
        elif button is not None:
            self.close_editor()
            self.actionRequested.emit(thread_id, button)
        else:
            if self.marks.replying != thread_id:
                self.close_editor()
            self.show_comment(thread_id, scroll=bool(balloon.hidden))

    def show_move(self, balloon: Balloon) -> bool:
        """A move's label picks that half: its text is selected and the view's changeClicked says
        which change it is (the window then accepts or rejects the whole move from the Review menu)."""
        frag, offset = balloon.move_at
        found = self.marks.change_at(frag, offset)
        index = self.view.flow.index_of(frag)
        if found is None or index is None:
            return False
        change_id, (start, end) = found
        lo, hi = frag.display_range
        self.view.selection.select(TextPos(index, max(start, lo)), TextPos(index, min(end, hi)))
        self.view.changeClicked.emit(change_id)
        return True

    # -- state -------------------------------------------------------------------------------------

    def activate(self, thread_id: int | None) -> None:
        """Open and highlight a thread's balloon (None: no thread picked)."""
        if self.marks.active != thread_id:
            self.marks.active = thread_id
            self.view.viewport().update()
            self._place_editor()

    def show_comment(self, thread_id: int, scroll: bool = True, emit: bool = True) -> bool:
        """Pick a thread: its balloon opens and its whole range is selected in the text (found by the
        range itself, so two comments on the same words each select their own). Emits the view's
        commentClicked unless emit is False. False when the thread has no range in the pages."""
        self.activate(thread_id)
        found = self.selection_of(thread_id)
        if found is None:
            return False
        first, last = found
        if scroll:
            number, frag = self.view.flow.entries[first.index]
            self.view.scroll_to_page(number)
            self.view._show_page_point(number, QPointF(frag.x + frag.para.x, frag.top))
        self.view.selection.select(first, last)
        if emit:
            self.view.commentClicked.emit(thread_id)
        return True

    def selection_of(self, thread_id: int) -> tuple[TextPos, TextPos] | None:
        """Text positions of the start and end of a thread's own ranges in the body text."""
        marks, flow = self.marks, self.view.flow
        ranged = marks.ranged_ids()
        first = last = None
        for index, (_number, frag) in enumerate(flow.entries):
            para = frag.para
            if not para.comment_marks:
                continue
            lo, hi = frag.display_range
            for cid, a, b, _here in para.comment_marks:
                if marks.thread_of(cid) != thread_id or (cid != str(thread_id) and str(thread_id) in ranged):
                    continue
                s, e = max(a, lo), min(b, hi)
                if s > e or (s == e and not lo <= s <= hi):
                    continue
                if first is None or TextPos(index, s) < first:
                    first = TextPos(index, s)
                if last is None or TextPos(index, e) > last:
                    last = TextPos(index, e)
        return (first, last) if first is not None else None

    # -- the reply editor -----------------------------------------------------------------------------

    def open_editor(self, thread_id: int, page: int | None = None) -> None:
        """Open the reply field in a thread's balloon (on page `page`, when known) and focus it."""
        self.marks.active = self.marks.replying = thread_id
        self._editor_page = page
        self.editor.clear()
        self.view.viewport().update()
        self._place_editor()
        self.editor.setFocus(Qt.OtherFocusReason)

    def close_editor(self) -> None:
        if self.marks.replying is None and not self.editor.isVisible():
            return
        had_focus = self.editor.hasFocus()
        self.marks.replying = None
        self.editor.hide()
        self.view.viewport().update()
        if had_focus:
            self.view.setFocus(Qt.OtherFocusReason)

    def _send_reply(self) -> None:
        thread_id, text = self.marks.replying, self.editor.text().strip()
        if thread_id is None or not text:
            return
        self.close_editor()
        self.replyRequested.emit(thread_id, text)

    def _place_editor(self) -> None:
        thread_id = self.marks.replying
        if thread_id is None:
            self.editor.hide()
            return
        view = self.view
        near = self._editor_page or 1
        # the page it was on first, then its neighbours (an edit may have moved it), then any page
        order = sorted(range(len(view.pages)), key=lambda i: abs(i + 1 - near))
        for i in order:
            page = view.pages[i]
            balloon = next((b for b in self.marks.balloons(page) if b.comment_id == thread_id and b.editor
                            is not None and not b.hidden), None) if self.marks.markup_width(page.view) else None
            if balloon is None:
                continue
            self._editor_page = page.number
            top_left = view.page_to_viewport(page.number, balloon.editor.topLeft())
            bottom_right = view.page_to_viewport(page.number, balloon.editor.bottomRight())
            font = QFont(role_font("body"))
            font.setPixelSize(max(round(11 * view.zoom), 6))
            self.editor.setFont(font)
            self.editor.setGeometry(QRectF(top_left, bottom_right).toRect())
            self.editor.show()
            return
        self.editor.hide()
