"""Heights as Word gives them, measured in the PDFs Microsoft Word made (../shared/corpus/word-pdf/):
the line of a stand-in font is as tall as the original's, a table row as tall as its text and its
border, an autofit column as wide as its longest word, and a line at a page's foot fits when its
text does (the room multiple line spacing adds below it may run past the margin).

Each rule on a small document built in code, with the Word PDF that showed it. Page: docbuilder's
Letter with 1 inch margins (648 pt of body, a 468 pt column)."""

from __future__ import annotations

import statistics
import sys

import pytest
from conftest import CORPUS, ROOT
from docbuilder import build_docx

from folio_desktop.docx import DocxReviewer
from folio_desktop.layout import layout_document
from folio_desktop.layout.fonts import FontBook

sys.path.insert(0, str(ROOT / "benchmarks"))
WORD_PDF = CORPUS / "word-pdf"
PT = 0.75  # pt per px


def styles(font: str, size_half_pts: int, line: int = 276) -> str:
    return (f'<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="{font}" w:hAnsi="{font}"/>'
            f'<w:sz w:val="{size_half_pts}"/></w:rPr></w:rPrDefault><w:pPrDefault><w:pPr>'
            f'<w:spacing w:after="0" w:line="{line}" w:lineRule="auto"/></w:pPr></w:pPrDefault></w:docDefaults>'
            '<w:style w:type="table" w:styleId="TableGrid"><w:name w:val="Table Grid"/><w:pPr>'
            '<w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr><w:tblPr><w:tblBorders>'
            + "".join(f'<w:{side} w:val="single" w:sz="4" w:space="0" w:color="auto"/>'
                      for side in ("top", "left", "bottom", "right", "insideH", "insideV"))
            + '</w:tblBorders><w:tblCellMar><w:left w:w="108" w:type="dxa"/><w:right w:w="108" w:type="dxa"/>'
            '</w:tblCellMar></w:tblPr></w:style>')


def lay_out(body: str, style_xml: str):
    rev = DocxReviewer.from_bytes(build_docx(body, styles=style_xml))
    return layout_document(rev.document)


def para(text: str) -> str:
    return f'<w:p><w:r><w:t xml:space="preserve">{text}</w:t></w:r></w:p>'


def word_pitch(stem: str, first: str, count: int) -> float:
    """The mean distance in Word's PDF between the tops of `count` lines starting with the one whose
    first word is `first` (case-folded): Word sets line positions in steps, so one gap alone says less."""
    from pdf_words import read_pdf

    for page in read_pdf(WORD_PDF / f"{stem}.pdf"):
        for i, line in enumerate(page.lines):
            if line[0].text != first:
                continue
            # the lines below it in its column (a table's other cells are lines of their own)
            tops = [ln[0].y0 for ln in page.lines[i:] if abs(ln[0].x0 - line[0].x0) < 2]
            if len(tops) > count:
                return (tops[count] - tops[0]) / count
    raise AssertionError(f"no line starts with {first!r} in {stem}.pdf")


LONG = " ".join(f"clause{i}" for i in range(120))


@pytest.mark.parametrize("font, size, stem, first, count", [
    ("Cambria", 22, "docxide-case22", "consectetur", 6),  # Cambria 11 pt at 1.15 lines
    ("Aptos", 24, "docxide-case05", "this", 3),  # Aptos 12 pt at 1.15 lines
])
def test_a_stand_in_fonts_lines_are_as_tall_as_the_originals_in_word(qapp, font, size, stem, first, count):
    """Caladea stands in for Cambria and Liberation Sans for Aptos at the original's widths, but their
    own lines are 1.15 em where Cambria's are 2401/2048 em and Aptos's 2500/2048: at 1.15 lines
    14.83 pt (Cambria 11) and 16.85 pt (Aptos 12), which Word's PDFs show (14.80-14.85, 16.83); the
    stand-ins' own heights gave 14.55 and 15.87, a line short every 30."""
    book = FontBook()
    book.family(font)
    if font == "Cambria" and book.substitutions.get("Cambria") != "Caladea":
        pytest.skip("Caladea is not installed (.ci/run installs it)")
    layout = lay_out(para(LONG), styles(font, size))
    lines = layout.pages[0].body_fragments()[0].para.lines
    ours = statistics.mean(line.height for line in lines) * PT
    assert ours == pytest.approx(word_pitch(stem, first, count), abs=0.06)
    assert ours == pytest.approx({"Cambria": 2401, "Aptos": 2500}[font] / 2048 * size / 2 * 1.15, abs=0.01)


