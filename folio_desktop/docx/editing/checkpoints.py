"""Undo states. An EditRecord keeps what one change touched; a Checkpoint keeps the whole document.

EditRecord: the engine's undo of a batch (and of a reply or a resolved comment), and how an atomic
batch or a dry run is taken back. It keeps the runs of sibling elements the change could reach (a
paragraph and the paragraphs it joins, the siblings an insert lands between, a table), each with the
elements as they were, and the small parts it changed (comments, numbering, content types,
relationships) serialized and compressed: its size follows what the change touched, never the
document. Undoing swaps the document with what the record holds, so the same record redoes; a
paragraph present on both sides keeps its element (its content is swapped), so the snapshot and the
layout can reuse the rest. A run is found again by its elements while they are in the document, and
by its place otherwise (after a whole-document restore): the paragraph id of an untouched element
before it and the count of siblings from there, read when the change was made. Records are undone
newest first and, inside a record, last run first (redone the other way), so whatever lies before a
run reads as it did when its place was taken.

Checkpoint: every part an edit, an accept or a reject can touch (all stories, the comment parts,
numbering, relationships, content types), serialized and compressed, for undo steps whose changes
cannot be predicted (an accept, a reject); restoring parses them back.
"""

from __future__ import annotations

import copy
import zlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lxml import etree

from ..package.ooxml import MC_NS, W14_NS, W14_PARA_ID, W_P
from ..package.opc import parse_xml, rels_name_for, serialize_xml
from ..package.xmlns import MC_IGNORABLE

if TYPE_CHECKING:
    from ..model.document import Document

DEFAULT_UNDO_STEPS = 100  # undo steps kept, newest first; older ones are let go
CONTENT_TYPES = "[Content_Types].xml"
COMMENT_PARTS = ("comments", "commentsExtended", "commentsIds", "commentsExtensible")
W16CEX_NS = "http://schemas.microsoft.com/office/word/2018/wordml/cex"


class RecordMismatch(RuntimeError):
    """A change reached past the runs its record kept, or the document no longer holds them."""


# -- what one change touched ---------------------------------------------------------------------------


class _Run:
    """Consecutive children of one container: `count` of them right after `left` (the container's
    first ones when `left` is None), and the other side's elements as (element, holder) pairs, where a
    holder carries the content its element takes (None: the element is whole as it is)."""

    __slots__ = ("container", "left", "right", "count", "other", "order", "place", "part")

    def __init__(self, container, left, right, order, part=None):
        self.container, self.left, self.right, self.order = container, left, right, order
        self.part = part  # None: the main story's body; else a small part (comments...), by name
        elements = _between(container, left, right)
        self.count = len(elements)
        self.other = [(el, copy.deepcopy(el)) for el in elements]
        self.place = None

    def settle(self) -> None:
        """After the change: the run is what now lies between the untouched elements around it."""
        left, right, container = self.left, self.right, self.container
        if (left is not None and left.getparent() is not container) or \
                (right is not None and right.getparent() is not container):
            raise RecordMismatch("an edit reached past the elements its undo record kept")
        count = 0
        el = left.getnext() if left is not None else _first_child(container)
        while el is not right:
            if el is None:
                raise RecordMismatch("an edit reached past the elements its undo record kept")
            count += 1
            el = el.getnext()
        self.count, self.right = count, None

    def locate(self, body, package) -> None:
        """Note where the run is, to find it after its elements were replaced (a whole-document
        restore, a part put back)."""
        if self.part is None:
            self.place = _place_of(self.container, self.left, body)
        else:
            path, node, root = [], self.container, package.xml(self.part)
            while node is not root and node.getparent() is not None:
                path.append(node.getparent().index(node))
                node = node.getparent()
            self.place = None if node is not root else \
                (path[::-1], self.container.index(self.left) if self.left is not None else -1)

    def found(self, body, ids, package) -> tuple:
        """(container, left) in the document as it is: by identity while the run's neighbours are in
        it, else by place."""
        root = body if self.part is None else package.xml(self.part)
        if _under(self.container, root) and (self.left is None or self.left.getparent() is self.container):
            return self.container, self.left
        found = None
        if self.place is not None and ids is not None:
            found = _find_place(body, self.place, ids) if self.part is None else _find_in_part(root, self.place)
        if found is None:
            raise RecordMismatch("the document no longer holds the run an undo record kept")
        return found

    def swap(self, container, left) -> list:
        """Put the other side in; returns the elements now in the run."""
        self.container, self.left = container, left
        now = []
        el = left.getnext() if left is not None else _first_child(container)
        while el is not None and len(now) < self.count:
            now.append(el)
            el = el.getnext()
        if len(now) != self.count:
            raise RecordMismatch("the document no longer holds the run an undo record kept")
        present = {id(el) for el in now}
        placed, held = [], {}
        for el, holder in self.other:
            if holder is not None and id(el) in present:
                held[id(el)] = _swap_content(el, holder)
                placed.append(el)
            else:  # an element the run no longer holds (a whole-document restore made new ones)
                placed.append(holder if holder is not None else el)
        self.other = [(el, held.get(id(el))) for el in now]
        for el in now:
            if id(el) not in held:
                container.remove(el)
        anchor = left
        for el in placed:
            if anchor is None:
                container.insert(0, el)
            elif anchor.getnext() is not el:
                anchor.addnext(el)
            anchor = el
        self.count = len(placed)
        return placed


