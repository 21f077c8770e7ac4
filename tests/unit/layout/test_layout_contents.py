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
WEB_HIDDEN = "<w:noProof/><w:webHidden/>"
LINK = '<w:rStyle w:val="Hyperlink"/><w:noProof/>'


def r(inner: str, rpr: str = "") -> str:
    return f'<w:r>{f"<w:rPr>{rpr}</w:rPr>" if rpr else ""}{inner}</w:r>'


def entry(n: int, style: str, title: str, page: int, *, number: str | None = None, stop: int = 9350,
          ppr: str = "", opens: str | None = None, closes: bool = False) -> str:
    """One entry as Word writes it: the title hyperlinked to its heading's bookmark, a tab and a
    PAGEREF field (its runs and the tab hidden in web view only), on a right stop with a dot
    leader (at 9350 twips, 10 inside the margin); opens: the TOC instruction when the field
    begins in this entry."""
    anchor = f"_Toc{180000 + n}"
    out = (f'<w:p><w:pPr><w:pStyle w:val="{style}"/><w:tabs><w:tab w:val="right" w:leader="dot" w:pos="{stop}"/>'
           f'</w:tabs>{ppr}<w:rPr><w:noProof/></w:rPr></w:pPr>')
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




def right_edge_pt(para, line_index: int, offset: int) -> float:
    """Where (pt from the left margin) the text of a measured paragraph's line stands at offset."""
    x = para.layout.lineAt(line_index).cursorToX(offset)
    return (para.x + (x[0] if isinstance(x, tuple) else x)) * PT


TOC_INSTR = ' TOC \\o "1-3" \\h \\z \\u '
ENTRY_STYLES = ["TOC1", "TOC2", "TOC2", "TOC3"]
# a drafting note hidden whole (its text and its mark w:vanish), as legal templates carry them
HIDDEN_NOTE = ('<w:p><w:pPr><w:rPr><w:vanish/></w:rPr></w:pPr><w:r><w:rPr><w:vanish/></w:rPr>'
               '<w:t>Drafting note: update the contents before circulating.</w:t></w:r></w:p>')


def contents(count: int = 40, end_own: bool = True) -> str:
    """count entries (TOC 1, 2, 2, 3, ...), the field closed in a paragraph of its own or in the last."""
    body = "".join(entry(n, ENTRY_STYLES[n % 4], f"Entry {n + 1} of the specification", 2 + n // 3,
                         opens=TOC_INSTR if n == 0 else None, closes=n == count - 1 and not end_own)
                   for n in range(count))
    if end_own:
        body += "<w:p>" + r('<w:fldChar w:fldCharType="end"/>', "<w:b/><w:bCs/><w:noProof/>") + "</w:p>"
    return body


# -- page breaks -------------------------------------------------------------------------------------

def test_contents_page_of_40_entries_breaks_where_word_does(qapp, tmp_path):
    """40 entries of Calibri 11 pt under Word's TOC 1-3 styles, the field closed in a paragraph of
    its own (which Word shows as an empty line).

    Calibri's line is 2500/2048 em (its win ascent + descent): 13.43 pt at 11 pt (cross-check:
    docxide-case04's 12 pt Calibri lines at 1.15 stand 16.83 pt apart in Word's PDF, 16.83 / 1.15 =
    14.64 = 12 x 2500/2048). An entry: 13.43 x 259/240 = 14.49 pt and 5 pt after, 19.49 pt. The
    first page holds n entries while (n - 1) x 19.49 + 14.49 <= 648: n = 33 (the 34th would end at
    657.7), so entry 34 opens page 2. (Main's layout already gave this: a guard, with the field
    code left out and each result kept as saved.)"""
    layout = lay_out(tmp_path, contents())
    pages = page_texts(layout)
    assert pages[0][0] == "Entry 1 of the specification\t2"  # the field code is not shown; its result is
    assert len(pages[0]) == 33
    assert pages[1][0] == "Entry 34 of the specification\t13"
    assert pages[1][-1] == ""  # the paragraph that closes the field
    assert line_heights(layout, "Entry 7 ") == [pytest.approx(14.49, abs=0.02)]


