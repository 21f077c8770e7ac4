"""No hangs, no dead ends: the model loop against an adversarial Messages API over a real socket.

Servers that never answer, streams that only ping, Stop in every phase of a request, retry-after
waits short and long, every stop reason, thinking blocks, and the headless summary. The real
anthropic SDK talks to tests/fake_messages_api.py throughout.
"""

from __future__ import annotations

import re
import shutil
import socket
import subprocess
import sys
import threading
import time
from dataclasses import replace

import anthropic
import httpx2
import pytest
from conftest import CORPUS
from fake_messages_api import (
    BlackHole,
    HeadersOnly,
    HttpError,
    Pings,
    Reply,
    Silent,
    Text,
    Thinking,
    ToolUse,
    assert_valid_conversation,
)

from folio_desktop.agents import create_reviewer_bridge, execute_tool_call
from folio_desktop.assistant import AssistantSettings, ModelLoop, TurnListener
from folio_desktop.assistant.faults import describe_wait
from folio_desktop.assistant.headless import run_review
from folio_desktop.assistant.loop import MAX_PAUSES, NOT_RUN_CONTEXT, worst_case_silent_s
from folio_desktop.assistant.tooling import anthropic_tools_for, tool_runner
from folio_desktop.assistant.transport import ENV_TIMEOUTS, Timeouts
from folio_desktop.docx import DocxReviewer

PILOT = CORPUS / "contract_commonpaper_pilot_agreement.docx"
MODEL = "claude-sonnet-5-5"
SHORT = Timeouts(connect=1.0, first_byte=1.0, stall=1.0, request=20.0)
STOP_WITHIN_S = 1.0
pytestmark = pytest.mark.timeout(60)


class Recorder(TurnListener):
    def __init__(self):
        self.text: list[str] = []
        self.thinking: list[str] = []
        self.finished: list[tuple[str, dict]] = []
        self.notices: list[str] = []

    def text_delta(self, text):
        self.text.append(text)

    def thinking_delta(self, text):
        self.thinking.append(text)

    def tool_finished(self, call_id, name, envelope):
        self.finished.append((name, envelope))

    def notice(self, message):
        self.notices.append(message)



def make_loop(base_url: str, timeouts: Timeouts | None = None, run_tool=None, **kwargs) -> ModelLoop:
    bridge = create_reviewer_bridge(DocxReviewer.open(PILOT, author="Claude"))
    settings = AssistantSettings(api_key="test-key", base_url=base_url, model=MODEL)
    return ModelLoop(settings, run_tool or tool_runner(bridge), anthropic_tools_for(bridge),
                     timeouts=timeouts or Timeouts(), **kwargs)


def next_turn_answers(api, loop: ModelLoop) -> None:
    before = len(api.requests)
    api.script(Reply([Text("Back on track.")]))
    result = loop.run_turn("Let us continue.", Recorder())
    assert result.status == "completed", result.error
    assert result.text == "Back on track."
    assert len(api.requests) == before + 1
    assert_valid_conversation(api.requests[-1].json["messages"])


# -- the fake server's new steps, as the SDK meets them -----------------------------------------------

