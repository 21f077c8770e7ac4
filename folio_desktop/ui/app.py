"""Start the desktop app: one QApplication, one ReviewWindow, the document given (or the sample)."""

from __future__ import annotations

import sys

from .. import APP_NAME, __version__


def run_app(path: str | None = None, argv: list[str] | None = None) -> int:
    """Show the review window on `path` and run the event loop until it closes; the exit code."""
    from PySide6.QtWidgets import QApplication

    from .review_window import ReviewWindow

    if argv is None:
        argv = [sys.argv[0] if sys.argv else APP_NAME]
    app = QApplication.instance() or QApplication(argv)
    app.setApplicationName(APP_NAME)
    app.setApplicationVersion(__version__)
    window = ReviewWindow()
    window.resize(1440, 920)
    window.show()
    if path:
        window.open_document(path)  # a file that cannot be opened is explained in a dialog
    return app.exec()
