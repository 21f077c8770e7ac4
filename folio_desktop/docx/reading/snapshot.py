"""Reading a story into the block model: one block per paragraph, in reading order (spec §5).

The walk descends into tables (nested too), content controls, customXml wrappers and text boxes,
skips hidden table rows entirely (a prompt-injection guard), and turns content it cannot
interpret (w:altChunk, stray rows) into diagnostic blocks that cannot be targeted. The records it
builds (Block, Anchor, Snapshot...) are in blocks.py.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from lxml import etree

from ..model.numbering import LabelCounter, _num, membership
from ..model.tables import row_cells, table_rows
from ..model.textkit import index_to_utf16
from ..package.ooxml import (
    MC_ALTERNATE,
    MC_CHOICE,
    MC_FALLBACK,
    W14_PARA_ID,
    W_NS,
    W_VAL,
    first_child,
    int_attr,
    on_off,
)
from . import inline
from .accepted import deleting_mark, joins_into
from .blocks import Anchor, Block, CommentAnchor, Snapshot, TableLocation
from .inline import BREAK, COMMENT_END, COMMENT_START, NOTE, PAGE_BREAK, TAB, TEXT, StoryState

_W = "{" + W_NS + "}"
T_P, T_TBL, T_TR, T_TC, T_SDT, T_SDT_CONTENT = (_W + t for t in ("p", "tbl", "tr", "tc", "sdt", "sdtContent"))
T_CUSTOM_XML, T_ALT_CHUNK, T_PPR, T_TRPR, T_TCPR = (_W + t for t in ("customXml", "altChunk", "pPr", "trPr", "tcPr"))
T_CSTART, T_CEND = _W + "commentRangeStart", _W + "commentRangeEnd"
T_INS, T_DEL, T_MOVE_FROM, T_MOVE_TO = _W + "ins", _W + "del", _W + "moveFrom", _W + "moveTo"
RESERVED_PREFIXES = ("seq-", "blank-")
MAX_DEPTH = 64  # nesting of tables/controls/text boxes deeper than this is not real content


class _Walker:
    """One snapshot walk over one story container."""

    def __init__(self, doc, positional_ids: set[str]):
        self.doc = doc
        self.styles = doc.styles
        self.numbering = doc.numbering
        self.counter = LabelCounter(doc.numbering)
        self.deleted_counter: LabelCounter | None = None  # numbers wholly deleted items as they were
        self.state = StoryState()
        self.hidden_styles = doc.hidden_character_styles
        self.positional_ids = positional_ids
        self.blocks: list[Block] = []
        self.taken: set[str] = set()
        self.content_count = 0
        self.blank_count = 0
        self.table_count = 0
        self.opaque_count = 0
        self.active_comments: list[str] = []
        self.comment_anchors: dict[str, CommentAnchor] = {}
        # one object for what many blocks share: walk states, numbering records, names (blocks.py)
        self._carried: tuple | None = None
        self._walk: tuple | None = None
        self._shared: dict = {}
        self.reread = _Reread(doc, positional_ids)

    # -- containers -----------------------------------------------------------------------

    def container(self, el, table_ctx=None, depth=0):
        if depth > MAX_DEPTH:
            self.diagnostic(el.tag, "deeply nested")
            return
        para_index = 0
        joining: list[tuple] = []  # paragraphs read so far that run on into the next one
        # the paragraphs are told apart by an iterator over them alone, not by their tag: an element
        # keeps the tag string it was asked for, and a block keeps its paragraph (~110 bytes a block)
        # (el: an element, or a list of sibling elements, the stretch reading.splice reads again)
        paragraphs = iter([c for c in el if c.tag == T_P]) if isinstance(el, list) else el.iterchildren(T_P)
        next_p = next(paragraphs, None)
        for child in el:
            if child is next_p:
                next_p = next(paragraphs, None)
                tag = T_P
            else:
                tag = child.tag
            if tag == T_P:
                read = None
                ppr = first_child(child, T_PPR)
                deleted = ppr is not None and deleting_mark(child, ppr) is not None
                if deleted and joins_into(child) is not None:
                    read = (self.carried(), *self.paragraph_text(child))
                    # a wholly deleted paragraph adds nothing to the next one: it stays a blank block
                    # of its own, which edits report as pending deletion and may insert beside
                    if read[1] or joining:
                        boxes = inline.text_boxes(child)
                        joining.append((child, read[1], read[2], read[0], bool(boxes)))
                        for box in boxes:
                            self.container(box, None, depth + 1)
                        continue
                ctx = None
                if table_ctx is not None:
                    ctx = TableLocation(**table_ctx, paragraph_index=para_index)
                    para_index += 1
                self.paragraph(child, ctx, depth, joining, read, ppr, deleted)
                joining = []
            elif tag == T_TBL:
                self.table(child, table_ctx, depth + 1)
            elif tag == T_SDT:
                content = child.find(T_SDT_CONTENT)
                if content is not None:
                    self.container(content, table_ctx, depth + 1)
            elif tag == T_CUSTOM_XML or tag == T_INS or tag == T_DEL or tag == T_MOVE_TO or tag == T_MOVE_FROM:
                self.container(child, table_ctx, depth + 1)
            elif tag == MC_ALTERNATE:
                branch = child.find(MC_CHOICE)
                if branch is None:
                    branch = child.find(MC_FALLBACK)
                if branch is not None:
                    self.container(branch, table_ctx, depth + 1)
            elif tag == T_ALT_CHUNK:
                self.diagnostic("w:altChunk", None)
            elif tag == T_TR or tag == T_TC:
                self.diagnostic("w:tr" if tag == T_TR else "w:tc", "nested")
            elif tag == T_CSTART:
                cid = child.get(_W + "id")
                if cid is not None:
                    self.active_comments.append(cid)
                    self.comment_anchors.setdefault(cid, CommentAnchor())
            elif tag == T_CEND:
                cid = child.get(_W + "id")
                if cid in self.active_comments:
                    self.active_comments.remove(cid)

    def table(self, tbl, outer_ctx, depth):
        table_index = self.table_count
        self.table_count += 1
        outer_index = outer_ctx["outer_table_index"] if outer_ctx else table_index
        rows = list(table_rows(tbl))
        grid = [row_cells(tr) for tr in rows]
        for row_index, tr in enumerate(rows):
            trpr = tr.find(T_TRPR)
            if trpr is not None and on_off(trpr.find(_W + "hidden")):
                continue  # hidden rows never reach the model
            for cell_index, (tc, grid_col, span, vmerge) in enumerate(grid[row_index]):
                row_span = 1
                if vmerge == "restart":
                    for below in grid[row_index + 1:]:
                        match = next((c for c in below if c[1] == grid_col), None)
                        if match is None or match[3] != "continue":
                            break
                        row_span += 1
                ctx = {
                    "outer_table_index": outer_index,
                    "table_index": table_index,
                    "row_index": row_index,
                    "cell_index": cell_index,
                    "grid_column_index": grid_col,
                    "column_span": span,
                    "row_span": row_span,
                }
                self.container(tc, ctx, depth + 1)

    # -- blocks ---------------------------------------------------------------------------

    def mint_id(self, para_id: str | None, is_content: bool) -> str:
        if para_id and para_id not in self.taken and not para_id.startswith(RESERVED_PREFIXES):
            self.taken.add(para_id)
            return para_id
        if is_content:
            n = self.content_count
            prefix = "seq-"
        else:
            n = self.blank_count
            prefix = "blank-"
        candidate = f"{prefix}{n:04d}"
        while candidate in self.taken:
            n += 1
            candidate = f"{prefix}{n:04d}"
        self.taken.add(candidate)
        return candidate

    def diagnostic(self, carrier: str, qualifier: str | None):
        label = f"{qualifier} {carrier}" if qualifier else carrier
        text = f"[Unsupported {label} content]"
        block_id = f"opaque-{self.opaque_count}"
        self.opaque_count += 1
        self.blocks.append(Block(id=block_id, kind="diagnostic", text=text,
                                 _more=Block.more(diagnostic={"type": "opaqueCarrier", "carrier": carrier})))

    def carried(self) -> tuple:
        state = self.state
        carried = (tuple(state.fields), state.footnotes, state.endnotes, tuple(self.active_comments))
        if carried == self._carried:
            return self._carried
        self._carried = carried
        return carried

    def shared(self, value: str | None) -> str | None:
        """One object for equal names and labels over the whole walk."""
        return self._shared.setdefault(value, value)

    def record(self, make, el) -> dict:
        """make(el) (a property's JSON record), one object for every element with the same attributes."""
        key = (make, *el.items())
        found = self._shared.get(key)
        if found is None:
            found = self._shared[key] = make(el)
        return found

    def paragraph(self, p, table_loc, depth, joined=(), read=None, ppr=None, deleted=False):
        """One block; `joined`: the (paragraph, text, extras, walk entry, has text boxes) that run on
        into p (accepted.py);
        `read`: p's (walk entry, text, extras) when the caller has read it already; `ppr`: its w:pPr,
        `deleted`: whether its mark is a pending deletion."""
        boxes = inline.text_boxes(p)
        lazy = read is None and not joined and not boxes  # its preview runs are read again when asked for
        entry, text, extras = read if read is not None else (self.carried(), *self.paragraph_text(p, not lazy))
        if joined:
            text, extras = _join_texts(joined, text, extras)
        is_content = bool(text.strip())
        if is_content:
            self.content_count += 1
        else:
            self.blank_count += 1
        block_id = self.mint_id(p.get(W14_PARA_ID), is_content)
        starts = [0]
        for part in joined:
            starts.append(starts[-1] + len(part[1]))
        more = Block.more("positional" if block_id in self.positional_ids else None, extras["boundaries"] or None,
                          table_loc, None, extras["comments"] or None, tuple(part[0] for part in joined),
                          tuple(starts) if joined else ())
        block = Block(id=block_id, kind="paragraph", text=text, element=p, _more=more,
                      _preview=(self.reread if text else None) if lazy else extras["runs"])
        # a wholly deleted paragraph (its text and its mark) is gone once accepted: it takes no number
        self.paragraph_properties(p, block, is_content or bool(joined) or not deleted, ppr)
        self.blocks.append(block)
        for cid in extras["comments"]:
            anchor = self.comment_anchors[cid]
            if anchor.block_id is None:
                anchor.block_id = block_id
        # a text box's paragraphs are blocks of their own, read after this one (or among joined ones)
        if not boxes and not any(part[4] for part in joined):
            walk = self._walk
            entry = joined[0][3] if joined else entry
            leaving = self.carried()
            if walk is None or walk[0] is not entry or walk[1] is not leaving:
                walk = self._walk = (entry, leaving)
            block.walk = walk
        for box in boxes:
            self.container(box, None, depth + 1)

    def paragraph_text(self, p, with_runs: bool = True):
        """Accepted-view text plus preview runs (unless `with_runs` is False), structural boundaries
        and comment quotes."""
        parts: list[str] = []
        runs: list[tuple[str, Any]] | None = [] if with_runs else None
        boundaries: list[dict] = []
        touched_comments: list[str] = []
        active = self.active_comments
        state = self.state
        for piece in inline.pieces(p, state, self.hidden_styles):
            kind = piece.kind
            if kind == TEXT or kind == TAB or kind == BREAK:
                if piece.hidden:
                    continue
                if piece.dele is not None:
                    # not in the text, but in a quote: the lawyer sees a comment on struck text
                    # with the struck text, and the comment stays anchored in this block
                    if active:
                        self.quote(piece.text, touched_comments)
                    continue
                s = piece.text
            elif kind == COMMENT_START:
                if piece.extra is not None:
                    active.append(piece.extra)
                    self.comment_anchors.setdefault(piece.extra, CommentAnchor())
                continue
            elif kind == COMMENT_END:
                if piece.extra in active:
                    active.remove(piece.extra)
                continue
            elif piece.dele is not None or piece.hidden:
                continue
            elif kind == NOTE:
                s = state.note_marker(piece.extra)
                boundaries.append({"type": "noteReference", "noteType": piece.extra,
                                   "offset": _utf16_length(parts), "length": len(s)})
            elif kind == PAGE_BREAK:
                if piece.extra == "page":
                    boundaries.append({"type": "pageBreak", "offset": _utf16_length(parts)})
                continue
            else:
                continue
            if not s:
                continue
            if active:
                self.quote(s, touched_comments)
            parts.append(s)
            if runs is not None:
                runs.append((s, piece.run))
        pstyle = None
        if with_runs:
            ppr = first_child(p, T_PPR)
            pstyle_el = first_child(ppr, _W + "pStyle") if ppr is not None else None
            pstyle = pstyle_el.get(W_VAL) if pstyle_el is not None else None
        preview = (self.doc, pstyle, runs) if runs else None
        return "".join(parts), {"runs": preview, "boundaries": boundaries, "comments": touched_comments,
                                "pstyle": pstyle}

    def quote(self, s: str, touched_comments: list[str]) -> None:
        """Add text to the quote of every comment whose range is open (spec §2.7: every run in the
        range, in document order, deleted runs included)."""
        for cid in self.active_comments:
            quote = self.comment_anchors[cid].quote
            if cid not in touched_comments:
                touched_comments.append(cid)
                if quote:  # the range runs on from an earlier paragraph
                    quote.append("\n")
            quote.append(s)

    def paragraph_properties(self, p, block: Block, counted: bool, ppr):
        doc = self.doc
        style_id = direct_outline = numpr = alignment = spacing = indentation = None
        if ppr is not None:
            found: dict = {}
            for node in ppr:  # each property's first element, in one pass (this runs for every paragraph)
                found.setdefault(node.tag, node)
            ps = found.get(_W + "pStyle")
            if ps is not None:
                style_id = self.shared(ps.get(W_VAL))
            ol = found.get(_W + "outlineLvl")
            if ol is not None:
                direct_outline = int_attr(ol)
            numpr = found.get(_W + "numPr")
            jc = found.get(_W + "jc")
            if jc is not None:
                alignment = self.shared(jc.get(W_VAL))
            el = found.get(_W + "spacing")
            if el is not None:
                spacing = self.record(_spacing_json, el)
            el = found.get(_W + "ind")
            if el is not None:
                indentation = self.record(_indent_json, el)

        # heading level: direct outline level first, then the style
        heading = None
        if direct_outline is not None:
            heading = direct_outline + 1 if 0 <= direct_outline < 9 else None
        else:
            heading = doc.styles.heading_level(style_id or doc.styles.default_paragraph_style)

        num_id = ilvl = None
        if numpr is not None:
            nid = first_child(numpr, _W + "numId")
            num_id = nid.get(W_VAL) if nid is not None else None
            ilvl = int_attr(first_child(numpr, _W + "ilvl"))
        key = ("membership", style_id, numpr is not None, num_id, ilvl)
        known = self._shared.get(key)
        if known is None:
            stated, eff_num, eff_lvl = membership(doc.styles, doc.numbering, style_id, numpr is not None, num_id, ilvl)
            reference = {"numId": _num(eff_num), "level": eff_lvl} if eff_num is not None else None
            known = self._shared[key] = (stated, eff_num, eff_lvl, reference)
        stated, eff_num, eff_lvl, reference = known
        label = None
        if eff_num is not None:
            if doc.numbering.is_defined(eff_num) and eff_lvl is not None and 0 <= eff_lvl < 9:
                if counted:
                    self.deleted_counter = None
                    label, _level = self.counter.feed(eff_num, eff_lvl)
                else:
                    # a wholly deleted item takes no number in the accepted view, but is cited by the
                    # one it had: a run of them counts on from the last item that stays
                    if self.deleted_counter is None:
                        self.deleted_counter = self.counter.fork()
                    label, _level = self.deleted_counter.feed(eff_num, eff_lvl)
        properties = (style_id, heading, direct_outline, stated, reference, alignment, spacing, indentation)
        block._properties = self._shared.setdefault(("properties", *map(id, properties)), properties)
        if heading is not None:
            block.kind = "heading"
            block.display_label = self.shared(label) if label else style_id
        elif label:
            block.kind = "listItem"
            block.display_label = self.shared(label)


def _utf16_length(parts: list[str]) -> int:
    """UTF-16 length of the text read so far (where a structural boundary sits)."""
    text = "".join(parts)
    return len(text) if text.isascii() else len(text.encode("utf-16-le")) // 2


class _Reread:
    """A block's preview runs, read again from its paragraph when asked for: one reader for every block
    of a walk (the runs are not kept from the walk, which needs only their text)."""

    __slots__ = ("doc", "positional_ids")

    def __init__(self, doc, positional_ids: set[str]):
        self.doc = doc
        self.positional_ids = positional_ids

    def runs(self, block: Block):
        entry = block.walk[0]
        walker = _Walker(self.doc, self.positional_ids)
        walker.state = StoryState(fields=list(entry[0]), footnotes=entry[1], endnotes=entry[2])
        return walker.paragraph_text(block.element)[1]["runs"]


def _join_texts(joined, text: str, extras: dict) -> tuple[str, dict]:
    """One accepted-view paragraph from the parts joined by deleted marks (the last part's style
    applies to all, as after accept-all): texts in order, boundaries moved by what precedes them."""
    texts, runs, boundaries, comments = [], [], [], []
    offset = 0
    pstyle = extras["pstyle"]
    doc = None
    for _p, part_text, part, *_walk in (*joined, (None, text, extras)):
        texts.append(part_text)
        if part["runs"]:
            doc = part["runs"][0]
            runs.extend(part["runs"][2])
        boundaries.extend({**b, "offset": b["offset"] + offset} for b in part["boundaries"])
        comments.extend(c for c in part["comments"] if c not in comments)
        offset += index_to_utf16(part_text, len(part_text))
    preview = (doc, pstyle, runs) if runs else None
    return "".join(texts), {"runs": preview, "boundaries": boundaries, "comments": comments, "pstyle": pstyle}


def _spacing_json(el) -> dict:
    out: dict[str, Any] = {}
    for attr, key in (("before", "spaceBefore"), ("after", "spaceAfter"), ("line", "lineSpacing")):
        v = int_attr(el, _W + attr)
        if v is not None:
            out[key] = v
    rule = el.get(_W + "lineRule")
    if rule is not None:
        out["lineSpacingRule"] = rule
    for attr, key in (("beforeAutospacing", "beforeAutospacing"), ("afterAutospacing", "afterAutospacing")):
        raw = el.get(_W + attr)
        if raw is not None:
            out[key] = raw.lower() in ("1", "true", "on")
    return out


def _indent_json(el) -> dict:
    out: dict[str, int] = {}
    for attrs, key in ((("left", "start"), "left"), (("right", "end"), "right"),
                       (("firstLine",), "firstLine"), (("hanging",), "hanging")):
        for attr in attrs:
            v = int_attr(el, _W + attr)
            if v is not None:
                out[key] = v
                break
    return out


def build_snapshot(doc, container: etree._Element, positional_ids: set[str]) -> Snapshot:
    """The blocks of one story container. doc: the document.Document (duck-typed, not imported: it
    builds its snapshots with this module)."""
    walker = _Walker(doc, positional_ids)
    walker.container(container)
    return Snapshot(walker.blocks, None, walker.comment_anchors)


def patched(doc, snap: Snapshot, paragraphs) -> Snapshot | None:
    """The snapshot after edits that changed only the runs of `paragraphs` (the same elements, with
    the same paragraph properties, still in the story): those blocks are read again and every
    other block is shared, so typing in a 500-page document does not re-read all of it. None when
    the edit could reach past those paragraphs (a complex field, a comment range or the count of
    note references crossing their edges changed; a text box; a positional id that counts blank
    paragraphs), and the story must be read afresh."""
    blocks, by_paragraph, anchors = snap.blocks, snap.block_of_paragraph, snap.anchors
    new_blocks: dict[int, Block] = {}
    new_by_paragraph: dict = {}
    new_comments: dict = {}
    positions = None
    for p in dict.fromkeys(paragraphs):
        old = by_paragraph.get(p)
        anchor = anchors.get(old.id) if old is not None else None
        if anchor is None or anchor.block is not old or old.walk is None or old.joined or p.getparent() is None:
            return None
        entry, leaving = old.walk
        if entry[3] or leaving[3]:
            return None  # inside a comment range that other paragraphs share: its quote spans them
        walker = _Walker(doc, doc.positional_ids)
        walker.state = StoryState(fields=list(entry[0]), footnotes=entry[1], endnotes=entry[2])
        text, extras = walker.paragraph_text(p)
        if walker.carried() != leaving or inline.text_boxes(p):
            return None
        block = replace(old, text=text, _preview=extras["runs"], walk=(entry, leaving), _more=Block.more(
            old.id_stability, extras["boundaries"] or None, old.table, old.diagnostic, extras["comments"] or None,
            old.joined, old.joined_starts))
        if block.is_content != old.is_content:
            if positions is None:
                positions = any(b.id.startswith(RESERVED_PREFIXES) for b in blocks)
            if positions:
                return None  # seq-/blank- ids count content and blank paragraphs
        for cid, comment in walker.comment_anchors.items():
            if cid in extras["comments"] and comment.block_id is None:
                comment.block_id = old.id
            new_comments[cid] = comment
        new_blocks[anchor.index] = block
        new_by_paragraph[p] = block
    # the newer snapshot takes the tables over (the other blocks keep their anchors: same block, same
    # place); copying them would cost more than the edit on a 500-page document
    new_anchors = {block.id: Anchor(block, index) for index, block in new_blocks.items()}
    return snap.hand_over(new_blocks, new_by_paragraph, new_anchors, new_comments)


__all__ = ["build_snapshot", "patched"]
