"""The pages' context menu (folio_desktop/ui/desk/page_menu.py) and moves as one decision: a right-click
on either half of a move (or Shift+F10 with the caret in it) offers Accept Move / Reject Move, which
act on both halves at once in one undo step, as do the Review menu's Accept and Reject shortcuts at
the caret; one Ctrl+Z brings both halves back. Real right-clicks, real keys and clicks in the menu."""

from __future__ import annotations

import pytest
from conftest import CORPUS
from docbuilder import build_docx
from key_helpers import activate, review_window
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMenu

from folio_desktop.docx import DocxReviewer
from folio_desktop.ui.pages.text_flow import cursor_x

PANDOC_MOVE = CORPUS / "pandoc_track_changes_move_macword.docx"  # Word for Mac moved a paragraph up
MOVED = "Here is the text to be moved."
# the body as Word reads it after accepting the move (the text only where it arrived), and after
# rejecting it (only where it was); as it is, the accepted view reads it once, where it arrived
ACCEPTED = ["Here is some text.", "", MOVED, "", "Here is some more text.", "", "", "", ""]
REJECTED = ["Here is some text.", "", "", "", "Here is some more text.", "", MOVED, "", ""]


@pytest.fixture
def window(qtbot, tmp_path):
    window = review_window(qtbot, tmp_path, PANDOC_MOVE)
    assert [c.type for c in window.reviewer.get_changes()] == ["insertion", "deletion"]
    return window


def half_point(window, nth: int) -> QPoint:
    """The viewport point in the middle of the nth (0: where it arrived, 1: where it left) paragraph
    that reads the moved text, scrolled into view."""
    view = window.view
    found = [(n, f) for n, f in view.flow.entries if f.para.text == MOVED]
    number, frag = found[nth]
    para = frag.para
    line = para.layout.lineAt(frag.first_line)
    x = (cursor_x(line, 3) + cursor_x(line, 4)) / 2
    point = QPointF(frag.x + para.x + x, frag.y + para.lines[frag.first_line].y + para.lines[frag.first_line].height / 2)
    view.scroll_to_page(number)
    return view.page_to_viewport(number, point).toPoint()


def right_click(qtbot, window, point: QPoint) -> QMenu:
    """A right button press and release on the pages at a viewport point; returns the menu it opened."""
    qtbot.mouseClick(window.view.viewport(), Qt.RightButton, pos=point)
    qtbot.waitUntil(lambda: isinstance(QApplication.activePopupWidget(), QMenu), timeout=2_000)
    return QApplication.activePopupWidget()


def entries(menu: QMenu) -> list[str]:
    return [a.text().replace("&", "") for a in menu.actions() if not a.isSeparator()]


def choose(qtbot, menu: QMenu, text: str) -> None:
    """Click an entry of an open menu."""
    action = next(a for a in menu.actions() if a.text().replace("&", "") == text)
    qtbot.mouseClick(menu, Qt.LeftButton, pos=menu.actionGeometry(action).center())


def texts(window) -> list[str]:
    return [b.text for b in window.reviewer.snapshot().blocks]


def changes(window) -> list[tuple[str, str]]:
    return [(c.type, c.move_side) for c in window.reviewer.get_changes()]


def undo(qtbot, window) -> None:
    """Ctrl+Z at the window; back once the pages are laid out again."""
    activate(qtbot, window)
    QTest.keyClick(window, Qt.Key_Z, Qt.ControlModifier)
    qtbot.waitUntil(lambda: window.view.is_laid_out and bool(window.view.pages), timeout=10_000)


def test_accept_move_from_the_page_takes_both_halves_and_one_undo_restores_them(qtbot, window):
    as_it_was = texts(window)
    point = half_point(window, 0)
    scrolled = window.view.verticalScrollBar().value()
    menu = right_click(qtbot, window, point)  # on the text where it arrived
    assert entries(menu) == ["Accept Move", "Reject Move"]
    assert window.view.verticalScrollBar().value() == scrolled  # the menu opens over the text, which stays put
    choose(qtbot, menu, "Accept Move")
    assert changes(window) == []  # both halves at once
    assert texts(window) == ACCEPTED
    assert window.review_actions.undo_stack.count() == 1  # one step
    assert window.statusBar().currentMessage().startswith("Accepted: Moved")
    # the pages show it: the text once, with no double lines and no label left
    shown = [f.para for _n, f in window.view.flow.entries if f.para.text == MOVED]
    assert len(shown) == 1 and not shown[0].double_lines
    assert not [b for page in window.view.pages for b in window.view.marks.balloons(page) if b.move]

    undo(qtbot, window)
    assert changes(window) == [("insertion", "to"), ("deletion", "from")]  # both halves back
    assert texts(window) == as_it_was
    assert len([1 for _n, f in window.view.flow.entries if f.para.text == MOVED]) == 2  # the pages show both


