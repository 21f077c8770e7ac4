"""Every fault the panel can meet shows a clear message in the transcript, and the next turn works.
Stop lands mid-stream and between tool calls, leaving only whole batches in the document and a
conversation the API accepts. The real SDK talks to the fake Messages API throughout."""

from __future__ import annotations

import threading
import time

import pytest
from chat_helpers import assert_valid_conversation, open_window, pilot_plan, send
from fake_messages_api import Drop, HttpError, Reply, Text, ToolUse

from folio_desktop.ui.chat.runner import STOPPED_BEFORE_RUN
from folio_desktop.ui.desk.settings_dialog import SettingsDialog

pytestmark = pytest.mark.timeout(60)

NOW = {"retry-after": "0"}  # retry at once: the loop honours retry-after



@pytest.fixture
def window(qtbot, tmp_path, api):
    return open_window(qtbot, tmp_path, api.base_url)


def fault_texts(panel) -> list[str]:
    return [w.text() for w in panel.items("fault") if w.isVisible()]


def next_turn_works(qtbot, api, panel) -> None:
    """The composer is still usable and the following turn completes with a valid conversation."""
    assert panel.composer.isEnabled() and panel.send_button.isEnabled() and not panel.busy
    before = len(api.requests)
    api.script(Reply([Text("Back on track.")]))
    result = send(qtbot, panel, "Let us continue.")
    assert result.status == "completed", result.error
    assert panel.entries[-1].kind == "assistant" and panel.entries[-1].text == "Back on track."
    assert len(api.requests) == before + 1
    assert_valid_conversation(api.requests[-1].json["messages"])


HTTP_FAULTS = {
    "401": ([HttpError(401, "authentication_error", "invalid x-api-key")], "refused the API key (401)"),
    "403": ([HttpError(403, "permission_error", "not allowed for this model")],
            "may not use claude-sonnet-5-5 (403: not allowed for this model)"),
    "429-keeps-failing": ([HttpError(429, "rate_limit_error", "Slow down", headers=NOW)] * 3,
                          "rate limiting this key (429)"),
    "529": ([HttpError(529, "overloaded_error", "Overloaded", headers=NOW)] * 3, "overloaded right now (529)"),
    "500": ([HttpError(500, "api_error", "Internal server error", headers=NOW)] * 3, "internal error (500)"),
    "network-loss": ([Drop(after_events=5)], "connection to the Anthropic API was lost"),
    "max-tokens": ([Reply([Text("The first half of a long answer")], stop_reason="max_tokens")],
                   "reached the output limit"),
}


@pytest.mark.parametrize("case", list(HTTP_FAULTS))
def test_a_fault_is_shown_and_the_next_turn_works(qtbot, api, window, case):
    steps, expected = HTTP_FAULTS[case]
    panel = window.chat
    api.script(*steps)
    result = send(qtbot, panel, "Review the pilot terms.")
    assert result.status == ("max_tokens" if case == "max-tokens" else "failed")
    assert len(api.requests) == len(steps)  # retryable faults are tried three times, no more
    faults = fault_texts(panel)
    assert len(faults) == 1 and expected in faults[0]
    assert expected in panel.visible_text()
    if case in ("401", "403"):
        assert "Open Settings" in faults[0]
    if len(steps) == 3:  # the two retries were announced as small grey notices
        notices = [w.text() for w in panel.items("notice")]
        assert len(notices) == 2 and "attempt 2 of 3" in notices[0] and "attempt 3 of 3" in notices[1]
    if case == "network-loss":  # the partial text stays visible, marked as not kept
        partial = panel.entries[-2]
        assert partial.kind == "assistant" and partial.text and not partial.kept
        assert "send your message again" in faults[0]
    if case == "max-tokens":
        assert panel.entries[-2].text == "The first half of a long answer" and panel.entries[-2].kept
    next_turn_works(qtbot, api, window.chat)


def test_a_rate_limit_is_retried_and_then_succeeds(qtbot, api, window):
    panel = window.chat
    api.script(HttpError(429, "rate_limit_error", "Slow down", headers=NOW), Reply([Text("Here is the answer.")]))
    result = send(qtbot, panel, "Summarize clause 1.")
    assert result.status == "completed" and result.error is None
    notices = [w.text() for w in panel.items("notice")]
    assert len(notices) == 1 and "rate limiting this key (429)" in notices[0] and "Retrying in 0 s" in notices[0]
    assert fault_texts(panel) == []
    assert panel.entries[-1].text == "Here is the answer."
    next_turn_works(qtbot, api, panel)


def test_a_tool_input_that_is_not_json_is_answered_and_the_turn_goes_on(qtbot, api, window):
    panel = window.chat
    bad = ToolUse("find_text", raw_json='{"query": ')
    api.script(Reply([Text("Searching."), bad], stop_reason="tool_use"), Reply([Text("Let me search differently.")]))
    result = send(qtbot, panel, "Find the pilot period.")
    assert result.status == "completed"
    [chip] = panel.chips()
    assert chip.state == "error" and "not valid JSON" in chip.header_text()
    answer = api.requests[1].json["messages"][-1]["content"][0]
    assert answer["tool_use_id"] == bad.id and answer["is_error"] and "not valid JSON" in answer["content"]
    assert panel.entries[-1].text == "Let me search differently."
    next_turn_works(qtbot, api, panel)


