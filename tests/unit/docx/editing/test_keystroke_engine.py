"""The operation engine's keystroke mode and Word's rule for your own insertions (issue 13, point 1),
headless: what the page editor sends when the lawyer types, and the snapshot it patches instead of
reading a whole long document again after every key.

- keystrokes=True: a replaceRange over the character beside the caret, replaced by that character
  plus the typed text, inserts just the typed text (no word diff); splitBlock splits at a
  paragraph's very start or end too. The model's batches never set it: their contract is unchanged.
- deleting text of your own pending insertion takes it out; deleting your own pending paragraph
  break joins the paragraphs; anyone else's text is struck, as before.
"""

from __future__ import annotations

import random

import pytest
from conftest import CORPUS, ROOT

from folio_desktop.docx import DocxReviewer
from folio_desktop.docx.model.textkit import index_to_utf16, text_hash
from folio_desktop.docx.reading.snapshot import build_snapshot

SAMPLE = ROOT / "resources" / "sample_contract.docx"
PILOT = CORPUS / "contract_commonpaper_pilot_agreement.docx"
DEFINITION = "2062A4BC"  # “Confidential Information” means any information disclosed by one party ...
PURPOSE = "2D0F52ED"
ME, OTHER = "Jane Lawyer", "Claude"


def text(rev, block_id):
    return rev.snapshot().block(block_id).text


def replace(rev, block_id, start, end, new) -> dict:
    t = text(rev, block_id)
    return {"type": "replaceRange", "replace": new,
            "range": {"type": "textRange", "blockId": block_id, "startOffset": index_to_utf16(t, start),
                      "endOffset": index_to_utf16(t, end), "selectedTextHash": text_hash(t[start:end])}}


def apply(rev, ops, author=ME, mode="tracked-changes", keystrokes=True) -> dict:
    return rev.engine.apply({"version": 1, "mode": mode, "operations": ops}, author=author,
                            keystrokes=keystrokes, undoable=False)


def type_at(rev, block_id, k, typed, author=ME, mode="tracked-changes"):
    """What the editor sends for typing at offset k: the character before, and it plus the text."""
    t = text(rev, block_id)
    result = apply(rev, [replace(rev, block_id, k - 1, k, t[k - 1] + typed)], author, mode)
    assert result["applied"], result
    return result


def changes(rev, block_id=None):
    return [(c.type, c.text, c.author) for c in rev.get_changes() if block_id is None or c.block_id == block_id]


def element_xml(rev, block_id) -> str:
    from lxml import etree

    return etree.tostring(rev.snapshot().block(block_id).element).decode()


def readings(rev):
    return [(b.display_label, b.text) for b in rev.snapshot().blocks]


@pytest.fixture
def rev():
    return DocxReviewer.open(SAMPLE, author="AI")


def test_a_keystroke_inserts_only_what_was_typed_in_one_growing_insertion(rev):
    before = text(rev, DEFINITION)
    k = before.index(" means")
    for n, ch in enumerate("ly"):  # "Information" -> "Informationly": no word diff strikes "Information”"
        type_at(rev, DEFINITION, k + n, ch)
    assert text(rev, DEFINITION) == before[:k] + "ly" + before[k:]
    assert changes(rev, DEFINITION) == [("insertion", "ly", ME)]
    xml = element_xml(rev, DEFINITION)
    assert xml.count("<w:ins ") == 1 and ">ly</w:t>" in xml  # one w:ins and one run, not one per key
    # the same replaceRange without keystroke mode is a word diff: the whole word goes and comes back
    other = DocxReviewer.open(SAMPLE, author="AI")
    t = text(other, DEFINITION)
    assert apply(other, [replace(other, DEFINITION, k - 1, k, t[k - 1] + "ly")], keystrokes=False)["applied"]
    assert changes(other, DEFINITION) == [("deletion", "”", ME), ("insertion", "”ly", ME)]


def test_a_keystroke_at_the_start_or_over_a_selection(rev):
    before = text(rev, PURPOSE)
    assert apply(rev, [replace(rev, PURPOSE, 0, 1, "X" + before[0])])["applied"]  # before the first character
    assert text(rev, PURPOSE) == "X" + before
    start = before.index("possible") + 1
    assert apply(rev, [replace(rev, PURPOSE, start, start + len("possible"), "p")])["applied"]
    assert text(rev, PURPOSE) == "X" + before.replace("possible", "p", 1)
    assert changes(rev, PURPOSE) == [("insertion", "X", ME), ("deletion", "possible", ME), ("insertion", "p", ME)]


