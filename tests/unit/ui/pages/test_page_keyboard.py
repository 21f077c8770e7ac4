"""The keyboard in the pages (pages/input.py's rule): the pages act on a key only when the page view
itself has the focus, and then only typing changes the text. A key pressed in a balloon's reply
editor, or in any widget inside the view, never edits or moves the pages; keys that type nothing
(F1-F12, Escape, Ctrl, Alt and Meta chords) never change the document."""

from __future__ import annotations

import pytest
from key_helpers import FIRST, balloon_button, body, no_blocking_dialogs, press, review_window, word_point
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication, QWidget

from folio_desktop.ui.pages.text_flow import TextPos


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    no_blocking_dialogs(monkeypatch)
    return review_window(qtbot, tmp_path)


def select_word(qtbot, view, block_id, start, end):
    """A real double-click on a word of the pages: it is selected and the pages have the keyboard."""
    qtbot.mouseDClick(view.viewport(), Qt.LeftButton, pos=word_point(view, block_id, start, end).toPoint())
    assert view.selection.selection_block_range() == (block_id, start, end)


def test_enter_in_a_balloon_reply_posts_the_reply_and_leaves_the_text_alone(qtbot, window):
    # issue 25: with a word selected, Reply, typing and Enter also replaced the word with a paragraph break
    view, reviewer = window.view, window.reviewer
    before = body(reviewer)
    select_word(qtbot, view, FIRST, 10, 14)  # "word"
    thread = reviewer.get_comments()[0]
    replies = len(thread.replies)
    qtbot.mouseClick(view.viewport(), Qt.LeftButton, pos=balloon_button(view, thread.id, "reply").toPoint())
    editor = view.balloons.editor
    assert editor.isVisible() and editor.hasFocus()
    qtbot.keyClicks(editor, "Agreed.")
    qtbot.keyClick(editor, Qt.Key_Return)
    qtbot.waitUntil(lambda: not editor.isVisible(), timeout=2_000)
    after = next(t for t in reviewer.get_comments() if t.id == thread.id)
    assert len(after.replies) == replies + 1 and after.replies[-1].text == "Agreed."
    assert body(reviewer) == before  # no paragraph break, no tracked change
    qtbot.waitUntil(view.hasFocus, timeout=2_000)  # the keyboard is back in the pages


def test_the_reply_editor_keeps_its_keys_and_gives_the_focus_back_after_them(qtbot, window):
    view, reviewer = window.view, window.reviewer
    thread = reviewer.get_comments()[0]
    qtbot.mouseClick(view.viewport(), Qt.LeftButton, pos=balloon_button(view, thread.id, "reply").toPoint())
    editor = view.balloons.editor
    qtbot.keyClicks(editor, "Fine")
    for key in (Qt.Key_Return, Qt.Key_Escape):
        if not editor.isVisible():
            qtbot.mouseClick(view.viewport(), Qt.LeftButton, pos=balloon_button(view, thread.id, "reply").toPoint())
            qtbot.keyClicks(editor, "never mind")
        event = QKeyEvent(QEvent.KeyPress, key, Qt.NoModifier)
        QApplication.sendEvent(editor, event)
        assert event.isAccepted()  # taken: it never goes on up to the pages
        assert QApplication.focusWidget() is editor and editor.isVisible()  # nothing moved inside the key event
        qtbot.waitUntil(lambda: not editor.isVisible() and view.hasFocus(), timeout=2_000)
    assert [r.text for r in next(t for t in reviewer.get_comments() if t.id == thread.id).replies][-1] == "Fine"


def test_keys_that_come_up_from_a_widget_inside_the_view_are_not_the_pages(qtbot, window):
    # a child of the pages that takes no key (every key goes on up to its parents), with the focus
    view, reviewer = window.view, window.reviewer
    select_word(qtbot, view, FIRST, 10, 14)
    selection = view.selection.selection_block_range()
    before, scrolled = body(reviewer), view.verticalScrollBar().value()
    child = QWidget(view.viewport())
    child.setFocusPolicy(Qt.StrongFocus)
    child.setGeometry(10, 10, 40, 20)
    child.show()
    for key, mods, text in ((Qt.Key_X, Qt.NoModifier, "x"), (Qt.Key_Return, Qt.NoModifier, "\r"),
                            (Qt.Key_Tab, Qt.NoModifier, "\t"), (Qt.Key_Backspace, Qt.NoModifier, "\b"),
                            (Qt.Key_Delete, Qt.ControlModifier, ""), (Qt.Key_Right, Qt.ShiftModifier, ""),
                            (Qt.Key_PageDown, Qt.NoModifier, ""), (Qt.Key_A, Qt.ControlModifier, "\x01"),
                            (Qt.Key_Backspace, Qt.ControlModifier | Qt.ShiftModifier, "")):
        press(child, key, mods, text)
        assert QApplication.focusWidget() is child or key == Qt.Key_Tab  # Tab moves the focus on
    assert body(reviewer) == before  # nothing typed, no paragraph deleted (Ctrl+Shift+Backspace)
    assert view.selection.selection_block_range() == selection  # the selection neither moved nor grew
    assert view.verticalScrollBar().value() == scrolled