def table(*rows: list[str], widths: tuple[int, ...] = (1728, 1728, 1728), layout: str = "") -> str:
    grid = "".join(f'<w:gridCol w:w="{w}"/>' for w in widths)
    body = "".join("<w:tr>" + "".join(f'<w:tc><w:tcPr><w:tcW w:w="{w}" w:type="dxa"/></w:tcPr>{para(t)}</w:tc>'
                                      for t, w in zip(row, widths, strict=True)) + "</w:tr>" for row in rows)
    return (f'<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/><w:tblW w:w="0" w:type="auto"/>{layout}</w:tblPr>'
            f"<w:tblGrid>{grid}</w:tblGrid>{body}</w:tbl>")


def test_table_rows_stand_apart_by_their_line_and_their_border(qapp):
    """Word's Table Grid rows (0.5 pt borders) of Aptos 12 pt single lines stand 15.15 pt apart in its
    PDF of docxide-case06 (the line 14.65 pt and the border 0.5 pt); the paragraph after the table
    starts below the last row's bottom border too."""
    rows = [[f"row{i}", "Operational", "99.9%"] for i in range(6)]
    layout = lay_out(table(*rows) + para("After the table."), styles("Aptos", 24))
    frags = layout.pages[0].body_fragments()
    tops = [f.top * PT for f in frags if f.text().startswith("row")]
    pitch = statistics.mean(b - a for a, b in zip(tops, tops[1:]))
    assert pitch == pytest.approx(2500 / 2048 * 12 + 0.5, abs=0.01)
    assert pitch == pytest.approx(word_pitch("docxide-case06", "api/users", 4), abs=0.06)
    after = next(f for f in frags if f.text().startswith("After")).top * PT
    assert after == pytest.approx(tops[-1] + 2500 / 2048 * 12 + 0.5, abs=0.01)  # the bottom border's room


def test_an_autofit_column_widens_to_its_longest_word(qapp):
    """A path longer than its column (86.4 pt less 10.8 pt of margins) in an autofit table: Word
    widens the column to hold it on one line and narrows the others (its PDF of docxide-case06 sets
    "/api/auth/refresh", 88.5 pt wide, on one line in such a column). In a fixed-layout table the
    column keeps its width and the path breaks."""
    rows = [["/api/auth/refresh", "1,800,000", "5"], ["/api/users", "1,240,000", "12"]]
    autofit = lay_out(table(*rows), styles("Aptos", 24))
    cell = next(f for f in autofit.pages[0].body_fragments() if f.text().startswith("/api/auth"))
    assert len(cell.para.lines) == 1
    edges = [b.x1 * PT for b in autofit.pages[0].borders if b.x1 == b.x2]
    assert max(edges) - min(edges) == pytest.approx(3 * 86.4, abs=0.1)  # the table keeps its width
    first_column = sorted(set(edges))[1] - min(edges)
    assert first_column == pytest.approx(88.5 + 10.8, abs=0.3)  # as wide as the path (88.5 pt) and its margins
    fixed = lay_out(table(*rows, layout='<w:tblLayout w:type="fixed"/>'), styles("Aptos", 24))
    kept = next(f for f in fixed.pages[0].body_fragments() if f.text().startswith("/api/auth"))
    assert len(kept.para.lines) == 2


