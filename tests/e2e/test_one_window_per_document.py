"""One window per document, one running app per user: a second start on a file that is open brings
its window forward and offers no recovery of the work that window is keeping; a second start on
another file opens it in the running app; a crashed app does not stop the next start. The app runs
in child processes started through the real entry point (folio_desktop.cli.main), as the lawyer's
double-click would, and within the test process for what the running app does with a request."""

from __future__ import annotations

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

from folio_desktop.ui import app as desk_app
from folio_desktop.ui.desk.window import ReviewWindow
from folio_desktop.ui.disk.recovery_prompt import RESTORE
from folio_desktop.ui.single_instance import server_name

# the running app, started as `folio-desktop FILE` is, saying on stdout what a test needs to see:
# each window that shows a document, each status bar message, and (with EDIT) an unsaved edit and its
# recovery copy
RUNNING = r"""
import os, signal, sys
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
app = QApplication([sys.argv[0]])
signal.signal(signal.SIGTERM, lambda *_: app.quit())  # ends as the app does (its lock and socket go)
from folio_desktop.cli import main
from folio_desktop.ui.desk.window import ReviewWindow

seen = set()

def windows():
    return [w for w in QApplication.topLevelWidgets() if isinstance(w, ReviewWindow) and w.isVisible()]

def look():
    for w in windows():
        if w.path and id(w) not in seen:
            seen.add(id(w))
            w.statusBar().messageChanged.connect(
                lambda text, w=w: text and print("STATUS", os.path.basename(w.path), len(windows()), text, flush=True))
            w.files.autosaver.saved.connect(lambda path: print("AUTOSAVED", path, flush=True))
            print("WINDOW", w.path, len(windows()), flush=True)
            if os.environ.get("EDIT"):
                w.files.ask_before_discarding = False
                block = next(b for b in w.reviewer.snapshot().blocks if "Pilot Period" in b.text)
                w.review_actions.edit_paragraph(block.id, block.text.replace("Pilot Period", "Trial Period", 1))
                print("EDITED", flush=True)

timer = QTimer()
timer.timeout.connect(look)
timer.start(100)
sys.exit(main(sys.argv[1:]))
"""


def environment(config: Path, **extra) -> dict:
    return {**os.environ, "QT_QPA_PLATFORM": "offscreen", "FOLIO_DESKTOP_CONFIG_DIR": str(config),
            "FOLIO_DESKTOP_AUTOSAVE_MS": "300", "PYTHONPATH": str(ROOT), **extra}


def start_running(config: Path, *args, **extra) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", RUNNING, *map(str, args)], cwd=ROOT, env=environment(config, **extra),
                            text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def launch(config: Path, *args, timeout: float = 30) -> tuple[subprocess.CompletedProcess, float]:
    """A later start, `python -m folio_desktop ARGS`: its result and how long it took."""
    began = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "folio_desktop", *map(str, args)], cwd=ROOT, env=environment(config),
                          capture_output=True, text=True, timeout=timeout)
    return proc, time.monotonic() - began


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
            return line.rstrip("\n")
    raise AssertionError(f"no {marker} from the app: {seen} {proc.stderr.read() if proc.poll() is not None else ''}")


def stop(proc, config: Path) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
    proc.wait(10)
    if os.path.exists(server_name(config)):  # a killed app's socket: not left for the next run
        os.remove(server_name(config))


def copy_pilot(tmp_path, name: str = PILOT.name) -> Path:
    target = tmp_path / name
    shutil.copyfile(PILOT, target)
    return target


@pytest.mark.timeout(120)
def test_a_second_start_on_an_open_file_brings_its_window_forward_and_offers_no_recovery(tmp_path):
    document, config = copy_pilot(tmp_path), tmp_path / "config"
    running = start_running(config, document, EDIT="1")
    try:
        assert wait_for_line(running, "WINDOW") == f"WINDOW {document} 1"
        wait_for_line(running, "EDITED")
        wait_for_line(running, "AUTOSAVED")  # unsaved work, kept in a recovery copy by the running window
        # a dialog (a recovery offer) in the second start would keep it from ending: the timeout says so
        second, took = launch(config, document)
        assert second.returncode == 0, second.stdout + second.stderr
        assert took < 20
        status = wait_for_line(running, "STATUS")
        assert status == f"STATUS {document.name} 1 {document.name} is already open in this window."
    finally:
        stop(running, config)


