"""The block model's records (spec §5): Block (one paragraph as the model reads it), TableLocation,
Anchor (where a block sits and what its text hashed to), CommentAnchor and the Snapshot that holds
them. Apart from snapshot.py, which walks a story to build them: most readers need the records,
not the walk.

A 500-page document holds tens of thousands of blocks, so a block is small: slots, no per-block copy
of what many share (numbering, spacing and indentation records are one object for every block with
the same; their properties hand out copies), and what few readers ask for is made when asked (the
preview runs, read again from the paragraph; the text hash, kept once computed). A snapshot maps ids
to anchors and paragraphs to blocks when first asked to.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from ..model.textkit import hash_name, hash_number, normalize


@dataclass(slots=True)
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


_NO_PROPERTIES = (None,) * 8
_PLAIN = (None, None, None, None, None, (), ())  # _more of a block that has none of those


@dataclass(slots=True)
class Block:
    id: str
    kind: str  # paragraph | heading | listItem | diagnostic
    text: str
    element: etree._Element | None = field(default=None, repr=False, compare=False)
    display_label: str | None = None
    # what the paragraph's properties say, one tuple for every block that says the same: (style_id,
    # heading_level, direct_outline_level, stated_numbering, list_reference, direct_alignment,
    # direct_spacing, direct_indentation), read through the properties below (the records as copies)
    _properties: tuple = _NO_PROPERTIES
    # the preview runs: None (no text), a reader that reads them again from the paragraph when asked
    # for (snapshot.py), the (doc, paragraph style, [(text, run)]) the walk read, or the runs made
    _preview: object = field(default=None, repr=False, compare=False)
    # what the story walk carried into and out of this paragraph (its first, when joined) (open fields,
    # note counts, open comment ranges), so one edited paragraph can be read again alone (patched(),
    # not joined ones) or a stretch of them (splice.py); None: it cannot (a text box in it)
    walk: tuple | None = field(default=None, repr=False, compare=False)
    # what few blocks have, read through the properties below: (id_stability, structural_boundaries,
    # table, diagnostic, comment_ids, joined, joined_starts); one shared tuple when it is none of them
    _more: tuple = _PLAIN
    _hash: int | None = field(default=None, init=False, repr=False, compare=False)

    @staticmethod
    def more(id_stability: str | None = None, structural_boundaries: list[dict] | None = None,
             table: TableLocation | None = None, diagnostic: dict | None = None,
             comment_ids: list[str] | None = None, joined: tuple = (), joined_starts: tuple = ()) -> tuple:
        """The `_more` of a block (the shared one when every value is the default)."""
        if id_stability is None and structural_boundaries is None and table is None and diagnostic is None \
                and comment_ids is None and not joined:
            return _PLAIN
        return (id_stability, structural_boundaries, table, diagnostic, comment_ids, joined, joined_starts)

    @property
    def id_stability(self) -> str | None:
        return self._more[0]

    @property
    def structural_boundaries(self) -> list[dict] | None:
        return self._more[1]

    @property
    def table(self) -> TableLocation | None:
        return self._more[2]

    @property
    def diagnostic(self) -> dict | None:
        return self._more[3]

    @property
    def comment_ids(self) -> list[str] | None:
        """w:id of every comment whose range covers some of its text."""
        return self._more[4]

    @property
    def joined(self) -> tuple:
        """The paragraphs before `element` whose deleted marks join them to it in the accepted view
        (accepted.joins_into): the block reads their text first, as accept-all and No Markup show it."""
        return self._more[5]

    @property
    def joined_starts(self) -> tuple:
        """Where the text of each of `paragraphs` starts in `text` (code points), when joined."""
        return self._more[6]

    @property
    def style_id(self) -> str | None:
        return self._properties[0]

    @property
    def heading_level(self) -> int | None:
        return self._properties[1]

    @property
    def direct_outline_level(self) -> int | None:
        return self._properties[2]

    @property
    def stated_numbering(self) -> dict | None:
        return _copy(self._properties[3])

    @property
    def list_reference(self) -> dict | None:
        return _copy(self._properties[4])

    @property
    def direct_alignment(self) -> str | None:
        return self._properties[5]

    @property
    def direct_spacing(self) -> dict | None:
        return _copy(self._properties[6])

    @property
    def direct_indentation(self) -> dict | None:
        return _copy(self._properties[7])

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

    @property
    def normalized_text(self) -> str:
        return normalize(self.text)

    @property
    def text_hash(self) -> str:
        """hash(normalize(text)), computed on first use (hashing is the costliest part of a read) and
        kept as its number."""
        value = self._hash
        if value is None:
            value = self._hash = hash_number(normalize(self.text))
        return hash_name(value)

    @property
    def is_content(self) -> bool:
        return bool(self.text) and not self.text.isspace()

    @property
    def preview_runs(self) -> list[dict] | None:
        """[{text, bold?, italic?, ...}] when at least one run is styled, consecutive equal runs merged."""
        preview = self._preview
        if preview is None:
            return None
        if not isinstance(preview, list):
            raw = preview if isinstance(preview, tuple) else preview.runs(self)
            preview = self._preview = _preview_runs(*raw) if raw is not None else []
        return preview or None

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
    """A story's blocks: in reading order, by id (anchors: every block but the diagnostics), by
    paragraph element, and the comments anchored in them. The anchors and the paragraph table are
    made when first asked for, unless given.

    When patched() derives a newer snapshot from an edit of a few paragraphs, the newer one takes
    this one's tables over rather than copying them (a copy costs as much as the story is long, an
    edit only what it touched) and leaves here what it changed; the first read of this older
    snapshot copies them back (`_newer`: the newer snapshot and those changes)."""

    # (_label_states, _positional_ids: what reading.splice keeps on a snapshot it made)
    __slots__ = ("_blocks", "_anchors", "_comment_anchors", "_by_paragraph", "_hash_counts", "_newer",
                 "_label_states", "_positional_ids")

    def __init__(self, blocks: list[Block], anchors: dict[str, Anchor] | None = None,
                 comment_anchors: dict[str, CommentAnchor] | None = None,
                 block_of_paragraph: dict[Any, Block] | None = None):
        self._blocks = blocks
        self._anchors = anchors
        self._comment_anchors = comment_anchors if comment_anchors is not None else {}
        self._by_paragraph = block_of_paragraph
        self._hash_counts: dict[str, int] | None = None
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
        if self._anchors is None:
            self._anchors = {b.id: Anchor(b, i) for i, b in enumerate(self._blocks) if b.kind != "diagnostic"}
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
        if self._by_paragraph is None:
            self._by_paragraph = {p: b for b in self._blocks for p in b.paragraphs}
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
            for block in (self.blocks if self._anchors is None else (a.block for a in self._anchors.values())):
                if block.kind != "diagnostic":
                    h = block.text_hash
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


def _copy(record: dict | None) -> dict | None:
    return dict(record) if record is not None else None


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
