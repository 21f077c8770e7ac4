"""One accepted view for pending paragraph-mark changes (issue 15, point 1).

A paragraph whose mark is a pending deletion (w:pPr/w:rPr/w:del) runs on into the next paragraph
once the change is accepted, as Word's No Markup shows it. The snapshot (what the model and the
lawyer read as final), edits anchored on it, accept-all and reject-all must all agree on that:
the block text is the text accept-all leaves, an edit lands where the reader sees the text, and
reject-all gives back the document as it was before any pending change, paragraph marks included.
"""

from __future__ import annotations

import pytest
from conftest import CORPUS
from docbuilder import build_docx

from folio_desktop.docx import DocxReviewer
from folio_desktop.docx.model.textkit import index_to_utf16, text_hash

DATE = 'w:date="2024-01-01T00:00:00Z"'


def mark(kind: str, rid: int, author: str) -> str:
    return f'<w:pPr><w:rPr><w:{kind} w:id="{rid}" w:author="{author}" {DATE}/></w:rPr></w:pPr>'


def para(pid: str, text: str, ppr: str = "", wrap: tuple[str, int, str] | None = None) -> str:
    run = f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>' if text else ""
    if wrap is not None and text:
        kind, rid, author = wrap
        inner = run.replace("w:t ", "w:delText ").replace("</w:t>", "</w:delText>") if kind == "del" else run
        run = f'<w:{kind} w:id="{rid}" w:author="{author}" {DATE}>{inner}</w:{kind}>'
    return f'<w:p w14:paraId="{pid}" w14:textId="{pid}">{ppr}{run}</w:p>'


# Bob deleted the break after "Alpha " (one author)
ONE_AUTHOR = (para("10000001", "Alpha ", mark("del", 1, "Bob"))
              + para("10000002", "beta.")
              + para("10000003", "Gamma."))
# Bob deleted the first break, Carol the second, and Carol struck "old " (two authors, a chain)
TWO_AUTHORS = (para("20000001", "One ", mark("del", 1, "Bob"))
               + para("20000002", "old ", mark("del", 2, "Carol"), wrap=("del", 3, "Carol"))
               + para("20000003", "two.")
               + para("20000004", "Three."))
# Carol inserted the paragraph "New." (its text and its mark) between "One." and "Two."
INSERTED_BY_CAROL = (para("30000001", "One.")
                     + para("30000002", "New.", mark("ins", 1, "Carol"), wrap=("ins", 2, "Carol"))
                     + para("30000003", "Two."))


def reviewer(body: str) -> DocxReviewer:
    return DocxReviewer.from_bytes(build_docx(body), author="AI")


def content(rev: DocxReviewer) -> list[str]:
    return [b.text for b in rev.snapshot().blocks if b.is_content]


def accepted(rev: DocxReviewer) -> list[str]:
    copy = DocxReviewer.from_bytes(rev.to_bytes())
    copy.accept_all()
    return content(copy)


def rejected(rev: DocxReviewer) -> list[str]:
    copy = DocxReviewer.from_bytes(rev.to_bytes())
    copy.reject_all()
    return [b.text for b in copy.snapshot().blocks]


def apply(rev: DocxReviewer, *ops: dict) -> dict:
    ops = [{"id": f"op{i}", **op} for i, op in enumerate(ops)]
    result = rev.apply_document_operations({"version": 1, "mode": "tracked-changes", "operations": ops})
    assert result["skipped"] == [], result["skipped"]
    return result


def text_range(block, start: int, end: int) -> dict:
    a, b = index_to_utf16(block.text, start), index_to_utf16(block.text, end)
    return {"type": "textRange", "story": "main", "blockId": block.id, "startOffset": a, "endOffset": b,
            "selectedTextHash": text_hash(block.text[start:end])}


def joined_block(rev: DocxReviewer, start: str):
    return next(b for b in rev.snapshot().blocks if b.text.startswith(start))


# -- the snapshot reads what accept-all leaves --------------------------------------------------

@pytest.mark.parametrize("body,final", [
    (ONE_AUTHOR, ["Alpha beta.", "Gamma."]),
    (TWO_AUTHORS, ["One two.", "Three."]),
], ids=["one-author", "two-authors"])
def test_snapshot_text_is_the_text_accept_all_leaves(body, final):
    rev = reviewer(body)
    assert content(rev) == final
    assert accepted(rev) == final


