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

from lxml import etree

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
from .sections import add_empty_story, paired_stories
from .table_shape import story_shapes

_W = "{" + W_NS + "}"
VIEWS = ("original", "final")
REFERENCE_POLICIES = ("keep", "refuse")
_SHOWN_PARTS = ("header:", "footer:")
_NOTHING = ([], [])  # the state of a header or footer with nothing in it (or none at all)


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


def _state(states: dict, key: str):
    """A story's state; a header or footer that is not there reads as an empty one (one version's
    header is redlined against an empty part, which rejecting or accepting leaves empty)."""
    return states.get(key, _NOTHING if key.startswith(_SHOWN_PARTS) else None)


def _wanted(rev_texts: dict, mapping: dict, skip: set) -> dict:
    """The revised states under the base's keys (paired headers, imported notes); a story shown
    nowhere (mapped to None) and a skipped one are not compared."""
    out = {}
    for key, value in rev_texts.items():
        key = mapping.get(key, key)
        if key is not None and key not in skip:
            out[key] = value
    return out


def _differences(buffer: bytes, base_texts, want: dict, skip: set, unreferenced: set = frozenset()) -> dict:
    """Story key -> what is wrong with the redline there: rejecting all must give the base, accepting
    all the revised document (`want`, under the base's keys). A key the base does not have (an imported
    note) is reported as None. The base's `unreferenced` notes are shown nowhere; rejecting a reference
    inserted to one deletes it, as Word does, so they are not compared."""
    out: dict = {}
    rejected = DocxReviewer.from_bytes(buffer)
    rejected.reject_all()
    got = _story_state(rejected)
    for key in sorted((set(got) | set(base_texts)) - unreferenced):
        if _state(got, key) != _state(base_texts, key):
            out[_owner(key, base_texts)] = "rejecting every change did not give the earlier text"
    accepted = DocxReviewer.from_bytes(buffer)
    accepted.accept_all()
    got = {k: v for k, v in _story_state(accepted).items() if k not in skip}
    for key in sorted(set(got) | set(want)):
        if _state(got, key) != _state(want, key):
            out.setdefault(_owner(key, base_texts), "accepting every change did not give the later text")
    return out


def _owner(key: str, base_texts: dict) -> str | None:
    """The story a failure is charged to: None for a note the redline brought in (every story is then
    made coarser); a header or footer part the redline added keeps its own key."""
    return key if key in base_texts or key.startswith(_SHOWN_PARTS) else None


def _note_key(handle: dict) -> str:
    """The story key of a note's handle (only notes are ever left unprocessed: headers and footers pair)."""
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


def _story_map(base_doc, rev_doc) -> dict[str, str | None]:
    """Revised header/footer key -> the base key it is redlined against: the base story shown at the
    same place, or an empty part added to the base for it; None for a story shown nowhere."""
    pairs, added = paired_stories(base_doc, rev_doc)
    out: dict[str, str | None] = dict(pairs)
    for key, places in added:
        out[key] = add_empty_story(base_doc, places)
    for story in rev_doc.stories():
        if story.type in ("header", "footer"):
            out.setdefault(story.key, None)
    return out


def _plans(base_rev, rev_rev, scopes: dict, reasons: dict, moves: bool = True,
           story_map: dict | None = None) -> tuple[list, list]:
    """A plan per story pair (fine, or coarse as `scopes` says), and the stories left unprocessed;
    `story_map` is filled with the revised header/footer keys' base keys. A story whose tables cannot
    be planned row by row is planned coarse at once."""
    story_map = {} if story_map is None else story_map
    story_map.update(_story_map(base_rev.document, rev_rev.document))
    base_stories = story_blocks(base_rev)
    rev_stories = {story_map.get(k, k): v for k, v in story_blocks(rev_rev).items()
                   if story_map.get(k, k) is not None}
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
        if b_story is None or (r_story is None and not key.startswith(_SHOWN_PARTS)):
            continue  # notes come and go with the references to them
        if r_story is None:  # a header or footer the revised version lacks: its content is deleted
            r_story, rev_root = b_story, etree.Element(_W + ("ftr" if b_story.type == "footer" else "hdr"))
        else:
            rev_root = rev_rev.document.story_container(r_story)
        plan = _StoryPlan(key, b_story, r_story, b_blocks, r_blocks, align(b_blocks, r_blocks, budget))
        plan.pictures = pictures
        base_root = base_rev.document.story_container(b_story)
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
           formatting: bool = True, moves: bool = True, story_map: dict | None = None, memo: dict | None = None):
    """One attempt: plan, write, serialize; (buffer, writer, plans, unprocessed, failing). A writer
    failure leaves no buffer and names the story being written (None when it is not known)."""
    story_map = {} if story_map is None else story_map
    plans, unprocessed = _plans(base_rev, rev_rev, scopes, reasons, moves, story_map)
    writer = _Redline(base_rev, rev_rev, author, undefined_references, formatting, memo)
    writer.importer.stories = {k: v for k, v in story_map.items() if v is not None}
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
                      moves: bool = True, reopen=None, memo: dict | None = None) -> dict:
    """The redline of two opened, resolved documents. base_rev is edited in place; when a story has
    to be redone coarser (result["fallbacks"]) the redline is rebuilt on a fresh copy of the base
    (`reopen()` opens one as base_rev was opened; without it base_rev is serialized before the first
    attempt), so read the redline from result["buffer"]. formatting=False writes no formatting
    revisions (the base formatting stays); moves=False writes moved paragraphs as a deletion and an
    insertion. `memo`: the dict diff_reviewers was given for the same two documents, if it ran first."""
    transforms = privacy_mod.normalize_transforms(privacy)
    base_texts, rev_texts = _story_state(base_rev), _story_state(rev_rev)
    unreferenced = {k for k in base_texts if k.startswith(("footnote:", "endnote:"))} - \
        _referenced_notes(base_rev.document)
    if reopen is None:
        pristine, author_of_base = base_rev.to_bytes(), base_rev.author

        def reopen():
            return DocxReviewer.from_bytes(pristine, author=author_of_base)
    scopes: dict[str, str] = {}  # story key -> fallback scope it is written with
    reasons: dict[str, str] = {}  # story key -> why the finer redline was not kept
    while True:
        story_map: dict = {}
        buffer, writer, plans, unprocessed, failing = _write(base_rev, rev_rev, author, undefined_references,
                                                             scopes, reasons, formatting, moves, story_map, memo)
        if buffer is not None:
            skip = {_note_key(u["baseStory"] or u["revisedStory"]) for u in unprocessed}
            want = _wanted(rev_texts, {**story_map, **writer.importer.note_map}, skip)
            if writer.skipped or any(a["type"] != "formatRange" for a in writer.applied):
                failing = _differences(buffer, base_texts, want, skip, unreferenced)
            else:  # no text written (formatting revisions never change text): both checks read base_texts
                failing = {_owner(k, base_texts): "accepting every change did not give the later text"
                           for k in set(base_texts) | set(want)
                           if k not in skip and _state(base_texts, k) != _state(want, k)}
        if not failing:
            break
        if not _escalate(scopes, reasons, failing, plans):
            where = ", ".join(sorted(str(k) for k in failing))
            raise RedlineVerificationError(f"The redline of the {where} story could not be verified even when "
                                           f"written whole ({next(iter(failing.values()))}); nothing was returned.")
        base_rev = reopen()
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
                             privacy, undefined_references, formatting, moves,
                             reopen=lambda: open_view(base, base_view, author))


__all__ = ["generate_redline_docx", "redline_reviewers"]
