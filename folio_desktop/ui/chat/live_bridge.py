"""LiveBridge: the agent tools over the document open in a PageView (spec §8.1, §8.3, §10).

The headless ReviewerBridge already reads and edits the DocxReviewer the view shows; this subclass
adds what only a live view can answer (pages, the selection, scrolling to and showing a target) and
keeps the view in step with every edit the tools make. It lives on the GUI thread: the model's
worker reaches it through queued calls, so the document and the view are never touched from two
threads.

Page numbers are never estimated (spec §10): a page question asked while the view is still laying
the document out first completes that layout synchronously (PageView.finish_layout), keeping the
pages already done. On the 75-page ILPA contract a whole layout takes well under a second.
"""

from __future__ import annotations

from ...agents.bridges import ReviewerBridge, decode_comment_id
from ...agents.execute import range_still_matches
from ...docx.editing.contract import touched_blocks
from ...docx.model.textkit import utf16_to_index

# what read_page says first when the lawyer's pages are not in All Markup (its text follows the view)
VIEW_NOTES = {
    "simple": "[Page as the lawyer sees it in Simple Markup: tracked changes shown accepted (deleted text left "
              "out, inserted text in); page breaks follow this view]",
    "none": "[Page as the lawyer sees it in No Markup: every tracked change shown accepted (deleted text left "
            "out); page breaks follow this view]",
    "original": "[Page as the lawyer sees it in Original: as before the tracked changes (inserted text left out, "
                "deleted text in); page breaks follow this view]",
}


class LiveBridge(ReviewerBridge):
    """ReviewerBridge plus every optional member of spec §8.1, for a PageView showing `reviewer`.

    Tracked changes, comments and replies the model makes are written under `author` (default: the
    reviewer's own author). After each batch that changed the document, and after an undo, the view
    is laid out again and `on_changed(result)` is called.
    """

    def __init__(self, reviewer, view, author: str | None = None, mode: str = "tracked-changes",
                 on_changed=None, resolve_others: bool = False):
        super().__init__(reviewer, mode=mode, resolve_others=resolve_others)
        self.view = view
        self.author = author or reviewer.author
        self.on_changed = on_changed
        if view.reviewer is not reviewer:
            view.set_document(reviewer)

    # -- edits ------------------------------------------------------------------------------------

    def apply_document_operations(self, batch: dict) -> dict:
        if "mode" not in batch and self.document_operation_mode:
            batch = dict(batch, mode=self.document_operation_mode)
        # through the engine, not reviewer.apply_document_operations: only the engine takes a
        # per-batch author, and the reviewer's own author is the lawyer's (their typed edits)
        result = self.reviewer.engine.apply(batch, author=self.author)
        # previewed, rejected, or nothing applied (all skipped or replayed): the document is unchanged
        if result.get("status") == "committed" and result.get("applied"):
            self._refresh(touched_blocks(result))
            self._notify(result)
        return result

    def undo_document_operations(self, handle) -> dict:
        result = super().undo_document_operations(handle)
        if result.get("status") == "undone":
            # an undo restores whole parts: every paragraph element is new, so nothing is reusable
            self._refresh(None)
            self._notify(result)
        return result

    def reply_to_comment(self, comment_id: str, text: str) -> bool:
        cid = decode_comment_id(comment_id)  # spec 2.11: a reply is written under the bridge's author
        try:
            return cid is not None and self.reviewer.reply_to(cid, text, author=self.author) is not None
        except KeyError:
            return False

    def get_document_version(self) -> str:
        # the engine's token: the document counts every change (edits, undo, comments, and the
        # user's accept/reject), and the engine checks batch pins against this same token
        return self.reviewer.document_version()

    def _refresh(self, block_ids: set[str] | None) -> None:
        view, layout = self.view, self.view.document_layout
        if layout is None or block_ids is None:
            view.relayout()  # start over in the background; page questions finish it on demand
            return
        # only the pages the edit reaches, keeping zoom, scroll, and the lawyer's caret and selection
        view.relayout_blocks(block_ids)

    def _notify(self, result: dict) -> None:
        if self.on_changed is not None:
            self.on_changed(result)

    # -- pages --------------------------------------------------------------------------------------

    def _layout(self):
        """The finished layout (a running one is completed first); None if layout failed."""
        return self.view.document_layout or self.view.finish_layout()

    def get_page_count(self) -> int:
        layout = self._layout()
        if layout is None:
            raise RuntimeError("The document could not be laid out into pages, so page numbers are unavailable; "
                               "work with blocks and sections instead.")
        return layout.page_count

    def get_page_text(self, page: int) -> str:
        """Spec 2.13: the document text of the body fragments on the page, in the layout's order,
        one line per fragment, as the lawyer's markup view shows it. In All Markup it is raw text:
        tracked deletions stay in. In another view the text (and where pages break) follows that
        view, and a first line in brackets says which view it is. List labels (drawn, but not
        document text) are left out; note references read as in the blocks."""
        layout = self._layout()
        if layout is None or not 1 <= page <= layout.page_count:
            return ""
        text = "\n".join(_document_text(f) for f in layout.pages[page - 1].body_fragments())
        note = VIEW_NOTES.get(layout.view)
        return f"{note}\n{text}" if note else text

    def get_target_page(self, target: dict) -> int | None:
        """Page of a block's start, or of a text range's start (spec §6.4, §10)."""
        if not isinstance(target, dict) or target.get("type") not in ("block", "textRange"):
            return None
        block = self.reviewer.snapshot().block(target.get("blockId"))
        layout = self._layout() if block is not None else None
        if layout is None:
            return None
        offset = 0
        if target["type"] == "textRange":
            start = target.get("startOffset")
            offset = utf16_to_index(block.text, start) if isinstance(start, int) else None
            if offset is None:
                return None
        return layout.page_of(block.id, offset)

    # -- the view -----------------------------------------------------------------------------------

    def get_selection_text(self) -> str:
        return self.view.selection.selection_text()

    def scroll_to_block(self, block_id: str) -> bool:
        return self._layout() is not None and self.view.scroll_to_block(block_id)

    def show_in_document(self, target: dict) -> bool:
        """Select a block, or exactly a text range whose text is unchanged, and scroll to its start."""
        if not isinstance(target, dict) or self._layout() is None:
            return False
        if target.get("type") == "block":
            return self.view.scroll_to_block(target.get("blockId"))
        snapshot = self.reviewer.snapshot()
        if target.get("type") != "textRange" or not range_still_matches(snapshot, target):
            return False
        block = snapshot.block(target["blockId"])
        start = utf16_to_index(block.text, target["startOffset"])
        end = utf16_to_index(block.text, target["endOffset"])
        if not self.view.scroll_to_block(block.id, start):
            return False
        return self.view.selection.select_range(block.id, start, end)  # replaces the whole-block selection


def _document_text(frag) -> str:
    """A fragment's drawn text as document text: without the list label the layout draws, and with
    each note reference written as the marker the blocks use ([^1], [^e1]) instead of its number."""
    para = frag.para
    lo, hi = frag.display_range
    notes = {offset: kind for offset, kind, _id in para.note_refs}
    parts, pos = [], lo
    for span in para.spans:
        if span.kind not in ("label", "note") or span.end <= pos or span.start >= hi:
            continue
        parts.append(para.text[pos:span.start])
        if span.kind == "note":
            number = para.text[span.start:span.end].replace("\u2060", "")
            parts.append(f"[^{number}]" if notes.get(span.start) == "footnote" else f"[^e{number}]")
        pos = span.end
    parts.append(para.text[pos:hi])
    return "".join(parts).replace("\u2028", "\n").replace("\u2060", "")
