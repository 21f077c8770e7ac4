"""find_text answers in snippets grouped by clause, a page sized for a model's attention, and the tool
definitions every request carries stay small (the token cost of a review, on the real ILPA)."""

import json

import pytest
from conftest import CORPUS

from folio_desktop.agents import (
    create_reviewer_bridge,
    execute_tool_call,
    get_tool_definitions,
    to_anthropic_tools,
)
from folio_desktop.agents.paging import PAGED_WORDS, json_size
from folio_desktop.agents.projection import UNTRUSTED_WORDS
from folio_desktop.assistant.tooling import anthropic_tools_for
from folio_desktop.docx import DocxReviewer
from folio_desktop.docx.model.textkit import block_text_hash, text_hash, utf16_to_index

ILPA = CORPUS / "contract_ilpa_model_lpa_whole_of_fund_75p.docx"
SHALL_IN_ILPA = 510


@pytest.fixture(scope="module")
def ilpa():
    rev = DocxReviewer.open(ILPA, author="Claude")
    return rev, create_reviewer_bridge(rev)


def found(bridge, args) -> dict:
    envelope = execute_tool_call("find_text", args, bridge)
    assert envelope["ok"], envelope
    return envelope["result"]


def test_matches_come_as_snippets_grouped_by_clause(ilpa):
    rev, bridge = ilpa
    snapshot = rev.snapshot()
    result = found(bridge, {"query": "shall"})
    assert result["totalMatches"] == SHALL_IN_ILPA and result["truncated"] and result["nextOffset"] == 20
    groups = result["blocks"]
    ids = [g["blockId"] for g in groups]
    assert len(ids) == len(set(ids)) and sum(len(g["matches"]) for g in groups) == 20
    assert any(len(g["matches"]) > 1 for g in groups)  # a clause saying "shall" twice is one group
    for group in groups:
        block = snapshot.block(group["blockId"])
        assert group["blockTextHash"] == block_text_hash(block.text)
        assert group.get("displayLabel") == (block.display_label or None)
        occurrences = [m.get("occurrenceInBlock", 0) for m in group["matches"]]
        assert occurrences == list(range(occurrences[0], occurrences[0] + len(occurrences)))
        for match in group["matches"]:
            assert set(match) <= {"context", "range", "occurrenceInBlock"}  # no whole block, no repeated fields
            assert "shall" in match["context"].lower() and len(match["context"]) <= 2 * 40 + len("shall")
            rng = match["range"]
            start, end = utf16_to_index(block.text, rng["startOffset"]), utf16_to_index(block.text, rng["endOffset"])
            assert block.text[start:end].lower() == "shall" and rng["selectedTextHash"] == text_hash(block.text[start:end])
            assert rng["type"] == "textRange" and rng["story"] == "main" and rng["blockId"] == block.id
    assert any("displayLabel" in g for g in groups)


def test_a_range_from_a_snippet_targets_its_match_exactly():
    rev = DocxReviewer.open(ILPA, author="Claude")
    bridge = create_reviewer_bridge(rev)
    group = found(bridge, {"query": "shall", "offset": 7})["blocks"][0]
    match = group["matches"][0]
    summary = execute_tool_call("suggest_changes", {"operations": [
        {"type": "replaceRange", "range": match["range"], "replace": "must",
         "precondition": {"blockTextHash": group["blockTextHash"]}}]}, bridge)["result"]
    assert len(summary["applied"]) == 1 and summary["skipped"] == []
    [change] = [c for c in rev.get_changes() if c.type == "insertion"]
    assert change.text == "must" and change.block_id == group["blockId"]


def test_paging_by_offset_reaches_every_match_once(ilpa):
    _, bridge = ilpa
    seen, args, pages = [], {"query": "shall"}, 0
    while True:
        result = found(bridge, args)
        pages += 1
        assert result["totalMatches"] == SHALL_IN_ILPA
        seen += [(g["blockId"], m["range"]["startOffset"]) for g in result["blocks"] for m in g["matches"]]
        if not result["truncated"]:
            assert "nextOffset" not in result
            break
        assert result["nextOffset"] == len(seen)
        args["offset"] = result["nextOffset"]
    assert len(seen) == len(set(seen)) == SHALL_IN_ILPA and pages == 26
    # a bigger page when asked, still within the page budget
    wide = found(bridge, {"query": "shall", "maxMatches": 200})
    assert 20 < wide["nextOffset"] <= 200 and json_size(wide) <= 12_000


def test_find_shall_on_the_ilpa_costs_snippets_not_whole_blocks(ilpa):
    rev, bridge = ilpa
    snapshot = rev.snapshot()
    result = found(bridge, {"query": "shall"})
    size = json_size(result)
    whole_blocks = sum(len(snapshot.block(g["blockId"]).text) for g in result["blocks"])
    matches = sum(len(g["matches"]) for g in result["blocks"])
    assert size < 6_500, size  # ~1.6k tokens; it was 38,227 characters (109 matches, each repeating its block)
    assert size / matches < 320 and size < whole_blocks, (size, matches, whole_blocks)


def test_tool_definitions_stay_within_their_budget():
    """Every request carries the tools: with a 1,200-token prompt the first request stays under 4,000 tokens."""
    compact = lambda value: len(json.dumps(value, separators=(",", ":")).encode())  # noqa: E731 - as the SDK sends
    headless = anthropic_tools_for(create_reviewer_bridge(DocxReviewer.open(ILPA)))
    assert len(headless) == 13 and compact(headless) <= 10_000, compact(headless)
    everything = to_anthropic_tools(get_tool_definitions())
    assert compact(everything) <= 11_000, compact(everything)
    suggest = next(t for t in everything if t["name"] == "suggest_changes")
    assert compact(suggest) <= 5_000, compact(suggest)  # it was about 8,600
    # the rules shared by several tools are said once
    descriptions = " ".join(t["description"] for t in everything)
    assert descriptions.count(PAGED_WORDS) == 1 and descriptions.count(UNTRUSTED_WORDS) == 1
    assert descriptions.count("100,000") == 1
