"""Tracked moves as moves (issue 15, point 2): text moved away may be w:t (as Word and LibreOffice
write it) or w:delText; read_changes and the reviewing pane show a move as one change with both
ends; accepting or rejecting either half resolves the pair; the text around a move can be edited."""

from __future__ import annotations

import zipfile
from io import BytesIO

import pytest
from conftest import CORPUS, ok
from docbuilder import build_docx
from lxml import etree

from folio_desktop.agents import create_reviewer_bridge, execute_tool_call
from folio_desktop.docx import DocxReviewer
from folio_desktop.docx.editing.validate import validate_elements
from folio_desktop.ui.panels.change_rows import Places, change_rows, difference_rows

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
ANN = 'w:author="Ann Lawyer" w:date="2024-01-02T03:04:00Z"'
BOB = 'w:author="Bob Counsel" w:date="2024-02-03T04:05:00Z"'
FEES = "Fees are due monthly. "


def word_move(text: str = FEES, *, who: str = ANN, ranges: bool = True, name: str = "move1",
              ids: tuple[int, int, int, int] = (11, 12, 13, 14)) -> tuple[str, str]:
    """The two halves of a move as Word writes them: a named w:moveFromRangeStart/End around a
    w:moveFrom whose runs hold w:t, and the same name on w:moveToRangeStart/End around w:moveTo."""
    a, b, c, d = ids
    away = f'<w:moveFrom w:id="{b}" {who}><w:r><w:t xml:space="preserve">{text}</w:t></w:r></w:moveFrom>'
    here = f'<w:moveTo w:id="{d}" {who}><w:r><w:t xml:space="preserve">{text}</w:t></w:r></w:moveTo>'
    if ranges:
        away = f'<w:moveFromRangeStart w:id="{a}" {who} w:name="{name}"/>{away}<w:moveFromRangeEnd w:id="{a}"/>'
        here = f'<w:moveToRangeStart w:id="{c}" {who} w:name="{name}"/>{here}<w:moveToRangeEnd w:id="{c}"/>'
    return away, here


def run(text: str) -> str:
    return f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>'


def inline_move_doc(**kw) -> bytes:
    """Clause 1 lost a sentence to clause 2, with text before and after the move on both sides."""
    away, here = word_move(**kw)
    return build_docx(f"<w:p>{run('The Buyer shall pay. ')}{away}{run('Interest accrues daily.')}</w:p>"
                      f"<w:p>{run('Payment terms. ')}{here}{run('End.')}</w:p>")


BEFORE = ["The Buyer shall pay. Interest accrues daily.", "Payment terms. Fees are due monthly. End."]
ORIGINAL = ["The Buyer shall pay. Fees are due monthly. Interest accrues daily.", "Payment terms. End."]


def texts(rev) -> list[str]:
    return [b.text for b in rev.snapshot().blocks if b.kind != "diagnostic"]


def accepted(data: bytes) -> list[str]:
    rev = DocxReviewer.from_bytes(data)
    rev.accept_all()
    return texts(rev)


def rejected(data: bytes) -> list[str]:
    rev = DocxReviewer.from_bytes(data)
    rev.reject_all()
    return texts(rev)


def apply(rev, *operations) -> dict:
    result = rev.apply_document_operations({"version": 1, "operations": list(operations)})
    assert not result["skipped"], result["skipped"]
    return result


def document_xml(rev) -> bytes:
    return zipfile.ZipFile(BytesIO(rev.to_bytes())).read("word/document.xml")


def read_changes(rev) -> list[dict]:
    """Every page of read_changes."""
    bridge, args, out = create_reviewer_bridge(rev), {}, []
    while True:
        result = ok(execute_tool_call("read_changes", args, bridge))
        out += result["changes"]
        if not result["truncated"]:
            return out
        args = {"offset": result["nextOffset"]}


# -- the validator ------------------------------------------------------------------------------------------


def _paragraph(inner: str):
    return etree.fromstring(f'<w:p xmlns:w="{W_NS}">{inner}</w:p>')


