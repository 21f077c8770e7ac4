"""Navigation and status (issue 13, point 6): "Page X of Y", the zoom and Track Changes in the status
bar; Go to page (Ctrl+G); Ctrl+Home / Ctrl+End and Home / End as in Word, also while a long
document is still being laid out.
"""

from __future__ import annotations

from conftest import CORPUS
from PySide6.QtCore import Qt
from typing_helpers import click_at, desk

PILOT = CORPUS / "contract_commonpaper_pilot_agreement.docx"
ILPA = CORPUS / "contract_ilpa_model_lpa_whole_of_fund_75p.docx"


def status(qtbot, window) -> str:
    window.indicators.refresh()
    return window.indicators.page_button.text()


def body_block_on(view, number: int) -> str:
    return next(f.block_id for f in view.pages[number - 1].body_fragments() if f.block_id and f.first_line == 0
                and len(f.para.text) > 80)


def test_page_x_of_y_follows_the_caret_and_the_scroll(qtbot, tmp_path):
    window = desk(qtbot, tmp_path, PILOT)
    view = window.view
    total = len(view.pages)
    assert total == 5 and status(qtbot, window) == f"Page 1 of {total}"
    view.scroll_to_page(3)
    qtbot.waitUntil(lambda: window.indicators.page_button.text() == f"Page 3 of {total}", timeout=2_000)
    click_at(qtbot, view, body_block_on(view, 4), 0)
    assert status(qtbot, window) == f"Page 4 of {total}"  # the caret's page while it is on screen
    view.scroll_to_page(2)
    assert status(qtbot, window) == f"Page 2 of {total}"  # scrolled away from it: the page on screen
    assert window.indicators.zoom_label.text() == "125%"
    qtbot.keyClick(view.viewport(), Qt.Key_Minus, Qt.ControlModifier)
    qtbot.waitUntil(lambda: window.indicators.zoom_label.text() == "110%", timeout=2_000)
    assert window.indicators.track_button.text() == "Track Changes: On"


def test_go_to_page_with_ctrl_g(qtbot, tmp_path):
    window = desk(qtbot, tmp_path, PILOT)
    view = window.view
    asked = []
    window.commands.ask_page_number = lambda count, current: asked.append((count, current)) or 4
    qtbot.keyClick(view.viewport(), Qt.Key_G, Qt.ControlModifier)
    assert asked == [(5, 1)]
    assert view.selection.caret_page() == 4 and view.current_page() == 4
    first = next(f for f in view.pages[3].body_fragments())
    assert view.selection.caret_mark().block_id == first.block_id
    assert status(qtbot, window) == "Page 4 of 5"
    at = view.selection.caret_mark().offset
    assert at == first.accepted_range[0]  # the page's first text (a paragraph may run on from page 3)
    qtbot.keyClicks(view.viewport(), "Q")  # the caret is a real one: typing goes there
    assert window.reviewer.snapshot().block(first.block_id).text[at] == "Q"
    assert [s.toString() for s in window.find_next_action.shortcuts()] == ["F3"]  # Ctrl+G is Go to, as in Word
    assert not window.commands.go_to_page(9) and "There is no page 9" in window.statusBar().currentMessage()
    window.commands.ask_page_number = lambda count, current: None  # cancelled
    assert not window.commands.go_to_page_dialog() and view.selection.caret_page() == 4


def test_home_and_end_stay_on_the_line_and_ctrl_end_goes_to_the_very_end(qtbot, tmp_path):
    window = desk(qtbot, tmp_path, ILPA)
    view = window.view
    block = body_block_on(view, 2)
    click_at(qtbot, view, block, 0)
    number, line_top = view.selection.caret_page(), view.flow.caret_rect(view.selection.caret)[1].top()
    qtbot.keyClick(view.viewport(), Qt.Key_End)
    assert view.selection.caret_page() == number and view.flow.caret_rect(view.selection.caret)[1].top() == line_top
    assert 0 < view.selection.caret_mark().offset < len(window.reviewer.snapshot().block(block).text)
    qtbot.keyClick(view.viewport(), Qt.Key_Home)
    assert view.selection.caret_mark().offset == 0
    # Ctrl+End while the document is laid out again from the start: the last page, not the last laid out
    view.relayout()
    assert view.is_laying_out and len(view.pages) < 75
    qtbot.keyClick(view.viewport(), Qt.Key_End, Qt.ControlModifier)
    assert not view.is_laying_out and len(view.pages) == 75
    last = window.reviewer.snapshot().blocks[-1]
    assert view.selection.caret_mark().block_id == last.id and view.selection.caret_mark().offset == len(last.text)
    assert view.selection.caret_page() == 75 and view.current_page() >= 74
    assert status(qtbot, window) == "Page 75 of 75"
    qtbot.keyClick(view.viewport(), Qt.Key_Home, Qt.ControlModifier)
    assert view.selection.caret_page() == 1 and view.verticalScrollBar().value() < view.page_rect(2).top() + \
        view.verticalScrollBar().value()


def test_page_count_says_when_layout_is_still_running(qtbot, tmp_path):
    window = desk(qtbot, tmp_path, ILPA)
    window.view.relayout()
    qtbot.waitUntil(lambda: len(window.view.pages) > 0, timeout=5_000)
    assert window.view.is_laying_out
    text = status(qtbot, window)
    assert text.startswith("Page ") and text.endswith("…")
    qtbot.waitUntil(lambda: not window.view.is_laying_out, timeout=20_000)
    assert status(qtbot, window).endswith("of 75")
