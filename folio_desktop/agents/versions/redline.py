"""Redline generation (spec §9.3): the base package with tracked changes that turn it into the revised one.

Per story pair the blocks are aligned as in compare.py, then written in four phases:

1. insertions are copied from the revised document (runs, notes, images, rows and whole tables keep
   their formatting; the contract's insert text could carry none of that) and marked inserted, or
   moved when a deleted block with the same text of >= 3 words pairs with them;
2. the base content is edited through the operation engine in tracked-changes mode: replaceBlock
   (word-level redline), deleteBlock, deleteTableRow, deleteTable, mergeBlockWithNext;
3. a replaceBlock the engine refuses (e.g. it would rewrite a note marker) becomes a deletion of the
   base paragraph plus a copied-in revised paragraph;
4. formatRange puts back the revised bold / italic / underline on paired paragraphs.

Table structure the writer cannot express row by row (new or removed cells, rows split between
tables) falls back to deleting the base table and inserting the revised one. Finally every revision
gets one date, and the buffer is verified: rejecting all must give the base, accepting all the revised
document, story by story and block by block. An unverified buffer is never returned.

A story that fails the check (or whose writing fails) is not refused: the redline is built again on a
fresh copy of the base with that story coarser, first per region (every paragraph, table or content
control at the story's top level that holds a difference is deleted whole and the revised ones are
inserted whole; the rest stays as it is), then, if that still fails, the whole story replaced.
result["fallbacks"] names each such story, the scope, the reason and how many blocks it covers.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from lxml import etree

from folio_desktop.docx import DocxReviewer
from folio_desktop.docx.editing.ops.context import is_last_paragraph
from folio_desktop.docx.editing.ops.paragraph_props import NUMBERING_CT, NUMBERING_RT, PPR_ORDER
from folio_desktop.docx.editing.paragraph_edit import REVISION_TAGS, Stamp, max_revision_id, now_iso
from folio_desktop.docx.model.textkit import deterministic_para_id, index_to_utf16, text_hash
from folio_desktop.docx.package.ooxml import R_NS, W14_PARA_ID, W14_TEXT_ID, W_NS, W_PPR, W_RPR, W_VAL

from . import privacy as privacy_mod
from .compare import (
    Budget,
    align,
    format_segments,
    open_view,
    same_markup,
    same_text,
    story_blocks,
    styles_alike,
)

_W = "{" + W_NS + "}"
T_P, T_R, T_T, T_TBL, T_TR, T_TC = (_W + t for t in ("p", "r", "t", "tbl", "tr", "tc"))
T_SDT, T_SDT_CONTENT, T_TXBX, T_CUSTOM = _W + "sdt", _W + "sdtContent", _W + "txbxContent", _W + "customXml"
VIEWS = ("original", "final")
REFERENCE_POLICIES = ("keep", "refuse")
# elements whose children are blocks (or rows/cells): the levels a block's position is described by
CONTAINERS = {_W + t for t in ("body", "hdr", "ftr", "footnote", "endnote", "tbl", "tr", "tc", "sdtContent",
                               "customXml", "txbxContent")}
_LEADING = {_W + t for t in ("tcPr", "tblPr", "tblGrid", "trPr", "tblPrEx", "sdtPr", "sdtEndPr")}
_STRIPPED = {_W + t for t in ("commentRangeStart", "commentRangeEnd", "bookmarkStart", "bookmarkEnd", "permStart",
                              "permEnd")}
REDLINE_FORMATS = ("bold", "italic", "underline")
WP_DOCPR = "{http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing}docPr"
STYLES_CT = "application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"
STYLES_RT = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles"
NOTES_CT = "application/vnd.openxmlformats-officedocument.wordprocessingml.{kind}s+xml"
NOTES_RT = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/{kind}s"
RELS_CT = "application/vnd.openxmlformats-package.relationships+xml"
REL_NS = "http://schemas.openxmlformats.org/package/2006/relationships"


class InvalidGenerateRedlineDocxOptionsError(ValueError):
    """An option of generate_redline_docx has a value it does not accept."""


class GenerateRedlineDocxResourceImportError(ValueError):
    """undefined_references="refuse" and inserted content names a style or list the revised document
    does not define; raised before anything is written."""


class RedlineVerificationError(RuntimeError):
    """The written redline did not reproduce base (reject all) and revised (accept all)."""


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
    entries = []
    for kind, bi, ri in plan.entries:  # a pair across different structure is a deletion plus an addition
        if kind == "pair" and _tags(bchains[id(plan.base_blocks[bi])]) != _tags(rchains[id(plan.rev_blocks[ri])]):
            entries += [("del", bi, None), ("add", None, ri)]
        else:
            entries.append((kind, bi, ri))
    for _ in range(len(entries) + 1):
        broken = _try_plan(plan, entries, bchains, rchains, base_root, rev_root)
        if not broken:
            return
        entries = [e for pair in entries for e in (
            [("del", pair[1], None), ("add", None, pair[2])]
            if pair[0] == "pair" and (_outer_table(bchains[id(plan.base_blocks[pair[1]])]) in broken
                                      or _outer_table(rchains[id(plan.rev_blocks[pair[2]])]) in broken)
            else [pair])]
    raise RedlineVerificationError(f"The {plan.key} story's tables could not be planned.")


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
                if same_text(b, r):  # (notes renumbered only: accepting renumbers them too)
                    plan.pairs.append((b, r))
                elif _has_notes(b) or _has_notes(r):  # a word diff cannot move or renumber note references
                    plan.rewrites.append((b, r))
                else:
                    plan.replaces.append((b, r))
                continue
            top = next((c for c in chain if c not in bmap), None)
            if top is not None and top.tag == T_TBL and chain.index(top) > 1:
                top = next(b.element.iterancestors(T_TR))  # a nested table goes row by row
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
    for op, b in plan.deletes:
        if op == "deleteBlock" and len(b.text.split()) >= 3 and not is_last_paragraph(b.element):
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
            if kind == "pair" and same_text(plan.base_blocks[bi], plan.rev_blocks[ri]):
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


def _mark_deleted(el: etree._Element, stamp: Stamp) -> None:
    """Everything in el becomes a tracked deletion: rows, paragraph marks, runs (a text box's anchor
    run and the text box content with it)."""
    _mark_whole(el, stamp, "del", "del", deleted=True)


def _mark_whole(el: etree._Element, stamp: Stamp, row_tag: str, tag: str, deleted: bool) -> None:
    """Every row of el marked row_tag, every paragraph mark and run tag."""
    for tr in el.iter(T_TR):
        trpr = tr.find(_W + "trPr")
        if trpr is None:
            trpr = etree.Element(_W + "trPr")
            prex = tr.find(_W + "tblPrEx")
            prex.addnext(trpr) if prex is not None else tr.insert(0, trpr)
        trpr.append(stamp.mark(row_tag))
    for p in el.iter(T_P):
        _mark_paragraph(p, stamp.mark(tag))
    _wrap_runs(el, stamp, tag, deleted=deleted)


# -- copying revised content into the base ----------------------------------------------------------------

class _Importer:
    """Brings what copied content refers to into the base package: styles, lists, relationships
    (images, hyperlinks), notes; drops comment and bookmark markers; keeps ids unique."""

    def __init__(self, base_doc, rev_doc, policy: str, base_note_keys: set[str]):
        self.base, self.rev = base_doc, rev_doc
        self.policy = policy
        self.base_note_keys = base_note_keys
        self.warnings: list[dict] = []
        self.pending_notes: list[etree._Element] = []  # imported notes, marked inserted with their copy
        self.note_map: dict[str, str] = {}
        self._styles: dict[str, str | None] = {}
        self._nums: dict[str, str | None] = {}
        self._parts: dict[str, str] = {}
        self._rels: dict[tuple, str] = {}
        self.para_ids = {p.get(W14_PARA_ID) for root in _story_roots(base_doc) for p in root.iter(T_P)}
        self.doc_pr = {int(d.get("id")) for root in _story_roots(base_doc) for d in root.iter(WP_DOCPR)
                       if (d.get("id") or "").isdigit()}

    # references a copy would carry, checked before anything is written
    def undefined_references(self, el) -> list[str]:
        out = []
        for tag, kind in (("pStyle", "style"), ("rStyle", "style"), ("tblStyle", "style"), ("numId", "numbering")):
            for ref in el.iter(_W + tag):
                value = ref.get(W_VAL)
                if kind == "style" and value and self.rev.styles.get(value) is None:
                    out.append(f'styleId "{value}"')
                if kind == "numbering" and value not in (None, "0") and not self.rev.numbering.is_defined(value):
                    out.append(f"numId {value}")
        return out

    def prepare(self, el, source_part: str, target_part: str) -> etree._Element:
        el = copy.deepcopy(el)
        for marker in [m for m in el.iter(*_STRIPPED)]:
            marker.getparent().remove(marker)
        for ref in list(el.iter(_W + "commentReference")):
            run = ref.getparent()
            run.remove(ref)
            if all(c.tag == W_RPR for c in run):
                run.getparent().remove(run)
        for ppr in el.iter(W_PPR):
            for sect in ppr.findall(_W + "sectPr"):
                ppr.remove(sect)
        for p in el.iter(T_P):
            pid = p.get(W14_PARA_ID)
            if pid is None or pid in self.para_ids:
                pid = self._fresh_para_id(pid or "redline")
                p.set(W14_PARA_ID, pid)
                p.set(W14_TEXT_ID, pid)
            self.para_ids.add(pid)
        for tag in ("pStyle", "rStyle", "tblStyle"):
            for ref in list(el.iter(_W + tag)):
                new = self.style(ref.get(W_VAL))
                if new is None:
                    ref.getparent().remove(ref)
                else:
                    ref.set(W_VAL, new)
        for ref in list(el.iter(_W + "numId")):
            new = self.num(ref.get(W_VAL))
            if new is None:
                numpr = ref.getparent()
                numpr.getparent().remove(numpr)
            else:
                ref.set(W_VAL, new)
        for node in el.iter():
            for attr, value in list(node.attrib.items()):
                if attr.startswith("{" + R_NS + "}"):
                    node.set(attr, self.relationship(source_part, target_part, value))
        for kind in ("footnote", "endnote"):
            for ref in el.iter(_W + kind + "Reference"):
                ref.set(_W + "id", self.note(kind, ref.get(_W + "id")))
        for pr in el.iter(WP_DOCPR):
            if not (pr.get("id") or "").isdigit() or int(pr.get("id")) in self.doc_pr:
                pr.set("id", str(max(self.doc_pr, default=0) + 1))
            self.doc_pr.add(int(pr.get("id")))
        return el

    def _fresh_para_id(self, seed: str) -> str:
        n = 0
        while True:
            candidate = deterministic_para_id(f"{seed}:redline:{n}")
            if candidate not in self.para_ids:
                return candidate
            n += 1

    # -- styles ------------------------------------------------------------------------------------
    def style(self, sid: str | None) -> str | None:
        if sid is None:
            return None
        if sid not in self._styles:
            self._styles[sid] = self._import_style(sid)
        return self._styles[sid]

    def _import_style(self, sid: str) -> str | None:
        rs, bs = self.rev.styles.get(sid), self.base.styles.get(sid)
        if rs is None:
            if bs is not None:  # the revised document never defined it: do not bind to the base's
                self.warnings.append({"type": "style", "reference": sid,
                                      "message": f'styleId "{sid}" is not defined by the revised document but '
                                                 "is by the base; the reference was cleared."})
                return None
            return sid
        if bs is not None and bs.type == rs.type:
            return sid
        new = sid
        n = 1
        while self.base.styles.get(new) is not None or (new != sid and self.rev.styles.get(new) is not None):
            new = f"{sid}-{n}"
            n += 1
        self._styles[sid] = new  # before recursing: basedOn chains may loop
        source = next(s for s in _part_root(self.rev, "styles").iterchildren(_W + "style")
                      if s.get(_W + "styleId") == sid)
        el = copy.deepcopy(source)
        el.set(_W + "styleId", new)
        el.attrib.pop(_W + "default", None)
        for tag in ("basedOn", "next", "link"):
            ref = el.find(_W + tag)
            if ref is not None:
                target = self.style(ref.get(W_VAL))
                ref.getparent().remove(ref) if target is None else ref.set(W_VAL, target)
        for ref in list(el.iter(_W + "numId")):
            target = self.num(ref.get(W_VAL))
            ref.getparent().getparent().remove(ref.getparent()) if target is None else ref.set(W_VAL, target)
        root = _ensure_part(self.base, "styles", "styles", STYLES_CT, STYLES_RT)
        root.append(el)
        self.base.package.mark_dirty(self.base.related_part("styles"))
        self.base.reload()
        return new

    # -- numbering ---------------------------------------------------------------------------------
    def num(self, nid: str | None) -> str | None:
        if nid is None or nid == "0":
            return nid
        if nid not in self._nums:
            self._nums[nid] = self._import_num(nid)
        return self._nums[nid]

    def _import_num(self, nid: str) -> str | None:
        rev_root = _part_root(self.rev, "numbering")
        rnum = _num_el(rev_root, nid)
        rabs = _abstract_el(rev_root, rnum)
        if rabs is None:
            if self.base.numbering.is_defined(nid):
                self.warnings.append({"type": "numbering", "reference": nid,
                                      "message": f"numId {nid} is not defined by the revised document but is by "
                                                 "the base; the list reference was cleared."})
                return None
            return nid
        base_root = _part_root(self.base, "numbering")
        bnum = _num_el(base_root, nid)
        if bnum is not None and _same_list(_abstract_el(base_root, bnum), rabs, bnum, rnum):
            return nid  # the same list in both versions: inserted items continue it
        root = _ensure_part(self.base, "numbering", "numbering", NUMBERING_CT, NUMBERING_RT)
        abs_ids = [int(a.get(_W + "abstractNumId")) for a in root.iterchildren(_W + "abstractNum")
                   if (a.get(_W + "abstractNumId") or "").isdigit()]
        num_ids = [int(n.get(_W + "numId")) for n in root.iterchildren(_W + "num") if (n.get(_W + "numId") or "").isdigit()]
        new_abs, new_num = str(max(abs_ids, default=-1) + 1), str(max(num_ids, default=0) + 1)
        absn = copy.deepcopy(rabs)
        absn.set(_W + "abstractNumId", new_abs)
        num = copy.deepcopy(rnum)
        num.set(_W + "numId", new_num)
        num.find(_W + "abstractNumId").set(W_VAL, new_abs)
        first = root.find(_W + "num")
        first.addprevious(absn) if first is not None else root.append(absn)
        cleanup = root.find(_W + "numIdMacAtCleanup")
        cleanup.addprevious(num) if cleanup is not None else root.append(num)
        self.base.package.mark_dirty(self.base.related_part("numbering"))
        self.base.reload_numbering()
        return new_num

    # -- relationships and parts ---------------------------------------------------------------------
    def relationship(self, source_part: str, target_part: str, rid: str) -> str:
        key = (source_part, target_part, rid)
        if key in self._rels:
            return self._rels[key]
        rel = next((r for r in self.rev.package.rels(source_part) if r.id == rid), None)
        if rel is None:
            return rid  # dangling in the revised document too
        if rel.external:
            new = self.base.package.add_relationship(target_part, rel.type, target_part)
            el = next(e for e in self.base.package.xml(_rels_name(target_part)) if e.get("Id") == new)
            el.set("Target", rel.target)
            el.set("TargetMode", "External")
        else:
            new = self.base.package.add_relationship(target_part, rel.type, self.part(rel.target))
        self._rels[key] = new
        return new

    def part(self, name: str) -> str:
        """Copy a revised part (and what it relates to) into the base under a free name."""
        if name in self._parts:
            return self._parts[name]
        base_pkg, rev_pkg = self.base.package, self.rev.package
        stem, dot, ext = name.rpartition(".")
        new, n = name, 1
        while base_pkg.has_part(new):
            new = f"{stem}-redline{n}{dot}{ext}"
            n += 1
        self._parts[name] = new
        ctype = rev_pkg.content_types().get(name.lower(), "application/octet-stream")
        base_pkg.add_part(new, rev_pkg.read(name), ctype)
        rels = rev_pkg.rels(name)
        if rels:
            root = etree.Element(f"{{{REL_NS}}}Relationships", nsmap={None: REL_NS})
            for rel in rels:
                el = etree.SubElement(root, f"{{{REL_NS}}}Relationship", Id=rel.id, Type=rel.type)
                if rel.external:
                    el.set("Target", rel.target)
                    el.set("TargetMode", "External")
                else:
                    el.set("Target", _relative(new, self.part(rel.target)))
            base_pkg.add_part(_rels_name(new), root, RELS_CT)
        return new

    # -- notes -------------------------------------------------------------------------------------------
    def note(self, kind: str, nid: str) -> str:
        key = f"{kind}:{nid}"
        if key in self.base_note_keys or key in self.note_map:
            return self.note_map.get(key, nid).split(":")[-1]
        rev_part = self.rev.related_part(kind + "s")
        source = None
        if rev_part is not None:
            source = next((n for n in self.rev.package.xml(rev_part).iterchildren(_W + kind)
                           if n.get(_W + "id") == nid), None)
        if source is None:
            return nid
        root = _ensure_part(self.base, kind + "s", kind + "s", NOTES_CT.format(kind=kind),
                            NOTES_RT.format(kind=kind), seed=self.rev.package.xml(rev_part))
        base_part = self.base.related_part(kind + "s")
        taken = {n.get(_W + "id") for n in root.iterchildren(_W + kind)}
        new = nid
        if new in taken:
            new = str(max((int(t) for t in taken if t and t.lstrip("-").isdigit()), default=0) + 1)
        self.note_map[key] = f"{kind}:{new}"
        el = self.prepare(source, rev_part, base_part)
        el.set(_W + "id", new)
        root.append(el)
        self.base.package.mark_dirty(base_part)
        self.pending_notes.append(el)
        return new


def _story_roots(doc) -> list[etree._Element]:
    parts = {s.part for s in doc.stories()}
    return [doc.package.xml(p) for p in parts]


def _part_root(doc, suffix: str) -> etree._Element | None:
    part = doc.related_part(suffix)
    return doc.package.xml(part) if part else None


def _num_el(root, nid):
    if root is None:
        return None
    return next((n for n in root.iterchildren(_W + "num") if n.get(_W + "numId") == nid), None)


def _abstract_el(root, num):
    if num is None:
        return None
    ref = num.find(_W + "abstractNumId")
    aid = ref.get(W_VAL) if ref is not None else None
    return next((a for a in root.iterchildren(_W + "abstractNum") if a.get(_W + "abstractNumId") == aid), None)


def _same_list(base_abs, rev_abs, base_num, rev_num) -> bool:
    if base_abs is None:
        return False

    def levels(el):
        return [etree.tostring(x, method="c14n") for x in el.iterchildren(_W + "lvl")]

    def overrides(el):
        return [etree.tostring(x, method="c14n") for x in el.iterchildren(_W + "lvlOverride")]

    return levels(base_abs) == levels(rev_abs) and overrides(base_num) == overrides(rev_num)


def _rels_name(part: str) -> str:
    folder, _, name = part.rpartition("/")
    return f"{folder}/_rels/{name}.rels" if folder else f"_rels/{name}.rels"


def _relative(source: str, target: str) -> str:
    import posixpath

    base = posixpath.dirname(source)
    return posixpath.relpath(target, base) if base else target


def _ensure_part(doc, suffix: str, root_tag: str, ctype: str, rtype: str, seed=None) -> etree._Element:
    """The base's styles / numbering / notes part, created (with the revised separators) when absent."""
    part = doc.related_part(suffix)
    if part is not None:
        return doc.package.xml(part)
    name = f"word/{suffix}.xml"
    n = 1
    while doc.package.has_part(name):
        name = f"word/{suffix}-redline{n}.xml"
        n += 1
    root = etree.Element(_W + root_tag, nsmap={"w": W_NS})
    if seed is not None:  # notes parts need their separator notes
        for note in seed:
            if note.get(_W + "type") in ("separator", "continuationSeparator", "continuationNotice"):
                root.append(copy.deepcopy(note))
    doc.package.add_part(name, root, ctype)
    doc.package.add_relationship(doc.main_part, rtype, name)
    doc.invalidate()
    return root