def test_the_fake_servers_hostile_steps_reach_the_sdk_as_scripted(api):
    client = anthropic.Anthropic(api_key="k", base_url=api.base_url, max_retries=0,
                                 timeout=httpx2.Timeout(0.5, connect=1.0))
    args = {"model": MODEL, "max_tokens": 64, "messages": [{"role": "user", "content": "Hi"}]}
    api.script(Silent())
    started = time.monotonic()
    with pytest.raises(anthropic.APITimeoutError):
        client.messages.create(**args)
    assert time.monotonic() - started < 2.0
    api.script(HeadersOnly(), Pings(interval=0.05))
    stream = client.messages.create(stream=True, **args)  # headers arrive...
    with pytest.raises(httpx2.ReadTimeout):
        next(iter(stream))  # ...then nothing
    stream = client.with_options(timeout=httpx2.Timeout(0.3, connect=1.0)).messages.create(stream=True, **args)
    events: list = []

    def read():
        try:
            events.extend(e.type for e in stream)
        except httpx2.HTTPError:  # the server closing at the end of the test
            pass

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(1.0)  # pings keep the socket busy, so no read timeout strikes, but no content comes
    assert reader.is_alive() and events == ["message_start"]
    ping_request = api.requests[-1]
    assert not ping_request.done.is_set()
    api.script(Reply([Thinking("First, the term.", signature="sig-1"), Text("Twelve months.")],
                     stop_reason="refusal"))
    with client.messages.stream(**args) as stream:
        message = stream.get_final_message()
    assert [b.type for b in message.content] == ["thinking", "text"]
    assert message.content[0].thinking == "First, the term." and message.content[0].signature == "sig-1"
    assert message.stop_reason == "refusal"
    api.script(Reply([Text("Working")], stop_reason="pause_turn"),
               Reply([ToolUse("find_text", raw_json='{"query": "Pil')], stop_reason="model_context_window_exceeded"))
    for reason in ("pause_turn", "model_context_window_exceeded"):
        with client.messages.stream(**args) as stream:
            assert stream.get_final_message().stop_reason == reason


def test_a_black_hole_never_completes_a_connect():
    with BlackHole() as hole:
        host, port = hole.base_url.removeprefix("http://").split(":")
        started = time.monotonic()
        with pytest.raises(OSError):  # a timeout: the SYN is dropped, not refused
            socket.create_connection((host, int(port)), timeout=0.5)
        assert time.monotonic() - started >= 0.45


# -- no hangs -----------------------------------------------------------------------------------------

def test_the_default_timeouts_end_every_stall_within_90_s_retries_included():
    defaults = Timeouts()
    # the plan counts every try: two tries of the longer of first_byte (connect included) and stall,
    # one backoff between them; that is 121 s with the defaults, so the answer budget cuts it at 85 s
    assert worst_case_silent_s(replace(defaults, answer=1000.0)) == 2 * defaults.stall + 1.0 == 121.0
    assert worst_case_silent_s(defaults) == defaults.answer == 85.0
    assert worst_case_silent_s(defaults) <= 90
    assert worst_case_silent_s(replace(defaults, stall=20.0)) == 2 * defaults.first_byte + 1.0 == 71.0
    assert defaults.connect < defaults.first_byte
    sdk = defaults.for_sdk()  # the SDK's read timeout is a backstop, later than the loop's own deadlines
    assert sdk.read > max(defaults.first_byte, defaults.stall) and sdk.connect == defaults.connect
    assert Timeouts.from_env({ENV_TIMEOUTS: "first_byte=2, stall=3,bogus=1,request=x,connect=-1,answer=7"}) == \
        Timeouts(first_byte=2.0, stall=3.0, answer=7.0)


@pytest.mark.parametrize("steps, tries", [
    ([Pings(interval=0.05)] * 2, 2),  # stall, retry, then the budget cuts the second stall
    ([HeadersOnly(), Pings(interval=0.05, start=False)], 2),
    ([Silent(), Pings(interval=0.05)], 2),
    ([HttpError(429, "rate_limit_error", "Slow down", headers={"retry-after-ms": "3000"}), Pings(interval=0.05)], 2),
])
def test_no_mix_of_stalls_and_retries_outlasts_the_answer_budget(api, monkeypatch, steps, tries):
    # the scaled-down knob: a 2 s silence or stall retried would take 5 s; the budget of 4.5 s ends it first
    monkeypatch.setenv(ENV_TIMEOUTS, "connect=0.5,first_byte=2,stall=2,answer=4.5")
    timeouts = Timeouts.from_env()
    assert worst_case_silent_s(timeouts) == 4.5 < 2 * timeouts.stall + 1.0
    loop = make_loop(api.base_url, timeouts)
    api.script(*steps)
    rec = Recorder()
    started = time.monotonic()
    result = loop.run_turn("Summarize clause 1.", rec)
    elapsed = time.monotonic() - started
    assert result.status == "failed" and result.error.kind == "timeout" and not result.error.retryable
    assert "sent no reply within 4.5 s of your message (every try included)" in result.error.message
    assert result.error.message.startswith("The Anthropic API ")
    assert len(api.requests) == tries and len(rec.notices) == tries - 1
    assert timeouts.answer - 0.2 < elapsed < timeouts.answer + 0.5
    next_turn_answers(api, loop)


