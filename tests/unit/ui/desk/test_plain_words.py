"""Plain words: dates with the month named in the user's locale ("2 Dec 2026, 00:56"); counts that agree
in number ("Exported 1 page"); no change row that reads just "Inserted" over nothing; paragraphs under an
unnumbered heading located by that heading, not "after 2.3.8.3"; a damaged file named, explained, and
its readable text offered as a new document."""

from __future__ import annotations

import re
import shutil

import pytest
from conftest import CORPUS
from key_helpers import activate, no_blocking_dialogs, press, review_window
from PySide6.QtCore import QDateTime, QLocale, Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox
from typing_helpers import click_at

from folio_desktop.docx import DocxReviewer
from folio_desktop.ui.panels.change_rows import Places, change_rows, difference_rows

DOCLING = CORPUS / "docling_numbered_headings.docx"  # numbered items, then an unnumbered REFERENCES heading
TRUNCATED = CORPUS / "bad" / "poi_truncated62886.docx"  # a zip cut short: its table of contents is gone


@pytest.fixture
def british(qapp):
    before = QLocale()
    QLocale.setDefault(QLocale(QLocale.English, QLocale.UnitedKingdom))
    yield
    QLocale.setDefault(before)


def test_balloon_dates_name_the_month_in_the_users_locale(qtbot, tmp_path, monkeypatch, british):
    no_blocking_dialogs(monkeypatch)
    window = review_window(qtbot, tmp_path)
    view = window.view
    threads = {t.id: t for t in window.reviewer.get_comments()}
    shown = [(b.comment_id, text) for page in view.pages for b in view.marks.balloons(page)
             for _rect, kind, text in b.parts if kind == "meta"]
    assert shown
    for thread_id, text in shown:
        moment = QDateTime.fromString(threads[thread_id].date, Qt.ISODate).toLocalTime()
        assert text.split(" · ")[0] == moment.toString("d MMM yyyy, HH:mm")  # "13 Dec 2025, 07:20"
        assert re.match(r"\d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d", text)


def test_exporting_one_page_says_one_page(qtbot, tmp_path, monkeypatch):
    no_blocking_dialogs(monkeypatch)
    window = review_window(qtbot, tmp_path)  # a one-page document
    assert len(window.view.pages) == 1
    target = tmp_path / "out.pdf"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *_a, **_k: (str(target), ""))
    QTest.keyClick(window, Qt.Key_F, Qt.AltModifier)  # File
    qtbot.waitUntil(window.file_menu.isVisible, timeout=2_000)
    QTest.keyClick(window.file_menu, Qt.Key_P)  # Export &PDF (as shown)
    qtbot.waitUntil(target.exists, timeout=10_000)
    assert window.statusBar().currentMessage() == f"Exported 1 page with redlines and comments to {target}"


def test_no_change_row_reads_just_inserted_over_nothing(qtbot, tmp_path, monkeypatch):
    for path in sorted(CORPUS.glob("*.docx")):
        reviewer = DocxReviewer.open(path)
        changes = reviewer.get_changes()
        bare = [(r.title, r.text) for r in change_rows(changes, Places(reviewer))
                if r.title in ("Inserted", "Deleted") and not r.text.strip()]
        assert bare == [], path.name
    titles = {r.title for r in change_rows(*(lambda r: (r.get_changes(), Places(r)))(DocxReviewer.open(
        CORPUS / "openxmlsdk_comment042_tracked_pPr_rPr_changes_notes.docx")))}
    assert {"Inserted endnote reference and footnote reference", "Inserted space"} <= titles
    # in the window: the row of the comment marks Word tracked as an insertion says what they are
    no_blocking_dialogs(monkeypatch)
    window = review_window(qtbot, tmp_path)
    panel = window.changes
    row = next(r for r in panel.rows if not r.text.strip() and r.kind == "insertion")
    assert row.title == "Inserted 2 comment marks"
    item = next(panel.list.topLevelItem(i) for i in range(panel.list.topLevelItemCount())
                if panel.list.topLevelItem(i).text(0).startswith("Inserted 2 comment marks"))
    window.changes_dock.raise_()
    QTest.mouseClick(panel.list.viewport(), Qt.LeftButton, Qt.NoModifier, panel.list.visualItemRect(item).center())
    assert panel.list.currentItem() is item


