"""The review desk's menus, toolbar and shortcuts, built over the slots of a ReviewWindow and of the
two objects it owns: its `files` (open, save, export) and its `commands` (review and editing).

Each action is also an attribute of the window (window.accept_action, window.find_action, ...), so
tests and the window's own code reach them by name; the menus hold the same QAction objects.
"""

from __future__ import annotations

from PySide6.QtGui import QAction, QActionGroup, QKeySequence

from ..pages.input import PAGE_SHORTCUT_CONTEXT
from .app_shell.toolbar_icons import ToolbarIcons

# (attribute, text, slot, shortcut: a standard key, a string, a tuple of strings or None, status tip); the slot is a method
# of the window ("close") or of the object of the window's that owns it ("files.save_document")
FILE = [
    ("open_action", "&Open…", "files.open_dialog", QKeySequence.Open, "Open a .docx document"),
    None,  # Open Recent goes here
    ("save_action", "&Save", "files.save_document", QKeySequence.Save, "Save the document"),
    ("save_as_action", "Save &As…", "files.save_as_dialog", QKeySequence.SaveAs,
     "Save under a new name, choosing what metadata and comments to keep"),
    "-",
    ("compare_action", "Co&mpare…", "files.compare_dialog", None,
     "Compare two versions: the redline opens in a new window"),
    "-",
    ("export_pdf_action", "Export &PDF (as shown)…", "files.export_pdf_dialog", None,
     "The pages in the markup view shown: in All Markup with the redlines and the comments beside each page"),
    ("export_clean_pdf_action", "Export clean PD&F…", "files.export_clean_pdf_dialog", None,
     "The document as it reads with every change accepted"),
    ("export_audit_jsonl_action", "Export audit log (JSON &Lines)…", "files.export_audit_jsonl_dialog", None,
     "Every tool call, proposal, accept and reject on this document, one JSON object a line"),
    ("export_audit_html_action", "Export audit log (&HTML)…", "files.export_audit_html_dialog", None,
     "The audit log as a readable report"),
    ("print_action", "Pr&int…", "shell.print_document", QKeySequence.Print,
     "Print the pages as shown: in All Markup with the redlines and the comments beside each page"),
    "-",
    ("settings_action", "Se&ttings…", "show_settings", None,
     "API key, model and the author name of tracked changes"),
    "-",
    ("close_action", "&Close", "close", QKeySequence.Close, "Close this window"),
    ("quit_action", "&Quit", "quit_app", QKeySequence.Quit, "Close every window and quit"),
]
EDIT = [
    "undo", "redo", "-",
    ("find_action", "&Find…", "commands.show_find", QKeySequence.Find, "Find text in the document"),
    # not Ctrl+G: that goes to a page, as in Word
    ("find_next_action", "Find &Next", "commands.find_next", "F3", None),
    ("find_previous_action", "Find Pre&vious", "commands.find_previous", QKeySequence.FindPrevious, None),
    # Ctrl+H spelled out: Qt's standard Replace key is bound to nothing on Linux
    ("replace_action", "Re&place…", "commands.show_replace", "Ctrl+H",
     "Find text and replace it, as tracked changes under your name"),
    ("go_to_page_action", "&Go to page…", "commands.go_to_page_dialog", "Ctrl+G", "Go to a page by its number"),
    "-",
    ("edit_paragraph_action", "&Edit paragraph…", "commands.edit_paragraph", "F2",
     "Rewrite the paragraph at the cursor; the difference becomes a tracked change"),
    ("insert_paragraph_action", "&Insert paragraph after…", "commands.insert_paragraph", "Ctrl+Return",
     "Add a new paragraph after the one at the cursor, as a tracked insertion"),
    ("delete_paragraph_action", "&Delete paragraph", "commands.delete_paragraph", "Ctrl+Shift+Backspace",
     "Delete the paragraph at the cursor, as a tracked deletion"),
]
REVIEW = [
    ("track_changes_action", "&Track Changes", "commands.toggle_track_changes", "Ctrl+Shift+E",
     "Your own edits as tracked changes (on) or made directly (off); Claude's are always tracked"),
    "-",
    ("next_change_action", "&Next change", "commands.next_change", "Ctrl+.", "Go to the next tracked change"),
    ("previous_change_action", "&Previous change", "commands.previous_change", "Ctrl+,",
     "Go to the previous tracked change"),
    "-",
    ("accept_action", "&Accept change", "commands.accept_change", "Ctrl+Shift+A",
     "Accept the selected tracked change"),
    ("reject_action", "&Reject change", "commands.reject_change", "Ctrl+Shift+R",
     "Reject the selected tracked change"),
    ("accept_next_action", "Accept and &Move to Next", "commands.accept_and_next", "Ctrl+Shift+Return",
     "Accept the selected tracked change and go to the next one"),
    ("reject_next_action", "Reject and Mo&ve to Next", "commands.reject_and_next", "Ctrl+Shift+Delete",
     "Reject the selected tracked change and go to the next one"),
    ("accept_all_action", "Accept a&ll changes", "commands.accept_all", None,
     "Accept every change the changes panel shows"),
    ("reject_all_action", "Reject all c&hanges", "commands.reject_all", None,
     "Reject every change the changes panel shows"),
    "-",
    ("add_comment_action", "New &comment", "comment_commands.new_comment", "Ctrl+Alt+M",
     "Comment on the selected text (or the word at the cursor) in a balloon beside the page"),
    ("edit_comment_action", "&Edit comment", "comment_commands.edit_comment", None,
     "Edit the text of your own comment, picked in the pages or the Comments panel"),
    ("delete_comment_action", "&Delete comment", "comment_commands.delete_comment", None,
     "Delete the comment picked in the pages or the Comments panel; a thread's replies go with it"),
    ("delete_shown_comments_action", "Delete all comments sho&wn", "comment_commands.delete_shown", None,
     "Delete every comment the Comments panel shows"),
]
VIEW = [
    ("zoom_in_action", "Zoom &in", "commands.zoom_in", QKeySequence.ZoomIn, None),
    ("zoom_out_action", "Zoom &out", "commands.zoom_out", QKeySequence.ZoomOut, None),
    ("actual_size_action", "&Actual size", "commands.actual_size", "Ctrl+0", None),
    ("fit_width_action", "Fit &width", "commands.fit_width", "Ctrl+1", None),
    ("fit_page_action", "Fit &page", "commands.fit_page", "Ctrl+2", None),
    "-", "markup", "-", "docks",
    "-",
    ("next_pane_action", "Ne&xt pane", "panes.next_pane", ("F6", "Ctrl+Tab"),
     "Move the keyboard to the next pane: the pages, the outline, the changes, the comments, the checks, "
     "Claude"),
    ("previous_pane_action", "Previous pan&e", "panes.previous_pane", ("Shift+F6", "Ctrl+Shift+Tab", "Ctrl+Shift+Backtab"),
     "Move the keyboard to the previous pane"),
    "go to",
]
HELP = [
    ("shortcuts_action", "&Keyboard Shortcuts", "shell.show_shortcuts", "F1",
     "Every command that has a shortcut, and its keys"),
    ("about_action", "&About folio-desktop", "shell.show_about", None,
     "The version, and the components the app is built from with their licences"),
]
# View > Go to: the keyboard straight to a panel, opening it if closed or folded (again: back to the pages)
GO_TO = [
    ("go_to_outline_action", "&Outline", "panes.go_to_outline", "Ctrl+Shift+O", "The keyboard to the outline"),
    ("go_to_changes_action", "&Changes", "panes.go_to_changes", "Ctrl+Shift+H", "The keyboard to the changes list"),
    ("go_to_comments_action", "Co&mments", "panes.go_to_comments", "Ctrl+Shift+M",
     "The keyboard to the comments list"),
    ("go_to_checks_action", "Chec&ks", "panes.go_to_checks", "Ctrl+Shift+K",
     "The keyboard to the contract checks: undefined terms, broken references, blanks, numbering"),
    ("go_to_claude_action", "C&laude", "panes.go_to_claude", "Ctrl+Shift+C", "The keyboard to Claude's message box"),
]
# the docks' show / hide items in the View menu, with their access keys
DOCK_TEXT = {"outlineDock": "Ou&tline", "changesDock": "C&hanges", "commentsDock": "Co&mments",
             "checksDock": "Chec&ks", "assistantDock": "Clau&de"}
