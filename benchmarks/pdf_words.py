"""Words of a PDF with their boxes, as poppler's `pdftotext -bbox-layout` reads them, grouped into the
lines a reader sees, and the three measures the fidelity benchmarks take of two PDFs of one
document: page starts, line-end F1 and words past a right edge.

A line is a run of words on one page whose boxes overlap vertically by at least half the smaller
box (so a raised footnote number stays on its line), ordered left to right; lines are ordered top
to bottom. Words are compared case-folded and stripped of surrounding punctuation, so "RECITALS:"
set in caps and "recitals:" typed in lower case are the same word (whether the caps were drawn is
a separate question; the line ends and the widths say it).
"""

from __future__ import annotations

import difflib
import re
import subprocess
import unicodedata
from dataclasses import dataclass

from lxml import etree

_XHTML = "{http://www.w3.org/1999/xhtml}"
_STRIP = re.compile(r"^[\W_]+|[\W_]+$")
GAP_JOIN = 30.0  # pt: a list number's tab gap is narrower than a column gutter (Word's default is 36 pt)


@dataclass
class Word:
    text: str  # normalized
    x0: float
    y0: float
    x1: float
    y1: float


@dataclass
class Page:
    width: float
    height: float
    lines: list[list[Word]]

    @property
    def words(self) -> list[Word]:
        return [w for line in self.lines for w in line]


def normalize(text: str) -> str:
    return _STRIP.sub("", unicodedata.normalize("NFKC", text).casefold())


def read_pdf(path) -> list[Page]:
    """The pages of a PDF as lines of words (poppler's pdftotext must be installed)."""
    out = subprocess.run(["pdftotext", "-bbox-layout", str(path), "-"], capture_output=True, check=True).stdout
    root = etree.fromstring(out, etree.XMLParser(recover=True, resolve_entities=False, no_network=True))
    pages = []
    for page in root.iter(_XHTML + "page", "page"):
        lines = []
        for line_el in page.iter(_XHTML + "line", "line"):
            words = []
            for el in line_el.iter(_XHTML + "word", "word"):
                text = normalize(el.text or "")
                if text:
                    words.append(Word(text, float(el.get("xMin")), float(el.get("yMin")), float(el.get("xMax")),
                                      float(el.get("yMax"))))
            if words:
                lines.append(words)
        pages.append(Page(float(page.get("width")), float(page.get("height")), join_split_lines(lines)))
    return pages


def join_split_lines(lines: list[list[Word]]) -> list[list[Word]]:
    """poppler's lines, in its reading order (column by column), with a line it split off at a wide
    gap on the same baseline joined back: a list number and its text after the tab, or a raised
    footnote number. Lines of another column stay apart (a gap wider than a tab's)."""
    out: list[list[Word]] = []
    for line in lines:
        if out:
            prev = out[-1]
            a, b = prev[-1], line[0]
            height = min(a.y1 - a.y0, b.y1 - b.y0)
            overlap = min(a.y1, b.y1) - max(a.y0, b.y0)
            if overlap >= 0.5 * height and 0 <= b.x0 - a.x1 < GAP_JOIN:
                prev.extend(line)
                continue
        out.append(list(line))
    return out


# -- the measures ----------------------------------------------------------------------------------------


def stream(pages: list[Page]) -> tuple[list[str], set[int]]:
    """All words in reading order, and the indices of the words that end a line."""
    words, ends = [], set()
    for page in pages:
        for line in page.lines:
            words.extend(w.text for w in line)
            ends.add(len(words) - 1)
    return words, ends


def line_end_f1(reference: list[Page], candidate: list[Page]) -> float:
    """How well the candidate's line ends agree with the reference's, over the words both hold."""
    ref_words, ref_ends = stream(reference)
    cand_words, cand_ends = stream(candidate)
    matcher = difflib.SequenceMatcher(None, ref_words, cand_words, autojunk=False)
    to_ref: dict[int, int] = {}
    for block in matcher.get_matching_blocks():
        for k in range(block.size):
            to_ref[block.b + k] = block.a + k
    matched_ref = set(to_ref.values())
    predicted = {to_ref[i] for i in cand_ends if i in to_ref}
    actual = ref_ends & matched_ref
    if not predicted or not actual:
        return 0.0
    hits = len(predicted & actual)
    precision, recall = hits / len(predicted), hits / len(actual)
    return 0.0 if hits == 0 else 2 * precision * recall / (precision + recall)


def body_words(page: Page, top: float | None) -> list[str]:
    """A page's words from the body's top down (the header above it left out)."""
    return [w.text for line in page.lines if top is None or line[0].y1 > top for w in line]


def page_starts(reference: list[Page], candidate: list[Page], tops: list[float | None], window: int = 60) -> int:
    """Pages whose first three body words (the candidate's) stand among the first `window` words of
    the reference's page of the same number."""
    hits = 0
    for n, ref_page in enumerate(reference):
        if n >= len(candidate):
            break
        top = tops[n] if n < len(tops) else (tops[-1] if tops else None)
        start = body_words(candidate[n], top)[:3]
        ref = body_words(ref_page, top)[:window]
        if len(start) < 3:
            hits += not ref  # both pages empty of body words
            continue
        if any(ref[i:i + 3] == start for i in range(max(1, len(ref) - 2))):
            hits += 1
    return hits


def words_past_edge(reference: list[Page], candidate: list[Page], tolerance: float = 1.5) -> int:
    """Words the candidate prints past the reference's rightmost word on the same page."""
    past = 0
    for ref_page, page in zip(reference, candidate):
        ref = ref_page.words
        if not ref:
            continue
        edge = max(w.x1 for w in ref) + tolerance
        past += sum(1 for w in page.words if w.x1 > edge)
    return past
