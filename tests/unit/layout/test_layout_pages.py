"""Printed page numbers (w:pgNumType restarts and formats, PAGE / NUMPAGES / SECTIONPAGES fields and
their format switches) and table rows at a page foot (issue 14), on documents built in code."""

import io
import re
import zipfile

import pytest
from conftest import CORPUS, ROOT
from docbuilder import NSDECL, REL
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QImage, QPainter

from folio_desktop.docx import DocxReviewer

PAGE_BREAK = '<w:p><w:r><w:br w:type="page"/></w:r></w:p>'
EXACT = '<w:spacing w:before="0" w:after="0" w:line="{}" w:lineRule="exact"/>'


def field(instr: str) -> str:
    """A complex field with a stale cached result, as Word saves one."""
    return (f'<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> {instr} </w:instrText></w:r>'
            '<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>99</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>')


def footer_xml(*runs: str) -> str:
    return f'<w:ftr {NSDECL}><w:p>{"".join(runs)}</w:p></w:ftr>'


def sect(footer: str = "rIdF1", num: str = "", extra: str = "") -> str:
    return (f'<w:sectPr><w:footerReference w:type="default" r:id="{footer}"/>{extra}<w:pgSz w:w="12240" w:h="15840"/>'
            '<w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/>'
            f'{num}</w:sectPr>')


def section_end(text: str, sect_pr: str) -> str:
    return f'<w:p><w:pPr>{sect_pr}</w:pPr><w:r><w:t>{text}</w:t></w:r></w:p>'


def para(text: str) -> str:
    return f'<w:p><w:r><w:t xml:space="preserve">{text}</w:t></w:r></w:p>'


def pages_of(count: int, label: str) -> str:
    """count pages of one short paragraph each (page breaks between them), the last without a break."""
    return PAGE_BREAK.join(para(f"{label} page {n}") for n in range(1, count + 1))


