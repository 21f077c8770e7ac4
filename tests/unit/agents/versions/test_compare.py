"""Version comparison (spec §9.1, §9.2) and the privacy transforms (§9.4), on built and corpus documents."""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass

import pytest
from conftest import CORPUS
from docbuilder import build_docx, p
from package_surgery import with_core

from folio_desktop.agents.versions import privacy
from folio_desktop.agents.versions.compare import (
    Budget,
    InvalidVersionComparisonOptionsError,
    align,
    compare_docx_versions,
    format_version_diff_for_llm,
)
from folio_desktop.docx import NotADocxError


def doc(*paragraphs) -> bytes:
    return build_docx("".join(p(*x) if isinstance(x, tuple) else p(x) for x in paragraphs))


# -- the exact text the model reads ------------------------------------------------------------------

def test_format_version_diff_for_llm_exact_output():
    long_tail = "and the remaining obligations of the parties continue in full force and effect"
    base = with_core(doc(("Heading paragraph.", "10000001"),
                         (f"The Supplier shall deliver the goods {long_tail}.", "10000002"),
                         ("This clause will be deleted entirely.", "10000003"),
                         ("Payment is due in thirty days.", "10000004"),
                         ("Signed.", "10000005")),
                     "<dc:title>Draft</dc:title><dc:creator>Alice</dc:creator><cp:revision>1</cp:revision>")
    revised = with_core(doc(("Heading paragraph.", "10000001"),
                            (f"The Supplier must deliver the goods {long_tail}.", "10000002"),
                            ("Payment is due in thirty days.", "10000004", "", "<w:b/>"),
                            ("A brand new clause.", "10000006"),
                            ("Signed.", "10000005")),
                        "<dc:title>Final</dc:title><dc:creator>Bob</dc:creator><cp:revision>2</cp:revision>")
    diff = compare_docx_versions(base, revised, include=["text", "formatting", "metadata"],
                                 privacy={"transforms": ["remove-attribution"]})
    assert format_version_diff_for_llm(diff) == "\n".join([
        "Version diff: 1 added, 1 deleted, 1 modified, 1 format-changed, 0 moved, 2 metadata-changed, 2 unchanged",
        "Privacy transforms: remove-attribution",
        "Removed metadata fields: creator",
        "~ [10000002] modified: The Supplier [-shall-]{+must+} deliver the goods and the rem…inue in full force and effect.",
        "- [10000003] deleted: This clause will be deleted entirely.",
        "~ [10000004] format changed (bold): Payment is due in thirty days.",
        "+ [10000006] added: A brand new clause.",
        '~ metadata.title: "Draft" -> "Final"',
        '~ metadata.revision: "1" -> "2"',
    ])
    assert diff["summaryCounts"] == {"added": 1, "deleted": 1, "modified": 1, "formatChanged": 1, "moved": 0,
                                     "metadataChanged": 2, "unchanged": 2}
    modified = diff["changes"][0]
    assert modified["baseHandle"] == {"story": {"type": "main"}, "blockId": "10000002"}
    assert [s["type"] for s in modified["segments"]] == ["equal", "del", "ins", "equal"]
    assert diff["stories"][0]["baseStory"] == {"type": "main"} and diff["stories"][0]["summaryCounts"]["added"] == 1


def test_without_privacy_or_metadata_the_header_line_stands_alone():
    diff = compare_docx_versions(doc(("Only line.", "10000001")), doc(("Only line.", "10000001")))
    assert format_version_diff_for_llm(diff) == "Version diff: 0 added, 0 deleted, 0 modified, 0 format-changed, " \
                                                "0 moved, 1 unchanged"
    assert diff["privacyReport"] == {"appliedTransforms": [], "removedMetadataProperties": []}


# -- alignment ------------------------------------------------------------------------------------

def test_paraids_align_blocks_whose_text_changed_completely():
    base = doc(("First.", "10000001"), ("Second original wording.", "10000002"))
    revised = doc(("Second, rewritten from scratch.", "10000002"))
    diff = compare_docx_versions(base, revised)
    assert [(c["type"], c.get("baseHandle", {}).get("blockId")) for c in diff["changes"]] == \
        [("deleted", "10000001"), ("modified", "10000002")]
    # without paraIds the gap is zipped positionally instead
    plain = compare_docx_versions(doc("First.", "Second original wording."), doc("Second, rewritten from scratch."))
    assert [c["type"] for c in plain["changes"]] == ["modified", "deleted"]


def test_without_paraids_text_lcs_pairs_what_positional_ids_cannot():
    base = doc("First paragraph stays.", "Second paragraph stays.", "Third paragraph stays.")
    revised = doc("A new opening paragraph.", "First paragraph stays.", "Second paragraph stays.", "Third paragraph stays.")
    diff = compare_docx_versions(base, revised)
    assert diff["summaryCounts"] == {"added": 1, "deleted": 0, "modified": 0, "formatChanged": 0, "moved": 0,
                                     "metadataChanged": 0, "unchanged": 3}
    assert diff["changes"][0]["type"] == "added" and diff["changes"][0]["text"] == "A new opening paragraph."


