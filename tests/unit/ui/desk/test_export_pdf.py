"""PDF export (folio_desktop/ui/desk/export.py), checked by reading the PDF itself in pure Python (no
pdfinfo/pdftotext in CI, no QtPdf in PySide6-Essentials): page objects and MediaBoxes, the text
drawn on each page (through the fonts' ToUnicode maps) and the fill colours of its content."""

from __future__ import annotations

import re

import pytest
from conftest import CORPUS
from pdf_reading import Pdf, has_colour, squash
from PySide6.QtGui import QColor

from folio_desktop.docx import DocxReviewer
from folio_desktop.docx.errors import DocxError
from folio_desktop.layout import layout_document
from folio_desktop.ui.desk.export import export_pdf
from folio_desktop.ui.pages.marks import span_color
from folio_desktop.ui.pages.painter import BALLOON

EIGENPAL = CORPUS / "eigenpal_docxjs_editor_demo.docx"  # 3 pages, 6 tracked changes, 1 comment
MIXED = CORPUS / "pythondocx_section_props_multi_section.docx"  # a landscape section, then portrait


def inserted_spans(layout):
    return [(page.number, frag, span) for page in layout.pages for frag in page.body_fragments()
            for span in frag.para.spans if span.kind == "inserted"
            and frag.display_range[0] <= span.start < frag.display_range[1]]


@pytest.fixture(scope="module")
def eigenpal(qapp):
    rev = DocxReviewer.open(EIGENPAL)
    return rev, layout_document(rev.document)


# -- the tests ------------------------------------------------------------------------------------------

def test_markup_pdf_has_the_layout_pages_text_and_redline_colours(eigenpal, tmp_path):
    rev, layout = eigenpal
    out = tmp_path / "markup.pdf"
    assert export_pdf(rev, out) == layout.page_count == 3
    pdf = Pdf(out.read_bytes())
    assert len(pdf.pages) == 3 and len(re.findall(rb"/Type\s*/Page\b", out.read_bytes())) == 3
    for index, page in enumerate(layout.pages):
        assert pdf.media_box(index) == pytest.approx((page.width * 0.75, page.height * 0.75), abs=0.01)
        drawn = squash(pdf.text(index))
        missing = [f.text() for f in page.fragments if squash(f.text()) not in drawn]
        assert page.fragments and not missing  # every paragraph the layout put on the page is drawn there
    first = squash(pdf.text(0))
    assert "zerobackendrequired" in first and "nobackendrequired" in first  # deletion and insertion both show
    spans = inserted_spans(layout)
    assert spans
    for number, frag, span in spans:  # each insertion is drawn in its author's colour on its page
        assert has_colour(pdf.fill_colours(number - 1), span_color(frag.para, span.start))
    comment_page = next(p.number for p in layout.pages for f in p.body_fragments() if any(s.comment for s in f.para.spans))
    assert has_colour(pdf.fill_colours(comment_page - 1), BALLOON)


def test_clean_pdf_accepts_every_change_without_touching_the_document(eigenpal, tmp_path):
    rev, layout = eigenpal
    before, changes = rev.to_bytes(), len(rev.get_changes())
    out = tmp_path / "clean.pdf"
    count = export_pdf(rev, out, markup=False)
    assert rev.to_bytes() == before and len(rev.get_changes()) == changes == 6

    accepted = DocxReviewer.from_bytes(before)
    accepted.accept_all()
    clean_layout = layout_document(accepted.document, show_markup=False)
    pdf = Pdf(out.read_bytes())
    assert count == len(pdf.pages) == clean_layout.page_count
    text = squash("".join(pdf.text(i) for i in range(count)))
    assert "nobackendrequired" in text and "zerobackendrequired" not in text
    assert "ThislibraryskipsitOOXML" in text.replace("—", "") and "skipsthepipelineentirely" not in text
    colours = [c for i in range(count) for c in pdf.fill_colours(i)]
    insertion_colours = {span_color(frag.para, span.start).name() for _, frag, span in inserted_spans(layout)}
    assert colours and insertion_colours and not any(has_colour(colours, QColor(name)) for name in insertion_colours)
    assert not has_colour(colours, BALLOON)  # no comment markers


def test_each_section_keeps_its_page_size_and_orientation(qapp, tmp_path):
    rev = DocxReviewer.open(MIXED)
    layout = layout_document(rev.document)
    sizes = [(p.width, p.height) for p in layout.pages]
    assert sizes[0][0] > sizes[0][1] and sizes[1][0] < sizes[1][1]  # landscape, then portrait
    out = tmp_path / "mixed.pdf"
    assert export_pdf(rev, out, layout=layout) == len(sizes)
    pdf = Pdf(out.read_bytes())
    assert [pdf.media_box(i) for i in range(len(sizes))] == [
        pytest.approx((w * 0.75, h * 0.75), abs=0.01) for w, h in sizes]


def test_progress_and_a_target_that_cannot_be_written(eigenpal, tmp_path):
    rev, layout = eigenpal
    seen = []
    export_pdf(rev, tmp_path / "p.pdf", layout=layout, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 3), (2, 3), (3, 3)]
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    with pytest.raises(DocxError, match="could not be written"):
        export_pdf(rev, blocker / "out.pdf", layout=layout)
    assert not list(tmp_path.glob("**/.~folio-*"))  # no temp file left behind
