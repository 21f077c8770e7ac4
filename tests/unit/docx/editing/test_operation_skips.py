"""Every skip reason of spec §3.7, produced on real documents, with its issue shape and prose.

The reviewer knows its own document version, so it checks a batch's documentVersion pin itself;
an enforced document protection makes the document not editable."""

import pytest
from conftest import CORPUS

from folio_desktop.docx import DocxReviewer
from folio_desktop.docx.editing import operations as ops_module
from folio_desktop.docx.editing.paragraph_edit import EditError
from folio_desktop.docx.editing.skips import SKIP_REASONS, prose_for
from folio_desktop.docx.model.textkit import text_hash

NVCA = CORPUS / "contract_nvca_stock_purchase_agreement_27p.docx"
ILPA = CORPUS / "contract_ilpa_model_lpa_whole_of_fund_75p.docx"
PILOT = CORPUS / "contract_commonpaper_pilot_agreement.docx"
COMMENT042 = CORPUS / "openxmlsdk_comment042_tracked_pPr_rPr_changes_notes.docx"


def open_doc(path):
    return DocxReviewer.open(path)


def block(rev, prefix):
    found = [b for b in rev.snapshot().blocks if b.text.startswith(prefix)]
    assert found, prefix
    return found[0]


def rng(b, start, end):
    from folio_desktop.docx.model.textkit import utf16_slice

    return {"type": "textRange", "story": "main", "blockId": b.id, "startOffset": start, "endOffset": end,
            "selectedTextHash": text_hash(utf16_slice(b.text, start, end))}


def run(rev, *operations, **batch):
    return rev.apply_document_operations({"version": 1, "operations": list(operations), **batch})


def only_skip(result, reason):
    assert [s["reason"] for s in result["skipped"]] == [reason], result["skipped"]
    [issue] = result["issues"]
    recovery, retryable, _ = SKIP_REASONS[reason]
    assert issue["code"] == reason and issue["recovery"] == recovery and issue["retryable"] is retryable
    assert issue["path"] == f"$.operations[{issue['operationIndex']}]"
    assert issue["operationId"] == result["skipped"][0]["id"]
    return issue


def unchanged(rev, before: bytes):
    assert rev.to_bytes() == before


def test_missing_block():
    rev = open_doc(PILOT)
    before = rev.to_bytes()
    res = run(rev, {"type": "replaceInBlock", "blockId": "7FFFFFF0", "find": "a", "replace": "b"})
    only_skip(res, "missingBlock")
    assert res["status"] == "committed" and res["undoHandle"] is None
    assert "re-read" in prose_for("missingBlock")
    unchanged(rev, before)


def test_changed_block_against_an_older_snapshot():
    rev = open_doc(PILOT)
    old = rev.snapshot()
    b = block(rev, "The Product available under this Order Form")
    assert run(rev, {"type": "replaceInBlock", "blockId": b.id, "find": "Product", "replace": "Service"})["applied"]
    res = rev.apply_document_operations(
        {"version": 1, "operations": [{"type": "replaceInBlock", "blockId": b.id, "find": "Order", "replace": "Purchase"}]},
        snapshot=old)
    only_skip(res, "changedBlock")


def test_ambiguous_and_missing_find_and_empty_find():
    rev = open_doc(PILOT)
    b = block(rev, "The Product available under this Order Form")
    only_skip(run(rev, {"type": "replaceInBlock", "blockId": b.id, "find": "o", "replace": "0"}), "ambiguousFind")
    only_skip(run(rev, {"type": "replaceInBlock", "blockId": b.id, "find": "Zebra", "replace": "x"}), "missingFind")
    only_skip(run(rev, {"type": "replaceInBlock", "blockId": b.id, "find": "", "replace": "x"}), "emptyOperation")
    assert "more than once" in prose_for("ambiguousFind")


def test_unsupported_block_and_mode():
    rev = open_doc(PILOT)
    body = block(rev, "Pilot Agreement")
    only_skip(run(rev, {"type": "insertTableRow", "blockId": body.id}), "unsupportedBlock")
    only_skip(run(rev, {"type": "insertSignatureTable", "blockId": body.id, "parties": [{"name": "A"}]}),
              "unsupportedMode")
    only_skip(run(rev, {"type": "replaceInBlock", "blockId": body.id, "find": "Pilot", "replace": "Trial"},
                  mode="suggested"), "unsupportedMode")


