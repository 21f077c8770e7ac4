"""Cross-references: "Section 5.3", "Sections 5.1 and 5.2", "clause 12(b)", "Article IV", "Schedule 2",
"Exhibit A", "paragraph (c) above", resolved against the clause numbers as Word displays them (or as
typed where Word numbers nothing) and the schedules' and exhibits' own headings. A reference to another
instrument ("Section 409A of the Code") is not this document's to resolve."""

from __future__ import annotations

import re
from functools import lru_cache

_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}
_NUM = r"(?:\d+(?:\.\d+)*[A-Za-z]?(?:\([a-zA-Z0-9]{1,4}\))*|[IVXLC]+\b(?:\([a-z0-9]{1,4}\))*|[A-Z]\b(?:-\d+)?)"
_SINGLE = r"(?:\([a-z]{1,4}\)|\([0-9]{1,2}\))"
_WORD = r"(Sections?|Clauses?|Articles?|Schedules?|Exhibits?|Annex(?:es)?|Appendix|Appendices|Paragraphs?|subsections?)"
REFERENCE = re.compile(
    _WORD + r"\s+(" + _NUM + "|" + _SINGLE + r")((?:\s*\([A-Z][^()]{0,60}\))?(?:\s*(?:,|and|or|and/or|through|to|-|–)\s*"
    r"(?:" + _NUM + "|" + _SINGLE + r")(?:\s*\([A-Z][^()]{0,60}\))?)*)", re.I)
_MORE = re.compile(_NUM + "|" + _SINGLE)
_ELSEWHERE = re.compile(r"^\s*(?:of|in|under|to)\s+(?:the\s+|any\s+|such\s+|each\s+|its\s+|their\s+|an?\s+)?"
                        r"(?!this\b|these\b|hereof\b|herein\b)[A-Za-z]", re.I)
# "Code Section 1202", "Act Section 5": a statute's section; "Form 1065, Schedule K-1": a tax form's
_STATUTE = re.compile(r"\b(?:Code|Act|Regulations?|Rules?|Treas\.?|U\.S\.C\.?|CFR|C\.F\.R\.|Forms?\s+\d+[A-Z-]*,?)\s*$")
_ATTACHMENTS = ("schedule", "exhibit", "annex", "appendix")


def roman_value(s: str) -> int | None:
    s = s.upper()
    if not s or any(ch not in _ROMAN for ch in s):
        return None
    total = 0
    for i, ch in enumerate(s):
        v = _ROMAN[ch]
        total += -v if i + 1 < len(s) and _ROMAN[s[i + 1]] > v else v
    return total


def normal(number: str) -> str:
    """A clause number compared loosely: lower case, no trailing dot, 'section '/'article ' dropped, roman -> arabic
    when the whole number is roman."""
    n = re.sub(r"^(?:article|section|clause)\s+", "", number.strip().lower()).rstrip(".").replace(" ", "")
    value = roman_value(n) if re.fullmatch(r"[ivxlc]+", n) and len(n) > 1 or n in ("i", "v", "x") else None
    return str(value) if value is not None and not re.fullmatch(r"\([ivxlc]+\)", n) else n


@lru_cache(maxsize=65536)
def references_in(text: str) -> tuple:
    """((word, number, start, end), ...): every number a reference names, ranges' ends included."""
    out = []
    for m in REFERENCE.finditer(text):
        word = m.group(1).lower().rstrip("s")
        if word == "appendice":
            word = "appendix"
        if word in ("annexe",):
            word = "annex"
        tail_end = m.end()
        if _ELSEWHERE.match(text[tail_end:tail_end + 40]) or _STATUTE.search(text[max(0, m.start() - 30):m.start()]):
            continue
        numbers = [(m.group(2), m.start(2), m.end(2))]
        rest = re.sub(r"\([A-Z][^()]{0,60}\)", lambda x: " " * len(x.group()), m.group(3))
        for n in _MORE.finditer(rest):
            numbers.append((n.group(), m.start(3) + n.start(), m.start(3) + n.end()))
        for number, _start, end in numbers:
            lead = re.match(r"\d+", number)
            if lead and int(lead.group()) >= 100:
                continue  # a statute's or a regulation's section (1202, 409A), not a clause of a contract
            if word in ("paragraph", "subsection") and not number.startswith("(") and not number[0].isdigit():
                continue
            out.append((word, number, m.start(), end))
    return tuple(out)


class Targets:
    """What a reference may point at: the full clause numbers (2.2, 2.2(a), 12(b)) and the attachments."""

    def __init__(self, units):
        self.numbers: set[str] = set()
        self.leaves: set[str] = set()
        self.attachments: dict[str, set[str]] = {k: set() for k in _ATTACHMENTS}
        path: dict[int, str] = {}
        for unit in units:
            label = unit.shown_label
            head = re.match(r"\s*(schedule|exhibit|annex|appendix)\s+([A-Z0-9]{1,4}(?:-\d+)?)\b", unit.text, re.I)
            if head and (len(unit.text) < 120 or unit.heading):
                self.attachments[head.group(1).lower()].add(head.group(2).lower())
            if not label or unit.story != "main":
                continue
            n = normal(label)
            self.leaves.add(n)
            level = unit.level if unit.level is not None else (n.count(".") if not n.startswith("(") else 9)
            for deeper in [k for k in path if k >= level]:
                del path[deeper]
            parent = next((path[k] for k in sorted(path, reverse=True) if k < level), "")
            full = n if (not n.startswith("(") and "." in n) or not parent else \
                parent + (n if n.startswith("(") else f"({n})")
            path[level] = full
            self.numbers.update({n, full})

    def exists(self, word: str, number: str) -> bool:
        n = normal(number)
        if word in _ATTACHMENTS:
            # schedules and exhibits are often separate papers: only a document that carries its own
            # (two or more) can be held to them; "A" is found as "A-1"
            have = self.attachments[word]
            return len(have) < 2 or n in have or any(h.startswith(n + "-") for h in have)
        if n in self.numbers or n in self.leaves:
            return True
        if re.fullmatch(r"\([a-z0-9]+\)", n):
            return n in self.leaves or n.strip("()") in self.leaves
        base = re.match(r"^([0-9a-z.]+?)((?:\([a-z0-9]+\))+)$", n)
        if base:
            head = base.group(1)
            # sub-clauses typed in the text, not numbered by Word: the clause existing is all we can check
            return head in self.numbers and not any(k.startswith(head + "(") for k in self.numbers)
        return False


def check_references(units, emit, before: Targets | None) -> None:
    targets = Targets(units)
    numbered = bool(targets.numbers)
    for unit in units:
        for word, number, start, _end in references_in(unit.text):
            if word not in _ATTACHMENTS and not numbered:
                continue
            if targets.exists(word, number):
                continue
            was = before is not None and before.exists(word, number)
            said = f"{word.capitalize()} {number}"
            emit("brokenCrossReference", said, unit, start,
                 f"{said} is referred to but there is no such {word} in the document"
                 + (" once the pending changes are accepted (a tracked change deletes or renumbers it)." if was
                    else "."), pending=was)
