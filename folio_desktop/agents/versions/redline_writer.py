"""The redline writer: the tracked changes of each story's plan written into the base, copied-in content
marked inserted, the rest through the operation engine in tracked-changes mode, then one date for all."""

from __future__ import annotations

import copy

from lxml import etree

from folio_desktop.docx import DocxReviewer
from folio_desktop.docx.editing.ops.context import is_last_paragraph
from folio_desktop.docx.editing.ops.paragraph_props import PPR_ORDER
from folio_desktop.docx.editing.paragraph_edit import (
    REVISION_TAGS,
    Stamp,
    expand_simple_fields,
    max_revision_id,
    now_iso,
)
from folio_desktop.docx.package.ooxml import W_NS, W_PPR, W_RPR
from folio_desktop.docx.reading.accepted import joins_into

from .compare import same_markup, styles_alike
from .redline_errors import GenerateRedlineDocxResourceImportError
from .redline_format import FormatWriter
from .redline_importer import _Importer, _story_roots
from .redline_plan import _Copy, _keeper, _StoryPlan
from .sections import changed_sections, redline_section

_W = "{" + W_NS + "}"
T_P, T_R, T_T, T_TBL, T_TR = (_W + t for t in ("p", "r", "t", "tbl", "tr"))
_LEADING = {_W + t for t in ("tcPr", "tblPr", "tblGrid", "trPr", "tblPrEx", "sdtPr", "sdtEndPr")}
M_NS = "http://schemas.openxmlformats.org/officeDocument/2006/math"
_MATH_WHOLE = (f"{{{M_NS}}}oMathPara", f"{{{M_NS}}}oMath")
_WRAPPED = {T_R, *_MATH_WHOLE}  # what a revision wrapper holds


# -- revision marks written by the copy-in writer ------------------------------------------------------------

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
    """Wrap every run and every equation (consecutive siblings together) in one revision wrapper of
    `tag`. An equation (m:oMathPara / m:oMath) is wrapped whole: its math runs are no w:r, so a wrapper
    per w:r would leave it unmarked, and rejecting or accepting would keep it on both sides. A simple
    field is first written as the complex field it stands for: no revision wrapper may hold it."""
    expand_simple_fields(el)
    units = _wrap_units(el)
    done: set = set()
    for run in units:
        if id(run) in done:
            continue
        group = [run]
        nxt = run.getnext()
        while nxt is not None and nxt.tag in _WRAPPED:
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


