"""A scripted stand-in for the Anthropic Messages API, served over a real socket on 127.0.0.1.

Tests of the assistant drive the real ``anthropic`` SDK against this server instead of mocking it, so
the SDK's own SSE parser, stream accumulation, retry policy and exception classes are what the app
meets. Each POST /v1/messages takes the next scripted step:

* ``Reply``: a complete SSE message (message_start, ping, content blocks, message_delta, message_stop),
  with text and tool-input JSON cut into several deltas, the way the real API streams them.
* ``HttpError``: a plain JSON error with that status (401, 403, 429, 500, 529, ...).
* ``StreamError``: HTTP 200, some events, then an SSE ``error`` event (e.g. overloaded mid-stream).
* ``Drop``: HTTP 200, some events, then the socket is shut down inside the chunked body.
* ``Silent``: reads the request and never answers (no status line) until the client hangs up or the
  server closes: a server that hung after accepting the connection.
* ``HeadersOnly``: HTTP 200 and the SSE headers, then nothing at all.
* ``Pings``: HTTP 200, optionally ``message_start``, then ``ping`` events forever: a stream kept alive
  without content.
* ``prompt_too_long()``: the HTTP 400 the API sends for a request over the model's context window.

``Reply`` blocks are ``Text``, ``ToolUse`` and ``Thinking`` (thinking_delta pieces, then one
signature_delta); any ``stop_reason`` string is sent as given (refusal, pause_turn,
model_context_window_exceeded, ...). ``BlackHole`` is a listening socket whose accept queue is full,
so a connection to it never completes: the client is stuck connecting.

Streams use chunked transfer encoding, one chunk per event, so the client sees each event as it is
sent and a dropped connection is an incomplete body rather than a clean end of stream.

Usage counts a request's input as its bytes // 4, split the way the real API's prompt cache splits it
(PromptCache): the prefix read from an earlier request's breakpoint is `cache_read_input_tokens`, the
prefix up to this request's last breakpoint beyond that is `cache_creation_input_tokens`, and
`input_tokens` is only the rest. ``Request.usage`` keeps what each request was told.
"""

from __future__ import annotations

import hashlib
import json
import random
import socket
import sys
import threading
import time
import uuid
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

MESSAGES_PATH = "/v1/messages"
CACHE_LOOKBACK = 20  # block boundaries before a breakpoint the API checks for an earlier cache entry
MAX_BREAKPOINTS = 4  # cache_control markers one request may carry
MIN_CACHEABLE_TOKENS = 1024  # a shorter prefix is not cached (the Sonnet and Opus minimum)
EXHAUSTED_MESSAGE = "fake server: no scripted response left"
GATE_TIMEOUT = 10.0
_POLL = 0.02


def _new_id(prefix: str) -> str:
    return prefix + uuid.uuid4().hex[:24]


@dataclass(frozen=True)
class Text:
    """A text block. ``quiet``: seconds of nothing but pings after the block starts."""

    text: str
    quiet: float = 0.0


@dataclass(frozen=True)
class ToolUse:
    """A tool_use block. ``raw_json`` streams that text verbatim (it may be invalid or truncated JSON)."""

    name: str
    input: dict[str, Any] | None = None
    id: str | None = None
    raw_json: str | None = None

    def __post_init__(self) -> None:
        if self.id is None:  # made here, so a test can read the id it scripted
            object.__setattr__(self, "id", _new_id("toolu_"))

    def json_text(self) -> str:
        if self.raw_json is not None:
            return self.raw_json
        return json.dumps(self.input or {}, ensure_ascii=False)  # the API sends UTF-8, not \\u escapes


@dataclass(frozen=True)
class Thinking:
    """A thinking block: its text as thinking_delta pieces, then the signature as one signature_delta.
    ``quiet``: seconds of nothing but pings after the block starts (a model thinking without
    streaming its thinking)."""

    thinking: str
    signature: str = "c2lnbmF0dXJlLW9mLXRoZS10aGlua2luZw=="
    quiet: float = 0.0


