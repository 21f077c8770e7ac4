"""Strict Open XML (ISO/IEC 29500 Strict, Word's "Strict Open XML Document") read as the
transitional vocabulary the engine speaks, and saved that way.

Strict names the same elements in other namespaces (purl.oclc.org/ooxml/...) and its relationship
types likewise. Word opens both; it saves what it opened as Strict back as Strict only when asked. Here
every XML part is translated as it is read (a byte rewrite of the namespace names, before parsing), so
a save writes a standard .docx; the lawyer is told so when the document opens (Package.warnings).
"""

from __future__ import annotations

import re

# (Strict, transitional): the specific relationship types first, where the names differ beyond the prefix
_NAMES = (
    (b"http://purl.oclc.org/ooxml/officeDocument/relationships/extendedProperties",
     b"http://schemas.openxmlformats.org/officeDocument/2006/relationships/extended-properties"),
    (b"http://purl.oclc.org/ooxml/officeDocument/relationships/customProperties",
     b"http://schemas.openxmlformats.org/officeDocument/2006/relationships/custom-properties"),
    (b"http://purl.oclc.org/ooxml/officeDocument/relationships/metadata/core-properties",
     b"http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties"),
    (b"http://purl.oclc.org/ooxml/officeDocument/extendedProperties",
     b"http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"),
    (b"http://purl.oclc.org/ooxml/officeDocument/customProperties",
     b"http://schemas.openxmlformats.org/officeDocument/2006/custom-properties"),
    (b"http://purl.oclc.org/ooxml/wordprocessingml/main", b"http://schemas.openxmlformats.org/wordprocessingml/2006/main"),
    (b"http://purl.oclc.org/ooxml/officeDocument/", b"http://schemas.openxmlformats.org/officeDocument/2006/"),
    (b"http://purl.oclc.org/ooxml/drawingml/", b"http://schemas.openxmlformats.org/drawingml/2006/"),
    (b"http://purl.oclc.org/ooxml/spreadsheetml/main", b"http://schemas.openxmlformats.org/spreadsheetml/2006/main"),
    (b"http://purl.oclc.org/ooxml/presentationml/main", b"http://schemas.openxmlformats.org/presentationml/2006/main"),
)
_CONFORMANCE = re.compile(rb'(\bw?:?conformance=")strict(")')


def to_transitional(data: bytes) -> bytes:
    """The part with every Strict namespace and relationship type renamed to its transitional twin,
    and a document's conformance class set to transitional."""
    for strict, transitional in _NAMES:
        data = data.replace(strict, transitional)
    return _CONFORMANCE.sub(rb"\1transitional\2", data)
