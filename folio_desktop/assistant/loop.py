"""The model loop: one user turn = stream a reply, run the tools it calls, feed the results back,
until the model ends its turn (or is stopped, or fails).

No Qt here: the chat panel runs run_turn in a worker thread and gives it a run_tool that executes
each call on the GUI thread; the headless `review` command calls tools directly. The conversation
(self.messages) stays valid for the next turn whatever happens: a reply cut off by a stop or a
fault is dropped, tool calls that never ran get an error result, and a new user message merges
into a trailing user message rather than breaking the user/assistant alternation.
"""

from __future__ import annotations

import copy
import json
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from .faults import AssistantError, classify, no_key_error
from .pricing import Usage
from .prompts import SYSTEM_PROMPT
from .settings import AssistantSettings

MAX_TOKENS = 8192
MAX_ROUNDS = 40  # tool rounds in one turn before the loop gives up
MAX_ATTEMPTS = 3  # tries of one request on a retryable fault that struck before any text arrived
REQUEST_TIMEOUT_S = 120.0


class TurnListener:
    """What a turn reports as it goes (called on the loop's thread). Override what you need."""

    def text_delta(self, text: str) -> None: ...

    def tool_started(self, call_id: str, name: str, args: dict) -> None: ...

    def tool_finished(self, call_id: str, name: str, envelope: dict) -> None: ...

    def notice(self, message: str) -> None: ...

    def usage(self, turn: Usage, total: Usage) -> None: ...


@dataclass
class ToolCall:
    id: str
    name: str
    input: dict
    envelope: dict  # execute_tool_call's {"ok": True, "result": ...} | {"ok": False, "error": ...}


@dataclass
class TurnResult:
    status: str  # completed | stopped | failed | max_tokens
    text: str = ""
    usage: Usage = field(default_factory=Usage)
    error: AssistantError | None = None
    tool_calls: list[ToolCall] = field(default_factory=list)


class _Stopped(Exception):
    pass


