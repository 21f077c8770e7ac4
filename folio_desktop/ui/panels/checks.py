"""ChecksPanel: what a careful associate checks before a contract goes out (folio_desktop.checks), on the
text as it reads once the pending changes are accepted: the findings grouped by kind under plain-word
headings with their counts ("Undefined terms (3)"), each row the clause number, the term, reference or
blank as written, and what is wrong. A click or Enter on a row goes to its paragraph in the pages
(blockActivated), as the outline does.

One CheckSession per document: the window calls refresh() once an edit has settled (after a pause in
the typing, with the other panels), and the session re-reads only the paragraphs that changed. The tree
is rebuilt only when the findings changed, so a re-run that finds the same costs the panel nothing.
"""

from __future__ import annotations

import time

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtWidgets import QHeaderView, QLabel, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from ..wording import counted

BLOCK_ROLE = Qt.UserRole
KIND_ROLE = Qt.UserRole + 1  # on a group's row: the kind it holds
# the kinds as the lawyer reads them, in the order the panel lists them (checks.KINDS names them all)
MAX_TEXT = 60  # a long blank line or reference is cut in its row (the message has it whole)


def where(finding: dict) -> str:
    """The clause number a finding is in, and the story when it is not the body ("footnote 3")."""
    story = finding.get("story") or "main"
    label = finding.get("displayLabel") or ""
    if story == "main":
        return label
    kind, _, number = story.partition(":")
    place = f"{kind} {number}" if kind in ("footnote", "endnote") else kind
    return f"{label} ({place})" if label else place


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT - 1] + "…"


class ChecksPanel(QWidget):
    blockActivated = Signal(str)  # a finding was clicked or entered: the window goes to its paragraph

    def __init__(self, parent=None):
        super().__init__(parent)
        self.reviewer = None
        self.session = None  # the document's CheckSession (folio_desktop.checks), made by set_document
        self.findings: list[dict] = []
        self.stale = False  # an edit came while the panel was out of sight: check again once it shows
        self.run_ms = 0.0  # the last run of the checks
        self.show_ms = 0.0  # the panel's own work after it: comparing, and rebuilding the tree when needed
        self.summary = QLabel()
        self.summary.setContentsMargins(4, 2, 4, 2)
        self.summary.setWordWrap(True)  # a long line would widen the dock, and so shrink the page beside it
        self.tree = QTreeWidget()
        self.tree.setColumnCount(3)
        self.tree.setHeaderLabels(["Clause", "Text", "What is wrong"])
        self.tree.header().setStretchLastSection(True)
        self.tree.header().setSectionResizeMode(0, QHeaderView.ResizeToContents)
        self.tree.header().setSectionResizeMode(1, QHeaderView.Interactive)
        self.tree.setUniformRowHeights(True)
        self.tree.setAccessibleName("Contract checks")
        self.tree.itemClicked.connect(self._activate)
        self.tree.installEventFilter(self)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(0)
        box.addWidget(self.summary)
        box.addWidget(self.tree, 1)

    def set_document(self, reviewer) -> None:
        """Check a newly opened document, with a session of its own."""
        from ...checks import CheckSession  # the checks are imported once a document is shown

        self.reviewer, self.session = reviewer, CheckSession()
        self.findings = []
        self.refresh()

    def refresh(self) -> None:
        """Run the checks again (after an edit) and show what they find now; while the panel is out of
        sight (another tab in front, its dock closed) only note that it must, so an edit on a long
        document costs nothing for checks nobody is looking at (Claude's check_document runs the
        session itself)."""
        if self.reviewer is None:
            return
        if not self.in_sight():
            self.stale = True
            return
        self.stale = False
        started = time.perf_counter()
        report = self.session.run(self.reviewer)
        ran = time.perf_counter()
        findings = report["findings"]
        if findings != self.findings or not self.tree.topLevelItemCount():
            self.findings = findings
            self._rebuild()
        self.run_ms, self.show_ms = (ran - started) * 1000, (time.perf_counter() - ran) * 1000

    def in_sight(self) -> bool:
        """Shown and not behind another tab: a dock tabbed behind another stays "visible" to Qt, only
        covered (its visible region is empty)."""
        return self.isVisible() and not self.visibleRegion().isEmpty()

    def showEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        if self.stale:
            self.refresh()

    def brought_to_front(self, visible: bool) -> None:
        """Its dock's tab came to the front (QDockWidget.visibilityChanged): check now if an edit waits."""
        if visible and self.stale:  # (once the tab switch has settled: the region is the new one then)
            QTimer.singleShot(0, self._refresh_if_stale)

    def _refresh_if_stale(self) -> None:
        if self.stale:
            self.refresh()

    def group_titles(self) -> list[str]:
        return [self.tree.topLevelItem(i).text(0) for i in range(self.tree.topLevelItemCount())]

    def rows(self, kind: str) -> list[QTreeWidgetItem]:
        group = next((self.tree.topLevelItem(i) for i in range(self.tree.topLevelItemCount())
                      if self.tree.topLevelItem(i).data(0, KIND_ROLE) == kind), None)
        return [group.child(i) for i in range(group.childCount())] if group is not None else []

    def _rebuild(self) -> None:
        """The tree anew, keeping which groups were folded and the row the keyboard was on."""
        folded = {self.tree.topLevelItem(i).data(0, KIND_ROLE) for i in range(self.tree.topLevelItemCount())
                  if not self.tree.topLevelItem(i).isExpanded()}
        current = self.tree.currentItem()
        keep = (current.data(0, BLOCK_ROLE), current.text(1)) if current is not None else None
        from ...checks.findings import KIND_TITLES  # (findings exist: the checks are imported by now)

        by_kind: dict[str, list[dict]] = {}
        for finding in self.findings:
            by_kind.setdefault(finding["kind"], []).append(finding)
        self.tree.clear()
        again = None
        for kind, (title, _report_title) in KIND_TITLES.items():
            of_kind = by_kind.get(kind)
            if not of_kind:
                continue
            group = QTreeWidgetItem([f"{title} ({len(of_kind)})"])
            group.setData(0, KIND_ROLE, kind)
            group.setFirstColumnSpanned(True)
            for finding in of_kind:
                row = QTreeWidgetItem(group, [where(finding), _short(finding["text"]), finding["message"]])
                row.setData(0, BLOCK_ROLE, finding["blockId"])
                row.setToolTip(2, finding["message"] + (" A pending tracked change is involved."
                                                        if finding.get("pendingChange") else ""))
                if keep == (finding["blockId"], row.text(1)):
                    again = row
            self.tree.addTopLevelItem(group)
            group.setFirstColumnSpanned(True)
            group.setExpanded(kind not in folded)
        if again is not None:
            self.tree.setCurrentItem(again)
        self.summary.setText(counted(len(self.findings), "finding") + " on the text as it reads with the changes "
                             "accepted" if self.findings else "Nothing found: terms, references, blanks and "
                             "numbering check out.")

    def _activate(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        block_id = item.data(0, BLOCK_ROLE)
        if block_id:
            self.blockActivated.emit(block_id)

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt override
        # Enter on a finding goes there, like a click (Up and Down only move through the list)
        if watched is self.tree and event.type() == QEvent.KeyPress and event.key() in (Qt.Key_Return, Qt.Key_Enter):
            item = self.tree.currentItem()
            if item is not None and item.data(0, BLOCK_ROLE):
                self._activate(item)
                return True
        return super().eventFilter(watched, event)
