"""The review desk's files: open (dialog, recent files, drag and drop), save and Save As with
options, the checks before a file is replaced, compare, PDF and audit-log exports, and restoring
a recovery copy: DocumentFiles, the review window's `files`.

Saving never loses work: a file changed by another program since it was opened is not replaced
without asking (Save As / Overwrite / Cancel), and a read-only file, a full disk or a missing
permission is explained with the file's name while the document stays open and unsaved.

One document is shown in one window: opening a file another window of the app shows brings that
window forward. The file is watched while it is open (file_watch.DiskWatch, `disk`): another
program's change, replacement or deletion, and an owner file saying Word has it open, are told in
bars above the pages.

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
from ...docx.errors import CorruptDocxError, SaveConflictError, SaveTargetMissingError
from ...docx.package.damage import KEEP, REBUILD
from ...docx.package.files import file_digest
from ..disk.file_watch import DiskWatch
from ..disk.recent_files import RecentFiles
from ..disk.recovery import RECOVERY_DIR, Autosaver, RecoveryEntry, RecoveryStore, autosave_interval_ms
from ..disk.recovery_prompt import DISCARD, RESTORE, ask_recovery
from ..disk.save_guard import read_only_problem, write_problem
from ..panels.concealed_notice import ConcealedNotice
from ..panels.info_bar import REPAIR_ACTION, InfoBar, describe_font_substitutions, describe_open_warnings
from ..wording import counted
from .app_shell.damaged_file import explain_damaged
from .save_as_dialog import (
    SaveAsOptionsDialog,
    SaveOptions,
    describe_removed,
    repairable_parts,
    save_with_options,
)

DOCX_FILTER = "Word documents (*.docx);;All files (*)"
PDF_FILTER = "PDF (*.pdf)"
SAVE_AS, OVERWRITE, CANCEL = "save_as", "overwrite", "cancel"


def _docx_paths(mime) -> list[str]:
    if not mime.hasUrls():
        return []
    return [u.toLocalFile() for u in mime.urls() if u.isLocalFile() and u.toLocalFile().lower().endswith(".docx")]


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:  # one is gone: the names decide
        return os.path.normcase(os.path.abspath(a)) == os.path.normcase(os.path.abspath(b))


def window_showing(path: str, besides=None):
    """The shown review window of this app that has the document at `path` open (not `besides`), or None."""
    for widget in QApplication.topLevelWidgets():
        files = getattr(widget, "files", None)
        if (widget is not besides and isinstance(files, DocumentFiles) and widget.isVisible()
                and widget.reviewer is not None and widget.path and _same_file(widget.path, path)):
            return widget
    return None


def bring_forward(window, message: str | None = None) -> None:
    """Show `window` in front (restored if minimised), with `message` in its status bar."""
    if window.isMinimized():
        window.showNormal()
    window.show()
    window.raise_()
    window.activateWindow()
    QApplication.alert(window)  # where the window manager refuses to hand over the focus, it flashes
    if message:
        window.statusBar().showMessage(message, 8000)


class DocumentFiles:
    """The review window's files (window.files): open, save, Save As, compare, exports and crash
    recovery, with the state only they use: the recent files, the recovery store and its autosaver,
    the question before unsaved work is dropped, the digest of the file on disk, the lawyer's choice
    for damaged parts and the bars above the pages that say how the document opened."""

    def __init__(self, window):
        self.window = window  # the review window: its document, view, status bar and audit log
        self.ask_before_discarding = True  # closing or opening over unsaved edits asks first
        self.recent = RecentFiles(window.desktop)
        self.recovery = RecoveryStore(Path(window.settings.config_dir) / RECOVERY_DIR)
        self.recovery_chooser = None  # (window, entry) -> RESTORE | DISCARD | LATER instead of the dialog (tests)
        self.open_copy_chooser = None  # (target, what) -> bool instead of the "open the copy?" box (tests)
        self.autosaver = Autosaver(self.recovery, self._recovery_source,
                                   autosave_interval_ms(window.desktop.value("autosave/seconds")), parent=window)
        self.autosaver.failed.connect(lambda message: window.statusBar().showMessage(message, 10000))
        self.compare_windows: list = []
        self.disk = DiskWatch(self)  # the file watched on disk, and the bars that say what became of it
        self._source_digest: str | None = None  # the file's digest when it was opened or last saved
        self._repair_for = None  # the reviewer whose damaged parts the lawyer chose to repair
        self._fonts_told_for = None  # the reviewer whose missing fonts were named
        self.font_notice: InfoBar | None = None  # the bars above the pages, made when first needed
        self.concealed_notice: ConcealedNotice | None = None
        self.warnings_notice: InfoBar | None = None

    def _status(self, message: str, timeout: int = 0) -> None:
        self.window.statusBar().showMessage(message, timeout)

    # -- opening --------------------------------------------------------------------------------------

    @property
    def source_digest(self) -> str | None:
        """The digest of the file on disk as it was opened or last saved here."""
        return self._source_digest

    def open_document(self, path: str | os.PathLike, ask: bool = True) -> bool:
        """Show a document and point Claude at it (a new conversation). False, after telling the
        user why, when it cannot be opened, and when another window of the app shows it (that
        window comes forward). `ask` False: the lawyer already chose to drop unsaved work (Reload)."""
        path = os.path.abspath(os.fspath(path))
        elsewhere = window_showing(path, besides=self.window)
        if elsewhere is not None:
            bring_forward(elsewhere, f"{Path(path).name} is already open in this window.")
            return False
        if ask and not self.confirm_discard():
            return False
        if path != self.window.path:
            # unsaved work on this very file from a crash: offered (newest first) before a new
            # session's autosave could replace it; one put off is set aside under a key of its own
            for pending in [e for e in self.recovery.left_behind() if e.original_path == path]:
                answer = (self.recovery_chooser or ask_recovery)(self.window, pending)
                if answer == RESTORE:
                    return self.open_recovered(pending)
                if answer == DISCARD:
                    self.recovery.discard(pending)
                elif pending.key == self.recovery.key_for(path):
                    self.recovery.set_aside(pending)
        try:
            reviewer = DocxReviewer.open(path, author=self.window.settings.author)
        except CorruptDocxError as exc:  # named, in plain words, with its readable text offered
            return explain_damaged(self, path, exc)
        except DocxError as exc:
            self._error("The document could not be opened", f"{Path(path).name} could not be opened. {exc}")
            return False
        self._leave_document()
        self._show(reviewer, path)
        self.recent.add(path)
        self.window.record("open", path=path)
        self._status(f"Opened {path}", 5000)
        self._tell_concealed_text()
        self._tell_open_warnings()
        return True

    def open_copy(self, path: str | os.PathLike, name: str | None = None, data: bytes | None = None) -> bool:
        """Open a document as a new, untitled copy (the bundled sample; `data`: what stands for the file,
        such as the text recovered from a damaged one): Save asks where, so the original is never
        written over."""
        path = os.fspath(path)
        if not self.confirm_discard():
            return False
        try:
            reviewer = DocxReviewer.from_bytes(data or Path(path).read_bytes(), author=self.window.settings.author)
        except (DocxError, OSError) as exc:
            self._error("The document could not be opened", str(getattr(exc, "strerror", None) or exc))
            return False
        self._leave_document()
        self.window.untitled_name = name or f"{Path(path).stem} (copy).docx"
        self._show(reviewer, None)
        self.window.record("open", copyOf=path)
        self._status(f"Opened a copy of {Path(path).name}: Save asks where to keep it.", 8000)
        self._tell_concealed_text()
        self._tell_open_warnings()
        return True

    def _show(self, reviewer: DocxReviewer, path: str | None, saved: bool = True,
              digest: str | None = None) -> None:
        """Show `reviewer` in the window, remembering the digest of the file it came from."""
        self._source_digest = digest if digest is not None else (file_digest(path) if path else None)
        self.window.install(reviewer, path, saved)
        self.disk.opened(path)

    def confirm_discard(self) -> bool:
        """True when there are no unsaved edits, or the user saved or dropped them."""
        window = self.window
        if not window.modified or not self.ask_before_discarding:
            return True
        answer = QMessageBox.question(
            window, APP_NAME, f"{window.display_name} has changes that are not "
            "saved. Save them first?", QMessageBox.Save | QMessageBox.Discard | QMessageBox.Cancel, QMessageBox.Save)
        if answer == QMessageBox.Save:
            return self.save_document()
        return answer == QMessageBox.Discard

    def _error(self, title: str, message: str) -> None:
        self._status(message, 10000)
        QMessageBox.warning(self.window, title, message)

    def tell_missing_fonts(self) -> None:
        """A font the document names that this computer lacks is named once per document, with what
        the pages use instead (lines and pages may fall differently than in Word)."""
        layout = self.window.view.document_layout
        if layout is None or self._fonts_told_for is self.window.reviewer:
            return
        self._fonts_told_for = self.window.reviewer
        notice = self.font_notice
        if notice is None:
            notice = self.font_notice = InfoBar("fontNotice")
            column = self.window.centralWidget().layout()
            column.insertWidget(column.indexOf(self.window.view), notice)
        notice.tell(describe_font_substitutions(layout.font_substitutions))

    def _tell_concealed_text(self, status: bool = True) -> None:
        """Text the lawyer may not see (hidden, white on white, under 2 pt) is announced on open, in a
        bar above the pages and (unless `status` is False) in the status bar (issue 12)."""
        notice = self.concealed_notice
        if notice is None:
            notice = self.concealed_notice = ConcealedNotice()
            notice.showRequested.connect(self.window.view.scroll_to_block)
            column = self.window.centralWidget().layout()
            column.insertWidget(column.indexOf(self.window.view), notice)
        try:
            report = self.window.reviewer.concealed_text()
        except Exception:  # noqa: BLE001 - the check is an extra: a fault in it must not stop the reading
            notice.set_report(None)
            self._status("The document could not be checked for hidden text.", 10000)
            return
        if notice.set_report(report) and status:
            self._status(report.describe(), 15000)

    def _tell_open_warnings(self) -> None:
        """What the document opened without (a damaged part, named) or was read as (Strict Open XML),
        in a bar above the pages, with the button that repairs the damaged parts at save."""
        notice = self.warnings_notice
        if notice is None:
            notice = self.warnings_notice = InfoBar(
                "openWarningsNotice", REPAIR_ACTION,
                "Write a minimal sound part in place of each damaged one when you save. Off: they are "
                "written as they were read.")
            notice.action_button.setCheckable(True)
            notice.action_button.toggled.connect(self.set_repair_damaged)
            column = self.window.centralWidget().layout()
            column.insertWidget(column.indexOf(self.window.view), notice)
        self._show_open_warnings()

    def _show_open_warnings(self) -> None:
        notice = self.warnings_notice
        if notice is None or self.window.reviewer is None:
            return
        repairable = repairable_parts(self.window.reviewer)
        repair = self.damaged_parts == REBUILD
        button = notice.action_button
        button.setVisible(bool(repairable))
        button.blockSignals(True)  # showing the choice is not making it
        button.setChecked(repair)
        button.blockSignals(False)
        notice.tell(describe_open_warnings(self.window.reviewer.open_warnings, repairable, repair))

    @property
    def damaged_parts(self) -> str:
        """What a save writes for the damaged parts the open document was read without: KEEP (them as
        read, the default: nothing is lost) or REBUILD (minimal sound ones), as the lawyer chose for
        this document. A document opened next starts again from KEEP."""
        chosen = self._repair_for
        return REBUILD if chosen is not None and chosen is self.window.reviewer else KEEP

    def set_repair_damaged(self, repair: bool) -> None:
        """The lawyer's choice for the open document's damaged parts, for every save from now on."""
        if self.window.reviewer is None or repair == (self.damaged_parts == REBUILD):
            return
        self._repair_for = self.window.reviewer if repair else None
        self.window.record("damaged_parts", choice=self.damaged_parts)
        self._show_open_warnings()

    def _leave_document(self) -> None:
        """The open document's unsaved work was saved or dropped: its recovery copy goes."""
        if self.window.reviewer is not None:
            self.recovery.remove(self.window.path)

    def close(self) -> None:
        """The window closes, its work saved or dropped: no more recovery copies, and its own goes."""
        self.autosaver.stop()
        self.disk.stop()
        self._leave_document()

    def open_dialog(self) -> bool:
        start = str(Path(self.window.path).parent) if self.window.path else ""
        chosen, _ = QFileDialog.getOpenFileName(self.window, "Open document", start, DOCX_FILTER)
        return self.open_document(chosen) if chosen else False

    def fill_recent_menu(self) -> None:
        menu = self.window.recent_menu
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
        menu.addAction("&Clear list", self.recent.clear)

    def drag_enter(self, event) -> None:
        """A drag over the window: taken when it carries a .docx file."""
        if _docx_paths(event.mimeData()):
            event.acceptProposedAction()
        else:
            event.ignore()

    def drop(self, event) -> None:
        """A drop on the window: its first .docx file opens."""
        paths = _docx_paths(event.mimeData())
        if not paths:
            event.ignore()
            return
        event.acceptProposedAction()
        self.open_document(paths[0])

    # -- saving ---------------------------------------------------------------------------------------

    def save_document(self, path: str | os.PathLike | None = None) -> bool:
        """Save to `path` (Save As without options) or to the file the document came from."""
        window = self.window
        if window.reviewer is None:
            return False
        target = os.path.abspath(os.fspath(path)) if path is not None else window.path
        if target is None:
            return self.save_as_dialog()
        written = self._write(target)
        if written is None:
            return False
        if window.path != written:
            self.recovery.remove(window.path)
            if window.audit is not None:  # the audit trail follows the document to its new name
                window.record("save_as", path=written)
                window.audit = window.audit.continue_as(written)
        window.path = written
        window.saved_version = window.reviewer.document_version()
        self._source_digest = hashlib.sha256(Path(written).read_bytes()).hexdigest()
        self.disk.saved(written)  # what is on disk is ours: nothing to tell
        self.recovery.remove(written)
        self.recent.add(written)
        window.record("save", path=written)
        window.update_title()
        repaired = " with its damaged parts repaired" if self.damaged_parts == REBUILD \
            and repairable_parts(window.reviewer) else ""
        self._status(f"Saved {written}{repaired}", 5000)
        return True

    def _write(self, target: str, force: bool = False) -> str | None:
        """reviewer.save with the checks and dialogs around it; the path written, or None."""
        problem = read_only_problem(target)
        if problem is not None:
            self._error("The document was not saved", problem)
            return None
        try:
            return self.window.reviewer.save(target, force=force, damaged_parts=self.damaged_parts)
        except SaveTargetMissingError:
            return self._after_question(target, self.ask_save_missing(target),
                                        "Not saved: the document is still open here, unsaved.")
        except SaveConflictError:
            return self._after_question(target, self.ask_save_conflict(target),
                                        "Not saved: the file on disk was left as the other program wrote it.")
        except DocxError as exc:
            self._error("The document was not saved", write_problem(target, exc))
            return None

    def _after_question(self, target: str, choice: str, cancelled: str) -> str | None:
        """Act on the answer to a save's question: write anyway, Save As, or say nothing was saved."""
        if choice == OVERWRITE:
            return self._write(target, force=True)
        if choice == SAVE_AS:
            chosen = self._ask_save_path("Save document as", target, DOCX_FILTER)
            return self._write(chosen) if chosen else None
        self._status(cancelled, 8000)
        return None

    def ask_save_conflict(self, target: str) -> str:
        """The file changed on disk since it was opened: SAVE_AS, OVERWRITE or CANCEL."""
        return self._ask_save_over(f"{Path(target).name} was changed by another program after you opened it here.",
                                   "Save your version under a new name, or replace the file on disk with your "
                                   "version (the other program's changes are then lost).", "&Overwrite")

    def ask_save_missing(self, target: str) -> str:
        """The file was moved or deleted since it was opened: SAVE_AS, OVERWRITE (save it there
        again) or CANCEL."""
        return self._ask_save_over(f"{Path(target).name} was moved or deleted after you opened it here.",
                                   f"Save your version under a name you choose, or save it again as {target}.",
                                   "Save It &There Again")

    def _ask_save_over(self, text: str, informative: str, overwrite_label: str) -> str:
        """Save As (the default), write over the file anyway, or Cancel: SAVE_AS, OVERWRITE or CANCEL."""
        box = QMessageBox(QMessageBox.Warning, APP_NAME, text, QMessageBox.NoButton, self.window)
        box.setInformativeText(informative)
        save_as = box.addButton("Save &As…", QMessageBox.AcceptRole)
        overwrite = box.addButton(overwrite_label, QMessageBox.DestructiveRole)
        box.addButton(QMessageBox.Cancel)
        box.setDefaultButton(save_as)
        box.exec()
        clicked = box.clickedButton()
        return SAVE_AS if clicked is save_as else OVERWRITE if clicked is overwrite else CANCEL

    def _ask_save_path(self, title: str, suggested: str, filters: str) -> str | None:
        chosen, _ = QFileDialog.getSaveFileName(self.window, title, suggested, filters)
        return os.path.abspath(chosen) if chosen else None

    def save_as_dialog(self) -> bool:
        """Save under a new name. With metadata removed or comments left out the file written is a
        copy: the document open here keeps what it has, and its own file stays the one it saves to."""
        if self.window.reviewer is None:
            return False
        suggested = self.window.path or str(Path.home() / self.window.display_name)
        chosen = self._ask_save_path("Save document as", suggested, DOCX_FILTER)
        if not chosen:
            return False
        dialog = SaveAsOptionsDialog(self.window, SaveOptions(damaged_parts=self.damaged_parts),
                                     damaged=repairable_parts(self.window.reviewer))
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
            save_with_options(self.window.reviewer, target, options)
        except DocxError as exc:
            self._error("The copy was not saved", write_problem(target, exc))
            return False
        removed = [*options.transforms] + ([] if options.keep_comments else ["comments"]) \
            + (["authors"] if options.anonymise_authors else [])
        self.window.record("save", path=target, copy=True, removed=removed)
        what = describe_removed(options)
        self._status(f"Saved a copy to {target} {what}; you are still working on "
                     f"{self.window.display_name}.", 10000)
        if (self.open_copy_chooser or self.ask_open_copy)(target, what):
            self.open_document(target)
        return True

    def ask_open_copy(self, target: str, what: str) -> bool:
        """After Save As with privacy options: keep working on this document, or switch to the copy?"""
        box = QMessageBox(QMessageBox.Information, APP_NAME, f"Saved a copy to {Path(target).name} {what}.",
                          QMessageBox.NoButton, self.window)
        box.setInformativeText(f"You are still working on {self.window.display_name}, which keeps everything. "
                               "Open the copy instead?")
        open_copy = box.addButton("&Open the copy", QMessageBox.AcceptRole)
        box.addButton("&Keep working here", QMessageBox.RejectRole)
        box.setDefaultButton(open_copy)
        box.exec()
        return box.clickedButton() is open_copy

    # -- compare and exports --------------------------------------------------------------------------

    def compare_dialog(self):
        """Choose the original and the revised version side by side in one dialog; their redline opens
        in a new window (returned)."""
        from .app_shell.compare_dialog import choose_versions

        chosen = choose_versions(self.window)
        return self.compare(*chosen) if chosen else None

    def compare(self, base: str, revised: str):
        try:
            from .compare_window import CompareWindow  # (on first use: not needed for the first page)

            window = CompareWindow(base, revised, author=self.window.settings.author)
        except DocxError as exc:
            self._error("The versions could not be compared", str(exc))
            return None
        window.setAttribute(Qt.WA_DeleteOnClose)
        window.resize(self.window.size())
        window.show()
        self.compare_windows.append(window)
        window.destroyed.connect(lambda _o=None, w=window: self.compare_windows.remove(w)
                                 if w in self.compare_windows else None)
        return window

    def _export(self, title: str, suggested_suffix: str, filters: str, write) -> str | None:
        window = self.window
        if window.reviewer is None:
            return None
        stem = Path(window.path).with_suffix("") if window.path else Path.home() / Path(window.display_name).stem
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
        self._status(message, 8000)
        return target

    def export_pdf_dialog(self) -> str | None:
        """The pages as shown: in the markup view chosen (redlines and balloons in All Markup)."""
        shown = {"all": ("with redlines and comments", " (redline).pdf"),
                 "simple": ("in Simple Markup", " (simple markup).pdf"),
                 "none": ("with every change accepted", " (no markup).pdf"),
                 "original": ("as they were before the tracked changes", " (original).pdf")}
        words, suffix = shown.get(self.window.view.markup_view, shown["all"])
        from .export import export_pdf  # (on first use: not needed for the first page)

        def write(target):
            layout = self.window.view.document_layout or self.window.view.finish_layout()
            pages = export_pdf(self.window.reviewer, target, markup=True, layout=layout)
            return f"Exported {counted(pages, 'page')} {words} to {target}"

        return self._export("Export PDF (as shown)", suffix, PDF_FILTER, write)

    def export_clean_pdf_dialog(self) -> str | None:
        from .export import export_pdf

        def write(target):
            pages = export_pdf(self.window.reviewer, target, markup=False)
            return f"Exported {counted(pages, 'page')}, every change accepted, to {target}"

        return self._export("Export clean PDF", " (clean).pdf", PDF_FILTER, write)

    def export_audit_jsonl_dialog(self) -> str | None:
        def write(target):
            self.window.audit.export_jsonl(target)
            return f"Exported {counted(len(self.window.audit.entries), 'audit event')} to {target}"

        return self._export("Export audit log", " audit.jsonl", "JSON Lines (*.jsonl);;All files (*)", write)

    def export_audit_html_dialog(self) -> str | None:
        def write(target):
            self.window.audit.export_html(target)
            return f"Exported the audit report ({counted(len(self.window.audit.entries), 'event')}) to {target}"

        return self._export("Export audit report", " audit.html", "HTML (*.html)", write)

    # -- recovery -------------------------------------------------------------------------------------

    def _recovery_source(self):
        """What the autosaver writes: this document's bytes while it has unsaved work."""
        window = self.window
        if window.reviewer is None or not window.modified:
            return None
        return window.path, window.reviewer.to_bytes(damaged_parts=self.damaged_parts), self._source_digest

    def open_recovered(self, entry: RecoveryEntry) -> bool:
        """Open a recovery copy as the unsaved work on its original file. When that file has changed
        on disk since, saving over it asks first (as after any outside change)."""
        if not self.confirm_discard():
            return False
        try:
            recovered = DocxReviewer.from_bytes(entry.read(), author=self.window.settings.author)
        except (DocxError, OSError) as exc:
            self._error("The recovered document could not be opened", str(exc))
            return False
        original = entry.original_path
        on_disk = None
        if original and os.path.isfile(original):
            on_disk = Path(original).read_bytes()
            if entry.source_digest and hashlib.sha256(on_disk).hexdigest() != entry.source_digest:
                on_disk = b""  # a digest the file cannot have: saving over it is a conflict
        reviewer = DocxReviewer(recovered.document, author=self.window.settings.author, source_path=original,
                                source_bytes=on_disk)
        self._leave_document()
        if not original:  # untitled work: it stays untitled, and Save asks where
            self.window.untitled_name = "Recovered document.docx"
        self._show(reviewer, original, saved=False, digest=entry.source_digest)
        self.window.record("recover", path=original, recoveredFrom=str(entry.data_path), savedAt=entry.saved_at)
        self._status(f"Restored the unsaved work on {entry.name} from {entry.saved_at}. "
                     "Save it to keep it.", 10000)
        self._tell_concealed_text(status=False)  # the bar says it; the status bar keeps "Save it"
        self._tell_open_warnings()
        self.autosaver.changed()
        return True
