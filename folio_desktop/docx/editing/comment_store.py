"""Writing comments the way Word does (spec §2.9, §2.11, §2.12, §3.6 commentOnRange, §7.1).

A Word comment lives in up to five places, all kept consistent here:

* ``comments.xml``: ``<w:comment w:id w:author w:date w:initials>`` holding paragraphs, the first
  starting with an ``annotationRef`` run; each paragraph carries a ``w14:paraId``/``w14:textId``.
* ``commentsExtended.xml``: ``<w15:commentEx w15:paraId=<last paragraph> w15:done>``, plus
  ``w15:paraIdParent=<thread root's paraId>`` for a reply. Word threads are flat: every reply names
  the thread root. Word 2013 previews wrote this part in a namespace of their own
  (``.../word/2010/11/wordml``); entries are written in whatever namespace the part already uses.
* ``commentsIds.xml``: ``<w16cid:commentId w16cid:paraId w16cid:durableId>``.
* ``commentsExtensible.xml`` (only when the document already has it): ``<w16cex:commentExtensible
  w16cex:durableId w16cex:dateUtc>``. This module never creates that part.
* the stories (main, headers, footers, notes): ``commentRangeStart``/``commentRangeEnd`` around the
  anchored text and a run holding ``commentReference``.

Comment ids (spec §7.1) come from a cursor seeded from the clock and incremented, skipping ids in
use (comment_ids.py, where ``MAX_COMMENT_ID`` says why the seed is the epoch in seconds).
"""

from __future__ import annotations

import posixpath
import re
import secrets
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from lxml import etree

from ..package.ooxml import (
    MC_NS,
    W14_NS,
    W14_PARA_ID,
    W14_TEXT_ID,
    W15_NS,
    W_NS,
    W_P,
    W_PPR,
    W_R,
    W_RPR,
    W_T,
    w,
)
from ..package.opc import CT_NS
from ..package.xmlns import MC_IGNORABLE, declare_ignorable_namespace
from ..reading.comments import W15_NAMESPACES
from .comment_ids import MAX_COMMENT_ID, MAX_DURABLE_ID, MAX_PARA_ID, CommentIds, _int_id

if TYPE_CHECKING:
    from ..model.document import Document

W16CID_NS = "http://schemas.microsoft.com/office/word/2016/wordml/cid"
W16CEX_NS = "http://schemas.microsoft.com/office/word/2018/wordml/cex"
XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"

RT_COMMENTS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/comments"
RT_COMMENTS_EXTENDED = "http://schemas.microsoft.com/office/2011/relationships/commentsExtended"
RT_COMMENTS_IDS = "http://schemas.microsoft.com/office/2016/09/relationships/commentsIds"
CT_COMMENTS = "application/vnd.openxmlformats-officedocument.wordprocessingml.comments+xml"
CT_COMMENTS_EXTENDED = "application/vnd.openxmlformats-officedocument.wordprocessingml.commentsExtended+xml"
CT_COMMENTS_IDS = "application/vnd.openxmlformats-officedocument.wordprocessingml.commentsIds+xml"

_COMMENT_TAGS = (w("commentRangeStart"), w("commentRangeEnd"), w("commentReference"))
_W_ID = w("id")
_DISPLACED = w("displacedByCustomXml")
# Containers whose children are blocks (a run placed there would be invalid); a w:p ancestor met
# first means the marker sits inside a paragraph.
_BLOCK_CONTAINERS = {w(t) for t in ("body", "tc", "tr", "tbl", "txbxContent", "hdr", "ftr", "footnote",
                                    "endnote", "comment", "docPartBody", "document", "footnotes", "endnotes")}
# XML 1.0 forbids these; text from a model or a clipboard can carry them.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_NEW_PART_NSMAP = {"w": W_NS, "w14": W14_NS, "w15": W15_NS, "w16cid": W16CID_NS, "mc": MC_NS}
_NEW_PART_IGNORABLE = "w14 w15 w16cid"


