"""The fake Messages API, driven by the real anthropic SDK over a socket: what the app will meet."""

import json
import random
import threading
import time

import anthropic
import httpx2
import pytest
from fake_messages_api import (
    EXHAUSTED_MESSAGE,
    Drop,
    FakeMessagesAPI,
    HttpError,
    Reply,
    StreamError,
    Text,
    ToolUse,
    split_text,
)

pytestmark = pytest.mark.timeout(20)

MODEL = "claude-sonnet-5-5"  # a model the SDK does not warn about
TOOLS = [{"name": "get_document_outline", "description": "Outline.", "input_schema": {"type": "object"}}]
ARGS = {"model": MODEL, "max_tokens": 256, "system": "You review contracts.", "tools": TOOLS,
        "messages": [{"role": "user", "content": "Who is the buyer?"}]}
TOOL_INPUT = {"query": "Käufer – “quoted” 中文", "path": ["a\\b", 'say "hi"\n'],
              "nested": [[1, 2.5, None], {"ok": True, "names": ["Ålesund", "🙂"]}]}



def make_client(api, max_retries=0):
    return anthropic.Anthropic(api_key="test-key", base_url=api.base_url, max_retries=max_retries, timeout=10)


def test_split_text_keeps_the_string_and_cuts_it_more_than_once():
    text = json.dumps(TOOL_INPUT, ensure_ascii=False)
    pieces = split_text(text, random.Random(3))
    assert "".join(pieces) == text and len(pieces) > 3
    assert all(1 <= len(p) <= 12 for p in pieces)
    assert pieces == split_text(text, random.Random(3))
    assert all(len(p) <= 2 for p in split_text(text, random.Random(0), chunk=2))
    assert split_text("ab", random.Random(0)) == ["a", "b"]


def test_text_reply_streams_in_several_deltas_with_usage(api):
    text = "The buyer is Käufer GmbH – see clause 1.1 (“Parties”)."
    usage = {"input_tokens": 1200, "output_tokens": 34, "cache_creation_input_tokens": 1000,
             "cache_read_input_tokens": 64}
    api.script(Reply([Text(text)], usage=usage))
    with make_client(api).messages.stream(**ARGS) as stream:
        deltas = [event.text for event in stream if event.type == "text"]
        message = stream.get_final_message()
        assert stream.request_id.startswith("req_")
    assert len(deltas) > 3 and "".join(deltas) == text
    assert message.content[0].text == text and message.stop_reason == "end_turn"
    assert message.model == "claude-sonnet-4-5"
    assert message.usage.model_dump(include=set(usage)) == usage


def test_default_usage_follows_request_and_reply_sizes(api):
    api.script(Reply([Text("x" * 400)]))
    with make_client(api).messages.stream(**ARGS) as stream:
        usage = stream.get_final_message().usage
    assert usage.input_tokens == len(api.requests[0].raw) // 4
    assert usage.output_tokens == 100
    assert usage.cache_creation_input_tokens == 0 and usage.cache_read_input_tokens == 0


def test_tool_use_input_is_split_into_json_deltas_and_reassembled(api):
    tool = ToolUse("get_document_outline", TOOL_INPUT)
    api.script(Reply([Text("Let me look."), tool], stop_reason="tool_use"),
               Reply([Text("Let me look."), ToolUse("get_document_outline", TOOL_INPUT)], stop_reason="tool_use"))
    client = make_client(api)
    events = list(client.messages.create(stream=True, **ARGS))
    partials = [e.delta.partial_json for e in events
                if e.type == "content_block_delta" and e.delta.type == "input_json_delta"]
    assert len(partials) > 3 and json.loads("".join(partials)) == TOOL_INPUT
    assert "".join(partials) == json.dumps(TOOL_INPUT, ensure_ascii=False)
    cuts = [p[-1] + q[0] for p, q in zip(partials, partials[1:])]
    assert any(not pair.isascii() for pair in cuts), "no cut lands next to a multi-byte character"
    assert [e.type for e in events][:2] == ["message_start", "content_block_start"]  # the SDK drops ping

    with client.messages.stream(**ARGS) as stream:
        message = stream.get_final_message()
    block = message.content[1]
    assert message.stop_reason == "tool_use" and message.content[0].text == "Let me look."
    assert block.type == "tool_use" and block.name == "get_document_outline" and block.input == TOOL_INPUT
    first_id = [e.content_block for e in events if e.type == "content_block_start"][1].id
    assert first_id == tool.id and block.id.startswith("toolu_") and block.id != first_id


def test_scripted_tool_id_is_used(api):
    tool = ToolUse("find_text", {"query": "x"}, id="toolu_fixed")
    api.script(Reply([tool], stop_reason="tool_use"))
    with make_client(api).messages.stream(**ARGS) as stream:
        assert stream.get_final_message().content[0].id == "toolu_fixed"