def _between(container, left, right) -> list:
    out = []
    el = left.getnext() if left is not None else _first_child(container)
    while el is not None and el is not right:
        out.append(el)
        el = el.getnext()
    return out


def _first_child(container):
    for child in container:
        return child
    return None


def _under(el, body) -> bool:
    while el is not None:
        if el is body:
            return True
        el = el.getparent()
    return False


def _swap_content(el, holder):
    """Give `el` the holder's attributes, text and children; returns a holder of what it had."""
    was = etree.Element(el.tag, nsmap=el.nsmap)
    was.attrib.update(el.attrib)
    was.text = el.text
    was.extend(list(el))
    el.attrib.clear()
    el.attrib.update(holder.attrib)
    el.text = holder.text
    el.extend(list(holder))
    return was


def _key(el) -> str | None:
    """A paragraph id on or inside an element, or None."""
    if el.tag == W_P:
        return el.get(W14_PARA_ID)
    for p in el.iter(W_P):
        return p.get(W14_PARA_ID)
    return None


def _place_of(container, left, body) -> tuple | None:
    """Where a run is, read in the document as the change left it: (key, steps, path, left_index).
    The run's top-level element (a run of the body itself: its left neighbour) is `steps` siblings
    after the top-level element holding the paragraph `key` (None: after the body's start, counting
    from 0); `path` leads from it down to the container (None: the container is the body) and
    `left_index` is the left neighbour's index there (-1: none)."""
    if container is body:
        path, left_index, start, steps = None, None, left, 0
        if left is None:
            return None, -1, None, None
    else:
        path = []
        node = container
        while node.getparent() is not body:
            parent = node.getparent()
            if parent is None:
                return None  # not in the body: found by identity only
            path.append(parent.index(node))
            node = parent
        path.reverse()
        left_index = container.index(left) if left is not None else -1
        # the top-level element holds the run, so its own paragraph ids may change: start before it
        start, steps = node.getprevious(), 1
    while start is not None:
        key = _key(start)
        if key:
            return key, steps, path, left_index
        start, steps = start.getprevious(), steps + 1
    return None, steps - 1, path, left_index


def _find_in_part(root, place):
    path, left_index = place
    try:
        container = root
        for index in path:
            container = container[index]
        return container, (container[left_index] if left_index >= 0 else None)
    except IndexError:
        return None


def _find_place(body, place, ids):
    key, steps, path, left_index = place
    if key is None:
        anchor = None
        if steps >= 0:
            anchor = next(body.iterchildren(), None)
            for _ in range(steps):
                anchor = anchor.getnext() if anchor is not None else None
            if anchor is None:
                return None
    else:
        anchor = ids.get(key)
        while anchor is not None and anchor.getparent() is not body:
            anchor = anchor.getparent()
        for _ in range(steps):
            anchor = anchor.getnext() if anchor is not None else None
        if anchor is None:
            return None
    if path is None:
        return body, anchor
    container = anchor
    try:
        for index in path:
            container = container[index]
        return container, (container[left_index] if left_index >= 0 else None)
    except IndexError:
        return None


