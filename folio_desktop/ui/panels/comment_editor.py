"""The field a comment is written in, inside its balloon beside the page, as in Word: a new comment
(the view's marks.draft) or one of the lawyer's own being edited (marks.editing). Enter starts a new
paragraph; Ctrl+Enter or the balloon's Post / Save button sends the text, Escape or Cancel drops it
and nothing is written. The field only collects the text: `submitted(text)` goes to the window's
comment commands, which change the document and then close() it.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QFont, QTextCursor
from PySide6.QtWidgets import QPlainTextEdit

from ..pages.geometry import DRAFT_ID
from ..pages.marks import Draft

FONT_PX = 11  # the balloons' body text, in layout px
OWN_KEYS = (Qt.Key_Return, Qt.Key_Enter, Qt.Key_Escape, Qt.Key_Backspace, Qt.Key_Delete)


class CommentField(QPlainTextEdit):
    """Keeps Enter, Backspace, Delete and Escape for itself whatever the modifiers, so no window
    shortcut fires from it (Ctrl+Enter inserts no paragraph in the pages, Ctrl+Shift+Enter accepts
    no change); Ctrl+Enter (send) and Escape (cancel) act once the key event is over."""

    submitted = Signal()
    cancelled = Signal()

    def event(self, event) -> bool:
        if event.type() == QEvent.ShortcutOverride and event.key() in OWN_KEYS:
            event.accept()
            return True
        return super().event(event)

    def keyPressEvent(self, event) -> None:  # noqa: N802 - Qt override
        key = event.key()
        send = key in (Qt.Key_Return, Qt.Key_Enter) and event.modifiers() & Qt.ControlModifier
        if send or key == Qt.Key_Escape:
            event.accept()
            QTimer.singleShot(0, self, (self.submitted if send else self.cancelled).emit)
            return
        super().keyPressEvent(event)


class CommentComposer(QObject):
    """Opens, places and closes the field over the balloon of the comment being written in a PageView."""

    submitted = Signal(str)  # the text, ends trimmed (never empty)
    closed = Signal()

    def __init__(self, view) -> None:
        super().__init__(view)
        self.view = view
        self.field = CommentField(view.viewport())
        self.field.setFrameShape(QPlainTextEdit.NoFrame)
        self.field.hide()
        self.field.submitted.connect(self.submit)
        self.field.cancelled.connect(self.close)
        self._page: int | None = None  # where the balloon was last seen
        self._swallow = False
        view.balloons.actionRequested.connect(self._on_button)
        view.viewport().installEventFilter(self)
        for bar in (view.verticalScrollBar(), view.horizontalScrollBar()):
            bar.valueChanged.connect(lambda _v: self.place())
        view.zoomChanged.connect(lambda _z: self.place())
        view.layoutFinished.connect(lambda _n: self.place())
        view.pagesRelaidOut.connect(lambda _a, _b: self.place())

    @property
    def is_open(self) -> bool:
        marks = self.view.marks
        return marks.draft is not None or marks.editing is not None

    def start_new(self, block_id: str, offset: int, author: str) -> None:
        """A balloon for a new comment pointing at accepted-view `offset` of a block, the keyboard in it."""
        self.close()
        view, marks = self.view, self.view.marks
        width = marks.markup_width()
        marks.draft = Draft(block_id, offset, author)
        marks.active = DRAFT_ID
        if marks.markup_width() != width:  # the first comment of the document: the markup area opens
            view.refresh_sheets()
        entries = view.flow.block_entries(block_id)
        self._page = view.flow.entries[entries[0]][0] if entries else None
        self._open("")

    def start_edit(self, comment_id: int, thread_id: int, text: str) -> None:
        """Its balloon shows the comment's text in the field, the caret at its end."""
        self.close()
        marks = self.view.marks
        marks.editing, marks.active = comment_id, thread_id
        self._page = None
        self._open(text)

    def _open(self, text: str) -> None:
        self.view.balloons.close_editor()
        self.field.setPlainText(text)
        self.field.moveCursor(QTextCursor.End)
        self.view.viewport().update()
        self.place()
        self._bring_into_view()
        self.field.setFocus(Qt.OtherFocusReason)

    def submit(self) -> None:
        text = self.field.toPlainText().strip()
        if self.is_open and text:
            self.submitted.emit(text)

    def close(self) -> None:
        """Drop the comment being written (nothing is written) and give the pages the keyboard back."""
        if not self.is_open:
            return
        view, marks = self.view, self.view.marks
        width, had_focus = marks.markup_width(), self.field.hasFocus()
        marks.draft = marks.editing = None
        if marks.active == DRAFT_ID:
            marks.active = None
        self.field.hide()
        if marks.markup_width() != width:
            view.refresh_sheets()
        view.viewport().update()
        if had_focus:
            view.setFocus(Qt.OtherFocusReason)
        self.closed.emit()

    def _on_button(self, _thread_id: int, name: str) -> None:
        if name in ("post", "save"):
            self.submit()
            if self.is_open:
                self.field.setFocus(Qt.OtherFocusReason)
        elif name == "cancel":
            self.close()

    # -- where the field goes ---------------------------------------------------------------------------

    def balloon(self):
        """(page number, balloon) of the comment being written, or None when no page shows it."""
        view, marks = self.view, self.view.marks
        if not self.is_open:
            return None
        near = self._page or view.current_page() or 1
        for i in sorted(range(len(view.pages)), key=lambda i: abs(i + 1 - near)):
            page = view.pages[i]
            if not marks.markup_width(page.view):
                continue
            found = next((b for b in marks.balloons(page) if b.composer is not None and not b.hidden), None)
            if found is not None:
                self._page = page.number
                return page.number, found
        return None

    def place(self) -> None:
        found = self.balloon()
        if found is None:
            self.field.hide()
            return
        number, balloon = found
        view = self.view
        top_left = view.page_to_viewport(number, balloon.composer.topLeft())
        bottom_right = view.page_to_viewport(number, balloon.composer.bottomRight())
        font = QFont("Liberation Sans")
        font.setPixelSize(max(round(FONT_PX * view.zoom), 6))
        self.field.setFont(font)
        self.field.setGeometry(QRectF(top_left, bottom_right).toRect())
        self.field.show()

    def _bring_into_view(self) -> None:
        """Scroll so the whole field shows (the markup area may lie right of the viewport)."""
        if not self.field.isVisible():
            return
        rect, area = self.field.geometry(), self.view.viewport().rect()
        h, v = self.view.horizontalScrollBar(), self.view.verticalScrollBar()
        if rect.right() > area.right() or rect.left() < 0:
            h.setValue(h.value() + rect.right() - area.right() + 12 if rect.left() >= 0 else h.value() + rect.left() - 12)
        if rect.bottom() > area.bottom() or rect.top() < 0:
            v.setValue(v.value() + rect.bottom() - area.bottom() + 12 if rect.top() >= 0 else v.value() + rect.top() - 12)

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt override
        # a click on the balloon being written (not on its buttons) keeps the keyboard in its field
        kind = event.type()
        if kind == QEvent.MouseButtonPress and event.button() == Qt.LeftButton and self.is_open:
            found = self.view.balloons.hit(event.position())
            if found is not None and found[1] is not None and found[1].composer is not None and found[2] is None:
                self._swallow = True
                self.field.setFocus(Qt.MouseFocusReason)
                return True
        if kind in (QEvent.MouseButtonRelease, QEvent.MouseMove) and self._swallow:
            self._swallow = kind != QEvent.MouseButtonRelease
            return True
        return False
