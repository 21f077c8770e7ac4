"""The open file watched on disk: another program's change, replacement (a rename over it) or
deletion is told within seconds in a bar above the pages, whose Compare, Reload and Keep mine do what
they say; a touch and our own saves say nothing. An owner file Word keeps beside the document is told
at open."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from chat_helpers import PILOT, make_settings
from owner_files import word_owner_file

from folio_desktop.docx import DocxReviewer
from folio_desktop.ui.desk.window import ReviewWindow

NOTICED_MS = 6_000  # "within seconds": the watcher sees it at once, the stat fallback within 2 s


def copy_pilot(tmp_path, name: str = PILOT.name) -> Path:
    target = tmp_path / name
    shutil.copyfile(PILOT, target)
    return target


def open_window(qtbot, tmp_path, path) -> ReviewWindow:
    window = ReviewWindow(make_settings(tmp_path, None))
    window.files.ask_before_discarding = False
    qtbot.addWidget(window)
    window.show()
    with qtbot.waitSignal(window.view.layoutFinished, timeout=10_000):
        assert window.files.open_document(path)
    return window


def edit(window) -> None:
    block = next(b for b in window.reviewer.snapshot().blocks if "Pilot Period" in b.text)
    window.review_actions.edit_paragraph(block.id, block.text.replace("Pilot Period", "Trial Period", 1))


def other_version(path: Path, note: str = "Changed by someone else.") -> bytes:
    """The document as another program would have saved it: with a comment of its own."""
    outside = DocxReviewer.open(path)
    outside.add_comment(outside.snapshot().content_blocks[3].id, note)
    return outside.to_bytes()


def bar_says(window, words: str) -> bool:
    notice = window.files.disk.change_notice
    return notice is not None and notice.isVisible() and words in notice.label.text()


def bar_hidden(window) -> bool:
    notice = window.files.disk.change_notice
    return notice is None or not notice.isVisible()


def quiet_after_a_look(qtbot, window) -> bool:
    """Whether the bar stays hidden once the watch has looked at the file as it is now (its next look,
    woken by the file's events or by the poll, ends before waitSignal returns)."""
    with qtbot.waitSignal(window.files.disk.watch.looked, timeout=NOTICED_MS):
        pass
    return bar_hidden(window)


def test_a_change_in_place_is_told_within_seconds(qtbot, tmp_path):
    document = copy_pilot(tmp_path)
    window = open_window(qtbot, tmp_path, document)
    data = other_version(document)
    with open(document, "r+b") as fh:  # written in place, as some programs do
        fh.write(data)
        fh.truncate()
    qtbot.waitUntil(lambda: bar_says(window, "was changed on disk by another program"), timeout=NOTICED_MS)
    disk = window.files.disk
    assert disk.compare_button.isVisible() and disk.reload_button.isVisible() and disk.keep_button.isVisible()


def test_a_rename_over_the_file_is_told_and_the_watch_survives_it(qtbot, tmp_path):
    document = copy_pilot(tmp_path)
    window = open_window(qtbot, tmp_path, document)
    replacement = tmp_path / "~wrd0001.tmp"
    replacement.write_bytes(other_version(document))
    os.replace(replacement, document)  # as Word (and our own save) write a file
    qtbot.waitUntil(lambda: bar_says(window, "was changed on disk"), timeout=NOTICED_MS)
    window.files.disk.keep_button.click()
    assert bar_hidden(window)
    replacement.write_bytes(other_version(document, "A second change."))
    os.replace(replacement, document)  # the file's own watch went with the first rename
    qtbot.waitUntil(lambda: bar_says(window, "was changed on disk"), timeout=NOTICED_MS)


def test_without_file_system_events_the_periodic_look_still_tells(qtbot, tmp_path):
    """Some file systems (network drives) send no events: the stat every two seconds finds the change."""
    document = copy_pilot(tmp_path)
    window = open_window(qtbot, tmp_path, document)
    window.files.disk.watch._watcher.blockSignals(True)
    document.write_bytes(other_version(document))
    qtbot.waitUntil(lambda: bar_says(window, "was changed on disk"), timeout=NOTICED_MS)


def test_a_deleted_file_is_told_and_saving_it_back_is_asked(qtbot, tmp_path):
    from folio_desktop.ui.desk.files import CANCEL, OVERWRITE

    document = copy_pilot(tmp_path)
    window = open_window(qtbot, tmp_path, document)
    document.unlink()
    qtbot.waitUntil(lambda: bar_says(window, "was deleted or moved away on disk"), timeout=NOTICED_MS)
    disk = window.files.disk
    assert not disk.compare_button.isVisible() and not disk.reload_button.isVisible() and disk.keep_button.isVisible()
    asked = []
    window.files.ask_save_missing = lambda target: asked.append(target) or CANCEL
    assert not window.files.save_document()
    assert asked == [str(document)] and not document.exists()  # never created again without asking
    window.files.ask_save_missing = lambda target: OVERWRITE  # "Save It There Again"
    assert window.files.save_document()
    assert document.is_file() and bar_hidden(window)


def test_a_touch_and_the_same_bytes_written_again_say_nothing(qtbot, tmp_path):
    document = copy_pilot(tmp_path)
    window = open_window(qtbot, tmp_path, document)
    os.utime(document, (1_000_000_000, 1_000_000_000))
    same = tmp_path / "same.tmp"
    same.write_bytes(document.read_bytes())
    os.replace(same, document)
    assert quiet_after_a_look(qtbot, window)


def test_our_own_saves_say_nothing(qtbot, tmp_path):
    document = copy_pilot(tmp_path)
    window = open_window(qtbot, tmp_path, document)
    edit(window)
    assert window.files.save_document()
    assert quiet_after_a_look(qtbot, window)
    edit_again = next(b for b in window.reviewer.snapshot().content_blocks if b.text)
    window.review_actions.insert_paragraph_after(edit_again.id, "A clause of our own.")
    renamed = tmp_path / "Renamed.docx"
    assert window.files.save_document(renamed)  # Save As: the new file is the one watched
    assert quiet_after_a_look(qtbot, window)
    assert window.files.disk.watch.path == str(renamed)
    renamed.write_bytes(other_version(renamed))  # and it is watched
    qtbot.waitUntil(lambda: bar_says(window, "Renamed.docx was changed on disk"), timeout=NOTICED_MS)


def test_compare_opens_the_redline_of_mine_against_the_disk_version(qtbot, tmp_path):
    document = copy_pilot(tmp_path)
    window = open_window(qtbot, tmp_path, document)
    edit(window)
    document.write_bytes(other_version(document))
    qtbot.waitUntil(lambda: bar_says(window, "was changed on disk"), timeout=NOTICED_MS)
    folders_before = set(document.parent.iterdir())
    window.files.disk.compare_button.click()
    assert len(window.files.compare_windows) == 1
    compare = window.files.compare_windows[0]
    qtbot.addWidget(compare)
    compare.ask_before_discarding = False
    stem = document.stem
    assert compare.windowTitle().startswith(f"Compare: {stem} (yours).docx → {stem} (on disk).docx")
    # the redline runs from my version (the lawyer's unsaved edit included) to the one on disk
    assert compare.diff["changes"]
    assert not Path(compare.base_path).exists() and Path(compare.suggested_path()).parent == document.parent
    assert set(document.parent.iterdir()) == folders_before  # nothing left beside the document
    assert window.modified and bar_says(window, "was changed on disk")  # comparing decides nothing


def test_reload_asks_over_unsaved_work_then_shows_the_disk_version(qtbot, tmp_path):
    document = copy_pilot(tmp_path)
    window = open_window(qtbot, tmp_path, document)
    edit(window)
    document.write_bytes(other_version(document))
    qtbot.waitUntil(lambda: bar_says(window, "your unsaved changes here are then dropped"), timeout=NOTICED_MS)
    asked = []
    window.files.disk.reload_chooser = lambda: asked.append("reload?") or False
    window.files.disk.reload_button.click()
    assert asked == ["reload?"] and window.modified and window.reviewer.get_comments() == []  # kept mine
    window.files.disk.reload_chooser = lambda: asked.append("reload?") or True
    window.files.disk.reload_button.click()
    qtbot.waitUntil(lambda: window.view.document_layout is not None, timeout=10_000)
    assert len(asked) == 2 and not window.modified and window.path == str(document)
    assert [c.text for c in window.reviewer.get_comments()] == ["Changed by someone else."]
    assert window.reviewer.get_changes() == [] and bar_hidden(window)
    assert window.files.recovery.entries() == []  # the dropped work's recovery copy went with it
    assert quiet_after_a_look(qtbot, window)


def test_reload_without_unsaved_work_does_not_ask(qtbot, tmp_path):
    document = copy_pilot(tmp_path)
    window = open_window(qtbot, tmp_path, document)
    document.write_bytes(other_version(document))
    qtbot.waitUntil(lambda: bar_says(window, "was changed on disk"), timeout=NOTICED_MS)
    window.files.disk.reload_chooser = lambda: pytest.fail("asked with nothing to lose")
    window.files.disk.reload_button.click()
    assert [c.text for c in window.reviewer.get_comments()] == ["Changed by someone else."]


def test_keep_mine_dismisses_and_the_save_still_warns(qtbot, tmp_path, monkeypatch):
    document = copy_pilot(tmp_path)
    window = open_window(qtbot, tmp_path, document)
    edit(window)
    document.write_bytes(other_version(document))
    qtbot.waitUntil(lambda: bar_says(window, "was changed on disk"), timeout=NOTICED_MS)
    window.files.disk.keep_button.click()
    assert bar_hidden(window) and window.modified
    assert quiet_after_a_look(qtbot, window)  # the same change is not told twice
    asked = []
    monkeypatch.setattr(window.files, "ask_save_conflict", lambda target: asked.append(target) or "overwrite")
    assert window.files.save_document()
    assert asked == [str(document)]
    assert DocxReviewer.open(document).get_comments() == []  # overwritten with mine, as chosen
    assert quiet_after_a_look(qtbot, window)


@pytest.mark.parametrize(("name", "owner_file"), [("Pilot agreement.docx", "~$lot agreement.docx"),
                                                  ("NDA.docx", "~$NDA.docx")])
def test_a_word_owner_file_beside_the_document_is_told_at_open(qtbot, tmp_path, name, owner_file):
    document = copy_pilot(tmp_path, name)
    (tmp_path / owner_file).write_bytes(word_owner_file("Jane Doe"))
    window = open_window(qtbot, tmp_path, document)
    notice = window.files.disk.lock_notice
    assert notice is not None and notice.isVisible()
    assert notice.label.text().startswith(f"{name} is open in Word by Jane Doe, so changes may conflict")
    # Word closes the document: its owner file goes, and so does the bar
    (tmp_path / owner_file).unlink()
    qtbot.waitUntil(lambda: not notice.isVisible(), timeout=NOTICED_MS)


def test_word_opening_the_document_later_is_told_too(qtbot, tmp_path):
    document = copy_pilot(tmp_path, "Pilot agreement.docx")
    window = open_window(qtbot, tmp_path, document)
    assert window.files.disk.lock_notice is None or not window.files.disk.lock_notice.isVisible()
    (tmp_path / "~$lot agreement.docx").write_bytes(word_owner_file("Jane Doe"))
    qtbot.waitUntil(lambda: window.files.disk.lock_notice is not None and window.files.disk.lock_notice.isVisible(),
                    timeout=NOTICED_MS)
    assert "open in Word by Jane Doe" in window.files.disk.lock_notice.label.text()