def package(body: str, final_sect: str, footers: dict[str, str]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("[Content_Types].xml", '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
                   '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
                   '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>'
                   + "".join(f'<Override PartName="/word/{rid}.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.footer+xml"/>' for rid in footers)
                   + "</Types>")
        z.writestr("_rels/.rels", f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="{REL}/officeDocument" Target="word/document.xml"/></Relationships>')
        z.writestr("word/_rels/document.xml.rels", '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                   + "".join(f'<Relationship Id="{rid}" Type="{REL}/footer" Target="{rid}.xml"/>' for rid in footers) + "</Relationships>")
        z.writestr("word/document.xml", f'<?xml version="1.0" encoding="UTF-8"?><w:document {NSDECL}><w:body>{body}{final_sect}</w:body></w:document>')
        for rid, xml in footers.items():
            z.writestr(f"word/{rid}.xml", f'<?xml version="1.0" encoding="UTF-8"?>{xml}')
    return out.getvalue()


@pytest.fixture
def lay_out(qapp):
    from folio_desktop.layout import layout_document

    def run(data: bytes):
        rev = DocxReviewer.from_bytes(data)
        return rev, layout_document(rev.document)

    return run


def footers(lay) -> list[str]:
    return [" ".join(f.text() for f in page.fragments if f.story.startswith("footer")).strip() for page in lay.pages]


# -- formats ----------------------------------------------------------------------------------------------


def test_number_formats():
    from folio_desktop.layout.page_numbers import format_number

    cases = {"decimal": ["1", "4", "27"], "lowerRoman": ["i", "iv", "xxvii"], "upperRoman": ["I", "IV", "XXVII"],
             "lowerLetter": ["a", "d", "aa"], "upperLetter": ["A", "D", "AA"], "decimalZero": ["01", "04", "27"],
             "numberInDash": ["- 1 -", "- 4 -", "- 27 -"], "ordinal": ["1st", "4th", "27th"],
             "cardinalText": ["One", "Four", "Twenty-seven"], "ordinalText": ["First", "Fourth", "Twenty-seventh"]}
    for fmt, expected in cases.items():
        assert [format_number(n, fmt) for n in (1, 4, 27)] == expected, fmt
    assert format_number(0, "lowerRoman") == "0"  # a numbering that starts at 0 (ILPA's cover) prints 0
    assert [format_number(n, None) for n in (11, 12, 13, 112)] == ["11", "12", "13", "112"]
    assert [format_number(n, "ordinal") for n in (11, 12, 13, 22)] == ["11th", "12th", "13th", "22nd"]


def test_field_switches():
    from folio_desktop.layout.page_numbers import switch_format

    assert switch_format(r"PAGE \* roman \* MERGEFORMAT") == "lowerRoman"
    assert switch_format(r"PAGE \* ROMAN") == "upperRoman"
    assert switch_format(r"PAGE \* ALPHABETIC") == "upperLetter"
    assert switch_format(r"PAGE \* alphabetic") == "lowerLetter"
    assert switch_format(r"PAGE \* Arabic") == "decimal"
    assert switch_format(r"PAGE \* ArabicDash") == "numberInDash"
    assert switch_format(r"PAGE \* MERGEFORMAT") is None


# -- sections and fields ---------------------------------------------------------------------------------


def test_page_numbers_restart_at_5_in_section_2(lay_out):
    body = pages_of(2, "one") + PAGE_BREAK + section_end("end of one", sect()) + pages_of(2, "two")
    _, lay = lay_out(package(body, sect(num='<w:pgNumType w:start="5"/>'), {"rIdF1": footer_xml(field("PAGE"))}))
    # section 1: pages 1-3 (its last paragraph after a page break); section 2 restarts at 5
    assert footers(lay) == ["1", "2", "3", "5", "6"]
    assert [p.number for p in lay.pages] == [1, 2, 3, 4, 5]  # the physical index the view and tools use stays


def test_lower_roman_then_decimal(lay_out):
    body = pages_of(2, "front") + section_end("", sect(num='<w:pgNumType w:fmt="lowerRoman" w:start="1"/>')) + \
        pages_of(3, "body")
    _, lay = lay_out(package(body, sect(num='<w:pgNumType w:start="1"/>'), {"rIdF1": footer_xml(field("PAGE"))}))
    assert footers(lay) == ["i", "ii", "1", "2", "3"]


def test_a_section_without_a_start_continues_the_numbering_in_its_own_format(lay_out):
    body = pages_of(2, "front") + section_end("", sect(num='<w:pgNumType w:fmt="upperLetter"/>')) + pages_of(2, "body")
    _, lay = lay_out(package(body, sect(num='<w:pgNumType w:fmt="numberInDash"/>'), {"rIdF1": footer_xml(field("PAGE"))}))
    assert footers(lay) == ["A", "B", "- 3 -", "- 4 -"]


def test_number_in_dash(lay_out):
    _, lay = lay_out(package(pages_of(2, "x"), sect(num='<w:pgNumType w:fmt="numberInDash"/>'),
                             {"rIdF1": footer_xml(field("PAGE"))}))
    assert footers(lay) == ["- 1 -", "- 2 -"]


def sectionpages_doc(first: int, second: int) -> bytes:
    foot = footer_xml(field("PAGE"), '<w:r><w:t xml:space="preserve"> / </w:t></w:r>', field("SECTIONPAGES"),
                      '<w:r><w:t xml:space="preserve"> of </w:t></w:r>', field("NUMPAGES"))
    body = pages_of(first, "one") + section_end("", sect()) + pages_of(second, "two")
    return package(body, sect(num='<w:pgNumType w:start="1"/>'), {"rIdF1": foot})


def test_sectionpages_counts_each_section_and_numpages_the_document(lay_out):
    _, lay = lay_out(sectionpages_doc(2, 3))
    assert footers(lay) == ["1 / 2 of 5", "2 / 2 of 5", "1 / 3 of 5", "2 / 3 of 5", "3 / 3 of 5"]


def test_format_switches_override_the_section_format(lay_out):
    foot = footer_xml(field(r"PAGE \* roman"), '<w:r><w:t xml:space="preserve"> </w:t></w:r>', field(r"PAGE \* ALPHABETIC"),
                      '<w:r><w:t xml:space="preserve"> </w:t></w:r>', field(r"PAGE \* Arabic \* MERGEFORMAT"),
                      '<w:r><w:t xml:space="preserve"> </w:t></w:r>',
                      '<w:fldSimple w:instr=" PAGE \\* ROMAN "><w:r><w:t>7</w:t></w:r></w:fldSimple>')
    _, lay = lay_out(package(pages_of(3, "x"), sect(num='<w:pgNumType w:fmt="lowerLetter" w:start="2"/>'),
                             {"rIdF1": foot}))
    assert footers(lay) == ["ii B 2 II", "iii C 3 III", "iv D 4 IV"]


def test_relayout_after_an_edit_that_adds_a_page_updates_sectionpages(lay_out):
    rev, lay = lay_out(sectionpages_doc(2, 2))
    assert footers(lay) == ["1 / 2 of 4", "2 / 2 of 4", "1 / 2 of 4", "2 / 2 of 4"]
    first = rev.snapshot().content_blocks[0]
    assert first.text == "one page 1"
    result = rev.apply_document_operations({"version": 1, "operations": [
        {"type": "insertAfterBlock", "blockId": first.id, "text": "An added clause that runs on. " * 400}]})
    assert result["applied"]
    lay.relayout([first.id])
    in_first = sum(1 for p in lay.pages if p.section == 0)
    assert in_first > 2
    total = lay.page_count
    expected = [f"{n} / {in_first} of {total}" for n in range(1, in_first + 1)] + \
        [f"{n} / 2 of {total}" for n in (1, 2)]
    assert footers(lay) == expected


def test_ilpa_footer_prints_words_number_where_word_prints_17(lay_out):
    """The ILPA model LPA numbers its cover and contents in lower roman and restarts at 1 with the
    agreement itself (w:pgNumType): the page that opens with 2.5.1.6 is Word's (and LibreOffice's) 17."""
    _, lay = lay_out((CORPUS / "contract_ilpa_model_lpa_whole_of_fund_75p.docx").read_bytes())
    page = next(p for p in lay.pages if p.text().lstrip().startswith("2.5.1.6"))
    numbers = re.findall(r"\b(\d+)\b", footers(lay)[page.number - 1])  # "Last Updated: July 2020<tab>17"
    assert numbers[-1] == "17" and "20" not in numbers, footers(lay)[page.number - 1]
    assert footers(lay)[1].split()[0] == "i"  # the cover's second page: the roman numbering starts at 0


# -- table rows at a page foot ---------------------------------------------------------------------------


def filler(lines: int) -> str:
    """Paragraphs of one exact 16 px line each."""
    return "".join(f'<w:p><w:pPr>{EXACT.format(240)}</w:pPr><w:r><w:t>filler {n}</w:t></w:r></w:p>' for n in range(lines))


def cell(text_lines: list[str], line: int = 240) -> str:
    runs = "<w:r><w:br/></w:r>".join(f"<w:r><w:t>{t}</w:t></w:r>" for t in text_lines)
    return f'<w:tc><w:tcPr><w:tcW w:w="4680" w:type="dxa"/></w:tcPr><w:p><w:pPr>{EXACT.format(line)}</w:pPr>{runs}</w:p></w:tc>'


def table(*rows: str) -> str:
    borders = "".join(f'<w:{s} w:val="single" w:sz="4" w:space="0" w:color="000000"/>'
                      for s in ("top", "left", "bottom", "right", "insideH", "insideV"))
    return (f'<w:tbl><w:tblPr><w:tblW w:w="9360" w:type="dxa"/><w:tblBorders>{borders}</w:tblBorders>'
            '<w:tblCellMar><w:top w:w="0" w:type="dxa"/><w:bottom w:w="0" w:type="dxa"/></w:tblCellMar></w:tblPr>'
            '<w:tblGrid><w:gridCol w:w="4680"/><w:gridCol w:w="4680"/></w:tblGrid>' + "".join(rows) + "</w:tbl>")


def row(left: list[str], right: list[str], line: int = 240, trpr: str = "") -> str:
    return f'<w:tr>{f"<w:trPr>{trpr}</w:trPr>" if trpr else ""}{cell(left, line)}{cell(right, line)}</w:tr>'


def page_of_text(lay, text: str) -> list[int]:
    return sorted({p.number for p in lay.pages for f in p.body_fragments() if text in f.text()})


def borders_below(page, y: float) -> list:
    """The table border segments drawn below y (Page.borders: x1, y1, x2, y2, width, colour, style)."""
    return [b for b in page.borders if min(b.y1, b.y2) >= y - 0.5]


def test_a_first_row_that_fits_stays_and_a_row_that_cannot_start_moves_without_a_stub(lay_out):
    # 864 px of body: 52 lines of filler leave 32 px, room for the first row (16 px) and then 16 px,
    # less than the first line (24 px) of the second row, which may split but cannot start there
    body = filler(52) + table(row(["Party A"], ["Party B"]), row(["Name: A", "Title: A"], ["Name: B", "Title: B"], 360))
    _, lay = lay_out(package(body + para("after"), sect(), {"rIdF1": footer_xml()}))
    assert page_of_text(lay, "Party A") == [1]
    assert page_of_text(lay, "Name: A") == [2] and page_of_text(lay, "Title: A") == [2]
    first = lay.pages[0]
    filler_bottom = max(f.bottom for f in first.body_fragments() if f.text().startswith("filler"))
    # on page 1 only the first row's cells are drawn: the borders span its 16 px and no more
    segments = borders_below(first, filler_bottom)
    top, bottom = min(min(b.y1, b.y2) for b in segments), max(max(b.y1, b.y2) for b in segments)
    assert abs(bottom - top - 16.0) < 1.0, segments
    assert len({round(b.x1) for b in segments if b.x1 == b.x2}) == 3  # two cells: left, middle, right edges


def test_a_row_that_splits_keeps_the_lines_that_fit(lay_out):
    body = filler(52) + table(row(["one", "two", "three"], ["uno", "dos", "tres"]))
    _, lay = lay_out(package(body, sect(), {"rIdF1": footer_xml()}))
    assert page_of_text(lay, "one") == [1] and page_of_text(lay, "three") == [2]


def test_a_cant_split_row_that_does_not_fit_moves_whole_with_no_stub(lay_out):
    body = filler(52) + table(row(["one", "two", "three"], ["uno", "dos", "tres"], trpr="<w:cantSplit/>"))
    _, lay = lay_out(package(body, sect(), {"rIdF1": footer_xml()}))
    assert page_of_text(lay, "one") == [2] and page_of_text(lay, "three") == [2]
    assert lay.pages[0].rules == [] and borders_below(lay.pages[0], 0) == []


def test_sample_signature_table_leaves_no_empty_box_at_the_foot_of_page_1(qapp):
    """Screenshot of the bundled sample's page 1: wherever its signature table starts, a table border
    at the page foot has the first row's text in it, never an empty stub."""
    from folio_desktop.layout import layout_document
    from folio_desktop.ui.pages.marks import ReviewIndex
    from folio_desktop.ui.pages.painter import paint_page

    rev = DocxReviewer.open(ROOT / "resources" / "sample_contract.docx")
    lay = layout_document(rev.document)
    page = lay.pages[0]
    marks = ReviewIndex(rev, lay.view, interactive=False)
    image = QImage(int(page.width + marks.markup_width(page.view)), int(page.height), QImage.Format_RGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    paint_page(painter, page, QRectF(0, 0, image.width(), image.height()), 1.0, marks, shadow=False)
    painter.end()

    def first_row_on(p) -> bool:
        return any(f.text().strip() == "Northwind Components Ltd" for f in p.body_fragments())

    last_text = max(f.bottom for f in page.body_fragments() if f.text().strip() not in ("Northwind Components Ltd",
                                                                                      "Harbour Analytics B.V."))
    x0, x1 = 120, int(page.width) - 120  # the text column (1800 twip margins)

    def dark_rows(top: float, bottom: float) -> list[int]:
        return [y for y in range(int(top), int(bottom)) if any(QColor(image.pixel(x, y)).lightness() < 128
                                                              for x in range(x0, x1))]

    below = dark_rows(last_text + 2, page.height - 96)  # from under the last clause to the bottom margin
    if first_row_on(page):
        # the first row is here: its text is drawn inside its box (ink between the box's top and bottom rules)
        assert len(below) > 6, below
    else:
        assert below == [], f"an empty table border at the foot of page 1: rows {below}"
        assert first_row_on(lay.pages[1])


def test_a_footer_rule_is_drawn_and_takes_its_room(lay_out):
    """A footer paragraph's top border (a rule above "Page n", common in contracts) is drawn in
    its colour above the footer text by its space; the footer grows upward from the page foot, so
    its text stays where it was and the rule's room is taken above it."""
    rule = '<w:pPr><w:pBdr><w:top w:val="single" w:sz="12" w:space="4" w:color="1F4E79"/></w:pBdr></w:pPr>'
    plain = footer_xml('<w:r><w:t>Confidential</w:t></w:r>')
    ruled = plain.replace("<w:p>", f"<w:p>{rule}", 1)
    _, lay_plain = lay_out(package(para("body"), sect(), {"rIdF1": plain}))
    _, lay_ruled = lay_out(package(para("body"), sect(), {"rIdF1": ruled}))
    foot = next(f for f in lay_ruled.pages[0].fragments if f.story.startswith("footer"))
    before = next(f for f in lay_plain.pages[0].fragments if f.story.startswith("footer"))
    assert foot.top == pytest.approx(before.top, abs=0.3)
    segments = [b for b in lay_ruled.pages[0].borders if b.y1 == b.y2 and b.y1 < foot.top]
    assert segments and segments[0].color.lstrip("#").upper() == "1F4E79"
    assert foot.top - segments[0].y1 == pytest.approx(4 * 96 / 72 + 1.5 * 96 / 72 / 2, abs=1.0)
