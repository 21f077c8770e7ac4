"""Version comparison (spec §9.1, §9.2): what changed between two .docx files, story by story.

Both inputs are read in their final (all-accepted) view, so pending redlines count as applied.
Blocks are aligned in three passes (stable paraIds, exact-text LCS, positional zip of the gaps),
pairs are classified (modified / formatChanged / unchanged), and deleted+added blocks with the
same text become moves. The alignment is shared with the redline writer (redline.py).

A change that is only whitespace (a tab for a space, a blank paragraph) or only a field's cached
result (a table of contents' page number, a cross-reference's number) carries `minor`; the text the
model reads leaves those out unless asked, and comes in pages of at most MAX_TEXT characters.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_left
from collections import Counter
from dataclasses import dataclass

from lxml import etree

from folio_desktop.docx import DocxReviewer
from folio_desktop.docx.editing.paragraph_edit import REVISION_TAGS
from folio_desktop.docx.editing.worddiff import diff_words
from folio_desktop.docx.errors import DocxError
from folio_desktop.docx.package.ooxml import W_NS

from . import privacy as privacy_mod
from .objects import ObjectKeys, changed_objects
from .sections import paired_stories

SCOPES = ("text", "formatting", "metadata")
DEFAULT_SCOPES = ("text", "formatting")
FORMAT_PROPERTIES = ("bold", "italic", "underline", "strike", "fontFamily", "fontSizePt", "color")
LCS_CELL_BUDGET = 4_000_000  # per comparison, shared by every story
MOVE_CANDIDATES = 10_000  # deleted blocks remembered per text for move pairing
MOVE_MIN_WORDS = 3
_FALLBACK_PREFIXES = ("seq-", "blank-")
_NOTE_MARK = re.compile(r"\[\^(e?)\d+\]")
_NOTE_REFS = (f"{{{W_NS}}}footnoteReference", f"{{{W_NS}}}endnoteReference")
_W_ID = f"{{{W_NS}}}id"
_W_T, _W_FLD_CHAR, _W_FLD_TYPE = f"{{{W_NS}}}t", f"{{{W_NS}}}fldChar", f"{{{W_NS}}}fldCharType"
_W_FLD_SIMPLE = f"{{{W_NS}}}fldSimple"
_W_SPACING = tuple(f"{{{W_NS}}}{t}" for t in ("tab", "br", "cr", "ptab"))
# what makes a paragraph without words more than blank space
_W_SUBSTANCE = tuple(f"{{{W_NS}}}{t}" for t in ("drawing", "pict", "object", "sectPr", "fldChar", "fldSimple",
                                                "footnoteReference", "endnoteReference", "sym")) + (
    "{http://schemas.openxmlformats.org/officeDocument/2006/math}oMath",)
MAX_TEXT = 100_000  # characters of version diff text in one call


class InvalidVersionComparisonOptionsError(ValueError):
    """`include` named no scope, or one this comparison does not know."""


# -- opening ----------------------------------------------------------------------------------------

def open_view(data: bytes, view: str = "final", author: str = "AI") -> DocxReviewer:
    """A private reviewer over the bytes with every change accepted (final) or rejected (original)."""
    rev = DocxReviewer.from_bytes(data, author=author)
    if has_revisions(rev):
        rev.accept_all() if view == "final" else rev.reject_all()
    return rev


def has_revisions(rev: DocxReviewer) -> bool:
    """Whether any story holds a revision mark (a cheap C-level scan before a full resolve)."""
    package = rev.document.package
    parts = {s.part for s in rev.stories()}
    return any(next(package.xml(part).iter(*REVISION_TAGS), None) is not None for part in parts)


def story_blocks(rev: DocxReviewer) -> dict[str, tuple]:
    """story key -> (Story, content and blank blocks); diagnostics are not document text."""
    out = {}
    for story in rev.stories():
        snap = rev.document.snapshot_story(story)
        out[story.key] = (story, [b for b in snap.blocks if b.kind != "diagnostic"])
    return out


# -- alignment ----------------------------------------------------------------------------------------

@dataclass
class Budget:
    """LCS cells still allowed in this comparison."""

    cells: int = LCS_CELL_BUDGET


def _longest_increasing(pairs) -> list[tuple[int, int]]:
    """The longest subsequence of (i, j) pairs, taken in the order given, whose j strictly increase
    (patience sorting; each pile's top links back to the one before it, so only the links still
    reachable from a pile stay in memory)."""
    tails: list[int] = []
    nodes: list[tuple] = []
    for i, j in pairs:
        k = bisect_left(tails, j)
        node = (i, j, nodes[k - 1] if k else None)
        if k == len(tails):
            tails.append(j)
            nodes.append(node)
        else:
            tails[k] = j
            nodes[k] = node
    out = []
    node = nodes[-1] if nodes else None
    while node is not None:
        out.append((node[0], node[1]))
        node = node[2]
    return out[::-1]


def match_text(block) -> str:
    """The text two blocks are compared by: the block text with each note marker ([^3], [^e1]) naming
    the note it refers to instead of its number, so a paragraph whose notes were only renumbered
    (a note earlier in the document came or went) reads the same; accepting renumbers them anyway."""
    text = block.text
    if "[^" not in text or block.element is None or not block.structural_boundaries:
        return text
    refs = [(ref.tag == _NOTE_REFS[1], ref.get(_W_ID)) for ref in block.element.iter(*_NOTE_REFS)]
    marks = list(_NOTE_MARK.finditer(text))
    if len(refs) != len(marks) or any(bool(m.group(1)) != end for m, (end, _) in zip(marks, refs)):
        return text  # hidden references or literal "[^n]" text: compare as written
    out, at = [], 0
    for m, (end, nid) in zip(marks, refs):
        out += [text[at:m.start()], f"[^{'e' if end else ''}#{nid}]"]
        at = m.end()
    return "".join(out) + text[at:]


def same_text(a, b) -> bool:
    return a.text == b.text or ("[^" in a.text and "[^" in b.text and match_text(a) == match_text(b))


def lcs_pairs(a: list, b: list) -> list[tuple[int, int]]:
    """Index pairs of one longest common subsequence (Hunt-Szymanski: fast when matches are rare):
    every match, by a's index and then b's from the last, so one index of a takes one j at most."""
    where: dict = {}
    for j, x in enumerate(b):
        where.setdefault(x, []).append(j)
    return _longest_increasing((i, j) for i, x in enumerate(a) for j in reversed(where.get(x, ())))


def _budgeted_lcs(a: list[str], b: list[str], budget: Budget) -> list[tuple[int, int]]:
    """A common subsequence of a and b: the longest one when a x b fits the budget; else the texts
    found once on each side anchor it (in order) and the gaps between them get the longest one
    where each fits, so a long document (a table of thousands of rows) still pairs its unchanged
    blocks instead of zipping everything after the first insertion."""
    cells = len(a) * len(b)
    if cells <= budget.cells:
        budget.cells -= cells
        return lcs_pairs(a, b)
    count_a, count_b = Counter(a), Counter(b)
    only_b = {t: j for j, t in enumerate(b) if count_b[t] == 1}
    unique = _longest_increasing((i, only_b[t]) for i, t in enumerate(a) if count_a[t] == 1 and t in only_b)
    out: list[tuple[int, int]] = []
    prev_i = prev_j = -1
    for i, j in unique + [(len(a), len(b))]:
        gap_a, gap_b = a[prev_i + 1:i], b[prev_j + 1:j]
        if gap_a and gap_b and len(gap_a) * len(gap_b) <= budget.cells:
            budget.cells -= len(gap_a) * len(gap_b)
            out += [(prev_i + 1 + x, prev_j + 1 + y) for x, y in lcs_pairs(gap_a, gap_b)]
        if i < len(a):
            out.append((i, j))
        prev_i, prev_j = i, j
    return out


def _stable_id(block) -> bool:
    """An id the file itself gave the paragraph: one the reader made up for a paragraph without one
    (from its text and position) names another paragraph of the same text in the other version
    once a paragraph came or went before it (an empty cell for an empty cell a row away)."""
    return not block.id.startswith(_FALLBACK_PREFIXES) and getattr(block, "id_stability", None) != "positional"


def align(base: list, revised: list, budget: Budget) -> list[tuple]:
    """Entries ("pair", bi, ri) | ("del", bi, None) | ("add", None, ri) in revised order, deletions
    where they sat (spec §9.1 passes 1-3)."""
    rev_ids = {b.id: j for j, b in enumerate(revised) if _stable_id(b)}
    stable = [(i, rev_ids[b.id]) for i, b in enumerate(base) if _stable_id(b) and b.id in rev_ids]
    anchors = _longest_increasing(stable)
    left_b = sorted(set(range(len(base))) - {i for i, _ in anchors})
    left_r = sorted(set(range(len(revised))) - {j for _, j in anchors})
    if left_b and left_r:
        found = _budgeted_lcs([match_text(base[i]) for i in left_b], [match_text(revised[j]) for j in left_r],
                              budget)
        anchors = _longest_increasing(sorted(anchors + [(left_b[x], left_r[y]) for x, y in found]))
    entries: list[tuple] = []
    prev_b = prev_r = -1
    for bi, ri in anchors + [(len(base), len(revised))]:
        gap_b, gap_r = list(range(prev_b + 1, bi)), list(range(prev_r + 1, ri))
        zipped = min(len(gap_b), len(gap_r))
        entries += [("pair", gap_b[k], gap_r[k]) for k in range(zipped)]
        entries += [("del", i, None) for i in gap_b[zipped:]]
        entries += [("add", None, j) for j in gap_r[zipped:]]
        if bi < len(base):
            entries.append(("pair", bi, ri))
        prev_b, prev_r = bi, ri
    return entries


# -- formatting ---------------------------------------------------------------------------------------

def _runs(block) -> list[dict] | None:
    runs = block.preview_runs or [{"text": block.text}]
    return runs if "".join(r["text"] for r in runs) == block.text else None


def format_segments(base_block, revised_block, properties=FORMAT_PROPERTIES) -> list[tuple[int, int, dict]]:
    """[(start, end, {property: revised value})] over code points where the run formatting of two
    equal texts differs; [] when the preview texts disagree with the block text (no reliable walk)."""
    a, b = _runs(base_block), _runs(revised_block)
    if a is None or b is None or base_block.text != revised_block.text:
        return []
    out: list[tuple[int, int, dict]] = []
    ia = ib = 0
    oa = ob = 0  # offsets consumed inside the current runs
    pos = 0
    while ia < len(a) and ib < len(b):
        ra, rb = a[ia], b[ib]
        step = min(len(ra["text"]) - oa, len(rb["text"]) - ob)
        if step:
            delta = {p: _value(rb, p) for p in properties if _value(ra, p) != _value(rb, p)}
            if delta:
                if out and out[-1][1] == pos and out[-1][2] == delta:
                    out[-1] = (out[-1][0], pos + step, delta)
                else:
                    out.append((pos, pos + step, delta))
            pos += step
        oa += step
        ob += step
        if oa >= len(ra["text"]):
            ia, oa = ia + 1, 0
        if ob >= len(rb["text"]):
            ib, ob = ib + 1, 0
    return out


def _value(run: dict, prop: str):
    if prop in ("bold", "italic", "underline", "strike"):
        return bool(run.get(prop))
    return run.get(prop)


def styles_alike(base: DocxReviewer, revised: DocxReviewer) -> bool:
    """Both documents define their styles identically, so equal paragraph markup formats equally."""
    def markup(rev):
        part = rev.document.related_part("styles")
        return etree.tostring(rev.document.package.xml(part)) if part else b""
    return markup(base) == markup(revised)


def same_markup(base_block, revised_block, memo: dict | None = None) -> bool:
    """The two paragraphs are the same XML (runs and properties): no formatting can differ, when the
    styles are alike; a cheap test that spares reading every unchanged paragraph's run formatting.
    `memo` keeps the answer per pair of blocks (with the blocks, so their ids stay theirs): the version
    diff and the redline of one comparison ask it of the same unedited blocks."""
    if memo is not None:
        hit = memo.get((id(base_block), id(revised_block)))
        if hit is not None:
            return hit[2]
    a, b = base_block.element, revised_block.element
    same = a is not None and b is not None and etree.tostring(a, encoding="unicode") == etree.tostring(
        b, encoding="unicode")
    if memo is not None:
        memo[(id(base_block), id(revised_block))] = (base_block, revised_block, same)
    return same


def changed_properties(base_block, revised_block) -> list[str]:
    seen = {p for _, _, delta in format_segments(base_block, revised_block) for p in delta}
    return [p for p in FORMAT_PROPERTIES if p in seen]


# -- minor differences ------------------------------------------------------------------------------------

def _shown_text(element) -> tuple[str, str]:
    """(the text a paragraph shows, the part of it outside field results), tabs and breaks as spaces."""
    shown, outside = [], []
    fields: list[bool] = []  # one per complex field begun here: past its separator, so showing its result
    for el in element.iter(_W_T, _W_FLD_CHAR, *_W_SPACING):
        if el.tag == _W_FLD_CHAR:
            kind = el.get(_W_FLD_TYPE)
            if kind == "begin":
                fields.append(False)
            elif fields and kind == "separate":
                fields[-1] = True
            elif fields and kind == "end":
                fields.pop()
            continue
        text = (el.text or "") if el.tag == _W_T else " "
        shown.append(text)
        if not any(fields) and next(el.iterancestors(_W_FLD_SIMPLE), None) is None:
            outside.append(text)
    return "".join(shown), "".join(outside)


def minor_difference(base_block, revised_block) -> str | None:
    """"whitespace" when two differing texts have the same words (a tab for a space), "field" when
    they differ only inside field results (a table of contents' page numbers, a REF's cached number),
    else None. Field results are read from the markup; when that reading does not give the block's
    text (note markers, symbols), the difference is not called minor."""
    words_b, words_r = base_block.text.split(), revised_block.text.split()
    if words_b == words_r:
        return "whitespace"
    if base_block.element is None or revised_block.element is None:
        return None
    shown_b, outside_b = _shown_text(base_block.element)
    shown_r, outside_r = _shown_text(revised_block.element)
    if shown_b.split() != words_b or shown_r.split() != words_r:
        return None
    return "field" if outside_b.split() == outside_r.split() else None


def blank_block(block) -> bool:
    """A paragraph with nothing in it but white space: adding or removing one is a minor difference."""
    return block.kind == "paragraph" and not block.text.strip() and (
        block.element is None or next(block.element.iter(*_W_SUBSTANCE), None) is None)


# -- the diff -----------------------------------------------------------------------------------------

def _counts(changes: list[dict], unchanged: int) -> dict:
    kinds = [c["type"] for c in changes]
    return {"added": kinds.count("added"), "deleted": kinds.count("deleted"), "modified": kinds.count("modified"),
            "formatChanged": kinds.count("formatChanged"), "moved": kinds.count("movedTo"), "unchanged": unchanged}


def _blank_mark(block) -> dict:
    return {"minor": "whitespace"} if blank_block(block) else {}


def _story_diff(base_story, base_blocks, rev_story, rev_blocks, scopes, budget,
                alike: bool = False, objects: tuple = (), memo: dict | None = None) -> tuple[list[dict], int]:
    bh = base_story.handle() if base_story else None
    rh = rev_story.handle() if rev_story else None
    changes: list[dict] = []
    unchanged = 0
    for kind, bi, ri in align(base_blocks, rev_blocks, budget):
        if kind == "del":
            b = base_blocks[bi]
            if "text" in scopes:
                changes.append({"type": "deleted", "blockId": b.id, "kind": b.kind, "text": b.text,
                                "baseHandle": {"story": bh, "blockId": b.id}, **_blank_mark(b)})
            continue
        r = rev_blocks[ri]
        if kind == "add":
            if "text" in scopes:
                changes.append({"type": "added", "blockId": r.id, "kind": r.kind, "text": r.text,
                                "revisedHandle": {"story": rh, "blockId": r.id}, **_blank_mark(r)})
            continue
        b = base_blocks[bi]
        handles = {"baseHandle": {"story": bh, "blockId": b.id}, "revisedHandle": {"story": rh, "blockId": r.id}}
        if not same_text(b, r):
            if "text" in scopes:
                segments = [{"type": op, "text": t} for op, t in diff_words(b.text, r.text)]
                minor = minor_difference(b, r)
                changes.append({"type": "modified", "blockId": r.id, "kind": r.kind, "segments": segments, **handles,
                                **({"minor": minor} if minor else {})})
            continue
        shown = changed_objects(objects, base_story, b, rev_story, r) if objects and "text" in scopes else ""
        if shown:  # same words, another picture, equation or field: one out, one in
            segments = ([{"type": "equal", "text": r.text}] if r.text else []) + \
                [{"type": "delete", "text": f"[{shown}]"}, {"type": "insert", "text": f"[{shown}]"}]
            changes.append({"type": "modified", "blockId": r.id, "kind": r.kind, "segments": segments, **handles})
            continue
        props = changed_properties(b, r) if "formatting" in scopes and not (alike and same_markup(b, r, memo)) else []
        if props:
            changes.append({"type": "formatChanged", "blockId": r.id, "kind": r.kind, "text": r.text,
                            "changedProperties": props, **handles})
        else:
            unchanged += 1
    return changes, unchanged


def detect_moves(changes: list[dict], next_group: list[int]) -> None:
    """Turn deleted+added blocks with the same text of >= 3 words into movedFrom/movedTo, FIFO per
    text; group ids continue across stories through `next_group`."""
    waiting: dict[str, list[dict]] = {}
    for change in changes:
        if change["type"] == "deleted" and len(change["text"].split()) >= MOVE_MIN_WORDS:
            queue = waiting.setdefault(change["text"], [])
            if len(queue) < MOVE_CANDIDATES:
                queue.append(change)
    for change in changes:
        if change["type"] != "added":
            continue
        queue = waiting.get(change["text"])
        if not queue:
            continue
        source = queue.pop(0)
        source["type"], change["type"] = "movedFrom", "movedTo"
        source["moveGroupId"] = change["moveGroupId"] = next_group[0]
        next_group[0] += 1


def _metadata(rev: DocxReviewer) -> dict:
    package = rev.document.package
    root = None
    if package.has_part(privacy_mod.CORE_PART):
        try:
            root = package.xml(privacy_mod.CORE_PART)
        except DocxError:
            root = None  # unreadable metadata compares as absent rather than failing the comparison
    return privacy_mod.read_core_properties(root)


def check_scopes(include) -> tuple[str, ...]:
    if include is None:
        return DEFAULT_SCOPES
    if isinstance(include, str) or not isinstance(include, (list, tuple, set, frozenset)) or not include \
            or any(s not in SCOPES for s in include):
        raise InvalidVersionComparisonOptionsError("Version comparison requires at least one recognized scope")
    return tuple(s for s in SCOPES if s in include)


def diff_reviewers(base: DocxReviewer, revised: DocxReviewer, include=None, privacy=None,
                   memo: dict | None = None) -> dict:
    """The FolioVersionDiff of two opened (already resolved) documents; `memo`: see same_markup (pass
    the same dict to redline_reviewers of these two documents)."""
    scopes = check_scopes(include)
    transforms = privacy_mod.normalize_transforms(privacy)
    budget = Budget()
    alike = "formatting" in scopes and styles_alike(base, revised)
    base_stories = story_blocks(base)
    # headers and footers pair by where they show, whatever their relationship ids
    paired = paired_stories(base.document, revised.document)[0]
    rev_stories = {paired.get(k, k if k not in base_stories or k.startswith(("main", "foot", "end"))
                              else "revised " + k): v  # an unpaired header must not take a base one's key
                   for k, v in story_blocks(revised).items()}
    objects = (ObjectKeys(base.document), ObjectKeys(revised.document))
    keys = list(base_stories) + [k for k in rev_stories if k not in base_stories]
    group = [1]
    stories, all_changes = [], []
    unchanged_total = 0
    for key in keys:
        b_story, b_blocks = base_stories.get(key, (None, []))
        r_story, r_blocks = rev_stories.get(key, (None, []))
        changes, unchanged = _story_diff(b_story, b_blocks, r_story, r_blocks, scopes, budget, alike, objects, memo)
        detect_moves(changes, group)
        unchanged_total += unchanged
        stories.append({"baseStory": b_story.handle() if b_story else None,
                        "revisedStory": r_story.handle() if r_story else None,
                        "changes": changes, "summaryCounts": _counts(changes, unchanged)})
        all_changes += changes
    metadata = []
    if "metadata" in scopes:
        old, new = _metadata(base), _metadata(revised)
        metadata = [{"property": p, "baseValue": old[p], "revisedValue": new[p]}
                    for p in privacy_mod.CORE_FIELDS if old[p] != new[p]]
    counts = _counts(all_changes, unchanged_total)
    counts = {**{k: v for k, v in counts.items() if k != "unchanged"}, "metadataChanged": len(metadata),
              "unchanged": unchanged_total}
    diff = {"changes": all_changes, "stories": stories, "metadataChanges": metadata,
            "privacyReport": privacy_mod.empty_report(), "summaryCounts": counts}
    return privacy_mod.apply_to_diff(diff, transforms) if transforms else diff


def compare_docx_versions(base: bytes, revised: bytes, include=None, privacy=None) -> dict:
    """Compare two .docx packages (spec §9.1). Raises InvalidVersionComparisonOptionsError for bad
    options and the docx engine's DocxError subclasses for unreadable input."""
    check_scopes(include)
    privacy_mod.normalize_transforms(privacy)
    return diff_reviewers(open_view(base), open_view(revised), include, privacy)


