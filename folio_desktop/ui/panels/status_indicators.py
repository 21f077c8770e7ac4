"""The status bar's permanent indicators: "Page X of Y", the zoom and the Track Changes switch.

The page is the caret's while the caret is on screen (as in Word), else the page in the middle of
the view; a click on it opens Go to page. A click on the Track Changes indicator turns the switch
over, as Review > Track Changes (Ctrl+Shift+E) does.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QLabel

REFRESH_MS = 50  # scrolling asks for a refresh per pixel; one per frame or so is enough


class ClickableLabel(QLabel):
    """A label that acts on a click; a button would make the status bar taller."""

    clicked = Signal()

    def __init__(self, tip: str):
        super().__init__()
        self.setToolTip(tip)
        self.setCursor(Qt.PointingHandCursor)

    def mouseReleaseEvent(self, event) -> None:  # noqa: N802 - Qt override
        if event.button() == Qt.LeftButton and self.isEnabled() and self.rect().contains(event.position().toPoint()):
            self.clicked.emit()
        super().mouseReleaseEvent(event)


class StatusIndicators(QObject):
    def __init__(self, window):
        super().__init__(window)
        self.window = window
        view = window.view
        self.page_button = ClickableLabel("Go to page (Ctrl+G)")
        self.page_button.clicked.connect(window.commands.go_to_page_dialog)
        self.zoom_label = QLabel()
        self.zoom_label.setToolTip("Zoom (Ctrl++ and Ctrl+-; Ctrl+0 for 100%)")
        self.track_button = ClickableLabel("Click to turn over: your own edits as tracked changes or made "
                                           "directly (Ctrl+Shift+E); Claude's are always tracked")
        self.track_button.clicked.connect(window.track_changes_action.trigger)
        bar = window.statusBar()
        for widget in (self.page_button, self.zoom_label, self.track_button):
            bar.addPermanentWidget(widget)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(REFRESH_MS)
        self._timer.timeout.connect(self.refresh)
        for signal in (view.verticalScrollBar().valueChanged, view.zoomChanged, view.selectionChanged,
                       view.layoutProgress, view.layoutFinished, view.pagesRelaidOut):
            signal.connect(self._later)
        window.track_changes_action.toggled.connect(lambda _on: self.refresh())
        self.refresh()

    def _later(self, *_args) -> None:
        if not self._timer.isActive():
            self._timer.start()

    def page_number(self) -> int:
        """The caret's page while the caret is on screen, else the page in the middle of the view."""
        view = self.window.view
        caret = view.selection.caret_page()
        if caret and view.page_rect(caret).intersects(view.viewport().rect()):
            return caret
        return view.current_page()

    def refresh(self) -> None:
        view = self.window.view
        total = len(view.pages)
        if total:
            more = "…" if view.is_laying_out else ""
            self.page_button.setText(f"Page {self.page_number()} of {total}{more}")
        else:
            self.page_button.setText("No pages")
        self.page_button.setEnabled(bool(total))
        self.zoom_label.setText(f"{round(view.zoom * 100)}%")
        on = self.window.track_changes_action.isChecked()
        self.track_button.setText(f"Track Changes: {'On' if on else 'Off'}")
