"""The Track Changes switch (issue 13, point 2): Review > Track Changes and Ctrl+Shift+E, on by default
and shown in the status bar. Off, the lawyer's own edits change the text directly; Claude's edits
are tracked whatever the switch says.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from typing_helpers import LAWYER, SAMPLE, changes_of, click_at, desk, rejected_text, save_and_reopen, text_of

DEFINITION = "2062A4BC"
PURPOSE = "2D0F52ED"
MEANS = len("“Confidential Information” means")


def menu_action(window, menu: str, text: str):
    bar = window.menuBar()
    top = next(a.menu() for a in bar.actions() if a.text().replace("&", "") == menu)
    return next(a for a in top.actions() if a.text().replace("&", "") == text)


def test_track_changes_is_on_by_default_and_shown_in_the_status_bar(qtbot, tmp_path):
    window = desk(qtbot, tmp_path)
    action = menu_action(window, "Review", "Track Changes")
    assert action is window.track_changes_action and action.isCheckable() and action.isChecked()
    assert [s.toString() for s in action.shortcuts()] == ["Ctrl+Shift+E"]
    assert window.indicators.track_button.text() == "Track Changes: On"
    assert window.review_actions.track_changes


def test_off_the_lawyers_typing_changes_the_text_directly(qtbot, tmp_path):
    window = desk(qtbot, tmp_path)
    view = window.view
    before = text_of(window, DEFINITION)
    qtbot.keyClick(view.viewport(), Qt.Key_E, Qt.ControlModifier | Qt.ShiftModifier)
    assert not window.track_changes_action.isChecked() and not window.review_actions.track_changes
    assert window.indicators.track_button.text() == "Track Changes: Off"
    assert "Track Changes is off" in window.statusBar().currentMessage()
    click_at(qtbot, view, DEFINITION, MEANS)
    qtbot.keyClicks(view.viewport(), " only")
    qtbot.keyClick(view.viewport(), Qt.Key_Backspace)
    qtbot.keyClick(view.viewport(), Qt.Key_Return)
    assert text_of(window, DEFINITION) == before[:MEANS] + " onl"
    assert changes_of(window.reviewer, DEFINITION) == []
    assert [c.author for c in window.reviewer.get_changes()] == ["Harbour Legal", "Harbour Legal"]
    reopened, path = save_and_reopen(window, tmp_path)
    assert reopened.snapshot().block(DEFINITION).text == before[:MEANS] + " onl"
    assert rejected_text(path) != rejected_text(SAMPLE)  # direct edits are not there to reject
    # undo takes a direct edit back as it does a tracked one
    qtbot.keyClick(view.viewport(), Qt.Key_Z, Qt.ControlModifier)
    qtbot.keyClick(view.viewport(), Qt.Key_Z, Qt.ControlModifier)
    assert text_of(window, DEFINITION) == before[:MEANS] + " only" + before[MEANS:]


def test_clicking_the_status_bar_indicator_turns_it_back_on(qtbot, tmp_path):
    window = desk(qtbot, tmp_path)
    label = window.indicators.track_button
    qtbot.mouseClick(label, Qt.LeftButton)
    assert not window.track_changes_action.isChecked() and label.text() == "Track Changes: Off"
    qtbot.mouseClick(label, Qt.LeftButton)
    assert window.track_changes_action.isChecked() and label.text() == "Track Changes: On"
    view = window.view
    click_at(qtbot, view, PURPOSE, 3)
    qtbot.keyClicks(view.viewport(), "X")
    assert changes_of(window.reviewer, PURPOSE) == [("insertion", "X", LAWYER)]


def test_the_paragraph_dialogs_follow_the_switch(qtbot, tmp_path):
    window = desk(qtbot, tmp_path)
    window.commands.set_track_changes(False)
    click_at(qtbot, window.view, PURPOSE, 0)
    window.commands.ask_text = lambda *a, **k: "The Purpose is a supply relationship."
    assert window.commands.edit_paragraph()
    assert text_of(window, PURPOSE) == "The Purpose is a supply relationship."
    assert changes_of(window.reviewer, PURPOSE) == []
    assert window.statusBar().currentMessage() == "Edited the paragraph directly: Track Changes is off."


def test_claudes_edits_stay_tracked_with_the_switch_off(qtbot, tmp_path):
    window = desk(qtbot, tmp_path)
    window.commands.set_track_changes(False)
    text = text_of(window, PURPOSE)
    result = window.bridge.apply_document_operations({"version": 1, "operations": [
        {"type": "replaceInBlock", "blockId": PURPOSE, "find": "possible", "replace": "prospective"}]})
    assert result["applied"]
    assert changes_of(window.reviewer, PURPOSE) == [("deletion", "possible", "Claude"),
                                                    ("insertion", "prospective", "Claude")]
    assert text_of(window, PURPOSE) == text.replace("possible", "prospective")