def test_an_unknown_tool_is_answered_and_the_turn_goes_on(qtbot, api, window):
    panel = window.chat
    call = ToolUse("delete_everything", {"really": True})
    api.script(Reply([call], stop_reason="tool_use"), Reply([Text("That tool does not exist; sorry.")]))
    result = send(qtbot, panel, "Clean up.")
    assert result.status == "completed"
    [chip] = panel.chips()
    assert chip.state == "error" and 'Unknown tool "delete_everything"' in chip.header_text()
    answer = api.requests[1].json["messages"][-1]["content"][0]
    assert answer["tool_use_id"] == call.id and answer["is_error"]
    next_turn_works(qtbot, api, panel)


def test_a_missing_key_is_explained_then_a_key_typed_in_settings_works(qtbot, tmp_path, api, monkeypatch):
    from folio_desktop.assistant import settings as settings_module

    monkeypatch.setattr(settings_module, "_keyring", lambda: None)
    window = open_window(qtbot, tmp_path, api.base_url, api_key=None)
    panel = window.chat
    result = send(qtbot, panel, "Hello?")
    assert result.status == "failed" and result.error.kind == "no_key"
    [fault] = fault_texts(panel)
    assert "No Anthropic API key is set" in fault and "Open Settings" in fault
    assert api.requests == []  # nothing was sent without a key
    dialog = SettingsDialog(window.settings, window, environ={})
    dialog.key_edit.setText("test-key")
    assert "readable only by you" in dialog.apply()
    window.apply_settings()
    next_turn_works(qtbot, api, panel)
    headers = api.requests[-1].headers
    assert "test-key" in headers.get("x-api-key", "") + headers.get("authorization", "")


# -- Stop ---------------------------------------------------------------------------------------------


def test_stop_mid_stream_ends_the_turn_at_once(qtbot, api, window):
    panel = window.chat
    gate = threading.Event()  # never opened: the reply hangs after its first words, as a stalled stream would
    api.script(Reply([Text("Let me think about every clause of this agreement in turn.")], gate=gate))
    panel.composer.setPlainText("Review everything.")
    panel.send()
    qtbot.waitUntil(lambda: bool(panel.items("assistant")), timeout=10_000)
    started = time.monotonic()
    with qtbot.waitSignal(panel.turnFinished, timeout=5_000) as finished:
        panel.stop_button.click()
    assert time.monotonic() - started < 2  # the stream's socket was cut, not waited out
    assert finished.args[0].status == "stopped"
    assert api.requests[0].done.wait(5) and api.requests[0].outcome == "client_disconnected"
    partial = panel.entries[-2]
    assert partial.kind == "assistant" and not partial.kept
    assert panel.entries[-1].kind == "notice" and panel.entries[-1].text.startswith("Stopped.")
    assert fault_texts(panel) == []
    next_turn_works(qtbot, api, panel)
    messages = api.requests[-1].json["messages"]
    assert len(messages) == 1 and [b["text"] for b in messages[0]["content"]] == ["Review everything.",
                                                                                  "Let us continue."]


@pytest.mark.parametrize("when", ["after-the-first-tool", "inside-the-first-tool"])
def test_stop_between_tool_calls_keeps_only_whole_batches(qtbot, api, window, when):
    panel, reviewer = window.chat, window.reviewer
    plan = pilot_plan()
    first = ToolUse("suggest_changes", {"operations": [plan["replace"]]})
    second = ToolUse("suggest_changes", {"operations": [plan["insert"]]})
    api.script(Reply([Text("Two edits."), first, second], stop_reason="tool_use"))
    if when == "after-the-first-tool":  # the lawyer presses Stop as the first chip turns green
        panel.runner.toolFinished.connect(lambda call_id, *_: call_id == first.id and panel.stop_button.click())
    else:  # Stop arrives while the first batch is being applied: that batch still completes
        changed = window.bridge.on_changed
        window.bridge.on_changed = lambda result: (changed(result), panel.stop())
    result = send(qtbot, panel, "Make both edits.")
    assert result.status == "stopped"
    # the second call never runs, whether the worker had posted it or the loop saw Stop first: its chip
    # shows it as not run
    assert [c.state for c in panel.chips()] == ["ok", "stopped"]
    assert panel.chips()[0].entry.envelope["result"]["applied"] == [{"id": "op-replace"}]
    texts = [c.text for c in reviewer.get_changes()]
    assert texts == ["Pilot", "Trial"]  # the first batch whole, nothing of the second
    assert len(api.requests) == 1
    next_turn_works(qtbot, api, panel)
    messages = api.requests[-1].json["messages"]
    answers = messages[-1]["content"]
    assert [b.get("tool_use_id") for b in answers[:2]] == [first.id, second.id]
    assert not answers[0].get("is_error") and answers[1]["is_error"] and answers[1]["content"] == STOPPED_BEFORE_RUN


def test_closing_the_window_mid_stream_ends_the_turn_cleanly(qtbot, api, window):
    panel = window.chat
    gate = threading.Event()
    api.script(Reply([Text("A reply that will never finish.")], gate=gate))
    panel.send("Start something long.")
    qtbot.waitUntil(lambda: bool(panel.items("assistant")), timeout=10_000)
    thread = panel.runner._thread
    started = time.monotonic()
    assert window.close()
    assert time.monotonic() - started < 2
    assert thread.isFinished() and not panel.busy
    assert panel.send("Anything else?") is False  # a closed runner starts nothing
