"""Where a paragraph defines a term: "X" means ..., (the "X"), "X" shall mean ..., "X" has the meaning
given in ..., referred to as "X", and a definitions table's cell that holds the quoted term alone.
Curly and straight quotes alike."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

QUOTED = re.compile(r"[“\"„]\s*(\[?[A-Z0-9][^“”\"\n]{0,80}?)\s*[”\"]")
_MEANS = re.compile(
    r"\s*[,)]?\s*(?:shall\s+|will\s+|also\s+|each\s+)?(?:means?\b|mean\s|has\s+the\s+meaning|have\s+the\s+meaning"
    r"|shall\s+have\b|is\s+defined|are\s+defined|includes?\b|refers?\s+to|as\s+defined|(?:as\s+)?described\s+in"
    r"|provides\b|allows\b|shall\s+apply|:)")
_CALLED = re.compile(r"(?:referred\s+to\s+(?:in\s+this\s+\w+\s+|herein\s+|hereinafter\s+)?(?:collectively\s+)?as"
                     r"|hereinafter(?:\s+called)?|called|known\s+as|defined\s+as|designated\s+as(?!\s+an?\s)|\bare|the\s+term)"
                     r"\s*(?:the\s+|a\s+|an\s+)?$", re.I)
# "Net Income" and Net Loss means: the pair's meaning, though the second lost its quotes
_AND_UNQUOTED = re.compile(r"\s*(?:and|or)\s+[A-Z][\w-]*(?:\s+[A-Z][\w-]*){0,4}\s+(?:\([^()]{0,20}\)\s+)?"
                           r"(?:means|shall\s+mean|mean)\b")
_AND_QUOTE = re.compile(r"^\s*(?:,|and|or)\s*[“\"]")
_OR_QUOTE = re.compile(r"^\s*(?:,|or|and|and/or)\s*(?:the\s+|a\s+|an\s+)?$")
# "modify the definitions of “UBTI” or “ECI”": names terms defined elsewhere, defines none
_DEFINITIONS_OF = re.compile(r"\bdefinitions?\s+of\s+(?:the\s+terms?\s+)?$", re.I)


@dataclass(frozen=True, slots=True)
class Definition:
    term: str
    start: int
    end: int  # of the quoted term, closing quote included
    body: str  # what follows the term, for telling two definitions of it apart


def _in_parentheses(before: str) -> bool:
    """Does `before` end inside an open parenthesis begun shortly before: (the "X"), (each, a "X")."""
    opened = before.rfind("(")
    return opened >= 0 and opened > before.rfind(")") and len(before) - opened <= 60 and \
        not re.search(r"\bas\s+(?:an?\s+)?$", before)


def _term(quoted: str) -> str:
    """The term a quote defines: "[Initial] Closing" is "Initial Closing", but a blank stays part of the name
    ("Series [___] Preferred Stock", written so wherever it is used)."""
    if not re.search(r"\[_+\]", quoted):
        quoted = quoted.replace("[", "").replace("]", "")
    return quoted.strip().rstrip(",.;:")


@lru_cache(maxsize=65536)
def referenced_terms(text: str) -> tuple[str, ...]:
    """Quoted terms the paragraph names as defined elsewhere: the definitions of “X”, “Y” or “Z”."""
    out: list[str] = []
    previous_end = None
    for m in QUOTED.finditer(text):
        if _DEFINITIONS_OF.search(text[max(0, m.start() - 40):m.start()]) or \
                (previous_end is not None and _OR_QUOTE.match(text[previous_end:m.start()])):
            out.append(_term(m.group(1)))
            previous_end = m.end()
        else:
            previous_end = None
    return tuple(out)


@lru_cache(maxsize=65536)
def definitions_in(text: str) -> tuple[Definition, ...]:
    out: list[Definition] = []
    previous_end = None
    referenced = referenced_terms(text)
    for m in QUOTED.finditer(text):
        term = _term(m.group(1))
        if not term or len(term.split()) > 8 or not term[0].isupper() or term in referenced:
            continue
        before, after = text[max(0, m.start() - 80):m.start()], text[m.end():m.end() + 60]
        chained = previous_end is not None and _OR_QUOTE.match(text[previous_end:m.start()])
        # "Net Income" and "Net Loss" means: the first takes its meaning from the verb after the second
        nxt = QUOTED.match(text, m.end() + len(_AND_QUOTE.match(text[m.end():]).group()) - 1) \
            if _AND_QUOTE.match(text[m.end():]) else None
        chained = chained or (nxt is not None and _MEANS.match(text[nxt.end():nxt.end() + 60])) \
            or bool(_AND_UNQUOTED.match(text, m.end()))
        # a quoted term opening its own paragraph or bullet: •"Server Software" provides ...
        chained = chained or (not text[:m.start()].strip(" \t•·-–\u00a0") and _MEANS.match(after))
        if _MEANS.match(after) or _in_parentheses(before) or _CALLED.search(before) or chained \
                or text.strip(" \t\u00a0.:") == m.group(0).strip():
            body = re.sub(r"\s+", " ", text[m.end():m.end() + 300]).strip().lower()
            out.append(Definition(term, m.start(), m.end(), body))
            previous_end = m.end()
        else:
            previous_end = None
    return tuple(out)
