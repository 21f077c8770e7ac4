"""The checks re-run after every edit (the window's loop) without reading the whole document again: a
tracked edit leaves the document as it read before its pending changes unchanged, so the session keeps
the checks of that view and reads only the paragraphs the edits touched. Counted, not timed: how often
the document is reopened and how many paragraphs are read, against how many it has."""

from types import SimpleNamespace

import pytest
from conftest import SHARED

from folio_desktop.checks import CheckSession, check_document, view
from folio_desktop.docx import DocxReviewer
from folio_desktop.docx.reading import inline

ILPA = SHARED / "corpus" / "contract_ilpa_model_lpa_whole_of_fund_75p.docx"


@pytest.fixture
def counted(monkeypatch):
    """Counts of the real calls: documents opened from bytes, and paragraphs the checks read piece by
    piece themselves (the document's own snapshot, re-read after an insertion, is the docx layer's)."""
    counts = {"opened": 0, "paragraphs": 0}
    real_open, real_pieces = DocxReviewer.from_bytes.__func__, inline.pieces

    def opening(cls, *args, **kwargs):
        counts["opened"] += 1
        return real_open(cls, *args, **kwargs)

    def reading(*args, **kwargs):
        counts["paragraphs"] += 1
        return real_pieces(*args, **kwargs)

    monkeypatch.setattr(DocxReviewer, "from_bytes", classmethod(opening))
    monkeypatch.setattr(view, "inline", SimpleNamespace(**{**vars(inline), "pieces": reading}), raising=False)
    return counts


def _edit(reviewer, operation):
    result = reviewer.apply_document_operations({"version": 1, "mode": "tracked-changes", "operations": [operation]})
    assert result["applied"], result


def _insert_after(reviewer, block_id, text):
    _edit(reviewer, {"type": "insertAfterBlock", "blockId": block_id, "text": text})


def _exact(reviewer) -> dict:
    """The report of a fresh session over a copy of the document: it reads the original view afresh."""
    return check_document(DocxReviewer.from_bytes(reviewer.to_bytes()))


def test_rerun_after_tracked_edits_reads_only_what_they_touched(counted):
    reviewer = DocxReviewer.from_bytes(ILPA.read_bytes())
    session = CheckSession()
    session.run(reviewer)
    doc = reviewer.document
    paragraphs = sum(len(doc.snapshot_story(s).blocks) for s in doc.stories())
    assert paragraphs > 800
    long_blocks = [b for b in reviewer.snapshot().blocks if len(b.text) > 200]
    read_per_run = {}
    for n in range(1, 11):
        if n % 3:
            _insert_after(reviewer, long_blocks[n * 5].id,
                          "Each year the Escrow Holder shall notify the Escrow Holder's auditors.")
        else:  # a word struck and another put in its place, inside a paragraph
            target = long_blocks[n * 5 + 1]
            word = next(w for w in target.text.split() if len(w) > 6 and w.isalpha() and target.text.count(w) == 1)
            _edit(reviewer, {"type": "replaceInBlock", "blockId": target.id, "find": word, "replace": "the Trustee"})
        counted.update(opened=0, paragraphs=0)
        report = session.run(reviewer)
        assert counted["opened"] == 0, f"edit {n}: the document was reopened to read its original view"
        read_per_run[n] = counted["paragraphs"]
        if n in (1, 10):
            assert report == _exact(reviewer)
            escrow = [f for f in report["findings"] if f["text"] == "Escrow Holder"]
            assert escrow and all(f["pendingChange"] for f in escrow)
            assert any(not f["pendingChange"] for f in report["findings"])
    # each re-run reads the new paragraph and the ones holding changes: a few, never the document again
    assert read_per_run[1] * 20 < paragraphs
    assert read_per_run[10] * 20 < paragraphs
    assert read_per_run[10] <= read_per_run[1] + 2 * 9, read_per_run


def test_original_view_is_read_again_once_a_change_is_accepted(counted):
    reviewer = DocxReviewer.from_bytes(ILPA.read_bytes())
    session = CheckSession()
    session.run(reviewer)
    blocks = [b for b in reviewer.snapshot().blocks if len(b.text) > 200]
    _insert_after(reviewer, blocks[3].id, "Each year the Escrow Holder shall notify the Escrow Holder's auditors.")
    _insert_after(reviewer, blocks[40].id, "Each year the Paying Trustee shall notify the Paying Trustee's auditors.")
    report = session.run(reviewer)
    assert session.reopened == 0
    escrow_block = next(f["blockId"] for f in report["findings"] if f["text"] == "Escrow Holder")
    # accepting a change makes it part of the document as it read before the pending changes
    assert reviewer.accept_changes([c.id for c in reviewer.get_changes() if c.block_id == escrow_block])
    report = session.run(reviewer)
    assert session.reopened == 1
    assert report == _exact(reviewer)
    pending = {f["text"]: f["pendingChange"] for f in report["findings"]
               if f["text"] in ("Escrow Holder", "Paying Trustee")}
    assert pending == {"Escrow Holder": False, "Paying Trustee": True}
    _insert_after(reviewer, blocks[60].id, "The Escrow Holder shall keep records.")
    assert session.run(reviewer) == _exact(reviewer) and session.reopened == 1
    # an edit made untracked changes the document as it read before the changes too
    result = reviewer.apply_document_operations({"version": 1, "mode": "direct", "operations": [
        {"type": "insertAfterBlock", "blockId": blocks[5].id,
         "text": "Each year the Custody Agent shall notify the Custody Agent's auditors."}]})
    assert result["applied"], result
    report = session.run(reviewer)
    assert session.reopened == 2 and report == _exact(reviewer)
    pending = {f["text"]: f["pendingChange"] for f in report["findings"]
               if f["text"] in ("Custody Agent", "Paying Trustee")}
    assert pending == {"Custody Agent": False, "Paying Trustee": True}
