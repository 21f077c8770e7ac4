"""The block model's records (spec §5): Block (one paragraph as the model reads it), TableLocation,
Anchor (where a block sits and what its text hashed to), CommentAnchor and the Snapshot that holds
them. Apart from snapshot.py, which walks a story to build them: most readers need the records,
not the walk."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from lxml import etree

from ..model.textkit import normalize, text_hash


@dataclass
class TableLocation:
    outer_table_index: int
    table_index: int
    row_index: int
    cell_index: int
    grid_column_index: int
    column_span: int
    row_span: int
    paragraph_index: int

    def to_json(self) -> dict:
        return {
            "outerTableIndex": self.outer_table_index,
            "tableIndex": self.table_index,
            "rowIndex": self.row_index,
            "cellIndex": self.cell_index,
            "gridColumnIndex": self.grid_column_index,
            "columnSpan": self.column_span,
            "rowSpan": self.row_span,
            "paragraphIndex": self.paragraph_index,
        }


@dataclass
class Block:
    id: str
    kind: str  # paragraph | heading | listItem | diagnostic
    text: str
    element: etree._Element | None = field(default=None, repr=False, compare=False)
    id_stability: str | None = None
    heading_level: int | None = None
    display_label: str | None = None
    style_id: str | None = None
    direct_outline_level: int | None = None
    stated_numbering: dict | None = None
    list_reference: dict | None = None
    direct_alignment: str | None = None
    direct_spacing: dict | None = None
    direct_indentation: dict | None = None
    _preview: object = field(default=None, repr=False, compare=False)
    structural_boundaries: list[dict] | None = None
    table: TableLocation | None = None
    diagnostic: dict | None = None
    comment_ids: list[str] | None = None  # w:id of every comment whose range covers some of its text
    # what the story walk carried into and out of this paragraph (its first, when joined) (open fields,
    # note counts, open comment ranges), so one edited paragraph can be read again alone (patched(),
    # not joined ones) or a stretch of them (splice.py); None: it cannot (a text box in it)
    walk: tuple | None = field(default=None, repr=False, compare=False)
    # the paragraphs before `element` whose deleted marks join them to it in the accepted view
    # (accepted.joins_into): the block reads their text first, as accept-all and No Markup show it
    joined: tuple = field(default=(), repr=False, compare=False)
    # where the text of each of `paragraphs` starts in `text` (code points), when joined
    joined_starts: tuple = field(default=(), repr=False, compare=False)

    def text_of(self, p) -> str:
        """The part of this block's text that paragraph p holds (all of it unless the block joins paragraphs)."""
        if not self.joined:
            return self.text
        i = self.paragraphs.index(p)
        end = self.joined_starts[i + 1] if i + 1 < len(self.joined_starts) else len(self.text)
        return self.text[self.joined_starts[i]:end]

    def start_of(self, p) -> int:
        """Where paragraph p's text starts in this block's text (0 unless the block joins paragraphs)."""
        if not self.joined:
            return 0
        return self.joined_starts[self.paragraphs.index(p)]

    @property
    def paragraphs(self) -> tuple:
        """The paragraphs whose text this block reads, in order; `element` (the surviving mark) last."""
        if self.element is None:
            return ()
        return (*self.joined, self.element)

    @cached_property
    def normalized_text(self) -> str:
        return normalize(self.text)

    @cached_property
    def text_hash(self) -> str:
        """hash(normalize(text)), computed on first use (hashing is the costliest part of a read)."""
        return text_hash(self.normalized_text)

    @property
    def is_content(self) -> bool:
        return bool(self.text) and not self.text.isspace()

    @property
    def preview_runs(self) -> list[dict] | None:
        """[{text, bold?, italic?, ...}] when at least one run is styled, consecutive equal runs merged."""
        if self._preview is None:
            return None
        if isinstance(self._preview, tuple):
            doc, pstyle, raw = self._preview
            self._preview = _preview_runs(doc, pstyle, raw)
        return self._preview or None

    def read_projection(self) -> dict:
        """What read tools show the model: {blockId, kind, text, blockTextHash}."""
        return {"blockId": self.id, "kind": self.kind, "text": self.text, "blockTextHash": self.text_hash}

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "kind": self.kind, "text": self.text}
        optional = (
            ("idStability", self.id_stability),
            ("headingLevel", self.heading_level),
            ("displayLabel", self.display_label),
            ("styleId", self.style_id),
            ("directOutlineLevel", self.direct_outline_level),
            ("statedNumbering", self.stated_numbering),
            ("listReference", self.list_reference),
            ("directAlignment", self.direct_alignment),
            ("directSpacing", self.direct_spacing),
            ("directIndentation", self.direct_indentation),
            ("previewRuns", self.preview_runs),
            ("structuralBoundaries", self.structural_boundaries),
            ("table", self.table.to_json() if self.table else None),
            ("diagnostic", self.diagnostic),
        )
        for key, value in optional:
            if value is not None:
                out[key] = value
        return out


