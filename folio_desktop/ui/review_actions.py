"""ReviewActions: the lawyer's edits, accepts and rejects, and the one undo stack over them.

Every edit goes through the same operation engine as Claude's (ARCHITECTURE.md: a typed edit is a
tracked-changes batch under the lawyer's name). Every action is one QUndoCommand (_Step) made of
what the action changed: the engine's record of each batch it made (the elements the batch touched,
as they were: checkpoints.EditRecord), so an edit, a comment or a whole agent turn costs what it
touched, not the document. What the engine does not record (an accept, a reject) is kept as a
whole-document checkpoint (DocxReviewer.checkpoint / restore), taken just before it; a step undoes
its parts newest first and redoes them in order.

Typing has steps of its own: a keystroke's step (_LocalStep) keeps only the few sibling paragraphs
it changes, found again by their place in the tree (so it still applies after a whole-document step
was undone and redone), and a burst of typing in one paragraph extends one step, as Word's undo does.

Track Changes (track_changes) decides how the lawyer's own edits are written: as tracked changes
(the default) or directly. Claude's edits do not come through here and are always tracked.

A refused edit raises EditRefused (reason, message, the engine's result) and pushes nothing.
"""

from __future__ import annotations

import copy
import logging
import time
from dataclasses import dataclass, field, replace

from lxml import etree
from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from ..docx.editing.checkpoints import Checkpoint, RecordMismatch
from ..docx.editing.contract import InvalidDocumentOperationBatchError, touched_blocks
from ..docx.editing.worddiff import tokenize
from ..docx.model.textkit import index_to_utf16, text_hash

INLINE_CHANGES = ("insertion", "deletion", "formatting")  # resolving these rewrites one paragraph only
# a whole inserted/deleted paragraph is its text plus its paragraph mark: the lawyer sees one change
MARK_OF = {"insertion": "paragraphMarkInserted", "deletion": "paragraphMarkDeleted"}
TEXT_OF = {mark: text for text, mark in MARK_OF.items()}
TURN_LABEL_CHARS = 60
UNDO_LIMIT = 100  # steps the lawyer can undo when the reviewer names no bound of its own (max_undo)
log = logging.getLogger(__name__)

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
    "unsupportedMode": "This document only allows tracked changes; turn Track Changes on to edit it.",
    "missingFind": "That text is not there any more; try again on the text as it reads now.",
}
MERGE_ID = 17  # the QUndoCommand id of steps that may merge (only with an equal merge key)
BURST_PAUSE_S = 1.0  # keystrokes closer together than this (in one paragraph) undo as one step
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
    version: int  # the document's version when this stretch of the turn began
    merge_key: object = None  # stretches with the same key, pushed one after another, undo as one step
    text: str | None = None  # the undo step's text, when not "Claude's turn: <label>"
    parts: list = field(default_factory=list)  # what the turn changed so far (_Recorded, _Whole)


class _Recorded:
    """A change the engine recorded (a batch, an undo, a reply...), and whether it left its record done."""

    def __init__(self, record, version_before: int, version_after: int):
        self.record, self.done = record, record.done
        self.version_before, self.version_after = version_before, version_after

    def apply(self, reviewer, redo: bool) -> None:
        reviewer.engine.set_done(self.record, self.done if redo else not self.done)


class _Whole:
    """Changes the engine did not record: the whole document before them (after them, once undone)."""

    def __init__(self, checkpoint: Checkpoint):
        self.other = checkpoint

    def apply(self, reviewer, redo: bool) -> None:
        now = reviewer.checkpoint()
        reviewer.restore(self.other)
        self.other = now


def _whole_sequence(parts: list, version_before: int, version_after: int) -> bool:
    """Do these parts account for every change from one version to the other (no gap a change was
    made in that nothing kept)?"""
    expected: int | None = version_before
    for part in parts:
        if isinstance(part, _Whole):
            expected = None
        elif expected is not None and part.version_before != expected:
            return False
        else:
            expected = part.version_after
    return expected is None or expected == version_after


