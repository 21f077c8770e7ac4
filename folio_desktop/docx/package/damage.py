"""Which damaged parts refuse a document, and what stands in for the ones that do not.

A part the text, its formatting or its review depends on (the main document, styles, numbering,
headers and footers, notes, comments, content types, relationships) must be read whole, so damage
there refuses the open. Anything else (theme, font table, settings, web settings, custom XML,
document properties, pictures) only costs fidelity: the document opens with a warning naming the
part, the engine reads a minimal stand-in, and at save the part is kept as it was (default) or
replaced by that stand-in, as the lawyer chooses.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass

from lxml import etree

ESSENTIAL_RELS = frozenset(
    {"styles", "numbering", "header", "footer", "footnotes", "endnotes", "comments"}
)
KEEP, REBUILD = "keep", "rebuild"
DAMAGED_PART_CHOICES = (KEEP, REBUILD)

_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_A = "http://schemas.openxmlformats.org/drawingml/2006/main"
_DECL = b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'

# relationship type suffix -> (what the lawyer reads, minimal stand-in)
_KINDS: dict[str, tuple[str, bytes | None]] = {
    "theme": ("theme", None),  # filled in below: a theme needs every scheme to be valid
    "fontTable": ("font table", f'<w:fonts xmlns:w="{_W}"/>'.encode()),
    "settings": ("settings part", f'<w:settings xmlns:w="{_W}"/>'.encode()),
    "webSettings": ("web settings part", f'<w:webSettings xmlns:w="{_W}"/>'.encode()),
    "core-properties": ("document properties part", (
        b'<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties"'
        b' xmlns:dc="http://purl.org/dc/elements/1.1/"/>')),
    "extended-properties": ("document properties part", (
        b'<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"/>')),
    "custom-properties": ("custom document properties part", (
        b'<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/custom-properties"/>')),
    "customXml": ("custom XML part", None),
    "customXmlProps": ("custom XML properties part", None),
}


def _minimal_theme() -> bytes:
    """The smallest theme ECMA-376 accepts (every scheme present, three styles in each list)."""
    colors = "".join(
        f'<a:{slot}><a:srgbClr val="{rgb}"/></a:{slot}>'
        for slot, rgb in (("dk1", "000000"), ("lt1", "FFFFFF"), ("dk2", "44546A"), ("lt2", "E7E6E6"),
                          ("accent1", "4472C4"), ("accent2", "ED7D31"), ("accent3", "A5A5A5"),
                          ("accent4", "FFC000"), ("accent5", "5B9BD5"), ("accent6", "70AD47"),
                          ("hlink", "0563C1"), ("folHlink", "954F72"))
    )
    font = '<a:latin typeface="{0}"/><a:ea typeface=""/><a:cs typeface=""/>'
    fill = '<a:solidFill><a:schemeClr val="phClr"/></a:solidFill>'
    return (
        f'<a:theme xmlns:a="{_A}" name="Office Theme"><a:themeElements>'
        f'<a:clrScheme name="Office">{colors}</a:clrScheme>'
        f'<a:fontScheme name="Office"><a:majorFont>{font.format("Calibri Light")}</a:majorFont>'
        f'<a:minorFont>{font.format("Calibri")}</a:minorFont></a:fontScheme>'
        f'<a:fmtScheme name="Office"><a:fillStyleLst>{fill * 3}</a:fillStyleLst>'
        f'<a:lnStyleLst>{f"<a:ln>{fill}</a:ln>" * 3}</a:lnStyleLst>'
        f'<a:effectStyleLst>{"<a:effectStyle><a:effectLst/></a:effectStyle>" * 3}</a:effectStyleLst>'
        f'<a:bgFillStyleLst>{fill * 3}</a:bgFillStyleLst></a:fmtScheme>'
        "</a:themeElements></a:theme>"
    ).encode()


_KINDS["theme"] = ("theme", _minimal_theme())


@dataclass(frozen=True)
class DamagedPart:
    """A non-essential part that failed its check at open."""

    name: str
    label: str  # "theme", "font table", "settings part", ... or "part"
    reason: str  # the check that failed, in words
    salvage: bytes  # the bytes as read (what the entry inflated to before the damage was found)
    stand_in: bytes | None  # the minimal part written by REBUILD; None for a picture or other binary

    def warning(self) -> str:
        what = f"The {self.label} {self.name}"
        kept = ("it is kept as it was when you save, or rebuilt minimal if you choose"
                if self.stand_in is not None else "it is kept as it was when you save")
        return f"{what} is damaged ({self.reason}); the document opened without it, and {kept}."


def essential_parts(rels_of, main_part: str) -> set[str]:
    """Lower-cased names of the parts whose damage refuses the document. `rels_of(part)` gives a
    part's relationships (the main part's own rels file is read already)."""
    out = {"[content_types].xml", "_rels/.rels", main_part.lower(), rels_name(main_part).lower()}
    for rel in rels_of(main_part):
        if not rel.external and rel.type.rsplit("/", 1)[-1] in ESSENTIAL_RELS:
            out.add(rel.target.lower())
            out.add(rels_name(rel.target).lower())
    return out


def kind_of(rels_of, main_part: str, name: str) -> tuple[str, bytes | None]:
    """(label, minimal stand-in or None) for a non-essential part, from the relationship naming it."""
    low = name.lower()
    sources = ["", main_part] + [r.target for r in rels_of(main_part) if r.type.endswith("/customXml")]
    for source in sources:
        for rel in rels_of(source):
            if not rel.external and rel.target.lower() == low:
                found = _KINDS.get(rel.type.rsplit("/", 1)[-1])
                if found is not None:
                    return found
    if low.startswith("customxml/"):
        return _KINDS["customXml"]
    if low.startswith("docprops/"):
        return ("document properties part", None)
    return ("part", None)


def rels_name(part_name: str) -> str:
    folder, name = posixpath.split(part_name)
    return posixpath.join(folder, "_rels", name + ".rels")


def stand_in_for(data: bytes, known: bytes | None) -> bytes:
    """The minimal well-formed part to read (and, on REBUILD, to write) in place of a damaged one:
    the kind's own minimal part when it has one, else an empty element named as the damaged root
    was (so code looking for that part's children finds none), else an empty placeholder."""
    if known is not None:
        return _DECL + known
    tag, nsmap = None, {}
    try:
        parser = etree.XMLParser(recover=True, resolve_entities=False, no_network=True, load_dtd=False)
        root = etree.fromstring(data, parser) if data else None
        if root is not None and isinstance(root.tag, str):
            tag, nsmap = root.tag, dict(root.nsmap)
    except (etree.XMLSyntaxError, ValueError):
        pass
    el = etree.Element(tag, nsmap=nsmap) if tag else etree.Element("damaged")
    return etree.tostring(el, xml_declaration=True, encoding="UTF-8", standalone=True)


def damage_reason(error: Exception, name: str) -> str:
    """The failed check in a few words, for the warning (the part is named there already)."""
    text = str(error)
    if "Bad CRC-32" in text:
        return "its CRC-32 check failed: the bytes are not the ones that were written"
    for prefix in (f"The part {name} is ", f"The part {name} "):
        if text.startswith(prefix):
            text = text[len(prefix):]
            break
    if text.startswith("damaged inside the zip ("):
        text = "broken inside the zip: " + text[len("damaged inside the zip ("):].rstrip(".").removesuffix(")")
    return text.rstrip(".")
