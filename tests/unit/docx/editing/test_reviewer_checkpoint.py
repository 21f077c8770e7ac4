"""DocxReviewer.checkpoint() / restore(): whole-document undo points (docx/editing/checkpoints.py), no Qt.

A restore must give back exactly the document as it was: the same blocks and ids, the same census,
the same comments, and on save the same bytes for every part; and it must work any number of times.
"""

from __future__ import annotations

import io
import zipfile

from conftest import CORPUS
from docbuilder import build_docx

from folio_desktop.docx import DocxReviewer

PILOT = CORPUS / "contract_commonpaper_pilot_agreement.docx"
ALL_STORIES = CORPUS / "openxmlsdk_comment042_tracked_pPr_rPr_changes_notes.docx"  # changes in every story
EIGENPAL = CORPUS / "eigenpal_docxjs_editor_demo.docx"


def state(rev: DocxReviewer) -> tuple:
    """Everything a reader of the document can see: blocks, annotated text, changes, comment threads."""
    blocks = [(b.id, b.text) for b in rev.snapshot().blocks]
    changes = [c.to_json() for c in rev.get_changes()]
    comments = [(c.id, c.author, c.text, c.done, [(r.id, r.text) for r in c.replies]) for c in rev.get_comments()]
    return blocks, rev.get_content_as_text(annotated=True), changes, comments