# -- the text the model reads (spec §9.2) ---------------------------------------------------------------

def _clip(text: str) -> str:
    return text if len(text) <= 61 else f"{text[:30]}…{text[-30:]}"


def _segments(segments: list[dict]) -> str:
    out = []
    for seg in segments:
        if seg["type"] == "equal":
            out.append(_clip(seg["text"]))
        elif seg["type"] == "del":
            out.append(f"[-{seg['text']}-]")
        else:
            out.append(f"{{+{seg['text']}+}}")
    return "".join(out)


# how the text tells its reader to ask for more: this module's keywords; the command line passes its options
LIBRARY_ASKS = {"start": "start={n}", "minor": "include_minor=True"}
_MIN_LIMIT = 2_000  # room for the head lines and a cut change line
_CLOSING_ROOM = 200  # kept free for the line that says what is left


@dataclass(frozen=True)
class DiffPage:
    """One call's worth of version diff text; `next_start` is None on the last part."""

    text: str
    next_start: int | None
    total: int  # change lines in all (minor ones only when included)


def _change_line(ch: dict) -> str:
    t, bid = ch["type"], ch["blockId"]
    if t == "added":
        return f"+ [{bid}] added: {ch['text']}"
    if t == "deleted":
        return f"- [{bid}] deleted: {ch['text']}"
    if t == "modified":
        return f"~ [{bid}] modified: {_segments(ch['segments'])}"
    if t == "formatChanged":
        return f"~ [{bid}] format changed ({', '.join(ch['changedProperties'])}): {_clip(ch['text'])}"
    if t == "movedFrom":
        return f"< [{bid}] moved away (move {ch['moveGroupId']}): {ch['text']}"
    return f"> [{bid}] moved here (move {ch['moveGroupId']}): {ch['text']}"


