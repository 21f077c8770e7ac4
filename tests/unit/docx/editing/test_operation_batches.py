"""What a batch does to the open document, asserted on the document itself (its blocks, census,
comments, version and XML trees), not only on the bytes it saves: a rejected atomic batch and a dry
run leave it as it was; overlapping operations in one batch apply once; a delete and an insert
sharing a moveId are one tracked move; comments-only protection takes comments and nothing else; a
failed operation leaves nothing behind; a replay is recognised whatever the order of its keys."""

from __future__ import annotations

import re

import pytest
from conftest import CORPUS
from docbuilder import build_docx, p
from lxml import etree

from folio_desktop.docx import DocxReviewer
from folio_desktop.docx.editing.operations import OperationIdConflictError
from folio_desktop.docx.model.textkit import text_hash

PILOT = CORPUS / "contract_commonpaper_pilot_agreement.docx"
NVCA = CORPUS / "contract_nvca_stock_purchase_agreement_27p.docx"
W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
COMMENT_PARTS = ("comments", "commentsExtended", "commentsIds", "commentsExtensible", "numbering")


def batch(*operations, **extra):
    return {"version": 1, "operations": list(operations), **extra}


def open_state(rev: DocxReviewer) -> dict:
    """Everything the open document shows and holds: blocks, census, comments, version, the trees
    of the main part and its comment and numbering parts, the package's bookkeeping."""
    doc = rev.document
    package = doc.package
    trees = {"main": etree.tostring(doc.root)}
    for suffix in COMMENT_PARTS:
        part = doc.related_part(suffix)
        if part is not None:
            trees[suffix] = etree.tostring(package.xml(part))
    for part in ("[Content_Types].xml", "word/_rels/document.xml.rels"):  # where a new part is declared
        trees[part] = etree.tostring(package.xml(part))
    return {
        "blocks": [(b.id, b.kind, b.text) for b in rev.snapshot().blocks],
        "changes": [c.to_json() for c in rev.get_changes()],
        "comments": [(c.id, c.author, c.text) for c in rev.get_comments()],
        "annotated": rev.get_content_as_text(annotated=True),
        "version": doc.version,
        "token": rev.document_version(),
        "trees": trees,
        "parts": sorted(package.part_names()),
        "dirty": set(package.dirty),
    }


def pilot():
    rev = DocxReviewer.open(PILOT)
    long = [b for b in rev.snapshot().content_blocks if b.table is None and len(b.text) > 80]
    return rev, long


def word_range(block, word):
    start = block.text.index(word)
    return {"type": "textRange", "story": "main", "blockId": block.id, "startOffset": start,
            "endOffset": start + len(word), "selectedTextHash": text_hash(word)}


def unique_word(block, skip=0):
    words = [w for w in re.findall(r"[A-Za-z]{5,}", block.text) if block.text.count(w) == 1]
    return words[skip]


# -- rollback: nothing changes in the open document ------------------------------------------------------


def mixed_operations(long):
    a, b, c = long[0], long[1], long[2]
    return [
        {"type": "replaceInBlock", "blockId": a.id, "find": unique_word(a), "replace": "CHANGED"},
        {"type": "insertAfterBlock", "blockId": b.id, "text": "A clause that must not stay."},
        {"type": "commentOnBlock", "blockId": c.id, "comment": {"text": "A comment that must not stay."}},
        {"type": "deleteBlock", "blockId": long[3].id},
    ]


def test_a_rejected_atomic_batch_leaves_the_open_document_as_it_was():
    rev, long = pilot()
    before = open_state(rev)
    saved = rev.to_bytes()
    failing = {"type": "replaceInBlock", "blockId": long[4].id, "find": "no such words here", "replace": "x"}
    res = rev.apply_document_operations(batch(*mixed_operations(long), failing, atomic=True))
    assert res["status"] == "rejected" and res["applied"] == [] and res["undoHandle"] is None
    assert [s["reason"] for s in res["skipped"]].count("atomicBatchRejected") == 4
    assert open_state(rev) == before
    assert rev.to_bytes() == saved
    # and the document still edits as before: the revision ids the rejected batch took are free again
    again = rev.apply_document_operations(batch(mixed_operations(long)[0]))
    assert again["applied"] and again["nextRevisionId"] == res.get("nextRevisionId", again["nextRevisionId"])


