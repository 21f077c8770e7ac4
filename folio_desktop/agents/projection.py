"""What a read tool shows the model of one block (issue 12, points 1, 3 and 7).

Beyond the reference's four fields (blockId, kind, text, blockTextHash) a block carries what a
lawyer would cite and what the model must not mistake for agreed text: its number (displayLabel),
heading level and numbering, where it sits in a table, the tracked changes still pending in it
(counts and authors), the comment threads anchored on it, and text formatted so a reader cannot see
it. Absent facts are omitted, so a plain paragraph stays four keys. `text` is always the accepted
view (what the block reads as if every pending change were accepted); the redline view adds
`redline` with <ins>/<del>/<comment> marks for the blocks that have any.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

VIEWS = ("accepted", "redline")

# census change type -> the count it adds to in a block's `pending`
_PENDING_KEY = {
    "insertion": "insertions", "deletion": "deletions", "formatting": "formatting",
    "paragraphPropertiesChanged": "formatting", "paragraphMarkInserted": "paragraphBreaks",
    "paragraphMarkDeleted": "paragraphBreaks", "rowInserted": "tableChanges", "rowDeleted": "tableChanges",
    "cellInserted": "tableChanges", "cellDeleted": "tableChanges", "cellMerged": "tableChanges",
    "tablePropertiesChanged": "tableChanges", "rowPropertiesChanged": "tableChanges",
    "cellPropertiesChanged": "tableChanges",
}
PENDING_ORDER = ("insertions", "deletions", "moves", "formatting", "paragraphBreaks", "tableChanges")

FIELD_WORDS = (
    "Blocks: {blockId, kind, text, blockTextHash} plus, when present, displayLabel (the clause number the reader "
    "sees, e.g. `2.1.`; cite clauses by it), headingLevel, statedNumbering, listReference, table, pending (tracked "
    "changes not yet accepted: counts, authors; `text` reads as if accepted), comments (thread ids), concealed "
    "(hidden, invisible or tiny text: tell the lawyer) and, with view \"redline\", `redline` with <ins>/<del>/"
    "<comment> marks.")


class BlockReader:
    """Renders blocks of one snapshot for one read call; the census, comment threads and concealed-text
    report are gathered from the bridge once, on first need."""

    def __init__(self, bridge, snapshot, view: str = "accepted"):
        self.bridge = bridge
        self.snapshot = snapshot
        self.view = view
        self._pending: dict[str, dict] | None = None
        self._threads: dict[str, str] | None = None
        self._concealed = None
        self._redline: dict[str, str] | None = None

    # -- gathered once -----------------------------------------------------------------------------------

    def pending(self) -> dict[str, dict]:
        if self._pending is None:
            counts: dict[str, Counter] = {}
            authors: dict[str, set[str]] = {}
            for change in self.bridge.get_changes():
                block_id = change.get("blockId")
                key = "moves" if change.get("moved") else _PENDING_KEY.get(change.get("type"))
                if not block_id or key is None:
                    continue
                counts.setdefault(block_id, Counter())[key] += 1
                if change.get("author"):
                    authors.setdefault(block_id, set()).add(change["author"])
            self._pending = {}
            for block_id, counter in counts.items():
                entry: dict[str, Any] = {k: counter[k] for k in PENDING_ORDER if counter[k]}
                if authors.get(block_id):
                    entry["authors"] = sorted(authors[block_id])
                self._pending[block_id] = entry
        return self._pending

    def thread_of(self) -> dict[str, str]:
        """w:id of every comment (replies too) -> the id of its thread, as read_comments names it."""
        if self._threads is None:
            self._threads = {}
            for thread in self.bridge.get_comments():
                self._threads[str(thread["id"])] = str(thread["id"])
                for reply in thread.get("replies") or ():
                    self._threads[str(reply["id"])] = str(thread["id"])
        return self._threads

    def concealed(self):
        if self._concealed is None:
            fn = getattr(self.bridge, "concealed_text", None)
            report = fn() if callable(fn) else None
            self._concealed = getattr(report, "blocks", None) or {}
        return self._concealed

    def redline(self) -> dict[str, str]:
        if self._redline is None:
            fn = getattr(self.bridge, "annotated_texts", None)
            self._redline = fn() if callable(fn) else {}
        return self._redline

    # -- one block ------------------------------------------------------------------------------------------

    def comments_on(self, block) -> list[str]:
        if not block.comment_ids:
            return []
        threads = self.thread_of()
        out: list[str] = []
        for raw in block.comment_ids:
            thread = threads.get(str(int(raw)) if raw.isdigit() else raw)
            if thread is not None and thread not in out:
                out.append(thread)
        return out

    def render(self, block) -> dict:
        out: dict[str, Any] = {"blockId": block.id, "kind": block.kind, "text": block.text,
                               "blockTextHash": block.text_hash}
        if block.kind != "diagnostic":  # a diagnostic block has no numbering of its own
            if block.display_label:
                out["displayLabel"] = block.display_label
            if block.heading_level is not None:
                out["headingLevel"] = block.heading_level
            if block.stated_numbering and block.stated_numbering.get("kind") != "inherit":
                out["statedNumbering"] = block.stated_numbering
            if block.list_reference:
                out["listReference"] = block.list_reference
        if block.table is not None:
            t = block.table
            out["table"] = {"tableIndex": t.table_index, "rowIndex": t.row_index, "cellIndex": t.cell_index}
        pending = self.pending().get(block.id)
        if pending:
            out["pending"] = pending
        comments = self.comments_on(block)
        if comments:
            out["comments"] = comments
        concealed = self.concealed().get(block.id)
        if concealed is not None:
            flags = concealed.to_json()
            if flags:
                out["concealed"] = flags
        if self.view == "redline" and (pending or comments or not block.is_content):
            marked = self.redline().get(block.id)
            if marked and marked != block.text:
                out["redline"] = marked
        return out
