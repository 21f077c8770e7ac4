"""The batch parser (spec §3.1-3.4), result envelopes and receipts (§3.8-3.9), undo and idempotent
operation ids (§3.10)."""

import copy

import pytest
from conftest import CORPUS
from operation_samples import RNG, VALID

from folio_desktop.docx import DocxReviewer
from folio_desktop.docx.editing.contract import (
    KEYS_BY_TYPE,
    MODES_BY_TYPE,
    OPERATION_TYPES,
    InvalidDocumentOperationBatchError,
    UnsupportedDocumentOperationVersionError,
    capabilities,
    parse_batch,
)
from folio_desktop.docx.editing.operations import OperationIdConflictError
from folio_desktop.docx.model.textkit import text_hash

PILOT = CORPUS / "contract_commonpaper_pilot_agreement.docx"
def batch(*operations, **extra):
    return {"version": 1, "operations": list(operations), **extra}


def test_twenty_one_types_with_keys_and_modes():
    assert len(OPERATION_TYPES) == 21 and set(VALID) == set(OPERATION_TYPES)
    assert set(KEYS_BY_TYPE) == set(MODES_BY_TYPE) == set(OPERATION_TYPES)
    caps = capabilities()
    assert caps["operationTypes"] == list(OPERATION_TYPES)
    assert caps["batchModes"] == ["best-effort", "atomic"] and caps["preconditions"] == ["blockTextHash"]
    assert caps["modesByOperationType"]["insertSignatureTable"] == ["direct", "suggested"]


@pytest.mark.parametrize("op_type", OPERATION_TYPES)
def test_every_type_parses(op_type):
    parsed = parse_batch(batch({"type": op_type, **VALID[op_type]}))
    assert parsed["operations"][0]["type"] == op_type
    assert parse_batch(parsed) is parsed  # parsed batches are not parsed again


@pytest.mark.parametrize("mutation,path,reason", [
    (lambda b: b.update(extra=1), "$.extra", "unexpected property"),
    (lambda b: b.update(operations={}), "$.operations", "expected an array"),
    (lambda b: b["operations"][0].update(type="explode"), "$.operations[0].type", 'unsupported operation type "explode"'),
    (lambda b: b["operations"][0].update(type="__proto__"), "$.operations[0].type", 'unsupported operation type "__proto__"'),
    (lambda b: b["operations"][0].update(bogus=True), "$.operations[0].bogus", "unexpected property"),
    (lambda b: b["operations"][0].update(find=3), "$.operations[0].find", "expected a string"),
    (lambda b: b["operations"][0].pop("replace"), "$.operations[0].replace", "expected a string"),
    (lambda b: b["operations"][0].update(severity="urgent"), "$.operations[0].severity",
     'expected "low", "medium", or "high" when provided'),
    (lambda b: b["operations"][0].update(precondition={"blockTextHash": "nothash"}),
     "$.operations[0].precondition.blockTextHash", "expected a normalized block text hash"),
    (lambda b: b["operations"].append(dict(b["operations"][0], id="x")) or b["operations"][0].update(id="x"),
     "$.operations[1].id", "expected a unique operation id"),
])
def test_parser_errors_name_path_and_reason(mutation, path, reason):
    b = batch({"type": "replaceInBlock", **VALID["replaceInBlock"]})
    mutation(b)
    with pytest.raises(InvalidDocumentOperationBatchError) as info:
        parse_batch(b)
    assert (info.value.path, info.value.reason) == (path, reason)
    assert str(info.value) == f"Invalid document operation batch at {path}: {reason}."


