"""One streamed request to the Messages API that can neither hang nor outlive Stop.

The SDK call blocks (connecting, waiting for the response headers, reading each event), and a
blocked socket read cannot be interrupted from Python. So the call runs on a helper thread that
hands each event to the loop through a queue, and the loop's thread only ever waits on that queue,
a POLL_S slice at a time. Between slices it checks Stop and the deadlines (Timeouts); when either
strikes it shuts down the client's sockets (which wakes the helper's read at once) and walks away
without waiting for the helper. A helper still connecting (no socket to shut down yet) ends by its
own connect timeout; what it does after that is discarded.

The client's sockets are known through httpcore's "trace" request extension: the client below adds
it to every request, and it reports each connection the pool opens.

Timeouts (defaults below, all in seconds) can be shortened for tests and benchmarks with the
environment variable FOLIO_DESKTOP_API_TIMEOUTS, e.g. "connect=1,first_byte=2,stall=2,request=30".

``answer`` bounds a request as a whole: from sending it until the first content of a reply, every try
and every wait between tries included, so no mix of a slow connect, a silent server, a stream of
pings and retries keeps the lawyer waiting past it (loop.py passes each try the same ``answer_by``).
"""

from __future__ import annotations

import os
import queue
import socket
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass, fields, replace

POLL_S = 0.05  # how often the waiting loop looks at Stop and the deadlines
ENV_TIMEOUTS = "FOLIO_DESKTOP_API_TIMEOUTS"


@dataclass(frozen=True)
class Timeouts:
    connect: float = 10.0  # TCP and TLS connect
    first_byte: float = 35.0  # from starting a request to its response headers (connect included)
    stall: float = 60.0  # a stream with no event for this long (keep-alive pings do not count) is dead
    thinking: float = 300.0  # the same inside a thinking block, whose text the API may not stream at all
    request: float = 900.0  # one reply from start to end, however it trickles
    write: float = 30.0  # sending one piece of the request body
    answer: float = 85.0  # sending to the first content, all tries and waits included (under 90 s)

    @classmethod
    def from_env(cls, environ=None) -> Timeouts:
        """The defaults, with any of them overridden by FOLIO_DESKTOP_API_TIMEOUTS ("name=seconds,...")."""
        raw = (environ if environ is not None else os.environ).get(ENV_TIMEOUTS, "")
        names = {f.name for f in fields(cls)}
        changes = {}
        for item in raw.split(","):
            name, _, value = item.partition("=")
            name = name.strip()
            if name not in names:
                continue
            try:
                seconds = float(value)
            except ValueError:
                continue
            if seconds > 0:
                changes[name] = seconds
        return replace(cls(), **changes)

    def for_sdk(self):
        """The SDK's per-operation timeouts: a backstop for the helper thread once the loop has
        walked away; the loop's own deadlines are the ones that end a turn."""
        import anthropic

        read = max(self.first_byte, self.stall, self.thinking) + 5.0
        return anthropic.Timeout(connect=self.connect, read=read, write=self.write, pool=self.connect)


class ReplyTimeout(Exception):
    """A deadline of Timeouts struck. ``phase``: connect | first_byte | stall | request | answer."""

    def __init__(self, phase: str, seconds: float):
        super().__init__(f"{phase} timeout after {seconds:g} s")
        self.phase = phase
        self.seconds = seconds


class Stopped(Exception):
    pass


