"""What the redline writer reports and how it marks (redline_writer.py): the applied list names each
operation's story, block and revision ids, every revision carries one date, moves and note-reference
rewrites are marked as Word reads them.
Written to kill the mutants scripts/mutation.py left alive in redline_writer.py."""

from __future__ import annotations

import io
import zipfile

from docbuilder import W_NS, build_docx, cell, p, row, table
from lxml import etree

from folio_desktop.agents.versions import redline as redline_mod
from folio_desktop.agents.versions.redline import generate_redline_docx, story_texts
from folio_desktop.docx import DocxReviewer

W = "{" + W_NS + "}"
NS = {"w": W_NS}
MARKS = ("ins", "del", "moveFrom", "moveTo", "rPrChange", "pPrChange")


def document(data: bytes) -> etree._Element:
    return etree.fromstring(zipfile.ZipFile(io.BytesIO(data)).read("word/document.xml"))


def resolved(data: bytes, accept: bool) -> dict:
    rev = DocxReviewer.from_bytes(data)
    rev.accept_all() if accept else rev.reject_all()
    return story_texts(rev)


def assert_right(result: dict, base: bytes, revised: bytes) -> None:
    assert resolved(result["buffer"], True) == story_texts(DocxReviewer.from_bytes(revised))
    assert resolved(result["buffer"], False) == story_texts(DocxReviewer.from_bytes(base))


def test_each_applied_operation_names_its_story_and_its_own_revisions():
    base = build_docx(p("The Supplier shall deliver the goods.", "10000001") + p("Delete this clause.", "10000002")
                      + p("Payment terms apply.", "10000003"))
    revised = build_docx(p("The Supplier must deliver the goods.", "10000001") + p("Payment terms apply.", "10000003")
                         + p("A new closing clause.", "20000001"))
    result = generate_redline_docx(base, revised)
    assert_right(result, base, revised)
    applied = result["applied"]
    assert {a["type"] for a in applied} >= {"replaceBlock", "deleteBlock", "insertAfterBlock"}
    ids_in_buffer = {int(el.get(W + "id")) for tag in MARKS for el in document(result["buffer"]).iter(W + tag)}
    seen: set = set()
    for entry in applied:
        assert entry["revisionIds"] and entry["revisionId"] == entry["revisionIds"][0], entry
        assert set(entry["revisionIds"]) <= ids_in_buffer, entry
        assert not seen & set(entry["revisionIds"]), "two operations claim one revision"
        seen |= set(entry["revisionIds"])


def test_every_revision_carries_the_one_date():
    base = build_docx(p("Alpha beta gamma.") + p("Moved paragraph with words.") + p("One.") + p("Two.") + p("Three."))
    revised = build_docx(p("Alpha delta gamma.") + p("One.") + p("Two.") + p("Three.") + p("Moved paragraph with words."))
    root = document(generate_redline_docx(base, revised)["buffer"])
    marks = [el for tag in (*MARKS, "moveFromRangeStart", "moveToRangeStart") for el in root.iter(W + tag)]
    assert len(marks) >= 6
    assert len({el.get(W + "date") for el in marks}) == 1 and None not in {el.get(W + "date") for el in marks}


def test_a_move_source_keeps_its_paragraph_properties_first():
    anchors = [p(f"Anchor paragraph number {n}.", f"3000000{n}") for n in range(4)]
    moving = ("This paragraph will move down.", "10000001")
    base = build_docx(p(*moving, ppr='<w:jc w:val="center"/>') + "".join(anchors))
    revised = build_docx("".join(anchors) + p(moving[0], "20000001", ppr='<w:jc w:val="center"/>'))
    result = generate_redline_docx(base, revised)
    assert_right(result, base, revised)
    source = next(q for q in document(result["buffer"]).iter(W + "p") if q.find("w:moveFromRangeStart", NS) is not None)
    assert source[0].tag == W + "pPr" and source[1].tag == W + "moveFromRangeStart"


def _noted(text: str, note_id: int) -> str:
    return (f'<w:p><w:r><w:t xml:space="preserve">{text}</w:t></w:r>'
            f'<w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:footnoteReference w:id="{note_id}"/></w:r></w:p>')


NOTES = ('<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
         '<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p>'
         '</w:footnote><w:footnote w:id="1"><w:p><w:r><w:t>Note one.</w:t></w:r></w:p></w:footnote>')


def test_a_paragraph_with_a_note_reference_is_rewritten_as_deleted_and_inserted_runs():
    base = build_docx(_noted("The fee is due.", 1) + p("End."), footnotes=NOTES)
    revised = build_docx(_noted("The fee is payable now.", 1) + p("End."), footnotes=NOTES)
    result = generate_redline_docx(base, revised)
    assert_right(result, base, revised)
    assert result["fallbacks"] == []
    noted = next(document(result["buffer"]).iter(W + "p"))
    wrappers = [el.tag[len(W):] for el in noted if el.tag != W + "pPr"]
    assert set(wrappers) == {"del", "ins"}, wrappers  # every run in one of the two, under their real names
    assert "".join(t.text for t in noted.iterfind("w:del//w:delText", NS)).startswith("The fee is due.")
    assert "".join(t.text for t in noted.iterfind("w:ins//w:t", NS)).startswith("The fee is payable now.")


def test_a_deleted_table_row_is_written_row_by_row():
    base = build_docx(p("Before.") + table(row(cell(p("a1")), cell(p("b1"))), row(cell(p("a2")), cell(p("b2"))),
                                           row(cell(p("a3")), cell(p("b3")))) + p("After."))
    revised = build_docx(p("Before.") + table(row(cell(p("a1")), cell(p("b1"))), row(cell(p("a3")), cell(p("b3"))))
                         + p("After."))
    result = generate_redline_docx(base, revised)
    assert_right(result, base, revised)
    assert result["fallbacks"] == []
    assert [a["type"] for a in result["applied"]] == ["deleteTableRow"]
    assert len(document(result["buffer"]).findall(".//w:trPr/w:del", NS)) == 1


def test_a_coarse_redline_reports_paragraph_deletions_as_such(monkeypatch):
    real, calls = redline_mod._differences, []

    def fails_once(*args):
        calls.append(1)
        return {"main": "made up"} if len(calls) == 1 else real(*args)
    monkeypatch.setattr(redline_mod, "_differences", fails_once)
    base = build_docx(p("The Supplier shall deliver the goods.") + p("Payment is due."))
    revised = build_docx(p("The Supplier must deliver the goods.") + p("Payment is due."))
    result = generate_redline_docx(base, revised)
    assert_right(result, base, revised)
    assert [a["type"] for a in result["applied"]] == ["deleteBlock", "insertAfterBlock"]
    first, second = result["applied"]
    assert not set(first["revisionIds"]) & set(second["revisionIds"])
    ids_in_buffer = {int(el.get(W + "id")) for tag in MARKS for el in document(result["buffer"]).iter(W + tag)}
    assert set(first["revisionIds"]) | set(second["revisionIds"]) <= ids_in_buffer
