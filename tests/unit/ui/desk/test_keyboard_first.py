"""Keyboard first (issue 27): a shortcut for each panel and for Claude's box (no two actions share a key);
F6 goes round the panels a narrow window shows, a folded one opened from its strip included; every
menu item and every dialog button has an access key of its own in its menu or dialog, and Alt+D
presses Discard in the unsaved-changes question; a triple-click selects a paragraph; Ctrl+W closes
the compare window too."""

from __future__ import annotations

import time

import pytest
from key_helpers import FIRST, activate, press, review_window, word_point
from pilot_versions import write_pilot_pair
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QDialogButtonBox,
    QInputDialog,
    QMenu,
    QMessageBox,
)

from folio_desktop.ui.chat.share_dialog import ShareDialog
from folio_desktop.ui.desk.app_shell.author_prompt import AuthorPrompt
from folio_desktop.ui.desk.app_shell.compare_dialog import CompareDialog
from folio_desktop.ui.desk.app_shell.help_dialogs import AboutDialog, ShortcutsDialog
from folio_desktop.ui.desk.compare_window import CompareWindow
from folio_desktop.ui.desk.edit_dialogs import TextDialog
from folio_desktop.ui.desk.save_as_dialog import SaveAsOptionsDialog
from folio_desktop.ui.desk.settings_dialog import SettingsDialog
from folio_desktop.ui.disk import recovery_prompt
from folio_desktop.ui.disk.recovery import RecoveryEntry
from folio_desktop.ui.panels.find_replace import FindReplaceDialog

PANEL_KEYS = {"Ctrl+Shift+O": "outline", "Ctrl+Shift+H": "changes", "Ctrl+Shift+M": "comments",
              "Ctrl+Shift+C": "chat"}


@pytest.fixture
def window(qtbot, tmp_path):
    return review_window(qtbot, tmp_path)


def focus():
    return QApplication.focusWidget()


def chord(widget, text: str) -> None:
    """A key chord ("Ctrl+Shift+O") pressed with the keyboard in `widget`."""
    combo = QKeySequence(text)[0]
    press(widget, combo.key(), combo.keyboardModifiers())


def main_widget(window, name):
    return {"outline": window.outline.tree, "changes": window.changes.list, "comments": window.comments.tree,
            "chat": window.chat.composer}[name]


def shortcuts_of(top) -> dict[str, list[str]]:
    """Every key sequence bound in a window (its actions and shortcuts) -> who binds it."""
    bound: dict[str, list[str]] = {}
    for action in {id(a): a for a in top.findChildren(QAction)}.values():
        for key in action.shortcuts():
            bound.setdefault(key.toString(), []).append(action.objectName() or action.text())
    for shortcut in top.findChildren(QShortcut):
        for key in shortcut.keys():
            bound.setdefault(key.toString(), []).append(shortcut.objectName() or "QShortcut")
    return bound


def test_each_panel_has_a_shortcut_and_no_two_actions_share_one(qtbot, window, tmp_path):
    bound = shortcuts_of(window)
    assert all(key in bound for key in PANEL_KEYS), sorted(bound)
    assert {k: v for k, v in bound.items() if len(v) > 1} == {}
    (tmp_path / "versions").mkdir()
    base, revised = write_pilot_pair(tmp_path / "versions")
    compare = CompareWindow(base, revised)
    qtbot.addWidget(compare)
    assert {k: v for k, v in shortcuts_of(compare).items() if len(v) > 1} == {}


def test_a_panel_shortcut_gives_the_panel_the_keyboard_and_again_gives_it_back(qtbot, window):
    view = window.view
    for key, name in PANEL_KEYS.items():
        chord(view, key)
        assert focus() is main_widget(window, name), key
        assert not main_widget(window, name).visibleRegion().isEmpty()  # a tab behind another came forward
        chord(focus(), key)  # again: back to the pages
        assert focus() is view, key
    # a closed panel opens
    window.dock.hide()
    chord(view, "Ctrl+Shift+C")
    assert window.dock.isVisible() and focus() is window.chat.composer
    qtbot.keyClicks(focus(), "Summarise clause 2")
    assert window.chat.composer.toPlainText() == "Summarise clause 2"