def test_a_retry_that_cannot_fit_the_budget_is_not_made(api):
    # the first stall ends at 2 s; a 1 s backoff and a 0.5 s connect would reach past 3 s: no second try
    loop = make_loop(api.base_url, Timeouts(connect=0.5, first_byte=1.0, stall=2.0, answer=3.0))
    api.script(Pings(interval=0.05), Reply([Text("Never sent.")]))
    rec = Recorder()
    result = loop.run_turn("Summarize clause 1.", rec)
    assert result.status == "failed" and "nothing came for 2 s" in result.error.message
    assert len(api.requests) == 1 and rec.notices == []


@pytest.mark.parametrize("step, words", [
    (Silent(), "did not answer within 1 s"),
    (HeadersOnly(), "nothing came for 1 s"),
    (Pings(interval=0.05), "nothing came for 1 s"),
])
def test_a_server_that_never_delivers_ends_the_turn_in_bounded_time(api, step, words):
    loop = make_loop(api.base_url, SHORT)
    api.script(step, step)
    rec = Recorder()
    started = time.monotonic()
    result = loop.run_turn("Summarize clause 1.", rec)
    elapsed = time.monotonic() - started
    assert result.status == "failed" and result.error.kind == "timeout" and words in result.error.message
    assert len(api.requests) == 2  # tried once more, then told the lawyer
    assert len(rec.notices) == 1 and "Retrying in 1 s" in rec.notices[0]
    assert elapsed < worst_case_silent_s(SHORT) + 1.5  # ~3 s; the SDK import is already paid here
    next_turn_answers(api, loop)


def test_a_model_thinking_without_streaming_its_thinking_is_not_taken_for_a_dead_stream(api):
    loop = make_loop(api.base_url, Timeouts(connect=1.0, first_byte=1.0, stall=1.0, request=20.0, thinking=5.0))
    api.script(Reply([Thinking("", signature="sig-quiet", quiet=1.8), Text("Clause 4 caps liability.")]))
    result = loop.run_turn("Which clause caps liability?", Recorder())
    assert result.status == "completed", result.error
    assert result.text == "Clause 4 caps liability."
    assert loop.messages[1]["content"][0] == {"type": "thinking", "thinking": "", "signature": "sig-quiet"}
    # once the thinking block has closed, the short stall deadline applies again
    late = Reply([Thinking("", quiet=0.2), Text("Too late.", quiet=1.8)])
    api.script(late, late)
    second = loop.run_turn("And the comments?", Recorder())
    assert second.status == "failed" and "nothing came for 1 s" in second.error.message


def test_a_connect_that_never_completes_ends_the_turn(api):
    with BlackHole() as hole:
        loop = make_loop(hole.base_url, SHORT)
        started = time.monotonic()
        result = loop.run_turn("Hello?", Recorder())
        assert time.monotonic() - started < worst_case_silent_s(SHORT) + 1.5
    assert result.status == "failed" and result.error.kind == "timeout"
    assert "Could not connect to the Anthropic API within 1 s" in result.error.message


