"""ChangesPanel: the reviewing pane. Every pending tracked change as the lawyer decides on it, with its
clause number, author, date and whole text; filters by author and kind, with counts of each.

Rows come from change_rows: one row per decision, not per revision mark (an inserted paragraph is one
row, not its text and its paragraph mark; a move is one row, not its two halves). A row's whole text
is its child item, shown wrapped when the row is expanded (the arrow, Right / Left, or Full text for
every row). Accepting or rejecting a row resolves every census id it stands for; the id lists the
panel reports hold each id once.

The panel never changes the document: its buttons emit acceptRequested / rejectRequested and the
window performs them (undoably) and calls refresh() before the emit returns, so "Accept and Move to
Next" can then select the row that now follows. The compare window uses the same panel with
differences=True: rows worded as a comparison, one per changed paragraph, and no author.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QRect, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontMetrics, QGuiApplication, QKeySequence, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QCheckBox,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...layout.display_text import KIND_COLORS as PAGE_COLORS
from ..review_actions import with_paragraph_marks
from ..wording import counted, short_date
from .change_rows import KINDS, MARKS, ChangeRow, Places, change_rows, counts, difference_rows

ROW_ROLE = Qt.UserRole  # index of the row in panel.rows
KIND_ROLE, META_ROLE, TEXT_ROLE = Qt.UserRole + 1, Qt.UserRole + 2, Qt.UserRole + 3
ALL_AUTHORS, ALL_TYPES = "All authors", "All types"
NO_AUTHOR = "(no author)"
MARK_TYPES = tuple(MARKS)
ONE_LINE = 300  # characters of the text column; the whole text is the row's child
TIP_CHARS = 1500
PAD = 4
BAR = 6  # the coloured bar at a row's left
TITLE_LINES = 3  # a difference's sentence wraps to this many lines at most
# a row's bar: insertions, deletions, moves and formatting in the colours the compare window's pages
# draw them in (layout colors="kind"); a changed paragraph, breaks and tables in their own
KIND_COLORS = {"insertion": PAGE_COLORS["inserted"], "deletion": PAGE_COLORS["deleted"], "move": PAGE_COLORS["moved"],
               "formatting": PAGE_COLORS["formatted"], "modified": "#6a1b9a", "paragraph": "#78909c",
               "table": "#00838f"}
PLURALS = {"modified": ("changed paragraph", "changed paragraphs"), "insertion": ("insertion", "insertions"),
           "deletion": ("deletion", "deletions"), "move": ("move", "moves"), "formatting": ("formatting change",
           "formatting changes"), "paragraph": ("paragraph break", "paragraph breaks"),
           "table": ("table change", "table changes")}


def one_line(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= ONE_LINE else text[:ONE_LINE - 1] + "…"


def unique(ids) -> list[int]:
    return list(dict.fromkeys(ids))


def full_text(row: ChangeRow, differences: bool) -> str:
    """What a row's child shows: the whole text, then where it went or what it was."""
    text = row.text.strip("\n")
    if differences and row.kind in ("modified", "formatting") and row.detail:
        return f"Now reads: {text}\n{row.detail}"
    return "\n".join(part for part in (text, row.detail) if part)


def decision_ids(rows: list[ChangeRow]) -> list[int]:
    """The census ids that resolve these rows: all of them, less each paragraph mark ReviewActions
    takes along with its paragraph's text anyway (so the audit log names the text, once)."""
    out = []
    for row in rows:
        texts = {c.id for c in row.changes if c.type not in MARK_TYPES}
        implied = with_paragraph_marks(row.changes, texts) - texts
        out += [c.id for c in row.changes if c.id not in implied]
    return unique(out)


def plural(n: int, kind: str) -> str:
    one, many = PLURALS.get(kind, (KINDS.get(kind, kind).lower(), KINDS.get(kind, kind).lower()))
    return f"{n} {one if n == 1 else many}"