def test_reject_move_from_the_half_that_left_with_the_keyboard_in_the_menu(qtbot, window):
    menu = right_click(qtbot, window, half_point(window, 1))  # on the text where it left
    assert entries(menu) == ["Accept Move", "Reject Move"]
    QTest.keyClick(menu, Qt.Key_R)  # the entry's access key
    assert changes(window) == []
    assert texts(window) == REJECTED
    assert window.review_actions.undo_stack.count() == 1
    undo(qtbot, window)
    assert changes(window) == [("insertion", "to"), ("deletion", "from")]


def test_shift_f10_opens_the_menu_at_the_caret_and_a_accepts_the_move(qtbot, window):
    view = window.view
    with qtbot.waitSignal(view.changeClicked, timeout=2_000):
        qtbot.mouseClick(view.viewport(), Qt.LeftButton, pos=half_point(window, 1))  # the caret where it left
    assert QApplication.focusWidget() is view
    QTest.keyClick(view, Qt.Key_F10, Qt.ShiftModifier)
    qtbot.waitUntil(lambda: isinstance(QApplication.activePopupWidget(), QMenu), timeout=2_000)
    menu = QApplication.activePopupWidget()
    assert entries(menu) == ["Accept Move", "Reject Move"]
    QTest.keyClick(menu, Qt.Key_A)
    assert changes(window) == [] and texts(window) == ACCEPTED
    assert window.review_actions.undo_stack.count() == 1


def test_a_click_on_a_moved_label_picks_that_half_and_the_review_menu_takes_the_move(qtbot, window):
    view = window.view
    page = view.pages[0]
    label = next(b for b in view.marks.balloons(page) if b.move == "Moved up [1]")
    view.scroll_to_page(1)
    h = view.horizontalScrollBar()
    h.setValue(h.maximum())  # the markup area in view
    with qtbot.waitSignal(view.changeClicked, timeout=2_000) as clicked:
        qtbot.mouseClick(view.viewport(), Qt.LeftButton, pos=view.page_to_viewport(1, label.rect.center()).toPoint())
    left = next(c for c in window.reviewer.get_changes() if c.move_side == "from")
    assert clicked.args == [left.id]
    selection = view.selection  # the text it left, selected (struck through, so not in the accepted text)
    assert view.flow.text(selection.anchor, selection.caret, keep_deleted=True) == MOVED
    assert window.changes.selected_rows()[0].title == "Moved"
    activate(qtbot, window)
    QTest.keyClick(window, Qt.Key_R, Qt.ControlModifier | Qt.ShiftModifier)  # Reject change
    assert changes(window) == [] and texts(window) == REJECTED
    assert window.review_actions.undo_stack.count() == 1


def _run(text: str) -> str:
    return f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>'


def beside_an_insertion(tmp_path):
    """A move whose arrival follows, touching, an insertion of the same author in the same paragraph
    (Word writes this when one adds a word before text one has just moved)."""
    who = 'w:author="Ann Lawyer" w:date="2026-11-30T10:00:00Z"'
    body = (f'<w:p>{_run("Beta ")}<w:ins w:id="1" {who}>{_run("new ")}</w:ins>'
            f'<w:moveToRangeStart w:id="2" {who} w:name="move1"/><w:moveTo w:id="3" {who}>{_run("moved words")}</w:moveTo>'
            f'<w:moveToRangeEnd w:id="2"/>{_run(" end.")}</w:p>'
            f'<w:p>{_run("Gamma.")}</w:p>'
            f'<w:p>{_run("Delta ")}<w:moveFromRangeStart w:id="4" {who} w:name="move1"/>'
            f'<w:moveFrom w:id="5" {who}>{_run("moved words")}</w:moveFrom><w:moveFromRangeEnd w:id="4"/>{_run(" end.")}</w:p>')
    tmp_path.mkdir()
    path = tmp_path / "beside.docx"
    path.write_bytes(build_docx(body))
    return path


