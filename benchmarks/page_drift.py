"""Why our pages drift from Word's: the first page whose start differs, and the paragraph before it
whose height differs most from the height it takes in Word's PDF.

Each body paragraph (and table row, by its first cell) our layout placed on the page before the first differing start is found in our
PDF (our PDF is drawn at the layout's scale: a fragment at y px stands at 0.75 y pt) and, through the
two PDFs' aligned word streams, in Word's. A paragraph's height is the distance from its first line's
top to the next paragraph's, both read from the PDFs' word boxes (its lines, spacing and what keeps them apart), so the paragraph whose two
heights differ most is where the page fills differently; when none differs by a point, the heights
agree and a rule (keep with next, widow control, a page break) decides the break differently.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from pdf_words import Page, body_words

from folio_desktop.docx.package.ooxml import ancestor

PX_TO_PT = 0.75
_TC = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}tc"
_P = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}p"


def _preview(text: str, words: int = 6, chars: int = 60) -> str:
    """A paragraph's first words (a CJK paragraph is one long word: cut by characters too)."""
    out = " ".join(text.replace("\ufffc", "[picture]").split()[:words])
    return out if len(out) <= chars else out[:chars] + "…"


@dataclass
class ParagraphDrift:
    words: str  # the paragraph's first words
    block_id: str | None
    ours: float  # its height in our layout, pt
    word: float  # its height in Word's PDF, pt
    ours_lines: int
    word_lines: int

    @property
    def difference(self) -> float:
        return self.ours - self.word


@dataclass
class Drift:
    page: int  # 1-based: the first page whose start differs
    word_start: str
    our_start: str
    word_start_on_our_page: int | None  # where Word's first words of that page fall in ours
    culprit: ParagraphDrift | None  # the paragraph before it whose height differs most (None: they agree)
    paragraphs: list[ParagraphDrift]

    def describe(self) -> str:
        where = (f"on our page {self.word_start_on_our_page}" if self.word_start_on_our_page is not None
                 else "not found in ours")
        total = sum(p.difference for p in self.paragraphs)
        head = (f"page {self.page}: Word starts \"{self.word_start}\" ({where}); ours starts \"{self.our_start}\"; "
                f"{len(self.paragraphs)} paragraphs before it measured, {total:+.1f} pt in all")
        if self.culprit is None:
            return head + "\n    paragraph heights agree within 1 pt: a break rule (keep with next, widows, a page " \
                          "break) decides differently"
        c = self.culprit
        lines = f", {c.ours_lines} lines in ours, {c.word_lines} in Word's" if c.ours_lines != c.word_lines else ""
        return (head + f"\n    paragraph \"{c.words}\" ({c.block_id or 'no block'}) is {c.ours:.1f} pt in ours, "
                       f"{c.word:.1f} pt in Word's ({c.difference:+.1f} pt{lines})")


def start_hits(reference: list[Page], candidate: list[Page], tops: list[float | None], window: int = 60) -> list[bool]:
    """Per page: whether the candidate's first three body words stand among the first `window` of the
    reference's page of the same number (pdf_words.page_starts, page by page)."""
    hits = []
    for n, ref_page in enumerate(reference):
        if n >= len(candidate):
            hits.append(False)
            continue
        top = tops[n] if n < len(tops) else (tops[-1] if tops else None)
        start = body_words(candidate[n], top)[:3]
        ref = body_words(ref_page, top)[:window]
        if len(start) < 3:
            hits.append(not ref)
        else:
            hits.append(any(ref[i:i + 3] == start for i in range(max(1, len(ref) - 2))))
    return hits


def _located(pages: list[Page]) -> list[tuple[str, int, float, int]]:
    """Every word as (text, page index, line top pt, line index on its page)."""
    return [(w.text, n, line[0].y0, i) for n, page in enumerate(pages) for i, line in enumerate(page.lines)
            for w in line]