def test_deleting_your_own_insertion_takes_it_out_and_others_are_struck(rev):
    before = text(rev, DEFINITION)
    k = before.index(" means")
    type_at(rev, DEFINITION, k, " wholly")
    assert apply(rev, [replace(rev, DEFINITION, k + 2, k + 5, "")])["applied"]  # "hol" of my " wholly"
    assert changes(rev, DEFINITION) == [("insertion", " wly", ME)]
    assert apply(rev, [replace(rev, DEFINITION, k, k + 4, "")])["applied"]
    assert changes(rev, DEFINITION) == [] and text(rev, DEFINITION) == before
    assert "<w:ins " not in element_xml(rev, DEFINITION) and "<w:del " not in element_xml(rev, DEFINITION)
    # someone else's insertion is struck, not taken out (the rule is for your own)
    type_at(rev, DEFINITION, k, " wholly", author=OTHER)
    assert apply(rev, [replace(rev, DEFINITION, k + 2, k + 5, "")])["applied"]
    # (the census lists an insertion with the part struck inside it, as Word shows it)
    assert changes(rev, DEFINITION) == [("insertion", " wholly", OTHER), ("deletion", "hol", ME)]
    assert text(rev, DEFINITION) == before[:k] + " wly" + before[k:]
    # the model's deletion inside its own insertion follows the same rule
    model = DocxReviewer.open(SAMPLE, author="AI")
    type_at(model, DEFINITION, k, " wholly", author=OTHER)
    assert model.engine.apply({"version": 1, "operations": [replace(model, DEFINITION, k, k + 7, "")]},
                              author=OTHER)["applied"]
    assert changes(model, DEFINITION) == []


def test_backspaces_strike_one_stretch(rev):
    before = text(rev, DEFINITION)
    k = before.index(" means") + len(" means")
    for n in range(3):
        assert apply(rev, [replace(rev, DEFINITION, k - n - 1, k - n, "")])["applied"]
    assert changes(rev, DEFINITION) == [("deletion", "ans", ME)]
    assert element_xml(rev, DEFINITION).count("<w:del ") == 1


def test_enter_splits_at_either_edge_in_keystroke_mode_only(rev):
    end = len(text(rev, PURPOSE))
    split = {"type": "splitBlock", "blockId": PURPOSE, "offset": index_to_utf16(text(rev, PURPOSE), end)}
    refused = rev.engine.apply({"version": 1, "operations": [split]}, author=ME)
    assert [s["reason"] for s in refused["skipped"]] == ["staleRange"]  # the model's contract: strictly inside
    assert apply(rev, [split])["applied"]
    snapshot = rev.snapshot()
    index = snapshot.anchors[PURPOSE].index
    assert snapshot.blocks[index + 1].text == "" and snapshot.blocks[index + 1].display_label == "1.3"
    assert any(c.type == "paragraphMarkInserted" and c.author == ME for c in rev.get_changes())
    assert apply(rev, [{"type": "splitBlock", "blockId": DEFINITION, "offset": 0}])["applied"]
    snapshot = rev.snapshot()
    first = snapshot.blocks[snapshot.anchors[DEFINITION].index]
    assert first.text == "" and snapshot.blocks[snapshot.anchors[DEFINITION].index + 1].text.startswith("“Conf")
    rev.reject_all()
    assert readings(rev) == readings_rejected(SAMPLE)


def readings_rejected(path):
    reviewer = DocxReviewer.open(path)
    reviewer.reject_all()
    return readings(reviewer)


def test_taking_out_your_own_paragraph_break_joins_the_paragraphs(rev):
    before = readings(rev)
    k = text(rev, DEFINITION).index(" any")
    assert apply(rev, [{"type": "splitBlock", "blockId": DEFINITION, "offset": k}])["applied"]
    assert apply(rev, [{"type": "mergeBlockWithNext", "blockId": DEFINITION}])["applied"]
    assert readings(rev) == before and not [c for c in rev.get_changes() if c.author == ME]
    assert rev.snapshot().block(DEFINITION) is not None  # the paragraph keeps its id
    # Enter at a paragraph's end, a few words, then the words and the break taken out again
    assert apply(rev, [{"type": "splitBlock", "blockId": PURPOSE, "offset": len(text(rev, PURPOSE))}])["applied"]
    snapshot = rev.snapshot()
    new = snapshot.blocks[snapshot.anchors[PURPOSE].index + 1].id
    assert apply(rev, [{"type": "replaceBlock", "blockId": new, "text": "An added clause."}])["applied"]
    assert apply(rev, [replace(rev, new, 0, len("An added clause."), "")])["applied"]
    assert apply(rev, [{"type": "mergeBlockWithNext", "blockId": PURPOSE}])["applied"]
    assert readings(rev) == before and not [c for c in rev.get_changes() if c.author == ME]
    # a whole paragraph you inserted, deleted again, goes with its own break
    assert apply(rev, [{"type": "insertAfterBlock", "blockId": PURPOSE, "text": "An added clause."}])["applied"]
    snapshot = rev.snapshot()
    new = snapshot.blocks[snapshot.anchors[PURPOSE].index + 1].id
    assert apply(rev, [{"type": "deleteBlock", "blockId": new}])["applied"]
    assert readings(rev) == before and not [c for c in rev.get_changes() if c.author == ME]
    # someone else's paragraph break is struck
    assert apply(rev, [{"type": "mergeBlockWithNext", "blockId": DEFINITION}])["applied"]
    assert any(c.type == "paragraphMarkDeleted" and c.author == ME for c in rev.get_changes())


