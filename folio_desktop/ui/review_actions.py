"""ReviewActions: the lawyer's edits, accepts and rejects, and the one undo stack over them.

Every edit goes through the same operation engine as Claude's (ARCHITECTURE.md: a typed edit is a
tracked-changes batch under the lawyer's name). Every action is one QUndoCommand over a whole-document
checkpoint (DocxReviewer.checkpoint / restore), so an accept, a reject and a whole agent turn undo as
exactly as a single batch. A command keeps one checkpoint: the state before it while it is done, and
the state after it (taken at the moment of undoing) while it is undone.

A refused edit raises EditRefused (reason, message, the engine's result) and pushes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from ..docx.checkpoints import Checkpoint
from ..docx.contract import InvalidDocumentOperationBatchError
from ..docx.textkit import index_to_utf16, text_hash
from ..docx.worddiff import tokenize
from .live_bridge import touched_blocks

INLINE_CHANGES = ("insertion", "deletion", "formatting")  # resolving these rewrites one paragraph only
# a whole inserted/deleted paragraph is its text plus its paragraph mark: the lawyer sees one change
MARK_OF = {"insertion": "paragraphMarkInserted", "deletion": "paragraphMarkDeleted"}
TEXT_OF = {mark: text for text, mark in MARK_OF.items()}
TURN_LABEL_CHARS = 60
UNDO_LIMIT = 300  # a step keeps one compressed checkpoint: ~0.15 MB on a 75-page contract

# what the lawyer reads when the engine skips their edit (the engine's own prose is written for a model)
REFUSALS = {
    "noopOperation": "Nothing changed: the text already reads that way.",
    "emptyOperation": "Nothing changed: there was nothing to insert.",
    "pendingDeletion": "That paragraph is pending deletion; reject the deletion first, then edit it.",
    "protectedReference": "The edit would remove or change a footnote or endnote reference; keep each marker.",
    "splitsCharacter": "The selection starts or ends inside a single character; select whole characters.",
    "documentNotEditable": "The document is protected against editing; remove the protection in Word first.",
    "pendingRunPropertyChange": "That text has a pending formatting change; accept or reject it first.",
    "pendingParagraphPropertyChange": "That paragraph has a pending formatting change; accept or reject it first.",
    "invalidResult": "That edit would leave a document Word cannot open, so it was not made.",
    "unsupportedBlock": "This part of the document cannot be edited that way.",
    "hiddenText": "This paragraph holds hidden text, which the edit would leave in place unseen; show hidden text "
                  "(Home > Show/Hide in Word) and deal with it first, or edit only the visible words.",
}
STALE = ("missingBlock", "changedBlock", "staleRange", "preconditionFailed")


class EditRefused(Exception):
    """The engine skipped the edit; nothing changed. `message` is written for the lawyer."""

    def __init__(self, reason: str, message: str, result: dict | None = None):
        super().__init__(message)
        self.reason = reason
        self.message = message
        self.result = result


@dataclass
class _Turn:
    label: str
    start: Checkpoint
    version: int  # the document's version when this stretch of the turn began


class _Step(QUndoCommand):
    """One undoable action. Pushed after the action ran, so the first redo does nothing."""

    def __init__(self, actions: ReviewActions, text: str, before: Checkpoint):
        super().__init__(text)
        self._actions = actions
        self._other = before
        self._fresh = True

    def redo(self) -> None:
        if self._fresh:
            self._fresh = False
            return
        self._swap()
        self._actions.stepped.emit("redo", self.text())

    def undo(self) -> None:
        self._swap()
        self._actions.stepped.emit("undo", self.text())

    def _swap(self) -> None:
        reviewer = self._actions.reviewer
        now = reviewer.checkpoint()
        reviewer.restore(self._other)
        self._other = now
        self._actions._restored()


class ReviewActions(QObject):
    changed = Signal(object)  # set of touched block ids, or None when the whole document must be relaid out
    stepped = Signal(str, str)  # ("undo" | "redo", the step's text): a step taken back or done again

    def __init__(self, reviewer, author: str, parent=None):
        super().__init__(parent)
        self.reviewer = reviewer
        self.author = author
        self.undo_stack = QUndoStack(self)
        self.undo_stack.setUndoLimit(UNDO_LIMIT)
        self._turn: _Turn | None = None

    def set_author(self, author: str) -> None:
        self.author = author

    @property
    def agent_turn_open(self) -> bool:
        return self._turn is not None

    # -- edits (tracked changes under the lawyer's name) ------------------------------------------------

    def edit_paragraph(self, block_id: str, new_text: str) -> dict:
        """Make the paragraph read `new_text` (its accepted-view text), striking and inserting only the
        words that differ."""
        old = self._block(block_id).text
        if old == new_text:
            raise EditRefused("noopOperation", REFUSALS["noopOperation"])
        if not old:  # a blank paragraph has no range to replace
            op = {"type": "replaceBlock", "blockId": block_id, "text": new_text}
        else:
            start, end, replacement = differing_span(old, new_text)
            op = _replace_range_op(block_id, old, start, end, replacement)
        return self._apply("Edit paragraph", op)

    def insert_paragraph_after(self, block_id: str, text: str) -> dict:
        """A new paragraph after the block (with its formatting); a newline in `text` starts another."""
        return self._apply("Insert paragraph",
                           {"type": "insertAfterBlock", "blockId": block_id, "text": text})

    def delete_paragraph(self, block_id: str) -> dict:
        return self._apply("Delete paragraph", {"type": "deleteBlock", "blockId": block_id})

    def replace_range(self, block_id: str, start: int, end: int, text: str) -> dict:
        """Replace [start, end) of the block's accepted-view text (str offsets) with `text`; an empty
        range inserts `text` at `start`."""
        old = self._block(block_id).text
        if not 0 <= start <= end <= len(old):
            raise EditRefused("staleRange", "The selection is no longer inside that paragraph; select the text again.")
        if start == end:  # a caret, not a selection: insert there (the engine needs a non-empty range)
            if not text:
                raise EditRefused("emptyOperation", REFUSALS["emptyOperation"])
            if not old:
                op = {"type": "replaceBlock", "blockId": block_id, "text": text}
            else:
                op = _replace_range_op(block_id, old, *differing_span(old, old[:start] + text + old[start:]))
        else:
            op = _replace_range_op(block_id, old, start, end, text)
        return self._apply("Replace text", op)

    def _block(self, block_id: str):
        block = self.reviewer.snapshot().block(block_id)
        if block is None:
            raise EditRefused("missingBlock", "That paragraph is no longer in the document.")
        return block

    def _apply(self, label: str, op: dict) -> dict:
        batch = {"version": 1, "mode": "tracked-changes", "operations": [op]}

        def run() -> dict:
            try:
                # the engine, not reviewer.apply_document_operations: only it takes a per-batch author
                result = self.reviewer.engine.apply(batch, author=self.author)
            except InvalidDocumentOperationBatchError as exc:
                raise EditRefused("invalidOperation", f"That edit could not be made ({exc.reason}).") from None
            if result["skipped"] or not result["applied"]:
                skip = result["skipped"][0] if result["skipped"] else {"reason": "noopOperation"}
                raise EditRefused(skip["reason"], _refusal(skip), result)
            return result

        result = self._record(label, run)
        self.changed.emit(touched_blocks(result))
        return result

    # -- accept and reject ---------------------------------------------------------------------------------

    def accept(self, change_ids: list[int]) -> int:
        """Accept these census ids as one undo step (a whole inserted or deleted paragraph together with
        its paragraph mark); returns how many of the given changes were pending and are now resolved."""
        return self._resolve(change_ids, accept=True)

    def reject(self, change_ids: list[int]) -> int:
        return self._resolve(change_ids, accept=False)

    def _resolve(self, change_ids: list[int], accept: bool) -> int:
        changes = self.reviewer.get_changes()
        pending = {c.id for c in changes}
        wanted = [i for i in dict.fromkeys(int(x) for x in change_ids) if i in pending]
        if not wanted:
            return 0
        ids = with_paragraph_marks(changes, set(wanted))
        resolved = [c for c in changes if c.id in ids]
        verb = "Accept" if accept else "Reject"
        text = f"{verb} change" if len(wanted) == 1 else f"{verb} {len(wanted)} changes"
        resolve = self.reviewer.accept_changes if accept else self.reviewer.reject_changes
        self._record(text, lambda: resolve(ids))
        inline = all(c.type in INLINE_CHANGES and c.block_id and c.story == "main" for c in resolved)
        self.changed.emit({c.block_id for c in resolved} if inline else None)
        return len(wanted)

    # -- agent turns -------------------------------------------------------------------------------------

    def begin_agent_turn(self, label: str) -> None:
        """Everything that changes the document until end_agent_turn is one undo step
        ("Claude's turn: <label>"). The LiveBridge applies the model's batches and relays them out itself."""
        if self._turn is not None:
            self.end_agent_turn()
        label = " ".join(label.split())
        if len(label) > TURN_LABEL_CHARS:
            label = label[:TURN_LABEL_CHARS - 1].rstrip() + "…"
        self._turn = _Turn(label, self.reviewer.checkpoint(), self.reviewer.document.version)

    def end_agent_turn(self) -> None:
        """Push the turn as one step; a turn that changed nothing pushes nothing."""
        if self._turn is not None:
            self._close_turn(self.reviewer.document.version)
            self._turn = None

    def _close_turn(self, version: int) -> None:
        """Push what the model changed since its stretch began (up to `version`), if anything."""
        turn = self._turn
        if version != turn.version:
            text = f"Claude's turn: {turn.label}" if turn.label else "Claude's turn"
            self.undo_stack.push(_Step(self, text, turn.start))

    # -- the stack -----------------------------------------------------------------------------------------

    def perform(self, text: str, action, touched: set[str] | None = None):
        """Run any other document change (a comment, a reply, resolving a thread) as one undo step and
        return what `action()` returned; `changed` carries `touched` when the document changed.
        The window should route every change through here: undo restores whole checkpoints, so a change
        made beside the stack would be lost by undoing an earlier step."""
        version = self.reviewer.document.version
        outcome = self._record(text, action)
        if self.reviewer.document.version != version:
            self.changed.emit(touched)
        return outcome

    def _record(self, text: str, action):
        document = self.reviewer.document
        version = document.version
        before = self.reviewer.checkpoint()
        outcome = action()  # may raise; then nothing changed and nothing is pushed
        if document.version == version:
            return outcome
        if self._turn is not None:
            # the lawyer acted in the middle of Claude's turn: the model's edits so far become their
            # own step, this action the next, and the turn goes on after it
            self._close_turn(version)
        self.undo_stack.push(_Step(self, text, before))
        if self._turn is not None:
            self._turn = _Turn(self._turn.label, self.reviewer.checkpoint(), document.version)
        return outcome

    def _restored(self) -> None:
        if self._turn is not None:  # undo or redo while Claude works: the turn goes on from here
            self._turn = _Turn(self._turn.label, self.reviewer.checkpoint(), self.reviewer.document.version)
        # a restore replaces every paragraph element, so nothing of the old layout can be reused
        self.changed.emit(None)


