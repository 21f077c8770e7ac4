"""The document as the checks read it: every story's blocks in the accepted view (the text as it reads
once the pending changes are accepted), with the clause number Word displays, or the one typed at
the start of the text when Word numbers nothing there."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# a number typed at the start of a paragraph: 3. / 3.2 / 3.2.1 / (c) / (iv) / c. / ARTICLE IV / Section 4.2
TYPED_NUMBER = re.compile(
    r"^\s*((?:ARTICLE|Article|SECTION|Section|Clause|CLAUSE)\s+(?:\d+(?:\.\d+)*|[IVXLC]+)\.?"
    r"|\d+(?:\.\d+)+\.?|\d+\.|\([a-z]{1,2}\)|\([ivxl]{1,5}\)|\(\d{1,2}\)|[a-z]\.)(?=[\s\u00a0])")


@dataclass(slots=True)
class Unit:
    """One paragraph of one story, as the checks see it."""
    story: str
    story_index: int
    index: int
    block_id: str
    text: str
    label: str | None  # the clause number Word displays (None when Word numbers nothing)
    level: int | None  # the list level of that number
    num_id: int | None
    heading: bool
    in_table: bool
    element: object = field(default=None, repr=False, compare=False)  # the w:p (highlight test)

    @property
    def typed_number(self) -> str | None:
        m = TYPED_NUMBER.match(self.text)
        return m.group(1) if m else None

    @property
    def shown_label(self) -> str | None:
        """The number a reader sees: Word's, else the one typed at the start."""
        return self.label or self.typed_number


def _label(block) -> str | None:
    label = block.display_label
    # a heading's displayLabel may be its style name (Heading1) when Word numbers nothing
    if not label or label == block.style_id or not any(ch.isalnum() for ch in label):
        return None
    return label.strip()


def read_units(reviewer) -> list[Unit]:
    doc = reviewer.document
    units: list[Unit] = []
    for s_index, story in enumerate(doc.stories()):
        snap = doc.snapshot_story(story)
        if snap is None:
            continue
        for block in snap.blocks:
            if block.kind == "diagnostic":
                continue
            ref = block.list_reference if block.display_label else None
            label = _label(block)
            units.append(Unit(story.key, s_index, len(units), block.id, block.text, label,
                              ref["level"] if ref and label else None, ref["numId"] if ref and label else None,
                              block.kind == "heading", block.table is not None, block.element))
    return units


def has_pending_changes(reviewer) -> bool:
    return bool(reviewer.get_changes())


def original_units(reviewer) -> list[Unit]:
    """The document as it read before the pending changes: a second reviewer with every change rejected."""
    from ..docx import DocxReviewer

    other = DocxReviewer.from_bytes(reviewer.to_bytes())
    other.reject_all()
    return read_units(other)
