"""Which capitalised phrases are used as defined terms that the document never defines (undefinedTerm).

A run of capitalised words standing mid-sentence, not covered by a defined term, is a candidate. It is
not an undefined term when the text shows it is something else: a clause title quoted after a
cross-reference ("Section 6.2 (Terms and Conditions)"), a term defined by reference ("Deemed Liquidation
Event (as defined in the Restated Certificate)"), a name designated without quotes ("identified as any of
the following: Library, Platforms"), the name of a body, statute, firm, office or product, a citation
("Revenue Procedure 2001-43", "Code Section 705"), a reference to an article or schedule ("Article Fourth",
"Schedule of Purchasers"), a clause's own title, or words inside a drafting note. A term the document
names as defined elsewhere ("the definitions of “UBTI”") that is defined nowhere is undefined."""

from __future__ import annotations

import re
from collections import defaultdict

from .definitions import referenced_terms
from .known_names import name_spans
from .words import (
    capital_runs,
    heading_like,
    is_acronym,
    is_capitalised,
    joins,
    run_in_heading_end,
    strip_possessive,
)

_AFTER_REFERENCE = re.compile(r"\b(?:Sections?|Articles?|Clauses?|Schedules?|Exhibits?|Annex|Appendix|Parts?)\s+"
                              r"[\w.]+(?:\([\w]{1,4}\))*\s*\(")
# "Deemed Liquidation Event (as defined in the Restated Certificate)", "the Distribution Terms described in
# the REDIST.TXT file"
_BY_REFERENCE = re.compile(r"\s*[(,]?\s*(?:as\s+)?defined\s+(?:in|under|by)\b|\s+(?:described|listed|contained)\s+in\s+"
                           r"(?:the\s+|a\s+)?(?:[^.;,]|\.(?=\S)){0,40}?\b(?:file|document|policy|website)\b")
_DESIGNATED = re.compile(r"\b(?:identified|designated|known)\s+as\s+[^:.;]{0,40}:\s*([^.;]*)")
_CELL_LABEL = re.compile(r"(?:\[[^\]]{0,6}\]\s*)?([A-Z][\w’'-]*(?:\s+[A-Z][\w’'-]*){0,5}):\s")
_MEANING_GIVEN = re.compile(r"(?:^|[.:;]\s+)([A-Z][\w-]*(?:\s+[A-Z][\w-]*){0,4})\s+(?:has|have)\s+the\s+meanings?\b")
_DRAFTING_NOTE = re.compile(r"\[\s*(?:drafting\s+note|note\s+to\s+(?:draft|drafter)|NTD)\b", re.I)
_TYPED_NUMBER = re.compile(r"^(?:\d+(?:\.\d+)*\.?|\(?[a-z]{1,4}[.)]|[A-Z]\.)\s+")
_CITED = re.compile(r"\s+(?:[A-Z]{0,2}-?\d|\[[_●•.\s]*\])")  # "Revenue Procedure 2001-43", "Form W-9", "Series [___]"
_POSSESSIVE = ("'s", "’s")
_REFERENCE_WORDS = frozenset("""Section Sections Article Articles Clause Clauses Schedule Schedules Exhibit Exhibits
Annex Appendix Part Parts Paragraph Paragraphs""".split())


def _closing(text: str, opened: int, pair: str) -> int:
    """The end of the bracket opened at `opened` (nested ones skipped), or the text's end."""
    depth = 0
    for i in range(opened, len(text)):
        if text[i] == pair[0]:
            depth += 1
        elif text[i] == pair[1]:
            depth -= 1
            if depth == 0:
                return i + 1
    return len(text)


def _titles_after_references(text: str) -> list[tuple[int, int]]:
    return [(m.end() - 1, _closing(text, m.end() - 1, "()")) for m in _AFTER_REFERENCE.finditer(text)]