@pytest.mark.parametrize("key, result", [(Qt.Key_A, ["Beta new moved words end.", "Gamma.", "Delta  end."]),
                                         (Qt.Key_R, ["Beta new  end.", "Gamma.", "Delta moved words end."])])
def test_the_review_shortcuts_at_the_caret_resolve_the_move_as_a_pair(qtbot, tmp_path, key, result):
    """The caret in the moved words, not in the insertion they touch: Accept (Reject) change takes the
    move, both halves, and leaves the insertion pending."""
    window = review_window(qtbot, tmp_path, beside_an_insertion(tmp_path / "source"))
    view = window.view
    number, frag = next((n, f) for n, f in view.flow.entries if f.para.text.startswith("Beta"))
    para = frag.para
    at = para.text.index("moved") + 2
    line = para.layout.lineAt(frag.first_line)
    point = QPointF(frag.x + para.x + cursor_x(line, at), frag.y + para.lines[0].y + para.lines[0].height / 2)
    with qtbot.waitSignal(view.changeClicked, timeout=2_000):
        qtbot.mouseClick(view.viewport(), Qt.LeftButton, pos=view.page_to_viewport(number, point).toPoint())
    activate(qtbot, window)
    QTest.keyClick(window, key, Qt.ControlModifier | Qt.ShiftModifier)  # Accept / Reject change
    assert changes(window) == [("insertion", None)]  # the insertion is still to decide
    assert texts(window)[:3] == result
    assert window.review_actions.undo_stack.count() == 1
    undo(qtbot, window)
    assert changes(window) == [("insertion", None), ("insertion", "to"), ("deletion", "from")]
    # on the page, the same words offer the move (the menu names it)
    number, frag = next((n, f) for n, f in view.flow.entries if f.para.text.startswith("Beta"))
    menu = right_click(qtbot, window, view.page_to_viewport(number, point).toPoint())
    assert entries(menu) == ["Accept Move", "Reject Move"]
    QTest.keyClick(menu, Qt.Key_Escape)  # closed as the lawyer closes it


def test_an_ordinary_change_is_named_as_word_names_it_and_plain_text_offers_no_menu(qtbot, tmp_path):
    window = review_window(qtbot, tmp_path, CORPUS / "superdoc_word_comments_replies_tracked.docx")
    view = window.view
    inserted = next(c for c in window.reviewer.get_changes() if c.type == "insertion")
    view.selection.select_change(inserted)
    start, _end = view.selection.selection_block_range()[1:]
    index = view.flow.block_entries(inserted.block_id)[0]
    number, frag = view.flow.entries[index]
    para = frag.para
    display = para.accepted.index(start) + 1
    k = next(k for k in range(frag.first_line, frag.last_line + 1) if display < para.lines[k].end)
    line = para.layout.lineAt(k)
    point = QPointF(frag.x + para.x + cursor_x(line, display), frag.y + para.lines[k].y + para.lines[k].height / 2)
    menu = right_click(qtbot, window, view.page_to_viewport(number, point).toPoint())
    assert entries(menu) == ["Accept Insertion", "Reject Insertion", "Copy"]  # the selection can be copied
    QTest.keyClick(menu, Qt.Key_Escape)
    # plain text with nothing selected: nothing to offer, no menu (nor the window's toolbar menu)
    view.selection.clear_selection()
    plain = para.accepted.index(0)
    point = QPointF(frag.x + para.x + cursor_x(para.layout.lineAt(frag.first_line), plain) + 2,
                    frag.y + para.lines[frag.first_line].y + para.lines[frag.first_line].height / 2)
    assert window.page_menu.change_at(view.page_to_viewport(number, point)) is None
    shown = window.page_menu.menu
    # the press and release reach the menu's event filter before mouseClick returns, and a menu
    # opens (popup) right there: nothing to wait for
    qtbot.mouseClick(view.viewport(), Qt.RightButton, pos=view.page_to_viewport(number, point).toPoint())
    assert QApplication.activePopupWidget() is None and window.page_menu.menu is shown
    assert DocxReviewer.open(window.path).get_changes()  # nothing was resolved
