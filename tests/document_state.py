"""What an open document shows and holds, to compare before and after an edit, an undo or a redo:
its blocks, census, comments, annotated text, version, every XML part's tree and the package's
bookkeeping (not only the bytes it would save, which can stay the same while the open document
has changed)."""

from __future__ import annotations

from lxml import etree

from folio_desktop.docx import DocxReviewer
from folio_desktop.docx.errors import DocxError


def xml_trees(rev: DocxReviewer) -> dict[str, bytes]:
    """Every XML part of the package as its tree serializes now. Every story part is read first:
    reading one gives its paragraphs ids in memory (the same ids whenever it is read), not an edit."""
    doc = rev.document
    package = doc.package
    for kind in ("header", "footer", "footnotes", "endnotes"):
        for rel in package.related(doc.main_part, kind):
            name = package.canonical_name(rel.target)
            doc.ensure_para_ids(name, package.xml(name))
    out = {}
    for name in sorted(package.part_names()):
        if not name.endswith((".xml", ".rels")) or not package.has_part(name):
            continue
        try:
            out[name] = etree.tostring(package.xml(name))
        except DocxError:
            continue
    return out


def open_state(rev: DocxReviewer, version: bool = True) -> dict:
    doc = rev.document
    state = {
        "blocks": [(b.id, b.kind, b.text) for b in rev.snapshot().blocks],
        "changes": [c.to_json() for c in rev.get_changes()],
        "comments": [(c.id, c.author, c.text, c.done, [(r.id, r.text) for r in c.replies])
                     for c in rev.get_comments()],
        "annotated": rev.get_content_as_text(annotated=True),
        "trees": xml_trees(rev),
        "parts": sorted(doc.package.part_names()),
        "dirty": set(doc.package.dirty),
    }
    if version:
        state["version"] = doc.version
    return state
