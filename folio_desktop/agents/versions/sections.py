"""Section properties in the redline: a section whose page size, margins, columns, orientation or
numbering changed takes the revised properties with a tracked change (w:sectPrChange) that keeps the
earlier ones, as Word's Compare shows it. A section's text compares nothing of this, so without it a
page turned landscape would be no change at all.

Sections are paired in order when both versions have as many; otherwise only the last section (the
body's own properties) is paired. Header and footer references stay the base's: they name the base
package's parts, and the header and footer stories are redlined by themselves."""

from __future__ import annotations

import copy

from lxml import etree

from folio_desktop.docx.package.ooxml import W_NS

_W = "{" + W_NS + "}"
T_SECTPR = _W + "sectPr"
# kept from the base (they name the base package's parts) and never compared
_OWN = {_W + "headerReference", _W + "footerReference", _W + "printerSettings", _W + "sectPrChange"}
_RSID = _W + "rsid"


def _sections(root: etree._Element) -> list[etree._Element]:
    """The document's section properties in order, not those stored as an old state of a change."""
    return [s for s in root.iter(T_SECTPR)
            if not any(a.tag in (_W + "sectPrChange", _W + "pPrChange") for a in s.iterancestors())]


def _properties(sect: etree._Element) -> list[etree._Element]:
    return [c for c in sect if isinstance(c.tag, str) and c.tag not in _OWN]


def _key(sect: etree._Element) -> list[bytes]:
    out = []
    for child in _properties(sect):
        child = copy.deepcopy(child)
        for el in child.iter():
            for attr in [a for a in el.attrib if a.startswith(_RSID)]:
                del el.attrib[attr]
        out.append(etree.tostring(child, method="c14n"))
    return out


def changed_sections(base_root: etree._Element, rev_root: etree._Element) -> list[tuple]:
    """(base sectPr, revised sectPr) pairs whose properties differ."""
    base, rev = _sections(base_root), _sections(rev_root)
    if not base or not rev:
        return []
    pairs = list(zip(base, rev)) if len(base) == len(rev) else [(base[-1], rev[-1])]
    return [(b, r) for b, r in pairs if _key(b) != _key(r)]


def redline_section(base: etree._Element, revised: etree._Element, mark: etree._Element) -> None:
    """Give base the revised properties; `mark` (a w:sectPrChange carrying id, author and date)
    keeps the old ones, so rejecting restores them."""
    old = etree.SubElement(mark, T_SECTPR)
    for child in _properties(base):
        old.append(copy.deepcopy(child))
    own = [c for c in base if isinstance(c.tag, str) and c.tag in _OWN and c.tag != _W + "sectPrChange"]
    refs = [c for c in own if c.tag != _W + "printerSettings"]
    printer = [c for c in own if c.tag == _W + "printerSettings"]
    new = [copy.deepcopy(c) for c in _properties(revised)]
    # schema order: references, the properties (printerSettings among the last), then the change
    base[:] = refs + new + printer + [mark]


__all__ = ["changed_sections", "redline_section"]
