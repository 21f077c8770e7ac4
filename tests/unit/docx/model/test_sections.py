"""Sections of the main story (docx/model/sections.py): page geometry, columns, header/footer inheritance."""

import pytest
from conftest import ALL_GOOD, CORPUS
from docbuilder import build_docx, p

from folio_desktop.docx import DocxReviewer
from folio_desktop.docx.model.sections import HeaderFooterRefs, Section, even_and_odd_headers, read_sections
from folio_desktop.docx.package.ooxml import w

R = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'


def open_doc(name):
    return DocxReviewer.open(CORPUS / name).document


def built(body):
    return DocxReviewer.from_bytes(build_docx(body)).document


def texts(section: Section) -> list[str]:
    return ["".join(t.text or "" for t in el.iter(w("t"))) for el in section.elements]


def sect_p(text, sect):
    return f"<w:p><w:pPr><w:sectPr>{sect}</w:sectPr></w:pPr><w:r><w:t>{text}</w:t></w:r></w:p>"


def test_python_docx_five_sections_with_landscape_and_break_types():
    sections = read_sections(open_doc("pythondocx_section_props_multi_section.docx"))
    assert len(sections) == 5 and [s.index for s in sections] == [0, 1, 2, 3, 4]
    first = sections[0]
    assert (first.page_width, first.page_height, first.orientation) == (15840, 12240, "landscape")
    assert (first.margin_top, first.margin_right, first.margin_bottom, first.margin_left) == (2160, 1800, 2520, 1440)
    assert (first.header, first.footer, first.gutter) == (720, 1080, 360)
    assert [s.break_type for s in sections] == ["continuous", "nextPage", "oddPage", "evenPage", "nextColumn"]
    assert [s.orientation for s in sections[1:]] == ["portrait"] * 4
    assert all((s.page_width, s.page_height) == (12240, 15840) for s in sections[1:])
    assert all((s.columns, s.column_space, s.column_widths) == (1, 720, ()) for s in sections)
    assert [t for t in texts(sections[1]) if t] == ["Section 2 paragraph."]
    assert [t for t in texts(sections[4]) if t] == ["Section 5 paragraph."]
    assert not any(s.title_page for s in sections)


def test_cjk_text_direction_sections_switch_orientation_on_a4():
    sections = read_sections(open_doc("openxmlsdk_cjk_text_direction_sections.docx"))
    assert [(s.page_width, s.page_height, s.orientation) for s in sections] == [
        (16838, 11906, "landscape"), (11906, 16838, "portrait"), (16838, 11906, "landscape")]
    assert [s.break_type for s in sections] == ["nextPage", "continuous", "nextPage"]
    assert all((s.header, s.footer, s.column_space) == (851, 992, 425) for s in sections)
    assert (sections[0].margin_top, sections[0].margin_left) == (1800, 1440)
    assert (sections[1].margin_top, sections[1].margin_left) == (1440, 1800)


def test_pandoc_sections_inherit_header_and_footer_references():
    sections = read_sections(open_doc("pandoc_0_level_headers_toc_sections.docx"))
    assert len(sections) == 5
    s0, s1, s2, s3, s4 = sections
    assert s0.headers == HeaderFooterRefs(None, None, None)
    assert s0.footers == HeaderFooterRefs(default=None, first="rId10", even="rId9")
    assert (s0.margin_top, s0.margin_left) == (2880, 2520)
    # section 2 states default+first headers and footers; the even footer comes from section 1
    assert s1.headers == HeaderFooterRefs(default="rId11", first="rId13", even=None)
    assert s1.footers == HeaderFooterRefs(default="rId12", first="rId14", even="rId9")
    assert s1.title_page and s1.break_type == "oddPage" and s1.page_number_format == "lowerRoman"
    # later sections replace only the default header; first/even and all footers carry over
    assert s2.headers == HeaderFooterRefs(default="rId15", first="rId13", even=None)
    assert s3.headers.default == "rId16" and s3.footers == s1.footers
    assert s4.headers == s3.headers and s4.footers == s1.footers
    assert (s4.title_page, s4.page_number_start, s4.page_number_format) == (False, 1, None)


def test_nvca_first_section_is_continuous_with_a_title_page():
    sections = read_sections(open_doc("contract_nvca_stock_purchase_agreement_27p.docx"))
    assert len(sections) == 4
    first = sections[0]
    assert first.break_type == "continuous" and first.title_page and first.page_number_start == 1
    assert first.headers == HeaderFooterRefs(default=None, first="rId10", even=None)
    assert first.footers == HeaderFooterRefs(default="rId9", first="rId11", even="rId8")
    assert texts(first)[0].startswith("Preliminary Note")
    assert sections[1].headers == HeaderFooterRefs("rId13", "rId16", "rId12")
    assert sections[3].headers == HeaderFooterRefs("rId20", "rId16", "rId12")  # first/even inherited
    assert all(s.break_type == "nextPage" for s in sections[1:])