# -- revision marks written by the copy-in writer ------------------------------------------------------------

def _mark_paragraph(p: etree._Element, mark: etree._Element) -> None:
    ppr = p.find(W_PPR)
    if ppr is None:
        ppr = etree.Element(W_PPR)
        p.insert(0, ppr)
    rpr = ppr.find(W_RPR)
    if rpr is None:
        rpr = etree.Element(W_RPR)
        rank = PPR_ORDER.index("rPr")
        later = [c for c in ppr if isinstance(c.tag, str) and c.tag.startswith(_W)
                 and c.tag[len(_W):] in PPR_ORDER and PPR_ORDER.index(c.tag[len(_W):]) > rank]
        later[0].addprevious(rpr) if later else ppr.append(rpr)
    rpr.insert(0, mark)


def _wrap_runs(el: etree._Element, stamp: Stamp, tag: str, deleted: bool) -> None:
    """Wrap every run (consecutive siblings together) in one revision wrapper of `tag`."""
    runs = list(el.iter(T_R))
    done: set = set()
    for run in runs:
        if id(run) in done:
            continue
        group = [run]
        nxt = run.getnext()
        while nxt is not None and nxt.tag == T_R:
            group.append(nxt)
            nxt = nxt.getnext()
        wrapper = stamp.mark(tag)
        run.addprevious(wrapper)
        for r in group:
            wrapper.append(r)
            done.add(id(r))
        if deleted:
            for r in group:
                for t in r.iter(T_T, _W + "instrText"):
                    t.tag = _W + ("delText" if t.tag == T_T else "delInstrText")


