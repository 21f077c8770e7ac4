"""The body's snapshot after an edit that replaced a few sibling paragraphs, without reading the rest.

Enter splits a paragraph in two, Backspace at a paragraph's start joins it to the one before, a pasted
line becomes a paragraph of its own: the body gains or loses a paragraph, so snapshot.patched (the
same paragraphs, their runs changed) does not apply, and reading the whole body again costs a good
part of a second on a 500-page contract. `spliced` reads only the stretch of paragraphs the edit left
(widened to whole blocks where deleted paragraph marks join paragraphs) and keeps every other block,
the very objects, as patched does, when nothing beyond the stretch can read differently:

- the stretch holds paragraphs of the body (and point markup between them: bookmarks, comment range
  marks), no table, no text box; it is widened to whole blocks (paragraphs joined by deleted marks);
- the walk leaves it as it entered the block after it before (open complex fields, note references
  counted so far), no comment range runs across its edges, and its paragraphs keep their own ids;
- list numbering: the counters are taken up where they stood at the stretch (replayed from the nearest
  state kept on the snapshot), and the list items after it are numbered again until the counters
  stand as they did before the edit (a new clause 5.3 renumbers 5.4 to 5.9, and clause 6 onwards as
  before); the blocks whose numbers changed are new objects, the rest are shared.

Anything else returns None, and the body is read afresh as before.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import replace

from ..model.numbering import LabelCounter
from .accepted import BETWEEN, joins_into, mark_deleted
from .blocks import Anchor, Block, Snapshot
from .inline import StoryState, text_boxes
from .snapshot import RESERVED_PREFIXES, T_CEND, T_CSTART, T_P, _Walker

_POINT_MARKS = frozenset((*BETWEEN, T_CSTART, T_CEND))
_STATES = "_label_states"  # on a Snapshot: {block index: the list counters before that block}
_POSITIONAL = "_positional_ids"  # on a Snapshot: has any block a seq-/blank- id (_positional)
_STATE_EVERY = 64  # list items between two kept states: a replay from the nearest costs at most this many
_MAX_WIDEN = 16  # times a stretch may be widened over the blocks at its edges


def spliced(doc, snap: Snapshot, parent, start: int, old_count: int, new_count: int) -> Snapshot | None:
    """The snapshot of `doc`'s body after an edit that replaced the `old_count` children of `parent` from
    index `start` with the `new_count` children there now, and changed nothing else; `snap` is the body's
    snapshot from before the edit. None when the body must be read afresh (see the module's docstring)."""
    if parent is not doc.body or old_count < 1 or new_count < 1:
        return None
    stretch = _stretch(snap, parent, start, start + new_count)
    if stretch is None:
        return None
    start, end, before, after = stretch
    region = parent[start:end]
    if any(el.tag not in _POINT_MARKS and (el.tag != T_P or text_boxes(el)) for el in region):
        return None
    i0 = snap.anchors[before.id].index + 1 if before is not None else 0
    i1 = snap.anchors[after.id].index if after is not None else len(snap.blocks)
    entry = before.walk[1] if before is not None else ((), 0, 0, ())
    if entry[3] or (after is not None and after.walk[0][3]) or i0 > i1:
        return None  # a comment range open across the stretch's edges: its quote runs over them
    old = snap.blocks[i0:i1]
    if any(b.kind == "diagnostic" for b in old):
        return None
    nums = _num_ids(doc)
    walker = _walk(doc, region, entry, None)
    counters = None
    if any(b.list_reference is not None for b in (*old, *walker.blocks)):
        counters = _counters_at(doc, snap, i0, nums)  # list numbering counts through the stretch
        if counters is None:
            return None
        walker = _walk(doc, region, entry, counters)
    new = walker.blocks
    if (after is not None and walker.carried() != after.walk[0]) or walker.carried()[3] or \
            walker.comment_anchors.keys() != _comments_in(snap, old) or \
            any(c.block_id is None for c in walker.comment_anchors.values()):
        return None
    old_ids = {b.id for b in old}
    for block in new:
        if block.kind == "diagnostic" or block.id.startswith(RESERVED_PREFIXES) or \
                (block.id in snap.anchors and block.id not in old_ids):
            return None  # an id the full walk would have minted or given to another block
    if _counts(new) != _counts(old) and _positional(snap):
        return None  # the positional ids after the stretch count content and blank paragraphs
    tail = following = snap.blocks[i1:]
    if counters is not None:
        following = _renumbered(nums, old, tail, counters, [walker.counter, walker.deleted_counter])
        if following is None:
            return None
    return _assembled(snap, walker, i0, i1, new, following, following is not tail)


def _walk(doc, region, entry: tuple, counters) -> _Walker:
    """The stretch's paragraphs read as the body's walk reads them, from the walk's state before them."""
    walker = _Walker(doc, doc.positional_ids)
    walker.state = StoryState(fields=list(entry[0]), footnotes=entry[1], endnotes=entry[2])
    if counters is not None:
        walker.counter, walker.deleted_counter = _fork(counters)
    walker.container(region)
    return walker


def _assembled(snap: Snapshot, walker: _Walker, i0: int, i1: int, new: list, following: list,
               renumbered: bool) -> Snapshot:
    """The new snapshot: the blocks before the stretch, its new blocks, the blocks after it (some
    numbered again when `renumbered`), with anchors in block order as a full read makes them."""
    blocks = snap.blocks[:i0] + new + following
    comments = {cid: walker.comment_anchors.get(cid, anchor) for cid, anchor in snap.comment_anchors.items()}
    by_paragraph = dict(snap.block_of_paragraph)
    for block in snap.blocks[i0:i1]:
        for p in block.paragraphs:
            if by_paragraph.get(p) is block:
                del by_paragraph[p]
    by_paragraph.update((p, block) for block in new for p in block.paragraphs)
    if renumbered:
        for was, now in zip(snap.blocks[i1:], following):
            if was is not now:
                for p in now.paragraphs:
                    by_paragraph[p] = now
    out = Snapshot(blocks, {}, comments, by_paragraph)
    # those before the stretch are shared (same block, same place); those after it move by as many
    # blocks as the stretch gained or lost
    shift = len(new) - (i1 - i0)
    items = list(snap.anchors.items())  # in block order, as every snapshot makes them
    k0 = bisect_left(items, i0, key=_index_of)
    k1 = bisect_left(items, i1, key=_index_of)
    anchors = out.anchors
    anchors.update(items[:k0])
    anchors.update((block.id, Anchor(block, i0 + offset)) for offset, block in enumerate(new))
    if shift or renumbered:
        anchors.update((block_id, anchor if (block := blocks[anchor.index + shift]) is anchor.block and not shift
                        else Anchor(block, anchor.index + shift)) for block_id, anchor in items[k1:])
    else:
        anchors.update(items[k1:])
    kept = getattr(snap, _STATES, None)
    if kept:
        setattr(out, _STATES, {i: state for i, state in kept.items() if i <= i0})
    setattr(out, _POSITIONAL, _positional(snap))  # the stretch's blocks have ids of their own (checked)
    return out


def _positional(snap: Snapshot) -> bool:
    """Has any block a positional id (seq-/blank-: counted, not the paragraph's own)? Asked once per read."""
    found = getattr(snap, _POSITIONAL, None)
    if found is None:
        found = any(b.id.startswith(RESERVED_PREFIXES) for b in snap.blocks)
        setattr(snap, _POSITIONAL, found)
    return found


def _index_of(item) -> int:
    return item[1].index


def _stretch(snap: Snapshot, parent, start: int, end: int):
    """(start, end, block before, block after): the stretch parent[start:end] widened over the point
    markup at its edges and over whole blocks of joined paragraphs, to a paragraph on either side that
    is a block of its own (None at the body's start or end), or None when that cannot be found."""
    children = len(parent)
    for _ in range(_MAX_WIDEN):
        while start > 0 and parent[start - 1].tag in _POINT_MARKS:
            start -= 1
        while end < children and parent[end].tag in _POINT_MARKS:
            end += 1
        last = next((el for el in reversed(parent[start:end]) if el.tag == T_P), None)
        target = joins_into(last) if last is not None else None
        if target is not None and target.getparent() is parent:  # its text runs on into the next paragraph
            end = parent.index(target) + 1
            continue
        before = after = None
        if start > 0:
            before, widened = _neighbour(snap, parent, parent[start - 1], True)
            if before is None and widened is None:
                return None
            if widened is not None:
                start = min(start, widened[0])
                end = max(end, widened[1])
                continue
        if end < children and not _body_end(parent, end):
            after, widened = _neighbour(snap, parent, parent[end], False)
            if after is None and widened is None:
                return None
            if widened is not None:
                start = min(start, widened[0])
                end = max(end, widened[1])
                continue
        return start, end, before, after
    return None


def _neighbour(snap: Snapshot, parent, p, before: bool):
    """(its block, None) when paragraph p ends the block before the stretch (`before`) or begins the one
    after it, a block the walk read with its state on either side; (None, (start, end)) for the span of
    parent to take into the stretch otherwise; (None, None) when p is no paragraph or its block leaves
    the parent."""
    if p.tag != T_P:
        return None, None
    block = snap.block_of_paragraph.get(p)
    if block is not None and block.walk is not None and block.id in snap.anchors and \
            (block.element is p if before else block.paragraphs[0] is p):
        return block, None
    if block is None or block.table is not None:
        return None, None
    places = [parent.index(q) for q in block.paragraphs if q.getparent() is parent]
    here = parent.index(p)
    return None, (min(places, default=here), max(places, default=here) + 1)


def _body_end(parent, end: int) -> bool:
    """Does only the body's own section properties (or nothing) follow parent[end:]?"""
    el = parent[end] if end < len(parent) else None
    while el is not None:
        if isinstance(el.tag, str) and not el.tag.endswith("}sectPr"):
            return False
        el = el.getnext()
    return True


def _num_ids(doc) -> dict:
    """A block's list_reference numId (an int when it reads as one) -> the w:numId the walk fed; a
    numId two spellings share ("7", "007") maps to None: what was fed cannot be told."""
    out: dict = {}
    for key in doc.numbering.nums:
        short = int(key) if key.lstrip("-").isdigit() else key
        out[short] = None if short in out else key
    return out


def _item(nums: dict, block: Block, counted: bool | None = None):
    """(numId, level, counted) that the walk fed the list counters for this block, None when it fed
    nothing, False when that cannot be told. `counted`: whether the item counts (a wholly deleted one
    does not), when the block's paragraph mark may no longer say."""
    ref = block.list_reference
    if ref is None:
        return None
    level = ref["level"]
    if ref["numId"] not in nums or level is None or not 0 <= level < 9:
        return None
    num = nums[ref["numId"]]
    if num is None:
        return False
    if counted is None:
        counted = block.is_content or bool(block.joined) or not mark_deleted(block.element)
    return num, level, counted


def _feed(state: list, item) -> str | None:
    """The walk's rule (snapshot.paragraph_properties): a wholly deleted item counts on from the last
    item that stays, in a counter of its own."""
    num, level, counted = item
    if counted:
        state[1] = None
        return state[0].feed(num, level)[0]
    if state[1] is None:
        state[1] = state[0].fork()
    return state[1].feed(num, level)[0]


def _fork(state) -> list:
    return [state[0].fork(), state[1].fork() if state[1] is not None else None]


def _same(a, b) -> bool:
    def same(x, y):
        return x is y or (x is not None and y is not None and x._counters == y._counters
                          and x._seen_nums == y._seen_nums)
    return same(a[0], b[0]) and same(a[1], b[1])


def _counters_at(doc, snap: Snapshot, index: int, nums: dict) -> list | None:
    """The list counters as the walk had them before block `index`: replayed from the nearest state kept
    on the snapshot (from the body's start the first time), keeping a state every so many items; None
    when an item's list cannot be told."""
    kept = getattr(snap, _STATES, None)
    if kept is None:
        kept = {0: (LabelCounter(doc.numbering), None)}
        setattr(snap, _STATES, kept)
    at = max(i for i in kept if i <= index)
    state = _fork(kept[at])
    fed = 0
    for i in range(at, index):
        item = _item(nums, snap.blocks[i])
        if item is False:
            return None
        if item is None:
            continue
        _feed(state, item)
        fed += 1
        if fed % _STATE_EVERY == 0:
            kept[i + 1] = tuple(_fork(state))
    return state


def _renumbered(nums: dict, old: list[Block], following: list[Block], entry: list, new_state: list):
    """`following` with the labels the new list counters give them: numbered on until the counters stand
    as they would have without the edit; None when that cannot be told (an empty numbered item, which
    counts or not by a paragraph mark the edit may have changed)."""
    old_state = _fork(entry)
    for block in old:
        if block.list_reference is None:
            continue
        if not block.is_content and not block.joined:
            return None
        item = _item(nums, block, counted=True)
        if item is False:
            return None
        if item is not None:
            _feed(old_state, item)
    state = new_state
    if _same(state, old_state):
        return following
    out = list(following)
    for i, block in enumerate(following):
        item = _item(nums, block)
        if item is False:
            return None
        if item is None:
            continue
        _feed(old_state, item)
        label = _feed(state, item)
        kind, display = _labelled(block, label)
        if (kind, display) != (block.kind, block.display_label):
            out[i] = replace(block, kind=kind, display_label=display)
        if _same(state, old_state):
            break
    return out


def _labelled(block: Block, label: str | None) -> tuple[str, str | None]:
    """(kind, display label) as snapshot.paragraph_properties gives them for this label."""
    if block.heading_level is not None:
        return "heading", label if label else block.style_id
    if label:
        return "listItem", label
    return "paragraph", None


def _comments_in(snap: Snapshot, blocks) -> set[str]:
    ids = {b.id for b in blocks}
    return {cid for cid, anchor in snap.comment_anchors.items() if anchor.block_id in ids}


def _counts(blocks) -> tuple[int, int]:
    content = sum(1 for b in blocks if b.is_content)
    return content, len(blocks) - content


__all__ = ["spliced"]
