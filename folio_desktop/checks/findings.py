"""A finding of the contract checks: what was found, where, and in words a lawyer reads."""

from __future__ import annotations

from dataclasses import dataclass

# the kinds in the order the report groups them, each with its group's title in the Checks panel
# (short: a narrow pane) and in the `check` command's report
KIND_TITLES = {
    "undefinedTerm": ("Undefined terms", "Terms used but never defined"),
    "unusedDefinition": ("Unused definitions", "Definitions never used"),
    "duplicateDefinition": ("Terms defined twice", "Terms defined twice"),
    "inconsistentTerm": ("Defined terms written another way", "Defined terms written another way"),
    "brokenCrossReference": ("Broken cross-references", "Cross-references to clauses that do not exist"),
    "placeholder": ("Blanks and placeholders", "Blanks and placeholders"),
    "numberingGap": ("Gaps in the numbering", "Gaps in the numbering"),
    "duplicateNumber": ("Numbers used twice", "Numbers used twice"),
    "manualNumber": ("Numbers typed by hand", "Numbers typed by hand in automatic lists"),
    "partyName": ("Parties called by a name never given", "Parties called by a name never given"),
}
KINDS = tuple(KIND_TITLES)
# findings about a term as a whole, placed where it is first met: a change elsewhere may move that place
_WHOLE_DOCUMENT = frozenset(("undefinedTerm", "unusedDefinition"))


@dataclass(slots=True)
class Finding:
    kind: str
    text: str  # the term, reference, placeholder or number as written
    block_id: str
    display_label: str | None
    story: str  # "main", "header:rId7", "footnote:3", ...
    message: str
    pending_change: bool = False
    order: tuple = ()  # (story index, block index, offset): document order

    @property
    def key(self) -> tuple:
        """The same finding in another view of the document (before the pending changes)."""
        if self.kind in _WHOLE_DOCUMENT:
            return (self.kind, self.text)
        return (self.kind, self.text, self.block_id)

    def to_json(self) -> dict:
        return {"kind": self.kind, "text": self.text, "blockId": self.block_id, "displayLabel": self.display_label,
                "story": self.story, "message": self.message, "pendingChange": self.pending_change}