def _mark_inserted(el: etree._Element, stamp: Stamp, tag: str = "ins") -> None:
    _mark_whole(el, stamp, "ins", tag, deleted=False)


def _move_range(p: etree._Element, stamp: Stamp, side: str, group: int) -> None:
    start = stamp.mark(f"{side}RangeStart")
    start.set(_W + "name", f"redlineMove{group}")
    end = etree.Element(_W + f"{side}RangeEnd")
    end.set(_W + "id", start.get(_W + "id"))
    ppr = p.find(W_PPR)
    p.insert(p.index(ppr) + 1 if ppr is not None else 0, start)
    p.append(end)


def _place(job: _Copy, element: etree._Element) -> None:
    after = job.after.element if isinstance(job.after, _Copy) else job.after
    if after is not None:
        after.addnext(element)
        return
    index = 0
    for index, child in enumerate(job.parent):  # noqa: B007 - the loop finds the first block position
        if child.tag not in _LEADING:
            break
    else:
        index = len(job.parent)
    job.parent.insert(index, element)


# -- the engine, one story at a time -----------------------------------------------------------------------

class _StoryDocument:
    """The base document seen through one story, so the operation engine resolves block ids against
    that story's snapshot; everything else is the real document."""

    def __init__(self, doc, story):
        self._doc, self._story, self._snap = doc, story, None

    def snapshot(self):
        if self._snap is None:
            self._snap = self._doc.snapshot_story(self._story)
        return self._snap

    def invalidate(self):
        self._snap = None
        self._doc.invalidate()

    def __getattr__(self, name):
        return getattr(self._doc, name)


