"""Tables of contents and tables of figures laid out as Word lays them: entries built in code as
Word writes them (a TOC field opened in the first entry and closed in the last or in a paragraph of
its own, each entry a hyperlink, a tab and a PAGEREF field whose runs are w:webHidden, a right tab
stop with a dot leader), on a US Letter page with 1 in margins (648 pt of body). Each test derives
the page break from Word's rules and the font's metrics."""

import pytest
from docbuilder import build_docx

from folio_desktop.docx import DocxReviewer
from folio_desktop.layout import layout_document

PT = 0.75  # pt per px
BODY_PT = 792 - 2 * 72

# Word 2013-2019's defaults: Calibri 11 pt, 8 pt after, 1.08 lines (259/240)
DEFAULTS = ('<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri" w:eastAsia="Calibri"'
            ' w:cs="Times New Roman"/><w:sz w:val="22"/><w:szCs w:val="22"/><w:lang w:val="en-US"/></w:rPr>'
            '</w:rPrDefault><w:pPrDefault><w:pPr><w:spacing w:after="160" w:line="259" w:lineRule="auto"/></w:pPr>'
            '</w:pPrDefault></w:docDefaults>')
NORMAL = ('<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:qFormat/></w:style>'
          '<w:style w:type="character" w:default="1" w:styleId="DefaultParagraphFont">'
          '<w:name w:val="Default Paragraph Font"/><w:uiPriority w:val="1"/><w:semiHidden/><w:unhideWhenUsed/></w:style>'
          '<w:style w:type="character" w:styleId="Hyperlink"><w:name w:val="Hyperlink"/>'
          '<w:basedOn w:val="DefaultParagraphFont"/><w:uiPriority w:val="99"/><w:unhideWhenUsed/>'
          '<w:rPr><w:color w:val="0563C1" w:themeColor="hyperlink"/><w:u w:val="single"/></w:rPr></w:style>')


def toc_style(style_id: str, name: str, ppr: str) -> str:
    """A built-in entry style as Word writes it into styles.xml once it is used."""
    return (f'<w:style w:type="paragraph" w:styleId="{style_id}"><w:name w:val="{name}"/><w:basedOn w:val="Normal"/>'
            f'<w:next w:val="Normal"/><w:uiPriority w:val="39"/><w:unhideWhenUsed/><w:pPr>{ppr}</w:pPr></w:style>')


# Word's built-in definitions: TOC 1 5 pt after; TOC 2 and 3 indented 220 and 440 twips; Table of
# Figures no space after
STYLES = (DEFAULTS + NORMAL + toc_style("TOC1", "toc 1", '<w:spacing w:after="100"/>')
          + toc_style("TOC2", "toc 2", '<w:spacing w:after="100"/><w:ind w:left="220"/>')
          + toc_style("TOC3", "toc 3", '<w:spacing w:after="100"/><w:ind w:left="440"/>')
          + toc_style("TableofFigures", "table of figures", '<w:spacing w:after="0"/>'))
# the paragraph mark of an entry Word 365 generates: 12 pt (w:sz 24) in a document of 11 pt text
MARK_12PT = ('<w:rFonts w:eastAsiaTheme="minorEastAsia"/><w:noProof/><w:kern w:val="2"/><w:sz w:val="24"/>'
             '<w:szCs w:val="24"/><w:lang w:eastAsia="en-GB"/>')
WEB_HIDDEN = "<w:noProof/><w:webHidden/>"
LINK = '<w:rStyle w:val="Hyperlink"/><w:noProof/>'


def r(inner: str, rpr: str = "") -> str:
    return f'<w:r>{f"<w:rPr>{rpr}</w:rPr>" if rpr else ""}{inner}</w:r>'


def entry(n: int, style: str, title: str, page: int, *, number: str | None = None, tabs: str = "",
          ppr: str = "", mark: str = "<w:noProof/>", opens: str | None = None, closes: bool = False) -> str:
    """One entry as Word writes it: the title hyperlinked to its heading's bookmark, a tab and a
    PAGEREF field (its runs and the tab hidden in web view only), on a right stop with a dot
    leader at 9350 twips; opens: the TOC instruction when the field begins in this entry."""
    anchor = f"_Toc{180000 + n}"
    out = (f'<w:p><w:pPr><w:pStyle w:val="{style}"/><w:tabs>{tabs}'
           f'<w:tab w:val="right" w:leader="dot" w:pos="9350"/></w:tabs>{ppr}<w:rPr>{mark}</w:rPr></w:pPr>')
    if opens:
        out += (r('<w:fldChar w:fldCharType="begin"/>') + r(f'<w:instrText xml:space="preserve">{opens}</w:instrText>')
                + r('<w:fldChar w:fldCharType="separate"/>'))
    link = ""
    if number:
        link += r(f"<w:t>{number}</w:t>", LINK) + r("<w:tab/>", "<w:noProof/>")
    link += r(f'<w:t xml:space="preserve">{title}</w:t>', LINK) + r("<w:tab/>", WEB_HIDDEN)
    link += (r('<w:fldChar w:fldCharType="begin"/>', WEB_HIDDEN)
             + r(f'<w:instrText xml:space="preserve"> PAGEREF {anchor} \\h </w:instrText>', WEB_HIDDEN)
             + r("", WEB_HIDDEN) + r('<w:fldChar w:fldCharType="separate"/>', WEB_HIDDEN)
             + r(f"<w:t>{page}</w:t>", WEB_HIDDEN) + r('<w:fldChar w:fldCharType="end"/>', WEB_HIDDEN))
    out += f'<w:hyperlink w:anchor="{anchor}" w:history="1">{link}</w:hyperlink>'
    if closes:
        out += r('<w:fldChar w:fldCharType="end"/>', "<w:noProof/>")
    return out + "</w:p>"


