"""The redline's plan per story: what to copy in from the revised document, what to delete, replace and
move, and the coarse plan (whole paragraphs and tables) the fallback writes; nothing is written here."""

from __future__ import annotations

from dataclasses import dataclass, field

from lxml import etree

from folio_desktop.docx.editing.ops.context import is_last_paragraph
from folio_desktop.docx.package.ooxml import W_NS

from .compare import MOVE_MIN_WORDS, same_text
from .objects import has_math, has_objects
from .redline_errors import RedlineVerificationError
from .redline_importer import _STRIPPED
from .table_shape import reshaped

_W = "{" + W_NS + "}"
T_P, T_TBL, T_TR = (_W + t for t in ("p", "tbl", "tr"))
T_SDT, T_SDT_CONTENT, T_TXBX, T_CUSTOM = _W + "sdt", _W + "sdtContent", _W + "txbxContent", _W + "customXml"
# elements whose children are blocks (or rows/cells): the levels a block's position is described by
CONTAINERS = {_W + t for t in ("body", "hdr", "ftr", "footnote", "endnote", "tbl", "tr", "tc", "sdtContent",
                               "customXml", "txbxContent")}


# -- the plan --------------------------------------------------------------------------------------------

@dataclass
class _Copy:
    """Revised content (a paragraph, row, table or content control) to be copied into the base."""

    source: etree._Element
    parent: etree._Element  # base container it goes into
    after: object  # base element or an earlier _Copy it follows; None = start of the container
    op_type: str
    anchor: str | None
    move: int | None = None
    element: etree._Element | None = None


@dataclass
class _StoryPlan:
    key: str
    base_story: object
    rev_story: object
    base_blocks: list
    rev_blocks: list
    entries: list
    copies: list[_Copy] = field(default_factory=list)
    deletes: list = field(default_factory=list)  # (op type, base block)
    moves_from: list = field(default_factory=list)  # (base block, group)
    replaces: list = field(default_factory=list)  # (base block, revised block)
    pairs: list = field(default_factory=list)  # (base block, revised block) kept for the format pass
    rewrites: list = field(default_factory=list)  # pairs replaced by deletion + copy (note references)
    coarse: str | None = None  # "regions" | "story": written whole by _plan_coarse instead (the fallback)
    removed: list = field(default_factory=list)  # coarse: base units deleted whole
    regions: int = 0  # coarse: differing regions rewritten
    blocks: int = 0  # coarse: base + revised blocks inside them
    pictures: tuple = ()  # (base, revised) ObjectKeys: pictures a pair's equal text does not show
    whole_tables: dict = field(default_factory=dict)  # fine plan: why -> tables deleted and inserted whole

    def leaving(self) -> set[int]:
        """ids of the base paragraphs the plan deletes or moves away (a last paragraph's keeper is
        looked for past them)."""
        return {id(b.element) for _, b in self.deletes} | {id(b.element) for b, _ in self.moves_from}


def _chain(p: etree._Element, root: etree._Element) -> list[etree._Element]:
    """Containers from the story root down to the paragraph's parent."""
    out = []
    el = p.getparent()
    while el is not None and el is not root:
        if el.tag in CONTAINERS:
            out.append(el)
        el = el.getparent()
    out.append(root)
    return out[::-1]


def _child_of(container: etree._Element, el: etree._Element) -> etree._Element:
    while el.getparent() is not container:
        el = el.getparent()
    return el


def _tags(chain) -> tuple:
    return tuple(c.tag for c in chain[1:])


def _outer_table(chain) -> etree._Element | None:
    return next((c for c in chain if c.tag == T_TBL), None)