def test_table_of_figures_breaks_where_word_does(qapp, tmp_path):
    """A table of figures (TOC \\h \\z \\c "Figure", style Table of Figures: no space after) under
    a title paragraph, 60 entries of Calibri 11 pt, the field closed in the last entry.

    Title: Normal, 14.49 pt and 8 pt after: 22.49 pt, leaving 625.51 pt; an entry is one 14.49 pt
    line with nothing after: 625.51 / 14.49 = 43.2, so 43 figures fit and Figure 44 opens page 2.
    (Main's layout already gave this: a guard.)"""
    body = '<w:p><w:r><w:t>Table of Figures</w:t></w:r></w:p>'
    body += "".join(entry(n, "TableofFigures", f"Figure {n + 1}: Signal path of the unit", 3 + n // 2,
                          opens=' TOC \\h \\z \\c "Figure" ' if n == 0 else None, closes=n == 59) for n in range(60))
    layout = lay_out(tmp_path, body)
    pages = page_texts(layout)
    assert len(pages[0]) == 1 + 43
    assert pages[0][-1].startswith("Figure 43: ")
    assert pages[1][0] == "Figure 44: Signal path of the unit\t24"


def test_hidden_paragraphs_before_the_contents_take_no_room(qapp, tmp_path):
    """Three drafting notes hidden whole (text and paragraph mark w:vanish) between the title and
    the contents: Word neither prints nor lays them out, as if they were not there (ECMA-376
    17.3.2.41; a hidden mark joins its paragraph to the next, and with nothing shown nothing is
    left). Title 22.49 pt leaves 625.51 pt: entries fit while (n - 1) x 19.49 + 14.49 <= 625.51,
    n = 32, and entry 33 opens page 2. Laid out as empty lines (22.49 pt each) they took 28."""
    body = '<w:p><w:r><w:t>Contents</w:t></w:r></w:p>' + HIDDEN_NOTE * 3 + contents()
    pages = page_texts(lay_out(tmp_path, body))
    assert pages[0][0] == "Contents"
    assert len(pages[0]) == 1 + 32
    assert pages[1][0] == "Entry 33 of the specification\t12"


# -- where the page number stands ---------------------------------------------------------------------

HANGING = '<w:ind w:left="720" w:right="720" w:hanging="720"/>'  # the ILPA agreement's TOC 1
LONG_TITLE = ("Obligations of the Parties regarding confidentiality, data protection, subcontracting and the "
              "audit rights of the Customer")


def test_wrapped_entry_under_a_hanging_indent_puts_its_page_number_at_the_stop(qapp, tmp_path):
    """A numbered entry under a hanging indent (left 720, hanging 720, right 720 twips, the page
    number's right stop at 9288 twips, past the right indent), long enough to wrap. Word measures
    every stop from the margin: the number's tab reaches the indent (36 pt), the text wraps at
    the right indent (468 - 36 = 432 pt) and the page number on the last line ends at the stop,
    9288 / 20 = 464.4 pt. Qt keeps one list of stops for all lines; shifted for the first line's
    hanging start, it put the page number 36 pt further right (500.4 pt, past the margin)."""
    body = (entry(0, "TOC1", LONG_TITLE, 12, number="1.", stop=9288, ppr=HANGING, opens=TOC_INSTR)
            + entry(1, "TOC1", "Term", 14, number="2.", stop=9288, ppr=HANGING, closes=True))
    layout = lay_out(tmp_path, body)
    para = next(f.para for f in layout.pages[0].body_fragments() if f.text().startswith("1.\tObligations"))
    assert len(para.lines) == 2
    assert right_edge_pt(para, 0, 3) == pytest.approx(36.0, abs=0.1)  # the title after the number's tab
    assert right_edge_pt(para, 0, para.lines[0].end) <= 432.0 + 0.1
    assert right_edge_pt(para, 1, para.lines[1].end) == pytest.approx(9288 / 20, abs=0.3)
    short = next(f.para for f in layout.pages[0].body_fragments() if f.text().startswith("2.\tTerm"))
    assert right_edge_pt(short, 0, len(short.text)) == pytest.approx(9288 / 20, abs=0.3)