def test_a_dry_run_leaves_the_open_document_as_it_was():
    rev, long = pilot()
    before = open_state(rev)
    res = rev.apply_document_operations(batch(*mixed_operations(long), dryRun=True))
    assert res["status"] == "previewed" and len(res["applied"]) == 4 and res["undoHandle"] is None
    assert "nextRevisionId" not in res
    assert open_state(rev) == before


def test_a_failed_atomic_dry_run_leaves_the_open_document_as_it_was():
    rev, long = pilot()
    before = open_state(rev)
    failing = {"type": "deleteBlock", "blockId": "7FFFFFF0"}
    res = rev.apply_document_operations(batch(*mixed_operations(long), failing, dryRun=True, atomic=True))
    assert res["status"] == "previewed" and res["applied"] == []
    assert open_state(rev) == before


def test_the_revision_ids_of_a_dry_run_are_given_out_again():
    rev, long = pilot()
    op = mixed_operations(long)[0]
    preview = rev.apply_document_operations(batch(op, dryRun=True))
    made = rev.apply_document_operations(batch(op))
    assert made["applied"][0]["revisionIds"] == sorted(made["applied"][0]["revisionIds"])
    # the dry run gave back the ids it drew: the real batch starts where the preview started
    again = DocxReviewer.open(PILOT)
    fresh = again.apply_document_operations(batch(op))
    assert made["applied"][0]["revisionIds"] == fresh["applied"][0]["revisionIds"]
    assert preview["status"] == "previewed"


def test_a_best_effort_batch_keeps_what_applied_and_undoes_as_one_step():
    rev, long = pilot()
    before = open_state(rev)
    res = rev.apply_document_operations(batch(*mixed_operations(long), {"type": "deleteBlock", "blockId": "7FFFFFF0"}))
    assert res["status"] == "committed" and len(res["applied"]) == 4
    after = open_state(rev)
    assert after["version"] == before["version"] + 1 or after["version"] > before["version"]
    assert len(after["comments"]) == 1 and "A clause that must not stay." in after["annotated"]
    assert rev.undo_document_operations(res["undoHandle"])["status"] == "undone"
    undone = open_state(rev)
    assert {k: v for k, v in undone.items() if k not in ("version", "token")} == \
        {k: v for k, v in before.items() if k not in ("version", "token")}
    assert undone["version"] > after["version"]  # an undo is a change too: older pins are refused


# -- claims: operations of one batch that collide -----------------------------------------------------------


def test_two_overlapping_replacements_in_one_block_apply_only_the_first():
    rev, long = pilot()
    a = long[0]
    word = unique_word(a)
    wider = a.text[a.text.index(word):a.text.index(word) + len(word) + 4]
    assert a.text.count(wider) == 1
    res = rev.apply_document_operations(batch(
        {"id": "first", "type": "replaceInBlock", "blockId": a.id, "find": word, "replace": "ONE"},
        {"id": "second", "type": "replaceInBlock", "blockId": a.id, "find": wider, "replace": "TWO"}))
    assert [x["id"] for x in res["applied"]] == ["first"]
    assert res["skipped"][0]["id"] == "second" and res["skipped"][0]["reason"] == "overlappingOperation"
    assert '"first"' in res["skipped"][0]["message"]
    text = rev.snapshot().block(a.id).text
    assert "ONE" in text and "TWO" not in text


def test_replacements_of_separate_words_in_one_block_both_apply():
    rev, long = pilot()
    a = long[0]
    one, two = unique_word(a, 0), unique_word(a, 1)
    res = rev.apply_document_operations(batch(
        {"type": "replaceInBlock", "blockId": a.id, "find": one, "replace": "ONE"},
        {"type": "replaceInBlock", "blockId": a.id, "find": two, "replace": "TWO"}))
    assert len(res["applied"]) == 2 and res["skipped"] == []
    text = rev.snapshot().block(a.id).text
    assert "ONE" in text and "TWO" in text


def test_adjacent_ranges_do_not_overlap():
    rev, long = pilot()
    a = long[0]
    word = unique_word(a)
    start = a.text.index(word)
    left = {"type": "textRange", "story": "main", "blockId": a.id, "startOffset": start, "endOffset": start + 2,
            "selectedTextHash": text_hash(word[:2])}
    right = {"type": "textRange", "story": "main", "blockId": a.id, "startOffset": start + 2,
             "endOffset": start + len(word), "selectedTextHash": text_hash(word[2:])}
    res = rev.apply_document_operations(batch({"type": "formatRange", "range": left, "formatting": {"color": "FF0000"}},
                                              {"type": "formatRange", "range": right, "formatting": {"color": "0000FF"}}))
    assert len(res["applied"]) == 2, res["skipped"]