def test_arrows_in_the_reply_editor_leave_the_pages_alone(qtbot, window):
    view, reviewer = window.view, window.reviewer
    select_word(qtbot, view, FIRST, 10, 14)
    thread = reviewer.get_comments()[0]
    qtbot.mouseClick(view.viewport(), Qt.LeftButton, pos=balloon_button(view, thread.id, "reply").toPoint())
    editor = view.balloons.editor
    selection, scrolled = view.selection.selection_block_range(), view.verticalScrollBar().value()
    for key in (Qt.Key_Down, Qt.Key_Up, Qt.Key_PageDown, Qt.Key_Tab):
        press(editor, key, Qt.NoModifier if key != Qt.Key_Down else Qt.ShiftModifier)
        if key != Qt.Key_Tab:
            assert QApplication.focusWidget() is editor
    assert view.selection.selection_block_range() == selection
    assert view.verticalScrollBar().value() == scrolled
    assert QApplication.focusWidget() is not view  # Tab moved on from the editor; it typed no tab
    assert editor.text() == ""


NOT_TYPING = [
    *((getattr(Qt, f"Key_F{n}"), Qt.NoModifier, "") for n in range(1, 13)),
    (Qt.Key_Escape, Qt.NoModifier, "\x1b"),
    (Qt.Key_B, Qt.ControlModifier, "\x02"), (Qt.Key_J, Qt.ControlModifier | Qt.ShiftModifier, "\x0a"),
    (Qt.Key_Tab, Qt.ControlModifier, "\t"), (Qt.Key_Backtab, Qt.ControlModifier | Qt.ShiftModifier, ""),
    (Qt.Key_K, Qt.AltModifier, "k"), (Qt.Key_Return, Qt.AltModifier, "\r"), (Qt.Key_Tab, Qt.AltModifier, "\t"),
    (Qt.Key_Backspace, Qt.AltModifier, "\b"), (Qt.Key_Delete, Qt.AltModifier, "\x7f"),
    (Qt.Key_Q, Qt.MetaModifier, "q"), (Qt.Key_Return, Qt.MetaModifier, "\r"),
    (Qt.Key_Space, Qt.ControlModifier, " "), (Qt.Key_Space, Qt.AltModifier, " "),
]


def test_keys_that_type_nothing_never_change_the_document(qtbot, window):
    view, reviewer = window.view, window.reviewer
    select_word(qtbot, view, FIRST, 10, 14)  # typing would replace it
    version = reviewer.document.version
    for key, mods, text in NOT_TYPING:
        window.find_bar.hide()  # F3 opens the find bar: the pages keep the keyboard for the next key
        press(view, key, mods, text)
        assert reviewer.document.version == version, (key, mods)
    text = reviewer.snapshot().block(FIRST).text
    press(view, Qt.Key_X, Qt.NoModifier, "x")  # while a plain letter types
    after = reviewer.snapshot().block(FIRST).text
    assert len(after) == len(text) + 1 and after.replace("x", "", 1) == text



def test_typing_over_struck_text_alone_types_where_it_starts(qtbot, window):
    # found by the key fuzz: a selection of deleted text only is empty as the text reads, and typing
    # over it recursed until Python gave up (inside a key event: the app crashed)
    view, reviewer = window.view, window.reviewer
    index = view.flow.block_entries("2CCA02A3")[0]
    para = view.flow.entries[index][1].para
    start = para.text.index("deletion")  # "We can suggest on this an deletion": the last word struck through
    view.selection.select(TextPos(index, start), TextPos(index, start + len("deletion")))
    marks = view.selection.selection_marks()
    assert marks is not None and marks[0].offset == marks[1].offset  # empty as the text reads
    assert view.editor.type_text("x")
    assert reviewer.snapshot().block("2CCA02A3").text == "We can suggest on this an x"


def test_an_edit_that_takes_the_caret_block_leaves_no_half_selection(qtbot, window):
    # found by the key fuzz: a caret whose paragraph went away left the selection's other end behind,
    # and painting the pages then failed on every repaint
    view, flow = window.view, window.view.flow
    first, last = flow.block_entries(FIRST)[0], flow.block_entries("431E8D20")[0]
    view.selection.select(TextPos(first, 0), TextPos(last, 3))  # the caret in the paragraph deleted next
    window.review_actions.track_changes = False  # deleted outright, not struck through
    window.review_actions.delete_paragraph("431E8D20")
    assert window.reviewer.snapshot().block("431E8D20") is None
    assert view.selection.anchor is None and view.selection.caret is None
    view.viewport().grab()  # paints
