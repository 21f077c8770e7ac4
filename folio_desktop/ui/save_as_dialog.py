"""Save As with privacy options: strip package metadata (spec §9.4), every comment, and the names
on tracked changes and comments (replaced by "Author").

The open document is never changed: the options apply to a copy of its bytes on the way to disk.
The metadata transforms only touch docProps/core.xml (the spec says so); replacing the authors is
its own option, since who proposed a change is often what the other side should not learn.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtWidgets import QCheckBox, QDialog, QDialogButtonBox, QGroupBox, QLabel, QVBoxLayout

from ..agents import privacy
from ..docx.anonymise import NEUTRAL_AUTHOR, anonymise_authors
from ..docx.comment_strip import strip_comments
from ..docx.errors import DocxError
from ..docx.package import write_document_file

TRANSFORM_LABELS = {
    "remove-attribution": "Author and last modified by",
    "remove-timestamps": "Created and modified dates",
    "remove-descriptive-metadata": "Title, subject, keywords and description",
}
# what the lawyer is told was left out of the copy, in the dialog's order
REMOVED_WORDS = {
    "remove-attribution": "the author and last-modified names",
    "remove-timestamps": "the created and modified dates",
    "remove-descriptive-metadata": "the title, subject, keywords and description",
}


@dataclass(frozen=True)
class SaveOptions:
    transforms: tuple[str, ...] = ()  # names from agents.privacy.TRANSFORMS
    keep_comments: bool = True
    anonymise_authors: bool = False  # every tracked change and comment by "Author"

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
        self.anonymise = QCheckBox(f"Replace the names on tracked changes and comments with “{NEUTRAL_AUTHOR}”")
        self.anonymise.setChecked(options.anonymise_authors)
        layout.addWidget(self.anonymise)
        note = QLabel("Tracked changes keep their dates. Accept or reject them first if they should not leave "
                      "with the file at all.")
        note.setWordWrap(True)
        layout.addWidget(note)
        self.buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)

    def options(self) -> SaveOptions:
        chosen = tuple(name for name, box in self.transform_boxes.items() if box.isChecked())
        return SaveOptions(chosen, self.keep_comments.isChecked(), self.anonymise.isChecked())


def describe_removed(options: SaveOptions) -> str:
    """“without the author and last-modified names and comments, with every change by “Author””."""
    gone = [REMOVED_WORDS[t] for t in options.transforms] + ([] if options.keep_comments else ["comments"])
    parts = []
    if gone:
        listed = gone[0] if len(gone) == 1 else ", ".join(gone[:-1]) + " and " + gone[-1]
        parts.append(f"without {listed}")
    if options.anonymise_authors:
        parts.append(f"with every tracked change and comment made by “{NEUTRAL_AUTHOR}”")
    return ", ".join(parts) or "as it is"


def save_with_options(reviewer, path, options: SaveOptions) -> None:
    """Write the document to `path` with the options applied; the open reviewer is not changed.
    Raises DocxError with a message for the user when the file cannot be written."""
    data = reviewer.to_bytes()
    if not options.keep_comments:
        data = strip_comments(data)
    if options.anonymise_authors:
        data, _count = anonymise_authors(data)
    try:
        data, _report = privacy.apply_to_package(data, options.privacy)
    except privacy.FolioDocumentPrivacyArchiveError as exc:
        raise DocxError(f"{exc} The document was not saved.") from None
    write_document_file(path, data)
