"""Remove every comment from a package: the range markers and reference runs in every story, and
the comment parts with their relationships and content types. Used by Save As when the lawyer
strips comments from the copy that goes out; the open document is never touched."""

from __future__ import annotations

import io
import zipfile

from .editing.comment_store import CommentStore, drop_keeping_tail
from .package.ooxml import W_R, W_RPR, w
from .package.opc import CT_NS, REL_NS, rels_name_for
from .reviewer import DocxReviewer

STORY_PARTS = ("header", "footer", "footnotes", "endnotes")
COMMENT_PARTS = ("comments", "commentsExtended", "commentsIds", "commentsExtensible")
_MARKERS = (w("commentRangeStart"), w("commentRangeEnd"), w("commentReference"))
_REVISION_WRAPPERS = (w("ins"), w("del"))


def strip_comments(data: bytes) -> bytes:
    """The package without comments: range markers and reference runs leave every story, and the
    comment parts leave the package with their relationships and content types."""
    rev = DocxReviewer.from_bytes(data)
    doc, pkg = rev.document, rev.document.package
    store = CommentStore(doc)
    parts = [doc.main_part]
    for kind in STORY_PARTS:
        parts += [pkg.canonical_name(r.target) for r in pkg.related(doc.main_part, kind)]
    for part in dict.fromkeys(parts):
        root = pkg.xml(part)
        markers = list(root.iter(*_MARKERS))
        for el in markers:
            _drop_marker(el)
        if markers:
            store.mark_story_dirty(part)
    doomed = _unlink_comment_parts(pkg, doc.main_part)
    if not doomed:
        return pkg.to_bytes()
    return _without_entries(pkg.to_bytes(), doomed | {rels_name_for(p).lower() for p in doomed})


def _drop_marker(el) -> None:
    target = el
    if el.tag == _MARKERS[2]:  # the run holding the reference goes too when nothing else is in it
        run = el.getparent()
        if run is not None and run.tag == W_R and all(c is el or c.tag == W_RPR for c in run):
            target = run
    parent = target.getparent()
    if parent is None:
        return
    drop_keeping_tail(target)
    if parent.tag in _REVISION_WRAPPERS and len(parent) == 0 and parent.getparent() is not None:
        parent.getparent().remove(parent)  # an empty w:ins / w:del would count as a change


def _unlink_comment_parts(pkg, main_part: str) -> set[str]:
    """Remove the main part's relationships to comment parts and their content-type overrides;
    returns the (lower-case) part names to leave out of the package."""
    doomed_ids, doomed = set(), set()
    for kind in COMMENT_PARTS:
        for rel in pkg.related(main_part, kind):
            doomed_ids.add(rel.id)
            doomed.add(pkg.canonical_name(rel.target).lower())
    if not doomed:
        return doomed
    rels_part = rels_name_for(main_part)
    rels_root = pkg.xml(rels_part)
    for el in list(rels_root.iter(f"{{{REL_NS}}}Relationship")):
        if el.get("Id") in doomed_ids:
            rels_root.remove(el)
    pkg.mark_dirty(rels_part)
    types = pkg.xml("[Content_Types].xml")
    for el in list(types.iter(f"{{{CT_NS}}}Override")):
        if (el.get("PartName") or "").lstrip("/").lower() in doomed:
            types.remove(el)
    pkg.mark_dirty("[Content_Types].xml")
    return doomed


def _without_entries(data: bytes, names: set[str]) -> bytes:
    """The same zip without the named entries (matched case-insensitively, as OPC names are)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as zin, zipfile.ZipFile(out, "w") as zout:
        for info in zin.infolist():
            if info.filename.lower() not in names:
                zout.writestr(info, zin.read(info))
    return out.getvalue()
