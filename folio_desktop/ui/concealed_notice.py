"""The bar above the pages that tells the lawyer a document holds text they may not see (hidden,
coloured like its background, or too small to read). It never blocks: "Show" scrolls to the first
such paragraph, the close button puts the bar away until the next document opens."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QToolButton

from ..docx.concealed import ConcealedReport


class ConcealedNotice(QFrame):
    showRequested = Signal(str)  # the block id to bring into view

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("concealedNotice")
        self.setStyleSheet("#concealedNotice { background: #fff4ce; border-bottom: 1px solid #e0c97a; }")
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.PlainText)  # the excerpts are the document's words: never markup
        self.label.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.show_button = QPushButton("Show")
        self.show_button.setToolTip("Scroll to the first paragraph that holds such text")
        self.show_button.clicked.connect(self._show_first)
        self.close_button = QToolButton()
        self.close_button.setText("✕")
        self.close_button.setAutoRaise(True)
        self.close_button.setToolTip("Dismiss this notice")
        self.close_button.setAccessibleName("Dismiss")
        self.close_button.clicked.connect(self.hide)
        row = QHBoxLayout(self)
        row.setContentsMargins(10, 6, 6, 6)
        row.addWidget(self.label, 1)
        row.addWidget(self.show_button, 0, Qt.AlignTop)
        row.addWidget(self.close_button, 0, Qt.AlignTop)
        self.block_id: str | None = None
        self.hide()

    def set_report(self, report: ConcealedReport | None) -> bool:
        """Show what `report` found (True), or hide the bar when there is nothing to tell."""
        if report is None or report.is_empty():
            self.block_id = None
            self.label.clear()
            self.hide()
            return False
        self.label.setText(report.describe())
        self.block_id = report.first_block_id  # None when only headers, footers or notes hold some
        self.show_button.setVisible(self.block_id is not None)
        self.show()
        return True

    def _show_first(self) -> None:
        if self.block_id is not None:
            self.showRequested.emit(self.block_id)
