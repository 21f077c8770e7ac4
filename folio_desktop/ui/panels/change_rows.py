"""The reviewing pane's rows: the tracked-change census (docx/reading/changes.py) as a lawyer reads it.

The census lists every revision mark on its own: an inserted paragraph is two entries (its text and
its paragraph mark), a move is insertions and deletions whose marks happen to be w:moveTo /
w:moveFrom, an inserted table row is the row plus a mark per cell paragraph, and each empty
paragraph is an entry. Nobody decides on those one by one, so a row stands for every census entry
of one decision, and accepting or rejecting the row resolves them all:

- a move: both halves of one move as the census pairs them (docx/reading/moves.py: the w:name of its
  moveFromRangeStart / moveToRangeStart, or author, date and text), with the places it left and reached;
- an inserted or deleted table row with the marks of the paragraphs in its cells; adjacent rows of
  one table inserted (or deleted) together are one row;
- a whole inserted or deleted paragraph: its text and its paragraph mark (same block and author, the
  text being the paragraph's whole content: the rule ReviewActions resolves them together by);
- adjacent empty paragraphs inserted (or deleted) by one author;
- adjacent formatting changes of one paragraph made at once (same author, date and description).

A paragraph-mark change nothing else accounts for (a paragraph split or joined) is a row of its own.

difference_rows() words the same rows the way a comparison reads ("Clause 4.2: “shall” replaced by
“must”"), one row per changed paragraph. No Qt here: the panels put these rows on screen.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from lxml import etree

from ...docx.package.ooxml import W_NS
from ...docx.reading.changes import T_MOVE_FROM, T_MOVE_TO
from .change_content import titled
from .clause_places import Place, Places, clause_number, quote

_W = "{" + W_NS + "}"
T_P, T_T, T_DELTEXT, T_TAB, T_TR, T_TC, T_TBL = (_W + t for t in ("p", "t", "delText", "tab", "tr", "tc", "tbl"))
T_INS, T_DEL = _W + "ins", _W + "del"

# the type filter's categories, in the order it offers them
KINDS = {
    "modified": "Changed text",
    "insertion": "Insertions",
    "deletion": "Deletions",
    "move": "Moves",
    "formatting": "Formatting",
    "paragraph": "Paragraph breaks",
    "table": "Table rows and cells",
}
INLINE = ("insertion", "deletion")
MARKS = {"paragraphMarkInserted": "insertion", "paragraphMarkDeleted": "deletion"}
ROWS = {"rowInserted": "insertion", "rowDeleted": "deletion"}
SINGLE = {  # census type -> (title, kind) of a row standing for one entry
    "insertion": ("Inserted", "insertion"),
    "deletion": ("Deleted", "deletion"),
    "paragraphMarkInserted": ("Paragraph break inserted", "paragraph"),
    "paragraphMarkDeleted": ("Paragraph break deleted", "paragraph"),
    "rowInserted": ("Inserted table row", "table"),
    "rowDeleted": ("Deleted table row", "table"),
    "cellInserted": ("Inserted table cell", "table"),
    "cellDeleted": ("Deleted table cell", "table"),
    "cellMerged": ("Merged table cells", "table"),
    "sectionPropertiesChanged": ("Page layout changed", "formatting"),
    "tablePropertiesChanged": ("Table formatting changed", "formatting"),
    "rowPropertiesChanged": ("Row formatting changed", "formatting"),
    "cellPropertiesChanged": ("Cell formatting changed", "formatting"),
}

# run properties a formatting change names (w:rPrChange holds the old w:rPr, its parent the new one)
RUN_PROPS = {
    "b": "bold", "i": "italic", "u": "underline", "strike": "strikethrough", "dstrike": "double strikethrough",
    "caps": "all caps", "smallCaps": "small caps", "vanish": "hidden", "color": "font colour", "sz": "font size",
    "rFonts": "font", "highlight": "highlight", "shd": "shading", "vertAlign": "superscript or subscript",
    "lang": "language", "rStyle": "character style", "spacing": "character spacing", "position": "raised or lowered",
    "kern": "kerning", "w": "character width", "em": "emphasis mark", "bdr": "border", "outline": "outline",
    "shadow": "shadow", "emboss": "emboss", "imprint": "engrave",
}
TOGGLES = ("b", "i", "strike", "dstrike", "caps", "smallCaps", "vanish", "outline", "shadow", "emboss", "imprint")
PARA_PROPS = {
    "pStyle": "style", "jc": "alignment", "ind": "indentation", "spacing": "spacing", "numPr": "numbering",
    "keepNext": "keep with next", "keepLines": "keep lines together", "pageBreakBefore": "page break before",
    "widowControl": "widow control", "tabs": "tab stops", "outlineLvl": "outline level", "pBdr": "borders",
    "shd": "shading", "contextualSpacing": "spacing", "bidi": "right-to-left", "textAlignment": "alignment",
}
_NOT_PROPS = {_W + t for t in ("rPrChange", "pPrChange", "ins", "del", "moveFrom", "moveTo", "rPr", "sectPr")}
MAX_EDITS = 3  # edits of one paragraph spelt out; beyond, the first two and how many more


@dataclass
class ChangeRow:
    """One decision for the lawyer: the census entries it stands for and how to say what it is."""

    kind: str  # a KINDS key
    title: str  # what happened, in plain words
    changes: list  # the census entries (docx.changes.Change), in census order
    text: str  # the whole text concerned
    place: Place = field(default_factory=Place)
    detail: str = ""  # a second line: where a move went, what a paragraph now reads
    order: int = 0  # census position of its first entry
    source: Place | None = None  # a move: the place it left
    target: Place | None = None  # a move: the place it reached

    @property
    def ids(self) -> list[int]:
        return list(dict.fromkeys(c.id for c in self.changes))

    @property
    def author(self) -> str:
        return self.changes[0].author

    @property
    def date(self) -> str | None:
        return self.changes[0].date

    @property
    def story(self) -> str:
        return self.changes[0].story

    @property
    def shown(self):
        """The entry to select in the pages: its text rather than a paragraph mark."""
        return next((c for c in self.changes if c.type in INLINE or c.type == "formatting"), self.changes[0])


# -- reading the XML around a census entry ---------------------------------------------------------


def _ancestors(el, tag: str) -> list:
    out, node = [], el.getparent() if el is not None else None
    while node is not None:
        if node.tag == tag:
            out.append(node)
        node = node.getparent()
    return out


def _text(el) -> str:
    parts = []
    for node in el.iter(T_T, T_DELTEXT, T_TAB):
        parts.append("\t" if node.tag == T_TAB else node.text or "")
    return "".join(parts)


def row_text(tr) -> str:
    """A table row as its cells' texts: "Fees | Free Pilot | 30 days"."""
    return " | ".join(" ".join(_text(p) for p in tc.iter(T_P)).strip() for tc in tr.iterchildren(T_TC))