def test_text_moved_away_may_be_w_t_or_w_deltext_but_a_deletion_holds_no_live_text():
    away, _here = word_move()
    assert validate_elements([_paragraph(away)]) is None  # Word's and LibreOffice's way
    assert validate_elements([_paragraph(away.replace("w:t ", "w:delText ").replace("</w:t>", "</w:delText>"))]) \
        is None  # ours
    struck = f'<w:del w:id="5" {ANN}><w:r><w:t>gone</w:t></w:r></w:del>'
    assert validate_elements([_paragraph(struck)]) == "p/del/r/t: live text inside a tracked deletion"
    # a deletion inside moved-away text still holds no live text
    nested = f'<w:moveFrom w:id="6" {ANN}><w:del w:id="7" {BOB}><w:r><w:t>x</w:t></w:r></w:del></w:moveFrom>'
    assert validate_elements([_paragraph(nested)]) == "p/moveFrom/del/r/t: live text inside a tracked deletion"
    stray = "<w:r><w:delText>loose</w:delText></w:r>"
    assert validate_elements([_paragraph(stray)]) == "p/r/delText: deleted text outside a tracked deletion"


# -- editing around a move ----------------------------------------------------------------------------------


def test_text_around_a_move_can_be_edited_on_both_sides():
    data = inline_move_doc()
    rev = DocxReviewer.from_bytes(data, author="AI")
    assert texts(rev) == BEFORE
    source, target = rev.snapshot().blocks[:2]
    apply(rev,
          {"type": "replaceInBlock", "blockId": source.id, "find": "Buyer", "replace": "Purchaser"},  # before it
          {"type": "replaceInBlock", "blockId": source.id, "find": "daily", "replace": "weekly"})  # after it
    apply(rev, {"type": "replaceInBlock", "blockId": target.id, "find": "End.", "replace": "The end."},
          {"type": "replaceInBlock", "blockId": target.id, "find": "Payment", "replace": "Paying"})
    assert texts(rev) == ["The Purchaser shall pay. Interest accrues weekly.",
                          "Paying terms. Fees are due monthly. The end."]
    out = rev.to_bytes()
    assert accepted(out) == texts(rev)
    assert rejected(out) == ORIGINAL  # our edits and the move undone, the move back in place
    # Ann's move is still one pending move, next to our four replacements
    moves = [c for c in read_changes(DocxReviewer.from_bytes(out)) if c["type"] == "moved"]
    assert [(m["author"], m["text"]) for m in moves] == [("Ann Lawyer", FEES)]


def test_a_whole_edit_over_a_move_source_and_a_new_paragraph_after_it():
    rev = DocxReviewer.from_bytes(inline_move_doc(), author="AI")
    source = rev.snapshot().blocks[0]
    apply(rev, {"type": "replaceInBlock", "blockId": source.id, "find": source.text, "replace": "All new."})
    apply(rev, {"type": "insertAfterBlock", "blockId": source.id, "text": "A new clause."})
    assert texts(rev)[:3] == ["All new.", "A new clause.", BEFORE[1]]
    assert rejected(rev.to_bytes()) == ORIGINAL


MOVE_FILES = {  # corpus file -> moves in it (every one has a w:moveFrom whose text is w:t)
    "pandoc_track_changes_move_macword.docx": 1,
    "powertools_RA001_tracked_revisions_moves.docx": 1,
    "wild/JSv4+Docxodus/TestFiles/RP/RP015-MoveFrom-MoveTo.docx": 1,
    "wild/apache+poi/test-data/document/Tika-792.docx": 1,
    "wild/jandira-tech+jubarte-redlines/tests/corpus/broken_ones_two/sources/file_27.docx": 1,
}
MOVES_IN = {**MOVE_FILES, "wild/jandira-tech+jubarte-redlines/tests/goldens/cs/redline.redline.docx": 9}
W_T_IN_MOVE_FROM = f"{{{W_NS}}}moveFrom//{{{W_NS}}}t"


@pytest.mark.parametrize("name", list(MOVE_FILES), ids=lambda n: n.rsplit("/", 1)[-1])
def test_a_paragraph_holding_moved_away_w_t_takes_edits_in_corpus_files(name):
    data = (CORPUS / name).read_bytes()
    rev = DocxReviewer.from_bytes(data, author="AI")
    snapshot = rev.snapshot()
    sources = [b for p, b in snapshot.block_of_paragraph.items() if p.find(".//" + W_T_IN_MOVE_FROM) is not None]
    assert sources, "the file holds moved-away text written as w:t"
    apply(rev, *({"type": "insertAfterBlock", "blockId": b.id, "text": f"Inserted after move source {i}."}
                 for i, b in enumerate(sources)))
    out = rev.to_bytes()
    for i in range(len(sources)):
        assert f"Inserted after move source {i}." in accepted(out)
    assert rejected(out) == rejected(data)  # our insertions go, the original comes back


