"""The chat composer: Enter sends, Shift+Enter breaks the line, Up/Down recall earlier messages."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QPlainTextEdit, QSizePolicy


class Composer(QPlainTextEdit):
    """The message box: Enter sends, Shift+Enter breaks the line; Up on the first line and Down on
    the last line walk through the messages sent before (the draft is kept)."""

    submitted = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.history: list[str] = []
        self._index: int | None = None  # position in history while recalling; None: the draft
        self._draft = ""
        self.setPlaceholderText("Ask Claude about this contract… (Enter sends, Shift+Enter for a new line)")
        self.setTabChangesFocus(True)
        self.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Fixed)
        self.setFixedHeight(86)

    def remember(self, text: str) -> None:
        if text and (not self.history or self.history[-1] != text):
            self.history.append(text)
        self._index = None
        self._draft = ""

    def keyPressEvent(self, event) -> None:  # noqa: N802 - Qt override
        key, mods = event.key(), event.modifiers()
        if key in (Qt.Key_Return, Qt.Key_Enter):
            if mods & Qt.ShiftModifier:
                self.textCursor().insertText("\n")
            elif not mods & (Qt.ControlModifier | Qt.AltModifier | Qt.MetaModifier):
                self.submitted.emit(self.toPlainText())
            return
        if key == Qt.Key_Up and not mods & Qt.ShiftModifier and self._on_edge_line(first=True) and self._recall(-1):
            return
        if key == Qt.Key_Down and not mods & Qt.ShiftModifier and self._on_edge_line(first=False) \
                and self._recall(1):
            return
        super().keyPressEvent(event)

    def _on_edge_line(self, first: bool) -> bool:
        cursor = self.textCursor()
        block = cursor.block()
        line = block.layout().lineForTextPosition(cursor.positionInBlock()) if block.layout() else None
        number = line.lineNumber() if line is not None and line.isValid() else 0
        if first:
            return block.blockNumber() == 0 and number == 0
        last_line = max(block.layout().lineCount() - 1, 0) if block.layout() else 0
        return block.blockNumber() == self.document().blockCount() - 1 and number >= last_line

    def _recall(self, step: int) -> bool:
        if not self.history:
            return False
        if self._index is None:
            if step > 0:
                return False
            self._draft = self.toPlainText()
            index = len(self.history) - 1
        else:
            index = self._index + step
            if index < 0:
                return True  # at the oldest message: stay
        if index >= len(self.history):
            self._index = None
            self._set(self._draft)
        else:
            self._index = index
            self._set(self.history[index])
        return True

    def _set(self, text: str) -> None:
        self.setPlainText(text)
        self.moveCursor(QTextCursor.End)
