"""OutlinePanel: the document's headings as a tree, numbered as the document shows them.

Clicking a heading asks the window to go there (blockActivated); while the lawyer scrolls, the
window calls follow() with the block at the top of the viewport and the panel highlights the
section that block belongs to, without asking the view to move.
"""

from __future__ import annotations

from bisect import bisect_right

from PySide6.QtCore import QEvent, QModelIndex, Qt, Signal
from PySide6.QtWidgets import QHeaderView, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

BLOCK_ROLE = Qt.UserRole
MAX_TITLE = 100  # long "headings" (a numbered clause styled as a heading) are cut in the tree


def heading_number(block) -> str:
    """The number the document shows before a heading, or "" (an unnumbered heading's
    display_label is its style id, which is not a number)."""
    label = block.display_label or ""
    return "" if not block.list_reference or label == block.style_id else label


def heading_title(block) -> str:
    text = " ".join(block.text.split())
    if len(text) > MAX_TITLE:
        text = text[:MAX_TITLE - 1].rstrip() + "…"
    number = heading_number(block)
    return f"{number}  {text}" if number else text


class OutlinePanel(QWidget):
    blockActivated = Signal(str)  # a heading was clicked: the window scrolls the view there

    def __init__(self, parent=None):
        super().__init__(parent)
        self.reviewer = None
        self._layout = None
        self._items: dict[str, QTreeWidgetItem] = {}
        self._order: list[int] = []  # snapshot index of each heading, ascending
        self._ids: list[str] = []  # heading block ids in the same order
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Heading", "Page"])
        self.tree.setHeaderHidden(True)
        self.tree.setColumnHidden(1, True)
        self.tree.header().setStretchLastSection(False)
        self.tree.header().setSectionResizeMode(0, QHeaderView.Stretch)
        self.tree.header().setSectionResizeMode(1, QHeaderView.ResizeToContents)
        self.tree.setUniformRowHeights(True)
        self.tree.itemClicked.connect(self._activate)
        self.tree.installEventFilter(self)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(self.tree)

    # -- public ---------------------------------------------------------------------------------

    def set_document(self, reviewer, layout=None) -> None:
        """Show a document's headings (with their page numbers when a layout is given)."""
        self.reviewer = reviewer
        self._layout = layout
        self._rebuild(None)

    def refresh(self, layout=None) -> None:
        """Read the headings again after edits; a new layout updates the page column (without one
        the last layout's pages are kept until the window passes the relaid-out one)."""
        if layout is not None:
            self._layout = layout
        self._rebuild(self.current_block_id())

    def follow(self, block_id: str | None) -> None:
        """Highlight the last heading at or before `block_id` in document order (nothing before the
        first heading); unknown blocks leave the highlight as it is."""
        if self.reviewer is None:
            return
        if block_id is None:
            self._highlight(None)
            return
        anchor = self.reviewer.snapshot().anchors.get(block_id)
        if anchor is None:
            return
        k = bisect_right(self._order, anchor.index)
        self._highlight(self._ids[k - 1] if k else None)

    def current_block_id(self) -> str | None:
        item = self.tree.currentItem()
        return item.data(0, BLOCK_ROLE) if item is not None and item.isSelected() else None

    def item_for(self, block_id: str) -> QTreeWidgetItem | None:
        return self._items.get(block_id)

    # -- building -------------------------------------------------------------------------------

    def _rebuild(self, keep: str | None) -> None:
        self.tree.clear()
        self._items, self._order, self._ids = {}, [], []
        if self.reviewer is None:
            return
        snapshot = self.reviewer.snapshot()
        pages = self._layout is not None
        self.tree.setColumnHidden(1, not pages)
        for entry in self.reviewer.outline():
            block = entry.block
            parent = self._items.get(entry.parent.block.id) if entry.parent is not None else None
            item = QTreeWidgetItem(parent) if parent is not None else QTreeWidgetItem(self.tree)
            item.setText(0, heading_title(block))
            item.setToolTip(0, " ".join(filter(None, (heading_number(block), block.text))))
            item.setData(0, BLOCK_ROLE, block.id)
            if pages:
                page = self._layout.page_of(block.id)
                item.setText(1, str(page) if page else "")
                item.setTextAlignment(1, Qt.AlignRight | Qt.AlignVCenter)
            self._items[block.id] = item
            self._order.append(snapshot.anchors[block.id].index)
            self._ids.append(block.id)
        self.tree.expandAll()
        if keep in self._items:
            self._highlight(keep)

    def _highlight(self, block_id: str | None) -> None:
        item = self._items.get(block_id) if block_id else None
        if item is None:
            self.tree.clearSelection()
            self.tree.setCurrentIndex(QModelIndex())
            return
        if item is not self.tree.currentItem() or not item.isSelected():
            self.tree.setCurrentItem(item)
        self.tree.scrollToItem(item)

    # -- input ----------------------------------------------------------------------------------

    def _activate(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        self.blockActivated.emit(item.data(0, BLOCK_ROLE))

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt override
        # Enter on the current heading goes there, like a click (Up/Down only move the highlight)
        if watched is self.tree and event.type() == QEvent.KeyPress and event.key() in (Qt.Key_Return, Qt.Key_Enter):
            item = self.tree.currentItem()
            if item is not None:
                self._activate(item)
                return True
        return super().eventFilter(watched, event)
