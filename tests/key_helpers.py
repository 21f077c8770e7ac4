"""Shared set-up for the keyboard tests: a review window on a copy of a corpus contract with comments
and tracked changes, real key events given to the widget that has the focus (as a keyboard gives
them: shortcuts first, then the focus widget), what the document's body reads, and dialogs that
answer at once so a shortcut can never block a test in a modal exec()."""

from __future__ import annotations

import shutil
from pathlib import Path

from chat_helpers import make_settings
from conftest import CORPUS
from PySide6.QtCore import QPointF, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialog, QFileDialog, QInputDialog, QMenu, QMessageBox

from folio_desktop.ui.desk.window import ReviewWindow
from folio_desktop.ui.pages.text_flow import cursor_x

SUPERDOC = CORPUS / "superdoc_word_comments_replies_tracked.docx"  # 3 threads with replies, 4 tracked changes
FIRST = "6A4E1EB8"  # its first paragraph: "This is a word document", a comment on "document"


def review_window(qtbot, tmp_path: Path, source: Path = SUPERDOC) -> ReviewWindow:
    """A shown, active review window on a copy of `source`, laid out at fit width (balloons in view),
    no Claude (no key), the keyboard in the pages."""
    copy = tmp_path / source.name
    shutil.copyfile(source, copy)
    window = ReviewWindow(make_settings(tmp_path, None, api_key=None))
    window.files.ask_before_discarding = False
    window.resize(1500, 900)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    with qtbot.waitSignal(window.view.layoutFinished, timeout=10_000):
        assert window.files.open_document(copy)
    window.view.fit_width()
    activate(qtbot, window)
    window.view.setFocus()
    return window


def activate(qtbot, window) -> None:
    window.activateWindow()  # keys and shortcuts reach the active window only
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=2_000)


def press(widget, key, modifiers=Qt.NoModifier, text: str | None = None) -> None:
    """One key pressed and released with the keyboard focus in `widget` (given it first), carrying
    `text` as X11 gives it (default: QTest's letter for the key)."""
    if QApplication.focusWidget() is not widget:
        widget.setFocus(Qt.OtherFocusReason)
    if text is None:
        QTest.keyClick(widget, key, modifiers)
    else:
        QTest.sendKeyEvent(QTest.Click, widget, key, text, modifiers)


def body(reviewer) -> tuple[list[str], list[tuple[str, str]]]:
    """What the document's body reads (each paragraph's accepted text) and its tracked changes."""
    return [b.text for b in reviewer.snapshot().blocks], [(c.type, c.text) for c in reviewer.get_changes()]


def word_point(view, block_id: str, start: int, end: int) -> QPointF:
    """The viewport point in the middle of accepted-view text [start, end) of a block, in view."""
    index = view.flow.block_entries(block_id)[0]
    number, frag = view.flow.entries[index]
    para = frag.para
    a, b = para.accepted.index(start), para.accepted.index(end - 1) + 1
    k = next(k for k in range(frag.first_line, frag.last_line + 1) if a < para.lines[k].end)
    line = para.layout.lineAt(k)
    x = (cursor_x(line, a) + cursor_x(line, b)) / 2
    point = QPointF(frag.x + para.x + x, frag.y + para.lines[k].y + para.lines[k].height / 2)
    view.scroll_to_page(number)
    return view.page_to_viewport(number, point)


def balloon_button(view, thread_id: int, name: str) -> QPointF:
    """The viewport point of a balloon's button ("reply", "resolve"), scrolled into view."""
    for page in view.pages:
        balloon = next((b for b in view.marks.balloons(page) if b.comment_id == thread_id), None)
        if balloon is not None:
            view.scroll_to_page(page.number)
            h = view.horizontalScrollBar()
            point = view.page_to_viewport(page.number, balloon.buttons[name].center())
            if not 0 <= point.x() < view.viewport().width():
                h.setValue(h.value() + round(point.x() - view.viewport().width() / 2))
            return view.page_to_viewport(page.number, balloon.buttons[name].center())
    raise AssertionError(f"no balloon for thread {thread_id}")


def no_blocking_dialogs(monkeypatch) -> list[str]:
    """Every modal dialog, message box, file dialog and popup menu answers "cancel" at once; the
    list returned names each one that was asked."""
    asked: list[str] = []

    def answer(name, value):
        def stub(*_args, **_kwargs):
            asked.append(name)
            return value
        return stub

    monkeypatch.setattr(QDialog, "exec", answer("QDialog.exec", 0))
    monkeypatch.setattr(QMessageBox, "exec", answer("QMessageBox.exec", QMessageBox.Cancel))
    for name in ("question", "warning", "information", "critical"):
        monkeypatch.setattr(QMessageBox, name, answer(f"QMessageBox.{name}", QMessageBox.Cancel))
    for name in ("getOpenFileName", "getSaveFileName", "getOpenFileNames", "getExistingDirectory"):
        monkeypatch.setattr(QFileDialog, name, answer(f"QFileDialog.{name}", ("", "")))
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", answer("QFileDialog.getExistingDirectory", ""))
    for name, value in (("getInt", (0, False)), ("getText", ("", False)), ("getItem", ("", False)),
                        ("getDouble", (0.0, False)), ("getMultiLineText", ("", False))):
        monkeypatch.setattr(QInputDialog, name, answer(f"QInputDialog.{name}", value))
    monkeypatch.setattr(QMenu, "exec", answer("QMenu.exec", None))
    from PySide6.QtPrintSupport import QPageSetupDialog, QPrintDialog  # (their exec is their own)

    monkeypatch.setattr(QPrintDialog, "exec", answer("QPrintDialog.exec", 0))
    monkeypatch.setattr(QPageSetupDialog, "exec", answer("QPageSetupDialog.exec", 0))
    return asked