def test_an_insert_after_a_block_deleted_earlier_in_the_batch_is_refused():
    rev, long = pilot()
    b = long[1]
    res = rev.apply_document_operations(batch(
        {"id": "del", "type": "deleteBlock", "blockId": b.id},
        {"id": "ins", "type": "insertAfterBlock", "blockId": b.id, "text": "Beside a deleted block."}))
    assert [x["id"] for x in res["applied"]] == ["del"]
    assert res["skipped"] == [{"id": "ins", "reason": "overlappingOperation",
                               "message": 'an earlier operation in this batch ("del") already deletes or rewrites '
                                          "this text"}]
    assert "Beside a deleted block." not in rev.get_content_as_text(annotated=True)


def test_an_insert_after_a_block_edited_earlier_in_the_batch_applies():
    rev, long = pilot()
    b = long[1]
    res = rev.apply_document_operations(batch(
        {"type": "replaceInBlock", "blockId": b.id, "find": unique_word(b), "replace": "EDITED"},
        {"type": "insertAfterBlock", "blockId": b.id, "text": "Beside an edited block."}))
    assert len(res["applied"]) == 2, res["skipped"]


@pytest.mark.parametrize("first,second,refused", [
    ("deleteBlock", "replaceInBlock", True),
    ("replaceInBlock", "deleteBlock", True),
    ("deleteBlock", "deleteBlock", True),
    ("replaceBlock", "setBlockParagraphProperties", True),
    ("setBlockParagraphProperties", "setBlockParagraphProperties", True),
    ("setBlockParagraphProperties", "replaceInBlock", False),
    ("deleteBlock", "mergeBlockWithNext", True),
    ("mergeBlockWithNext", "replaceInBlock", False),
    ("commentOnBlock", "deleteBlock", False),
    ("deleteBlock", "commentOnBlock", False),
])
def test_which_operations_on_one_block_collide(first, second, refused):
    rev, long = pilot()
    b = long[1]
    shapes = {
        "deleteBlock": {"blockId": b.id},
        "replaceInBlock": {"blockId": b.id, "find": unique_word(b), "replace": "EDITED"},
        "replaceBlock": {"blockId": b.id, "text": "Rewritten whole."},
        "setBlockParagraphProperties": {"blockId": b.id, "properties": {"alignment": "center"}},
        "mergeBlockWithNext": {"blockId": b.id, "separator": " "},
        "commentOnBlock": {"blockId": b.id, "comment": {"text": "Note."}},
    }
    ops = [{"id": "one", "type": first, **shapes[first]}, {"id": "two", "type": second, **shapes[second]}]
    if first == second == "setBlockParagraphProperties":
        ops[1]["properties"] = {"alignment": "right"}
    res = rev.apply_document_operations(batch(*ops))
    reasons = {s["id"]: s["reason"] for s in res["skipped"]}
    assert ("one" in [a["id"] for a in res["applied"]]), res["skipped"]
    assert (reasons.get("two") == "overlappingOperation") is refused, res


# -- moves -------------------------------------------------------------------------------------------------


def _move_marks(rev):
    body = rev.document.body
    out = {}
    for tag in ("moveFromRangeStart", "moveToRangeStart"):
        out[tag] = [el.get(W + "name") for el in body.iter(W + tag)]
    out["moveFrom"] = len(list(body.iter(W + "moveFrom")))
    out["moveTo"] = len(list(body.iter(W + "moveTo")))
    return out


