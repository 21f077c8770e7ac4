"""FindBar (folio_desktop/ui/panels/find_bar.py): counts as the engine's find_text does, match case and
whole words, highlights every hit in the page view, steps (and wraps) with the hit selected."""

from __future__ import annotations

import pytest
from conftest import CORPUS
from PySide6.QtCore import Qt

from folio_desktop.docx import DocxReviewer
from folio_desktop.layout import layout_document
from folio_desktop.ui.pages.view import PageView
from folio_desktop.ui.panels.find_bar import FindBar, find_hits

NVCA = CORPUS / "contract_nvca_stock_purchase_agreement_27p.docx"
PILOT = CORPUS / "contract_commonpaper_pilot_agreement.docx"
EIGENPAL = CORPUS / "eigenpal_docxjs_editor_demo.docx"


@pytest.fixture(scope="module")
def pilot(qapp):
    rev = DocxReviewer.open(PILOT)
    return rev, layout_document(rev.document)


@pytest.fixture
def shown(qtbot, pilot):
    """A view showing the pilot agreement with a find bar attached to it."""
    rev, layout = pilot
    view = PageView()
    view.smooth_scrolling = False
    view.resize(900, 700)
    bar = FindBar()
    for widget in (view, bar):
        qtbot.addWidget(widget)
        widget.show()
    qtbot.waitExposed(view)
    view.set_layout(layout, rev)
    bar.attach(view, rev)
    return rev, layout, view, bar


def highlighted(view) -> int:
    return sum(len(spans) for spans in view._highlights.values())


def hit_text(rev, hit) -> str:
    block_id, start, end = hit
    return rev.snapshot().block(block_id).text[start:end]


def test_counts_match_the_engine_with_match_case_and_whole_word(qtbot, shown):
    rev, _layout, view, bar = shown
    bar.open()
    assert bar.field.hasFocus()
    qtbot.keyClicks(bar.field, "the")
    total = rev.find_text("the").total
    assert total > 200  # more than find_text returns matches for: the bar still has them all
    assert len(bar.hits) == highlighted(view) == total
    assert bar.count_label.text() == f"1 of {total}"
    bar.match_case.setChecked(True)
    assert len(bar.hits) == highlighted(view) == rev.find_text("the", match_case=True).total < total
    bar.field.setText("The")
    assert len(bar.hits) == rev.find_text("The", match_case=True).total == 20
    assert all(hit_text(rev, h) == "The" for h in bar.hits)
    bar.match_case.setChecked(False)
    bar.field.setText("use")
    assert len(bar.hits) == rev.find_text("use").total
    bar.whole_word.setChecked(True)
    assert len(bar.hits) == rev.find_text("use", whole_word=True).total < rev.find_text("use").total
    bar.field.setText("no such words here")
    assert bar.hits == [] and highlighted(view) == 0 and bar.count_label.text() == "No matches"
    assert not bar.find_next()
    bar.field.clear()
    assert bar.count_label.text() == ""


def test_next_and_previous_cycle_with_the_hit_selected_and_its_page_shown(qtbot, shown):
    rev, layout, view, bar = shown
    bar.open("Agreement")
    n = rev.find_text("Agreement").total
    hits = find_hits(rev, "Agreement")
    assert bar.hits == hits and n == len(hits) > 10
    assert [(m["blockId"], m["range"]["startOffset"]) for m in rev.find_text("Agreement").matches] == \
        [(b, s) for b, s, _e in hits]  # the pilot is plain text: UTF-16 and str offsets agree
    assert bar.current == 0 and view.selection.selection_text() == "Agreement"
    for k in range(1, n):
        assert bar.find_next()
        block_id, start, end = hits[k]
        assert bar.count_label.text() == f"{k + 1} of {n}"
        assert view.selection.selection_text() == hit_text(rev, hits[k])
        assert view.current_page() == layout.page_of(block_id, start)
    assert bar.find_next() and bar.count_label.text() == f"1 of {n}"  # wraps to the first
    assert bar.find_previous() and bar.count_label.text() == f"{n} of {n}"  # and back to the last


def test_enter_shift_enter_and_escape(qtbot, shown):
    _rev, _layout, view, bar = shown
    bar.open("Customer")
    n = len(bar.hits)
    qtbot.keyClick(bar.field, Qt.Key_Return)
    qtbot.keyClick(bar.field, Qt.Key_Enter)
    assert bar.count_label.text() == f"3 of {n}"
    qtbot.keyClick(bar.field, Qt.Key_Return, Qt.ShiftModifier)
    assert bar.count_label.text() == f"2 of {n}"
    assert view.selection.selection_text() == "Customer"
    with qtbot.waitSignal(bar.closed, timeout=1000):
        qtbot.keyClick(bar.field, Qt.Key_Escape)
    assert not bar.isVisible() and highlighted(view) == 0
    bar.open("Customer")  # the same text again: searched and highlighted again
    assert bar.isVisible() and len(bar.hits) == highlighted(view) == n
    assert bar.count_label.text() == f"1 of {n}"


def test_a_later_edit_is_searched_again_before_the_next_step(qtbot):
    rev = DocxReviewer.open(EIGENPAL, author="Lawyer")
    view = PageView()
    bar = FindBar()
    qtbot.addWidget(view)
    qtbot.addWidget(bar)
    view.set_layout(layout_document(rev.document), rev)
    bar.attach(view, rev)
    bar.show()
    bar.field.setText("backend")
    before = len(bar.hits)
    assert before == rev.find_text("backend").total >= 1
    block_id = bar.hits[0][0]
    result = rev.apply_document_operations({"version": 1, "operations": [
        {"type": "insertAfterBlock", "blockId": block_id, "text": "A backend, then another backend."}]})
    assert result["applied"]
    view.set_layout(layout_document(rev.document), rev)
    assert bar.find_next()
    assert len(bar.hits) == before + 2 == highlighted(view)
    # the step continues after the hit shown before the edit, into the new paragraph
    assert bar.current == 1 and hit_text(rev, bar.hits[1]) == "backend"
    assert view.selection.selection_text() == "backend"


def test_hits_in_a_paragraph_continued_on_the_next_page(qtbot):
    rev = DocxReviewer.open(NVCA)
    layout = layout_document(rev.document)
    view = PageView()
    view.smooth_scrolling = False
    view.resize(900, 700)
    bar = FindBar()
    qtbot.addWidget(view)
    qtbot.addWidget(bar)
    view.show()
    view.set_layout(layout, rev)
    bar.attach(view, rev)
    block_id, (first, second) = next((b.id, layout.fragments_of(b.id)) for b in rev.snapshot().blocks
                                     if len(layout.fragments_of(b.id)) == 2)
    split = second[1].accepted_range[0]
    text = rev.snapshot().block(block_id).text
    for query, start in ((text[split - 12:split + 12], split - 12), (text[split + 5:split + 25], split + 5)):
        bar.open(query)
        for _ in range(len(bar.hits)):
            if bar.hits[bar.current][:2] == (block_id, start):
                break
            bar.find_next()
        assert bar.hits[bar.current][:2] == (block_id, start)
        assert view.selection.selection_text() == query
        assert view.current_page() == layout.page_of(block_id, start)
        # the selection is painted on the page each end lies on
        pages = [view.flow.entries[pos.index][0] for pos in (view.selection.anchor, view.selection.caret)]
        assert pages == [layout.page_of(block_id, start), layout.page_of(block_id, start + len(query) - 1)]
    assert view.current_page() == second[0] == first[0] + 1