def paragraph_versions(p) -> tuple[str, str]:
    """(before, after) of a paragraph with tracked changes: the text with every change rejected and
    with every change accepted."""
    before, after = [], []
    for node in p.iter(T_T, T_DELTEXT, T_TAB):
        if node.tag == T_TAB and node.getparent().tag == _W + "tabs":
            continue
        text = "\t" if node.tag == T_TAB else node.text or ""
        inserted = deleted = False
        parent = node.getparent()
        while parent is not None and parent is not p:
            if parent.tag in (T_INS, T_MOVE_TO):
                inserted = True
            elif parent.tag in (T_DEL, T_MOVE_FROM):
                deleted = True
            parent = parent.getparent()
        deleted = deleted or node.tag == T_DELTEXT
        if not inserted:
            before.append(text)
        if not deleted:
            after.append(text)
    return "".join(before), "".join(after)


def _changed_props(new, old, names: dict, toggles=()) -> list[str]:
    """What differs between two property elements (w:rPr or w:pPr), in plain words."""
    def props(el):
        if el is None:
            return {}
        return {child.tag[len(_W):]: etree.tostring(child) for child in el
                if child.tag.startswith(_W) and child.tag not in _NOT_PROPS}
    a, b = props(old), props(new)
    out: list[str] = []
    for tag in sorted(set(a) | set(b), key=lambda t: (list(names).index(t) if t in names else len(names), t)):
        if a.get(tag) == b.get(tag) or tag not in names:
            continue
        word = names[tag]
        if tag in toggles:
            on = tag in b and not re.search(rb'w:val="(0|false|off)"', b[tag])
            word = word if on else f"not {word}"
        if word not in out:
            out.append(word)
    return out


