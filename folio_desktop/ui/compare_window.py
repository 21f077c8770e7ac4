"""CompareWindow: File > Compare. The redline of two versions (base -> revised) as tracked changes,
shown as pages, with the diff summary beside it and Save Redline As.

The comparison runs as the command line's does (agents/compare_cli.py): both files are opened once
in their final view, diffed for the summary and redlined from the same reviewers. The redline is
verified by the engine before it is shown (reject all gives the base, accept all the revised text).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QApplication, QDockWidget, QFileDialog, QMainWindow, QMessageBox, QPlainTextEdit

from ..agents import privacy
from ..agents.compare import diff_reviewers, format_version_diff_for_llm, open_view
from ..agents.redline import (
    GenerateRedlineDocxResourceImportError,
    InvalidGenerateRedlineDocxOptionsError,
    RedlineVerificationError,
    redline_reviewers,
)
from ..docx import DocxReviewer
from ..docx.errors import DocxError
from ..docx.package import read_document_file
from .page_view import PageView


def build_redline(base_path, revised_path, author: str) -> tuple[DocxReviewer, dict, dict]:
    """(reviewer over the redline, FolioVersionDiff, redline result). Any failure is a DocxError
    whose message says which file and what to do."""
    base = open_view(read_document_file(base_path), author=author)
    revised = open_view(read_document_file(revised_path))
    diff = diff_reviewers(base, revised)
    try:
        result = redline_reviewers(base, revised, author)
    except (RedlineVerificationError, GenerateRedlineDocxResourceImportError,
            InvalidGenerateRedlineDocxOptionsError, privacy.FolioDocumentPrivacyArchiveError) as exc:
        raise DocxError(f"The redline could not be built ({exc}).") from None
    return DocxReviewer.from_bytes(result["buffer"], author=author), diff, result


def summary_text(diff: dict, result: dict, base_path, revised_path) -> str:
    """What the side panel shows: which files, the counts per kind of block, then every change."""
    c = diff["summaryCounts"]
    lines = [f"Base: {Path(base_path).name}", f"Revised: {Path(revised_path).name}", "",
             f"Inserted blocks: {c['added']}", f"Deleted blocks: {c['deleted']}",
             f"Changed blocks: {c['modified']}", f"Reformatted blocks: {c['formatChanged']}",
             f"Moved blocks: {c['moved']}", f"Unchanged blocks: {c['unchanged']}",
             f"Tracked changes written: {len(result['applied'])}"]
    skipped, unprocessed = len(result["skipped"]), len(result["unprocessedStories"])
    if skipped or unprocessed:
        lines.append(f"Not redlined: {skipped} edit(s) skipped, {unprocessed} header/footer/note part(s) "
                     "left as in the base")
    return "\n".join(lines + ["", format_version_diff_for_llm(diff)])


class CompareWindow(QMainWindow):
    """The redline of base -> revised in its own window. Raises DocxError when either file cannot
    be read or the redline cannot be built (the caller shows the message)."""

    def __init__(self, base_path, revised_path, author: str = "Comparison", parent=None):
        super().__init__(parent)
        self.base_path, self.revised_path = str(base_path), str(revised_path)
        QApplication.setOverrideCursor(Qt.WaitCursor)  # about a second for a 75-page contract
        try:
            self.reviewer, self.diff, self.result = build_redline(base_path, revised_path, author)
        finally:
            QApplication.restoreOverrideCursor()
        self.setWindowTitle(f"Compare: {Path(base_path).name} → {Path(revised_path).name}")
        self.setAttribute(Qt.WA_DeleteOnClose)

        self.view = PageView()
        self.setCentralWidget(self.view)
        self.summary = QPlainTextEdit()
        self.summary.setReadOnly(True)
        self.summary.setLineWrapMode(QPlainTextEdit.WidgetWidth)
        self.summary.setPlainText(summary_text(self.diff, self.result, base_path, revised_path))
        self.summary_dock = QDockWidget("Differences", self)
        self.summary_dock.setObjectName("compareSummaryDock")
        self.summary_dock.setWidget(self.summary)
        self.addDockWidget(Qt.RightDockWidgetArea, self.summary_dock)
        self.resizeDocks([self.summary_dock], [380], Qt.Horizontal)

        menu = self.menuBar().addMenu("&File")
        self.save_action = menu.addAction("Save Redline &As…", self.save_redline_dialog)
        self.save_action.setShortcut(QKeySequence.SaveAs)
        close = menu.addAction("&Close", self.close)
        close.setShortcut(QKeySequence.Close)
        self.view.layoutFailed.connect(lambda message: self.statusBar().showMessage(message))
        self.view.set_document(self.reviewer)
        self.resize(1280, 860)

    def save_redline(self, path) -> None:
        """Write the redline .docx (atomic). Raises DocxError with a message for the user."""
        self.reviewer.save(path)

    def save_redline_dialog(self) -> None:
        suggested = str(Path(self.revised_path).with_name(f"{Path(self.revised_path).stem} (redline).docx"))
        path, _filter = QFileDialog.getSaveFileName(self, "Save Redline As", suggested, "Word documents (*.docx)")
        if not path:
            return
        try:
            self.save_redline(path)
        except DocxError as exc:
            QMessageBox.warning(self, "Save Redline", str(exc))
            return
        self.statusBar().showMessage(f"Saved the redline as {path}.", 5000)
