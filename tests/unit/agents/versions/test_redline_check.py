"""The redline's own check and its way down to coarser redlines (redline.py): what _differences reports
for a buffer, how _escalate makes failing stories coarser and when it gives up, and the defaults of
redline_reviewers. Written to kill the mutants scripts/mutation.py left alive in redline.py."""

from __future__ import annotations

import io
import re
import zipfile
from types import SimpleNamespace

import pytest
from docbuilder import build_docx, p

from folio_desktop.agents.versions import redline as redline_mod
from folio_desktop.agents.versions.compare import diff_reviewers, open_view
from folio_desktop.agents.versions.redline import (
    _differences,
    _escalate,
    _story_state,
    _wanted,
    generate_redline_docx,
    redline_reviewers,
)
from folio_desktop.agents.versions.redline_errors import RedlineVerificationError
from folio_desktop.docx import DocxReviewer

REJECTED = "rejecting every change did not give the earlier text"
ACCEPTED = "accepting every change did not give the later text"
BASE = build_docx(p("The Supplier shall deliver the goods.") + p("Payment is due in thirty days."))
REVISED = build_docx(p("The Supplier must deliver the goods.") + p("Payment is due in thirty days."))


def texts(data: bytes) -> dict:
    """What the check compares per story: the blocks' text and the tables' shapes."""
    return _story_state(DocxReviewer.from_bytes(data))


def differences(buffer: bytes, base: dict, revised: dict, mapping: dict, skip: set) -> dict:
    """_differences with the revised states under the base's keys, as redline_reviewers passes them."""
    return _differences(buffer, base, _wanted(revised, mapping, skip), skip)


# -- _differences: what a buffer gets wrong, story by story ----------------------------------------------

def test_a_buffer_that_is_both_sides_has_no_differences():
    assert differences(BASE, texts(BASE), texts(BASE), {}, set()) == {}


def test_accepting_short_of_the_revised_text_is_named_for_its_story():
    assert differences(BASE, texts(BASE), texts(REVISED), {}, set()) == {"main": ACCEPTED}


def test_a_rejection_short_of_the_base_wins_over_the_acceptance():
    # the buffer is the revised document: rejecting gives the revised text, not the base
    assert differences(REVISED, texts(BASE), texts(BASE), {}, set()) == {"main": REJECTED}


def test_a_skipped_story_is_not_checked_on_acceptance():
    assert differences(BASE, texts(BASE), texts(REVISED), {}, {"main"}) == {}


def test_a_story_the_base_lacks_is_reported_without_a_key():
    revised = dict(texts(BASE), **{"footnote:7": (["A note."], None)})
    assert differences(BASE, texts(BASE), revised, {}, set()) == {None: ACCEPTED}
    base_only = dict(texts(BASE), **{"footnote:3": (["Gone."], None)})  # rejecting does not give it back
    assert differences(BASE, base_only, base_only, {}, set()) == {"footnote:3": REJECTED}


def test_a_header_one_side_lacks_reads_as_an_empty_one():
    empty_header = dict(texts(BASE), **{"header:rId9": ([], [])})
    assert differences(BASE, texts(BASE), empty_header, {}, set()) == {}
    assert differences(BASE, empty_header, texts(BASE), {}, set()) == {}
    worded = dict(texts(BASE), **{"header:rId9": (["Draft"], [])})
    assert differences(BASE, texts(BASE), worded, {}, set()) == {"header:rId9": ACCEPTED}  # its own key
    assert differences(BASE, texts(BASE), worded, {"header:rId9": None}, set()) == {}  # shown nowhere


def test_imported_notes_are_compared_under_their_new_key():
    note = (["A note."], None)
    # the buffer has footnote:2 (what footnote:9 of the revised document became): it must be compared with it
    buffer_texts = texts(BASE)
    rev = dict(buffer_texts, **{"footnote:9": note})
    got = differences(BASE, buffer_texts, rev, {"footnote:9": "footnote:2"}, set())
    assert got == {None: ACCEPTED}  # footnote:2 is missing from the buffer, and the base has no such key
    assert differences(BASE, buffer_texts, rev, {"footnote:9": "main"}, set()) == {"main": ACCEPTED}


# -- _escalate: paragraphs, then whole stories, then give up -----------------------------------------------

def plans(*keys):
    return [SimpleNamespace(key=k) for k in keys]


def test_a_failing_story_goes_to_regions_then_to_the_whole_story_then_fails():
    scopes, reasons = {}, {}
    assert _escalate(scopes, reasons, {"main": "first"}, plans("main", "header:rId1"))
    assert scopes == {"main": "regions"} and reasons == {"main": "first"}
    assert _escalate(scopes, reasons, {"main": "second"}, plans("main", "header:rId1"))
    assert scopes == {"main": "story"} and reasons == {"main": "first"}  # the first reason is the one kept
    assert not _escalate(scopes, reasons, {"main": "third"}, plans("main", "header:rId1"))
    assert scopes == {"main": "story"}