class EditRecord:
    """What one change touched, kept to take it back (and, once taken back, to make it again)."""

    def __init__(self, package, bookkeeping: bool = True):
        self.runs: list[_Run] = []
        self.parts: dict[str, bytes] = {}  # part name -> the other side's tree, compact
        # which parts are dirty or added (None: left as they are, for an operation taken back alone)
        self.books = package.bookkeeping() if bookkeeping else None
        self.numbering = False  # the numbering part is among the parts: the document reads it again
        self.text_only = False  # only the runs of its paragraphs changed: the snapshot can be patched
        self.registry: dict = {}  # operation ids the change applied -> (fingerprint, receipt)
        self.done = True  # the document holds the change (False: it was taken back)

    # -- before the change -------------------------------------------------------------------------

    def keep_spans(self, spans: list[tuple], part: str | None = None) -> None:
        """Keep the runs the change can reach. A span is (container, left, right, order): the
        container's children strictly between `left` and `right` (None: its start, its end), which
        an edit may change, remove or add to; `order` sorts the spans in document order. Spans of one
        container that overlap or touch become one run; a span inside another's elements is left
        to it. `part`: the spans are in that part (a comment part), not in the main story."""
        groups: list[list] = []  # [container, left, right, order, ids of the elements between]
        for container, left, right, order in sorted(spans, key=lambda s: s[3]):
            ids = {id(el) for el in _between(container, left, right)}
            for group in groups:
                if group[0] is container and _touch(group, left, right, ids):
                    _join(group, left, right, ids)
                    break
            else:
                groups.append([container, left, right, order, ids])
        inside = set().union(*(g[4] for g in groups)) if groups else set()
        for container, left, right, order, _ids in groups:
            if not any(id(a) in inside for a in _ancestors(container)):
                self.runs.append(_Run(container, left, right, order, part))

    def keep_parts(self, package, names) -> None:
        """Keep these parts as they are now, unless kept already (the first keep is the before)."""
        names = [n for n in dict.fromkeys(package.canonical_name(n) for n in names) if n not in self.parts]
        self.parts.update(package.keep_parts(names))

    # -- after it ------------------------------------------------------------------------------------

    def settle(self, doc) -> None:
        """The change is made: note what each run holds now and where it is."""
        for run in self.runs:
            run.settle()
        self.runs.sort(key=lambda r: (r.part is not None, r.part or "", r.order))
        for run in self.runs:
            run.locate(doc.body, doc.package)

    def take_back(self, doc) -> list:
        """Take the change back at once (a failed operation, a rejected batch, a dry run): the same
        elements, as they were. Returns the elements the runs hold again."""
        for run in self.runs:
            run.settle()
        return self._swap(doc, None)

    # -- undo and redo -------------------------------------------------------------------------------

    def set_done(self, doc, done: bool) -> list | None:
        """Bring the document to the record's after side (done) or its before side. Returns the
        paragraphs whose runs alone changed, when the snapshot can be patched with them, else None."""
        placed = self._swap(doc, _LazyIds(doc.body))
        if self.text_only and all(len(els) == 1 for els in placed):
            return [els[0] for els in placed]
        return None

    def _swap(self, doc, ids) -> list:
        package = doc.package
        placed = []
        # each run is found just before it is swapped: the runs before it read as when its place was taken
        for run in (reversed(self.runs) if self.done else self.runs):
            where = run.found(doc.body, ids, package) if ids is not None else (run.container, run.left)
            placed.append(run.swap(*where))
        if self.books is not None:
            self.books = package.put_bookkeeping(self.books)
        if self.parts:
            self.parts = package.put_parts(self.parts)
        if self.numbering:
            doc.reload_numbering()
        self.done = not self.done
        return placed


class _LazyIds:
    """Paragraph id -> paragraph of the body, read only when a run is looked for by place (and read
    again when a run's swap took the paragraph it names out of the body)."""

    def __init__(self, body):
        self.body = body
        self.ids: dict | None = None

    def get(self, key):
        p = self.ids.get(key) if self.ids is not None else None
        if p is None or not _under(p, self.body):
            self.ids = {}
            for q in self.body.iter(W_P):
                self.ids.setdefault(q.get(W14_PARA_ID), q)
            p = self.ids.get(key)
        return p


def _ancestors(el):
    while el is not None:
        yield el
        el = el.getparent()


def _starts_in(x, ids, right) -> bool:
    """Is position `x` (an element, or None: the container's end) inside a span (its elements `ids`)
    or right at its end (`right`)?"""
    return x is right if x is None or right is None else (id(x) in ids or x is right)


def _touch(group, left, right, ids) -> bool:
    """Do the span (left, right) and the group's span overlap or touch?"""
    g_container, g_left, g_right, _order, g_ids = group
    start = _start(g_container, left, ids, right)
    g_start = _start(g_container, g_left, g_ids, g_right)
    return _starts_in(start, g_ids, g_right) or _starts_in(g_start, ids, right)


def _start(container, left, ids, right):
    """The element at a span's start: its first element, or (an empty span) the one after it."""
    return left.getnext() if left is not None else _first_child(container)


def _join(group, left, right, ids) -> None:
    g_container, g_left, g_right, _order, g_ids = group
    if not _starts_in(_start(g_container, left, ids, right), g_ids, g_right):
        group[1] = left  # this span starts first
    if _starts_in(right, g_ids, g_right):
        pass  # the group reaches at least as far
    else:
        group[2] = right
    group[4] = {id(el) for el in _between(g_container, group[1], group[2])}


# -- the whole document ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Checkpoint:
    trees: dict[str, bytes]  # part name -> compressed XML (story, comment, numbering parts)
    rels_trees: dict[str, bytes]
    content_types: bytes | None
    dirty: frozenset[str]
    added: dict[str, bytes]
    registry: dict  # the engine's replayable operation ids as they stood


