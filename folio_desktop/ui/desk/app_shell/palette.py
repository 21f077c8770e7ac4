"""The system's light or dark appearance, followed by the whole app.

Where the platform gives Qt a dark palette itself (macOS, Windows 11, a desktop portal with a dark
theme) nothing is to be done; where it only says "dark" (QStyleHints.colorScheme) and leaves the light
palette in place, the app switches to a dark palette of its own, and back when the system goes light
again. The pages are not part of it: they stay white paper with black text (ui/pages/painter.py
paints them in fixed colours), as in Word.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

DARK = {  # a dark palette in the spirit of Fusion's: (role, colour), then the disabled text
    QPalette.Window: "#2b2d30", QPalette.WindowText: "#e8eaed", QPalette.Base: "#1f2023",
    QPalette.AlternateBase: "#2f3135", QPalette.ToolTipBase: "#3c4043", QPalette.ToolTipText: "#e8eaed",
    QPalette.PlaceholderText: "#9aa0a6", QPalette.Text: "#e8eaed", QPalette.Button: "#35373b",
    QPalette.ButtonText: "#e8eaed", QPalette.BrightText: "#ff6b6b", QPalette.Light: "#4a4d52",
    QPalette.Midlight: "#3e4145", QPalette.Mid: "#2a2c2f", QPalette.Dark: "#1b1c1e", QPalette.Shadow: "#000000",
    QPalette.Highlight: "#3d6fd6", QPalette.HighlightedText: "#ffffff", QPalette.Link: "#8ab4f8",
    QPalette.LinkVisited: "#c58af9",
}
DISABLED_TEXT = "#80868b"


def dark_palette() -> QPalette:
    palette = QPalette()
    for role, colour in DARK.items():
        palette.setColor(role, QColor(colour))
    for role in (QPalette.WindowText, QPalette.Text, QPalette.ButtonText):
        palette.setColor(QPalette.Disabled, role, QColor(DISABLED_TEXT))
    return palette


def is_dark(palette: QPalette) -> bool:
    """A palette whose windows are darker than their text."""
    return palette.color(QPalette.Window).lightness() < palette.color(QPalette.WindowText).lightness()


class SchemeFollower(QObject):
    """Keeps the application's palette in step with the system's colour scheme."""

    def __init__(self, app: QApplication):
        super().__init__(app)
        self.app = app
        self.ours = False  # the palette in use is the dark one set here
        hints = app.styleHints()
        hints.colorSchemeChanged.connect(self.follow)
        self.follow(hints.colorScheme())

    def follow(self, scheme) -> None:
        if scheme == Qt.ColorScheme.Dark:
            if not self.ours and is_dark(self.app.palette()):
                return  # the platform's own dark palette: keep it
            self._use(dark_palette())
            self.ours = True
        elif self.ours:
            self.ours = False
            self._use(self.app.style().standardPalette())

    def _use(self, palette: QPalette) -> None:
        self.app.setPalette(palette)
        # a widget under a style sheet keeps the palette it was polished with: polish it again
        for widget in self.app.allWidgets():
            if widget.styleSheet():
                widget.setStyleSheet(widget.styleSheet())


def follow_system_scheme(app: QApplication) -> SchemeFollower:
    """Start following (once per app: a second call returns the first follower)."""
    existing = app.findChild(SchemeFollower)
    return existing if existing is not None else SchemeFollower(app)
