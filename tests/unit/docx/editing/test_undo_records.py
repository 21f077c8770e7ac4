"""The engine's undo records (checkpoints.EditRecord): what a change touched, taken back and made
again exactly, found again after a whole-document restore; comments written into comment parts that
exist already, replies and resolved threads recorded the same way; the snapshot patched after a
comment reads as a fresh one."""

from __future__ import annotations

import pytest
from conftest import CORPUS
from document_state import open_state

from folio_desktop.docx import DocxReviewer
from folio_desktop.docx.editing.checkpoints import RecordMismatch
from folio_desktop.docx.model.textkit import text_hash
from folio_desktop.docx.reading.snapshot import build_snapshot

REPLIES = CORPUS / "superdoc_word_comments_replies_tracked.docx"  # all four comment parts
PILOT = CORPUS / "contract_commonpaper_pilot_agreement.docx"  # no comment part yet


def recording(rev: DocxReviewer) -> list:
    records: list = []
    rev.engine.listeners.append(lambda record, before, after: records.append(record))
    return records


def round_trip(rev: DocxReviewer, change) -> None:
    """Make the change; its record takes it back and makes it again exactly, also after the whole
    document was restored (new elements: the record finds its places again)."""
    records = recording(rev)
    before, saved = open_state(rev, version=False), rev.to_bytes()
    change()
    assert len(records) == 1
    [record] = records
    after, saved_after = open_state(rev, version=False), rev.to_bytes()
    assert after != before
    engine = rev.engine
    engine.set_done(record, False)
    assert open_state(rev, version=False) == before and rev.to_bytes() == saved
    engine.set_done(record, True)
    assert open_state(rev, version=False) == after and rev.to_bytes() == saved_after
    rev.restore(rev.checkpoint())
    engine.set_done(record, False)
    assert open_state(rev, version=False) == before
    rev.restore(rev.checkpoint())
    engine.set_done(record, True)
    assert open_state(rev, version=False) == after


def first_words(rev, n=3):
    return [b for b in rev.snapshot().content_blocks if b.table is None and len(b.text.split()) > 4][:n]


@pytest.mark.parametrize("source", [REPLIES, PILOT], ids=["parts-there", "parts-created"])
def test_a_comment_round_trips(source):
    rev = DocxReviewer.open(source)
    b = first_words(rev)[0]
    word = b.text.split()[1]
    start = b.text.index(word)
    rng = {"type": "textRange", "story": "main", "blockId": b.id, "startOffset": start,
           "endOffset": start + len(word), "selectedTextHash": text_hash(word)}

    def comment():
        res = rev.apply_document_operations({"version": 1, "operations": [
            {"type": "commentOnRange", "range": rng, "comment": {"text": "Why this word?"}},
            {"type": "commentOnBlock", "blockId": first_words(rev)[1].id, "comment": {"text": "And this clause?"}}]})
        assert len(res["applied"]) == 2, res["skipped"]

    round_trip(rev, comment)


def test_a_comment_in_existing_parts_keeps_their_new_entries_not_the_parts():
    rev = DocxReviewer.open(REPLIES)
    records = recording(rev)
    rev.add_comment(first_words(rev)[0].id, "Short.")
    [record] = records
    assert record.parts == {}  # no part kept whole: the entries after each part's last one
    assert {run.part for run in record.runs} >= {"word/comments.xml", "word/commentsExtended.xml",
                                                  "word/commentsIds.xml"}


def test_a_reply_round_trips():
    rev = DocxReviewer.open(REPLIES)
    [thread, *_] = rev.get_comments()
    round_trip(rev, lambda: rev.reply_to(thread.id, "A reply kept by its record.", author="Lawyer"))


@pytest.mark.parametrize("resolved", [True, False])
def test_resolving_a_thread_round_trips(resolved):
    rev = DocxReviewer.open(REPLIES)
    thread = rev.get_comments()[0]
    if not resolved:
        assert rev.resolve_comment(thread.id, True)
    round_trip(rev, lambda: rev.resolve_comment(thread.id, resolved))


def test_a_reply_to_an_unknown_comment_changes_nothing():
    rev = DocxReviewer.open(REPLIES)
    records = recording(rev)
    before = open_state(rev)
    with pytest.raises(KeyError):
        rev.reply_to(987654, "Nobody reads this.")
    assert records == [] and open_state(rev) == before


def test_a_batch_of_several_places_round_trips():
    rev = DocxReviewer.open(PILOT)
    a, b, c = first_words(rev)
    ops = [{"type": "replaceInBlock", "blockId": a.id, "find": a.text.split()[2], "replace": "ONE"},
           {"type": "insertBeforeBlock", "blockId": b.id, "text": "Before b."},
           {"type": "insertAfterBlock", "blockId": b.id, "text": "After b."},
           {"type": "deleteBlock", "blockId": c.id},
           {"type": "commentOnBlock", "blockId": b.id, "comment": {"text": "Here."}}]
    round_trip(rev, lambda: rev.apply_document_operations({"version": 1, "operations": ops}))


def test_a_record_refuses_a_document_that_no_longer_holds_its_run():
    rev = DocxReviewer.open(PILOT)
    records = recording(rev)
    b = first_words(rev)[0]
    rev.apply_document_operations({"version": 1, "operations": [
        {"type": "insertAfterBlock", "blockId": b.id, "text": "One.\nTwo."}]})
    [record] = records
    body = rev.document.body
    for p in [el for el in body if el.getprevious() is not None][:40]:
        body.remove(p)  # changed beside the engine: the run's neighbours are gone
    rev.document.invalidate()
    with pytest.raises(RecordMismatch):
        rev.engine.set_done(record, False)


@pytest.mark.parametrize("source", [REPLIES, PILOT, CORPUS / "contract_ilpa_model_lpa_whole_of_fund_75p.docx"],
                         ids=lambda p: p.stem[:30])
def test_the_snapshot_patched_after_a_comment_reads_as_a_fresh_one(source):
    rev = DocxReviewer.open(source)
    blocks = [b for b in rev.snapshot().content_blocks if len(b.text.split()) > 3][:12]
    patched = 0
    for i, block in enumerate(blocks):
        word = next(w for w in block.text.split() if block.text.count(w) == 1) if i % 2 else None
        op = {"type": "commentOnBlock", "blockId": block.id, "comment": {"text": f"Note {i}."}}
        if word:
            op["quote"] = word
        old = rev.document.snapshot()
        old_blocks = list(old.blocks)
        result = rev.apply_document_operations({"version": 1, "operations": [op]})
        assert result["applied"], result["skipped"]
        new = rev.document.snapshot()
        patched += sum(a is b for a, b in zip(new.blocks, old_blocks)) == len(old_blocks) - 1
        fresh = build_snapshot(rev.document, rev.document.body, rev.document.positional_ids)
        assert [b.to_json() for b in new.blocks] == [b.to_json() for b in fresh.blocks]
        assert new.to_json()["anchors"] == fresh.to_json()["anchors"]
        assert {k: (a.block_id, a.quote) for k, a in new.comment_anchors.items()} == \
            {k: (a.block_id, a.quote) for k, a in fresh.comment_anchors.items()}
    assert patched >= len(blocks) // 2  # most comments took the quick way: one block read again
