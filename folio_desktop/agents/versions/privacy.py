"""Privacy transforms for comparison output (spec §9.4): drop core-property fields from a diff or a package,
and, beyond the reference's metadata-only transforms, the names and dates on the document's own marks.

They are output-only: inputs are never mutated. The reference's three transforms rewrite only
docProps/core.xml, as it does. A redline still names everyone in its revision marks and comments, so
two more go into the markup: `anonymize-revisions` names every tracked change and comment "Author"
(initials "A") and leaves the people part Word keeps for comment authors one "Author" without its
account (provider and user id, often an e-mail address); `remove-revision-dates` drops the w:date of
every mark and comment and the UTC copies newer Word writes beside them (on marks, in
commentsExtensible). Only parts that change are rewritten; every other zip entry keeps its name,
order, date, compression and bytes.
"""

from __future__ import annotations

import copy
import io
import re
import zipfile
from collections import Counter

from lxml import etree

CP_NS = "http://schemas.openxmlformats.org/package/2006/metadata/core-properties"
DC_NS = "http://purl.org/dc/elements/1.1/"
DCTERMS_NS = "http://purl.org/dc/terms/"

# every core property the comparison reads, in the order metadataChanges lists them
CORE_FIELDS = {
    "title": DC_NS, "subject": DC_NS, "creator": DC_NS, "keywords": CP_NS, "description": DC_NS,
    "lastModifiedBy": CP_NS, "revision": CP_NS, "created": DCTERMS_NS, "modified": DCTERMS_NS,
}
TRANSFORMS = {
    "remove-attribution": ("creator", "lastModifiedBy"),
    "remove-timestamps": ("created", "modified"),
    "remove-descriptive-metadata": ("title", "subject", "keywords", "description"),
}
# the order removedMetadataProperties reports fields in
FIELD_ORDER = tuple(f for fields in TRANSFORMS.values() for f in fields)
CORE_PART = "docprops/core.xml"
# transforms of the document's own markup (the reference's names above stay metadata-only)
ANONYMIZE = "anonymize-revisions"
REMOVE_DATES = "remove-revision-dates"
TRANSFORM_NAMES = (*TRANSFORMS, ANONYMIZE, REMOVE_DATES)  # canonical order
NEUTRAL_AUTHOR = "Author"
NEUTRAL_INITIALS = "A"

MAX_INPUT_BYTES = 50 * 1024 * 1024
MAX_ENTRIES = 5_000
MAX_CORE_BYTES = 1024 * 1024
MAX_INFLATED_BYTES = 1024 * 1024 * 1024  # the docx engine's own ceiling; a zip bomb stops here
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)
# a story part can be large: within the inflated-size ceiling, text nodes and depth are not limited
_PART_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=True)
_DECLARATION = re.compile(rb"^\s*<\?xml[^>]*\?>\s*")

_W_NSS = ("http://schemas.openxmlformats.org/wordprocessingml/2006/main",
          "http://purl.oclc.org/ooxml/wordprocessingml/main")
W15_NS = "http://schemas.microsoft.com/office/word/2012/wordml"
_AUTHORS = tuple(f"{{{ns}}}author" for ns in _W_NSS)  # w:ins, w:del, w:moveFrom/To, *PrChange, w:comment
_COMMENTS = tuple(f"{{{ns}}}comment" for ns in _W_NSS)
_INITIALS = tuple(f"{{{ns}}}initials" for ns in _W_NSS)
_DATES = tuple(f"{{{ns}}}date" for ns in _W_NSS)
_UTC_DATE = "}dateUtc"  # the UTC copy Word 2023+ adds to each mark (w16du) and to comments (w16cex)
_PERSON, _PERSON_AUTHOR = f"{{{W15_NS}}}person", f"{{{W15_NS}}}author"
_PRESENCE = f"{{{W15_NS}}}presenceInfo"
# bytes a part must hold for a transform to find anything in it (spares parsing the rest)
_NAME_HINTS = (b"author=", b"initials=")
_DATE_HINTS = (b"date=", b"dateUtc=")
_COUNTED = ("authorsReplaced", "initialsReplaced", "peopleReplaced", "datesRemoved")


class InvalidPrivacyOptionsError(ValueError):
    """A privacy option that names no known transform."""


class FolioDocumentPrivacyArchiveError(ValueError):
    """The package could not be rewritten safely; `reason` is one of input-too-large, load-failed,
    too-many-entries, core-properties-too-large."""

    def __init__(self, reason: str, message: str | None = None):
        super().__init__(message or f"The document's metadata could not be rewritten ({reason}).")
        self.reason = reason


