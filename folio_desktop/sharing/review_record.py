"""Which document a saved review is a review of, kept inside the review itself (`mcp FILE --save-to OUT`).

An MCP client starts and stops its servers at will (Claude Desktop does it routinely), and each start of
`folio-desktop mcp FILE` reads FILE afresh. So OUT says what it is a review of: FILE's name and the sha256
of FILE's bytes, as two custom document properties (docProps/custom.xml, the user-defined properties
that Word and LibreOffice keep and list; nothing else about FILE, not even its folder, is recorded).
At the next start review_start() continues from OUT when OUT is a review of FILE as it is now, and
refuses, in words, when OUT is anything else, rather than writing over someone's document or a review of
an older version.
"""

from __future__ import annotations

import os

from lxml import etree

from ..docx import DocxError
from ..docx.package.files import read_document_file
from ..docx.package.opc import Package

CP_NS = "http://schemas.openxmlformats.org/officeDocument/2006/custom-properties"
VT_NS = "http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes"
RT_CUSTOM = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/custom-properties"
CT_CUSTOM = "application/vnd.openxmlformats-officedocument.custom-properties+xml"
FMTID = "{D5CDD505-2E9C-101B-9397-08002B2CF9AE}"  # the one format id of user-defined properties
NAME_PROPERTY = "folio-desktop review of"
DIGEST_PROPERTY = "folio-desktop review of (sha256)"
START_OVER = "--overwrite"


class ReviewRefused(Exception):
    """The output holds something this review must not continue from or write over; the message says
    why and what to pass instead."""


def review_start(source: str, out: str, digest: str, overwrite: bool = False) -> str:
    """The file a review of `source` (whose sha256 is `digest`) starts from: `out` when it holds an
    earlier review of source as it is now, else source. ReviewRefused when `out` holds anything else."""
    if overwrite or not os.path.exists(out) or same_file(source, out):
        return source
    name = os.path.basename(source)
    try:
        recorded = recorded_source(Package(read_document_file(out)))
    except DocxError as exc:
        raise ReviewRefused(f"{out} already exists and could not be read as a review ({exc}). "
                            f"{_choices(source, out)}") from None
    if recorded is None:
        raise ReviewRefused(f"{out} already exists and is not a review of {name} made by folio-desktop, so it "
                            f"was left as it is. {_choices(source, out)}")
    recorded_name, recorded_digest = recorded
    if recorded_digest == digest:
        return out
    if recorded_name == name:
        raise ReviewRefused(f"{out} holds a review of an earlier version of {name}: {name} has changed since, so "
                            f"those edits cannot simply carry on. {_choices(source, out)}")
    raise ReviewRefused(f"{out} holds a review of another document ({recorded_name}), not of {name}. "
                        f"{_choices(source, out)}")


def _choices(source: str, out: str) -> str:
    return (f"Pass --save-to with another file name to keep {os.path.basename(out)}, or {START_OVER} to start "
            f"over from {os.path.basename(source)} as it is now (replacing {os.path.basename(out)} at the first edit).")


def same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def recorded_source(package: Package) -> tuple[str, str] | None:
    """(name, sha256) of the document the package is a review of, when it says."""
    part = _properties_part(package)
    if part is None:
        return None
    try:
        values = _properties(package.xml(part))
    except DocxError:
        return None
    name, digest = values.get(NAME_PROPERTY), values.get(DIGEST_PROPERTY)
    return (name or "", digest) if digest else None


def record_source(package: Package, name: str, digest: str) -> None:
    """Say in the package that it is a review of `name` whose sha256 is `digest` (saved with the package).
    Any other custom property is kept."""
    part = _properties_part(package)
    if part is None:
        part = _free_name(package, "docProps/custom.xml")
        package.add_part(part, etree.Element(f"{{{CP_NS}}}Properties", nsmap={None: CP_NS, "vt": VT_NS}),
                         CT_CUSTOM)
        package.add_relationship("", RT_CUSTOM, part)
    root = package.xml(part)
    if _properties(root) == {**_properties(root), NAME_PROPERTY: name, DIGEST_PROPERTY: digest}:
        return  # already says so: the part stays byte-identical
    for key, value in ((NAME_PROPERTY, name), (DIGEST_PROPERTY, digest)):
        _set_text_property(root, key, value)
    package.mark_dirty(part)


def _properties_part(package: Package) -> str | None:
    found = package.related("", "custom-properties")
    return package.canonical_name(found[0].target) if found else None


def _free_name(package: Package, name: str) -> str:
    stem, n = name.removesuffix(".xml"), 1
    while package.has_part(name):
        n += 1
        name = f"{stem}{n}.xml"
    return name


def _properties(root: etree._Element) -> dict[str, str]:
    """The text properties: name -> value (other kinds are left alone, and out of this)."""
    out = {}
    for prop in root.iter(f"{{{CP_NS}}}property"):
        value = prop.find(f"{{{VT_NS}}}lpwstr")
        if value is not None and prop.get("name"):
            out[prop.get("name")] = value.text or ""
    return out


def _set_text_property(root: etree._Element, name: str, value: str) -> None:
    prop = next((p for p in root.iter(f"{{{CP_NS}}}property") if p.get("name") == name), None)
    if prop is None:
        pids = [int(p.get("pid")) for p in root.iter(f"{{{CP_NS}}}property") if (p.get("pid") or "").isdigit()]
        prop = etree.SubElement(root, f"{{{CP_NS}}}property", fmtid=FMTID, pid=str(max(pids, default=1) + 1),
                                name=name)
    for child in list(prop):
        prop.remove(child)
    etree.SubElement(prop, f"{{{VT_NS}}}lpwstr").text = value