class ModelLoop:
    def __init__(self, settings: AssistantSettings, run_tool: Callable[[str, dict], dict], tools: list[dict],
                 system: str = SYSTEM_PROMPT, max_tokens: int = MAX_TOKENS, client=None):
        self.settings = settings
        self.run_tool = run_tool
        self.tools = tools
        self.system = system
        self.max_tokens = max_tokens
        self.messages: list[dict] = []
        self.total = Usage()
        self._client = client

    def new_conversation(self) -> None:
        self.messages = []
        self.total = Usage()

    def client(self):
        if self._client is None:
            import anthropic  # ~1 s to import: only when the first message is sent

            # retries are ours (visible in the panel and interruptible by Stop), so the SDK makes none
            self._client = anthropic.Anthropic(api_key=self.settings.api_key, base_url=self.settings.base_url or None,
                                               max_retries=0, timeout=REQUEST_TIMEOUT_S)
        return self._client

    # -- a turn ------------------------------------------------------------------------------------

    def run_turn(self, text: str, listener: TurnListener | None = None,
                 stop: threading.Event | None = None) -> TurnResult:
        listener = listener or TurnListener()
        stop = stop or threading.Event()
        if not self.settings.api_key:
            return TurnResult("failed", error=no_key_error())
        result = TurnResult("completed")
        self._add_user_content([{"type": "text", "text": text}])
        try:
            for _round in range(MAX_ROUNDS):
                reply = self._request(listener, stop)
                turn_usage = reply["usage"]
                result.usage.add(turn_usage)
                self.total.add(turn_usage)
                listener.usage(result.usage, self.total)
                content, calls = reply["content"], reply["calls"]
                result.text += "".join(b["text"] for b in content if b["type"] == "text")
                if reply["stop_reason"] == "max_tokens":
                    # a cut-off tool call cannot be run or answered: keep only the text
                    kept = [b for b in content if b["type"] == "text"]
                    if kept:
                        self.messages.append({"role": "assistant", "content": kept})
                    result.status = "max_tokens"
                    result.error = AssistantError("max_tokens", "The reply reached the output limit and was cut "
                                                                "off. Ask Claude to continue, or to answer more briefly.")
                    return result
                if content:
                    self.messages.append({"role": "assistant", "content": content})
                if reply["stop_reason"] != "tool_use" or not calls:
                    return result
                self._add_user_content(self._run_tools(calls, listener, stop, result))
                if stop.is_set():
                    raise _Stopped
            result.status = "failed"
            result.error = AssistantError("stream", f"Claude made more than {MAX_ROUNDS} rounds of tool calls in "
                                                    "one turn; stopped there. Send a message to continue.")
            return result
        except _Stopped:
            result.status = "stopped"
            return result
        except _Failed as failure:
            result.status = "failed"
            result.error = failure.error
            return result

    def _run_tools(self, calls: list[dict], listener: TurnListener, stop: threading.Event,
                   result: TurnResult) -> list[dict]:
        """Run the round's tool calls in order; each gets a tool_result, run or not."""
        out = []
        for call in calls:
            if stop.is_set():
                envelope = {"ok": False, "error": "The user stopped the turn before this tool ran."}
                listener.tool_finished(call["id"], call["name"], envelope)  # the panel shows it as not run
                out.append(_tool_result(call["id"], envelope["error"], True))
                continue
            if call["invalid"] is not None:
                envelope = {"ok": False, "error": f"The input for {call['name']} was not valid JSON "
                                                  f"({call['invalid']}). Send the call again with its "
                                                  "arguments as one JSON object."}
            else:
                listener.tool_started(call["id"], call["name"], call["input"])
                try:
                    envelope = self.run_tool(call["name"], call["input"])
                except Exception as exc:  # noqa: BLE001 - a tool failure is an answer to the model
                    envelope = {"ok": False, "error": f"{call['name']} failed: {exc}"}
            listener.tool_finished(call["id"], call["name"], envelope)
            result.tool_calls.append(ToolCall(call["id"], call["name"], call["input"], envelope))
            if envelope.get("ok"):
                body = json.dumps(envelope.get("result"), ensure_ascii=False)
                out.append(_tool_result(call["id"], body, False))
            else:
                out.append(_tool_result(call["id"], str(envelope.get("error")), True))
        return out

    def _add_user_content(self, blocks: list[dict]) -> None:
        if self.messages and self.messages[-1]["role"] == "user":
            content = self.messages[-1]["content"]
            if isinstance(content, str):
                content = [{"type": "text", "text": content}]
            self.messages[-1]["content"] = content + blocks
        else:
            self.messages.append({"role": "user", "content": list(blocks)})

    # -- one request ---------------------------------------------------------------------------------

    def _params(self) -> dict:
        tools = copy.deepcopy(self.tools)
        if tools:
            tools[-1]["cache_control"] = {"type": "ephemeral"}
        messages = copy.deepcopy(self.messages)
        last = messages[-1]["content"] if messages else None
        if isinstance(last, list) and last:
            last[-1]["cache_control"] = {"type": "ephemeral"}  # the conversation so far is reused next round
        return {"model": self.settings.model, "max_tokens": self.max_tokens, "tools": tools, "messages": messages,
                "system": [{"type": "text", "text": self.system, "cache_control": {"type": "ephemeral"}}]}

    def _request(self, listener: TurnListener, stop: threading.Event) -> dict:
        attempt = 0
        while True:
            attempt += 1
            streamed = [False]
            try:
                return self._stream(listener, stop, streamed)
            except _Stopped:
                raise
            except Exception as exc:  # noqa: BLE001 - every fault becomes an AssistantError below
                if stop.is_set():
                    raise _Stopped from exc
                error = classify(exc, self.settings.model)
            if error.retryable and not streamed[0] and attempt < MAX_ATTEMPTS:
                delay = error.retry_after if error.retry_after is not None else float(2 ** (attempt - 1))
                listener.notice(f"{error.message} Retrying in {delay:.0f} s (attempt {attempt + 1} of {MAX_ATTEMPTS}).")
                if stop.wait(delay):
                    raise _Stopped
                continue
            if streamed[0]:
                error.message += " The partial reply above was not kept; send your message again to retry."
            raise _Failed(error)

    def _stream(self, listener: TurnListener, stop: threading.Event, streamed: list) -> dict:
        """Stream one reply from raw events (so a tool input that is not JSON is ours to report)."""
        blocks: dict[int, dict] = {}
        usage = Usage()
        stop_reason = None
        finished = False
        stream = self.client().messages.create(stream=True, **self._params())
        done = threading.Event()
        # Stop must not wait for the server's next event: a watcher closes the response, which ends
        # the iteration below at once
        threading.Thread(target=_close_on_stop, args=(stream, stop, done), daemon=True).start()
        try:
            for event in stream:
                if stop.is_set():
                    raise _Stopped
                kind = event.type
                if kind == "message_start":
                    usage = Usage.from_api(event.message.usage)
                elif kind == "content_block_start":
                    blocks[event.index] = _open_block(event.content_block)
                elif kind == "content_block_delta":
                    block = blocks.get(event.index)
                    delta = event.delta
                    if block is None:
                        continue
                    if delta.type == "text_delta":
                        block["text"] += delta.text
                        streamed[0] = True
                        listener.text_delta(delta.text)
                    elif delta.type == "input_json_delta":
                        block["partial_json"] += delta.partial_json
                    elif delta.type == "thinking_delta":
                        block["thinking"] += delta.thinking
                    elif delta.type == "signature_delta":
                        block["signature"] += delta.signature
                elif kind == "message_delta":
                    stop_reason = event.delta.stop_reason or stop_reason
                    if getattr(event, "usage", None) is not None and event.usage.output_tokens is not None:
                        usage.output_tokens = event.usage.output_tokens
                elif kind == "message_stop":
                    finished = True
        finally:
            done.set()
            stream.close()
        if stop.is_set():
            raise _Stopped
        if not finished:
            raise ConnectionError("the reply ended before the model finished it")
        return _finish(blocks, usage, stop_reason)