def describe_formatting(change) -> str:
    """ "bold, not italic" for a w:rPrChange; "indentation" for a w:pPrChange; "" when unnamed."""
    el = change.element
    if el is None or el.getparent() is None:
        return ""
    old = el.find(_W + ("rPr" if change.type == "formatting" else "pPr"))
    if change.type == "formatting":
        return ", ".join(_changed_props(el.getparent(), old, RUN_PROPS, TOGGLES))
    return ", ".join(_changed_props(el.getparent(), old, PARA_PROPS))


# -- folding the census --------------------------------------------------------------------------------


def _whole(mark, texts: list, own: str | None = None) -> bool:
    """Is this text the paragraph's whole content (the mark's census text is the paragraph's
    accepted text: an inserted paragraph reads its insertions, a deleted one reads nothing)?
    own: the accepted text of the mark's own paragraph when its block reads more than it."""
    if not texts:
        return False
    own = mark.text if own is None else own
    if mark.type == "paragraphMarkInserted":
        # letters and digits only: the census text of a run has no non-breaking hyphen, the block's has
        return _letters("".join(c.text for c in texts)) == _letters(own)
    return not own.strip()


def _paragraph_of(change):
    el = getattr(change, "element", None)
    return next(el.iterancestors(T_P), None) if el is not None else None


def _own_text(change, places) -> str | None:
    """The accepted text of the paragraph a mark ends, when its block joins paragraphs whose deleted
    marks run them on into one (the census gives the whole block's text)."""
    i = places.index(change.story, change.block_id) if places is not None else None
    if i is None:
        return None
    block = places._stories[change.story][1][i]
    p = _paragraph_of(change)
    return block.text_of(p) if block.joined and p in block.paragraphs else None


def _letters(text: str) -> str:
    return re.sub(r"[\W_]+", "", text)


def change_rows(changes: list, places: Places | None = None) -> list[ChangeRow]:
    """The census folded into rows, in census order (story, then document order)."""
    places = places or Places()
    taken: set[int] = set()  # positions in `changes`
    rows: list[ChangeRow] = []

    def add(kind, title, members: list[int], text, place=None, detail="") -> ChangeRow:
        taken.update(members)
        first = changes[members[0]]
        title = titled(title, [changes[i].element for i in members], text)  # never a bare "Inserted"
        row = ChangeRow(kind, title, [changes[i] for i in sorted(members)], text,
                        place or places.place(first.story, first.block_id), detail, min(members))
        rows.append(row)
        return row

    _fold_moves(changes, places, add)
    _fold_table_rows(changes, taken, add)
    _fold_paragraphs(changes, taken, add, places)
    _fold_empty_paragraphs(changes, taken, places, add)
    _fold_formatting(changes, taken, add)
    _fold_adjacent(changes, taken, add)
    for i, change in enumerate(changes):
        if i in taken:
            continue
        title, kind = SINGLE.get(change.type, (change.type, "formatting"))
        text = change.text
        if change.type == "paragraphPropertiesChanged":
            described = describe_formatting(change)
            title = f"Paragraph formatting: {described}" if described else "Paragraph formatting changed"
        elif not text.strip() and change.type.endswith("PropertiesChanged"):
            text = places.place(change.story, change.block_id).text
        add(kind, title, [i], text)
    rows.sort(key=lambda r: r.order)
    return rows


def _fold_moves(changes, places, add) -> None:
    """Both halves of each move (the census pairs them: docx/reading/moves.py) as one row, saying where the
    text left and where it arrived; halves without a partner, one row per author and date."""
    groups: dict[tuple, list[int]] = {}
    for i, change in enumerate(changes):
        if change.is_move:
            key = change.move.key if change.move is not None else ("unpaired", change.author, change.date)
            groups.setdefault((change.story, key), []).append(i)
    for members in groups.values():
        moved = [changes[i] for i in members]
        away = [c for c in moved if c.element.tag == T_MOVE_FROM]
        here = [c for c in moved if c.element.tag == T_MOVE_TO]
        text_of = [c for c in (away or here) if c.type in INLINE] or away or here
        text = "\n".join(dict.fromkeys(c.text for c in text_of if c.text.strip()))
        source, source_name = _move_end(away, places)
        target, target_name = _move_end(here, places)
        detail = " ".join(filter(None, (f"from {source_name}" if source_name else "",
                                        f"to {target_name}" if target_name else "")))
        row = add("move", "Moved", members, text, source or target, detail[0].upper() + detail[1:] if detail else "")
        row.source, row.target = source, target


