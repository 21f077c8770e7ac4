"""Safety: unsaved work survives a crash (a killed process), a clean save or close leaves no
recovery copy behind, and a save that cannot be written (read-only file, full disk, no permission,
read-only drive) says so by name while the work stays open and unsaved."""

from __future__ import annotations

import errno
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from chat_helpers import PILOT, make_settings
from conftest import ROOT
from PySide6.QtWidgets import QMessageBox

from folio_desktop.docx import DocxReviewer
from folio_desktop.ui import app as desk_app
from folio_desktop.ui.desk.window import ReviewWindow
from folio_desktop.ui.disk.recovery_prompt import DISCARD, LATER, RESTORE

CHILD = r"""
import sys
from PySide6.QtWidgets import QApplication
app = QApplication([])
from folio_desktop.ui.desk.window import ReviewWindow
window = ReviewWindow()
window.files.ask_before_discarding = False
window.show()
assert window.files.open_document(sys.argv[1])
assert window.files.autosaver.interval_ms == 300, window.files.autosaver.interval_ms
window.files.autosaver.saved.connect(lambda path: print("AUTOSAVED", path, flush=True))
block = next(b for b in window.reviewer.snapshot().blocks if "Pilot Period" in b.text)
window.review_actions.edit_paragraph(block.id, block.text.replace("Pilot Period", "Trial Period", 1))
print("EDITED", flush=True)
app.exec()
"""


def copy_pilot(tmp_path) -> Path:
    target = tmp_path / PILOT.name
    shutil.copyfile(PILOT, target)  # not the mode: the corpus may be read-only
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


def tracked(window) -> list[tuple[str, str]]:
    return [(c.type, c.text) for c in window.reviewer.get_changes()]


def wait_for_line(proc, marker: str, timeout: float = 30.0) -> str:
    deadline = time.monotonic() + timeout
    seen = []
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            if proc.poll() is not None:
                break
            continue
        seen.append(line)
        if line.startswith(marker):
            return line
    raise AssertionError(f"no {marker} from the child: {seen} {proc.stderr.read() if proc.poll() is not None else ''}")


@pytest.mark.timeout(60)
def test_a_killed_session_is_offered_back_and_restoring_gives_the_edit_back(qtbot, tmp_path, monkeypatch):
    document = copy_pilot(tmp_path)
    config = tmp_path / "config"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", FOLIO_DESKTOP_CONFIG_DIR=str(config),
               FOLIO_DESKTOP_AUTOSAVE_MS="300")
    proc = subprocess.Popen([sys.executable, "-c", CHILD, str(document)], cwd=ROOT, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        wait_for_line(proc, "EDITED")
        saved = wait_for_line(proc, "AUTOSAVED").split(" ", 1)[1].strip()
        proc.send_signal(signal.SIGKILL)  # a crash: no close event, no clean-up
        proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    assert Path(saved).is_file() and Path(saved).parent == config / "recovery"
    assert DocxReviewer.open(document).get_changes() == []  # the edit never reached the document itself

    # the next start offers the work back; restoring gives the edit back, unsaved, on the original file
    monkeypatch.setenv("FOLIO_DESKTOP_CONFIG_DIR", str(config))
    monkeypatch.delenv("FOLIO_DESKTOP_AUTOSAVE_MS", raising=False)
    offered = []
    window = desk_app.start_window(choose=lambda _w, entry: offered.append(entry) or RESTORE)
    qtbot.addWidget(window)
    window.files.ask_before_discarding = False
    assert [e.original_path for e in offered] == [str(document)]
    assert window.path == str(document) and window.modified and window.isWindowModified()
    assert tracked(window) == [("deletion", "Pilot"), ("insertion", "Trial")]
    assert {c.author for c in window.reviewer.get_changes()} == {window.settings.author}
    # the panels read the document once its first page is painted
    qtbot.waitUntil(lambda: window.changes.visible_change_ids() == [c.id for c in window.reviewer.get_changes()],
                    timeout=5_000)

    # saving it keeps the edit in the file and removes the recovery copy
    assert window.files.save_document()
    assert [(c.type, c.text) for c in DocxReviewer.open(document).get_changes()] == [
        ("deletion", "Pilot"), ("insertion", "Trial")]
    assert not Path(saved).exists() and window.files.recovery.entries() == []


def test_discard_drops_a_recovery_copy_and_later_keeps_it(qtbot, tmp_path, monkeypatch):
    document = copy_pilot(tmp_path)
    window = open_window(qtbot, tmp_path, document)
    edit(window)
    written = Path(window.files.autosaver.save_now())
    assert written.is_file() and written.with_suffix(".json").is_file()
    window.close()  # a clean close (the lawyer dropped the work): no copy is left
    assert not written.exists()

    window = open_window(qtbot, tmp_path, document)
    edit(window)
    window.files.autosaver.save_now()
    window.files.autosaver.stop()
    window.hide()  # as if killed: no close event
    monkeypatch.setenv("FOLIO_DESKTOP_CONFIG_DIR", str(tmp_path / "config"))
    later = desk_app.start_window(choose=lambda _w, _e: LATER)
    qtbot.addWidget(later)
    assert later.reviewer is None and len(later.files.recovery.entries()) == 1  # kept for the next start
    later.close()
    again = desk_app.start_window(choose=lambda _w, _e: DISCARD, path=str(document))
    qtbot.addWidget(again)
    assert again.files.recovery.entries() == [] and again.path == str(document) and not again.modified
    assert tracked(again) == []


def test_restoring_over_a_file_changed_since_asks_before_replacing_it(qtbot, tmp_path, monkeypatch):
    document = copy_pilot(tmp_path)
    window = open_window(qtbot, tmp_path, document)
    edit(window)
    window.files.autosaver.save_now()
    window.files.autosaver.stop()
    window.hide()
    outside = DocxReviewer.open(document)
    outside.add_comment(outside.snapshot().blocks[3].id, "Changed by someone else.")
    outside.save(document)
    monkeypatch.setenv("FOLIO_DESKTOP_CONFIG_DIR", str(tmp_path / "config"))
    restored = desk_app.start_window(choose=lambda _w, _e: RESTORE)
    qtbot.addWidget(restored)
    restored.files.ask_before_discarding = False
    assert tracked(restored) == [("deletion", "Pilot"), ("insertion", "Trial")]
    asked = []
    monkeypatch.setattr(restored.files, "ask_save_conflict", lambda target: asked.append(target) or "cancel")
    assert not restored.files.save_document()
    assert asked == [str(document)] and restored.modified
    assert DocxReviewer.open(document).get_comments()  # the other program's version is still there


def test_a_clean_save_removes_the_recovery_copy(qtbot, tmp_path):
    window = open_window(qtbot, tmp_path, copy_pilot(tmp_path))
    assert window.files.autosaver.save_now() is None  # nothing unsaved: nothing written
    edit(window)
    written = Path(window.files.autosaver.save_now())
    assert written.is_file()
    assert window.files.save_document()
    assert not written.exists() and window.files.recovery.entries() == []
    assert window.files.autosaver.save_now() is None


def warnings(monkeypatch) -> list[str]:
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda _parent, _title, text, *a, **k: shown.append(text))
    return shown