def utc_now() -> str:
    """Now, UTC, as Word writes comment dates: YYYY-MM-DDTHH:MM:SSZ."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def default_id_seed() -> int:
    """Epoch seconds folded into the signed 32-bit range (see MAX_COMMENT_ID)."""
    return int(time.time()) % (MAX_COMMENT_ID + 1)


def clean_text(text: str) -> str:
    """Line ends to \\n and characters XML 1.0 cannot carry removed."""
    return _NOT_XML.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))


def _last_paragraph(comment: etree._Element) -> etree._Element | None:
    paras = comment.findall(W_P)
    return paras[-1] if paras else None


def drop_keeping_tail(el: etree._Element) -> None:
    """Remove an element, keeping its tail text in place."""
    parent = el.getparent()
    if parent is None:
        return
    if el.tail:
        prev = el.getprevious()
        if prev is not None:
            prev.tail = (prev.tail or "") + el.tail
        else:
            parent.text = (parent.text or "") + el.tail
    parent.remove(el)


def _in_paragraph(el: etree._Element) -> bool:
    anc = el.getparent()
    while anc is not None:
        if anc.tag == W_P:
            return True
        if anc.tag in _BLOCK_CONTAINERS:
            return False
        anc = anc.getparent()
    return False


class CommentStore(CommentIds):
    """Adds, threads, resolves, edits and removes comments in one Document's package."""

    def __init__(self, doc: Document, *, id_seed: int | None = None, shared: dict | None = None,
                 invalidate: bool = True):
        self.doc = doc
        self.package = doc.package
        seed = default_id_seed() if id_seed is None else id_seed
        self._cursor = min(max(seed, 0), MAX_COMMENT_ID)
        self._allocated: set[int] = set()
        # the id scans read every story: done once for this store, or once for as long as `shared`
        # lives (the operation engine's, which adds the ids its batches give out and drops them when
        # the document goes back to an earlier state)
        self._shared = shared if shared is not None else {}
        # whether each change counts as one for the document (the engine counts its batch once)
        self._invalidate = invalidate

    def _fresh_hex(self, used: set[str], limit: int) -> str:
        while True:
            value = f"{secrets.randbelow(limit) + 1:08X}"
            if value not in used:
                used.add(value)
                return value

    # -- parts ------------------------------------------------------------------------------------

    def _part(self, rel_suffix: str) -> str | None:
        return self.doc.related_part(rel_suffix)

    def _new_part_name(self, base: str) -> str:
        pkg = self.package
        folder = posixpath.dirname(self.doc.main_part)
        overrides = {(el.get("PartName") or "").lstrip("/").lower()
                     for el in pkg.xml("[Content_Types].xml").iter(f"{{{CT_NS}}}Override")}
        n = 0
        while True:
            name = posixpath.join(folder, f"{base}{n or ''}.xml")
            if not pkg.has_part(name) and name.lower() not in overrides:
                return name
            n += 1

    def _create_part(self, base: str, root_tag: str, rel_type: str, content_type: str) -> str:
        root = etree.Element(root_tag, nsmap=_NEW_PART_NSMAP)
        root.set(MC_IGNORABLE, _NEW_PART_IGNORABLE)
        name = self._new_part_name(base)
        self.package.add_part(name, root, content_type)
        self.package.add_relationship(self.doc.main_part, rel_type, name)
        return name

    def _comments_root(self, create: bool) -> etree._Element | None:
        part = self._part("comments")
        if part is None:
            if not create:
                return None
            part = self._create_part("comments", w("comments"), RT_COMMENTS, CT_COMMENTS)
        return self.package.xml(part)

    def _ext_root(self, create: bool) -> tuple[etree._Element | None, str]:
        """commentsExtended's root and the w15 namespace it is written in."""
        part = self._part("commentsExtended")
        if part is None:
            if not create:
                return None, W15_NS
            part = self._create_part("commentsExtended", f"{{{W15_NS}}}commentsEx", RT_COMMENTS_EXTENDED,
                                     CT_COMMENTS_EXTENDED)
        root = self.package.xml(part)
        ns = etree.QName(root).namespace
        return root, ns if ns in W15_NAMESPACES else W15_NS

    def _ids_root(self, create: bool) -> etree._Element | None:
        part = self._part("commentsIds")
        if part is None:
            if not create:
                return None
            part = self._create_part("commentsIds", f"{{{W16CID_NS}}}commentsIds", RT_COMMENTS_IDS, CT_COMMENTS_IDS)
            root = self.package.xml(part)
            self._backfill_ids(root)
            return root
        return self.package.xml(part)

    def _cex_root(self) -> etree._Element | None:
        part = self._part("commentsExtensible")
        return self.package.xml(part) if part is not None else None

    def _dirty(self, root: etree._Element | None) -> None:
        if root is None:
            return
        for name in self._part_names_of(root):
            self.package.mark_dirty(name)

    def _part_names_of(self, root: etree._Element) -> Iterator[str]:
        for suffix in ("comments", "commentsExtended", "commentsIds", "commentsExtensible"):
            part = self._part(suffix)
            if part is not None and self.package.xml(part) is root:
                yield part

    # -- stories ----------------------------------------------------------------------------------

    def _stories(self) -> list[tuple[str, etree._Element]]:
        """(part, root) of every part that holds a story: main, headers, footers, footnotes, endnotes."""
        doc, pkg = self.doc, self.package
        parts = [doc.main_part]
        for kind in ("header", "footer", "footnotes", "endnotes"):
            for rel in pkg.related(doc.main_part, kind):
                name = pkg.canonical_name(rel.target)
                if name not in parts:
                    parts.append(name)
        return [(part, pkg.xml(part)) for part in parts]

    def mark_story_dirty(self, part: str) -> None:
        """Mark a story part dirty after placing comment markers in it (anchor_markers callers).

        The engine stamps w14:paraIds into paragraphs in memory (Document.ensure_para_ids); when the
        part's root never declared w14 they would be written with a stray ``ns0`` prefix and without
        ``mc:Ignorable``, which does not validate. The declaration is added first.
        """
        root = self.package.xml(part)
        if root.xpath("boolean(//@*[namespace-uri()=$ns])", ns=W14_NS):
            declare_ignorable_namespace(root, W14_NS, "w14")
        self.package.mark_dirty(part)
        if self._invalidate:
            self.doc.invalidate()

    def _markers(self, comment_id: int) -> tuple[list, list, list]:
        starts, ends, refs = [], [], []
        sid = str(comment_id)
        for part, root in self._stories():
            for el in root.iter(*_COMMENT_TAGS):
                raw = el.get(_W_ID)
                if raw is None or raw.strip() != sid:
                    continue
                bucket = starts if el.tag == _COMMENT_TAGS[0] else ends if el.tag == _COMMENT_TAGS[1] else refs
                bucket.append((part, el))
        return starts, ends, refs

    # -- element builders -------------------------------------------------------------------------

    def _has_style(self, style_id: str, kind: str) -> bool:
        style = self.doc.styles.by_id.get(style_id)
        return style is not None and style.type == kind

    def anchor_markers(self, comment_id: int) -> tuple[etree._Element, etree._Element, etree._Element]:
        """New, unattached commentRangeStart, commentRangeEnd and reference run for an id, for callers
        that place the range themselves (call mark_story_dirty(part) afterwards)."""
        start = etree.Element(w("commentRangeStart"), nsmap={"w": W_NS})
        start.set(_W_ID, str(comment_id))
        end = etree.Element(w("commentRangeEnd"), nsmap={"w": W_NS})
        end.set(_W_ID, str(comment_id))
        return start, end, self._reference_run(comment_id)

    def _reference_run(self, comment_id: int) -> etree._Element:
        run = etree.Element(W_R, nsmap={"w": W_NS})
        if self._has_style("CommentReference", "character"):
            etree.SubElement(etree.SubElement(run, W_RPR), w("rStyle")).set(w("val"), "CommentReference")
        etree.SubElement(run, w("commentReference")).set(_W_ID, str(comment_id))
        return run

    def _comment_element(self, comment_id: int, text: str, author: str, initials: str | None, date: str,
                         used_para_ids: set[str]) -> etree._Element:
        el = etree.Element(w("comment"), nsmap={"w": W_NS, "w14": W14_NS})
        el.set(_W_ID, str(comment_id))
        el.set(w("author"), clean_text(author))
        el.set(w("date"), date)
        if initials is not None:
            el.set(w("initials"), clean_text(initials))
        para_style = self._has_style("CommentText", "paragraph")
        ref_style = self._has_style("CommentReference", "character")
        for index, line in enumerate(clean_text(text).split("\n")):
            p = etree.SubElement(el, W_P)
            p.set(W14_PARA_ID, self._fresh_hex(used_para_ids, MAX_PARA_ID))
            p.set(W14_TEXT_ID, self._fresh_hex(used_para_ids, MAX_PARA_ID))
            if para_style:
                etree.SubElement(etree.SubElement(p, W_PPR), w("pStyle")).set(w("val"), "CommentText")
            if index == 0:
                run = etree.SubElement(p, W_R)
                if ref_style:
                    etree.SubElement(etree.SubElement(run, W_RPR), w("rStyle")).set(w("val"), "CommentReference")
                etree.SubElement(run, w("annotationRef"))
            if line:
                run = etree.SubElement(p, W_R)
                for n, piece in enumerate(line.split("\t")):
                    if n:
                        etree.SubElement(run, w("tab"))
                    if piece:
                        t = etree.SubElement(run, W_T)
                        t.text = piece
                        if piece != piece.strip() or "  " in piece:
                            t.set(XML_SPACE, "preserve")
        return el

    # -- comments.xml lookups ---------------------------------------------------------------------

    def _comment_index(self) -> dict[int, etree._Element]:
        root = self._comments_root(create=False)
        out: dict[int, etree._Element] = {}
        if root is None:
            return out
        for el in root.iterchildren(w("comment")):
            cid = _int_id(el)
            if cid is not None:
                out.setdefault(cid, el)
        return out

    def _ex_entries(self) -> Iterator[tuple[etree._Element, str]]:
        root, _ns = self._ext_root(create=False)
        if root is None:
            return
        for ns in W15_NAMESPACES:
            for ex in root.iter(f"{{{ns}}}commentEx"):
                yield ex, ns

    def _para_id(self, comment: etree._Element) -> str | None:
        p = _last_paragraph(comment)
        return p.get(W14_PARA_ID) if p is not None else None

    def _ensure_para_id(self, comment: etree._Element) -> str:
        """The comment's last paragraph's paraId, assigned (w14 declared on comments.xml) if missing."""
        p = _last_paragraph(comment)
        if p is not None and p.get(W14_PARA_ID):
            return p.get(W14_PARA_ID)
        root = comment.getparent()
        declare_ignorable_namespace(root, W14_NS, "w14")
        used = self._used_para_ids()
        if p is None:
            p = etree.SubElement(comment, W_P)
        p.set(W14_PARA_ID, self._fresh_hex(used, MAX_PARA_ID))
        if not p.get(W14_TEXT_ID):
            p.set(W14_TEXT_ID, self._fresh_hex(used, MAX_PARA_ID))
        self._dirty(root)
        return p.get(W14_PARA_ID)

    def _thread_root(self, comment_id: int) -> etree._Element:
        """The root of the thread a comment belongs to (itself when it is a root); KeyError if unknown."""
        index = self._comment_index()
        comment = index.get(comment_id)
        if comment is None:
            raise KeyError(comment_id)
        parent_of: dict[str, str] = {}
        for ex, ns in self._ex_entries():
            pid, parent = ex.get(f"{{{ns}}}paraId"), ex.get(f"{{{ns}}}paraIdParent")
            if pid and parent:
                parent_of.setdefault(pid, parent)
        by_para: dict[str, etree._Element] = {}
        for el in index.values():
            pid = self._para_id(el)
            if pid:
                by_para.setdefault(pid, el)
        current, seen = comment, set()
        while True:
            parent = parent_of.get(self._para_id(current) or "")
            if not parent or parent in seen:
                return current
            seen.add(parent)
            candidate = by_para.get(parent)
            if candidate is None or candidate is current:
                return current
            current = candidate

    def _ensure_ex_entry(self, para_id: str) -> tuple[etree._Element, str]:
        for ex, ns in self._ex_entries():
            if ex.get(f"{{{ns}}}paraId") == para_id:
                return ex, ns
        root, ns = self._ext_root(create=True)
        ex = etree.SubElement(root, f"{{{ns}}}commentEx")
        ex.set(f"{{{ns}}}paraId", para_id)
        ex.set(f"{{{ns}}}done", "0")
        self._dirty(root)
        return ex, ns

    def _used_durable_ids(self) -> set[str]:
        used: set[str] = set()
        for root in (self._ids_root(create=False), self._cex_root()):
            if root is not None:
                used.update(v.upper() for v in root.xpath("//@*[local-name()='durableId']"))
        return used

    def _add_id_entry(self, root: etree._Element, para_id: str, used: set[str]) -> str:
        durable = self._fresh_hex(used, MAX_DURABLE_ID)
        entry = etree.SubElement(root, f"{{{W16CID_NS}}}commentId")
        entry.set(f"{{{W16CID_NS}}}paraId", para_id)
        entry.set(f"{{{W16CID_NS}}}durableId", durable)
        return durable

    def _backfill_ids(self, ids_root: etree._Element) -> None:
        """A new commentsIds part lists the comments that were there before it, as Word's would."""
        used = self._used_durable_ids()
        for comment in self._comment_index().values():
            pid = self._para_id(comment)
            if pid:
                self._add_id_entry(ids_root, pid, used)

    def _ensure_id_entry(self, para_id: str) -> None:
        root = self._ids_root(create=False)
        if root is None:
            return
        if any(e.get(f"{{{W16CID_NS}}}paraId") == para_id for e in root.iter(f"{{{W16CID_NS}}}commentId")):
            return
        self._add_id_entry(root, para_id, self._used_durable_ids())
        self._dirty(root)

    # -- public operations ------------------------------------------------------------------------

    def add(self, text: str, author: str, *, initials: str | None = None, date: str | None = None,
            parent_id: int | None = None) -> int:
        """Append a comment (a reply to ``parent_id``'s thread root when given) and return its id.

        Only the comment parts change; anchor it with anchor_markers() or use reply()."""
        parent_para = None
        if parent_id is not None:
            thread_root = self._thread_root(parent_id)
            parent_para = self._ensure_para_id(thread_root)
            self._ensure_ex_entry(parent_para)
        date = date or utc_now()
        comments = self._comments_root(create=True)
        ext, ns = self._ext_root(create=True)
        ids = self._ids_root(create=True)
        if parent_para is not None:
            self._ensure_id_entry(parent_para)
        comment_id = self.allocate_id()
        comment = self._comment_element(comment_id, text, author, initials, date, self._used_para_ids())
        comments.append(comment)
        # declared once the paraIds are in the tree: a declaration nothing uses yet is cleaned away
        declare_ignorable_namespace(comments, W14_NS, "w14")
        para_id = self._para_id(comment)
        ex = etree.SubElement(ext, f"{{{ns}}}commentEx")
        ex.set(f"{{{ns}}}paraId", para_id)
        if parent_para is not None:
            ex.set(f"{{{ns}}}paraIdParent", parent_para)
        ex.set(f"{{{ns}}}done", "0")
        durable = self._add_id_entry(ids, para_id, self._used_durable_ids())
        cex = self._cex_root()
        if cex is not None:
            entry = etree.Element(f"{{{W16CEX_NS}}}commentExtensible")
            entry.set(f"{{{W16CEX_NS}}}durableId", durable)
            entry.set(f"{{{W16CEX_NS}}}dateUtc", date)
            ext_lst = cex.find(f"{{{W16CEX_NS}}}extLst")
            if ext_lst is not None:
                ext_lst.addprevious(entry)
            else:
                cex.append(entry)
            self._dirty(cex)
        for root in (comments, ext, ids):
            self._dirty(root)
        if self._invalidate:
            self.doc.invalidate()
        return comment_id

    def reply(self, parent_id: int, text: str, author: str, initials: str | None = None) -> int:
        """Reply to a comment's thread (a reply to a reply attaches to the root) with its own range
        markers on the root's range, in whatever story holds it. KeyError for an unknown id."""
        thread_root = self._thread_root(parent_id)
        root_id = _int_id(thread_root)
        new_id = self.add(text, author, initials=initials, parent_id=root_id)
        starts, ends, refs = self._markers(root_id)
        touched: list[str] = []
        if starts and ends:
            for part, el in starts:
                el.addnext(self._copy_marker(el, new_id))
                touched.append(part)
            for part, el in ends:
                new_end = self._copy_marker(el, new_id)
                el.addnext(new_end)
                self._place_reference_run(new_end, self._reference_run(new_id))
                touched.append(part)
        else:
            for part, ref in refs:
                run = ref.getparent()
                if run is None or run.tag != W_R:
                    continue
                run.addnext(self._reference_run(new_id))
                touched.append(part)
        for part in dict.fromkeys(touched):
            self.mark_story_dirty(part)
        if self._invalidate:
            self.doc.invalidate()
        return new_id

    def reply_places(self, parent_id: int) -> list[tuple[str, etree._Element]]:
        """Where reply() writes in the stories: beside the thread root's range markers, or its
        reference runs when it has no range ((part, element) pairs). KeyError for an unknown id."""
        starts, ends, refs = self._markers(_int_id(self._thread_root(parent_id)))
        return starts + ends + refs if starts and ends else refs

    def _copy_marker(self, marker: etree._Element, comment_id: int) -> etree._Element:
        el = etree.Element(marker.tag, nsmap={"w": W_NS})
        el.set(_W_ID, str(comment_id))
        if marker.get(_DISPLACED) is not None:
            el.set(_DISPLACED, marker.get(_DISPLACED))
        return el

    def _place_reference_run(self, end: etree._Element, run: etree._Element) -> None:
        """Right after the range end when that is inside a paragraph; a block-level end (body, cell,
        row) takes the reference at the end of the paragraph before it, or else at the start of the
        paragraph after it."""
        if _in_paragraph(end):
            end.addnext(run)
            return
        node = end
        while node is not None and node.tag not in (w("document"), w("hdr"), w("ftr"), w("footnotes"),
                                                     w("endnotes")):
            for sib in node.itersiblings(preceding=True):
                paras = [sib] if sib.tag == W_P else list(sib.iter(W_P))
                if paras:
                    paras[-1].append(run)
                    return
            for sib in node.itersiblings():
                para = sib if sib.tag == W_P else next(sib.iter(W_P), None)
                if para is not None:
                    ppr = para.find(W_PPR)
                    para.insert(para.index(ppr) + 1 if ppr is not None else 0, run)
                    return
            node = node.getparent()
        end.addnext(run)  # a story with no paragraph at all: nothing better exists

    def set_done(self, comment_id: int, done: bool) -> bool:
        """Resolve (done=True) or reopen one comment; its replies keep their own flags.
        Creates the commentEx entry (and part) when missing. False when there is no such comment."""
        comment = self._comment_index().get(comment_id)
        if comment is None:
            return False
        para_id = self._ensure_para_id(comment)
        ex, ns = self._ensure_ex_entry(para_id)
        ex.set(f"{{{ns}}}done", "1" if done else "0")
        self._dirty(ex.getroottree().getroot())
        if self._invalidate:
            self.doc.invalidate()
        return True

    def places(self, comment_ids) -> list[tuple[str, etree._Element]]:
        """The range markers and reference runs of these comments in every story, in document order
        ((part, element) pairs): where deleting them writes in the stories."""
        wanted = {str(i) for i in comment_ids}
        return [(part, el) for part, root in self._stories() for el in root.iter(*_COMMENT_TAGS)
                if (el.get(_W_ID) or "").strip() in wanted]

    def set_text(self, comment_id: int, text: str) -> bool:
        """Give a comment new text (a paragraph per line), keeping its id, author, date and initials
        and its last paragraph's paraId, which its commentsExtended and commentsIds entries name: its
        thread, done flag and durable id stay. False when there is no such comment."""
        comment = self._comment_index().get(comment_id)
        if comment is None:
            return False
        kept = self._para_id(comment)
        root = comment.getparent()
        paras = self._comment_element(comment_id, text, "", None, "", self._used_para_ids()).findall(W_P)
        if kept:
            paras[-1].set(W14_PARA_ID, kept)
        for child in list(comment):
            comment.remove(child)
        comment.extend(paras)
        declare_ignorable_namespace(root, W14_NS, "w14")
        self._dirty(root)
        if self._invalidate:
            self.doc.invalidate()
        return True

    def delete(self, comment_ids) -> list[int]:
        """Remove these comments (remove()), returning the ids that were there. A reply left behind
        whose commentEx names one of them as its parent is given that one's own parent first (or
        none), so a thread of replies to replies keeps its root."""
        index = self._comment_index()
        doomed = [i for i in dict.fromkeys(comment_ids) if i in index]
        gone = {self._para_id(index[i]) for i in doomed} - {None}
        entries = list(self._ex_entries())
        parent_of = {ex.get(f"{{{ns}}}paraId"): ex.get(f"{{{ns}}}paraIdParent") for ex, ns in entries}
        for ex, ns in entries:
            parent, seen = ex.get(f"{{{ns}}}paraIdParent"), set()
            if parent not in gone or ex.get(f"{{{ns}}}paraId") in gone:
                continue
            while parent in gone and parent not in seen:
                seen.add(parent)
                parent = parent_of.get(parent)
            if parent:
                ex.set(f"{{{ns}}}paraIdParent", parent)
            else:
                del ex.attrib[f"{{{ns}}}paraIdParent"]
            self._dirty(ex.getroottree().getroot())
        for comment_id in doomed:
            self.remove(comment_id)
        return doomed

    def remove(self, comment_id: int) -> None:
        """Remove a comment everywhere: comments.xml, its commentEx/commentId/commentExtensible
        entries, and its range markers and reference runs in every story. Replies are not cascaded
        (undo removes each comment it created). Unknown ids remove nothing."""
        para_ids: set[str] = set()
        comments = self._comments_root(create=False)
        if comments is not None:
            doomed = [el for el in comments.iterchildren(w("comment")) if _int_id(el) == comment_id]
            for el in doomed:
                pid = self._para_id(el)
                if pid:
                    para_ids.add(pid)
                drop_keeping_tail(el)
            if doomed:
                self._dirty(comments)
        if para_ids:
            ext, _ns = self._ext_root(create=False)
            hit = [ex for ex, ns in self._ex_entries() if ex.get(f"{{{ns}}}paraId") in para_ids]
            for ex in hit:
                drop_keeping_tail(ex)
            if hit:
                self._dirty(ext)
            durables: set[str] = set()
            ids = self._ids_root(create=False)
            if ids is not None:
                entries = [e for e in ids.iter(f"{{{W16CID_NS}}}commentId")
                           if e.get(f"{{{W16CID_NS}}}paraId") in para_ids]
                for e in entries:
                    durables.add((e.get(f"{{{W16CID_NS}}}durableId") or "").upper())
                    drop_keeping_tail(e)
                if entries:
                    self._dirty(ids)
            cex = self._cex_root()
            if cex is not None and durables:
                entries = [e for e in cex.iter(f"{{{W16CEX_NS}}}commentExtensible")
                           if (e.get(f"{{{W16CEX_NS}}}durableId") or "").upper() in durables]
                for e in entries:
                    drop_keeping_tail(e)
                if entries:
                    self._dirty(cex)
        starts, ends, refs = self._markers(comment_id)
        touched: list[str] = []
        for part, el in starts + ends:
            drop_keeping_tail(el)
            touched.append(part)
        for part, ref in refs:
            run = ref.getparent()
            if run is not None and run.tag == W_R and all(ch.tag in (W_RPR, ref.tag) or not isinstance(ch.tag, str)
                                                          for ch in run):
                drop_keeping_tail(run)
            else:
                drop_keeping_tail(ref)
            touched.append(part)
        for part in dict.fromkeys(touched):
            self.mark_story_dirty(part)
        if self._invalidate:
            self.doc.invalidate()


__all__ = [
    "CommentStore",
    "MAX_COMMENT_ID",
    "RT_COMMENTS",
    "RT_COMMENTS_EXTENDED",
    "RT_COMMENTS_IDS",
    "clean_text",
    "declare_ignorable_namespace",
    "utc_now",
]