def test_f6_goes_round_the_panels_a_narrow_window_shows(qtbot, window):
    view = window.view
    window.resize(1000, 700)
    qtbot.waitUntil(lambda: not window.outline_dock.isVisible(), timeout=2_000)
    press(view, Qt.Key_F6)
    assert focus() is window.chat.composer  # the folded panels are passed over
    press(focus(), Qt.Key_F6)
    assert focus() is view
    press(view, Qt.Key_F6, Qt.ShiftModifier)
    assert focus() is window.chat.composer
    # a folded panel opened from its strip joins the round
    button = next(b for b in window.side_strips.buttons.values() if b.text() == "Changes")
    QTest.mouseClick(button, Qt.LeftButton)
    qtbot.waitUntil(window.changes_dock.isVisible, timeout=2_000)
    press(view, Qt.Key_F6)
    assert focus() is window.changes.list
    # and its shortcut reaches a folded panel too, opening it
    chord(focus(), "Ctrl+Shift+O")
    assert window.outline_dock.isVisible() and focus() is window.outline.tree


# -- access keys ------------------------------------------------------------------------------------


def access_key(text: str) -> str | None:
    """The letter after a label's single "&" ("&&" is a literal ampersand), lower case; None without."""
    plain = text.replace("&&", "")
    i = plain.find("&")
    return plain[i + 1].lower() if 0 <= i < len(plain) - 1 else None


def unique_keys(labels: list[str], where: str) -> None:
    keys = [access_key(text) for text in labels]
    assert None not in keys, f"{where}: no access key in {[t for t, k in zip(labels, keys) if k is None]}"
    assert len(set(keys)) == len(keys), f"{where}: an access key twice in {labels}"


def walk_menus(menu: QMenu, where: str) -> int:
    """Check a menu's items and its submenus'; how many menus were checked."""
    menu.aboutToShow.emit()  # fills a menu made as it opens (Open Recent)
    items = [a for a in menu.actions() if not a.isSeparator() and a.isVisible() and a.text()]
    unique_keys([a.text() for a in items], where)
    return 1 + sum(walk_menus(a.menu(), f"{where} > {a.text()}") for a in items if a.menu() is not None)


def test_every_menu_item_has_an_access_key_of_its_own(qtbot, window, tmp_path):
    window.files.recent.add(str(tmp_path / "a.docx"))
    window.files.recent.add(str(tmp_path / "b.docx"))
    (tmp_path / "versions").mkdir()
    base, revised = write_pilot_pair(tmp_path / "versions")
    compare = CompareWindow(base, revised)
    qtbot.addWidget(compare)
    for top in (window, compare):
        bar = top.menuBar().actions()
        unique_keys([a.text() for a in bar], "the menu bar")
        assert sum(walk_menus(a.menu(), a.text()) for a in bar) >= len(bar)


def dialog_buttons(dialog) -> list[str]:
    return [b.text() for b in dialog.findChildren(QAbstractButton) if b.text() and b.isVisibleTo(dialog)]


def test_every_dialog_button_has_an_access_key_of_its_own(qtbot, window, tmp_path, monkeypatch):
    dialogs = {
        "Settings": SettingsDialog(window.settings, window),
        "Save As options": SaveAsOptionsDialog(window, damaged=["word/footer1.xml"]),
        "Share": ShareDialog("contract.docx", "http://127.0.0.1:5000/mcp", "token", window),
        "unsaved changes": QMessageBox(QMessageBox.Question, "t", "Save?",
                                       QMessageBox.Save | QMessageBox.Discard | QMessageBox.Cancel, window),
        "warning": QMessageBox(QMessageBox.Warning, "t", "Not saved.", QMessageBox.Ok, window),
        "Go to page": QInputDialog(window),
        "Compare": CompareDialog([], window.path, window),
        "Find and Replace": FindReplaceDialog(lambda: (window.view, window.reviewer, window.review_actions), window),
        "Keyboard Shortcuts": ShortcutsDialog(window),
        "About": AboutDialog(window),
        "author name": AuthorPrompt(window.settings, window),
    }
    dialogs["Go to page"].show()  # (its buttons are made as it shows)
    for ok_text in ("OK", "Insert", "Replace", "Comment"):
        dialogs[f"text ({ok_text})"] = TextDialog("t", "Your text:", "", ok_text, window)
    # the message boxes the app builds and asks at once: caught as they are asked
    asked = []
    monkeypatch.setattr(QMessageBox, "exec", lambda box: asked.append(box) or 0)
    window.files.ask_save_conflict(str(tmp_path / "x.docx"))
    window.files.ask_save_missing(str(tmp_path / "x.docx"))
    window.files.ask_open_copy(str(tmp_path / "x.docx"), "without comments")
    window.files.disk.ask_reload()
    recovery_prompt.ask_recovery(window, RecoveryEntry("k", tmp_path / "k.docx", str(tmp_path / "x.docx"),
                                                       "2026-12-02T06:00:00", None))
    for n, box in enumerate(asked):
        dialogs[f"message {n}: {box.text()}"] = box
    assert len(asked) == 5
    for name, dialog in dialogs.items():
        qtbot.addWidget(dialog)
        labels = dialog_buttons(dialog)
        assert labels, name
        unique_keys(labels, name)