def test_atomic_batch_rejects_everything():
    rev = open_doc(PILOT)
    before = rev.to_bytes()
    b = block(rev, "The Product available under this Order Form")
    res = run(rev, {"type": "replaceInBlock", "blockId": b.id, "find": "Product", "replace": "Service"},
              {"type": "replaceInBlock", "blockId": b.id, "find": "Nope", "replace": "x"}, atomic=True)
    assert res["status"] == "rejected" and res["applied"] == [] and res["receipts"] == []
    assert [s["reason"] for s in res["skipped"]] == ["atomicBatchRejected", "missingFind"]
    assert res["issues"][0]["recovery"] == "inspectBatch"
    unchanged(rev, before)


def test_precondition_failed():
    rev = open_doc(PILOT)
    b = block(rev, "The Product available under this Order Form")
    res = run(rev, {"type": "replaceInBlock", "blockId": b.id, "find": "Product", "replace": "Service",
                    "precondition": {"blockTextHash": text_hash("something else")}})
    only_skip(res, "preconditionFailed")
    ok = run(rev, {"type": "replaceInBlock", "blockId": b.id, "find": "Product", "replace": "Service",
                   "precondition": {"blockTextHash": b.text_hash}})
    assert ok["applied"]


def test_stale_range():
    rev = open_doc(PILOT)
    b = block(rev, "The Product available under this Order Form")
    wrong = dict(rng(b, 4, 11), selectedTextHash=text_hash("Service"))
    only_skip(run(rev, {"type": "replaceRange", "range": wrong, "replace": "x"}), "staleRange")
    past = rng(b, 4, 11)
    past["endOffset"] = 10_000
    only_skip(run(rev, {"type": "replaceRange", "range": past, "replace": "x"}), "staleRange")


def test_noop_operations():
    rev = open_doc(PILOT)
    b = block(rev, "The Product available under this Order Form")
    only_skip(run(rev, {"type": "replaceInBlock", "blockId": b.id, "find": "Product", "replace": "Product"}),
              "noopOperation")
    only_skip(run(rev, {"type": "replaceRange", "range": rng(b, 4, 11), "replace": "Product"}), "noopOperation")
    only_skip(run(rev, {"type": "replaceBlock", "blockId": b.id, "text": b.text}), "noopOperation")


def test_pending_paragraph_and_run_property_changes():
    rev = open_doc(COMMENT042)
    changes = rev.get_changes()
    pprc = next(c for c in changes if c.type == "paragraphPropertiesChanged")
    issue = only_skip(run(rev, {"type": "setBlockParagraphProperties", "blockId": pprc.block_id,
                                "properties": {"alignment": "center"}}), "pendingParagraphPropertyChange")
    assert issue["retryable"] is False
    fmt = next(c for c in changes if c.type == "formatting" and c.story == "main" and c.text)
    b = rev.snapshot().block(fmt.block_id)
    start = b.text.index(fmt.text[:8])
    only_skip(run(rev, {"type": "formatRange", "range": rng(b, start, start + 8), "formatting": {"italic": True}}),
              "pendingRunPropertyChange")


def test_overlapping_operation_names_the_earlier_one():
    rev = open_doc(PILOT)
    b = block(rev, "The Product available under this Order Form")
    res = run(rev, {"id": "first", "type": "replaceInBlock", "blockId": b.id, "find": "Product", "replace": "Service"},
              {"id": "second", "type": "deleteBlock", "blockId": b.id})
    issue = only_skip(res, "overlappingOperation")
    assert issue["operationId"] == "second"
    assert "earlier operation in this batch" in issue["message"] and '"first"' in issue["message"]
    # disjoint edits in one paragraph are fine, and so is a comment on edited text
    rev = open_doc(PILOT)
    b = block(rev, "The Product available under this Order Form")
    res = run(rev, {"type": "replaceInBlock", "blockId": b.id, "find": "Product", "replace": "Service"},
              {"type": "replaceInBlock", "blockId": b.id, "find": "Order Form", "replace": "order"},
              {"type": "commentOnBlock", "blockId": b.id, "comment": {"text": "check"}})
    assert res["skipped"] == [] and len(res["applied"]) == 3
    assert rev.snapshot().block(b.id).text == "The Service available under this order is {product_description}."