def _apply(doc, story, ops: list[dict], author: str) -> dict:
    if not ops:
        return {"applied": [], "skipped": []}
    from folio_desktop.docx.editing.operations import (
        OperationEngine,  # (loaded only when there is an edit to write)
    )

    target = doc if story.type == "main" else _StoryDocument(doc, story)
    # a fresh engine each time: its revision cursor must see the marks written since the last batch;
    # no undo state (a deep copy of the story's part per batch): a failed redline is rebuilt from the
    # pristine bytes instead
    result = OperationEngine(target, author).apply({"version": 1, "mode": "tracked-changes", "operations": ops},
                                                   undoable=False)
    if result["applied"] and story.type != "main":
        doc.package.mark_dirty(story.part)
    doc.invalidate()
    return result


# -- the writer ---------------------------------------------------------------------------------------------

class _Redline:
    def __init__(self, base_rev: DocxReviewer, rev_rev: DocxReviewer, author: str, policy: str):
        self.base, self.rev = base_rev.document, rev_rev.document
        self.author, self.policy = author, policy
        self.date = now_iso()
        self.ops: list[dict] = []
        self.applied: list[dict] = []
        self.skipped: list[dict] = []
        self.current: str | None = None  # the story being written, to name it when the writer fails
        self._cursor: list[int] | None = None  # last revision id written (see _stamp)
        self.styles_alike = styles_alike(base_rev, rev_rev)  # before the copy-in imports any style
        base_keys = {s.key for s in self.base.stories()}
        self.importer = _Importer(self.base, self.rev, policy, {k for k in base_keys if k.split(":")[0] in
                                                                ("footnote", "endnote")})

    def _op(self, **fields) -> dict:
        """A new operation with the next redline-N id, remembered in creation order."""
        op = {"id": f"redline-{len(self.ops) + 1}", **fields}
        self.ops.append(op)
        return op

    def _stamp(self) -> Stamp:
        """Marks numbered after every revision id in the document. The cursor is shared by the
        copy-in writers and found again only after the operation engine wrote marks of its own (a
        scan of every story per story would make many-note documents quadratic)."""
        if self._cursor is None:
            self._cursor = [max_revision_id(_story_roots(self.base))]
        return Stamp(self.author, self.date, self._cursor)

    def _record(self, op: dict, revision_ids=None) -> None:
        entry = {"id": op["id"], "type": op["type"]}
        if revision_ids:
            entry["revisionId"], entry["revisionIds"] = revision_ids[0], list(revision_ids)
        self.applied.append(entry)

    def run(self, plans: list[_StoryPlan]) -> None:
        if self.policy == "refuse":
            missing = sorted({ref for plan in plans for job in plan.copies
                              for ref in self.importer.undefined_references(job.source)})
            if missing:
                raise GenerateRedlineDocxResourceImportError(
                    "The revised document inserts content that refers to definitions it does not have ("
                    + ", ".join(missing) + "); nothing was written.")
        fine = [plan for plan in plans if plan.coarse is None]
        for plan in plans:
            self.current = plan.key
            self._copy_in(plan) if plan.coarse is None else self._write_coarse(plan)
        for plan in fine:
            self.current = plan.key
            self._edit(plan)
        for plan in fine:
            self.current = plan.key
            self._format(plan)
        self.current = None
        self._one_date()

    def _write_coarse(self, plan: _StoryPlan) -> None:
        """The fallback plan: base units deleted whole, revised units copied in whole after them."""
        stamp = self._stamp()
        for unit in plan.removed:
            before = stamp.cursor[0]
            _mark_deleted(unit, stamp)
            self._record(self._op(type="deleteTable" if unit.tag == T_TBL else "deleteBlock", story=plan.key),
                         list(range(before + 1, stamp.cursor[0] + 1)))
        self._insert_copies(plan, stamp)
        if plan.removed or plan.copies:
            self.base.package.mark_dirty(plan.base_story.part)
        self.base.invalidate()

    def _insert_copies(self, plan: _StoryPlan, stamp: Stamp) -> None:
        """The plan's revised content copied into the base as tracked insertions (moved content as
        the arriving half of its move), with the notes it brings."""
        src, dst = plan.rev_story.part, plan.base_story.part
        for job in plan.copies:
            el = self.importer.prepare(job.source, src, dst)
            before = stamp.cursor[0]
            _mark_inserted(el, stamp, "moveTo" if job.move else "ins")
            if job.move:
                _move_range(el, stamp, "moveTo", job.move)
            _place(job, el)
            job.element = el
            self._record(self._op(type=job.op_type, story=plan.key), list(range(before + 1, stamp.cursor[0] + 1)))
        for note in self.importer.pending_notes:
            _mark_inserted(note, stamp)
        self.importer.pending_notes = []

    def _copy_in(self, plan: _StoryPlan) -> None:
        if not plan.copies and not plan.moves_from:
            return
        stamp = self._stamp()
        self._insert_copies(plan, stamp)
        for b, group in plan.moves_from:
            before = stamp.cursor[0]
            _mark_paragraph(b.element, stamp.mark("moveFrom"))
            _wrap_runs(b.element, stamp, "moveFrom", deleted=True)
            _move_range(b.element, stamp, "moveFrom", group)
            self._record(self._op(type="deleteBlock", blockId=b.id, story=plan.key, moveId=f"move-{group}"),
                         list(range(before + 1, stamp.cursor[0] + 1)))
        if plan.copies or plan.moves_from:
            self.base.package.mark_dirty(plan.base_story.part)
        self.base.invalidate()

    def _edit(self, plan: _StoryPlan) -> None:
        if not plan.deletes and not plan.replaces and not plan.rewrites:
            return
        snap = self.base.snapshot_story(plan.base_story)
        by_element = snap.block_of_paragraph
        deleting = {id(b.element) for op, b in plan.deletes if op == "deleteBlock"}
        merges, ops, table_ops = [], [], []
        for op_type, b in plan.deletes:
            if op_type != "deleteBlock":
                table_ops.append({"type": op_type, "blockId": b.id})
                continue
            if is_last_paragraph(b.element):
                # a container keeps its last paragraph mark: delete the mark before it instead, so
                # the words that are left fold into the paragraph that stays
                keeper = _keeper(b.element, deleting)
                if keeper is not None and _is_inserted(keeper):
                    # an inserted paragraph takes over the last mark: move it behind the deleted one
                    b.element.addnext(keeper)
                    ops.append({"type": "deleteBlock", "blockId": b.id})
                    continue
                if keeper is not None and keeper in by_element:
                    merge = {"type": "mergeBlockWithNext", "blockId": by_element[keeper].id}
                    if merge not in merges:
                        merges.append(merge)
                if not b.text:
                    continue
            ops.append({"type": "deleteBlock", "blockId": b.id})
        replace_ops = []
        for b, r in plan.replaces:
            op = {"type": "replaceBlock", "blockId": b.id, "text": r.text}
            if r.style_id != b.style_id:
                style = self.importer.style(r.style_id) if r.style_id else None
                if style is not None or r.style_id is None:
                    op["styleId"] = style
            replace_ops.append(op)
        # merges first (a later replaceBlock of the same paragraph is allowed), and at most one
        # row or table deletion per table in a batch (the engine refuses a second one)
        first = [self._op(**op) for op in merges + ops + replace_ops]
        replaced = dict(zip((op["id"] for op in first[len(merges) + len(ops):]), plan.replaces))
        rounds: list[list[dict]] = [first]
        per_table: dict = {}
        for op in table_ops:
            table = next(b for t, b in plan.deletes if b.id == op["blockId"]).element
            key = _outer_table_id(table)
            n = per_table[key] = per_table.get(key, -1) + 1
            while len(rounds) <= n:
                rounds.append([])
            rounds[n].append(self._op(**op))
        refused = set()
        for batch in rounds:
            result = _apply(self.base, plan.base_story, batch, self.author)
            self._collect(result, batch)
            refused |= {s["id"] for s in result["skipped"]}
        fallback = plan.rewrites + [pair for op_id, pair in replaced.items() if op_id in refused]
        if fallback:
            self._rewrite(plan, fallback)

    def _rewrite(self, plan: _StoryPlan, pairs) -> None:
        """Paragraphs a word diff cannot rewrite (note references, or refused by the engine): every
        old run is deleted and the revised runs, copied with their formatting, inserted after them,
        inside the same paragraph so no paragraph mark changes."""
        stamp = self._stamp()
        for b, r in pairs:
            before = stamp.cursor[0]
            new = self.importer.prepare(r.element, plan.rev_story.part, plan.base_story.part)
            _wrap_runs(b.element, stamp, "del", deleted=True)
            _wrap_runs(new, stamp, "ins", deleted=False)
            for child in list(new):
                if child.tag != W_PPR:
                    b.element.append(child)
            self._record(self._op(type="replaceBlock", blockId=b.id, story=plan.key),
                         list(range(before + 1, stamp.cursor[0] + 1)))
        for note in self.importer.pending_notes:
            _mark_inserted(note, stamp)
        self.importer.pending_notes = []
        self.base.package.mark_dirty(plan.base_story.part)
        self.base.invalidate()

    def _collect(self, result: dict, batch: list[dict]) -> None:
        if result["applied"]:
            self._cursor = None  # the engine numbered marks past it
        types = {op["id"]: op["type"] for op in batch}
        for entry in result["applied"]:
            self.applied.append({"id": entry["id"], "type": types[entry["id"]],
                                 **{k: v for k, v in entry.items() if k in ("revisionId", "revisionIds")}})
        for entry in result["skipped"]:
            self.skipped.append({"id": entry["id"], "type": types[entry["id"]], "reason": entry["reason"],
                                 **({"message": entry["message"]} if entry.get("message") else {})})

    def _format(self, plan: _StoryPlan) -> None:
        # paragraphs kept as they were, with the same markup on both sides, cannot differ in format
        todo = plan.replaces + [(b, r) for b, r in plan.pairs if not (self.styles_alike and same_markup(b, r))]
        if not todo:
            return
        snap = self.base.snapshot_story(plan.base_story)
        ops = []
        for b, r in todo:
            now = snap.block(b.id)
            if now is None or now.text != r.text:
                continue
            for start, end, delta in format_segments(now, r, REDLINE_FORMATS):
                text = now.text
                ops.append(self._op(type="formatRange", formatting=delta, range={
                    "type": "textRange", "blockId": b.id, "startOffset": index_to_utf16(text, start),
                    "endOffset": index_to_utf16(text, end), "selectedTextHash": text_hash(text[start:end])}))
        self._collect(_apply(self.base, plan.base_story, ops, self.author), ops)

    def _one_date(self) -> None:
        """Every revision of the redline carries the same timestamp (batches may straddle a second)."""
        tags = REVISION_TAGS + tuple(_W + t for t in ("moveFromRangeStart", "moveToRangeStart"))
        for part in dict.fromkeys(story.part for story in self.base.stories()):  # notes share one part
            for el in self.base.package.xml(part).iter(*tags):
                if el.get(_W + "date") not in (None, self.date):
                    el.set(_W + "date", self.date)
                    self.base.package.mark_dirty(part)