def parts(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return {name: z.read(name) for name in z.namelist()}


def long_block(rev: DocxReviewer, n: int = 0):
    return [b for b in rev.snapshot().blocks if len(b.text) > 40][n]


def edit_batch(rev: DocxReviewer) -> dict:
    a, b = long_block(rev, 1), long_block(rev, 4)
    word = a.text.split()[2]
    return {"version": 1, "mode": "tracked-changes", "operations": [
        {"type": "replaceInBlock", "blockId": a.id, "find": word, "replace": word.upper() + "X"},
        {"type": "insertAfterBlock", "blockId": b.id, "text": "A new clause."},
        {"type": "deleteBlock", "blockId": long_block(rev, 6).id},
        {"type": "commentOnBlock", "blockId": b.id, "comment": {"text": "Why?"}},
    ]}


def test_restore_undoes_edits_and_a_new_comments_part_byte_for_byte():
    raw = PILOT.read_bytes()
    rev = DocxReviewer.from_bytes(raw, author="Lawyer")
    assert rev.get_comments() == [] and rev.get_changes() == []
    before = state(rev)
    point = rev.checkpoint()
    result = rev.apply_document_operations(edit_batch(rev))
    assert len(result["applied"]) == 4, result["skipped"]
    assert len(rev.get_comments()) == 1 and len(rev.get_changes()) >= 3
    assert "word/comments.xml" in parts(rev.to_bytes())

    rev.restore(point)
    assert state(rev) == before
    # every part as it was, the comments part the edit created gone again
    assert parts(rev.to_bytes()) == parts(raw)


def test_a_checkpoint_can_be_restored_again_after_other_edits():
    rev = DocxReviewer.open(PILOT, author="Lawyer")
    before = state(rev)
    point = rev.checkpoint()
    rev.apply_document_operations(edit_batch(rev))
    rev.restore(point)
    block = long_block(rev, 2)
    rev.apply_document_operations({"version": 1, "operations": [
        {"type": "replaceBlock", "blockId": block.id, "text": "Entirely different."}]})
    assert state(rev) != before
    rev.restore(point)
    assert state(rev) == before


def test_a_later_checkpoint_brings_the_edits_back():
    rev = DocxReviewer.open(PILOT, author="Lawyer")
    first = rev.checkpoint()
    rev.apply_document_operations(edit_batch(rev))
    edited, edited_bytes = state(rev), parts(rev.to_bytes())
    second = rev.checkpoint()
    rev.restore(first)
    rev.restore(second)
    assert state(rev) == edited
    assert parts(rev.to_bytes()) == edited_bytes


def test_restore_reverts_accept_all_in_every_story():
    rev = DocxReviewer.open(ALL_STORIES)
    stories = {c.story for c in rev.get_changes()}
    assert {"main", "footnote:1", "endnote:1"} <= stories and any(s.startswith("header") for s in stories)
    before = state(rev)
    notes_before = rev.get_notes_as_text()
    point = rev.checkpoint()
    assert rev.accept_all() == len(before[2])
    assert rev.get_changes() == []
    rev.restore(point)
    assert state(rev) == before
    assert rev.get_notes_as_text() == notes_before
    assert rev.list_stories() == DocxReviewer.open(ALL_STORIES).list_stories()


def test_accept_and_reject_several_changes_in_one_pass():
    rev = DocxReviewer.open(EIGENPAL)
    changes = rev.get_changes()
    replacement = [c.id for c in changes if c.block_id == changes[0].block_id]
    assert len(replacement) == 2
    assert rev.accept_changes(replacement) == 2
    assert {c.id for c in rev.get_changes()} == {c.id for c in changes} - set(replacement)
    assert rev.reject_changes([]) == 0
    left = [c.id for c in rev.get_changes()]
    assert rev.reject_changes(left) == len(left)
    assert rev.get_changes() == []


def test_restore_moves_the_version_on_and_forgets_replayed_ids():
    rev = DocxReviewer.open(PILOT, author="Lawyer")
    block = long_block(rev)
    batch = {"version": 1, "operations": [
        {"id": "mine-1", "type": "insertAfterBlock", "blockId": block.id, "text": "Added once."}]}
    pinned_version = rev.document_version()
    point = rev.checkpoint()
    assert rev.apply_document_operations(batch)["applied"]
    rev.restore(point)
    # a batch pinned to a version read before the restore is refused: the document changed under it
    pinned = dict(batch, precondition={"documentVersion": pinned_version})
    refused = rev.apply_document_operations(pinned)
    assert refused["skipped"][0]["reason"] == "documentVersionMismatch"
    # the op id is not remembered any more: the same batch applies again instead of being replayed
    again = rev.apply_document_operations(batch)
    assert [a["id"] for a in again["applied"]] == ["mine-1"] and "replayed" not in again
    assert rev.get_content_as_text().count("Added once.") == 1


def test_restored_document_saves_and_reopens_identically(tmp_path):
    rev = DocxReviewer.open(EIGENPAL, author="Lawyer")
    point = rev.checkpoint()
    rev.accept_all()
    rev.reply_to(rev.get_comments()[0].id, "Agreed.")
    rev.restore(point)
    out = tmp_path / "restored.docx"
    rev.save(out)
    assert state(DocxReviewer.open(out)) == state(DocxReviewer.open(EIGENPAL))


def test_checkpoint_taken_straight_after_opening_keeps_note_paragraph_ids():
    """Paragraphs without a w14:paraId get one stamped in memory when a story is first read; a checkpoint
    taken before that must still carry them, or the restored note's blocks would change ids."""
    author = 'w:author="Ann" w:date="2024-01-01T00:00:00Z"'
    body = ('<w:p><w:r><w:t>Main text.</w:t></w:r><w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr>'
            '<w:footnoteReference w:id="1"/></w:r></w:p>')
    notes = ('<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
             f'<w:footnote w:id="1"><w:p><w:r><w:t>Note </w:t></w:r><w:ins w:id="3" {author}><w:r><w:t>added</w:t>'
             '</w:r></w:ins></w:p></w:footnote>')
    data = build_docx(body, footnotes=notes)
    rev = DocxReviewer.from_bytes(data)
    point = rev.checkpoint()  # before anything has read the footnotes
    assert rev.accept_all() == 1
    rev.restore(point)
    fresh = DocxReviewer.from_bytes(data)
    assert [c.to_json() for c in rev.get_changes()] == [c.to_json() for c in fresh.get_changes()]
    assert rev.get_changes()[0].story == "footnote:1" and not rev.get_changes()[0].block_id.startswith("seq-")
    assert state(rev) == state(fresh)