@dataclass
class B:
    id: str
    text: str


def test_lcs_budget_falls_back_to_unique_texts_then_positional_zip():
    base = [B("seq-0001", "X"), B("seq-0002", "A"), B("seq-0003", "B")]
    revised = [B("seq-0001", "A"), B("seq-0002", "B")]
    assert align(base, revised, Budget()) == [("del", 0, None), ("pair", 1, 0), ("pair", 2, 1)]
    spent = Budget(cells=5)  # 3 x 2 cells do not fit: the texts found once on each side still anchor
    assert align(base, revised, spent) == [("del", 0, None), ("pair", 1, 0), ("pair", 2, 1)]
    assert spent.cells == 5
    base = [B("seq-0001", "X"), B("seq-0002", "A"), B("seq-0003", "A")]
    revised = [B("seq-0001", "A"), B("seq-0002", "A")]
    # no text is found once on each side: the gap is zipped, the excess deleted
    assert align(base, revised, spent) == [("pair", 0, 0), ("pair", 1, 1), ("del", 2, None)]


def test_the_budget_is_shared_across_the_stories_of_one_comparison():
    budget = Budget(cells=7)
    align([B("seq-1", "a"), B("seq-2", "b")], [B("seq-1", "b"), B("seq-2", "c"), B("seq-3", "a")], budget)
    assert budget.cells == 1


def test_no_op_compare_on_a_real_contract():
    data = (CORPUS / "folio" / "contract-stella-style.docx").read_bytes()
    diff = compare_docx_versions(data, data, include=["text", "formatting", "metadata"])
    assert diff["changes"] == [] and diff["metadataChanges"] == []
    assert diff["summaryCounts"]["unchanged"] > 50


def test_pending_redlines_count_as_applied():
    data = (CORPUS / "superdoc_word_comments_replies_tracked.docx").read_bytes()
    from folio_desktop.docx import DocxReviewer

    accepted = DocxReviewer.from_bytes(data)
    accepted.accept_all()
    assert compare_docx_versions(data, accepted.to_bytes())["changes"] == []
    rejected = DocxReviewer.from_bytes(data)
    rejected.reject_all()
    assert compare_docx_versions(rejected.to_bytes(), data)["summaryCounts"]["modified"] == 2


# -- scopes, moves, formatting --------------------------------------------------------------------

def test_scopes():
    base = doc(("Keep me.", "10000001"), ("Bold later.", "10000002"), ("Gone soon.", "10000003"))
    revised = doc(("Keep me!", "10000001"), ("Bold later.", "10000002", "", "<w:b/>"))
    assert [c["type"] for c in compare_docx_versions(base, revised, include=["formatting"])["changes"]] == \
        ["formatChanged"]
    assert [c["type"] for c in compare_docx_versions(base, revised, include=["text"])["changes"]] == \
        ["modified", "deleted"]
    only_meta = compare_docx_versions(base, revised, include=["metadata"])
    assert only_meta["changes"] == [] and only_meta["metadataChanges"] == []
    for bad in ([], ["text", "typography"], "text", ["nonsense"]):
        with pytest.raises(InvalidVersionComparisonOptionsError, match="^Version comparison requires at least one "
                                                                        "recognized scope$"):
            compare_docx_versions(base, revised, include=bad)


def test_moves_need_three_words_and_pair_fifo():
    anchors = [(f"Anchor paragraph {n}.", f"3000000{n}") for n in range(4)]
    base = doc(("Intro.", "10000001"), ("The same moved words.", "10000002"), ("The same moved words.", "10000003"),
               ("Two words.", "10000004"), *anchors)
    revised = doc(("Intro.", "10000001"), *anchors, ("The same moved words.", "20000002"),
                  ("The same moved words.", "20000003"), ("Two words.", "20000004"))
    diff = compare_docx_versions(base, revised)
    moves = [(c["type"], c["blockId"], c.get("moveGroupId")) for c in diff["changes"] if "moveGroupId" in c]
    assert moves == [("movedFrom", "10000002", 1), ("movedFrom", "10000003", 2),
                     ("movedTo", "20000002", 1), ("movedTo", "20000003", 2)]
    assert diff["summaryCounts"]["moved"] == 2
    assert {c["type"] for c in diff["changes"] if c["text"] == "Two words."} == {"added", "deleted"}
    text = format_version_diff_for_llm(diff)
    assert "< [10000002] moved away (move 1): The same moved words." in text
    assert "> [20000003] moved here (move 2): The same moved words." in text