def _wrap_units(el: etree._Element) -> list[etree._Element]:
    """The runs and outermost equations in el, in document order (a run inside an equation goes
    with the equation)."""
    out: list = []
    inside: set = set()  # equations taken whole
    for unit in el.iter(*_WRAPPED):
        if any(a in inside for a in unit.iterancestors(*_MATH_WHOLE)):
            continue
        if unit.tag in _MATH_WHOLE:
            inside.add(unit)
        out.append(unit)
    return out


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
    def __init__(self, base_rev: DocxReviewer, rev_rev: DocxReviewer, author: str, policy: str,
                 formatting: bool = True, memo: dict | None = None):
        self.base, self.rev = base_rev.document, rev_rev.document
        self.memo = memo  # same_markup's answers (the version diff may have asked them already)
        self.formatting = formatting  # formatting revisions written (else the base formatting stays)
        self.formatted = False  # some were: the stories' snapshots are stale
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
        for plan in fine if self.formatting else ():
            self.current = plan.key
            self._format(plan)
        if self.formatted:
            self.base.invalidate()
        self.current = "main"
        self._sections()
        self.current = None
        self._one_date()

    def _sections(self) -> None:
        """Sections whose page setup changed take the revised one, the old one kept in the change."""
        part = self.base.main_part
        pairs = changed_sections(self.base.package.xml(part), self.rev.package.xml(self.rev.main_part))
        if not pairs:
            return
        stamp = self._stamp()
        for base_sect, rev_sect in pairs:
            before = stamp.cursor[0]
            redline_section(base_sect, rev_sect, stamp.mark("sectPrChange"))
            self._record(self._op(type="formatSection", story="main"), list(range(before + 1, stamp.cursor[0] + 1)))
        self.base.package.mark_dirty(part)
        self.base.invalidate()

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
        leaving = plan.leaving()
        for b, group in plan.moves_from:
            before = stamp.cursor[0]
            # a container's last paragraph keeps its mark: the one before it is deleted instead, so
            # what is left of it joins the last (whose properties _format brings to the kept ones)
            last = is_last_paragraph(b.element)
            _mark_paragraph(_keeper(b.element, leaving) if last else b.element, stamp.mark("del" if last else "moveFrom"))
            # Word keeps moved-away text as w:t (w:delText is for deletions only)
            _wrap_runs(b.element, stamp, "moveFrom", deleted=False)
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
            if r.style_id != b.style_id and self.formatting:
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
        """Paragraphs a word diff cannot rewrite (note references, equations, pictures, field codes,
        or refused by the engine): the old runs are deleted and the revised runs, copied with their
        formatting, inserted after them, inside the same paragraph so no paragraph mark changes. Runs
        and equations alike at either end stay as they are (not with note references: those are
        renumbered), so a changed equation or picture is all the change shows."""
        stamp = self._stamp()
        for b, r in pairs:
            before = stamp.cursor[0]
            new = self.importer.prepare(r.element, plan.rev_story.part, plan.base_story.part)
            _replace_middle(b.element, new, stamp, trim=not (_has_note_refs(b.element) or _has_note_refs(new)))
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
        """Formatting revisions (w:rPrChange, w:pPrChange) on the paragraphs paired with the same text
        after the edits; paragraphs kept as they were, with the same markup, cannot differ in format."""
        struck = plan.leaving()
        todo = plan.replaces + plan.rewrites + [
            (b, r) for b, r in plan.pairs if not (self.styles_alike and same_markup(b, r, self.memo))
            or struck and id(joins_into(b.element)) in struck]
        if not todo:
            return
        snap = self.base.snapshot_story(plan.base_story)
        writer = FormatWriter(self._stamp, self.importer.style, self.importer.num)
        changed = False
        for b, r in todo:
            now = snap.block(b.id)
            # a paragraph whose mark a merge deleted reads as part of the next: it is its own element still
            element = now.element if now is not None else b.element if b.element.getparent() is not None else None
            if element is None or r.element is None:
                continue
            before = self._stamp().cursor[0]
            if writer.paragraph(element, r.element):
                changed = True
            # a merge into a container's last paragraph deletes this mark and keeps the last one: once
            # accepted, the joined paragraph has that mark's properties, so it takes the revised ones
            joined = joins_into(element)
            if joined is not None and id(joined) in struck and writer.paragraph_properties(joined, r.element):
                changed = True
            after = self._stamp().cursor[0]
            if after > before:  # one entry per paragraph whose formatting revisions were written
                self._record(self._op(type="formatRange", blockId=b.id, story=plan.key),
                             list(range(before + 1, after + 1)))
        if changed:  # (the snapshots are dropped once, after every story: see run)
            self.base.package.mark_dirty(plan.base_story.part)
            self.formatted = True

    def _one_date(self) -> None:
        """Every revision of the redline carries the same timestamp (batches may straddle a second)."""
        tags = REVISION_TAGS + tuple(_W + t for t in ("moveFromRangeStart", "moveToRangeStart"))
        for part in dict.fromkeys(story.part for story in self.base.stories()):  # notes share one part
            for el in self.base.package.xml(part).iter(*tags):
                if el.get(_W + "date") not in (None, self.date):
                    el.set(_W + "date", self.date)
                    self.base.package.mark_dirty(part)


def _replace_middle(p: etree._Element, new: etree._Element, stamp: Stamp, trim: bool) -> None:
    """p's children between the ones alike at either end marked deleted, and new's children between
    them copied in after them marked inserted."""
    old = [c for c in p if c.tag != W_PPR]
    fresh = [c for c in new if c.tag != W_PPR]
    head = tail = 0
    if trim:
        ko, kn = [_markup(c) for c in old], [_markup(c) for c in fresh]
        n = min(len(old), len(fresh))
        while head < n and ko[head] == kn[head]:
            head += 1
        while tail < n - head and ko[-1 - tail] == kn[-1 - tail]:
            tail += 1
    anchor = old[head - 1] if head else p.find(W_PPR)
    # held apart while wrapped, so a wrapper cannot take in the runs kept either side
    gone, came = etree.Element("held"), etree.Element("held")
    gone.extend(old[head:len(old) - tail])
    came.extend(fresh[head:len(fresh) - tail])
    _wrap_runs(gone, stamp, "del", deleted=True)
    _wrap_runs(came, stamp, "ins", deleted=False)
    for el in list(gone) + list(came):
        if anchor is None:
            p.insert(0, el)
        else:
            anchor.addnext(el)
        anchor = el


def _markup(el: etree._Element) -> bytes:
    """The element's markup without revision-save ids (w:rsid*), which differ between versions."""
    el = copy.deepcopy(el)
    for node in el.iter():
        for attr in [a for a in node.attrib if a.startswith(_W + "rsid")]:
            del node.attrib[attr]
    return etree.tostring(el, method="c14n", exclusive=True)


def _has_note_refs(p: etree._Element) -> bool:
    return next(p.iter(_W + "footnoteReference", _W + "endnoteReference"), None) is not None


def _is_inserted(p: etree._Element) -> bool:
    mark = p.find(f"{W_PPR}/{W_RPR}")
    return mark is not None and (mark.find(_W + "ins") is not None or mark.find(_W + "moveTo") is not None)


def _outer_table_id(p: etree._Element) -> int:
    found = None
    for a in p.iterancestors(T_TBL):
        found = a
    return id(found)


