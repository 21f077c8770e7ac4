"""File > Compare: the original and the revised version chosen in one dialog, side by side.

Each side offers the recent files (the open document first, as the original) and Browse…; Swap turns
them round, since which is which decides what the redline shows as inserted and what as deleted.
Compare is offered once both are .docx files that exist and are not the same file.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QGridLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
)

DOCX_FILTER = "Word documents (*.docx);;All files (*)"
ORIGINAL, REVISED = 0, 1


def _same(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.abspath(a) == os.path.abspath(b)


class VersionField(QComboBox):
    """A path typed or chosen among the recent files; shows the full path as its tooltip."""

    def __init__(self, recent: list[str], current: str | None):
        super().__init__()
        self.setEditable(True)
        self.setInsertPolicy(QComboBox.NoInsert)
        self.setMinimumContentsLength(34)
        self.setSizeAdjustPolicy(QComboBox.AdjustToMinimumContentsLengthWithIcon)
        self.lineEdit().setPlaceholderText("Choose a .docx file")
        for path in recent:
            self.addItem(Path(path).name, path)
            self.setItemData(self.count() - 1, path, Qt.ToolTipRole)
        self.set_path(current or "")

    def path(self) -> str:
        """The chosen file: the recent file whose name is shown (chosen or typed), else the path typed."""
        text = self.currentText().strip()
        index = self.findText(text, Qt.MatchExactly) if text else -1
        if index >= 0:
            return str(self.itemData(index))
        return os.path.abspath(os.path.expanduser(text)) if text else ""

    def set_path(self, path: str) -> None:
        index = self.findData(path) if path else -1
        if index >= 0:
            self.setCurrentIndex(index)
        else:
            self.setCurrentIndex(-1)
            self.setEditText(path)
        self.setToolTip(path)


class CompareDialog(QDialog):
    def __init__(self, recent: list[str], original: str | None = None, parent=None):
        super().__init__(parent)
        self.setObjectName("compareDialog")
        self.setWindowTitle("Compare Documents")
        self.fields = (VersionField(recent, original), VersionField([p for p in recent if p != original], None))
        self.original_field, self.revised_field = self.fields
        grid = QGridLayout()
        for column, (title, hint, browse_text) in enumerate((
                ("&Original document", "The earlier version: what the redline starts from", "&Browse…"),
                ("&Revised document", "The later version: what the redline arrives at", "Brows&e…"))):
            label = QLabel(title)
            label.setBuddy(self.fields[column])
            note = QLabel(hint)
            note.setEnabled(False)
            browse = QPushButton(browse_text)
            browse.setAutoDefault(False)
            browse.clicked.connect(lambda _checked=False, c=column: self.browse(c))
            grid.addWidget(label, 0, column * 2)
            grid.addWidget(self.fields[column], 1, column * 2)
            grid.addWidget(browse, 2, column * 2, Qt.AlignLeft)
            grid.addWidget(note, 3, column * 2)
        self.browse_original, self.browse_revised = (grid.itemAtPosition(2, c).widget() for c in (0, 2))
        self.swap_button = QPushButton("⇄ S&wap")
        self.swap_button.setToolTip("Make the original the revised version and the revised the original")
        self.swap_button.setAutoDefault(False)
        self.swap_button.clicked.connect(self.swap)
        grid.addWidget(self.swap_button, 1, 1)
        self.problem = QLabel()
        self.problem.setObjectName("compareProblem")
        self.problem.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.Cancel)
        self.compare_button = self.buttons.addButton("Co&mpare", QDialogButtonBox.AcceptRole)  # (Alt+C: Cancel)
        self.compare_button.setDefault(True)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        column = QVBoxLayout(self)
        column.addLayout(grid)
        column.addWidget(self.problem)
        column.addWidget(self.buttons)
        for field in self.fields:
            field.currentTextChanged.connect(lambda _text: self._check())
        self._check()
        (self.revised_field if original else self.original_field).setFocus()

    def paths(self) -> tuple[str, str]:
        return self.original_field.path(), self.revised_field.path()

    def browse(self, column: int) -> None:
        field = self.fields[column]
        start = field.path() or self.fields[1 - column].path()
        title = "Choose the original document" if column == ORIGINAL else "Choose the revised document"
        chosen, _ = QFileDialog.getOpenFileName(self, title, str(Path(start).parent) if start else "", DOCX_FILTER)
        if chosen:
            field.set_path(os.path.abspath(chosen))
            field.setFocus()

    def swap(self) -> None:
        original, revised = self.paths()
        self.original_field.set_path(revised)
        self.revised_field.set_path(original)

    def problem_text(self) -> str:
        """Why Compare is not offered yet, in words ("" when it is)."""
        original, revised = self.paths()
        for path, which in ((original, "original"), (revised, "revised")):
            if not path:
                return f"Choose the {which} document."
            if not os.path.isfile(path):
                return f"There is no file {Path(path).name} where the {which} document should be."
            if not path.lower().endswith(".docx"):
                return f"The {which} document must be a Word .docx file."
        if _same(original, revised):
            return "Choose two different files: the original and the revised are the same."
        return ""

    def _check(self) -> None:
        problem = self.problem_text()
        self.problem.setText(problem)
        self.compare_button.setEnabled(not problem)
        for field in self.fields:
            field.setToolTip(field.path())

    def accept(self) -> None:
        if not self.problem_text():
            super().accept()


def choose_versions(window) -> tuple[str, str] | None:
    """The (original, revised) paths the lawyer chose, or None when they cancelled. The open document
    is offered as the original."""
    files = window.files
    recent = files.recent.paths()
    if window.path and window.path not in recent:
        recent.insert(0, window.path)
    dialog = CompareDialog(recent, window.path, window)
    try:
        return dialog.paths() if dialog.exec() else None
    finally:
        dialog.deleteLater()
