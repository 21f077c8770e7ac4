"""Moves on the page as Word draws them (layout/display_text.py, layout/model.py, ui/pages/marks.py,
balloons.py): in All Markup the text that arrived is green with a double underline, the text that
left green with a double strike-through, and a "Moved" label sits beside each half in the markup
area; No Markup and Original show the move accepted or rejected, with neither lines nor labels.

Checked on the rendered pixels: a column through the space between two moved words crosses only
the lines drawn there, so counting its bands of colour counts the lines."""

from __future__ import annotations

import pytest
from conftest import CORPUS, shown_page_view
from docbuilder import build_docx
from PySide6.QtGui import QColor

from folio_desktop.docx import DocxReviewer
from folio_desktop.layout import layout_document
from folio_desktop.ui.pages.text_flow import cursor_x

PANDOC_MOVE = CORPUS / "pandoc_track_changes_move_macword.docx"  # Word for Mac moved a paragraph up
ZOOM = 2.0
WHO = 'w:author="Ann Lawyer" w:date="2026-11-30T10:00:00Z"'
GREEN = QColor("#2e7d32")


def _run(text: str) -> str:
    return f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>'


def moved_document(tmp_path):
    """Four paragraphs: an ordinary insertion, the text a move brought, a plain one, and the place
    the move took the text from (later in the document: it moved up)."""
    body = (f'<w:p>{_run("Alpha ")}<w:ins w:id="1" {WHO}>{_run("inserted words")}</w:ins>{_run(" end.")}</w:p>'
            f'<w:p>{_run("Beta ")}<w:moveToRangeStart w:id="2" {WHO} w:name="move1"/>'
            f'<w:moveTo w:id="3" {WHO}>{_run("moved words")}</w:moveTo><w:moveToRangeEnd w:id="2"/>{_run(" end.")}</w:p>'
            f'<w:p>{_run("Gamma.")}</w:p>'
            f'<w:p>{_run("Delta ")}<w:moveFromRangeStart w:id="4" {WHO} w:name="move1"/>'
            f'<w:moveFrom w:id="5" {WHO}>{_run("moved words")}</w:moveFrom><w:moveFromRangeEnd w:id="4"/>'
            f'{_run(" end.")}</w:p>')
    path = tmp_path / "moved.docx"
    path.write_bytes(build_docx(body))
    return path


@pytest.fixture
def view(qtbot):
    return shown_page_view(qtbot, 1300, 900)


def shown(view, rev, markup="all"):
    layout = layout_document(rev.document, view=markup)
    view.set_layout(layout, rev)
    return layout


def fragment_with(layout, text: str):
    page = layout.pages[0]
    return page, next(f for f in page.body_fragments() if f.para.text.startswith(text))


def bands(image, frag, word: str, space_after: int, colour_of) -> list[tuple[int, int]]:
    """The bands of rows (image y from, to) whose pixel matches colour_of in the column through the
    middle of the space that follows `word` in the fragment's line, from the line's top to its foot."""
    para = frag.para
    i = para.text.index(word) + space_after
    line = para.layout.lineAt(frag.first_line)
    x = frag.x + para.x + (cursor_x(line, i) + cursor_x(line, i + 1)) / 2
    top = frag.y + para.lines[frag.first_line].y
    out: list[list[int]] = []
    for y in range(int(top * ZOOM), int((top + para.lines[frag.first_line].height) * ZOOM) + 2):
        if colour_of(QColor(image.pixel(round(x * ZOOM), y))):
            if out and out[-1][1] == y - 1:
                out[-1][1] = y
            else:
                out.append([y, y])
    return [tuple(b) for b in out]


def greenish(c: QColor) -> bool:
    return c.green() > c.red() + 40 and c.green() > c.blue() + 30


def bluish(c: QColor) -> bool:
    return c.blue() > c.red() + 60 and c.blue() > c.green() + 20


def baseline(frag) -> float:
    return (frag.y + frag.para.lines[frag.first_line].y + frag.para.layout.lineAt(frag.first_line).ascent()) * ZOOM


