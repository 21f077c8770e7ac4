"""The text that can still be read from a .docx whose zip is damaged (cut short in a download, a copy
that stopped half way, bytes overwritten): the zip's table of contents at its end is gone, but each
entry also starts with a header of its own, and the main document's entry is usually whole, or whole
enough to read most of its paragraphs.

Only the words are recovered (paragraph by paragraph, in the text as last saved: deleted text left
out, inserted text kept); formatting, numbering, comments and tracked changes are not. The caller
offers them as a new document, never as the damaged file.
"""

from __future__ import annotations

import struct
import zlib

from lxml import etree

LOCAL_HEADER = b"PK\x03\x04"
MAIN_PART = "word/document.xml"
MAX_RECOVERED_BYTES = 64 * 1024 * 1024  # the limit of the part once inflated
_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_STORED, _DEFLATED = 0, 8


def _entry_bytes(data: bytes, name: str) -> bytes | None:
    """The bytes of the zip entry `name` found by its local header, as far as they inflate."""
    target = name.encode()
    at = 0
    while (at := data.find(LOCAL_HEADER, at)) >= 0:
        head = data[at + 4:at + 30]
        at += 4
        if len(head) < 26:
            return None
        _version, flags, method, _time, _date, _crc, size, _full, name_len, extra_len = struct.unpack("<HHHHHIIIHH", head)
        if data[at + 26:at + 26 + name_len] != target or flags & 1:  # another entry, or an encrypted one
            continue
        start = at + 26 + name_len + extra_len
        body = data[start:start + size] if size and not flags & 8 else data[start:]
        if method == _STORED:
            return body[:MAX_RECOVERED_BYTES]
        if method != _DEFLATED:
            return None
        inflate = zlib.decompressobj(-zlib.MAX_WBITS)
        try:
            return inflate.decompress(body, MAX_RECOVERED_BYTES)
        except zlib.error:  # damaged inside: what inflated before the damage is lost with this API
            return None
    return None


def recoverable_paragraphs(data: bytes) -> list[str]:
    """The paragraphs of the main document that can be read from a damaged package (empty when none)."""
    xml = _entry_bytes(data, MAIN_PART)
    if not xml:
        return []
    parser = etree.XMLParser(recover=True, resolve_entities=False, no_network=True, huge_tree=False)
    try:
        root = etree.fromstring(xml, parser)
    except (etree.XMLSyntaxError, ValueError):
        return []
    if root is None:
        return []
    body = root.find(_W + "body")
    paragraphs = []
    for p in (body if body is not None else root).iter(_W + "p"):
        if p.getparent() is not None and p.getparent().tag == _W + "del":
            continue
        parts = []
        for node in p.iter(_W + "t", _W + "tab", _W + "br"):
            if any(a.tag in (_W + "del", _W + "moveFrom", _W + "pPr", _W + "rPr") for a in node.iterancestors()):
                continue  # deleted text, and the tab stops a paragraph defines
            parts.append(node.text or "" if node.tag == _W + "t" else "\t" if node.tag == _W + "tab" else "\n")
        paragraphs.append("".join(parts))
    while paragraphs and not paragraphs[-1].strip():
        paragraphs.pop()
    return paragraphs if any(t.strip() for t in paragraphs) else []