class RowDelegate(QStyledItemDelegate):
    """Paints a row as a card for a narrow dock: what happened and where (with who and when, on the
    right), then its text on one line; a bar on the left in the colour of its kind. A row's child,
    its whole text, is painted wrapped over the full width, as tall as it needs."""

    def __init__(self, view, differences: bool):
        super().__init__(view)
        self.differences = differences

    def _width(self, index) -> int:
        view = self.parent()
        depth = 1 if index.parent().isValid() else 0
        return max(80, view.viewport().width() - view.indentation() * (depth + int(view.rootIsDecorated()))
                   - 2 * PAD - BAR)

    def _fonts(self):
        """(text font, title font): a change's title is bold; a difference's sentence is the text."""
        base = self.parent().font()
        bold = QFont(base)
        bold.setBold(not self.differences)
        return base, bold

    def _title_rect(self, metrics, width: int, text: str) -> QRect:
        lines = TITLE_LINES if self.differences else 1
        rect = metrics.boundingRect(QRect(0, 0, width, 1_000_000), Qt.TextWordWrap, text)
        return QRect(0, 0, width, min(rect.height(), metrics.lineSpacing() * lines))

    def sizeHint(self, option, index):  # noqa: N802 - Qt override
        base, bold = self._fonts()
        width = self._width(index)
        text = index.data(Qt.DisplayRole) or ""
        if index.parent().isValid():
            rect = QFontMetrics(base).boundingRect(QRect(0, 0, width, 1_000_000), Qt.TextWordWrap, text)
            return QSize(width, rect.height() + 2 * PAD)
        height = self._title_rect(QFontMetrics(bold), width, text).height()
        if index.data(TEXT_ROLE):
            height += QFontMetrics(base).lineSpacing()
        return QSize(width, height + 2 * PAD)

    def paint(self, painter, option, index):
        base, bold = self._fonts()
        text = index.data(Qt.DisplayRole) or ""
        painter.save()
        if index.parent().isValid():
            # the child is not selectable (Up/Down step over it) but is not greyed out either
            painter.setPen(option.palette.color(QPalette.Active, QPalette.Text))
            painter.setFont(base)
            painter.drawText(option.rect.adjusted(PAD + BAR, PAD, -PAD, -PAD), Qt.TextWordWrap, text)
            painter.restore()
            return
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.text = ""
        style = opt.widget.style() if opt.widget is not None else QApplication.style()
        style.drawPrimitive(QStyle.PE_PanelItemViewItem, opt, painter, opt.widget)
        selected = bool(option.state & QStyle.State_Selected)
        role = QPalette.HighlightedText if selected else QPalette.Text
        rect = option.rect.adjusted(PAD + BAR, PAD, -PAD, -PAD)
        painter.fillRect(QRect(option.rect.left(), option.rect.top() + 2, BAR - 2, option.rect.height() - 4),
                         QColor(KIND_COLORS.get(index.data(KIND_ROLE), "#757575")))
        meta = index.data(META_ROLE) or ""
        metrics = QFontMetrics(base)
        meta_width = metrics.horizontalAdvance(meta) + 2 * PAD if meta else 0
        bold_metrics = QFontMetrics(bold)
        title_rect = self._title_rect(bold_metrics, rect.width() - meta_width, text).translated(rect.topLeft())
        painter.setPen(option.palette.color(QPalette.Active, role))
        painter.setFont(bold)
        if self.differences:
            painter.drawText(title_rect, Qt.TextWordWrap, _elided_lines(bold_metrics, text, title_rect))
        else:
            painter.drawText(title_rect, Qt.AlignLeft | Qt.AlignTop,
                             bold_metrics.elidedText(text, Qt.ElideRight, title_rect.width()))
        painter.setFont(base)
        if meta:
            if not selected:
                painter.setPen(option.palette.color(QPalette.Active, QPalette.PlaceholderText))
            painter.drawText(QRect(rect.right() - meta_width + PAD, rect.top(), meta_width - PAD, metrics.height()),
                             Qt.AlignRight | Qt.AlignTop, meta)
            painter.setPen(option.palette.color(QPalette.Active, role))
        line = index.data(TEXT_ROLE)
        if line:
            y = title_rect.bottom() + 1
            painter.drawText(QRect(rect.left(), y, rect.width(), metrics.lineSpacing()), Qt.AlignLeft | Qt.AlignTop,
                             metrics.elidedText(line, Qt.ElideRight, rect.width()))
        painter.restore()