def _plan_story(plan: _StoryPlan, base_root, rev_root) -> None:
    """Decide, entry by entry, what to copy in and what to delete. Tables whose structure the row
    level cannot express are unpaired wholesale and planned again."""
    bchains = {id(b): _chain(b.element, base_root) for b in plan.base_blocks}
    rchains = {id(r): _chain(r.element, rev_root) for r in plan.rev_blocks}
    # a pair across different structure is a deletion plus an addition
    entries = _unpair(plan.entries, lambda bi, ri: _tags(bchains[id(plan.base_blocks[bi])])
                      != _tags(rchains[id(plan.rev_blocks[ri])]))
    plan.whole_tables = {}
    entries = _split_section_breaks(plan, _split_reshaped(plan, entries, bchains, rchains))
    for _ in range(len(entries) + 1):
        broken = _try_plan(plan, entries, bchains, rchains, base_root, rev_root)
        if not broken:
            return
        why = "its cells were split or merged in a way a row-by-row redline cannot show"
        base_doc = base_root.getroottree().getroot()  # (the base's tables, not the revised ones, are counted)
        plan.whole_tables[why] = plan.whole_tables.get(why, 0) + sum(t.getroottree().getroot() is base_doc
                                                                     for t in broken)
        entries = _unpair(entries, lambda bi, ri, broken=broken: _outer_table(bchains[id(plan.base_blocks[bi])])
                          in broken or _outer_table(rchains[id(plan.rev_blocks[ri])]) in broken)
    raise RedlineVerificationError(f"The {plan.key} story's tables could not be planned.")


def _split_section_breaks(plan, entries) -> list:
    """A paragraph that gains or loses a section break (w:pPr/w:sectPr) is deleted and inserted whole:
    the break lives in its mark, so accepting keeps the revised mark and rejecting the earlier one."""
    def breaks(block) -> bool:
        return block.element is not None and block.element.find(f"{_W}pPr/{_W}sectPr") is not None

    return _unpair(entries, lambda bi, ri: breaks(plan.base_blocks[bi]) != breaks(plan.rev_blocks[ri]))


def _split_reshaped(plan, entries, bchains, rchains) -> list:
    """Pairs inside a row whose shape changed (offsets, spans, merges, cells) or a table whose grid
    changed become deletions plus additions, so the row (or table) is replaced whole: accepting then
    gives the revised shape, which a word diff of the cells' text could not."""
    def chains(bi, ri):
        return bchains[id(plan.base_blocks[bi])], rchains[id(plan.rev_blocks[ri])]

    marked, grids = reshaped(pair for kind, bi, ri in entries if kind == "pair" for pair in zip(*chains(bi, ri)))
    if grids:
        plan.whole_tables["its grid of columns changed"] = grids
    if not marked:
        return entries
    return _unpair(entries, lambda bi, ri: any(id(c) in marked for chain in chains(bi, ri) for c in chain))


def _unpair(entries: list, split) -> list:
    """The alignment entries with each pair for which split(base index, revised index) holds turned
    into a deletion plus an addition (the block is then replaced whole)."""
    return [e for kind, bi, ri in entries for e in (
        [("del", bi, None), ("add", None, ri)] if kind == "pair" and split(bi, ri) else [(kind, bi, ri)])]