def normalize_transforms(privacy) -> list[str]:
    """The requested transforms, validated, deduplicated, in canonical order.

    Accepts None, {"transforms": [...]} (the reference's shape) or a plain list of names."""
    if privacy is None:
        return []
    requested = privacy.get("transforms", []) if isinstance(privacy, dict) else privacy
    if isinstance(requested, str) or not isinstance(requested, (list, tuple)):
        raise InvalidPrivacyOptionsError("Privacy options expect a list of transform names.")
    for name in requested:
        if name not in TRANSFORM_NAMES:
            raise InvalidPrivacyOptionsError(
                f"Privacy options received an unrecognized transform {name!r}; use "
                + ", ".join(TRANSFORM_NAMES) + ".")
    return [name for name in TRANSFORM_NAMES if name in requested]


def removed_fields(transforms: list[str]) -> set[str]:
    return {f for t in transforms for f in TRANSFORMS.get(t, ())}


def empty_report(transforms: list[str] | None = None) -> dict:
    """The reference's report; the markup transforms add what they counted (zero until they run)."""
    transforms = list(transforms or [])
    report = {"appliedTransforms": transforms, "removedMetadataProperties": []}
    if ANONYMIZE in transforms:
        report.update(authorsReplaced=0, initialsReplaced=0, peopleReplaced=0)
    if REMOVE_DATES in transforms:
        report["datesRemoved"] = 0
    return report


# -- reading ------------------------------------------------------------------------------------------

def read_core_properties(root: etree._Element | None) -> dict[str, str | None]:
    """The nine compared core properties of a parsed core.xml (absent -> None)."""
    out: dict[str, str | None] = dict.fromkeys(CORE_FIELDS)
    if root is None:
        return out
    for name, ns in CORE_FIELDS.items():
        el = root.find(f"{{{ns}}}{name}")
        if el is not None:
            out[name] = (el.text or "").strip()
    return out


# -- on a diff ---------------------------------------------------------------------------------------

def apply_to_diff(diff: dict, privacy) -> dict:
    """A copy of a FolioVersionDiff without the metadata changes the transforms remove, recounted."""
    transforms = normalize_transforms(privacy)
    out = copy.deepcopy(diff)
    gone = removed_fields(transforms)
    kept = [c for c in out["metadataChanges"] if c["property"] not in gone]
    dropped = {c["property"] for c in out["metadataChanges"]} - {c["property"] for c in kept}
    out["metadataChanges"] = kept
    out["summaryCounts"]["metadataChanged"] = len(kept)
    out["privacyReport"] = {**empty_report(transforms),
                            "removedMetadataProperties": [f for f in FIELD_ORDER if f in dropped]}
    return out


# -- on a package ------------------------------------------------------------------------------------

def apply_to_package(data: bytes, privacy) -> tuple[bytes, dict]:
    """(new package bytes, privacyReport). Without transforms or anything to change, the original
    bytes come back unchanged."""
    transforms = normalize_transforms(privacy)
    report = empty_report(transforms)
    if not transforms:
        return data, report
    if len(data) > MAX_INPUT_BYTES:
        raise FolioDocumentPrivacyArchiveError("input-too-large")
    try:
        zin = zipfile.ZipFile(io.BytesIO(data))
        infos = zin.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        raise FolioDocumentPrivacyArchiveError("load-failed") from None
    if len(infos) > MAX_ENTRIES:
        raise FolioDocumentPrivacyArchiveError("too-many-entries")
    if sum(i.file_size for i in infos) > MAX_INFLATED_BYTES:  # reads stop at the declared sizes
        raise FolioDocumentPrivacyArchiveError("input-too-large")
    try:
        payloads = _core_payload(zin, infos, transforms, report)
        names, dates = ANONYMIZE in transforms, REMOVE_DATES in transforms
        if names or dates:
            payloads.update(_markup_payloads(zin, infos, names, dates, report))
    except FolioDocumentPrivacyArchiveError:
        raise
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, etree.XMLSyntaxError):
        raise FolioDocumentPrivacyArchiveError("load-failed") from None
    return (_rewrite(zin, infos, payloads) if payloads else data), report


