"""F6 / Shift+F6 and Ctrl+Tab / Ctrl+Shift+Tab move the keyboard between the window's panes (the find
bar when open, the pages, the outline, the changes, the comments, the checks, Claude), skipping closed docks and
raising a tabbed one; leaving the pages that way types nothing; text typed after F6 lands in the
pane reached, never in the contract; the pane with the keyboard is always marked on screen."""

from __future__ import annotations

import pytest
from key_helpers import body, no_blocking_dialogs, press, review_window
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication

from folio_desktop.ui.pages.painter import FOCUS_FRAME


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    no_blocking_dialogs(monkeypatch)
    return review_window(qtbot, tmp_path)


def focus():
    return QApplication.focusWidget()


def test_f6_and_shift_f6_go_round_the_panes_in_order(qtbot, window):
    ring = [window.view, window.outline.tree, window.changes.list, window.comments.tree, window.checks.tree,
            window.chat.composer]
    for step in range(len(ring)):
        press(focus(), Qt.Key_F6)
        assert focus() is ring[(step + 1) % len(ring)], step
    assert focus() is window.view
    for step in range(len(ring)):
        press(focus(), Qt.Key_F6, Qt.ShiftModifier)
        assert focus() is ring[-(step + 1)], step
    # the comments dock is tabbed behind the changes: reaching it brings its tab to the front
    window.changes_dock.raise_()
    window.view.setFocus()
    for _ in range(3):
        press(focus(), Qt.Key_F6)
    assert focus() is window.comments.tree and not window.comments.visibleRegion().isEmpty()


def test_closed_docks_are_skipped_and_the_open_find_bar_is_a_pane(qtbot, window):
    window.outline_dock.hide()
    window.dock.hide()  # Claude
    window.find_bar.open()
    window.view.setFocus()
    seen = []
    for _ in range(5):
        press(focus(), Qt.Key_F6)
        seen.append(focus())
    assert seen == [window.changes.list, window.comments.tree, window.checks.tree, window.find_bar.field, window.view]


def test_ctrl_tab_leaves_the_pages_without_typing(qtbot, window):
    view, reviewer = window.view, window.reviewer
    view.selection.select_range("6A4E1EB8", 10, 14)  # typing would replace "word"
    version = reviewer.document.version
    press(view, Qt.Key_Tab, Qt.ControlModifier, "\t")
    assert focus() is window.outline.tree
    press(view, Qt.Key_Backtab, Qt.ControlModifier | Qt.ShiftModifier, "")
    assert focus() is window.chat.composer
    press(view, Qt.Key_Tab, Qt.ControlModifier | Qt.ShiftModifier, "")  # as some keyboards report it
    assert focus() is window.chat.composer
    assert reviewer.document.version == version


def test_text_typed_after_f6_goes_to_the_pane_not_the_contract(qtbot, window):
    # issue 25: after F6 or Ctrl+Tab, text typed to reach a panel landed in the contract
    view, reviewer = window.view, window.reviewer
    view.selection.select_range("6A4E1EB8", 10, 14)
    before = body(reviewer)
    press(view, Qt.Key_F6, Qt.ShiftModifier)  # the pages -> Claude's composer
    qtbot.keyClicks(focus(), "hello")
    assert window.chat.composer.toPlainText() == "hello"
    press(focus(), Qt.Key_F6)  # back to the pages, then on to the outline: a letter finds a heading there
    press(focus(), Qt.Key_F6)
    press(focus(), Qt.Key_W, Qt.NoModifier, "w")
    view.setFocus()
    press(view, Qt.Key_Tab, Qt.ControlModifier, "\t")
    press(focus(), Qt.Key_T, Qt.NoModifier, "t")
    assert body(reviewer) == before


def test_the_pane_with_the_keyboard_shows(qtbot, window):
    view = window.view
    view.setFocus()
    qtbot.waitUntil(view.hasFocus)
    edge = QPoint(1, view.viewport().height() // 2)
    assert view.viewport().grab().toImage().pixelColor(edge) == FOCUS_FRAME  # a frame round the pages
    assert not any(d.property("activePane") for d in (window.outline_dock, window.changes_dock, window.dock))
    press(view, Qt.Key_F6)
    assert view.viewport().grab().toImage().pixelColor(edge) != FOCUS_FRAME
    assert window.outline_dock.property("activePane") is True  # its title bar is marked
    press(focus(), Qt.Key_F6, Qt.ShiftModifier)
    assert window.outline_dock.property("activePane") is False
    assert view.viewport().grab().toImage().pixelColor(edge) == FOCUS_FRAME
