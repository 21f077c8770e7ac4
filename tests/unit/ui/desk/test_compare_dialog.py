"""File > Compare asks for both versions in one dialog, Original and Revised side by side (the open
document offered as the original, recent files, Browse…, Swap), then opens the compare window, whose
status bar counts the redline's own pages."""

from __future__ import annotations

import pytest
from key_helpers import activate, review_window
from pilot_versions import write_pilot_pair
from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QFileDialog

from folio_desktop.ui.desk.app_shell.compare_dialog import CompareDialog


@pytest.fixture
def desk(qtbot, tmp_path):
    pair = tmp_path / "pair"
    pair.mkdir()
    base, revised = write_pilot_pair(pair)
    window = review_window(qtbot, tmp_path, base)  # the open document: a copy of the base
    return window, window.path, str(revised)


def when_up(qtbot, act) -> list:
    """Run `act(dialog)` once the compare dialog is up with the keyboard (it runs its own event loop)."""
    done = []

    def poll():
        dialog = QApplication.activeModalWidget()
        if isinstance(dialog, CompareDialog) and QApplication.activeWindow() is dialog:
            done.append(act(dialog))
        else:
            QTimer.singleShot(20, poll)

    QTimer.singleShot(0, poll)
    return done


def open_compare_from_menu(qtbot, window) -> None:
    activate(qtbot, window)
    QTest.keyClick(window, Qt.Key_F, Qt.AltModifier)  # File
    qtbot.waitUntil(window.file_menu.isVisible, timeout=2_000)
    QTest.keyClick(window.file_menu, Qt.Key_M)  # Co&mpare…


def test_one_dialog_with_both_versions_swap_then_the_compare_window(qtbot, desk, monkeypatch):
    window, original, revised = desk

    def act(dialog):
        focus = QApplication.focusWidget()
        seen = {"original": dialog.original_field.path(),
                "focus": focus is dialog.revised_field or dialog.revised_field.isAncestorOf(focus),
                "blocked": (dialog.compare_button.isEnabled(), dialog.problem.text())}
        QTest.keyClicks(QApplication.focusWidget(), revised)  # the revised version's path, typed
        seen["ready"] = (dialog.compare_button.isEnabled(), dialog.problem.text())
        QTest.keyClick(QApplication.focusWidget(), Qt.Key_W, Qt.AltModifier)  # S&wap (a button's access key
        qtbot.waitUntil(lambda: dialog.paths() == (revised, original), timeout=2_000)  # clicks it a moment later)
        seen["swapped"] = dialog.paths()
        QTest.keyClick(QApplication.focusWidget(), Qt.Key_W, Qt.AltModifier)  # and back
        qtbot.waitUntil(lambda: dialog.paths() == (original, revised), timeout=2_000)
        QTest.keyClick(QApplication.focusWidget(), Qt.Key_M, Qt.AltModifier)  # Co&mpare
        return seen

    done = when_up(qtbot, act)
    open_compare_from_menu(qtbot, window)
    [seen] = done
    assert seen["original"] == original  # the open document is offered as the original
    assert seen["focus"]  # the keyboard waits in the revised version's field
    assert seen["blocked"] == (False, "Choose the revised document.")
    assert seen["ready"] == (True, "")
    assert seen["swapped"] == (revised, original)
    [compare] = window.files.compare_windows
    qtbot.addWidget(compare)
    compare.ask_before_discarding = False
    assert (compare.base_path, compare.revised_path) == (original, revised)
    assert [r.title for r in compare.differences.rows]  # the redline of v1 -> v2
    # its status bar counts its own pages, not the review window's
    qtbot.waitUntil(lambda: compare.view.is_laid_out, timeout=15_000)
    pages = len(compare.view.pages)
    assert pages > 1
    qtbot.waitUntil(lambda: compare.page_label.text() == f"Page 1 of {pages}", timeout=2_000)
    compare.view.setFocus()
    compare.activateWindow()
    qtbot.waitUntil(compare.isActiveWindow, timeout=2_000)
    QTest.keyClick(compare.view, Qt.Key_End, Qt.ControlModifier)  # to the end of the redline
    qtbot.waitUntil(lambda: compare.page_label.text() == f"Page {pages} of {pages}", timeout=2_000)


def test_browse_recent_files_and_the_same_file_twice_is_refused(qtbot, desk, monkeypatch):
    window, original, revised = desk
    window.files.recent.add(revised)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *_a, **_k: (original, ""))

    def act(dialog):
        revised_field = dialog.revised_field
        names = [revised_field.itemText(i) for i in range(revised_field.count())]
        QTest.keyClick(QApplication.focusWidget(), Qt.Key_E, Qt.AltModifier)  # Brows&e… for the revised
        qtbot.waitUntil(lambda: dialog.revised_field.path() == original, timeout=2_000)
        same = (dialog.compare_button.isEnabled(), dialog.problem.text())
        revised_field.setFocus()
        revised_field.lineEdit().selectAll()
        QTest.keyClicks(revised_field.lineEdit(), "pilot v2.docx")  # a recent file, by its name
        chosen = dialog.paths()
        QTest.keyClick(QApplication.focusWidget(), Qt.Key_Escape)
        return names, same, chosen

    done = when_up(qtbot, act)
    open_compare_from_menu(qtbot, window)
    [(names, same, chosen)] = done
    assert "pilot v2.docx" in names
    assert same == (False, "Choose two different files: the original and the revised are the same.")
    assert chosen == (original, revised)
    assert window.files.compare_windows == []  # Escape cancelled
