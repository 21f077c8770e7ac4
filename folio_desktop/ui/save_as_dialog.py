"""Save As with privacy options: strip package metadata (spec §9.4) and, if asked, every comment.

The open document is never changed: the options apply to a copy of its bytes on the way to disk.
The metadata transforms only touch docProps/core.xml; tracked changes keep their authors and
dates (the spec says so, and the dialog tells the lawyer).
"""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass

from PySide6.QtWidgets import QCheckBox, QDialog, QDialogButtonBox, QGroupBox, QLabel, QVBoxLayout

from ..agents import privacy
from ..docx import DocxReviewer
from ..docx.comment_store import CommentStore
from ..docx.errors import DocxError
from ..docx.ooxml import W_R, W_RPR, w
from ..docx.package import CT_NS, REL_NS, atomic_write, rels_name_for

TRANSFORM_LABELS = {
    "remove-attribution": "Author and last modified by",
    "remove-timestamps": "Created and modified dates",
    "remove-descriptive-metadata": "Title, subject, keywords and description",
}
COMMENT_PARTS = ("comments", "commentsExtended", "commentsIds", "commentsExtensible")
STORY_PARTS = ("header", "footer", "footnotes", "endnotes")
_MARKERS = (w("commentRangeStart"), w("commentRangeEnd"), w("commentReference"))
_REVISION_WRAPPERS = (w("ins"), w("del"))


@dataclass(frozen=True)
class SaveOptions:
    transforms: tuple[str, ...] = ()  # names from agents.privacy.TRANSFORMS
    keep_comments: bool = True

    def __post_init__(self):  # validated and put in the spec's canonical order
        object.__setattr__(self, "transforms", tuple(privacy.normalize_transforms(list(self.transforms))))

    @property
    def privacy(self) -> dict:
        return {"transforms": list(self.transforms)}


class SaveAsOptionsDialog(QDialog):
    """Checkboxes for the metadata transforms and for keeping comments."""

    def __init__(self, parent=None, options: SaveOptions | None = None):
        super().__init__(parent)
        options = options or SaveOptions()
        self.setWindowTitle("Save As Options")
        layout = QVBoxLayout(self)
        group = QGroupBox("Remove from the file's properties")
        inner = QVBoxLayout(group)
        self.transform_boxes: dict[str, QCheckBox] = {}
        for name in privacy.TRANSFORMS:
            box = QCheckBox(TRANSFORM_LABELS[name])
            box.setChecked(name in options.transforms)
            inner.addWidget(box)
            self.transform_boxes[name] = box
        layout.addWidget(group)
        self.keep_comments = QCheckBox("Keep comments")
        self.keep_comments.setChecked(options.keep_comments)
        layout.addWidget(self.keep_comments)
        note = QLabel("Tracked changes keep their authors and dates. Accept or reject them first "
                      "if those should not leave with the file.")
        note.setWordWrap(True)
        layout.addWidget(note)
        self.buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)

    def options(self) -> SaveOptions:
        chosen = tuple(name for name, box in self.transform_boxes.items() if box.isChecked())
        return SaveOptions(chosen, self.keep_comments.isChecked())


def save_with_options(reviewer, path, options: SaveOptions) -> None:
    """Write the document to `path` with the options applied; the open reviewer is not changed.
    Raises DocxError with a message for the user when the file cannot be written."""
    data = reviewer.to_bytes()
    if not options.keep_comments:
        data = strip_comments(data)
    try:
        data, _report = privacy.apply_to_package(data, options.privacy)
    except privacy.FolioDocumentPrivacyArchiveError as exc:
        raise DocxError(f"{exc} The document was not saved.") from None
    try:
        atomic_write(path, data)
    except PermissionError:
        raise DocxError(f"You do not have permission to write {path}; save it somewhere else.") from None
    except OSError as exc:
        raise DocxError(f"{path} could not be written ({exc.strerror or exc}); your work is still open.") from None


# -- removing comments ------------------------------------------------------------------------------

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
    if target.tail:
        prev = target.getprevious()
        if prev is not None:
            prev.tail = (prev.tail or "") + target.tail
        else:
            parent.text = (parent.text or "") + target.tail
    parent.remove(target)
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