class _SwapStep(QUndoCommand):
    """An undo step pushed after its action ran (so the first redo does nothing) that undoes and
    redoes by swapping the document with what it holds (_swap)."""

    def __init__(self, actions: ReviewActions, text: str):
        super().__init__(text)
        self._actions = actions
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
        raise NotImplementedError


class _Step(_SwapStep):
    """One undoable action: what it changed (the engine's records, whole-document checkpoints)."""

    def __init__(self, actions: ReviewActions, text: str, parts: list, merge_key=None):
        super().__init__(actions, text)
        self._parts = parts
        self._merge_key = merge_key

    def id(self) -> int:  # noqa: A003 - Qt override: only steps with a merge key are ever merged
        return MERGE_ID if self._merge_key is not None else -1

    def mergeWith(self, other) -> bool:  # noqa: N802 - Qt override
        # Qt offers the step just pushed to the one at the top of the stack: the same client turn
        # grows this step by what the new one changed
        if not isinstance(other, _Step) or other._merge_key != self._merge_key:
            return False
        self._parts.extend(other._parts)
        return True

    def redo(self) -> None:
        if self._fresh:
            self._fresh = False
            return
        self._move(redo=True)
        self._actions.stepped.emit("redo", self.text())

    def undo(self) -> None:
        self._move(redo=False)
        self._actions.stepped.emit("undo", self.text())

    def _move(self, redo: bool) -> None:
        reviewer = self._actions.reviewer
        try:
            for part in (self._parts if redo else reversed(self._parts)):
                part.apply(reviewer, redo)
        except RecordMismatch:
            # the document was changed beside the undo stack: this step no longer finds its places
            log.warning("the undo step %r no longer applies to the document", self.text())
            self.setObsolete(True)
        self._actions._restored()


class _Region:
    """Consecutive sibling elements of the main story, found by their place in the tree, and what
    they were at the other end of a step (detached copies). A single paragraph edited in place
    keeps its element (its content is swapped), so the snapshot and the layout can reuse the rest."""

    def __init__(self, root: etree._Element, elements: list[etree._Element]):
        parent = elements[0].getparent()
        self.path = _path(root, parent)
        self.start = min(parent.index(el) for el in elements)
        self.count = max(parent.index(el) for el in elements) - self.start + 1
        self.length = len(parent)
        self.other = [copy.deepcopy(el) for el in parent[self.start:self.start + self.count]]

    def settle(self, root: etree._Element) -> None:
        """After the edit: the region now spans what the edit left in its place."""
        parent = _resolve(root, self.path)
        self.count += len(parent) - self.length
        self.length = len(parent)

    def intact(self, root: etree._Element) -> bool:
        """Is the region's container still there, holding as many elements as the step left in it?"""
        try:
            parent = _resolve(root, self.path)
        except IndexError:
            return False
        return len(parent) == self.length and self.start + self.count <= len(parent)

    def block_ids(self, doc) -> set[str]:
        """The blocks of the paragraphs now in the region."""
        parent = _resolve(doc.root, self.path)
        by_paragraph = doc.snapshot().block_of_paragraph
        return {by_paragraph[el].id for el in parent[self.start:self.start + self.count] if el in by_paragraph}

    @property
    def in_place(self) -> bool:
        return self.count == 1 and len(self.other) == 1

    def swap(self, root: etree._Element) -> list[etree._Element]:
        """Put the other state back; returns the elements now in the region."""
        parent = _resolve(root, self.path)
        if self.in_place:
            el, other = parent[self.start], self.other[0]
            held = etree.Element(el.tag, attrib=dict(el.attrib))
            held.extend(list(el))
            el.attrib.clear()
            el.attrib.update(other.attrib)
            el.extend(list(other))
            self.other = [held]
            return [el]
        now = list(parent[self.start:self.start + self.count])
        for el in now:
            parent.remove(el)
        for offset, el in enumerate(self.other):
            parent.insert(self.start + offset, el)
        self.other, self.count = now, len(self.other)
        self.length = len(parent)
        return list(parent[self.start:self.start + self.count])


