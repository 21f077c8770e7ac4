"""Tracked moves: which w:moveFrom and w:moveTo marks of a story are the two halves of one move.

Word writes a move as two named ranges: w:moveFromRangeStart / End around the text that left (in
w:moveFrom wrappers, its text as w:t or w:delText) and w:moveToRangeStart / End with the same w:name
around the text where it arrived (in w:moveTo). Ranges are matched to their ends by w:id; a mark
belongs to the innermost range of its side that is open where it stands. A paragraph's own mark
(w:pPr/w:rPr/w:moveFrom) sits before a range that starts inside the paragraph, so it takes the move
of the marks in its paragraph.

Without range markers (some writers drop them) the halves of one author and date are paired by
their text: a stretch of w:moveFrom marks with a stretch of w:moveTo marks that reads the same, or
the only stretch of each. A half with no partner is no move: it stays a plain insertion or deletion.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..package.ooxml import MC_FALLBACK, W_NS

_W = "{" + W_NS + "}"
T_MOVE_FROM, T_MOVE_TO = _W + "moveFrom", _W + "moveTo"
RANGE_STARTS = {_W + "moveFromRangeStart": "from", _W + "moveToRangeStart": "to"}
RANGE_ENDS = {_W + "moveFromRangeEnd": "from", _W + "moveToRangeEnd": "to"}
T_P, T_PPR, T_RPR = _W + "p", _W + "pPr", _W + "rPr"
_TEXT = (_W + "t", _W + "delText", _W + "tab")


@dataclass(eq=False)
class Move:
    """One move: its key (the range name, or author|date|n when unnamed), the w:ids of its marks
    (wrappers, paragraph and run marks) so that resolving one half resolves all, and its range
    markers, kept as elements: writers number them apart from revisions, so their w:id may be another
    revision's (our own redline writer does)."""

    key: str
    author: str
    date: str | None
    ids: set = field(default_factory=set)
    marks: list = field(default_factory=list)  # its w:moveFrom / w:moveTo elements, document order
    ranges: list = field(default_factory=list)  # its range start and end markers


def _side(el) -> str:
    return "from" if el.tag == T_MOVE_FROM else "to"


def _is_paragraph_mark(el) -> bool:
    parent = el.getparent()
    return parent is not None and parent.tag == T_RPR and parent.getparent() is not None \
        and parent.getparent().tag == T_PPR


def _text(marks) -> str:
    out = []
    for el in marks:
        if _is_paragraph_mark(el) or (el.getparent() is not None and el.getparent().tag == T_RPR):
            continue
        for node in el.iter(*_TEXT):
            out.append("\t" if node.tag == _W + "tab" else node.text or "")
    return " ".join("".join(out).split())


def _int_id(raw: str) -> int | str:
    try:
        return int(raw)
    except ValueError:
        return raw


def _paragraph(el):
    return next(el.iterancestors(T_P), None)


def find_moves(container) -> dict:
    """Each w:moveFrom / w:moveTo element of the container that is half of a move -> its Move."""
    open_ranges: dict[str, dict[str, str]] = {"from": {}, "to": {}}
    range_els: dict[str, list] = {}  # name -> its range markers
    named: dict[str, dict[str, list]] = {}  # name -> side -> marks
    unnamed: list = []
    tags = (*RANGE_STARTS, *RANGE_ENDS, T_MOVE_FROM, T_MOVE_TO)
    # text boxes are stored twice (mc:Choice and its VML mc:Fallback copy): pair the Choice only
    fallback = {el for fb in container.iter(MC_FALLBACK) for el in fb.iter(*tags)}
    for el in container.iter(*tags):
        if el in fallback:
            continue
        rid = el.get(_W + "id")
        if el.tag in RANGE_STARTS:
            name = el.get(_W + "name") or f"#{rid}"
            open_ranges[RANGE_STARTS[el.tag]][rid] = name
            range_els.setdefault(name, []).append(el)
        elif el.tag in RANGE_ENDS:
            name = open_ranges[RANGE_ENDS[el.tag]].pop(rid, None)
            if name is not None:
                range_els[name].append(el)
        else:
            ranges = open_ranges[_side(el)]
            if ranges:
                named.setdefault(next(reversed(ranges.values())), {"from": [], "to": []})[_side(el)].append(el)
            else:
                unnamed.append(el)
    # a paragraph mark before its paragraph's range start takes the move of the marks inside
    by_paragraph = {(_paragraph(el), _side(el)): name for name, sides in named.items()
                    for side, marks in sides.items() for el in marks if not _is_paragraph_mark(el)}
    still = []
    for el in unnamed:
        name = by_paragraph.get((_paragraph(el), _side(el))) if _is_paragraph_mark(el) else None
        if name is not None:
            named[name][_side(el)].append(el)
        else:
            still.append(el)
    unnamed = still
    moves: dict = {}

    def pair(key, marks, ranges=()):
        first = marks[0]
        move = Move(key, first.get(_W + "author", ""), first.get(_W + "date"))
        move.marks = sorted(marks, key=_order.get)
        move.ids = {_int_id(raw) for raw in (m.get(_W + "id") for m in marks) if raw is not None}
        move.ranges = list(ranges)
        for m in marks:
            moves[m] = move

    _order = {el: i for i, el in enumerate(container.iter(T_MOVE_FROM, T_MOVE_TO))}
    for name, sides in named.items():
        if sides["from"] and sides["to"]:
            pair(name, sides["from"] + sides["to"], range_els.get(name, ()))
        else:  # one side only: its partner may be an unnamed stretch
            unnamed.extend(sides["from"] + sides["to"])
    unnamed.sort(key=_order.get)
    _pair_unnamed(unnamed, pair)
    return moves


def _pair_unnamed(marks: list, pair) -> None:
    """Stretches of one side, author and date within a paragraph, paired by equal text; what is left
    of one author and date pairs when it is one stretch each, or reads the same on both sides (one
    move over several paragraphs)."""
    stretches: dict[tuple, dict[str, list]] = {}
    last = None
    for el in marks:
        who = (el.get(_W + "author", ""), el.get(_W + "date"))
        sides = stretches.setdefault(who, {"from": [], "to": []})
        here = (who, _side(el), _paragraph(el))
        if here == last:
            sides[_side(el)][-1].append(el)
        else:
            sides[_side(el)].append([el])
        last = here
    n = 0
    for (author, date), sides in stretches.items():
        arrivals: dict[str, list] = {}  # text -> stretches that arrived with it, first first
        for stretch in sides["to"]:
            arrivals.setdefault(_text(stretch), []).append(stretch)
        froms, paired = [], set()
        for away in sides["from"]:
            text = _text(away)
            waiting = arrivals.get(text) if text else None
            if not waiting:
                froms.append(away)
                continue
            arrived = waiting.pop(0)
            paired.add(id(arrived))
            n += 1
            pair(f"{author}|{date}|{n}", away + arrived)
        tos = [t for t in sides["to"] if id(t) not in paired]
        away, arrived = [m for s in froms for m in s], [m for s in tos for m in s]
        if away and arrived and (len(froms) == len(tos) == 1 or _text(away) == _text(arrived)):
            n += 1
            pair(f"{author}|{date}|{n}", away + arrived)


__all__ = ["Move", "find_moves"]
