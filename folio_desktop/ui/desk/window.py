"""ReviewWindow: the review desk. The document as pages in the middle; outline, changes, comments and
the contract checks docked on the left; Claude docked on the right; menus, toolbar and the usual shortcuts.

Every change to the document goes through one ReviewActions (the lawyer's edits, accepts and
rejects, and each of Claude's turns as a whole), so one undo stack covers them all; comments go
straight through the reviewer. After any change the view is laid out again from the first page the
change touches, and the panels read the document again. The model works through a LiveBridge over
the open document, so its proposals land in the pages as it makes them.

The window owns the open document (reviewer, path, ReviewActions, audit log, Claude's bridge), the
widgets and the wiring between them. Opening, saving, exporting and recovery belong to its `files`
(files.DocumentFiles); the editing and review commands to its `commands` (commands.DeskCommands); the
menus (actions.py) call the methods of whichever of the three owns them.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QUndoGroup
from PySide6.QtWidgets import QApplication, QDockWidget, QMainWindow, QMessageBox, QVBoxLayout, QWidget

from ... import APP_NAME
from ...agents.bridges import decode_comment_id
from ...assistant.settings import AssistantSettings, keyring_key, load_settings, read_keyring_key
from ...docx import DocxReviewer
from ..access_keys import install_button_keys
from ..chat.audit_log import AuditLog
from ..chat.audit_trail import ACTING_TOOLS, action_entries, proposal_entries, tool_call_entry
from ..chat.live_bridge import LiveBridge
from ..chat.panel import ChatPanel
from ..chat.version_compare import compare_with_open_document
from ..disk.recent_files import desktop_settings
from ..pages.geometry import top_block_id
from ..pages.view import PageView
from ..panels.changes import ChangesPanel
from ..panels.checks import ChecksPanel
from ..panels.comments import CommentsPanel
from ..panels.find_bar import FindBar
from ..panels.outline import OutlinePanel
from ..panels.status_indicators import StatusIndicators
from ..review_actions import ReviewActions
from .actions import DOCUMENT_ACTIONS, MARKUP, install_actions
from .app_shell.commands import ShellCommands
from .app_shell.screen_fit import fit_restored
from .commands import DeskCommands
from .comment_commands import CommentCommands
from .files import DocumentFiles
from .page_menu import PageMenu
from .panes import Pane, Panes
from .settings_dialog import SettingsDialog
from .side_strips import SIDE_WIDTHS, SideStrips

if TYPE_CHECKING:  # sharing is imported when the lawyer first shares: the MCP SDK and its web server
    # take longer to import than the first page takes to show (tests/unit/ui/desk/test_start_up.py)
    from ..chat.mcp_share import McpShare
    from ..chat.share_dialog import ShareDialog

MARKUP_KEY = "view/markup"  # the markup view last chosen, in desktop.ini
FOLLOW_MS = 120  # the outline follows the scroll once it pauses this long
STATE_VERSION = 2  # bump when the docks change, so an old saved layout is not applied to new docks
SHARE_PORT_KEY = "mcp/port"  # kept (as the token is), so a client configured once connects again next time


class KeyringLookup(QObject):
    """The API key stored in the system keyring, looked up on a thread of its own (keyring finds its
    backend by scanning the installed packages: a few tenths of a second the window does not wait for);
    `found` carries it to the GUI thread, "" when there is none."""

    found = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        threading.Thread(target=self._look_up, name="keyring", daemon=True).start()

    def _look_up(self) -> None:
        key = keyring_key() or ""
        try:
            self.found.emit(key)  # queued to the window's thread
        except RuntimeError:  # the window closed meanwhile
            pass


class ReviewWindow(QMainWindow):
    """The review desk's main window: the open document and the widgets that show it; its files and
    its commands are the two objects `files` and `commands`."""

    documentOpened = Signal(str)  # path
    documentChanged = Signal()  # an edit, accept, reject, comment, undo or a change Claude made

    def __init__(self, settings: AssistantSettings | None = None, parent=None):
        super().__init__(parent)
        install_button_keys()  # Alt+D presses Discard: the standard buttons' access keys (access_keys.py)
        # the keyring is asked once the first page shows (finding its backend takes longer than the page)
        self._keyring_due = settings is None
        self.settings = settings if settings is not None else load_settings(use_keyring=False)
        self._panels_due: DocxReviewer | None = None  # a document the panels will read after its first page
        self.reviewer: DocxReviewer | None = None
        self.bridge: LiveBridge | None = None
        self.review_actions: ReviewActions | None = None
        self.audit: AuditLog | None = None
        self.path: str | None = None
        self.untitled_name: str | None = None  # the name an untitled copy (path None) is saved under
        self.saved_version: str | None = None  # the document's version when it was opened or last saved
        self._tool_args: dict[str, dict] = {}
        self.mcp_share: McpShare | None = None  # the open document shared with MCP clients (Tools menu)
        self.share_dialog: ShareDialog | None = None

        self.desktop = desktop_settings(self.settings.config_dir)
        self.files = DocumentFiles(self)
        self.undo_group = QUndoGroup(self)

        self.view = PageView()
        self.find_bar = FindBar()
        self.find_bar.hide()
        self.find_bar.closed.connect(self.view.setFocus)
        central = QWidget()
        column = QVBoxLayout(central)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addWidget(self.find_bar)
        column.addWidget(self.view, 1)
        self.setCentralWidget(central)

        self.outline = OutlinePanel()
        self.changes = ChangesPanel()
        self.comments = CommentsPanel()
        self.checks = ChecksPanel()
        self.chat = ChatPanel(self.settings, parent=self)
        self.outline_dock = self._dock("Outline", "outlineDock", self.outline, Qt.LeftDockWidgetArea)
        self.changes_dock = self._dock("Changes", "changesDock", self.changes, Qt.LeftDockWidgetArea)
        self.comments_dock = self._dock("Comments", "commentsDock", self.comments, Qt.LeftDockWidgetArea)
        self.checks_dock = self._dock("Checks", "checksDock", self.checks, Qt.LeftDockWidgetArea)
        self.dock = self._dock("Claude", "assistantDock", self.chat, Qt.RightDockWidgetArea)
        self.splitDockWidget(self.outline_dock, self.changes_dock, Qt.Vertical)
        self.tabifyDockWidget(self.changes_dock, self.comments_dock)
        self.tabifyDockWidget(self.comments_dock, self.checks_dock)
        self.changes_dock.raise_()
        self.checks_dock.visibilityChanged.connect(self.checks.brought_to_front)
        self.resizeDocks([self.outline_dock, self.dock], [SIDE_WIDTHS[Qt.LeftDockWidgetArea],
                                                          SIDE_WIDTHS[Qt.RightDockWidgetArea]], Qt.Horizontal)
        self.resizeDocks([self.outline_dock, self.changes_dock], [300, 500], Qt.Vertical)

        # narrow: the panels fold into strips of buttons
        self.side_strips = SideStrips(self, self.view.fit_sheet_width,
                                      (self.outline_dock, self.changes_dock, self.comments_dock, self.checks_dock,
                                       self.dock))
        self.panes = self._panes()
        self.commands = DeskCommands(self)
        self.comment_commands = CommentCommands(self)  # new, edited and deleted comments
        self.shell = ShellCommands(self)  # File > Print and the Help menu
        install_actions(self, self.undo_group, (self.outline_dock, self.changes_dock, self.comments_dock,
                                                self.checks_dock, self.dock))
        self.comment_commands.install_menu()
        self.commands.install_editing()
        self.page_menu = PageMenu(self)  # right-click in the pages: accept or reject the change there
        self.indicators = StatusIndicators(self)  # the status bar's page, zoom and Track Changes
        self._connect()
        self.setAcceptDrops(True)
        self.statusBar()
        self.update_title()
        self._update_enabled()
        self.restore_layout()
        self.set_markup_view(self.desktop.value(MARKUP_KEY, "all"), remember=False)

    def _dock(self, title: str, name: str, widget: QWidget, area) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        return dock

    def _panes(self) -> Panes:
        """The panes F6 moves the keyboard through, in order (panes.py)."""
        pages = Pane(self.view, self.view)
        named = {"outline": Pane(self.outline, self.outline.tree, self.outline_dock),
                 "changes": Pane(self.changes, self.changes.list, self.changes_dock),
                 "comments": Pane(self.comments, self.comments.tree, self.comments_dock),
                 "checks": Pane(self.checks, self.checks.tree, self.checks_dock),
                 "claude": Pane(self.chat, self.chat.composer, self.dock)}
        return Panes([Pane(self.find_bar, self.find_bar.field), pages, *named.values()], home=pages, parent=self,
                     named=named)

    def _connect(self) -> None:
        view, commands = self.view, self.commands
        view.changeClicked.connect(commands.on_change_clicked)
        view.commentClicked.connect(self._on_comment_clicked)
        view.layoutFailed.connect(lambda message: self.statusBar().showMessage(message))
        view.layoutFinished.connect(lambda _n: self._on_layout_finished())
        # a turn of the event loop later: the first page is on screen before the panels read the document
        view.firstPagePainted.connect(lambda: QTimer.singleShot(0, self._after_first_paint))
        self._follow_timer = QTimer(self)
        self._follow_timer.setSingleShot(True)
        self._follow_timer.setInterval(FOLLOW_MS)
        self._follow_timer.timeout.connect(self.follow_scroll)
        view.verticalScrollBar().valueChanged.connect(lambda _v: self._follow_timer.start())

        self.outline.blockActivated.connect(commands.go_to_block)
        self.checks.blockActivated.connect(commands.go_to_finding)
        self.changes.changeActivated.connect(commands.show_change)
        self.changes.acceptRequested.connect(lambda ids: commands.accept_changes(ids))
        self.changes.rejectRequested.connect(lambda ids: commands.reject_changes(ids))
        self.comments.commentActivated.connect(commands.show_comment)
        self.comments.replyRequested.connect(commands.reply_to_comment)
        self.comments.resolveRequested.connect(commands.resolve_comment)
        self.comments.addRequested.connect(commands.add_comment)
        # after show_comment: the view then selects the thread's own range and opens its balloon
        self.comments.commentActivated.connect(lambda cid: self.view.balloons.show_comment(cid, emit=False))
        # Reply / Resolve / Reopen in a balloon go through the same commands (undo, audit log)
        view.balloons.replyRequested.connect(commands.reply_to_comment)
        view.balloons.resolveRequested.connect(commands.resolve_comment)

        chat, runner = self.chat, self.chat.runner
        view.selectionChanged.connect(lambda: chat.set_selection_available(bool(view.selection.selection_text().strip())))
        chat.settingsRequested.connect(self.show_settings)
        chat.open_comparison = lambda: compare_with_open_document(self)  # its quick action
        chat.busyChanged.connect(lambda busy: self.open_action.setEnabled(not busy))
        # a turn of Claude's is one undo step, however many batches it applies
        runner.turnStarted.connect(self._on_turn_started)
        chat.turnFinished.connect(self._on_turn_finished)
        runner.toolStarted.connect(lambda call_id, _name, args: self._tool_args.__setitem__(call_id, args))
        runner.toolFinished.connect(self._on_tool_finished)

    # -- the open document ----------------------------------------------------------------------------

    @property
    def modified(self) -> bool:
        return self.reviewer is not None and self.reviewer.document_version() != self.saved_version

    @property
    def display_name(self) -> str:
        """The document's file name, or the name an untitled copy will be saved under."""
        if self.path:
            return Path(self.path).name
        return self.untitled_name or "Untitled.docx"

    def install(self, reviewer: DocxReviewer, path: str | None, saved: bool = True) -> None:
        """Show `reviewer` (the document at `path`, or an untitled copy when None) in the view, the
        panels and the chat (files opens it; `saved` False for recovered work)."""
        if self.chat.busy:
            self.chat.shutdown_turn()
        self.stop_sharing()  # the shared document is closing
        old = self.review_actions
        if old is not None:
            self.undo_group.removeStack(old.undo_stack)
            old.deleteLater()
        self.reviewer, self.path = reviewer, path
        self.commands.clicked_change = None
        self.review_actions = ReviewActions(reviewer, self.settings.author, parent=self)
        self.review_actions.changed.connect(self._on_actions_changed)
        self.commands.attach_editing()
        self.undo_group.addStack(self.review_actions.undo_stack)
        self.review_actions.stepped.connect(lambda kind, text: self.record(kind, step=text))
        self.undo_group.setActiveStack(self.review_actions.undo_stack)
        # an untitled copy keeps its trail under its name until Save gives it a file to follow
        audit_key = path or str(Path(self.settings.config_dir) / "untitled" / self.display_name)
        self.audit = AuditLog(audit_key, folder=Path(self.settings.config_dir) / "audit")
        self.audit.who = self.settings.author
        # Claude's proposals carry their own author name, so the changes panel can filter them apart
        self.bridge = LiveBridge(reviewer, self.view, author=self.settings.assistant_author,
                                 on_changed=self._on_model_changed,
                                 resolve_others=self.settings.allow_resolving_others)
        self.chat.set_bridge(None, title=self.display_name)  # not the last document's tools meanwhile
        self._panels_due = reviewer  # the panels (and Claude's tools) once the first page shows: _fill_panels
        self.find_bar.attach(self.view, reviewer)
        self.saved_version = reviewer.document_version() if saved else None
        self.update_title()
        self._update_enabled()
        self.documentOpened.emit(path)

    def _fill_panels(self) -> None:
        """The chat takes the document's tools and the outline, changes and comments panels read the
        document installed last: once its first page is painted (they read the whole document, and
        the tools import the tool layer, which the lawyer does not wait for), or sooner when
        something needs them (the layout finished, a change, a question to Claude)."""
        reviewer, self._panels_due = self._panels_due, None
        if reviewer is not None and reviewer is self.reviewer:
            self.chat.set_bridge(self.bridge, title=self.display_name)
            self.outline.set_document(reviewer)
            self.changes.set_document(reviewer)
            self.comments.set_document(reviewer)
            self.checks.set_document(reviewer)
            self.bridge.checks = self.checks.session  # Claude's check_document reads what the panel read

    def _after_first_paint(self) -> None:
        self._fill_panels()
        if self._keyring_due:
            self._keyring_due = False
            KeyringLookup(self).found.connect(self._keyring_key_found)

    def _keyring_key_found(self, key: str) -> None:
        if read_keyring_key(self.settings, key):
            self.apply_settings()

    def after_change(self, block_ids: set[str] | None, relayout: bool = True) -> None:
        """The document changed: lay out what it touched again, read the panels again, mark the
        window modified and schedule a recovery copy."""
        self._fill_panels()
        self.commands.catch_up.finish()  # what typing left for the panels (the outline), before they read again
        if relayout:
            self.relayout(block_ids)
        self.changes.refresh()
        self.comments.refresh()
        self.checks.refresh()
        if not self.view.is_laid_out:  # a full relayout is running: pages come with it
            self.outline.refresh()
        self.update_title()
        self.files.autosaver.changed()
        self.documentChanged.emit()

    def relayout(self, block_ids: set[str] | None) -> None:
        # remeasures only the changed paragraphs and paginates on only as far as the pages change,
        # keeping the scroll position and the caret
        self.view.relayout_blocks(block_ids)

    def _on_actions_changed(self, block_ids) -> None:
        self.commands.clicked_change = None  # ids are renumbered by accepts, rejects and undo
        self.after_change(set(block_ids) if block_ids else None)

    def _on_model_changed(self, result: dict) -> None:
        # the bridge has already laid the pages out again
        self.after_change(None, relayout=False)
        self._tell_proposed("Claude", result)

    def _tell_proposed(self, who: str, result: dict) -> None:
        n = len(result.get("applied") or [])
        if n:
            self.statusBar().showMessage(f"{who} proposed {n} edit{'s' if n != 1 else ''}: "
                                         "they are tracked changes for you to accept or reject.", 8000)

    def _on_comment_clicked(self, comment_id: int) -> None:
        if self.comments_dock.isVisible():
            self.comments_dock.raise_()  # its tab may be behind the changes panel's
        self.comments.select_comment(comment_id)

    def _on_layout_finished(self) -> None:
        self._fill_panels()
        self.outline.refresh(self.view.document_layout)
        self.follow_scroll()
        self.files.tell_missing_fonts()

    def follow_scroll(self) -> None:
        """Highlight in the outline the section at the top of the pages."""
        if self.reviewer is not None and self.view.pages:
            self.outline.follow(top_block_id(self.view))

    # -- Claude's turns and the audit log ------------------------------------------------------------

    def _on_turn_started(self, text: str) -> None:
        if self.review_actions is not None:
            self.review_actions.begin_agent_turn(text)  # the undo step reads "Claude's turn: <text>"

    def _on_turn_finished(self, _result) -> None:
        if self.review_actions is not None:
            self.review_actions.end_agent_turn()
        self._tool_args.clear()

    def _on_tool_finished(self, call_id: str, name: str, envelope) -> None:
        args = self._tool_args.pop(call_id, {})
        self.record_tool_call(f"Claude ({self.settings.model})", name, args, envelope)
        self._after_direct_action(name, args, envelope)

    def _after_direct_action(self, name: str, args: dict, envelope) -> None:
        """A reply or a resolved thread is made at once, beside the bridge's edits: show it."""
        if name not in ACTING_TOOLS or not envelope.get("ok") or self.reviewer is None:
            return
        cid = decode_comment_id(str(args.get("commentId", "")))
        block = next((c.block_id for c in self.reviewer.get_comments() if c.id == cid), None)
        self.after_change({block} if block else None)

    def record_tool_call(self, who: str, name: str, args: dict, envelope) -> None:
        """A model's tool call in the audit log, with what it proposed or did."""
        if self.audit is None:
            return
        self.audit.record("tool_call", who=who, **tool_call_entry(name, args, envelope))
        for entry in proposal_entries(name, args, envelope):
            self.audit.record("proposal", who=who, **entry)
        for entry in action_entries(name, args, envelope, self.reviewer):
            self.audit.record("action", who=who, **entry)

    # -- sharing with MCP clients ----------------------------------------------------------------------

    def share_with_mcp_client(self) -> ShareDialog | None:
        """Tools > Share with an MCP client: serve the open document (unless it already is) and show how
        to connect a client."""
        if self.reviewer is None:
            return None
        from ...sharing.mcp_http import SharingError
        from ..chat.share_dialog import ShareDialog

        if self.mcp_share is None:
            try:
                self.mcp_share = self._start_sharing()
            except SharingError as exc:
                QMessageBox.warning(self, "Share with an MCP client", str(exc))
                return None
            self.statusBar().showMessage(f"{self.display_name} is shared with MCP clients at {self.mcp_share.url}.")
        if self.share_dialog is None:
            self.share_dialog = ShareDialog(self.display_name, self.mcp_share.url, self.mcp_share.token, self)
            self.share_dialog.stopRequested.connect(self.stop_sharing)
        self.share_dialog.show()
        self.share_dialog.raise_()
        return self.share_dialog

    def _start_sharing(self) -> McpShare:
        from ...sharing.mcp_http import SharingError
        from ...sharing.mcp_window import share_token, write_share_file
        from ..chat.mcp_share import McpShare

        token = share_token(self.settings.config_dir)
        port = int(self.desktop.value(SHARE_PORT_KEY, 0) or 0)
        # the clients' proposals carry Claude's author name, as the panel's do
        bridge = LiveBridge(self.reviewer, self.view, author=self.settings.assistant_author,
                            on_changed=lambda _result: self.after_change(None, relayout=False),
                            resolve_others=self.settings.allow_resolving_others)
        bridge.checks = self.checks.session

        def make(on_port: int) -> McpShare:
            share = McpShare(bridge, self.review_actions, busy=lambda: self.chat.busy, record=self.record_tool_call,
                             token=token, port=on_port, parent=self)
            share.start()
            return share

        try:
            share = make(port)
        except SharingError:
            if not port:
                raise
            share = make(0)  # last time's port is taken now: any free one (the client needs the new address)
        share.callFinished.connect(self._on_share_call)
        self.desktop.setValue(SHARE_PORT_KEY, share.port)
        self.desktop.sync()
        try:  # for `folio-desktop mcp --window`, which clients such as Claude Desktop start themselves
            write_share_file(self.settings.config_dir, share.url, token, self.display_name)
        except OSError as exc:
            self.statusBar().showMessage(f"Claude Desktop cannot find this share: {exc}", 8000)
        return share

    def _on_share_call(self, client: str, name: str, args: dict, envelope) -> None:
        self._after_direct_action(name, args, envelope)
        if name == "suggest_changes" and envelope.get("ok"):
            self._tell_proposed(client, envelope["result"])

    def stop_sharing(self) -> None:
        share, self.mcp_share = self.mcp_share, None
        if share is None:
            return
        from ...sharing.mcp_window import remove_share_file

        share.stop()
        share.deleteLater()
        remove_share_file(self.settings.config_dir, share.url)
        if self.share_dialog is not None:
            self.share_dialog.close()
            self.share_dialog.deleteLater()
            self.share_dialog = None
        self.statusBar().showMessage(f"{self.display_name} is no longer shared with MCP clients.", 8000)

    def record(self, kind: str, **fields) -> None:
        """An event of the lawyer's in the audit log (made under the settings' author name)."""
        if self.audit is not None:
            self.audit.record(kind, who=self.settings.author, **fields)

    # -- settings, title, layout, closing ------------------------------------------------------------

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
        for bridge in (self.bridge, self.mcp_share.bridge if self.mcp_share else None):
            if bridge is not None:
                bridge.author = self.settings.assistant_author
                bridge.resolve_others = self.settings.allow_resolving_others
        if self.review_actions is not None:
            self.review_actions.set_author(self.settings.author)
        if self.audit is not None:
            self.audit.who = self.settings.author
        self.comment_commands.sync_author()

    def update_title(self) -> None:
        name = self.display_name if self.reviewer is not None else "No document"
        self.setWindowModified(self.modified)
        self.setWindowTitle(f"{name}[*] — {APP_NAME}")

    def _update_enabled(self) -> None:
        has_document = self.reviewer is not None
        for name in DOCUMENT_ACTIONS:
            getattr(self, name).setEnabled(has_document)

    def set_markup_view(self, view: str, remember: bool = True) -> None:
        """Show the pages in a markup view (All / Simple / No Markup / Original) and remember it
        for the next window, as the window layout is."""
        names = {v: (attribute, text.replace("&", "")) for attribute, text, v, _key, _tip in MARKUP}
        if view not in names:
            view = "all"
        self.view.set_markup_view(view)
        getattr(self, names[view][0]).setChecked(True)
        if remember:
            self.desktop.setValue(MARKUP_KEY, view)
            self.desktop.sync()
            self.statusBar().showMessage(f"Showing {names[view][1]}.", 4000)

    def save_layout(self) -> None:
        """Remember the window's size and position and where its docks are."""
        self.side_strips.expand_for_saving()
        self.desktop.setValue("window/geometry", self.saveGeometry())
        self.desktop.setValue("window/state", self.saveState(STATE_VERSION))
        self.desktop.sync()

    def restore_layout(self) -> bool:
        geometry, state = self.desktop.value("window/geometry"), self.desktop.value("window/state")
        restored = False
        if isinstance(geometry, QByteArray) and not geometry.isEmpty():
            restored = self.restoreGeometry(geometry)
            fit_restored(self)  # saved on a larger screen, or at a smaller scale factor
        if isinstance(state, QByteArray) and not state.isEmpty():
            restored = self.restoreState(state, STATE_VERSION) or restored
        return restored

    def quit_app(self) -> None:
        QApplication.closeAllWindows()

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt override
        if not self.files.confirm_discard():
            event.ignore()
            return
        self.save_layout()
        self.files.close()  # saved, or the lawyer chose to drop it: its recovery copy goes
        self.stop_sharing()
        self.chat.shutdown()
        super().closeEvent(event)

    def dragEnterEvent(self, event) -> None:  # noqa: N802 - Qt override
        self.files.drag_enter(event)

    def dragMoveEvent(self, event) -> None:  # noqa: N802 - Qt override
        self.files.drag_enter(event)

    def dropEvent(self, event) -> None:  # noqa: N802 - Qt override
        self.files.drop(event)

