"""The in-memory document: the package, its main part, styles, numbering and stories.

One Document owns the lxml trees; the reviewer, the layout and the view all read the same trees.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from dataclasses import dataclass

from lxml import etree

from ..errors import CorruptDocxError, DocxError
from ..package import limits as content_limits
from ..package.ooxml import (
    MC_FALLBACK,
    W14_NS,
    W14_PARA_ID,
    W14_TEXT_ID,
    W_BODY,
    W_NS,
    W_P,
    W_RPR,
    W_T,
    W_VAL,
    ancestor,
    on_off,
    w,
)
from ..package.opc import Package
from ..package.xmlns import declare_ignorable_namespace
from .numbering import Numbering
from .styles import HiddenStyles, Styles
from .textkit import deterministic_para_id

NOTE_SEPARATOR_TYPES = ("separator", "continuationSeparator", "continuationNotice")
_FORMAT_TOGGLES = (("b", "bold"), ("i", "italic"), ("strike", "strike"))
_W_DELTEXT = w("delText")


@dataclass(frozen=True)
class Story:
    """A story handle (spec §6.2) plus where its XML lives."""

    type: str  # main | header | footer | footnote | endnote
    part: str
    relationship_id: str | None = None
    note_id: int | None = None

    @property
    def key(self) -> str:
        if self.type == "main":
            return "main"
        if self.type in ("header", "footer"):
            return f"{self.type}:{self.relationship_id}"
        return f"{self.type}:{self.note_id}"

    def handle(self) -> dict:
        if self.type == "main":
            return {"type": "main"}
        if self.type in ("header", "footer"):
            return {"type": self.type, "relationshipId": self.relationship_id}
        return {"type": self.type, "noteId": self.note_id}


class Document:
    def __init__(self, package: Package, build_snapshot, patch_snapshot):
        """build_snapshot(doc, container, positional_ids) reads a story's blocks and
        patch_snapshot(doc, snapshot, paragraphs) reads edited paragraphs again (reading.snapshot's
        build_snapshot and patched): the reading layer sits above the model, so its reader is passed in."""
        self.package = package
        self._build_snapshot = build_snapshot
        self._patch_snapshot = patch_snapshot
        self.main_part = package.main_document_part()
        # past the content limits a document is refused before any of its paragraphs is read
        root, count_text = package.main_tree(self.main_part)
        if count_text:
            content_limits.check_tree(root, self.main_part)
        if root.tag != w("document"):
            raise CorruptDocxError(
                f"The main part {self.main_part} is not a WordprocessingML document (root is {root.tag}).",
                self.main_part,
            )
        self.root = root
        body = root.find(W_BODY)
        if body is None:
            body = etree.SubElement(root, W_BODY)
        self.body = body
        self.styles = Styles(self._related_xml("styles"))
        self.numbering = Numbering(self._related_xml("numbering"), self.styles)
        styles = self.styles
        self.hidden_character_styles = HiddenStyles(
            (sid for sid, st in styles.by_id.items()
             if st.type == "character" and styles.run_flag(sid, "vanish") is True),
            (sid for sid, st in styles.by_id.items()
             if st.type == "paragraph" and styles.run_flag(None, "vanish", para_style=sid) is True),
            styles.default_paragraph_style,
            styles.run_flag(None, "vanish") is True,
        )
        self.version = 0  # bumped by every change to the document (edits, accepts, comments, undo)
        self.positional_ids: set[str] = set()
        self._stamped: set[str] = set()
        with collector_paused():
            self.ensure_para_ids(self.main_part, self.root)
        self._format_cache: dict = {}
        self._snapshot = None  # the body's reading.blocks.Snapshot, read on demand
        self._stories: list[Story] | None = None
        self._story_snapshots: dict[str, tuple] = {}  # other stories, by key: (container, Snapshot)
        self._note_maps: dict[tuple[str, str], tuple[etree._Element, dict]] = {}
        self._derived: tuple[int | None, dict] = (None, {})  # derived(): (the version they were read at, views)

    # -- parts --------------------------------------------------------------------------------

    def _related_xml(self, rel_suffix: str, source: str | None = None) -> etree._Element | None:
        rels = self.package.related(source or self.main_part, rel_suffix)
        if not rels:
            return None
        return self.package.xml(rels[0].target)

    def related_part(self, rel_suffix: str) -> str | None:
        rels = self.package.related(self.main_part, rel_suffix)
        return rels[0].target if rels else None

    def optional_part_xml(self, rel_suffix: str) -> etree._Element | None:
        """The root of the main part's related part (settings, styles, numbering), or None when there is
        none or it cannot be read: layout then falls back to Word's defaults rather than refusing."""
        part = self.related_part(rel_suffix)
        if part is None:
            return None
        try:
            return self.package.xml(part)
        except (DocxError, KeyError):
            return None

    # -- paraIds --------------------------------------------------------------------------------

    def ensure_para_ids(self, part: str, root: etree._Element) -> None:
        """Give every paragraph of a part a unique w14:paraId, deterministically (spec §5.2).

        Ids are derived from the paragraph's full text and ordinal, so the same bytes always yield
        the same ids. They are stamped into the tree in memory only; the part is written with them
        only when an edit dirties it, so opening and saving without edits changes nothing.
        """
        if part in self._stamped:
            return
        self._stamped.add(part)
        fallback = {p for fb in root.iter(MC_FALLBACK) for p in fb.iter(W_P)}
        claimed: set[str] = set()
        for p in root.iter(W_P):  # first, whether any paragraph needs an id (Word gives every one its own)
            if fallback and p in fallback:
                continue
            pid = p.get(W14_PARA_ID)
            if not pid or pid in claimed or pid.startswith(("seq-", "blank-")):
                break
            claimed.add(pid)
        else:
            return
        paragraphs = [p for p in root.iter(W_P) if p not in fallback]
        existing = {p.get(W14_PARA_ID) for p in paragraphs}
        claimed.clear()
        stamped = False
        for ordinal, p in enumerate(paragraphs, start=1):
            pid = p.get(W14_PARA_ID)
            if pid and pid not in claimed and not pid.startswith(("seq-", "blank-")):
                claimed.add(pid)
                continue
            seed = f"{full_text(p)}:{ordinal}"
            candidate = deterministic_para_id(seed)
            salt = 1
            while candidate in claimed or candidate in existing:
                candidate = deterministic_para_id(f"{seed}:{salt}")
                salt += 1
            p.set(W14_PARA_ID, candidate)
            p.set(W14_TEXT_ID, candidate)
            claimed.add(candidate)
            self.positional_ids.add(candidate)
            stamped = True
        if stamped and W14_NS not in root.nsmap.values():
            # declare w14 once on the root (and list it as ignorable) so an edited part serializes
            # cleanly; an unedited part is never written, so opening and saving changes nothing
            declare_ignorable_namespace(root, W14_NS, "w14")

    # -- stories --------------------------------------------------------------------------------

    def stories(self) -> list[Story]:
        """main, headers, footers (relationship order), footnotes, endnotes (separators excluded)."""
        if self._stories is not None:
            return self._stories
        out = [Story("main", self.main_part)]
        for kind in ("header", "footer"):
            for rel in self.package.related(self.main_part, kind):
                out.append(Story(kind, rel.target, relationship_id=rel.id))
        for kind in ("footnote", "endnote"):
            part = self.related_part(kind + "s")
            if part is None:
                continue
            root = self.package.xml(part)
            for note in root.iterchildren(w(kind)):
                if note.get(w("type")) in NOTE_SEPARATOR_TYPES:
                    continue
                raw = note.get(w("id"))
                try:
                    note_id = int(raw)
                except (TypeError, ValueError):
                    continue
                out.append(Story(kind, part, note_id=note_id))
        self._stories = out
        return out

    def find_story(self, handle: dict) -> Story | None:
        if not isinstance(handle, dict):
            return None
        kind = handle.get("type")
        for story in self.stories():
            if story.type != kind:
                continue
            if kind == "main":
                return story
            if kind in ("header", "footer") and story.relationship_id == handle.get("relationshipId"):
                return story
            if kind in ("footnote", "endnote") and story.note_id == handle.get("noteId") \
                    and not isinstance(handle.get("noteId"), bool):
                return story
        return None

    def story_container(self, story: Story) -> etree._Element:
        if story.type == "main":
            return self.body
        root = self.package.xml(story.part)
        self.ensure_para_ids(story.part, root)
        if story.type in ("header", "footer"):
            return root
        # one map per notes part, not a walk over every note per story (quadratic over ~1000 notes)
        cached = self._note_maps.get((story.part, story.type))
        note = cached[1].get(str(story.note_id)) if cached is not None and cached[0] is root else None
        if note is None or note.getparent() is not root or note.get(w("id")) != str(story.note_id):
            notes = {n.get(w("id")): n for n in reversed(list(root.iterchildren(w(story.type))))}
            self._note_maps[(story.part, story.type)] = (root, notes)
            note = notes.get(str(story.note_id))
        if note is None:
            raise KeyError(story.key)
        return note

    # -- snapshots ------------------------------------------------------------------------------

    def snapshot(self):
        """The body's blocks (a reading.blocks.Snapshot), read once and kept until an edit."""
        if self._snapshot is None:
            with collector_paused():
                self._snapshot = self._build_snapshot(self, self.body, self.positional_ids)
        return self._snapshot

    def snapshot_story(self, story: Story):
        if story.type == "main":
            return self.snapshot()
        container = self.story_container(story)
        cached = self._story_snapshots.get(story.key)
        if cached is None or cached[0] is not container:
            cached = self._story_snapshots[story.key] = (container, self._build_snapshot(self, container,
                                                                                 self.positional_ids))
        return cached[1]

    @property
    def snapshot_is_read(self) -> bool:
        """Is the body's snapshot at hand (not dropped by an edit since)?"""
        return self._snapshot is not None

    def adopt_snapshot(self, snapshot, stories: dict | None = None) -> None:
        """Take a body snapshot the caller derived for the document as it is now (reading.splice, after
        an edit that replaced a few sibling paragraphs), in place of reading the whole body again, and
        `stories`, the other stories' snapshots from before that edit (story_snapshots()), which an edit
        of the body's paragraphs alone leaves as they were."""
        if self._snapshot is None and snapshot is not None:
            self._snapshot = snapshot
            if stories and not self._story_snapshots:
                self._story_snapshots = dict(stories)

    def story_snapshots(self) -> dict:
        """The other stories' snapshots read so far (to hand back to adopt_snapshot)."""
        return dict(self._story_snapshots)

    def derived(self, key, compute):
        """What compute() reads from the document as it is now, computed once per version and kept until
        the next change (invalidate(), and reload() through it, forget it): the views the layers above
        read on every call, such as the read tools' census of changes and listings."""
        version, views = self._derived
        if version != self.version:
            views = {}
            self._derived = (self.version, views)
        if key not in views:
            views[key] = compute()
        return views[key]

    def invalidate(self, edited=None) -> None:
        """Forget derived views after an edit, and count the change. `edited`: the paragraphs an
        edit changed only the runs of; their blocks are read again and the rest of the snapshot
        kept, when that is safe (snapshot.patched)."""
        self._derived = (None, {})
        snap = self._snapshot
        self._snapshot = self._patch_snapshot(self, snap, edited) if edited and snap is not None else None
        if self._snapshot is None:
            # an edit of the body's text alone leaves the headers, footers and notes as they were
            self._story_snapshots = {}
        self._stories = None
        self.version += 1

    def protection(self) -> str | None:
        """The enforced w:documentProtection edit mode (readOnly, comments, trackedChanges, forms),
        or None when the document is not protected."""
        part = self.related_part("settings")
        if part is None:
            return None
        el = self.package.xml(part).find(w("documentProtection"))
        if el is None or not _enforced(el):
            return None
        return el.get(w("edit")) or None

    def reload_numbering(self) -> None:
        self.numbering = Numbering(self._related_xml("numbering"), self.styles)

    def reload(self) -> None:
        """Re-read the main part, styles and numbering after the package trees were restored."""
        self.root = self.package.xml(self.main_part)
        self.body = self.root.find(W_BODY)
        self.styles = Styles(self._related_xml("styles"))
        self.reload_numbering()
        self._format_cache = {}
        self.invalidate()

    # -- run formatting for previews ------------------------------------------------------------

    def run_preview_format(self, run: etree._Element, para_style: str | None) -> dict:
        """bold/italic/underline/strike as seen (styles included), font/size/colour when direct."""
        rpr = run.find(W_RPR)
        rstyle = None
        if rpr is not None:
            rs = rpr.find(w("rStyle"))
            if rs is not None:
                rstyle = rs.get(W_VAL)
        key = (rstyle, para_style)
        inherited = self._format_cache.get(key)
        if inherited is None:
            inherited = {}
            for tag, name in _FORMAT_TOGGLES:
                if self.styles.run_flag(rstyle, tag, para_style or self.styles.default_paragraph_style):
                    inherited[name] = True
            u = self._style_underline(rstyle, para_style)
            if u:
                inherited["underline"] = True
            self._format_cache[key] = inherited
        if rpr is None:
            return dict(inherited)
        out = dict(inherited)
        direct = False
        for tag, name in _FORMAT_TOGGLES:
            el = rpr.find(w(tag))
            if el is not None:
                direct = True
                if on_off(el):
                    out[name] = True
                else:
                    out.pop(name, None)
        u = rpr.find(w("u"))
        if u is not None:
            direct = True
            if u.get(W_VAL, "single") != "none":
                out["underline"] = True
            else:
                out.pop("underline", None)
        fonts = rpr.find(w("rFonts"))
        if fonts is not None and (fonts.get(w("ascii")) or fonts.get(w("hAnsi"))):
            out["fontFamily"] = fonts.get(w("ascii")) or fonts.get(w("hAnsi"))
            direct = True
        size = rpr.find(w("sz"))
        if size is not None:
            try:
                out["fontSizePt"] = int(size.get(W_VAL)) / 2
                direct = True
            except (TypeError, ValueError):
                pass
        color = rpr.find(w("color"))
        if color is not None and color.get(W_VAL) and color.get(W_VAL) != "auto":
            out["color"] = color.get(W_VAL).upper()
            direct = True
        if direct and out:
            out["directFormatting"] = True
        return out

    def _style_underline(self, rstyle: str | None, para_style: str | None) -> bool:
        for sid in (rstyle, para_style or self.styles.default_paragraph_style):
            for style in self.styles.chain(sid):
                if style.rpr is not None:
                    u = style.rpr.find(w("u"))
                    if u is not None:
                        return u.get(W_VAL, "single") != "none"
        return False


def full_text(p: etree._Element) -> str:
    """All text of a paragraph including tracked-deleted text (the paraId seed, spec §5.2)."""
    return "".join(el.text or "" for el in p.iter(W_T, _W_DELTEXT) if ancestor(el, W_P) is p)


@contextmanager
def collector_paused():
    """Python's cycle collector off while a story is read. A read allocates some fifteen objects a
    paragraph that all stay alive (blocks, anchors, preview runs), and every full collection walks
    all of them again: 0.8 s of a 40,000-paragraph open, growing faster than the document. The read
    makes no garbage cycles, so nothing is lost; the collector resumes when it is done."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _enforced(el) -> bool:
    value = el.get(w("enforcement"))
    return value is not None and value.lower() in ("1", "true", "on")


__all__ = ["Document", "Story", "NOTE_SEPARATOR_TYPES", "W_NS"]