def _try_plan(plan, entries, bchains, rchains, base_root, rev_root) -> set:
    """One planning pass; returns the outer tables (base or revised) that must be replaced wholesale."""
    plan.copies, plan.deletes, plan.replaces, plan.pairs, plan.moves_from, plan.rewrites = [], [], [], [], [], []
    rmap: dict = {rev_root: base_root}
    bmap: dict = {base_root: rev_root}
    broken: set = set()
    for kind, bi, ri in entries:
        if kind != "pair":
            continue
        bc, rc = bchains[id(plan.base_blocks[bi])], rchains[id(plan.rev_blocks[ri])]
        for b_el, r_el in zip(bc, rc):
            if rmap.setdefault(r_el, b_el) is not b_el or bmap.setdefault(b_el, r_el) is not r_el:
                broken |= {_outer_table(bc), _outer_table(rc)}
    if broken - {None}:
        return broken - {None}
    last: dict = {}  # base container -> the child (or planned copy) the next copy goes after
    copied: dict = {}
    gone: set = set()  # rows and tables already deleted as a whole
    for kind, bi, ri in entries:
        if kind in ("pair", "del"):
            b = plan.base_blocks[bi]
            chain = bchains[id(b)]
            for c in chain:
                child = _child_of(c, b.element)
                if _base_anchor(last.get(c)) is not child:  # copies already placed after it stay ahead
                    last[c] = child
            if kind == "pair":
                r = plan.rev_blocks[ri]
                same_pictures = _same_pictures(plan, b, r)
                if same_text(b, r) and same_pictures:  # (notes renumbered only: accepting renumbers them too)
                    plan.pairs.append((b, r))
                elif _has_notes(b) or _has_notes(r) or not same_pictures or has_math(b.element) \
                        or has_math(r.element):
                    # a word diff cannot move or renumber note references, swap a picture or write math
                    plan.rewrites.append((b, r))
                else:
                    plan.replaces.append((b, r))
                continue
            top = next((c for c in chain if c not in bmap), None)
            if top is not None and top.tag == T_TBL and chain.index(top) > 1:
                top = next(b.element.iterancestors(T_TR))  # a nested table goes row by row
            elif top is not None and top.tag in (T_SDT_CONTENT, T_CUSTOM) and top is not chain[-1] \
                    and chain[chain.index(top) + 1].tag == T_TR:
                top = chain[chain.index(top) + 1]  # a row in a content control goes as a row, not as its text
            if top is None or top.tag in (T_SDT_CONTENT, T_CUSTOM, T_TXBX):
                plan.deletes.append(("deleteBlock", b))
            elif top.tag in (T_TBL, T_TR):
                if top not in gone:
                    gone.add(top)
                    plan.deletes.append(("deleteTable" if top.tag == T_TBL else "deleteTableRow", b))
            else:  # a cell removed from a row that stays
                broken.add(_outer_table(chain))
            continue
        r = plan.rev_blocks[ri]
        if any(a in copied for a in (r.element, *r.element.iterancestors())):
            continue  # already inside content being copied
        chain = rchains[id(r)]
        top = next((c for c in chain if c not in rmap), None)
        unit = r.element if top is None else top
        if unit.tag == T_SDT_CONTENT:
            unit = unit.getparent()
        if unit.tag not in (T_P, T_TBL, T_TR, T_SDT, T_CUSTOM):
            broken.add(_outer_table(chain))  # a new cell or text box: not expressible row by row
            continue
        parent_r = unit.getparent()
        while parent_r not in rmap:
            parent_r = parent_r.getparent()
        parent = rmap[parent_r]
        after = last.get(parent)
        op_type = {T_TBL: "insertTable", T_TR: "insertTableRow"}.get(
            unit.tag, "insertAfterBlock" if after is not None else "insertBeforeBlock")
        job = _Copy(unit, parent, after, op_type, None)
        copied[unit] = job
        last[parent] = job
        plan.copies.append(job)
    return broken - {None}


def _base_anchor(item):
    while isinstance(item, _Copy):
        item = item.after
    return item


def _pair_moves(plan: _StoryPlan, group: list[int]) -> None:
    """FIFO per text: a deleted paragraph and a copied-in paragraph with the same text of >= 3 words
    are written as a tracked move (moveFrom / moveTo), unless the source cannot lose its mark."""
    waiting: dict[str, list] = {}
    deleting = plan.leaving()
    for op, b in plan.deletes:
        # a container's last paragraph keeps its mark: the mark of the paragraph before it goes instead
        movable = not is_last_paragraph(b.element) or _keeper(b.element, deleting) is not None
        if op == "deleteBlock" and len(b.text.split()) >= MOVE_MIN_WORDS and movable:
            waiting.setdefault(b.text, []).append(b)
    rev_text = {id(r.element): r.text for r in plan.rev_blocks}
    for job in plan.copies:
        if job.source.tag != T_P:
            continue
        queue = waiting.get(rev_text.get(id(job.source)))
        if queue:
            b = queue.pop(0)
            plan.deletes.remove(("deleteBlock", b))
            plan.moves_from.append((b, group[0]))
            job.move = group[0]
            group[0] += 1


