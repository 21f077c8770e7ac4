"""Real keys in a real window (issue 25, acceptance 2): the app runs in a child process on an X server
of its own (Xvfb), and xdotool presses the keys and clicks the mouse as a person would, through the X
server, the window system and Qt's own key handling (tests/window_probe.py runs the window and says
where its widgets are and what holds the keyboard). Keys that type nothing, F6 and Ctrl+Tab leave the
document as it was; a reply sent with Enter from a balloon, with a word selected in the page, adds the
reply and nothing else. Each is checked in the file saved with Ctrl+S."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import ROOT
from key_helpers import FIRST, SUPERDOC, body

from folio_desktop.docx import DocxReviewer

TOOLS = ("Xvfb", "xdotool")
pytestmark = pytest.mark.skipif(any(shutil.which(t) is None for t in TOOLS),
                                reason="needs Xvfb and xdotool (apt-get install xvfb xdotool)")
WAIT_S = 30.0


class Desk:
    """The app in a child process on its own X display, driven with xdotool."""

    def __init__(self, display: str, document: Path, state_file: Path, child: subprocess.Popen):
        self.display, self.document, self.state_file, self.child = display, document, state_file, child

    def state(self) -> dict:
        try:
            return json.loads(self.state_file.read_text())
        except (OSError, ValueError):
            return {}

    def wait(self, what: str, done, timeout: float = WAIT_S) -> dict:
        """The child's state once done(state) holds (polled), else the test fails saying what it waited for."""
        deadline = time.monotonic() + timeout
        while True:
            state = self.state()
            if "error" in state:
                pytest.fail(f"the window could not say where it is:\n{state['error']}")
            if state and done(state):
                return state
            if self.child.poll() is not None:
                pytest.fail(f"the app exited ({self.child.returncode}) while waiting for {what}")
            if time.monotonic() > deadline:
                pytest.fail(f"waited {timeout:.0f} s for {what}; the window says {state}")
            time.sleep(0.05)

    def xdotool(self, *args: str) -> str:
        proc = subprocess.run(["xdotool", *args], env={**os.environ, "DISPLAY": self.display},
                              capture_output=True, text=True, timeout=WAIT_S)
        assert proc.returncode == 0, (args, proc.stderr)
        return proc.stdout

    def key(self, *keys: str) -> dict:
        """Press keys and wait until the app has had them; its state then."""
        count = self.state()["keys"]
        self.xdotool("key", "--clearmodifiers", *keys)
        return self.wait(f"the app to get {' '.join(keys)}", lambda s: s["keys"] >= count + len(keys))

    def click(self, point, twice: bool = False) -> None:
        x, y = point
        self.xdotool("mousemove", "--sync", str(x), str(y), "click", *(["--repeat", "2", "--delay", "80"] if twice
                                                                       else []), "1")

    def activate(self) -> None:
        """The window active (no window manager: the X input focus given to it directly)."""
        self.xdotool("windowfocus", "--sync", str(self.state()["window"]))
        self.wait("the window to be active", lambda s: s["active"])

    def to_pages(self) -> None:
        """The keyboard back in the pages: Escape closes a dialog or the find bar, a click in the
        text comes back from a pane."""
        state = self.state()
        if state["focus"] in ("dialog", "find bar"):
            state = self.key("Escape")
            state = self.wait("the dialog or the find bar to close", lambda s: s["focus"] not in ("dialog", "find bar"))
        if not state["active"]:
            self.activate()
        if self.state()["focus"] != "pages":
            self.click(self.state()["word"])
        self.wait("the keyboard in the pages", lambda s: s["focus"] == "pages")


