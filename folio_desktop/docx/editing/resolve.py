"""Accept or reject pending tracked changes in every story (spec §7.2).

One pass per story container, in phases, because resolutions interact:

1. property changes (rPrChange, pPrChange, ...): they only rewrite a property element;
2. content wrappers (w:ins / w:del / moves around runs or blocks) and move range markers;
3. table structure (tracked rows and cells), then tables left without rows;
4. paragraph marks, in document order, so that a chain of joined paragraphs folds into the last one;
5. repairs: a cell, body, header or note that lost its last paragraph gets an empty one.

Text boxes are stored twice (mc:Choice and a VML mc:Fallback copy) with different revision ids;
resolving a Choice revision also resolves its twin in the Fallback so both copies stay alike.
Content that is removed gives up its comment and bookmark markers to the spot where it stood,
so comments stay anchored; a footnote or endnote whose only reference it held is deleted, as Word
does.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING

from lxml import etree

from ..package.ooxml import (
    MC_ALTERNATE,
    MC_CHOICE,
    MC_FALLBACK,
    MC_NS,
    W_ID,
    W_NS,
    W_P,
    W_PPR,
    W_RPR,
    W_TBL,
    W_TC,
    W_TR,
    W_VAL,
    w,
)
from ..reading.accepted import BETWEEN, following_block
from ..reading.changes import REVISION_TAGS, census

if TYPE_CHECKING:
    from ..model.document import Document

INSERTED = (w("ins"), w("moveTo"))
DELETED = (w("del"), w("moveFrom"))
MOVE_RANGES = tuple(w(t) for t in ("moveFromRangeStart", "moveFromRangeEnd", "moveToRangeStart", "moveToRangeEnd"))
CELL_MARKS = (w("cellIns"), w("cellDel"), w("cellMerge"))
PROPERTY_CHANGES = tuple(w(t) for t in ("rPrChange", "pPrChange", "sectPrChange", "tblPrChange", "tblGridChange",
                                        "trPrChange", "tblPrExChange", "tcPrChange"))
NOTE_REFS = (w("footnoteReference"), w("endnoteReference"))
# markers that must outlive the content they sit in (comment anchors, bookmarks)
ANCHORS = tuple(w(t) for t in ("commentRangeStart", "commentRangeEnd", "bookmarkStart", "bookmarkEnd"))
# containers whose last block must be a paragraph
BLOCK_CONTAINERS = tuple(w(t) for t in ("body", "tc", "hdr", "ftr", "footnote", "endnote", "txbxContent", "comment"))
_NS = {"w": W_NS, "mc": MC_NS}
TCPR_ORDER = tuple(w(t) for t in ("cnfStyle", "tcW", "gridSpan", "hMerge", "vMerge", "tcBorders", "shd", "noWrap",
                                  "tcMar", "textDirection", "tcFitText", "vAlign", "hideMark", "headers",
                                  "cellIns", "cellDel", "cellMerge", "tcPrChange"))


def accept_changes(doc: Document, ids: set[int] | None = None) -> int:
    """Accept the changes with these revision ids (all when None); returns the census entries resolved."""
    return _resolve(doc, ids, accept=True)


def reject_changes(doc: Document, ids: set[int] | None = None) -> int:
    """Reject the changes with these revision ids (all when None); returns the census entries resolved."""
    return _resolve(doc, ids, accept=False)


def _resolve(doc: Document, ids: set[int] | None, accept: bool) -> int:
    resolved = 0
    work = []
    for story in doc.stories():
        container = doc.story_container(story)
        entries = census(doc, story, doc.snapshot_story(story), container)
        story_ids, ranges = _with_move_partners(entries, ids)
        resolved += sum(1 for c in entries if story_ids is None or c.id in story_ids)
        work.append((story.part, container, story_ids, ranges))
    changed: set[str] = set()
    dropped_notes: set[tuple[str, str]] = set()
    for part, container, story_ids, ranges in work:
        resolver = _Resolver(container, story_ids, accept)
        chosen = set(resolver.targets)
        resolver.targets += [el for el in ranges if el not in chosen]
        if resolver.run():
            changed.add(part)
            dropped_notes |= resolver.dropped_notes
    changed |= _delete_orphan_notes(doc, dropped_notes, {part for part, *_ in work})
    for part in changed:
        doc.package.mark_dirty(part)
    doc.invalidate()
    return resolved


def _with_move_partners(entries, ids: set[int] | None) -> tuple[set[int] | None, list]:
    """A move is accepted or rejected whole: either half's id brings every id of the move (the other
    half, its paragraph and run marks), and its range markers go with it (as elements: their w:id may
    be another revision's), so no half is left pending and no range marker orphaned."""
    if ids is None:
        return None, []
    out, ranges, seen = set(ids), [], set()
    for change in entries:
        move = change.move
        if move is not None and change.id in ids and id(move) not in seen:
            seen.add(id(move))
            out |= move.ids
            ranges += move.ranges
    return out, ranges


def _delete_orphan_notes(doc: Document, dropped: set[tuple[str, str]], story_parts: set[str]) -> set[str]:
    """Delete the notes whose reference marks went with removed content; returns the parts changed."""
    if not dropped:
        return set()
    left = {(ref.tag, ref.get(W_ID)) for part in story_parts for ref in doc.package.xml(part).iter(*NOTE_REFS)}
    changed = set()
    for kind in ("footnote", "endnote"):
        part = doc.related_part(kind + "s")
        if part is None:
            continue
        ref_tag = w(kind + "Reference")
        notes = doc.package.xml(part)
        for note in list(notes.iterchildren(w(kind))):
            key = (ref_tag, note.get(W_ID))
            if key in dropped and key not in left:
                notes.remove(note)
                changed.add(part)
    return changed


def _rev_id(el) -> int | None:
    try:
        return int(el.get(W_ID))
    except (TypeError, ValueError):
        return None


def _in_fallback(el) -> bool:
    return any(a.tag == MC_FALLBACK for a in el.iterancestors())


def _branch_revisions(branch) -> list:
    """Revision elements of one mc branch, not counting those in a nested Fallback."""
    return [el for el in branch.iter(*REVISION_TAGS, *MOVE_RANGES)
            if not any(a.tag == MC_FALLBACK for a in _ancestors_below(el, branch))]


def _ancestors_below(el, top):
    anc = el.getparent()
    while anc is not None and anc is not top:
        yield anc
        anc = anc.getparent()


class _Resolver:
    def __init__(self, container, ids: set[int] | None, accept: bool):
        self.container = container
        self.accept = accept
        self.root = container.getroottree().getroot()
        self.repair: dict = {}  # container that lost block content -> did it end with a paragraph?
        self.dropped_notes: set[tuple[str, str]] = set()  # (reference tag, note id) removed with content
        self.targets = self._select(ids)

    # -- which elements ------------------------------------------------------------------------

    def _select(self, ids):
        every = list(self.container.iter(*REVISION_TAGS, *MOVE_RANGES))
        if ids is None:
            return every
        # range markers go with their move (see _with_move_partners), never by a w:id they may share
        chosen = {el for el in every if _rev_id(el) in ids and el.tag not in MOVE_RANGES}
        for alt in self.container.iter(MC_ALTERNATE):
            choice, fallback = alt.find(MC_CHOICE), alt.find(MC_FALLBACK)
            if choice is None or fallback is None:
                continue
            a, b = _branch_revisions(choice), _branch_revisions(fallback)
            # the VML copy renumbers its revisions; pair them by position when the shapes agree
            if [el.tag for el in a] == [el.tag for el in b]:
                chosen.update(twin for el, twin in zip(a, b) if el in chosen)
        for el in list(chosen):
            if el.tag in (w("ins"), w("del")) and el.getparent().tag == w("trPr"):
                chosen.update(self._folded_into_row(el))
        return [el for el in every if el in chosen]

    @staticmethod
    def _folded_into_row(mark) -> list:
        """Run marks the census folds into a tracked row: same side, same id or same author and date."""
        row = mark.getparent().getparent()
        side = INSERTED if mark.tag == w("ins") else DELETED
        out = []
        for el in row.iter(*side):
            if el.getparent().tag == W_RPR:
                continue
            nearest = next(el.iterancestors(W_TR))
            same = el.get(W_ID) == mark.get(W_ID) or (
                el.get(w("author")) == mark.get(w("author")) and el.get(w("date")) == mark.get(w("date")))
            if nearest is row and same:
                out.append(el)
        return out

    def _attached(self, el) -> bool:
        """Still in the part? (A removed lxml element keeps its document, so look up, not at the tree.)"""
        top = el
        while top.getparent() is not None:
            top = top.getparent()
        return top is self.root

    # -- phases --------------------------------------------------------------------------------

    def run(self) -> bool:
        if not self.targets:
            return False
        marks, structure = [], []
        for el in self.targets:
            if el.tag in PROPERTY_CHANGES:
                self._property_change(el)
        for el in self.targets:
            if el.tag in PROPERTY_CHANGES or not self._attached(el):
                continue
            parent = el.getparent()
            if el.tag in MOVE_RANGES:
                parent.remove(el)
            elif el.tag in CELL_MARKS or parent.tag == w("trPr"):
                structure.append(el)
            elif el.tag in INSERTED + DELETED:
                if parent.tag == W_RPR and parent.getparent() is not None and parent.getparent().tag == W_PPR:
                    marks.append(el)
                else:
                    self._content(el)
        for el in structure:
            if self._attached(el):
                self._structure(el)
        for el in marks:
            if self._attached(el):
                self._paragraph_mark(el)
        for box, ended_with_paragraph in self.repair.items():
            if self._attached(box):
                _repair(box, ended_with_paragraph)
        return True

    def _property_change(self, el) -> None:
        """Accept: forget the old properties. Reject: the owner's properties become the old ones."""
        owner = el.getparent()
        if self.accept:
            owner.remove(el)
            return
        old = el.find(owner.tag)  # the old property set is stored under the owner's own tag
        if el.tag == w("sectPrChange") and old is None:
            owner.remove(el)  # no record of the old section properties: nothing to restore
            return
        old_children = list(old) if old is not None else []
        tag = el.tag
        if tag == w("pPrChange"):
            keep_after = [c for c in owner if c.tag in (W_RPR, w("sectPr"))]
            owner[:] = old_children + keep_after
        elif tag == w("rPrChange"):
            # a paragraph mark's own ins/del markers are not properties: they stay, first (CT_ParaRPr)
            keep_before = [c for c in owner if c.tag in INSERTED + DELETED]
            owner[:] = keep_before + [c for c in old_children if c.tag not in INSERTED + DELETED]
        elif tag == w("sectPrChange"):
            keep_before = [c for c in owner if c.tag in (w("headerReference"), w("footerReference"))]
            owner[:] = keep_before + old_children
        elif tag == w("trPrChange"):
            keep_after = [c for c in owner if c.tag in (w("ins"), w("del"))]
            owner[:] = old_children + keep_after
        elif tag == w("tcPrChange"):
            keep_after = [c for c in owner if c.tag in CELL_MARKS]
            owner[:] = [c for c in old_children if c.tag not in CELL_MARKS] + keep_after
        else:  # tblPrChange, tblGridChange, tblPrExChange: the old set is the whole content
            owner[:] = old_children

    def _content(self, el) -> None:
        """A revision wrapper around content, or a stray marker in rPr / tcPr / numPr."""
        parent = el.getparent()
        inserted = el.tag in INSERTED
        if parent.tag in (W_RPR, w("tcPr")):
            parent.remove(el)  # run-level marks: the wrapping w:ins / w:del carries the change
        elif parent.tag == w("numPr"):
            # numbering added to a paragraph: rejecting takes the numbering away
            if inserted and not self.accept:
                parent.getparent().remove(parent)
            else:
                parent.remove(el)
        elif inserted == self.accept:
            self._unwrap(el, restore_text=not inserted)
        else:
            self._remove(el)

    def _structure(self, el) -> None:
        parent = el.getparent()
        if el.tag == w("cellMerge"):
            if self.accept:
                _set_vmerge(parent, el.get(w("vMerge")))
            parent.remove(el)
            return
        inserted = el.tag in (w("ins"), w("cellIns"))
        if inserted == self.accept:
            parent.remove(el)  # the row or cell stays; only the marker goes
            return
        if el.tag in CELL_MARKS:
            tc = parent.getparent()
            tr = next(tc.iterancestors(W_TR))
            self._remove(tc)
            if next(tr.iter(W_TC), None) is None:
                self._remove_row(tr)
        else:
            self._remove_row(parent.getparent())

    def _remove_row(self, tr) -> None:
        tbl = next(tr.iterancestors(W_TBL))
        self._remove(tr)
        if next(tbl.iter(W_TR), None) is None:
            self._remove(tbl)

    def _paragraph_mark(self, el) -> None:
        """A tracked paragraph mark. When the mark goes away the paragraph joins the next one."""
        rpr = el.getparent()
        ppr = rpr.getparent()
        p = ppr.getparent()
        rpr.remove(el)
        if (el.tag in INSERTED) == self.accept:
            for holder in (rpr, ppr):  # the mark was all they held: the paragraph reads as before it
                if len(holder) == 0 and not holder.attrib:
                    holder.getparent().remove(holder)
            return
        # the same rule the snapshot's accepted view follows (accepted.joins_into)
        nxt = following_block(p)
        between, sib = [], p.getnext()
        while sib is not nxt:
            between.append(sib)
            sib = sib.getnext()
        if nxt is None:
            # the container's last paragraph stays, only its marker goes, unless nothing is left in
            # it: then it goes whole when a paragraph before it can end the container (a redline
            # that appended paragraphs at the end rejects back to the base's end), or when it is
            # the last of a block content control (which goes too once it holds no block)
            if _is_empty(p):
                self._drop_empty_last(p, ppr)
            return
        if nxt.tag != W_P:
            # a table (or other block) follows: nothing to join with; a paragraph left empty goes
            # (Word's result for a wholly deleted paragraph before a table), others keep their mark
            if _is_empty(p):
                self._remove(p)
            return
        moving = [c for c in p if c is not ppr] + between
        target_ppr = nxt.find(W_PPR)
        at = 0 if target_ppr is None else nxt.index(target_ppr) + 1
        for offset, child in enumerate(moving):
            nxt.insert(at + offset, child)
        p.getparent().remove(p)

    def _drop_empty_last(self, p, ppr) -> None:
        parent = p.getparent()
        before = p.getprevious()
        while before is not None and (not isinstance(before.tag, str) or before.tag in BETWEEN):
            before = before.getprevious()
        if before is not None and before.tag == W_P:
            for child in [c for c in p if c is not ppr]:
                before.append(child)  # point markup (bookmarks, comment ranges) survives
            parent.remove(p)
        elif parent.tag == w("sdtContent") and parent.getparent() is not None:
            parent.remove(p)
            if not any(c.tag in (W_P, W_TBL, w("sdt")) for c in parent if isinstance(c.tag, str)):
                self._remove(parent.getparent())

    # -- tree surgery --------------------------------------------------------------------------

    def _unwrap(self, el, restore_text: bool) -> None:
        """Keep the children in place; a rejected deletion's text becomes ordinary text again."""
        if restore_text:
            for node in list(el.iter(w("delText"), w("delInstrText"))):
                owner = next(node.iterancestors(*DELETED), None)
                if owner is el:  # text under a nested, still pending deletion stays deleted
                    node.tag = w("t") if node.tag == w("delText") else w("instrText")
        parent = el.getparent()
        at = parent.index(el)
        for offset, child in enumerate(list(el)):
            parent.insert(at + offset, child)
        parent.remove(el)

    def _remove(self, el) -> None:
        """Remove el with its content, leaving its comment and bookmark markers where it stood."""
        parent = el.getparent()
        scope = _scope(parent)
        inline = scope is not None and scope.tag == W_P
        if not _in_fallback(el):  # the Fallback copy's markers duplicate the Choice's
            for marker in list(el.iter(*ANCHORS)):
                marker.tail = None
                el.addprevious(marker)
            for ref in list(el.iter(w("commentReference"))):
                self._rehome_reference(el, ref, inline)
            self.dropped_notes |= {(ref.tag, ref.get(W_ID)) for ref in el.iter(*NOTE_REFS)}
        if scope is not None and scope.tag in BLOCK_CONTAINERS and scope not in self.repair:
            self.repair[scope] = _ends_with_paragraph(scope)
        parent.remove(el)

    def _rehome_reference(self, removed, ref, inline: bool) -> None:
        """A comment's reference mark keeps living in a run of its own, near the removed content."""
        run = etree.Element(w("r"))
        old_run = ref.getparent()
        style = old_run.find(f"{W_RPR}/{w('rStyle')}") if old_run is not None else None
        if style is not None:
            etree.SubElement(run, W_RPR).append(copy.deepcopy(style))
        ref.tail = None
        run.append(ref)
        if inline:
            removed.addprevious(run)
            return
        # a block went: the mark goes to the end of the nearest paragraph before it (or after it)
        for axis in ("preceding", "following"):
            found = removed.xpath(f"{axis}::w:p[not(ancestor::mc:Fallback)][1]", namespaces=_NS)
            if found and self.container in found[0].iterancestors():
                host = found[0]
                if axis == "preceding":
                    host.append(run)
                else:
                    ppr = host.find(W_PPR)
                    host.insert(0 if ppr is None else host.index(ppr) + 1, run)
                return


def _is_empty(p) -> bool:
    """Nothing but properties, point markup, runs without content, and inline wrappers (a hyperlink
    whose runs were rejected, a content control whose runs were accepted as deleted) holding nothing
    else."""
    return all(c.tag == W_PPR or c.tag in BETWEEN or not isinstance(c.tag, str)
               or (c.tag == w("r") and all(x.tag == W_RPR for x in c))
               or (c.tag in _INLINE_WRAPPERS and _is_empty(c))
               or (c.tag == w("sdt") and all(_is_empty(x) for x in c.iterchildren(w("sdtContent")))) for c in p)


_INLINE_WRAPPERS = (w("hyperlink"), w("smartTag"), w("customXml"))


def _scope(el):
    """The paragraph, row, table or block container that el is (or stands in)."""
    stops = (W_P, W_TR, W_TBL) + BLOCK_CONTAINERS
    if el.tag in stops:
        return el
    return next(el.iterancestors(*stops), None)


def _set_vmerge(tcpr, value: str | None) -> None:
    """Accepting a tracked vertical merge: rest(art) starts the merged cell, cont(inue) joins it."""
    if value not in ("rest", "cont"):
        return
    vmerge = tcpr.find(w("vMerge"))
    if vmerge is None:
        vmerge = etree.Element(w("vMerge"))
        rank = TCPR_ORDER.index(vmerge.tag)
        later = next((c for c in tcpr if c.tag in TCPR_ORDER and TCPR_ORDER.index(c.tag) > rank), None)
        if later is not None:
            later.addprevious(vmerge)
        else:
            tcpr.append(vmerge)
    if value == "rest":
        vmerge.set(W_VAL, "restart")
    else:
        vmerge.attrib.pop(W_VAL, None)  # an absent value means continue


def _ends_with_paragraph(el) -> bool:
    """Does this block (or wrapper of blocks) end with a paragraph?"""
    for child in reversed(el):
        tag = child.tag
        if not isinstance(tag, str) or tag in BETWEEN or tag in (w("sectPr"), w("tcPr")):
            continue
        if tag == W_P:
            return True
        if tag == w("sdt"):
            content = child.find(w("sdtContent"))
            return content is not None and _ends_with_paragraph(content)
        if tag in (w("customXml"),) + INSERTED + DELETED:
            return _ends_with_paragraph(child)
        return False
    return False


def _repair(box, ended_with_paragraph: bool) -> None:
    """Word needs a paragraph to close every cell, body, header, footer, note and text box: give one
    back when a removal took it, or left the container with no block at all. (A container that
    already ended with a table is left as it was.)"""
    if _ends_with_paragraph(box):
        return
    blocks = [c for c in box if isinstance(c.tag, str) and c.tag not in BETWEEN
              and c.tag not in (w("sectPr"), w("tcPr"))]
    if not ended_with_paragraph and blocks:
        return
    p = etree.Element(W_P)
    sect = box.find(w("sectPr")) if box.tag == w("body") else None
    if sect is not None:
        sect.addprevious(p)
    else:
        box.append(p)


__all__ = ["accept_changes", "reject_changes"]
