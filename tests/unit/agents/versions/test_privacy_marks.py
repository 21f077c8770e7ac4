"""Redlines that can go out anonymous: the anonymize-revisions and remove-revision-dates transforms
rename and undate every tracked change and comment in every part, while the reference's transform names
(remove-attribution, remove-timestamps) keep meaning the package metadata only. On real tracked corpus
documents and the redline of the two ILPA model agreements."""

from __future__ import annotations

import io
import re
import zipfile
from collections import Counter

import pytest
from conftest import CORPUS
from lxml import etree
from ooxml_validate import load_wml_schema, part_errors

from folio_desktop.agents.versions import privacy
from folio_desktop.agents.versions.cli import run as compare_cli
from folio_desktop.agents.versions.compare import compare_docx_versions
from folio_desktop.agents.versions.redline import generate_redline_docx, story_texts
from folio_desktop.docx import DocxReviewer

REPLIES = CORPUS / "superdoc_word_comments_replies_tracked.docx"  # people.xml, commentsExtensible, commentsIds
RPR_CHANGES = CORPUS / "adeu_word_rprchange_comments.docx"
ILPA_V1 = CORPUS / "wild" / "UseJunior+safe-docx" / "tests" / "test_documents" / "redline" / \
    "ILPA-Model-Limited-Parnership-Agreement-Deal-By-Deal_v1.docx"
ILPA_V2 = CORPUS / "contract_ilpa_model_lpa_whole_of_fund_75p.docx"
ANONYMOUS = ["anonymize-revisions", "remove-revision-dates"]
W15 = "http://schemas.microsoft.com/office/word/2012/wordml"


def xml_parts(data: bytes) -> dict[str, etree._Element]:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return {n: etree.fromstring(z.read(n)) for n in z.namelist() if n.endswith(".xml") and n != "docProps/core.xml"}


def marks(data: bytes) -> Counter:
    """What names and dates people: every author, initials and account attribute value, every date."""
    found: Counter = Counter()
    for root in xml_parts(data).values():
        for el in root.iter():
            for name, value in el.attrib.items():
                local = etree.QName(name).localname
                if local in ("author", "initials", "providerId", "userId"):
                    found[(local, value)] += 1
                elif local in ("date", "dateUtc"):
                    found["dates"] += 1
    return found


def resolved_texts(data: bytes, accept: bool) -> dict:
    rev = DocxReviewer.from_bytes(data)
    rev.accept_all() if accept else rev.reject_all()
    return story_texts(rev)


@pytest.mark.parametrize("path", [REPLIES, RPR_CHANGES], ids=lambda p: p.stem)
def test_a_tracked_document_goes_out_with_every_mark_by_author_and_undated(path):
    data = path.read_bytes()
    before = marks(data)
    assert ("author", "Author") not in before and before["dates"] > 10
    named = sum(n for key, n in before.items() if key != "dates" and key[0] == "author")
    out, report = privacy.apply_to_package(data, {"transforms": ANONYMOUS})
    after = marks(out)
    assert set(after) == {("author", "Author"), ("initials", "A")}, after
    assert after[("author", "Author")] == named
    assert report == {"appliedTransforms": ANONYMOUS, "removedMetadataProperties": [],
                      "authorsReplaced": named - 1,  # the people part's one name counts as a person
                      "initialsReplaced": sum(n for k, n in before.items() if k != "dates" and k[0] == "initials"),
                      "peopleReplaced": 1, "datesRemoved": before["dates"]}
    people = xml_parts(out)["word/people.xml"]
    assert [p.get(f"{{{W15}}}author") for p in people] == ["Author"] and not len(people[0])
    # it opens as before: the same changes and comments, by "Author"; accepting and rejecting read the same
    old, new = DocxReviewer.from_bytes(data), DocxReviewer.from_bytes(out)
    assert [(c.type, c.text) for c in new.get_changes()] == [(c.type, c.text) for c in old.get_changes()]
    assert {c.author for c in new.get_changes()} == {"Author"}
    assert [c.text for c in new.all_comments()] == [c.text for c in old.all_comments()]
    for accept in (True, False):
        assert resolved_texts(out, accept) == resolved_texts(data, accept)
    schema = load_wml_schema()
    with zipfile.ZipFile(io.BytesIO(out)) as z:
        for part in ("word/document.xml", "word/comments.xml"):
            assert part_errors(schema, z.read(part)) == []
        assert z.namelist() == zipfile.ZipFile(path).namelist()


def test_the_reference_names_still_strip_only_the_files_properties():
    data = REPLIES.read_bytes()
    out, report = privacy.apply_to_package(data, ["remove-attribution", "remove-timestamps"])
    assert report == {"appliedTransforms": ["remove-attribution", "remove-timestamps"],
                      "removedMetadataProperties": ["creator", "lastModifiedBy", "created", "modified"]}
    assert marks(out) == marks(data)
    with pytest.raises(privacy.InvalidPrivacyOptionsError, match="anonymize-revisions, remove-revision-dates"):
        privacy.apply_to_package(data, ["anonymise"])
    diff = compare_docx_versions(data, data, privacy=["remove-revision-dates", "anonymize-revisions"])
    assert diff["privacyReport"] == {"appliedTransforms": ANONYMOUS, "removedMetadataProperties": [],
                                     "authorsReplaced": 0, "initialsReplaced": 0, "peopleReplaced": 0,
                                     "datesRemoved": 0}


def test_the_ilpa_redline_goes_out_anonymous_and_still_accepts_and_rejects():
    base, revised = ILPA_V1.read_bytes(), ILPA_V2.read_bytes()
    named = generate_redline_docx(base, revised, author="Jane Lawyer")["buffer"]
    count = marks(named)[("author", "Jane Lawyer")]
    assert count > 300 and marks(named)["dates"] >= count
    result = generate_redline_docx(base, revised, author="Jane Lawyer",
                                   privacy={"transforms": ["remove-attribution", *ANONYMOUS]})
    out = result["buffer"]
    assert set(marks(out)) == {("author", "Author")} and marks(out)[("author", "Author")] == count
    report = result["privacyReport"]
    assert report["authorsReplaced"] == count and report["datesRemoved"] == marks(named)["dates"]
    assert not re.search(rb"Jane Lawyer", b"".join(etree.tostring(r) for r in xml_parts(out).values()))
    for accept in (True, False):  # as the named redline does (which the engine checked against both versions)
        assert resolved_texts(out, accept) == resolved_texts(named, accept)
        assert resolved_texts(out, accept)["main"] == resolved_texts(revised if accept else base, True)["main"]


def test_the_compare_command_names_and_applies_the_transforms(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "1000")  # help on one line per option, so no name is hyphenated
    assert compare_cli(["--help"]) == 0
    shown = " ".join(capsys.readouterr().out.split())
    assert "anonymize-revisions names every tracked change and comment \"Author\"" in shown
    assert "remove-revision-dates drops their dates" in shown
    target = tmp_path / "out.docx"
    err = io.StringIO()
    assert compare_cli([str(REPLIES), str(RPR_CHANGES), "-o", str(target), "--author", "Jane Lawyer",
                        "--privacy", *ANONYMOUS], io.StringIO(), err) == 0, err.getvalue()
    after = marks(target.read_bytes())
    assert {key[0] for key in after} <= {"author", "initials"} and ("author", "Jane Lawyer") not in after
