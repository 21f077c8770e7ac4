"""The conversation never dead-ends on the context window: local estimates, elision of old tool
results, dropping of old exchanges, "prompt is too long" recovered from, and max_tokens sized to
the model. Loop tests use the real SDK against the fake Messages API over a socket."""

from __future__ import annotations

import copy
import json

import pytest
from fake_messages_api import (
    HttpError,
    Reply,
    Text,
    ToolUse,
    assert_valid_conversation,
    prompt_too_long,
)

from folio_desktop.assistant import AssistantSettings, ModelLoop, TurnListener, context
from folio_desktop.assistant.context import DROPPED_NOTE, ELIDED_NOTE, estimate, fit, text_tokens
from folio_desktop.assistant.models import DEFAULT_LIMITS, ModelLimits, limits_for, reply_tokens

pytestmark = pytest.mark.timeout(60)

SMALL = ModelLimits(context_window=40_000, max_output=4_000)  # budget: 40,000 * 0.97 - 4,000 = 34,800
BIG_RESULT_CHARS = 30_000  # ~10,000 estimated tokens a result


class Recorder(TurnListener):
    def __init__(self):
        self.notices: list[str] = []

    def notice(self, message):
        self.notices.append(message)



def big_tool(name, args):
    """A section read that returns a lot of text (the words vary, as a contract's do)."""
    words = " ".join(f"clause{i} binds the {name} party" for i in range(BIG_RESULT_CHARS // 28))
    return {"ok": True, "result": {"text": words[:BIG_RESULT_CHARS], "args": args}}


def make_loop(api, run_tool=big_tool, limits=SMALL, model="claude-sonnet-5-5", **kwargs) -> ModelLoop:
    settings = AssistantSettings(api_key="test-key", base_url=api.base_url, model=model)
    tools = [{"name": "read_section", "description": "Read a section.", "input_schema": {"type": "object"}}]
    return ModelLoop(settings, run_tool, tools, limits=limits, **kwargs)


def request_estimate(loop: ModelLoop, body: dict) -> int:
    """The loop's own measure of a request as the server received it (the cache markers aside)."""
    messages = copy.deepcopy(body["messages"])
    for message in messages:
        for block in message["content"] if isinstance(message["content"], list) else []:
            block.pop("cache_control", None)
    return int((loop._fixed_tokens() + estimate(messages)) * loop._scale)


def tool_results(messages: list[dict]) -> list[dict]:
    return [b for m in messages if m["role"] == "user" and isinstance(m["content"], list)
            for b in m["content"] if b.get("type") == "tool_result"]


# -- the estimate -----------------------------------------------------------------------------------------

def test_the_estimate_counts_ascii_by_characters_and_other_scripts_per_character():
    assert text_tokens("") == 0
    assert text_tokens("a" * 300) == 100
    assert text_tokens("契約書" * 100) == 300  # CJK: a token (or more) a character, not a third
    assert text_tokens("Käufer") == 5 // 3 + 1
    message = {"role": "user", "content": [{"type": "text", "text": "x" * 3000}]}
    assert 1000 < estimate(message) < 1100
    assert estimate([message, message]) == 2 * estimate(message)


def test_the_model_table_sizes_max_tokens_and_knows_a_default():
    assert limits_for("claude-haiku-4-5-20251001") == ModelLimits(200_000, 64_000)
    assert limits_for("claude-opus-4-1-20250805").max_output == 32_000  # not read as claude-opus-4
    assert limits_for("claude-3-haiku-20240307").max_output == 4_096
    assert limits_for("some-new-model") == DEFAULT_LIMITS
    assert reply_tokens(limits_for("claude-haiku-4-5")) == 32_000
    assert reply_tokens(limits_for("claude-3-haiku-20240307")) == 4_096
    assert reply_tokens(limits_for("claude-sonnet-5"), thinking_budget=60_000) == 64_096  # above the budget


def test_bedrock_and_vertex_model_ids_get_their_models_limits():
    assert limits_for("us.anthropic.claude-opus-4-1-20250805-v1:0").max_output == 32_000  # Bedrock inference profile
    assert limits_for("anthropic.claude-3-haiku-20240307-v1:0").max_output == 4_096
    assert limits_for("claude-opus-4-1@20250805").max_output == 32_000  # Vertex
    assert limits_for("global.anthropic.claude-sonnet-5-5-v1") == ModelLimits(1_000_000, 128_000)
    assert reply_tokens(ModelLimits(200_000, 8_192), thinking_budget=60_000) == 8_192  # never over the model
    assert context.budget_for(200_000, 32_000) == 162_000


@pytest.mark.parametrize("model, max_tokens", [("claude-3-haiku-20240307", 4_096), ("claude-haiku-4-5", 32_000),
                                               ("claude-nova-9", DEFAULT_LIMITS.max_output)])
def test_requests_ask_for_what_the_model_can_write(api, model, max_tokens):
    loop = make_loop(api, limits=None, model=model)
    api.script(Reply([Text("Ok.")]))
    assert loop.run_turn("Hi", Recorder()).status == "completed"
    assert api.requests[0].json["max_tokens"] == max_tokens


def test_a_max_tokens_the_model_refuses_is_learned_from_the_error_and_retried(api):
    loop = make_loop(api, limits=None, model="claude-nova-9")
    api.script(HttpError(400, "invalid_request_error",
                         "max_tokens: 16000 > 8192, which is the maximum allowed number of output tokens for "
                         "claude-nova-9"),
               Reply([Text("Ok.")]))
    result = loop.run_turn("Hi", Recorder())
    assert result.status == "completed", result.error
    assert [r.json["max_tokens"] for r in api.requests] == [16_000, 8_192]


# -- fit, on its own -----------------------------------------------------------------------------------

def conversation(rounds: int, chars: int = BIG_RESULT_CHARS) -> list[dict]:
    """A turn with ``rounds`` tool rounds of big results, then the current turn's question."""
    messages = [{"role": "user", "content": [{"type": "text", "text": "Review the contract."}]}]
    for i in range(rounds):
        messages.append({"role": "assistant", "content": [{"type": "tool_use", "id": f"t{i}", "name": f"tool{i}",
                                                           "input": {"i": i}}]})
        messages.append({"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"t{i}",
                                                      "content": "r" * chars}]})
    messages.append({"role": "assistant", "content": [{"type": "text", "text": "Done."}]})
    messages.append({"role": "user", "content": [{"type": "text", "text": "And clause 9?"}]})
    return messages


