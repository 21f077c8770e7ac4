"""ReviewWindow: the document as pages in the middle, Claude in a dock on the right.

A first, small main window: open, save, save as, assistant settings, accept or reject the tracked
change last clicked (or the one under the selection), zoom. The model works through a LiveBridge
over the open document, so its proposals land in the pages as it makes them.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QFileDialog, QMainWindow, QMessageBox

from .. import APP_NAME
from ..assistant import AssistantSettings, load_settings
from ..docx import DocxError, DocxReviewer
from .chat_panel import ChatPanel
from .live_bridge import LiveBridge
from .page_view import PageView
from .settings_dialog import SettingsDialog

INLINE_CHANGES = ("insertion", "deletion", "formatting")  # resolving these touches one paragraph only
MARK_OF = {"insertion": "paragraphMarkInserted", "deletion": "paragraphMarkDeleted"}
DOCX_FILTER = "Word documents (*.docx);;All files (*)"


class ReviewWindow(QMainWindow):
    documentOpened = Signal(str)  # path
    documentChanged = Signal()  # an edit by Claude, or a change accepted or rejected here

    def __init__(self, settings: AssistantSettings | None = None, parent=None):
        super().__init__(parent)
        self.settings = settings if settings is not None else load_settings()
        self.reviewer: DocxReviewer | None = None
        self.bridge: LiveBridge | None = None
        self.path: str | None = None
        self.ask_before_discarding = True  # closing or opening over unsaved edits asks first
        self._clicked_change: int | None = None
        self._saved_version: str | None = None

        self.view = PageView()
        self.setCentralWidget(self.view)
        self.chat = ChatPanel(self.settings, parent=self)
        self.dock = QDockWidget("Claude", self)
        self.dock.setObjectName("assistantDock")
        self.dock.setFeatures(QDockWidget.DockWidgetMovable | QDockWidget.DockWidgetFloatable)
        self.dock.setWidget(self.chat)
        self.addDockWidget(Qt.RightDockWidgetArea, self.dock)
        self.resizeDocks([self.dock], [420], Qt.Horizontal)

        self._make_actions()
        self.view.changeClicked.connect(self._on_change_clicked)
        self.view.layoutFailed.connect(lambda message: self.statusBar().showMessage(message))
        self.chat.settingsRequested.connect(self.show_settings)
        self.chat.busyChanged.connect(lambda busy: self.open_action.setEnabled(not busy))
        self.statusBar()
        self._update_title()

    # -- actions --------------------------------------------------------------------------------------

    def _action(self, text: str, slot, shortcut=None, tip: str = "") -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        action.setStatusTip(tip)
        action.triggered.connect(lambda _checked=False: slot())
        return action

    def _make_actions(self) -> None:
        self.open_action = self._action("Open…", self.open_dialog, QKeySequence.Open, "Open a .docx document")
        self.save_action = self._action("Save", self.save_document, QKeySequence.Save, "Save the document")
        self.save_as_action = self._action("Save As…", self.save_as_dialog, QKeySequence.SaveAs,
                                           "Save the document under a new name")
        self.settings_action = self._action("Settings…", self.show_settings, None,
                                            "API key, model and the author name of tracked changes")
        self.accept_action = self._action("Accept change", self.accept_change, "Ctrl+Shift+A",
                                          "Accept the tracked change you clicked")
        self.reject_action = self._action("Reject change", self.reject_change, "Ctrl+Shift+R",
                                          "Reject the tracked change you clicked")
        self.zoom_in_action = self._action("Zoom in", self.view.zoom_in, QKeySequence.ZoomIn)
        self.zoom_out_action = self._action("Zoom out", self.view.zoom_out, QKeySequence.ZoomOut)
        self.quit_action = self._action("Quit", self.close, QKeySequence.Quit)

        file_menu = self.menuBar().addMenu("&File")
        for action in (self.open_action, self.save_action, self.save_as_action):
            file_menu.addAction(action)
        file_menu.addSeparator()
        file_menu.addAction(self.settings_action)
        file_menu.addSeparator()
        file_menu.addAction(self.quit_action)
        review_menu = self.menuBar().addMenu("&Review")
        review_menu.addAction(self.accept_action)
        review_menu.addAction(self.reject_action)
        view_menu = self.menuBar().addMenu("&View")
        view_menu.addAction(self.zoom_in_action)
        view_menu.addAction(self.zoom_out_action)
        view_menu.addAction(self.dock.toggleViewAction())

        toolbar = self.addToolBar("Main")
        toolbar.setObjectName("mainToolbar")
        toolbar.setMovable(False)
        for action in (self.open_action, self.save_action, None, self.accept_action, self.reject_action, None,
                       self.zoom_out_action, self.zoom_in_action, None, self.settings_action):
            if action is None:
                toolbar.addSeparator()
            else:
                toolbar.addAction(action)

    # -- documents ------------------------------------------------------------------------------------

    @property
    def modified(self) -> bool:
        return self.reviewer is not None and self.reviewer.document_version() != self._saved_version

    def open_document(self, path: str | os.PathLike) -> bool:
        """Show a document and point Claude at it (a new conversation). False, after telling the
        user why, when it cannot be opened."""
        path = os.fspath(path)
        if not self._confirm_discard():
            return False
        try:
            reviewer = DocxReviewer.open(path, author=self.settings.author)
        except DocxError as exc:
            self._error("The document could not be opened", str(exc))
            return False
        if self.chat.busy:
            self.chat.shutdown_turn()
        self.reviewer = reviewer
        self.path = path
        self._clicked_change = None
        self.bridge = LiveBridge(reviewer, self.view, author=self.settings.author, on_changed=self._on_model_changed)
        self.chat.set_bridge(self.bridge, title=Path(path).name)
        self._saved_version = reviewer.document_version()
        self._update_title()
        self.statusBar().showMessage(f"Opened {path}", 5000)
        self.documentOpened.emit(path)
        return True

    def save_document(self, path: str | os.PathLike | None = None) -> bool:
        """Save to `path` (Save As) or to the file the document came from."""
        if self.reviewer is None:
            return False
        target = os.fspath(path) if path is not None else self.path
        if target is None:
            return self.save_as_dialog()
        try:
            written = self.reviewer.save(target)
        except DocxError as exc:
            self._error("The document was not saved", str(exc))
            return False
        self.path = written
        self._saved_version = self.reviewer.document_version()
        self._update_title()
        self.statusBar().showMessage(f"Saved {written}", 5000)
        return True

    def open_dialog(self) -> bool:
        start = str(Path(self.path).parent) if self.path else ""
        chosen, _ = QFileDialog.getOpenFileName(self, "Open document", start, DOCX_FILTER)
        return self.open_document(chosen) if chosen else False

    def save_as_dialog(self) -> bool:
        if self.reviewer is None:
            return False
        chosen, _ = QFileDialog.getSaveFileName(self, "Save document as", self.path or "", DOCX_FILTER)
        return self.save_document(chosen) if chosen else False

    # -- tracked changes ------------------------------------------------------------------------------

    def _on_change_clicked(self, change_id: int) -> None:
        self._clicked_change = change_id
        change = self._change(change_id)
        if change is not None:
            who = f" by {change.author}" if change.author else ""
            self.statusBar().showMessage(f"{change.type.capitalize()}{who}: “{change.text[:60]}”. "
                                         "Accept or reject it from the Review menu.")

    def _change(self, change_id: int | None):
        if self.reviewer is None or change_id is None:
            return None
        return next((c for c in self.reviewer.get_changes() if c.id == change_id), None)

    def current_change_id(self) -> int | None:
        """The change last clicked in the pages, else the one under the selection."""
        if self._change(self._clicked_change) is not None:
            return self._clicked_change
        return self._change_under_selection()

    def _change_under_selection(self) -> int | None:
        # PageView keeps its selection and redline index private; read them the way its own
        # click handling does (PageView._click) until it offers this itself
        view = self.view
        for pos, back in ((view._anchor, 0), (view._caret, 1)):
            if pos is None or not view._flow.entries:
                continue
            frag = view._flow.frag(pos)
            found = view._marks.change_at(frag, max(pos.offset - back, 0))
            if found is not None:
                return found[0]
        return None

    def accept_change(self, change_id: int | None = None) -> bool:
        return self._resolve(True, change_id)

    def reject_change(self, change_id: int | None = None) -> bool:
        return self._resolve(False, change_id)

    def _resolve(self, accept: bool, change_id: int | None) -> bool:
        verb = "accept" if accept else "reject"
        change = self._change(change_id if change_id is not None else self.current_change_id())
        if change is None:
            self.statusBar().showMessage(f"Click a tracked change in the document first, then {verb} it.", 5000)
            return False
        resolve = self.reviewer.accept_change if accept else self.reviewer.reject_change
        mark = self._paragraph_mark_of(change)  # found first: resolving the text changes the block
        done = resolve(change.id)
        if done and mark is not None:
            resolve(mark.id)
        if not done:
            self.statusBar().showMessage(f"That change could not be {verb}ed; it may already be resolved.", 5000)
            return False
        self._clicked_change = None
        # the document's version moves with the accept/reject; the bridge reads it live, so a
        # batch Claude pinned to the old version is refused rather than applied to changed text
        inline = change.type in INLINE_CHANGES and change.block_id and mark is None
        self._relayout({change.block_id} if inline else None)
        self._update_title()
        self.statusBar().showMessage(f"{verb.capitalize()}ed the {change.type} “{change.text[:60]}”.", 5000)
        self.documentChanged.emit()
        return True

    def _paragraph_mark_of(self, change):
        """A whole inserted (or deleted) paragraph is two revisions, its text and its paragraph
        mark; the lawyer sees one change, so both are resolved together (as Word does)."""
        kind = MARK_OF.get(change.type)
        if kind is None:
            return None
        return next((c for c in self.reviewer.get_changes() if c.type == kind and c.block_id == change.block_id
                     and c.author == change.author and c.text == change.text), None)

    def _relayout(self, block_ids: set[str] | None) -> None:
        layout = self.view.document_layout
        if layout is None or not block_ids:
            self.view.relayout()
            return
        h, v = self.view.horizontalScrollBar().value(), self.view.verticalScrollBar().value()
        layout.relayout(changed_block_ids=block_ids)
        self.view.set_layout(layout, self.reviewer)
        self.view.horizontalScrollBar().setValue(h)
        self.view.verticalScrollBar().setValue(v)

    def _on_model_changed(self, result: dict) -> None:
        self._update_title()
        n = len(result.get("applied") or [])
        if n:
            self.statusBar().showMessage(f"Claude proposed {n} edit{'s' if n != 1 else ''}: "
                                         "they are tracked changes for you to accept or reject.", 8000)
        self.documentChanged.emit()

    # -- settings, title, closing ----------------------------------------------------------------------

    def show_settings(self) -> bool:
        dialog = SettingsDialog(self.settings, self)
        if not dialog.exec():
            return False
        self.apply_settings()
        self.statusBar().showMessage(dialog.message, 8000)
        return True

    def apply_settings(self) -> None:
        """Use self.settings (changed in place by the dialog) from now on."""
        self.chat.set_settings(self.settings)
        if self.reviewer is not None:
            self.reviewer.author = self.settings.author
            self.reviewer.engine.author = self.settings.author
        if self.bridge is not None:
            self.bridge.author = self.settings.author

    def _update_title(self) -> None:
        name = Path(self.path).name if self.path else "No document"
        self.setWindowModified(self.modified)
        self.setWindowTitle(f"{name}[*] — {APP_NAME}")

    def _confirm_discard(self) -> bool:
        """True when there are no unsaved edits, or the user saved or dropped them."""
        if not self.modified or not self.ask_before_discarding:
            return True
        answer = QMessageBox.question(
            self, APP_NAME, f"{Path(self.path).name if self.path else 'The document'} has changes that are not "
            "saved. Save them first?", QMessageBox.Save | QMessageBox.Discard | QMessageBox.Cancel, QMessageBox.Save)
        if answer == QMessageBox.Save:
            return self.save_document()
        return answer == QMessageBox.Discard

    def _error(self, title: str, message: str) -> None:
        self.statusBar().showMessage(message, 10000)
        QMessageBox.warning(self, title, message)

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt override
        if not self._confirm_discard():
            event.ignore()
            return
        self.chat.shutdown()
        super().closeEvent(event)
