"""Start the desktop app: one QApplication, a ReviewWindow on the document given (or the sample),
after offering back any unsaved work a crash left in the recovery folder.

One app runs per user and config folder (single_instance.py). Starting it again hands the file to the
running app and exits: a document already open there comes forward in its window; another opens in a
new window (as Word does), or in a window that has none; no file brings the app forward."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

from .. import APP_NAME, __version__
from .disk.recovery_prompt import offer_recovery

ORGANIZATION = "folio"
CASCADE = 32  # a new window opens this far below and right of the one in front
# set (to anything), the app prints how long after the process started it painted its first page, and quits:
# the start-up's one figure (benchmarks/first_paint.py)
FIRST_PAINT_ENV = "FOLIO_DESKTOP_FIRST_PAINT"


def start_window(path: str | None = None, choose: Callable | None = None, settings=None, as_copy: bool = False):
    """The shown review window: recovered work when the lawyer restores some, else `path` (as an
    untitled copy with `as_copy`: the bundled sample)."""
    from PySide6.QtGui import QIcon
    from PySide6.QtWidgets import QApplication

    from ..assets import icon_path
    from .desk.app_shell.author_prompt import ask_author_name
    from .desk.app_shell.palette import follow_system_scheme
    from .desk.app_shell.screen_fit import first_size, small_screen
    from .desk.window import ReviewWindow

    app = QApplication.instance() or QApplication([sys.argv[0] if sys.argv else APP_NAME])
    app.setApplicationName(APP_NAME)
    app.setOrganizationName(ORGANIZATION)
    app.setApplicationVersion(__version__)
    app.setWindowIcon(QIcon(str(icon_path())))
    follow_system_scheme(app)  # a dark system darkens the app; the pages stay white
    window = ReviewWindow(settings)
    if window.desktop.value("window/geometry") is None and small_screen(window):
        window.showMaximized()  # a small screen (or a large scale factor): all of it
    else:
        if window.desktop.value("window/geometry") is None:
            window.resize(first_size(window))
        window.show()
    if not offer_recovery(window, choose) and path:
        # a file that cannot be opened is explained in a dialog
        window.files.open_copy(path) if as_copy else window.files.open_document(path)
    ask_author_name(window)  # the first run: the name tracked changes carry, before any is made
    return window


def review_windows() -> list:
    """The app's shown review windows."""
    from PySide6.QtWidgets import QApplication

    from .desk.window import ReviewWindow

    return [w for w in QApplication.topLevelWidgets() if isinstance(w, ReviewWindow) and w.isVisible()]


_opened_here: list = []  # windows opened for later starts: kept referenced while they live


def show_requested(path: str | None, settings=None):
    """What a later start asked for, in this app: the window showing `path` comes forward; another
    file opens in a window without a document, else in a new one; None brings the app forward. The
    window shown, or None."""
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtWidgets import QApplication

    from .desk.files import bring_forward, window_showing
    from .desk.window import ReviewWindow

    windows = review_windows()
    front = QApplication.activeWindow() if QApplication.activeWindow() in windows else None
    front = front or (windows[-1] if windows else None)
    if path is None and front is not None:
        bring_forward(front)
        return front
    shown = window_showing(path) if path is not None else None
    if shown is not None:
        bring_forward(shown, f"{Path(path).name} is already open in this window.")
        return shown
    window = next((w for w in windows if w.reviewer is None), None)
    made = window is None
    if made:
        window = ReviewWindow(settings)
        window.setAttribute(Qt.WA_DeleteOnClose)
        _opened_here.append(window)
        window.destroyed.connect(lambda _o=None, w=window: _opened_here.remove(w) if w in _opened_here else None)
        if front is not None:
            window.resize(front.size())
            window.move(front.pos() + QPoint(CASCADE, CASCADE))
        window.show()
    bring_forward(window)
    if path is None:  # only compare windows were left open: an empty review window
        return window
    # unsaved work a crash left on it is offered first; a file that cannot be opened is explained
    if not window.files.open_document(path) and made and window.reviewer is None:
        window.close()  # no empty window left behind by a file that did not open
        return None
    return window


def run_app(path: str | None = None, argv: list[str] | None = None, quit_after_ms: int | None = None,
            as_copy: bool = False) -> int:
    """Show the review window on `path` and run the event loop until it closes; the exit code.
    When the app already runs for this user, hand `path` to it and return 0 at once.
    `quit_after_ms` closes it by itself after that long (the packaged app's smoke test, which
    stands alone: it neither hands over nor takes requests)."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from ..assistant.settings import default_config_dir
    from .single_instance import SingleInstance

    if argv is None:
        argv = [sys.argv[0] if sys.argv else APP_NAME]
    app = QApplication.instance() or QApplication(argv)
    instance = None
    first_paint = bool(os.environ.get(FIRST_PAINT_ENV))
    if quit_after_ms is None:
        instance = SingleInstance(default_config_dir())
        # the bundled sample (as_copy) is what no file means: the running app just comes forward
        if not instance.claim() and instance.hand_over(None if as_copy else path):
            return 0
        # otherwise this is the app (or the running one did not answer: then this start stands alone)
    window = start_window(path, as_copy=as_copy)
    if instance is not None:
        instance.requested.connect(show_requested)
    if quit_after_ms is not None:
        QTimer.singleShot(max(0, quit_after_ms), lambda: report_and_close(app, window))
    if first_paint:
        probe = FirstPaintProbe(app, window)  # noqa: F841 - lives as long as the event loop runs
    try:
        return app.exec()
    finally:
        if instance is not None:
            instance.release()


def report_and_close(app, window) -> None:
    """Say what is on screen (so a script can check the window really came up), then close it as
    the lawyer would and end the event loop."""
    print(f"{APP_NAME}: window shown on {app.platformName()}: {window.windowTitle()!r}, "
          f"{len(window.view.pages)} page(s)", flush=True)
    window.close()
    app.quit()


def since_process_start() -> float:
    """Seconds since this process started (Linux: its start time in /proc); elsewhere since this module
    was imported, which misses the interpreter's own start-up."""
    try:
        with open("/proc/self/stat") as stat:
            ticks = int(stat.read().rsplit(")", 1)[1].split()[19])  # field 22: start time after boot, in ticks
        return time.clock_gettime(time.CLOCK_BOOTTIME) - ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, AttributeError):
        return time.perf_counter() - _IMPORTED


_IMPORTED = time.perf_counter()


class FirstPaintProbe:
    """FIRST_PAINT_ENV: once the pages have painted the document's first page, print how long after the
    process started (its CPU time, and the wall-clock time for a caller that timed the start itself),
    then close the window and quit."""

    def __init__(self, app, window):
        self.app, self.window = app, window
        window.view.firstPagePainted.connect(self.report)

    def report(self) -> None:
        print(f"{APP_NAME}: first page painted {since_process_start():.3f} s after the process started "
              f"({time.process_time():.3f} s of CPU; at {time.time():.3f})", flush=True)
        self.window.close()
        self.app.quit()
