"""Grapheme clusters (UAX #29) decide which offsets an edit may not split (spec §3.5 #8): Hangul syllables
written as jamo, Indic conjuncts and prepended marks are one character to a reader, as emoji and flags are."""

import pytest
import regex
from docbuilder import build_docx, p

from folio_desktop.docx import DocxReviewer
from folio_desktop.docx.model.graphemes import WINDOW, cluster_around, clusters

HANGUL = "\u1100\u1161\u11a8"  # 각 written as three conjoining jamo
CONJUNCT = "\u0915\u094d\u0937"  # क्ष: ka, virama, ssa (GB9c)
PREPENDED = "\u0600\u0661"  # the Arabic number sign before its digit
FAMILY = "\U0001F468\u200d\U0001F469\u200d\U0001F467"
FLAGS = "\U0001F1EB\U0001F1F7\U0001F1E9\U0001F1EA"  # FR DE


@pytest.mark.parametrize("text, inside", [(HANGUL, 1), (HANGUL, 2), (CONJUNCT, 2), (PREPENDED, 1)])
def test_a_split_inside_a_syllable_conjunct_or_prepended_mark_is_refused(text, inside):
    rev = DocxReviewer.from_bytes(build_docx(p(f"Term {text} ends.", "10000001")))
    offset = len("Term ") + inside  # these are all BMP characters: code points = UTF-16 units
    result = rev.apply_document_operations({"version": 1, "operations": [
        {"type": "splitBlock", "blockId": "10000001", "offset": offset}]})
    assert [s["reason"] for s in result["skipped"]] == ["splitsCharacter"], result
    assert f'falls inside "{text}"' in result["issues"][0]["message"]
    assert rev.snapshot().block("10000001").text == f"Term {text} ends."


def test_a_split_between_characters_still_lands():
    rev = DocxReviewer.from_bytes(build_docx(p(f"Term {HANGUL}{CONJUNCT} ends.", "10000001")))
    result = rev.apply_document_operations({"version": 1, "operations": [
        {"type": "splitBlock", "blockId": "10000001", "offset": len("Term ") + len(HANGUL)}]})
    assert result["skipped"] == [] and len(result["applied"]) == 1


def test_the_window_finds_the_same_clusters_as_reading_the_whole_text():
    # a long paragraph of mixed scripts, with a run of flags longer than the window (their pairing is by
    # parity from the start of the run)
    text = ("Clause " + HANGUL + " " + CONJUNCT + "i " + FAMILY + " e\u0301 " + PREPENDED + " ") * 12 \
        + FLAGS * (WINDOW // 2) + " end"
    whole = [m.span() for m in regex.finditer(r"\X", text)]
    inside = {i: span for span in whole for i in range(span[0] + 1, span[1])}
    assert clusters(text) == whole
    assert all(cluster_around(text, i) == inside.get(i) for i in range(len(text) + 1))
