"""CatchUp: what follows the document after the lawyer stops typing (the changes, comments and outline
panels, the title), run as a generator of short steps on the GUI thread, one step per turn of the
event loop. Each step is a few tens of milliseconds at most, so a key pressed meanwhile is handled
between two steps instead of after the whole catch-up; a keystroke cancels the rest (the panels catch
up again after the next pause), and so does any other change, which refreshes the panels itself.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QObject, QTimer, Signal

log = logging.getLogger(__name__)


class CatchUp(QObject):
    finished = Signal()  # a job ran to its end

    def __init__(self, parent=None):
        super().__init__(parent)
        self._job = None
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._step)

    @property
    def running(self) -> bool:
        return self._job is not None

    def start(self, job) -> None:
        """Run `job` (a generator: each `yield` lets the event loop turn), in place of any still running."""
        self.cancel()
        self._job = job
        self._timer.start()

    def cancel(self) -> None:
        self._timer.stop()
        job, self._job = self._job, None
        if job is not None:
            job.close()

    def finish(self) -> None:
        """Run the rest of the job now (for a caller that needs the panels up to date at once)."""
        while self._job is not None:
            self._step()

    def _step(self) -> None:
        job = self._job
        if job is None:
            return
        try:
            next(job)
        except StopIteration:
            self._job = None
            self.finished.emit()
            return
        except Exception:  # noqa: BLE001 - a panel's bug must not stop the pages taking keys
            self._job = None
            log.exception("catching up after typing failed")
            return
        self._timer.start()
