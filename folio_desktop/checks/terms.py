"""The defined-term checks: undefinedTerm, unusedDefinition, duplicateDefinition, inconsistentTerm.

A term's uses are found with one pattern of every defined term (longest first, so "Definitive
Agreement" is not a use of "Agreement"), plurals and possessives included. A capitalised run of words
that no defined term covers, standing mid-sentence, is a candidate for an undefined term unless it is
a party's name, a well-known name or an ordinary capitalised word of contracts."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field

from .definitions import bold_definition, definitions_in
from .known_names import is_known_name
from .undefined import candidates, table_labels, undefined_references
from .words import heading_like, levenshtein, strip_possessive, tokens

_POINTER = re.compile(r"^[\s,)]*(?:shall\s+|will\s+)?(?:ha(?:s|ve)\s+the\s+meanings?|is\s+defined\s+in|as\s+defined\s+in)")


_GLOSS = re.compile(r"^[\s,)]*as\s+defined\s+(?:in|under|by)\b")


def _forms(term: str) -> list[str]:
    if term.endswith("[s]"):
        return _forms(term[:-3])
    if " (or " in term:  # "Majority (or other specified percentage) in Interest" is used as "Majority in Interest"
        return [term, *_forms(re.sub(r"\s*\(or [^)]*\)", "", term))]
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
    return re.compile(r"(?<![\w“\"])(?:" + "|".join(_escaped(f) for f in forms) + r")(?:['’]s?)?(?![\w”\"])")


_BLANK = re.compile(r"\[_+\]")


def _escaped(form: str) -> str:
    """The form as a pattern in which a blank is any blank: "Series [__] Preferred Stock" is a use of "Series
    [___] Preferred Stock"."""
    return r"\[_+\]".join(re.escape(part) for part in _BLANK.split(form))


def build_index(units, cache: dict) -> TermIndex:
    index = TermIndex()
    for unit in units:
        found = definitions_in(unit.text)
        bold = None if found else bold_definition(unit)
        for d in found or ((bold,) if bold else ()):
            index.definitions[d.term].append((unit, d))
    terms = sorted(index.definitions)
    index.pattern = _term_pattern(terms)
    if index.pattern is None:
        return index
    # a form's term, blanks alike; the exact term wins ("Purchaser" is not "Purchasers")
    base = {_BLANK.sub("[_]", f): t for t in terms for f in _forms(t)} | {_BLANK.sub("[_]", t): t for t in terms}
    key = ("uses", index.pattern.pattern)
    for unit in units:
        spans = cache.get((key, unit.text))
        if spans is None:
            spans = tuple((strip_possessive(m.group()), m.start(), m.end()) for m in index.pattern.finditer(unit.text))
            cache[(key, unit.text)] = spans
        index.spans[unit.index] = spans
        for written, start, end in spans:
            form = _BLANK.sub("[_]", written)
            term = base.get(form) or base.get(form.rstrip("'’")) or base.get(form + "[s]")
            if term:
                index.uses[term].append((unit, start, end))
    return index


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
    initials = [w[0] for w in phrase.split()]
    for term in terms:
        # a misspelling keeps each word's first letter: "GP Covered Person" is no "AC Covered Person"
        if len(term) >= 8 and [w[0] for w in term.split()] == initials:
            limit = 1 if len(term) < 12 else 2
            if levenshtein(term.lower(), phrase.lower(), limit) <= limit and \
                    not (phrase.endswith("s") and phrase[:-1] == term) and phrase.lower() != term.lower() + "s":
                return term
    return None


