"""The model loop: one user turn = stream a reply, run the tools it calls, feed the results back,
until the model ends its turn (or is stopped, or fails).

No Qt here: the chat panel runs run_turn in a worker thread and gives it a run_tool that executes
each call on the GUI thread; the headless `review` command calls tools directly.

The conversation (self.messages) stays valid for the next turn whatever happens: a reply cut off
by a stop or a fault is dropped, every tool_use gets a tool_result (run or not), a new user message
merges into a trailing user message rather than breaking the user/assistant alternation, and every
request is trimmed to the model's context window first (context.py), so a long review never
dead-ends on "prompt is too long". Each stop reason is reported as what it is (TurnResult.status).

No request can hang the turn (transport.py): connect, first-byte, stall and overall deadlines end
it with a plain message, and Stop ends it within a fraction of a second in every phase.
"""

from __future__ import annotations

import copy
import json
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from . import context
from .faults import (
    RETRY_WAIT_LIMIT_S,
    AssistantError,
    classify,
    setup_error,
    stop_reason_error,
    too_long_to_wait,
)
from .models import ModelLimits, limits_for, reply_tokens
from .pricing import Usage
from .prompts import system_prompt
from .settings import AssistantSettings
from .transport import SocketTracker, StreamedRequest, Timeouts, make_client
from .transport import Stopped as _Stopped

MAX_ROUNDS = 40  # requests in one turn (tool rounds and pause continuations) before the loop gives up
MAX_ATTEMPTS = 3  # tries of one request on a retryable fault that struck before any text arrived
MAX_NO_ANSWER_ATTEMPTS = 2  # of those, tries that got no answer in time (a hung server rarely recovers)
MAX_PAUSES = 5  # pause_turn continuations in one turn
REFUSED_SHARE = 0.75  # after "prompt is too long", requests stay under this share of the refused one
PARAMS_OVERHEAD = 50  # tokens of a request besides system, tools and messages (role markers, params)
NOT_RUN_CONTEXT = ("Not run: the reply reached the model's context window limit before this call was "
                   "complete. Older tool results have been shortened; call the tool again if you still need it.")
NOT_RUN_ENDED = "Not run: the reply ended ({reason}) without waiting for this call's result."
_MAX_TOKENS_LIMIT = re.compile(r"max_tokens:\s*(\d+)\s*>\s*(\d+)")


def backoff_s(attempt: int) -> float:
    """The wait before try attempt + 1 when the API does not say how long: 1 s, 2 s, ..."""
    return float(2 ** (attempt - 1))


def worst_case_silent_s(timeouts: Timeouts) -> float:
    """How long a server that sends no content can hold a turn: each try waits first_byte (connect
    included) or, once headers came, stall; the tries are separated by the backoff; and all of it
    is cut at Timeouts.answer from sending."""
    tries = MAX_NO_ANSWER_ATTEMPTS
    planned = tries * max(timeouts.first_byte, timeouts.stall) + sum(backoff_s(a) for a in range(1, tries))
    return min(planned, timeouts.answer)


class TurnListener:
    """What a turn reports as it goes (called on the loop's thread). Override what you need."""

    def text_delta(self, text: str) -> None: ...

    def thinking_delta(self, text: str) -> None: ...

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
    # completed | stopped | failed | max_tokens | refusal | model_context_window_exceeded | pause_turn,
    # or a stop reason this app does not know, as the API sent it
    status: str
    text: str = ""
    usage: Usage = field(default_factory=Usage)
    error: AssistantError | None = None
    tool_calls: list[ToolCall] = field(default_factory=list)


