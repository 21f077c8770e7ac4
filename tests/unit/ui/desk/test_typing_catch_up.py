"""When the lawyer pauses typing, the panels catch up without stalling the window (issue 26): the work
runs as short steps with the event loop turning between them, the changes panel reads the census of the
main story alone (typing changes nothing else; the NVCA's hundreds of footnotes are read once, not after
every pause), and what the panels then show is what a full refresh shows."""

from __future__ import annotations

from conftest import CORPUS
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from typing_helpers import desk

import folio_desktop.docx.reviewer as reviewer_module
from folio_desktop.ui.pages.selection import Mark

NVCA = CORPUS / "contract_nvca_stock_purchase_agreement_27p.docx"


def test_the_panels_catch_up_in_steps_reading_only_the_main_story(qtbot, tmp_path, monkeypatch):
    window = desk(qtbot, tmp_path, NVCA)
    view, reviewer = window.view, window.reviewer
    assert sum(1 for s in reviewer.stories() if s.type == "footnote") > 50
    body = [b for b in reviewer.snapshot().blocks if b.element is not None and b.table is None and len(b.text) > 80]
    assert view.selection.place_caret(Mark(body[len(body) // 2].id, 10, False))
    for ch in "Purchaser":
        qtbot.keyClick(view, ch)
    qtbot.keyClick(view, Qt.Key_Return)
    qtbot.keyClicks(view, "A new clause.")

    read = []
    census = reviewer_module.census
    monkeypatch.setattr(reviewer_module, "census", lambda doc, story, *a: read.append(story.key) or census(doc, story, *a))
    checks = getattr(window, "checks", None)
    if checks is not None:  # the contract checks read every story by design (a blank in a footnote counts)
        run_checks = checks.refresh

        def checks_unrecorded():
            n = len(read)
            run_checks()
            del read[n:]
        monkeypatch.setattr(checks, "refresh", checks_unrecorded)
    window.commands._typing_timer.stop()
    window.commands._typing_timer.timeout.emit()  # the pause: the panels catch up from here
    catch_up = getattr(window.commands, "catch_up", None)  # (before issue 26 the timer did it all at once)
    turns = 0
    while catch_up is not None and catch_up.running:
        QApplication.processEvents()
        turns += 1
        assert turns < 1000
    assert turns >= 4  # the record, the changes, the comments and the outline each had a turn of their own
    assert set(read) == {"main"}

    caught_up = [tuple(row.ids) for row in window.changes.rows]
    outline = [window.outline.tree.topLevelItem(i).text(0) for i in range(window.outline.tree.topLevelItemCount())]
    window.changes.refresh()  # a full refresh reads every story again
    window.outline.refresh(view.document_layout)
    assert caught_up == [tuple(row.ids) for row in window.changes.rows]
    assert any(c.author == "Lawyer" for c in reviewer.get_changes())
    assert outline == [window.outline.tree.topLevelItem(i).text(0) for i in range(window.outline.tree.topLevelItemCount())]