def test_moved_text_is_green_with_double_lines_and_an_insertion_is_not(qtbot, view, tmp_path):
    rev = DocxReviewer.open(moved_document(tmp_path))
    layout = shown(view, rev)
    image = view.render_page(1, ZOOM)
    _page, inserted = fragment_with(layout, "Alpha")
    _page, arrived = fragment_with(layout, "Beta")
    _page, left = fragment_with(layout, "Delta")

    # the ordinary insertion: one underline, in its author's colour (not the moves' green)
    assert len(bands(image, inserted, "inserted", len("inserted"), bluish)) == 1
    assert bands(image, inserted, "inserted", len("inserted"), greenish) == []
    # the text the move brought: two green lines, both under the baseline
    under = bands(image, arrived, "moved", len("moved"), greenish)
    assert len(under) == 2, under
    assert all(a > baseline(arrived) for a, _b in under)
    # the text the move took away: two green lines through the letters, above the baseline
    through = bands(image, left, "moved", len("moved"), greenish)
    assert len(through) == 2, through
    assert all(b < baseline(left) for _a, b in through)
    # the words themselves are drawn green
    word = arrived.para.text.index("moved")
    colour = next(fr.format.foreground().color() for fr in arrived.para.layout.formats()
                  if fr.start <= word < fr.start + fr.length)
    assert colour == GREEN


def test_a_moved_label_sits_beside_each_half(qtbot, view, tmp_path):
    rev = DocxReviewer.open(moved_document(tmp_path))
    layout = shown(view, rev)
    page, arrived = fragment_with(layout, "Beta")
    _page, left = fragment_with(layout, "Delta")
    labels = [b for b in view.marks.balloons(page) if b.move]
    assert [b.move for b in labels] == ["Moved (insertion) [1]", "Moved up [1]"]
    for balloon, frag in zip(labels, (arrived, left), strict=True):
        assert page.width < balloon.rect.left()  # in the markup area right of the page
        # level with the line of its half, its leader running on from where the moved words end
        assert frag.top <= balloon.anchor.y() <= frag.bottom + 0.5
        end = frag.para.text.index("moved words") + len("moved words")
        x = frag.x + frag.para.x + cursor_x(frag.para.layout.lineAt(frag.first_line), end)
        assert balloon.anchor.x() == pytest.approx(x, abs=0.5)
    # painted: the label's green fill beside the page (the markup area shows though there is no comment)
    from folio_desktop.ui.pages.balloons import MOVE_FILL
    image = view.render_page(1, ZOOM)
    assert image.width() > page.width * ZOOM
    for balloon in labels:
        inside = balloon.rect.topLeft() + (balloon.rect.bottomRight() - balloon.rect.topLeft()) * 0.95
        assert QColor(image.pixel(round(inside.x() * ZOOM), round(inside.y() * ZOOM))) == MOVE_FILL


def test_a_move_word_made_is_labelled_by_the_way_it_went(qtbot, view):
    rev = DocxReviewer.open(PANDOC_MOVE)
    layout = shown(view, rev)
    labels = [b.move for b in view.marks.balloons(layout.pages[0]) if b.move]
    assert labels == ["Moved (insertion) [1]", "Moved up [1]"]
    arrived = next(f for f in layout.pages[0].body_fragments() if f.para.double_lines)
    assert [kind for _a, _b, kind, _cf in arrived.para.double_lines] == ["underline"]


@pytest.mark.parametrize("markup, kept, gone", [("none", "Beta moved words end.", "Delta moved words"),
                                                ("original", "Delta moved words end.", "Beta moved words")])
def test_no_markup_and_original_show_the_move_accepted_or_rejected(qtbot, view, tmp_path, markup, kept, gone):
    rev = DocxReviewer.open(moved_document(tmp_path))
    layout = shown(view, rev, markup)
    page = layout.pages[0]
    texts = [f.para.text for f in page.body_fragments()]
    assert kept in texts and not any(t.startswith(gone) for t in texts)
    assert not any(f.para.double_lines for f in page.body_fragments())
    assert view.marks.balloons(page) == [] and view.marks.markup_width(page.view) == 0