@pytest.mark.parametrize("insert_type", ["insertAfterBlock", "insertBeforeBlock"])
def test_a_delete_and_an_insert_sharing_a_move_id_are_one_tracked_move(insert_type):
    rev, long = pilot()
    moved, target = long[1], long[5]
    res = rev.apply_document_operations(batch(
        {"id": "from", "type": "deleteBlock", "blockId": moved.id, "moveId": "m1"},
        {"id": "to", "type": insert_type, "blockId": target.id, "text": moved.text, "moveId": "m1"}))
    assert len(res["applied"]) == 2 and "normalizations" not in res, res
    marks = _move_marks(rev)
    assert len(marks["moveFromRangeStart"]) == 1 and marks["moveFromRangeStart"] == marks["moveToRangeStart"]
    assert re.fullmatch(r"move\d{1,8}", marks["moveFromRangeStart"][0])
    assert marks["moveFrom"] >= 1 and marks["moveTo"] >= 1
    # the deleted block reads as moved away, the inserted one as moved here
    sides = {c.move_side for c in rev.get_changes() if c.move is not None}
    assert sides == {"from", "to"}, sides
    # the same moveId in another batch gets the same name; another moveId another one
    name = marks["moveFromRangeStart"][0]
    rev2, long2 = pilot()
    rev2.apply_document_operations(batch(
        {"type": "deleteBlock", "blockId": long2[2].id, "moveId": "m2"},
        {"type": insert_type, "blockId": long2[6].id, "text": long2[2].text, "moveId": "m2"}))
    assert _move_marks(rev2)["moveFromRangeStart"] != [name]


@pytest.mark.parametrize("shape", ["two deletes", "lone delete", "three", "two inserts"])
def test_a_move_id_without_exactly_one_delete_and_one_insert_is_no_move(shape):
    rev, long = pilot()
    d1 = {"type": "deleteBlock", "blockId": long[1].id, "moveId": "m"}
    d2 = {"type": "deleteBlock", "blockId": long[2].id, "moveId": "m"}
    ins = {"type": "insertAfterBlock", "blockId": long[5].id, "text": "Moved here.", "moveId": "m"}
    ins2 = {"type": "insertBeforeBlock", "blockId": long[6].id, "text": "Also here.", "moveId": "m"}
    ops = {"two deletes": [d1, d2], "lone delete": [d1], "three": [d1, d2, ins], "two inserts": [ins, ins2]}[shape]
    res = rev.apply_document_operations(batch(*ops))
    assert len(res["applied"]) == len(ops), res["skipped"]
    marks = _move_marks(rev)
    assert marks["moveFromRangeStart"] == [] and marks["moveToRangeStart"] == []
    assert marks["moveFrom"] == 0 and marks["moveTo"] == 0
    assert [n["code"] for n in res["normalizations"]] == ["unpairedMove"] * len(ops)
    assert sorted(n["operationId"] for n in res["normalizations"]) == sorted(a["id"] for a in res["applied"])


def test_a_direct_batch_writes_no_move_and_reports_nothing_unpaired():
    rev, long = pilot()
    res = rev.apply_document_operations(batch(
        {"type": "deleteBlock", "blockId": long[1].id, "moveId": "m"},
        {"type": "insertAfterBlock", "blockId": long[5].id, "text": "Moved.", "moveId": "m"},
        {"type": "deleteBlock", "blockId": long[2].id, "moveId": "lonely"}, mode="direct"))
    assert len(res["applied"]) == 3 and "normalizations" not in res
    assert _move_marks(rev) == {"moveFromRangeStart": [], "moveToRangeStart": [], "moveFrom": 0, "moveTo": 0}


def test_two_moves_in_one_batch_get_two_names():
    rev, long = pilot()
    res = rev.apply_document_operations(batch(
        {"type": "deleteBlock", "blockId": long[1].id, "moveId": "a"},
        {"type": "insertAfterBlock", "blockId": long[5].id, "text": "First moved.", "moveId": "a"},
        {"type": "deleteBlock", "blockId": long[2].id, "moveId": "b"},
        {"type": "insertAfterBlock", "blockId": long[6].id, "text": "Second moved.", "moveId": "b"}))
    assert len(res["applied"]) == 4 and "normalizations" not in res
    marks = _move_marks(rev)
    assert len(set(marks["moveFromRangeStart"])) == 2 and set(marks["moveFromRangeStart"]) == set(marks["moveToRangeStart"])


# -- protection -----------------------------------------------------------------------------------------------


def protected(edit: str, enforced: str = "1") -> DocxReviewer:
    settings = f'<w:documentProtection w:edit="{edit}" w:enforcement="{enforced}"/>'
    return DocxReviewer.from_bytes(build_docx(p("The first clause of this agreement.", "11111111")
                                              + p("The second clause of this agreement.", "22222222"),
                                              settings=settings))


