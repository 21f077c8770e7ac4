"""A bar above the pages that tells the lawyer something about the open document without blocking
(hidden text it holds, fonts this computer lacks, parts it opened without, its file changed on disk or
open in Word): plain text, optional action buttons, and a close button that puts it away until the
next document opens."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QToolButton

from ...layout.fonts import SUBSTITUTES
from ..wording import listed


class InfoBar(QFrame):
    def __init__(self, name: str, action: str | None = None, action_tip: str = "", parent=None):
        super().__init__(parent)
        self.setObjectName(name)
        # its own dark text on its own light yellow, whichever palette the app follows
        self.setStyleSheet(f"#{name} {{ background: #fff4ce; border-bottom: 1px solid #e0c97a; }}"
                           f"#{name} QLabel, #{name} QToolButton {{ color: #3a2c00; }}")
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.PlainText)  # it may quote the document's words: never markup
        self.label.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.action_button = QPushButton(action or "")
        self.action_button.setToolTip(action_tip)
        self.action_button.setVisible(action is not None)
        self.close_button = QToolButton()
        self.close_button.setText("✕")
        self.close_button.setAutoRaise(True)
        self.close_button.setToolTip("Dismiss this notice")
        self.close_button.setAccessibleName("Dismiss")
        self.close_button.clicked.connect(self.hide)
        self._row = row = QHBoxLayout(self)
        row.setContentsMargins(10, 6, 6, 6)
        row.addWidget(self.label, 1)
        row.addWidget(self.action_button, 0, Qt.AlignTop)
        row.addWidget(self.close_button, 0, Qt.AlignTop)
        self.hide()

    def add_button(self, text: str, tip: str = "") -> QPushButton:
        """One more action button, after those already there."""
        button = QPushButton(text)
        button.setToolTip(tip)
        self._row.insertWidget(self._row.indexOf(self.close_button), button, 0, Qt.AlignTop)
        return button

    def tell(self, text: str | None) -> bool:
        """Show `text` (True), or hide the bar when there is nothing to tell."""
        if not text:
            self.label.clear()
            self.hide()
            return False
        self.label.setText(text)
        self.show()
        return True


def describe_font_substitutions(substitutions: dict[str, str]) -> str | None:
    """“Inter is not installed on this computer: the pages use Liberation Sans instead …”. A font
    stood in for by its metric-compatible clone (Times New Roman by Liberation Serif) is not news:
    the lines fall where Word puts them."""
    substitutions = {original: used for original, used in substitutions.items()
                     if SUBSTITUTES.get(original.strip().lower(), "").lower() != used.lower()}
    if not substitutions:
        return None
    pairs = [f"{original} (shown in {used})" for original, used in sorted(substitutions.items())]
    if len(pairs) == 1:
        original, used = next(iter(sorted(substitutions.items())))
        head = f"The font {original} is not installed on this computer: the pages use {used} instead"
    else:
        head = f"{len(pairs)} fonts of this document are not installed on this computer: " + ", ".join(pairs)
    return (head + ", so lines and page breaks may fall differently than in Word. Install the font to see the "
            "document as its author did.")


REPAIR_ACTION = "Repair when saving"


def describe_open_warnings(warnings: list[str], repairable: list[str], repair: bool) -> str | None:
    """The engine's open warnings (one sentence each, naming the part or the Strict format) under a
    plain heading, and, when some damaged part can be rebuilt, what the next save does with it."""
    if not warnings:
        return None
    lines = ["This document opened with a warning:" if len(warnings) == 1
             else f"This document opened with {len(warnings)} warnings:"]
    lines += [f"• {w}" for w in warnings]
    if repairable:
        one, named = len(repairable) == 1, listed(repairable)
        if repair:
            lines.append(f"Saving will replace {named} with {'a minimal sound part' if one else 'minimal sound parts'}"
                         " (the text, changes and comments are not affected).")
        else:
            lines.append(f"Saving keeps {named} as {'it was' if one else 'they were'} read, so nothing is lost. "
                         f"Choose “{REPAIR_ACTION}” to write {'a minimal sound part' if one else 'minimal sound parts'}"
                         " instead.")
    return "\n".join(lines)


CHANGED_ON_DISK, DELETED_ON_DISK = "changed", "deleted"


def describe_disk_change(kind: str, name: str, modified: bool) -> str:
    """What became of the open document's file on disk behind the window's back, and what the
    bar's buttons do about it."""
    if kind == DELETED_ON_DISK:
        return (f"{name} was deleted or moved away on disk by another program. Your version is still open here: "
                "Save writes it back.")
    dropped = " (your unsaved changes here are then dropped)" if modified else ""
    return (f"{name} was changed on disk by another program after you opened it here. Compare the two versions, "
            f"Reload the one on disk{dropped}, or Keep mine: saving then asks before it replaces the other version.")


def describe_lock_owner(program: str, user: str | None, name: str) -> str:
    """“NAME is open in Word by USER, changes may conflict”: an owner file beside the document."""
    by = f" by {user}" if user else ""
    return (f"{name} is open in {program}{by}, so changes may conflict: whoever saves last replaces the other's "
            "version. Saving here asks before it replaces a version saved there.")
