"""The model loop's requests reuse the prompt cache: the tools and the system prompt are a stable prefix, the
conversation's last message is a breakpoint, so each next request reads the history from the cache. Checked
against the usage the fake Messages API reports, which models the cache as the real API does; and the short
review of benchmarks/token_cost.py stays within its token targets."""

import sys

import pytest
from conftest import CORPUS, ROOT
from fake_messages_api import MAX_BREAKPOINTS, Reply, Text, ToolUse

from folio_desktop.agents import create_reviewer_bridge
from folio_desktop.assistant import AssistantSettings, ModelLoop
from folio_desktop.assistant.tooling import anthropic_tools_for, tool_runner
from folio_desktop.docx import DocxReviewer

ILPA = CORPUS / "contract_ilpa_model_lpa_whole_of_fund_75p.docx"
KINDS = ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")
pytestmark = pytest.mark.timeout(60)


def marked(body: dict) -> list[str]:
    """Where the request's cache breakpoints are: tool names, "system", or "message N"."""
    out = [t["name"] for t in body["tools"] if "cache_control" in t]
    out += ["system" for b in body["system"] if "cache_control" in b]
    for i, message in enumerate(body["messages"]):
        content = message["content"] if isinstance(message["content"], list) else []
        out += [f"message {i}" for b in content if "cache_control" in b]
    return out


def test_each_request_reads_the_conversation_so_far_from_the_cache(api):
    bridge = create_reviewer_bridge(DocxReviewer.open(ILPA, author="Claude"))
    api.script(Reply([Text("Let me look."), ToolUse("get_document_outline", {})], stop_reason="tool_use"),
               Reply([ToolUse("find_text", {"query": "clawback"})], stop_reason="tool_use"),
               Reply([Text("Clause 14.7 holds the clawback.")]))
    settings = AssistantSettings(api_key="test-key", base_url=api.base_url, model="claude-sonnet-5-5")
    loop = ModelLoop(settings, tool_runner(bridge), anthropic_tools_for(bridge))
    result = loop.run_turn("Where is the clawback?")
    assert result.status == "completed", result.error
    requests = api.requests
    assert len(requests) == 3
    last_tool = requests[0].json["tools"][-1]["name"]
    for n, request in enumerate(requests):
        # the stable prefix (tools, then system) and the newest message: within the API's limit of 4
        assert marked(request.json) == [last_tool, "system", f"message {2 * n}"]
        assert len(marked(request.json)) <= MAX_BREAKPOINTS
        assert request.json["messages"][-1]["content"][-1]["cache_control"] == {"type": "ephemeral"}
    first, second, third = (r.usage for r in requests)
    assert first["cache_read_input_tokens"] == 0 and first["cache_creation_input_tokens"] > 2_000
    # a repeated request reads everything the one before it sent up to its last breakpoint
    assert second["cache_read_input_tokens"] == first["cache_creation_input_tokens"]
    assert third["cache_read_input_tokens"] == second["cache_read_input_tokens"] + second["cache_creation_input_tokens"]
    assert all(r.usage["input_tokens"] < 150 for r in requests)  # only what follows the last breakpoint
    # the loop adds up what the API reported, every kind
    for kind in KINDS:
        assert getattr(result.usage, kind) == sum(r.usage[kind] for r in requests)
    assert loop.messages[-1]["content"][-1].get("cache_control") is None  # markers stay out of the history


def test_the_scripted_review_stays_within_its_token_targets():
    """benchmarks/token_cost.py on the ILPA, with room for a 1,200-token system prompt."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import token_cost

    run = token_cost.review(ILPA, "14.", prompt_tokens=1_200)
    assert len(run.requests) == 6
    first = sum(run.requests[0][k] for k in KINDS)
    assert first < token_cost.FIRST_TARGET, first  # it was 5,952 (tools and prompt alone 5.4k)
    assert run.total() < token_cost.TOTAL_TARGET, run.total()  # it was 106,083
    assert all(r["cache_read_input_tokens"] > 0 for r in run.requests[1:])
    assert run.total("cache_read_input_tokens") > 0.7 * run.total()
    assert token_cost.misses(run) == []
