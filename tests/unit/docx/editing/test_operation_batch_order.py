"""Where several operations of one batch on one block land, and what a batch says when it touches
one table or one row twice: asserted on the open document's blocks and on the skip messages the
model reads."""

from __future__ import annotations

from conftest import CORPUS

from folio_desktop.docx import DocxReviewer

PILOT = CORPUS / "contract_commonpaper_pilot_agreement.docx"
TABLES = CORPUS / "docling_word_tables_merged_cells.docx"


def apply(rev, *operations):
    return rev.apply_document_operations({"version": 1, "operations": list(operations)})


def around(rev, block_id, before=1, after=3):
    """The texts of the blocks around a block, in document order (a table's cells by their text)."""
    blocks = rev.snapshot().blocks
    at = next(i for i, b in enumerate(blocks) if b.id == block_id)
    return [b.text for b in blocks[at - before:at + after]]


def pilot_block():
    rev = DocxReviewer.open(PILOT)
    long = [b for b in rev.snapshot().content_blocks if b.table is None and len(b.text) > 80]
    return rev, long[3]


def test_a_paragraph_and_a_table_inserted_before_one_block_land_in_the_batch_order():
    rev, x = pilot_block()
    res = apply(rev, {"type": "insertBeforeBlock", "blockId": x.id, "text": "FIRST"},
                {"type": "insertTable", "blockId": x.id, "position": "before", "rows": [["SECOND"]]})
    assert res["status"] == "committed" and len(res["applied"]) == 2
    assert around(rev, x.id, before=2, after=1) == ["FIRST", "SECOND", x.text]


def test_a_table_inserted_after_a_block_split_in_the_same_batch_follows_both_halves():
    rev, x = pilot_block()
    cut = x.text.index(" ", 20)
    res = apply(rev, {"type": "splitBlock", "blockId": x.id, "offset": cut},
                {"type": "insertTable", "blockId": x.id, "position": "after", "rows": [["AFTER"]]})
    assert res["status"] == "committed" and len(res["applied"]) == 2
    assert around(rev, x.id, before=0, after=3) == [x.text[:cut], x.text[cut:], "AFTER"]


def first_table_cells(rev):
    return [b for b in rev.snapshot().content_blocks if b.table and b.table.table_index == 0
            and b.table.cell_index == 0]


def test_a_table_operation_after_the_table_is_deleted_names_the_deleting_operation():
    rev = DocxReviewer.open(TABLES)
    cells = first_table_cells(rev)
    res = apply(rev, {"id": "drop-table", "type": "deleteTable", "blockId": cells[0].id},
                {"id": "add-row", "type": "insertTableRow", "blockId": cells[1].id, "cellTexts": ["A ROW THAT MUST NOT LAND"]})
    assert [a["id"] for a in res["applied"]] == ["drop-table"]
    assert res["skipped"] == [{"id": "add-row", "reason": "overlappingOperation",
                               "message": 'an earlier operation in this batch ("drop-table") already changes '
                                          "this table"}]
    # the table is deleted (its cells leave the accepted text) and no row was added to it
    text = rev.get_content_as_text()
    assert "A ROW THAT MUST NOT LAND" not in text and all(c.id not in text for c in cells)


def test_a_row_deleted_twice_in_one_batch_says_the_earlier_operation_deletes_it():
    rev = DocxReviewer.open(TABLES)
    row = first_table_cells(rev)[1]
    res = apply(rev, {"id": "once", "type": "deleteTableRow", "blockId": row.id},
                {"id": "twice", "type": "deleteTableRow", "blockId": row.id})
    assert [a["id"] for a in res["applied"]] == ["once"]
    assert res["skipped"] == [{"id": "twice", "reason": "noopOperation",
                               "message": "an earlier operation in this batch already deletes this row"}]


def test_two_paragraphs_inserted_after_one_block_land_in_the_batch_order():
    rev, x = pilot_block()
    res = apply(rev, {"type": "insertAfterBlock", "blockId": x.id, "text": "FIRST"},
                {"type": "insertAfterBlock", "blockId": x.id, "text": "SECOND"})
    assert res["status"] == "committed" and len(res["applied"]) == 2
    assert around(rev, x.id, before=0, after=3) == [x.text, "FIRST", "SECOND"]


def test_a_paragraph_and_a_table_inserted_after_one_block_land_in_the_batch_order():
    rev, x = pilot_block()
    res = apply(rev, {"type": "insertTable", "blockId": x.id, "position": "after", "rows": [["FIRST"]]},
                {"type": "insertAfterBlock", "blockId": x.id, "text": "SECOND"},
                {"type": "insertAfterBlock", "blockId": x.id, "text": "THIRD"})
    assert res["status"] == "committed" and len(res["applied"]) == 3
    assert around(rev, x.id, before=0, after=4) == [x.text, "FIRST", "SECOND", "THIRD"]
