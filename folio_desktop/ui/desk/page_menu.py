"""The pages' context menu. A right-click on a tracked change offers to accept or reject it, named as
Word names it ("Accept Move", "Reject Insertion"): a move is one decision, so either half accepts or
rejects both at once, in one undo step, through the window's commands (the audit log and the status
bar see it as they see the Review menu's). Copy is offered over a selection. The menu key and
Shift+F10 open it at the caret.

The right button is taken from the pages' own mouse events (on press, or on release where the
platform opens context menus then), not from Qt's context menu event: the pages are a scroll area
inside the main window, which would otherwise offer its toolbar menu when the pages have nothing."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPoint, QPointF, Qt
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtWidgets import QMenu

from ..pages.input import PAGE_SHORTCUT_CONTEXT

# what the menu calls a change, by census type (Word's words); anything else is a "Change"
NAMES = {"insertion": "Insertion", "deletion": "Deletion", "formatting": "Formatting Change"}
KEYS = (QKeySequence(Qt.SHIFT | Qt.Key_F10), QKeySequence(Qt.Key_Menu))


def change_name(change) -> str:
    """"Move" for a half of a move, else the kind of change ("Insertion", "Deletion", ...)."""
    if change.move is not None:
        return "Move"
    return NAMES.get(change.type, "Change")


def _opens_on() -> QEvent.Type:
    """The right button's press or release, as the platform opens context menus."""
    trigger = QGuiApplication.styleHints().contextMenuTrigger()
    return QEvent.MouseButtonRelease if trigger == Qt.ContextMenuTrigger.Release else QEvent.MouseButtonPress


class PageMenu(QObject):
    """The context menu of a window's pages (window.page_menu); `menu` is the one last shown."""

    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window
        self.menu: QMenu | None = None
        view = window.view
        view.setContextMenuPolicy(Qt.PreventContextMenu)  # the right button is ours (see above)
        view.viewport().installEventFilter(self)
        self.key_action = QAction("Context menu", view)
        self.key_action.setShortcuts(list(KEYS))
        self.key_action.setShortcutContext(PAGE_SHORTCUT_CONTEXT)
        self.key_action.triggered.connect(self.show_at_caret)
        view.addAction(self.key_action)

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt override
        kind = event.type()
        if kind in (QEvent.MouseButtonPress, QEvent.MouseButtonRelease, QEvent.MouseButtonDblClick) \
                and event.button() == Qt.RightButton:
            if kind == _opens_on():
                self.show_at(event.position().toPoint())
            return True
        return False

    def change_at(self, point: QPointF) -> int | None:
        """The census id of the tracked change drawn under a viewport point, if any."""
        view = self.window.view
        hit = view.viewport_to_page(point)
        if hit is None or self.window.reviewer is None:
            return None
        pos = view.flow.char_at(view.pages[hit[0] - 1], hit[1])
        if pos is None:
            return None
        found = view.marks.change_at(view.flow.frag(pos), pos.offset)
        return found[0] if found is not None else None

    def show_at_caret(self) -> QMenu | None:
        """The menu for the change at the caret, opened below it (the keyboard's way)."""
        view = self.window.view
        caret = view.selection.caret
        if caret is None or not view.flow.entries:
            return None
        number, rect = view.flow.caret_rect(caret)
        # just inside the character before the caret: the change it is in, as the Review menu finds it
        point = view.page_to_viewport(number, QPointF(rect.left() - 1.0, rect.center().y()))
        return self.show_at(point.toPoint(), view.page_to_viewport(number, rect.bottomLeft()).toPoint())

    def show_at(self, point: QPoint, where: QPoint | None = None) -> QMenu | None:
        """Open the menu for what is under a viewport point (at `where`, else there); nothing to
        offer: no menu."""
        window, view = self.window, self.window.view
        commands = window.commands
        menu = QMenu(view)
        menu.setAttribute(Qt.WA_DeleteOnClose)
        change_id = self.change_at(QPointF(point))
        change = next((c for c in window.reviewer.get_changes() if c.id == change_id), None) \
            if change_id is not None else None
        if change is not None:
            name = change_name(change)
            # the change stays chosen, so the Review menu's commands act on it too (the pages stay
            # where they are: the menu is opened over the text)
            commands.clicked_change = change.id
            menu.addAction(f"&Accept {name}", lambda: commands.accept_change(change.id))
            menu.addAction(f"&Reject {name}", lambda: commands.reject_change(change.id))
        if view.selection.selection_text():
            if not menu.isEmpty():
                menu.addSeparator()
            menu.addAction("&Copy", view.selection.copy)
        if menu.isEmpty():
            menu.deleteLater()
            return None
        self.menu = menu
        menu.popup(view.viewport().mapToGlobal(where if where is not None else point))
        return menu
