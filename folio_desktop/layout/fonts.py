"""Fonts for layout: Word's font names mapped to what is installed, each substitution reported once.

Metric-compatible stand-ins keep line breaks where Word has them: Carlito for Calibri, Caladea for
Cambria, the Liberation family for Times New Roman, Arial and Courier New.
"""

from __future__ import annotations

import logging
import struct

from PySide6.QtGui import QFont, QFontDatabase, QFontInfo, QFontMetricsF, QRawFont

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
        self._line_factor: dict[tuple, float] = {}
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
            else:
                # Qt rounds a font's pixel size to a whole pixel (11 pt at 96 dpi: 15 px, not 14.67),
                # so every advance is off by up to 1/2 px per em (+2.3% at 11 pt); scaling the
                # advances back keeps line breaks where Word and LibreOffice put them
                exact = max(size_pt, 1.0) * 96 / 72
                used = QFontInfo(font).pixelSize()
                if used > 0 and abs(used - exact) > 1e-3:
                    font.setLetterSpacing(QFont.PercentageSpacing, 100.0 * exact / used)
            self._fonts[key] = font
        return font

    def line_height(self, font: QFont) -> float:
        """Single line height in px from the font's hhea ascender, descender and line gap, as Word
        and LibreOffice compute it (Qt's own metrics leave the gap out)."""
        key = (font.family(), font.bold(), font.italic())
        factor = self._line_factor.get(key)
        if factor is None:
            factor = _hhea_factor(font)
            self._line_factor[key] = factor
        if factor <= 0:
            return QFontMetricsF(font).lineSpacing()
        return factor * font.pointSizeF() * 96 / 72


def _hhea_factor(font: QFont) -> float:
    """(ascender - descender + lineGap) per em, or 0 when the font's tables cannot be read."""
    try:
        raw = QRawFont.fromFont(font)
        hhea = bytes(raw.fontTable("hhea"))
        if len(hhea) < 10 or raw.unitsPerEm() <= 0:
            return 0.0
        ascender, descender, gap = struct.unpack(">hhh", hhea[4:10])
        return (ascender - descender + gap) / raw.unitsPerEm()
    except Exception:  # noqa: BLE001 - a font without tables falls back to Qt's metrics
        return 0.0