def test_the_headless_review_against_a_silent_server_ends_with_a_plain_message(api, tmp_path, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
    monkeypatch.setenv("FOLIO_DESKTOP_CONFIG_DIR", str(tmp_path / "cfg"))
    monkeypatch.setenv(ENV_TIMEOUTS, "connect=1,first_byte=1,stall=1")  # the documented knob
    api.script(Silent(), Silent())
    out = tmp_path / "out.docx"
    lines = _Lines()
    started = time.monotonic()
    code = run_review(str(PILOT), "Review it", str(out), base_url=api.base_url, out=lines)
    elapsed = time.monotonic() - started
    assert code == 1
    assert elapsed < worst_case_silent_s(Timeouts.from_env()) + 5  # opening the contract and the SDK included
    text = lines.getvalue()
    assert "[error] The Anthropic API did not answer within 1 s." in text and "Traceback" not in text
    assert "[done] failed: 0 tool call(s)" in text and out.exists()


class _Lines:
    def __init__(self):
        self.parts: list[str] = []

    def write(self, text):
        self.parts.append(text)

    def flush(self):
        pass

    def getvalue(self):
        return "".join(self.parts)


# -- Stop in every phase -------------------------------------------------------------------------------

PHASES = ["before_headers", "headers_no_events", "ping_only", "mid_text", "retry_wait", "between_tools"]


@pytest.mark.parametrize("phase", PHASES)
def test_stop_ends_the_turn_within_a_second_in_every_phase(api, phase):
    """With the default timeouts (nothing would end these for 35 s or more): a tool round first,
    then the phase in the second request; Stop ends it, the conversation stays valid and the next
    turn answers."""
    stop = threading.Event()
    stopped_at: list[float] = []

    def press_stop():
        stopped_at.append(time.monotonic())
        stop.set()

    bridge = create_reviewer_bridge(DocxReviewer.open(PILOT, author="Claude"))
    run = tool_runner(bridge)
    calls: list[str] = []

    def run_tool(name, args):
        calls.append(name)
        envelope = run(name, args)
        if phase == "between_tools" and len(calls) == 3:
            press_stop()  # while the second of three calls runs
        return envelope

    loop = make_loop(api.base_url, run_tool=run_tool)
    outline = ToolUse("get_document_outline", {})
    if phase == "between_tools":
        api.script(Reply([outline], stop_reason="tool_use"),
                   Reply([ToolUse("find_text", {"query": "Pilot"}), ToolUse("read_comments", {}),
                          ToolUse("find_text", {"query": "Term"})], stop_reason="tool_use"))
    else:
        gate = threading.Event()
        second = {"before_headers": Silent(), "headers_no_events": HeadersOnly(), "ping_only": Pings(interval=0.05),
                  "mid_text": Reply([Text("A long answer that is still streaming when Stop comes")], gate=gate),
                  "retry_wait": HttpError(429, "rate_limit_error", "Slow down", headers={"retry-after": "30"}),
                  }[phase]
        api.script(Reply([outline], stop_reason="tool_use"), second)

    class Listener(Recorder):
        def text_delta(self, text):
            super().text_delta(text)
            if phase == "mid_text" and not stop.is_set():
                press_stop()

        def notice(self, message):
            super().notice(message)
            if phase == "retry_wait":
                threading.Timer(0.3, press_stop).start()  # well into the 30 s wait

    if phase in ("before_headers", "headers_no_events", "ping_only"):
        def when_waiting():
            # Stop once the server has said all it will (nothing, the headers, a few pings) and holds on
            if api.wait_for_request(2, timeout=10).holding.wait(10):
                press_stop()

        threading.Thread(target=when_waiting, daemon=True).start()
    rec = Listener()
    result = loop.run_turn("Review the pilot terms.", rec, stop)
    ended = time.monotonic()
    assert result.status == "stopped", result.error
    assert stopped_at and ended - stopped_at[0] < STOP_WITHIN_S, ended - stopped_at[0]
    assert_valid_conversation(loop.messages)
    if phase == "between_tools":
        assert calls == ["get_document_outline", "find_text", "read_comments"]
        assert loop.messages[-1]["content"][-1]["is_error"]  # the third call is answered "stopped"
    else:
        assert len(api.requests) == 2
        if phase != "retry_wait":  # the socket was cut: the server saw the client go
            assert api.requests[1].done.wait(2) and api.requests[1].outcome == "client_disconnected"
    next_turn_answers(api, loop)


def test_stop_while_connecting_ends_the_turn_within_a_second(api):
    with BlackHole() as hole:
        loop = make_loop(hole.base_url)  # default timeouts: the connect alone would take 10 s
        stop = threading.Event()
        timer = threading.Timer(0.5, stop.set)
        timer.start()
        started = time.monotonic()
        result = loop.run_turn("Hello?", Recorder(), stop)
        assert time.monotonic() - started < 0.5 + STOP_WITHIN_S
    assert result.status == "stopped"
    assert_valid_conversation(loop.messages)
    # the lawyer fixes the base URL in Settings: the runner's new loop keeps the conversation
    fresh = make_loop(api.base_url)
    fresh.messages = loop.messages
    next_turn_answers(api, fresh)
    assert [b["text"] for b in api.requests[-1].json["messages"][0]["content"]] == ["Hello?", "Let us continue."]


def test_stop_on_the_first_message_does_not_wait_for_the_sdk_to_load(api, tmp_path):
    """The first request imports anthropic (a second or two): that happens on the request thread,
    so Stop pressed meanwhile still ends the turn at once. A fresh interpreter, to pay the import."""
    script = tmp_path / "first_stop.py"
    script.write_text(f"""
import sys, threading, time
from folio_desktop.assistant import AssistantSettings, ModelLoop
assert "anthropic" not in sys.modules
loop = ModelLoop(AssistantSettings(api_key="k", base_url={api.base_url!r}), lambda n, a: {{}}, [])
stop = threading.Event()
threading.Timer(0.2, stop.set).start()
started = time.monotonic()
result = loop.run_turn("Hi", stop=stop)
print(result.status, round(time.monotonic() - started - 0.2, 3))
""")
    api.script(Silent())
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=30)
    status, latency = proc.stdout.split()
    assert status == "stopped", proc.stderr
    assert float(latency) < STOP_WITHIN_S


