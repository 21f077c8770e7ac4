"""ChangesPanel (folio_desktop/ui/panels/changes.py), the reviewing pane: one row per decision with its
clause number, author and whole text (expandable), filters with counts, next/previous, accept and
reject requests, and "Accept / Reject and Move to Next" in the review window, driven with real
mouse and key events on real documents."""

from __future__ import annotations

import docx as python_docx
import pytest
from chat_helpers import open_window
from conftest import CORPUS
from docbuilder import build_docx
from PySide6.QtCore import QDate, QDateTime, QLocale, QPoint, Qt, QTime, QTimeZone
from PySide6.QtWidgets import QApplication

from folio_desktop.docx import DocxReviewer
from folio_desktop.ui.panels.changes import ChangesPanel
from folio_desktop.ui.wording import short_date

EIGENPAL = CORPUS / "eigenpal_docxjs_editor_demo.docx"
NOTES = CORPUS / "openxmlsdk_comment042_tracked_pPr_rPr_changes_notes.docx"
CSA = CORPUS / "contract_commonpaper_csa_with_ai_gdocs.docx"
RA001 = CORPUS / "powertools_RA001_tracked_revisions_moves.docx"


@pytest.fixture
def reviewer():
    return DocxReviewer.open(EIGENPAL)


def make_panel(qtbot, reviewer, width=340):
    p = ChangesPanel()
    p.resize(width, 560)
    qtbot.addWidget(p)
    p.show()
    qtbot.waitExposed(p)
    p.set_document(reviewer)
    return p


@pytest.fixture
def panel(qtbot, reviewer):
    return make_panel(qtbot, reviewer)


def items(panel):
    return [panel.list.topLevelItem(i) for i in range(panel.list.topLevelItemCount())]


def titles(panel):
    return [row.title for row in panel.visible_rows()]


def choose(combo, text):
    index = combo.findText(text)
    assert index >= 0, f"{text!r} is not offered in {[combo.itemText(i) for i in range(combo.count())]}"
    combo.setCurrentIndex(index)


def click_row(qtbot, panel, item, modifier=Qt.NoModifier):
    rect = panel.list.visualItemRect(item)
    qtbot.mouseClick(panel.list.viewport(), Qt.LeftButton, modifier, rect.center())


def press(qtbot, window, key, modifiers=Qt.NoModifier):
    """A shortcut typed at the window (shortcuts reach the active window only)."""
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=2_000)
    qtbot.keyClick(window, key, modifiers)


# -- the rows ---------------------------------------------------------------------------------------


def test_rows_say_what_happened_who_did_it_and_the_text(panel, reviewer):
    changes = reviewer.get_changes()
    assert len(changes) == 6 and len(panel.rows) == 6
    assert [(r.ids, r.title, r.author, r.text) for r in panel.rows] == [
        ([c.id], "Deleted" if c.type == "deletion" else "Inserted", c.author, c.text) for c in changes]
    assert panel.visible_change_ids() == [10, 11, 12, 13, 14, 15]
    assert panel.count_label.text() == ("6 changes: 3 insertions, 3 deletions\n"
                                        "By author: anon-contributor 2, sara.k 2, thomas.v 2")
    offered = [panel.author_filter.itemText(i) for i in range(panel.author_filter.count())]
    assert offered == ["All authors", "anon-contributor", "sara.k", "thomas.v"]
    kinds = [panel.type_filter.itemText(i) for i in range(panel.type_filter.count())]
    assert kinds == ["All types", "Insertions", "Deletions"]
    assert panel.type_filter.itemData(1, Qt.ToolTipRole) == "3 of 6"


@pytest.mark.parametrize(("locale", "form"), [("en_GB", "d MMM yyyy, HH:mm"), ("en_US", "MMM d, yyyy, h:mm AP"),
                                               ("C", "d MMM yyyy, HH:mm")])
def test_dates_are_converted_from_utc_to_local_time_with_the_month_named(locale, form):
    moment = QDateTime(QDate(2026, 3, 4), QTime(9, 21), QTimeZone.utc()).toLocalTime()
    before = QLocale()
    QLocale.setDefault(QLocale(locale))
    try:  # "4 Mar 2026, 09:21" in Britain, "Mar 4, 2026, 9:21 AM" in the United States; never "4 03 2026"
        assert short_date("2026-03-04T09:21:00Z").replace("\u202f", " ") == moment.toString(form)
    finally:
        QLocale.setDefault(before)
    assert short_date(None) == ""
    assert short_date("not a date") == "not a date"


