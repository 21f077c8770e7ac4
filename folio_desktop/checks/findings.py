"""A finding of the contract checks: what was found, where, and in words a lawyer reads."""

from __future__ import annotations

from dataclasses import dataclass

# the kinds in the order the report groups them
KINDS = ("undefinedTerm", "unusedDefinition", "duplicateDefinition", "inconsistentTerm",
         "brokenCrossReference", "placeholder", "numberingGap", "duplicateNumber", "manualNumber", "partyName")


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
        return (self.kind, self.text, self.block_id)

    def to_json(self) -> dict:
        return {"kind": self.kind, "text": self.text, "blockId": self.block_id, "displayLabel": self.display_label,
                "story": self.story, "message": self.message, "pendingChange": self.pending_change}
