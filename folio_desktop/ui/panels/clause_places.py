"""Where a changed paragraph stands, in a lawyer's words: its clause number ("4.2"), else the heading it
sits under ("Confidentiality"), else the clause it follows ("after 4.2"), or the story it is in
("Footnote"). No Qt here: the reviewing pane and the comparison's rows use it (change_rows.py)."""

from __future__ import annotations

import re
from dataclasses import dataclass

STORY_NAMES = {"header": "Header", "footer": "Footer", "footnote": "Footnote", "endnote": "Endnote"}
# a clause number: "4.2", "4.2.1.", "(a)", "iii)", "Article 3"; not a style name ("Heading5") or a bullet
_CLAUSE = re.compile(r"^(?:[A-Z][a-z]{2,12} )?[(\[]?(?:\d{1,4}|[A-Za-z]{1,4})(?:[.\-](?:\d{1,4}|[A-Za-z]{1,4}))*[.)\]]?$")
QUOTE_CHARS = 60
HEADING_CHARS = 40  # a heading in the Clause column, cut at a word
MAX_TITLE = 100  # a longer "heading" is a sentence styled as one


def clause_number(label: str | None) -> str | None:
    """The clause number a display label shows ("4.2." -> "4.2"), or None for a bullet, a style-named
    label or no label."""
    label = (label or "").strip()
    if not label or not _CLAUSE.match(label) or label.isalpha():  # a bare "a" or "iv" is no clause number
        return None
    if label.endswith(".") or label.endswith(")") and "(" not in label:
        label = label[:-1]  # "4.2." and "6)" are clauses 4.2 and 6
    return label


def quote(text: str, limit: int = QUOTE_CHARS) -> str:
    """Text for a sentence: whitespace collapsed, cut at a word near `limit`, in curly quotes."""
    text = " ".join(text.split())
    if len(text) > limit:
        cut = text.rfind(" ", limit // 2, limit)
        text = text[:cut if cut > 0 else limit].rstrip(" ,;:") + "…"
    return f"“{text}”"


def is_title(block) -> bool:
    """An unnumbered heading that reads as a title ("Governing Law"), not a clause's sentence styled as
    a heading."""
    text = block.text.strip()
    return block.kind == "heading" and 0 < len(text) <= MAX_TITLE and not text.endswith((";", ",", ":"))


@dataclass
class Place:
    """Where a block stands: its own clause number, the unnumbered heading it is or sits under, the
    clause number before it, the story it is in."""

    label: str | None = None  # the block's own clause number
    after: str | None = None  # the nearest clause number before the block (None under a later heading)
    story: str = "main"
    text: str = ""  # the block's text (accepted view), to name an unnumbered paragraph by
    in_table: bool = False
    heading: str | None = None  # the unnumbered heading's text: the block's own, or the one it sits under
    is_heading: bool = False  # the block is that heading

    @property
    def numbered(self) -> bool:
        return bool(self.label or self.after or self.heading or self.story_name)

    @property
    def story_name(self) -> str | None:
        return STORY_NAMES.get(self.story.split(":")[0]) if self.story != "main" else None

    def short(self) -> str:
        """For the Clause column: "4.2", "Confidentiality" (an unnumbered heading, or the paragraphs
        under it), "after 4.2", "Footnote"."""
        if self.story_name:
            return self.story_name
        if self.label:
            return self.label
        if self.heading:
            return quote(self.heading, HEADING_CHARS)[1:-1]
        return f"after {self.after}" if self.after else ""

    def where(self) -> str:
        """Where an unnumbered paragraph stands, for the end of a phrase: " under “Confidentiality”",
        " after clause 4.2", or ""."""
        if self.heading and not self.is_heading:
            return f" under {quote(self.heading, 40)}"
        return f" after clause {self.after}" if self.after else ""

    def name(self, capital: bool = False) -> str:
        """The block in a sentence: "clause 4.2", "the paragraph after clause 4.2", "the paragraph
        “Pilot Agreement”"."""
        if self.story_name:
            out = f"the {self.story_name.lower()}"
        elif self.label:
            out = self.label if self.label[0].isupper() else f"clause {self.label}"
        elif self.heading and self.is_heading:
            out = f"the heading {quote(self.heading, 40)}"
        else:
            what = "the table cell" if self.in_table else "the paragraph"
            out = f"{what} under {quote(self.heading, 40)}" if self.heading else \
                f"{what} after clause {self.after}" if self.after else \
                f"{what} {quote(self.text, 40)}" if self.text.strip() else what
        return out[0].upper() + out[1:] if capital else out


class Places:
    """Clause numbers of every story's blocks, read once per refresh (a story's when a change in it
    first asks)."""

    def __init__(self, reviewer=None):
        self._reviewer = reviewer
        self._stories: dict[str, tuple[dict, list] | None] = {}
        self._after: dict[str, list] = {}

    def _story(self, key: str) -> tuple[dict, list] | None:
        if key not in self._stories:
            self._stories[key] = None
            reviewer = self._reviewer
            story = next((s for s in reviewer.stories() if s.key == key), None) if reviewer is not None else None
            if story is not None:
                snap = reviewer.document.snapshot_story(story) if story.type != "main" else reviewer.snapshot()
                self._stories[key] = ({b.id: i for i, b in enumerate(snap.blocks)}, snap.blocks)
        return self._stories[key]

    def index(self, story: str, block_id: str | None) -> int | None:
        found = self._story(story) if block_id else None
        return found[0].get(block_id) if found else None

    def place(self, story: str, block_id: str | None) -> Place:
        i = self.index(story, block_id)
        if i is None:
            return Place(story=story)
        blocks = self._stories[story][1]
        block = blocks[i]
        label = clause_number(block.display_label)
        after, heading = self._label_before(story, i)
        own = not label and is_title(block)
        return Place(label, after, story, block.text, block.table is not None,
                     heading=block.text.strip() if own else None if label else heading, is_heading=own)

    def text_before(self, story: str, block_id: str | None) -> str:
        """The text of the nearest block before this one that has any (to name an empty paragraph by)."""
        i = self.index(story, block_id)
        blocks = self._stories[story][1] if i is not None else []
        return next((b.text for b in reversed(blocks[:i]) if b.text.strip()), "") if i is not None else ""

    def _label_before(self, story: str, i: int) -> tuple[str | None, str | None]:
        """(the clause number, the unnumbered heading) in force before block i: whichever came later
        (an unnumbered heading such as "Governing Law" after clause 12(b) is not "after (b)")."""
        labels = self._after.get(story)
        if labels is None:  # computed once per story
            labels, last = [], (None, None)
            for block in self._stories[story][1]:
                labels.append(last)
                number = clause_number(block.display_label)
                if number:
                    last = (number, None)
                elif is_title(block):
                    last = (None, block.text.strip())
            self._after[story] = labels
        return labels[i]