def test_invalid_tool_json_reaches_the_client_verbatim(api):
    raw = '{"query": x}'
    api.script(Reply([ToolUse("find_text", raw_json=raw)], stop_reason="tool_use"),
               Reply([ToolUse("find_text", raw_json=raw)], stop_reason="tool_use"))
    client = make_client(api)
    partials = [e.delta.partial_json for e in client.messages.create(stream=True, **ARGS)
                if e.type == "content_block_delta"]
    assert "".join(partials) == raw
    with pytest.raises(ValueError, match="Unable to parse tool parameter JSON"):  # raised mid-iteration
        with client.messages.stream(**ARGS) as stream:
            stream.get_final_message()


def test_truncated_tool_json_is_accepted_by_the_sdk_as_partial(api):
    """The SDK parses tool input in partial mode, so a JSON text cut short is not an error to it."""
    api.script(Reply([ToolUse("find_text", raw_json='{"query": "x", "limit"')], stop_reason="tool_use"))
    with make_client(api).messages.stream(**ARGS) as stream:
        assert stream.get_final_message().content[0].input == {"query": "x"}


def test_request_is_recorded(api):
    api.script(Reply([Text("Done.")]))
    with make_client(api).messages.stream(**ARGS) as stream:
        stream.until_done()
    (request,) = api.requests
    assert request.method == "POST" and request.path == "/v1/messages" and request.outcome == "complete"
    assert request.json["stream"] is True and request.json["tools"] == TOOLS
    assert request.json["system"] == "You review contracts." and request.json["messages"] == ARGS["messages"]
    # this SDK sends the api_key as a bearer token, not as x-api-key
    assert request.headers["authorization"] == "Bearer test-key" and "x-api-key" not in request.headers
    assert request.headers["anthropic-version"] and request.headers["x-stainless-retry-count"] == "0"
    assert api.remaining == 0


@pytest.mark.parametrize("status, error_type, exc_class", [
    (401, "authentication_error", anthropic.AuthenticationError),
    (403, "permission_error", anthropic.PermissionDeniedError),
    (429, "rate_limit_error", anthropic.RateLimitError),
    (500, "api_error", anthropic.InternalServerError),
    (529, "overloaded_error", anthropic.OverloadedError),
])
def test_http_errors_raise_the_sdk_status_classes(api, status, error_type, exc_class):
    api.script(HttpError(status, error_type, "Nope", headers={"retry-after": "0"}))
    with pytest.raises(exc_class) as caught:
        with make_client(api, max_retries=0).messages.stream(**ARGS):
            pytest.fail("the request itself should raise, on entering the stream")
    exc = caught.value
    assert type(exc) is exc_class and isinstance(exc, anthropic.APIStatusError)
    assert exc.status_code == status and exc.type == error_type and exc.api_message == "Nope"
    assert exc.request_id.startswith("req_")
    assert len(api.requests) == 1


def test_rate_limit_is_retried_then_the_reply_succeeds(api):
    api.script(HttpError(429, "rate_limit_error", "Slow down", headers={"retry-after": "0"}), Reply([Text("Done.")]))
    with make_client(api, max_retries=1).messages.stream(**ARGS) as stream:
        assert stream.get_final_text() == "Done."
    first, second = api.requests
    assert (first.outcome, second.outcome) == ("http_error", "complete")
    assert second.headers["x-stainless-retry-count"] == "1" and second.json == first.json


