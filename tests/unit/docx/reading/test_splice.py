"""reading.splice: after Enter (splitBlock) or Backspace over a paragraph mark (mergeBlockWithNext), in
either Track Changes mode, the body's snapshot is derived from the one before by reading only the
paragraphs that replaced the edited ones; it must read exactly as a fresh read of the whole body does."""

from __future__ import annotations

import random

import pytest
from conftest import CORPUS, ROOT

from folio_desktop.docx import DocxReviewer
from folio_desktop.docx.model.textkit import index_to_utf16
from folio_desktop.docx.reading.snapshot import build_snapshot
from folio_desktop.docx.reading.splice import spliced

SAMPLE = ROOT / "resources" / "sample_contract.docx"
SOURCES = [SAMPLE, CORPUS / "contract_commonpaper_pilot_agreement.docx",
           CORPUS / "contract_ilpa_model_lpa_whole_of_fund_75p.docx",
           CORPUS / "contract_nvca_stock_purchase_agreement_27p.docx",
           CORPUS / "openxmlsdk_comment042_tracked_pPr_rPr_changes_notes.docx"]


def _apply(rev, op, mode) -> dict:
    return rev.engine.apply({"version": 1, "mode": mode, "operations": [op]}, author="Jane Lawyer",
                            keystrokes=True, undoable=False)


def _same(new, fresh) -> None:
    assert [b.to_json() for b in new.blocks] == [b.to_json() for b in fresh.blocks]
    assert [(b.id, b.walk, b.display_label) for b in new.blocks] == [(b.id, b.walk, b.display_label)
                                                                     for b in fresh.blocks]
    assert new.to_json()["anchors"] == fresh.to_json()["anchors"]
    assert list(new.anchors) == list(fresh.anchors)
    assert {k: (a.block_id, a.quote) for k, a in new.comment_anchors.items()} == \
        {k: (a.block_id, a.quote) for k, a in fresh.comment_anchors.items()}
    assert {id(p): b.id for p, b in new.block_of_paragraph.items()} == \
        {id(p): b.id for p, b in fresh.block_of_paragraph.items()}


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.stem[:40])
def test_a_spliced_snapshot_reads_as_a_fresh_one(source):
    rev = DocxReviewer.open(source, author="Jane Lawyer")
    doc = rev.document
    rng = random.Random(26)
    taken = 0
    for step in range(40):
        snap = rev.snapshot()
        body_paragraphs = [b for b in snap.blocks if b.element is not None and b.element.getparent() is doc.body
                           and b.kind != "diagnostic"]
        block = rng.choice(body_paragraphs)
        mode = "tracked-changes" if step % 3 else "direct"
        paragraphs = list(block.paragraphs)
        if rng.random() < 0.55:
            offset = rng.randrange(0, len(block.text) + 1)
            op = {"type": "splitBlock", "blockId": block.id, "offset": index_to_utf16(block.text, offset)}
        else:
            index = snap.anchors[block.id].index
            if index + 1 >= len(snap.blocks) or snap.blocks[index + 1].element is None:
                continue
            paragraphs += snap.blocks[index + 1].paragraphs
            op = {"type": "mergeBlockWithNext", "blockId": block.id}
        parent = doc.body
        if any(p.getparent() is not parent for p in paragraphs):
            continue
        places = [parent.index(p) for p in paragraphs]
        start, count, length = min(places), max(places) - min(places) + 1, len(parent)
        result = _apply(rev, op, mode)
        if not result["applied"]:
            continue
        assert not doc.snapshot_is_read  # a split or a join drops the body's snapshot
        new = spliced(doc, snap, parent, start, count, count + len(parent) - length)
        fresh = build_snapshot(doc, doc.body, doc.positional_ids)
        if new is not None:
            taken += 1
            _same(new, fresh)
            doc.adopt_snapshot(new)  # the next edit starts from the spliced snapshot, as typing does
        else:
            doc.adopt_snapshot(fresh)
    assert taken >= 10  # most splits and joins took the quick way


def test_a_numbered_paragraph_split_numbers_the_items_after_it_again():
    """A list item split in two makes a new number: the items after it in the list are numbered again
    (new blocks), and from where the counters stand as before the edit, the blocks are the old objects."""
    rev = DocxReviewer.open(CORPUS / "contract_nvca_stock_purchase_agreement_27p.docx", author="Jane Lawyer")
    doc = rev.document
    snap = rev.snapshot()
    items = [b for b in snap.blocks if b.list_reference is not None and b.element is not None
             and b.element.getparent() is doc.body and len(b.text) > 20 and b.display_label]
    item = next(b for b, nxt in zip(items, items[1:]) if nxt.list_reference == b.list_reference)
    start, length = doc.body.index(item.element), len(doc.body)
    assert _apply(rev, {"type": "splitBlock", "blockId": item.id, "offset": 10}, "tracked-changes")["applied"]
    new = spliced(doc, snap, doc.body, start, 1, 1 + len(doc.body) - length)
    assert new is not None
    _same(new, build_snapshot(doc, doc.body, doc.positional_ids))
    index = snap.anchors[item.id].index
    renumbered = [b.id for was, b in zip(snap.blocks[index + 1:], new.blocks[index + 2:]) if was is not b]
    assert renumbered and new.blocks[-1] is snap.blocks[-1]  # some items after it, not the whole body