def _is_inserted(p: etree._Element) -> bool:
    mark = p.find(f"{W_PPR}/{W_RPR}")
    return mark is not None and (mark.find(_W + "ins") is not None or mark.find(_W + "moveTo") is not None)


def _has_notes(block) -> bool:
    return any(b.get("type") == "noteReference" for b in block.structural_boundaries or ())


def _outer_table_id(p: etree._Element) -> int:
    found = None
    for a in p.iterancestors(T_TBL):
        found = a
    return id(found)


def _keeper(p: etree._Element, deleting: set) -> etree._Element | None:
    """The paragraph before a container's last paragraph (and the deleted ones before it) whose mark
    can be deleted instead, so the last paragraph's words fold into it."""
    el = p.getprevious()
    while el is not None:
        if el.tag == T_P:
            if id(el) not in deleting:
                return el
        elif el.tag.startswith(_W) and el.tag not in _STRIPPED and el.tag not in (_W + "proofErr",):
            return None
        el = el.getprevious()
    return None


# -- verification -------------------------------------------------------------------------------------------

def story_texts(rev: DocxReviewer) -> dict[str, list[str]]:
    return {key: [b.text for b in blocks] for key, (_, blocks) in story_blocks(rev).items()}


def _differences(buffer: bytes, base_texts, rev_texts, note_map, skip: set) -> dict:
    """Story key -> what is wrong with the redline there: rejecting all must give the base, accepting
    all the revised document. A key the base does not have (an imported note) is reported as None."""
    out: dict = {}
    rejected = DocxReviewer.from_bytes(buffer)
    rejected.reject_all()
    got = story_texts(rejected)
    for key in sorted(set(got) | set(base_texts)):
        if got.get(key) != base_texts.get(key):
            out[key if key in base_texts else None] = "rejecting every change did not give the earlier text"
    accepted = DocxReviewer.from_bytes(buffer)
    accepted.accept_all()
    got = {k: v for k, v in story_texts(accepted).items() if k not in skip}
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