def _core_payload(zin: zipfile.ZipFile, infos, transforms: list[str], report: dict) -> dict[str, bytes]:
    """{core.xml's entry name: its bytes without the removed fields}, or {} when nothing goes."""
    gone = removed_fields(transforms)
    core = next((i for i in infos if i.filename.lower() == CORE_PART), None)
    if core is None or not gone:
        return {}
    if core.file_size > MAX_CORE_BYTES:
        raise FolioDocumentPrivacyArchiveError("core-properties-too-large")
    with zin.open(core) as fh:
        raw = fh.read(MAX_CORE_BYTES + 1)  # the declared size is not trusted
    if len(raw) > MAX_CORE_BYTES:
        raise FolioDocumentPrivacyArchiveError("core-properties-too-large")
    root = etree.fromstring(raw, _PARSER)
    removed = []
    for name in FIELD_ORDER:
        if name not in gone:
            continue
        for el in root.findall(f"{{{CORE_FIELDS[name]}}}{name}"):
            root.remove(el)
            if name not in removed:
                removed.append(name)
    report["removedMetadataProperties"] = removed
    return {core.filename: _serialize(raw, root)} if removed else {}


def _markup_payloads(zin: zipfile.ZipFile, infos, names: bool, dates: bool, report: dict) -> dict[str, bytes]:
    """{entry name: new bytes} for every XML part whose marks or comments lost a name or a date."""
    hints = (_NAME_HINTS if names else ()) + (_DATE_HINTS if dates else ())
    counts: Counter = Counter()
    out = {}
    for info in infos:
        lower = info.filename.lower()
        if not lower.endswith(".xml") or lower == CORE_PART or info.is_dir():
            continue
        raw = zin.read(info)
        if not any(hint in raw for hint in hints):
            continue
        root = etree.fromstring(raw, _PART_PARSER)
        if _scrub(root, names, dates, counts):
            out[info.filename] = _serialize(raw, root)
    for key in _COUNTED:
        if key in report:
            report[key] = counts[key]
    return out


def _scrub(root: etree._Element, names: bool, dates: bool, counts: Counter) -> bool:
    """Rename and undate the marks in one part, counting into `counts`; whether anything changed."""
    before = sum(counts.values())
    people_seen = False
    gone = []
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        if names:
            for attr in _AUTHORS:
                if el.get(attr) not in (None, NEUTRAL_AUTHOR):
                    el.set(attr, NEUTRAL_AUTHOR)
                    counts["authorsReplaced"] += 1
            if el.tag in _COMMENTS:
                for attr in _INITIALS:
                    if el.get(attr) not in (None, NEUTRAL_INITIALS):
                        el.set(attr, NEUTRAL_INITIALS)
                        counts["initialsReplaced"] += 1
            if el.tag == _PERSON:  # one "Author" is left, without an account; more would say nothing
                counts["peopleReplaced"] += int(el.get(_PERSON_AUTHOR) != NEUTRAL_AUTHOR)
                if people_seen:
                    gone.append(el)
                else:
                    el.set(_PERSON_AUTHOR, NEUTRAL_AUTHOR)
                    gone += el.findall(_PRESENCE)
                people_seen = True
        if dates:
            for attr in [a for a in el.attrib if a in _DATES or a.endswith(_UTC_DATE)]:
                del el.attrib[attr]
                counts["datesRemoved"] += 1
    for el in gone:
        if el.getparent() is not None:
            el.getparent().remove(el)
    return sum(counts.values()) > before or bool(gone)


def _serialize(raw: bytes, root: etree._Element) -> bytes:
    """The part's new bytes, under the XML declaration it was written with."""
    declaration = _DECLARATION.match(raw)
    body = etree.tostring(root, encoding="UTF-8", xml_declaration=False)
    return (declaration.group(0).rstrip() if declaration else b"") + body


def _rewrite(zin: zipfile.ZipFile, infos, payloads: dict[str, bytes]) -> bytes:
    """The same entries in the same order with the same metadata; only those in `payloads` get new bytes."""
    out = io.BytesIO()
    try:
        with zipfile.ZipFile(out, "w") as zout:
            for info in infos:
                clone = zipfile.ZipInfo(info.filename, date_time=info.date_time)
                clone.compress_type = info.compress_type
                clone.external_attr = info.external_attr
                clone.create_system = info.create_system
                clone.comment = info.comment
                clone.extra = info.extra
                body = payloads[info.filename] if info.filename in payloads else (
                    b"" if info.is_dir() else zin.read(info))
                zout.writestr(clone, body)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError):
        raise FolioDocumentPrivacyArchiveError("load-failed") from None
    return out.getvalue()


__all__ = [
    "CORE_FIELDS", "FolioDocumentPrivacyArchiveError", "InvalidPrivacyOptionsError", "NEUTRAL_AUTHOR",
    "TRANSFORMS", "TRANSFORM_NAMES",
    "apply_to_diff", "apply_to_package", "normalize_transforms", "read_core_properties",
]
