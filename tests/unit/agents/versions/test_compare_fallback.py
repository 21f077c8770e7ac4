"""Compare never refuses a valid pair (issue 15, point 3): where the word-level redline fails its own
check (reject-all is the base, accept-all the revised), the differing regions of that story are
redone as whole paragraphs and tables deleted and inserted, and the summary says so.

Each pair below tripped the word-level writer before the fallback existed (the redline was refused
with RedlineVerificationError). A table whose rows carry w:gridBefore / w:gridAfter offsets did not:
cell edits, row deletions and offset changes in such tables redline word by word (no test here)."""

from __future__ import annotations

import io
import re
import zipfile

from docbuilder import W_NS, build_docx, cell, long_table, p, row, table

from folio_desktop.agents.versions.cli import run as compare_cli
from folio_desktop.agents.versions.redline import generate_redline_docx, story_texts
from folio_desktop.docx import DocxReviewer


def text_box(content: str) -> str:
    """A paragraph anchoring a text box the way Word writes one: DrawingML with a VML fallback copy."""
    shape = ('<wp:anchor distT="0" distB="0" distL="0" distR="0" simplePos="0" relativeHeight="1" behindDoc="0" '
             'locked="0" layoutInCell="1" allowOverlap="1"><wp:simplePos x="0" y="0"/><wp:positionH '
             'relativeFrom="column"><wp:posOffset>0</wp:posOffset></wp:positionH><wp:positionV '
             'relativeFrom="paragraph"><wp:posOffset>0</wp:posOffset></wp:positionV><wp:extent cx="2000000" '
             'cy="1000000"/><wp:wrapNone/><wp:docPr id="1" name="Text Box 1"/><a:graphic><a:graphicData '
             'uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp><wps:cNvSpPr '
             f'txBox="1"/><wps:spPr/><wps:txbx><w:txbxContent>{content}</w:txbxContent></wps:txbx><wps:bodyPr/>'
             '</wps:wsp></a:graphicData></a:graphic></wp:anchor>')
    return ('<w:p><w:r><w:t xml:space="preserve">See the box: </w:t></w:r><w:r><mc:AlternateContent>'
            f'<mc:Choice Requires="wps"><w:drawing>{shape}</w:drawing></mc:Choice><mc:Fallback><w:pict>'
            '<v:shape id="tb1" style="width:100pt;height:50pt"><v:textbox><w:txbxContent>'
            f'{content}</w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback></mc:AlternateContent></w:r></w:p>')


def resolved_texts(data: bytes, accept: bool) -> dict:
    rev = DocxReviewer.from_bytes(data)
    rev.accept_all() if accept else rev.reject_all()
    return story_texts(rev)


def assert_redline_is_right(base: bytes, revised: bytes) -> dict:
    result = generate_redline_docx(base, revised)
    assert resolved_texts(result["buffer"], True) == story_texts(DocxReviewer.from_bytes(revised))
    assert resolved_texts(result["buffer"], False) == story_texts(DocxReviewer.from_bytes(base))
    return result


# -- pairs that tripped the word-level writer ---------------------------------------------------------------

def test_a_text_box_holding_a_table_removed_is_deleted_with_its_paragraph():
    """Once tripped the word-level writer (the text box's run stayed behind the deleted text and joined
    the next paragraph on accepting, so the story fell back to whole blocks); now deleting the
    paragraph takes the box's run with it, word level, no fallback."""
    box = text_box(p("Schedule") + table(row(cell(p("a1")), cell(p("b1"))), row(cell(p("a2")), cell(p("b2"))))
                   + p("End of box."))
    base = build_docx(p("Before the box.") + box + p("After the box."))
    revised = build_docx(p("Before the box.") + p("After the box."))
    result = assert_redline_is_right(base, revised)
    assert result["fallbacks"] == []
    xml = zipfile.ZipFile(io.BytesIO(result["buffer"])).read("word/document.xml").decode()
    assert re.search(r"<w:del [^>]*><w:r><mc:AlternateContent>", xml), "the box's run is struck with its paragraph"


def test_a_long_table_losing_a_row_held_in_a_content_control():
    base = build_docx(p("Price list.") + long_table() + p("Prices exclude tax."))
    revised = build_docx(p("Price list.") + long_table(edited=20, dropped=34) + p("Prices exclude tax."))
    result = assert_redline_is_right(base, revised)
    # (once replaced whole; now the row in its content control is deleted as a row: test_redline_tables.py)
    assert result["fallbacks"] == []
    accepted = DocxReviewer.from_bytes(result["buffer"])
    accepted.accept_all()
    texts = story_texts(accepted)["main"]
    assert "Amount 20 (revised)" in texts and "Item 34" not in texts and texts[0] == "Price list."


