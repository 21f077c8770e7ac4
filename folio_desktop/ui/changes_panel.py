"""ChangesPanel: every pending tracked change, filterable by author and type.

One row per entry of the engine's census (reviewer.get_changes()), in its order (story, then
document order). The census does not pair a paragraph-mark change with the text inserted or
deleted with it, so neither does the panel: they are separate rows, each accepted or rejected on
its own. A revision id can own several rows (one w:ins spanning two paragraphs); the id lists the
panel reports hold each id once.

The panel never changes the document: its buttons emit acceptRequested / rejectRequested and the
window performs them (undoably), then calls refresh().
"""

from __future__ import annotations

from PySide6.QtCore import QDateTime, QEvent, QLocale, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

ID_ROLE = Qt.UserRole
ALL_AUTHORS, ALL_TYPES = "All authors", "All types"
TYPE_LABELS = {
    "insertion": "Inserted",
    "deletion": "Deleted",
    "formatting": "Formatted",
    "rowInserted": "Row inserted",
    "rowDeleted": "Row deleted",
    "cellInserted": "Cell inserted",
    "cellDeleted": "Cell deleted",
    "cellMerged": "Cells merged",
    "paragraphMarkInserted": "Paragraph break inserted",
    "paragraphMarkDeleted": "Paragraph break deleted",
    "paragraphPropertiesChanged": "Paragraph formatting",
    "sectionPropertiesChanged": "Section formatting",
    "tablePropertiesChanged": "Table formatting",
    "rowPropertiesChanged": "Row formatting",
    "cellPropertiesChanged": "Cell formatting",
}
COL_TYPE, COL_AUTHOR, COL_DATE, COL_TEXT = range(4)
MAX_TEXT = 200


def short_date(iso: str | None) -> str:
    """An OOXML date (ISO 8601, usually UTC) in the user's local time and short locale form."""
    if not iso:
        return ""
    moment = QDateTime.fromString(iso, Qt.ISODateWithMs)
    if not moment.isValid():
        moment = QDateTime.fromString(iso, Qt.ISODate)
    if not moment.isValid():
        return iso
    return QLocale().toString(moment.toLocalTime(), QLocale.ShortFormat)


def type_label(change) -> str:
    label = TYPE_LABELS.get(change.type, change.type)
    story = change.story.split(":")[0] if change.story else "main"
    return label if story == "main" else f"{label} ({story})"


def one_line(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT - 1] + "…"


def unique(ids) -> list[int]:
    return list(dict.fromkeys(ids))


