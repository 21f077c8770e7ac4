"""The review window in a child process on an X server of its own (Xvfb), driven with xdotool as a
person would drive it: the keys and clicks go through the X server, the window system and Qt's own key
handling. tests/window_probe.py runs the window and says, in a JSON file, where its widgets are and what
holds the keyboard. For tests/e2e/test_*_xvfb.py, which are skipped where Xvfb or xdotool is missing."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
from conftest import ROOT

TOOLS = ("Xvfb", "xdotool")
NEEDS_X = pytest.mark.skipif(any(shutil.which(t) is None for t in TOOLS),
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

    def type(self, text: str) -> dict:
        """Type text (one key a character) and wait until the app has had every key."""
        count = self.state()["keys"]
        self.xdotool("type", "--delay", "15", text)
        return self.wait(f"the app to get {text!r}", lambda s: s["keys"] >= count + len(text))

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


@contextmanager
def desk_on(tmp_path: Path, source: Path, ready=lambda state: True, env_extra: dict | None = None,
            settled: bool = True):
    """The app on a copy of `source` (tmp_path / "contract.docx") on an Xvfb display of its own, its
    window laid out, found by X under the file's name and active; ready(state): what else to wait for.
    `env_extra`: more of the app's environment; settled=False: yielded as soon as it is started (a first
    run's question comes before the window is ready).
    The app and the X server are ended afterwards, and the app's output printed (shown when a test fails)."""
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
        shutil.copyfile(source, document)
        state_file = tmp_path / "window.json"
        env = {key: value for key, value in os.environ.items() if not key.startswith(("ANTHROPIC_", "QT_"))}
        # settings of its own, and no keyring: the app never reads the user's key (nor talks to Claude)
        env.update(DISPLAY=display, QT_QPA_PLATFORM="xcb", FOLIO_DESKTOP_CONFIG_DIR=str(tmp_path / "config"),
                   PYTHON_KEYRING_BACKEND="keyring.backends.fail.Keyring", **(env_extra or {}))
        with open(log, "w") as out:  # a file, not a pipe: the app never blocks on output nobody reads
            child = subprocess.Popen([sys.executable, str(ROOT / "tests" / "window_probe.py"), str(document),
                                      str(state_file)], env=env, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
        desk = Desk(display, document, state_file, child)
        if settled:
            state = desk.wait("the window, laid out", lambda s: s.get("ready") and ready(s))
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
            print(log.read_text())