def test_a_failure_tied_to_no_story_makes_every_story_coarser():
    scopes, reasons = {"main": "story"}, {}
    assert _escalate(scopes, reasons, {None: "why"}, plans("main", "header:rId1", "footnote:2"))
    assert scopes == {"main": "story", "header:rId1": "regions", "footnote:2": "regions"}
    assert reasons == {"header:rId1": "why", "footnote:2": "why"}
    assert _escalate(scopes, reasons, {None: "why"}, plans("main", "header:rId1", "footnote:2"))
    assert set(scopes.values()) == {"story"}
    assert not _escalate(scopes, reasons, {None: "why"}, plans("main", "header:rId1", "footnote:2"))


def test_a_story_at_its_coarsest_fails_even_when_others_could_go_on():
    scopes, reasons = {"main": "story"}, {}
    assert not _escalate(scopes, reasons, {"main": "x", "header:rId1": "y"}, plans("main", "header:rId1"))


# -- redline_reviewers ------------------------------------------------------------------------------------

def test_the_default_author_is_folio_compare():
    result = redline_reviewers(open_view(BASE, "final", "folio compare"), open_view(REVISED, "final"))
    xml = zipfile.ZipFile(io.BytesIO(result["buffer"])).read("word/document.xml").decode()
    assert set(re.findall(r'w:author="([^"]*)"', xml)) == {"folio compare"}
    assert result["fallbacks"] == [] and result["unprocessedStories"] == []


def test_a_redline_that_never_verifies_is_refused_with_the_story_named(monkeypatch):
    monkeypatch.setattr(redline_mod, "_differences", lambda *a: {"main": ACCEPTED})
    with pytest.raises(RedlineVerificationError) as err:
        generate_redline_docx(BASE, REVISED)
    assert str(err.value) == ("The redline of the main story could not be verified even when written whole "
                              f"({ACCEPTED}); nothing was returned.")


def fail_the_first_check(monkeypatch) -> None:
    """The redline's first check says the main story is wrong; later checks are the real one."""
    calls = []
    real = redline_mod._differences

    def fails_once(*args):
        calls.append(1)
        return {"main": "made up"} if len(calls) == 1 else real(*args)
    monkeypatch.setattr(redline_mod, "_differences", fails_once)


def test_a_story_redone_coarser_is_reported_with_its_scope_and_reason(monkeypatch):
    fail_the_first_check(monkeypatch)
    result = generate_redline_docx(BASE, REVISED)
    assert [(f["story"], f["scope"], f["reason"], f["regions"], f["blocks"]) for f in result["fallbacks"]] == [
        ("main", "regions", "made up", 1, 2)]
    accepted = DocxReviewer.from_bytes(result["buffer"])
    accepted.accept_all()
    assert _story_state(accepted) == texts(REVISED)



def test_a_redo_without_reopen_starts_from_the_base_as_it_was(monkeypatch):
    """redline_reviewers called with reviewers alone keeps the base's bytes before the first attempt and
    redoes the story on a fresh copy of them: the redo must not start from the half-written base."""
    fail_the_first_check(monkeypatch)
    result = redline_reviewers(open_view(BASE, "final", "folio compare"), open_view(REVISED, "final"))
    assert [f["scope"] for f in result["fallbacks"]] == ["regions"]
    for accept, want in ((True, REVISED), (False, BASE)):
        resolved = DocxReviewer.from_bytes(result["buffer"])
        resolved.accept_all() if accept else resolved.reject_all()
        assert _story_state(resolved) == texts(want)


def test_the_redline_takes_the_diffs_answers_on_unchanged_markup():
    """The memo a version diff filled is what the redline's formatting pass reads: a pair it says is the
    same markup gets no formatting revision even where the markup differs (so the memo is really used),
    and without the memo the bold is found."""
    base = build_docx(p("The Supplier shall deliver the goods."))
    revised = build_docx(p("The Supplier shall deliver the goods.", rpr="<w:b/>"))
    old, new = open_view(base, "final", "folio compare"), open_view(revised, "final")
    memo: dict = {}
    diff_reviewers(old, new, memo=memo)
    assert [hit[2] for hit in memo.values()] == [False]
    assert redline_reviewers(old, new, memo=memo)["applied"][0]["type"] == "formatRange"
    old, new = open_view(base, "final", "folio compare"), open_view(revised, "final")
    memo = {}
    diff_reviewers(old, new, memo=memo)
    memo.update({key: (b, r, True) for key, (b, r, _) in memo.items()})  # told the markup is the same
    assert redline_reviewers(old, new, memo=memo)["applied"] == []


def test_a_story_whose_tables_cannot_be_planned_row_by_row_is_planned_by_regions_at_once(monkeypatch):
    """The planner gives up on a story's tables (RedlineVerificationError from _plan_story): that story is
    planned coarse straight away, one step down (regions, not the whole story), and the summary says why."""
    def cannot_plan(plan, base_root, rev_root):
        raise RedlineVerificationError(f"The {plan.key} story's tables could not be planned.")
    monkeypatch.setattr(redline_mod, "_plan_story", cannot_plan)
    result = generate_redline_docx(BASE, REVISED)
    assert [(f["story"], f["scope"], f["reason"]) for f in result["fallbacks"]] == [
        ("main", "regions", "its tables could not be redlined row by row")]
    for accept, want in ((True, REVISED), (False, BASE)):
        resolved = DocxReviewer.from_bytes(result["buffer"])
        resolved.accept_all() if accept else resolved.reject_all()
        assert _story_state(resolved) == texts(want)
