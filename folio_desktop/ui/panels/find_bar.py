"""FindBar: find in the document's accepted-view text, every hit highlighted in the page view.

Matching is the engine's (docx/reading/search.py: a literal, case-insensitive unless asked, optional whole
words, the main story only). The reviewer's find_text keeps only the first 200 matches for the
model, and the bar must highlight and step through all of them, so it runs the same matcher over
the snapshot's blocks itself. Hits are searched again before every step, so edits made meanwhile
are never pointed at with stale offsets.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QLineEdit, QToolButton, QWidget

from ...docx.reading.search import block_matches
from ..wording import counted


def find_hits(reviewer, query: str, match_case: bool = False, whole_word: bool = False) -> list[tuple[str, int, int]]:
    """Every (block id, start, end) match in document order, uncapped (find_text keeps 200 for the
    model), counted exactly as find_text counts them."""
    if not query:
        return []
    blocks = reviewer.snapshot().blocks
    return [(block.id, start, end) for block, start, end, _ in block_matches(blocks, query, match_case, whole_word)]


class FindBar(QWidget):
    closed = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.view = None
        self.reviewer = None
        self.hits: list[tuple[str, int, int]] = []
        self.current = -1  # index into hits of the hit shown, -1 before the first step
        self.field = QLineEdit()
        self.field.setPlaceholderText("Find in document")
        self.field.setClearButtonEnabled(True)
        self.match_case = QCheckBox("Match case")
        self.whole_word = QCheckBox("Whole words")
        self.count_label = QLabel()
        self.previous_button = QToolButton()
        self.previous_button.setText("▲")
        self.previous_button.setToolTip("Previous match (Shift+Enter)")
        self.next_button = QToolButton()
        self.next_button.setText("▼")
        self.next_button.setToolTip("Next match (Enter)")
        self.close_button = QToolButton()
        self.close_button.setText("✕")
        self.close_button.setToolTip("Close (Esc)")
        row = QHBoxLayout(self)
        row.setContentsMargins(6, 2, 6, 2)
        row.addWidget(self.field, 1)
        for widget in (self.previous_button, self.next_button, self.count_label, self.match_case, self.whole_word,
                       self.close_button):
            row.addWidget(widget)

        self.field.textChanged.connect(lambda _t: self._search_again())
        self.match_case.toggled.connect(lambda _on: self._search_again())
        self.whole_word.toggled.connect(lambda _on: self._search_again())
        self.previous_button.clicked.connect(self.find_previous)
        self.next_button.clicked.connect(self.find_next)
        self.close_button.clicked.connect(self.close_bar)
        self.field.installEventFilter(self)

    # -- public ---------------------------------------------------------------------------------

    def attach(self, view, reviewer) -> None:
        """Search this reviewer's document and show hits in this view (a newly opened document)."""
        if self.view is not None and self.view is not view:
            self.view.set_highlights([])
        self.view, self.reviewer = view, reviewer
        self.hits, self.current = [], -1
        if self.isVisible():
            self._search_again()

    def open(self, text: str | None = None) -> None:
        """Show the bar with the field focused and selected (text: search for this, e.g. the
        selection in the view)."""
        self.show()
        if text:
            self.field.blockSignals(True)  # one search below, even when the text is unchanged
            self.field.setText(text)
            self.field.blockSignals(False)
        self._search_again()
        self.field.setFocus(Qt.ShortcutFocusReason)
        self.field.selectAll()

    def find_next(self) -> bool:
        return self._step(1)

    def find_previous(self) -> bool:
        return self._step(-1)

    def close_bar(self) -> None:
        """Hide, clear the highlights and hand focus back to the document (emits closed)."""
        if self.view is not None:
            self.view.set_highlights([])
            self.view.setFocus(Qt.OtherFocusReason)
        self.hits, self.current = [], -1
        self.hide()
        self.closed.emit()

    # -- searching ------------------------------------------------------------------------------

    def _find(self) -> list[tuple[str, int, int]]:
        if self.reviewer is None:
            return []
        return find_hits(self.reviewer, self.field.text(), self.match_case.isChecked(), self.whole_word.isChecked())

    def _search_again(self) -> None:
        """New text or options: highlight every hit and go to the first one."""
        self.hits, self.current = self._find(), -1
        if self.view is not None:
            self.view.set_highlights(self.hits)
        if self.hits:
            self._show(0)
        self._update_label()

    def _step(self, direction: int) -> bool:
        """Go to the next (+1) or previous (-1) hit after the current one, wrapping around."""
        previous = self.hits[self.current] if 0 <= self.current < len(self.hits) else None
        self.hits = self._find()
        if self.view is not None:
            self.view.set_highlights(self.hits)
        if not self.hits:
            self.current = -1
            self._update_label()
            return False
        if previous in self.hits:
            index = (self.hits.index(previous) + direction) % len(self.hits)
        elif previous is not None:
            index = self._after(previous, direction)
        else:
            index = 0 if direction > 0 else len(self.hits) - 1
        self._show(index)
        self._update_label()
        return True

    def _after(self, hit: tuple[str, int, int], direction: int) -> int:
        """The first hit after (before) where a hit that has since gone used to be."""
        anchors = self.reviewer.snapshot().anchors
        order = {block_id: (anchors[block_id].index if block_id in anchors else -1) for block_id, _s, _e in self.hits}
        key = (anchors[hit[0]].index if hit[0] in anchors else -1, hit[1])
        keys = [(order[b], s) for b, s, _e in self.hits]
        if direction > 0:
            return next((i for i, k in enumerate(keys) if k > key), 0)
        return next((i for i in range(len(keys) - 1, -1, -1) if keys[i] < key), len(keys) - 1)

    def _show(self, index: int) -> None:
        self.current = index
        if self.view is None:
            return
        block_id, start, end = self.hits[index]
        if self.view.scroll_to_block(block_id, start):
            self.view.selection.select_range(block_id, start, end)

    def _update_label(self) -> None:
        if not self.field.text():
            self.count_label.setText("")
        elif not self.hits:
            self.count_label.setText("No matches")
        elif self.current < 0:
            self.count_label.setText(counted(len(self.hits), "match", "matches"))
        else:
            self.count_label.setText(f"{self.current + 1} of {len(self.hits)}")

    # -- keys -----------------------------------------------------------------------------------

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt override
        if watched is self.field and event.type() == QEvent.KeyPress:
            if event.key() in (Qt.Key_Return, Qt.Key_Enter):
                self._step(-1 if event.modifiers() & Qt.ShiftModifier else 1)
                return True
            if event.key() == Qt.Key_Escape:
                self.close_bar()
                return True
        return super().eventFilter(watched, event)

    def keyPressEvent(self, event) -> None:  # noqa: N802 - Qt override
        if event.key() == Qt.Key_Escape:
            self.close_bar()
        else:
            super().keyPressEvent(event)
