"""The tracked-change census (spec §7.2): every pending revision of every story, grouped.

Grouping: marks of one revision id inside one block fold into one entry; a replacement is two
entries (deletion and insertion); run marks inside a tracked row insertion/deletion fold into the
row's entry (same id, or same author and date); a cell revision over several cells joins their
texts with a newline; section property changes carry empty text and no block. A w:ins or w:del with
no text and no object (an empty w:t, a bookmark) changes nothing and is left out.

A move stays two halves here (its w:moveFrom marks are deletions, its w:moveTo marks insertions, one
entry per block as for any mark), each knowing its Move (docx/reading/moves.py): the agents' read_changes
and the reviewing pane show the pair as one change, and resolving either half resolves both.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..package.ooxml import MC_FALLBACK, W_NS, ancestor
from .moves import Move, find_moves

if TYPE_CHECKING:
    from ..model.document import Document, Story
    from .blocks import Snapshot

_W = "{" + W_NS + "}"
T_P, T_R, T_T, T_DELTEXT, T_TAB = _W + "p", _W + "r", _W + "t", _W + "delText", _W + "tab"
T_PPR, T_RPR, T_TRPR, T_TCPR, T_TR, T_TC, T_TBL = (_W + t for t in ("pPr", "rPr", "trPr", "tcPr", "tr", "tc", "tbl"))
T_INS, T_DEL, T_MOVE_FROM, T_MOVE_TO = _W + "ins", _W + "del", _W + "moveFrom", _W + "moveTo"
T_TBLGRIDCHANGE, T_GRIDCOL = _W + "tblGridChange", _W + "gridCol"

CHANGE_TYPES = (
    "insertion", "deletion", "formatting", "rowInserted", "rowDeleted", "cellInserted", "cellDeleted",
    "cellMerged", "paragraphMarkInserted", "paragraphMarkDeleted", "paragraphPropertiesChanged",
    "sectionPropertiesChanged", "tablePropertiesChanged", "rowPropertiesChanged", "cellPropertiesChanged",
)

REVISION_TAGS = tuple(
    _W + t
    for t in (
        "ins", "del", "moveFrom", "moveTo", "rPrChange", "pPrChange", "sectPrChange", "tblPrChange",
        "tblGridChange", "trPrChange", "tcPrChange", "tblPrExChange", "cellIns", "cellDel", "cellMerge",
    )
)


@dataclass
class Change:
    id: int
    type: str
    author: str
    date: str | None
    text: str
    block_id: str | None
    story: str = "main"
    element: object = None  # first revision element (for accept/reject)
    move: Move | None = None  # the move this entry is half of (None: not a move, or no partner found)

    def to_json(self) -> dict:
        out = {"id": self.id, "type": self.type, "author": self.author, "date": self.date,
               "text": self.text, "blockId": self.block_id, "story": self.story}
        if self.move is not None:  # half of a move: the key it shares with its other half
            out["move"] = {"key": self.move.key, "side": self.move_side}
        return out

    @property
    def is_move(self) -> bool:
        """A move's two halves are census insertions and deletions whose mark is w:moveTo / w:moveFrom."""
        tag = getattr(self.element, "tag", None)
        return tag in (T_MOVE_FROM, T_MOVE_TO)

    @property
    def move_side(self) -> str | None:
        """"from" for the half that left, "to" for the half that arrived, None outside a move."""
        if self.move is None:
            return None
        return "from" if self.element.tag == T_MOVE_FROM else "to"

    def to_agent_json(self) -> dict:
        out = {"id": str(self.id), "type": self.type, "author": self.author, "text": self.text,
               "blockId": self.block_id}
        if self.is_move:
            out["moved"] = True  # the text moved here (insertion) or away (deletion); not new wording
        if self.move is not None:
            # read_changes folds the halves of one move into one `moved` change by this
            out["move"] = {"key": self.move.key, "side": self.move_side}
        return out


def classify(el) -> str | None:
    """The census type of one revision element, from its tag and where it stands."""
    tag = el.tag[len(_W):] if el.tag.startswith(_W) else None
    parent = el.getparent()
    ptag = parent.tag if parent is not None else None
    if tag in ("ins", "moveTo", "del", "moveFrom"):
        inserted = tag in ("ins", "moveTo")
        if ptag == T_RPR:
            grand = parent.getparent()
            if grand is not None and grand.tag == T_PPR:
                return "paragraphMarkInserted" if inserted else "paragraphMarkDeleted"
            return None  # run-level rPr ins/del (math, old Word): covered by the run wrapper
        if ptag == T_TRPR:
            return "rowInserted" if inserted else "rowDeleted"
        if ptag == T_TCPR:
            return None
        return "insertion" if inserted else "deletion"
    return {
        "rPrChange": "formatting",
        "pPrChange": "paragraphPropertiesChanged",
        "sectPrChange": "sectionPropertiesChanged",
        "tblPrChange": "tablePropertiesChanged",
        "tblGridChange": "tablePropertiesChanged",
        "trPrChange": "rowPropertiesChanged",
        "tblPrExChange": "rowPropertiesChanged",
        "tcPrChange": "cellPropertiesChanged",
        "cellIns": "cellInserted",
        "cellDel": "cellDeleted",
        "cellMerge": "cellMerged",
    }.get(tag)


def _same_grid(change) -> bool:
    """Whether a w:tblGridChange records the column widths its w:tblGrid already has."""
    columns = [c.get(_W + "w") for c in change.getparent().iterchildren(T_GRIDCOL)]
    return columns == [c.get(_W + "w") for c in change.iter(T_GRIDCOL)]


