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