# -- retry-after -----------------------------------------------------------------------------------------

def test_a_retry_after_longer_than_the_loop_waits_is_reported_as_the_real_wait(api):
    loop = make_loop(api.base_url)
    api.script(HttpError(429, "rate_limit_error", "Slow down", headers={"retry-after": "3600"}))
    started = time.monotonic()
    result = loop.run_turn("Hi", Recorder())
    assert time.monotonic() - started < 1.0  # not waited for
    assert len(api.requests) == 1
    assert result.status == "failed" and result.error.kind == "rate_limit"
    message = result.error.message
    assert "rate limiting this key (429)" in message and "The API asks to wait 60 minutes" in message
    # the clock time, with the day when the hour's wait ends after midnight
    clock = re.search(r"try again after ((?:\w{3} \d\d \w{3} )?\d\d:\d\d)\.", message).group(1)
    assert clock in {describe_wait(3600)[1], describe_wait(3599)[1], describe_wait(3601)[1]}
    assert "60 s" not in message
    next_turn_answers(api, loop)


def test_a_retry_after_of_two_seconds_is_waited_for_and_retried(api):
    loop = make_loop(api.base_url)
    api.script(HttpError(429, "rate_limit_error", "Slow down", headers={"retry-after": "2"}), Reply([Text("Fine.")]))
    rec = Recorder()
    started = time.monotonic()
    result = loop.run_turn("Hi", rec)
    elapsed = time.monotonic() - started
    assert result.status == "completed" and result.text == "Fine."
    assert 2.0 <= elapsed < 4.0
    assert len(rec.notices) == 1 and "Retrying in 2 s (attempt 2 of 3)" in rec.notices[0]
    assert len(api.requests) == 2


def test_describe_wait_says_minutes_hours_and_the_clock_time():
    from datetime import datetime

    now = datetime(2026, 3, 2, 8, 47, 10)
    assert describe_wait(3600, now) == ("60 minutes", "09:47")
    assert describe_wait(45, now) == ("45 seconds", "08:47")
    assert describe_wait(5 * 3600, now) == ("5 hours", "13:47")
    assert describe_wait(20 * 3600, now) == ("20 hours", "Tue 03 Mar 04:47")


# -- stop reasons ---------------------------------------------------------------------------------------

def test_a_refusal_is_reported_as_a_refusal_and_the_next_turn_is_clean(api):
    loop = make_loop(api.base_url)
    api.script(Reply([Text("I can't help with")], stop_reason="refusal"))
    result = loop.run_turn("Draft something harmful.", Recorder())
    assert result.status == "refusal" and result.error.kind == "refusal"
    assert "declined" in result.error.message and "Rephrase" in result.error.message
    assert loop.messages == []  # neither the refused request nor the partial reply is carried forward
    next_turn_answers(api, loop)
    sent = api.requests[-1].json["messages"]
    assert len(sent) == 1 and "harmful" not in str(sent)


