"""Bridges: what the tools talk to (spec §8). A bridge exposes a document surface to the executor.

Required members: snapshot, apply_document_operations, get_comments, get_changes, reply_to_comment,
resolve_comment. Optional members are simply absent on surfaces that cannot offer them (never a
no-op), and the executor then answers with the "does not support" sentence.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

from ..docx import DocxReviewer
from ..docx.editing.contract import parse_batch
from ..docx.editing.operation_effects import receipt_for
from ..docx.editing.operations import OperationIdConflictError

_DECIMAL = re.compile(r"^\d+$")
MAX_SAFE_INTEGER = 2**53 - 1


def decode_comment_id(raw) -> int | None:
    """A comment id from read_comments: a bare decimal string of a safe integer ("12abc" is refused)."""
    if not isinstance(raw, str) or not _DECIMAL.match(raw):
        return None
    value = int(raw)
    return value if value <= MAX_SAFE_INTEGER else None


class AgentBridge:
    """Base for bridges. Subclasses implement the required members and any optional ones."""

    #: when True the executor validates comment ids itself (spec §8.1 decoded comment handlers)
    validates_comment_ids = True
    #: copied into every batch when set ("tracked-changes" on review surfaces)
    document_operation_mode: str | None = None

    def snapshot(self):
        raise NotImplementedError

    def apply_document_operations(self, batch: dict) -> dict:
        raise NotImplementedError

    def get_comments(self) -> list[dict]:
        raise NotImplementedError

    def get_changes(self) -> list[dict]:
        raise NotImplementedError

    def reply_to_comment(self, comment_id: str, text: str) -> bool:
        raise NotImplementedError

    def resolve_comment(self, comment_id: str, resolved: bool) -> bool:
        raise NotImplementedError


class ReviewerBridge(AgentBridge):
    """The headless bridge over a DocxReviewer (spec §8.2): no page, selection or view members.

    `resolve_others`: whether the model may resolve or reopen comment threads someone else wrote
    (off by default: closing the other side's comment hides it from the lawyer without a trace in
    the redline, so it takes the lawyer's permission).
    `document_version`: the host's version token callback, for hosts that hand out versions of their
    own: a batch pinned to the host's current token applies, an older one is skipped whole
    (documentVersionMismatch). Without it the bridge has no get_document_version, so a pinned
    suggest_changes is refused (spec §8.2).
    """

    def __init__(self, reviewer: DocxReviewer, mode: str = "tracked-changes", resolve_others: bool = False,
                 document_version=None):
        self.reviewer = reviewer
        self.document_operation_mode = mode
        self.resolve_others = resolve_others
        self._author: str | None = None
        self._host_version = document_version
        self.checks = None  # the CheckSession check_document runs, made on first use
        if document_version is not None:
            self.get_document_version = document_version

    @property
    def author(self) -> str:
        """The name the model's edits, comments and replies are made under."""
        return self._author if self._author is not None else self.reviewer.author

    @author.setter
    def author(self, value: str | None) -> None:
        self._author = value

    def may_resolve_comment(self, comment_id: str, resolved: bool) -> str | None:
        """None when the model may resolve (or reopen) this thread, else the sentence it reads."""
        if self.resolve_others:
            return None
        cid = decode_comment_id(comment_id)
        comment = next((c for c in self.reviewer.all_comments() if c.id == cid), None)
        if comment is None or comment.author == self.author:
            return None  # not found is reported by resolve itself; its own comments are Claude's to close
        verb = "resolve" if resolved else "reopen"
        return (f"resolve_comment was not allowed to {verb} comment {comment_id}: it was written by "
                f"{comment.author or 'someone else'}, and the lawyer has not allowed you to {verb} other people's "
                "comments (a setting in the app). Leave it as it is; reply to it with reply_comment, or tell the "
                "lawyer it can be resolved.")

    def snapshot(self):
        return self.reviewer.snapshot()

    def apply_document_operations(self, batch: dict) -> dict:
        if "mode" not in batch and self.document_operation_mode:
            batch = dict(batch, mode=self.document_operation_mode)
        # a pin is the host's token, so it is checked against the host's version, not the engine's
        host = self._host_version() if self._host_version is not None else None
        return self.reviewer.apply_document_operations(batch, document_version=host)

    def undo_document_operations(self, handle) -> dict:
        return self.reviewer.undo_document_operations(handle)

    def get_comments(self) -> list[dict]:
        return [c.to_agent_json() for c in self.reviewer.get_comments()]

    def get_changes(self) -> list[dict]:
        return [c.to_agent_json() for c in self.reviewer.get_changes(main_only=True)]

    def reply_to_comment(self, comment_id: str, text: str) -> bool:
        cid = decode_comment_id(comment_id)
        if cid is None:
            return False
        try:
            self.reviewer.reply_to(cid, text)
        except KeyError:
            return False
        return True

    def resolve_comment(self, comment_id: str, resolved: bool) -> bool:
        cid = decode_comment_id(comment_id)
        return cid is not None and self.reviewer.resolve_comment(cid, resolved)

    def list_stories(self) -> list[dict]:
        return self.reviewer.list_stories()

    def read_story(self, handle: dict) -> dict | None:
        return self.reviewer.read_story(handle)

    # what the read tools use to page stories and annotate blocks (optional members)

    def list_story_handles(self) -> list[dict]:
        return [s.handle() for s in self.reviewer.stories()]

    def snapshot_story(self, handle: dict):
        # the stories by handle, once per version: a page of list_stories asks for hundreds of notes
        stories = self.derived("stories", lambda: _stories_by_key(self.reviewer.stories()))
        story = stories.get(story_key(handle))
        return self.reviewer.document.snapshot_story(story) if story is not None else None

    def derived(self, key, compute):
        """What compute() reads from the document as it is now, computed once per document version and
        kept with the document until its next change (the read tools' census, listings and indexes,
        agents/read_views.py). Keyed by the bridge's class too, in case a subclass reads differently."""
        return self.reviewer.document.derived((type(self), key), compute)

    def annotated_texts(self) -> dict[str, str]:
        """blockId -> the block's text with <ins>/<del>/<comment> marks (the redline view)."""
        from ..docx.reading import views

        doc = self.reviewer.document
        return views.annotated_texts(doc, doc.snapshot(), doc.body)

    def concealed_text(self):
        fn = getattr(self.reviewer, "concealed_text", None)
        return fn() if callable(fn) else None

    def check_document(self) -> dict:
        """The contract checks' report on the document as it is now (folio_desktop.checks), once per
        version. `checks` is the CheckSession that runs them: the window gives its Checks panel's, so
        the paragraphs the panel has read already are not read again for the tool."""
        if self.checks is None:
            from ..checks import CheckSession

            self.checks = CheckSession()
        return self.derived("checks", lambda: self.checks.run(self.reviewer))


def story_key(handle) -> tuple | None:
    """What names a story in its handle, as Document.find_story matches it (a boolean is no note id)."""
    if not isinstance(handle, dict):
        return None
    kind = handle.get("type")
    if kind == "main":
        return ("main",)
    if kind in ("header", "footer"):
        rid = handle.get("relationshipId")
        return (kind, rid) if isinstance(rid, str) else None
    note = handle.get("noteId")
    if kind in ("footnote", "endnote") and isinstance(note, (int, float)) and not isinstance(note, bool):
        return (kind, note)
    return None


def _stories_by_key(stories) -> dict:
    out: dict = {}
    for story in stories:
        out.setdefault(story_key(story.handle()), story)  # the first of a kind, as find_story finds it
    return out


def create_reviewer_bridge(reviewer: DocxReviewer, mode: str = "tracked-changes",
                           resolve_others: bool = False, document_version=None) -> ReviewerBridge:
    """The headless bridge; `document_version`: the host's version token callback (see ReviewerBridge)."""
    return ReviewerBridge(reviewer, mode=mode, resolve_others=resolve_others, document_version=document_version)


class ReviewQueueBridge(ReviewerBridge):
    """A host that queues proposals for a person to review instead of applying them (spec §8.4).

    Reads come from the reviewer; apply_document_operations records the operations and returns
    status "queued". Operation ids are remembered per document session, so a replay is queued once.
    """

    def __init__(self, reviewer: DocxReviewer, queue: list | None = None, editable: bool = True):
        super().__init__(reviewer)
        self.queue: list[dict] = queue if queue is not None else []
        self.editable = editable
        session = reviewer.__dict__.setdefault("_queue_registry", {})
        self._registry: dict[str, tuple[str, dict]] = session

    def apply_document_operations(self, batch: dict) -> dict:
        parsed = parse_batch(batch)
        ops = [dict(op) for op in parsed["operations"]]
        if not self.editable:
            skipped = [{"id": op["id"], "reason": "documentNotEditable"} for op in ops]
            from ..docx.editing.skips import issue_for

            return {"version": 1, "status": "committed", "applied": [], "skipped": skipped,
                    "issues": [issue_for("documentNotEditable", op["id"], i, None) for i, op in enumerate(ops)],
                    "receipts": [], "undoHandle": None}
        queued, replayed, receipts = [], [], []
        for i, op in enumerate(ops):
            fingerprint = json.dumps({k: v for k, v in op.items() if k != "precondition"}, sort_keys=True)
            known = self._registry.get(op["id"])
            if known is not None:
                if known[0] != fingerprint:
                    raise OperationIdConflictError(
                        f'Operation id "{op["id"]}" was already queued for this document with different content; '
                        "give a new operation a new id.")
                replayed.append({"id": op["id"]})
                receipts.append(known[1])
                continue
            receipt = receipt_for(i, op, {})
            self._registry[op["id"]] = (fingerprint, receipt)
            self.queue.append(copy.deepcopy(op))
            queued.append({"id": op["id"]})
            receipts.append(receipt)
        result: dict[str, Any] = {"version": 1, "status": "queued", "applied": [], "queued": queued, "skipped": [],
                                  "issues": [], "receipts": receipts, "undoHandle": None}
        if replayed:
            result["replayed"] = replayed
        return result


class EditorRefBridge(AgentBridge):
    """A bridge over a live editor object (spec §8.3), the base the desktop view builds on.

    The editor (`ref`) is duck-typed. Members it lacks make the matching bridge members absent, so
    the tools answer "does not support" rather than pretend. Comments live in the host's state and
    are read and written through get_comments / set_comments.
    """

    _OPTIONAL = {  # bridge member -> editor member it needs
        "get_selection_text": "get_selection_text",
        "get_page_text": "get_page_text",
        "get_target_page": "get_target_page",
        "show_in_document": "show_in_document",
        "undo_document_operations": "undo_document_operations",
        "scroll_to_block": "scroll_to_block",
        "list_stories": "list_stories",
        "read_story": "read_story",
        "get_document_version": "get_document_version",
    }

    def __init__(self, ref, author: str, get_comments, set_comments, mode: str = "tracked-changes"):
        self.ref = ref
        self.author = author
        self._get_comments = get_comments
        self._set_comments = set_comments
        self.document_operation_mode = mode
        for member, needed in self._OPTIONAL.items():
            fn = getattr(ref, needed, None)
            if callable(fn):
                if member == "get_page_text":
                    setattr(self, member, lambda page, _fn=fn: _fn(page) or "")
                else:
                    setattr(self, member, fn)
        if callable(getattr(ref, "get_total_pages", None)):
            self.get_page_count = ref.get_total_pages

    def snapshot(self):
        fn = getattr(self.ref, "snapshot", None)
        snap = fn() if callable(fn) else None
        if snap is None:
            raise RuntimeError("The editor view is not mounted; no snapshot is available yet.")
        return snap

    def apply_document_operations(self, batch: dict) -> dict:
        if batch.get("version") != 1:
            from ..docx.editing.contract import UnsupportedDocumentOperationVersionError

            raise UnsupportedDocumentOperationVersionError()
        delegate = getattr(self.ref, "apply_document_operations", None)
        if callable(delegate):
            result = dict(delegate(batch))
            result.setdefault("issues", [])
            result.setdefault("receipts", [])
            result.setdefault("undoHandle", None)
            return result
        from ..docx.editing.skips import issue_for

        ops = [dict(op, id=op.get("id", f"op-{i + 1}")) for i, op in enumerate(batch["operations"])]
        if batch.get("dryRun") or batch.get("atomic"):
            skipped = [{"id": op["id"], "reason": "unsupportedMode"} for op in ops]
            return {"version": 1, "status": "previewed" if batch.get("dryRun") else "rejected", "applied": [],
                    "skipped": skipped, "receipts": [], "undoHandle": None,
                    "issues": [issue_for("unsupportedMode", op["id"], i, None) for i, op in enumerate(ops)]}
        outcome = self.ref.apply_ai_edit_operations(ops)  # legacy editors: {"applied": [ids], "skipped": [...]}
        applied_ids = set(outcome.get("applied", []))
        skipped = outcome.get("skipped", [])
        index = {op["id"]: i for i, op in enumerate(ops)}
        return {"version": 1, "status": "committed",
                "applied": [{"id": op["id"]} for op in ops if op["id"] in applied_ids],
                "skipped": skipped,
                "issues": [issue_for(s["reason"], s["id"], index.get(s["id"], 0), s.get("message")) for s in skipped],
                "receipts": [receipt_for(index[op["id"]], op, {}) for op in ops if op["id"] in applied_ids],
                "undoHandle": None}

    def get_comments(self) -> list[dict]:
        comments = list(self._get_comments() or [])
        anchors_fn = getattr(self.ref, "get_comment_anchors", None)
        anchors = anchors_fn() if callable(anchors_fn) else {}
        threads = []
        for c in comments:
            if c.get("parentId") is not None:
                continue
            anchor = anchors.get(c["id"], {}) if anchors else {}
            threads.append({
                "id": str(c["id"]), "author": c.get("author", ""), "text": c.get("text", ""),
                "resolved": bool(c.get("done")), "blockId": anchor.get("blockId"), "quote": anchor.get("quote", ""),
                "replies": [{"id": str(r["id"]), "author": r.get("author", ""), "text": r.get("text", "")}
                            for r in comments if r.get("parentId") == c["id"]],
            })
        return threads

    def get_changes(self) -> list[dict]:
        fn = getattr(self.ref, "get_tracked_changes", None)
        return list(fn()) if callable(fn) else []

    def reply_to_comment(self, comment_id: str, text: str) -> bool:
        cid = decode_comment_id(comment_id)
        comments = list(self._get_comments() or [])
        by_id = {c["id"]: c for c in comments}
        target = by_id.get(cid)
        if target is None:
            return False
        while target.get("parentId") is not None and target["parentId"] in by_id:  # flat threads
            target = by_id[target["parentId"]]
        new_id = max([c["id"] for c in comments] + [0]) + 1
        comments.append({"id": new_id, "author": self.author, "text": text, "parentId": target["id"], "done": False})
        self._set_comments(comments)
        return True

    def resolve_comment(self, comment_id: str, resolved: bool) -> bool:
        cid = decode_comment_id(comment_id)
        comments = [dict(c) for c in (self._get_comments() or [])]
        for c in comments:
            if c["id"] == cid:
                c["done"] = resolved
                self._set_comments(comments)
                return True
        return False


def create_editor_ref_bridge(ref, author: str, get_comments, set_comments, mode: str = "tracked-changes"):
    return EditorRefBridge(ref, author, get_comments, set_comments, mode)
