"""ChangesPanel (folio_desktop/ui/changes_panel.py): the census as rows, author and type filters,
next/previous, and accept/reject requests; the panel itself never changes the document."""

from __future__ import annotations

import pytest
from conftest import CORPUS
from PySide6.QtCore import QDate, QDateTime, QLocale, Qt, QTime, QTimeZone

from folio_desktop.docx import DocxReviewer
from folio_desktop.ui.changes_panel import TYPE_LABELS, ChangesPanel, short_date

EIGENPAL = CORPUS / "eigenpal_docxjs_editor_demo.docx"
NOTES = CORPUS / "openxmlsdk_comment042_tracked_pPr_rPr_changes_notes.docx"
CSA = CORPUS / "contract_commonpaper_csa_with_ai_gdocs.docx"


@pytest.fixture
def reviewer():
    return DocxReviewer.open(EIGENPAL)


@pytest.fixture
def panel(qtbot, reviewer):
    p = ChangesPanel()
    p.resize(700, 500)
    qtbot.addWidget(p)
    p.show()
    qtbot.waitExposed(p)
    p.set_document(reviewer)
    return p


def rows(panel):
    return [panel.list.topLevelItem(i) for i in range(panel.list.topLevelItemCount())]


def choose(combo, text):
    index = combo.findText(text)
    assert index >= 0, f"{text!r} is not offered"
    combo.setCurrentIndex(index)


def click_row(qtbot, panel, item, modifier=Qt.NoModifier):
    rect = panel.list.visualItemRect(item)
    qtbot.mouseClick(panel.list.viewport(), Qt.LeftButton, modifier, rect.center())


def test_lists_every_change_of_the_census_with_type_author_date_and_text(panel, reviewer):
    changes = reviewer.get_changes()
    assert len(changes) == 6
    assert [(r.data(0, Qt.UserRole), r.text(0), r.text(1), r.text(3)) for r in rows(panel)] == [
        (c.id, TYPE_LABELS[c.type], c.author, c.text) for c in changes]
    assert panel.visible_change_ids() == [10, 11, 12, 13, 14, 15]
    assert all(r.text(2) and "T" not in r.text(2) for r in rows(panel))  # a local short date, not ISO
    assert panel.count_label.text() == "6 changes"
    offered = [panel.author_filter.itemText(i) for i in range(panel.author_filter.count())]
    assert offered == ["All authors", "anon-contributor", "sara.k", "thomas.v"]
    kinds = [panel.type_filter.itemText(i) for i in range(panel.type_filter.count())]
    assert kinds == ["All types", "Inserted", "Deleted"]


def test_dates_are_converted_from_utc_to_local_short_form():
    moment = QDateTime(QDate(2026, 3, 4), QTime(9, 21), QTimeZone.utc()).toLocalTime()
    assert short_date("2026-03-04T09:21:00Z") == QLocale().toString(moment, QLocale.ShortFormat)
    assert short_date(None) == ""
    assert short_date("not a date") == "not a date"


def test_filters_by_author_and_type_narrow_the_list(panel, reviewer):
    choose(panel.author_filter, "thomas.v")
    assert panel.visible_change_ids() == [c.id for c in reviewer.get_changes(author="thomas.v")] == [12, 13]
    assert panel.count_label.text() == "2 of 6 changes shown"
    choose(panel.type_filter, "Deleted")
    assert panel.visible_change_ids() == [12]
    choose(panel.author_filter, "All authors")
    assert panel.visible_change_ids() == [c.id for c in reviewer.get_changes(type="deletion")] == [10, 12, 14]
    choose(panel.type_filter, "All types")
    assert panel.visible_change_ids() == [10, 11, 12, 13, 14, 15]


def test_next_and_previous_walk_the_visible_changes_in_document_order_and_wrap(qtbot, panel):
    seen = []
    panel.changeActivated.connect(seen.append)
    assert [panel.next_change() for _ in range(7)] == [10, 11, 12, 13, 14, 15, 10]
    assert seen == [10, 11, 12, 13, 14, 15, 10]
    assert panel.selected_change_ids() == [10]
    assert panel.previous_change() == 15
    choose(panel.type_filter, "Inserted")
    assert [panel.next_change() for _ in range(3)] == [11, 13, 15]
    assert panel.previous_change() == 13


