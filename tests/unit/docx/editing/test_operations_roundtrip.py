"""Every operation type in every mode it supports, on real contracts (issue 3, acceptance 1):
apply, save, reopen; the census shows exactly the intended changes; accepting all gives the intended
text and rejecting all gives the original back."""

import io

import docx as python_docx
import pytest
from conftest import CORPUS
from document_state import open_state

from folio_desktop.docx import DocxReviewer
from folio_desktop.docx.editing.contract import MODES_BY_TYPE, OPERATION_TYPES, SUPPORTED_MODES
from folio_desktop.docx.editing.resolve import accept_changes, reject_changes
from folio_desktop.docx.model.textkit import text_hash

PILOT = CORPUS / "contract_commonpaper_pilot_agreement.docx"
TABLES = CORPUS / "docling_word_tables_merged_cells.docx"
ILPA = CORPUS / "contract_ilpa_model_lpa_whole_of_fund_75p.docx"


def texts(rev):
    return [b.text for b in rev.snapshot().blocks if b.kind != "diagnostic"]


def body_block(rev, min_len=60, nth=0):
    found = [b for b in rev.snapshot().content_blocks if b.table is None and len(b.text) >= min_len
             and "[^" not in b.text]
    return found[nth]


def cell_block(rev, **where):
    for b in rev.snapshot().content_blocks:
        if b.table is not None and all(getattr(b.table, k) == v for k, v in where.items()):
            return b
    raise AssertionError(where)


def word_range(b, word):
    start = b.text.index(word)
    return {"type": "textRange", "story": "main", "blockId": b.id, "startOffset": start,
            "endOffset": start + len(word), "selectedTextHash": text_hash(word)}


def _empty_vertical_pair(rev):
    """A cell whose neighbour below is empty and unmerged: a tracked merge can take both."""
    blocks = rev.snapshot().blocks
    cells = {}
    for b in blocks:
        if b.table is not None and b.table.paragraph_index == 0:
            cells[(b.table.table_index, b.table.row_index, b.table.grid_column_index)] = b
    for (t, r, c), b in cells.items():
        below = cells.get((t, r + 1, c))
        if below is not None and not below.text and b.table.column_span == 1 and below.table.column_span == 1 \
                and b.table.row_span == 1 and below.table.row_span == 1:
            return b
    raise AssertionError("no empty vertical pair")


