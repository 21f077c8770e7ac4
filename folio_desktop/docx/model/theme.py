"""The document theme (word/theme/theme1.xml): the major/minor font scheme and the colour scheme.

Run properties may name a theme font (w:rFonts asciiTheme="minorHAnsi") or a theme colour
(w:color themeColor="accent1") instead of a concrete one; this module turns those names into faces
and RGB values.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lxml import etree

from ..errors import DocxError

if TYPE_CHECKING:
    from .document import Document

A_NS = "http://schemas.openxmlformats.org/drawingml/2006/main"
_A = "{" + A_NS + "}"

# Word's built-in Office theme, used when a document names theme fonts but carries no theme part.
FALLBACK_FONTS = {("minor", "latin"): "Calibri", ("major", "latin"): "Calibri Light"}

# w:rFonts *Theme attribute value -> (major|minor, latin|ea|cs)
THEME_FONT_SLOTS = {
    "minorAscii": ("minor", "latin"),
    "minorHAnsi": ("minor", "latin"),
    "minorEastAsia": ("minor", "ea"),
    "minorBidi": ("minor", "cs"),
    "majorAscii": ("major", "latin"),
    "majorHAnsi": ("major", "latin"),
    "majorEastAsia": ("major", "ea"),
    "majorBidi": ("major", "cs"),
}

# w:themeColor value -> a:clrScheme child (with Word's default clrSchemeMapping)
THEME_COLOR_SLOTS = {
    "dark1": "dk1", "light1": "lt1", "dark2": "dk2", "light2": "lt2",
    "text1": "dk1", "background1": "lt1", "text2": "dk2", "background2": "lt2",
    "accent1": "accent1", "accent2": "accent2", "accent3": "accent3", "accent4": "accent4",
    "accent5": "accent5", "accent6": "accent6", "hyperlink": "hlink", "followedHyperlink": "folHlink",
}


class Theme:
    """Theme fonts and colours; empty (every lookup falls back) when the document has no theme."""

    def __init__(self, root: etree._Element | None = None):
        self.fonts: dict[tuple[str, str], str] = {}
        self.colors: dict[str, str] = {}
        if root is None:
            return
        elements = root.find(_A + "themeElements")
        if elements is None:
            return
        scheme = elements.find(_A + "fontScheme")
        if scheme is not None:
            for group, tag in (("major", "majorFont"), ("minor", "minorFont")):
                el = scheme.find(_A + tag)
                if el is None:
                    continue
                for script in ("latin", "ea", "cs"):
                    face = el.find(_A + script)
                    typeface = face.get("typeface") if face is not None else None
                    if typeface:
                        self.fonts[(group, script)] = typeface
        colors = elements.find(_A + "clrScheme")
        if colors is not None:
            for slot in colors:
                if not isinstance(slot.tag, str) or not slot.tag.startswith(_A):
                    continue
                value = None
                for child in slot:
                    if child.tag == _A + "srgbClr":
                        value = child.get("val")
                    elif child.tag == _A + "sysClr":
                        value = child.get("lastClr")
                    if value:
                        break
                if value and len(value) == 6:
                    self.colors[slot.tag[len(_A):]] = value.upper()

    @classmethod
    def from_document(cls, doc: Document) -> Theme:
        part = doc.related_part("theme")
        if part is None:
            return cls()
        try:
            return cls(doc.package.xml(part))
        except (DocxError, etree.XMLSyntaxError, KeyError):
            return cls()  # a broken theme costs the theme fonts, never the document

    def font(self, theme_name: str) -> str | None:
        """The typeface of a w:rFonts theme value (minorHAnsi, majorEastAsia, ...), or None."""
        slot = THEME_FONT_SLOTS.get(theme_name)
        if slot is None:
            return None
        return self.fonts.get(slot) or FALLBACK_FONTS.get(slot)

    def color(self, theme_color: str) -> str | None:
        """RRGGBB of a w:themeColor value (accent1, text1, ...), or None."""
        slot = THEME_COLOR_SLOTS.get(theme_color)
        return self.colors.get(slot) if slot else None


__all__ = ["Theme", "THEME_FONT_SLOTS", "THEME_COLOR_SLOTS"]
