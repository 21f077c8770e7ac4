"""Save As with privacy options (folio_desktop/ui/desk/save_as_dialog.py): metadata transforms of spec
§9.4 and keep/strip comments, written from a copy so the open document never changes."""

from __future__ import annotations

import io
import zipfile

import docx as python_docx
import pytest
from conftest import CORPUS
from ooxml_validate import load_wml_schema, part_errors

from folio_desktop.agents.versions.privacy import InvalidPrivacyOptionsError
from folio_desktop.docx import DocxReviewer
from folio_desktop.docx.comment_strip import strip_comments
from folio_desktop.docx.errors import DocxError
from folio_desktop.ui.desk.save_as_dialog import SaveAsOptionsDialog, SaveOptions, save_with_options

REPLIES = CORPUS / "superdoc_word_comments_replies_tracked.docx"  # 6 comments, Cole Palmer's metadata
EIGENPAL = CORPUS / "eigenpal_docxjs_editor_demo.docx"
EVERYTHING = ("remove-attribution", "remove-timestamps", "remove-descriptive-metadata")


def entries(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return {n: z.read(n) for n in z.namelist()}


def test_options_are_validated_and_put_in_canonical_order():
    opts = SaveOptions(("remove-timestamps", "remove-attribution", "remove-timestamps"), keep_comments=False)
    assert opts.transforms == ("remove-attribution", "remove-timestamps")
    assert opts.privacy == {"transforms": ["remove-attribution", "remove-timestamps"]}
    assert SaveOptions() == SaveOptions((), True)
    with pytest.raises(InvalidPrivacyOptionsError, match="unrecognized transform 'remove-everything'"):
        SaveOptions(("remove-everything",))


def test_the_dialog_turns_checkboxes_into_options(qtbot):
    dialog = SaveAsOptionsDialog()
    qtbot.addWidget(dialog)
    assert dialog.options() == SaveOptions()  # by default nothing is removed and comments stay
    assert list(dialog.transform_boxes) == list(EVERYTHING)
    dialog.transform_boxes["remove-descriptive-metadata"].setChecked(True)
    dialog.transform_boxes["remove-attribution"].setChecked(True)
    dialog.keep_comments.setChecked(False)
    assert dialog.options() == SaveOptions(("remove-attribution", "remove-descriptive-metadata"), False)
    preset = SaveAsOptionsDialog(options=SaveOptions(("remove-timestamps",), keep_comments=False))
    qtbot.addWidget(preset)
    assert preset.transform_boxes["remove-timestamps"].isChecked()
    assert not preset.transform_boxes["remove-attribution"].isChecked() and not preset.keep_comments.isChecked()


def test_strip_everything_from_a_commented_document(tmp_path):
    rev = DocxReviewer.open(REPLIES)
    before = rev.to_bytes()
    out = tmp_path / "clean.docx"
    save_with_options(rev, out, SaveOptions(EVERYTHING, keep_comments=False))

    assert rev.to_bytes() == before and len(rev.all_comments()) == 6  # the open document is untouched
    saved = DocxReviewer.open(out)
    assert saved.all_comments() == [] and saved.get_comments() == []
    assert saved.get_content_as_text() == rev.get_content_as_text()
    parts = entries(out.read_bytes())
    assert not [n for n in parts if "comment" in n.lower()]
    assert b"comments" not in parts["word/_rels/document.xml.rels"]
    assert b"comments" not in parts["[Content_Types].xml"]
    for name in ("word/document.xml", "docProps/core.xml"):
        assert b"comment" not in parts[name].replace(b"commentary", b"")
    assert b"Cole Palmer" not in parts["docProps/core.xml"]

    word = python_docx.Document(str(out))
    props = word.core_properties
    assert (props.author, props.last_modified_by, props.created, props.modified) == ("", "", None, None)
    assert len(list(word.comments)) == 0
    assert "We can suggest on this an addition" in "\n".join(p.text for p in word.paragraphs)


def test_only_the_chosen_fields_go(tmp_path):
    rev = DocxReviewer.open(REPLIES)
    out = tmp_path / "dated.docx"
    save_with_options(rev, out, SaveOptions(("remove-timestamps",)))
    props = python_docx.Document(str(out)).core_properties
    assert props.author == "Cole Palmer" and props.last_modified_by == "Cole Palmer"
    assert props.created is None and props.modified is None
    assert len(DocxReviewer.open(out).all_comments()) == 6


def test_without_options_the_document_is_written_as_it_is(tmp_path):
    rev = DocxReviewer.open(REPLIES)
    out = tmp_path / "same.docx"
    save_with_options(rev, out, SaveOptions())
    assert out.read_bytes() == rev.to_bytes()


def test_unsaved_edits_are_in_the_copy(tmp_path):
    rev = DocxReviewer.open(EIGENPAL, author="Jane Lawyer")
    block = rev.snapshot().blocks[0]
    result = rev.apply_document_operations({"version": 1, "operations": [
        {"type": "insertAfterBlock", "blockId": block.id, "text": "A clause added before saving."}]})
    assert result["applied"]
    out = tmp_path / "edited.docx"
    save_with_options(rev, out, SaveOptions(keep_comments=False))
    saved = DocxReviewer.open(out)
    assert "A clause added before saving." in saved.get_content_as_text()
    assert "A clause added before saving." in [c.text for c in saved.get_changes() if c.author == "Jane Lawyer"]
    assert saved.all_comments() == [] and len(rev.all_comments()) == 1


def test_tracked_changes_survive_and_the_markup_stays_valid():
    schema = load_wml_schema()
    for path in (REPLIES, CORPUS / "adeu_word_rprchange_comments.docx", EIGENPAL):
        data = path.read_bytes()
        stripped = strip_comments(data)
        old, new = DocxReviewer.from_bytes(data), DocxReviewer.from_bytes(stripped)
        assert new.all_comments() == [] and old.all_comments()
        # a change that held nothing but a comment reference goes with it; every other change stays
        kept, was = [(c.type, c.text) for c in new.get_changes()], [(c.type, c.text) for c in old.get_changes()]
        gone = list(was)
        for change in kept:
            gone.remove(change)
        assert all(text == "" for _type, text in gone) and [t for _, t in kept if t] == [t for _, t in was if t]
        assert new.get_content_as_text() == old.get_content_as_text()
        assert part_errors(schema, entries(stripped)["word/document.xml"]) == []


def test_a_target_that_cannot_be_written_is_a_plain_message(tmp_path):
    rev = DocxReviewer.open(REPLIES)
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    with pytest.raises(DocxError, match="could not be written .*your work is still open"):
        save_with_options(rev, blocker / "out.docx", SaveOptions(EVERYTHING, keep_comments=False))
    assert len(rev.all_comments()) == 6