class Anchor:
    """Where a block sits in its snapshot and what its text hashed to (spec §5.1). It holds no
    reference to a snapshot: snapshots share anchors (patched(), splice), and one pointing back at
    its snapshot would make every keystroke's snapshot a reference cycle, and keep the old ones."""

    __slots__ = ("block", "index")

    def __init__(self, block: Block, index: int):
        self.block = block
        self.index = index

    @property
    def id(self) -> str:
        return self.block.id

    @property
    def text(self) -> str:
        return self.block.text

    @property
    def normalized_text(self) -> str:
        return self.block.normalized_text

    @property
    def text_hash(self) -> str:
        return self.block.text_hash

    def to_json(self, counts: dict[str, int]) -> dict:
        """counts: the text-hash counts of the snapshot asking (Snapshot.hash_counts)."""
        return {
            "id": self.id,
            "from": self.index,
            "to": self.index + 1,
            "text": self.text,
            "normalizedText": self.normalized_text,
            "textHash": self.text_hash,
            "hashOccurrenceCount": counts[self.text_hash],
        }


@dataclass
class CommentAnchor:
    block_id: str | None = None
    quote: list[str] = field(default_factory=list)


_ABSENT = object()  # in what a newer snapshot changed: the key was not in this one


class Snapshot:
    """A story's blocks: in reading order, by id (anchors), by paragraph element, and the comments
    anchored in them.

    When patched() derives a newer snapshot from an edit of a few paragraphs, the newer one takes
    this one's tables over rather than copying them (a copy costs as much as the story is long, an
    edit only what it touched) and leaves here what it changed; the first read of this older
    snapshot copies them back (`_newer`: the newer snapshot and those changes)."""

    # (_label_states, _positional_ids: what reading.splice keeps on a snapshot it made)
    __slots__ = ("_blocks", "_anchors", "_comment_anchors", "_by_paragraph", "_hash_counts", "_newer",
                 "_label_states", "_positional_ids")

    def __init__(self, blocks: list[Block], anchors: dict[str, Anchor] | None = None,
                 comment_anchors: dict[str, CommentAnchor] | None = None,
                 block_of_paragraph: dict[Any, Block] | None = None, _hash_counts: dict[str, int] | None = None):
        self._blocks = blocks
        self._anchors = anchors if anchors is not None else {}
        self._comment_anchors = comment_anchors if comment_anchors is not None else {}
        self._by_paragraph = block_of_paragraph if block_of_paragraph is not None else {}
        self._hash_counts = _hash_counts
        self._newer: tuple | None = None

    def __repr__(self) -> str:
        return f"Snapshot({len(self.blocks)} blocks)"

    @property
    def blocks(self) -> list[Block]:
        if self._newer is not None:
            self._copy_back()
        return self._blocks

    @property
    def anchors(self) -> dict[str, Anchor]:
        if self._newer is not None:
            self._copy_back()
        return self._anchors

    @property
    def comment_anchors(self) -> dict[str, CommentAnchor]:
        if self._newer is not None:
            self._copy_back()
        return self._comment_anchors

    @property
    def block_of_paragraph(self) -> dict[Any, Block]:
        if self._newer is not None:
            self._copy_back()
        return self._by_paragraph

    def hand_over(self, newer_blocks: dict[int, Block], newer_by_paragraph: dict, newer_anchors: dict,
                  newer_comment_anchors: dict) -> Snapshot:
        """A newer snapshot with these entries changed, taking this one's tables over; this one keeps
        what they held before (it reads them back from the newer one when it is next read)."""
        blocks, anchors = self.blocks, self.anchors
        comment_anchors, by_paragraph = self.comment_anchors, self.block_of_paragraph
        before = ({i: blocks[i] for i in newer_blocks},
                  {k: by_paragraph.get(k, _ABSENT) for k in newer_by_paragraph},
                  {k: anchors.get(k, _ABSENT) for k in newer_anchors},
                  {k: comment_anchors.get(k, _ABSENT) for k in newer_comment_anchors})
        for i, block in newer_blocks.items():
            blocks[i] = block
        by_paragraph.update(newer_by_paragraph)
        comment_anchors.update(newer_comment_anchors)
        out = Snapshot(blocks, anchors, comment_anchors, by_paragraph)
        anchors.update(newer_anchors)
        self._newer = (out, before)
        self._blocks = self._anchors = self._comment_anchors = self._by_paragraph = None
        return out

    def _copy_back(self) -> None:
        """Read this snapshot's tables back: the newest one's, with every newer snapshot's changes
        taken back down to this one."""
        chain = []
        snap = self
        while snap._newer is not None:
            chain.append(snap)
            snap = snap._newer[0]
        blocks, anchors = list(snap._blocks), dict(snap._anchors)
        comment_anchors, by_paragraph = dict(snap._comment_anchors), dict(snap._by_paragraph)
        for older in reversed(chain):
            old_blocks, old_by_paragraph, old_anchors, old_comment_anchors = older._newer[1]
            for i, block in old_blocks.items():
                blocks[i] = block
            for table, old in ((by_paragraph, old_by_paragraph), (anchors, old_anchors),
                               (comment_anchors, old_comment_anchors)):
                for key, value in old.items():
                    if value is _ABSENT:
                        table.pop(key, None)
                    else:
                        table[key] = value
        self._blocks, self._anchors, self._comment_anchors, self._by_paragraph = \
            blocks, anchors, comment_anchors, by_paragraph
        self._newer = None

    def hash_counts(self) -> dict[str, int]:
        """text hash -> how many targetable blocks share it."""
        if self._hash_counts is None:
            counts: dict[str, int] = {}
            for anchor in self.anchors.values():
                h = anchor.block.text_hash
                counts[h] = counts.get(h, 0) + 1
            self._hash_counts = counts
        return self._hash_counts

    def block(self, block_id: str) -> Block | None:
        anchor = self.anchors.get(block_id)
        if anchor is not None:
            return self.blocks[anchor.index]
        return None

    @property
    def content_blocks(self) -> list[Block]:
        return [b for b in self.blocks if b.is_content]

    def to_json(self) -> dict:
        counts = self.hash_counts()
        return {"blocks": [b.to_json() for b in self.blocks],
                "anchors": {k: a.to_json(counts) for k, a in self.anchors.items()}}


def _preview_runs(doc, pstyle: str | None, raw: list[tuple[str, Any]]) -> list[dict]:
    runs: list[dict] = []
    styled = False
    cache: dict[Any, dict] = {}
    for text, run in raw:
        fmt = cache.get(run)
        if fmt is None:
            fmt = cache[run] = doc.run_preview_format(run, pstyle) if run is not None else {}
        if fmt:
            styled = True
        if runs and runs[-1][1] == fmt:
            runs[-1][0].append(text)
        else:
            runs.append(([text], fmt))
    if not styled:
        return []
    return [{"text": "".join(parts), **fmt} for parts, fmt in runs]
