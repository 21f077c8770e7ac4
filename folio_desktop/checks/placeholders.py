"""Blanks left to fill: [●], [•], [___], $[_____], [insert ...], [Date], [NAME], {variable}, XX, TBD,
bracketed text a drafter highlighted, drafting notes, and a signature block's empty Name/Title/Date line."""

from __future__ import annotations

import re
from functools import lru_cache

from ..docx.package.ooxml import W_NS

_BLANK = r"[\s●•·…_.\-#*x×]*"
PLACEHOLDER = re.compile(
    r"\$?\s?\[" + _BLANK + r"\]"  # [●] [•] [___] [ # ] $[____] [   ]
    r"|\$?\[\s*(?:insert|specify|enter|add|describe|include|identify|name of|amount|number|date|address|title"
    r"|company|party|state|jurisdiction|●|•|_)[^\[\]]{0,120}\]"  # [insert ...] [Date] [Number of days]
    r"|\[(?:[A-Z][A-Z0-9 .,'’&/-]{1,40})\](?!\()"  # [NAME] [COMPANY NAME]
    r"|\[\s*(?:Drafting|Draft(?:ing)?\s+note|Note\s+to\s+(?:draft|drafter)|NTD)\b[^\]]{0,2000}\]"
    r"|\{[a-z_][a-z0-9_]*\}"  # {template_variable}
    r"|(?<![\w/])(?:TBD|TBC|XX+|X{2,}/X{2,}/X{2,4}|20XX|19XX)(?![\w/])"
    r"|_{4,}"  # a blank line in running text
    , re.I)
_SIGNATURE_LINE = re.compile(r"^\s*(?:Print(?:ed)?\s+)?(?:Name|Title|Date|Address|E-?mail)\s*:\s*_*\s*$", re.I)
_BRACKETED = re.compile(r"\$?\[[^\[\]\n]{1,200}\]")
# footnote and endnote marks as the text shows them ([^3], [^e1]), and the page markers every form carries
_NOT_A_BLANK = re.compile(r"\[\^e?\d+\]|\[sic\]|\[(?:signature pages? follows?|remainder of page intentionally left blank\.?)\]",
                          re.I)
_ROMAN_BEFORE = re.compile(r"(?:article|section|chapter|part|schedule)\s*$", re.I)
_W = "{" + W_NS + "}"


@lru_cache(maxsize=65536)
def placeholders_in(text: str) -> tuple:
    """((text, start), ...) of the placeholders the text shows."""
    out = []
    for m in PLACEHOLDER.finditer(text):
        found = m.group()
        if found.upper().startswith("XX") and _ROMAN_BEFORE.search(text[:m.start()]):
            continue  # Article XX: a number
        if _NOT_A_BLANK.fullmatch(found.strip()):
            continue
        if found.startswith("_") and re.match(r"^\s*By\s*:\s*$", text[:m.start()], re.I):
            continue  # the line a party signs on
        out.append((found.strip(), m.start()))
    taken = [(start, start + len(found)) for found, start in out]
    for m in _BRACKETED.finditer(text):
        # a model form brackets whatever is left to settle: [50], [thirty (30)], [, the Prior Funds]
        if not any(s <= m.start() < e for s, e in taken) and not _NOT_A_BLANK.fullmatch(m.group()) \
                and not (m.group() in ("[s]", "[es]") and m.start() and text[m.start() - 1].isalpha()):
            out.append((m.group(), m.start()))
    out.sort(key=lambda x: x[1])
    if _SIGNATURE_LINE.match(text) and not out:
        out.append((text.strip(), 0))
    return tuple(out)


def highlighted_brackets(element) -> list[str]:
    """Bracketed text of the paragraph that sits in highlighted runs."""
    if element is None:
        return []
    lit = []
    for run in element.iter(_W + "r"):
        rpr = run.find(_W + "rPr")
        hl = rpr.find(_W + "highlight") if rpr is not None else None
        if hl is not None and hl.get(_W + "val") not in (None, "none"):
            lit.append("".join(t.text or "" for t in run.iter(_W + "t")))
    joined = "".join(lit)
    return re.findall(r"\[[^\[\]]{1,200}\]", joined)


def check_placeholders(units, emit) -> None:
    for unit in units:
        seen = set()
        for text, start in placeholders_in(unit.text):
            seen.add(text)
            emit("placeholder", text, unit, start, f"“{_short(text)}” is a blank or placeholder to fill in or remove.")
        if "[" in unit.text:
            for text in highlighted_brackets(unit.element):
                if text not in seen and text in unit.text:
                    emit("placeholder", text, unit, unit.text.index(text),
                         f"“{_short(text)}” is highlighted bracketed text, usually a placeholder to settle.")


def _short(text: str) -> str:
    return text if len(text) <= 60 else text[:57] + "…"