def _move_end(halves, places) -> tuple[Place | None, str]:
    """(the place one end of a move stands in, how a sentence names it): its clause number, else the
    paragraph's own words beside the moved text, else the paragraph before it."""
    if not halves:
        return None, ""
    first = next((c for c in halves if c.type in INLINE and c.text.strip()), halves[0])
    place = places.place(first.story, first.block_id)
    if place.numbered:
        return place, place.name()
    moved = "".join(c.text for c in halves if c.block_id == first.block_id and c.type in INLINE)
    beside = place.text.replace(moved, "", 1) if first.element.tag == T_MOVE_TO else place.text
    if beside.strip():
        return place, f"the paragraph {quote(beside, 40)}"
    before = places.text_before(first.story, first.block_id)
    return place, f"the paragraph after {quote(before, 40)}" if before else ""


def _fold_table_rows(changes, taken, add) -> None:
    """Inserted/deleted rows with the marks and text of their cells; adjacent rows joined."""
    by_tr: dict = {}  # w:tr -> position of its row entry
    for i, change in enumerate(changes):
        if change.type in ROWS and i not in taken:
            by_tr[change.element.getparent().getparent()] = i
    if not by_tr:
        return
    members: dict[int, list[int]] = {i: [i] for i in by_tr.values()}
    for i, change in enumerate(changes):
        if i in taken or change.type in ROWS or (change.type not in MARKS and change.type not in INLINE):
            continue
        direction = MARKS.get(change.type, change.type)
        for tr in _ancestors(change.element, T_TR):
            owner = by_tr.get(tr)
            if owner is not None and ROWS[changes[owner].type] == direction and changes[owner].author == change.author:
                members[owner].append(i)
                break
    # a row inside an inserted row's cell belongs to the outer row
    for tr, i in list(by_tr.items()):
        for outer in _ancestors(tr, T_TR):
            owner = by_tr.get(outer)
            if owner is not None and changes[owner].type == changes[i].type and owner in members and i in members:
                members[owner] += members.pop(i)
                break
    runs: list[list] = []  # [first tr, last tr, positions]
    for i in sorted(members):
        tr = changes[i].element.getparent().getparent()
        last = runs[-1] if runs else None
        if last is not None and _next_row(last[1]) is tr and changes[last[2][0]].type == changes[i].type \
                and changes[last[2][0]].author == changes[i].author:
            last[1] = tr
            last[2] += members[i]
            last[3].append(tr)
        else:
            runs.append([tr, tr, list(members[i]), [tr]])
    for first, _last, positions, trs in runs:
        verb = "Inserted" if changes[positions[0]].type == "rowInserted" else "Deleted"
        table = first.getparent()
        if len(trs) == len(table.findall(T_TR)) and len(trs) > 1:
            title = f"{verb} table ({len(trs)} rows)"
        else:
            title = f"{verb} table row" if len(trs) == 1 else f"{verb} {len(trs)} table rows"
        add("table", title, positions, "\n".join(row_text(tr) for tr in trs))


def _next_row(tr):
    node = tr.getnext()
    while node is not None and node.tag != T_TR:
        node = node.getnext()
    return node


def _fold_paragraphs(changes, taken, add, places=None) -> None:
    # keyed by paragraph too: a block may read several, joined by deleted marks (docx/reading/accepted.py)
    by_block: dict[tuple, list[int]] = {}
    for i, change in enumerate(changes):
        if i not in taken and change.type in INLINE and not change.is_move:
            key = (change.story, change.block_id, _paragraph_of(change), change.type, change.author)
            by_block.setdefault(key, []).append(i)
    for i, change in enumerate(changes):
        if i in taken or change.type not in MARKS or change.is_move or not change.block_id:
            continue
        key = (change.story, change.block_id, _paragraph_of(change), MARKS[change.type], change.author)
        texts = [j for j in by_block.get(key, ()) if j not in taken]
        if _whole(change, [changes[j] for j in texts], _own_text(change, places)):
            verb = "Inserted" if change.type == "paragraphMarkInserted" else "Deleted"
            add(MARKS[change.type], f"{verb} paragraph", [i] + texts, "".join(changes[j].text for j in texts))


