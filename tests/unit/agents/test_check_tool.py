"""check_document, this project's own tool beyond the reference's 16 (issue 30, surfaces): Claude gets the
contract checks' findings with their clause numbers through the real model loop, a page at a time within
the read budget with totals and a cursor; wrong arguments are refused in words."""

from __future__ import annotations

import json

from conftest import CORPUS, err, ok
from planted_contract import PLACEHOLDER_BLOCK, TERM_BLOCK, planted_contract

from folio_desktop.agents import create_reviewer_bridge, execute_tool_call, get_tool_definitions
from folio_desktop.agents.paging import PAGE_BUDGET, json_size
from folio_desktop.docx import DocxReviewer

ILPA = CORPUS / "contract_ilpa_model_lpa_whole_of_fund_75p.docx"


def test_claude_calls_check_document_through_the_loop_and_reads_findings_by_clause():
    from fake_messages_api import FakeMessagesAPI, Reply, Text, ToolUse

    from folio_desktop.assistant import AssistantSettings, ModelLoop
    from folio_desktop.assistant.tooling import anthropic_tools_for, tool_runner

    bridge = create_reviewer_bridge(DocxReviewer.from_bytes(planted_contract()))
    with FakeMessagesAPI() as api:
        api.script(Reply([ToolUse("check_document", {})], stop_reason="tool_use"),
                   Reply([Text("Clause 2 has a blank; clause 3 uses Service Credits undefined.")]))
        settings = AssistantSettings(api_key="k", base_url=api.base_url, model="claude-sonnet-5-5")
        result = ModelLoop(settings, tool_runner(bridge), anthropic_tools_for(bridge)).run_turn("Is it ready?")
        assert result.status == "completed"
        offered = {t["name"]: t for t in api.requests[0].json["tools"]}
        answer = api.requests[1].json["messages"][-1]["content"][0]
    assert "folio-desktop's own" in offered["check_document"]["description"]
    assert not answer.get("is_error")
    report = json.loads(answer["content"])
    found = {(f["kind"], f["text"]): f for f in report["findings"]}
    assert found[("placeholder", "[DATE]")]["displayLabel"] == "2."
    assert found[("placeholder", "[DATE]")]["blockId"] == PLACEHOLDER_BLOCK
    assert found[("undefinedTerm", "Service Credits")]["displayLabel"] == "3."
    assert found[("brokenCrossReference", "Section 9")]["blockId"] == TERM_BLOCK
    assert report["counts"] == {"placeholder": 1, "undefinedTerm": 1, "brokenCrossReference": 1}
    assert report["totalFindings"] == 3 and report["truncated"] is False


def test_paging_by_offset_reaches_every_finding_once_within_the_budget():
    bridge = create_reviewer_bridge(DocxReviewer.open(ILPA))
    from folio_desktop.checks import check_document

    everything = check_document(bridge.reviewer)["findings"]
    seen, offset, pages = [], 0, 0
    while True:
        result = ok(execute_tool_call("check_document", {"offset": offset}, bridge))
        pages += 1
        assert json_size(result) <= PAGE_BUDGET
        assert result["totalFindings"] == len(everything)
        seen += [(f["kind"], f["text"], f["blockId"]) for f in result["findings"]]
        if not result["truncated"]:
            assert "nextOffset" not in result
            break
        offset = result["nextOffset"]
    assert pages > 1  # the ILPA's findings do not fit one page
    assert seen == [(f["kind"], f["text"], f["blockId"]) for f in everything]
    labelled = [f for f in everything if f["displayLabel"]]
    assert labelled  # and the tool carries each one's clause number
    assert result["counts"] == check_document(bridge.reviewer)["counts"]  # every kind's count, on each page


def test_wrong_arguments_are_refused_in_words_and_the_definition_is_terse():
    bridge = create_reviewer_bridge(DocxReviewer.from_bytes(planted_contract()))
    assert "does not take `kinds`" in err(execute_tool_call("check_document", {"kinds": ["placeholder"]}, bridge))
    assert "`offset` must be an integer" in err(execute_tool_call("check_document", {"offset": -1}, bridge))
    definition = next(d for d in get_tool_definitions() if d["name"] == "check_document")
    assert set(definition["inputSchema"]["properties"]) == {"offset"}
    assert "required" not in definition["inputSchema"] and len(definition["description"]) < 140


def test_a_bridge_without_a_document_to_check_is_not_offered_the_tool():
    from folio_desktop.agents import create_editor_ref_bridge
    from folio_desktop.assistant.tooling import anthropic_tools_for

    ref = create_editor_ref_bridge(None, "AI", lambda: [], lambda _c: None)
    assert "check_document" not in {t["name"] for t in anthropic_tools_for(ref)}
    assert "does not support check_document" in err(execute_tool_call("check_document", {}, ref))