def _run_text(el) -> str:
    parts = []
    for node in el.iter(T_T, T_DELTEXT, T_TAB):
        if node.tag == T_TAB:
            if node.getparent().tag != _W + "tabs":  # a tab stop definition, not a tab character
                parts.append("\t")
        else:
            parts.append(node.text or "")
    return "".join(parts)


# what a run or revision may hold and still hold nothing a reader sees (a comment's reference mark is
# something: the Changes panel names a tracked insertion of comment marks as such)
_NOTHING = {_W + t for t in ("rPr", "proofErr", "bookmarkStart", "bookmarkEnd", "commentRangeStart", "commentRangeEnd",
                             "lastRenderedPageBreak", "permStart", "permEnd")}


def holds_nothing(el) -> bool:
    """Whether a w:ins / w:del (or a run in it) has no text and no object: its runs hold only empty
    w:t / w:delText, formatting and markers. Such a revision changes nothing, so it is no change to review."""
    for child in el:
        tag = child.tag
        if tag in _NOTHING or not isinstance(tag, str):  # (an XML comment's tag is not a string)
            continue
        if tag == T_T or tag == T_DELTEXT:
            if child.text:
                return False
        elif tag != T_R or not holds_nothing(child):
            return False
    return True


def _rev_id(el) -> int | str:
    raw = el.get(_W + "id")
    try:
        return int(raw)
    except (TypeError, ValueError):
        return raw or ""


def census(doc: Document, story: Story, snapshot: Snapshot, container) -> list[Change]:
    by_par = snapshot.block_of_paragraph

    def block_of(el):
        p = el if el.tag == T_P else ancestor(el, T_P, None)
        if p is None:
            first = next(el.iter(T_P), None)
            p = first
        block = by_par.get(p) if p is not None else None
        return block.id if block is not None else None

    entries: list[Change] = []
    index: dict[tuple, Change] = {}
    rows: dict[object, Change] = {}  # w:tr -> its row insertion/deletion entry
    tables: dict[object, Change] = {}  # w:tbl -> its table property change
    cells: dict[tuple, list] = {}
    story_key = story.key
    # text boxes are stored twice (mc:Choice and its VML mc:Fallback copy): count the Choice only
    fallback = {el for fb in container.iter(MC_FALLBACK) for el in fb.iter(*REVISION_TAGS)}
    moves = find_moves(container)
    for el in container.iter(*REVISION_TAGS):
        if el in fallback:
            continue
        kind = classify(el)
        if kind is None:
            continue
        rid = _rev_id(el)
        author = el.get(_W + "author", "")
        date = el.get(_W + "date")
        if kind in ("insertion", "deletion"):
            text = _run_text(el)
            if not text and not el.getparent().tag.endswith("Pr") and holds_nothing(el):
                continue  # (a mark in a property, as w:numPr/w:ins, records a property change: kept)
            tr = ancestor(el, T_TR, container)
            row_entry = rows.get(tr) if tr is not None else None
            if row_entry is not None and (row_entry.id == rid or (row_entry.author == author and row_entry.date == date)) \
                    and (row_entry.type == "rowInserted") == (kind == "insertion"):
                row_entry.text += text
                continue
            block_id = block_of(el)
        elif kind in ("rowInserted", "rowDeleted"):
            tr = el.getparent().getparent()
            entry = Change(rid, kind, author, date, "", block_of(tr), story_key, el)
            rows[tr] = entry
            entries.append(entry)
            continue
        elif kind in ("cellInserted", "cellDeleted", "cellMerged", "cellPropertiesChanged"):
            tc = ancestor(el, T_TC, container)
            text = "\n".join(_run_text(p) for p in tc.iter(T_P)) if tc is not None else ""
            key = (kind, rid)
            if key in cells:
                cells[key][0].text += "\n" + text
                continue
            entry = Change(rid, kind, author, date, text, block_of(tc) if tc is not None else None, story_key, el)
            cells[key] = [entry]
            entries.append(entry)
            continue
        elif kind == "sectionPropertiesChanged":
            p = ancestor(el, T_P, container)
            entry = Change(rid, kind, author, date, "", block_of(p) if p is not None else None, story_key, el)
            entries.append(entry)
            continue
        elif kind in ("tablePropertiesChanged", "rowPropertiesChanged"):
            owner = ancestor(el, T_TBL if kind == "tablePropertiesChanged" else T_TR, container)
            if el.tag == T_TBLGRIDCHANGE and (_same_grid(el) or owner in tables):
                # a grid revision is part of its table's property change (Word writes them together);
                # one recording the grid the table has changes nothing (Google Docs writes one per
                # table, id 0, no author): neither is a change of its own to review
                continue
            entry = Change(rid, kind, author, date, "", block_of(owner) if owner is not None else None, story_key, el)
            if kind == "tablePropertiesChanged":
                tables[owner] = entry
            entries.append(entry)
            continue
        elif kind == "formatting":
            run = ancestor(el, T_R, container)
            text = _run_text(run) if run is not None else ""
            block_id = block_of(el)
        else:  # paragraph marks and paragraph property changes
            p = ancestor(el, T_P, container)
            block = by_par.get(p) if p is not None else None
            text = block.text if block is not None else ""
            block_id = block.id if block is not None else None
            entries.append(Change(rid, kind, author, date, text, block_id, story_key, el))
            continue
        key = (kind, rid, block_id)
        existing = index.get(key)
        if existing is not None:
            existing.text += text
            continue
        entry = Change(rid, kind, author, date, text, block_id, story_key, el)
        index[key] = entry
        entries.append(entry)
    for entry in entries:
        entry.move = moves.get(entry.element)
    return entries


__all__ = ["CHANGE_TYPES", "Change", "census", "classify"]