def variants(units, index: TermIndex, cache: dict) -> list:
    """Uses of a term of several words in another form: another case ("Confidential information",
    "Confidential INFORMATION") or a letter or two off ("Key Person Evnt", "Board of Directrs"): word runs
    with the term's number of words and initials. [(unit, start, text, term)]."""
    by_key: dict[tuple, list] = defaultdict(list)
    for term in index.definitions:
        words = term.split()
        if len(words) > 1 and not term.isupper() and all(w[0].isalnum() for w in words):
            by_key[(len(words), tuple(w[0].lower() for w in words))].append(term)
    if not by_key:
        return []
    sizes = sorted({k for k, _initials in by_key}, reverse=True)  # the longest term first
    exact = {f for t in index.definitions for f in _forms(t)}
    key = ("variants", index.pattern.pattern if index.pattern else "")
    out = []
    for unit in units:
        found = cache.get((key, unit.text))
        if found is None:
            found = () if heading_like(unit) else tuple(_variants_in(unit.text, by_key, sizes, exact))
            cache[(key, unit.text)] = found
        out += [(unit, start, text, term) for start, text, term in found]
    return out


def _variants_in(text: str, by_key, sizes, exact):
    toks = tokens(text)
    quoted = definitions_in(text)
    initials = [t[0][0].lower() for t in toks]
    upper = [t[0][0].isupper() for t in toks] + [False]
    after = 0
    for i in range(len(toks)):
        if i < after or not (upper[i] or upper[i + 1]):  # "component Agreement" still shows a capital
            continue
        if any(d.start < toks[i][1] < d.end for d in quoted):
            continue  # a quoted term being defined ("Holdback Escrow Amount") is no use of another
        for k in sizes:
            terms = by_key.get((k, tuple(initials[i:i + k])))
            if not terms:
                continue
            run = toks[i:i + k]
            phrase = strip_possessive(text[run[0][1]:run[-1][2]])
            if phrase in exact or any(text[a[2]:b[1]] not in (" ", "\u00a0") for a, b in zip(run, run[1:])):
                continue
            if any(_case_variant(text, run, phrase, t) or _misspelt(run, phrase, t) for t in terms):
                yield run[0][1], phrase, next(t for t in terms if _case_variant(text, run, phrase, t)
                                              or _misspelt(run, phrase, t))
                after = i + k
                break


def _case_variant(text, run, phrase, term) -> bool:
    if phrase.lower() not in (term.lower(), term.lower() + "s"):
        return False
    start, end = run[0][1], run[-1][2]
    beside = re.findall(r"[A-Za-z.]+", text[max(0, start - 20):start])[-1:] + \
        re.findall(r"[A-Za-z.]+", text[end:end + 20])[:1]
    # "Confidential INFORMATION" in running text, not in a title in capitals; "Confidential information"
    # where a capital shows it is a use of the term: after a lower-case word
    shouting = phrase.isupper() and any(w.isupper() and len(w) > 1 for w in beside)
    mid = re.search(r"[a-z,]\s$", text[max(0, start - 2):start])
    return not shouting and (any(ch.isupper() for ch in phrase[1:]) or bool(mid))


def _misspelt(run, phrase, term) -> bool:
    """A letter or two off, each word in the term's case (another case is _case_variant's to find)."""
    if len(term) < 8 or any(w[0].isupper() != t[0][0].isupper() for w, t in zip(term.split(), run)):
        return False
    limit = 1 if len(term) < 12 else 2
    low, want = phrase.lower(), term.lower()
    return low not in (want, want + "s") and levenshtein(want, low, limit) <= limit


_ATTACHMENT = re.compile(r"^\s*(?:exhibit|schedule|annex|appendix)\s+[A-Z0-9]{1,4}(?:-\d+)?\s*$", re.I)


def _attachments_start(units) -> int:
    """Where the attached forms begin (the first "Exhibit A" heading of the body): a form of another
    instrument defines its own "Agreement" and "Company"."""
    for unit in units:
        if unit.story == "main" and (_ATTACHMENT.match(unit.label or "") or _ATTACHMENT.match(unit.text)):
            return unit.index
    return len(units)


