"""Footnotes at the foot of the page of their reference: numbered in reference order, measured, given
the room under the text line by line as their references are placed, split (under widow control)
or held over whole when they do not fit, and continued at the foot of the next page under a
full-width separator.

The functions take the Paginator (engine.py) whose page they fill, as floating.py's do.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF

from ..docx.package.ooxml import W_NS
from .model import Fragment, MeasuredParagraph

_W = "{" + W_NS + "}"
T_P = _W + "p"
NOTE_SEPARATOR_GAP = 6.0
MIN_BODY_UNDER_NOTES = 96.0  # continued notes leave at least an inch of the page to its own text


def number_notes(doc) -> dict:
    """(kind, w:id) -> the number each footnote and endnote shows: counted in the order of their
    first reference in the body, footnotes and endnotes apart."""
    numbers: dict = {}
    counters = {"footnote": 0, "endnote": 0}
    for ref in doc.body.iter(_W + "footnoteReference", _W + "endnoteReference"):
        kind = "footnote" if ref.tag.endswith("footnoteReference") else "endnote"
        raw = ref.get(_W + "id", "")
        if not raw.lstrip("-").isdigit():
            continue
        if (kind, int(raw)) not in numbers:
            counters[kind] += 1
            numbers[(kind, int(raw))] = str(counters[kind])
    return numbers


def _note_paragraphs(pg, kind: str, note_id: int):
    key = (kind, note_id)
    if key in pg._note_cache:
        return pg._note_cache[key]
    out = []
    note = _note_elements(pg, kind).get(str(note_id))
    if note is not None and kind == "footnote":
        for p in note.iter(T_P):
            out.append((p, pg.measure(p, pg._column.width, story=f"{kind}:{note_id}")))
    pg._note_cache[key] = out
    return out


def _note_elements(pg, kind: str) -> dict:
    """w:id -> the w:footnote (or w:endnote) element, indexed once rather than searched per note."""
    index = pg._note_index.get(kind)
    if index is None:
        index = {}
        part = pg.doc.related_part(kind + "s")
        if part is not None:
            for note in pg.doc.package.xml(part).iterchildren(_W + kind):
                index.setdefault(note.get(_W + "id"), note)
        pg._note_index[kind] = index
    return index


def _line_notes(pg, para: MeasuredParagraph, line_index: int):
    if not para.note_refs:  # (most paragraphs: asked for every line placed)
        return
    line = para.lines[line_index]
    for offset, kind, note_id in para.note_refs:
        if line.start <= offset < line.end and kind == "footnote":
            yield note_id, _note_paragraphs(pg, kind, note_id)


def notes_for_line(pg, para: MeasuredParagraph, line_index: int, least: bool = False) -> float:
    """Height the footnotes referenced on this line add to the page: all of them, or with
    least, the smallest start that may stay with the line (the last note's opening lines)."""
    notes = list(_line_notes(pg, para, line_index)) if para.note_refs else None
    if not notes:
        return 0.0
    height = 0.0 if pg._page_notes else NOTE_SEPARATOR_GAP * 2
    for n, (_note_id, paragraphs) in enumerate(notes):
        if least and n == len(notes) - 1:
            if pg._note_carry:
                return float("inf")  # notes already continue to the next page: no room to start another
            # under notes already on the page the note may go whole to the next one
            return height + (0.0 if pg._page_notes else _note_head_height(paragraphs))
        height += _note_height(paragraphs)
    return height


def take_notes(pg, para: MeasuredParagraph, line_index: int) -> None:
    """Give the page the notes referenced on this (placed) line, as much of them as fits
    under the text; the rest continues at the foot of the next page."""
    for note_id, paragraphs in _line_notes(pg, para, line_index):
        if not pg._page_notes:
            pg._notes_height += NOTE_SEPARATOR_GAP * 2
        if pg._note_carry:  # an earlier note already continues: this one follows it there
            pg._note_carry.append((note_id, [(p, m, 0) for p, m in paragraphs]))
            continue
        room = pg._column.bottom - pg._notes_height - pg._y
        pieces = [(p, m, 0) for p, m in paragraphs]
        if pg._page_notes and _note_height(paragraphs) > room + 0.01:
            # under notes the page already holds, one that does not fit whole goes whole to
            # the next page while its reference stays (LibreOffice: ILPA LPA page 41, note 17);
            # only a page's first note is split to keep its opening lines with the reference
            pg._note_carry.append((note_id, pieces))
            continue
        _give_page(pg, note_id, pieces, room)


def place_note_carry(pg) -> None:
    """The notes held over from the page before open this page's footnote area (under a
    full-width continuation separator when the first of them is continued mid-way); what
    still does not fit goes on to the next page."""
    carry, pg._note_carry = pg._note_carry, []
    col = pg._columns[0]
    pg._notes_height += NOTE_SEPARATOR_GAP * 2
    _note_id, first_pieces = carry[0]
    if first_pieces and first_pieces[0][2] > 0:
        pg._page_notes.append(("continuation", []))
    for note_id, pieces in carry:
        if pg._note_carry:
            pg._note_carry.append((note_id, pieces))
            continue
        room = col.bottom - col.top - pg._notes_height - MIN_BODY_UNDER_NOTES
        _give_page(pg, note_id, pieces, room)


def _give_page(pg, note_id, pieces, room: float) -> None:
    """Put as much of a note as fits in room on the page; the rest continues on the next."""
    taken, rest, height = _split_note(pieces, room)
    pg._page_notes.append((note_id, taken))
    pg._notes_height += height
    if rest:
        pg._note_carry.append((note_id, rest))


def stack_notes(pg) -> None:
    """Stack the page's footnotes above its bottom margin, under a short separator rule
    (a full-width one above notes continued from the page before)."""
    if not pg._page_notes:
        return
    page = pg._page
    col = pg._columns[0]
    y = col.bottom - pg._notes_height
    continued = pg._page_notes[0][0] == "continuation"
    page.rules.append(QRectF(col.x, y + NOTE_SEPARATOR_GAP, col.width if continued else min(144.0, col.width / 3),
                             0.75))
    y += NOTE_SEPARATOR_GAP * 2
    for note_id, pieces in pg._page_notes:
        if note_id == "continuation":
            continue
        for p, measured, first, last in pieces:
            frag = Fragment(f"footnote:{note_id}", p.get("{http://schemas.microsoft.com/office/word/2010/wordml}paraId"),
                            measured, first, last, col.x, y - measured.lines[first].y)
            page.fragments.append(frag)
            y = frag.bottom + (measured.space_after if last == len(measured.lines) - 1 else 0.0)


def _note_height(paragraphs) -> float:
    return sum(m.content_height + m.space_after for _p, m in paragraphs)


def _note_head_height(paragraphs) -> float:
    """The least of a note that may start on a page: its first line; under widow control its
    first two, or all of a note of three lines or fewer (which cannot split 2 + 2)."""
    if not paragraphs:
        return 0.0
    m = paragraphs[0][1]
    head = 1 if not m.widow_control else (2 if len(m.lines) > 3 else len(m.lines))
    return sum(line.height for line in m.lines[:head])


def _split_note(pieces, room: float):
    """Split a note's remaining paragraphs [(p, measured, first line)] at the room left: returns
    the placed pieces [(p, measured, first, last)], the rest to continue, and the placed height.
    A note paragraph under widow control leaves neither one line behind nor one line ahead."""
    taken, height = [], 0.0
    for index, (p, m, start) in enumerate(pieces):
        lines = m.lines
        end = start
        used = 0.0
        while end < len(lines) and height + used + lines[end].height <= room + 0.01:
            used += lines[end].height
            end += 1
        if end == len(lines):
            taken.append((p, m, start, end - 1))
            height += used + m.space_after
            continue
        if m.widow_control and end > start:
            if len(lines) - end == 1 and end - start > 1:
                end -= 1  # no widow on the next page
            if start == 0 and end == 1 and len(lines) > 1:
                end = 0  # no orphan here
        if end > start:
            taken.append((p, m, start, end - 1))
            height += sum(line.height for line in lines[start:end])
        rest = [(p, m, end)] + list(pieces[index + 1:])
        return taken, rest, height
    return taken, [], height
