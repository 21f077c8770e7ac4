"""Start the desktop app: one QApplication, one ReviewWindow, the document given (or the sample),
after offering back any unsaved work a crash left in the recovery folder."""

from __future__ import annotations

import sys
from collections.abc import Callable

from .. import APP_NAME, __version__
from .desk.recovery_prompt import offer_recovery

ORGANIZATION = "folio"


def start_window(path: str | None = None, choose: Callable | None = None, settings=None, as_copy: bool = False):
    """The shown review window: recovered work when the lawyer restores some, else `path` (as an
    untitled copy with `as_copy`: the bundled sample)."""
    from PySide6.QtGui import QIcon
    from PySide6.QtWidgets import QApplication

    from ..assets import icon_path
    from .desk.window import ReviewWindow

    app = QApplication.instance() or QApplication([sys.argv[0] if sys.argv else APP_NAME])
    app.setApplicationName(APP_NAME)
    app.setOrganizationName(ORGANIZATION)
    app.setApplicationVersion(__version__)
    app.setWindowIcon(QIcon(str(icon_path())))
    window = ReviewWindow(settings)
    if window.desktop.value("window/geometry") is None:
        window.resize(1440, 920)
    window.show()
    if not offer_recovery(window, choose) and path:
        # a file that cannot be opened is explained in a dialog
        window.files.open_copy(path) if as_copy else window.files.open_document(path)
    return window


def run_app(path: str | None = None, argv: list[str] | None = None, quit_after_ms: int | None = None,
            as_copy: bool = False) -> int:
    """Show the review window on `path` and run the event loop until it closes; the exit code.
    `quit_after_ms` closes it by itself after that long (the packaged app's smoke test)."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    if argv is None:
        argv = [sys.argv[0] if sys.argv else APP_NAME]
    app = QApplication.instance() or QApplication(argv)
    window = start_window(path, as_copy=as_copy)
    if quit_after_ms is not None:
        QTimer.singleShot(max(0, quit_after_ms), lambda: report_and_close(app, window))
    return app.exec()


def report_and_close(app, window) -> None:
    """Say what is on screen (so a script can check the window really came up), then close it as
    the lawyer would and end the event loop."""
    print(f"{APP_NAME}: window shown on {app.platformName()}: {window.windowTitle()!r}, "
          f"{len(window.view.pages)} page(s)", flush=True)
    window.close()
    app.quit()
