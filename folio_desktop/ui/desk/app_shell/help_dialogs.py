"""Help > Keyboard Shortcuts and Help > About.

The shortcuts are read from the window's own actions each time the dialog opens, grouped by the menu
that holds them, so the list is never out of date: an action added to a menu with a key appears here.
About gives the version from the installed package's metadata and the licence of each component the
app ships, read from the installed distributions' metadata (the dependencies our own metadata names,
and Qt itself through PySide6).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from PySide6.QtCore import Qt, qVersion
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
)

from .... import APP_NAME, __version__

DISTRIBUTION = "folio-desktop"
# what a component is for, in a lawyer's words; a dependency not named here is listed by its name alone
PURPOSE = {
    "pyside6-essentials": "Qt for Python: the windows, pages and printing (Qt itself is LGPL)",
    "shiboken6": "the bindings between Python and Qt",
    "lxml": "reading and writing the document's XML",
    "python-docx": "Word documents",
    "anthropic": "talking to Claude",
    "keyring": "keeping the API key in the system keyring",
    "platformdirs": "where settings are kept",
    "regex": "splitting text into characters as Unicode defines them",
    "mcp": "sharing the document with MCP clients",
}
NO_LICENCE = "licence not recorded in this build"


@dataclass(frozen=True)
class Component:
    name: str
    version: str
    licence: str
    purpose: str


def app_version() -> str:
    """The installed package's version (its metadata), else the source's."""
    from importlib import metadata  # (a tenth of a second to import: not before the first page shows)

    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return __version__


def licence_of(meta) -> str:
    """The licence a distribution declares: its SPDX expression, else its License field, else its
    trove classifiers."""
    for key in ("License-Expression", "License"):
        value = (meta.get(key) or "").strip()
        if value and "\n" not in value and len(value) <= 80:  # some paste the whole licence text here
            return value
    classifiers = [c.rsplit("::", 1)[1].strip() for c in meta.get_all("Classifier") or []
                   if c.startswith("License ::")]
    return ", ".join(classifiers) or NO_LICENCE


def _requirement_names() -> list[str]:
    """The runtime dependencies our own metadata names (extras left out)."""
    from importlib import metadata

    try:
        requires = metadata.requires(DISTRIBUTION) or []
    except metadata.PackageNotFoundError:
        requires = []
    names = []
    for requirement in requires:
        if "extra ==" in requirement:
            continue
        name = re.match(r"[A-Za-z0-9._-]+", requirement.strip())
        if name and name.group(0) not in names:
            names.append(name.group(0))
    return names or [name for name in PURPOSE if name != "shiboken6"]


def components() -> list[Component]:
    """Qt and each bundled Python component, with its version and licence."""
    from importlib import metadata

    out = []
    for name in _requirement_names() + ["shiboken6"]:
        key = name.lower()
        if any(c.name.lower() == key for c in out):
            continue
        try:
            meta = metadata.metadata(name)
            version, licence = meta.get("Version") or "", licence_of(meta)
        except metadata.PackageNotFoundError:
            version, licence = "", NO_LICENCE
        out.append(Component(name, version, licence, PURPOSE.get(key, "")))
    out.insert(0, Component("Qt", qVersion(), "LGPL-3.0-only (as used here: dynamically linked)",
                            "the toolkit under PySide6"))
    return out


# -- the shortcuts -----------------------------------------------------------------------------------

def _plain(text: str) -> str:
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&").rstrip("…").strip()


def _menus(menu: QMenu, title: str):
    """(title, action) for every action of a menu and its submenus, in menu order."""
    for action in menu.actions():
        if action.menu() is not None:
            yield from _menus(action.menu(), f"{title} > {_plain(action.text())}")
        elif not action.isSeparator():
            yield title, action


def shortcut_rows(window) -> list[tuple[str, str, str]]:
    """(menu, action, keys) for every action of the window that has a shortcut: those in the menus
    first, in menu order, then any other the window holds."""
    rows, seen = [], set()
    for top in window.menuBar().actions():
        if top.menu() is None:
            continue
        for title, action in _menus(top.menu(), _plain(top.text())):
            if action.shortcuts() and id(action) not in seen:
                seen.add(id(action))
                rows.append((title, action))
    others = [a for a in window.findChildren(QAction) if a.shortcuts() and id(a) not in seen and a.text()]
    rows += [("Other", a) for a in others]
    return [(title, _plain(a.text()), keys_of(a)) for title, a in rows]


def keys_of(action: QAction) -> str:
    """The action's shortcuts as a lawyer types them ("Ctrl+F4, Ctrl+W"): the dedicated keys some
    keyboards have (Open, Save, Close) are left out, as are bindings on them."""
    keys = [k for k in action.shortcuts() if k.count() and k[0].key() < Qt.Key_Back]
    return ", ".join(k.toString(QKeySequence.NativeText) for k in keys or action.shortcuts())


class ShortcutsDialog(QDialog):
    """Every shortcut of the window, by menu, with a field that narrows the list as one types."""

    def __init__(self, window):
        super().__init__(window)
        self.setObjectName("shortcutsDialog")
        self.setWindowTitle("Keyboard Shortcuts")
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Type to find a command or a key")
        self.filter.setClearButtonEnabled(True)
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Command", "Shortcut"])
        self.tree.setRootIsDecorated(True)
        self.tree.header().setSectionResizeMode(0, QHeaderView.Stretch)
        self.tree.header().setSectionResizeMode(1, QHeaderView.ResizeToContents)
        groups: dict[str, QTreeWidgetItem] = {}
        for title, text, keys in shortcut_rows(window):
            group = groups.get(title)
            if group is None:
                group = groups[title] = QTreeWidgetItem(self.tree, [title])
                group.setFirstColumnSpanned(True)
                group.setExpanded(True)
            QTreeWidgetItem(group, [text, keys])
        buttons = QDialogButtonBox(QDialogButtonBox.Close)
        buttons.rejected.connect(self.reject)
        column = QVBoxLayout(self)
        column.addWidget(self.filter)
        column.addWidget(self.tree, 1)
        column.addWidget(buttons)
        self.filter.textChanged.connect(self._narrow)
        self.resize(640, 640)

    def rows(self, shown_only: bool = True) -> list[tuple[str, str]]:
        """(command, keys) listed (those the filter leaves shown)."""
        out = []
        for i in range(self.tree.topLevelItemCount()):
            group = self.tree.topLevelItem(i)
            for j in range(group.childCount()):
                item = group.child(j)
                if not (shown_only and item.isHidden()):
                    out.append((item.text(0), item.text(1)))
        return out

    def _narrow(self, text: str) -> None:
        words = text.casefold().split()
        for i in range(self.tree.topLevelItemCount()):
            group = self.tree.topLevelItem(i)
            left = 0
            for j in range(group.childCount()):
                item = group.child(j)
                haystack = f"{group.text(0)} {item.text(0)} {item.text(1)}".casefold()
                item.setHidden(not all(w in haystack for w in words))
                left += not item.isHidden()
            group.setHidden(left == 0)


class AboutDialog(QDialog):
    """The app's name and version, and what it is built from, with each component's licence."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("aboutDialog")
        self.setWindowTitle(f"About {APP_NAME}")
        self.version = app_version()
        heading = QLabel(f"<h3>{APP_NAME} {self.version}</h3>"
                         "<p>Review Word contracts on your own computer: real pages, tracked changes, "
                         "comments, and Claude at your side.</p>")
        heading.setWordWrap(True)
        self.components = components()
        self.table = QTreeWidget()
        self.table.setObjectName("licences")
        self.table.setRootIsDecorated(False)
        self.table.setHeaderLabels(["Component", "Version", "Licence", "Used for"])
        for c in self.components:
            QTreeWidgetItem(self.table, [c.name, c.version, c.licence, c.purpose])
        for column in range(3):
            self.table.resizeColumnToContents(column)
        note = QLabel("The Qt libraries are used under the GNU Lesser General Public License v3: you may "
                      "replace them with your own build of the same version.")
        note.setWordWrap(True)
        note.setTextInteractionFlags(Qt.TextSelectableByMouse)
        buttons = QDialogButtonBox(QDialogButtonBox.Close)
        buttons.rejected.connect(self.reject)
        column = QVBoxLayout(self)
        column.addWidget(heading)
        column.addWidget(QLabel("Built with:"))
        column.addWidget(self.table, 1)
        column.addWidget(note)
        column.addWidget(buttons)
        self.resize(860, 460)

    def text(self) -> str:
        """What the dialog says, as plain text (for a test and for copying)."""
        lines = [f"{APP_NAME} {self.version}"]
        lines += [f"{c.name} {c.version}: {c.licence}" for c in self.components]
        return "\n".join(lines)
