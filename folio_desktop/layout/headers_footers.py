"""Headers and footers per section: which one a page shows (first page, even pages), measured once per
part and printed field results (PAGE, NUMPAGES, SECTIONPAGES: page_numbers.py), placed in the
margins with their rules and drawings; the top and bottom of the body follow from them.

The functions take the Paginator (engine.py) whose page they dress, as floating.py's do.
"""

from __future__ import annotations

from ..docx.package.ooxml import W_NS
from . import floating
from .borders import NO_PADS
from .borders import pads as frame_pads
from .borders import piece as frame_piece
from .model import TWIP, Column, Fragment, Page
from .page_numbers import PageNumbers, has_page_field, page_field_results, with_page_fields

_W = "{" + W_NS + "}"
T_P = _W + "p"


def _header_ref(pg, kind: str) -> str | None:
    s = pg.section
    refs = s.headers if kind == "header" else s.footers
    number = pg._page.number_value  # even pages are even by the number they print (Word)
    first_of_section = pg._section_pages.get(s.index, 0) == 1  # this page is its section's first
    if s.title_page and first_of_section:
        return refs.first
    if pg.even_odd and number % 2 == 0:
        return refs.even or refs.default
    return refs.default


def _page_numbers(pg, page: Page) -> PageNumbers:
    """The counts come from the last flow (a first flow shows the count so far, as Word does
    before its fields are updated); settle_counts() and a second flow make them final."""
    in_section = pg._section_pages.get(page.section, 0)
    section = pg.sections[page.section] if page.section < len(pg.sections) else pg.section
    return PageNumbers(page.number_value, section.page_number_format,
                       pg.section_pages_hint.get(page.section) or in_section,
                       pg.total_pages_hint or page.number)


def place_headers_footers(pg) -> tuple[float, float]:
    """Place the page's header and footer: returns where the header ends and where the footer
    begins (the body lies between, engine.py's _set_columns)."""
    s = pg.section
    page = pg._page
    left = (s.margin_left + s.gutter) * TWIP
    width = (s.page_width - s.margin_left - s.margin_right - s.gutter) * TWIP
    header_bottom, footer_top = 0.0, page.height
    for kind in ("header", "footer"):
        rid = _header_ref(pg, kind)
        if not rid:
            continue
        rel = next((r for r in pg.doc.package.rels(pg.doc.main_part) if r.id == rid), None)
        if rel is None or not pg.doc.package.has_part(rel.target):
            continue
        paragraphs = pg._story_paragraphs.get(rel.target)
        if paragraphs is None:  # a header's paragraphs, and whether each shows a page field: once per part
            root = pg.doc.package.xml(rel.target)
            paragraphs = pg._story_paragraphs[rel.target] = [
                (p, has_page_field(p)) for p in root.iter(T_P) if _top_story_paragraph(p, root)]
        measured = []
        numbers = _page_numbers(pg, page)
        for p, fields in paragraphs:
            # a header is the same on every page that prints the same field results: measure it once
            key = (p, round(width, 1), page_field_results(p, numbers) if fields else ())
            measured_p = pg._header_cache.get(key)
            if measured_p is None:
                copy_p = with_page_fields(p, numbers)[0] if fields else p
                measured_p = pg.measurer.measure(copy_p, None, width, None, None, pg.note_numbers)
                pg._header_cache[key] = measured_p
            measured.append((p, measured_p))
        # a footer's rule (a paragraph border) takes its room and is drawn, as in the body
        story = [m for _p, m in measured]
        pads = [frame_pads(story[i - 1] if i else None, m, story[i + 1] if i + 1 < len(story) else None)
                if m.frame is not None else NO_PADS for i, m in enumerate(story)]
        total = sum(m.space_before + pad.top + m.content_height + pad.bottom + m.space_after
                    for (_p, m), pad in zip(measured, pads))
        if kind == "header":
            y = s.header * TWIP
            header_bottom = y + total
        else:
            y = page.height - s.footer * TWIP - total
            footer_top = y
        for (_p, m), pad in zip(measured, pads):
            y += m.space_before + pad.top
            frag = Fragment(f"{kind}:{rid}", None, m, 0, len(m.lines) - 1, left, y)
            page.fragments.append(frag)
            if m.frame is not None:
                pg._frame_pieces.append(frame_piece(frag, pad, True, True))
            if m.drawings:
                floating.place_fragment_anchors(pg, page, frag, Column(left, 0.0, page.height, width))
            y = frag.bottom + pad.bottom + m.space_after
    return header_bottom, footer_top


def _top_story_paragraph(p, root) -> bool:
    anc = p.getparent()
    while anc is not None and anc is not root:
        if anc.tag in (_W + "txbxContent", "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"):
            return False
        anc = anc.getparent()
    return True


def uses_numpages(doc, *names: str) -> bool:
    """Whether a header or footer holds a field that prints a page count (NUMPAGES, SECTIONPAGES,
    or only the names given)."""
    wanted = tuple(n.encode() for n in names) or (b"NUMPAGES", b"SECTIONPAGES")
    for rel in doc.package.rels(doc.main_part):
        if rel.type.endswith(("/header", "/footer")) and doc.package.has_part(rel.target):
            data = doc.package.read(rel.target)
            if any(name in data for name in wanted):
                return True
    return False