def test_a_document_protected_for_comments_takes_comments_and_nothing_else():
    rev = protected("comments")
    res = rev.apply_document_operations(batch(
        {"id": "c", "type": "commentOnBlock", "blockId": "11111111", "comment": {"text": "Fine."}},
        {"id": "r", "type": "commentOnRange", "range": {
            "type": "textRange", "story": "main", "blockId": "22222222", "startOffset": 4, "endOffset": 10,
            "selectedTextHash": text_hash("second")}, "comment": {"text": "Which?"}},
        {"id": "e", "type": "replaceInBlock", "blockId": "11111111", "find": "first", "replace": "opening"},
        {"id": "i", "type": "insertAfterBlock", "blockId": "22222222", "text": "More."}))
    assert [a["id"] for a in res["applied"]] == ["c", "r"]
    assert {s["id"]: s["reason"] for s in res["skipped"]} == {"e": "documentNotEditable", "i": "documentNotEditable"}
    assert "protected (comments)" in res["skipped"][0]["message"]
    assert [b.text for b in rev.snapshot().blocks][:2] == ["The first clause of this agreement.",
                                                           "The second clause of this agreement."]


@pytest.mark.parametrize("edit", ["readOnly", "forms"])
def test_a_document_protected_against_editing_takes_no_comment_either(edit):
    rev = protected(edit)
    res = rev.apply_document_operations(batch(
        {"type": "commentOnBlock", "blockId": "11111111", "comment": {"text": "Fine."}}))
    assert res["applied"] == [] and res["skipped"][0]["reason"] == "documentNotEditable"
    assert rev.get_comments() == []


def test_protection_that_is_not_enforced_changes_nothing():
    rev = protected("readOnly", enforced="0")
    res = rev.apply_document_operations(batch(
        {"type": "replaceInBlock", "blockId": "11111111", "find": "first", "replace": "opening"}))
    assert res["applied"]


# -- a failed operation leaves nothing behind -----------------------------------------------------------------


def test_an_operation_that_fails_after_writing_its_comment_leaves_no_comment():
    # an empty revision wrapper already in the paragraph: the edit is written, then its check fails
    # (invalidResult) and everything the operation wrote goes, its comment too
    body = ('<w:p w14:paraId="11111111" w14:textId="11111111"><w:r><w:t xml:space="preserve">Pay the fee '
            'promptly.</w:t></w:r><w:ins w:id="900" w:author="Someone" w:date="2024-01-01T00:00:00Z"/></w:p>'
            + p("Another paragraph.", "22222222"))
    rev = DocxReviewer.from_bytes(build_docx(body))
    before = open_state(rev)
    res = rev.apply_document_operations(batch(
        {"id": "x", "type": "replaceInBlock", "blockId": "11111111", "find": "promptly", "replace": "at once",
         "comment": {"text": "Sooner."}},
        {"id": "y", "type": "commentOnBlock", "blockId": "22222222", "comment": {"text": "Kept."}}))
    assert [s["reason"] for s in res["skipped"]] == ["invalidResult"]
    assert [a["id"] for a in res["applied"]] == ["y"]
    assert [c.text for c in rev.get_comments()] == ["Kept."]
    after = open_state(rev)
    assert after["blocks"] == before["blocks"]
    assert b"Sooner." not in after["trees"]["comments"] and b"Kept." in after["trees"]["comments"]
    first = rev.document.body[0]
    assert etree.tostring(first) == etree.tostring(etree.fromstring(etree.tostring(first)))
    assert len(list(first.iter(W + "commentRangeStart"))) == 0


# -- replays ----------------------------------------------------------------------------------------------------


def test_a_replay_is_recognised_whatever_the_order_of_its_keys():
    rev, long = pilot()
    a = long[0]
    word = unique_word(a)
    op = {"id": "keep-1", "type": "replaceInBlock", "blockId": a.id, "find": word, "replace": "CHANGED"}
    first = rev.apply_document_operations(batch(op))
    assert first["applied"]
    reordered = dict(reversed(list(op.items())))
    again = rev.apply_document_operations(batch(reordered))
    assert again["replayed"] == [{"id": "keep-1"}] and again["receipts"] == first["receipts"]
    with pytest.raises(OperationIdConflictError):
        rev.apply_document_operations(batch(dict(reordered, replace="OTHER")))


def test_an_undone_batch_forgets_its_operation_ids():
    rev, long = pilot()
    a = long[0]
    op = {"id": "keep-2", "type": "replaceInBlock", "blockId": a.id, "find": unique_word(a), "replace": "CHANGED"}
    first = rev.apply_document_operations(batch(op))
    rev.undo_document_operations(first["undoHandle"])
    again = rev.apply_document_operations(batch(op))
    assert again["applied"] and "replayed" not in again