def _fold_empty_paragraphs(changes, taken, places, add) -> None:
    # a paragraph whose words someone else changed is not an empty paragraph, whatever its mark
    busy = {(c.story, c.block_id) for i, c in enumerate(changes) if i not in taken and c.type in INLINE}
    open_runs: dict[tuple, list] = {}  # (story, author, type) -> [last block index, positions]
    runs = []
    for i, change in enumerate(changes):
        if i in taken or change.type not in MARKS or change.text.strip() or (change.story, change.block_id) in busy:
            continue
        index = places.index(change.story, change.block_id)
        key = (change.story, change.author, change.type)
        run = open_runs.get(key)
        if run is not None and index is not None and run[0] is not None and index == run[0] + 1:
            run[0] = index
            run[1].append(i)
        else:
            run = open_runs[key] = [index, [i]]
            runs.append(run)
    for _index, positions in runs:
        verb = "Inserted" if changes[positions[0]].type == "paragraphMarkInserted" else "Deleted"
        n = len(positions)
        add("paragraph", f"{verb} empty paragraph" if n == 1 else f"{verb} {n} empty paragraphs", positions, "")


def _fold_formatting(changes, taken, add) -> None:
    run: list[int] = []
    said = None

    def close():
        if run:
            add("formatting", f"Formatted: {said}" if said else "Formatted", list(run),
                "".join(changes[j].text for j in run))
            run.clear()

    for i, change in enumerate(changes):
        if i in taken or change.type != "formatting":
            close()
            continue
        words = describe_formatting(change)
        last = changes[run[-1]] if run else None
        if last is not None and (last.story, last.block_id, last.author, last.date, said) == \
                (change.story, change.block_id, change.author, change.date, words):
            run.append(i)
            continue
        close()
        run.append(i)
        said = words
    close()


_SILENT = {_W + t for t in ("bookmarkStart", "bookmarkEnd", "proofErr", "commentRangeStart", "commentRangeEnd",
                            "permStart", "permEnd")}


def _follows(a, b) -> bool:
    """Does revision element b come straight after a, with nothing but markers between?"""
    node = a.getnext() if a is not None else None
    while node is not None and node is not b and node.tag in _SILENT:
        node = node.getnext()
    return node is b


def _fold_adjacent(changes, taken, add) -> None:
    """Insertions (or deletions) written one run each, with nothing between them, are one edit."""
    run: list[int] = []

    def close():
        if run:
            title, kind = SINGLE[changes[run[0]].type]
            add(kind, title, list(run), "".join(changes[j].text for j in run))
            run.clear()

    for i, change in enumerate(changes):
        if i in taken or change.type not in INLINE:
            close()
            continue
        last = changes[run[-1]] if run else None
        if last is None or (last.type, last.story, last.block_id, last.author, last.date, last.is_move) != \
                (change.type, change.story, change.block_id, change.author, change.date, change.is_move) \
                or not _follows(last.element, change.element):
            close()
        run.append(i)
    close()


# -- the same rows, worded as a comparison ------------------------------------------------------------


def difference_rows(changes: list, places: Places | None = None) -> list[ChangeRow]:
    """Rows for a redline's differences panel: every change of one paragraph's wording is one row,
    and each row's title is a sentence ("Clause 4.2: “shall” replaced by “must”")."""
    places = places or Places()
    out: list[ChangeRow] = []
    by_block: dict[tuple, ChangeRow] = {}
    for row in change_rows(changes, places):
        if row.title in ("Inserted", "Deleted") or row.title.startswith(("Formatted", "Paragraph formatting")):
            key = (row.story, row.changes[0].block_id)
            merged = by_block.get(key)
            if merged is not None:
                merged.changes += row.changes
                continue
            row = ChangeRow("modified", "", list(row.changes), row.text, row.place, order=row.order)
            by_block[key] = row
        out.append(row)
    for row in out:
        _word_difference(row)
    return out