def _path(root: etree._Element, el: etree._Element) -> list[int]:
    path = []
    while el is not root:
        parent = el.getparent()
        path.append(parent.index(el))
        el = parent
    return path[::-1]


def _resolve(root: etree._Element, path: list[int]) -> etree._Element:
    el = root
    for index in path:
        el = el[index]
    return el


class _LocalStep(_SwapStep):
    """A keystroke's undo step: the paragraphs it changed, not the whole document."""

    def __init__(self, actions: ReviewActions, text: str, region: _Region, kind: str | None):
        super().__init__(actions, text)
        self.region = region
        self.kind = kind  # "typing" or "deleting" while a burst may go on; None once it cannot
        self.last = time.monotonic()

    def _swap(self) -> None:
        actions = self._actions
        doc = actions.reviewer.document
        if not self.region.intact(doc.root):
            # the document was changed beside the undo stack: undoing by place would hit other text
            self.setObsolete(True)
            return
        gone = self.region.block_ids(doc)
        elements = self.region.swap(doc.root)
        doc.package.mark_dirty(doc.main_part)
        doc.invalidate(edited=elements if self.region.in_place else None)
        self.kind = None  # typing after an undo or redo starts a step of its own
        actions._restart_turn()
        actions.changed.emit(gone | self.region.block_ids(doc))