def _uses(index: TermIndex, term: str, own) -> list:
    """A term's uses; a defined "X" and "Xs" share theirs ("each a “Purchaser” and together the “Purchasers”")."""
    pair = [t for t in (term + "s", term[:-1] if term.endswith("s") else None) if t and t in index.definitions]
    return [u for t in (term, *pair) for u in index.uses.get(t, []) if (u[0].block_id, u[1]) not in own]


def _index_entry(body: str) -> bool:
    """ "X" has the meaning given in Section 4.2: points at this document's definition, not a second one
    (one that points at the Regulations or the Code is the document's own)."""
    m = _POINTER.match(body)
    if not m:
        return False
    target = body[m.end():m.end() + 80]
    return bool(re.search(r"\b(?:section|article|clause|paragraph|schedule|exhibit|preamble|recitals?|above|below|"
                          r"herein)\b", target)) and not re.search(r"\b(?:code|regulations?|act|treas)\b", target)


def _singular(found: dict[str, list]) -> dict[str, list]:
    """"Portfolio Companies" and "Portfolio Company" are one phrase (the singular), their places together."""
    out: dict[str, list] = {}
    for phrase in sorted(found, key=len):
        one = next((f for f in (phrase[:-3] + "y", phrase[:-2], phrase[:-1]) if f in out), None) \
            if phrase.endswith("s") else None
        if one:
            out[one] = sorted(out[one] + found[phrase], key=lambda p: (p[0].story_index, p[0].index, p[1]))
        else:
            out[phrase] = found[phrase]
    return out


def check_terms(units, cache: dict, roles, emit) -> TermIndex:
    """Emit the defined-term findings; `roles`: party role words, left to the party check. Returns the
    index for the other checks."""
    index = build_index(units, cache)
    terms = list(index.definitions)
    attachments = _attachments_start(units)
    for term, defs in index.definitions.items():
        first_unit, first = defs[0]
        # "X" has the meaning given in Section 4.2: an index entry pointing at the definition, not a second one
        real = [(u, d) for u, d in defs if not _index_entry(d.body)] or defs[:1]
        if len(real) > 1:
            first_unit, first = real[0]
        for unit, d in real[1:]:
            if unit.story == "main" and unit.index >= attachments > first_unit.index:
                continue
            agree = d.body[:120] == first.body[:120]
            where = first_unit.shown_label or f"paragraph {first_unit.block_id}"
            emit("duplicateDefinition", term, unit, d.start,
                 f"“{term}” is defined twice (first in {where}); the two definitions "
                 + ("say the same." if agree else "differ."))
        own = {(u.block_id, d.start) for u, d in defs}
        # "a “United States real property holding corporation” as defined in the Code" only points elsewhere
        if not _uses(index, term, own) and any(not _GLOSS.match(d.body) for _u, d in defs):
            emit("unusedDefinition", term, first_unit, first.start,
                 f"“{term}” is defined but never used.")
    for unit, start, text, term in variants(units, index, cache):
        emit("inconsistentTerm", text, unit, start, f"“{text}” is written differently from the defined term “{term}”.")
    named = undefined_references(units, index)
    for term, (unit, start) in named.items():
        emit("undefinedTerm", term, unit, start,
             f"“{term}” is referred to as a defined term but is defined nowhere in the document.")
    labels = table_labels(units)
    for phrase, places in _singular(candidates(units, index)).items():
        unit, start = places[0]
        variant = _variant_of(phrase, terms)
        if variant:
            for u, s in places:
                emit("inconsistentTerm", phrase, u, s,
                     f"“{phrase}” looks like the defined term “{variant}” written differently.")
            continue
        if phrase in roles or phrase in labels or is_known_name(phrase) or phrase in named or phrase[:-1] in named:
            continue
        if len(places) < 2:
            continue  # a capitalised phrase used once is not used as a defined term: a name, a title, an emphasis
        emit("undefinedTerm", phrase, unit, start,
             f"“{phrase}” is used as a defined term ({len(places)} time{'s' if len(places) > 1 else ''}) "
             "but is defined nowhere in the document.")
    return index