def editable_parts(doc: Document) -> list[str]:
    """The parts an edit can change, plus every story part (accept/reject touch them)."""
    names = [doc.main_part, CONTENT_TYPES, *small_parts(doc)]
    for story in doc.stories():
        # parse and stamp paraIds now: a copy without them would give the blocks other ids once restored
        doc.story_container(story)
        if story.part not in names:
            names.append(story.part)
    return [name for name in names if doc.package.has_part(name)]


def small_parts(doc: Document) -> list[str]:
    """The comment and numbering parts the main part relates to."""
    return [part for part in (doc.related_part(s) for s in (*COMMENT_PARTS, "numbering")) if part]


def comment_parts(doc: Document) -> list[str]:
    """What writing a comment can change besides the story: the comment parts (created when missing,
    with their content types and relationships)."""
    parts = [part for part in (doc.related_part(s) for s in COMMENT_PARTS) if part]
    return [*parts, CONTENT_TYPES, rels_name_for(doc.main_part)]


def comment_spans(doc: Document, where: list) -> tuple[list | None, list | None]:
    """What a change to a comment thread can touch, for EditRecord: the paragraphs of the main story
    holding the places `where` ((part, element) pairs, in document order) as spans, and the comment
    parts with every other story part among them, whole. (None, None) when a place of the main story
    is not inside a paragraph (a record could miss where the change lands)."""
    spans, parts = [], comment_parts(doc)
    for order, (part, el) in enumerate(where):
        if part != doc.main_part:
            doc.ensure_para_ids(part, doc.package.xml(part))  # kept with the ids a read gives them
            parts.append(part)
            continue
        p = next((a for a in el.iterancestors() if a.tag == W_P), None)
        if p is None:
            return None, None
        spans.append((p.getparent(), p.getprevious(), p.getnext(), (order,)))
    return spans, parts


def comment_slots(doc: Document) -> dict[str, list] | None:
    """Where a new comment lands in the comment parts: after each part's last entry (before the
    extLst of commentsExtensible), as a span per part, for EditRecord.keep_spans(part=...). None
    when writing it would create a part (with its content type and relationship) or declare a
    namespace on a part's root: then the parts are kept whole (comment_parts)."""
    package = doc.package
    out = {}
    for suffix in COMMENT_PARTS:
        part = doc.related_part(suffix)
        if part is None:
            if suffix == "commentsExtensible":
                continue
            return None
        root = package.xml(part)
        if suffix == "comments" and not _declares_w14(root):
            return None
        right = root.find(f"{{{W16CEX_NS}}}extLst") if suffix == "commentsExtensible" else None
        left = right.getprevious() if right is not None else _last_child(root)
        out[package.canonical_name(part)] = [(root, left, right, (0,))]
    return out


def _declares_w14(root) -> bool:
    prefix = next((p for p, uri in root.nsmap.items() if uri == W14_NS and p), None)
    return prefix is not None and MC_NS in root.nsmap.values() and prefix in (root.get(MC_IGNORABLE) or "").split()


def _last_child(root):
    try:
        return root[-1]
    except IndexError:
        return None


def numbering_parts(doc: Document) -> list[str]:
    part = doc.related_part("numbering")
    return [*([part] if part else []), CONTENT_TYPES, rels_name_for(doc.main_part)]


def take(doc: Document, engine) -> Checkpoint:
    """The whole editable document now, with the engine's replayable operation ids."""
    package = doc.package
    names = editable_parts(doc)
    for name in names:
        package.xml(name)  # Package.checkpoint keeps parsed trees only
    state = package.checkpoint(names, pack=_pack)
    return Checkpoint(
        trees=state["trees"],
        rels_trees=state["rels_trees"],
        content_types=state["content_types"],
        dirty=frozenset(state["dirty"]),
        added=dict(state["added"]),
        registry=dict(engine.registry),
    )


def restore(doc: Document, engine, checkpoint: Checkpoint) -> None:
    """Put the parts back as they were (a checkpoint can be restored any number of times)."""
    state = {
        "trees": {name: _unpack(data, name) for name, data in checkpoint.trees.items()},
        "rels_trees": {name: _unpack(data, name) for name, data in checkpoint.rels_trees.items()},
        "content_types": _unpack(checkpoint.content_types, CONTENT_TYPES)
        if checkpoint.content_types is not None else None,
        "dirty": set(checkpoint.dirty),
        "added": dict(checkpoint.added),
    }
    doc.package.restore(state)
    doc.reload()  # counts as a change: batches pinned to an older version are refused
    engine.registry = dict(checkpoint.registry)
    engine.comment_ids.clear()  # the document as it was may hold ids the kept ones no longer list


def _pack(tree) -> bytes:
    return zlib.compress(serialize_xml(tree), 1)


def _unpack(data: bytes, name: str):
    return parse_xml(zlib.decompress(data), name)
