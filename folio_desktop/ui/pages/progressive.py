"""Lay a document out in slices on the GUI thread, so the first page shows while the rest flow.

Each slice pulls pages from Paginator.run() until its time budget is spent (the first slice stops
after page one). A single page is the smallest step the paginator offers, so one very slow page
can still overrun the budget.
"""

from __future__ import annotations

import gc
import logging
import time

from PySide6.QtCore import QObject, QTimer, Signal

from ...layout import DocumentLayout, Paginator

log = logging.getLogger(__name__)


class ProgressiveLayout(QObject):
    pagesReady = Signal(list)  # pages completed in one slice (first pass only)
    finished = Signal(object)  # the DocumentLayout (a second pass may have replaced the pages)
    failed = Signal(str)

    def __init__(self, parent=None, budget_ms: float = 30.0):
        super().__init__(parent)
        self.budget = budget_ms / 1000
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._slice)
        self._doc = None
        self._paginator = None
        self._run = None

    @property
    def running(self) -> bool:
        return self._doc is not None

    def start(self, doc, view: str = "all", colors: str = "author") -> None:
        """Lay `doc` out in the markup view `view` with change colours `colors` (see Paginator)."""
        self.cancel()
        self._options = {"view": view, "colors": colors}
        # the opened document is long-lived: move it out of the collector's young generations so a
        # full collection never lands inside a layout slice (it cost up to ~80 ms on 500 pages). Not
        # collected first: that full collection was a tenth of a second before the first page (what
        # opening left behind is collected once the layout is done: PageEditor._freeze)
        gc.freeze()
        self._doc = doc
        self._pass = 1
        self._pages: list = []
        self._timer.start()

    def cancel(self) -> None:
        self._timer.stop()
        self._doc = self._paginator = self._run = None

    def _slice(self) -> None:
        deadline = time.perf_counter() + self.budget
        fresh = []
        try:
            if self._paginator is None:
                self._paginator = Paginator(self._doc, **self._options)
                self._run = self._paginator.run()
            last = 0.0
            while True:
                started = time.perf_counter()
                page = next(self._run, None)
                if page is None:
                    break
                self._pages.append(page)
                fresh.append(page)
                now = time.perf_counter()
                last = now - started
                # stop when the budget is spent, or the next page (about as slow as this one) would spend it
                if len(self._pages) == 1 or now + last >= deadline:
                    break
        except Exception as exc:  # noqa: BLE001 - a layout bug must not take the window down
            log.exception("layout failed")
            self.cancel()
            self.failed.emit(f"The document could not be laid out ({type(exc).__name__}: {exc}).")
            return
        if fresh and self._pass == 1:
            self.pagesReady.emit(fresh)
        if page is not None or self._doc is None:
            if self._doc is not None:
                self._timer.start()
            return
        self._pass_done()

    def _pass_done(self) -> None:
        paginator, pages = self._paginator, self._pages
        # NUMPAGES / SECTIONPAGES in a header need the final counts: flow once more, as layout_document does
        if self._pass == 1 and paginator.counts_stale():
            paginator.settle_counts()
            self._pass, self._pages = 2, []
            self._run = paginator.run()
            self._timer.start()
            return
        layout = DocumentLayout(pages, dict(paginator.fonts.substitutions), paginator)
        self.cancel()
        self.finished.emit(layout)