TOOLS = [
    ("share_mcp_action", "&Share with an MCP client…", "share_with_mcp_client", None,
     "Let Claude Code, Claude Desktop or another MCP client on this computer review the open document here"),
]
# the markup views, one checked at a time: (attribute, text, view, shortcut, status tip)
MARKUP = [
    ("markup_all_action", "A&ll Markup", "all", "Ctrl+Alt+1",
     "Tracked changes as redlines in each author's colour; comments in balloons beside the page"),
    ("markup_simple_action", "&Simple Markup", "simple", "Ctrl+Alt+2",
     "The text as it reads with the changes accepted, a bar beside each changed line; comments beside the page"),
    ("markup_none_action", "&No Markup", "none", "Ctrl+Alt+3",
     "The text as it reads with every change accepted, nothing marked"),
    ("markup_original_action", "O&riginal", "original", "Ctrl+Alt+4",
     "The text as it was before the tracked changes, nothing marked"),
]
TOOLBAR = ("open_action", "save_action", "print_action", None, "undo_action", "redo_action", None, "find_action", None,
           "previous_change_action", "next_change_action", "accept_action", "reject_action", None,
           "add_comment_action", "edit_paragraph_action", None, "zoom_out_action", "zoom_in_action", None,
           "settings_action")
# what the text-only toolbar shows (QAction.iconText), where the menu text is too long for it
TOOLBAR_TEXT = {"previous_change_action": "◀ Previous", "next_change_action": "Next ▶", "accept_action": "Accept",
                "reject_action": "Reject", "add_comment_action": "Comment", "edit_paragraph_action": "Edit",
                "zoom_out_action": "−", "zoom_in_action": "+", "settings_action": "Settings"}
