"""The document's font table (word/fontTable.xml): what Word knows of each font the document names,
so that layout can stand in a like font for one that is not installed.

Each w:font gives its w:altName, its w:family (roman, swiss, modern, script, decorative, auto), its
w:pitch (fixed, variable, default) and its w:panose1, the ten PANOSE bytes in hex: byte 1 is the
family kind (2 = Latin text), byte 2 the serif style (11-15 are sans serif: normal, obtuse,
perpendicular, flared, rounded), byte 4 the proportion (9 = monospaced).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import DocxError
from ..package.ooxml import W_NS, W_VAL

_W = "{" + W_NS + "}"


@dataclass(frozen=True)
class FontEntry:
    name: str
    alt_names: tuple[str, ...] = ()
    family: str | None = None  # roman | swiss | modern | script | decorative | auto
    pitch: str | None = None  # fixed | variable | default
    panose: bytes = b""

    @property
    def kind(self) -> str | None:
        """"mono", "sans" or "serif" as the table describes the font, or None when it does not say."""
        panose = self.panose if len(self.panose) == 10 and any(self.panose) else b""
        if self.pitch == "fixed" or (panose and panose[0] == 2 and panose[3] == 9):
            return "mono"
        if panose and panose[0] == 2 and panose[1] >= 2:
            return "sans" if 11 <= panose[1] <= 15 else "serif"
        if self.family == "swiss":
            return "sans"
        if self.family == "modern" and self.pitch != "variable":
            return "mono"
        if self.family in ("roman", "modern"):
            return "serif"
        return None


def read_font_table(doc) -> dict[str, FontEntry]:
    """Lower-cased font name -> its entry, from the main document's font table ({} when it has none
    or the part cannot be read: a hostile or broken table only costs the better fallback)."""
    target = doc.related_part("fontTable")
    if target is None:
        return {}
    try:
        root = doc.package.xml(target)
    except (DocxError, KeyError):
        return {}
    out: dict[str, FontEntry] = {}
    for font in root.iterchildren(_W + "font"):
        name = (font.get(_W + "name") or "").strip()
        if not name or name.lower() in out:
            continue
        out[name.lower()] = FontEntry(
            name=name,
            alt_names=_alt_names(font),
            family=_val(font, "family"),
            pitch=_val(font, "pitch"),
            panose=_panose(_val(font, "panose1")),
        )
    return out


def _val(font, tag: str) -> str | None:
    el = font.find(_W + tag)
    return el.get(W_VAL) if el is not None else None


def _alt_names(font) -> tuple[str, ...]:
    """w:altName may list several names separated by commas (Word writes "宋体" or "Arial,Helvetica")."""
    raw = _val(font, "altName") or ""
    return tuple(part.strip() for part in raw.split(",") if part.strip())


def _panose(raw: str | None) -> bytes:
    if not raw or len(raw) != 20:
        return b""
    try:
        return bytes.fromhex(raw)
    except ValueError:
        return b""


__all__ = ["FontEntry", "read_font_table"]