def test_fit_elides_the_oldest_results_first_and_keeps_the_pairing():
    messages = conversation(5)  # ~50,000 tokens of results
    report = fit(messages, fixed=500, budget=30_000, scale=1.0, protected=set(), keep_from=len(messages) - 1)
    assert report.before > 30_000 and report.after <= 30_000 * context.LOW_WATER
    results = tool_results(messages)
    elided = [r["tool_use_id"] for r in results if r["content"].startswith("[Result of")]
    assert elided == ["t0", "t1", "t2"]  # oldest first, and only as many as needed
    assert results[0]["content"] == ELIDED_NOTE.format(name="tool0")
    assert report.elided == 3 and report.dropped == 0
    assert_valid_conversation(messages)


def test_fit_never_elides_the_current_rounds_results():
    messages = conversation(3)
    report = fit(messages, fixed=0, budget=5_000, scale=1.0, protected={"t2"}, keep_from=0)
    results = {r["tool_use_id"]: r["content"] for r in tool_results(messages)}
    assert results["t2"] == "r" * BIG_RESULT_CHARS
    assert results["t0"].startswith("[Result of tool0") and results["t1"].startswith("[Result of tool1")
    assert report.after > 5_000  # over, but the model has not seen t2 yet: it stays
    assert_valid_conversation(messages)


def test_fit_drops_whole_early_exchanges_when_eliding_is_not_enough_but_never_the_current_turn():
    messages = conversation(2, chars=300)
    for message in messages[1:-1]:  # long prose in the earlier exchanges, which cannot be elided
        if message["role"] == "assistant":
            message["content"].insert(0, {"type": "text", "text": "w" * 30_000})
    current = messages[-1]
    report = fit(messages, fixed=0, budget=12_000, scale=1.0, protected=set(), keep_from=len(messages) - 1)
    assert report.dropped > 0 and messages[-1] is current
    assert messages[0]["role"] == "user" and messages[0]["content"][0] == {"type": "text", "text": DROPPED_NOTE}
    assert report.after <= 12_000
    assert_valid_conversation(messages)
    again = fit(messages, fixed=0, budget=12_000, scale=1.0, protected=set(), keep_from=len(messages) - 1)
    assert not again.changed  # under the budget now: nothing more goes


def test_fit_leaves_a_conversation_under_the_budget_alone():
    messages = conversation(2)
    before = copy.deepcopy(messages)
    report = fit(messages, fixed=0, budget=1_000_000, scale=1.0, protected=set(), keep_from=0)
    assert not report.changed and messages == before


# -- through the loop -------------------------------------------------------------------------------