@pytest.fixture
def desk(tmp_path):
    log = tmp_path / "app.log"
    read, write = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1600x1000x24", "-nolisten", "tcp"],
                              pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    child = None
    try:
        with os.fdopen(read) as announced:  # Xvfb writes the number of the free display it took, once ready
            number = announced.readline().strip()
        assert number.isdigit(), "Xvfb did not start"
        display = f":{number}"
        document = tmp_path / "contract.docx"
        shutil.copyfile(SUPERDOC, document)
        state_file = tmp_path / "window.json"
        env = {key: value for key, value in os.environ.items() if not key.startswith(("ANTHROPIC_", "QT_"))}
        # settings of its own, and no keyring: the app never reads the user's key (nor talks to Claude)
        env.update(DISPLAY=display, QT_QPA_PLATFORM="xcb", FOLIO_DESKTOP_CONFIG_DIR=str(tmp_path / "config"),
                   PYTHON_KEYRING_BACKEND="keyring.backends.fail.Keyring")
        with open(log, "w") as out:  # a file, not a pipe: the app never blocks on output nobody reads
            child = subprocess.Popen([sys.executable, str(ROOT / "tests" / "window_probe.py"), str(document),
                                      str(state_file)], env=env, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
        desk = Desk(display, document, state_file, child)
        state = desk.wait("the window, laid out", lambda s: s.get("ready") and s.get("word") and s.get("reply"))
        found = desk.xdotool("search", "--sync", "--onlyvisible", "--name", "contract.docx").split()
        assert str(state["window"]) in found, (state["window"], found)
        desk.activate()
        yield desk
    finally:
        for process in (child, server):
            if process is not None and process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        if log.exists() and log.read_text().strip():
            print(log.read_text())  # shown when the test fails


def saved(desk: Desk) -> DocxReviewer:
    """Ctrl+S, then the file as it was written."""
    desk.to_pages()
    saves = desk.state()["saves"]
    desk.key("ctrl+s")
    desk.wait("the document to be saved", lambda s: s["saves"] > saves)
    return DocxReviewer.open(desk.document)


def test_keys_that_type_nothing_and_the_pane_keys_leave_the_document_as_it_was(desk):
    original = body(DocxReviewer.open(SUPERDOC))
    state = desk.state()
    desk.click(state["word"])  # the caret in the text: typing would land there
    desk.wait("the keyboard in the pages", lambda s: s["focus"] == "pages")
    version = desk.state()["version"]

    # F6 and Shift+F6, Ctrl+Tab and Ctrl+Shift+Tab move the keyboard between the panes
    for keys, pane in (("F6", "outline"), ("shift+F6", "pages"), ("shift+F6", "chat"), ("F6", "pages"),
                       ("ctrl+Tab", "outline"), ("ctrl+shift+Tab", "pages"), ("ctrl+shift+Tab", "chat"),
                       ("ctrl+Tab", "pages")):
        desk.key(keys)
        desk.wait(f"{keys} to take the keyboard to the {pane}", lambda s, p=pane: s["focus"] == p)

    # function keys and Escape, each pressed with the keyboard in the pages
    for key in [f"F{n}" for n in range(1, 13)] + ["Escape"]:
        desk.to_pages()
        assert desk.key(key)["version"] == version, key
    desk.to_pages()
    assert desk.state()["version"] == version

    reread = saved(desk)
    assert body(reread) == original  # no new tracked change, the same text


def test_a_reply_sent_with_enter_from_a_balloon_adds_the_reply_and_nothing_else(desk):
    original = DocxReviewer.open(SUPERDOC)
    thread = original.get_comments()[0]
    state = desk.state()
    desk.click(state["word"], twice=True)  # the word selected in the page
    desk.wait("the word selected", lambda s: s["selection"] == [FIRST, 10, 14])
    desk.click(desk.state()["reply"])
    desk.wait("the reply editor", lambda s: s["focus"] == "reply editor")
    desk.xdotool("type", "--delay", "15", "Agreed, keep it.")
    desk.key("Return")
    state = desk.wait("the reply", lambda s: s["replies"][str(thread.id)] == len(thread.replies) + 1)
    desk.wait("the keyboard back in the pages", lambda s: s["focus"] == "pages")

    reread = saved(desk)
    assert body(reread) == body(original)  # the selected word is still there: no paragraph break
    replies = next(t for t in reread.get_comments() if t.id == thread.id).replies
    assert [(r.author, r.text) for r in replies] == [(r.author, r.text) for r in thread.replies] + [
        (state["author"], "Agreed, keep it.")]
    others = [(t.id, t.text, [r.text for r in t.replies]) for t in reread.get_comments() if t.id != thread.id]
    assert others == [(t.id, t.text, [r.text for r in t.replies]) for t in original.get_comments() if t.id != thread.id]