def test_a_read_only_file_is_explained_and_the_work_stays_open(qtbot, tmp_path, monkeypatch):
    document = copy_pilot(tmp_path)
    window = open_window(qtbot, tmp_path, document)
    before = document.read_bytes()
    edit(window)
    document.chmod(0o444)
    shown = warnings(monkeypatch)
    assert not window.files.save_document()
    assert len(shown) == 1 and str(document) in shown[0] and "read-only" in shown[0] and "Save As" in shown[0]
    assert window.modified and tracked(window) == [("deletion", "Pilot"), ("insertion", "Trial")]
    assert document.read_bytes() == before
    other = tmp_path / "copy.docx"
    assert window.files.save_document(other) and not window.modified  # Save As elsewhere works


@pytest.mark.parametrize(("code", "words"), [(errno.ENOSPC, "disk is full"), (errno.EROFS, "read-only drive"),
                                             (errno.EACCES, "permission")])
def test_a_failed_write_is_explained_and_the_work_stays_open(qtbot, tmp_path, monkeypatch, code, words):
    document = copy_pilot(tmp_path)
    window = open_window(qtbot, tmp_path, document)
    before = document.read_bytes()
    edit(window)

    def fail(path, data):
        raise OSError(code, os.strerror(code), str(path))

    monkeypatch.setattr("folio_desktop.docx.package.files.atomic_write", fail)  # the one write seam
    shown = warnings(monkeypatch)
    assert not window.files.save_document()
    assert len(shown) == 1 and words in shown[0] and str(document) in shown[0]
    assert "still open" in shown[0] and "Traceback" not in shown[0]
    assert window.modified and window.isVisible() and document.read_bytes() == before
    assert tracked(window) == [("deletion", "Pilot"), ("insertion", "Trial")]
    assert window.files.autosaver.save_now() is not None  # the recovery copy still protects the work
    assert [e.original_path for e in window.files.recovery.entries()] == [str(document)]


def test_opening_a_file_with_unsaved_work_from_a_crash_offers_it_first(qtbot, tmp_path):
    """A copy put off at start-up ("Later") is offered again when the lawyer opens that same file,
    and is never overwritten by the new session's autosaves."""
    document = copy_pilot(tmp_path)
    crashed = open_window(qtbot, tmp_path, document)
    edit(crashed)
    crashed.files.autosaver.save_now()
    crashed.files.autosaver.stop()
    crashed.hide()  # as if killed
    edited = tracked(crashed)
    assert edited

    # Later: the file opens as saved; the copy is kept aside and the new session's autosave leaves it alone
    window = ReviewWindow(make_settings(tmp_path, None))
    window.files.ask_before_discarding = False
    qtbot.addWidget(window)
    asked = []
    window.files.recovery_chooser = lambda _w, entry: asked.append(entry.name) or LATER
    with qtbot.waitSignal(window.view.layoutFinished, timeout=10_000):
        assert window.files.open_document(document)
    assert asked == [document.name] and tracked(window) == []
    block = window.reviewer.snapshot().content_blocks[3]
    window.review_actions.insert_paragraph_after(block.id, "Another session's clause.")
    window.files.autosaver.save_now()
    kept = [e for e in window.files.recovery.entries() if e.key != window.files.recovery.key_for(str(document))]
    assert len(kept) == 1 and kept[0].original_path == str(document)
    assert "Another session" not in DocxReviewer.from_bytes(kept[0].read()).get_content_as_text(annotated=True)
    window.files.autosaver.stop()
    window.hide()

    # Restore: opening the file again brings the crashed session's edit back
    third = ReviewWindow(make_settings(tmp_path, None))
    third.files.ask_before_discarding = False
    qtbot.addWidget(third)
    offered = []

    def choose(_w, entry):  # drop the second session's copy, restore the crashed one set aside
        offered.append(entry.key)
        return DISCARD if entry.key == third.files.recovery.key_for(str(document)) else RESTORE

    third.files.recovery_chooser = choose
    assert third.files.open_document(document)
    qtbot.waitUntil(lambda: third.view.document_layout is not None, timeout=10_000)
    assert third.modified and tracked(third) == edited
    assert len(offered) in (1, 2) and len(set(offered)) == len(offered)
