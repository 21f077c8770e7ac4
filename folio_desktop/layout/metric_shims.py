"""Stand-in fonts given the advance widths of the font they stand in for.

Caladea has neither Cambria's widths nor its line height (fonts.LINE_FACTORS), and Aptos (Word's
newer default) has no free clone at all; scaling their text by one factor leaves individual words a few points off, enough to
move a line break. Word's own PDFs give the original's advance width for every character they
print (word_widths.py). For such a font we build a copy of the installed stand-in whose horizontal
metrics are the original's: the characters Word's PDFs show get the original's width exactly, the
others the stand-in's scaled by the family's factor. The outlines are the stand-in's, so the
letters look as before, only spaced as in Word. The copy is registered with Qt under its own name
(STAND_IN_NAME) and lives in memory for the session.
"""

from __future__ import annotations

import logging
import struct

from PySide6.QtGui import QFont, QFontDatabase, QRawFont

from .word_widths import WIDTHS

log = logging.getLogger(__name__)

STAND_IN_NAME = "{font} widths in {stand_in}"
_TABLES = (b"head", b"hhea", b"maxp", b"OS/2", b"hmtx", b"cmap", b"glyf", b"loca", b"name", b"post", b"cvt ",
           b"fpgm", b"prep", b"gasp", b"GDEF", b"GSUB", b"GPOS", b"kern", b"CFF ", b"vhea", b"vmtx")
_STYLES = ((False, False, "Regular"), (True, False, "Bold"), (False, True, "Italic"), (True, True, "Bold Italic"))


def build_family(font: str, stand_in: str, factors: dict) -> str | None:
    """Register the four styles of `stand_in` with `font`'s widths (WIDTHS[(font.lower(), b, i)],
    else the stand-in's advance times factors[(b, i)]); the family name, or None when the stand-in's
    tables cannot be read or Qt refuses the result (the caller then scales by the factor)."""
    name = STAND_IN_NAME.format(font=font, stand_in=stand_in)
    if name in QFontDatabase.families():
        return name
    made = 0
    for bold, italic, style in _STYLES:
        source = QFont(stand_in)
        source.setBold(bold)
        source.setItalic(italic)
        raw = QRawFont.fromFont(source)
        if not raw.isValid():
            continue
        widths = WIDTHS.get((font.lower(), bold, italic)) or WIDTHS.get((font.lower(), False, False), {})
        try:
            data = _patched(raw, widths, factors[(bold, italic)], name, style)
        except (ValueError, struct.error) as exc:  # a font whose tables we cannot read: keep the factor
            log.info("cannot give %s %s's widths: %s", stand_in, font, exc)
            return None
        if data is not None and QFontDatabase.addApplicationFontFromData(data) >= 0:
            made += 1
    return name if made and name in QFontDatabase.families() else None


def _patched(raw: QRawFont, widths: dict[int, int], factor: float, family: str, style: str) -> bytes | None:
    tables = {tag: bytes(raw.fontTable(tag.decode("latin-1"))) for tag in _TABLES}
    tables = {tag: data for tag, data in tables.items() if data}
    if not all(tag in tables for tag in (b"head", b"hhea", b"hmtx", b"maxp", b"cmap")):
        return None
    upem = struct.unpack(">H", tables[b"head"][18:20])[0]
    metrics_count = struct.unpack(">H", tables[b"hhea"][34:36])[0]
    hmtx = bytearray(tables[b"hmtx"])
    if len(hmtx) < metrics_count * 4:
        raise ValueError("hmtx shorter than hhea says")
    for gid in range(metrics_count):  # every glyph scaled first: characters Word's PDFs do not show
        advance = struct.unpack_from(">H", hmtx, gid * 4)[0]
        struct.pack_into(">H", hmtx, gid * 4, min(round(advance * factor), 0xFFFF))
    for code, width in widths.items():  # then the characters they do, exactly
        glyphs = raw.glyphIndexesForString(chr(code))
        if len(glyphs) == 1 and 0 < glyphs[0] < metrics_count:
            struct.pack_into(">H", hmtx, glyphs[0] * 4, round(width * upem / 1000))
    tables[b"hmtx"] = bytes(hmtx)
    advance_max = max(struct.unpack_from(">H", hmtx, gid * 4)[0] for gid in range(metrics_count))
    hhea = bytearray(tables[b"hhea"])
    struct.pack_into(">H", hhea, 10, advance_max)
    tables[b"hhea"] = bytes(hhea)
    tables[b"name"] = _name_table(family, style)
    tables.pop(b"kern", None)  # pair kerning of the stand-in's widths does not apply to the new ones
    return _sfnt(tables)


def _name_table(family: str, style: str) -> bytes:
    """A name table naming the family and style (Windows, English), as Qt reads them."""
    full = f"{family} {style}" if style != "Regular" else family
    postscript = "".join(ch for ch in f"{family}-{style}" if ch.isalnum() or ch == "-")
    records = [(1, family), (2, style), (4, full), (6, postscript)]
    strings = b""
    entries = b""
    for name_id, text in records:
        encoded = text.encode("utf-16-be")
        entries += struct.pack(">HHHHHH", 3, 1, 0x409, name_id, len(encoded), len(strings))
        strings += encoded
    header = struct.pack(">HHH", 0, len(records), 6 + 12 * len(records))
    return header + entries + strings


def _checksum(data: bytes) -> int:
    padded = data + b"\0" * (-len(data) % 4)
    return sum(struct.unpack(f">{len(padded) // 4}L", padded)) & 0xFFFFFFFF


def _sfnt(tables: dict[bytes, bytes]) -> bytes:
    """A TrueType file holding these tables (checksums and head's adjustment computed)."""
    tags = sorted(tables)
    count = len(tags)
    power = 1
    while power * 2 <= count:
        power *= 2
    version = 0x4F54544F if b"CFF " in tables else 0x00010000  # "OTTO" for PostScript outlines
    header = struct.pack(">LHHHH", version, count, power * 16, power.bit_length() - 1, count * 16 - power * 16)
    head = bytearray(tables[b"head"])
    struct.pack_into(">L", head, 8, 0)  # checkSumAdjustment, set below
    tables = {**tables, b"head": bytes(head)}
    offset = 12 + 16 * count
    directory = b""
    body = b""
    for tag in tags:
        data = tables[tag]
        directory += struct.pack(">4sLLL", tag, _checksum(data), offset + len(body), len(data))
        body += data + b"\0" * (-len(data) % 4)
    font = bytearray(header + directory + body)
    head_offset = 12 + 16 * count + sum(len(tables[t]) + (-len(tables[t]) % 4) for t in tags[:tags.index(b"head")])
    struct.pack_into(">L", font, head_offset + 8, (0xB1B0AFBA - _checksum(bytes(font))) & 0xFFFFFFFF)
    return bytes(font)
