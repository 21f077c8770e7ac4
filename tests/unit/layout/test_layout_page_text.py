"""A page's text in reading order with its text boxes and shapes (what `folio-desktop pages --json`
reports): a cover title drawn in a shape opens its page, a box stands where it is drawn, and a box
the layout does not draw (VML, inline) is still read where its anchor paragraph stands.

Ground truth: Word's PDF of word-pdf/openchain-slides-ja.docx, whose slide titles are text boxes
anchored in the headers: `pdftotext` of Word's page N starts with the title of slide N."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import CORPUS, ROOT
from test_layout_floating import _text_box, anchor, lay_out, para

from folio_desktop.docx import DocxReviewer

VML_BOX = ('<w:r><w:pict><v:shape xmlns:v="urn:schemas-microsoft-com:vml" id="t1" type="#_x0000_t202" '
           'style="position:absolute;margin-left:0;margin-top:0;width:300pt;height:60pt">'
           '<v:textbox><w:txbxContent><w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:txbxContent></v:textbox>'
           '</v:shape></w:pict></w:r>')
MC = "http://schemas.openxmlformats.org/markup-compatibility/2006"


def _chosen_box(text: str) -> str:
    """A text box as Word writes it: the DrawingML choice and a VML fallback holding the same words."""
    choice = anchor(300, 50, ("page", 120), ("page", 30), wrap="none", content=_text_box(text))
    inner = choice[len("<w:r>"):-len("</w:r>")]
    fallback = VML_BOX.format(text=text)[len("<w:r>"):-len("</w:r>")]
    return (f'<w:r><mc:AlternateContent xmlns:mc="{MC}"><mc:Choice Requires="wps">{inner}</mc:Choice>'
            f"<mc:Fallback>{fallback}</mc:Fallback></mc:AlternateContent></w:r>")


BREAK = '<w:p><w:r><w:br w:type="page"/></w:r></w:p>'


def test_a_cover_page_whose_title_is_a_drawn_text_box_reads_the_title_first(qapp):
    """The cover's only words are in a text box anchored to an empty paragraph: page 1 is not empty,
    and a box drawn above a body paragraph is read before it, one drawn below after it."""
    top_box = anchor(300, 60, ("page", 120), ("page", 30), wrap="none", content=_text_box("MASTER SERVICES AGREEMENT"))
    low_box = anchor(300, 60, ("page", 120), ("page", 700), wrap="none", content=_text_box("Draft of 2 December"))
    body = para(top_box + low_box) + para(text="Between the parties named below.") + BREAK + para(text="1. Definitions")
    _rev, lay = lay_out(qapp, body)
    lines = lay.pages[0].text(boxes=True).split("\n")
    assert [line for line in lines if line] == [
        "MASTER SERVICES AGREEMENT", "Between the parties named below.", "Draft of 2 December"]
    assert "MASTER" not in lay.pages[0].text() and "Between the parties" in lay.pages[0].text()  # body only, as before
    assert lay.pages[1].text(boxes=True).startswith("1. Definitions")


def test_a_vml_text_box_the_layout_does_not_draw_is_read_at_its_anchor(qapp):
    body = para(text="Intro line.") + para(VML_BOX.format(text="Schedule of Fees")) + para(text="Closing line.")
    _rev, lay = lay_out(qapp, body)
    assert lay.pages[0].text(boxes=True).split("\n") == ["Intro line.", "Schedule of Fees", "", "Closing line."]


def test_a_box_written_as_choice_and_fallback_is_read_once(qapp):
    _rev, lay = lay_out(qapp, para(_chosen_box("Cover Title")) + para(text="Body."))
    text = lay.pages[0].text(boxes=True)
    assert text.count("Cover Title") == 1 and text.index("Cover Title") < text.index("Body.")


def test_header_text_boxes_are_read_with_the_header(qapp, tmp_path):
    """A slide title in a header's text box (as the OpenChain slides have it) leads the page's text when
    headers are included, and stays out of the body-only text."""
    from docbuilder import build_docx, with_stories

    box = anchor(300, 40, ("page", 96), ("page", 40), wrap="none", content=_text_box("Slide Title"))
    data = with_stories(build_docx(para(text="Bullet one.")), ("header", "rIdH1", f"<w:p>{box}</w:p>", [(0, "default")]))
    rev = DocxReviewer.from_bytes(data)
    from folio_desktop.layout import layout_document

    page = layout_document(rev.document).pages[0]
    assert page.text(include_headers=True, boxes=True).split() == ["Slide", "Title", "Bullet", "one."]
    assert "Slide" not in page.text(boxes=True)


def _word_first_words(pdf) -> list[str]:
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    return [" ".join(page.split()[:1]) for page in text.split("\f") if page.strip()]


@pytest.mark.skipif(not (CORPUS / "word-pdf").is_dir(), reason="corpus not present")
def test_pages_json_opens_each_slide_with_its_drawn_title_as_words_pdf_does():
    """`pages --json` on the OpenChain slides: every page's first word is the first word of Word's
    own PDF page (the slide title, in a header text box), and each page carries its text."""
    source = CORPUS / "word-pdf" / "openchain-slides-ja.docx"
    proc = subprocess.run([sys.executable, "-m", "folio_desktop", "pages", str(source), "--json"], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    pages = json.loads(proc.stdout)["pages"]
    word = _word_first_words(source.with_suffix(".pdf"))
    assert len(pages) == len(word) == 10
    ours = [page["firstWords"].split()[0] for page in pages]
    assert ours[:9] == word[:9], list(zip(ours, word))
    assert pages[1]["text"].startswith("今日のソフトウェア サプライチェーン")
    assert "\ufffc" not in "".join(page["text"] for page in pages)


# -- the drift report (benchmarks/word_fidelity.py) ------------------------------------------------------

def _paragraphs(n: int, tall: int | None = None, space_pt: int = 150) -> str:
    out = []
    for i in range(n):
        ppr = f'<w:spacing w:after="{space_pt * 20}"/>' if i == tall else ""
        out.append(f"<w:p><w:pPr>{ppr}</w:pPr><w:r><w:t>Paragraph {i} says clause text {i} here.</w:t></w:r></w:p>")
    return "".join(out)


def test_the_drift_report_names_the_paragraph_whose_height_differs_and_by_how_much(qapp, tmp_path):
    """A stand-in for Word's PDF: the same 80 paragraphs, but paragraph 12 with 150 pt after it (ten paragraphs' room). The
    report finds page 2 as the first start that differs, Word's first words there on our page 1, and
    names paragraph 12 as 150 pt shorter in ours than in 'Word's'; with equal heights it says none differ."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from docbuilder import build_docx
    from page_drift import find_drift
    from pdf_words import read_pdf
    from word_fidelity import our_pdf

    reference, ours = tmp_path / "word.docx", tmp_path / "ours.docx"
    reference.write_bytes(build_docx(_paragraphs(80, tall=12)))
    ours.write_bytes(build_docx(_paragraphs(80)))
    our_pdf(reference, tmp_path / "word.pdf")
    tops, pages = our_pdf(ours, tmp_path / "ours.pdf")
    drift = find_drift(read_pdf(tmp_path / "word.pdf"), read_pdf(tmp_path / "ours.pdf"), pages, tops)
    assert drift is not None and drift.page == 2 and drift.word_start_on_our_page == 1
    assert drift.culprit.words.startswith("Paragraph 12 says")
    assert drift.culprit.difference == pytest.approx(-150.0, abs=0.5)
    assert all(abs(p.difference) < 0.5 for p in drift.paragraphs if p is not drift.culprit)
    assert 'paragraph "Paragraph 12 says' in drift.describe() and "-150.0 pt" in drift.describe()
    same = find_drift(read_pdf(tmp_path / "ours.pdf"), read_pdf(tmp_path / "ours.pdf"), pages, tops)
    assert same is None