def test_old_tool_results_over_the_budget_are_elided_before_the_request_is_sent(api):
    loop = make_loop(api)
    budget = loop.budget()
    assert budget == 34_800
    rounds = [Reply([ToolUse("read_section", {"n": i})], stop_reason="tool_use") for i in range(5)]
    api.script(*rounds, Reply([Text("Reviewed all five sections.")]))
    rec = Recorder()
    result = loop.run_turn("Review every section.", rec)
    assert result.status == "completed", result.error
    assert len(api.requests) == 6
    for request in api.requests:
        body = request.json
        assert request_estimate(loop, body) <= budget
        assert len(request.raw) // 4 <= budget  # and by the fake server's own count (4 bytes a token)
        assert_valid_conversation(body["messages"])
    last = api.requests[-1].json["messages"]
    results = tool_results(last)
    assert len(results) == 5  # every tool_use is still answered
    notes = [r for r in results if r["content"] == ELIDED_NOTE.format(name="read_section")]
    assert notes and results[0] in notes  # the oldest went first
    latest = json.loads(results[-1]["content"])
    assert latest["args"] == {"n": 4} and len(latest["text"]) == BIG_RESULT_CHARS  # this round's: intact
    assert any("older tool result(s) shortened" in n for n in rec.notices)


def test_prompt_too_long_trims_harder_and_retries_once(api):
    loop = make_loop(api, limits=ModelLimits(200_000, 4_000))
    loop.messages = conversation(3)[:-2]  # an earlier turn with three big results (~30,000 tokens)
    loop.messages.append({"role": "assistant", "content": [{"type": "text", "text": "Read them."}]})
    sent_tokens = 260_000  # the API's tokenizer counts far more than our estimate: we learn from it
    api.script(prompt_too_long(sent_tokens, 200_000), Reply([Text("Clause 9 is the governing law.")]))
    rec = Recorder()
    result = loop.run_turn("And clause 9?", rec)
    assert result.status == "completed", result.error
    first, retry = api.requests[0].json["messages"], api.requests[1].json["messages"]
    assert not any(r["content"].startswith("[Result of") for r in tool_results(first))
    assert any(r["content"].startswith("[Result of") for r in tool_results(retry))
    assert len(api.requests[1].raw) < len(api.requests[0].raw) * 0.75
    assert_valid_conversation(retry)
    assert loop.limits.context_window == 200_000


def test_a_conversation_that_stays_too_long_says_so_and_the_next_turn_answers(api):
    loop = make_loop(api, limits=ModelLimits(200_000, 4_000))
    loop.messages = conversation(3)[:-2]
    loop.messages.append({"role": "assistant", "content": [{"type": "text", "text": "Read them."}]})
    api.script(prompt_too_long(), prompt_too_long())
    result = loop.run_turn("And clause 9?", Recorder())
    assert result.status == "failed" and result.error.kind == "prompt_too_long"
    message = result.error.message
    assert "too long for claude-sonnet-5-5 to read at once" in message and "Send it again" in message
    assert "prompt is too long:" not in message  # plain words, not the API's text
    assert len(api.requests) == 2  # one harder try, no more
    assert_valid_conversation(loop.messages, request=False)
    api.script(Reply([Text("Clause 9 is the governing law.")]))
    again = loop.run_turn("What does clause 9 say?", Recorder())
    assert again.status == "completed", again.error
    sent = api.requests[-1].json["messages"]
    assert_valid_conversation(sent)
    assert "And clause 9?" not in json.dumps(sent)  # the refused message was taken out


def test_too_long_after_a_tool_round_elides_that_round_on_the_next_turn(api):
    loop = make_loop(api, limits=ModelLimits(200_000, 4_000))
    api.script(Reply([ToolUse("read_section", {"n": 1})], stop_reason="tool_use"), prompt_too_long())
    result = loop.run_turn("Read section 1.", Recorder())
    assert result.status == "failed" and result.error.kind == "prompt_too_long"
    assert "latest tool results are too long" in result.error.message
    assert len(api.requests) == 2  # nothing could be trimmed (the model had not seen the result): no retry
    # the round's result was protected (the model had not seen it); now it may go
    api.script(Reply([Text("Section 1 is about fees.")]))
    again = loop.run_turn("Summarize it briefly.", Recorder())
    assert again.status == "completed", again.error
    sent = api.requests[-1].json["messages"]
    assert_valid_conversation(sent)
    [answer] = tool_results(sent)
    assert answer["content"] == ELIDED_NOTE.format(name="read_section")


def test_the_estimate_follows_what_the_api_measured(api):
    loop = make_loop(api, limits=ModelLimits(200_000, 4_000))
    api.script(Reply([Text("Ok.")], usage={"input_tokens": 30_000}))
    loop.run_turn("Hi", Recorder())
    sent = request_estimate(loop, api.requests[0].json) / loop._scale
    assert loop._scale == pytest.approx(min(context.SCALE_RANGE[1], 30_000 / sent), rel=0.05)