def _blocked(text: str) -> list[tuple[int, int]]:
    """Spans whose capitalised words are no uses of terms: titles after references, notes, names."""
    spans = _titles_after_references(text)
    spans += [(m.start(), _closing(text, m.start(), "[]")) for m in _DRAFTING_NOTE.finditer(text)]
    return spans + [(s, e) for s, e, _brand in name_spans(text)]


def _row_name(unit) -> bool:
    """Is the paragraph in the first cell of a table row whose other cells say something?"""
    cell = unit.element.getparent() if unit.element is not None else None
    row = cell.getparent() if cell is not None else None
    if row is None or not cell.tag.endswith("}tc") or not row.tag.endswith("}tr"):
        return False
    cells = [c for c in row if c.tag.endswith("}tc")]
    return cells[0] is cell and any("".join(c.itertext()).strip() for c in cells[1:])


def table_labels(units) -> set[str]:
    """Short capitalised row names of tables (an order form's "Effective Date", "Governing Law") and names a
    cell gives before a colon ("[ x ] Provider Covered Claims: [Any action ...]"): terms a table defines by
    what it puts beside them, so never undefined terms (a title cell is no row name)."""
    out = set()
    for u in units:
        if not u.in_table:
            continue
        text = u.text.strip()
        if 0 < len(text.split()) <= 5 and is_capitalised(text) and not text.endswith(".") and _row_name(u):
            out.add(text)
        named = _CELL_LABEL.match(text)
        if named:
            out.update({named.group(1), named.group(1).removesuffix("s")})
    return out


def titles(units) -> set[str]:
    """The titles standing in capitals on their own line ("LIMITED WARRANTY", "DISCLOSURE SCHEDULE"), lower
    case: a phrase that is one ("the Limited Warranty referenced below") refers to that part."""
    out = set()
    for unit in units:
        text = _TYPED_NUMBER.sub("", unit.text.strip()).strip(" .:")
        if text.isupper() and heading_like(unit) and "\t" not in text and not unit.in_table and unit.story == "main":
            out.add(text.lower())
    return out


def designated(units) -> set[str]:
    """Capitalised names a paragraph designates without quotes ("identified as any one or more of the
    following: Library, Platforms, Server Products"; "Variables have the meanings given on the Order Form")."""
    out = set()
    for unit in units:
        for m in _DESIGNATED.finditer(unit.text):
            for run in capital_runs(m.group(1)):
                out.add(strip_possessive(m.group(1)[run[0][1]:run[-1][2]]))
        for m in _MEANING_GIVEN.finditer(unit.text):
            out.update({m.group(1), m.group(1).removesuffix("s")})
    return out


def _short_cell(unit) -> bool:
    return unit.in_table and len(unit.text.split()) <= 8 and ". " not in unit.text


def _phrases(text: str, run: list, terms, cut, single):
    """The phrases of a run of capitalised words that no defined term of several words covers, standing
    mid-sentence: (start, end, first word). A possessive ends a phrase ("Customer’s Evaluation Purposes");
    words joined to a defined term make another term ("Excused Limited Partner", "Tranche Closing Condition")."""
    piece: list = []
    after_possessive = False
    lead = before = None  # the defined term just before: (start, end, mid-sentence)
    for tok in [*run, None]:
        span = next(((s, e) for s, e in terms if s <= tok[1] < e), None) if tok is not None else None
        inside = tok is not None and (span is not None or any(s <= tok[1] < e for s, e in cut))
        if tok is not None and not inside:
            if not piece:
                lead = before if before and joins(text, before[1], tok[1]) else None
            piece.append(tok)
            if not tok[0].endswith(_POSSESSIVE):
                continue
        yield from _trimmed(text, piece, tok if inside else None, terms, single, after_possessive, lead)
        after_possessive = bool(piece) and piece[-1][0].endswith(_POSSESSIVE)
        piece, lead = [], None
        if span and span[0] == tok[1]:
            before = (span[0], span[1], tok[3])


