"""What one careful look at a long contract costs (issue 12, acceptance 3): the review the prompt
advises, outline -> a section -> find -> one comment, on the 75-page ILPA, sent through the real
SDK to the fake Messages API, stays under 60k input tokens in all (it was ~447k when every read
returned the whole document). The fake server counts a request's input tokens as its bytes / 4."""

from __future__ import annotations

from datetime import date

import pytest
from conftest import CORPUS
from fake_messages_api import FakeMessagesAPI, Reply, Text, ToolUse

from folio_desktop.agents import create_reviewer_bridge, execute_tool_call
from folio_desktop.assistant import AssistantSettings, ModelLoop
from folio_desktop.assistant.tooling import anthropic_tools_for, tool_runner
from folio_desktop.docx import DocxReviewer

ILPA = CORPUS / "contract_ilpa_model_lpa_whole_of_fund_75p.docx"
BUDGET_TOKENS = 60_000
pytestmark = pytest.mark.timeout(60)


def plan(bridge) -> dict:
    """The calls a model would make, with real handles and ids read from the same bytes: the default outline
    lists the articles, so the model reads article 14 (where the clawback is), then finds the clause."""
    outline = execute_tool_call("get_document_outline", {}, bridge)["result"]
    section = next(e for e in outline["sections"] if e.get("displayLabel") == "14.")
    assert section["text"] == "Distributions; Allocations"
    found = execute_tool_call("find_text", {"query": "Clawback"}, bridge)["result"]
    target = next(b for b in found["blocks"] if b.get("displayLabel") == "14.7.4")
    return {"section": section["handle"], "block": target["blockId"]}


def test_outline_section_find_comment_on_the_ilpa_stays_under_60k_input_tokens():
    rev = DocxReviewer.open(ILPA, author="Claude")
    bridge = create_reviewer_bridge(rev)
    steps = plan(bridge)
    with FakeMessagesAPI() as api:
        api.script(
            Reply([Text("I'll start from the outline."), ToolUse("get_document_outline", {})], stop_reason="tool_use"),
            Reply([ToolUse("read_section", {"handle": steps["section"]})], stop_reason="tool_use"),
            Reply([ToolUse("find_text", {"query": "Clawback"})], stop_reason="tool_use"),
            Reply([ToolUse("add_comment", {"blockId": steps["block"],
                                           "text": "The clawback should be capped at after-tax distributions."})],
                  stop_reason="tool_use"),
            Reply([Text("I added a comment on clause 14.7 asking for an after-tax cap.")]))
        settings = AssistantSettings(api_key="test-key", base_url=api.base_url, model="claude-sonnet-5-5")
        loop = ModelLoop(settings, tool_runner(bridge), anthropic_tools_for(bridge))
        result = loop.run_turn("Review the clawback clause for the limited partners.")
        assert result.status == "completed", result.error
        assert [c.name for c in result.tool_calls] == ["get_document_outline", "read_section", "find_text",
                                                      "add_comment"]
        assert all(c.envelope["ok"] for c in result.tool_calls)
        sent = [len(r.raw) // 4 for r in api.requests]
        total = result.usage.input_tokens + result.usage.cache_read_input_tokens \
            + result.usage.cache_creation_input_tokens
        assert total == sum(sent) and len(sent) == 5
        print(f"\nILPA outline -> section -> find -> comment: {total:,} input tokens in {len(sent)} requests {sent}")
        assert total < BUDGET_TOKENS
        # the prompt knows today's date and asks whom we act for
        system = api.requests[0].json["system"][0]["text"]
        assert date.today().strftime("%d %B %Y") in system and "which party the lawyer acts for" in system
        # what the model was given to cite: the clause numbers of the section it read
        section = api.requests[2].json["messages"][-1]["content"][0]["content"]
        assert '"displayLabel":"14.1"' in section
    [comment] = [c for c in rev.get_comments() if c.author == "Claude"]
    assert comment.block_id == steps["block"]