def _keeper(p: etree._Element, deleting: set) -> etree._Element | None:
    """The paragraph before a container's last paragraph (and the deleted ones before it) whose mark
    can be deleted instead, so the last paragraph's words fold into it."""
    el = p.getprevious()
    while el is not None:
        if el.tag == T_P:
            if id(el) not in deleting:
                return el
        elif isinstance(el.tag, str) and el.tag.startswith(_W) and el.tag not in _STRIPPED \
                and el.tag != _W + "proofErr":  # (an XML comment or processing instruction is looked past)
            return None
        el = el.getprevious()
    return None


# -- the fallback: whole paragraphs and tables ------------------------------------------------------------

def _units(blocks, root) -> tuple[list, list[int], bool]:
    """The story root's children that hold the blocks (a paragraph, a table, a content control), each
    block's unit index, and whether the blocks come in the document order of their units."""
    units: list = []
    index: dict = {}
    of: list[int] = []
    ordered = True
    for b in blocks:
        unit = _child_of(root, b.element)
        if unit not in index:
            index[unit] = len(units)
            units.append(unit)
        ordered = ordered and (not of or index[unit] >= of[-1])
        of.append(index[unit])
    return units, of, ordered


def _plan_coarse(plan: _StoryPlan, base_root, rev_root, scope: str) -> None:
    """A redline that is right by construction: units (children of the story root) whose blocks all
    pair, with the same text, with all the blocks of one unit on the other side stay; every other base
    unit is deleted whole and every other revised unit copied in whole after it ("regions"). With
    scope "story" nothing stays."""
    plan.copies, plan.deletes, plan.replaces, plan.pairs, plan.moves_from, plan.rewrites = [], [], [], [], [], []
    plan.removed, plan.regions, plan.blocks = [], 0, 0
    b_units, b_of, b_ordered = _units(plan.base_blocks, base_root)
    r_units, r_of, r_ordered = _units(plan.rev_blocks, rev_root)
    if not (b_ordered and r_ordered):
        scope = "story"
    plan.coarse = scope
    b_size, r_size = [0] * len(b_units), [0] * len(r_units)
    for u in b_of:
        b_size[u] += 1
    for v in r_of:
        r_size[v] += 1
    anchors: list[tuple[int, int]] = []
    if scope == "regions":
        same: dict = {}
        for kind, bi, ri in plan.entries:
            if kind == "pair" and same_text(plan.base_blocks[bi], plan.rev_blocks[ri]) \
                    and _same_pictures(plan, plan.base_blocks[bi], plan.rev_blocks[ri]):
                key = (b_of[bi], r_of[ri])
                same[key] = same.get(key, 0) + 1
        anchors = sorted((u, v) for (u, v), n in same.items() if n == b_size[u] == r_size[v])
    prev_u = prev_v = -1
    for u, v in anchors + [(len(b_units), len(r_units))]:
        gone, added = range(prev_u + 1, u), range(prev_v + 1, v)
        if gone or added:
            plan.regions += 1
            plan.blocks += sum(b_size[i] for i in gone) + sum(r_size[j] for j in added)
        plan.removed += [b_units[i] for i in gone]
        after = b_units[u - 1] if u > 0 else None  # the last deleted unit, else the anchor before
        for j in added:
            unit = r_units[j]
            op_type = "insertTable" if unit.tag == T_TBL else "insertAfterBlock" if after is not None \
                else "insertBeforeBlock"
            job = _Copy(unit, base_root, after, op_type, None)
            plan.copies.append(job)
            after = job
        prev_u, prev_v = u, v


def _same_pictures(plan: _StoryPlan, b, r) -> bool:
    """Both paragraphs show the same pictures (image bytes and size), or neither shows any."""
    if not plan.pictures or not (has_objects(b.element) or has_objects(r.element)):
        return True
    base_keys, rev_keys = plan.pictures
    return base_keys.key(plan.base_story.part, b.element) == rev_keys.key(plan.rev_story.part, r.element)


def _has_notes(block) -> bool:
    return any(b.get("type") == "noteReference" for b in block.structural_boundaries or ())