def test_splits_character_messages():
    from docbuilder import build_docx, p

    rev = DocxReviewer.from_bytes(build_docx(p("Party 🧑 agrees.", "10000001") + p("Cafe\u0301 terms.", "10000002")))
    res = run(rev, {"type": "splitBlock", "blockId": "10000001", "offset": 7})
    issue = only_skip(res, "splitsCharacter")
    assert "inside" in prose_for("splitsCharacter") and "single character" in prose_for("splitsCharacter")
    assert issue["message"] == 'offset 7 falls inside "🧑", which spans offsets 6 to 8; use 6 or 8.'
    # a combining mark belongs to its base letter for edits, not for comments
    b = rev.snapshot().block("10000002")
    edit = {"type": "replaceRange", "range": rng(b, 4, 5), "replace": "x"}
    issue = only_skip(run(rev, edit), "splitsCharacter")
    assert "use 3 or 5" in issue["message"]
    comment = run(rev, {"type": "commentOnRange", "range": rng(b, 4, 6), "comment": {"text": "accent?"}})
    assert comment["skipped"] == []


def test_missing_style_and_numbering():
    rev = open_doc(ILPA)
    b = rev.snapshot().content_blocks[5]
    issue = only_skip(run(rev, {"type": "insertAfterBlock", "blockId": b.id, "text": "x", "styleId": "NoSuchStyle"}),
                      "missingStyle")
    assert "names no paragraph style this document defines" in issue["message"]
    assert '"NoSuchStyle"' in issue["message"] and '"Normal"' in issue["message"]
    issue = only_skip(run(rev, {"type": "setBlockParagraphProperties", "blockId": b.id,
                                "properties": {"numbering": {"kind": "reference", "numId": 999}}}), "missingNumbering")
    assert "numbering instance this document does not define" in issue["message"] and "numId 999" in issue["message"]
    assert issue["recovery"] == "refreshDocument"
    # a character style is not a paragraph style
    char_style = next(s for s, st in rev.document.styles.by_id.items() if st.type == "character")
    only_skip(run(rev, {"type": "insertAfterBlock", "blockId": b.id, "text": "x", "styleId": char_style}),
              "missingStyle")


def test_pending_deletion():
    rev = open_doc(ILPA)
    b = next(b for b in rev.snapshot().content_blocks if b.table is None and len(b.text) > 80)
    assert run(rev, {"type": "deleteBlock", "blockId": b.id})["applied"]
    only_skip(run(rev, {"type": "replaceBlock", "blockId": b.id, "text": "again"}), "pendingDeletion")
    # inserting beside a deleted block is fine
    assert run(rev, {"type": "insertAfterBlock", "blockId": b.id, "text": "beside"})["applied"]


def test_payload_does_not_fit():
    rev = open_doc(PILOT)
    cell = next(b for b in rev.snapshot().content_blocks if b.table is not None)
    row_cells = sum(1 for b in rev.snapshot().blocks if b.table and b.table.table_index == cell.table.table_index
                    and b.table.row_index == cell.table.row_index and b.table.paragraph_index == 0)
    texts = [f"T{i}" for i in range(row_cells + 1)]
    issue = only_skip(run(rev, {"type": "insertTableRow", "blockId": cell.id, "cellTexts": texts}), "payloadDoesNotFit")
    assert f'cellTexts[{row_cells}] "T{row_cells}"' in issue["message"]


def test_protected_reference():
    rev = open_doc(NVCA)
    b = block(rev, "[Additional Closings[^5].")
    only_skip(run(rev, {"type": "replaceInBlock", "blockId": b.id, "find": "Closings[^5].", "replace": "Closings."}),
              "protectedReference")
    ok = run(rev, {"type": "replaceInBlock", "blockId": b.id, "find": "[Additional Closings", "replace": "[Later Closings"})
    assert ok["applied"] and "[Later Closings[^5]." in rev.snapshot().block(b.id).text


def test_invalid_result_is_never_kept(monkeypatch):
    rev = open_doc(PILOT)
    before = rev.to_bytes()
    b = block(rev, "The Product available under this Order Form")

    def broken(ctx):
        from lxml import etree

        p = ctx.block.element
        d = etree.SubElement(p, "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}del")
        r = etree.SubElement(d, "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}r")
        etree.SubElement(r, "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}t").text = "live"

    monkeypatch.setitem(ops_module.IMPLEMENTATIONS, "replaceInBlock", broken)
    issue = only_skip(run(rev, {"type": "replaceInBlock", "blockId": b.id, "find": "Product", "replace": "x"}),
                      "invalidResult")
    assert "live text inside a tracked deletion" in issue["message"]
    unchanged(rev, before)