# -- read_changes --------------------------------------------------------------------------------------------


def test_read_changes_reports_a_move_as_one_moved_change_with_both_ends():
    rev = DocxReviewer.from_bytes(inline_move_doc())
    source, target = rev.snapshot().blocks[:2]
    assert read_changes(rev) == [{
        "id": "12", "type": "moved", "author": "Ann Lawyer", "text": FEES, "blockId": source.id,
        "from": {"blockId": source.id, "text": FEES}, "to": {"blockId": target.id, "text": FEES}}]
    # read_document still says both blocks have a move pending
    blocks = ok(execute_tool_call("read_document", {}, create_reviewer_bridge(rev)))["blocks"]
    assert [b["pending"] for b in blocks[:2]] == [{"moves": 1, "authors": ["Ann Lawyer"]}] * 2


def test_moves_without_range_markers_pair_by_author_date_and_text():
    # two moves by Bob at one time, written without range markers, their halves in crossed order,
    # and a move-from of Ann's that has no partner at all
    fees_away, fees_here = word_move(who=BOB, ranges=False, ids=(0, 21, 0, 22))
    tax_away, tax_here = word_move("Taxes are extra. ", who=BOB, ranges=False, ids=(0, 23, 0, 24))
    lone_away, _ = word_move("Orphan. ", ranges=False, ids=(0, 25, 0, 26))
    data = build_docx(f"<w:p>{run('One. ')}{fees_away}</w:p><w:p>{run('Two. ')}{tax_away}</w:p>"
                      f"<w:p>{run('Three. ')}{tax_here}{lone_away}</w:p><w:p>{run('Four. ')}{fees_here}</w:p>")
    rev = DocxReviewer.from_bytes(data)
    one, two, three, four = (b.id for b in rev.snapshot().blocks[:4])
    changes = read_changes(rev)
    assert [(c["type"], c["id"], c.get("from"), c.get("to")) for c in changes] == [
        ("moved", "21", {"blockId": one, "text": FEES}, {"blockId": four, "text": FEES}),
        ("moved", "23", {"blockId": two, "text": "Taxes are extra. "}, {"blockId": three, "text": "Taxes are extra. "}),
        ("deletion", "25", None, None)]
    assert changes[2]["moved"] is True  # moved-away text whose arrival is not in the document
    # accepting Bob's first move takes both of its halves and nothing else
    assert rev.accept_change(21)
    assert texts(rev)[:4] == ["One. ", "Two. ", "Three. Taxes are extra. ", "Four. Fees are due monthly. "]
    assert sorted(c.id for c in rev.get_changes()) == [23, 24, 25]


# -- accepting and rejecting ---------------------------------------------------------------------------------


@pytest.mark.parametrize("half", [12, 14], ids=["by the half that left", "by the half that arrived"])
@pytest.mark.parametrize("decision", ["accept", "reject"])
def test_deciding_either_half_decides_the_whole_move(half, decision):
    rev = DocxReviewer.from_bytes(inline_move_doc())
    assert getattr(rev, f"{decision}_change")(half)
    assert texts(rev) == (BEFORE if decision == "accept" else ORIGINAL) and rev.get_changes() == []
    assert b"moveFromRange" not in document_xml(rev) and b"moveToRange" not in document_xml(rev)


def test_resolving_one_move_leaves_the_other_move_pending():
    first_away, first_here = word_move(ids=(1, 2, 3, 4), name="moveA")
    second_away, second_here = word_move("Taxes are extra. ", who=BOB, ids=(5, 6, 7, 8), name="moveB")
    data = build_docx(f"<w:p>{run('A. ')}{first_away}{second_away}</w:p><w:p>{run('B. ')}{second_here}</w:p>"
                      f"<w:p>{run('C. ')}{first_here}</w:p>")
    rev = DocxReviewer.from_bytes(data)
    assert rev.reject_change(4)
    assert texts(rev)[:3] == ["A. Fees are due monthly. ", "B. Taxes are extra. ", "C. "]
    assert [c["id"] for c in read_changes(rev)] == ["6"]
    assert document_xml(rev).count(b'w:name="moveB"') == 2 and b'w:name="moveA"' not in document_xml(rev)