def test_format_only_changes_list_properties_in_fixed_order():
    base = doc(("Plain words here.", "10000001"))
    revised = doc(("Plain words here.", "10000001", "", '<w:i/><w:b/><w:color w:val="FF0000"/><w:sz w:val="28"/>'))
    diff = compare_docx_versions(base, revised)
    assert diff["changes"][0]["changedProperties"] == ["bold", "italic", "fontSizePt", "color"]
    assert diff["summaryCounts"]["formatChanged"] == 1


def test_one_sided_stories_and_metadata_absent_is_none():
    base = (CORPUS / "folio" / "authored-empty-paragraph.docx").read_bytes()
    revised = (CORPUS / "folio" / "header-vml-emf.docx").read_bytes()
    diff = compare_docx_versions(base, revised, include=["text", "metadata"])
    assert any(s["baseStory"] is None and s["revisedStory"]["type"] == "header" for s in diff["stories"])
    built = compare_docx_versions(doc("a"), with_core(doc("a"), "<dc:subject>S</dc:subject>"), include=["metadata"])
    assert built["metadataChanges"] == [{"property": "subject", "baseValue": None, "revisedValue": "S"}]


def test_bad_input_raises_the_engines_errors():
    with pytest.raises(NotADocxError):
        compare_docx_versions(b"not a zip at all", doc("a"))


# -- privacy ----------------------------------------------------------------------------------------

def test_privacy_on_a_diff_drops_and_recounts():
    base = with_core(doc("a"), "<dc:creator>A</dc:creator><dcterms:created>2020-01-01T00:00:00Z</dcterms:created>")
    revised = with_core(doc("a"), "<dc:creator>B</dc:creator><dcterms:created>2021-01-01T00:00:00Z</dcterms:created>")
    diff = compare_docx_versions(base, revised, include=["metadata"],
                                 privacy=["remove-timestamps", "remove-attribution", "remove-timestamps"])
    assert diff["metadataChanges"] == [] and diff["summaryCounts"]["metadataChanged"] == 0
    assert diff["privacyReport"] == {"appliedTransforms": ["remove-attribution", "remove-timestamps"],
                                     "removedMetadataProperties": ["creator", "created"]}
    with pytest.raises(privacy.InvalidPrivacyOptionsError, match="unrecognized transform"):
        compare_docx_versions(base, revised, privacy={"transforms": ["remove-everything"]})


def test_privacy_on_a_package_rewrites_only_core_xml():
    data = with_core(doc("a"), "<dc:title>T</dc:title><dc:creator>C</dc:creator><cp:lastModifiedBy>L</cp:lastModifiedBy>",
                     name="DocProps/Core.XML")
    out, report = privacy.apply_to_package(data, {"transforms": ["remove-attribution"]})
    assert report == {"appliedTransforms": ["remove-attribution"], "removedMetadataProperties": ["creator", "lastModifiedBy"]}
    with zipfile.ZipFile(io.BytesIO(data)) as a, zipfile.ZipFile(io.BytesIO(out)) as b:
        assert a.namelist() == b.namelist()
        for name in a.namelist():
            if name != "DocProps/Core.XML":
                assert a.read(name) == b.read(name)
        core = b.read("DocProps/Core.XML")
    assert core.startswith(b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>')
    assert b"<dc:title>T</dc:title>" in core and b"creator" not in core and b"lastModifiedBy" not in core
    again, report = privacy.apply_to_package(out, ["remove-attribution"])
    assert again is out and report["removedMetadataProperties"] == []
    plain = doc("a")
    assert privacy.apply_to_package(plain, ["remove-timestamps"])[0] is plain


def test_privacy_archive_limits(monkeypatch):
    with pytest.raises(privacy.FolioDocumentPrivacyArchiveError) as err:
        privacy.apply_to_package(b"garbage", ["remove-attribution"])
    assert err.value.reason == "load-failed"
    many = io.BytesIO()
    with zipfile.ZipFile(many, "w") as z:
        for i in range(privacy.MAX_ENTRIES + 1):
            z.writestr(f"f{i}", b"")
    with pytest.raises(privacy.FolioDocumentPrivacyArchiveError) as err:
        privacy.apply_to_package(many.getvalue(), ["remove-attribution"])
    assert err.value.reason == "too-many-entries"
    data = with_core(doc("a"), "<dc:creator>" + "x" * 2000 + "</dc:creator>")
    monkeypatch.setattr(privacy, "MAX_CORE_BYTES", 1000)
    with pytest.raises(privacy.FolioDocumentPrivacyArchiveError) as err:
        privacy.apply_to_package(data, ["remove-attribution"])
    assert err.value.reason == "core-properties-too-large"
    monkeypatch.setattr(privacy, "MAX_INPUT_BYTES", 100)
    with pytest.raises(privacy.FolioDocumentPrivacyArchiveError) as err:
        privacy.apply_to_package(data, ["remove-attribution"])
    assert err.value.reason == "input-too-large"