def find_drift(word: list[Page], ours: list[Page], layout_pages, tops: list[float | None]) -> Drift | None:
    """The first page whose start differs from Word's, explained; None when every page starts as in Word.
    layout_pages: our layout's pages (layout.model.Page), in the order `ours` printed them."""
    hits = start_hits(word, ours, tops)
    if all(hits):
        return None
    page = hits.index(False)  # 0-based
    top = tops[page] if page < len(tops) else None
    word_start = _preview(" ".join(body_words(word[page], top)))
    our_start = _preview(" ".join(body_words(ours[page], top))) if page < len(ours) else ""
    ref, cand = _located(word), _located(ours)
    matcher = difflib.SequenceMatcher(None, [w[0] for w in ref], [w[0] for w in cand], autojunk=False)
    to_word: dict[int, int] = {}
    to_ours: dict[int, int] = {}
    for block in matcher.get_matching_blocks():
        for k in range(block.size):
            to_word[block.b + k] = block.a + k
            to_ours[block.a + k] = block.b + k
    first_word = next((i for i, w in enumerate(ref) if w[1] == page and (top is None or w[2] + 1 > top)), None)
    on_ours = None
    if first_word is not None and first_word in to_ours:
        on_ours = cand[to_ours[first_word]][1] + 1
    paragraphs = _paragraph_heights(layout_pages, max(page - 1, 0), ref, cand, to_word)
    culprit = max(paragraphs, key=lambda d: abs(d.difference), default=None)
    if culprit is not None and abs(culprit.difference) < 1.0:
        culprit = None
    return Drift(page + 1, word_start, our_start, on_ours, culprit, paragraphs)


def _paragraph_heights(layout_pages, page: int, ref, cand, to_word) -> list[ParagraphDrift]:
    """Each body paragraph that starts on our page `page` (0-based) with its height here and in Word's."""
    if page >= len(layout_pages):
        return []
    first_of_line: dict[tuple[int, int], int] = {}  # (page, line) of ours -> index of its first word
    for i, (_text, n, _y, line) in enumerate(cand):
        first_of_line.setdefault((n, line), i)
    lines_by_top = sorted({(y, line) for _t, n, y, line in cand if n == page})
    starts = []  # (our top pt, our word index, fragment)
    seen = set()
    for frag in sorted(layout_pages[page].body_fragments(), key=lambda f: (f.top, f.x)):
        cell = _cell_of(frag.para_element)
        if frag.first_line != 0 or id(frag.para) in seen or not frag.text().strip():
            continue
        if cell is not None:
            # cells stand side by side: a table is measured row by row, by its first cell's first paragraph
            row = cell.getparent()
            if cell is not _first_cell(row) or frag.para_element is not cell.find(_P) or id(row) in seen:
                continue
            seen.add(id(row))
        seen.add(id(frag.para))
        y = frag.top * PX_TO_PT
        line = next(((top, ln) for top, ln in lines_by_top
                     if abs(top - y) < 0.6 * frag.para.lines[0].height * PX_TO_PT + 2), None)
        if line is not None and (page, line[1]) in first_of_line:
            # measured in our PDF as Word's is measured in its own: from the tops of the words' boxes
            starts.append((line[0], first_of_line[(page, line[1])], frag))
    out = []
    for (y, index, frag), (y_next, index_next, _f) in zip(starts, starts[1:]):
        a, b = to_word.get(index), to_word.get(index_next)
        if a is None or b is None or ref[a][1] != ref[b][1] or ref[b][2] <= ref[a][2] or y_next <= y:
            continue  # not found in Word's, or Word put the next one on another page or beside it
        ours_lines = len({cand[k][3] for k in range(index, index_next)})
        word_lines = len({ref[k][3] for k in range(a, b)})
        out.append(ParagraphDrift(_preview(frag.text()), frag.block_id, y_next - y,
                                  ref[b][2] - ref[a][2], ours_lines, word_lines))
    return out


def _cell_of(p):
    """The w:tc a paragraph stands in (None: body text)."""
    return ancestor(p, _TC) if p is not None else None


def _first_cell(row):
    return row.find(_TC)
