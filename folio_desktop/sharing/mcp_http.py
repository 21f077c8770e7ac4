"""An MCP server over streamable HTTP on this machine only (127.0.0.1), behind a bearer token.

The app shares its open document this way: any MCP client on the machine that is given the URL and the
token can connect (Claude Code: `claude mcp add --transport http ... --header "Authorization: Bearer ..."`).
The token keeps out other local programs and web pages (the SDK's DNS-rebinding check refuses a browser's
foreign Host or Origin as well). uvicorn serves the SDK's own Starlette app in a daemon thread with its own
event loop; the socket is bound before the thread starts, so a port in use fails at once, in words.

Other programs on the machine must not be able to starve it: connections that hold the server without
finishing a request are closed (http_guard.py), and a client with the token cannot hold more than its
share of MCP sessions (sessions.py). Stopping never keeps the caller (the window's GUI thread) waiting:
the port is closed at once, and the rest of the shutdown happens in the background.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import socket
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import mcp_types as types
import uvicorn
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.server import Server
from mcp.shared._httpx_utils import create_mcp_http_client

from .. import __version__
from . import sessions
from .http_guard import BACKLOG, WaitingRoom, guarded_protocol, raise_open_files_limit

HOST = "127.0.0.1"
PATH = "/mcp"
START_WAIT_S = 10.0
STOP_WAIT_S = 5.0
DRAIN_WAIT_S = 2.0  # how long open requests get to end once told their client has gone
UNLISTEN_WAIT_S = 0.2  # how long stop() waits for the port to be closed (the event loop does it)

log = logging.getLogger(__name__)


class SharingError(Exception):
    """The server could not start; the message says why, for the lawyer."""


class _Gate:
    """ASGI middleware in front of the SDK's app. An HTTP request without `Authorization: Bearer <token>`
    gets 401 and goes no further. close_all() tells every open request its client has gone (an ASGI
    http.disconnect), so long-lived event streams end on their own and the server stops cleanly,
    instead of uvicorn cancelling them mid-stream (and logging each as an error)."""

    def __init__(self, app, token: str):
        self.app = app
        self._expected = f"Bearer {token}".encode()
        self._open: dict[asyncio.Event, str] = {}  # the requests being served, with their HTTP method

    def open_requests(self, method: str | None = None) -> int:
        # asked from another thread: dict.copy() is one step under the GIL, iterating the dict is not
        return sum(1 for m in self._open.copy().values() if method is None or m == method)

    def close_all(self) -> None:  # on the server's event loop
        for closing in self._open:
            closing.set()

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = dict(scope.get("headers") or []).get(b"authorization", b"")
        if not hmac.compare_digest(given, self._expected):
            body = json.dumps({"error": "This MCP server needs the token shown in folio-desktop's "
                                        "Share with an MCP client window (Authorization: Bearer <token>)."})
            await send({"type": "http.response.start", "status": 401, "headers": [
                (b"content-type", b"application/json"), (b"www-authenticate", b"Bearer")]})
            await send({"type": "http.response.body", "body": body.encode()})
            return
        closing = asyncio.Event()
        self._open[closing] = scope.get("method", "")

        async def receive_until_closed():
            if closing.is_set():
                return {"type": "http.disconnect"}
            message, stop = asyncio.ensure_future(receive()), asyncio.ensure_future(closing.wait())
            try:
                await asyncio.wait({message, stop}, return_when=asyncio.FIRST_COMPLETED)
            finally:  # also when the app cancels its wait for the client: no task is left behind
                stop.cancel()
                if not message.done():
                    message.cancel()
            if message.done() and not message.cancelled():
                return message.result()
            return {"type": "http.disconnect"}

        state = {"started": False, "ended": False}

        async def send_tracked(message):
            if message["type"] == "http.response.start":
                state["started"] = True
            elif message["type"] == "http.response.body" and not message.get("more_body", False):
                state["ended"] = True
            await send(message)

        try:
            await self.app(scope, receive_until_closed, send_tracked)
            if closing.is_set() and not state["ended"]:  # the app gave up on a client told it had gone
                if not state["started"]:
                    await send({"type": "http.response.start", "status": 503, "headers": []})
                await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            self._open.pop(closing, None)


class LocalHttpServer:
    """`server` at http://127.0.0.1:<port>/mcp until stop(). Port 0 picks a free port."""

    def __init__(self, server: Server, token: str, port: int = 0):
        self.token = token
        sdk_app = server.streamable_http_app(
            streamable_http_path=PATH, host=HOST, session_idle_timeout=sessions.SESSION_IDLE_S,
            max_sessions=2 * sessions.MAX_SESSIONS)  # the SDK's own limit, a backstop behind the guard's
        self.sessions = sessions.SessionGuard(sdk_app, PATH)
        self._app = _Gate(self.sessions, token)
        self._waiting = WaitingRoom()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._requested_port = port
        self._uvicorn: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self._stopping: threading.Thread | None = None
        self.port: int | None = None

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}{PATH}"

    def start(self) -> None:
        raise_open_files_limit()
        sock = _bind(self._requested_port)
        self.port = sock.getsockname()[1]
        config = uvicorn.Config(self._app, http=guarded_protocol(self._waiting), backlog=BACKLOG, lifespan="on",
                                log_level="warning", timeout_graceful_shutdown=1)
        self._uvicorn = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._serve, args=(sock,), name="mcp-http", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + START_WAIT_S
        while not self._uvicorn.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise SharingError(f"The MCP server on {HOST}:{self.port} did not start.")
            time.sleep(0.02)

    def _serve(self, sock: socket.socket) -> None:
        async def serve():
            self._loop = asyncio.get_running_loop()
            await self._uvicorn.serve(sockets=[sock])

        try:
            asyncio.run(serve())
        except Exception:  # noqa: BLE001 - a thread's failure would otherwise vanish
            log.exception("the MCP server stopped with an error")
        finally:
            sock.close()

    def stop(self) -> None:
        """Stop serving, without waiting for it: the port is closed at once (a new server may take it),
        then, in the background, the calls in flight are answered (their clients see the stream close),
        the event streams end and the server's thread with them. join() waits for all that."""
        thread, self._thread = self._thread, None
        if thread is None:
            return
        unlistened = threading.Event()
        if self._loop is not None and thread.is_alive():
            try:
                self._loop.call_soon_threadsafe(self._unlisten, unlistened)
                unlistened.wait(UNLISTEN_WAIT_S)
            except RuntimeError:  # the loop has just ended by itself
                pass
        self._stopping = threading.Thread(target=self._shut_down, args=(thread,), name="mcp-http-stop", daemon=True)
        self._stopping.start()

    def join(self, timeout: float = STOP_WAIT_S + 2 * DRAIN_WAIT_S) -> bool:
        """Wait for a stop to end; True when the server's thread has ended (or never started)."""
        stopping = self._stopping
        if stopping is not None:
            stopping.join(timeout)
            return not stopping.is_alive()
        return self._thread is None

    def _unlisten(self, done: threading.Event) -> None:  # on the server's event loop
        for listener in getattr(self._uvicorn, "servers", ()):  # none yet while starting
            listener.close()
        done.set()

    def _shut_down(self, thread: threading.Thread) -> None:  # in a thread of its own
        loop, gate = self._loop, self._app
        if loop is not None and thread.is_alive():
            # calls in flight (POSTs) are answered first: the host says it has stopped within moments
            _wait_until(lambda: not gate.open_requests("POST"), DRAIN_WAIT_S)
            try:
                loop.call_soon_threadsafe(gate.close_all)  # then the event streams, and anything left
            except RuntimeError:
                pass
            _wait_until(lambda: not gate.open_requests(), DRAIN_WAIT_S)
        self._uvicorn.should_exit = True
        thread.join(STOP_WAIT_S)
        if thread.is_alive():
            log.warning("the MCP server's thread did not end in time")


@asynccontextmanager
async def client_session(url: str, token: str, client_name: str | None = None) -> AsyncIterator[ClientSession]:
    """An initialized MCP client session with a server served here (the launcher's and the self-test's)."""
    info = types.Implementation(name=client_name, version=__version__) if client_name else None
    async with create_mcp_http_client(headers={"Authorization": f"Bearer {token}"}) as http, \
            streamable_http_client(url, http_client=http) as (read, write), \
            ClientSession(read, write, client_info=info) as session:
        await session.initialize()
        yield session


def _wait_until(done, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not done() and time.monotonic() < deadline:
        time.sleep(0.01)


def _bind(port: int) -> socket.socket:
    # IPPROTO_TCP named, not left 0: asyncio turns Nagle off only on sockets that say they are TCP, and with
    # it on, each streamed answer waited 40 ms for the client's delayed ACK
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((HOST, port))
        sock.listen(BACKLOG)
    except OSError as exc:
        sock.close()
        raise SharingError(f"Port {port} on {HOST} is not free ({exc.strerror or exc}); "
                           "choose another port or stop the program using it.") from exc
    sock.set_inheritable(False)
    return sock