# type -> (document, builder(rev) -> (operation, expectation)). An expectation maps the original block
# texts to the texts after accepting everything, plus the census types the operation must add.
def cases():
    def replace_in_block(rev):
        b = body_block(rev)
        word = b.text.split()[2]
        return ({"type": "replaceInBlock", "blockId": b.id, "find": word, "replace": "REPLACED"},
                lambda t: [x.replace(word, "REPLACED", 1) if x == b.text else x for x in t], {"insertion", "deletion"})

    def replace_range(rev):
        b = body_block(rev)
        word = b.text.split()[1]
        return ({"type": "replaceRange", "range": word_range(b, word), "replace": "swapped words"},
                lambda t: [x.replace(word, "swapped words", 1) if x == b.text else x for x in t],
                {"insertion", "deletion"})

    def comment_on_range(rev):
        b = body_block(rev)
        return ({"type": "commentOnRange", "range": word_range(b, b.text.split()[1]), "comment": {"text": "Why?"}},
                lambda t: t, set())

    def format_range(rev):
        b = body_block(rev)
        return ({"type": "formatRange", "range": word_range(b, b.text.split()[1]),
                 "formatting": {"bold": True, "italic": True}}, lambda t: t, {"formatting"})

    def insert_after(rev):
        b = body_block(rev)
        return ({"type": "insertAfterBlock", "blockId": b.id, "text": "A new clause.\nAnd a **second** one."},
                lambda t: _insert(t, b.text, ["A new clause.", "And a second one."], after=True),
                {"insertion", "paragraphMarkInserted"})

    def insert_before(rev):
        b = body_block(rev)
        return ({"type": "insertBeforeBlock", "blockId": b.id, "text": "Preamble clause."},
                lambda t: _insert(t, b.text, ["Preamble clause."], after=False), {"insertion", "paragraphMarkInserted"})

    def replace_block(rev):
        b = body_block(rev)
        new = b.text.replace(b.text.split()[0], "Rewritten", 1) + " Added at the end."
        return ({"type": "replaceBlock", "blockId": b.id, "text": new},
                lambda t: [new if x == b.text else x for x in t], {"insertion", "deletion"})

    def delete_block(rev):
        b = body_block(rev)
        return ({"type": "deleteBlock", "blockId": b.id},
                lambda t: [x for x in t if x != b.text], {"deletion", "paragraphMarkDeleted"})

    def split_block(rev):
        b = body_block(rev)
        k = b.text.index(" ", 20)
        return ({"type": "splitBlock", "blockId": b.id, "offset": k, "separator": " "},
                lambda t: _replace_one(t, b.text, [b.text[:k], b.text[k + 1:]]),
                {"paragraphMarkInserted", "deletion"})

    def merge_block(rev):
        b = body_block(rev)
        blocks = rev.snapshot().blocks
        nxt = blocks[rev.snapshot().anchors[b.id].index + 1]
        return ({"type": "mergeBlockWithNext", "blockId": b.id, "separator": " "},
                lambda t: _merge(t, b.text, nxt.text), {"paragraphMarkDeleted", "insertion"})

    def set_props(rev):
        b = body_block(rev)
        return ({"type": "setBlockParagraphProperties", "blockId": b.id,
                 "properties": {"alignment": "center", "spacing": {"spaceAfter": 240}}},
                lambda t: t, {"paragraphPropertiesChanged"})

    def insert_table(rev):
        b = body_block(rev)
        return ({"type": "insertTable", "blockId": b.id, "rows": [["Fee", "Amount"], ["Setup", "EUR 100"]]},
                lambda t: _insert(t, b.text, ["Fee", "Amount", "Setup", "EUR 100"], after=True),
                {"rowInserted"})

    def delete_table(rev):
        c = cell_block(rev, table_index=1, row_index=1, cell_index=1)
        gone = [b.id for b in rev.snapshot().blocks if b.table is not None and b.table.table_index == 1]
        return ({"type": "deleteTable", "blockId": c.id}, _drop_ids(rev, gone), {"rowDeleted"})

    def comment_on_block(rev):
        b = body_block(rev)
        quote = next(w for w in b.text.split() if b.text.count(w) == 1)
        return ({"type": "commentOnBlock", "blockId": b.id, "quote": quote, "comment": {"text": "Note"}},
                lambda t: t, set())

    def signature_table(rev):
        b = body_block(rev)
        return ({"type": "insertSignatureTable", "blockId": b.id,
                 "parties": [{"name": "Northwind Ltd", "signatory": "Ann Lee", "title": "CEO"}, {"name": "Harbour BV"}]},
                lambda t: _insert(t, b.text, ["Northwind Ltd", "_" * 28, "Ann Lee", "CEO", "Harbour BV", "_" * 28],
                                  after=True), set())

    def insert_row(rev):
        c = cell_block(rev, table_index=0, row_index=1, cell_index=0)
        row = [b for b in rev.snapshot().blocks if b.table and b.table.table_index == 0 and b.table.row_index == 1]
        return ({"type": "insertTableRow", "blockId": c.id, "cellTexts": ["New A", "New B"]},
                lambda t: _insert(t, row[-1].text, ["New A", "New B"] + [""] * (len(row) - 2), after=True,
                                  occurrence=_occurrence(rev, row[-1])), {"rowInserted"})  # cell runs fold into the row

    def delete_row(rev):
        c = cell_block(rev, table_index=0, row_index=1, cell_index=0)
        row = [b.id for b in rev.snapshot().blocks if b.table and b.table.table_index == 0 and b.table.row_index == 1]
        return ({"type": "deleteTableRow", "blockId": c.id}, _drop_ids(rev, row), {"rowDeleted"})

    def insert_column(rev):
        c = cell_block(rev, table_index=0, row_index=0, cell_index=0)
        return ({"type": "insertTableColumn", "blockId": c.id, "position": "before", "cellTexts": ["H"]},
                None, {"cellInserted", "insertion", "tablePropertiesChanged"})  # + the grid's new column

    def delete_column(rev):
        c = cell_block(rev, table_index=0, row_index=0, cell_index=0)
        col = [b.id for b in rev.snapshot().blocks if b.table and b.table.table_index == 0
               and b.table.grid_column_index == 0 and b.table.column_span == 1]
        return ({"type": "deleteTableColumn", "blockId": c.id}, _drop_ids(rev, col), {"cellDeleted", "deletion"})

    def merge_cells(rev):
        c = _empty_vertical_pair(rev)
        return ({"type": "mergeTableCells", "blockId": c.id, "rowCount": 2}, None, {"cellMerged"})

    def split_cell(rev):
        c = next(b for b in rev.snapshot().blocks if b.table and b.table.row_span > 1 and b.table.column_span == 1)
        return ({"type": "splitTableCell", "blockId": c.id}, lambda t: t, {"cellPropertiesChanged"})

    return {
        "replaceInBlock": (PILOT, replace_in_block), "replaceRange": (PILOT, replace_range),
        "commentOnRange": (PILOT, comment_on_range), "formatRange": (PILOT, format_range),
        "insertAfterBlock": (PILOT, insert_after), "insertBeforeBlock": (PILOT, insert_before),
        "replaceBlock": (PILOT, replace_block), "deleteBlock": (PILOT, delete_block),
        "splitBlock": (PILOT, split_block), "mergeBlockWithNext": (ILPA, merge_block),
        "setBlockParagraphProperties": (PILOT, set_props), "insertTable": (PILOT, insert_table),
        "deleteTable": (TABLES, delete_table), "commentOnBlock": (PILOT, comment_on_block),
        "insertSignatureTable": (PILOT, signature_table), "insertTableRow": (TABLES, insert_row),
        "deleteTableRow": (TABLES, delete_row), "insertTableColumn": (TABLES, insert_column),
        "deleteTableColumn": (TABLES, delete_column), "mergeTableCells": (TABLES, merge_cells),
        "splitTableCell": (TABLES, split_cell),
    }