class SocketTracker:
    """httpcore's trace hook: remembers every socket the client connects, and which phase each
    helper thread is in, so the loop can cut the sockets from its own thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._sockets: weakref.WeakSet = weakref.WeakSet()
        self._phase: dict[int, str] = {}

    def __call__(self, event: str, info: dict) -> None:
        if event.endswith(("connect_tcp.complete", "start_tls.complete")):
            stream = info.get("return_value")
            sock = stream.get_extra_info("socket") if stream is not None else None
            if sock is not None:
                with self._lock:
                    self._sockets.add(sock)
        phase = ("connecting" if event.endswith("connect_tcp.started") else
                 "sending" if event.endswith("send_request_headers.started") else
                 "waiting" if event.endswith("receive_response_headers.started") else None)
        if phase:
            with self._lock:
                self._phase[threading.get_ident()] = phase

    def phase_of(self, thread: threading.Thread) -> str | None:
        with self._lock:
            return self._phase.get(thread.ident or -1)

    def forget(self, thread: threading.Thread) -> None:
        with self._lock:
            self._phase.pop(thread.ident or -1, None)

    def cut(self) -> None:
        """Shut down every open socket of the client: a read blocked on one returns at once (closing
        it from another thread would not wake the read). The pool then drops those connections."""
        with self._lock:
            sockets = list(self._sockets)
        for sock in sockets:
            try:
                socket.socket.shutdown(sock, socket.SHUT_RDWR)  # the plain fd call, also for TLS sockets
            except (OSError, ValueError):  # already closed
                pass


_client_class = None


def make_client(settings, timeouts: Timeouts, tracker: SocketTracker):
    """The SDK client of settings.provider (providers.py), on an HTTP client whose connections
    ``tracker`` can cut."""
    import anthropic

    from .providers import make_sdk_client

    global _client_class
    if _client_class is None:
        class _TracedHttpxClient(anthropic.DefaultHttpxClient):  # keeps the SDK's proxy and limit defaults
            tracker: SocketTracker

            def send(self, request, **kwargs):
                request.extensions = {**request.extensions, "trace": self.tracker}
                return super().send(request, **kwargs)

        _client_class = _TracedHttpxClient
    http_client = _client_class(timeout=timeouts.for_sdk())
    http_client.tracker = tracker
    return make_sdk_client(settings, timeouts, http_client)


class StreamedRequest:
    """``messages.create(stream=True)`` on a helper thread; ``events()`` yields its events on the
    caller's thread and raises Stopped, ReplyTimeout or the SDK's own exception. ``client`` is a
    callable that returns the SDK client: the first one imports the SDK (a second or two), which
    happens on the helper too, so Stop need not wait for it."""

    def __init__(self, client: Callable, tracker: SocketTracker | None, params: dict, timeouts: Timeouts,
                 stop: threading.Event, answer_by: float | None = None):
        self._client = client
        self._answer_by = answer_by  # time.monotonic() by which content must have come (Timeouts.answer)
        self._tracker = tracker
        self._params = params
        self._timeouts = timeouts
        self._stop = stop
        self.stall = timeouts.stall  # the caller raises it while a thinking block is open
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._abandoned = threading.Event()
        self._thread = threading.Thread(target=self._run, name="assistant-request", daemon=True)

    def _run(self) -> None:
        stream = None
        try:
            client = self._client()
            self._queue.put(("ready", None))
            stream = client.messages.create(stream=True, **self._params)
            self._queue.put(("headers", None))
            for event in stream:
                if self._abandoned.is_set():
                    return
                self._queue.put(("event", event))
            self._queue.put(("end", None))
        except BaseException as exc:  # noqa: BLE001 - handed to the loop's thread, which decides
            self._queue.put(("error", exc))
        finally:
            if stream is not None:
                try:
                    stream.close()
                except Exception:  # noqa: BLE001 - a cut socket may fail to close cleanly
                    pass
            if self._tracker is not None:
                self._tracker.forget(self._thread)

    def abandon(self) -> None:
        """Walk away: cut the sockets so the helper's blocked read ends, and do not wait for it."""
        self._abandoned.set()
        if self._tracker is not None:
            self._tracker.cut()

    def events(self) -> Iterator:
        t = self._timeouts
        self._thread.start()
        ready = headers = content = False
        start = last = time.monotonic()
        failure: BaseException | None = None
        try:
            while True:
                if self._stop.is_set():
                    raise Stopped
                now = time.monotonic()
                if not ready:  # the SDK is still loading (first request only): no request is out yet
                    deadline, phase = now + POLL_S, None
                elif not headers:
                    deadline, phase = start + t.first_byte, "first_byte"
                    if self._tracker is not None and self._tracker.phase_of(self._thread) in (None, "connecting") \
                            and now - start >= t.connect:
                        deadline, phase = start + t.connect, "connect"
                elif last + self.stall <= start + t.request:
                    deadline, phase = last + self.stall, "stall"
                else:
                    deadline, phase = start + t.request, "request"
                if not content and self._answer_by is not None and self._answer_by < deadline:
                    deadline, phase = self._answer_by, "answer"
                if phase is not None and now >= deadline:
                    raise ReplyTimeout(phase, self.stall if phase == "stall" else getattr(t, phase))
                try:
                    kind, value = self._queue.get(timeout=min(POLL_S, deadline - now))
                except queue.Empty:
                    continue
                if kind == "ready":
                    ready = True
                    start = last = time.monotonic()  # the deadlines count from the request, not the import
                elif kind == "headers":
                    headers = True
                    last = time.monotonic()
                elif kind == "event":
                    last = time.monotonic()
                    content = content or getattr(value, "type", None) != "message_start"
                    yield value
                elif kind == "error":
                    failure = value  # raised below, outside this try: the helper has ended, nothing to cut
                    break
                else:
                    break
        except BaseException:  # Stop, a deadline, or the caller leaving early: cut the helper loose
            self.abandon()
            raise
        finally:
            if not self._abandoned.is_set():
                self._thread.join(timeout=1.0)  # it has ended or is ending: it put its last item
        if failure is not None:
            raise failure
