"""CommentsPanel: comment threads with their replies; reply, resolve or reopen, delete, add a comment.

Each thread is a top-level row (its number, author, date, the quoted anchor text, the comment)
with its replies below it, in reading order and numbered as the balloons beside the pages are;
resolved threads are greyed. A row is as tall as its whole text wrapped at the
panel's width, however the quote wraps (ThreadDelegate). The reply box, the Resolve/Reopen button,
Delete comment (the Delete key or the context menu on a row) and the add box act through signals
only: the window changes the document and calls refresh().
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QModelIndex, QRect, QSize, Qt, Signal
from PySide6.QtGui import QAction, QFontMetrics, QKeySequence, QPalette
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..pages.marks import ReviewIndex
from ..wording import short_date

ID_ROLE = Qt.UserRole
THREAD_ROLE = Qt.UserRole + 1  # the id of the thread's top comment (replies answer the thread)
MAX_QUOTE = 80
ROW_PAD = 4  # px above and below a row's text, and beside it


def heading(comment, resolved: bool = False, number: int | None = None) -> str:
    parts = [str(number) if number else "", comment.author or "(no author)", short_date(comment.date)]
    if resolved:
        parts.append("resolved")
    return " · ".join(p for p in parts if p)


def quote_line(comment) -> str:
    quote = " ".join(comment.anchored_text.split())
    if not quote:
        return ""
    return "“" + (quote if len(quote) <= MAX_QUOTE else quote[:MAX_QUOTE - 1] + "…") + "”"


class ThreadDelegate(QStyledItemDelegate):
    """Draws a row's text wrapped at the width the tree gives it, and asks for exactly the height
    that text needs there. Qt's own delegate measures a wrapped row before it knows the row's
    width, so a wrapping quote left the comment's body cut off below the row."""

    def __init__(self, tree: QTreeWidget):
        super().__init__(tree)
        self.tree = tree

    def text_width(self, index) -> int:
        depth = 0
        parent = index.parent()
        while parent.isValid():
            depth, parent = depth + 1, parent.parent()
        indent = self.tree.indentation() * (depth + (1 if self.tree.rootIsDecorated() else 0))
        return max(self.tree.viewport().width() - indent - 2 * ROW_PAD, 40)

    def sizeHint(self, option, index) -> QSize:  # noqa: N802 - Qt override
        text = index.data(Qt.DisplayRole) or ""
        width = self.text_width(index)
        rect = QFontMetrics(option.font).boundingRect(QRect(0, 0, width, 1_000_000), int(Qt.TextWordWrap), text)
        return QSize(width + 2 * ROW_PAD, rect.height() + 2 * ROW_PAD)

    def paint(self, painter, option, index) -> None:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        text, opt.text = opt.text, ""
        style = opt.widget.style() if opt.widget is not None else self.tree.style()
        style.drawControl(QStyle.CE_ItemViewItem, opt, painter, opt.widget)  # background and selection
        painter.save()
        selected = bool(opt.state & QStyle.State_Selected)
        brush = index.data(Qt.ForegroundRole)
        colour = opt.palette.color(QPalette.HighlightedText) if selected else (
            brush.color() if brush is not None else opt.palette.color(QPalette.Text))
        painter.setPen(colour)
        painter.setFont(opt.font)
        painter.drawText(opt.rect.adjusted(ROW_PAD, ROW_PAD, -ROW_PAD, -ROW_PAD),
                         int(Qt.TextWordWrap | Qt.AlignLeft | Qt.AlignTop), text)
        painter.restore()


