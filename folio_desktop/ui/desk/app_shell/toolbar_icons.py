"""The toolbar's icons: small line drawings bundled as SVG (resources/icons), drawn in the palette's
text colour so they read on a light or a dark window (accept and reject keep Word's green and red),
and drawn again when the palette changes. Each toolbar button's tooltip keeps the command's name and
its shortcut ("Accept change (Ctrl+Shift+A)"), since the button shows only the icon.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QByteArray, QEvent, QObject, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPalette, QPixmap
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QToolBar

from ....assets import resource_dir
from .help_dialogs import keys_of

ICON_FOLDER = "icons"
# action attribute -> icon file (resources/icons/<name>.svg)
ICONS = {
    "open_action": "open", "save_action": "save", "print_action": "print", "undo_action": "undo",
    "redo_action": "redo", "find_action": "find", "previous_change_action": "previous_change",
    "next_change_action": "next_change", "accept_action": "accept", "reject_action": "reject",
    "add_comment_action": "comment", "edit_paragraph_action": "edit", "zoom_out_action": "zoom_out",
    "zoom_in_action": "zoom_in", "settings_action": "settings",
}
COLOURS = {"accept": QColor("#1e8e3e"), "reject": QColor("#d93025")}  # as Word's Accept and Reject
SIZES = (16, 18, 24)  # menus, the toolbar, a larger toolbar; each also at twice the size
NO_TIP_CHANGE = ("undo_action", "redo_action")  # their tooltip names the step (actions.py)


def icon_file(name: str) -> Path:
    return resource_dir() / ICON_FOLDER / f"{name}.svg"


def make_icon(name: str, colour: QColor) -> QIcon:
    """The bundled drawing `name` in `colour`, at the sizes a toolbar asks for (sharp on a HiDPI screen
    too: a pixmap twice the size is added for each); a null icon when the file is missing."""
    path = icon_file(name)
    if not path.is_file():
        return QIcon()
    svg = path.read_text(encoding="utf-8").replace("currentColor", COLOURS.get(name, colour).name())
    renderer = QSvgRenderer(QByteArray(svg.encode("utf-8")))
    icon = QIcon()
    for size in SIZES:
        for ratio in (1, 2):
            pixmap = QPixmap(size * ratio, size * ratio)
            pixmap.fill(Qt.transparent)
            painter = QPainter(pixmap)
            renderer.render(painter, QRectF(0, 0, size * ratio, size * ratio))
            painter.end()
            pixmap.setDevicePixelRatio(ratio)
            icon.addPixmap(pixmap)
    return icon


def tooltip(action) -> str:
    """The command's name and its shortcut: "Accept change (Ctrl+Shift+A)"."""
    text = action.text().replace("&&", "\0").replace("&", "").replace("\0", "&").rstrip("…")
    keys = keys_of(action)
    return f"{text} ({keys})" if keys else text


class ToolbarIcons(QObject):
    """Sets the icons and tooltips of the window's toolbar actions, and sets them again when the
    window's palette changes (the system went dark or light)."""

    def __init__(self, window, toolbar: QToolBar):
        super().__init__(window)
        self.window, self.toolbar = window, toolbar
        toolbar.setToolButtonStyle(Qt.ToolButtonIconOnly)
        toolbar.setIconSize(QSize(18, 18))
        self.apply()
        window.installEventFilter(self)

    def apply(self) -> None:
        colour = self.window.palette().color(QPalette.Active, QPalette.WindowText)
        for attribute, name in ICONS.items():
            action = getattr(self.window, attribute, None)
            if action is None:
                continue
            action.setIcon(make_icon(name, colour))
            if attribute not in NO_TIP_CHANGE:
                action.setToolTip(tooltip(action))

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt override
        if watched is self.window and event.type() == QEvent.PaletteChange:
            self.apply()
        return False
