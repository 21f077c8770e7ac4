"""Redline generation (spec §9.3): the base package with tracked changes that turn it into the revised one.

Per story pair the blocks are aligned as in compare.py, then written in four phases:

1. insertions are copied from the revised document (runs, notes, images, rows and whole tables keep
   their formatting; the contract's insert text could carry none of that) and marked inserted, or
   moved when a deleted block with the same text of >= 3 words pairs with them;
2. the base content is edited through the operation engine in tracked-changes mode: replaceBlock
   (word-level redline), deleteBlock, deleteTableRow, deleteTable, mergeBlockWithNext;
3. a replaceBlock the engine refuses (e.g. it would rewrite a note marker), and a paired paragraph whose
   equation, picture (image bytes or size) or field code changed, becomes a deletion of the base runs
   plus the revised runs copied in (runs alike at either end stay); an equation is marked whole;
4. formatting revisions, as Word's Compare writes them (redline_format.py): on paragraphs paired
   with the same text every run takes the revised run properties with the old ones in w:rPrChange,
   and changed paragraph properties (style, alignment, indentation, lists) the revised w:pPr with
   the old one in w:pPrChange. formatting=False leaves the base formatting and writes none. A section
   whose page setup changed gets a w:sectPrChange (sections.py).

Moves (redline_plan._pair_moves): a deleted paragraph and an inserted one of the same text with at
least MOVE_MIN_WORDS (3) words are written as Word writes a move: w:moveFrom / w:moveTo wrappers and
paragraph marks inside w:moveFromRangeStart/End and w:moveToRangeStart/End of one w:name. A paragraph
edited as well as moved stays a deletion and an insertion. moves=False writes every move that way.

A row whose shape changed (grid offsets, spans, merges, cells added or removed: table_shape.py) is
deleted and inserted as a whole row; a table whose grid of columns changed, or whose rows cannot be
paired one to one, is deleted and inserted whole, and result["fallbacks"] says so (scope "table").
Finally every revision gets one date, and the buffer is verified: rejecting all must give the base,
accepting all the revised document, story by story and block by block, in text (pictures, equations and
field codes included: objects.py) and in the shape of every table. An unverified buffer is never returned.

A story that fails the check (or whose writing fails) is not refused: the redline is built again on a
fresh copy of the base with that story coarser, first per region (every paragraph, table or content
control at the story's top level that holds a difference is deleted whole and the revised ones are
inserted whole; the rest stays as it is), then, if that still fails, the whole story replaced.
result["fallbacks"] names each such story, the scope, the reason and how many blocks it covers.

This module is the entry point and the check; the plan is made in redline_plan.py, written by
redline_writer.py, with what copied content refers to brought in by redline_importer.py.
"""

from __future__ import annotations

from folio_desktop.docx import DocxReviewer
from folio_desktop.docx.package.ooxml import W_NS

from . import privacy as privacy_mod
from .compare import Budget, align, open_view, story_blocks
from .objects import ObjectKeys, has_objects
from .redline_errors import (
    GenerateRedlineDocxResourceImportError,
    InvalidGenerateRedlineDocxOptionsError,
    RedlineVerificationError,
)
from .redline_importer import _story_roots
from .redline_plan import _pair_moves, _plan_coarse, _plan_story, _StoryPlan
from .redline_writer import _Redline
from .table_shape import story_shapes

_W = "{" + W_NS + "}"
VIEWS = ("original", "final")
REFERENCE_POLICIES = ("keep", "refuse")


# -- verification -------------------------------------------------------------------------------------------

def story_texts(rev: DocxReviewer) -> dict[str, list[str]]:
    """Story key -> each block's text, followed by its pictures' and equations' keys when it holds
    any (a replaced or resized picture changes no text, and the check must see it)."""
    keys = ObjectKeys(rev.document)
    return {key: [b.text + (f" [objects {keys.key(story.part, b.element)}]" if has_objects(b.element) else "")
                  for b in blocks] for key, (story, blocks) in story_blocks(rev).items()}


def compared_texts(rev: DocxReviewer) -> dict[str, list[str]]:
    """story_texts as the check compares them: a story of one empty paragraph reads as an empty one (a
    body with no paragraph at all gets one when an inserted paragraph is rejected: a container keeps
    its last paragraph mark)."""
    return {key: [] if texts == [""] else texts for key, texts in story_texts(rev).items()}


def _story_state(rev: DocxReviewer) -> dict[str, tuple]:
    """What the check compares per story: the blocks' text and the shapes of the tables."""
    shapes = story_shapes(rev)
    return {key: (texts, shapes.get(key)) for key, texts in compared_texts(rev).items()}


