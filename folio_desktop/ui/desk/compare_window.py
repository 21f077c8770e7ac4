"""CompareWindow: File > Compare. The redline of two versions (base -> revised) as tracked changes,
shown as pages at fit width, with the differences beside it in plain words, each to accept or reject
where it stands, and Save / Save As that say where the redline went.

The comparison runs as the command line's does (agents/versions/cli.py): both files are opened once in
their final view, diffed for the counts and redlined from the same reviewers. The redline is verified
by the engine before it is shown (reject all gives the base, accept all the revised text).

The redline is a reviewer of its own: its differences are its tracked changes (ChangesPanel with
differences=True, one row per changed paragraph), and accepting or rejecting one goes through its
own ReviewActions, so Edit > Undo takes it back and the saved .docx holds what the lawyer chose.

The summary also says how the redline was written (the command line's notes: parts redlined as whole
paragraphs and tables, styles the later version never defined) and which parts of either version are
damaged; the redline carries the earlier version's, kept as read at save unless File > Repair Damaged
Parts When Saving is checked.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QVBoxLayout,
    QWidget,
)

from ...agents.versions import privacy
from ...agents.versions.compare import diff_reviewers, open_view
from ...agents.versions.notes import redline_notes
from ...agents.versions.redline import redline_reviewers
from ...agents.versions.redline_errors import (
    GenerateRedlineDocxResourceImportError,
    InvalidGenerateRedlineDocxOptionsError,
    RedlineVerificationError,
)
from ...docx import DocxReviewer
from ...docx.errors import DocxError
from ...docx.package.damage import KEEP, REBUILD
from ...docx.package.files import file_digest, read_document_file
from ..access_keys import install_button_keys
from ..disk.save_guard import read_only_problem, write_problem
from ..pages.view import PageView
from ..panels.changes import ChangesPanel
from ..review_actions import ReviewActions
from ..wording import listed
from .panes import Pane, Panes
from .save_as_dialog import repairable_parts

DOCX_FILTER = "Word documents (*.docx)"
SIZE = (1280, 860)  # at most; a smaller screen gets nine tenths of it
REPAIR_MENU_TEXT = "&Repair Damaged Parts When Saving"


def build_redline(base_path, revised_path, author: str) -> tuple[DocxReviewer, dict, dict]:
    """(reviewer over the redline, FolioVersionDiff, redline result). Any failure is a DocxError
    whose message says which file and what to do."""
    return redline_of(*read_versions(base_path, revised_path, author), author)


def read_versions(base_path, revised_path, author: str) -> tuple[DocxReviewer, DocxReviewer]:
    """Both versions opened in their final view (DocxError when either cannot be read)."""
    return open_view(read_document_file(base_path), author=author), open_view(read_document_file(revised_path))


def redline_of(base: DocxReviewer, revised: DocxReviewer, author: str) -> tuple[DocxReviewer, dict, dict]:
    """As build_redline, from versions already read; `base` is edited in place."""
    memo: dict = {}  # the diff's findings of unchanged markup, which the redline asks again
    diff = diff_reviewers(base, revised, memo=memo)
    try:
        result = redline_reviewers(base, revised, author, memo=memo)
    except (RedlineVerificationError, GenerateRedlineDocxResourceImportError,
            InvalidGenerateRedlineDocxOptionsError, privacy.FolioDocumentPrivacyArchiveError) as exc:
        raise DocxError(f"The redline could not be built ({exc}).") from None
    return DocxReviewer.from_bytes(result["buffer"], author=author), diff, result


def damaged_parts_of(reviewer: DocxReviewer) -> list[str]:
    """“theme word/theme/theme1.xml”, one per damaged part the document was read without."""
    return [f"{d.label} {d.name}" for d in reviewer.document.package.damaged.values()]


def describe_damaged_versions(earlier: list[str], later: list[str]) -> list[str]:
    """What the damaged parts of either version mean for the redline: it is built on the earlier
    version, so carries that one's parts (kept as read unless repaired at save); the later version
    only lends its text."""
    lines = []
    if earlier:
        one = len(earlier) == 1
        lines.append(f"The earlier version's {listed(earlier)} {'is' if one else 'are'} damaged. The redline is "
                     f"built on that version, so saving it keeps {'that part' if one else 'those parts'} as read, "
                     f"unless you choose File > {REPAIR_MENU_TEXT.replace('&', '')}.")
    if later:
        one = len(later) == 1
        lines.append(f"The later version's {listed(later)} {'is' if one else 'are'} damaged; its text was "
                     f"compared without {'it' if one else 'them'}.")
    return lines


def summary_text(diff: dict, result: dict, base_path, revised_path, damaged: tuple[list, list] = ([], [])) -> str:
    """What heads the differences: which files, how much is unchanged, what could not be redlined,
    where the redline is coarser than word by word (the command line's notes, agents/versions/notes.py),
    and the damaged parts of either version (`damaged`: describe_damaged_versions's two lists)."""
    c = diff["summaryCounts"]
    lines = [f"Earlier version: {Path(base_path).name}", f"Later version: {Path(revised_path).name}"]
    if not diff["changes"]:
        lines.append("The two versions read the same.")
    else:
        lines.append(f"{c['unchanged']} paragraph{'s' if c['unchanged'] != 1 else ''} unchanged.")
    skipped, unprocessed = len(result["skipped"]), len(result["unprocessedStories"])
    if skipped:
        lines.append(f"{skipped} edit{'s' if skipped != 1 else ''} could not be written as tracked changes; "
                     "that text reads as in the earlier version.")
    if unprocessed:
        lines.append(f"{unprocessed} footnote{'s' if unprocessed != 1 else ''} or endnote{'s' if unprocessed != 1 else ''} "
                     f"that no text refers to {'are' if unprocessed != 1 else 'is'} left as in the earlier version.")
    lines += redline_notes(result)
    lines += describe_damaged_versions(*damaged)
    return "\n".join(lines)


class CompareWindow(QMainWindow):
    """The redline of base -> revised in its own window. Raises DocxError when either file cannot
    be read or the redline cannot be built (the caller shows the message)."""

    def __init__(self, base_path, revised_path, author: str = "Comparison", parent=None):
        super().__init__(parent)
        install_button_keys()  # its Save / Discard question answers Alt+S, Alt+D (access_keys.py)
        self.base_path, self.revised_path = str(base_path), str(revised_path)
        QApplication.setOverrideCursor(Qt.WaitCursor)  # about a second for a 75-page contract
        try:
            base, revised = read_versions(base_path, revised_path, author)
            damaged = damaged_parts_of(base), damaged_parts_of(revised)  # before the redline edits base
            self.reviewer, self.diff, self.result = redline_of(base, revised, author)
        finally:
            QApplication.restoreOverrideCursor()
        self.path: str | None = None  # where the redline was last saved
        self.ask_before_discarding = True  # closing with unsaved accepts or rejects asks first
        self._saved_version: int | None = None  # document version at the last save
        self._saved_digest: str | None = None  # of the file as written, to notice another program's edit
        self.setAttribute(Qt.WA_DeleteOnClose)

        self.review_actions = ReviewActions(self.reviewer, author, parent=self)
        self.review_actions.changed.connect(self._on_changed)
        self.view = PageView()
        # insertions and deletions in two colours: every change here has the same author
        self.view.set_change_colors("kind")
        self.view.keeps_markup_room = False  # a redline gets no comments here: its pages take the width
        self.setCentralWidget(self.view)
        self.summary = QLabel(summary_text(self.diff, self.result, base_path, revised_path, damaged))
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.differences = ChangesPanel(differences=True)
        side = QWidget()
        column = QVBoxLayout(side)
        column.setContentsMargins(4, 4, 4, 4)
        column.addWidget(self.summary)
        column.addWidget(self.differences, 1)
        self.summary_dock = QDockWidget("Differences", self)
        self.summary_dock.setObjectName("compareSummaryDock")
        self.summary_dock.setWidget(side)
        self.addDockWidget(Qt.RightDockWidgetArea, self.summary_dock)
        self.resizeDocks([self.summary_dock], [420], Qt.Horizontal)
        pages = Pane(self.view, self.view)  # F6 / Shift+F6 between the pages and the differences (panes.py)
        self.panes = Panes([pages, Pane(side, self.differences.list, self.summary_dock)], home=pages, parent=self)

        self._menus()
        self.differences.changeActivated.connect(self.show_change)
        self.differences.acceptRequested.connect(lambda ids: self.resolve(ids, True))
        self.differences.rejectRequested.connect(lambda ids: self.resolve(ids, False))
        self.view.changeClicked.connect(self.differences.select_change)
        self.view.layoutFailed.connect(lambda message: self.statusBar().showMessage(message))
        # its own pages: the page in view of the redline's, as the review window's status bar shows it
        self.page_label = QLabel()
        self.page_label.setObjectName("comparePage")
        self.statusBar().addPermanentWidget(self.page_label)
        for signal in (self.view.verticalScrollBar().valueChanged, self.view.layoutProgress,
                       self.view.layoutFinished, self.view.pagesRelaidOut, self.view.zoomChanged):
            signal.connect(self._show_page)
        self.view.set_document(self.reviewer)
        self.differences.set_document(self.reviewer)
        self._update_title()
        screen = QGuiApplication.primaryScreen()
        room = screen.availableGeometry() if screen is not None else None
        width, height = SIZE
        if room is not None and (room.width() < width or room.height() < height):
            width, height = min(width, int(room.width() * 0.9)), min(height, int(room.height() * 0.9))
        self.resize(width, height)

    def _menus(self) -> None:
        bar = self.menuBar()
        file = bar.addMenu("&File")
        self.save_action = file.addAction("&Save Redline", self.save)
        self.save_action.setShortcut(QKeySequence.Save)
        self.save_as_action = file.addAction("Save Redline &As…", self.save_as_dialog)
        self.save_as_action.setShortcut(QKeySequence.SaveAs)
        # the redline carries the earlier version's damaged parts: kept as read unless this is checked
        self.repair_action = file.addAction(REPAIR_MENU_TEXT)
        self.repair_action.setCheckable(True)
        self.repair_action.setVisible(bool(repairable_parts(self.reviewer)))
        file.addSeparator()
        close = file.addAction("&Close", self.close)
        close.setShortcuts(QKeySequence.keyBindings(QKeySequence.Close) or [QKeySequence("Ctrl+W")])  # Ctrl+W too
        edit = bar.addMenu("&Edit")
        stack = self.review_actions.undo_stack
        self.undo_action = stack.createUndoAction(self, "&Undo")
        self.undo_action.setShortcuts(QKeySequence.keyBindings(QKeySequence.Undo))
        self.redo_action = stack.createRedoAction(self, "&Redo")
        self.redo_action.setShortcuts(QKeySequence.keyBindings(QKeySequence.Redo))
        edit.addActions([self.undo_action, self.redo_action])
        review = bar.addMenu("&Review")
        panel = self.differences
        for attribute, text, slot, key in (
            ("next_action", "&Next difference", panel.next_change, "Ctrl+."),
            ("previous_action", "&Previous difference", panel.previous_change, "Ctrl+,"),
            (None, None, None, None),
            ("accept_action", "&Accept", panel.accept_selected, "Ctrl+Shift+A"),
            ("reject_action", "&Reject", panel.reject_selected, "Ctrl+Shift+R"),
            ("accept_next_action", "Accept and &Move to Next", panel.accept_and_next, "Ctrl+Shift+Return"),
            ("reject_next_action", "Reject and Mo&ve to Next", panel.reject_and_next, "Ctrl+Shift+Delete"),
            ("accept_all_action", "Accept a&ll", panel.accept_visible, None),
            ("reject_all_action", "Reject all c&hanges", panel.reject_visible, None),
        ):
            if attribute is None:
                review.addSeparator()
                continue
            action = review.addAction(text, slot)
            if key:
                action.setShortcut(QKeySequence(key))
            setattr(self, attribute, action)
        view = bar.addMenu("&View")
        for text, slot, key in (("Zoom &in", self.view.zoom_in, QKeySequence.ZoomIn),
                                ("Zoom &out", self.view.zoom_out, QKeySequence.ZoomOut),
                                ("Fit &width", self.view.fit_width, "Ctrl+1"),
                                ("Fit &page", self.view.fit_page, "Ctrl+2")):
            action = view.addAction(text, lambda _checked=False, s=slot: s())
            action.setShortcut(QKeySequence(key))
        summary = self.summary_dock.toggleViewAction()
        summary.setText(f"&{summary.text().replace('&', '')}")  # an access key, as every menu item has
        view.addAction(summary)
        view.addSeparator()
        for text, slot, keys in (("Ne&xt pane", self.panes.next_pane, ("F6", "Ctrl+Tab")),
                                 ("Previous pan&e", self.panes.previous_pane,
                                  ("Shift+F6", "Ctrl+Shift+Tab", "Ctrl+Shift+Backtab"))):
            action = view.addAction(text, lambda _checked=False, s=slot: s())
            action.setShortcuts([QKeySequence(k) for k in keys])

    def _show_page(self, *_args) -> None:
        total = len(self.view.pages)
        more = "…" if self.view.is_laying_out else ""
        self.page_label.setText(f"Page {max(self.view.current_page(), 1)} of {total}{more}" if total else "")

    # -- the differences ------------------------------------------------------------------------

    def show_change(self, change_id: int) -> bool:
        """Select a change of the redline in the pages (a difference was clicked or stepped to)."""
        change = next((c for c in self.reviewer.get_changes() if c.id == change_id), None)
        if change is None:
            return False
        shown = self.view.selection.select_change(change)
        if not shown and self.view.is_laying_out:
            # the pages are being laid out again after an accept: select it once they are back
            self.view.layoutFinished.connect(lambda _n: self.show_change(change_id), Qt.SingleShotConnection)
        return shown

    def resolve(self, change_ids: list[int], accept: bool) -> int:
        """Accept (reject) these changes of the redline as one undo step; the pages and the list follow."""
        done = (self.review_actions.accept if accept else self.review_actions.reject)(change_ids)
        verb = "Accepted" if accept else "Rejected"
        if done:
            self.statusBar().showMessage(f"{verb} {done} change{'s' if done != 1 else ''} of the redline. "
                                         "Save keeps your choice in the redline file.", 8000)
        else:
            self.statusBar().showMessage("That difference is already resolved.", 5000)
        return done

    def _on_changed(self, block_ids) -> None:
        layout = self.view.document_layout
        if layout is not None and block_ids:
            h, v = self.view.horizontalScrollBar().value(), self.view.verticalScrollBar().value()
            layout.relayout(changed_block_ids=set(block_ids))  # only the paragraphs it touched
            self.view.set_layout(layout, self.reviewer)
            self.view.horizontalScrollBar().setValue(h)
            self.view.verticalScrollBar().setValue(v)
        else:
            self.view.relayout()
        self.differences.refresh()
        self._update_title()

    # -- saving ---------------------------------------------------------------------------------

    @property
    def modified(self) -> bool:
        """Unsaved: never saved, or accepted / rejected something since the last save."""
        return self._saved_version != self.reviewer.document.version

    def _update_title(self) -> None:
        names = f"{Path(self.base_path).name} → {Path(self.revised_path).name}"
        saved = f" — {Path(self.path).name}" if self.path else ""
        self.setWindowTitle(f"Compare: {names}{saved}[*]")
        self.setWindowModified(self.path is not None and self.modified)

    def suggested_path(self) -> str:
        revised = Path(self.revised_path)
        return str(revised.with_name(f"{revised.stem} (redline).docx"))

    def save_redline(self, path) -> None:
        """Write the redline .docx (atomic), its damaged parts as the File menu chooses. Raises
        DocxError with a message for the user."""
        self.reviewer.save(path, damaged_parts=REBUILD if self.repair_action.isChecked() else KEEP)

    def save(self) -> bool:
        """Save where it was saved last; the first time, ask where (Save As)."""
        if self.path is None:
            return self.save_as_dialog()
        if self._changed_outside(self.path) and QMessageBox.question(
                self, "Save Redline", f"{self.path} was changed by another program since it was saved here. "
                "Replace it with this redline?", QMessageBox.Save | QMessageBox.Cancel,
                QMessageBox.Cancel) != QMessageBox.Save:
            return False
        return self.save_to(self.path)

    def save_as_dialog(self) -> bool:
        start = self.path or self.suggested_path()
        path, _filter = QFileDialog.getSaveFileName(self, "Save Redline As", start, DOCX_FILTER)
        if not path:
            return False
        if not path.lower().endswith(".docx"):
            path += ".docx"
        return self.save_to(path)

    def save_to(self, path: str) -> bool:
        """Save the redline at `path` and say where in the status bar; a failure is explained."""
        problem = read_only_problem(path)
        if problem is None:
            try:
                self.save_redline(path)
            except (DocxError, OSError) as exc:
                problem = write_problem(path, exc)
        if problem is not None:
            self.statusBar().showMessage(problem, 10000)
            QMessageBox.warning(self, "Save Redline", problem)
            return False
        self.path = str(Path(path).resolve())
        self._saved_version = self.reviewer.document.version
        self._saved_digest = file_digest(self.path)
        self._update_title()
        pending = len(self.differences.rows)
        left = f" ({pending} difference{'s' if pending != 1 else ''} still to decide)" if pending else ""
        self.statusBar().showMessage(f"Saved the redline to {self.path}{left}.")
        return True

    def _changed_outside(self, path: str) -> bool:
        return self._saved_digest is not None and file_digest(path) not in (None, self._saved_digest)

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt override
        if self.ask_before_discarding and self.review_actions.undo_stack.count() and self.modified:
            answer = QMessageBox.question(
                self, "Compare", "You accepted or rejected differences that are not saved in a redline file. "
                "Save the redline first?", QMessageBox.Save | QMessageBox.Discard | QMessageBox.Cancel,
                QMessageBox.Save)
            if answer == QMessageBox.Cancel or (answer == QMessageBox.Save and not self.save()):
                event.ignore()
                return
        super().closeEvent(event)

    def showEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        if not event.spontaneous():
            self.view.fit_width()  # the first pages may have been measured before the window had its size