def test_alt_d_presses_discard_in_the_unsaved_changes_question(qtbot, window):
    window.files.ask_before_discarding = True
    path = window.path
    before = open(path, "rb").read()
    window.view.selection.select_range(FIRST, 10, 14)
    press(window.view, Qt.Key_X, Qt.NoModifier, "x")  # typed over "word": the document is modified
    assert window.modified
    answered, tries = [], []

    def answer():
        box = QApplication.activeModalWidget()
        tries.append(box)
        if len(tries) > 200:  # never hang the run: the question goes unanswered, the test fails below
            if box is not None:
                box.reject()
            return
        if not isinstance(box, QMessageBox) or QApplication.activeWindow() is not box:
            if box is not None:
                box.activateWindow()
            QTimer.singleShot(20, answer)
            return
        answered.append([b.text() for b in box.findChildren(QDialogButtonBox)[0].buttons()])
        QTest.keyClick(QApplication.focusWidget(), Qt.Key_D, Qt.AltModifier)  # (a button clicks 100 ms later)
        QTimer.singleShot(3_000, box, box.reject)  # Alt+D did not answer it: no hang (gone with the box)

    QTimer.singleShot(0, answer)
    try:
        press(window.view, Qt.Key_W, Qt.ControlModifier)  # Ctrl+W: close, which asks first
        qtbot.waitUntil(lambda: not window.isVisible(), timeout=5_000)
    finally:
        window.files.ask_before_discarding = False  # closing at the end of the test asks nothing
    assert answered and "&Discard" in answered[0]
    assert open(path, "rb").read() == before  # discarded, not saved


# -- the mouse and the compare window ----------------------------------------------------------------


def test_a_triple_click_selects_the_paragraph(qtbot, window):
    view, reviewer = window.view, window.reviewer
    point = word_point(view, FIRST, 10, 14).toPoint()  # "word" in "This is a word document"
    QTest.mouseDClick(view.viewport(), Qt.LeftButton, Qt.NoModifier, point)
    assert view.selection.selection_text() == "word"
    QTest.mouseClick(view.viewport(), Qt.LeftButton, Qt.NoModifier, point)
    tripled = time.monotonic()
    assert view.selection.selection_text().rstrip("\n") == reviewer.snapshot().block(FIRST).text
    # a click once the double-click interval is over is a click again: the caret, no selection
    qtbot.waitUntil(lambda: time.monotonic() - tripled > QApplication.doubleClickInterval() / 1000)
    QTest.mouseClick(view.viewport(), Qt.LeftButton, Qt.NoModifier, point)
    assert view.selection.selection_text() == ""


def test_f6_and_ctrl_w_in_the_compare_window(qtbot, tmp_path):
    base, revised = write_pilot_pair(tmp_path)
    compare = CompareWindow(base, revised)
    compare.ask_before_discarding = False
    compare.resize(1300, 850)
    qtbot.addWidget(compare)
    compare.show()
    qtbot.waitExposed(compare)
    qtbot.waitUntil(lambda: compare.view.document_layout is not None, timeout=15_000)
    activate(qtbot, compare)
    press(compare.view, Qt.Key_F6)  # the pages -> the differences -> the pages
    assert focus() is compare.differences.list
    press(focus(), Qt.Key_F6)
    assert focus() is compare.view
    press(compare.view, Qt.Key_F6, Qt.ShiftModifier)
    assert focus() is compare.differences.list
    press(compare.view, Qt.Key_W, Qt.ControlModifier)
    qtbot.waitUntil(lambda: not compare.isVisible(), timeout=2_000)

