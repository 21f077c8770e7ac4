"""ParagraphView keeps its segs up to date across run splits and deletions without walking the
paragraph again (editing.py): after every edit they must be exactly what a fresh walk reads, the
same offsets, text, runs and elements, or later edits of the same paragraph land in the wrong place."""

from __future__ import annotations

import random

import pytest
from conftest import CORPUS
from lxml import etree

from folio_desktop.docx import DocxReviewer
from folio_desktop.docx.editing.paragraph_edit import ParagraphView, Stamp
from folio_desktop.docx.package.ooxml import W_NS

# runs split in the middle of words, a tab, a break, a complex field (code hidden, result shown), a
# note marker, another author's insertion and our own, a hidden run, a run with two text nodes, a
# field whose begin and separate characters share runs with text, a second note marker
MIXED = f"""<w:p xmlns:w="{W_NS}">
<w:r><w:t xml:space="preserve">Alpha beta </w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>gamma</w:t><w:tab/>
<w:t xml:space="preserve">delta epsilon</w:t></w:r><w:r><w:br/><w:t xml:space="preserve"> zeta eta</w:t></w:r>
<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> PAGE </w:instrText></w:r>
<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>12</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>
<w:r><w:t xml:space="preserve"> theta</w:t></w:r><w:r><w:footnoteReference w:id="1"/></w:r>
<w:ins w:id="1" w:author="Other" w:date="2024-01-01T00:00:00Z"><w:r><w:t xml:space="preserve"> iota kappa</w:t></w:r></w:ins>
<w:ins w:id="2" w:author="AI" w:date="2024-01-01T00:00:00Z"><w:r><w:t xml:space="preserve"> lambda mu</w:t></w:r></w:ins>
<w:r><w:rPr><w:vanish/></w:rPr><w:t>hidden</w:t></w:r><w:r><w:t xml:space="preserve"> nu xi omicron</w:t></w:r>
<w:r><w:t xml:space="preserve"> pi</w:t><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> REF x </w:instrText></w:r>
<w:r><w:fldChar w:fldCharType="separate"/><w:t>rho</w:t></w:r><w:r><w:t xml:space="preserve"> result</w:t></w:r>
<w:r><w:fldChar w:fldCharType="end"/></w:r>
<w:r><w:t xml:space="preserve"> sigma</w:t></w:r><w:r><w:footnoteReference w:id="2"/></w:r><w:r><w:t xml:space="preserve"> tau</w:t></w:r>
</w:p>"""


def _segs(view: ParagraphView):
    return view.text, [(s.start, s.end, s.kind, s.text, s.run, s.node) for s in view.segs]


def _assert_fresh(view: ParagraphView) -> None:
    assert _segs(view) == _segs(ParagraphView(view.p, view.hidden_styles, view.note_texts))


def _edit_at_random(view: ParagraphView, rng: random.Random, stamp: Stamp | None, edits: int) -> int:
    """Deletions and insertions at random offsets (word edges and mid-word), right to left as the
    word diff writes them; returns how many the engine made (refused ones leave the view as it was)."""
    made = 0
    for _ in range(edits):
        if len(view.text) < 2:
            break
        a = rng.randrange(len(view.text) - 1)
        b = min(len(view.text), a + rng.randint(1, 12))
        try:
            if rng.random() < 0.6:
                last = view.delete(a, b, stamp, allow_notes=rng.random() < 0.3)
                _assert_fresh(view)
                view.insert(a, "new words", stamp, after=last)
            else:
                view.insert(a, "typed", stamp)
        except Exception as exc:  # noqa: BLE001 - a refused edit (note marker, field) is not the subject
            if type(exc).__name__ != "EditError":
                raise
            continue
        made += 1
        _assert_fresh(view)
    return made


@pytest.mark.parametrize("tracked", [True, False])
def test_segs_match_a_fresh_walk_after_every_edit_of_a_mixed_paragraph(tracked):
    rng = random.Random(7)
    made = 0
    for _ in range(40):
        p = etree.fromstring(MIXED)
        view = ParagraphView(p, note_texts=["[^1]", "[^2]"])
        stamp = Stamp("AI", "2024-01-01T00:00:00Z", [100]) if tracked else None
        made += _edit_at_random(view, rng, stamp, 6)
    assert made > 100


def test_segs_match_a_fresh_walk_while_redlining_a_real_document():
    rev = DocxReviewer.from_bytes((CORPUS / "powertools_RP051_arabic_tracked_changes.docx").read_bytes())
    rev.reject_all()
    rng = random.Random(3)
    long_paragraphs = [b.element for b in rev.snapshot().blocks if b.element is not None and len(b.text) > 80]
    assert len(long_paragraphs) > 10
    made = 0
    for p in long_paragraphs[:20]:
        view = ParagraphView(p)
        made += _edit_at_random(view, rng, Stamp("AI", "2024-01-01T00:00:00Z", [10_000]), 8)
    assert made > 100