def test_a_row_holding_a_nested_table_deleted_with_an_edit_elsewhere():
    nested = table(row(cell(p("inner 1")), cell(p("inner 2"))))
    base = build_docx(p("Opening words.") + p("Unchanged words.")
                      + table(row(cell(nested, p("outer a")), cell(p("outer b"))), row(cell(p("kept a")), cell(p("kept b"))))
                      + p("Closing words."))
    revised = build_docx(p("Opening words, amended.") + p("Unchanged words.")
                         + table(row(cell(p("kept a")), cell(p("kept b")))) + p("Closing words."))
    result = assert_redline_is_right(base, revised)
    assert [f["story"] for f in result["fallbacks"]] == ["main"]
    # two regions: the amended paragraph (1 + 1 blocks), the table replaced whole (6 + 2); the
    # unchanged paragraphs between and after them stay as they are
    assert (result["fallbacks"][0]["regions"], result["fallbacks"][0]["blocks"]) == (2, 10)
    redline = DocxReviewer.from_bytes(result["buffer"])
    kept = [b for b in redline.snapshot().blocks if b.text == "Unchanged words."]
    marks = kept[0].element.xpath(".//w:ins | .//w:del", namespaces={"w": W_NS})
    assert len(kept) == 1 and marks == []


def test_an_unaffected_pair_has_no_fallback():
    base = build_docx(p("The term is one year.") + table(row(cell(p("a")), cell(p("b")))) + p("End."))
    revised = build_docx(p("The term is two years.") + table(row(cell(p("a")), cell(p("b changed")))) + p("End."))
    assert assert_redline_is_right(base, revised)["fallbacks"] == []


def test_the_summary_names_the_fallback(tmp_path, capsys):
    old, new, out = tmp_path / "old.docx", tmp_path / "new.docx", tmp_path / "red.docx"
    # a row whose first cell stays in the first row and whose last goes to a new second row: the
    # table is replaced whole (a long table losing a row in a content control once was, before rows
    # in content controls were deleted as rows)
    old.write_bytes(build_docx(p("Price list.") + table(row(cell(p("Alpha")), cell(p("Gamma"))),
                                                        row(cell(p("Kept")), cell(p("1")))) + p("Prices exclude tax.")))
    new.write_bytes(build_docx(p("Price list.") + table(row(cell(p("Alpha")), cell(p("Eta"))),
                                                        row(cell(p("Zeta")), cell(p("Gamma"))),
                                                        row(cell(p("Kept")), cell(p("1")))) + p("Prices exclude tax.")))
    assert compare_cli([str(old), str(new), "-o", str(out), "--summary"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith("; 1 story part(s) redlined as whole paragraphs and tables.")
    assert lines[1] == ("Note: in the main text, 1 table is shown deleted and inserted whole, not row by row: its "
                        "cells were split or merged in a way a row-by-row redline cannot show.")
    assert lines[2].startswith("Version diff:")
    assert resolved_texts(out.read_bytes(), True) == story_texts(DocxReviewer.open(new))


# -- cost: notes renumbered by an edit elsewhere are not changes ------------------------------------------

def _noted(text: str, note_id: int) -> str:
    return (f'<w:p><w:r><w:t xml:space="preserve">{text}</w:t></w:r>'
            f'<w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:footnoteReference w:id="{note_id}"/></w:r></w:p>')


def _notes(*ids: int) -> str:
    return ('<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
            '<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p>'
            '</w:footnote>' + "".join(f'<w:footnote w:id="{n}"><w:p><w:r><w:t>Note {n}.</w:t></w:r></w:p></w:footnote>'
                                      for n in ids))


def test_a_paragraph_whose_note_is_only_renumbered_is_unchanged():
    """Deleting the first noted clause renumbers every later note marker ([^2] reads [^1]): those
    paragraphs are not modified, so a long document with a few edits is not rewritten note by note."""
    from folio_desktop.agents.versions.compare import compare_docx_versions

    base = build_docx(_noted("First clause.", 1) + _noted("Second clause.", 2) + _noted("Third clause.", 3)
                      + p("End."), footnotes=_notes(1, 2, 3))
    revised = build_docx(_noted("Second clause.", 2) + _noted("Third clause.", 3) + p("End."),
                         footnotes=_notes(1, 2, 3))
    assert story_texts(DocxReviewer.from_bytes(revised))["main"][:2] == ["Second clause.[^1]", "Third clause.[^2]"]
    counts = compare_docx_versions(base, revised)["summaryCounts"]
    assert (counts["deleted"], counts["modified"]) == (1, 0)
    result = generate_redline_docx(base, revised)
    assert [a["type"] for a in result["applied"]] == ["deleteBlock"]
    assert resolved_texts(result["buffer"], True)["main"] == story_texts(DocxReviewer.from_bytes(revised))["main"]
    assert resolved_texts(result["buffer"], False)["main"] == story_texts(DocxReviewer.from_bytes(base))["main"]