def _head(diff: dict, left_out: list[dict], asks: dict) -> list[str]:
    c = diff["summaryCounts"]
    head = f"Version diff: {c['added']} added, {c['deleted']} deleted, {c['modified']} modified, " \
           f"{c['formatChanged']} format-changed, {c['moved']} moved"
    if c.get("metadataChanged", 0) > 0:
        head += f", {c['metadataChanged']} metadata-changed"
    lines = [head + f", {c['unchanged']} unchanged"]
    report = diff.get("privacyReport") or {}
    if report.get("appliedTransforms"):
        lines.append("Privacy transforms: " + ", ".join(report["appliedTransforms"]))
        lines.append("Removed metadata fields: " + (", ".join(report["removedMetadataProperties"]) or "none"))
    if left_out:
        kinds = Counter(ch["minor"] for ch in left_out)
        lines.append(f"Left out: {len(left_out)} minor difference{'s' if len(left_out) != 1 else ''} "
                     f"({kinds['whitespace']} only in tabs, spaces or blank paragraphs, {kinds['field']} only in "
                     f"field results such as table-of-contents page numbers and cross-reference numbers); "
                     f"ask with {asks['minor']} to list them.")
    return lines


def page_version_diff(diff: dict, start: int = 0, include_minor: bool = False, limit: int = MAX_TEXT,
                      asks: dict | None = None) -> DiffPage:
    """The version diff text (spec §9.2) from change line `start` on, at most `limit` characters
    (never more than MAX_TEXT): the head lines every time, then whole change lines while they fit,
    then a line that says how many are left and the `start` that continues (asks["rest"], when given,
    is that line instead, formatted with `left`: for a reader who cannot ask). A single line longer
    than a part is cut, so every call moves on. Minor differences (see minor_difference) are left
    out and counted unless `include_minor`."""
    asks = asks or LIBRARY_ASKS
    limit = min(max(limit, _MIN_LIMIT), MAX_TEXT)
    left_out = [] if include_minor else [ch for ch in diff["changes"] if ch.get("minor")]
    items = [_change_line(ch) for ch in diff["changes"] if include_minor or not ch.get("minor")]
    items += [f"~ metadata.{m['property']}: {json.dumps(m['baseValue'], ensure_ascii=False)} -> "
              f"{json.dumps(m['revisedValue'], ensure_ascii=False)}" for m in diff["metadataChanges"]]
    total, start = len(items), max(start, 0)
    out = _head(diff, left_out, asks)
    size = sum(len(line) + 1 for line in out)
    at = start
    while at < total:
        line, room = items[at], limit - size - 1 - _CLOSING_ROOM
        if len(line) > room:
            if at > start:
                break
            line = f"{line[:room - 60]}… (line cut: {len(line):,} characters in all)"
        out.append(line)
        size += len(line) + 1
        at += 1
    if at < total and "rest" in asks:  # a reader who cannot ask for the next part is told what it misses
        out.append(asks["rest"].format(left=total - at))
    elif at < total:
        out.append(f"Shown: changes {start + 1}-{at} of {total}; {total - at} more, ask with "
                   f"{asks['start'].format(n=at)} for the next part.")
    elif start and start >= total:
        out.append(f"No changes from {start + 1} on ({total} in all).")
    elif start:
        out.append(f"Shown: changes {start + 1}-{total} of {total}, the last part.")
    return DiffPage("\n".join(out), at if at < total else None, total)


def format_version_diff_for_llm(diff: dict, start: int = 0, include_minor: bool = False,
                                limit: int = MAX_TEXT) -> str:
    """The text of page_version_diff (at most MAX_TEXT characters; it says how to ask for the rest)."""
    return page_version_diff(diff, start, include_minor, limit).text


__all__ = [
    "DiffPage", "InvalidVersionComparisonOptionsError", "align", "compare_docx_versions", "diff_reviewers",
    "format_segments", "format_version_diff_for_llm", "open_view", "page_version_diff", "story_blocks",
]