@pytest.mark.timeout(120)
def test_a_second_start_on_another_file_opens_it_in_the_running_app(tmp_path):
    document, config = copy_pilot(tmp_path), tmp_path / "config"
    other = copy_pilot(tmp_path, "Other agreement.docx")
    running = start_running(config, document)
    try:
        wait_for_line(running, "WINDOW")
        second, took = launch(config, other)
        assert second.returncode == 0 and took < 20, second.stdout + second.stderr
        assert wait_for_line(running, "WINDOW") == f"WINDOW {other} 2"  # a window of its own, as in Word
        third, _took = launch(config)  # no file: the running app comes forward, nothing opens
        assert third.returncode == 0, third.stdout + third.stderr
    finally:
        stop(running, config)


@pytest.mark.timeout(120)
def test_after_the_app_crashed_the_next_start_is_the_app(tmp_path):
    document, config = copy_pilot(tmp_path), tmp_path / "config"
    crashed = start_running(config, document)
    try:
        wait_for_line(crashed, "WINDOW")
        crashed.send_signal(signal.SIGKILL)  # its lock and its socket stay behind
        crashed.wait(10)
    finally:
        stop(crashed, config)
    running = start_running(config, document)
    try:
        assert wait_for_line(running, "WINDOW") == f"WINDOW {document} 1"  # it did not hand over to the dead app
        second, _took = launch(config, document)
        assert second.returncode == 0, second.stdout + second.stderr
        assert wait_for_line(running, "STATUS").endswith("is already open in this window.")
    finally:
        stop(running, config)


# -- what the running app does with a request (in this process) ----------------------------------


def open_window(qtbot, tmp_path, path) -> ReviewWindow:
    window = ReviewWindow(make_settings(tmp_path, None))
    window.files.ask_before_discarding = False
    qtbot.addWidget(window)
    window.show()
    assert window.files.open_document(path)
    return window


def test_a_request_for_an_open_file_shows_its_window_and_another_file_gets_a_new_one(qtbot, tmp_path):
    document = copy_pilot(tmp_path)
    window = open_window(qtbot, tmp_path, document)
    settings = make_settings(tmp_path, None)
    assert desk_app.show_requested(str(document), settings) is window
    assert desk_app.review_windows() == [window]
    assert window.statusBar().currentMessage() == f"{document.name} is already open in this window."

    other = copy_pilot(tmp_path, "Other agreement.docx")
    opened = desk_app.show_requested(str(other), settings)
    qtbot.addWidget(opened)
    opened.files.ask_before_discarding = False
    assert opened is not window and opened.path == str(other) and opened.isVisible()
    assert desk_app.show_requested(str(other), settings) is opened
    # File > Open of a document another window shows brings that window forward instead
    assert not window.files.open_document(other)
    assert window.path == str(document)


def test_a_window_with_unsaved_work_keeps_its_recovery_copy_to_itself(qtbot, tmp_path, monkeypatch):
    """A second window (or start) on the same config folder is not offered the copy a running window
    keeps; once that window's session ends without cleaning up (a crash), the copy is offered."""
    document = copy_pilot(tmp_path)
    running = open_window(qtbot, tmp_path, document)
    block = next(b for b in running.reviewer.snapshot().blocks if "Pilot Period" in b.text)
    running.review_actions.edit_paragraph(block.id, block.text.replace("Pilot Period", "Trial Period", 1))
    assert running.files.autosaver.save_now()
    monkeypatch.setenv("FOLIO_DESKTOP_CONFIG_DIR", str(tmp_path / "config"))
    offered = []
    second = desk_app.start_window(choose=lambda _w, entry: offered.append(entry) or RESTORE)
    qtbot.addWidget(second)
    second.files.ask_before_discarding = False
    assert offered == [] and second.reviewer is None

    running.files.autosaver.stop()  # its session ends without removing the copy, as a crash would
    running.hide()
    third = desk_app.start_window(choose=lambda _w, entry: offered.append(entry) or RESTORE)
    qtbot.addWidget(third)
    third.files.ask_before_discarding = False
    assert [e.original_path for e in offered] == [str(document)] and third.modified


def test_a_request_for_a_file_that_does_not_open_leaves_no_empty_window(qtbot, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    window = open_window(qtbot, tmp_path, copy_pilot(tmp_path))
    shown = []
    monkeypatch.setattr(QMessageBox, "warning", lambda _parent, _title, text, *a, **k: shown.append(text))
    not_a_docx = tmp_path / "notes.docx"
    not_a_docx.write_text("plain text")
    assert desk_app.show_requested(str(not_a_docx), make_settings(tmp_path, None)) is None
    assert len(shown) == 1 and desk_app.review_windows() == [window]
