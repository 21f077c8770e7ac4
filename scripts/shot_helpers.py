"""What the screenshot scripts share: waiting on the event loop for the window to get somewhere."""

from __future__ import annotations


def wait_for(app, done, timeout_ms: int = 20_000) -> bool:
    """Run app's events until done() is true; False when timeout_ms passed first."""
    from PySide6.QtCore import QDeadlineTimer, QEventLoop

    deadline = QDeadlineTimer(timeout_ms)
    while not done():
        if deadline.hasExpired():
            return False
        app.processEvents(QEventLoop.AllEvents, 50)
    return True
