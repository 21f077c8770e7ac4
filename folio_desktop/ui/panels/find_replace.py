"""FindReplaceDialog: Find and Replace as in Word (Ctrl+H). "Find what" and "Replace with", Match case and
Find whole words only; Find Next (Alt+F) selects the next occurrence after the caret in the pages, Replace
(Alt+R) replaces the selected occurrence and goes on to the next, Replace All (Alt+A) replaces every one
as one batch and one undo step (replace_text.py). Escape closes it.

The dialog stays open beside the window (not modal) and asks `source()` for the window's page view,
reviewer and ReviewActions at every step, so it always works on the document shown now.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QDialog,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
)

from ..pages.selection import Mark
from .replace_text import Search, cased, clause, occurrences, replace_hits, replaced_message


class FindReplaceDialog(QDialog):
    message = Signal(str)  # what the last step did, for the window's status bar
    replaced = Signal(dict)  # a replacement made: what the audit log keeps of it

    def __init__(self, source, parent=None):
        super().__init__(parent)
        self.source = source  # () -> (page view, reviewer, ReviewActions), any of them None without a document
        self.setWindowTitle("Find and Replace")
        self.find_field = QLineEdit()
        self.find_field.setObjectName("findWhat")
        self.replace_field = QLineEdit()
        self.replace_field.setObjectName("replaceWith")
        find_label, replace_label = QLabel("Fi&nd what:"), QLabel("Replace w&ith:")
        find_label.setBuddy(self.find_field)
        replace_label.setBuddy(self.replace_field)
        self.match_case = QCheckBox("Matc&h case")
        self.whole_words = QCheckBox("Find whole words onl&y")
        self.replace_button = QPushButton("&Replace")
        self.replace_all_button = QPushButton("Replace &All")
        self.find_next_button = QPushButton("&Find Next")
        self.close_button = QPushButton("&Close")
        self.find_next_button.setDefault(True)  # Enter in a box finds the next occurrence, as in Word
        self.status = QLabel()
        self.status.setWordWrap(True)

        fields = QGridLayout()
        fields.addWidget(find_label, 0, 0)
        fields.addWidget(self.find_field, 0, 1)
        fields.addWidget(replace_label, 1, 0)
        fields.addWidget(self.replace_field, 1, 1)
        options = QHBoxLayout()
        options.addWidget(self.match_case)
        options.addWidget(self.whole_words)
        options.addStretch(1)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        for button in (self.replace_button, self.replace_all_button, self.find_next_button, self.close_button):
            buttons.addWidget(button)
        column = QVBoxLayout(self)
        column.addLayout(fields)
        column.addLayout(options)
        column.addWidget(self.status)
        column.addLayout(buttons)
        order = (self.find_field, self.replace_field, self.match_case, self.whole_words, self.replace_button,
                 self.replace_all_button, self.find_next_button, self.close_button)
        for first, second in zip(order, order[1:]):
            self.setTabOrder(first, second)
        self.setMinimumWidth(520)

        self.find_next_button.clicked.connect(self.find_next)
        self.replace_button.clicked.connect(self.replace)
        self.replace_all_button.clicked.connect(self.replace_all)
        self.close_button.clicked.connect(self.reject)
        for box in (self.match_case, self.whole_words):
            box.toggled.connect(lambda _on: self._highlight())
        self.find_field.textChanged.connect(lambda _text: self._highlight())

    # -- public -----------------------------------------------------------------------------------

    def open_with(self, text: str | None = None) -> None:
        """Show the dialog with the keyboard in Find what, its text selected (text: look for this,
        the words selected in the pages)."""
        if text:
            self.find_field.setText(text)
        self.show()
        self.raise_()
        self.activateWindow()
        self.find_field.setFocus(Qt.ShortcutFocusReason)
        self.find_field.selectAll()
        self._highlight()

    @property
    def search(self) -> Search:
        return Search(self.find_field.text(), self.match_case.isChecked(), self.whole_words.isChecked())

    def find_next(self) -> bool:
        """Select the next occurrence after the caret (or the selection) in the pages, from the top
        again after the last one."""
        return self._find_next()

    def _find_next(self, done: str = "") -> bool:
        """find_next, saying `done` (what was just done) first."""
        view, reviewer, _actions = self.source()
        search = self.search
        if reviewer is None or not self._has_query(search):
            return False
        hits = search.hits(reviewer)
        self._show_hits(view, hits)
        if not hits:
            self._say(f"{done} {self._not_found(search, reviewer)}".strip())
            return False
        index, wrapped = self._next_index(view, reviewer, hits)
        block, start, end, _range = hits[index]
        if view.scroll_to_block(block.id, start):
            view.selection.select_range(block.id, start, end)
        again = " (from the top of the document again)" if wrapped else ""
        self._say(f"{done} Occurrence {index + 1} of {len(hits)}{again}.".strip())
        return True

    def replace(self) -> bool:
        """Replace the occurrence selected in the pages and go on to the next; with none selected,
        select the next one first (as Word does)."""
        view, reviewer, actions = self.source()
        search = self.search
        if reviewer is None or actions is None or not self._has_query(search):
            return False
        hits = search.hits(reviewer)
        current = self._selected_hit(view, hits)
        if current is None:
            return self.find_next()
        block, start, end, _range = current
        current_text = block.text[start:end]
        replacement = self.replace_field.text()
        outcome = replace_hits(actions, [current], replacement, f"Replace “{_clip(search.query)}”",
                               search.match_case)
        if outcome.unchanged:  # it already reads so: on to the next one
            return self._find_next(f"That one already reads “{replacement}”.")
        if not outcome.made:
            self._say(f"That occurrence was not replaced: {clause(next(iter(outcome.refused), 'nothing changed'))}.")
            return False
        self.replaced.emit({"action": "replace", "blockId": block.id, "find": search.query, "replace": replacement})
        view.selection.place_caret(Mark(block.id, start + len(cased(replacement, current_text, search.match_case))))
        self._find_next("Replaced 1 occurrence.")
        return True

    def replace_all(self):
        """Replace every occurrence as one batch and one undo step; says how many (Replaced)."""
        view, reviewer, actions = self.source()
        search = self.search
        if reviewer is None or actions is None or not self._has_query(search):
            return None
        replacement = self.replace_field.text()
        struck = search.struck(reviewer)  # before the replacements strike through text of their own
        QApplication.setOverrideCursor(Qt.WaitCursor)  # a thousand occurrences take a few seconds
        try:
            outcome = replace_hits(actions, search.hits(reviewer), replacement,
                                   f"Replace All “{_clip(search.query)}”", search.match_case)
        finally:
            QApplication.restoreOverrideCursor()
        outcome.struck = struck
        if outcome.made:
            self.replaced.emit({"action": "replace_all", "find": search.query, "replace": replacement,
                                "count": outcome.made})
        self._say(replaced_message(search, replacement, outcome, actions.track_changes, actions.author))
        self._show_hits(view, search.hits(reviewer))
        return outcome

    # -- the pages --------------------------------------------------------------------------------

    def _next_index(self, view, reviewer, hits: list[tuple]) -> tuple[int, bool]:
        """The first hit at or after the end of the selection (the caret without one), else the first
        (and True: the search went round from the top)."""
        marks = view.selection.selection_marks()
        place = marks[1] if marks is not None else view.selection.caret_mark()
        anchors = reviewer.snapshot().anchors
        if place is None or place.block_id not in anchors:
            return 0, False

        def order(block_id: str, offset: int) -> tuple[int, int]:
            return (anchors[block_id].index if block_id in anchors else -1, offset)

        here = order(place.block_id, place.offset)
        index = next((i for i, (block, start, _e, _r) in enumerate(hits) if order(block.id, start) >= here), None)
        return (0, True) if index is None else (index, False)

    def _selected_hit(self, view, hits: list[tuple]):
        marks = view.selection.selection_marks()
        if marks is None or marks[0].block_id != marks[1].block_id:
            return None
        chosen = (marks[0].block_id, marks[0].offset, marks[1].offset)
        return next((hit for hit in hits if (hit[0].id, hit[1], hit[2]) == chosen), None)

    def _highlight(self) -> None:
        view, reviewer, _actions = self.source()
        if view is not None and reviewer is not None and self.isVisible():
            self._show_hits(view, self.search.hits(reviewer))

    def _show_hits(self, view, hits: list[tuple]) -> None:
        view.set_highlights([(block.id, start, end) for block, start, end, _r in hits])

    # -- words ------------------------------------------------------------------------------------

    def _has_query(self, search: Search) -> bool:
        if not search.query:
            self._say("Type the text to find in Find what.")
            self.find_field.setFocus(Qt.OtherFocusReason)
        return bool(search.query)

    def _not_found(self, search: Search, reviewer) -> str:
        struck = search.struck(reviewer)
        text = f"No occurrences of “{_clip(search.query)}”."
        if struck:
            text += f" {occurrences(struck).capitalize()} in text already deleted (struck through) cannot be replaced."
        return text

    def _say(self, text: str) -> None:
        self.status.setText(text)
        self.message.emit(text)

    def done(self, result: int) -> None:  # Qt override: Escape, Close, the title bar
        """Closing: the highlights go and the keyboard goes back to the pages."""
        view, _reviewer, _actions = self.source()
        super().done(result)
        if view is not None:
            view.set_highlights([])
            view.window().activateWindow()
            view.setFocus(Qt.OtherFocusReason)


def _clip(text: str, n: int = 40) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"
