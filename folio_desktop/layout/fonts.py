"""Fonts for layout: Word's font names mapped to what is installed, each substitution reported once.

Metric-compatible stand-ins keep line breaks where Word has them: Carlito for Calibri, Caladea for
Cambria, the Liberation family for Times New Roman, Arial and Courier New.
"""

from __future__ import annotations

import logging

from PySide6.QtGui import QFont, QFontDatabase

log = logging.getLogger(__name__)

SUBSTITUTES = {
    "calibri": "Carlito",
    "calibri light": "Carlito",
    "cambria": "Caladea",
    "times new roman": "Liberation Serif",
    "times": "Liberation Serif",
    "arial": "Liberation Sans",
    "helvetica": "Liberation Sans",
    "courier new": "Liberation Mono",
    "courier": "Liberation Mono",
    "segoe ui": "Liberation Sans",
    "tahoma": "Liberation Sans",
    "verdana": "Liberation Sans",
    "georgia": "Liberation Serif",
    "garamond": "Liberation Serif",
    "book antiqua": "Liberation Serif",
    "century schoolbook": "Liberation Serif",
    "symbol": "DejaVu Sans",
    "wingdings": "DejaVu Sans",
}
FALLBACK_SERIF = "Liberation Serif"
FALLBACK_SANS = "Liberation Sans"
_SANS_HINTS = ("sans", "arial", "helvetica", "gothic", "grotesk", "segoe", "verdana", "tahoma", "calibri", "aptos")


class FontBook:
    """Maps a document's font family names to installed families and builds cached QFonts."""

    def __init__(self):
        self._families = {f.lower(): f for f in QFontDatabase.families()}
        self._resolved: dict[str, str] = {}
        self._fonts: dict[tuple, QFont] = {}
        self.substitutions: dict[str, str] = {}  # document font -> the family used instead

    def family(self, name: str | None) -> str:
        key = (name or "").strip().lower()
        found = self._resolved.get(key)
        if found is not None:
            return found
        if key in self._families:
            found = self._families[key]
        else:
            sub = SUBSTITUTES.get(key)
            if sub is None or sub.lower() not in self._families:
                sub = FALLBACK_SANS if any(h in key for h in _SANS_HINTS) else FALLBACK_SERIF
                if sub.lower() not in self._families:
                    sub = next(iter(self._families.values()), "Sans")
            found = self._families.get(sub.lower(), sub)
            if name and name not in self.substitutions:
                self.substitutions[name] = found
                log.info("font %r is not installed; using %r", name, found)
        self._resolved[key] = found
        return found

    def font(self, family: str | None, size_pt: float, bold=False, italic=False, caps=False,
             small_caps=False, spacing_px: float = 0.0) -> QFont:
        key = (family, round(size_pt * 2), bold, italic, caps, small_caps, round(spacing_px, 2))
        font = self._fonts.get(key)
        if font is None:
            font = QFont(self.family(family))
            font.setPointSizeF(max(size_pt, 1.0))
            font.setBold(bold)
            font.setItalic(italic)
            font.setKerning(False)  # Word does not kern by default
            if caps:
                font.setCapitalization(QFont.AllUppercase)
            elif small_caps:
                font.setCapitalization(QFont.SmallCaps)
            if spacing_px:
                font.setLetterSpacing(QFont.AbsoluteSpacing, spacing_px)
            self._fonts[key] = font
        return font