def _trimmed(text, piece, term_tok, terms, single, after_possessive, lead):
    joined = None
    if term_tok is not None and piece and joins(text, piece[-1][2], term_tok[1]) \
            and not any(s <= t[1] < e for t in piece for s, e in single):
        joined = next((e for s, e in terms if s == term_tok[1]), None)
    if not joined:
        while piece and not is_capitalised(piece[-1][0]):
            piece.pop()
    first = piece[0] if piece else None
    while piece and not (is_capitalised(piece[0][0]) or is_acronym(piece[0][0]) and (len(piece) > 1 or joined)):
        piece.pop(0)
    own = [t for t in piece if not any(s <= t[1] < e for s, e in single)]
    if lead and lead[2] and piece and piece[0] is first and own:
        yield lead[0], joined or piece[-1][2], first[0]
    elif piece and own and (piece[0][3] or after_possessive):
        yield piece[0][1], joined or piece[-1][2], piece[0][0]


def candidates(units, index) -> dict[str, list]:
    """Capitalised phrases used mid-sentence that no defined term covers: phrase -> [(unit, start)]. A
    phrase once followed by "as defined in" is defined by reference and left out."""
    found: dict[str, list] = defaultdict(list)
    by_reference: set[str] = set()
    named: set[str] = set()
    for unit in units:
        if heading_like(unit) or _short_cell(unit):
            continue
        # a run is cut where a defined term of several words stands; a one-word term inside a longer
        # capitalised name stays part of it ("Gross Asset Value" with "Value" defined is not a use of it)
        spans = index.spans.get(unit.index, ())
        terms = [(s, e) for form, s, e in spans if " " in form]
        single = [(s, e) for form, s, e in spans if " " not in form]
        cut = [*terms, (0, run_in_heading_end(unit.text))]
        blocked = _blocked(unit.text)
        names = [(s, e) for s, e, brand in name_spans(unit.text) if brand]
        for run in capital_runs(unit.text):
            for start, end, first in _phrases(unit.text, run, terms, cut, single):
                phrase = strip_possessive(unit.text[start:end])
                if _BY_REFERENCE.match(unit.text, end):
                    by_reference.add(phrase)
                elif any(s <= start < e for s, e in names):
                    words = phrase.split()  # "Microsoft Site Server": "Site Server" is a product's name
                    named.update(" ".join(words[i:]) for i in range(1, len(words) - 1))
                elif not (any(s <= start < e for s, e in blocked) or _CITED.match(unit.text, end)
                          or first in _REFERENCE_WORDS):
                    found[phrase].append((unit, start))
    known = by_reference | named | designated(units) | titles(units)
    # a phrase only ever used in footnotes is the drafter's commentary, not the contract's wording
    return {p: places for p, places in found.items() if p not in known and p.lower() not in known
            and any(u.story.split(":")[0] not in ("footnote", "endnote") for u, _s in places)}


def undefined_references(units, index) -> dict[str, tuple]:
    """Terms named as defined elsewhere ("the definitions of “UBTI”") that nothing defines:
    term -> (unit, start) of its first use outside the naming, else of the naming."""
    out: dict[str, tuple] = {}
    for unit in units:
        for term in referenced_terms(unit.text):
            if term not in index.definitions and term not in out:
                out[term] = (unit, unit.text.find(term))
    if not out:
        return out
    pattern = re.compile(r"(?<![\w“\"])(" + "|".join(re.escape(t) for t in sorted(out, key=len, reverse=True))
                         + r")(?:s|es)?(?![\w”\"])")
    first: dict[str, tuple] = {}
    for unit in units:
        titled = _titles_after_references(unit.text) if "(" in unit.text else ()
        for m in pattern.finditer(unit.text):
            if not any(s <= m.start() < e for s, e in titled):
                first.setdefault(m.group(1), (unit, m.start()))
    return {t: first.get(t, place) for t, place in out.items()}