def _occurrence(rev, block):
    same = [b for b in rev.snapshot().blocks if b.text == block.text]
    return same.index(block)


def _drop_ids(rev, ids):
    keep = [b.text for b in rev.snapshot().blocks if b.kind != "diagnostic" and b.id not in ids]
    return lambda t: keep


def _insert(t, anchor_text, new, after, occurrence=0):
    i = [k for k, x in enumerate(t) if x == anchor_text][occurrence]
    return t[:i + 1] + new + t[i + 1:] if after else t[:i] + new + t[i:]


def _replace_one(t, old, new):
    i = t.index(old)
    return t[:i] + new + t[i + 1:]


def _merge(t, first, second):
    i = t.index(first)
    assert t[i + 1] == second
    return t[:i] + [first + " " + second] + t[i + 2:]


CASES = cases()
PAIRS = [(t, m) for t in OPERATION_TYPES for m in MODES_BY_TYPE[t] if m in SUPPORTED_MODES]


def test_every_type_has_a_case():
    assert set(CASES) == set(OPERATION_TYPES)
    assert len(PAIRS) == 41


@pytest.mark.parametrize("op_type,mode", PAIRS, ids=[f"{t}-{m}" for t, m in PAIRS])
def test_operation_round_trip(op_type, mode):
    path, build = CASES[op_type]
    rev = DocxReviewer.open(path)
    original = texts(rev)
    census_before = {(c.type, c.id) for c in rev.get_changes()}
    comments_before = len(rev.all_comments())
    op, expect, census_types = build(rev)
    result = rev.apply_document_operations({"version": 1, "mode": mode, "operations": [op]})
    assert result["skipped"] == [], result["skipped"]
    assert len(result["applied"]) == 1 and result["receipts"]
    data = rev.to_bytes()
    python_docx.Document(io.BytesIO(data))  # python-docx reads it too
    saved = DocxReviewer.from_bytes(data)
    added = [c for c in saved.get_changes() if (c.type, c.id) not in census_before]
    if op_type.startswith("comment"):
        assert len(saved.all_comments()) == comments_before + 1
        new = [c for c in saved.all_comments() if c.author == "AI"][0]
        assert new.text in ("Why?", "Note") and new.anchored_text
    if mode == "direct":
        assert added == []
        if expect is not None:
            assert texts(saved) == expect(original)
        return
    assert {c.type for c in added} == census_types
    # every mark carries our author (a table grid change has no author attribute in the schema)
    assert all(c.author == "AI" for c in added if c.type != "tablePropertiesChanged")
    assert len({c.date for c in added if c.date}) <= 1  # one timestamp per batch
    # accept all of our changes -> the intended text; reject all -> the original
    ours = {c.id for c in added}
    accepted = DocxReviewer.from_bytes(data)
    accept_changes(accepted.document, ours)
    if expect is not None:
        assert texts(accepted) == expect(original)
    rejected = DocxReviewer.from_bytes(data)
    reject_changes(rejected.document, ours)
    assert texts(rejected) == original
    for doc in (accepted, rejected):
        again = DocxReviewer.from_bytes(doc.to_bytes())
        assert not [c for c in again.get_changes() if c.id in ours]


