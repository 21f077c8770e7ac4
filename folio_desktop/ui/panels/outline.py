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
STEP_ITEMS = 400  # headings made or updated between two turns of the event loop (refresh_steps)


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
        self._shape: list[tuple] | None = None  # (block id, parent's block id) of each heading, as shown
        self._placed: dict[str, object] = {}  # heading -> the first (page, fragment) its page was read from
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
        for _ in self.refresh_steps(layout):
            pass

    def refresh_steps(self, layout=None):
        """refresh() as a generator that yields between slices of its work, for a caller that lets
        the event loop run in between (typing pauses: window.commands). When the same headings are
        there, only the titles and pages that changed are set; otherwise the tree is built anew,
        STEP_ITEMS headings at a time, and shown at the end."""
        if layout is not None:
            self._layout = layout
        keep = self.current_block_id()
        if self.reviewer is None:
            self._rebuild(keep)
            return
        entries = self.reviewer.outline()
        yield
        shape = [(e.block.id, e.parent.block.id if e.parent is not None else None) for e in entries]
        if shape != self._shape or (self._layout is not None) == self.tree.isColumnHidden(1):
            yield from self._rebuild_steps(keep, entries)
            return
        snapshot = self.reviewer.snapshot()
        self._order = [snapshot.anchors[block_id].index for block_id, _parent in shape]
        for n, entry in enumerate(entries, 1):
            self._fill(self._items[entry.block.id], entry.block)
            if n % STEP_ITEMS == 0:
                yield

    def _fill(self, item: QTreeWidgetItem, block) -> None:
        """Set a heading's title and page where they changed (a page only where its first fragment did)."""
        title = heading_title(block)
        if item.text(0) != title:
            item.setText(0, title)
        tip = " ".join(filter(None, (heading_number(block), block.text)))
        if item.toolTip(0) != tip:
            item.setToolTip(0, tip)
        if self._layout is not None:
            placed = self._layout.fragments_of(block.id)
            first = placed[0] if placed else None
            if first is not self._placed.get(block.id, False):
                self._placed[block.id] = first
                page = self._layout.page_of(block.id) if first is not None else None
                item.setText(1, str(page) if page else "")

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
        for _ in self._rebuild_steps(keep, self.reviewer.outline() if self.reviewer is not None else []):
            pass

    def _rebuild_steps(self, keep: str | None, entries):
        """The tree anew: its items made STEP_ITEMS at a time (yielding in between), then shown at once."""
        items: dict[str, QTreeWidgetItem] = {}
        tops, order, ids = [], [], []
        self._placed = {}
        snapshot = self.reviewer.snapshot() if self.reviewer is not None else None
        for n, entry in enumerate(entries, 1):
            block = entry.block
            parent = items.get(entry.parent.block.id) if entry.parent is not None else None
            item = QTreeWidgetItem(parent) if parent is not None else QTreeWidgetItem()
            if parent is None:
                tops.append(item)
            item.setData(0, BLOCK_ROLE, block.id)
            item.setTextAlignment(1, Qt.AlignRight | Qt.AlignVCenter)
            self._fill(item, block)
            items[block.id] = item
            order.append(snapshot.anchors[block.id].index)
            ids.append(block.id)
            if n % STEP_ITEMS == 0:
                yield
        self.tree.clear()
        self.tree.setColumnHidden(1, self._layout is None)
        self._items, self._order, self._ids = items, order, ids
        self._shape = [(e.block.id, e.parent.block.id if e.parent is not None else None) for e in entries]
        self.tree.addTopLevelItems(tops)
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