def test_joined_block_takes_the_surviving_paragraph_id_and_shows_its_redline():
    rev = reviewer(TWO_AUTHORS)
    block = joined_block(rev, "One")
    assert block.id == "20000003"  # the paragraph whose mark survives accept-all
    line = next(x for x in rev.get_content_as_text(annotated=True).splitlines() if x.startswith("[20000003]"))
    assert line == '[20000003] One <del author="Carol">old </del>two.'
    assert "[20000001]" not in rev.get_content_as_text(annotated=True)


def test_corpus_file_snapshot_equals_accept_all():
    path = next(CORPUS.rglob("powertools_RP051*.docx"))
    rev = DocxReviewer.open(path)
    before = content(rev)
    rev.accept_all()
    assert before == content(rev)


# -- edits anchored on a joined block land where the lawyer sees them -------------------------

def test_replace_range_across_the_join_lands_in_both_paragraphs():
    rev = reviewer(ONE_AUTHOR)
    block = joined_block(rev, "Alpha")
    apply(rev, {"type": "replaceRange", "range": text_range(block, 0, 10), "replace": "Alpha and beta"})
    assert content(rev) == ["Alpha and beta.", "Gamma."]
    assert accepted(rev) == ["Alpha and beta.", "Gamma."]
    assert rejected(rev) == ["Alpha ", "beta.", "Gamma."]


@pytest.mark.parametrize("find,replace,final", [
    ("Alpha", "First", "First beta."),  # text of the paragraph whose mark is deleted
    ("beta", "second", "Alpha second."),  # text of the surviving paragraph
])
def test_replace_in_block_finds_text_of_either_paragraph(find, replace, final):
    rev = reviewer(ONE_AUTHOR)
    block = joined_block(rev, "Alpha")
    apply(rev, {"type": "replaceInBlock", "blockId": block.id, "find": find, "replace": replace})
    assert content(rev) == [final, "Gamma."]
    assert accepted(rev) == [final, "Gamma."]


@pytest.mark.parametrize("where,final", [
    ("insertAfterBlock", ["Alpha beta.", "New text.", "Gamma."]),
    ("insertBeforeBlock", ["New text.", "Alpha beta.", "Gamma."]),
])
def test_insert_beside_a_joined_block_stays_a_paragraph_of_its_own(where, final):
    rev = reviewer(ONE_AUTHOR)
    block = joined_block(rev, "Alpha")
    apply(rev, {"type": where, "blockId": block.id, "text": "New text."})
    assert content(rev) == final
    assert accepted(rev) == final
    assert rejected(rev) == ["Alpha ", "beta.", "Gamma."]


def test_delete_a_joined_block_deletes_all_it_reads():
    rev = reviewer(TWO_AUTHORS)
    block = joined_block(rev, "One")
    apply(rev, {"type": "deleteBlock", "blockId": block.id})
    assert content(rev) == ["Three."]
    assert accepted(rev) == ["Three."]
    assert rejected(rev) == rejected(reviewer(TWO_AUTHORS))


def test_split_at_the_join_gives_the_two_paragraphs_accept_all_keeps():
    rev = reviewer(ONE_AUTHOR)
    block = joined_block(rev, "Alpha")
    apply(rev, {"type": "splitBlock", "blockId": block.id, "offset": 6})
    assert accepted(rev) == ["Alpha ", "beta.", "Gamma."]


# -- reject-all restores the original, every author's paragraph marks included ---------------

def test_delete_block_keeps_another_authors_inserted_mark():
    original = rejected(reviewer(INSERTED_BY_CAROL))
    assert original == ["One.", "Two."]
    rev = reviewer(INSERTED_BY_CAROL)
    new = next(b for b in rev.snapshot().blocks if b.text == "New.")
    apply(rev, {"type": "deleteBlock", "blockId": new.id})
    assert content(rev) == ["One.", "Two."]
    assert accepted(rev) == ["One.", "Two."]
    assert rejected(rev) == original
    marks = [c for c in rev.get_changes() if c.author == "Carol"]
    assert marks, "Carol's insertion is still pending"