def test_select_change_follows_the_view_without_emitting(qtbot, panel):
    with qtbot.assertNotEmitted(panel.changeActivated):
        panel.select_change(13)
        assert panel.selected_change_ids() == [13]
        choose(panel.author_filter, "sara.k")  # 13 is thomas.v's: filtered out of the selection
        assert panel.selected_change_ids() == []
        panel.select_change(13)
        assert panel.selected_change_ids() == []
        panel.select_change(11)
        assert panel.selected_change_ids() == [11]
        panel.select_change(None)
        assert panel.selected_change_ids() == []


def test_click_activates_up_down_move_and_enter_activates(qtbot, panel):
    items = rows(panel)
    with qtbot.waitSignal(panel.changeActivated, timeout=1000) as blocker:
        click_row(qtbot, panel, items[2])
    assert blocker.args == [12]
    with qtbot.assertNotEmitted(panel.changeActivated):
        qtbot.keyClick(panel.list, Qt.Key_Down)
    assert panel.selected_change_ids() == [13]
    with qtbot.waitSignal(panel.changeActivated, timeout=1000) as blocker:
        qtbot.keyClick(panel.list, Qt.Key_Return)
    assert blocker.args == [13]


def test_accept_and_reject_buttons_request_the_selection_or_all_visible_and_change_nothing(qtbot, panel, reviewer):
    assert not panel.accept_button.isEnabled() and not panel.reject_button.isEnabled()
    items = rows(panel)
    click_row(qtbot, panel, items[1])
    click_row(qtbot, panel, items[3], Qt.ControlModifier)
    assert panel.selected_change_ids() == [11, 13]
    assert panel.accept_button.isEnabled()
    with qtbot.waitSignal(panel.acceptRequested, timeout=1000) as blocker:
        qtbot.mouseClick(panel.accept_button, Qt.LeftButton)
    assert blocker.args == [[11, 13]]
    with qtbot.waitSignal(panel.rejectRequested, timeout=1000) as blocker:
        qtbot.mouseClick(panel.reject_button, Qt.LeftButton)
    assert blocker.args == [[11, 13]]
    choose(panel.author_filter, "anon-contributor")
    with qtbot.waitSignal(panel.acceptRequested, timeout=1000) as blocker:
        qtbot.mouseClick(panel.accept_all_button, Qt.LeftButton)
    assert blocker.args == [[14, 15]]
    with qtbot.waitSignal(panel.rejectRequested, timeout=1000) as blocker:
        qtbot.mouseClick(panel.reject_all_button, Qt.LeftButton)
    assert blocker.args == [[14, 15]]
    assert len(reviewer.get_changes()) == 6  # the window, not the panel, resolves changes


def test_refresh_after_the_window_resolved_changes_keeps_filters_and_selection(qtbot, panel, reviewer):
    choose(panel.type_filter, "Inserted")
    panel.select_change(13)
    assert reviewer.accept_change(11) and reviewer.reject_change(10)
    panel.refresh()
    assert len(rows(panel)) == 4
    assert panel.type_filter.currentText() == "Inserted"
    assert panel.visible_change_ids() == [13, 15]
    assert panel.selected_change_ids() == [13]
    assert reviewer.accept_all() == 4
    panel.refresh()
    assert panel.visible_change_ids() == [] and panel.count_label.text() == "No tracked changes"
    assert not panel.accept_all_button.isEnabled()
    assert panel.next_change() is None


def test_changes_outside_the_body_and_shared_revision_ids(qtbot):
    panel = ChangesPanel()
    qtbot.addWidget(panel)
    notes = DocxReviewer.open(NOTES)
    panel.set_document(notes)
    stories = {c.story.split(":")[0] for c in notes.get_changes()}
    assert {"footnote", "header"} <= stories
    assert any(r.text(0).endswith("(footnote)") for r in rows(panel))
    # one revision id over several table rows: one row each, but each id once in the id lists
    csa = DocxReviewer.open(CSA)
    panel.set_document(csa)
    changes = csa.get_changes()
    assert len(rows(panel)) == len(changes) > len({c.id for c in changes})
    assert panel.visible_change_ids() == list(dict.fromkeys(c.id for c in changes))