def lay_out(tmp_path, body: str, styles: str = STYLES):
    path = tmp_path / "contents.docx"
    path.write_bytes(build_docx(body, styles=styles))
    return layout_document(DocxReviewer.open(path).document)


def page_texts(layout) -> list[list[str]]:
    return [[frag.text() for frag in page.body_fragments()] for page in layout.pages]


def line_heights(layout, starts: str) -> list[float]:
    """Heights in pt of the lines of the first paragraph whose text starts so."""
    para = next(frag.para for page in layout.pages for frag in page.body_fragments()
                if frag.text().startswith(starts))
    return [round(line.height * PT, 2) for line in para.lines]


# -- the height of an entry ----------------------------------------------------------------------------

def test_contents_page_of_40_entries_breaks_where_word_does(qapp, tmp_path):
    """40 entries (TOC 1, 2, 2, 3, ...) of Calibri 11 pt text whose paragraph marks are 12 pt, as
    Word 365 writes the entries it generates; the field closes in a paragraph of its own.

    Word sets the paragraph mark on the last line, so a mark larger than the text makes that line
    taller. Calibri's line is 2500/2048 em: 13.43 pt at 11 pt, 14.65 pt at 12 pt (docxide-case04,
    Calibri 12 pt at 1.15 lines, has its lines 16.83 pt apart in Word's PDF: 16.83 / 1.15 = 14.64).
    An entry: 14.65 x 259/240 = 15.81 pt, then 5 pt after (TOC 1-3), 20.81 pt. The first page holds
    n entries while (n - 1) x 20.81 + 15.81 <= 648: n = 31 (31 x 20.81 + 15.81 = 660.9 would pass
    the foot), so entry 32 opens page 2. Set by the 11 pt text alone (14.49 + 5 pt) the page took 33.
    """
    styles = ["TOC1", "TOC2", "TOC2", "TOC3"]
    body = "".join(entry(n, styles[n % 4], f"Entry {n + 1} of the specification", 2 + n // 3, mark=MARK_12PT,
                         opens=' TOC \\o "1-3" \\h \\z \\u ' if n == 0 else None) for n in range(40))
    body += "<w:p>" + r('<w:fldChar w:fldCharType="end"/>', "<w:b/><w:bCs/><w:noProof/>") + "</w:p>"
    layout = lay_out(tmp_path, body)
    pages = page_texts(layout)
    assert pages[0][0] == "Entry 1 of the specification\t2"  # the field code is not shown; its result is
    assert len(pages[0]) == 31
    assert pages[0][-1].startswith("Entry 31 ")
    assert pages[1][0] == "Entry 32 of the specification\t12"
    assert line_heights(layout, "Entry 7 ") == [pytest.approx(15.81, abs=0.02)]


def test_table_of_figures_breaks_where_word_does(qapp, tmp_path):
    """A table of figures (TOC \\h \\z \\c "Figure", style Table of Figures: no space after) under
    a title paragraph, 60 entries of Calibri 11 pt with 12 pt marks, the field closed in the last.

    Title: Normal, 13.43 x 259/240 = 14.49 pt and 8 pt after: 22.49 pt, leaving 625.51 pt. An
    entry's line is set by its 12 pt mark: 14.65 x 259/240 = 15.81 pt, nothing after; 625.51 /
    15.81 = 39.6, so 39 figures fit and Figure 40 opens page 2 (at 14.49 pt a line, 43 fitted)."""
    body = '<w:p><w:r><w:t>Table of Figures</w:t></w:r></w:p>'
    body += "".join(entry(n, "TableofFigures", f"Figure {n + 1}: Signal path of the unit", 3 + n // 2, mark=MARK_12PT,
                          opens=' TOC \\h \\z \\c "Figure" ' if n == 0 else None, closes=n == 59) for n in range(60))
    layout = lay_out(tmp_path, body)
    pages = page_texts(layout)
    assert len(pages[0]) == 1 + 39
    assert pages[0][-1].startswith("Figure 39: ")
    assert pages[1][0] == "Figure 40: Signal path of the unit\t22"
    assert line_heights(layout, "Figure 2: ") == [pytest.approx(15.81, abs=0.02)]


def test_only_the_last_line_takes_the_marks_height(qapp, tmp_path):
    """A wrapped entry: the 12 pt mark stands on its last line only (15.81 pt); the first line is
    the 11 pt text's, 13.43 x 259/240 = 14.49 pt. A mark smaller than the text changes nothing."""
    title = ("Obligations of the Parties regarding confidentiality, data protection, subcontracting and the "
             "audit rights of the Customer")
    body = (entry(0, "TOC1", title, 12, mark=MARK_12PT, opens=' TOC \\o "1-3" \\h \\z \\u ')
            + entry(1, "TOC1", "Small mark", 13, mark='<w:sz w:val="16"/>', closes=True))
    layout = lay_out(tmp_path, body)
    assert line_heights(layout, "Obligations") == [pytest.approx(14.49, abs=0.02), pytest.approx(15.81, abs=0.02)]
    assert line_heights(layout, "Small mark") == [pytest.approx(14.49, abs=0.02)]