# -- what is refused before anything is written ------------------------------------------------------------------


def _nvca_marked():
    rev = DocxReviewer.open(NVCA)
    b = next(b for b in rev.snapshot().blocks if b.text.startswith("[Additional Closings[^5]."))
    return rev, b


def test_a_replacement_that_drops_a_note_marker_is_refused_before_it_claims_its_text():
    rev, b = _nvca_marked()
    start = b.text.index("Closings[^5]")
    rng = {"type": "textRange", "story": "main", "blockId": b.id, "startOffset": start,
           "endOffset": start + len("Closings[^5]"), "selectedTextHash": text_hash("Closings[^5]")}
    res = rev.apply_document_operations(batch(
        {"id": "drop", "type": "replaceRange", "range": rng, "replace": "Closings"},
        {"id": "keep", "type": "replaceInBlock", "blockId": b.id, "find": "Closings[^5]", "replace": "Closing[^5]"}))
    assert {s["id"]: s["reason"] for s in res["skipped"]} == {"drop": "protectedReference"}
    assert [a["id"] for a in res["applied"]] == ["keep"]
    assert rev.snapshot().block(b.id).text.startswith("[Additional Closing[^5].")


def test_an_inserted_paragraph_may_not_bring_a_note_marker_before_or_after():
    rev, b = _nvca_marked()
    res = rev.apply_document_operations(batch(
        {"id": "before", "type": "insertBeforeBlock", "blockId": b.id, "text": "See note [^5] again."},
        {"id": "after", "type": "insertAfterBlock", "blockId": b.id, "text": "See note [^5] again."}))
    assert {s["id"]: s["reason"] for s in res["skipped"]} == {"before": "protectedReference",
                                                               "after": "protectedReference"}
    assert "See note" not in rev.get_content_as_text()


def test_a_stale_range_says_the_text_is_no_longer_what_find_text_returned():
    rev, long = pilot()
    a = long[0]
    rng = dict(word_range(a, unique_word(a)), selectedTextHash=text_hash("something else"))
    res = rev.apply_document_operations(batch({"type": "replaceRange", "range": rng, "replace": "x"}))
    assert res["skipped"][0]["reason"] == "staleRange"
    assert res["skipped"][0]["message"] == "the text at that range is no longer what find_text returned"


def test_a_missing_style_is_refused_before_it_claims_its_block():
    rev, long = pilot()
    b = long[1]
    res = rev.apply_document_operations(batch(
        {"id": "bad", "type": "setBlockParagraphProperties", "blockId": b.id,
         "properties": {"styleId": "NoSuchStyle"}},
        {"id": "good", "type": "setBlockParagraphProperties", "blockId": b.id,
         "properties": {"alignment": "center"}}))
    assert {s["id"]: s["reason"] for s in res["skipped"]} == {"bad": "missingStyle"}
    assert [a["id"] for a in res["applied"]] == ["good"]


def test_two_ranges_of_one_block_apply_right_to_left():
    rev, long = pilot()
    a = long[0]
    one, two = sorted((unique_word(a, 0), unique_word(a, 1)), key=a.text.index)
    res = rev.apply_document_operations(batch(
        {"type": "replaceRange", "range": word_range(a, one), "replace": "FIRST WORDS HERE"},
        {"type": "replaceRange", "range": word_range(a, two), "replace": "SECOND"}))
    assert len(res["applied"]) == 2, res["skipped"]
    expected = a.text.replace(two, "SECOND", 1).replace(one, "FIRST WORDS HERE", 1)
    assert rev.snapshot().block(a.id).text == expected


def test_undo_handles_count_up_from_one():
    rev, long = pilot()
    handles = [rev.apply_document_operations(batch(
        {"type": "replaceInBlock", "blockId": b.id, "find": unique_word(b), "replace": "X"}))["undoHandle"]["id"]
        for b in long[:3]]
    assert handles == ["headless-1", "headless-2", "headless-3"]


# -- what the engine reports ------------------------------------------------------------------------------------


