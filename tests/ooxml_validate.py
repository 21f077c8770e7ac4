"""Validate WordprocessingML parts against the ISO/IEC 29500 transitional schemas.

As ../shared/ooxml-schemas/README.md says: first drop what markup compatibility lets a consumer
ignore (elements and attributes in the namespaces the root lists in mc:Ignorable, every mc:*
attribute) and replace each mc:AlternateContent by its mc:Fallback content, then validate with
wml.xsd. Building the schema is the slow part: build it once (a session- or module-scoped fixture)
and pass it in.
"""

from __future__ import annotations

import copy

from conftest import SHARED
from lxml import etree

SCHEMAS = SHARED / "ooxml-schemas"
WML_XSD = SCHEMAS / "ISO-IEC29500-4_2016" / "wml.xsd"
MC_NS = "http://schemas.openxmlformats.org/markup-compatibility/2006"
_ALTERNATE = f"{{{MC_NS}}}AlternateContent"
_FALLBACK = f"{{{MC_NS}}}Fallback"


def load_wml_schema() -> etree.XMLSchema:
    return etree.XMLSchema(etree.parse(str(WML_XSD)))


def compatibility_view(root: etree._Element) -> etree._Element:
    """A copy of root as a consumer that knows only the standard sees it."""
    root = copy.deepcopy(root)
    ignorable = {root.nsmap.get(prefix) for prefix in (root.get(f"{{{MC_NS}}}Ignorable") or "").split()}
    ignorable.discard(None)
    while (alt := next(root.iter(_ALTERNATE), None)) is not None:
        fallback = alt.find(_FALLBACK)
        for child in list(fallback) if fallback is not None else []:
            alt.addprevious(child)
        alt.getparent().remove(alt)
    for el in list(root.iter()):
        if not isinstance(el.tag, str):
            continue
        if etree.QName(el).namespace in ignorable:
            parent = el.getparent()
            if parent is not None:
                parent.remove(el)
            continue
        for name in list(el.attrib):
            if etree.QName(name).namespace in ignorable | {MC_NS}:
                del el.attrib[name]
    return root


def schema_errors(schema: etree.XMLSchema, root: etree._Element) -> list[str]:
    """Schema errors of one part (empty when it validates)."""
    if schema.validate(etree.ElementTree(compatibility_view(root))):
        return []
    return [f"line {e.line}: {e.message}" for e in schema.error_log]


def part_errors(schema: etree.XMLSchema, data: bytes) -> list[str]:
    return schema_errors(schema, etree.fromstring(data))
