"""A part's bytes parsed safely into an lxml tree, and a tree written back.

Entity resolution, DTD loading and network access are off, and a part that declares a DTD at all is
refused (OOXML never needs one); an error names the part (opc.py reads the parts and calls these).
"""

from __future__ import annotations

from lxml import etree

from ..errors import CorruptDocxError

_PARSER = etree.XMLParser(
    resolve_entities=False, no_network=True, load_dtd=False, dtd_validation=False, huge_tree=False
)


def _parser() -> etree.XMLParser:
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, dtd_validation=False,
                           huge_tree=False)


def _dtd_refused(part_name: str) -> CorruptDocxError:
    return CorruptDocxError(
        f"The part {part_name} declares a DTD, which Word documents never do; it was refused as unsafe.", part_name)


def parse_xml(data: bytes, part_name: str) -> etree._Element:
    """Parse one part's XML safely; refuse DTDs; raise CorruptDocxError naming the part."""
    return parse_xml_chunks((data,), part_name, whole=True)


def parse_xml_chunks(chunks, part_name: str, whole: bool = False) -> etree._Element:
    """parse_xml over a part's bytes in chunks (fed to the parser as they come, never joined);
    `whole`: the one chunk is the whole part."""
    first = True
    try:
        if whole:
            (data,) = chunks
            if _declares_dtd(data):
                raise _dtd_refused(part_name)
            root = etree.fromstring(data, _PARSER)
        else:
            parser = _parser()
            for chunk in chunks:
                if first and _declares_dtd(chunk):
                    raise _dtd_refused(part_name)
                first = False
                parser.feed(chunk)
            root = parser.close()
    except etree.XMLSyntaxError as exc:
        raise CorruptDocxError(f"The part {part_name} is not well-formed XML ({exc}).", part_name) from None
    except ValueError as exc:  # e.g. unsupported encoding declarations
        raise CorruptDocxError(f"The part {part_name} could not be decoded ({exc}).", part_name) from None
    docinfo = root.getroottree().docinfo
    if docinfo.doctype or docinfo.internalDTD is not None:
        raise _dtd_refused(part_name)
    return root


def _declares_dtd(data: bytes) -> bool:
    """A DOCTYPE can only stand before the root element, so the prologue is all we look at."""
    head = data[:8192]
    if head.startswith((b"\xff\xfe", b"\xfe\xff")) or head[:2] in (b"<\x00", b"\x00<"):
        try:
            head = head.decode("utf-16").encode("utf-8", "replace")
        except UnicodeDecodeError:
            return False
    return b"<!DOCTYPE" in head.upper() or b"<!ENTITY" in head.upper()


def serialize_xml(root: etree._Element) -> bytes:
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)
