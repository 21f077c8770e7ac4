"""The defined-term checks: undefinedTerm, unusedDefinition, duplicateDefinition, inconsistentTerm.

A term's uses are found with one pattern of every defined term (longest first, so "Definitive
Agreement" is not a use of "Agreement"), plurals and possessives included. A capitalised run of words
that no defined term covers, standing mid-sentence, is a candidate for an undefined term unless it is
a party's name, a well-known name or an ordinary capitalised word of contracts."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field

from .definitions import definitions_in
from .known_names import is_known_name
from .words import capital_runs, is_capitalised, levenshtein, run_in_heading_end, strip_possessive

_POINTER = re.compile(r"^[\s,)]*(?:shall\s+|will\s+)?(?:ha(?:s|ve)\s+the\s+meanings?|is\s+defined\s+in|as\s+defined\s+in)")


def _forms(term: str) -> list[str]:
    if term.endswith("[s]"):
        return _forms(term[:-3])
    forms = [term]
    if term.endswith("ies"):
        forms.append(term[:-3] + "y")
    elif term.endswith("s") and not term.endswith("ss") and len(term) > 3:
        forms.append(term[:-1])
    if term[-1].isalpha():
        forms += [term + "s", term + "es"]
        if term.endswith("y") and len(term) > 2 and term[-2] not in "aeiou":
            forms.append(term[:-1] + "ies")
    return forms


@dataclass
class TermIndex:
    """The document's defined terms: where each is defined and used."""
    definitions: dict[str, list] = field(default_factory=lambda: defaultdict(list))  # term -> [(unit, Definition)]
    uses: dict[str, list] = field(default_factory=lambda: defaultdict(list))  # term -> [(unit, start, end)]
    spans: dict[int, tuple] = field(default_factory=dict)  # unit index -> ((form, start, end), ...)
    pattern: re.Pattern | None = None


def _term_pattern(terms) -> re.Pattern | None:
    forms = sorted({f for t in terms for f in _forms(t)}, key=len, reverse=True)
    if not forms:
        return None
    return re.compile(r"(?<![\w“\"])(?:" + "|".join(re.escape(f) for f in forms) + r")(?:['’]s?)?(?![\w”\"])")


def build_index(units, cache: dict) -> TermIndex:
    index = TermIndex()
    for unit in units:
        for d in definitions_in(unit.text):
            index.definitions[d.term].append((unit, d))
    terms = sorted(index.definitions)
    index.pattern = _term_pattern(terms)
    if index.pattern is None:
        return index
    base = {f: t for t in terms for f in _forms(t)}
    key = ("uses", index.pattern.pattern)
    for unit in units:
        spans = cache.get((key, unit.text))
        if spans is None:
            spans = tuple((strip_possessive(m.group()), m.start(), m.end()) for m in index.pattern.finditer(unit.text))
            cache[(key, unit.text)] = spans
        index.spans[unit.index] = spans
        for form, start, end in spans:
            term = base.get(form) or base.get(form.rstrip("'’")) or base.get(form + "[s]")
            if term:
                index.uses[term].append((unit, start, end))
    return index


def _heading_like(unit) -> bool:
    words = unit.text.split()
    return not words or (unit.heading and len(words) <= 12) or (
        len(words) <= 12 and all(is_capitalised(w) or not w[0].isalpha() or w.isupper() or w in ("of", "and", "the",
                                                                                                  "to", "for", "in")
                                 for w in words))


def table_labels(units) -> set[str]:
    """Short capitalised cells of tables (an order form's "Effective Date", "Governing Law"): the row names
    a table defines by what it puts beside them, so never undefined terms."""
    return {u.text.strip() for u in units if u.in_table and 0 < len(u.text.split()) <= 5 and is_capitalised(u.text.strip())
            and not u.text.strip().endswith(".")}


def candidates(units, index: TermIndex) -> dict[str, list]:
    """Capitalised phrases used mid-sentence that no defined term covers: phrase -> [(unit, start)]."""
    found: dict[str, list] = defaultdict(list)
    for unit in units:
        if _heading_like(unit):
            continue
        # a run is cut where a defined term of several words stands; a one-word term inside a longer
        # capitalised name stays part of it ("Gross Asset Value" with "Value" defined is not a use of it)
        spans = index.spans.get(unit.index, ())
        cut = [(s, e) for form, s, e in spans if " " in form]
        single = [(s, e) for form, s, e in spans if " " not in form]
        cut.append((0, run_in_heading_end(unit.text)))
        for run in capital_runs(unit.text):
            piece: list = []
            for tok in [*run, None]:
                if tok is not None and not any(s <= tok[1] < e for s, e in cut):
                    piece.append(tok)
                    continue
                while piece and not is_capitalised(piece[-1][0]):
                    piece.pop()
                while piece and not is_capitalised(piece[0][0]):
                    piece.pop(0)
                own = [t for t in piece if not any(s <= t[1] < e for s, e in single)]
                if piece and piece[0][3] and own:
                    phrase = unit.text[piece[0][1]:piece[-1][2]]
                    found[strip_possessive(phrase)].append((unit, piece[0][1]))
                piece = []
    return found


