"""The redline's plan (redline_plan.py) seen through its result: the move threshold of three words, a
table whose cells change re-planned as a whole table rather than refused, and the operation types of
copied-in content (a new table, a paragraph before the first one). Written to kill the mutants
scripts/mutation.py left alive in redline_plan.py."""

from __future__ import annotations

import io
import zipfile

from docbuilder import build_docx, cell, p, row, table

from folio_desktop.agents.versions.redline import generate_redline_docx, story_texts
from folio_desktop.docx import DocxReviewer


def assert_right(result: dict, base: bytes, revised: bytes) -> None:
    for accept, want in ((True, revised), (False, base)):
        rev = DocxReviewer.from_bytes(result["buffer"])
        rev.accept_all() if accept else rev.reject_all()
        assert story_texts(rev) == story_texts(DocxReviewer.from_bytes(want))


def moved(text: str) -> bool:
    anchors = [p(f"Anchor paragraph number {n}.", f"3000000{n}") for n in range(4)]
    base = build_docx(p(text, "10000001") + "".join(anchors))
    revised = build_docx("".join(anchors) + p(text, "20000001"))
    result = generate_redline_docx(base, revised)
    assert_right(result, base, revised)
    return b"<w:moveFrom " in zipfile.ZipFile(io.BytesIO(result["buffer"])).read("word/document.xml")


def test_a_moved_paragraph_of_three_words_is_a_move_and_of_two_is_not():
    assert moved("Three words here.")
    assert not moved("Two words.")


def test_a_row_losing_a_cell_is_replaced_as_a_row_without_a_fallback():
    """The row whose shape changed is deleted and inserted whole; the rest of the table stays."""
    base = build_docx(p("Before.") + table(row(cell(p("a1")), cell(p("b1"))), row(cell(p("a2")), cell(p("b2"))))
                      + p("After."))
    revised = build_docx(p("Before.") + table(row(cell(p("a1")), cell(p("b1"))), row(cell(p("a2 and b2"))))
                         + p("After."))
    result = generate_redline_docx(base, revised)
    assert_right(result, base, revised)
    assert result["fallbacks"] == []
    assert {a["type"] for a in result["applied"]} == {"deleteTableRow", "insertTableRow"}


def test_copied_in_content_is_reported_by_what_it_is():
    base = build_docx(p("The first clause.", "10000001") + p("The last clause.", "10000002"))
    revised = build_docx(p("A new opening clause.", "20000001") + p("The first clause.", "10000001")
                         + table(row(cell(p("x")), cell(p("y")))) + p("The last clause.", "10000002"))
    result = generate_redline_docx(base, revised)
    assert_right(result, base, revised)
    assert sorted(a["type"] for a in result["applied"]) == ["insertBeforeBlock", "insertTable"]