class ModelLoop:
    def __init__(self, settings: AssistantSettings, run_tool: Callable[[str, dict], dict], tools: list[dict],
                 system: str | None = None, max_tokens: int | None = None, client=None,
                 timeouts: Timeouts | None = None, limits: ModelLimits | None = None, thinking: dict | None = None):
        self.settings = settings
        self.run_tool = run_tool
        self.tools = tools
        self.system = system  # None: the review prompt, dated the day each request is made
        self.max_tokens = max_tokens  # None: what the model allows (models.reply_tokens)
        self.timeouts = timeouts or Timeouts.from_env()
        self.thinking = thinking  # e.g. {"type": "adaptive"}; None: the model's own default
        self.messages: list[dict] = []
        self.total = Usage()
        self._client = client
        self._client_lock = threading.Lock()
        self._tracker = SocketTracker()  # the sockets of the client made here, for Stop to cut
        self._limits = limits  # None: models.limits_for(settings.model)
        self._learned: dict[str, int] = {}  # limits the API told us are lower than the table's
        self._scale = 1.0  # measured tokens / local estimate, from the last usage or error
        self._refused: int | None = None  # unscaled estimate of the smallest request refused as too long
        self._protected: set[str] = set()  # tool_use ids of the round the model has not answered yet
        self._turn_start = 0  # index of the current turn's first message
        self._turn_block: dict | None = None  # the text block the lawyer sent this turn

    @property
    def system_text(self) -> str:
        return self.system if self.system is not None else system_prompt()

    def new_conversation(self) -> None:
        self.messages = []
        self.total = Usage()
        self._protected = set()
        self._refused = None

    def client(self):
        """The SDK client, made on first use (importing anthropic takes a second or two); called on
        request threads, so an abandoned request and the next one may ask at once."""
        with self._client_lock:
            if self._client is None:
                self._client = make_client(self.settings, self.timeouts, self._tracker)
            return self._client

    # -- limits ----------------------------------------------------------------------------------------

    @property
    def limits(self) -> ModelLimits:
        base = self._limits or limits_for(self.settings.model)
        return ModelLimits(min(base.context_window, self._learned.get("context_window", base.context_window)),
                           min(base.max_output, self._learned.get("max_output", base.max_output)))

    def reply_tokens(self) -> int:
        """max_tokens of the next request (thinking counts against it)."""
        limits = self.limits
        if self.max_tokens:
            return min(self.max_tokens, limits.max_output)
        budget = (self.thinking or {}).get("budget_tokens")
        return reply_tokens(limits, budget if isinstance(budget, int) else None)

    def budget(self) -> int:
        """Input tokens one request may carry: what the window leaves beside the reply, and once the
        API has refused a request as too long, well under that request whatever the estimate says."""
        budget = context.budget_for(self.limits.context_window, self.reply_tokens())
        if self._refused is not None:
            budget = min(budget, int(self._refused * REFUSED_SHARE * self._scale))
        return budget

    def _fixed_tokens(self) -> int:
        return context.estimate(self.system_text) + context.estimate(self.tools) + PARAMS_OVERHEAD

    def estimate(self) -> int:
        """Scaled token estimate of the next request as the conversation stands."""
        return int((self._fixed_tokens() + context.estimate(self.messages)) * self._scale)

    def _fit(self, listener: TurnListener):
        report = context.fit(self.messages, fixed=self._fixed_tokens(), budget=self.budget(), scale=self._scale,
                             protected=self._protected, keep_from=self._turn_start)
        self._turn_start -= report.dropped
        if report.changed:
            what = [f"{report.elided} older tool result(s) shortened"] if report.elided else []
            if report.dropped:
                what.append(f"{report.dropped} earlier message(s) left out")
            listener.notice(f"The conversation was trimmed to stay within what {self.settings.model} can read "
                            f"at once ({', '.join(what)}); Claude can read the document again if it needs to.")
        return report

    # -- a turn ------------------------------------------------------------------------------------

    def run_turn(self, text: str, listener: TurnListener | None = None,
                 stop: threading.Event | None = None) -> TurnResult:
        listener = listener or TurnListener()
        stop = stop or threading.Event()
        if (unready := setup_error(self.settings)) is not None:
            return TurnResult("failed", error=unready)
        result = TurnResult("completed")
        self._turn_block = {"type": "text", "text": text}
        self._add_user_content([self._turn_block])
        self._turn_start = len(self.messages) - 1
        self._protected = set()  # results of earlier turns may be elided now
        pauses = 0
        try:
            for _round in range(MAX_ROUNDS):
                reply = self._request(listener, stop)
                turn_usage = reply["usage"]
                result.usage.add(turn_usage)
                self.total.add(turn_usage)
                listener.usage(result.usage, self.total)
                content, calls, reason = reply["content"], reply["calls"], reply["stop_reason"]
                result.text += "".join(b["text"] for b in content if b["type"] == "text")
                if reason == "max_tokens":
                    # a cut-off tool call cannot be run or answered: keep only the text
                    kept = [b for b in content if b["type"] == "text"]
                    if kept:
                        self._append_assistant(kept)
                    return self._ended(result, reason)
                if reason == "refusal":
                    # the API's advice: do not carry a refused exchange forward, or the next turn is refused too
                    self._rollback_turn()
                    return self._ended(result, reason)
                if content:
                    self._append_assistant(content)
                if reason == "model_context_window_exceeded":
                    self._answer_unrun(calls, NOT_RUN_CONTEXT, listener)
                    return self._ended(result, reason)
                if calls and reason in ("tool_use", "pause_turn"):
                    self._add_user_content(self._run_tools(calls, listener, stop, result))
                    self._protected = {c["id"] for c in calls}
                    if stop.is_set():
                        raise _Stopped
                    continue
                if calls:  # a tool_use the reply did not stop for: answer it, or the next request is refused
                    self._answer_unrun(calls, NOT_RUN_ENDED.format(reason=reason), listener)
                if reason == "pause_turn":
                    # the server paused a long turn: sending its content back lets it go on
                    pauses += 1
                    if pauses > MAX_PAUSES:
                        return self._ended(result, reason, pauses - 1)
                    continue
                if reason in (None, "end_turn", "stop_sequence"):
                    return result
                return self._ended(result, reason)
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
        finally:
            self._protected = set()

    @staticmethod
    def _ended(result: TurnResult, reason: str, continued: int = 0) -> TurnResult:
        result.status = reason
        result.error = stop_reason_error(reason, continued)
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
                # compact: every byte of a result is sent again with each later request
                body = json.dumps(envelope.get("result"), ensure_ascii=False, separators=(",", ":"))
                out.append(_tool_result(call["id"], body, False))
            else:
                out.append(_tool_result(call["id"], str(envelope.get("error")), True))
        return out

    def _answer_unrun(self, calls: list[dict], why: str, listener: TurnListener) -> None:
        if not calls:
            return
        for call in calls:
            listener.tool_finished(call["id"], call["name"], {"ok": False, "error": why})
        self._add_user_content([_tool_result(call["id"], why, True) for call in calls])

    def _add_user_content(self, blocks: list[dict]) -> None:
        if self.messages and self.messages[-1]["role"] == "user":
            content = self.messages[-1]["content"]
            if isinstance(content, str):
                content = [{"type": "text", "text": content}]
            self.messages[-1]["content"] = content + blocks
        else:
            self.messages.append({"role": "user", "content": list(blocks)})

    def _append_assistant(self, content: list[dict]) -> None:
        """A continued (paused) turn adds to the assistant message it continues."""
        if self.messages and self.messages[-1]["role"] == "assistant":
            self.messages[-1]["content"] = self.messages[-1]["content"] + content
        else:
            self.messages.append({"role": "assistant", "content": content})

    def _rollback_turn(self) -> None:
        """Take this turn out of the conversation: the lawyer's text and everything after it."""
        for i in range(len(self.messages) - 1, -1, -1):
            message = self.messages[i]
            content = message["content"]
            if message["role"] != "user" or not isinstance(content, list):
                continue
            at = next((k for k, b in enumerate(content) if b is self._turn_block), None)
            if at is None:
                continue
            del self.messages[i + 1:]
            message["content"] = content[:at]
            if not message["content"]:
                del self.messages[i]
            return

    # -- one request ---------------------------------------------------------------------------------

    def _params(self) -> dict:
        tools = copy.deepcopy(self.tools)
        if tools:
            tools[-1]["cache_control"] = {"type": "ephemeral"}
        messages = copy.deepcopy(self.messages)
        last = messages[-1]["content"] if messages else None
        if isinstance(last, list):
            # the conversation so far is reused next round; thinking blocks cannot carry a breakpoint
            marked = next((b for b in reversed(last) if b.get("type") not in ("thinking", "redacted_thinking")), None)
            if marked is not None:
                marked["cache_control"] = {"type": "ephemeral"}
        params = {"model": self.settings.model, "max_tokens": self.reply_tokens(), "tools": tools,
                  "messages": messages,
                  "system": [{"type": "text", "text": self.system_text, "cache_control": {"type": "ephemeral"}}]}
        if self.thinking:
            params["thinking"] = dict(self.thinking)
        return params

    def _request(self, listener: TurnListener, stop: threading.Event) -> dict:
        attempt = no_answer = 0
        trimmed_hard = learned_max = False
        answer_by = time.monotonic() + self.timeouts.answer  # every try and wait of this request fits in it
        while True:
            attempt += 1
            streamed = [False]
            self._fit(listener)
            params = self._params()
            sent = self._fixed_tokens() + context.estimate(self.messages)  # unscaled
            try:
                reply = self._stream(params, listener, stop, streamed, answer_by)
                self._calibrate(reply["measured"], sent)
                return reply
            except _Stopped:
                raise
            except Exception as exc:  # noqa: BLE001 - every fault becomes an AssistantError below
                if stop.is_set():
                    raise _Stopped from exc
                error = classify(exc, self.settings.model, self.settings.provider)
                detail = str(getattr(exc, "message", "") or exc)
            if error.kind == "prompt_too_long":
                self._learn_too_long(detail, sent)
                if not trimmed_hard:
                    trimmed_hard = True
                    if self._fit(listener).changed:  # under the refused size now (budget())
                        attempt -= 1
                        continue
                raise _Failed(self._too_long_error())
            limit = _MAX_TOKENS_LIMIT.search(detail) if error.kind == "bad_request" else None
            if limit and not learned_max and int(limit.group(2)) < params["max_tokens"]:
                learned_max = True  # the table overrated this model's output limit: use the API's figure
                self._learned["max_output"] = int(limit.group(2))
                attempt -= 1
                continue
            if error.kind == "timeout" and error.retryable:
                no_answer += 1
                error.retryable = no_answer < MAX_NO_ANSWER_ATTEMPTS
            if error.retry_after is not None and error.retry_after > RETRY_WAIT_LIMIT_S:
                error = too_long_to_wait(error)  # report the real wait; sitting through it helps no one
            if error.retryable and not streamed[0] and attempt < MAX_ATTEMPTS and \
                    self._fits(answer_by, error.retry_after if error.retry_after is not None else backoff_s(attempt)):
                delay = error.retry_after if error.retry_after is not None else backoff_s(attempt)
                tries = MAX_ATTEMPTS if error.kind != "timeout" else \
                    min(MAX_ATTEMPTS, attempt + MAX_NO_ANSWER_ATTEMPTS - no_answer)
                listener.notice(f"{error.message} Retrying in {delay:.0f} s (attempt {attempt + 1} of {tries}).")
                if stop.wait(delay):
                    raise _Stopped
                continue
            if streamed[0]:
                error.message += " The partial reply above was not kept; send your message again to retry."
            raise _Failed(error)

    def _fits(self, answer_by: float, delay: float) -> bool:
        """Whether a retry after ``delay`` still leaves a connect's worth of time before answer_by."""
        return time.monotonic() + delay + self.timeouts.connect < answer_by

    def _calibrate(self, measured: int, sent: int) -> None:
        if measured > 0 and sent > 0:
            self._scale = context.clamp_scale(measured / sent)

    def _learn_too_long(self, detail: str, sent: int) -> None:
        self._refused = min(sent, self._refused or sent)
        numbers = context.parse_too_long(detail)
        if numbers is None:
            self._scale = context.clamp_scale(self._scale * 1.25)
            return
        tokens, maximum = numbers
        self._scale = context.clamp_scale(max(self._scale * 1.05, tokens / max(sent, 1)))
        if maximum < self.limits.context_window:
            self._learned["context_window"] = maximum

    def _too_long_error(self) -> AssistantError:
        model = self.settings.model
        if len(self.messages) - 1 == self._turn_start:
            # refused before any reply: take the message out so the next one is not refused with it
            self._rollback_turn()
            return AssistantError("prompt_too_long", f"This conversation has grown too long for {model} to read "
                                                     "at once, so your message was not sent. Send it again: older "
                                                     "parts of the conversation will be left out to make room. Or "
                                                     "start a new conversation.")
        return AssistantError("prompt_too_long", f"Claude's latest tool results are too long for {model} to read "
                                                 "at once, so the turn stopped there. Send a message to continue: "
                                                 "those results will be shortened to make room.")

    def _stream(self, params: dict, listener: TurnListener, stop: threading.Event, streamed: list,
                answer_by: float | None = None) -> dict:
        """Stream one reply from raw events (so a tool input that is not JSON is ours to report)."""
        blocks: dict[int, dict] = {}
        usage = Usage()
        measured = 0
        stop_reason = None
        finished = False
        request = StreamedRequest(self.client, self._tracker, params, self.timeouts, stop, answer_by)
        for event in request.events():
            kind = event.type
            if kind == "message_start":
                usage = Usage.from_api(event.message.usage)
                measured = usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens
            elif kind == "content_block_start":
                blocks[event.index] = _open_block(event.content_block)
                if blocks[event.index]["type"] in ("thinking", "redacted_thinking"):
                    # a model may think for minutes and stream only the signature: pings meanwhile are normal
                    request.stall = self.timeouts.thinking
            elif kind == "content_block_stop":
                request.stall = self.timeouts.stall
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
                    streamed[0] = True
                    listener.thinking_delta(delta.thinking)
                elif delta.type == "signature_delta":
                    block["signature"] += delta.signature
            elif kind == "message_delta":
                stop_reason = event.delta.stop_reason or stop_reason
                if getattr(event, "usage", None) is not None and event.usage.output_tokens is not None:
                    usage.output_tokens = event.usage.output_tokens
            elif kind == "message_stop":
                finished = True
        if stop.is_set():
            raise _Stopped
        if not finished:
            raise ConnectionError("the reply ended before the model finished it")
        reply = _finish(blocks, usage, stop_reason)
        reply["measured"] = measured
        return reply


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
