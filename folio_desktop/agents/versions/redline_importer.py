"""Copying revised content into the base package: the styles, lists, relationships (images, hyperlinks)
and notes it refers to come along, under names and ids the base does not use yet."""

from __future__ import annotations

import copy

from lxml import etree

from folio_desktop.docx.editing.ops.paragraph_props import NUMBERING_CT, NUMBERING_RT
from folio_desktop.docx.model.textkit import deterministic_para_id
from folio_desktop.docx.package.ooxml import R_NS, W14_PARA_ID, W14_TEXT_ID, W_NS, W_PPR, W_RPR, W_VAL

_W = "{" + W_NS + "}"
T_P = _W + "p"
_STRIPPED = {_W + t for t in ("commentRangeStart", "commentRangeEnd", "bookmarkStart", "bookmarkEnd", "permStart",
                              "permEnd")}
WP_DOCPR = "{http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing}docPr"
STYLES_CT = "application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"
STYLES_RT = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles"
NOTES_CT = "application/vnd.openxmlformats-officedocument.wordprocessingml.{kind}s+xml"
NOTES_RT = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/{kind}s"
RELS_CT = "application/vnd.openxmlformats-package.relationships+xml"
REL_NS = "http://schemas.openxmlformats.org/package/2006/relationships"


_STORY_REFERENCES = (_W + "headerReference", _W + "footerReference")


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
        self.stories: dict[str, str] = {}  # revised header/footer key -> the base key redlined with it
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
            # an inserted section break comes with its page setup; its header and footer references
            # name the revised package's parts: they are pointed at the base stories redlined with
            # those, and one with none is dropped (the new section shows the headers before it)
            for sect in ppr.findall(_W + "sectPr"):
                for ref in sect.findall(_W + "headerReference") + sect.findall(_W + "footerReference"):
                    kind = etree.QName(ref).localname[:-len("Reference")]
                    base_key = self.stories.get(f"{kind}:{ref.get(f'{{{R_NS}}}id')}")
                    if base_key is None:
                        sect.remove(ref)
                    else:
                        ref.set(f"{{{R_NS}}}id", base_key.split(":", 1)[1])
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
            if node.tag in _STORY_REFERENCES:
                continue  # pointed at the base's own stories above
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
        if not rev_pkg.has_part(name):
            return new  # the revised relationship dangles: so does the copy's, at a name the base leaves free
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