@dataclass
class Reply:
    """A complete streamed message. ``gate``: after the first content delta the server waits (up to
    GATE_TIMEOUT s) for this event, so a test can act on the client while it is mid-stream."""

    blocks: list[Text | ToolUse | Thinking]
    stop_reason: str = "end_turn"
    usage: dict[str, int] | None = None
    model: str = "claude-sonnet-4-5"
    chunk: int | None = None
    delay: float = 0.0
    seed: int = 0
    gate: threading.Event | None = None

    def events(self, request_bytes: int = 0, cached: dict[str, int] | None = None) -> list[tuple[str, dict[str, Any]]]:
        """The SSE events; ``cached``: the prompt cache's split of the input (PromptCache.account)."""
        rng = random.Random(self.seed)
        body: list[tuple[str, dict[str, Any]]] = []
        out_chars = 0
        for index, block in enumerate(self.blocks):
            if isinstance(block, Thinking):
                out_chars += len(block.thinking)
                body.append(("content_block_start", {"type": "content_block_start", "index": index,
                                                     "content_block": {"type": "thinking", "thinking": "",
                                                                       "signature": ""}}))
                if block.quiet:
                    body.append(("_quiet", {"seconds": block.quiet}))
                for piece in split_text(block.thinking, rng, self.chunk):
                    body.append(("content_block_delta", {"type": "content_block_delta", "index": index,
                                                         "delta": {"type": "thinking_delta", "thinking": piece}}))
                body.append(("content_block_delta", {"type": "content_block_delta", "index": index,
                                                     "delta": {"type": "signature_delta",
                                                               "signature": block.signature}}))
                body.append(("content_block_stop", {"type": "content_block_stop", "index": index}))
                continue
            if isinstance(block, Text):
                start: dict[str, Any] = {"type": "text", "text": ""}
                text, kind, key = block.text, "text_delta", "text"
            else:
                start = {"type": "tool_use", "id": block.id, "name": block.name, "input": {}}
                text, kind, key = block.json_text(), "input_json_delta", "partial_json"
            out_chars += len(text)
            body.append(("content_block_start", {"type": "content_block_start", "index": index,
                                                 "content_block": start}))
            if isinstance(block, Text) and block.quiet:
                body.append(("_quiet", {"seconds": block.quiet}))
            for piece in split_text(text, rng, self.chunk):
                body.append(("content_block_delta", {"type": "content_block_delta", "index": index,
                                                     "delta": {"type": kind, key: piece}}))
            body.append(("content_block_stop", {"type": "content_block_stop", "index": index}))
        cached = cached or {}
        read, written = cached.get("cache_read_input_tokens", 0), cached.get("cache_creation_input_tokens", 0)
        usage = {"input_tokens": max(1, request_bytes // 4 - read - written), "output_tokens": max(1, out_chars // 4),
                 "cache_creation_input_tokens": written, "cache_read_input_tokens": read, **(self.usage or {})}
        start_usage = {k: usage[k] for k in ("input_tokens", "cache_creation_input_tokens",
                                             "cache_read_input_tokens")}
        message = {"id": _new_id("msg_"), "type": "message", "role": "assistant", "model": self.model,
                   "content": [], "stop_reason": None, "stop_sequence": None,
                   "usage": {**start_usage, "output_tokens": 1}}
        return [
            ("message_start", {"type": "message_start", "message": message}),
            ("ping", {"type": "ping"}),
            *body,
            ("message_delta", {"type": "message_delta",
                               "delta": {"stop_reason": self.stop_reason, "stop_sequence": None},
                               "usage": {"output_tokens": usage["output_tokens"]}}),
            ("message_stop", {"type": "message_stop"}),
        ]


def split_text(text: str, rng: random.Random, chunk: int | None = None) -> list[str]:
    """Cut ``text`` into consecutive pieces of 1..chunk characters (random 1..12 by default).

    Cuts fall on ``str`` indices, so they land right next to multi-byte characters and inside JSON
    strings and escapes without ever producing invalid UTF-8. By default a text of two or more
    characters always gives at least two pieces, so the client's accumulation is always exercised."""
    top = chunk or min(12, max(1, len(text) // 2))
    pieces, i = [], 0
    while i < len(text):
        n = rng.randint(1, top)
        pieces.append(text[i:i + n])
        i += n
    return pieces


@dataclass(frozen=True)
class HttpError:
    status: int
    error_type: str
    message: str
    headers: dict[str, str] | None = None


def _cut_short() -> Reply:
    return Reply([Text("This answer is cut off before it is finished.")], chunk=5)


@dataclass(frozen=True)
class StreamError:
    """HTTP 200, ``after_events`` events of ``reply``, then ``event: error`` and the end of the body."""

    error_type: str
    message: str
    after_events: int = 3
    reply: Reply = field(default_factory=_cut_short)


@dataclass(frozen=True)
class Drop:
    """HTTP 200, ``after_events`` events of ``reply``, then the socket is shut down mid-body."""

    after_events: int = 4
    reply: Reply = field(default_factory=_cut_short)


@dataclass(frozen=True)
class Silent:
    """Read the request, then say nothing (not even a status line) until the client or server closes."""


@dataclass(frozen=True)
class HeadersOnly:
    """HTTP 200 with the SSE headers, then no event at all until the client or server closes."""


@dataclass(frozen=True)
class Pings:
    """HTTP 200, ``message_start`` (unless ``start`` is False), then a ``ping`` every ``interval`` s,
    forever: the keep-alive of a stream whose content never comes."""

    interval: float = 0.05
    start: bool = True


def prompt_too_long(tokens: int = 215_000, maximum: int = 200_000) -> HttpError:
    """The API's answer to a request over the context window (its wording, as of 2025)."""
    return HttpError(400, "invalid_request_error", f"prompt is too long: {tokens} tokens > {maximum} maximum")


Step = Reply | HttpError | StreamError | Drop | Silent | HeadersOnly | Pings


class PromptCache:
    """The Messages API's prompt cache, as documented: a request is read as a sequence of blocks (each
    tool, each system block, each content block of each message, in that order) and a block marked
    with ``cache_control`` is a breakpoint. The prefix up to a breakpoint is written to the cache (when
    it is at least ``min_tokens`` long); a later request whose blocks up to one of the last
    CACHE_LOOKBACK boundaries before one of its breakpoints equal a written prefix reads that prefix
    from the cache. Markers themselves are not part of what is compared. A prefix's tokens are its
    blocks' compact JSON bytes // 4 (entries never expire here: tests run within the 5 minutes)."""

    def __init__(self, min_tokens: int = MIN_CACHEABLE_TOKENS) -> None:
        self.min_tokens = min_tokens
        self._written: set[str] = set()

    @staticmethod
    def blocks(body: dict) -> list[tuple[dict, bool]]:
        """(block, is a breakpoint) in prefix order; a message's role goes with each of its blocks."""
        out: list[tuple[dict, bool]] = [(tool, "cache_control" in tool) for tool in body.get("tools") or ()]
        system = body.get("system")
        for block in [{"type": "text", "text": system}] if isinstance(system, str) else system or ():
            out.append((block, "cache_control" in block))
        for message in body.get("messages") or ():
            content = message.get("content")
            for block in [{"type": "text", "text": content}] if isinstance(content, str) else content or ():
                out.append(({"role": message.get("role"), **block}, "cache_control" in block))
        return out

    def account(self, body: Any) -> dict[str, int] | str:
        """{cache_read_input_tokens, cache_creation_input_tokens} for this request (writing its
        breakpoints' prefixes), or the API's error text for a request with too many breakpoints."""
        if not isinstance(body, dict):
            return {}
        blocks = self.blocks(body)
        marks = [i for i, (_block, mark) in enumerate(blocks) if mark]
        if len(marks) > MAX_BREAKPOINTS:
            return f"A maximum of {MAX_BREAKPOINTS} blocks with cache_control may be provided. Found {len(marks)}."
        digest = hashlib.sha256(str(body.get("model")).encode())
        keys, tokens, size = [], [], 0
        for block, _mark in blocks:
            plain = {k: v for k, v in block.items() if k != "cache_control"}
            text = json.dumps(plain, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
            digest.update(text.encode())
            keys.append(digest.copy().hexdigest())
            size += len(text.encode())
            tokens.append(size // 4)
        hits = [i for mark in marks for i in range(max(0, mark - CACHE_LOOKBACK + 1), mark + 1)
                if keys[i] in self._written]
        read = tokens[max(hits)] if hits else 0
        cacheable = [mark for mark in marks if tokens[mark] >= self.min_tokens]
        for mark in cacheable:
            self._written.add(keys[mark])
        written = max(0, tokens[cacheable[-1]] - read) if cacheable else 0
        return {"cache_read_input_tokens": read, "cache_creation_input_tokens": written}


class BlackHole:
    """A TCP port on 127.0.0.1 where connecting never completes: it listens with a backlog of 0 and
    its one queue slot is taken, so the kernel drops every further SYN (Linux; elsewhere the
    connect may fail or succeed instead). Use as a context manager."""

    def __init__(self) -> None:
        self._listener = socket.socket()
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(0)
        port = self._listener.getsockname()[1]
        self._filler = socket.create_connection(("127.0.0.1", port), timeout=2)  # fills the accept queue
        self.base_url = f"http://127.0.0.1:{port}"

    def __enter__(self) -> BlackHole:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        for sock in (self._filler, self._listener):
            try:
                sock.close()
            except OSError:
                pass


@dataclass
class Request:
    """One received request. ``outcome`` is set when its response ends: complete, client_disconnected,
    stream_error, dropped, http_error, exhausted, not_found or server_closed."""

    method: str
    path: str
    headers: dict[str, str]
    json: Any
    raw: bytes
    outcome: str = "pending"
    usage: dict[str, int] | None = None  # the input tokens it was told (input, cache writes, cache reads)
    done: threading.Event = field(default_factory=threading.Event, repr=False)
    # set once a Silent, HeadersOnly or Pings answer has sent all it will (for Pings: its first two pings)
    # and only holds the connection open
    holding: threading.Event = field(default_factory=threading.Event, repr=False)


class _Abort(Exception):
    """The stream ends early: the client went away or the server is closing."""


class FakeMessagesAPI:
    """A threaded HTTP server on a free port of 127.0.0.1; use as a context manager."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._script: deque[Step] = deque()
        self._requests: list[Request] = []
        self._conns: set[socket.socket] = set()
        self._threads: set[threading.Thread] = set()
        self._closing = threading.Event()
        self.cache = PromptCache()
        self._server = _Server(self)
        self.base_url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="fake-messages-api", daemon=True)
        self._thread.start()

    def __enter__(self) -> FakeMessagesAPI:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def script(self, *steps: Step) -> None:
        """Queue responses; each POST /v1/messages takes the next one."""
        with self._cond:
            self._script.extend(steps)

    @property
    def remaining(self) -> int:
        with self._cond:
            return len(self._script)

    @property
    def requests(self) -> list[Request]:
        with self._cond:
            return list(self._requests)

    def wait_for_request(self, n: int, timeout: float = 5.0) -> Request:
        """Block until ``n`` requests have arrived and return the n-th (1-based)."""
        with self._cond:
            if not self._cond.wait_for(lambda: len(self._requests) >= n, timeout):
                raise TimeoutError(f"{len(self._requests)} request(s) arrived, waited for {n}")
            return self._requests[n - 1]

    def close(self) -> None:
        """Stop promptly: end the accept loop, cut every open connection, release waits on gates."""
        if self._closing.is_set():
            return
        self._closing.set()
        self._server.shutdown()
        with self._cond:
            conns, threads = list(self._conns), list(self._threads)
        for conn in conns:
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        self._server.server_close()
        for thread in [self._thread, *threads]:
            thread.join(timeout=2)

    def account(self, body: Any) -> dict[str, int] | str:
        with self._cond:
            return self.cache.account(body)

    def _take(self, request: Request, routed: bool) -> Step | None:
        with self._cond:
            self._requests.append(request)
            step = self._script.popleft() if routed and self._script else None
            self._cond.notify_all()
            return step


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False  # close() joins the handler threads itself, with a timeout

    def __init__(self, api: FakeMessagesAPI) -> None:
        self.api = api
        super().__init__(("127.0.0.1", 0), _Handler)

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], OSError):  # a client that hangs up is not news
            super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def setup(self) -> None:
        super().setup()
        with self.server.api._cond:
            self.server.api._conns.add(self.connection)
            self.server.api._threads.add(threading.current_thread())

    def finish(self) -> None:
        with self.server.api._cond:
            self.server.api._conns.discard(self.connection)
            self.server.api._threads.discard(threading.current_thread())
        try:
            super().finish()
        except OSError:
            pass

    def log_message(self, *args: Any) -> None:  # keep test output quiet
        pass

    def do_POST(self) -> None:
        self._serve()

    do_GET = do_PUT = do_DELETE = do_PATCH = do_POST

    NAME = "fake server"  # in the not-found message

    def _routed(self, request: Request) -> bool:
        """Whether the request is on the Messages route (a cloud's fake routes by its own paths)."""
        return self.command == "POST" and urlsplit(self.path).path == MESSAGES_PATH

    def _side_route(self, request: Request) -> bool:
        """Answer a request off the Messages route (a cloud's token endpoint); False when it is not one."""
        return False

    def _cache_split(self, request: Request) -> dict[str, int] | str:
        """The prompt cache's split of the request's input, or the API's refusal (PromptCache.account)."""
        return self.server.api.account(request.json)

    def _serve(self) -> None:
        raw = self.rfile.read(int(self.headers.get("content-length") or 0))
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        request = Request(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body, raw)
        if self._side_route(request):
            return
        routed = self._routed(request)
        step = self.server.api._take(request, routed)
        try:
            if not routed:
                request.outcome = "not_found"
                self._send_error(404, "not_found_error", f"{self.NAME}: no route for {self.command} {self.path}",
                                 {"x-should-retry": "false"})
            elif step is None:  # x-should-retry: false, so an over-call fails at once, even with retries on
                request.outcome = "exhausted"
                self._send_error(500, "api_error", EXHAUSTED_MESSAGE, {"x-should-retry": "false"})
            elif isinstance(step, HttpError):
                request.outcome = "http_error"
                self._send_error(step.status, step.error_type, step.message, step.headers)
            elif isinstance(step, Silent):
                self._hold(request)
            elif isinstance(step, HeadersOnly):
                self._sse_headers()
                self._hold(request)
            elif isinstance(step, Pings):
                self._pings(step, request)
            elif isinstance(cached := self._cache_split(request), str):
                request.outcome = "http_error"  # too many cache breakpoints: the API refuses the request
                self._send_error(400, "invalid_request_error", cached, {"x-should-retry": "false"})
            else:
                self._stream(step, request, cached)
        except (_Abort, OSError):
            request.outcome = "server_closed" if self.server.api._closing.is_set() else "client_disconnected"
            self.close_connection = True
        finally:
            request.done.set()

    def _send_error(self, status: int, error_type: str, message: str, headers: dict[str, str] | None) -> None:
        request_id = _new_id("req_")
        data = json.dumps({"type": "error", "error": {"type": error_type, "message": message},
                           "request_id": request_id}).encode()
        self.send_response(status)
        for name, value in {"content-type": "application/json", "content-length": str(len(data)),
                            "request-id": request_id, **(headers or {})}.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def _hold(self, request: Request) -> None:
        """Say nothing more; end (as an abort) once the client hangs up or the server closes."""
        self.wfile.flush()
        request.holding.set()
        while not self.server.api._closing.wait(_POLL):
            if self._peer_closed():
                raise _Abort
        raise _Abort

    def _sse_headers(self) -> None:
        self.send_response(200)
        for name, value in (("content-type", "text/event-stream; charset=utf-8"), ("cache-control", "no-cache"),
                            ("transfer-encoding", "chunked"), ("request-id", _new_id("req_"))):
            self.send_header(name, value)
        self.end_headers()

    def _pings(self, step: Pings, request: Request) -> None:
        self._sse_headers()
        if step.start:
            self._event(*Reply([]).events(len(request.raw))[0])  # message_start
        pings = 0
        while not self.server.api._closing.wait(step.interval):
            if self._peer_closed():
                raise _Abort
            self._event("ping", {"type": "ping"})
            pings += 1
            if pings == 2:
                request.holding.set()
        raise _Abort

    def _stream(self, step: Reply | StreamError | Drop, request: Request, cached: dict[str, int]) -> None:
        """Send the events; the outcome is set before the last bytes go out, so a client that has seen
        the end of its stream can read it without a race."""
        reply = step if isinstance(step, Reply) else step.reply
        events = reply.events(len(request.raw), cached)
        request.usage = {k: v for k, v in events[0][1]["message"]["usage"].items() if k != "output_tokens"}
        if not isinstance(step, Reply):
            events = events[:step.after_events]
        self._sse_headers()
        first_delta_sent = False
        for i, (name, payload) in enumerate(events):
            if i and reply.delay and self.server.api._closing.wait(reply.delay):
                raise _Abort
            if self._peer_closed():
                raise _Abort
            if name == "_quiet":  # pings only, for a while
                until = time.monotonic() + payload["seconds"]
                while time.monotonic() < until:
                    if self.server.api._closing.wait(0.05) or self._peer_closed():
                        raise _Abort
                    self._event("ping", {"type": "ping"})
                continue
            self._event(name, payload)
            if reply.gate is not None and name == "content_block_delta" and not first_delta_sent:
                self._wait_gate(reply.gate)
            first_delta_sent = first_delta_sent or name == "content_block_delta"
        if isinstance(step, Drop):
            request.outcome = "dropped"
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)  # no terminating chunk: the body is incomplete
            return
        if isinstance(step, StreamError):
            request.outcome = "stream_error"
            self._event("error", {"type": "error", "error": {"type": step.error_type, "message": step.message}})
        else:
            request.outcome = "complete"
        self.wfile.write(b"0\r\n\r\n")

    def _event(self, name: str, payload: dict[str, Any]) -> None:
        data = f"event: {name}\ndata: {json.dumps(payload, ensure_ascii=False)}\n\n".encode()
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))  # one chunk per event; wfile is unbuffered

    def _wait_gate(self, gate: threading.Event) -> None:
        """Wait for the test to open the gate, but give up on a closing server or a departed client."""
        for _ in range(int(GATE_TIMEOUT / _POLL)):
            if gate.wait(_POLL):
                return
            if self.server.api._closing.is_set() or self._peer_closed():
                raise _Abort

    def _peer_closed(self) -> bool:
        """True once the client has hung up: a non-blocking peek reads end-of-file (or fails)."""
        self.connection.setblocking(False)
        try:
            return self.connection.recv(1, socket.MSG_PEEK) == b""
        except BlockingIOError:  # nothing to read: still connected
            return False
        except OSError:
            return True
        finally:
            self.connection.setblocking(True)


def assert_valid_conversation(messages: list[dict], request: bool = True) -> None:
    """What the Messages API demands of a conversation: it starts with the user, roles alternate,
    and every tool_use is answered by a tool_result, first in the very next (user) message and in
    the same order. ``request``: as sent, so it also ends with the user (or with an assistant
    message being continued after pause_turn, which the caller allows by passing False)."""
    assert messages and messages[0]["role"] == "user", [m["role"] for m in messages[:1]]
    if request:
        assert messages[-1]["role"] == "user", [m["role"] for m in messages]
    for before, after in zip(messages, messages[1:], strict=False):
        assert before["role"] != after["role"], [m["role"] for m in messages]
    answered: set[str] = set()
    for i, message in enumerate(messages):
        content = message["content"] if isinstance(message["content"], list) else []
        results = [b["tool_use_id"] for b in content if b.get("type") == "tool_result"]
        if message["role"] == "user":
            assert set(results) <= answered or not results, f"tool_result without its tool_use in message {i}"
            continue
        uses = [b["id"] for b in content if b.get("type") == "tool_use"]
        if uses:
            assert i + 1 < len(messages), f"tool_use {uses} in the last message is not answered"
            following = messages[i + 1]["content"]
            head = [b.get("tool_use_id") for b in following[:len(uses)]] if isinstance(following, list) else []
            assert head == uses, f"tool_use {uses} answered by {head}"
        answered = set(uses)