def test_merge_keeps_another_authors_inserted_mark():
    rev = reviewer(INSERTED_BY_CAROL)
    new = next(b for b in rev.snapshot().blocks if b.text == "New.")
    apply(rev, {"type": "mergeBlockWithNext", "blockId": new.id})
    assert content(rev) == ["One.", "New.Two."]
    assert accepted(rev) == ["One.", "New.Two."]
    assert rejected(rev) == ["One.", "Two."]


@pytest.mark.parametrize("body", [ONE_AUTHOR, TWO_AUTHORS, INSERTED_BY_CAROL],
                         ids=["one-author", "two-authors", "inserted-by-another"])
def test_reject_all_after_edits_restores_the_original_text(body):
    original = rejected(reviewer(body))
    rev = reviewer(body)
    blocks = [b for b in rev.snapshot().blocks if b.is_content]
    first = blocks[0]
    apply(rev,
          {"type": "replaceRange", "range": text_range(first, 1, len(first.text) - 1), "replace": "edited"},
          {"type": "insertAfterBlock", "blockId": first.id, "text": "Added."},
          *({"type": "deleteBlock", "blockId": b.id} for b in blocks[1:]))
    assert rejected(rev) == original


def test_changes_inside_a_joined_paragraph_belong_to_the_block_that_reads_them():
    rev = reviewer(TWO_AUTHORS)
    by_id = {c.id: c.block_id for c in rev.get_changes()}
    assert by_id == {1: "20000003", 2: "20000003", 3: "20000003"}


def test_page_offsets_of_a_joined_block_run_on_over_its_paragraphs(qapp):
    from folio_desktop.layout import layout_document

    rev = reviewer(ONE_AUTHOR)
    block = joined_block(rev, "Alpha")
    lay = layout_document(rev.document)
    assert [frag.accepted_range for _n, frag in lay.fragments_of(block.id)] == [(0, 6), (6, 11)]
    frag = lay.fragments_of(block.id)[1][1]
    point = frag.rect.center()
    hit = lay.hit_test(1, point)
    assert hit is not None and hit[0] == block.id and 6 <= hit[1] <= 11  # in "beta.", not in "Alpha "


def test_hidden_text_in_a_joined_paragraph_is_guarded_like_the_block_own():
    body = (para("40000001", "Visible ", mark("del", 1, "Bob"))
            .replace("</w:p>", '<w:r><w:rPr><w:vanish/></w:rPr><w:t>secret</w:t></w:r></w:p>')
            + para("40000002", "end."))
    rev = reviewer(body)
    block = joined_block(rev, "Visible")
    assert block.text == "Visible end."
    result = rev.apply_document_operations({"version": 1, "mode": "tracked-changes", "operations": [
        {"id": "op0", "type": "deleteBlock", "blockId": block.id}]})
    assert [s["reason"] for s in result["skipped"]] == ["hiddenText"]


def test_direct_fresh_replace_of_a_joined_block_replaces_all_it_reads():
    rev = reviewer(ONE_AUTHOR)
    block = joined_block(rev, "Alpha")
    result = rev.apply_document_operations({"version": 1, "mode": "direct", "operations": [
        {"id": "op0", "type": "replaceBlock", "blockId": block.id, "text": "Fresh.", "preserveFormatting": False}]})
    assert result["skipped"] == [], result["skipped"]
    assert content(rev) == ["Fresh.", "Gamma."]
    assert accepted(rev) == ["Fresh.", "Gamma."]


# -- a deleted mark before a table whose rows are all pending deletions ---------------------------------


def deleted_row(rid: int, text: str) -> str:
    return (f'<w:tr><w:trPr><w:del w:id="{rid}" w:author="Bob" {DATE}/></w:trPr><w:tc><w:tcPr>'
            f'<w:tcW w:w="4000" w:type="dxa"/></w:tcPr>'
            f'{para(f"5000000{rid}", text, mark("del", rid + 10, "Bob"), wrap=("del", rid + 20, "Bob"))}</w:tc></w:tr>')


def table_of(*rows: str) -> str:
    return (f'<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid><w:gridCol w:w="4000"/>'
            f'</w:tblGrid>{"".join(rows)}</w:tbl>')


# Bob deleted from after "The buyer pays" through a whole table to " the price."
ACROSS_A_TABLE = (para("40000001", "The buyer pays", mark("del", 1, "Bob"))
                  + table_of(deleted_row(2, "Schedule A"), deleted_row(3, "Schedule B"))
                  + para("40000002", " the price.") + para("40000003", "End."))