# actions that need an open document (disabled until one is open)
DOCUMENT_ACTIONS = ("save_action", "save_as_action", "print_action", "export_pdf_action", "export_clean_pdf_action",
                    "export_audit_jsonl_action", "export_audit_html_action", "find_action", "find_next_action",
                    "find_previous_action", "edit_paragraph_action", "insert_paragraph_action",
                    "delete_paragraph_action", "replace_action", "next_change_action",
                    "previous_change_action", "accept_action", "reject_action", "accept_next_action",
                    "reject_next_action", "accept_all_action",
                    "reject_all_action", "add_comment_action", "edit_comment_action", "delete_comment_action",
                    "delete_shown_comments_action", "go_to_page_action", "share_mcp_action")
# editing shortcuts act only while the page view itself has the focus (pages/input.py's rule): typed
# in the chat, a panel's field or a balloon's reply editor, Ctrl+Return or Ctrl+Shift+Backspace must
# not insert or delete a paragraph
PAGE_SHORTCUTS = ("edit_paragraph_action", "insert_paragraph_action", "delete_paragraph_action")
FALLBACK_KEYS = {QKeySequence.Quit: "Ctrl+Q", QKeySequence.Close: "Ctrl+W"}


def _shortcuts(key) -> list[QKeySequence]:
    if key is None:
        return []
    if isinstance(key, str):
        return [QKeySequence(key)]
    if isinstance(key, tuple):
        return [QKeySequence(k) for k in key]
    bindings = QKeySequence.keyBindings(key)
    # some platforms bind nothing to a standard key (Quit on Linux): the usual one then
    return bindings or ([QKeySequence(FALLBACK_KEYS[key])] if key in FALLBACK_KEYS else [])


