"""Section properties in the redline: a section whose page size, margins, columns, orientation or
numbering changed takes the revised properties with a tracked change (w:sectPrChange) that keeps the
earlier ones, as Word's Compare shows it. A section's text compares nothing of this, so without it a
page turned landscape would be no change at all.

Sections are paired in order when both versions have as many; otherwise only the last section (the
body's own properties) is paired. Header and footer references stay the base's: they name the base
package's parts, and the header and footer stories are redlined by themselves.

Header and footer stories are keyed by relationship id, which two versions rarely share, so they are
paired by where they show (paired_stories): the same kind and type (default, first, even) in the same
section, then in any section. A story only the revised version has is given an empty part in the base,
referred to from the same places, so its content is redlined as inserted (add_empty_story); one only the
base has is compared with nothing, so its content is redlined as deleted."""

from __future__ import annotations

import copy

from lxml import etree

from folio_desktop.docx.package.ooxml import R_NS, W_NS

_W = "{" + W_NS + "}"
T_SECTPR = _W + "sectPr"
T_P = _W + "p"
_WRAPPERS = (_W + "sdt", _W + "customXml")
# kept from the base (they name the base package's parts) and never compared
_OWN = {_W + "headerReference", _W + "footerReference", _W + "printerSettings", _W + "sectPrChange"}
_RSID = _W + "rsid"
_REFERENCES = {_W + "headerReference": "header", _W + "footerReference": "footer"}
_STORY_PARTS = {"header": ("hdr", "application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml"),
                "footer": ("ftr", "application/vnd.openxmlformats-officedocument.wordprocessingml.footer+xml")}
_REL_TYPE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"


def _sections(root: etree._Element) -> list[etree._Element]:
    """The document's section properties in order: the body's own, and those of the paragraphs at its
    top level (inside content controls and custom XML too: Word puts none in a table). Only those
    levels are walked, not the whole tree (a long document's tree is walked several times a compare)."""
    body = root.find(_W + "body")
    out: list[etree._Element] = []
    stack = [iter(body if body is not None else ())]
    while stack:
        child = next(stack[-1], None)
        if child is None:
            stack.pop()
        elif child.tag == T_P:
            ppr = child.find(_W + "pPr")
            sect = ppr.find(T_SECTPR) if ppr is not None else None
            if sect is not None:
                out.append(sect)
        elif child.tag == T_SECTPR:
            out.append(child)
        elif child.tag in _WRAPPERS:
            inner = child.find(_W + "sdtContent") if child.tag == _W + "sdt" else child
            stack.append(iter(inner if inner is not None else ()))
    return out


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


# -- header and footer stories ----------------------------------------------------------------------------

def _places(doc) -> tuple[list[etree._Element], dict[str, list[tuple]]]:
    """The body's sections, and header/footer story key -> the (kind, section, type) places that show
    it, in order; the body's own (last) section is "last" whatever the count before it."""
    sections = _sections(doc.package.xml(doc.main_part))
    out: dict[str, list[tuple]] = {}
    for n, sect in enumerate(sections):
        where = "last" if n == len(sections) - 1 else n
        for ref in sect:
            kind = _REFERENCES.get(ref.tag)
            if kind:
                out.setdefault(f"{kind}:{ref.get(f'{{{R_NS}}}id')}", []).append(
                    (kind, where, ref.get(_W + "type") or "default"))
    return sections, out


def paired_stories(base_doc, rev_doc) -> tuple[dict[str, str], list[tuple]]:
    """(revised header/footer key -> the base key it is compared with, and [(revised key, places)] for
    the revised stories no base story pairs with that show somewhere). Pairs: the same place first,
    then the same kind and type anywhere; two stories shown nowhere pair when their keys are equal."""
    base_places, rev_places = _places(base_doc)[1], _places(rev_doc)[1]
    base_keys = [s.key for s in base_doc.stories() if s.type in _STORY_PARTS]
    rev_keys = [s.key for s in rev_doc.stories() if s.type in _STORY_PARTS]
    pairs: dict[str, str] = {}
    for loose in (False, True):
        for rk in [k for k in rev_keys if k not in pairs]:
            want = {(p[0], p[2]) if loose else p for p in rev_places.get(rk, [])}
            bk = next((bk for bk in base_keys if bk not in pairs.values()
                       and want & {(p[0], p[2]) if loose else p for p in base_places.get(bk, [])}), None)
            if bk is not None:
                pairs[rk] = bk
    for rk in rev_keys:
        if rk not in rev_places and rk not in base_places and rk in base_keys and rk not in pairs.values():
            pairs.setdefault(rk, rk)
    added = [(rk, rev_places[rk]) for rk in rev_keys if rk not in pairs and rk in rev_places]
    return pairs, added


def add_empty_story(doc, places: list[tuple]) -> str:
    """A header or footer part holding one empty paragraph, related from the main part and referred to
    from the base sections at `places` that show no story of that kind and type yet; its story key."""
    kind = places[0][0]
    tag, ctype = _STORY_PARTS[kind]
    package = doc.package
    n = 1
    while package.has_part(f"word/{kind}{n}.xml"):
        n += 1
    root = etree.Element(_W + tag, nsmap={"w": W_NS, "r": R_NS})
    etree.SubElement(root, _W + "p")
    package.add_part(f"word/{kind}{n}.xml", root, ctype)
    rid = package.add_relationship(doc.main_part, _REL_TYPE + kind, f"word/{kind}{n}.xml")
    sections = _places(doc)[0]
    for _, where, kind_type in places:
        sect = sections[-1] if where == "last" else sections[where] if where < len(sections) - 1 else None
        if sect is None or any(_REFERENCES.get(r.tag) == kind and (r.get(_W + "type") or "default") == kind_type
                               for r in sect):
            continue  # a section the base lacks (an inserted section break brings its references itself)
        ref = etree.Element(f"{_W}{kind}Reference")
        ref.set(_W + "type", kind_type)
        ref.set(f"{{{R_NS}}}id", rid)
        sect.insert(0, ref)
    package.mark_dirty(doc.main_part)
    doc.invalidate()
    return f"{kind}:{rid}"


__all__ = ["add_empty_story", "changed_sections", "paired_stories", "redline_section"]