def test_direct_keystrokes_change_the_text_and_leave_no_mark(rev):
    before = text(rev, DEFINITION)
    k = before.index(" means")
    type_at(rev, DEFINITION, k, "s", mode="direct")
    assert apply(rev, [replace(rev, DEFINITION, 0, 1, "")], mode="direct")["applied"]
    assert text(rev, DEFINITION) == before[1:k] + "s" + before[k:]
    assert changes(rev, DEFINITION) == []


def test_undoable_false_keeps_no_undo_state_and_the_default_does():
    rev = DocxReviewer.open(SAMPLE)
    t = text(rev, DEFINITION)
    quick = apply(rev, [replace(rev, DEFINITION, 0, 1, t[0] + "x")])
    assert quick["status"] == "committed" and quick["undoHandle"] is None
    model = rev.engine.apply({"version": 1, "operations": [replace(rev, DEFINITION, 0, 1, "Y")]})
    assert model["undoHandle"] is not None and rev.undo_document_operations(model["undoHandle"])["status"] == "undone"


@pytest.mark.parametrize("source", [SAMPLE, PILOT, CORPUS / "contract_ilpa_model_lpa_whole_of_fund_75p.docx",
                                    CORPUS / "openxmlsdk_comment042_tracked_pPr_rPr_changes_notes.docx"],
                         ids=lambda p: p.stem[:40])
def test_the_patched_snapshot_reads_as_a_fresh_one(source):
    """After every keystroke the snapshot is patched, not rebuilt; it must equal a fresh read, for
    paragraphs with notes, comments, fields, tables and tracked changes of others."""
    rev = DocxReviewer.open(source, author="AI")
    rng = random.Random(13)
    blocks = [b for b in rev.snapshot().blocks if len(b.text) > 3 and b.kind != "diagnostic"]
    patched = 0
    for _ in range(25):
        block = rng.choice(blocks)
        t = text(rev, block.id)
        k = rng.randrange(1, len(t))
        if rng.random() < 0.6:
            op = replace(rev, block.id, k - 1, k, t[k - 1] + rng.choice(["a", " ", "é", "契"]))
        else:
            op = replace(rev, block.id, k - 1, k, "")
        old = rev.document.snapshot()
        result = apply(rev, [op])
        if not result["applied"]:
            continue  # a footnote marker, a grapheme's middle: refused and nothing changed
        new = rev.document.snapshot()
        patched += new.blocks is not old.blocks and new.blocks[0] is old.blocks[0]
        fresh = build_snapshot(rev.document, rev.document.body, rev.document.positional_ids)
        assert [b.to_json() for b in new.blocks] == [b.to_json() for b in fresh.blocks]
        assert new.to_json()["anchors"] == fresh.to_json()["anchors"]
        assert {k: (a.block_id, a.quote) for k, a in new.comment_anchors.items()} == \
            {k: (a.block_id, a.quote) for k, a in fresh.comment_anchors.items()}
        assert {id(p): b.id for p, b in new.block_of_paragraph.items()} == \
            {id(p): b.id for p, b in fresh.block_of_paragraph.items()}
    assert patched >= 8  # most keystrokes took the quick way


# -- direct edits over pending insertions ----------------------------------------------------------------


def test_a_direct_edit_over_a_whole_pending_insertion_leaves_no_empty_revision():
    from docbuilder import build_docx

    body = ('<w:p w14:paraId="10000001"><w:r><w:t xml:space="preserve">Pay </w:t></w:r>'
            f'<w:ins w:id="1" w:author="{OTHER}" w:date="2026-01-01T00:00:00Z"><w:r><w:t>promptly</w:t></w:r>'
            '<w:r><w:tab/></w:r></w:ins>'
            '<w:r><w:t xml:space="preserve"> in full.</w:t></w:r></w:p>')
    rev = DocxReviewer.from_bytes(build_docx(body), author=ME)
    assert text(rev, "10000001") == "Pay promptly\t in full."

    result = apply(rev, [replace(rev, "10000001", 3, 13, " now")], mode="direct")

    assert result["applied"] and not result["skipped"], result
    assert text(rev, "10000001") == "Pay now in full."
    assert "<w:ins" not in element_xml(rev, "10000001")
    assert changes(rev) == []