def _variant_of(phrase: str, terms) -> str | None:
    """The defined term this phrase is a misspelling or mis-spacing of, if any."""
    squashed = phrase.replace(" ", "").lower()
    for term in terms:
        if term == phrase:
            return None
        if term.replace(" ", "").lower() == squashed:
            return term
    if len(phrase) < 8:
        return None
    for term in terms:
        if len(term) >= 8 and (term.count(" ") == phrase.count(" ")):
            limit = 1 if len(term) < 12 else 2
            if levenshtein(term.lower(), phrase.lower(), limit) <= limit and \
                    not (phrase.endswith("s") and phrase[:-1] == term) and phrase.lower() != term.lower() + "s":
                return term
    return None


def case_variants(units, index: TermIndex, cache: dict) -> list:
    """Uses of a multi-word term in another capitalisation ("Confidential information"): [(unit, start, text, term)]."""
    multi = [t for t in index.definitions if " " in t and not t.isupper()]
    if not multi:
        return []
    pattern = re.compile(r"\b(?:" + "|".join(re.escape(t) for t in sorted(multi, key=len, reverse=True)) + r")s?\b",
                         re.I)
    lowered = {t.lower(): t for t in multi}
    out = []
    key = ("case", pattern.pattern)
    for unit in units:
        found = cache.get((key, unit.text))
        if found is None:  # kept per paragraph text: a run after an edit matches only what changed
            found = cache[(key, unit.text)] = tuple((m.start(), m.group()) for m in pattern.finditer(unit.text))
        for start, text in found:
            term = lowered.get(text.lower()) or lowered.get(text.lower()[:-1])
            if term and text not in (term, term + "s") and not text.islower() and not text.isupper() \
                    and not _heading_like(unit) and any(ch.isupper() for ch in text[1:]):
                out.append((unit, start, text, term))
    return out


def check_terms(units, cache: dict, roles, emit) -> TermIndex:
    """Emit the defined-term findings; `roles`: party role words, left to the party check. Returns the
    index for the other checks."""
    index = build_index(units, cache)
    terms = list(index.definitions)
    for term, defs in index.definitions.items():
        first_unit, first = defs[0]
        # "X" has the meaning given in Section 4.2: an index entry pointing at the definition, not a second one
        real = [(u, d) for u, d in defs if not _POINTER.match(d.body)] or defs[:1]
        if len(real) > 1:
            first_unit, first = real[0]
        for unit, d in real[1:]:
            agree = d.body[:120] == first.body[:120]
            where = first_unit.shown_label or f"paragraph {first_unit.block_id}"
            emit("duplicateDefinition", term, unit, d.start,
                 f"“{term}” is defined twice (first in {where}); the two definitions "
                 + ("say the same." if agree else "differ."))
        own = {(u.block_id, d.start) for u, d in defs}
        uses = [u for u in index.uses.get(term, []) if (u[0].block_id, u[1]) not in own]
        if not uses:
            emit("unusedDefinition", term, first_unit, first.start,
                 f"“{term}” is defined but never used.")
    for unit, start, text, term in case_variants(units, index, cache):
        emit("inconsistentTerm", text, unit, start, f"“{text}” is written differently from the defined term “{term}”.")
    labels = table_labels(units)
    for phrase, places in candidates(units, index).items():
        unit, start = places[0]
        variant = _variant_of(phrase, terms)
        if variant:
            for u, s in places:
                emit("inconsistentTerm", phrase, u, s,
                     f"“{phrase}” looks like the defined term “{variant}” written differently.")
            continue
        if phrase in roles or phrase in labels or is_known_name(phrase):
            continue
        if len(places) < 2:
            continue  # a capitalised phrase used once is not used as a defined term: a name, a title, an emphasis
        emit("undefinedTerm", phrase, unit, start,
             f"“{phrase}” is used as a defined term ({len(places)} time{'s' if len(places) > 1 else ''}) "
             "but is defined nowhere in the document.")
    return index