def test_a_context_window_stop_with_a_pending_tool_call_is_answered_and_reported(api):
    calls: list[str] = []
    loop = make_loop(api.base_url, run_tool=lambda name, args: calls.append(name) or {"ok": True, "result": {}})
    pending = ToolUse("find_text", raw_json='{"query": "Pil')
    api.script(Reply([Text("Let me search."), pending], stop_reason="model_context_window_exceeded"))
    rec = Recorder()
    result = loop.run_turn("Find the pilot clause.", rec)
    assert result.status == "model_context_window_exceeded" and result.error.kind == "context_window"
    assert "context window" in result.error.message and "send a message to continue" in result.error.message
    assert calls == []  # a cut-off call is never run
    assert rec.finished == [("find_text", {"ok": False, "error": NOT_RUN_CONTEXT})]
    next_turn_answers(api, loop)
    sent = api.requests[-1].json["messages"]
    answer = next(b for m in sent if m["role"] == "user" for b in m["content"] if b.get("type") == "tool_result")
    assert answer["tool_use_id"] == pending.id and answer["is_error"] is True


def test_a_paused_turn_is_continued_by_sending_its_content_back(api):
    loop = make_loop(api.base_url)
    api.script(Reply([Text("Part one, ")], stop_reason="pause_turn"), Reply([Text("part two.")]))
    result = loop.run_turn("Explain clause 2.", Recorder())
    assert result.status == "completed" and result.text == "Part one, part two."
    continued = api.requests[1].json["messages"]
    assert continued[-1]["role"] == "assistant" and continued[-1]["content"][0]["text"] == "Part one, "
    assert_valid_conversation(continued, request=False)
    assert loop.messages[-1] == {"role": "assistant", "content": [{"type": "text", "text": "Part one, "},
                                                                   {"type": "text", "text": "part two."}]}
    next_turn_answers(api, loop)


def test_a_turn_that_keeps_pausing_stops_at_a_bound_and_says_so(api):
    loop = make_loop(api.base_url)
    api.script(*[Reply([Text(f"step {i}. ")], stop_reason="pause_turn") for i in range(MAX_PAUSES + 1)])
    result = loop.run_turn("A long task.", Recorder())
    assert result.status == "pause_turn" and result.error.kind == "pause_turn"
    assert f"paused this long turn again after {MAX_PAUSES} continuations" in result.error.message
    assert len(api.requests) == MAX_PAUSES + 1
    next_turn_answers(api, loop)


def test_a_tool_call_in_a_reply_that_did_not_stop_for_it_is_answered(api):
    calls: list[str] = []
    loop = make_loop(api.base_url, run_tool=lambda name, args: calls.append(name) or {"ok": True, "result": {}})
    stray = ToolUse("read_comments", {})
    api.script(Reply([Text("Done."), stray], stop_reason="end_turn"))
    result = loop.run_turn("Hi", Recorder())
    assert result.status == "completed" and calls == []
    next_turn_answers(api, loop)
    answer = api.requests[-1].json["messages"][2]["content"][0]
    assert answer["tool_use_id"] == stray.id and answer["is_error"]


# -- thinking ----------------------------------------------------------------------------------------------

def test_thinking_is_streamed_to_the_listener_and_sent_back_with_its_signature(api):
    loop = make_loop(api.base_url)
    api.script(Reply([Thinking("The lawyer wants the outline first.", signature="sig-A"), Text("Reading."),
                      ToolUse("get_document_outline", {})], stop_reason="tool_use"),
               Reply([Thinking("Clause 2 is the term.", signature="sig-B"), Text("Clause 2.")]))
    rec = Recorder()
    result = loop.run_turn("Which clause sets the term?", rec)
    assert result.status == "completed" and result.text == "Reading.Clause 2."
    assert "".join(rec.thinking) == "The lawyer wants the outline first.Clause 2 is the term."
    assert len(rec.thinking) > 2 and "The lawyer" not in result.text
    sent = api.requests[1].json["messages"][1]["content"]
    assert sent[0] == {"type": "thinking", "thinking": "The lawyer wants the outline first.", "signature": "sig-A"}
    assert [b["type"] for b in sent] == ["thinking", "text", "tool_use"]
    next_turn_answers(api, loop)
    last = api.requests[-1].json["messages"]
    assert last[3]["content"][0]["type"] == "thinking"  # kept: the API requires it, unchanged