@pytest.mark.parametrize("path", ALL_GOOD, ids=lambda f: f.name)
def test_sections_partition_the_body(path):
    doc = DocxReviewer.open(path).document
    sections = read_sections(doc)
    assert sections and [s.index for s in sections] == list(range(len(sections)))
    flat = [el for s in sections for el in s.elements]
    assert flat == [el for el in doc.body if isinstance(el.tag, str) and el.tag != w("sectPr")]
    breaks = [el for el in doc.body.iterchildren(w("p")) if el.find(f"{w('pPr')}/{w('sectPr')}") is not None]
    for section, p_el in zip(sections, breaks):
        assert section.elements[-1] is p_el
    for s in sections:
        assert s.page_width > 0 and s.page_height > 0 and s.columns >= 1
        assert s.orientation in ("portrait", "landscape")


def test_corpus_has_no_multi_column_section_so_a_built_one_covers_columns():
    multi = [path.name for path in ALL_GOOD
             if any(s.columns > 1 for s in read_sections(DocxReviewer.open(path).document))]
    assert multi == []


def test_columns_equal_and_explicit():
    body = (sect_p("two", '<w:cols w:num="2" w:space="708"/>')
            + sect_p("three", '<w:cols w:num="3" w:space="360" w:equalWidth="0"><w:col w:w="2000" w:space="300"/>'
                              '<w:col w:w="3000" w:space="300"/><w:col w:w="4000"/></w:cols>')
            + p("last"))
    two, three, last = read_sections(built(body))
    assert (two.columns, two.column_space, two.column_widths) == (2, 708, ())
    assert (three.columns, three.column_widths) == (3, (2000, 3000, 4000))
    assert (last.columns, last.column_space) == (1, 720)


def test_defaults_for_missing_or_zero_values_and_negative_margins_as_written():
    body = (sect_p("bare", "")
            + sect_p("odd", '<w:pgSz w:w="0" w:h="0"/><w:pgMar w:top="-1440" w:bottom="-720" w:left="1000" '
                            'w:right="1000"/><w:type w:val="bogus"/><w:pgNumType w:start="5" w:fmt="upperRoman"/>')
            + p("end"))
    bare, odd, end = read_sections(built(body))
    assert (bare.page_width, bare.page_height, bare.orientation) == (12240, 15840, "portrait")
    assert (bare.margin_top, bare.margin_right, bare.margin_bottom, bare.margin_left) == (1440, 1440, 1440, 1440)
    assert (bare.header, bare.footer, bare.gutter, bare.break_type) == (720, 720, 0, "nextPage")
    assert (odd.page_width, odd.page_height) == (12240, 15840)
    assert (odd.margin_top, odd.margin_bottom, odd.header) == (-1440, -720, 720)
    assert (odd.break_type, odd.page_number_start, odd.page_number_format) == ("nextPage", 5, "upperRoman")
    assert texts(end) == ["end"] and (end.page_width, end.margin_left) == (12240, 1440)


def test_a_section_break_inside_a_content_control_ends_the_section_it_starts_in():
    body = (p("a")
            + '<w:sdt><w:sdtContent>' + sect_p("b", '<w:pgSz w:w="15840" w:h="12240"/>') + p("c")
            + '</w:sdtContent></w:sdt>' + p("d"))
    first, second = read_sections(built(body))
    assert texts(first) == ["a", "bc"] and first.orientation == "landscape"
    assert texts(second) == ["d"]


def test_header_references_without_a_type_are_default():
    body = sect_p("x", f'<w:headerReference {R} r:id="rIdH"/><w:footerReference {R} w:type="even" r:id="rIdF"/>') \
        + p("y")
    first, second = read_sections(built(body))
    assert first.headers == HeaderFooterRefs("rIdH", None, None)
    assert first.footers == HeaderFooterRefs(None, None, "rIdF")
    assert second.headers == first.headers and second.headers is not first.headers


def test_even_and_odd_headers_setting():
    assert even_and_odd_headers(open_doc("wgig_background_report_78p_footnotes.docx")) is True
    assert even_and_odd_headers(open_doc("eigenpal_docxjs_editor_demo.docx")) is False  # w:val="false"
    assert even_and_odd_headers(open_doc("pythondocx_section_props_multi_section.docx")) is False
    assert even_and_odd_headers(built(p("no settings part"))) is False


def test_a_body_sectpr_written_first_describes_the_section_it_sits_in():
    """folio's repack file puts the body's w:sectPr (A4, 1100-twip margins) before the content and ends
    the first section with an empty paragraph w:sectPr. LibreOffice reads section properties in
    document order: its PDF has page 1 in A4 and page 2 in Letter (Word's defaults)."""
    doc = open_doc("folio/repack-paragraph-sectpr.docx")
    first, last = read_sections(doc)
    assert (first.page_width, first.page_height, first.margin_top, first.margin_left) == (11906, 16838, 1100, 990)
    assert first.footers.default is not None
    assert (last.page_width, last.page_height, last.margin_top) == (12240, 15840, 1440)
    assert last.footers == first.footers  # inherited, as any later section inherits
    assert texts(last)[0].startswith("Možnosti odstoupení objednatele")


def test_a_paragraph_break_overlays_the_body_sectpr_met_before_it():
    body = ('<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1000" w:left="900"/></w:sectPr>'
            + sect_p("one", '<w:pgMar w:top="500"/><w:type w:val="continuous"/>') + p("two"))
    first, last = read_sections(built(body))
    assert (first.page_width, first.margin_top, first.margin_left, first.break_type) == (11906, 500, 1440, "continuous")
    assert (last.page_width, last.margin_top) == (12240, 1440) and texts(last) == ["two"]
