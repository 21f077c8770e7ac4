"""Every real document opens, reads, and survives open+save unchanged (issue 2, acceptance 1)."""

import io
import zipfile

import pytest
from conftest import ALL_GOOD, CORPUS

from folio_desktop.docx import DocxReviewer

EMPTY_DOCUMENTS = {"upstream-empty.docx"}


def test_corpus_is_present():
    assert len(ALL_GOOD) >= 50, "expected the whole shared corpus"


@pytest.mark.parametrize("path", ALL_GOOD, ids=lambda p: p.name)
def test_opens_reads_and_round_trips(path):
    data = path.read_bytes()
    rev = DocxReviewer.from_bytes(data)
    snap = rev.snapshot()
    if path.name in EMPTY_DOCUMENTS:
        assert not snap.content_blocks
    else:
        assert snap.content_blocks, "a non-empty document reads as at least one content block"
    # every block has an id of a valid shape and ids are unique
    ids = [b.id for b in snap.blocks]
    assert len(ids) == len(set(ids))
    for block in snap.blocks:
        assert block.kind in ("paragraph", "heading", "listItem", "diagnostic")
        if block.kind != "diagnostic":
            assert snap.anchors[block.id].text_hash == block.text_hash
            assert block.stated_numbering is not None
    # the read side never dirties anything: saving writes every entry back byte-identical
    out = rev.to_bytes()
    with zipfile.ZipFile(io.BytesIO(data)) as zin, zipfile.ZipFile(io.BytesIO(out)) as zout:
        assert [i.filename for i in zin.infolist()] == [i.filename for i in zout.infolist()]
        for info in zin.infolist():
            assert zin.read(info) == zout.read(info.filename), info.filename
    # two opens of the same bytes give identical ids and texts
    again = DocxReviewer.from_bytes(data).snapshot()
    assert [(b.id, b.text, b.display_label) for b in again.blocks] == [
        (b.id, b.text, b.display_label) for b in snap.blocks
    ]
    # the saved bytes read back the same
    reread = DocxReviewer.from_bytes(out).snapshot()
    assert [(b.id, b.text) for b in reread.blocks] == [(b.id, b.text) for b in snap.blocks]


def test_unusual_main_part_is_found_through_rels():
    rev = DocxReviewer.open(CORPUS / "unusual" / "pandoc_alternate_document_path.docx")
    assert rev.document.main_part != "word/document.xml"
    assert rev.snapshot().content_blocks
    rev = DocxReviewer.open(CORPUS / "unusual" / "docx2python_renamed_document_xml.docx")
    assert rev.document.main_part != "word/document.xml"
    assert rev.snapshot().content_blocks[0].text.strip()


def test_save_is_atomic_and_detects_outside_changes(tmp_path):
    from folio_desktop.docx import SaveConflictError

    src = tmp_path / "contract.docx"
    src.write_bytes((CORPUS / "contract_msdn_eula_legal_numbering.docx").read_bytes())
    rev = DocxReviewer.open(src)
    rev.save()
    assert [p.name for p in tmp_path.iterdir()] == ["contract.docx"], "no temp files left behind"
    # someone else changes the file on disk: saving over it is refused, nothing is lost
    src.write_bytes(src.read_bytes() + b"\0")
    changed = src.read_bytes()
    with pytest.raises(SaveConflictError, match="changed by another program"):
        rev.save()
    assert src.read_bytes() == changed
    # saving elsewhere still works, and force overrides
    rev.save(tmp_path / "copy.docx")
    assert DocxReviewer.open(tmp_path / "copy.docx").snapshot().content_blocks
    rev.save(force=True)
    assert src.read_bytes() != changed
