"""Privacy transforms for comparison output (spec §9.4): drop core-property fields from a diff or a package.

They are output-only: inputs are never mutated. Only docProps/core.xml is rewritten; every other zip
entry keeps its name, order, date, compression and bytes. Tracked-change and comment authors inside
the document are not touched (the transforms are about package metadata only).
"""

from __future__ import annotations

import copy
import io
import re
import zipfile

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

MAX_INPUT_BYTES = 50 * 1024 * 1024
MAX_ENTRIES = 5_000
MAX_CORE_BYTES = 1024 * 1024
MAX_INFLATED_BYTES = 1024 * 1024 * 1024  # the docx engine's own ceiling; a zip bomb stops here
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)
_DECLARATION = re.compile(rb"^\s*<\?xml[^>]*\?>\s*")


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
        if name not in TRANSFORMS:
            raise InvalidPrivacyOptionsError(
                f"Privacy options received an unrecognized transform {name!r}; use "
                + ", ".join(TRANSFORMS) + ".")
    return [name for name in TRANSFORMS if name in requested]


def removed_fields(transforms: list[str]) -> set[str]:
    return {f for t in transforms for f in TRANSFORMS[t]}


def empty_report(transforms: list[str] | None = None) -> dict:
    return {"appliedTransforms": list(transforms or []), "removedMetadataProperties": []}


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
    out["privacyReport"] = {"appliedTransforms": transforms,
                            "removedMetadataProperties": [f for f in FIELD_ORDER if f in dropped]}
    return out


# -- on a package ------------------------------------------------------------------------------------

def apply_to_package(data: bytes, privacy) -> tuple[bytes, dict]:
    """(new package bytes, privacyReport). Without transforms, core.xml or anything to remove, the
    original bytes come back unchanged."""
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
    core = next((i for i in infos if i.filename.lower() == CORE_PART), None)
    if core is None:
        return data, report
    if core.file_size > MAX_CORE_BYTES:
        raise FolioDocumentPrivacyArchiveError("core-properties-too-large")
    try:
        with zin.open(core) as fh:
            raw = fh.read(MAX_CORE_BYTES + 1)  # the declared size is not trusted
        if len(raw) > MAX_CORE_BYTES:
            raise FolioDocumentPrivacyArchiveError("core-properties-too-large")
        root = etree.fromstring(raw, _PARSER)
    except FolioDocumentPrivacyArchiveError:
        raise
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, etree.XMLSyntaxError):
        raise FolioDocumentPrivacyArchiveError("load-failed") from None
    gone = removed_fields(transforms)
    removed = []
    for name in FIELD_ORDER:
        if name not in gone:
            continue
        for el in root.findall(f"{{{CORE_FIELDS[name]}}}{name}"):
            root.remove(el)
            if name not in removed:
                removed.append(name)
    report["removedMetadataProperties"] = removed
    if not removed:
        return data, report
    declaration = _DECLARATION.match(raw)
    body = etree.tostring(root, encoding="UTF-8", xml_declaration=False)
    new_core = (declaration.group(0).rstrip() if declaration else b"") + body
    return _rewrite(zin, infos, core.filename, new_core), report


def _rewrite(zin: zipfile.ZipFile, infos, name: str, payload: bytes) -> bytes:
    """The same entries in the same order with the same metadata; only `name` gets new bytes."""
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
                body = payload if info.filename == name else (b"" if info.is_dir() else zin.read(info))
                zout.writestr(clone, body)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError):
        raise FolioDocumentPrivacyArchiveError("load-failed") from None
    return out.getvalue()


__all__ = [
    "CORE_FIELDS", "FolioDocumentPrivacyArchiveError", "InvalidPrivacyOptionsError", "TRANSFORMS",
    "apply_to_diff", "apply_to_package", "normalize_transforms", "read_core_properties",
]