def test_a_batch_pinned_to_another_version_skips_every_new_operation_in_a_full_envelope():
    from folio_desktop.docx.editing.skips import issue_for

    rev, long = pilot()
    a = long[0]
    done = {"id": "done-1", "type": "replaceInBlock", "blockId": a.id, "find": unique_word(a), "replace": "X"}
    rev.apply_document_operations(batch(done))
    before = open_state(rev)
    token = rev.document_version()
    new = {"id": "new-1", "type": "insertAfterBlock", "blockId": a.id, "text": "Late."}
    res = rev.apply_document_operations(batch(done, new, precondition={"documentVersion": "v0"}))
    message = f"the document is at version {token}, not v0"
    assert res == {"version": 1, "status": "committed", "applied": [],
                   "skipped": [{"id": "new-1", "reason": "documentVersionMismatch", "message": message}],
                   "issues": [issue_for("documentVersionMismatch", "new-1", 1, message)],
                   "receipts": [], "undoHandle": None}
    assert open_state(rev) == before


def test_a_reply_tells_the_listeners_the_versions_before_and_after_it():
    rev, long = pilot()
    cid = rev.add_comment(long[0].id, "Is this right?")
    heard = []
    rev.engine.listeners.append(lambda record, before, after: heard.append((before, after)))
    version = rev.document.version
    rev.reply_to(cid, "Yes.")
    assert heard == [(version, rev.document.version)] and rev.document.version > version


def test_an_engine_keeping_one_undo_step_undoes_the_latest_batch():
    rev, long = pilot()
    rev.engine.max_undo = 1
    before = open_state(rev)
    res = rev.apply_document_operations(batch(mixed_operations(long)[0]))
    assert res["undoHandle"] is not None
    assert rev.undo_document_operations(res["undoHandle"])["status"] == "undone"
    assert {k: v for k, v in open_state(rev).items() if k not in ("version", "token")} == \
        {k: v for k, v in before.items() if k not in ("version", "token")}


@pytest.mark.parametrize("dry_run", [False, True])
def test_without_undo_history_a_rejected_or_previewed_batch_still_leaves_the_document_as_it_was(dry_run):
    rev, long = pilot()
    rev.engine.max_undo = 0  # no undo state kept: the take-back record is made for this batch alone
    before = open_state(rev)
    failing = {"type": "deleteBlock", "blockId": "7FFFFFF0"}
    extra = {"dryRun": True} if dry_run else {"atomic": True}
    res = rev.apply_document_operations(batch(*mixed_operations(long), *([] if dry_run else [failing]), **extra))
    assert res["status"] == ("previewed" if dry_run else "rejected")
    assert open_state(rev) == before


def test_a_rejected_atomic_batch_takes_back_the_list_it_minted():
    rev, long = pilot()
    before = open_state(rev)
    res = rev.apply_document_operations(batch(
        {"type": "insertAfterBlock", "blockId": long[0].id, "text": "A new numbered clause.",
         "numbering": {"kind": "newList", "format": "numbered"}},
        {"type": "deleteBlock", "blockId": "7FFFFFF0"}, atomic=True))
    assert res["status"] == "rejected"
    assert open_state(rev) == before


def test_an_edit_of_a_block_pending_deletion_says_so():
    rev, long = pilot()
    b = long[1]
    rev.apply_document_operations(batch({"type": "deleteBlock", "blockId": b.id}))
    res = rev.apply_document_operations(batch(
        {"type": "replaceInBlock", "blockId": b.id, "find": unique_word(b), "replace": "X"}))
    assert res["skipped"][0]["reason"] == "pendingDeletion"
    assert res["skipped"][0]["message"] == "the target is already pending deletion"


def test_a_split_past_the_end_of_the_block_is_a_stale_range():
    rev, long = pilot()
    b = long[0]
    res = rev.apply_document_operations(batch({"type": "splitBlock", "blockId": b.id, "offset": len(b.text) + 5}))
    assert res["skipped"] == [{"id": "op-1", "reason": "staleRange",
                               "message": f"offset {len(b.text) + 5} is past the end of the block"}]


def test_adjacent_ranges_given_right_to_left_do_not_overlap():
    rev, long = pilot()
    a = long[0]
    word = unique_word(a)
    start = a.text.index(word)
    left = dict(word_range(a, word), endOffset=start + 2, selectedTextHash=text_hash(word[:2]))
    right = dict(word_range(a, word), startOffset=start + 2, selectedTextHash=text_hash(word[2:]))
    res = rev.apply_document_operations(batch({"type": "formatRange", "range": right, "formatting": {"color": "0000FF"}},
                                              {"type": "formatRange", "range": left, "formatting": {"color": "FF0000"}}))
    assert len(res["applied"]) == 2, res["skipped"]

