"""Build a long (~520-page) .docx for benchmarks by repeating the NVCA body.

``build_long_nvca(repeats=10)`` takes
``../shared/corpus/contract_nvca_stock_purchase_agreement_27p.docx``, repeats
the children of its ``w:body`` (all but the final ``w:sectPr``) ``repeats``
times and returns the new package as bytes.  ``build_long(src, repeats)``
does the same for any .docx.

Page counts with LibreOffice 7.4.7 (``soffice --convert-to pdf``): each copy
after the first takes 51 pages; the first copy, like the original on its own,
takes 105-111, because that version piles footnotes from about no. 50 up
behind the signature page.  10 copies: 571 pages, about 8 s to convert.

Copy 0 is the original content.  In every later copy:

* ``w14:paraId`` / ``w14:textId`` get fresh values (8 uppercase hex digits,
  below 0x80000000, from a seeded generator, so the output is deterministic).
  Every value in the rewritten parts is unique across the whole package:
  values already used elsewhere (including the duplicate ``77777777``
  textIds Word writes, also in the original copy) are replaced too.
* footnotes/endnotes referenced from the copy are duplicated in their part
  with fresh ids and the ``w:footnoteReference``/``w:endnoteReference`` ids
  rewritten; comments likewise (plus commentsExtended/commentsIds/
  commentsExtensible entries when those parts exist).
* bookmarks get fresh ids and the name suffix ``_<copy>``; REF/PAGEREF/
  NOTEREF fields and ``w:hyperlink/@w:anchor`` inside the copy (and its
  notes) are pointed at the copy's own bookmarks.  Other annotation ids
  (revisions, move ranges) are renumbered the same way.
* drawing (``wp:docPr/@id``) and content-control (``w:sdtPr/w:id``) ids are
  renumbered.

Section properties inside ``w:pPr`` are kept as they are.  The original's
final section is closed at the end of every copy but the last by a copy of
the body ``w:sectPr`` placed in the copy's last paragraph (so each copy lays
out like the original, see ``close_sections``).  Every other zip entry is
copied unchanged, in the original order.

Run from the project root::

    python benchmarks/longdoc.py /tmp/nvca_long.docx [--repeats 10]
"""

from __future__ import annotations

import argparse
import copy
import io
import posixpath
import random
import re
import sys
import zipfile
from pathlib import Path

from lxml import etree

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / ".." / "shared" / "corpus"
NVCA = CORPUS / "contract_nvca_stock_purchase_agreement_27p.docx"

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
W14 = "http://schemas.microsoft.com/office/word/2010/wordml"
WP = "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"
PKG_RELS = "http://schemas.openxmlformats.org/package/2006/relationships"


def w(tag: str) -> str:
    return f"{{{W}}}{tag}"


PARA_ID, TEXT_ID = f"{{{W14}}}paraId", f"{{{W14}}}textId"
W_ID, W_NAME, W_VAL = w("id"), w("name"), w("val")
HEX_ID_ATTRS = (PARA_ID, TEXT_ID)
BOOKMARK_TAGS = {w("bookmarkStart"), w("bookmarkEnd")}
COMMENT_TAGS = {w("commentRangeStart"), w("commentRangeEnd"), w("commentReference")}
# reference element -> (rels type suffix of the notes part, note element)
NOTE_REFS = {
    w("footnoteReference"): ("footnotes", w("footnote")),
    w("endnoteReference"): ("endnotes", w("endnote")),
}
# elements whose w:id is not an annotation id (bookmark, comment range,
# revision, move range, ...): note ids have their own spaces, w:div is HTML
NOT_ANNOTATIONS = {w("footnote"), w("endnote"), w("comment"), w("div"), *NOTE_REFS, *COMMENT_TAGS}
FIELD_NAME_RE = re.compile(r"[A-Za-z_][\w]*")


class _Ids:
    """Deterministic allocator for the document-wide id spaces."""

    def __init__(self, seed: int = 0x1F0110):
        self.rng = random.Random(seed)
        self.hex_taken: set[str] = set()
        self.int_max: dict[str, int] = {}

    def hex(self) -> str:
        while True:
            v = f"{self.rng.randrange(1, 0x80000000):08X}"
            if v not in self.hex_taken:
                self.hex_taken.add(v)
                return v

    def keep_or_new_hex(self, value: str) -> str:
        """Keep the first occurrence of a value, replace any later one."""
        if value.upper() in self.hex_taken:
            return self.hex()
        self.hex_taken.add(value.upper())
        return value

    def next_int(self, space: str) -> int:
        self.int_max[space] = self.int_max.get(space, 0) + 1
        return self.int_max[space]

    def note_int(self, space: str, value: str | None) -> None:
        if value is not None and value.lstrip("-").isdigit():
            self.int_max[space] = max(self.int_max.get(space, 0), int(value))


