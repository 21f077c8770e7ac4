"""The words still readable in a damaged package (docx/package/salvage.py): every damaged zip of the
corpus gives back its main document's paragraphs; an encrypted file gives nothing; a sound file gives
the same paragraphs the engine reads."""

from __future__ import annotations

import pytest
from conftest import CORPUS

from folio_desktop.docx import DocxReviewer
from folio_desktop.docx.errors import CorruptDocxError, EncryptedDocxError
from folio_desktop.docx.package.salvage import recoverable_paragraphs

BAD = CORPUS / "bad"


@pytest.mark.parametrize("path", sorted(BAD.glob("poi_*.docx")), ids=lambda p: p.name)
def test_a_damaged_zip_gives_back_its_words_and_an_encrypted_file_nothing(path):
    data = path.read_bytes()
    with pytest.raises((CorruptDocxError, EncryptedDocxError)) as refused:
        DocxReviewer.from_bytes(data)
    paragraphs = recoverable_paragraphs(data)
    if isinstance(refused.value, EncryptedDocxError):
        assert paragraphs == []
    else:
        assert paragraphs and any(p.strip() for p in paragraphs)


def test_the_truncated_contract_reads_as_its_letterhead():
    paragraphs = recoverable_paragraphs((BAD / "poi_truncated62886.docx").read_bytes())
    assert len(paragraphs) == 43 and paragraphs[1] == "DX IMPORTADORA  E  EXPORTADORA  LTDA"


def test_a_sound_file_reads_as_the_engine_reads_it():
    path = CORPUS / "contract_commonpaper_pilot_agreement.docx"
    paragraphs = {p for p in recoverable_paragraphs(path.read_bytes()) if p.strip()}
    body = [b.text for b in DocxReviewer.open(path).snapshot().blocks if b.text.strip() and b.table is None]
    assert len(body) > 40 and [text for text in body if text not in paragraphs] == []
