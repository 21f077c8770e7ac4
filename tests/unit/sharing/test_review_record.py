"""A review saved by `folio-desktop mcp` says which document it is a review of (sharing/review_record.py):
two custom document properties that survive a save and reopen, leave the document's own properties
alone, and decide where the next run starts."""

import shutil
import zipfile

import pytest
from conftest import CORPUS

from folio_desktop.docx import DocxReviewer
from folio_desktop.docx.package.files import file_digest
from folio_desktop.sharing.review_record import (
    DIGEST_PROPERTY,
    NAME_PROPERTY,
    ReviewRefused,
    record_source,
    recorded_source,
    review_start,
)

PILOT = CORPUS / "contract_commonpaper_pilot_agreement.docx"  # no custom properties
LIBREOFFICE = CORPUS / "contract_docx4j_individual_cla_libreoffice.docx"  # seven of its own


def reviewed(src, out, name="pilot.docx", digest="ab" * 32):
    rev = DocxReviewer.open(src)
    record_source(rev.document.package, name, digest)
    rev.save(out)
    return out


def test_the_record_is_added_as_custom_properties_and_survives_a_save_and_reopen(tmp_path):
    out = reviewed(PILOT, tmp_path / "out.docx")
    assert recorded_source(DocxReviewer.open(out).document.package) == ("pilot.docx", "ab" * 32)
    with zipfile.ZipFile(out) as z:
        custom = z.read("docProps/custom.xml").decode()
        assert 'Target="docProps/custom.xml"' in z.read("_rels/.rels").decode()
        assert "custom-properties+xml" in z.read("[Content_Types].xml").decode()
    assert f'pid="2" name="{NAME_PROPERTY}"' in custom and f'pid="3" name="{DIGEST_PROPERTY}"' in custom
    assert "<vt:lpwstr>pilot.docx</vt:lpwstr>" in custom
    assert str(tmp_path) not in custom and str(CORPUS) not in custom  # a name and a digest, no folder


def test_a_documents_own_custom_properties_are_kept_and_a_second_record_replaces_the_first(tmp_path):
    first = reviewed(LIBREOFFICE, tmp_path / "first.docx", "a.docx", "11" * 32)
    second = reviewed(first, tmp_path / "second.docx", "b.docx", "22" * 32)
    with zipfile.ZipFile(second) as z:
        custom = z.read("docProps/custom.xml").decode()
    assert custom.count(NAME_PROPERTY + '"') == 1 and 'name="Company"><vt:lpwstr>Plutext Pty Ltd' in custom
    assert f'pid="9" name="{NAME_PROPERTY}"' in custom and f'pid="10" name="{DIGEST_PROPERTY}"' in custom
    assert 'pid="11"' not in custom  # numbered after the document's own 2..8, once
    assert recorded_source(DocxReviewer.open(second).document.package) == ("b.docx", "22" * 32)


def test_recording_what_is_already_recorded_changes_nothing(tmp_path):
    out = reviewed(PILOT, tmp_path / "out.docx")
    rev = DocxReviewer.open(out)
    record_source(rev.document.package, "pilot.docx", "ab" * 32)
    assert not rev.document.package.dirty


def test_where_a_review_starts(tmp_path):
    src = tmp_path / "pilot.docx"
    shutil.copy(PILOT, src)
    digest = file_digest(src)
    out = tmp_path / "pilot (reviewed).docx"
    assert review_start(str(src), str(out), digest) == str(src)  # nothing saved yet
    reviewed(src, out, "pilot.docx", digest)
    assert review_start(str(src), str(out), digest) == str(out)  # an earlier run's review: carry on
    assert review_start(str(src), str(src), digest) == str(src)  # saving over the input: it holds the edits

    with pytest.raises(ReviewRefused, match="review of an earlier version of pilot.docx.*--overwrite"):
        review_start(str(src), str(out), "cd" * 32)  # the input changed since
    assert review_start(str(src), str(out), "cd" * 32, overwrite=True) == str(src)

    other = tmp_path / "other.docx"
    reviewed(LIBREOFFICE, other, "cla.docx", "ef" * 32)
    with pytest.raises(ReviewRefused, match=r"review of another document \(cla.docx\), not of pilot.docx"):
        review_start(str(src), str(other), digest)

    plain = tmp_path / "plain.docx"
    shutil.copy(LIBREOFFICE, plain)
    with pytest.raises(ReviewRefused, match="is not a review of pilot.docx.*--save-to.*--overwrite"):
        review_start(str(src), str(plain), digest)
    junk = tmp_path / "junk.docx"
    junk.write_bytes(b"not a zip")
    with pytest.raises(ReviewRefused, match="could not be read as a review"):
        review_start(str(src), str(junk), digest)