def _ns(root: etree._Element | None) -> str | None:
    return None if root is None else etree.QName(root).namespace


def _xml(root: etree._Element) -> bytes:
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)


def _rel_targets(zin: zipfile.ZipFile, part: str) -> dict[str, str]:
    """Map relationship type suffix (e.g. 'footnotes') -> zip path of target."""
    base, name = posixpath.split(part)
    rels = posixpath.join(base, "_rels", name + ".rels")
    if rels not in zin.namelist():
        return {}
    out = {}
    for rel in etree.fromstring(zin.read(rels)).iter(f"{{{PKG_RELS}}}Relationship"):
        if rel.get("TargetMode") == "External":
            continue
        target = rel.get("Target")
        path = target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join(base, target))
        out.setdefault(rel.get("Type").rsplit("/", 1)[1], path)
    return out


NOTE_PARTS = ("footnotes", "endnotes", "comments")
EXTRA_PARTS = ("commentsExtended", "commentsIds", "commentsExtensible")


class _Copier:
    def __init__(self, zin: zipfile.ZipFile):
        self.zin = zin
        self.ids = _Ids()
        self.main = _rel_targets(zin, "")["officeDocument"]
        self.rels = _rel_targets(zin, self.main)
        self.rels[self.main] = self.main
        names = set(zin.namelist())
        self.parts: dict[str, etree._Element] = {self.main: etree.fromstring(zin.read(self.main))}
        for kind in NOTE_PARTS + EXTRA_PARTS:
            if self.rels.get(kind) in names:
                self.parts[kind] = etree.fromstring(zin.read(self.rels[kind]))
        self.bookmark_names: set[str] = set()  # every name in use, document-wide
        # ids used by the parts we do not rewrite (headers, footers, ...)
        for name in sorted(names - self.rewritten_paths()):
            if name.endswith(".xml"):
                try:
                    self._register(etree.fromstring(zin.read(name)), hex_ids=True)
                except etree.XMLSyntaxError:
                    pass
        # integer ids and bookmark names of the rewritten parts
        elsewhere = set(self.bookmark_names)
        for kind in (self.main,) + NOTE_PARTS:
            if kind in self.parts:
                self._register(self.parts[kind], hex_ids=False)
        self.orig_bookmark_names = sorted(self.bookmark_names - elsewhere)  # renamed in copies
        self.next_note_id = {kind: 1 + max([int(n.get(W_ID, 0)) for n in self.parts[kind]] + [0])
                             for kind in NOTE_PARTS if kind in self.parts}
        ids = self.parts.get("commentsIds")
        self.durable_taken = {e.get(f"{{{_ns(ids)}}}durableId") for e in (ids if ids is not None else [])}
        self.original_xml = {kind: _xml(root) for kind, root in self.parts.items()}

    def rewritten_paths(self) -> set[str]:
        return {self.rels[k] for k in self.parts}

    def _register(self, root: etree._Element, hex_ids: bool) -> None:
        for el in root.iter():
            if not isinstance(el.tag, str):
                continue
            if hex_ids:
                for attr in HEX_ID_ATTRS:
                    if el.get(attr):
                        self.ids.hex_taken.add(el.get(attr).upper())
            if el.tag in BOOKMARK_TAGS:
                self.ids.note_int("annotation", el.get(W_ID))
                if el.get(W_NAME):
                    self.bookmark_names.add(el.get(W_NAME))
            elif el.tag == f"{{{WP}}}docPr":
                self.ids.note_int("docPr", el.get("id"))
            elif el.tag == w("id") and el.getparent() is not None and el.getparent().tag == w("sdtPr"):
                self.ids.note_int("sdt", el.get(W_VAL))
            elif el.get(W_ID) is not None and el.tag not in NOT_ANNOTATIONS:
                self.ids.note_int("annotation", el.get(W_ID))

    # -- per copy -------------------------------------------------------
    def fix_hex_ids(self, elements) -> dict[str, str]:
        """Keep-first/replace-later for paraId and textId; return paraId map."""
        para_map = {}
        for top in elements:
            for el in top.iter():
                if not isinstance(el.tag, str):
                    continue
                for attr in HEX_ID_ATTRS:
                    old = el.get(attr)
                    if old:
                        new = self.ids.keep_or_new_hex(old)
                        el.set(attr, new)
                        if attr == PARA_ID:
                            para_map[old] = new
        return para_map

    def new_bookmark_name(self, name: str, k: int) -> str:
        suffix = f"_{k}"
        base = name[: 40 - len(suffix)]
        cand, n = base + suffix, 0
        while cand in self.bookmark_names:
            n += 1
            cand = f"{base[: 40 - len(suffix) - len(str(n))]}{n}{suffix}"
        self.bookmark_names.add(cand)
        return cand

    def rewrite_copy(self, elements, k: int, ctx: dict) -> None:
        """Rewrite annotation ids and references of copy k (k >= 1)."""
        for top in elements:
            for el in list(top.iter()):
                if not isinstance(el.tag, str):
                    continue
                tag = el.tag
                if tag in BOOKMARK_TAGS and el.get(W_NAME):
                    el.set(W_NAME, ctx["bm_name"].get(el.get(W_NAME), el.get(W_NAME)))
                if tag in NOTE_REFS and NOTE_REFS[tag][0] in self.parts:
                    el.set(W_ID, self.clone_note(NOTE_REFS[tag][0], el.get(W_ID), k, ctx))
                elif tag in COMMENT_TAGS and "comments" in self.parts:
                    el.set(W_ID, self.clone_note("comments", el.get(W_ID), k, ctx))
                elif el.get(W_ID, "").isdigit() and tag not in NOT_ANNOTATIONS:
                    # bookmarks, revisions, move ranges: start/end pairs share an id
                    old = el.get(W_ID)
                    if old not in ctx["ann_id"]:
                        ctx["ann_id"][old] = str(self.ids.next_int("annotation"))
                    el.set(W_ID, ctx["ann_id"][old])
                if tag == w("instrText") and el.text:
                    el.text = self.rename_fields(el.text, ctx)
                elif tag == w("fldSimple") and el.get(w("instr")):
                    el.set(w("instr"), self.rename_fields(el.get(w("instr")), ctx))
                elif tag == w("hyperlink") and el.get(w("anchor")) in ctx["bm_name"]:
                    el.set(w("anchor"), ctx["bm_name"][el.get(w("anchor"))])
                elif tag == f"{{{WP}}}docPr":
                    el.set("id", str(self.ids.next_int("docPr")))
                elif tag == w("id") and el.getparent() is not None and el.getparent().tag == w("sdtPr"):
                    el.set(W_VAL, str(self.ids.next_int("sdt")))

    def rename_fields(self, text: str, ctx: dict) -> str:
        return FIELD_NAME_RE.sub(lambda m: ctx["bm_name"].get(m.group(0), m.group(0)), text)

    def clone_note(self, kind: str, old_id: str, k: int, ctx: dict) -> str:
        key = (kind, old_id)
        if key in ctx["notes"]:
            return ctx["notes"][key]
        part = self.parts[kind]
        tag = w("comment") if kind == "comments" else NOTE_REFS[w(kind[:-1] + "Reference")][1]
        src = next((n for n in part.iterchildren(tag) if n.get(W_ID) == old_id), None)
        if src is None:  # dangling reference: leave it as it was
            return old_id
        new_id = str(self.next_note_id[kind])
        self.next_note_id[kind] += 1
        ctx["notes"][key] = new_id
        clone = copy.deepcopy(src)
        clone.set(W_ID, new_id)
        para_map = self.fix_hex_ids([clone])
        self.rewrite_copy([clone], k, ctx)
        part.append(clone)
        if kind == "comments":
            ctx["comment_paras"].update(para_map)
        return new_id

    def comment_extras(self, pmap: dict[str, str], clone: bool) -> None:
        """Follow comment paraId changes in commentsExtended/Ids/Extensible.

        ``clone``: the comments were duplicated, so duplicate the entries
        (with fresh durableIds); otherwise update the entries in place."""
        pmap = {old: new for old, new in pmap.items() if clone or old != new}
        if not pmap:
            return
        ext = self.parts.get("commentsExtended")
        ns = _ns(ext)  # w15, or the pre-release .../word/2010/11/wordml
        pid, parent_attr = f"{{{ns}}}paraId", f"{{{ns}}}paraIdParent"
        for e in [e for e in (ext if ext is not None else []) if e.get(pid) in pmap]:
            c = copy.deepcopy(e) if clone else e
            c.set(pid, pmap[e.get(pid)])
            if e.get(parent_attr):
                c.set(parent_attr, pmap.get(e.get(parent_attr), e.get(parent_attr)))
            if clone:
                ext.append(c)
        ids, cex = self.parts.get("commentsIds"), self.parts.get("commentsExtensible")
        if ids is None:
            return
        cid_pid, cid_dur = f"{{{_ns(ids)}}}paraId", f"{{{_ns(ids)}}}durableId"
        cex_dur = f"{{{_ns(cex)}}}durableId"
        durable = {}
        for e in [e for e in ids if e.get(cid_pid) in pmap]:
            c = copy.deepcopy(e) if clone else e
            c.set(cid_pid, pmap[e.get(cid_pid)])
            if clone:
                new = self.ids.hex()
                while new in self.durable_taken:
                    new = self.ids.hex()
                self.durable_taken.add(new)
                durable[e.get(cid_dur)] = new
                c.set(cid_dur, new)
                ids.append(c)
        for e in [e for e in (cex if cex is not None else []) if e.get(cex_dur) in durable]:
            c = copy.deepcopy(e)
            c.set(cex_dur, durable[e.get(cex_dur)])
            cex.append(c)

    def build(self, repeats: int, close_sections: bool) -> None:
        body = self.parts[self.main].find(w("body"))
        final_sect = body[-1] if len(body) and body[-1].tag == w("sectPr") else None
        items = [c for c in body if c is not final_sect]
        originals = [copy.deepcopy(c) for c in items]
        for c in items:
            body.remove(c)
        # copy 0 is the original: only clashing paraId/textId values change
        self.fix_hex_ids(items)
        for kind in NOTE_PARTS:
            if kind in self.parts:
                pmap = self.fix_hex_ids(self.parts[kind])
                if kind == "comments":
                    self.comment_extras(pmap, clone=False)
        copies = [items]
        for k in range(1, repeats):
            clone = [copy.deepcopy(c) for c in originals]
            ctx = {"ann_id": {}, "notes": {}, "comment_paras": {},
                   "bm_name": {n: self.new_bookmark_name(n, k) for n in self.orig_bookmark_names}}
            self.fix_hex_ids(clone)
            self.rewrite_copy(clone, k, ctx)
            self.comment_extras(ctx["comment_paras"], clone=True)
            copies.append(clone)
        for k, elements in enumerate(copies):
            if close_sections and final_sect is not None and k < repeats - 1:
                _close_section(elements, final_sect)
            for c in elements:
                if final_sect is not None:
                    final_sect.addprevious(c)
                else:
                    body.append(c)

    def package(self) -> bytes:
        new = {}
        for kind, root in self.parts.items():
            xml = _xml(root)
            if xml != self.original_xml[kind]:  # unchanged parts keep their bytes
                new[self.rels[kind]] = xml
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w") as zout:
            for info in self.zin.infolist():
                data = new[info.filename] if info.filename in new else self.zin.read(info.filename)
                zout.writestr(info, data)
        return out.getvalue()