def _plans(base_rev, rev_rev, scopes: dict, reasons: dict) -> tuple[list, list]:
    """A plan per story pair (fine, or coarse as `scopes` says), and the stories left unprocessed.
    A story whose tables cannot be planned row by row is planned coarse at once."""
    base_stories, rev_stories = story_blocks(base_rev), story_blocks(rev_rev)
    budget, group = Budget(), [1]
    plans, unprocessed = [], []
    referenced = _referenced_notes(rev_rev.document)
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
        base_root = base_rev.document.story_container(b_story)
        rev_root = rev_rev.document.story_container(r_story)
        if key in scopes:
            _plan_coarse(plan, base_root, rev_root, scopes[key])
        else:
            try:
                _plan_story(plan, base_root, rev_root)
                _pair_moves(plan, group)
            except RedlineVerificationError:
                reasons.setdefault(key, "its tables could not be redlined row by row")
                scopes[key] = FALLBACK_SCOPES[0]
                _plan_coarse(plan, base_root, rev_root, scopes[key])
        plans.append(plan)
    return plans, unprocessed


def _write(base_rev, rev_rev, author, undefined_references, scopes: dict, reasons: dict):
    """One attempt: plan, write, serialize; (buffer, writer, plans, unprocessed, failing). A writer
    failure leaves no buffer and names the story being written (None when it is not known)."""
    plans, unprocessed = _plans(base_rev, rev_rev, scopes, reasons)
    writer = _Redline(base_rev, rev_rev, author, undefined_references)
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
                      privacy=None, undefined_references: str = "keep") -> dict:
    """The redline of two opened, resolved documents. base_rev is edited in place; when a story has
    to be redone coarser (result["fallbacks"]) the redline is rebuilt on a fresh copy of the base, so
    read the redline from result["buffer"]."""
    transforms = privacy_mod.normalize_transforms(privacy)
    base_texts, rev_texts = story_texts(base_rev), story_texts(rev_rev)
    pristine = base_rev.to_bytes()
    scopes: dict[str, str] = {}  # story key -> fallback scope it is written with
    reasons: dict[str, str] = {}  # story key -> why the finer redline was not kept
    while True:
        buffer, writer, plans, unprocessed, failing = _write(base_rev, rev_rev, author, undefined_references,
                                                             scopes, reasons)
        if buffer is not None:
            skip = {_key(u["baseStory"] or u["revisedStory"]) for u in unprocessed}
            if writer.applied or writer.skipped:
                failing = _differences(buffer, base_texts, rev_texts, writer.importer.note_map, skip)
            else:  # nothing written: the buffer is the (resolved) base, so both checks read base_texts
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
    return {"buffer": buffer, "applied": writer.applied, "skipped": writer.skipped,
            "unprocessedStories": unprocessed, "privacyReport": report,
            "referenceWarnings": writer.importer.warnings, "fallbacks": fallbacks}


def generate_redline_docx(base: bytes, revised: bytes, author: str = "folio compare", base_view: str = "final",
                          revised_view: str = "final", privacy=None, undefined_references: str = "keep") -> dict:
    """Base package + tracked changes that turn it into the revised one (spec §9.3).

    Returns {buffer, applied, skipped, unprocessedStories, privacyReport, referenceWarnings}. Raises
    InvalidGenerateRedlineDocxOptionsError for bad options, DocxError subclasses for unreadable input,
    GenerateRedlineDocxResourceImportError (refuse policy) and RedlineVerificationError."""
    _check_options(base_view, revised_view, undefined_references)
    privacy_mod.normalize_transforms(privacy)
    return redline_reviewers(open_view(base, base_view, author), open_view(revised, revised_view), author,
                             privacy, undefined_references)


__all__ = [
    "GenerateRedlineDocxResourceImportError", "InvalidGenerateRedlineDocxOptionsError", "RedlineVerificationError",
    "generate_redline_docx", "redline_reviewers",
]
