"""DocxReviewer: the headless engine's front object (ARCHITECTURE.md, spec §8.5)."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from .editing import checkpoints
from .editing.checkpoints import DEFAULT_UNDO_STEPS, Checkpoint
from .errors import CorruptDocxError, DocxError, SaveConflictError, SaveTargetMissingError
from .model.document import Document, Story
from .package.files import read_document_file, write_document_file
from .package.opc import Package
from .reading import views
from .reading.blocks import Snapshot
from .reading.changes import Change, census
from .reading.comments import Comment, read_comments, threads
from .reading.concealed import ConcealedReport, concealed_text
from .reading.outline import OutlineEntry, SectionResolution, outline, resolve_section
from .reading.search import SearchResult, find_in_blocks, find_in_story
from .reading.snapshot import build_snapshot, patched


class DocxReviewer:
    """Open a .docx, read it as blocks, and (in later layers) review it."""

    def __init__(self, document: Document, author: str = "AI", source_path: str | None = None,
                 source_bytes: bytes | None = None, *, max_undo: int = DEFAULT_UNDO_STEPS):
        self.document = document
        self.author = author
        self._engine = None
        # how many batches undo_document_operations can take back, newest first (older ones are let go)
        self.max_undo = max_undo
        # called just before a change the engine does not record (an accept, a reject): an undo stack
        # over the engine's records keeps the whole document then (ui/review_actions.py)
        self.before_unrecorded_change: list = []
        self.source_path = source_path
        self._source_digest = hashlib.sha256(source_bytes).hexdigest() if source_bytes is not None else None

    # -- opening ---------------------------------------------------------------------------

    @classmethod
    def from_bytes(cls, data: bytes, author: str = "AI", *, source_path: str | None = None,
                   max_undo: int = DEFAULT_UNDO_STEPS) -> DocxReviewer:
        """Open a package from bytes. Raises only DocxError subclasses for bad input."""
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError("DocxReviewer.from_bytes expects bytes")
        data = bytes(data)
        try:
            document = Document(Package(data), build_snapshot, patched)
            document.snapshot()  # read the body now so a broken document fails here, not later
        except DocxError:
            raise
        except RecursionError:
            raise CorruptDocxError("The document is nested too deeply to be read safely.") from None
        except MemoryError:
            raise CorruptDocxError("The document needs more memory than is available to open.") from None
        except Exception as exc:  # noqa: BLE001 - the one boundary where anything becomes a DocxError
            raise CorruptDocxError(f"The document could not be read ({type(exc).__name__}: {exc}).") from None
        return cls(document, author=author, source_path=source_path, source_bytes=data, max_undo=max_undo)

    @property
    def open_warnings(self) -> list[str]:
        """One sentence per damaged non-essential part (theme, font table, settings, custom XML...)
        the document opened without, naming the part; empty for a sound document."""
        return self.document.package.warnings

    @classmethod
    def open(cls, path: str | os.PathLike, author: str = "AI", *, max_undo: int = DEFAULT_UNDO_STEPS) -> DocxReviewer:
        path = os.fspath(path)
        data = read_document_file(path)
        return cls.from_bytes(data, author=author, source_path=path, max_undo=max_undo)

    # -- reading -----------------------------------------------------------------------------

    def snapshot(self) -> Snapshot:
        return self.document.snapshot()

    def snapshot_story(self, handle: dict) -> Snapshot | None:
        story = self.document.find_story(handle)
        return self.document.snapshot_story(story) if story is not None else None

    def get_content_as_text(self, annotated: bool = False) -> str:
        doc = self.document
        return views.content_as_text(doc, doc.snapshot(), doc.body, annotated=annotated)

    def get_notes_as_text(self) -> str:
        return views.notes_as_text(self.document)

    def list_stories(self) -> list[dict]:
        doc = self.document
        return [{"handle": s.handle(), "text": views.story_text(doc, s)} for s in doc.stories()]

    def read_story(self, handle: dict) -> dict | None:
        story = self.document.find_story(handle)
        if story is None:
            return None
        return {"handle": story.handle(), "text": views.story_text(self.document, story)}

    def stories(self) -> list[Story]:
        return self.document.stories()

    def read_numbering_definitions(self) -> list[dict]:
        return self.document.numbering.definitions()

    def outline(self) -> list[OutlineEntry]:
        return outline(self.snapshot())

    def resolve_section(self, handle: dict) -> SectionResolution:
        return resolve_section(self.snapshot(), handle)

    def find_text(self, query: str, *, match_case: bool = False, whole_word: bool = False,
                  scope: dict | None = None) -> SearchResult:
        """Search the main story (document or section scope) or one other story (story scope).

        Raises LookupError when a scoped section or story cannot be found.
        """
        scope = scope or {"type": "document"}
        kind = scope.get("type")
        if kind == "section":
            res = self.resolve_section(scope.get("handle"))
            if res.status != "found":
                raise LookupError("The scoped section is stale or missing; run get_document_outline again.")
            return find_in_blocks(res.blocks, query, match_case, whole_word)
        if kind == "story":
            handle = scope.get("handle") or {}
            story = self.document.find_story(handle)
            if story is None:
                raise LookupError("The scoped story was not found; run list_stories again.")
            if story.type != "main":
                text = views.story_plain_text(self.document, story)
                return find_in_story(story.handle(), text, query, match_case, whole_word)
        return find_in_blocks(self.snapshot().blocks, query, match_case, whole_word)

    def concealed_text(self) -> ConcealedReport:
        """Text a reader may not see (hidden, coloured like its background, under 2 pt), per block of
        the main story and per other story; computed once per document version."""
        doc = self.document
        cached = self.__dict__.get("_concealed")
        if cached is None or cached[0] is not doc or cached[1] != doc.version:
            cached = self._concealed = (doc, doc.version, concealed_text(doc, doc.snapshot()))
        return cached[2]

    # -- comments and changes -------------------------------------------------------------------

    def all_comments(self) -> list[Comment]:
        return read_comments(self.document, self.snapshot())

    def get_comments(self, author: str | None = None, done: bool | None = None) -> list[Comment]:
        """Comment threads (top-level comments with their replies nested)."""
        out = threads(self.all_comments())
        if author is not None:
            out = [c for c in out if c.author == author]
        if done is not None:
            out = [c for c in out if c.done == done]
        return out

    def get_changes(self, author: str | None = None, type: str | None = None,  # noqa: A002
                    main_only: bool = False) -> list[Change]:
        """Every pending tracked change in every story (or the main story only), in story then
        document order."""
        doc = self.document
        out: list[Change] = []
        for story in doc.stories():
            if main_only and story.type != "main":
                continue
            container = doc.story_container(story)
            snap = doc.snapshot_story(story)
            out.extend(census(doc, story, snap, container))
        if author is not None:
            out = [c for c in out if c.author == author]
        if type is not None:
            out = [c for c in out if c.type == type]
        return out

    # -- editing ------------------------------------------------------------------------------------

    @property
    def engine(self):
        if self._engine is None:
            from .editing.operations import OperationEngine

            # the model and the lawyer edit through this engine; neither sees hidden text
            self._engine = OperationEngine(self.document, self.author, guard_hidden_text=True,
                                           max_undo=self.max_undo)
        return self._engine

    def apply_document_operations(self, batch: dict, *, snapshot: Snapshot | None = None,
                                  document_version: str | None = None) -> dict:
        """Apply a document-operation batch (spec §3); returns the result envelope (§3.9).
        `document_version`: the host's current version token, when a batch pinned with
        precondition.documentVersion is to be checked against the host's versions, not document_version().

        Raises InvalidDocumentOperationBatchError / UnsupportedDocumentOperationVersionError for a
        batch that breaks the contract, OperationIdConflictError for a reused id with new content."""
        return self.engine.apply(batch, snapshot=snapshot, document_version=document_version)

    def document_version(self) -> str:
        """A token that changes with every change; pin a batch to it with
        {"precondition": {"documentVersion": token}} to refuse edits made against an older read."""
        return self.engine.version_token()

    def undo_document_operations(self, handle) -> dict:
        """Take back the latest batch (spec §3.10): rejected as unknownHandle (never given, already
        undone, or older than the last max_undo batches), notLatest, or documentChanged."""
        return self.engine.undo(handle)

    def checkpoint(self) -> Checkpoint:
        """The document's whole editable state now (every story, comments, numbering), compact, for
        restore(): undo steps over changes the engine does not record (an accept, a reject)."""
        return checkpoints.take(self.document, self.engine)

    def restore(self, checkpoint: Checkpoint) -> None:
        """Put the document back as it was at checkpoint(); the same checkpoint can be restored again.
        The version still moves forward, so a batch pinned to the state in between is refused."""
        checkpoints.restore(self.document, self.engine, checkpoint)

    def _unrecorded(self) -> None:
        for hook in list(self.before_unrecorded_change):
            hook()

    # -- reviewing: accept, reject, comments ----------------------------------------------------------

    def accept_change(self, change_id: int) -> bool:
        return self._resolve_changes(True, {int(change_id)}) > 0

    def reject_change(self, change_id: int) -> bool:
        return self._resolve_changes(False, {int(change_id)}) > 0

    def accept_all(self) -> int:
        """Accept every pending change in every story; returns how many there were."""
        return self._resolve_changes(True, None)

    def accept_changes(self, change_ids) -> int:
        """Accept several changes in one pass (their resolutions interact, so they go together);
        returns how many census entries were resolved."""
        return self._resolve_changes(True, {int(i) for i in change_ids}) if change_ids else 0

    def reject_changes(self, change_ids) -> int:
        return self._resolve_changes(False, {int(i) for i in change_ids}) if change_ids else 0

    def reject_all(self) -> int:
        return self._resolve_changes(False, None)

    def _resolve_changes(self, accept: bool, ids: set[int] | None) -> int:
        from .editing.resolve import accept_changes, reject_changes

        self._unrecorded()
        return (accept_changes if accept else reject_changes)(self.document, ids)

    def _comment_store(self):
        from .editing.comment_store import CommentStore

        return CommentStore(self.document, shared=self.engine.comment_ids)

    def add_comment(self, block_id: str, text: str, quote: str | None = None) -> int:
        """Comment a block (or a quoted stretch of it); returns the new comment id."""
        op = {"type": "commentOnBlock", "blockId": block_id, "comment": {"text": text}}
        if quote:
            op["quote"] = quote
        result = self.apply_document_operations({"version": 1, "operations": [op]})
        if not result["applied"]:
            skip = result["skipped"][0]
            raise LookupError(skip.get("message") or skip["reason"])
        return result["applied"][0]["commentId"]

    def reply_to(self, comment_id, text: str, author: str | None = None, initials: str | None = None) -> int:
        """Reply in a comment's thread (flat, as Word threads are); returns the reply's id.
        Raises KeyError for an unknown comment."""
        store = self._comment_store()
        where = store.reply_places(int(comment_id))  # KeyError for an unknown comment, before any change

        def reply() -> int:
            made = store.reply(int(comment_id), text, author or self.author, initials=initials)
            self.document.invalidate()
            return made

        return self._recorded_comment_change(reply, where)

    def resolve_comment(self, comment_id, resolved: bool = True) -> bool:
        """Mark a comment resolved (w15:done) or open it again; False when there is no such comment."""

        def resolve() -> bool:
            done = self._comment_store().set_done(int(comment_id), resolved)
            if done:
                self.document.invalidate()
            return done

        return self._recorded_comment_change(resolve, [])

    def delete_comments(self, comment_ids) -> list[int]:
        """Delete comments as one change (undone as one): a thread's first comment takes its replies
        with it, a reply goes alone; their range markers, reference marks and entries in every comment
        part go too. Returns the ids deleted, replies included (empty when none of them exists)."""
        comments = {c.id: c for c in self.all_comments()}
        doomed: list[int] = []
        for comment in filter(None, (comments.get(int(i)) for i in comment_ids)):
            doomed.append(comment.id)
            if comment.parent_id is None:
                doomed.extend(r.id for r in comment.replies)
        doomed = list(dict.fromkeys(doomed))
        if not doomed:
            return []
        store = self._comment_store()

        def delete() -> list[int]:
            gone = store.delete(doomed)
            self.document.invalidate()
            return gone

        return self._recorded_comment_change(delete, store.places(doomed))

    def edit_comment(self, comment_id, text: str) -> bool:
        """Give a comment new text; its author, date, thread and range stay. False when there is no
        such comment."""

        def edit() -> bool:
            done = self._comment_store().set_text(int(comment_id), text)
            if done:
                self.document.invalidate()
            return done

        return self._recorded_comment_change(edit, [])

    def _recorded_comment_change(self, change, where: list):
        """Make a change to the comments (and to the stories at `where`: (part, element) pairs) as
        one the engine records, so it undoes by what it touched; or, when a place cannot be kept that
        way, as a change the engine does not record."""
        from .editing.checkpoints import comment_spans

        spans, parts = comment_spans(self.document, where)
        if spans is None:
            self._unrecorded()
            return change()
        return self.engine.recorded(change, spans=spans, parts=parts)

    def capabilities(self) -> dict:
        from .editing.contract import capabilities

        return capabilities()

    # -- saving ------------------------------------------------------------------------------------

    def to_bytes(self, *, damaged_parts: str = "keep") -> bytes:
        """The package as bytes. damaged_parts: "keep" writes a damaged non-essential part (see
        open_warnings) as it was read, "rebuild" writes a minimal sound one in its place."""
        return self.document.package.to_bytes(damaged_parts)

    def save(self, path: str | os.PathLike | None = None, *, force: bool = False,
             damaged_parts: str = "keep") -> str:
        """Write atomically (through a symbolic link, to the file it points to; a hard-linked file
        keeps its identity). Replacing the file this document came from first checks that nobody
        changed it on disk since it was opened (SaveConflictError), nor moved or deleted it
        (SaveTargetMissingError); force=True writes all the same. damaged_parts: as in to_bytes."""
        target = os.fspath(path) if path is not None else self.source_path
        if target is None:
            raise DocxError("This document was not opened from a file; choose where to save it.")
        if not force:
            self._check_source_unchanged(target)
        data = self.to_bytes(damaged_parts=damaged_parts)
        write_document_file(target, data)
        if self.source_path is None or os.path.abspath(target) == os.path.abspath(self.source_path):
            self.source_path = target
            self._source_digest = hashlib.sha256(data).hexdigest()
        return target

    def _check_source_unchanged(self, target: str) -> None:
        """Refuse to replace the file this document came from when another program changed, moved or
        deleted it since it was opened (or last saved) here."""
        if not self.source_path or not self._source_digest:
            return
        if not os.path.exists(target):
            if os.path.abspath(target) == os.path.abspath(self.source_path):
                raise SaveTargetMissingError(
                    f"{target} was moved or deleted after it was opened here. Save it under a name you "
                    "choose, or save it there again on purpose.")
            return
        if os.path.exists(self.source_path) and os.path.samefile(target, self.source_path):
            current = hashlib.sha256(Path(target).read_bytes()).hexdigest()
            if current != self._source_digest:
                raise SaveConflictError(
                    f"{target} was changed by another program after it was opened here. Save under a "
                    "new name, or reload it to see those changes first."
                )
