"""Run-in headings: a paragraph whose mark is hidden (w:vanish or w:specVanish on the mark, Word's
"style separator", Ctrl+Alt+Enter) does not end its line: the next paragraph's text goes on after it
on the same line (ECMA-376 §17.3.2.36: such a mark "shall never be used to end the paragraph for
display"). Contracts use it for "1.4 Defined Terms. In addition to ..." with a numbered heading
style for the contents and a body style for the text (the NVCA purchase agreement has 93).

Geometry: docbuilder's Letter page, 1 inch margins: a 468 pt column, 648 pt of body. Times New Roman
12 pt (Liberation Serif has its metrics) is 13.8 pt a line in Word (ascender 1825 + descender 443 +
line gap 87 over 2048 em: 1.15 em)."""

from __future__ import annotations

import pytest
from docbuilder import build_docx

from folio_desktop.docx import DocxReviewer
from folio_desktop.layout import layout_document

PX = 96 / 72
STYLES = ('<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Times New Roman" w:hAnsi="Times New Roman"/>'
          '<w:sz w:val="24"/></w:rPr></w:rPrDefault><w:pPrDefault><w:pPr><w:spacing w:after="0"/></w:pPr>'
          '</w:pPrDefault></w:docDefaults>')
SEPARATOR = {"specVanish": "<w:vanish/><w:specVanish/>", "vanish": "<w:vanish/>"}


def heading(text: str, mark: str = SEPARATOR["specVanish"]) -> str:
    return (f'<w:p><w:pPr><w:keepNext/><w:rPr><w:b/>{mark}</w:rPr></w:pPr>'
            f'<w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">{text}</w:t></w:r></w:p>')


def body(text: str, after_twips: int = 0) -> str:
    return (f'<w:p><w:pPr><w:spacing w:after="{after_twips}"/></w:pPr>'
            f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r></w:p>')


def lay_out(qapp, xml: str):
    rev = DocxReviewer.from_bytes(build_docx(xml, styles=STYLES))
    return rev, layout_document(rev.document)


def fragment(page, starts: str):
    return next(f for f in page.body_fragments() if f.text().startswith(starts))


TEXT = ("In addition to the terms defined above, the following terms used in this Agreement shall be "
        "construed to have the meanings set forth or referenced below.")


@pytest.mark.parametrize("mark", sorted(SEPARATOR))
def test_the_paragraph_after_a_hidden_mark_goes_on_on_the_headings_line(qapp, mark):
    _rev, lay = lay_out(qapp, heading("1.4 Defined Terms", SEPARATOR[mark]) + body(". " + TEXT) + body("Next clause."))
    page = lay.pages[0]
    head, text, nxt = fragment(page, "1.4"), fragment(page, ". In addition"), fragment(page, "Next")
    head_line, text_line = head.para.layout.lineAt(0), text.para.layout.lineAt(0)
    # on the heading's line, right after its last letter, baselines level
    assert text.top == pytest.approx(head.top, abs=0.5)
    assert text.para.x + text_line.position().x() == pytest.approx(head.para.x + head_line.naturalTextWidth(), abs=0.5)
    assert text.y + text_line.position().y() + text_line.ascent() == pytest.approx(
        head.y + head_line.position().y() + head_line.ascent(), abs=0.01)
    # two lines in all, not three: the next paragraph starts two lines below the heading's top
    assert len(text.para.lines) == 2
    assert nxt.top == pytest.approx(head.top + 2 * 13.8 * PX, abs=0.6)
    # a click on the run-on text lands in its own paragraph, one on the heading in the heading's
    point_x = text.x + text.para.x + text_line.position().x() + 30
    from PySide6.QtCore import QPointF

    assert lay.hit_test(1, QPointF(point_x, text.top + 5))[0] == text.block_id
    assert lay.hit_test(1, QPointF(head.x + head.para.x + 10, head.top + 5))[0] == head.block_id


def test_a_shown_mark_still_ends_the_line(qapp):
    _rev, lay = lay_out(qapp, heading("1.4 Defined Terms", "") + body(". " + TEXT))
    head, text = fragment(lay.pages[0], "1.4"), fragment(lay.pages[0], ". In addition")
    assert text.top == pytest.approx(head.bottom, abs=0.5)


def test_run_in_clauses_fill_a_page_as_in_word(qapp):
    """40 clauses, each a run-in heading "Clause N." and a body paragraph with 12 pt after, the two
    making two lines. Word: a clause is 2 x 13.8 + 12 = 39.6 pt, so 16 fit in 648 pt (633.6); the
    17th's first line would fit (647.4) but alone, and orphan control takes it on: clause 17 opens
    page 2. With each heading on a line of its own (a clause of 3 x 13.8 + 12 = 53.4 pt) page 2
    would open with clause 13."""
    clauses = "".join(heading(f"Clause {n}.") + body(" " + TEXT, after_twips=240) for n in range(1, 41))
    _rev, lay = lay_out(qapp, clauses)
    page1 = [f for f in lay.pages[0].body_fragments()]
    assert all(len(f.para.lines) == 2 for f in page1 if f.text().startswith(" In addition"))
    assert lay.pages[1].body_fragments()[0].text() == "Clause 17."
    assert len(lay.pages) == 3  # 40 clauses: 16 + 16 + 8


def test_too_little_room_after_the_heading_starts_the_text_on_its_own_line(qapp):
    """A heading whose line leaves less than 24 px (18 pt) free: the text starts a line of its own."""
    words = "Definitions of the terms used throughout this Agreement and in each of its Schedules and Exhibits"
    for cut in range(len(words), 40, -1):  # the longest heading that stays on one line, then shorter
        _rev, lay = lay_out(qapp, heading(words[:cut]) + body("Text."))
        head, text = fragment(lay.pages[0], "Definitions"), fragment(lay.pages[0], "Text.")
        room = 468 * PX - head.para.layout.lineAt(0).naturalTextWidth()
        if len(head.para.lines) == 1 and room < 24:
            assert text.top == pytest.approx(head.bottom, abs=0.5)
            return
        if len(head.para.lines) == 1:
            break
    raise AssertionError("no heading left less than 24 px on its line")