def _close_section(elements: list, final_sect: etree._Element) -> None:
    """End a copy with the original final section's properties."""
    last = elements[-1]
    if last.tag != w("p"):
        last = etree.Element(w("p"))
        elements.append(last)
    ppr = last.find(w("pPr"))
    if ppr is None:
        ppr = etree.Element(w("pPr"))
        last.insert(0, ppr)
    if ppr.find(w("sectPr")) is not None:
        return
    sect = copy.deepcopy(final_sect)
    change = ppr.find(w("pPrChange"))  # CT_PPr order: ..., rPr, sectPr, pPrChange
    if change is not None:
        change.addprevious(sect)
    else:
        ppr.append(sect)


def build_long(src: str | Path | bytes, repeats: int = 10, close_sections: bool = True) -> bytes:
    """Repeat the body of the .docx ``src`` ``repeats`` times (see module doc)."""
    if repeats < 1:
        raise ValueError("repeats must be >= 1")
    data = src if isinstance(src, bytes) else Path(src).read_bytes()
    with zipfile.ZipFile(io.BytesIO(data)) as zin:
        copier = _Copier(zin)
        copier.build(repeats, close_sections)
        return copier.package()


def build_long_nvca(repeats: int = 10) -> bytes:
    """The NVCA stock purchase agreement body repeated ``repeats`` times."""
    return build_long(NVCA, repeats)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Write the long NVCA benchmark document.")
    ap.add_argument("out", type=Path, help="output .docx path")
    ap.add_argument("--repeats", type=int, default=10)
    ap.add_argument("--src", type=Path, default=NVCA, help="source .docx (default: the NVCA agreement)")
    args = ap.parse_args(argv)
    data = build_long(args.src, args.repeats)
    args.out.write_bytes(data)
    print(f"wrote {args.out} ({len(data) / 1e6:.1f} MB, {args.repeats} copies of {args.src.name})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
