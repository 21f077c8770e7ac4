"""Sections of the main story: page size, margins, columns, header/footer references (w:sectPr).

A paragraph whose w:pPr holds a w:sectPr ends its section; the body's own final w:sectPr describes
the last section. Header and footer references are inherited: a section that names no reference of
a kind (default, first, even) uses the previous section's.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from lxml import etree

from ..package.ooxml import MC_ALTERNATE, MC_CHOICE, MC_FALLBACK, R_NS, W_NS, W_VAL, int_attr, on_off

if TYPE_CHECKING:
    from .document import Document

_W = "{" + W_NS + "}"
T_P, T_PPR, T_SECTPR = _W + "p", _W + "pPr", _W + "sectPr"
T_TBL, T_SDT, T_SDT_CONTENT, T_CUSTOM_XML = _W + "tbl", _W + "sdt", _W + "sdtContent", _W + "customXml"
R_ID = "{" + R_NS + "}id"

LETTER_WIDTH, LETTER_HEIGHT = 12240, 15840
BREAK_TYPES = ("nextPage", "continuous", "evenPage", "oddPage", "nextColumn")


@dataclass
class HeaderFooterRefs:
    default: str | None = None
    first: str | None = None
    even: str | None = None


@dataclass
class Section:
    index: int
    page_width: int
    page_height: int
    orientation: str
    margin_top: int
    margin_right: int
    margin_bottom: int
    margin_left: int
    header: int
    footer: int
    gutter: int
    columns: int
    column_space: int
    column_widths: tuple[int, ...]
    break_type: str
    title_page: bool
    headers: HeaderFooterRefs
    footers: HeaderFooterRefs
    page_number_start: int | None
    page_number_format: str | None
    grid_pitch: int | None = None  # twips: w:docGrid of type lines / linesAndChars (line grid)
    elements: list = field(default_factory=list, repr=False)


def _length(el: etree._Element | None, attr: str, default: int, positive: bool = False) -> int:
    value = int_attr(el, _W + attr) if el is not None else None
    if value is None or (positive and value <= 0):
        return default
    return value


def _refs(sect: etree._Element, tag: str, inherited: HeaderFooterRefs | None) -> HeaderFooterRefs:
    refs = HeaderFooterRefs(**vars(inherited)) if inherited is not None else HeaderFooterRefs()
    for ref in sect.iterchildren(_W + tag):
        kind = ref.get(_W + "type") or "default"
        rid = ref.get(R_ID)
        if kind in ("default", "first", "even") and rid:
            setattr(refs, kind, rid)
    return refs


def parse_section(sect: etree._Element | None, index: int, previous: Section | None = None) -> Section:
    """One w:sectPr (None = all defaults); previous supplies inherited header/footer references."""
    if sect is None:
        sect = etree.Element(T_SECTPR)
    pg_sz = sect.find(_W + "pgSz")
    width = _length(pg_sz, "w", LETTER_WIDTH, positive=True)
    height = _length(pg_sz, "h", LETTER_HEIGHT, positive=True)
    orient = pg_sz.get(_W + "orient") if pg_sz is not None else None
    if orient not in ("portrait", "landscape"):
        orient = "landscape" if width > height else "portrait"
    mar = sect.find(_W + "pgMar")
    cols = sect.find(_W + "cols")
    count = _length(cols, "num", 1, positive=True)
    space = _length(cols, "space", 720)
    widths: tuple[int, ...] = ()
    if cols is not None and cols.get(_W + "equalWidth") is not None and not _on_off_attr(cols.get(_W + "equalWidth")):
        widths = tuple(_length(col, "w", 0) for col in cols.iterchildren(_W + "col"))
        if widths:
            count = len(widths)
    kind_el = sect.find(_W + "type")
    kind = kind_el.get(W_VAL) if kind_el is not None else None
    num_type = sect.find(_W + "pgNumType")
    start = int_attr(num_type, _W + "start") if num_type is not None else None
    grid = sect.find(_W + "docGrid")
    pitch = None
    if grid is not None and grid.get(_W + "type") in ("lines", "linesAndChars", "snapToChars"):
        pitch = _length(grid, "linePitch", 0, positive=True) or None
    return Section(
        index=index,
        page_width=width,
        page_height=height,
        orientation=orient,
        margin_top=_length(mar, "top", 1440),
        margin_right=_length(mar, "right", 1440),
        margin_bottom=_length(mar, "bottom", 1440),
        margin_left=_length(mar, "left", 1440),
        header=_length(mar, "header", 720),
        footer=_length(mar, "footer", 720),
        gutter=_length(mar, "gutter", 0),
        columns=count,
        column_space=space,
        column_widths=widths,
        break_type=kind if kind in BREAK_TYPES else "nextPage",
        title_page=on_off(sect.find(_W + "titlePg")),
        headers=_refs(sect, "headerReference", previous.headers if previous else None),
        footers=_refs(sect, "footerReference", previous.footers if previous else None),
        page_number_start=start,
        page_number_format=num_type.get(_W + "fmt") if num_type is not None else None,
        grid_pitch=pitch,
    )


def _on_off_attr(raw: str | None) -> bool:
    return raw is None or raw.lower() not in ("0", "false", "off")


def _section_breaks(el: etree._Element, depth: int = 0) -> list[etree._Element]:
    """The w:sectPr elements of paragraphs inside a body-level element (in document order)."""
    tag = el.tag
    if tag == T_P:
        ppr = el.find(T_PPR)
        sect = ppr.find(T_SECTPR) if ppr is not None else None
        return [sect] if sect is not None else []
    if depth > 32 or tag == T_TBL:
        return []  # a section cannot end inside a table
    if tag == T_SDT:
        content = el.find(T_SDT_CONTENT)
        return _section_breaks(content, depth + 1) if content is not None else []
    if tag == MC_ALTERNATE:
        branch = el.find(MC_CHOICE)
        if branch is None:
            branch = el.find(MC_FALLBACK)
        return _section_breaks(branch, depth + 1) if branch is not None else []
    if tag in (T_SDT_CONTENT, T_CUSTOM_XML, _W + "ins", _W + "del", _W + "moveTo", _W + "moveFrom", MC_CHOICE,
               MC_FALLBACK):
        out = []
        for child in el:
            out.extend(_section_breaks(child, depth + 1))
        return out
    return []


def read_sections(doc: Document) -> list[Section]:
    """The sections of the main story, in order, each with the body-level elements it holds. A
    body-level wrapper (content control, customXml) that holds a section break belongs to the
    section it starts in.

    The body's own w:sectPr describes the last section. Written anywhere but last (some generators
    put it first), it describes the section it appears in, under that section's own break
    properties, and the last section takes Word's defaults: section properties are read in
    document order (LibreOffice)."""
    sections: list[Section] = []
    pending: list = []
    carried = None  # a body-level sectPr met before the section it sits in has ended
    children = [c for c in doc.body if isinstance(c.tag, str)]
    for child in children:
        if child.tag == T_SECTPR:
            if child is not children[-1]:
                carried = child
            continue
        pending.append(child)
        for sect in _section_breaks(child):
            if carried is not None:
                sect, carried = _overlay(carried, sect), None
            previous = sections[-1] if sections else None
            section = parse_section(sect, len(sections), previous)
            section.elements = pending
            sections.append(section)
            pending = []
    final = children[-1] if children and children[-1].tag == T_SECTPR else carried
    last = parse_section(final, len(sections), sections[-1] if sections else None)
    last.elements = pending
    sections.append(last)
    return sections


def _overlay(base: etree._Element, top: etree._Element) -> etree._Element:
    """A w:sectPr with base's properties, each one top states replaced by top's."""
    out = copy.deepcopy(base)
    for child in top:
        if not isinstance(child.tag, str):
            continue
        for old in out.findall(child.tag):
            if child.tag not in (_W + "headerReference", _W + "footerReference") or \
                    old.get(_W + "type") == child.get(_W + "type"):
                out.remove(old)
        out.append(copy.deepcopy(child))
    return out


def even_and_odd_headers(doc: Document) -> bool:
    """settings.xml w:evenAndOddHeaders: even pages use the even header/footer."""
    settings = doc.optional_part_xml("settings")
    return settings is not None and on_off(settings.find(_W + "evenAndOddHeaders"))


def collapses_paragraph_spacing(doc: Document) -> bool:
    """Whether the space between two paragraphs is the larger of the first's space after and the
    second's space before rather than their sum: Word's HTML paragraph auto spacing, on unless
    settings.xml has w:compat/w:doNotUseHTMLParagraphAutoSpacing (LibreOffice: ParaSpaceMax off)."""
    settings = doc.optional_part_xml("settings")
    if settings is None:
        return True
    compat = settings.find(_W + "compat")
    flag = compat.find(_W + "doNotUseHTMLParagraphAutoSpacing") if compat is not None else None
    return flag is None or not on_off(flag)


def compatibility_mode(doc: Document) -> int:
    """The Word version whose layout rules the document asks for (settings.xml's compatibilityMode:
    12 Word 2007, 14 Word 2010, 15 Word 2013 and later). A document that names none opens in Word's
    compatibility mode, as a Word 2007 document."""
    settings = doc.optional_part_xml("settings")
    if settings is None:
        return 12
    for setting in settings.iterfind(f"{_W}compat/{_W}compatSetting"):
        if setting.get(_W + "name") == "compatibilityMode":
            value = setting.get(_W + "val", "")
            return int(value) if value.isdigit() else 12
    return 12


__all__ = ["HeaderFooterRefs", "Section", "collapses_paragraph_spacing", "compatibility_mode", "even_and_odd_headers", "parse_section",
           "read_sections"]
