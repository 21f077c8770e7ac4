"""Words of a paragraph for the defined-term checks: tokens with offsets, which of them stand
mid-sentence, and the runs of capitalised words a defined term could be."""

from __future__ import annotations

import re
from functools import lru_cache

TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[-'’][A-Za-z0-9]+)*(?:['’]s?)?")
BLANK = re.compile(r" \[_+\] ")
# small words that may join the capitalised words of one term: "Limitation of Liability"
JOINERS = frozenset({"of", "for", "the"})


def strip_possessive(word: str) -> str:
    for tail in ("'s", "’s", "'", "’"):
        if word.endswith(tail):
            return word[: -len(tail)]
    return word


def is_acronym(word: str) -> bool:
    return len(word) > 1 and word.isalpha() and word.isupper()


def is_capitalised(word: str) -> bool:
    """Title Case (Agreement, Co-Investment, LPAC's), not ALL CAPS and not lower case."""
    return word[0].isupper() and any(ch.islower() for ch in word)


@lru_cache(maxsize=65536)
def tokens(text: str) -> tuple:
    """((word, start, end, mid_sentence), ...): mid_sentence when the word before it, on the same
    paragraph and with nothing but spaces or a comma between, ends in a lower-case letter or a digit,
    so a capital there is not a sentence start, a list start or a heading."""
    out = []
    prev_end = 0
    prev_word = None
    for m in TOKEN.finditer(text):
        gap = text[prev_end:m.start()]
        mid = prev_word is not None and (gap.strip(" ,\u00a0") == "") and \
            (prev_word[0].islower() or prev_word[0].isdigit())
        out.append((m.group(), m.start(), m.end(), mid))
        prev_end, prev_word = m.end(), m.group()
    return tuple(out)


def capital_runs(text: str) -> list[list[tuple]]:
    """Runs of adjacent capitalised tokens (single spaces between, joiner words allowed inside)."""
    toks = tokens(text)
    runs: list[list[tuple]] = []
    cur: list[tuple] = []
    for i, tok in enumerate(toks):
        word = tok[0]
        # a blank inside a name still joins it: "Series [___] Preferred Stock"
        adjacent = cur and (text[cur[-1][2]:tok[1]] in (" ", "\u00a0") or BLANK.fullmatch(text, cur[-1][2], tok[1]))
        # an acronym before a capitalised word is part of a term or name ("SMS Installer", "Microsoft SNA Server")
        acronym = is_acronym(word) and i + 1 < len(toks) and is_capitalised(toks[i + 1][0]) \
            and text[tok[2]:toks[i + 1][1]] == " "
        if acronym and not (cur and adjacent):
            if cur:
                runs.append(cur)
            cur = [tok]
        elif acronym:
            cur.append(tok)  # "Microsoft SNA Server"
        elif is_capitalised(word):
            if cur and adjacent:
                cur.append(tok)
            else:
                if cur:
                    runs.append(cur)
                cur = [tok]
        elif cur and adjacent and word in JOINERS and i + 1 < len(toks) and is_capitalised(toks[i + 1][0]) \
                and text[tok[2]:toks[i + 1][1]] == " ":
            cur.append(tok)
        else:
            if cur:
                runs.append(cur)
            cur = []
    if cur:
        runs.append(cur)
    return runs


def heading_like(unit) -> bool:
    """A heading, a title line or a table-of-contents line (it ends in a tab and a page number)."""
    words = unit.text.split()
    listed = words and (words[0][0].islower() or unit.text.rstrip().endswith((";", "; and", "; or")))
    return not words or (unit.heading and len(words) <= 12 and not listed) or bool(re.search(r"\t\d+\s*$", unit.text)) or (
        len(words) <= 12 and all(is_capitalised(w) or not w[0].isalpha() or w.isupper() or w in ("of", "and", "the",
                                                                                                  "to", "for", "in")
                                 for w in words))


def run_in_heading_end(text: str) -> int:
    """Where a run-in heading ("Access and Use.  During ...") ends, or 0: Title Case words up to a full stop."""
    m = re.match(r"\s*([^.]{2,80})\.(?:\s|$)", text)
    if not m:
        return 0
    words = m.group(1).split()
    return m.end() if words and all(is_capitalised(w) or w.isupper() or w in JOINERS or w in ("and", "or", "to", "on",
                                                                                               "in", "&")
                                    or not w[0].isalpha() for w in words) else 0


def levenshtein(a: str, b: str, limit: int = 3) -> int:
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        if min(cur) > limit:
            return limit + 1
        prev = cur
    return prev[-1]


def joins(text: str, end: int, start: int) -> bool:
    """Do a space, or a blank between spaces, alone stand between the two words?"""
    return text[end:start] in (" ", "\u00a0") or bool(BLANK.fullmatch(text, end, start))