class CommentsPanel(QWidget):
    commentActivated = Signal(int)  # jump to the anchor
    replyRequested = Signal(int, str)  # (comment id, text)
    resolveRequested = Signal(int, bool)  # (comment id, resolved)
    deleteRequested = Signal(int)  # a comment's id (a thread's first comment: its replies go with it)
    addRequested = Signal(str)  # a new comment's text, for the current selection in the view

    def __init__(self, parent=None):
        super().__init__(parent)
        self.reviewer = None
        self._threads: dict[int, object] = {}  # thread id -> Comment
        self._items: dict[int, QTreeWidgetItem] = {}  # comment or reply id -> row
        self.tree = QTreeWidget()
        self.tree.setHeaderHidden(True)
        self.tree.setWordWrap(True)
        self.tree.setUniformRowHeights(False)
        self.tree.setTextElideMode(Qt.ElideNone)
        self.tree.setItemDelegate(ThreadDelegate(self.tree))
        self.tree.viewport().installEventFilter(self)  # a new width: rows measure their text again
        self._tree_width = 0
        self.show_resolved = QCheckBox("Show resolved")
        self.show_resolved.setChecked(True)
        self.count_label = QLabel()
        self.resolve_button = QPushButton("Resolve")
        # a key and the rows' context menu rather than a button: the panel stays as narrow as before
        self.delete_action = QAction("&Delete comment", self.tree)
        self.delete_action.setShortcut(QKeySequence.Delete)
        self.delete_action.setShortcutContext(Qt.WidgetShortcut)
        self.tree.addAction(self.delete_action)
        self.tree.setContextMenuPolicy(Qt.ActionsContextMenu)
        self.reply_field = QLineEdit()
        self.reply_field.setPlaceholderText("Reply to the selected thread")
        self.reply_button = QPushButton("Reply")
        self.add_field = QLineEdit()
        self.add_field.setPlaceholderText("Comment on the text selected in the document")
        self.add_button = QPushButton("Add comment on selection")

        top = QHBoxLayout()
        top.addWidget(self.count_label, 1)
        top.addWidget(self.show_resolved)
        reply = QHBoxLayout()
        reply.addWidget(self.reply_field, 1)
        reply.addWidget(self.reply_button)
        reply.addWidget(self.resolve_button)
        add = QHBoxLayout()
        add.addWidget(self.add_field, 1)
        add.addWidget(self.add_button)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addLayout(top)
        box.addWidget(self.tree, 1)
        box.addLayout(reply)
        box.addLayout(add)

        self.tree.itemClicked.connect(lambda item, _col: self._activate(item))
        self.tree.itemSelectionChanged.connect(self._update_controls)
        self.tree.installEventFilter(self)
        self.show_resolved.toggled.connect(lambda _on: self._apply_filter())
        self.resolve_button.clicked.connect(self._toggle_resolved)
        self.delete_action.triggered.connect(self._delete)
        self.reply_button.clicked.connect(self._reply)
        self.reply_field.returnPressed.connect(self._reply)
        self.reply_field.textChanged.connect(lambda _t: self._update_controls())
        self.add_button.clicked.connect(self._add)
        self.add_field.returnPressed.connect(self._add)
        self.add_field.textChanged.connect(lambda _t: self._update_controls())
        self._update_controls()

    # -- public ---------------------------------------------------------------------------------

    def set_document(self, reviewer) -> None:
        self.reviewer = reviewer
        self.refresh()

    def refresh(self) -> None:
        """Read the threads again (after a reply, resolve or new comment), keeping the selection."""
        keep = self.selected_comment_id()
        self.tree.blockSignals(True)
        self.tree.clear()
        self._threads, self._items = {}, {}
        index = ReviewIndex(self.reviewer)  # reading order and the balloons' numbers
        threads = index.threads()
        grey = self.palette().color(QPalette.Disabled, QPalette.Text)
        for thread in threads:
            item = QTreeWidgetItem(self.tree)
            lines = [heading(thread, thread.done, index.numbers.get(thread.id)), quote_line(thread), thread.text]
            item.setText(0, "\n".join(line for line in lines if line))
            self._remember(item, thread.id, thread.id)
            for reply in thread.replies:
                child = QTreeWidgetItem(item)
                child.setText(0, f"{heading(reply)}\n{reply.text.strip()}")
                self._remember(child, reply.id, thread.id)
            if thread.done:
                for row in [item] + [item.child(i) for i in range(item.childCount())]:
                    row.setForeground(0, grey)
            self._threads[thread.id] = thread
        self.tree.expandAll()
        self.tree.blockSignals(False)
        self._apply_filter()
        self.select_comment(keep)
        self._update_controls()

    def select_comment(self, comment_id: int | None) -> None:
        """Select a comment's row (as the view selected it) without emitting commentActivated."""
        item = self._items.get(comment_id) if comment_id is not None else None
        self.tree.blockSignals(True)
        if item is None or item.isHidden() or (item.parent() is not None and item.parent().isHidden()):
            self.tree.clearSelection()
            self.tree.setCurrentIndex(QModelIndex())
        else:
            self.tree.setCurrentItem(item)
            self.tree.scrollToItem(item)
        self.tree.blockSignals(False)
        self._update_controls()

    def selected_comment_id(self) -> int | None:
        item = self._selected_item()
        return item.data(0, ID_ROLE) if item is not None else None

    def selected_thread_id(self) -> int | None:
        item = self._selected_item()
        return item.data(0, THREAD_ROLE) if item is not None else None

    def visible_thread_ids(self) -> list[int]:
        return [self.tree.topLevelItem(i).data(0, ID_ROLE) for i in range(self.tree.topLevelItemCount())
                if not self.tree.topLevelItem(i).isHidden()]

    def item_for(self, comment_id: int) -> QTreeWidgetItem | None:
        return self._items.get(comment_id)

    # -- internals ------------------------------------------------------------------------------

    def _remember(self, item: QTreeWidgetItem, comment_id: int, thread_id: int) -> None:
        item.setData(0, ID_ROLE, comment_id)
        item.setData(0, THREAD_ROLE, thread_id)
        self._items[comment_id] = item

    def _selected_item(self) -> QTreeWidgetItem | None:
        items = self.tree.selectedItems()
        return items[0] if items else None

    def _apply_filter(self) -> None:
        show = self.show_resolved.isChecked()
        for thread_id, thread in self._threads.items():
            self._items[thread_id].setHidden(thread.done and not show)
        open_count = sum(not t.done for t in self._threads.values())
        resolved = len(self._threads) - open_count
        if not self._threads:
            self.count_label.setText("No comments")
        else:
            self.count_label.setText(f"{open_count} open, {resolved} resolved" if resolved else f"{open_count} open")
        selected = self._selected_item()
        if selected is not None and self._items[selected.data(0, THREAD_ROLE)].isHidden():
            self.select_comment(None)

    def _update_controls(self) -> None:
        thread = self._threads.get(self.selected_thread_id())
        self.resolve_button.setEnabled(thread is not None)
        self.delete_action.setEnabled(thread is not None)
        self.resolve_button.setText("Reopen" if thread is not None and thread.done else "Resolve")
        self.reply_button.setEnabled(thread is not None and bool(self.reply_field.text().strip()))
        self.reply_field.setEnabled(thread is not None)
        self.add_button.setEnabled(bool(self.add_field.text().strip()))

    def _activate(self, item: QTreeWidgetItem) -> None:
        # a reply has no anchor of its own in the view: go to its thread's
        self.commentActivated.emit(item.data(0, THREAD_ROLE))

    def _toggle_resolved(self) -> None:
        thread = self._threads.get(self.selected_thread_id())
        if thread is not None:
            self.resolveRequested.emit(thread.id, not thread.done)

    def _delete(self) -> None:
        comment_id = self.selected_comment_id()
        if comment_id is not None:
            self.deleteRequested.emit(comment_id)

    def _reply(self) -> None:
        thread_id, text = self.selected_thread_id(), self.reply_field.text().strip()
        if thread_id is not None and text:
            self.reply_field.clear()
            self.replyRequested.emit(thread_id, text)

    def _add(self) -> None:
        text = self.add_field.text().strip()
        if text:
            self.add_field.clear()
            self.addRequested.emit(text)

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt override
        if watched is self.tree.viewport() and event.type() == QEvent.Resize \
                and event.size().width() != self._tree_width:
            self._tree_width = event.size().width()
            self.tree.doItemsLayout()
        if watched is self.tree and event.type() == QEvent.KeyPress and event.key() in (Qt.Key_Return, Qt.Key_Enter):
            item = self.tree.currentItem()
            if item is not None:
                self._activate(item)
                return True
        return super().eventFilter(watched, event)