def _close_on_stop(stream, stop: threading.Event, done: threading.Event) -> None:
    """Wait for Stop while a reply streams; then shut the socket, which wakes the blocked read (closing
    the response object from another thread would not)."""
    while not done.is_set():
        if stop.wait(0.05):
            network = getattr(getattr(stream, "response", None), "extensions", {}).get("network_stream")
            sock = network.get_extra_info("socket") if network is not None else None
            try:
                if sock is not None:
                    sock.shutdown(socket.SHUT_RDWR)
                else:
                    stream.close()
            except OSError:  # already closed by the server or by the reader
                pass
            return


class _Failed(Exception):
    def __init__(self, error: AssistantError):
        super().__init__(error.message)
        self.error = error


def _open_block(block) -> dict:
    kind = block.type
    if kind == "text":
        return {"type": "text", "text": getattr(block, "text", "") or ""}
    if kind == "tool_use":
        return {"type": "tool_use", "id": block.id, "name": block.name, "partial_json": ""}
    if kind == "thinking":
        return {"type": "thinking", "thinking": getattr(block, "thinking", "") or "",
                "signature": getattr(block, "signature", "") or ""}
    if kind == "redacted_thinking":
        return {"type": "redacted_thinking", "data": block.data}
    return {"type": "other", "raw": block.model_dump(exclude_none=True)}


def _finish(blocks: dict[int, dict], usage: Usage, stop_reason: str | None) -> dict:
    """The reply as API content params, plus its tool calls with their parsed inputs."""
    content, calls = [], []
    for index in sorted(blocks):
        block = blocks[index]
        kind = block["type"]
        if kind == "text":
            if block["text"]:  # the API refuses empty text blocks in later requests
                content.append({"type": "text", "text": block["text"]})
        elif kind == "tool_use":
            raw = block["partial_json"].strip() or "{}"
            invalid = None
            try:
                args = json.loads(raw)
            except ValueError as exc:
                args, invalid = {}, str(exc)
            if not isinstance(args, dict):
                args, invalid = {}, "it is not a JSON object"
            content.append({"type": "tool_use", "id": block["id"], "name": block["name"], "input": args})
            calls.append({"id": block["id"], "name": block["name"], "input": args, "invalid": invalid})
        elif kind in ("thinking", "redacted_thinking"):
            content.append({k: v for k, v in block.items()})
        else:
            content.append(block["raw"])
    return {"content": content, "calls": calls, "usage": usage, "stop_reason": stop_reason}


def _tool_result(call_id: str, content: str, is_error: bool) -> dict:
    out = {"type": "tool_result", "tool_use_id": call_id, "content": content}
    if is_error:
        out["is_error"] = True
    return out