@pytest.mark.parametrize("op,path,reason", [
    ({"type": "replaceRange", "range": dict(RNG, endOffset=0), "replace": "x"}, "$.operations[0].range.endOffset",
     "expected a value greater than startOffset"),
    ({"type": "replaceRange", "range": dict(RNG, startOffset=-1), "replace": "x"}, "$.operations[0].range.startOffset",
     "expected a non-negative safe integer"),
    ({"type": "replaceRange", "range": dict(RNG, selectedTextHash="H1"), "replace": "x"},
     "$.operations[0].range.selectedTextHash", "expected a normalized text hash"),
    ({"type": "insertTable", "blockId": "B", "rows": [["a"], ["b", "c"]]}, "$.operations[0].rows",
     "expected every row to hold the same number of cells"),
    ({"type": "mergeTableCells", "blockId": "B", "rowCount": 2, "endBlockId": "C"}, "$.operations[0]",
     "expected exactly one of endBlockId or rowCount"),
    ({"type": "mergeTableCells", "blockId": "B", "rowCount": 1}, "$.operations[0].rowCount",
     "expected an integer greater than or equal to 2"),
    ({"type": "formatRange", "range": RNG, "formatting": {}}, "$.operations[0].formatting",
     "expected at least one formatting property"),
    ({"type": "formatRange", "range": RNG, "formatting": {"color": "red"}}, "$.operations[0].formatting.color",
     "expected a six-digit RGB color or null"),
    ({"type": "formatRange", "range": RNG, "formatting": {"fontSizePt": 10.3}}, "$.operations[0].formatting.fontSizePt",
     "expected a positive half-point value or null"),
    ({"type": "formatRange", "range": RNG, "formatting": {"fontFamily": ""}}, "$.operations[0].formatting.fontFamily",
     "expected a non-empty string or null when provided"),
    ({"type": "setBlockParagraphProperties", "blockId": "B", "properties": {}}, "$.operations[0].properties",
     "expected at least one property to set"),
    ({"type": "insertTableRow", "blockId": "B", "position": "middle"}, "$.operations[0].position",
     'expected "after" or "before" when provided'),
    ({"type": "insertAfterBlock", "blockId": "B", "text": "x", "pageBreakBefore": "yes"},
     "$.operations[0].pageBreakBefore", "expected a boolean when provided"),
    ({"type": "insertAfterBlock", "blockId": "B", "text": "x", "styleId": ""}, "$.operations[0].styleId",
     "expected a non-empty string or null when provided"),
    ({"type": "deleteBlock", "blockId": "B", "id": 7}, "$.operations[0].id", "expected a string when provided"),
])
def test_semantic_rules(op, path, reason):
    with pytest.raises(InvalidDocumentOperationBatchError) as info:
        parse_batch(batch(op))
    assert (info.value.path, info.value.reason) == (path, reason)


def test_version_and_top_level_shape():
    with pytest.raises(UnsupportedDocumentOperationVersionError, match="Unsupported document operation contract version."):
        parse_batch({"version": 2, "operations": []})
    with pytest.raises(InvalidDocumentOperationBatchError):
        parse_batch("not a batch")
    parsed = parse_batch({"version": 1, "operations": [], "atomic": True, "dryRun": False, "mode": "direct",
                          "precondition": {"documentVersion": "v1"}})
    assert parsed["mode"] == "direct"


def _doc():
    rev = DocxReviewer.open(PILOT)
    b = next(b for b in rev.snapshot().blocks if b.text.startswith("The Product available under this Order Form"))
    return rev, b


def test_envelope_receipts_and_undo():
    rev, b = _doc()
    original = rev.to_bytes()
    start = b.text.index("Product")
    rng = {"type": "textRange", "story": "main", "blockId": b.id, "startOffset": start, "endOffset": start + 7,
           "selectedTextHash": text_hash("Product")}
    res = rev.apply_document_operations(batch(
        {"id": "a", "type": "insertAfterBlock", "blockId": b.id, "text": "Added."},
        {"id": "b", "type": "commentOnRange", "range": rng, "comment": {"text": "define Product"}},
        {"id": "c", "type": "replaceInBlock", "blockId": b.id, "find": "Order Form", "replace": "order"},
        {"id": "d", "type": "deleteBlock", "blockId": "7FFFFFF0"},
    ))
    assert res["status"] == "committed" and res["version"] == 1
    assert [a["id"] for a in res["applied"]] == ["a", "b", "c"]
    applied = {a["id"]: a for a in res["applied"]}
    assert isinstance(applied["b"]["commentId"], int)
    assert len(applied["c"]["revisionIds"]) == 2 and applied["c"]["revisionId"] == applied["c"]["revisionIds"][0]
    assert res["nextRevisionId"] > max(applied["c"]["revisionIds"])
    # receipts in input order, only for applied operations
    assert [r["operationId"] for r in res["receipts"]] == ["a", "b", "c"]
    assert res["receipts"][0]["affected"] == [{"type": "insertion", "story": "main", "anchorBlockId": b.id,
                                               "position": "after", "content": "block"}]
    assert res["receipts"][1]["affected"] == [{"type": "textRange", "range": rng, "effect": "commented"},
                                              {"type": "comment", "commentId": applied["b"]["commentId"]}]
    assert res["receipts"][2]["affected"] == [{"type": "block", "story": "main", "blockId": b.id, "effect": "updated"}]
    assert res["skipped"] == [{"id": "d", "reason": "missingBlock", "message": 'block "7FFFFFF0" was not found'}]
    # undo: only the latest batch, only while nothing else changed
    handle = res["undoHandle"]
    assert handle["type"] == "documentOperationUndo" and handle["id"].startswith("headless-")
    assert rev.undo_document_operations({"type": "documentOperationUndo", "id": "headless-99"})["reason"] == "unknownHandle"
    assert rev.undo_document_operations(handle) == {"status": "undone", "undoHandle": handle}
    assert rev.to_bytes() == original
    assert rev.get_comments() == [] and rev.get_changes() == []
    assert rev.undo_document_operations(handle)["reason"] == "unknownHandle"


