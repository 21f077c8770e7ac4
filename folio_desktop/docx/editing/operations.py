"""The operation engine: resolve a parsed batch against one snapshot, apply it right to left as
tracked changes (or directly), and report what happened (spec §3.5-3.10).

Every operation is resolved and checked before anything is written. Operations are then applied
from the end of the document backwards, so the offsets of those still waiting stay valid. A batch
is one undo step; atomic batches and dry runs write nothing unless everything applies. The checks
that resolve an operation's target are in operation_targets.py; what an applied operation touched
and its receipt, in operation_effects.py.

Undo keeps what each batch touched, not the document (checkpoints.EditRecord): before anything is
written, the runs of elements its operations can reach are copied, and the comment and numbering
parts when an operation first writes to them. The same record takes back a rejected atomic batch
or a dry run, and an operation that fails halfway has a record of its own. The history holds the
last `max_undo` batches; older ones are let go.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lxml import etree

from ..model import graphemes
from ..model.document import Document
from ..model.textkit import index_to_utf16, text_hash, utf16_to_index
from ..package.ooxml import W_NS, W_PPR, on_off
from .checkpoints import (
    DEFAULT_UNDO_STEPS,
    EditRecord,
    comment_parts,
    comment_slots,
    numbering_parts,
)
from .contract import MODES_BY_TYPE, RANGE_TYPES, SUPPORTED_MODES, parse_batch, target_block_id
from .contract import PROPERTY_HOLDERS as PROPERTY_KEYS
from .operation_effects import _receipt_position, _spans, _text_only, _touched, receipt_for
from .operation_targets import (
    _find_once,
    _keep_markers,
    _live_block,
    _Planned,
    _range_indices,
    _refuse_hidden_text,
    _splits,
    pending_deletion,
)
from .ops import blocks as op_blocks
from .ops import tables as op_tables
from .ops import text as op_text
from .ops.context import OpContext, RecordingStamp
from .paragraph_edit import EditError, Stamp, max_revision_id, now_iso
from .skips import issue_for
from .validate import validate_elements

if TYPE_CHECKING:
    from ..reading.blocks import Snapshot

_W = "{" + W_NS + "}"

IMPLEMENTATIONS = {
    "replaceInBlock": op_text.replace_in_block,
    "replaceRange": op_text.replace_range,
    "replaceBlock": op_text.replace_block,
    "formatRange": op_text.format_range,
    "commentOnRange": op_text.comment_on_range,
    "commentOnBlock": op_text.comment_on_block,
    "setBlockParagraphProperties": op_text.set_paragraph_properties,
    "insertAfterBlock": op_blocks.insert_block,
    "insertBeforeBlock": op_blocks.insert_block,
    "deleteBlock": op_blocks.delete_block,
    "splitBlock": op_blocks.split_block,
    "mergeBlockWithNext": op_blocks.merge_block,
    "insertTable": op_tables.insert_table,
    "deleteTable": op_tables.delete_table,
    "insertSignatureTable": op_tables.insert_signature_table,
    "insertTableRow": op_tables.insert_table_row,
    "deleteTableRow": op_tables.delete_table_row,
    "insertTableColumn": op_tables.insert_table_column,
    "deleteTableColumn": op_tables.delete_table_column,
    "mergeTableCells": op_tables.merge_table_cells,
    "splitTableCell": op_tables.split_table_cell,
}
ANNOTATIONS = ("commentOnRange", "commentOnBlock")
BLOCK_CLAIMS = ("deleteBlock", "replaceBlock", "splitBlock")
INSERTS = ("insertAfterBlock", "insertBeforeBlock", "insertTable", "insertSignatureTable")
HIDDEN_GUARDED = ("replaceBlock", "deleteBlock", "replaceInBlock", "replaceRange")
TABLE_OPS = ("insertTableRow", "deleteTableRow", "insertTableColumn", "deleteTableColumn", "mergeTableCells",
             "splitTableCell", "deleteTable")


class OperationIdConflictError(ValueError):
    """An operation id that this document already applied with other content."""


@dataclass
class _UndoEntry:
    handle: str
    record: EditRecord
    version_before: int
    version_after: int


class OperationEngine:
    """One per open document: revision cursor, undo history, and the id registry for replays."""

    def __init__(self, doc: Document, author: str, *, guard_hidden_text: bool = False,
                 max_undo: int = DEFAULT_UNDO_STEPS):
        self.doc = doc
        self.author = author
        # refuse edits that would leave hidden text live and unreviewed (issue 12): on for the surfaces
        # whose authors cannot see hidden text (the reviewer's engine: the model, the lawyer); off for
        # the redline writer, which writes the difference between two versions, not an author's edit
        self.guard_hidden_text = guard_hidden_text
        self.max_undo = max_undo
        self._cursor: list[int] | None = None
        self._undo: list[_UndoEntry] = []
        self._undo_seq = 0
        self.registry: dict[str, tuple[str, dict]] = {}  # op id -> (fingerprint, receipt)
        # the ids comments must not take, read once and kept up to date across batches (comment_ids.py)
        self.comment_ids: dict = {}
        # called with (record, version before, version after) for every change the engine records
        # (a batch, an undo, a reply...): the review desk's undo steps are made of these records
        self.listeners: list = []

    # -- public ------------------------------------------------------------------------------

    def apply(self, batch, *, snapshot: Snapshot | None = None, author: str | None = None,
              keystrokes: bool = False, undoable: bool = True, document_version: str | None = None) -> dict:
        """Apply a batch (spec §3). Two host-side options, never part of the batch a model sends:
        keystrokes=True says the batch is a person typing at a caret (op_text.keystrokes: the
        characters typed, not a word diff; splitBlock may split at a paragraph's very start or end,
        as Enter does); undoable=False keeps no per-batch undo state (the caller has its own undo,
        and copying a long document for every keystroke would cost more than the edit);
        document_version: the token a batch's documentVersion pin is checked against, when the host
        keeps versions of its own (else the engine's own token)."""
        parsed = parse_batch(batch)
        mode = parsed.get("mode", "tracked-changes")
        atomic = parsed.get("atomic", False)
        dry_run = parsed.get("dryRun", False)
        ops = [dict(op) for op in parsed["operations"]]
        named = {i for i, op in enumerate(ops) if "id" in op}  # only caller ids are remembered for replays
        for i, op in enumerate(ops):
            op.setdefault("id", f"op-{i + 1}")

        replayed = self._replays(ops, named)
        pinned = (parsed.get("precondition") or {}).get("documentVersion")
        current_version = document_version if document_version is not None else self.version_token()
        if pinned is not None and pinned != current_version:
            return self._all_skipped(ops, replayed, "documentVersionMismatch",
                                     f"the document is at version {current_version}, not {pinned}")
        doc = self.doc
        version_before = doc.version
        current = doc.snapshot()
        skipped: dict[int, tuple[str, str | None]] = {}
        planned: list[_Planned] = []
        for i, op in enumerate(ops):
            if i in replayed:
                continue
            try:
                plan = self._resolve(i, op, mode, current, snapshot)
                plan.resolved["keystrokes"] = keystrokes
                planned.append(plan)
            except EditError as err:
                skipped[i] = (err.reason, err.message)
        self._claims(planned, skipped)
        planned = [p for p in planned if p.index not in skipped]
        self._pair_moves(planned, mode)

        # what the batch can reach, as it is: to undo it, or to take it back (a rejected atomic
        # batch, a dry run); the comment and numbering parts are kept when first written to
        keep_history = undoable and self.max_undo > 0
        record = EditRecord(doc.package) if keep_history or atomic or dry_run else None
        if record is not None:
            record.keep_spans([span for plan in planned for span in _spans(plan, doc.body)])
        stamp = Stamp(author or self.author, now_iso(), self._revision_cursor())
        cursor_before = stamp.cursor[0]
        applied: dict[int, dict] = {}
        normalizations: list[dict] = []
        taken_ids = _TakenIds(current)
        keep_comments = None if record is None else (lambda: _keep_comments(record, doc))
        store = _LazyCommentStore(doc, self.comment_ids, keep_comments)
        in_place: list[etree._Element] | None = []  # paragraphs whose text alone changed
        ran = False
        for plan in sorted(planned, key=lambda p: p.order, reverse=True):
            ctx = OpContext(doc, plan.op, plan.index, current, plan.block, mode,
                            RecordingStamp(stamp, _move_tags(plan.move)), store, taken_ids, plan.resolved,
                            move=plan.move, move_name=plan.move_name)
            for code in plan.resolved.get("normalizations", ()):
                ctx.normalize(code)
            if record is not None and not record.numbering and _numbering_requested(plan.op):
                record.keep_parts(doc.package, numbering_parts(doc))
                record.numbering = True
            local = EditRecord(doc.package, bookkeeping=False)  # puts the operation back if it fails
            local.keep_spans(_spans(plan, doc.body))
            ran = True
            try:
                IMPLEMENTATIONS[plan.op["type"]](ctx)
                problem = validate_elements(_touched(plan, ctx))
                if problem:
                    raise EditError("invalidResult", problem)
            except EditError as err:
                local.take_back(doc)
                if ctx.comment_id is not None:
                    store.get().remove(ctx.comment_id)
                skipped[plan.index] = (err.reason, err.message)
                continue
            entry = {"id": plan.op["id"]}
            if ctx.comment_id is not None:
                entry["commentId"] = ctx.comment_id
            if ctx.stamp.issued:
                entry["revisionId"] = ctx.stamp.issued[0]
                entry["revisionIds"] = list(ctx.stamp.issued)
            applied[plan.index] = entry
            normalizations.extend(ctx.normalizations)
            if in_place is not None and _text_only(plan, ctx):
                in_place.append(plan.block.element)
            else:
                in_place = None

        changed = bool(applied)
        status = "committed"
        if atomic and skipped:
            status = "previewed" if dry_run else "rejected"
            for i in range(len(ops)):
                if i not in skipped and i not in replayed:
                    skipped[i] = ("atomicBatchRejected", None)
            applied = {}
        elif dry_run:
            status = "previewed"
        keep = status == "committed" and changed
        self._given_out(range(cursor_before + 1, stamp.cursor[0] + 1), taken_ids.minted)
        if not keep:
            if ran and record is not None:
                self._take_back(record, version_before)
                stamp.cursor[0] = cursor_before
        else:
            for part in self._edited_parts(store._store is not None):
                doc.package.mark_dirty(part)
            if in_place and isinstance(doc, Document):  # not a story wrapper (the redline writer's)
                doc.invalidate(edited=in_place)
            else:
                doc.invalidate()

        receipts = []
        for i, op in enumerate(ops):
            if i in replayed:
                receipts.append(self.registry[op["id"]][1])
            elif i in applied or (status == "previewed" and i not in skipped):
                receipts.append(receipt_for(i, op, applied.get(i, {})))
        result: dict = {
            "version": 1,
            "status": status,
            "applied": [applied[i] if status == "committed" else {"id": ops[i]["id"]}
                        for i in sorted(applied)] if status == "committed" else
                       ([{"id": ops[i]["id"]} for i in range(len(ops)) if i not in skipped and i not in replayed]
                        if status == "previewed" else []),
            "skipped": [{"id": ops[i]["id"], "reason": r, **({"message": m} if m else {})}
                        for i, (r, m) in sorted(skipped.items())],
            "issues": [issue_for(r, ops[i]["id"], i, m) for i, (r, m) in sorted(skipped.items())],
            "receipts": receipts,
            "undoHandle": None,
        }
        if replayed:
            result["replayed"] = [{"id": ops[i]["id"]} for i in sorted(replayed)]
        if normalizations:
            result["normalizations"] = normalizations
        if keep:
            result["nextRevisionId"] = stamp.cursor[0] + 1
            for i in applied:
                if i in named:
                    self.registry[ops[i]["id"]] = (_fingerprint(ops[i]), receipts[_receipt_position(receipts, i)])
        if keep and keep_history:
            record.settle(doc)
            record.text_only = bool(in_place)
            record.registry = {ops[i]["id"]: self.registry[ops[i]["id"]] for i in applied if i in named}
            self._undo_seq += 1
            handle = f"headless-{self._undo_seq}"
            self._undo.append(_UndoEntry(handle, record, version_before, doc.version))
            del self._undo[:-self.max_undo]
            result["undoHandle"] = {"type": "documentOperationUndo", "id": handle}
            self._notify(record, version_before)
        return result

    def version_token(self) -> str:
        """Changes with every change to the document (edits, accepts, comments, undo)."""
        return f"v{self.doc.version}"

    def _all_skipped(self, ops, replayed, reason, message) -> dict:
        skipped = [(i, op) for i, op in enumerate(ops) if i not in replayed]
        return {"version": 1, "status": "committed", "applied": [],
                "skipped": [{"id": op["id"], "reason": reason, "message": message} for _, op in skipped],
                "issues": [issue_for(reason, op["id"], i, message) for i, op in skipped],
                "receipts": [], "undoHandle": None}

    def undo(self, handle) -> dict:
        hid = handle.get("id") if isinstance(handle, dict) else handle
        entry = next((e for e in self._undo if e.handle == hid), None)
        if entry is None:
            return {"status": "rejected", "undoHandle": handle, "reason": "unknownHandle"}
        if entry is not self._undo[-1]:
            return {"status": "rejected", "undoHandle": handle, "reason": "notLatest"}
        if self.doc.version != entry.version_after:
            return {"status": "rejected", "undoHandle": handle, "reason": "documentChanged"}
        self._undo.pop()
        version = self.doc.version
        self.set_done(entry.record, False)
        if self._undo and self._undo[-1].version_after == entry.version_before:
            # nothing came between the two batches: the document is as the earlier one left it,
            # which is now the latest to undo
            self._undo[-1].version_after = self.doc.version
        self._notify(entry.record, version)
        return {"status": "undone", "undoHandle": handle}

    def recorded(self, change, *, spans=(), parts=()):
        """Make a change beside the batches (a reply, a resolved comment) as one the engine records:
        `spans` and `parts` say what it can touch (EditRecord.keep_spans, keep_parts). The listeners
        get its record; undo_document_operations does not know it (it takes back batches)."""
        doc = self.doc
        version = doc.version
        record = EditRecord(doc.package)
        record.keep_spans(list(spans))
        record.keep_parts(doc.package, list(parts))
        outcome = change()
        if doc.version != version:
            record.settle(doc)
            self._notify(record, version)
        return outcome

    def set_done(self, record: EditRecord, done: bool) -> None:
        """Make a recorded change again (done) or take it back: an undo or redo. Counts as a change."""
        if record.done == done:
            return
        self.comment_ids.clear()  # an earlier state may hold ids the kept ones no longer list
        edited = record.set_done(self.doc, done)
        for op_id, known in record.registry.items():
            if done:
                self.registry[op_id] = known
            else:
                self.registry.pop(op_id, None)
        if edited and isinstance(self.doc, Document):
            self.doc.invalidate(edited=edited)
        else:
            self.doc.invalidate()

    def _given_out(self, revision_ids, para_ids) -> None:
        """Ids a batch wrote: the kept sets of ids in use (when read) list them from now on."""
        if "ids" in self.comment_ids:
            self.comment_ids["ids"].update(revision_ids)
        if "paras" in self.comment_ids:
            self.comment_ids["paras"].update(para_ids)

    def _take_back(self, record: EditRecord, version: int) -> None:
        """Put back a batch that is not kept (rejected, previewed): the same elements, as they were;
        the document's version is the one it had, since nothing the caller can see changed."""
        doc = self.doc
        placed = record.take_back(doc)
        edited = [el for els in placed for el in els]
        if edited and isinstance(doc, Document) and all(el.tag == _W + "p" for el in edited):
            doc.invalidate(edited=edited)
        else:
            doc.invalidate()
        doc.version = version

    def _notify(self, record: EditRecord, version_before: int) -> None:
        for listener in list(self.listeners):
            listener(record, version_before, self.doc.version)

    # -- resolution --------------------------------------------------------------------------------

    def _replays(self, ops: list[dict], named: set[int]) -> set[int]:
        replayed = set()
        for i, op in enumerate(ops):
            known = self.registry.get(op["id"]) if i in named else None
            if known is None:
                continue
            if known[0] != _fingerprint(op):
                raise OperationIdConflictError(
                    f'Operation id "{op["id"]}" was already applied to this document with different content; '
                    "give a new operation a new id.")
            replayed.add(i)
        return replayed

    def _resolve(self, i: int, op: dict, mode: str, current: Snapshot, built_against: Snapshot | None) -> _Planned:
        t = op["type"]
        protection = self.doc.protection()
        if protection in ("readOnly", "forms") or (protection == "comments" and t not in ANNOTATIONS):
            raise EditError("documentNotEditable", f"the document is protected ({protection}); remove the "
                                                   "protection in Word to edit it")
        if mode not in MODES_BY_TYPE[t] or mode not in SUPPORTED_MODES:
            raise EditError("unsupportedMode", f"{t} does not support {mode} mode here")
        if protection == "trackedChanges" and mode == "direct":
            raise EditError("unsupportedMode", "the document only allows tracked changes")
        block_id = target_block_id(op)
        block = _live_block(block_id, current, built_against)
        pre = op.get("precondition")
        if pre and pre["blockTextHash"] != block.text_hash:
            raise EditError("preconditionFailed")
        plan = _Planned(i, op, block)
        plan.resolved["mode"] = mode
        text = block.text
        if t in ("insertAfterBlock", "insertBeforeBlock"):
            _keep_markers("", op["text"])
        if t not in INSERTS and pending_deletion(block):
            raise EditError("pendingDeletion", "the target is already pending deletion")
        if t in RANGE_TYPES:
            rng = op["range"]
            a, b = _range_indices(text, rng, check_clusters=t == "replaceRange")
            if text_hash(text[a:b]) != rng["selectedTextHash"]:
                raise EditError("staleRange", "the text at that range is no longer what find_text returned")
            if t == "replaceRange" and text[a:b] == op["replace"]:
                raise EditError("noopOperation")
            if t == "replaceRange":
                _keep_markers(text[a:b], op["replace"])
            plan.resolved.update(start=a, end=b)
        elif t == "replaceInBlock":
            a, b = _find_once(text, op["find"])
            if op["find"] == op["replace"]:
                raise EditError("noopOperation")
            plan.resolved.update(start=a, end=b)
            _keep_markers(text[a:b], op["replace"])
        elif t == "replaceBlock":
            _keep_markers(text, op["text"])
        elif t == "commentOnBlock" and op.get("quote"):
            a, b = _find_once(text, op["quote"])
            plan.resolved.update(start=a, end=b)
        elif t == "splitBlock":
            index = utf16_to_index(text, op["offset"])
            if index is None and op["offset"] <= index_to_utf16(text, len(text)):
                raise _splits(text, op["offset"])
            if index is None:
                raise EditError("staleRange", f"offset {op['offset']} is past the end of the block")
            cluster = graphemes.cluster_around(text, index)
            if cluster:
                raise EditError("splitsCharacter", graphemes.splits_message(text, op["offset"], *cluster))
            plan.resolved["offset"] = index
        elif t == "setBlockParagraphProperties" and mode == "tracked-changes":
            ppr = block.element.find(W_PPR) if block.element is not None else None
            if ppr is not None and ppr.find(_W + "pPrChange") is not None:
                raise EditError("pendingParagraphPropertyChange")
        if self.guard_hidden_text and t in HIDDEN_GUARDED:
            _refuse_hidden_text(self.doc, block, t, plan.resolved)
        if t in TABLE_OPS:
            op_tables.resolve(plan, current)
        refs = {}
        for key in ("styleId", "numbering"):
            if key in op:
                refs[key] = op[key]
        for key in PROPERTY_KEYS:
            if key in op:
                refs.update({k: v for k, v in op[key].items() if k in ("styleId", "numbering")})
        if refs:
            from .ops.paragraph_props import check_references

            check_references(self.doc, refs)
        anchor_index = current.anchors[block.id].index
        offset = plan.resolved.get("start", plan.resolved.get("offset", 0))
        # ties on one place are applied in input order, except inserts after a block: each lands right
        # after it, so the last of them goes in first and the batch reads in its own order (spec §3.5.12)
        tie = -i
        if t == "insertAfterBlock" or (t in ("insertTable", "insertSignatureTable") and op.get("position", "after") == "after"):
            offset = 1 << 40
            tie = i
        elif t in ("insertBeforeBlock", "insertTable", "insertSignatureTable"):
            offset = -1
        plan.order = (anchor_index, offset, tie)
        return plan

    def _claims(self, planned: list[_Planned], skipped: dict) -> None:
        """Refuse a later operation whose target an earlier one in the batch deletes or rewrites."""
        claims: dict[str, list[tuple[str, int, int, str]]] = {}
        tables: dict = {}
        for plan in sorted(planned, key=lambda p: p.index):
            op, t = plan.op, plan.op["type"]
            bid = plan.block.id
            mine = claims.setdefault(bid, [])
            conflict = None
            if t in ANNOTATIONS:
                conflict = None
            elif t in ("replaceInBlock", "replaceRange", "formatRange"):
                a, b = plan.resolved["start"], plan.resolved["end"]
                conflict = next((c for c in mine if c[0] == "block" or (c[0] == "text" and a < c[2] and c[1] < b)), None)
                kind = "text"
            elif t in BLOCK_CLAIMS:
                conflict = next((c for c in mine if c[0] in ("block", "text")), None)
                a, b, kind = 0, 0, "block"
            elif t == "mergeBlockWithNext":
                conflict = next((c for c in mine if c[0] == "block"), None)
                a, b, kind = 0, 0, "mark"
            elif t == "setBlockParagraphProperties":
                conflict = next((c for c in mine if c[0] in ("block", "props")), None)
                a, b, kind = 0, 0, "props"
            elif t in INSERTS:
                conflict = next((c for c in mine if c[0] == "block" and c[3].startswith("deleteBlock")), None)
                kind = None
            else:  # table structure
                key = id(plan.resolved.get("table"))
                earlier = tables.get(key)
                if earlier is not None and (t == "deleteTable" or earlier.startswith("deleteTable:")):
                    skipped[plan.index] = ("overlappingOperation",
                                           f'an earlier operation in this batch ("{earlier.split(":", 1)[1]}") '
                                           "already changes this table")
                    continue
                if t == "deleteTableRow":
                    row_key = ("row", id(plan.resolved.get("row")))
                    if row_key in tables:
                        skipped[plan.index] = ("noopOperation", "an earlier operation in this batch already "
                                                                "deletes this row")
                        continue
                    tables[row_key] = f"{t}:{op['id']}"
                tables.setdefault(key, f"{t}:{op['id']}")
                kind = None
            if conflict is not None:
                skipped[plan.index] = ("overlappingOperation",
                                       f'an earlier operation in this batch ("{conflict[3].split(":", 1)[1]}") '
                                       "already deletes or rewrites this text")
                continue
            if t in ANNOTATIONS or kind is None:
                continue
            mine.append((kind, a, b, f"{t}:{op['id']}"))

    def _pair_moves(self, planned: list[_Planned], mode: str) -> None:
        """A deleteBlock and an insert sharing a moveId are written as a tracked move."""
        by_move: dict[str, list[_Planned]] = {}
        for plan in planned:
            if "moveId" in plan.op:
                by_move.setdefault(plan.op["moveId"], []).append(plan)
        for move_id, plans in by_move.items():
            deletes = [p for p in plans if p.op["type"] == "deleteBlock"]
            inserts = [p for p in plans if p.op["type"] in ("insertAfterBlock", "insertBeforeBlock")]
            if len(deletes) == 1 and len(inserts) == 1 and len(plans) == 2 and mode == "tracked-changes":
                name = f"move{abs(hash(move_id)) % 10**8}"
                deletes[0].move, deletes[0].move_name = "from", name
                inserts[0].move, inserts[0].move_name = "to", name
            elif mode == "tracked-changes":
                for plan in plans:
                    plan.resolved.setdefault("normalizations", []).append("unpairedMove")

    # -- helpers ----------------------------------------------------------------------------------

    def _revision_cursor(self) -> list[int]:
        if self._cursor is None:
            doc = self.doc
            parts = dict.fromkeys(s.part for s in doc.stories() if s.type != "main")  # notes share a part
            roots = [doc.root] + [doc.package.xml(part) for part in parts]
            self._cursor = [max_revision_id(roots)]
        return self._cursor

    def _edited_parts(self, wrote_comments: bool) -> list[str]:
        """The parts a committed batch marks for writing: the main part, and the comment parts when it
        wrote a comment. (A new list definition marks numbering, a new part the content types and the
        relationships, where they are written: a part marked for nothing is written again, not as it was.)"""
        doc = self.doc
        names = [doc.main_part, *(comment_parts(doc) if wrote_comments else ())]
        return [name for name in names if doc.package.has_part(name)]


class _LazyCommentStore:
    """The batch's CommentStore, made when an operation first writes a comment (`first_use` runs
    just before: the undo record keeps the comment parts as they were)."""

    def __init__(self, doc, shared: dict, first_use=None):
        self.doc = doc
        self._store = None
        self._shared = shared
        self._first_use = first_use

    def get(self):
        if self._store is None:
            from .comment_store import CommentStore

            if self._first_use is not None:
                self._first_use()
            # the batch counts as one change, once, at its end
            self._store = CommentStore(self.doc, shared=self._shared, invalidate=False)
        return self._store

    def __getattr__(self, name):
        return getattr(self.get(), name)


class _TakenIds:
    """The paragraph ids new paragraphs must not take: the snapshot's block ids and those minted in
    this batch (looked up in the snapshot, not copied out of it: a long document has many)."""

    def __init__(self, snapshot):
        self.snapshot = snapshot
        self.minted: set[str] = set()

    def __contains__(self, block_id) -> bool:
        return block_id in self.minted or self.snapshot.block(block_id) is not None

    def add(self, block_id: str) -> None:
        self.minted.add(block_id)


def _keep_comments(record: EditRecord, doc) -> None:
    """Before a batch first writes a comment: keep where new entries land in the comment parts, or
    the parts whole when writing one creates a part."""
    slots = comment_slots(doc)
    if slots is None:
        record.keep_parts(doc.package, comment_parts(doc))
        return
    for part, spans in slots.items():
        record.keep_spans(spans, part=part)


def _numbering_requested(op: dict) -> bool:
    """Does the operation ask for numbering (which may mint a list in the numbering part)?"""
    return "numbering" in op or any("numbering" in (op.get(key) or {}) for key in PROPERTY_KEYS)


def _move_tags(move: str | None) -> dict[str, str] | None:
    if move == "from":
        return {"del": "moveFrom"}
    if move == "to":
        return {"ins": "moveTo"}
    return None


def _fingerprint(op: dict) -> str:
    return json.dumps({k: v for k, v in op.items() if k != "precondition"}, sort_keys=True, ensure_ascii=False)


__all__ = ["OperationEngine", "OperationIdConflictError", "on_off"]