def make_action(window, spec) -> QAction:
    attribute, text, slot_name, key, tip = spec
    action = QAction(text, window)
    action.setObjectName(attribute)
    action.setShortcuts(_shortcuts(key))
    if tip:
        action.setStatusTip(tip)
        action.setToolTip(tip)
    owner, _dot, name = slot_name.rpartition(".")
    slot = getattr(getattr(window, owner) if owner else window, name)
    action.triggered.connect(lambda _checked=False: slot())
    setattr(window, attribute, action)
    return action


def _undo_actions(window, group) -> tuple[QAction, QAction]:
    """Undo and Redo over the undo group's active stack. The menu text names the step ("Undo Accept
    change"); the toolbar keeps a short label and shows the step as its tooltip."""
    out = []
    for make, short, key, changed in ((group.createUndoAction, "Undo", QKeySequence.Undo, group.undoTextChanged),
                                      (group.createRedoAction, "Redo", QKeySequence.Redo, group.redoTextChanged)):
        action = make(window, f"&{short}")
        action.setShortcuts(QKeySequence.keyBindings(key))
        action.setIconText(short)
        changed.connect(lambda text, a=action, s=short: (a.setIconText(s), a.setToolTip(f"{s} {text}".strip())))
        out.append(action)
    return out[0], out[1]


def _markup_actions(window, menu) -> None:
    """All / Simple / No Markup / Original as one exclusive group; each calls window.set_markup_view."""
    group = QActionGroup(window)
    group.setExclusive(True)
    for attribute, text, view, key, tip in MARKUP:
        action = QAction(text, window)
        action.setObjectName(attribute)
        action.setCheckable(True)
        action.setShortcuts(_shortcuts(key))
        action.setStatusTip(tip)
        action.setToolTip(tip)
        action.setData(view)
        action.triggered.connect(lambda _checked=False, v=view: window.set_markup_view(v))
        group.addAction(action)
        menu.addAction(action)
        setattr(window, attribute, action)
    window.markup_group = group


def install_actions(window, undo_group, docks) -> None:
    """Create every action as window.<attribute>, the menu bar, the Open Recent submenu
    (window.recent_menu) and the main toolbar. Uses window.view for the page-only shortcuts."""
    undo_action, redo_action = _undo_actions(window, undo_group)
    window.undo_action, window.redo_action = undo_action, redo_action
    bar = window.menuBar()
    for title, specs in (("&File", FILE), ("&Edit", EDIT), ("&Review", REVIEW), ("&View", VIEW),
                          ("&Tools", TOOLS), ("&Help", HELP)):
        menu = bar.addMenu(title)
        menu.setObjectName(title.replace("&", "").lower() + "_menu")
        setattr(window, menu.objectName(), menu)
        for spec in specs:
            if spec is None:
                window.recent_menu = menu.addMenu("Open &Recent")
                window.recent_menu.aboutToShow.connect(window.files.fill_recent_menu)
            elif spec == "-":
                menu.addSeparator()
            elif spec in ("undo", "redo"):
                menu.addAction(undo_action if spec == "undo" else redo_action)
            elif spec == "docks":
                for dock in docks:
                    toggle = dock.toggleViewAction()
                    toggle.setText(DOCK_TEXT.get(dock.objectName(), toggle.text()))
                    menu.addAction(toggle)
            elif spec == "go to":
                go_to = menu.addMenu("&Go to")
                go_to.setObjectName("go_to_menu")
                for item in GO_TO:
                    go_to.addAction(make_action(window, item))
            elif spec == "markup":
                _markup_actions(window, menu)
            else:
                menu.addAction(make_action(window, spec))
    for name in PAGE_SHORTCUTS:
        action = getattr(window, name)
        action.setShortcutContext(PAGE_SHORTCUT_CONTEXT)
        window.view.addAction(action)
    toolbar = window.addToolBar("Main")
    toolbar.setObjectName("mainToolbar")
    for name in TOOLBAR:
        if name is None:
            toolbar.addSeparator()
            continue
        action = getattr(window, name)
        if name in TOOLBAR_TEXT:
            action.setIconText(TOOLBAR_TEXT[name])
        toolbar.addAction(action)
    window.main_toolbar = toolbar
    window.toolbar_icons = ToolbarIcons(window, toolbar)