class ChangesPanel(QWidget):
    changeActivated = Signal(int)  # a change was selected/clicked: the window selects it in the view
    acceptRequested = Signal(list)  # change ids to accept (the window performs it, undoably)
    rejectRequested = Signal(list)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.reviewer = None
        self._changes: list = []
        self.author_filter = QComboBox()
        self.type_filter = QComboBox()
        self.list = QTreeWidget()
        self.list.setHeaderLabels(["Type", "Author", "Date", "Text"])
        self.list.setRootIsDecorated(False)
        self.list.setUniformRowHeights(True)
        self.list.setSelectionMode(QAbstractItemView.ExtendedSelection)
        header = self.list.header()
        for column in (COL_TYPE, COL_AUTHOR, COL_DATE):
            header.setSectionResizeMode(column, QHeaderView.ResizeToContents)
        header.setStretchLastSection(True)
        self.count_label = QLabel()
        self.accept_button = QPushButton("Accept")
        self.reject_button = QPushButton("Reject")
        self.accept_all_button = QPushButton("Accept all")
        self.reject_all_button = QPushButton("Reject all")
        self.accept_button.setToolTip("Accept the selected changes")
        self.reject_button.setToolTip("Reject the selected changes")
        self.accept_all_button.setToolTip("Accept every change the filters show")
        self.reject_all_button.setToolTip("Reject every change the filters show")

        filters = QHBoxLayout()
        filters.addWidget(self.author_filter, 1)
        filters.addWidget(self.type_filter, 1)
        buttons = QHBoxLayout()
        for button in (self.accept_button, self.reject_button, self.accept_all_button, self.reject_all_button):
            buttons.addWidget(button)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addLayout(filters)
        box.addWidget(self.list, 1)
        box.addWidget(self.count_label)
        box.addLayout(buttons)

        self.author_filter.currentIndexChanged.connect(lambda _i: self._apply_filters())
        self.type_filter.currentIndexChanged.connect(lambda _i: self._apply_filters())
        self.list.itemSelectionChanged.connect(self._update_buttons)
        self.list.itemClicked.connect(lambda item, _col: self.changeActivated.emit(item.data(0, ID_ROLE)))
        self.list.installEventFilter(self)
        self.accept_button.clicked.connect(lambda: self._request(self.acceptRequested, self.selected_change_ids()))
        self.reject_button.clicked.connect(lambda: self._request(self.rejectRequested, self.selected_change_ids()))
        self.accept_all_button.clicked.connect(lambda: self._request(self.acceptRequested, self.visible_change_ids()))
        self.reject_all_button.clicked.connect(lambda: self._request(self.rejectRequested, self.visible_change_ids()))
        self._fill_filters()
        self._update_buttons()

    # -- public ---------------------------------------------------------------------------------

    def set_document(self, reviewer) -> None:
        self.reviewer = reviewer
        self.author_filter.setCurrentIndex(0)
        self.type_filter.setCurrentIndex(0)
        self.refresh()

    def refresh(self) -> None:
        """Read the census again (after an edit, accept or reject), keeping filters and selection
        where the same authors, types and ids still exist."""
        selected = self.selected_change_ids()
        current = self.list.currentItem()
        current_id = current.data(0, ID_ROLE) if current is not None else None
        self._changes = self.reviewer.get_changes() if self.reviewer is not None else []
        self._fill_filters()
        self.list.blockSignals(True)
        self.list.clear()
        for change in self._changes:
            item = QTreeWidgetItem([type_label(change), change.author, short_date(change.date), one_line(change.text)])
            item.setData(0, ID_ROLE, change.id)
            item.setToolTip(COL_TEXT, change.text)
            item.setToolTip(COL_DATE, change.date or "")
            self.list.addTopLevelItem(item)
        self.list.blockSignals(False)
        self._apply_filters(keep=(selected, current_id))

    def select_change(self, change_id: int | None) -> None:
        """Select a change's rows (as the view selected it), without emitting changeActivated;
        None or a change the filters hide clears the selection."""
        self._select_rows([i for i, item in enumerate(self._rows()) if not item.isHidden()
                           and change_id is not None and item.data(0, ID_ROLE) == change_id])

    def next_change(self) -> int | None:
        return self._step(1)

    def previous_change(self) -> int | None:
        return self._step(-1)

    def visible_change_ids(self) -> list[int]:
        return unique(item.data(0, ID_ROLE) for item in self._rows() if not item.isHidden())

    def selected_change_ids(self) -> list[int]:
        return unique(item.data(0, ID_ROLE) for item in self._rows() if item.isSelected() and not item.isHidden())

    # -- filters --------------------------------------------------------------------------------

    def _fill_filters(self) -> None:
        """Offer the authors and types present, keeping the chosen ones (even if now gone)."""
        for combo, everything, values in (
            (self.author_filter, ALL_AUTHORS, sorted({c.author for c in self._changes}, key=str.casefold)),
            (self.type_filter, ALL_TYPES, [t for t in TYPE_LABELS if any(c.type == t for c in self._changes)]
             + sorted({c.type for c in self._changes} - set(TYPE_LABELS))),
        ):
            chosen = combo.currentData()
            if chosen is not None and chosen not in values:
                values.append(chosen)
            combo.blockSignals(True)
            combo.clear()
            combo.addItem(everything, None)
            for value in values:
                combo.addItem(TYPE_LABELS.get(value, value) if combo is self.type_filter else value or "(no author)",
                              value)
            combo.setCurrentIndex(max(0, combo.findData(chosen)) if chosen is not None else 0)
            combo.blockSignals(False)

    def _apply_filters(self, keep=None) -> None:
        author, kind = self.author_filter.currentData(), self.type_filter.currentData()
        selected, current_id = keep if keep is not None else (self.selected_change_ids(), None)
        for item, change in zip(self._rows(), self._changes):
            item.setHidden((author is not None and change.author != author) or (kind is not None and change.type != kind))
        rows = [i for i, item in enumerate(self._rows()) if not item.isHidden() and item.data(0, ID_ROLE) in selected]
        self._select_rows(rows, current_id)
        shown, total = len(self.visible_change_ids()), len(unique(c.id for c in self._changes))
        if not total:
            self.count_label.setText("No tracked changes")
        else:
            self.count_label.setText(f"{total} changes" if shown == total else f"{shown} of {total} changes shown")
        self._update_buttons()

    # -- selection ------------------------------------------------------------------------------

    def _rows(self) -> list[QTreeWidgetItem]:
        return [self.list.topLevelItem(i) for i in range(self.list.topLevelItemCount())]

    def _select_rows(self, rows: list[int], current_id=None) -> None:
        items = self._rows()
        self.list.blockSignals(True)
        self.list.clearSelection()
        current = next((items[i] for i in rows if items[i].data(0, ID_ROLE) == current_id), None)
        if current is None and rows:
            current = items[rows[0]]
        if current is not None:
            self.list.setCurrentItem(current)
        for i in rows:
            items[i].setSelected(True)
        self.list.blockSignals(False)
        if current is not None:
            self.list.scrollToItem(current)
        self._update_buttons()

    def _step(self, direction: int) -> int | None:
        """Select the next (+1) or previous (-1) visible change after the current one, wrapping
        around the end; emits changeActivated."""
        items = self._rows()
        visible = [i for i, item in enumerate(items) if not item.isHidden()]
        if not visible:
            return None
        current = self.list.currentItem()
        if current is None or current.isHidden() or not current.isSelected():
            target = visible[0] if direction > 0 else visible[-1]
        else:
            here, here_id = items.index(current), current.data(0, ID_ROLE)
            order = visible if direction > 0 else visible[::-1]
            # the rows after (before) the current one, then the rest from the other end
            ahead = [i for i in order if (i - here) * direction > 0] + [i for i in order if (i - here) * direction <= 0]
            target = next((i for i in ahead if items[i].data(0, ID_ROLE) != here_id), here)
        change_id = items[target].data(0, ID_ROLE)
        self.select_change(change_id)
        self.changeActivated.emit(change_id)
        return change_id

    # -- buttons and keys -----------------------------------------------------------------------

    def _update_buttons(self) -> None:
        has_selection = bool(self.selected_change_ids())
        has_visible = any(not item.isHidden() for item in self._rows())
        self.accept_button.setEnabled(has_selection)
        self.reject_button.setEnabled(has_selection)
        self.accept_all_button.setEnabled(has_visible)
        self.reject_all_button.setEnabled(has_visible)

    @staticmethod
    def _request(signal, ids: list[int]) -> None:
        if ids:
            signal.emit(ids)

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt override
        # Up/Down only move through the list; Enter shows the current change in the view
        if watched is self.list and event.type() == QEvent.KeyPress and event.key() in (Qt.Key_Return, Qt.Key_Enter):
            item = self.list.currentItem()
            if item is not None and not item.isHidden():
                self.changeActivated.emit(item.data(0, ID_ROLE))
                return True
        return super().eventFilter(watched, event)