def test_a_deleted_mark_joins_across_a_table_that_is_wholly_deleted():
    rev = reviewer(ACROSS_A_TABLE)
    assert content(rev) == ["The buyer pays the price.", "End."] == accepted(rev)
    assert rejected(rev) == ["The buyer pays", "Schedule A", "Schedule B", " the price.", "End."]


def test_an_edit_across_the_join_over_a_deleted_table_lands_where_it_reads():
    rev = reviewer(ACROSS_A_TABLE)
    block = next(b for b in rev.snapshot().blocks if b.is_content)
    start = block.text.index("pays the")
    apply(rev, {"type": "replaceRange", "range": text_range(block, start, start + len("pays the")),
                "replace": "owes the"},
          {"type": "insertAfterBlock", "blockId": block.id, "text": "New clause."})
    assert content(rev) == ["The buyer owes the price.", "New clause.", "End."] == accepted(rev)
    assert rejected(rev) == ["The buyer pays", "Schedule A", "Schedule B", " the price.", "End."]


def test_a_table_with_a_row_still_standing_is_not_joined_across():
    standing = table_of(deleted_row(2, "Schedule A"),
                        '<w:tr><w:tc><w:tcPr><w:tcW w:w="4000" w:type="dxa"/></w:tcPr>'
                        + para("60000001", "Schedule C") + "</w:tc></w:tr>")
    rev = reviewer(para("40000001", "The buyer pays", mark("del", 1, "Bob")) + standing
                   + para("40000002", " the price."))
    assert content(rev) == ["The buyer pays", "Schedule C", " the price."] == accepted(rev)


# -- list numbers in the accepted view -------------------------------------------------------------------

NUMBERED = ('<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/>'
            '<w:lvlText w:val="%1."/></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>')
NUM = '<w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr>'


def numbered(pid: str, text: str, rid: int | None = None) -> str:
    """A list item; with rid, wholly deleted by Bob (its text and its mark)."""
    if rid is None:
        return para(pid, text, f"<w:pPr>{NUM}</w:pPr>")
    ppr = f'<w:pPr>{NUM}<w:rPr><w:del w:id="{rid}" w:author="Bob" {DATE}/></w:rPr></w:pPr>'
    return para(pid, text, ppr, wrap=("del", rid + 100, "Bob"))


def labels(rev: DocxReviewer) -> list[tuple[str, str]]:
    return [(b.display_label, b.text) for b in rev.snapshot().blocks if b.is_content]


def test_a_wholly_deleted_list_item_takes_no_number_in_the_accepted_view():
    # podily-bps in the corpus: "7.6.1" read where accept-all numbers the clause "7.5.3"
    body = (numbered("70000001", "One.") + numbered("70000002", "Two.") + numbered("70000003", "Struck.", 1)
            + numbered("70000004", "Four.") + numbered("70000005", "Five."))
    rev = DocxReviewer.from_bytes(build_docx(body, numbering=NUMBERED))
    assert labels(rev) == [("1.", "One."), ("2.", "Two."), ("3.", "Four."), ("4.", "Five.")]
    # the struck item is cited by the number it had (a change row says "clause 3 deleted")
    struck = [b for b in rev.snapshot().blocks if not b.is_content]
    assert [b.display_label for b in struck] == ["3."]
    copy = DocxReviewer.from_bytes(rev.to_bytes())
    copy.accept_all()
    assert labels(copy) == labels(rev)
    copy = DocxReviewer.from_bytes(rev.to_bytes())
    copy.reject_all()
    assert [label for label, _ in labels(copy)] == ["1.", "2.", "3.", "4.", "5."]


def test_a_run_of_struck_items_is_cited_by_the_numbers_they_had():
    body = (numbered("71000001", "One.") + numbered("71000002", "Struck.", 1) + numbered("71000003", "Gone.", 2)
            + numbered("71000004", "Four."))
    rev = DocxReviewer.from_bytes(build_docx(body, numbering=NUMBERED))
    assert labels(rev) == [("1.", "One."), ("2.", "Four.")]
    assert [b.display_label for b in rev.snapshot().blocks if not b.is_content] == ["2.", "3."]