def test_undo_refuses_older_batches_and_changed_documents():
    rev, b = _doc()
    first = rev.apply_document_operations(batch({"type": "replaceInBlock", "blockId": b.id, "find": "Product",
                                                 "replace": "Service"}))
    second = rev.apply_document_operations(batch({"type": "insertAfterBlock", "blockId": b.id, "text": "More."}))
    assert rev.undo_document_operations(first["undoHandle"])["reason"] == "notLatest"
    rev.document.invalidate()  # any outside change (an accept, a comment) moves the version on
    assert rev.undo_document_operations(second["undoHandle"])["reason"] == "documentChanged"


def test_dry_run_changes_nothing_and_previews_receipts():
    rev, b = _doc()
    original = rev.to_bytes()
    version = rev.document.version
    res = rev.apply_document_operations(batch({"id": "x", "type": "replaceInBlock", "blockId": b.id, "find": "Product",
                                               "replace": "Service"}, dryRun=True))
    assert res["status"] == "previewed" and res["applied"] == [{"id": "x"}] and res["undoHandle"] is None
    assert [r["operationId"] for r in res["receipts"]] == ["x"]
    assert rev.to_bytes() == original and rev.document.version == version
    res = rev.apply_document_operations(batch(
        {"type": "replaceInBlock", "blockId": b.id, "find": "Product", "replace": "Service"},
        {"type": "replaceInBlock", "blockId": b.id, "find": "Nope", "replace": "x"}, dryRun=True, atomic=True))
    assert res["status"] == "previewed" and res["applied"] == []
    assert rev.to_bytes() == original


def test_idempotent_operation_ids():
    rev, b = _doc()
    op = {"id": "op-7", "type": "replaceInBlock", "blockId": b.id, "find": "Product", "replace": "Service"}
    first = rev.apply_document_operations(batch(op))
    after_first = rev.to_bytes()
    # the same id and content again: nothing changes, the original receipt comes back
    again = rev.apply_document_operations(batch(dict(op, precondition={"blockTextHash": "h1"})))
    assert again["replayed"] == [{"id": "op-7"}] and again["applied"] == []
    assert again["receipts"] == first["receipts"]
    assert rev.to_bytes() == after_first
    # replay beside a new operation keeps the receipts in input order
    new = {"id": "op-8", "type": "insertAfterBlock", "blockId": b.id, "text": "New clause."}
    mixed = rev.apply_document_operations(batch(new, op))
    assert [r["operationId"] for r in mixed["receipts"]] == ["op-8", "op-7"]
    assert mixed["applied"] == [{"id": "op-8", "revisionId": mixed["applied"][0]["revisionId"],
                                 "revisionIds": mixed["applied"][0]["revisionIds"]}]
    # the same id with other content fails the whole call and changes nothing
    before = rev.to_bytes()
    with pytest.raises(OperationIdConflictError, match='"op-7"'):
        rev.apply_document_operations(batch(dict(op, replace="Offering")))
    assert rev.to_bytes() == before
    # skipped operations are not remembered: resending retries them
    skipped = {"id": "op-9", "type": "replaceInBlock", "blockId": b.id, "find": "Zebra", "replace": "x"}
    assert rev.apply_document_operations(batch(skipped))["skipped"][0]["reason"] == "missingFind"
    retry = dict(skipped, find="Order Form")
    assert rev.apply_document_operations(batch(retry))["applied"][0]["id"] == "op-9"


def test_parsed_input_is_not_mutated():
    rev, b = _doc()
    original = batch({"type": "formatRange", "formatting": {"color": "#ff0000"}, "range": {
        "type": "textRange", "story": "main", "blockId": b.id, "startOffset": 4, "endOffset": 11,
        "selectedTextHash": text_hash("Product")}})
    frozen = copy.deepcopy(original)
    res = rev.apply_document_operations(original)
    assert res["applied"] and original == frozen
    assert rev.snapshot().block(b.id).preview_runs[1]["color"] == "FF0000"
