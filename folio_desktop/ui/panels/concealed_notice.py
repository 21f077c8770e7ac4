"""The bar above the pages that tells the lawyer a document holds text they may not see (hidden,
coloured like its background, or too small to read). It never blocks: "Show" scrolls to the first
such paragraph, the close button puts the bar away until the next document opens."""

from __future__ import annotations

from PySide6.QtCore import Signal

from ...docx.reading.concealed import ConcealedReport
from .info_bar import InfoBar


class ConcealedNotice(InfoBar):
    showRequested = Signal(str)  # the block id to bring into view

    def __init__(self, parent=None):
        super().__init__("concealedNotice", "Show", "Scroll to the first paragraph that holds such text", parent)
        self.show_button = self.action_button
        self.show_button.clicked.connect(self._show_first)
        self.block_id: str | None = None

    def set_report(self, report: ConcealedReport | None) -> bool:
        """Show what `report` found (True), or hide the bar when there is nothing to tell."""
        if report is None or report.is_empty():
            self.block_id = None
            return self.tell(None)
        self.block_id = report.first_block_id  # None when only headers, footers or notes hold some
        self.show_button.setVisible(self.block_id is not None)
        return self.tell(report.describe())

    def _show_first(self) -> None:
        if self.block_id is not None:
            self.showRequested.emit(self.block_id)
