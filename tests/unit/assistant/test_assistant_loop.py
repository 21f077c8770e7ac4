"""The model loop (assistant/) with the real anthropic SDK against the fake Messages API over a socket."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time

import pytest
from conftest import CORPUS
from fake_messages_api import Drop, HttpError, Reply, StreamError, Text, ToolUse

from folio_desktop.agents import create_reviewer_bridge, execute_tool_call
from folio_desktop.assistant import AssistantSettings, ModelLoop, TurnListener
from folio_desktop.assistant.tooling import anthropic_tools_for, tool_runner
from folio_desktop.docx import DocxReviewer

PILOT = CORPUS / "contract_commonpaper_pilot_agreement.docx"
pytestmark = pytest.mark.timeout(60)


class Recorder(TurnListener):
    def __init__(self):
        self.text: list[str] = []
        self.started: list[tuple[str, dict]] = []
        self.finished: list[tuple[str, dict]] = []
        self.notices: list[str] = []

    def text_delta(self, text):
        self.text.append(text)

    def tool_started(self, call_id, name, args):
        self.started.append((name, args))

    def tool_finished(self, call_id, name, envelope):
        self.finished.append((name, envelope))

    def notice(self, message):
        self.notices.append(message)



def make_loop(api, path=PILOT, run_tool=None):
    reviewer = DocxReviewer.open(path, author="Claude")
    bridge = create_reviewer_bridge(reviewer)
    settings = AssistantSettings(api_key="test-key", base_url=api.base_url, model="claude-sonnet-5-5")
    loop = ModelLoop(settings, run_tool or tool_runner(bridge), anthropic_tools_for(bridge))
    return loop, reviewer, bridge


def assert_valid_conversation(messages: list[dict]) -> None:
    """What the API demands of a conversation: it starts with the user, roles alternate, and every
    tool_use is answered by a tool_result in the very next (user) message."""
    assert messages and messages[0]["role"] == "user"
    for a, b in zip(messages, messages[1:], strict=False):
        assert a["role"] != b["role"]
    for i, message in enumerate(messages):
        if message["role"] != "assistant":
            continue
        uses = [b["id"] for b in message["content"] if b["type"] == "tool_use"]
        if uses:
            answer = messages[i + 1]["content"]
            assert [b["tool_use_id"] for b in answer if b.get("type") == "tool_result"] == uses


def first_heading_block(bridge) -> str:
    outline = execute_tool_call("get_document_outline", {}, bridge)["result"]
    entries = outline["entries"] if isinstance(outline, dict) else outline
    return entries[0]["blockId"]


def test_a_turn_runs_the_tools_the_model_calls_until_it_ends_the_turn(api):
    loop, reviewer, bridge = make_loop(api)
    api.script(
        Reply([Text("Let me read the outline first."), ToolUse("get_document_outline", {})], stop_reason="tool_use"),
        Reply([ToolUse("find_text", {"query": "Pilot"}), ToolUse("read_comments", {})], stop_reason="tool_use"),
        Reply([Text("The pilot runs for the **Pilot Period**; nothing to change.")]),
    )
    rec = Recorder()
    result = loop.run_turn("What is the pilot period?", rec)
    assert result.status == "completed", result.error
    assert [c.name for c in result.tool_calls] == ["get_document_outline", "find_text", "read_comments"]
    assert all(c.envelope["ok"] for c in result.tool_calls)
    assert len(rec.text) > 3 and "".join(rec.text) == result.text  # streamed in pieces
    assert result.text.endswith("nothing to change.")
    assert len(api.requests) == 3
    # every request: the tools and the system prompt are marked for caching, the key is sent
    for request in api.requests:
        body = request.json
        assert body["stream"] is True and body["model"] == "claude-sonnet-5-5"
        assert body["tools"][-1]["cache_control"] == {"type": "ephemeral"}
        assert body["system"][0]["cache_control"] == {"type": "ephemeral"}
        assert request.headers["authorization"] == "Bearer test-key"  # how SDK 2.x sends api_key
        assert_valid_conversation(body["messages"])
    second = api.requests[2].json["messages"]
    results = second[-1]["content"]
    assert [b["type"] for b in results] == ["tool_result", "tool_result"]
    found = json.loads(results[0]["content"])
    assert found == execute_tool_call("find_text", {"query": "Pilot"}, bridge)["result"]
    assert result.usage.input_tokens > 0 and result.usage.output_tokens > 0
    assert loop.total.input_tokens == result.usage.input_tokens
    assert_valid_conversation(loop.messages)


def test_suggest_changes_through_the_loop_lands_as_tracked_changes(api, tmp_path):
    loop, reviewer, bridge = make_loop(api)
    block = next(b for b in reviewer.snapshot().content_blocks if len(b.text) > 40)
    ops = {"operations": [{"type": "insertAfterBlock", "blockId": block.id, "text": "The parties may extend the Pilot Period by mutual written agreement."}]}
    api.script(Reply([ToolUse("suggest_changes", ops)], stop_reason="tool_use"), Reply([Text("Proposed one insertion.")]))
    result = loop.run_turn("Add an extension clause.", Recorder())
    assert result.status == "completed"
    envelope = result.tool_calls[0].envelope
    assert envelope["ok"], envelope
    changes = reviewer.get_changes()
    assert any(c.type == "insertion" and "extend the Pilot Period" in c.text and c.author == "Claude" for c in changes)
    out = tmp_path / "out.docx"
    reviewer.save(out)
    assert "extend the Pilot Period" in DocxReviewer.open(out).get_content_as_text(annotated=True)


@pytest.mark.parametrize("status, kind, words", [
    (401, "auth", "refused the API key (401)"),
    (403, "permission", "(403"),
    (500, "server", "internal error (500)"),
])
def test_a_refused_request_fails_with_a_clear_message_and_the_next_turn_works(api, status, kind, words):
    loop, _, _ = make_loop(api)
    error_type = {401: "authentication_error", 403: "permission_error", 500: "api_error"}[status]
    # a 500 is retried: script it for every attempt
    errors = [HttpError(status, error_type, "nope", headers={"retry-after-ms": "10"})] * (3 if status == 500 else 1)
    api.script(*errors, Reply([Text("Hello again.")]))
    first = loop.run_turn("Hi", Recorder())
    assert first.status == "failed" and first.error.kind == kind and words in first.error.message
    second = loop.run_turn("Are you there?", Recorder())
    assert second.status == "completed" and second.text == "Hello again."
    last = api.requests[-1].json["messages"]
    assert_valid_conversation(last)
    # the failed turn's question is kept, merged with the new one into one user message
    assert [b["text"] for b in last[0]["content"]] == ["Hi", "Are you there?"]


def test_a_rate_limit_is_retried_after_the_time_the_api_asks(api):
    loop, _, _ = make_loop(api)
    api.script(HttpError(429, "rate_limit_error", "slow down", headers={"retry-after": "0"}), Reply([Text("Fine.")]))
    rec = Recorder()
    result = loop.run_turn("Hi", rec)
    assert result.status == "completed" and result.text == "Fine."
    assert len(api.requests) == 2
    assert rec.notices and "rate limiting" in rec.notices[0] and "Retrying in 0 s" in rec.notices[0]


def test_a_rate_limit_that_persists_gives_up_with_the_wait_time(api):
    loop, _, _ = make_loop(api)
    api.script(*[HttpError(429, "rate_limit_error", "slow down", headers={"retry-after": "0"})] * 3,
               Reply([Text("Back.")]))
    result = loop.run_turn("Hi", Recorder())
    assert result.status == "failed" and result.error.kind == "rate_limit"
    assert "Try again in 0 s" in result.error.message
    assert loop.run_turn("Again", Recorder()).status == "completed"


def test_overload_is_reported_and_retried(api):
    loop, _, _ = make_loop(api)
    api.script(*[HttpError(529, "overloaded_error", "Overloaded", headers={"retry-after": "0"})] * 3,
               Reply([Text("Ok now.")]))
    result = loop.run_turn("Hi", Recorder())
    assert result.status == "failed" and result.error.kind == "overloaded" and "(529)" in result.error.message
    assert len(api.requests) == 3
    assert loop.run_turn("Again", Recorder()).text == "Ok now."


def test_an_error_event_mid_stream_fails_the_turn_cleanly(api):
    loop, _, _ = make_loop(api)
    # six events: message_start, ping, content_block_start and three text deltas, then the error event;
    # text was already shown, so the request is not retried
    long_text = Reply([Text("A reply long enough to arrive in several pieces before the error.")], chunk=4)
    api.script(StreamError("overloaded_error", "Overloaded", after_events=6, reply=long_text),
               Reply([Text("Recovered.")]))
    rec = Recorder()
    result = loop.run_turn("Hi", rec)
    assert rec.text and result.status == "failed" and result.error.kind == "overloaded"
    assert "not kept" in result.error.message
    again = loop.run_turn("Again", Recorder())
    assert again.status == "completed" and again.text == "Recovered."
    assert_valid_conversation(api.requests[-1].json["messages"])


def test_a_connection_lost_mid_stream_drops_the_partial_reply(api):
    loop, _, _ = make_loop(api)
    api.script(Drop(after_events=5), Reply([Text("Second try.")]))
    rec = Recorder()
    result = loop.run_turn("Hi", rec)
    assert result.status == "failed" and result.error.kind == "network"
    if rec.text:  # text had been shown: the message says it was not kept
        assert "not kept" in result.error.message
    assert loop.run_turn("Again", Recorder()).text == "Second try."
    assert all(m["role"] != "assistant" for m in api.requests[-1].json["messages"])


def test_max_tokens_keeps_the_text_and_drops_a_cut_off_tool_call(api):
    loop, _, _ = make_loop(api)
    api.script(Reply([Text("Here is a long answer"), ToolUse("find_text", {"query": "x"})], stop_reason="max_tokens"),
               Reply([Text("Continuing.")]))
    result = loop.run_turn("Explain everything", Recorder())
    assert result.status == "max_tokens" and "output limit" in result.error.message
    assert result.tool_calls == []
    assert loop.messages[-1] == {"role": "assistant", "content": [{"type": "text", "text": "Here is a long answer"}]}
    assert loop.run_turn("Continue", Recorder()).text == "Continuing."
    assert_valid_conversation(api.requests[-1].json["messages"])


def test_a_tool_input_that_is_not_json_is_answered_with_an_error_the_model_can_fix(api):
    loop, _, _ = make_loop(api)
    api.script(Reply([ToolUse("find_text", None, raw_json='{"query": "Pilot')], stop_reason="tool_use"),
               Reply([ToolUse("find_text", {"query": "Pilot"})], stop_reason="tool_use"),
               Reply([Text("Found it.")]))
    rec = Recorder()
    result = loop.run_turn("Find Pilot", rec)
    assert result.status == "completed"
    bad, good = result.tool_calls
    assert not bad.envelope["ok"] and "not valid JSON" in bad.envelope["error"]
    assert good.envelope["ok"]
    sent = api.requests[1].json["messages"][-1]["content"][0]
    assert sent["is_error"] is True and "not valid JSON" in sent["content"]
    assert [name for name, _ in rec.started] == ["find_text"]  # the broken call never reached the document


def test_an_unknown_tool_is_answered_with_the_list_of_tools(api):
    loop, _, _ = make_loop(api)
    api.script(Reply([ToolUse("delete_everything", {})], stop_reason="tool_use"), Reply([Text("Sorry.")]))
    result = loop.run_turn("Hi", Recorder())
    assert result.status == "completed"
    answer = api.requests[1].json["messages"][-1]["content"][0]
    assert answer["is_error"] and 'Unknown tool "delete_everything"' in answer["content"]


def test_no_key_fails_before_any_request():
    settings = AssistantSettings(api_key=None)
    loop = ModelLoop(settings, lambda n, a: {"ok": True, "result": None}, [])
    result = loop.run_turn("Hi")
    assert result.status == "failed" and result.error.kind == "no_key" and "ANTHROPIC_API_KEY" in result.error.message
    assert loop.messages == []


def test_stop_mid_stream_keeps_the_conversation_valid(api):
    loop, reviewer, _ = make_loop(api)
    gate = threading.Event()
    api.script(Reply([Text("A long and winding answer that is still streaming")], gate=gate, delay=0.01),
               Reply([Text("Short answer.")]))
    stop = threading.Event()

    class StopOnText(Recorder):
        def text_delta(self, text):
            super().text_delta(text)
            stop.set()

    started = time.monotonic()
    result = loop.run_turn("Tell me a story", StopOnText(), stop)
    assert time.monotonic() - started < 3.0  # the server holds the stream 10 s: Stop did not wait for it
    gate.set()
    assert result.status == "stopped"
    assert loop.messages == [{"role": "user", "content": [{"type": "text", "text": "Tell me a story"}]}]
    assert loop.run_turn("Short please", Recorder()).text == "Short answer."
    assert_valid_conversation(api.requests[-1].json["messages"])


def test_stop_between_tool_calls_answers_the_calls_that_did_not_run(api):
    reviewer = DocxReviewer.open(PILOT, author="Claude")
    bridge = create_reviewer_bridge(reviewer)
    block = next(b for b in reviewer.snapshot().content_blocks if len(b.text) > 40)
    stop = threading.Event()
    run = tool_runner(bridge)

    def run_then_stop(name, args):
        envelope = run(name, args)
        stop.set()  # the user presses Stop while the first call runs
        return envelope

    settings = AssistantSettings(api_key="test-key", base_url=api.base_url)
    loop = ModelLoop(settings, run_then_stop, anthropic_tools_for(bridge))
    first = {"operations": [{"type": "insertAfterBlock", "blockId": block.id, "text": "First inserted clause."}]}
    second = {"operations": [{"type": "insertAfterBlock", "blockId": block.id, "text": "Second inserted clause."}]}
    api.script(Reply([ToolUse("suggest_changes", first), ToolUse("suggest_changes", second)], stop_reason="tool_use"),
               Reply([Text("Next turn works.")]))
    rec = Recorder()
    result = loop.run_turn("Insert two clauses", rec, stop)
    assert result.status == "stopped"
    # the call that never ran is reported too, so the panel can show it as not run
    assert [(name, env["ok"]) for name, env in rec.finished] == [("suggest_changes", True), ("suggest_changes", False)]
    text = reviewer.get_content_as_text(annotated=True)
    assert "First inserted clause." in text and "Second inserted clause." not in text
    answers = loop.messages[-1]["content"]
    assert answers[1]["is_error"] and "stopped" in answers[1]["content"]
    loop.run_tool = run
    assert loop.run_turn("Go on", Recorder()).text == "Next turn works."
    assert_valid_conversation(api.requests[-1].json["messages"])


def test_headless_review_command_writes_the_changes_the_model_asked_for(api, tmp_path):
    reviewer = DocxReviewer.open(PILOT)
    block = next(b for b in reviewer.snapshot().content_blocks if len(b.text) > 40)
    word = block.text.split()[0]
    ops = {"operations": [{"type": "insertAfterBlock", "blockId": block.id, "text": "Each party bears its own costs."}]}
    api.script(Reply([Text("Reviewing."), ToolUse("get_document_outline", {})], stop_reason="tool_use"),
               Reply([ToolUse("suggest_changes", ops)], stop_reason="tool_use"),
               Reply([Text("I proposed one insertion after the clause starting with " + word + ".")]))
    out = tmp_path / "reviewed.docx"
    env = {"ANTHROPIC_API_KEY": "test-key", "FOLIO_DESKTOP_CONFIG_DIR": str(tmp_path / "cfg"), "PATH": "/usr/bin:/bin"}
    proc = subprocess.run([sys.executable, "-m", "folio_desktop", "review", str(PILOT), "--prompt", "Review it",
                           "-o", str(out), "--base-url", api.base_url], capture_output=True, text=True, timeout=60,
                          env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "[tool] get_document_outline {}" in proc.stdout
    assert "[tool] suggest_changes: 1 applied, 0 skipped" in proc.stdout
    assert "1 operation(s) applied, 0 skipped" in proc.stdout
    assert "insertion" in proc.stdout.split("[changes]")[1] and "Each party bears its own costs." in proc.stdout
    assert f"[saved] {out}" in proc.stdout
    saved = DocxReviewer.open(out)
    added = [c for c in saved.get_changes() if c.type == "insertion"]
    assert [c.text.strip() for c in added] == ["Each party bears its own costs."]
    assert added[0].author == "Claude"
