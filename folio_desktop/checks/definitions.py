"""Where a paragraph defines a term: "X" means ..., (the "X"), "X" shall mean ..., "X" has the meaning
given in ..., referred to as "X", and a definitions table's cell that holds the quoted term alone.
Curly and straight quotes alike. In a definitions clause written without quotes, a bold term opening the
paragraph before "means", "has the meaning" or a colon (bold_definition)."""

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


_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
# an unquoted term opening its paragraph (after a typed number, if any) before the words that define it
_LEADING_TERM = re.compile(r"^\s*(?:\d+(?:\.\d+)*\.?\s+|\([a-z]{1,4}\)\s+)?([A-Z][\w'’&/-]*(?:\s+[A-Z][\w'’&/-]*){0,7})"
                           r"(?=\s*(?:,\s*)?(?:means?\b|shall\s+mean\b|has\s+the\s+meaning\b|:))")


def bold_definition(unit) -> Definition | None:
    """The term a paragraph defines by setting it in bold at its start: **Affiliate** means ... (the form
    a definitions clause takes without quotes); None when the paragraph does not open so."""
    m = _LEADING_TERM.match(unit.text)
    # a label in capitals ("PROVIDER:" over a signature line) or with nothing after it defines nothing
    if m is None or unit.element is None or m.group(1).isupper() or len(unit.text[m.end(1):].split()) < 4:
        return None
    need, covered = m.end(1), 0
    for run in unit.element.iter(_W + "r"):
        text = "".join(t.text or "" for t in run.iter(_W + "t"))
        if not text:
            continue
        if covered + len(text) > m.start(1) and text.strip() and not _is_bold(run):
            return None
        covered += len(text)
        if covered >= need:
            break
    if covered < need:
        return None
    body = re.sub(r"\s+", " ", unit.text[m.end(1):m.end(1) + 300]).strip().lower()
    return Definition(m.group(1), m.start(1), m.end(1), body)


def _is_bold(run) -> bool:
    b = run.find(f"{_W}rPr/{_W}b")
    return b is not None and b.get(_W + "val") not in ("0", "false", "off")