def differing_span(old: str, new: str) -> tuple[int, int, str]:
    """(start, end, replacement): the stretch of a non-empty `old` to replace so it reads `new`, trimmed
    to whole words on both sides (the engine then diffs it word by word). Never an empty stretch: a pure
    insertion takes in a neighbouring word or space, which the engine leaves untouched."""
    a, b = tokenize(old), tokenize(new)
    head = 0
    while head < len(a) and head < len(b) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < len(a) - head and tail < len(b) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    if head + tail == len(a):
        if head:
            head -= 1
        else:
            tail -= 1
    start = sum(map(len, a[:head]))
    end = len(old) - sum(map(len, a[len(a) - tail:]))
    return start, end, new[start:len(new) - (len(old) - end)]


def with_paragraph_marks(changes, ids: set[int]) -> set[int]:
    """`ids` plus the other half of every whole inserted or deleted paragraph among them: its text
    change and its paragraph mark go together (as in Word), so no empty tracked paragraph is left."""
    out = set(ids)
    for change in changes:
        if change.id not in ids:
            continue
        kind = MARK_OF.get(change.type) or TEXT_OF.get(change.type)
        if kind is None:
            continue
        for other in changes:
            if other.type == kind and other.block_id == change.block_id and other.author == change.author \
                    and other.story == change.story and _whole_paragraph(change, other):
                out.add(other.id)
    return out


def _whole_paragraph(a, b) -> bool:
    """Is the text change of this pair the paragraph's whole content? The mark's census text is the
    paragraph's accepted-view text: an inserted paragraph reads exactly its insertion, a deleted one
    reads nothing."""
    text, mark = (a, b) if a.type in MARK_OF else (b, a)
    return mark.text == text.text if text.type == "insertion" else not mark.text.strip()


def _replace_range_op(block_id: str, old: str, start: int, end: int, replacement: str) -> dict:
    return {"type": "replaceRange", "replace": replacement,
            "range": {"type": "textRange", "blockId": block_id, "startOffset": index_to_utf16(old, start),
                      "endOffset": index_to_utf16(old, end), "selectedTextHash": text_hash(old[start:end])}}


def _refusal(skip: dict) -> str:
    reason = skip.get("reason", "")
    if reason in STALE:
        return "That paragraph changed or is gone; try again on the text as it reads now."
    message = REFUSALS.get(reason)
    if message is None:
        detail = skip.get("message")
        message = f"The edit could not be made ({detail or reason})."
    return message