def test_an_explicit_thinking_budget_fits_inside_max_tokens(api):
    loop = make_loop(api.base_url, thinking={"type": "enabled", "budget_tokens": 40_000})
    api.script(Reply([Text("Ok.")]))
    assert loop.run_turn("Hi", Recorder()).status == "completed"
    body = api.requests[0].json
    assert body["thinking"] == {"type": "enabled", "budget_tokens": 40_000}
    assert body["max_tokens"] > 40_000


def test_the_runner_relays_thinking_as_a_signal(qtbot, api):
    from folio_desktop.ui.chat.runner import AssistantRunner

    bridge = create_reviewer_bridge(DocxReviewer.open(PILOT, author="Claude"))
    runner = AssistantRunner(AssistantSettings(api_key="test-key", base_url=api.base_url, model=MODEL), bridge)
    api.script(Reply([Thinking("Short and sweet."), Text("Hello.")]))
    pieces: list[str] = []
    runner.thinkingDelta.connect(pieces.append)
    with qtbot.waitSignal(runner.turnFinished, timeout=15_000) as finished:
        assert runner.start("Hi")
    assert finished.args[0].status == "completed"
    assert "".join(pieces) == "Short and sweet." and len(pieces) > 1


# -- the headless summary ---------------------------------------------------------------------------------

def test_the_headless_summary_counts_every_comment_and_lists_resolved_ones(api, tmp_path, monkeypatch):
    # a contract with one comment by Claude (which Claude may resolve) from an earlier session
    source = tmp_path / "pilot.docx"
    shutil.copy(PILOT, source)
    reviewer = DocxReviewer.open(source, author="Claude")
    bridge = create_reviewer_bridge(reviewer)
    block = next(b for b in reviewer.snapshot().content_blocks if len(b.text) > 40)
    assert execute_tool_call("add_comment", {"blockId": block.id, "text": "Earlier note."}, bridge)["ok"]
    reviewer.save(source)
    earlier = execute_tool_call("read_comments", {}, create_reviewer_bridge(DocxReviewer.open(source)))
    [thread] = earlier["result"]["threads"]
    match = execute_tool_call("find_text", {"query": block.text.split()[0]}, bridge)["result"]["blocks"][0]["matches"][0]
    ops = {"operations": [
        {"type": "commentOnRange", "range": match["range"], "comment": "Defined term?"},
        {"type": "replaceInBlock", "blockId": block.id, "find": block.text.split()[0], "replace": "This",
         "comment": "Plainer wording."},
    ]}
    api.script(Reply([ToolUse("suggest_changes", ops), ToolUse("add_comment", {"blockId": block.id,
                                                                                "text": "Check this."}),
                      ToolUse("resolve_comment", {"commentId": thread["id"]})], stop_reason="tool_use"),
               Reply([Text("Proposed one edit, three comments, and resolved my earlier note.")]))
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
    monkeypatch.setenv("FOLIO_DESKTOP_CONFIG_DIR", str(tmp_path / "cfg"))
    lines = _Lines()
    code = run_review(str(source), "Review it", str(tmp_path / "out.docx"), base_url=api.base_url, out=lines)
    text = lines.getvalue()
    assert code == 0, text
    assert "3 tool call(s); 2 operation(s) applied, 0 skipped, 3 comment(s) added" in text
    assert f"[comments] resolved comment {thread['id']}" in text
    saved = DocxReviewer.open(tmp_path / "out.docx").get_comments()
    assert len(saved) == 4  # the earlier one (now resolved) and the three new ones
