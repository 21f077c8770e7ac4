"""What the screenshot scripts share: a private workspace, and waiting on the event loop for the
window to get somewhere."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def workspace() -> Path:
    """A fresh temporary folder whose config/ the app uses for its settings, recovery files and
    window layout, so the user's own are never read or changed."""
    work = Path(tempfile.mkdtemp(prefix="folio-shot-"))
    os.environ["FOLIO_DESKTOP_CONFIG_DIR"] = str(work / "config")
    return work


def wait_for(app, done, timeout_ms: int = 20_000) -> bool:
    """Run app's events until done() is true; False when timeout_ms passed first."""
    from PySide6.QtCore import QDeadlineTimer, QEventLoop

    deadline = QDeadlineTimer(timeout_ms)
    while not done():
        if deadline.hasExpired():
            return False
        app.processEvents(QEventLoop.AllEvents, 50)
    return True


def review_window(app, work: Path, document: Path, author: str = "Alex Morgan"):
    """A review window (1500x940, settings in work/config, no Claude key) on `document`, laid out,
    its Claude panel hidden."""
    from folio_desktop.assistant import AssistantSettings
    from folio_desktop.ui.desk.window import ReviewWindow

    window = ReviewWindow(AssistantSettings(api_key=None, author=author, config_dir=work / "config"))
    window.files.ask_before_discarding = False
    window.resize(1500, 940)
    window.move(0, 0)
    window.show()
    window.files.open_document(document)
    wait_for(app, lambda: window.view.document_layout is not None)
    window.dock.hide()
    return window