def test_a_paragraph_under_an_unnumbered_heading_is_located_by_that_heading(qtbot, tmp_path, monkeypatch):
    no_blocking_dialogs(monkeypatch)
    window = review_window(qtbot, tmp_path, DOCLING)
    reviewer = window.reviewer
    under = next(b for b in reviewer.snapshot().blocks if b.text == "This is the first reference.")
    click_at(qtbot, window.view, under.id, 0)
    QTest.keyClicks(window.view, "Note: ")  # a tracked insertion under REFERENCES
    window.commands.catch_up.finish()
    window.changes.refresh()
    texts = [window.changes.list.topLevelItem(i).text(0) for i in range(window.changes.list.topLevelItemCount())]
    assert "Inserted · REFERENCES" in texts
    assert not any("after 2.3.8.3" in t for t in texts)
    heading = next(b for b in reviewer.snapshot().blocks if b.text == "REFERENCES")
    place = Places(reviewer).place("main", heading.id)
    assert place.short() == "REFERENCES" and place.name() == "the heading “REFERENCES”"


def test_a_damaged_file_is_named_explained_and_its_text_offered(qtbot, tmp_path, monkeypatch):
    window = review_window(qtbot, tmp_path)
    damaged = tmp_path / TRUNCATED.name
    shutil.copyfile(TRUNCATED, damaged)
    before = damaged.read_bytes()
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *_a, **_k: (str(damaged), ""))
    seen = []

    def answer():
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox) or QApplication.activeWindow() is not box:
            QTimer.singleShot(20, answer)  # until the message is up and has the keyboard
            return
        seen.append((box.text(), box.informativeText()))
        QTest.keyClick(box, Qt.Key_O, Qt.AltModifier)  # &Open Recovered Text
        # a box without that button: fail, not hang (the timer goes with the box when it is deleted)
        QTimer.singleShot(2_000, box, lambda: box.isVisible() and box.done(0))

    QTimer.singleShot(0, answer)
    activate(qtbot, window)
    press(window.view, Qt.Key_O, Qt.ControlModifier)
    [(text, more)] = seen
    assert text == "“poi_truncated62886.docx” is damaged and cannot be opened as it is."
    assert "cut short" in more and "43 paragraphs can still be read" in more and "backup" in more
    assert "zip" not in text + more  # the technical reason is in the details, not in the lawyer's words
    qtbot.waitUntil(lambda: window.view.is_laid_out, timeout=10_000)
    assert window.path is None and window.display_name == "poi_truncated62886 (recovered text).docx"
    words = [b.text for b in window.reviewer.snapshot().blocks]
    assert "DX IMPORTADORA  E  EXPORTADORA  LTDA" in words and len(words) >= 40
    assert "Opened the text recovered from poi_truncated62886.docx (43 paragraphs)" in \
        window.statusBar().currentMessage()
    assert damaged.read_bytes() == before


def test_a_comparison_places_a_new_paragraph_under_its_heading():
    reviewer = DocxReviewer.open(DOCLING)
    under = next(b for b in reviewer.snapshot().blocks if b.text == "This is the first reference.")
    result = reviewer.apply_document_operations({"version": 1, "mode": "tracked-changes", "operations": [
        {"type": "insertAfterBlock", "blockId": under.id, "text": "A third reference."}]})
    assert result["applied"]
    titles = [r.title for r in difference_rows(reviewer.get_changes(), Places(reviewer))]
    assert titles == ["New paragraph under “REFERENCES”: “A third reference.”"]