def _differences(buffer: bytes, base_texts, rev_texts, note_map, skip: set, unreferenced: set = frozenset()) -> dict:
    """Story key -> what is wrong with the redline there: rejecting all must give the base, accepting
    all the revised document. A key the base does not have (an imported note) is reported as None.
    The base's `unreferenced` notes are shown nowhere; rejecting a reference inserted to one deletes
    it, as Word does, so they are not compared."""
    out: dict = {}
    rejected = DocxReviewer.from_bytes(buffer)
    rejected.reject_all()
    got = _story_state(rejected)
    for key in sorted((set(got) | set(base_texts)) - unreferenced):
        if got.get(key) != base_texts.get(key):
            out[key if key in base_texts else None] = "rejecting every change did not give the earlier text"
    accepted = DocxReviewer.from_bytes(buffer)
    accepted.accept_all()
    got = {k: v for k, v in _story_state(accepted).items() if k not in skip}
    want = {note_map.get(k, k): v for k, v in rev_texts.items() if k not in skip}
    for key in sorted(set(got) | set(want)):
        if got.get(key) != want.get(key):
            out.setdefault(key if key in base_texts else None,
                           "accepting every change did not give the later text")
    return out


def _key(handle: dict) -> str:
    if handle["type"] in ("header", "footer"):
        return f"{handle['type']}:{handle['relationshipId']}"
    return f"{handle['type']}:{handle['noteId']}"


def _referenced_notes(doc) -> set[str]:
    """Keys of the notes some story of the document refers to."""
    out = set()
    for root in _story_roots(doc):
        for kind in ("footnote", "endnote"):
            out |= {f"{kind}:{ref.get(_W + 'id')}" for ref in root.iter(_W + kind + "Reference")}
    return out


# -- entry point -------------------------------------------------------------------------------------------

def _check_options(base_view, revised_view, undefined_references) -> None:
    for name, value in (("baseView", base_view), ("revisedView", revised_view)):
        if value not in VIEWS:
            raise InvalidGenerateRedlineDocxOptionsError(f"{name} must be original or final.")
    if undefined_references not in REFERENCE_POLICIES:
        raise InvalidGenerateRedlineDocxOptionsError("undefinedReferences must be keep or refuse.")


FALLBACK_SCOPES = ("regions", "story")  # coarser and coarser, tried in this order


def _plans(base_rev, rev_rev, scopes: dict, reasons: dict, moves: bool = True) -> tuple[list, list]:
    """A plan per story pair (fine, or coarse as `scopes` says), and the stories left unprocessed.
    A story whose tables cannot be planned row by row is planned coarse at once."""
    base_stories, rev_stories = story_blocks(base_rev), story_blocks(rev_rev)
    budget, group = Budget(), [1]
    plans, unprocessed = [], []
    referenced = _referenced_notes(rev_rev.document)
    pictures = (ObjectKeys(base_rev.document), ObjectKeys(rev_rev.document))
    for key in list(base_stories) + [k for k in rev_stories if k not in base_stories]:
        b_story, b_blocks = base_stories.get(key, (None, []))
        r_story, r_blocks = rev_stories.get(key, (None, []))
        if r_story is not None and r_story.type in ("footnote", "endnote") and key not in referenced:
            # Word deletes a note with its last reference, so accepting cannot leave this one behind
            unprocessed.append({"baseStory": b_story.handle() if b_story else None,
                                "revisedStory": r_story.handle(), "reason": "unreferenced-note"})
            if b_story is None:
                continue
        if b_story is None or r_story is None:
            if key.startswith(("header", "footer")):  # a part Word keys by relationship; not created here
                unprocessed.append({"baseStory": b_story.handle() if b_story else None,
                                    "revisedStory": r_story.handle() if r_story else None,
                                    "reason": "missing-base-story" if b_story is None else "missing-revised-story"})
            continue  # notes come and go with the references to them
        plan = _StoryPlan(key, b_story, r_story, b_blocks, r_blocks, align(b_blocks, r_blocks, budget))
        plan.pictures = pictures
        base_root = base_rev.document.story_container(b_story)
        rev_root = rev_rev.document.story_container(r_story)
        if key in scopes:
            _plan_coarse(plan, base_root, rev_root, scopes[key])
        else:
            try:
                _plan_story(plan, base_root, rev_root)
                if moves:
                    _pair_moves(plan, group)
            except RedlineVerificationError:
                reasons.setdefault(key, "its tables could not be redlined row by row")
                scopes[key] = FALLBACK_SCOPES[0]
                _plan_coarse(plan, base_root, rev_root, scopes[key])
        plans.append(plan)
    return plans, unprocessed


def _write(base_rev, rev_rev, author, undefined_references, scopes: dict, reasons: dict,
           formatting: bool = True, moves: bool = True):
    """One attempt: plan, write, serialize; (buffer, writer, plans, unprocessed, failing). A writer
    failure leaves no buffer and names the story being written (None when it is not known)."""
    plans, unprocessed = _plans(base_rev, rev_rev, scopes, reasons, moves)
    writer = _Redline(base_rev, rev_rev, author, undefined_references, formatting)
    try:
        writer.run(plans)
        return base_rev.to_bytes(), writer, plans, unprocessed, {}
    except GenerateRedlineDocxResourceImportError:
        raise
    except Exception as exc:  # noqa: BLE001 - an engine failure halfway must never yield a buffer
        return None, writer, plans, unprocessed, {writer.current: f"the writer failed ({type(exc).__name__}: {exc})"}


