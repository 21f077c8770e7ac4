"""A bar above the pages that tells the lawyer something about the open document without blocking
(hidden text it holds, fonts this computer lacks, parts it opened without): plain text, an optional action button, and a
close button that puts it away until the next document opens."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QToolButton

from ...layout.fonts import SUBSTITUTES
from ..wording import listed


class InfoBar(QFrame):
    def __init__(self, name: str, action: str | None = None, action_tip: str = "", parent=None):
        super().__init__(parent)
        self.setObjectName(name)
        self.setStyleSheet(f"#{name} {{ background: #fff4ce; border-bottom: 1px solid #e0c97a; }}")
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
        row = QHBoxLayout(self)
        row.setContentsMargins(10, 6, 6, 6)
        row.addWidget(self.label, 1)
        row.addWidget(self.action_button, 0, Qt.AlignTop)
        row.addWidget(self.close_button, 0, Qt.AlignTop)
        self.hide()

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