def test_tracked_column_insert_and_cell_merge_accept_shapes():
    rev = DocxReviewer.open(TABLES)
    c = cell_block(rev, table_index=0, row_index=0, cell_index=0)
    rows = max(b.table.row_index for b in rev.snapshot().blocks if b.table and b.table.table_index == 0) + 1
    rev.apply_document_operations({"version": 1, "operations": [
        {"type": "insertTableColumn", "blockId": c.id, "position": "before", "cellTexts": ["H"]}]})
    accepted = DocxReviewer.from_bytes(rev.to_bytes())
    accept_changes(accepted.document)
    first_col = [b.text for b in accepted.snapshot().blocks
                 if b.table and b.table.table_index == 0 and b.table.grid_column_index == 0]
    assert first_col[0] == "H" and len(first_col) == rows


def _far_edit(rev, op):
    """A batch far from the operation's block: the parts are dirty before it, so what undo gives back
    is compared as trees, not as the bytes the package was read from."""
    target = op.get("blockId") or op["range"]["blockId"]
    far = [b for b in rev.snapshot().content_blocks if b.table is None and b.id != target and len(b.text) > 30
           and "[^" not in b.text]
    b = far[-1]
    word = next(w for w in b.text.split() if len(w) > 3 and b.text.count(w) == 1)
    res = rev.apply_document_operations({"version": 1, "operations": [
        {"type": "replaceInBlock", "blockId": b.id, "find": word, "replace": word.upper() + "Z"}]})
    assert res["applied"]


@pytest.mark.parametrize("dirty", [False, True], ids=["clean", "edited-before"])
@pytest.mark.parametrize("op_type,mode", PAIRS, ids=[f"{t}-{m}" for t, m in PAIRS])
def test_undo_and_redo_give_back_exactly_the_document(op_type, mode, dirty):
    path, build = CASES[op_type]
    rev = DocxReviewer.open(path)
    op, _expect, _types = build(rev)
    if dirty:
        _far_edit(rev, op)
    before, saved_before = open_state(rev, version=False), rev.to_bytes()
    records = []
    rev.engine.listeners.append(lambda record, *_: records.append(record))
    result = rev.apply_document_operations({"version": 1, "mode": mode, "operations": [op]})
    assert len(result["applied"]) == 1, result["skipped"]
    after, saved_after = open_state(rev, version=False), rev.to_bytes()
    assert after != before
    version = rev.document.version

    assert rev.undo_document_operations(result["undoHandle"])["status"] == "undone"
    assert open_state(rev, version=False) == before and rev.to_bytes() == saved_before
    assert rev.document.version > version
    # the same record redoes, and undoes again
    [record] = records[:1]
    rev.engine.set_done(record, True)
    assert open_state(rev, version=False) == after and rev.to_bytes() == saved_after
    # after a whole-document restore the record finds its place again (new elements, same document)
    rev.restore(rev.checkpoint())
    rev.engine.set_done(record, False)
    assert open_state(rev, version=False) == before and rev.to_bytes() == saved_before
    rev.restore(rev.checkpoint())
    rev.engine.set_done(record, True)
    assert open_state(rev, version=False) == after


def _changed_parts(original: bytes, saved: bytes) -> set[str]:
    import zipfile

    before, after = zipfile.ZipFile(io.BytesIO(original)), zipfile.ZipFile(io.BytesIO(saved))
    return {n for n in after.namelist() if n not in before.namelist() or before.read(n) != after.read(n)}


def test_a_save_writes_only_the_parts_the_edits_changed():
    """A part no edit changed is saved byte for byte as it came (its declaration and line ends too):
    a tracked replacement writes the main part alone; a comment its parts, and the content types and
    relationships only when it creates a part."""
    original = PILOT.read_bytes()
    rev = DocxReviewer.from_bytes(original)
    block = next(b for b in rev.snapshot().blocks if "Pilot" in b.text and b.table is None)
    rev.apply_document_operations({"version": 1, "mode": "tracked-changes", "operations": [
        {"type": "replaceInBlock", "blockId": block.id, "find": "Pilot", "replace": "Trial"}]})
    assert _changed_parts(original, rev.to_bytes()) == {"word/document.xml"}
    rev.add_comment(block.id, "Is a trial what we agreed?")
    changed = _changed_parts(original, rev.to_bytes())
    assert "word/document.xml" in changed and "word/comments.xml" in changed
    assert "word/numbering.xml" not in changed and "word/styles.xml" not in changed