def test_a_line_at_the_foot_fits_when_its_text_does(qapp, tmp_path):
    """Calibri 11 pt at 1.15 lines: 13.43 pt of text and 2.01 pt below it, 15.44 pt a line. Page 1
    holds 42 one-line paragraphs: the 42nd's text ends at 41 x 15.44 + 13.43 = 646.6 pt, inside the
    648 pt body, though with the room below it the line would end at 648.6. Word does the same: its
    PDF of docxide-case22 ends the third column with a 1.15-spaced Cambria line whose room below
    runs past the margin, and our page 2 starts where Word's does."""
    from pdf_words import page_starts, read_pdf
    from word_fidelity import our_pdf

    layout = lay_out("".join(para(f"Line {n}") for n in range(1, 61)), styles("Calibri", 22))
    first = [f.text() for f in layout.pages[0].body_fragments()]
    assert first[-1] == "Line 42" and len(first) == 42
    assert layout.pages[1].body_fragments()[0].text() == "Line 43"
    if not FontBook().family("Cambria").startswith("Cambria widths"):
        pytest.skip("Caladea is not installed (.ci/run installs it)")
    docx = WORD_PDF / "docxide-case22.docx"
    tops, _pages = our_pdf(docx, tmp_path / "ours.pdf")
    assert page_starts(read_pdf(docx.with_suffix(".pdf")), read_pdf(tmp_path / "ours.pdf"), tops) == 2


@pytest.mark.parametrize("mode", ["14", "15"])
def test_the_first_paragraph_of_a_new_section_page_keeps_its_space_before_less_the_space_after(qapp, mode):
    """A heading with 24 pt before opens the page a section break starts; the section before ended
    with a paragraph of 10 pt after. Word's PDFs of docxide-case25 and -26 (Word 2013's mode) and
    -28 (Word 2010's) set such headings 14 pt below the top margin, 10 pt higher than the 24 pt
    above the same heading on page 1."""
    section_end = ('<w:p><w:pPr><w:spacing w:after="200"/><w:sectPr><w:pgSz w:w="12240" w:h="15840"/>'
                   '<w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440"/></w:sectPr></w:pPr></w:p>')
    heading = '<w:p><w:pPr><w:spacing w:before="480" w:after="0"/></w:pPr><w:r><w:t>{}</w:t></w:r></w:p>'
    settings = ('<w:compat><w:compatSetting w:name="compatibilityMode" w:uri="http://schemas.microsoft.com/office/word"'
                f' w:val="{mode}"/></w:compat>')
    rev = DocxReviewer.from_bytes(build_docx(heading.format("One") + para("Text.") + section_end + heading.format("Two"),
                                             styles=styles("Calibri", 22), settings=settings))
    layout = layout_document(rev.document)
    one, two = (page.body_fragments()[0] for page in layout.pages)
    assert one.top * PT == pytest.approx(72 + 24, abs=0.01)
    assert two.top * PT == pytest.approx(72 + 14, abs=0.01)


def test_a_heading_kept_with_its_text_stays_when_the_texts_lines_fit(qapp):
    """39 one-line paragraphs of Calibri 11 pt at 1.15 lines (15.44 pt each, 2.01 pt of it below
    the text) leave 648 - 39 x 15.44 = 45.7 pt; a heading kept with the next paragraph needs its own
    line and that paragraph's first two: 46.3 pt, or 44.3 pt counting the last line to its text.
    Word keeps the heading on the page: its PDF of docxide-case04 ends page 1 with the heading
    "Quality Metrics" and two lines of its paragraph, the second's text ending at 719.5 pt."""
    heading = '<w:p><w:pPr><w:keepNext/></w:pPr><w:r><w:t>Quality Metrics</w:t></w:r></w:p>'
    body = "".join(para(f"Line {n}") for n in range(1, 40)) + heading + para(LONG)
    layout = lay_out(body, styles("Calibri", 22))
    last = layout.pages[0].body_fragments()[-1]
    assert layout.pages[0].body_fragments()[-2].text() == "Quality Metrics"
    assert last.text().startswith("clause0") and last.last_line - last.first_line + 1 == 2