def _escalate(scopes: dict, reasons: dict, failing: dict, plans: list) -> bool:
    """Make the failing stories (every story when the failure is not tied to one) one step coarser;
    False when a failing story is already written whole, or nothing is left to make coarser."""
    keys = [p.key for p in plans] if None in failing else list(failing)
    changed = False
    for key in keys:
        now = scopes.get(key)
        if now == FALLBACK_SCOPES[-1]:
            if key in failing:
                return False
            continue
        scopes[key] = FALLBACK_SCOPES[0] if now is None else FALLBACK_SCOPES[FALLBACK_SCOPES.index(now) + 1]
        reasons.setdefault(key, failing.get(key) or failing[None])
        changed = True
    return changed


def redline_reviewers(base_rev: DocxReviewer, rev_rev: DocxReviewer, author: str = "folio compare",
                      privacy=None, undefined_references: str = "keep", formatting: bool = True,
                      moves: bool = True) -> dict:
    """The redline of two opened, resolved documents. base_rev is edited in place; when a story has
    to be redone coarser (result["fallbacks"]) the redline is rebuilt on a fresh copy of the base, so
    read the redline from result["buffer"]. formatting=False writes no formatting revisions (the
    base formatting stays); moves=False writes moved paragraphs as a deletion and an insertion."""
    transforms = privacy_mod.normalize_transforms(privacy)
    base_texts, rev_texts = _story_state(base_rev), _story_state(rev_rev)
    unreferenced = {k for k in base_texts if k.startswith(("footnote:", "endnote:"))} - \
        _referenced_notes(base_rev.document)
    pristine = base_rev.to_bytes()
    scopes: dict[str, str] = {}  # story key -> fallback scope it is written with
    reasons: dict[str, str] = {}  # story key -> why the finer redline was not kept
    while True:
        buffer, writer, plans, unprocessed, failing = _write(base_rev, rev_rev, author, undefined_references,
                                                             scopes, reasons, formatting, moves)
        if buffer is not None:
            skip = {_key(u["baseStory"] or u["revisedStory"]) for u in unprocessed}
            if writer.skipped or any(a["type"] != "formatRange" for a in writer.applied):
                failing = _differences(buffer, base_texts, rev_texts, writer.importer.note_map, skip,
                                      unreferenced)
            else:  # no text written (formatting revisions never change text): both checks read base_texts
                failing = {k if k in base_texts else None: "accepting every change did not give the later text"
                           for k in set(base_texts) | set(rev_texts)
                           if k not in skip and base_texts.get(k) != rev_texts.get(k)}
        if not failing:
            break
        if not _escalate(scopes, reasons, failing, plans):
            where = ", ".join(sorted(str(k) for k in failing))
            raise RedlineVerificationError(f"The redline of the {where} story could not be verified even when "
                                           f"written whole ({next(iter(failing.values()))}); nothing was returned.")
        base_rev = DocxReviewer.from_bytes(pristine, author=base_rev.author)
    buffer, report = privacy_mod.apply_to_package(buffer, transforms)
    fallbacks = [{"story": p.key, "scope": p.coarse, "reason": reasons.get(p.key, ""), "regions": p.regions,
                  "blocks": p.blocks} for p in plans if p.coarse]
    fallbacks += [{"story": p.key, "scope": "table", "reason": why, "regions": n, "blocks": 0}
                  for p in plans if not p.coarse for why, n in p.whole_tables.items() if n]
    return {"buffer": buffer, "applied": writer.applied, "skipped": writer.skipped,
            "unprocessedStories": unprocessed, "privacyReport": report,
            "referenceWarnings": writer.importer.warnings, "fallbacks": fallbacks}


def generate_redline_docx(base: bytes, revised: bytes, author: str = "folio compare", base_view: str = "final",
                          revised_view: str = "final", privacy=None, undefined_references: str = "keep",
                          formatting: bool = True, moves: bool = True) -> dict:
    """Base package + tracked changes that turn it into the revised one (spec §9.3).

    Returns {buffer, applied, skipped, unprocessedStories, privacyReport, referenceWarnings}. Raises
    InvalidGenerateRedlineDocxOptionsError for bad options, DocxError subclasses for unreadable input,
    GenerateRedlineDocxResourceImportError (refuse policy) and RedlineVerificationError."""
    _check_options(base_view, revised_view, undefined_references)
    privacy_mod.normalize_transforms(privacy)
    return redline_reviewers(open_view(base, base_view, author), open_view(revised, revised_view), author,
                             privacy, undefined_references, formatting, moves)


__all__ = ["generate_redline_docx", "redline_reviewers"]
