"""Save As with privacy options: strip package metadata (spec §9.4), every comment, and the names
on tracked changes and comments (replaced by "Author"); and, for a document that opened with damaged
parts (a theme, font table, settings ...), whether a save keeps them as read or repairs them.

The open document is never changed: the options apply to a copy of its bytes on the way to disk.
The metadata transforms only touch docProps/core.xml (the spec says so); replacing the authors is
its own option (the comparison's anonymize-revisions transform), since who proposed a change is often what
the other side should not learn.
Repairing damaged parts is not a privacy option: on its own it does not make the file a copy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from PySide6.QtWidgets import QCheckBox, QDialog, QDialogButtonBox, QGroupBox, QLabel, QVBoxLayout

from ...agents.versions import privacy
from ...docx.comment_strip import strip_comments
from ...docx.errors import DocxError
from ...docx.package.damage import DAMAGED_PART_CHOICES, KEEP, REBUILD
from ...docx.package.files import write_document_file
from ..access_keys import give_access_keys
from ..wording import listed

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
    damaged_parts: str = KEEP  # KEEP writes a damaged part as read, REBUILD a minimal sound one

    def __post_init__(self):  # validated and put in the spec's canonical order
        object.__setattr__(self, "transforms", tuple(privacy.normalize_transforms(list(self.transforms))))
        if self.damaged_parts not in DAMAGED_PART_CHOICES:
            raise ValueError(f"damaged_parts must be one of {DAMAGED_PART_CHOICES}, not {self.damaged_parts!r}")

    @property
    def makes_copy(self) -> bool:
        """Whether the file written leaves something out, so it is a copy and not the document itself."""
        return replace(self, damaged_parts=KEEP) != SaveOptions()

    @property
    def privacy(self) -> dict:
        """The comparison's privacy options: the file's properties, and the names on the marks when anonymised."""
        return {"transforms": list(self.transforms) + ([privacy.ANONYMIZE] if self.anonymise_authors else [])}


def repairable_parts(reviewer) -> list[str]:
    """“the theme word/theme/theme1.xml”, one per damaged part the document opened with that a save
    can rebuild (a damaged picture has no sound stand-in: it is always kept as read)."""
    damaged = reviewer.document.package.damaged.values()
    return [f"the {d.label} {d.name}" for d in damaged if d.stand_in is not None]


class SaveAsOptionsDialog(QDialog):
    """Checkboxes for the metadata transforms and for keeping comments; with `damaged` (what
    repairable_parts names), one for repairing those parts."""

    def __init__(self, parent=None, options: SaveOptions | None = None, damaged: Sequence[str] = ()):
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
        self.anonymise = QCheckBox(f"Replace the names on tracked changes and comments with “{privacy.NEUTRAL_AUTHOR}”")
        self.anonymise.setChecked(options.anonymise_authors)
        layout.addWidget(self.anonymise)
        note = QLabel("Tracked changes keep their dates. Accept or reject them first if they should not leave "
                      "with the file at all.")
        note.setWordWrap(True)
        layout.addWidget(note)
        self.repair: QCheckBox | None = None
        if damaged:
            one = len(damaged) == 1
            self.repair = QCheckBox(f"Repair the damaged part{'' if one else 's'} ({listed(damaged)})")
            self.repair.setToolTip(f"Checked: a minimal sound part is written in place of {'it' if one else 'each'}. "
                                   f"Unchecked: {'it is' if one else 'they are'} written as read, so nothing in "
                                   f"{'it' if one else 'them'} is lost.")
            self.repair.setChecked(options.damaged_parts == REBUILD)
            layout.addWidget(self.repair)
        self.buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        give_access_keys(self)

    def options(self) -> SaveOptions:
        chosen = tuple(name for name, box in self.transform_boxes.items() if box.isChecked())
        repair = self.repair is not None and self.repair.isChecked()
        return SaveOptions(chosen, self.keep_comments.isChecked(), self.anonymise.isChecked(),
                           REBUILD if repair else KEEP)


def describe_removed(options: SaveOptions) -> str:
    """“without the author and last-modified names and comments, with every change by “Author””."""
    gone = [REMOVED_WORDS[t] for t in options.transforms] + ([] if options.keep_comments else ["comments"])
    parts = []
    if gone:
        parts.append(f"without {listed(gone)}")
    if options.anonymise_authors:
        parts.append(f"with every tracked change and comment made by “{privacy.NEUTRAL_AUTHOR}”")
    if options.damaged_parts == REBUILD:
        parts.append("with its damaged parts repaired")
    return ", ".join(parts) or "as it is"


def save_with_options(reviewer, path, options: SaveOptions) -> None:
    """Write the document to `path` with the options applied; the open reviewer is not changed.
    Raises DocxError with a message for the user when the file cannot be written."""
    data = reviewer.to_bytes(damaged_parts=options.damaged_parts)
    if not options.keep_comments:
        data = strip_comments(data)
    try:
        data, _report = privacy.apply_to_package(data, options.privacy)
    except privacy.FolioDocumentPrivacyArchiveError as exc:
        raise DocxError(f"{exc} The document was not saved.") from None
    write_document_file(path, data)