def _elided_lines(metrics, text: str, rect: QRect) -> str:
    """`text` cut with an ellipsis so that, wrapped, it fits in `rect`."""
    if metrics.boundingRect(QRect(0, 0, rect.width(), 1_000_000), Qt.TextWordWrap, text).height() <= rect.height():
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # the longest prefix that fits with its ellipsis
        mid = (lo + hi + 1) // 2
        fits = metrics.boundingRect(QRect(0, 0, rect.width(), 1_000_000), Qt.TextWordWrap,
                                    text[:mid].rstrip() + "…").height() <= rect.height()
        lo, hi = (mid, hi) if fits else (lo, mid - 1)
    return text[:lo].rstrip() + "…"


class RowList(QTreeWidget):
    """The list of rows; wrapped children are measured again when the width changes."""

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        if event.oldSize().width() != event.size().width():
            self.scheduleDelayedItemsLayout()


class ChangesPanel(QWidget):
    changeActivated = Signal(int)  # a row was clicked or stepped to: the window selects this change in the view
    acceptRequested = Signal(list)  # change ids to accept (the window performs it, undoably)
    rejectRequested = Signal(list)

    def __init__(self, parent=None, differences: bool = False):
        super().__init__(parent)
        self.differences = differences
        self.reviewer = None
        self._other_stories: tuple | None = None  # (reviewer, the census of every story but the main one)
        self.rows: list[ChangeRow] = []
        self.author_filter = QComboBox()
        self.type_filter = QComboBox()
        self.full_text = QCheckBox("Full text")
        self.full_text.setToolTip("Show the whole text of every row (one row: click its arrow, or press Right)")
        self.list = RowList()
        self.list.setItemDelegate(RowDelegate(self.list, differences))
        self.list.setHeaderHidden(True)
        self.list.setUniformRowHeights(False)
        self.list.setSelectionMode(QAbstractItemView.ExtendedSelection)
        self.list.setVerticalScrollMode(QAbstractItemView.ScrollPerPixel)
        self.list.setExpandsOnDoubleClick(True)
        if differences:
            self.author_filter.hide()
        self.count_label = QLabel()
        self.count_label.setWordWrap(True)
        self.accept_button = QPushButton("Accept")
        self.reject_button = QPushButton("Reject")
        self.accept_next_button = QPushButton("Accept and Move to Next")
        self.reject_next_button = QPushButton("Reject and Move to Next")
        self.accept_all_button = QPushButton("Accept all")
        self.reject_all_button = QPushButton("Reject all")
        self.accept_button.setToolTip("Accept the selected changes")
        self.reject_button.setToolTip("Reject the selected changes")
        self.accept_next_button.setToolTip("Accept the selected change and go to the next one")
        self.reject_next_button.setToolTip("Reject the selected change and go to the next one")
        self.accept_all_button.setToolTip("Accept every change the filters show")
        self.reject_all_button.setToolTip("Reject every change the filters show")
        for button in (self.accept_button, self.reject_button, self.accept_next_button, self.reject_next_button,
                       self.accept_all_button, self.reject_all_button):
            button.setMinimumWidth(40)  # a narrow dock squeezes the labels rather than the page (desk/side_strips.py)

        filters = QHBoxLayout()
        filters.addWidget(self.author_filter, 1)
        filters.addWidget(self.type_filter, 1)
        filters.addWidget(self.full_text)
        buttons = QGridLayout()
        buttons.addWidget(self.accept_next_button, 0, 0, 1, 2)
        buttons.addWidget(self.reject_next_button, 0, 2, 1, 2)
        for column, button in enumerate((self.accept_button, self.reject_button, self.accept_all_button,
                                         self.reject_all_button)):
            buttons.addWidget(button, 1, column)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addLayout(filters)
        box.addWidget(self.list, 1)
        box.addWidget(self.count_label)
        box.addLayout(buttons)

        self.author_filter.currentIndexChanged.connect(lambda _i: self._apply_filters())
        self.type_filter.currentIndexChanged.connect(lambda _i: self._apply_filters())
        self.full_text.toggled.connect(self._show_full_text)
        self.list.itemSelectionChanged.connect(self._update_buttons)
        self.list.itemClicked.connect(self._on_clicked)
        self.list.installEventFilter(self)
        self.accept_button.clicked.connect(self.accept_selected)
        self.reject_button.clicked.connect(self.reject_selected)
        self.accept_next_button.clicked.connect(self.accept_and_next)
        self.reject_next_button.clicked.connect(self.reject_and_next)
        self.accept_all_button.clicked.connect(self.accept_visible)
        self.reject_all_button.clicked.connect(self.reject_visible)
        self._fill_filters()
        self._update_buttons()

    # -- public ---------------------------------------------------------------------------------

    def set_document(self, reviewer) -> None:
        self.reviewer = reviewer
        self.author_filter.setCurrentIndex(0)
        self.type_filter.setCurrentIndex(0)
        self.refresh()

    def refresh(self, main_only: bool = False) -> None:
        """Read the census again (after an edit, accept or reject), keeping filters, selection and
        expanded rows where the same changes are still pending. `main_only`: only the main story
        changed since the last refresh (typing in the pages), so only its census is read again; on a
        contract with a thousand footnotes the others cost ten times more."""
        selected = set(self.selected_change_ids())
        current = self._current_row()
        current_ids = set(current.ids) if current is not None else set()
        expanded = {tuple(self.rows[self._row_index(item)].ids) for item in self._items() if item.isExpanded()}
        if self.reviewer is not None:
            if main_only and self._other_stories is not None and self._other_stories[0] is self.reviewer:
                changes = self.reviewer.get_changes(main_only=True) + self._other_stories[1]
            else:
                changes = self.reviewer.get_changes()
                self._other_stories = (self.reviewer, [c for c in changes if c.story != "main"])
            places = Places(self.reviewer)
            self.rows = difference_rows(changes, places) if self.differences else change_rows(changes, places)
        else:
            self.rows = []
        self._fill_filters()
        self.list.blockSignals(True)
        self.list.clear()
        items = [self._item(n, row) for n, row in enumerate(self.rows)]
        self.list.addTopLevelItems(items)
        for item, row in zip(items, self.rows):
            if item.childCount():
                item.child(0).setFirstColumnSpanned(True)
                item.setExpanded(self.full_text.isChecked() or tuple(row.ids) in expanded)
        self.list.blockSignals(False)
        self._apply_filters(keep=(selected, current_ids))

    def select_change(self, change_id: int | None) -> None:
        """Select the row holding a change (as the view selected it), without emitting
        changeActivated; None or a change the filters hide clears the selection."""
        self._select_items([item for item in self._visible() if change_id is not None
                            and change_id in self.rows[self._row_index(item)].ids])

    def next_change(self) -> int | None:
        return self._step(1)

    def previous_change(self) -> int | None:
        return self._step(-1)

    def accept_selected(self) -> None:
        self._request(self.acceptRequested, decision_ids(self.selected_rows()))

    def reject_selected(self) -> None:
        self._request(self.rejectRequested, decision_ids(self.selected_rows()))

    def accept_visible(self) -> None:
        """Accept every row the filters show."""
        self._request(self.acceptRequested, self.visible_change_ids())

    def reject_visible(self) -> None:
        self._request(self.rejectRequested, self.visible_change_ids())

    def accept_and_next(self) -> int | None:
        """Accept the selected rows, then select the row that follows them (emits changeActivated);
        with nothing selected, go to the first row. Returns the change now selected."""
        return self._resolve_and_next(self.acceptRequested)

    def reject_and_next(self) -> int | None:
        return self._resolve_and_next(self.rejectRequested)

    def visible_change_ids(self) -> list[int]:
        return unique(i for item in self._visible() for i in self.rows[self._row_index(item)].ids)

    def selected_change_ids(self) -> list[int]:
        return unique(i for item in self._visible() if item.isSelected() for i in self.rows[self._row_index(item)].ids)

    def row_ids(self, change_id: int) -> list[int]:
        """The census ids to resolve for the row holding this change (a move's two halves, the cells
        of a table row; see decision_ids), or [change_id] when no row holds it."""
        row = self.row_of(change_id)
        return decision_ids([row]) if row is not None else [change_id]

    def row_of(self, change_id: int) -> ChangeRow | None:
        return next((r for r in self.rows if change_id in r.ids), None)

    def visible_rows(self) -> list[ChangeRow]:
        return [self.rows[self._row_index(item)] for item in self._visible()]

    def selected_rows(self) -> list[ChangeRow]:
        return [self.rows[self._row_index(item)] for item in self._visible() if item.isSelected()]

    def item_of(self, row: ChangeRow) -> QTreeWidgetItem:
        return self.list.topLevelItem(self.rows.index(row))

    # -- rows -----------------------------------------------------------------------------------

    def _item(self, n: int, row: ChangeRow) -> QTreeWidgetItem:
        """A row: "title · clause" as the item text; its kind, author and text on one line as data
        the delegate paints; its whole text (and when it was made) as its child."""
        item = QTreeWidgetItem([row.title if self.differences or not row.place.short()
                                else f"{row.title} · {row.place.short()}"])
        item.setData(0, ROW_ROLE, n)
        item.setData(0, KIND_ROLE, row.kind)
        whole = full_text(row, self.differences)
        if not self.differences:
            # who on the row, when in its whole text: the narrow dock keeps the title readable
            item.setData(0, META_ROLE, row.author or NO_AUTHOR)
            item.setData(0, TEXT_ROLE, one_line(row.text))
            when = short_date(row.date)
            whole = "\n".join(filter(None, (whole, f"{row.author or NO_AUTHOR}, {when}" if when else "")))
        tip = whole if len(whole) <= TIP_CHARS else whole[:TIP_CHARS - 1] + "…"
        item.setToolTip(0, f"{row.title}\n{tip}" if tip else row.title)
        if whole:
            child = QTreeWidgetItem([whole])
            child.setFlags(Qt.NoItemFlags)  # Up/Down step from row to row, over the open text
            item.addChild(child)
        return item

    def _items(self) -> list[QTreeWidgetItem]:
        return [self.list.topLevelItem(i) for i in range(self.list.topLevelItemCount())]

    def _visible(self) -> list[QTreeWidgetItem]:
        return [item for item in self._items() if not item.isHidden()]

    @staticmethod
    def _row_index(item: QTreeWidgetItem) -> int:
        return item.data(0, ROW_ROLE)

    def _top(self, item: QTreeWidgetItem | None) -> QTreeWidgetItem | None:
        return item.parent() or item if item is not None else None

    def _current_row(self) -> ChangeRow | None:
        item = self._top(self.list.currentItem())
        return self.rows[self._row_index(item)] if item is not None and not item.isHidden() else None

    def _show_full_text(self, on: bool) -> None:
        self.list.expandAll() if on else self.list.collapseAll()
        current = self.list.currentItem()
        if current is not None:
            self.list.scrollToItem(current)

    # -- filters --------------------------------------------------------------------------------

    def _fill_filters(self) -> None:
        """Offer the authors and kinds present (how many rows each has is the item's tooltip and
        the count line's), keeping the chosen ones (even if now gone)."""
        kinds, authors = counts(self.rows)
        for combo, everything, values in ((self.author_filter, ALL_AUTHORS, authors), (self.type_filter, ALL_TYPES, kinds)):
            chosen = combo.currentData()
            if chosen is not None and chosen not in values:
                values[chosen] = 0
            combo.blockSignals(True)
            combo.clear()
            combo.addItem(everything, None)
            for value, n in values.items():
                combo.addItem(KINDS.get(value, value) if combo is self.type_filter else value or NO_AUTHOR, value)
                combo.setItemData(combo.count() - 1, f"{n} of {len(self.rows)}", Qt.ToolTipRole)
            combo.setCurrentIndex(max(0, combo.findData(chosen)) if chosen is not None else 0)
            combo.blockSignals(False)

    def _apply_filters(self, keep=None) -> None:
        author, kind = self.author_filter.currentData(), self.type_filter.currentData()
        selected, current_ids = keep if keep is not None else (set(self.selected_change_ids()), set())
        for item, row in zip(self._items(), self.rows):
            item.setHidden((author is not None and row.author != author) or (kind is not None and row.kind != kind))
        chosen = [item for item in self._visible() if selected & set(self.rows[self._row_index(item)].ids)]
        current = next((item for item in chosen if current_ids & set(self.rows[self._row_index(item)].ids)), None)
        self._select_items(chosen, current)
        self._update_counts()
        self._update_buttons()

    def _update_counts(self) -> None:
        total, shown = len(self.rows), len(self._visible())
        noun = "difference" if self.differences else "change"
        if not total:
            self.count_label.setText(f"No {'differences' if self.differences else 'tracked changes'}")
            return
        head = f"{total} {noun}{'s' if total != 1 else ''}" if shown == total else f"{shown} of {counted(total, noun)} shown"
        kinds, authors = counts(self.rows)
        lines = [f"{head}: " + ", ".join(plural(n, kind) for kind, n in kinds.items())]
        if not self.differences and len(authors) > 1:
            lines.append("By author: " + ", ".join(f"{a or NO_AUTHOR} {n}" for a, n in authors.items()))
        self.count_label.setText("\n".join(lines))

    # -- selection ------------------------------------------------------------------------------

    def _select_items(self, items: list[QTreeWidgetItem], current: QTreeWidgetItem | None = None) -> None:
        self.list.blockSignals(True)
        self.list.clearSelection()
        current = current or (items[0] if items else None)
        if current is not None:
            self.list.setCurrentItem(current)
        for item in items:
            item.setSelected(True)
        self.list.blockSignals(False)
        if current is not None:
            self.list.scrollToItem(current)
        self._update_buttons()

    def _activate(self, item: QTreeWidgetItem) -> int:
        change_id = self.rows[self._row_index(item)].shown.id
        self.changeActivated.emit(change_id)
        return change_id

    def _on_clicked(self, item, _column) -> None:
        item = self._top(item)
        if item is not None and item.isSelected():
            self._activate(item)

    def _step(self, direction: int) -> int | None:
        """Select the next (+1) or previous (-1) visible row after the current one, wrapping around
        the end; emits changeActivated with the change to show."""
        visible = self._visible()
        if not visible:
            return None
        current = self._top(self.list.currentItem())
        if current is None or current.isHidden() or not current.isSelected():
            target = visible[0] if direction > 0 else visible[-1]
        else:
            target = visible[(visible.index(current) + direction) % len(visible)]
        self._select_items([target])
        return self._activate(target)

    def _resolve_and_next(self, signal) -> int | None:
        chosen = [item for item in self._visible() if item.isSelected()]
        if not chosen:
            return self.next_change()
        visible = self._visible()
        resolved = [self.rows[self._row_index(item)] for item in chosen]
        ids = unique(i for row in resolved for i in row.ids)
        wanted = decision_ids(resolved)
        position = visible.index(chosen[0])
        after = [self.rows[self._row_index(item)] for item in visible[visible.index(chosen[-1]) + 1:]]
        following = next((tuple(r.ids) for r in after if not set(r.ids) & set(ids)), None)
        signal.emit(wanted)  # the window resolves them and refreshes this panel before returning
        visible = self._visible()
        if not visible:
            self._select_items([])
            return None
        target = next((item for item in visible if tuple(self.rows[self._row_index(item)].ids) == following), None)
        if target is None:
            # the next row changed with the resolution (a joined paragraph): the one now in its place
            left = [item for item in visible if not set(self.rows[self._row_index(item)].ids) & set(ids)]
            target = left[min(position, len(left) - 1)] if following is not None and left else (left or visible)[0]
        self._select_items([target])
        return self._activate(target)

    # -- buttons and keys -----------------------------------------------------------------------

    def _update_buttons(self) -> None:
        has_selection = bool(self.selected_change_ids())
        has_visible = bool(self._visible())
        for button in (self.accept_button, self.reject_button):
            button.setEnabled(has_selection)
        for button in (self.accept_next_button, self.reject_next_button, self.accept_all_button,
                       self.reject_all_button):
            button.setEnabled(has_visible)

    @staticmethod
    def _request(signal, ids: list[int]) -> None:
        if ids:
            signal.emit(ids)

    def copy_selection(self) -> str:
        """The selected rows' titles and whole texts, on the clipboard."""
        text = "\n\n".join("\n".join(filter(None, (row.title, full_text(row, self.differences))))
                           for row in self.selected_rows())
        if text:
            QGuiApplication.clipboard().setText(text)
        return text

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt override
        # Up/Down only move through the list; Enter shows the current change in the view
        if watched is self.list and event.type() == QEvent.KeyPress:
            if event.key() in (Qt.Key_Return, Qt.Key_Enter):
                item = self._top(self.list.currentItem())
                if item is not None and not item.isHidden():
                    self._activate(item)
                    return True
            if event.matches(QKeySequence.Copy):
                self.copy_selection()
                return True
        return super().eventFilter(watched, event)