def test_stream_error_raises_api_status_error_during_iteration(api):
    api.script(StreamError("overloaded_error", "Overloaded", after_events=3))
    seen = []
    with pytest.raises(anthropic.APIStatusError) as caught:
        with make_client(api, max_retries=2).messages.stream(**ARGS) as stream:
            seen.extend(event.type for event in stream)
    exc = caught.value
    assert type(exc) is anthropic.APIStatusError  # the base class: the HTTP status was 200
    assert exc.status_code == 200 and exc.type == "overloaded_error" and exc.api_message == "Overloaded"
    assert exc.body == {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    assert seen == ["message_start", "content_block_start"]  # after_events=3 counts the ping
    assert [r.outcome for r in api.requests] == ["stream_error"]  # a failure mid-stream is not retried


@pytest.mark.parametrize("helper", ["stream", "create"])
def test_drop_raises_remote_protocol_error_during_iteration(api, helper):
    api.script(Drop(after_events=4))
    client = make_client(api, max_retries=2)
    seen = []
    started = time.monotonic()
    with pytest.raises(httpx2.RemoteProtocolError, match="incomplete chunked read") as caught:
        if helper == "stream":
            with client.messages.stream(**ARGS) as stream:
                seen.extend(event.type for event in stream)
        else:
            seen.extend(event.type for event in client.messages.create(stream=True, **ARGS))
    assert not isinstance(caught.value, anthropic.APIError)  # not wrapped into APIConnectionError
    assert time.monotonic() - started < 5
    assert "content_block_delta" in seen and "message_stop" not in seen
    assert [r.outcome for r in api.requests] == ["dropped"]


def test_exhausted_script_answers_500_without_inviting_retries(api):
    with pytest.raises(anthropic.InternalServerError) as caught:
        make_client(api, max_retries=2).messages.create(stream=True, **ARGS)
    assert caught.value.status_code == 500 and caught.value.api_message == EXHAUSTED_MESSAGE
    assert [r.outcome for r in api.requests] == ["exhausted"]


def test_other_routes_answer_404(api):
    response = httpx2.get(api.base_url + "/v1/models")
    assert response.status_code == 404 and response.json()["error"]["type"] == "not_found_error"
    assert api.requests[0].outcome == "not_found" and api.requests[0].method == "GET"


def test_gated_reply_lets_the_client_stop_mid_stream(api):
    gate = threading.Event()
    api.script(Reply([Text("One two three four five six seven.")], gate=gate, chunk=3))
    with make_client(api).messages.stream(**ARGS) as stream:
        first = next(event.text for event in stream if event.type == "text")
    gate.set()
    request = api.wait_for_request(1)
    assert request.done.wait(5) and request.outcome == "client_disconnected"
    assert first and "One two three".startswith(first)


def test_close_is_prompt_with_a_client_connected_and_the_gate_never_set():
    api = FakeMessagesAPI()
    api.script(Reply([Text("One two three four five six seven.")], gate=threading.Event(), delay=0.01))
    stream = make_client(api).messages.stream(**ARGS).__enter__()
    events = iter(stream)
    assert next(e for e in events if e.type == "text")
    started = time.monotonic()
    api.close()
    assert time.monotonic() - started < 2
    assert api.requests[0].outcome == "server_closed"
    with pytest.raises(httpx2.RemoteProtocolError):
        list(events)
    api.close()  # idempotent


def test_wait_for_request_times_out_clearly(api):
    with pytest.raises(TimeoutError, match="waited for 1"):
        api.wait_for_request(1, timeout=0.05)


def test_the_prompt_cache_reads_a_repeated_prefix_and_writes_the_new_one(api):
    """As the API documents it: a prefix up to a cache_control breakpoint is written; a later request with
    the same blocks up to a breakpoint (or up to 20 blocks before one) reads it; only the rest is input."""
    system = [{"type": "text", "text": "You review contracts. " * 300, "cache_control": {"type": "ephemeral"}}]
    first_turn = [{"role": "user", "content": [{"type": "text", "text": "Who is the buyer?",
                                                "cache_control": {"type": "ephemeral"}}]}]
    api.script(Reply([Text("Käufer GmbH.")]), Reply([Text("Clause 1.")]), Reply([Text("Yes.")]))
    client = make_client(api)

    def usage_of(messages, system=system):
        with client.messages.stream(model=MODEL, max_tokens=64, system=system, tools=TOOLS,
                                    messages=messages) as stream:
            return stream.get_final_message().usage

    first = usage_of(first_turn)
    assert first.cache_read_input_tokens == 0 and first.cache_creation_input_tokens > 1024
    assert first.input_tokens + first.cache_creation_input_tokens == len(api.requests[0].raw) // 4
    # the conversation goes on: the breakpoint moves to the new last message, the old prefix is read
    second_turn = [{"role": "user", "content": [{"type": "text", "text": "Who is the buyer?"}]},
                   {"role": "assistant", "content": [{"type": "text", "text": "Käufer GmbH."}]},
                   {"role": "user", "content": [{"type": "text", "text": "Where?",
                                                 "cache_control": {"type": "ephemeral"}}]}]
    second = usage_of(second_turn)
    assert second.cache_read_input_tokens == first.cache_creation_input_tokens
    assert 0 < second.cache_creation_input_tokens < 40  # only the two new messages are written
    assert second.input_tokens + second.cache_creation_input_tokens + second.cache_read_input_tokens == \
        len(api.requests[1].raw) // 4
    assert api.requests[1].usage == {k: getattr(second, k) for k in api.requests[1].usage}
    # a different system prompt is a different prefix: nothing to read
    changed = [dict(system[0], text="You draft contracts. " * 300)]
    assert usage_of(first_turn, changed).cache_read_input_tokens == 0


def test_the_prompt_cache_skips_short_prefixes_and_refuses_five_breakpoints(api):
    mark = {"type": "ephemeral"}
    api.script(Reply([Text("a")]), Reply([Text("b")]))
    client = make_client(api)
    with client.messages.stream(**dict(ARGS, system=[{"type": "text", "text": "Short.", "cache_control": mark}])) as s:
        usage = s.get_final_message().usage
    assert usage.cache_creation_input_tokens == 0 and usage.input_tokens == len(api.requests[0].raw) // 4
    blocks = [{"type": "text", "text": f"part {i}", "cache_control": mark} for i in range(5)]
    with pytest.raises(anthropic.BadRequestError, match="A maximum of 4 blocks with cache_control"):
        client.messages.create(**dict(ARGS, messages=[{"role": "user", "content": blocks}]))