def test_a_range_marker_sharing_a_revisions_id_goes_with_its_move_only():
    # writers number range markers apart from revisions (our own redline writer does): here the
    # move-from range and Bob's deletion are both w:id 8
    away, here = word_move(ids=(8, 12, 13, 14))
    data = build_docx(f"<w:p>{run('Keep ')}<w:del w:id=\"8\" {BOB}><w:r><w:delText>old </w:delText></w:r></w:del>"
                      f"{run('words. ')}{away}</w:p><w:p>{run('There. ')}{here}</w:p>")
    rev = DocxReviewer.from_bytes(data)
    assert rev.reject_change(12)
    assert [(c.id, c.type) for c in rev.get_changes()] == [(8, "deletion")]  # Bob's deletion still pending
    assert b"moveFromRange" not in document_xml(rev) and b"moveToRange" not in document_xml(rev)
    rev = DocxReviewer.from_bytes(data)
    assert rev.accept_change(8)
    assert document_xml(rev).count(b'w:name="move1"') == 2  # the move keeps both its ranges
    assert [(c["type"], c["id"]) for c in read_changes(rev)] == [("moved", "12")]


@pytest.mark.parametrize("name", list(MOVES_IN), ids=lambda n: n.rsplit("/", 1)[-1])
def test_corpus_moves_read_as_moves_and_resolve_as_pairs(name):
    data = (CORPUS / name).read_bytes()
    changes = read_changes(DocxReviewer.from_bytes(data))
    moves = [c for c in changes if c["type"] == "moved"]
    assert len(moves) == MOVES_IN[name]
    assert not [c for c in changes if c.get("moved")]  # no half is left without its partner
    census = DocxReviewer.from_bytes(data).get_changes()
    for move in moves[:3]:  # the redline golden's nine moves are all alike
        assert move["from"]["blockId"] and move["to"]["blockId"]
        halves = [c for c in census if c.move is not None and int(move["id"]) in c.move.ids]
        assert {c.element.tag.rsplit("}", 1)[1] for c in halves} == {"moveFrom", "moveTo"}
        name = f'w:name="{halves[0].move.key}"'.encode()
        for accept in (True, False):
            rev = DocxReviewer.from_bytes(data)
            assert (rev.accept_change if accept else rev.reject_change)(int(move["id"]))
            assert not {c.id for c in halves} & {c.id for c in rev.get_changes()}  # both halves went, not one
            assert name not in document_xml(rev)  # and its range markers
            # resolving the move first and the rest after is resolving everything at once
            out = rev.to_bytes()
            assert (accepted if accept else rejected)(out) == (accepted if accept else rejected)(data)


# -- the reviewing pane --------------------------------------------------------------------------------------


def test_the_changes_pane_shows_a_move_as_one_row_with_both_places():
    rev = DocxReviewer.from_bytes(inline_move_doc())
    [row] = change_rows(rev.get_changes(), Places(rev))
    assert (row.kind, row.title, row.text, row.ids) == ("move", "Moved", FEES, [12, 14])
    assert row.detail == "From the paragraph “The Buyer shall pay. Interest accrues…” " \
                         "to the paragraph “Payment terms. End.”"
    # and the comparison's wording of it
    assert [r.title for r in difference_rows(rev.get_changes(), Places(rev))] == [
        "Moved: “Fees are due monthly.” from the paragraph “The Buyer shall pay. Interest accrues…” "
        "to the paragraph “Payment terms. End.”"]


def test_a_whole_paragraph_moved_is_placed_by_the_paragraph_before_each_end():
    rev = DocxReviewer.open(CORPUS / "pandoc_track_changes_move_macword.docx")
    [row] = change_rows(rev.get_changes(), Places(rev))
    assert (row.title, row.text) == ("Moved", "Here is the text to be moved.")
    assert row.detail == "From the paragraph after “Here is some more text.” to the paragraph after " \
                         "“Here is some text.”"