class ReviewActions(QObject):
    changed = Signal(object)  # set of touched block ids, or None when the whole document must be relaid out
    stepped = Signal(str, str)  # ("undo" | "redo", the step's text): a step taken back or done again
    typed = Signal(object)  # block ids a keystroke changed, or None (its undo and redo emit `changed`)

    def __init__(self, reviewer, author: str, parent=None):
        super().__init__(parent)
        self.reviewer = reviewer
        self.author = author
        self.undo_stack = QUndoStack(self)
        self.undo_stack.setUndoLimit(getattr(reviewer, "max_undo", UNDO_LIMIT) or UNDO_LIMIT)
        self._turn: _Turn | None = None
        self._action: list | None = None  # what the lawyer's action running now changed (see _record)
        self.track_changes = True  # the lawyer's edits are tracked changes; off: made directly
        # the engine tells of every change it records; the reviewer, of any other just before it is made
        reviewer.engine.listeners.append(self._recorded)
        reviewer.before_unrecorded_change.append(self._unrecorded)

    @property
    def mode(self) -> str:
        return "tracked-changes" if self.track_changes else "direct"

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

    def _engine_apply(self, ops: list[dict], **options) -> dict:
        """Apply a batch as the lawyer, or raise EditRefused saying why not (an invalid batch, or
        an operation skipped). The engine, not reviewer.apply_document_operations: only it takes a
        per-batch author."""
        batch = {"version": 1, "mode": self.mode, "operations": ops}
        try:
            result = self.reviewer.engine.apply(batch, author=self.author, **options)
        except InvalidDocumentOperationBatchError as exc:
            raise EditRefused("invalidOperation", f"That edit could not be made ({exc.reason}).") from None
        if result["skipped"] or not result["applied"]:
            skip = result["skipped"][0] if result["skipped"] else {"reason": "noopOperation"}
            raise EditRefused(skip["reason"], _refusal(skip), result)
        return result

    def _apply(self, label: str, op: dict) -> dict:
        result = self._record(label, lambda: self._engine_apply([op]))
        self.changed.emit(touched_blocks(result))
        return result

    # -- keystrokes ---------------------------------------------------------------------------------------

    def keystroke(self, label: str, script, region_ids: list[str], kind: str | None = None, burst: bool = False):
        """Run a keystroke (typing, deleting, Enter, a paste) as the lawyer's edit, in the Track
        Changes mode, as one undo step over the sibling paragraphs `region_ids`: what it changes
        stays among them and the paragraphs it creates next to them. `script(apply)` calls
        apply(operations) for each batch it needs (reading the document in between) and returns
        what keystroke() returns. `kind` ("typing" / "deleting") with burst=True extends the step
        on top of the stack when it is the same kind of keystroke in the same paragraph, a moment
        after the last: a burst of typing undoes at once. Emits `typed` with the blocks touched.

        A keystroke is made whole or not at all: when any of its batches is refused (or only partly
        made), what the earlier ones did is taken back and EditRefused raised."""
        doc = self.reviewer.document
        snapshot = self.reviewer.snapshot()
        elements = [snapshot.block(i).element for i in region_ids if snapshot.block(i) is not None]
        if not elements or any(el is None or el.getparent() is not elements[0].getparent() for el in elements):
            return self._record_script(label, script)  # not one run of siblings: a whole-document step
        step = self._burst_step(kind, elements) if burst else None
        region = step.region if step is not None else _Region(doc.root, elements)
        before = region if step is None else _Region(doc.root, elements)  # what this keystroke started from
        version = doc.version
        touched = set(region_ids)

        def apply(ops: list[dict]) -> dict:
            result = self._run_keystroke(ops)
            touched.update(touched_blocks(result))
            return result

        refused = None
        outcome = None
        try:
            outcome = script(apply)
        except EditRefused as exc:
            refused = exc
        if refused is not None and doc.version != version:
            self._take_back(before, version)
        elif doc.version != version:
            region.settle(doc.root)
            if step is not None:
                step.last = time.monotonic()
                step.kind = kind if region.in_place else None
            else:
                if self._turn is not None:
                    self._close_turn(version)
                self.undo_stack.push(_LocalStep(self, label, region, kind if region.in_place else None))
                self._restart_turn()
            self.typed.emit(touched | region.block_ids(doc))
        if refused is not None:
            raise refused
        return outcome

    def _take_back(self, before: _Region, version: int) -> None:
        """Put the paragraphs a refused keystroke changed back as they were: the document reads as at
        `version` again, so that is its version once more."""
        doc = self.reviewer.document
        before.settle(doc.root)
        gone = before.block_ids(doc)
        elements = before.swap(doc.root)
        doc.package.mark_dirty(doc.main_part)
        doc.invalidate(edited=elements if before.in_place else None)
        doc.version = version
        self.typed.emit(gone | before.block_ids(doc))

    def end_burst(self) -> None:
        """The next keystroke starts an undo step of its own (the caret moved, a pause, another key)."""
        top = self.undo_stack.command(self.undo_stack.index() - 1) if self.undo_stack.index() else None
        if isinstance(top, _LocalStep):
            top.kind = None

    def _burst_step(self, kind: str | None, elements) -> _LocalStep | None:
        stack = self.undo_stack
        top = stack.command(stack.index() - 1) if stack.index() == stack.count() and stack.index() else None
        if not isinstance(top, _LocalStep) or kind is None or top.kind != kind or len(elements) != 1 \
                or time.monotonic() - top.last > BURST_PAUSE_S:
            return None
        root = self.reviewer.document.root
        region = top.region
        try:
            here = _resolve(root, region.path)[region.start]
        except IndexError:
            return None
        return top if here is elements[0] and region.in_place else None

    def _run_keystroke(self, ops: list[dict]) -> dict:
        return self._engine_apply(ops, keystrokes=True, undoable=False)

    def _record_script(self, label: str, script):
        """A keystroke over paragraphs that are not siblings, undone as a whole-document step; whole
        or not at all, as any keystroke."""
        touched: set[str] = set()
        document = self.reviewer.document
        version, before = document.version, self.reviewer.checkpoint()

        def apply(ops: list[dict]) -> dict:
            result = self._run_keystroke(ops)
            touched.update(touched_blocks(result))
            return result

        try:
            outcome = self._record(label, lambda: script(apply), before=before)
        except EditRefused:
            if document.version != version:  # an earlier batch, or part of this one, was made: take it back
                self.reviewer.restore(before)
                self.typed.emit(None)
            raise
        self.typed.emit(touched or None)
        return outcome

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

    def begin_agent_turn(self, label: str, merge_key=None, text: str | None = None) -> None:
        """Everything that changes the document until end_agent_turn is one undo step
        ("Claude's turn: <label>", or `text`). The LiveBridge applies the model's batches and relays them
        out itself. With a `merge_key`, the step joins the one at the top of the stack when that has the
        same key: an MCP client's turn arrives as separate calls, and undoes as one step."""
        if self._turn is not None:
            self.end_agent_turn()
        label = " ".join(label.split())
        if len(label) > TURN_LABEL_CHARS:
            label = label[:TURN_LABEL_CHARS - 1].rstrip() + "…"
        self._turn = _Turn(label, self.reviewer.document.version, merge_key, text)

    def end_agent_turn(self) -> None:
        """Push the turn as one step; a turn that changed nothing pushes nothing."""
        if self._turn is not None:
            self._close_turn(self.reviewer.document.version)
            self._turn = None

    def _close_turn(self, version: int) -> None:
        """Push what the model changed since its stretch began (up to `version`), if anything."""
        turn = self._turn
        if version != turn.version:
            text = turn.text or (f"Claude's turn: {turn.label}" if turn.label else "Claude's turn")
            self._push(text, turn.parts, turn.version, version, turn.merge_key)

    def _restart_turn(self) -> None:
        """The turn goes on from the document as it is now (its stretch so far is pushed, or gone)."""
        if self._turn is not None:
            self._turn = replace(self._turn, version=self.reviewer.document.version, parts=[])

    # -- the stack -----------------------------------------------------------------------------------------

    def perform(self, text: str, action, touched: set[str] | None = None):
        """Run any other document change (a comment, a reply, resolving a thread) as one undo step and
        return what `action()` returned; `changed` carries `touched` when the document changed.
        The window should route every change through here: a change made beside the stack is in no
        step, and undoing a step restores what it kept, by place."""
        version = self.reviewer.document.version
        outcome = self._record(text, action)
        if self.reviewer.document.version != version:
            self.changed.emit(touched)
        return outcome

    def _record(self, text: str, action, before: Checkpoint | None = None):
        """Run the lawyer's action as one step of what it changed (`before`: the whole document before
        it, for an action the engine does not record)."""
        document = self.reviewer.document
        version = document.version
        parts: list = [_Whole(before)] if before is not None else []
        outer, self._action = self._action, parts
        try:
            outcome = action()  # may raise; then nothing changed and nothing is pushed
        finally:
            self._action = outer
        if document.version == version:
            return outcome
        if self._turn is not None:
            # the lawyer acted in the middle of Claude's turn: the model's edits so far become their
            # own step, this action the next, and the turn goes on after it
            self._close_turn(version)
        self._push(text, parts, version, document.version)
        self._restart_turn()
        return outcome

    def _push(self, text: str, parts: list, version_before: int, version_after: int, merge_key=None) -> None:
        if not _whole_sequence(parts, version_before, version_after):
            # something changed the document beside both the engine and the reviewer: no step can take
            # it back exactly, and older steps may no longer find their places
            log.warning("an undo step could not be kept (%s); the undo history is cleared", text)
            self.undo_stack.clear()
            return
        self.undo_stack.push(_Step(self, text, parts, merge_key))

    def _recorded(self, record, version_before: int, version_after: int) -> None:
        """The engine recorded a change: part of the lawyer's action running now, or of Claude's turn."""
        parts = self._action if self._action is not None else (self._turn.parts if self._turn is not None else None)
        if parts is not None:
            parts.append(_Recorded(record, version_before, version_after))

    def _unrecorded(self) -> None:
        """A change the engine does not record is about to be made: keep the whole document first."""
        parts = self._action if self._action is not None else (self._turn.parts if self._turn is not None else None)
        if parts is not None and not (parts and isinstance(parts[-1], _Whole)):
            parts.append(_Whole(self.reviewer.checkpoint()))

    def _restored(self) -> None:
        self._restart_turn()  # undo or redo while Claude works: the turn goes on from here
        self.changed.emit(None)  # the whole document is laid out again


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