def test_ra001_is_56_decisions_not_214_marks_with_counts_by_type_and_author(qtbot):
    ra001 = DocxReviewer.open(RA001)
    # (its table grid revision, no author, records the grid the table has: not a change to review)
    assert len(ra001.get_changes()) == 214
    panel = make_panel(qtbot, ra001)
    assert len(panel.rows) == 56
    assert panel.count_label.text() == ("56 changes: 7 insertions, 5 deletions, 1 move, 6 formatting changes, "
                                        "33 paragraph breaks, 4 table changes")
    assert not any(r.title.startswith("Paragraph break") and not r.text.strip() for r in panel.rows)
    choose(panel.type_filter, "Moves")
    assert titles(panel) == ["Moved"] and len(panel.visible_change_ids()) == 16
    assert panel.count_label.text().startswith("1 of 56 changes shown")


def test_the_whole_text_opens_under_its_row_and_keys_step_over_it(qtbot, panel):
    long_row = items(panel)[4]
    text = panel.rows[4].text
    assert text == "Do not introduce intermediate HTML serialisation. This is a hard constraint."
    one_line = panel.list.visualItemRect(long_row).height()
    click_row(qtbot, panel, long_row)
    assert not long_row.isExpanded()
    qtbot.keyClick(panel.list, Qt.Key_Right)  # opens the whole text, wrapped to the panel's width
    assert long_row.isExpanded()
    child = long_row.child(0)
    assert child.text(0).splitlines()[0] == text and child.text(0).splitlines()[1].startswith("anon-contributor, ")
    shown = panel.list.visualItemRect(child)
    assert shown.height() > one_line and shown.width() < panel.list.fontMetrics().horizontalAdvance(text)
    qtbot.keyClick(panel.list, Qt.Key_Down)  # the open text is not a stop: Down goes to the next row
    assert panel.selected_change_ids() == [15]
    qtbot.keyClick(panel.list, Qt.Key_Up)
    qtbot.keyClick(panel.list, Qt.Key_Left)
    assert not long_row.isExpanded() and panel.selected_change_ids() == [14]
    # a click on the arrow opens it too
    rect = panel.list.visualItemRect(long_row)
    qtbot.mouseClick(panel.list.viewport(), Qt.LeftButton, Qt.NoModifier,
                     QPoint(rect.left() - panel.list.indentation() // 2, rect.center().y()))
    assert long_row.isExpanded()
    # Full text opens every row, and stays on when the panel reads the document again
    qtbot.mouseClick(panel.full_text, Qt.LeftButton)
    assert all(item.isExpanded() for item in items(panel))
    panel.refresh()
    assert all(item.isExpanded() for item in items(panel))
    qtbot.mouseClick(panel.full_text, Qt.LeftButton)
    assert not any(item.isExpanded() for item in items(panel))


def test_copy_puts_the_selected_rows_whole_text_on_the_clipboard(qtbot, panel):
    click_row(qtbot, panel, items(panel)[4])
    qtbot.keyClick(panel.list, Qt.Key_C, Qt.ControlModifier)
    assert QApplication.clipboard().text().startswith(
        "Deleted\nDo not introduce intermediate HTML serialisation. This is a hard constraint.")


def test_filters_by_author_and_type_narrow_the_list(panel, reviewer):
    choose(panel.author_filter, "thomas.v")
    assert panel.visible_change_ids() == [c.id for c in reviewer.get_changes(author="thomas.v")] == [12, 13]
    assert panel.count_label.text().startswith("2 of 6 changes shown")
    choose(panel.type_filter, "Deletions")
    assert panel.visible_change_ids() == [12]
    choose(panel.author_filter, "All authors")
    assert panel.visible_change_ids() == [c.id for c in reviewer.get_changes(type="deletion")] == [10, 12, 14]
    choose(panel.type_filter, "All types")
    assert panel.visible_change_ids() == [10, 11, 12, 13, 14, 15]


def test_next_and_previous_walk_the_visible_rows_in_document_order_and_wrap(qtbot, panel):
    seen = []
    panel.changeActivated.connect(seen.append)
    assert [panel.next_change() for _ in range(7)] == [10, 11, 12, 13, 14, 15, 10]
    assert seen == [10, 11, 12, 13, 14, 15, 10]
    assert panel.selected_change_ids() == [10]
    assert panel.previous_change() == 15
    choose(panel.type_filter, "Insertions")
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
    with qtbot.waitSignal(panel.changeActivated, timeout=1000) as blocker:
        click_row(qtbot, panel, items(panel)[2])
    assert blocker.args == [12]
    with qtbot.assertNotEmitted(panel.changeActivated):
        qtbot.keyClick(panel.list, Qt.Key_Down)
    assert panel.selected_change_ids() == [13]
    with qtbot.waitSignal(panel.changeActivated, timeout=1000) as blocker:
        qtbot.keyClick(panel.list, Qt.Key_Return)
    assert blocker.args == [13]


def test_accept_and_reject_buttons_request_the_selection_or_all_visible_and_change_nothing(qtbot, panel, reviewer):
    assert not panel.accept_button.isEnabled() and not panel.reject_button.isEnabled()
    click_row(qtbot, panel, items(panel)[1])
    click_row(qtbot, panel, items(panel)[3], Qt.ControlModifier)
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


def test_a_folded_row_requests_every_mark_the_engine_would_not_take_along(qtbot):
    ra001 = DocxReviewer.open(RA001)
    panel = make_panel(qtbot, ra001)
    by_id = {c.id: c for c in ra001.get_changes()}
    for title, kinds in (("Moved", {"insertion": 15, "deletion": 1}),
                         ("Inserted table (5 rows)", {"rowInserted": 5, "paragraphMarkInserted": 15})):
        row = next(r for r in panel.rows if r.title == title)
        click_row(qtbot, panel, panel.item_of(row))
        with qtbot.waitSignal(panel.acceptRequested, timeout=1000) as blocker:
            qtbot.mouseClick(panel.accept_button, Qt.LeftButton)
        assert sorted(blocker.args[0]) == sorted(row.ids)
        assert {t: [by_id[i].type for i in row.ids].count(t) for t in kinds} == kinds
    # a whole inserted paragraph: its text; ReviewActions takes the mark with it (one audit entry)
    paragraph = next(r for r in panel.rows if r.title == "Inserted paragraph")
    click_row(qtbot, panel, panel.item_of(paragraph))
    with qtbot.waitSignal(panel.rejectRequested, timeout=1000) as blocker:
        qtbot.mouseClick(panel.reject_button, Qt.LeftButton)
    [only] = blocker.args[0]
    assert by_id[only].type == "insertion" and len(paragraph.ids) == 2


def test_refresh_after_the_window_resolved_changes_keeps_filters_and_selection(qtbot, panel, reviewer):
    choose(panel.type_filter, "Insertions")
    panel.select_change(13)
    assert reviewer.accept_change(11) and reviewer.reject_change(10)
    panel.refresh()
    assert len(items(panel)) == 4
    assert panel.type_filter.currentText() == "Insertions"
    assert panel.visible_change_ids() == [13, 15]
    assert panel.selected_change_ids() == [13]
    assert reviewer.accept_all() == 4
    panel.refresh()
    assert panel.visible_change_ids() == [] and panel.count_label.text() == "No tracked changes"
    assert not panel.accept_all_button.isEnabled() and not panel.accept_next_button.isEnabled()
    assert panel.next_change() is None


def test_changes_outside_the_body_and_shared_revision_ids(qtbot):
    panel = ChangesPanel()
    qtbot.addWidget(panel)
    notes = DocxReviewer.open(NOTES)
    panel.set_document(notes)
    stories = {c.story.split(":")[0] for c in notes.get_changes()}
    assert {"footnote", "header"} <= stories
    assert {r.place.short() for r in panel.rows} >= {"Footnote", "Header", "Footer", "Endnote"}
    # one revision id over several tables (as Google Docs writes them): one row each, but each id
    # once in the id lists
    grid = '<w:tblGrid><w:gridCol w:w="3000"/><w:tblGridChange w:id="0"><w:tblGrid><w:gridCol w:w="4000"/>' \
        '</w:tblGrid></w:tblGridChange></w:tblGrid>'
    tables = f'<w:tbl><w:tblPr/>{grid}<w:tr><w:tc><w:p><w:r><w:t>cell</w:t></w:r></w:p></w:tc></w:tr></w:tbl><w:p/>'
    shared = DocxReviewer.from_bytes(build_docx(tables * 3))
    panel.set_document(shared)
    changes = shared.get_changes()
    assert len(panel.rows) == len(changes) == 3 > len({c.id for c in changes})
    assert panel.visible_change_ids() == list(dict.fromkeys(c.id for c in changes))


# -- in the review window ----------------------------------------------------------------------------


def test_accept_and_reject_and_move_to_next_in_the_review_window(qtbot, tmp_path):
    (tmp_path / RA001.name).write_bytes(RA001.read_bytes())  # a writable copy (the corpus is read-only)
    window = open_window(qtbot, tmp_path, None, source=RA001)
    panel, reviewer, view = window.changes, window.reviewer, window.view
    rows = panel.rows
    assert len(rows) == 56 and rows[1].title == "Inserted paragraph" and rows[2].title == "Inserted table (5 rows)"
    menu = [a.text().replace("&", "") for a in window.review_menu.actions()]
    assert "Accept and Move to Next" in menu and "Reject and Move to Next" in menu

    # the panel's button: the paragraph and its mark are accepted, the table that followed is chosen
    click_row(qtbot, panel, panel.item_of(rows[1]))
    accepted = rows[1].ids
    with qtbot.waitSignal(view.layoutFinished, timeout=10_000):
        qtbot.mouseClick(panel.accept_next_button, Qt.LeftButton)
    census = {c.id for c in reviewer.get_changes()}
    assert not set(accepted) & census and len(census) == 212
    assert [r.title for r in panel.selected_rows()] == ["Inserted table (5 rows)"]
    table = panel.selected_rows()[0]
    qtbot.waitUntil(lambda: view.selection.caret_block_id() == table.shown.block_id, timeout=5_000)  # shown in the pages
    assert window.statusBar().currentMessage() == "Accepted: Inserted paragraph, “Order of injection:”."

    # the Review menu's shortcut: reject the table, then the row after it
    with qtbot.waitSignal(view.layoutFinished, timeout=10_000):
        press(qtbot, window, Qt.Key_Delete, Qt.ControlModifier | Qt.ShiftModifier)
    assert not set(table.ids) & {c.id for c in reviewer.get_changes()}
    assert [r.title for r in panel.selected_rows()] == ["Inserted 6 empty paragraphs"]
    assert window.statusBar().currentMessage().startswith("Rejected: Inserted table (5 rows). Next: Inserted 6 empty")
    with qtbot.waitSignal(view.layoutFinished, timeout=10_000):
        press(qtbot, window, Qt.Key_Return, Qt.ControlModifier | Qt.ShiftModifier)
    assert [r.title for r in panel.selected_rows()] == ["Deleted paragraph"]
    assert len(panel.rows) == 53

    # a change clicked in the pages is the one accepted
    moved = next(r for r in panel.rows if r.kind == "move")
    view.changeClicked.emit(moved.shown.id)
    assert [r.title for r in panel.selected_rows()] == ["Moved"]
    press(qtbot, window, Qt.Key_Return, Qt.ControlModifier | Qt.ShiftModifier)
    assert not {c.id for c in reviewer.get_changes()} & set(moved.ids)

    # one undo step each; saved, the file holds what was chosen and reopens in both readers
    assert window.review_actions.undo_stack.count() == 4
    press(qtbot, window, Qt.Key_S, Qt.ControlModifier)
    assert not window.modified
    saved = DocxReviewer.open(window.path)
    assert sorted(c.id for c in saved.get_changes()) == sorted(c.id for c in reviewer.get_changes())
    assert "Order of injection:" in saved.get_content_as_text()  # the accepted paragraph is plain text now
    assert not {c.id for c in saved.get_changes()} & set(accepted + table.ids + moved.ids)
    document = python_docx.Document(window.path)
    assert any(p.text == "Order of injection:" for p in document.paragraphs)
