"""The review desk's files: open (dialog, recent files, drag and drop), save and Save As with
options, the checks before a file is replaced, compare, PDF and audit-log exports, and restoring
a recovery copy. Mixed into ReviewWindow.

Saving never loses work: a file changed by another program since it was opened is not replaced
without asking (Save As / Overwrite / Cancel), and a read-only file, a full disk or a missing
permission is explained with the file's name while the document stays open and unsaved.

A document that opened with warnings (a damaged theme, font table, settings or custom XML part; a
Strict Open XML file) says so in a bar above the pages. Its damaged parts are written as read unless
the lawyer chooses to repair them (the bar's button, or the Save As options); that one choice is what
Save, Save As, a saved copy and the recovery copy all write.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox

from ... import APP_NAME
from ...docx import DocxError, DocxReviewer
from ...docx.errors import SaveConflictError
from ...docx.package.damage import KEEP, REBUILD
from ..panels.concealed_notice import ConcealedNotice
from ..panels.info_bar import REPAIR_ACTION, InfoBar, describe_font_substitutions, describe_open_warnings
from .compare_window import CompareWindow
from .export import export_pdf
from .recovery import RecoveryEntry
from .recovery_prompt import DISCARD, RESTORE, ask_recovery
from .save_as_dialog import (
    SaveAsOptionsDialog,
    SaveOptions,
    describe_removed,
    repairable_parts,
    save_with_options,
)
from .save_guard import read_only_problem, write_problem

DOCX_FILTER = "Word documents (*.docx);;All files (*)"
PDF_FILTER = "PDF (*.pdf)"
SAVE_AS, OVERWRITE, CANCEL = "save_as", "overwrite", "cancel"


def _docx_paths(mime) -> list[str]:
    if not mime.hasUrls():
        return []
    return [u.toLocalFile() for u in mime.urls() if u.isLocalFile() and u.toLocalFile().lower().endswith(".docx")]


class FilesMixin:
    # -- opening --------------------------------------------------------------------------------------

    def open_document(self, path: str | os.PathLike) -> bool:
        """Show a document and point Claude at it (a new conversation). False, after telling the
        user why, when it cannot be opened."""
        path = os.path.abspath(os.fspath(path))
        if not self._confirm_discard():
            return False
        if path != self.path:
            # unsaved work on this very file from a crash: offered (newest first) before a new
            # session's autosave could replace it; one put off is set aside under a key of its own
            for pending in [e for e in self.recovery.entries() if e.original_path == path]:
                answer = (self.recovery_chooser or ask_recovery)(self, pending)
                if answer == RESTORE:
                    return self.open_recovered(pending)
                if answer == DISCARD:
                    self.recovery.discard(pending)
                elif pending.key == self.recovery.key_for(path):
                    self.recovery.set_aside(pending)
        try:
            reviewer = DocxReviewer.open(path, author=self.settings.author)
        except DocxError as exc:
            self._error("The document could not be opened", str(exc))
            return False
        self._leave_document()
        self._install(reviewer, path)
        self.recent.add(path)
        self.record("open", path=path)
        self.statusBar().showMessage(f"Opened {path}", 5000)
        self._tell_concealed_text()
        self._tell_open_warnings()
        return True

    def open_copy(self, path: str | os.PathLike, name: str | None = None) -> bool:
        """Open a document as a new, untitled copy (the bundled sample): Save asks where, so the
        original is never written over."""
        path = os.fspath(path)
        if not self._confirm_discard():
            return False
        try:
            reviewer = DocxReviewer.from_bytes(Path(path).read_bytes(), author=self.settings.author)
        except (DocxError, OSError) as exc:
            self._error("The document could not be opened", str(getattr(exc, "strerror", None) or exc))
            return False
        self._leave_document()
        self.untitled_name = name or f"{Path(path).stem} (copy).docx"
        self._install(reviewer, None)
        self.record("open", copyOf=path)
        self.statusBar().showMessage(f"Opened a copy of {Path(path).name}: Save asks where to keep it.", 8000)
        self._tell_concealed_text()
        self._tell_open_warnings()
        return True

    @property
    def display_name(self) -> str:
        """The document's file name, or the name an untitled copy will be saved under."""
        if self.path:
            return Path(self.path).name
        return getattr(self, "untitled_name", None) or "Untitled.docx"

    def _tell_missing_fonts(self) -> None:
        """A font the document names that this computer lacks is named once per document, with what
        the pages use instead (lines and pages may fall differently than in Word)."""
        layout = self.view.document_layout
        if layout is None or getattr(self, "_fonts_told_for", None) is self.reviewer:
            return
        self._fonts_told_for = self.reviewer
        notice = getattr(self, "font_notice", None)
        if notice is None:
            notice = self.font_notice = InfoBar("fontNotice")
            column = self.centralWidget().layout()
            column.insertWidget(column.indexOf(self.view), notice)
        notice.tell(describe_font_substitutions(layout.font_substitutions))

    def _tell_concealed_text(self, status: bool = True) -> None:
        """Text the lawyer may not see (hidden, white on white, under 2 pt) is announced on open, in a
        bar above the pages and (unless `status` is False) in the status bar (issue 12)."""
        notice = getattr(self, "concealed_notice", None)
        if notice is None:
            notice = self.concealed_notice = ConcealedNotice()
            notice.showRequested.connect(self.view.scroll_to_block)
            column = self.centralWidget().layout()
            column.insertWidget(column.indexOf(self.view), notice)
        try:
            report = self.reviewer.concealed_text()
        except Exception:  # noqa: BLE001 - the check is an extra: a fault in it must not stop the reading
            notice.set_report(None)
            self.statusBar().showMessage("The document could not be checked for hidden text.", 10000)
            return
        if notice.set_report(report) and status:
            self.statusBar().showMessage(report.describe(), 15000)

    def _tell_open_warnings(self) -> None:
        """What the document opened without (a damaged part, named) or was read as (Strict Open XML),
        in a bar above the pages, with the button that repairs the damaged parts at save."""
        notice = getattr(self, "warnings_notice", None)
        if notice is None:
            notice = self.warnings_notice = InfoBar(
                "openWarningsNotice", REPAIR_ACTION,
                "Write a minimal sound part in place of each damaged one when you save. Off: they are "
                "written as they were read.")
            notice.action_button.setCheckable(True)
            notice.action_button.toggled.connect(self.set_repair_damaged)
            column = self.centralWidget().layout()
            column.insertWidget(column.indexOf(self.view), notice)
        self._show_open_warnings()

    def _show_open_warnings(self) -> None:
        notice = getattr(self, "warnings_notice", None)
        if notice is None or self.reviewer is None:
            return
        repairable = repairable_parts(self.reviewer)
        repair = self.damaged_parts == REBUILD
        button = notice.action_button
        button.setVisible(bool(repairable))
        button.blockSignals(True)  # showing the choice is not making it
        button.setChecked(repair)
        button.blockSignals(False)
        notice.tell(describe_open_warnings(self.reviewer.open_warnings, repairable, repair))

    @property
    def damaged_parts(self) -> str:
        """What a save writes for the damaged parts the open document was read without: KEEP (them as
        read, the default: nothing is lost) or REBUILD (minimal sound ones), as the lawyer chose for
        this document. A document opened next starts again from KEEP."""
        chosen = getattr(self, "_repair_for", None)
        return REBUILD if chosen is not None and chosen is self.reviewer else KEEP

    def set_repair_damaged(self, repair: bool) -> None:
        """The lawyer's choice for the open document's damaged parts, for every save from now on."""
        if self.reviewer is None or repair == (self.damaged_parts == REBUILD):
            return
        self._repair_for = self.reviewer if repair else None
        self.record("damaged_parts", choice=self.damaged_parts)
        self._show_open_warnings()

    def _leave_document(self) -> None:
        """The open document's unsaved work was saved or dropped: its recovery copy goes."""
        if self.reviewer is not None:
            self.recovery.remove(self.path)

    def open_dialog(self) -> bool:
        start = str(Path(self.path).parent) if self.path else ""
        chosen, _ = QFileDialog.getOpenFileName(self, "Open document", start, DOCX_FILTER)
        return self.open_document(chosen) if chosen else False

    def fill_recent_menu(self) -> None:
        menu = self.recent_menu
        menu.clear()
        paths = self.recent.paths()
        for n, path in enumerate(paths, 1):
            action = menu.addAction(f"&{n} {Path(path).name}")
            action.setToolTip(path)
            action.setStatusTip(path)
            action.setData(path)
            action.triggered.connect(lambda _checked=False, p=path: self.open_document(p))
        if not paths:
            menu.addAction("No recent documents").setEnabled(False)
            return
        menu.addSeparator()
        menu.addAction("Clear list", self.recent.clear)

    def dragEnterEvent(self, event) -> None:  # noqa: N802 - Qt override
        if _docx_paths(event.mimeData()):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event) -> None:  # noqa: N802 - Qt override
        self.dragEnterEvent(event)

    def dropEvent(self, event) -> None:  # noqa: N802 - Qt override
        paths = _docx_paths(event.mimeData())
        if not paths:
            event.ignore()
            return
        event.acceptProposedAction()
        self.open_document(paths[0])

    # -- saving ---------------------------------------------------------------------------------------

    def save_document(self, path: str | os.PathLike | None = None) -> bool:
        """Save to `path` (Save As without options) or to the file the document came from."""
        if self.reviewer is None:
            return False
        target = os.path.abspath(os.fspath(path)) if path is not None else self.path
        if target is None:
            return self.save_as_dialog()
        written = self._write(target)
        if written is None:
            return False
        if self.path != written:
            self.recovery.remove(self.path)
            if self.audit is not None:  # the audit trail follows the document to its new name
                self.record("save_as", path=written)
                self.audit = self.audit.continue_as(written)
        self.path = written
        self._saved_version = self.reviewer.document_version()
        self._source_digest = hashlib.sha256(Path(written).read_bytes()).hexdigest()
        self.recovery.remove(written)
        self.recent.add(written)
        self.record("save", path=written)
        self._update_title()
        repaired = " with its damaged parts repaired" if self.damaged_parts == REBUILD \
            and repairable_parts(self.reviewer) else ""
        self.statusBar().showMessage(f"Saved {written}{repaired}", 5000)
        return True

    def _write(self, target: str, force: bool = False) -> str | None:
        """reviewer.save with the checks and dialogs around it; the path written, or None."""
        problem = read_only_problem(target)
        if problem is not None:
            self._error("The document was not saved", problem)
            return None
        try:
            return self.reviewer.save(target, force=force, damaged_parts=self.damaged_parts)
        except SaveConflictError:
            choice = self.ask_save_conflict(target)
            if choice == OVERWRITE:
                return self._write(target, force=True)
            if choice == SAVE_AS:
                chosen = self._ask_save_path("Save document as", target, DOCX_FILTER)
                return self._write(chosen) if chosen else None
            self.statusBar().showMessage("Not saved: the file on disk was left as the other program wrote it.", 8000)
            return None
        except DocxError as exc:
            self._error("The document was not saved", write_problem(target, exc))
            return None

    def ask_save_conflict(self, target: str) -> str:
        """The file changed on disk since it was opened: SAVE_AS, OVERWRITE or CANCEL."""
        box = QMessageBox(QMessageBox.Warning, APP_NAME,
                          f"{Path(target).name} was changed by another program after you opened it here.",
                          QMessageBox.NoButton, self)
        box.setInformativeText("Save your version under a new name, or replace the file on disk with your "
                               "version (the other program's changes are then lost).")
        save_as = box.addButton("Save As…", QMessageBox.AcceptRole)
        overwrite = box.addButton("Overwrite", QMessageBox.DestructiveRole)
        box.addButton(QMessageBox.Cancel)
        box.setDefaultButton(save_as)
        box.exec()
        clicked = box.clickedButton()
        return SAVE_AS if clicked is save_as else OVERWRITE if clicked is overwrite else CANCEL

    def _ask_save_path(self, title: str, suggested: str, filters: str) -> str | None:
        chosen, _ = QFileDialog.getSaveFileName(self, title, suggested, filters)
        return os.path.abspath(chosen) if chosen else None

    def save_as_dialog(self) -> bool:
        """Save under a new name. With metadata removed or comments left out the file written is a
        copy: the document open here keeps what it has, and its own file stays the one it saves to."""
        if self.reviewer is None:
            return False
        suggested = self.path or str(Path.home() / self.display_name)
        chosen = self._ask_save_path("Save document as", suggested, DOCX_FILTER)
        if not chosen:
            return False
        dialog = SaveAsOptionsDialog(self, SaveOptions(damaged_parts=self.damaged_parts),
                                     damaged=repairable_parts(self.reviewer))
        try:
            if not dialog.exec():
                return False
            options = dialog.options()
        finally:
            dialog.deleteLater()
        self.set_repair_damaged(options.damaged_parts == REBUILD)  # one choice per document: the bar follows
        if not options.makes_copy:
            return self.save_document(chosen)
        return self.save_copy(chosen, options)

    def save_copy(self, target: str, options: SaveOptions) -> bool:
        problem = read_only_problem(target)
        if problem is not None:
            self._error("The copy was not saved", problem)
            return False
        try:
            save_with_options(self.reviewer, target, options)
        except DocxError as exc:
            self._error("The copy was not saved", write_problem(target, exc))
            return False
        removed = [*options.transforms] + ([] if options.keep_comments else ["comments"]) \
            + (["authors"] if options.anonymise_authors else [])
        self.record("save", path=target, copy=True, removed=removed)
        what = describe_removed(options)
        self.statusBar().showMessage(f"Saved a copy to {target} {what}; you are still working on "
                                     f"{self.display_name}.", 10000)
        if (self.open_copy_chooser or self.ask_open_copy)(target, what):
            self.open_document(target)
        return True

    def ask_open_copy(self, target: str, what: str) -> bool:
        """After Save As with privacy options: keep working on this document, or switch to the copy?"""
        box = QMessageBox(QMessageBox.Information, APP_NAME, f"Saved a copy to {Path(target).name} {what}.",
                          QMessageBox.NoButton, self)
        box.setInformativeText(f"You are still working on {self.display_name}, which keeps everything. Open the "
                               "copy instead?")
        open_copy = box.addButton("Open the copy", QMessageBox.AcceptRole)
        box.addButton("Keep working here", QMessageBox.RejectRole)
        box.setDefaultButton(open_copy)
        box.exec()
        return box.clickedButton() is open_copy

    # -- compare and exports --------------------------------------------------------------------------

    def compare_dialog(self):
        """Choose two versions; their redline opens in a new window (returned)."""
        start = self.path or ""
        base, _ = QFileDialog.getOpenFileName(self, "Compare: the earlier version", start, DOCX_FILTER)
        if not base:
            return None
        revised, _ = QFileDialog.getOpenFileName(self, "Compare: the later version", str(Path(base).parent),
                                                 DOCX_FILTER)
        if not revised:
            return None
        return self.compare(base, revised)

    def compare(self, base: str, revised: str):
        try:
            window = CompareWindow(base, revised, author=self.settings.author)
        except DocxError as exc:
            self._error("The versions could not be compared", str(exc))
            return None
        window.setAttribute(Qt.WA_DeleteOnClose)
        window.resize(self.size())
        window.show()
        self.compare_windows.append(window)
        window.destroyed.connect(lambda _o=None, w=window: self.compare_windows.remove(w)
                                 if w in self.compare_windows else None)
        return window

    def _export(self, title: str, suggested_suffix: str, filters: str, write) -> str | None:
        if self.reviewer is None:
            return None
        stem = Path(self.path).with_suffix("") if self.path else Path.home() / Path(self.display_name).stem
        target = self._ask_save_path(title, f"{stem}{suggested_suffix}", filters)
        if not target:
            return None
        problem = read_only_problem(target)
        if problem is not None:
            self._error("Nothing was exported", problem)
            return None
        try:
            message = write(target)
        except (DocxError, OSError) as exc:
            self._error("Nothing was exported", write_problem(target, exc))
            return None
        self.statusBar().showMessage(message, 8000)
        return target

    def export_pdf_dialog(self) -> str | None:
        """The pages as shown: in the markup view chosen (redlines and balloons in All Markup)."""
        shown = {"all": ("with redlines and comments", " (redline).pdf"),
                 "simple": ("in Simple Markup", " (simple markup).pdf"),
                 "none": ("with every change accepted", " (no markup).pdf"),
                 "original": ("as they were before the tracked changes", " (original).pdf")}
        words, suffix = shown.get(self.view.markup_view, shown["all"])

        def write(target):
            layout = self.view.document_layout or self.view.finish_layout()
            pages = export_pdf(self.reviewer, target, markup=True, layout=layout)
            return f"Exported {pages} pages {words} to {target}"

        return self._export("Export PDF (as shown)", suffix, PDF_FILTER, write)

    def export_clean_pdf_dialog(self) -> str | None:
        def write(target):
            pages = export_pdf(self.reviewer, target, markup=False)
            return f"Exported {pages} pages, every change accepted, to {target}"

        return self._export("Export clean PDF", " (clean).pdf", PDF_FILTER, write)

    def export_audit_jsonl_dialog(self) -> str | None:
        def write(target):
            self.audit.export_jsonl(target)
            return f"Exported {len(self.audit.entries)} audit events to {target}"

        return self._export("Export audit log", " audit.jsonl", "JSON Lines (*.jsonl);;All files (*)", write)

    def export_audit_html_dialog(self) -> str | None:
        def write(target):
            self.audit.export_html(target)
            return f"Exported the audit report ({len(self.audit.entries)} events) to {target}"

        return self._export("Export audit report", " audit.html", "HTML (*.html)", write)

    def quit_app(self) -> None:
        QApplication.closeAllWindows()

    # -- recovery -------------------------------------------------------------------------------------

    def _recovery_source(self):
        """What the autosaver writes: this document's bytes while it has unsaved work."""
        if self.reviewer is None or not self.modified:
            return None
        return self.path, self.reviewer.to_bytes(damaged_parts=self.damaged_parts), self._source_digest

    def open_recovered(self, entry: RecoveryEntry) -> bool:
        """Open a recovery copy as the unsaved work on its original file. When that file has changed
        on disk since, saving over it asks first (as after any outside change)."""
        if not self._confirm_discard():
            return False
        try:
            recovered = DocxReviewer.from_bytes(entry.read(), author=self.settings.author)
        except (DocxError, OSError) as exc:
            self._error("The recovered document could not be opened", str(exc))
            return False
        original = entry.original_path
        on_disk = None
        if original and os.path.isfile(original):
            on_disk = Path(original).read_bytes()
            if entry.source_digest and hashlib.sha256(on_disk).hexdigest() != entry.source_digest:
                on_disk = b""  # a digest the file cannot have: saving over it is a conflict
        reviewer = DocxReviewer(recovered.document, author=self.settings.author, source_path=original,
                                source_bytes=on_disk)
        self._leave_document()
        if not original:  # untitled work: it stays untitled, and Save asks where
            self.untitled_name = "Recovered document.docx"
        self._install(reviewer, original, saved=False, digest=entry.source_digest)
        self.record("recover", path=original, recoveredFrom=str(entry.data_path), savedAt=entry.saved_at)
        self.statusBar().showMessage(f"Restored the unsaved work on {entry.name} from {entry.saved_at}. "
                                     "Save it to keep it.", 10000)
        self._tell_concealed_text(status=False)  # the bar says it; the status bar keeps "Save it"
        self._tell_open_warnings()
        self.autosaver.changed()
        return True