def test_a_deleted_mark_joins_across_a_wholly_deleted_one_row_table():
    rev = reviewer(para("40000001", "The buyer pays", mark("del", 1, "Bob")) + table_of(deleted_row(2, "Schedule A"))
                   + para("40000002", " the price.") + para("40000003", "End."))
    assert content(rev) == ["The buyer pays the price.", "End."] == accepted(rev)
    assert rejected(rev) == ["The buyer pays", "Schedule A", " the price.", "End."]


def test_a_deleted_row_holding_a_standing_nested_table_still_deletes_its_table():
    # the nested table's rows carry no deletion of their own: they go with the outer row that holds them
    nested = table_of('<w:tr><w:tc><w:tcPr><w:tcW w:w="4000" w:type="dxa"/></w:tcPr>'
                      + para("70000001", "Inner") + "</w:tc></w:tr>")
    outer_row = (f'<w:tr><w:trPr><w:del w:id="2" w:author="Bob" {DATE}/></w:trPr><w:tc><w:tcPr>'
                 f'<w:tcW w:w="4000" w:type="dxa"/></w:tcPr>{nested}<w:p/></w:tc></w:tr>')
    rev = reviewer(para("40000001", "The buyer pays", mark("del", 1, "Bob")) + table_of(outer_row)
                   + para("40000002", " the price."))
    assert content(rev)[-1] == "The buyer pays the price."  # the row's own text is not struck: it still reads
    assert accepted(rev) == ["The buyer pays the price."]


# -- what stands between a deleted mark and the paragraph it joins (issue 32's sampled survivors) ----------

def test_a_deleted_mark_joins_past_bookmarks_and_an_xml_comment_between_the_paragraphs():
    between = '<w:bookmarkStart w:id="5" w:name="Price"/><w:bookmarkEnd w:id="5"/><!-- a note -->'
    rev = reviewer(para("40000001", "Alpha ", mark("del", 1, "Bob")) + between
                   + para("40000002", "beta.") + para("40000003", "Gamma."))
    assert content(rev) == ["Alpha beta.", "Gamma."] == accepted(rev)
    assert rejected(rev) == ["Alpha ", "beta.", "Gamma."]


def test_deleted_rows_inside_a_row_content_control_still_make_a_wholly_deleted_table():
    rows = deleted_row(2, "Schedule A") + deleted_row(3, "Schedule B")
    control = f'<w:sdt><w:sdtPr><w:id w:val="9"/></w:sdtPr><w:sdtContent>{rows}</w:sdtContent></w:sdt>'
    rev = reviewer(para("40000001", "The buyer pays", mark("del", 1, "Bob")) + table_of(control)
                   + para("40000002", " the price.") + para("40000003", "End."))
    assert content(rev) == ["The buyer pays the price.", "End."] == accepted(rev)


def test_a_row_standing_after_a_deleted_row_holding_a_nested_table_keeps_the_table():
    # the nested table's rows come before the outer table's second row in document order
    nested = table_of('<w:tr><w:tc><w:tcPr><w:tcW w:w="4000" w:type="dxa"/></w:tcPr>'
                      + para("70000001", "Inner") + "</w:tc></w:tr>")
    deleted = (f'<w:tr><w:trPr><w:del w:id="2" w:author="Bob" {DATE}/></w:trPr><w:tc><w:tcPr>'
               f'<w:tcW w:w="4000" w:type="dxa"/></w:tcPr>{nested}<w:p/></w:tc></w:tr>')
    standing = ('<w:tr><w:tc><w:tcPr><w:tcW w:w="4000" w:type="dxa"/></w:tcPr>'
                + para("60000001", "Schedule C") + "</w:tc></w:tr>")
    rev = reviewer(para("40000001", "The buyer pays", mark("del", 1, "Bob")) + table_of(deleted, standing)
                   + para("40000002", " the price."))
    assert content(rev)[0] == "The buyer pays"
    assert accepted(rev) == ["The buyer pays", "Schedule C", " the price."]


def test_a_table_without_rows_is_not_a_deleted_table_to_join_across():
    rev = reviewer(para("40000001", "The buyer pays", mark("del", 1, "Bob")) + table_of()
                   + para("40000002", " the price."))
    assert content(rev) == ["The buyer pays", " the price."] == accepted(rev)
