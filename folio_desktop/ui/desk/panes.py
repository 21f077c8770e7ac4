"""The review window's panes and the keys that move the keyboard between them: F6 and Shift+F6, as
in Word, from anywhere in the window; Ctrl+Tab and Ctrl+Shift+Tab too, Qt's way out of a widget that
keeps Tab for itself (the pages type a tab, the chat composer's Tab walks its own buttons).

The ring, in order: the find bar while it is open, the pages, the outline, the changes, the comments,
the checks and Claude. A closed dock is skipped. A dock tabbed behind another (the comments behind the changes)
is raised when its turn comes, so every open pane is reached and the one holding the keyboard is
always the one on screen. A pane gets the keyboard back in the widget that last had it there, else
in its main widget (the outline's tree, the changes list, the composer...).

Where the keyboard is always shows: the pages draw a frame while they have it (pages/view.py), and
the dock that holds it has its title bar marked here.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QApplication, QDockWidget, QWidget

# the dock holding the keyboard: its title bar tinted and underlined in the pages' focus colour
# (pages/painter.py FOCUS_FRAME); every title bar has the same box, so marking one moves nothing
DOCK_TITLES = ("QDockWidget::title { padding: 0 4px; border-bottom: 2px solid transparent; text-align: left; }\n"
               'QDockWidget[activePane="true"]::title { background: #d3e3fd; border-bottom-color: #2f6fde; }')


@dataclass
class Pane:
    area: QWidget  # the widget holding the pane's widgets (a panel, the pages, the find bar)
    main: QWidget  # who gets the keyboard on the way in, unless a widget of the pane had it last
    dock: QDockWidget | None = None
    last: QWidget | None = None  # the pane's widget that last had the keyboard

    def open(self) -> bool:
        """Not closed (a dock whose tab is behind another's is open: it is raised on the way in)."""
        return not self.dock.isHidden() if self.dock is not None else self.area.isVisible()

    def holds(self, widget: QWidget | None) -> bool:
        return widget is not None and (widget is self.area or self.area.isAncestorOf(widget))

    def target(self) -> QWidget:
        last = self.last
        if last is not None and last.isVisible() and last.isEnabled() and last.focusPolicy() & Qt.TabFocus:
            return last
        return self.main


class Panes(QObject):
    """The window's panes in F6 order (window.panes); next_pane / previous_pane move the keyboard.
    `home` is the pane the keyboard goes to from outside them all (the toolbar, say): the pages."""

    def __init__(self, panes: list[Pane], home: Pane, parent=None, named: dict[str, Pane] | None = None):
        super().__init__(parent)
        self.panes = panes
        self.home = home
        self.named = named or {}  # the panes the View > Go to shortcuts reach: "outline", "changes", ...
        for pane in panes:
            if pane.dock is not None:
                pane.dock.setStyleSheet(DOCK_TITLES)
        QApplication.instance().focusChanged.connect(self._focus_changed)

    def current(self) -> Pane | None:
        """The pane holding the keyboard (None: the toolbar, the menus, or nothing has it)."""
        focus = QApplication.focusWidget()
        return next((pane for pane in self.panes if pane.holds(focus)), None)

    def next_pane(self) -> QWidget | None:
        return self._move(1)

    def previous_pane(self) -> QWidget | None:
        return self._move(-1)

    def _move(self, step: int) -> QWidget | None:
        """Give the keyboard to the next open pane after (step -1: before) the current one; from
        outside every pane, the pages are the way in. The widget given the keyboard, or None."""
        here = self.current()
        if here is None:
            order = [self.home]
        else:
            start = self.panes.index(here)
            order = [self.panes[(start + step * k) % len(self.panes)] for k in range(1, len(self.panes))]
        pane = next((p for p in order if p.open()), None)
        if pane is None:
            return None
        if pane.dock is not None:
            pane.dock.raise_()  # a tab behind another comes to the front
        widget = pane.target()
        widget.setFocus(Qt.TabFocusReason if step > 0 else Qt.BacktabFocusReason)
        return widget

    def go_to(self, pane: Pane) -> QWidget:
        """Give the keyboard to a pane, opening its dock when it is closed (or folded into a strip in a
        narrow window); from inside that pane already, back to the pages. The widget given it."""
        if self.current() is pane:
            pane = self.home
        if pane.dock is not None:
            pane.dock.show()
            pane.dock.raise_()
        widget = pane.target()
        widget.setFocus(Qt.ShortcutFocusReason)
        return widget

    def go_to_outline(self) -> QWidget:
        return self.go_to(self.named["outline"])

    def go_to_changes(self) -> QWidget:
        return self.go_to(self.named["changes"])

    def go_to_comments(self) -> QWidget:
        return self.go_to(self.named["comments"])

    def go_to_checks(self) -> QWidget:
        return self.go_to(self.named["checks"])

    def go_to_claude(self) -> QWidget:
        return self.go_to(self.named["claude"])

    def _focus_changed(self, _old, new) -> None:
        if new is None:
            return  # the window went to the background: the mark stays where the keyboard comes back
        for pane in self.panes:
            holds = pane.holds(new)
            if holds:
                pane.last = new
            if pane.dock is not None and pane.dock.property("activePane") != holds:
                pane.dock.setProperty("activePane", holds)
                pane.dock.style().unpolish(pane.dock)
                pane.dock.style().polish(pane.dock)
                pane.dock.update()