def test_every_reason_has_prose_and_shape():
    for reason, (recovery, retryable, prose) in SKIP_REASONS.items():
        assert recovery in ("refreshDocument", "narrowMatch", "changeMode", "changeTarget", "removeOperation",
                            "inspectBatch", "resolveTrackedChange", "retryLater")
        assert isinstance(retryable, bool) and prose
        sentence = prose_for(reason, "detail")
        assert sentence.endswith(".") and (sentence[0].isupper() or sentence[0] == "`") and "detail" in sentence
    assert prose_for("somethingNew") == "somethingNew"
    with pytest.raises(EditError):
        raise EditError("missingBlock")


def test_document_version_mismatch():
    rev = open_doc(PILOT)
    b = block(rev, "The Product available under this Order Form")
    token = rev.document_version()
    edit = {"type": "replaceInBlock", "blockId": b.id, "find": "Product", "replace": "Service"}
    assert run(rev, edit, precondition={"documentVersion": token})["applied"]
    assert rev.document_version() != token
    before = rev.to_bytes()
    other = {"type": "replaceInBlock", "blockId": b.id, "find": "Order Form", "replace": "order"}
    issue = only_skip(run(rev, other, precondition={"documentVersion": token}), "documentVersionMismatch")
    assert issue["retryable"] is True and "regenerate" in prose_for("documentVersionMismatch")
    unchanged(rev, before)


def test_document_not_editable_when_protected():
    rev = open_doc(CORPUS / "unusual" / "poi_document_protection_readonly.docx")
    before = rev.to_bytes()
    b = rev.snapshot().content_blocks[0]
    issue = only_skip(run(rev, {"type": "insertAfterBlock", "blockId": b.id, "text": "x"}), "documentNotEditable")
    assert "protected (readOnly)" in issue["message"] and issue["recovery"] == "retryLater"
    unchanged(rev, before)
    # a document that allows only tracked changes takes them, and refuses direct edits
    rev = open_doc(CORPUS / "unusual" / "poi_document_protection_tracked_changes.docx")
    b = rev.snapshot().content_blocks[0]
    only_skip(run(rev, {"type": "insertAfterBlock", "blockId": b.id, "text": "x"}, mode="direct"), "unsupportedMode")
    assert run(rev, {"type": "insertAfterBlock", "blockId": b.id, "text": "x"})["applied"]


def test_markers_are_kept_in_order_and_never_invented():
    rev = open_doc(NVCA)
    b = block(rev, "[Additional Closings[^5].")
    only_skip(run(rev, {"type": "replaceBlock", "blockId": b.id, "text": b.text.replace("[^5]", "[^6]")}),
              "protectedReference")
    other = rev.snapshot().content_blocks[1]
    only_skip(run(rev, {"type": "insertAfterBlock", "blockId": other.id, "text": "See note [^1]."}),
              "protectedReference")
    # the word right before a marker can change on its own: the marker is a token of its own
    res = run(rev, {"type": "replaceBlock", "blockId": b.id, "text": b.text.replace("Closings[^5]", "Closing[^5]")})
    assert res["applied"] and "[Additional Closing[^5]." in rev.snapshot().block(b.id).text


def test_two_row_deletions_in_one_table():
    rev = open_doc(CORPUS / "docling_word_tables_merged_cells.docx")
    cells = [b for b in rev.snapshot().content_blocks if b.table and b.table.table_index == 0
             and b.table.cell_index == 0]
    res = run(rev, {"type": "deleteTableRow", "blockId": cells[1].id}, {"type": "deleteTableRow", "blockId": cells[2].id},
              {"type": "deleteTableRow", "blockId": cells[2].id})
    assert len(res["applied"]) == 2
    only_skip(res, "noopOperation")


def test_equations_are_refused_not_crashed():
    rev = open_doc(CORPUS / "powertools_HC031_complicated_document.docx")
    math = rev.snapshot().block("19FDC404")
    assert math is not None
    before = rev.to_bytes()
    for edit in ({"type": "deleteBlock", "blockId": math.id},
                 {"type": "replaceInBlock", "blockId": math.id, "find": "k=0", "replace": "k=1"}):
        res = run(rev, edit)
        only_skip(res, "unsupportedBlock")
        assert "equation" in res["skipped"][0]["message"] and res["applied"] == []
    # neither the open document nor its saved bytes changed
    assert rev.snapshot().block(math.id).text == math.text
    unchanged(rev, before)
