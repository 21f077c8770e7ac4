"""The small text dialogs of the review desk: edit a paragraph, write a new one, replace the
selection, write a comment. One multi-line field, prefilled where there is text to change."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QPlainTextEdit, QVBoxLayout

from ..access_keys import give_access_keys


class TextDialog(QDialog):
    def __init__(self, title: str, prompt: str, text: str = "", ok_text: str = "OK", parent=None,
                 one_paragraph: bool = True):
        super().__init__(parent)
        self.one_paragraph = one_paragraph
        self.setWindowTitle(title)
        self.setMinimumWidth(520)
        self.label = QLabel(prompt)
        self.label.setWordWrap(True)
        self.field = QPlainTextEdit()
        self.field.setPlainText(text)
        self.field.setTabChangesFocus(True)
        self.field.selectAll()
        self.buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        self.buttons.button(QDialogButtonBox.Ok).setText(ok_text)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        box = QVBoxLayout(self)
        box.addWidget(self.label)
        box.addWidget(self.field, 1)
        box.addWidget(self.buttons)
        give_access_keys(self)

    def text(self) -> str:
        text = self.field.toPlainText()
        # a paragraph's text is one line: a line break typed here would split it into paragraphs
        return text.replace("\n", " ") if self.one_paragraph else text


def ask_text(parent, title: str, prompt: str, text: str = "", ok_text: str = "OK",
             one_paragraph: bool = True) -> str | None:
    """The text entered, or None when cancelled."""
    dialog = TextDialog(title, prompt, text, ok_text, parent, one_paragraph)
    try:
        return dialog.text() if dialog.exec() == QDialog.Accepted else None
    finally:
        dialog.deleteLater()