def _word_difference(row: ChangeRow) -> None:
    place = row.place
    if row.kind == "modified":
        edits, formats = _edits(row.changes)
        kinds = {c.type for c in row.changes}
        if not kinds & set(INLINE):
            row.kind = "formatting"
        # a paragraph changed in many places: the first edits, then how many more
        parts = edits if len(edits) <= MAX_EDITS else edits[:MAX_EDITS - 1] + [f"{len(edits) - MAX_EDITS + 1} more edits"]
        if formats:
            parts.append(f"formatting changed ({', '.join(formats)})" if any(formats) else "formatting changed")
        row.title = f"{place.name(capital=True)}: {'; '.join(parts)}"
        p = row.changes[0].element
        p = p if p is not None and p.tag == T_P else next(iter(_ancestors(p, T_P)), None)
        if p is not None:
            before, after = paragraph_versions(p)
            row.text = after
            row.detail = f"Was: {before}" if before != after else ""
        return
    text = quote(row.text) if row.text.strip() else ""
    if row.kind == "move":
        where = row.detail[:1].lower() + row.detail[1:]  # "from clause 7.11 to the paragraph “…”"
        row.title = f"Moved: {text} {where}".replace("  ", " ").strip()
    elif row.title in ("Inserted paragraph", "Deleted paragraph") and not text:
        verb = "New" if row.kind == "insertion" else "Deleted"
        row.title = f"{verb} empty paragraph{place.where()}"
    elif row.title == "Inserted paragraph":
        row.title = f"New clause {place.label}: {text}" if place.label and not place.story_name else \
            f"New paragraph{place.where()}: {text}" if place.where() and not place.story_name else \
            f"New paragraph in {place.name()}: {text}" if place.story_name else f"New paragraph: {text}"
    elif row.title == "Deleted paragraph":
        row.title = f"Deleted: clause {place.label} {text}" if place.label and not place.story_name else \
            f"Deleted paragraph{place.where()}: {text}" if place.where() and not place.story_name else \
            f"Deleted paragraph: {text}"
    elif row.kind == "table":
        where = place.where()
        row.title = f"{row.title.replace('Inserted', 'New').replace('Deleted', 'Removed')}{where}: " \
                    f"{quote(row.text.splitlines()[0]) if row.text.strip() else ''}".rstrip(": ")
    elif row.kind == "paragraph" and "empty" in row.title:
        row.title = f"{row.title}{place.where()}"
    elif row.title == "Paragraph break inserted":
        row.title = f"{place.name(capital=True)} split into two paragraphs after {text}"
    elif row.title == "Paragraph break deleted":
        row.title = f"{place.name(capital=True)} joined with the paragraph after it"
    else:
        row.title = f"{place.name(capital=True)}: {row.title[0].lower()}{row.title[1:]}"


def _edits(changes: list) -> tuple[list[str], list[str]]:
    """(wording edits, formatting descriptions) of one paragraph's inline changes: a deletion
    followed by an insertion reads as a replacement."""
    edits, formats = [], []
    i = 0
    while i < len(changes):
        c = changes[i]
        nxt = changes[i + 1] if i + 1 < len(changes) else None
        if c.type == "deletion" and nxt is not None and nxt.type == "insertion" and c.text.strip() and nxt.text.strip():
            edits.append(f"{quote(c.text)} replaced by {quote(nxt.text)}")
            i += 2
            continue
        if c.type in INLINE:
            what = quote(c.text) if c.text.strip() else "content without text (a picture, field or space)"
            edits.append(f"{what} {'deleted' if c.type == 'deletion' else 'inserted'}")
        else:
            words = describe_formatting(c)
            for word in words.split(", ") if words else [""]:
                if word not in formats:
                    formats.append(word)
        i += 1
    named = [f for f in formats if f]
    # "bold" and "not bold" together (several runs, made bold and unbolded) say only what changed
    named = [f for f in named if not (f.startswith("not ") and f[4:] in named)]
    return edits, named or formats


def counts(rows: list[ChangeRow]) -> tuple[dict[str, int], dict[str, int]]:
    """(rows per kind in KINDS order, rows per author by number then name)."""
    kinds: dict[str, int] = {}
    authors: dict[str, int] = {}
    for row in rows:
        kinds[row.kind] = kinds.get(row.kind, 0) + 1
        authors[row.author] = authors.get(row.author, 0) + 1
    kinds = {k: kinds[k] for k in KINDS if k in kinds} | {k: v for k, v in kinds.items() if k not in KINDS}
    authors = dict(sorted(authors.items(), key=lambda kv: (-kv[1], kv[0].casefold())))
    return kinds, authors


__all__ = ["KINDS", "ChangeRow", "Place", "Places", "change_rows", "clause_number", "counts", "difference_rows",
           "paragraph_versions", "quote"]
