"""The MCP sessions of the HTTP share (mcp_http.py), capped so that no client can crowd out the others.

The SDK keeps a session for every initialize it answers, for 30 minutes unless used, and refuses every new
one once it holds 10,000: one client with the token could lock out every other, the window's own
`mcp --window` launcher included. SessionGuard sits in front of the SDK's app, behind the token:
- a client (known by the name it gives when it connects, clientInfo.name) holds at most MAX_PER_CLIENT
  sessions, and all clients together MAX_SESSIONS. Opening one more ends the client's own least recently
  used session, idle ones first (no request in flight, no event stream open); over the total it ends
  the least recently used session of the client holding most;
- the SDK ends a session left idle for SESSION_IDLE_S.
A session is ended as a client ends it, with a DELETE handed to the SDK's app; its id then answers 404, and
a client coming back opens a new session. The limits are read when a guard is made (tests shrink them).
"""

from __future__ import annotations

import json
import logging
import time
from collections import Counter
from dataclasses import dataclass

MAX_PER_CLIENT = 8
MAX_SESSIONS = 32
SESSION_IDLE_S = 300.0
MAX_OPENING_BODY = 64 * 1024  # an initialize request is a few hundred bytes
SESSION_HEADER = b"mcp-session-id"
UNNAMED = "An MCP client"

log = logging.getLogger(__name__)


@dataclass
class _Session:
    client: str
    last_used: float
    in_flight: int = 0


class SessionGuard:
    """ASGI middleware over the SDK's streamable HTTP app; runs on the server's event loop."""

    def __init__(self, app, path: str):
        self.app = app
        self.path = path  # where the SDK serves MCP: a session opens nowhere else
        self.per_client, self.total, self.idle_s = MAX_PER_CLIENT, MAX_SESSIONS, SESSION_IDLE_S
        self._sessions: dict[str, _Session] = {}  # session id -> its client and use
        self._opening: Counter[str] = Counter()  # client -> its initialize requests being answered

    def count(self) -> int:
        """The sessions open now (asked from any thread: it reads a copy and changes nothing)."""
        now = time.monotonic()
        return sum(1 for s in list(self._sessions.values()) if not self._expired(s, now))

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        session_id = dict(scope.get("headers") or []).get(SESSION_HEADER)
        if scope.get("path") != self.path:
            await self.app(scope, receive, send)
        elif session_id is not None:
            await self._serve_in_session(session_id.decode("latin-1"), scope, receive, send)
        elif scope.get("method") == "POST":
            await self._serve_opening(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def _serve_in_session(self, session_id: str, scope, receive, send) -> None:
        session = self._sessions.get(session_id)
        status = None

        async def watched(message):
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        if session is not None:
            session.in_flight += 1
        try:
            await self.app(scope, receive, watched)
        finally:
            if session is not None:
                session.in_flight -= 1
                session.last_used = time.monotonic()
            if status == 404 or (scope.get("method") == "DELETE" and status is not None and status < 300):
                self._sessions.pop(session_id, None)  # gone, or ended by its client

    async def _serve_opening(self, scope, receive, send) -> None:
        """A POST without a session: an initialize opens one, once there is room for it."""
        body, complete = await _read_body(receive, MAX_OPENING_BODY)
        if not complete:
            await _refuse(send, 413, "This request is too large to open an MCP session.")
            return
        replay = _replaying(body, receive)
        client = _initializing_client(body)
        if client is None:  # not an initialize: the SDK answers it (and opens nothing)
            await self.app(scope, replay, send)
            return
        self._opening[client] += 1
        try:
            ended, room = self._make_room(client)
            for session_id in ended:
                try:
                    await self._end(session_id, scope)
                except Exception:  # noqa: BLE001 - the new session is opened all the same
                    log.exception("could not end MCP session %s", session_id)
            if not room:
                await _refuse(send, 503, f"Too many MCP sessions are being opened at once; {client} can try "
                                         "again in a moment.")
                return

            async def registering(message):
                if message["type"] == "http.response.start" and message["status"] < 400:
                    opened = dict(message.get("headers") or []).get(SESSION_HEADER)
                    if opened is not None:
                        self._sessions[opened.decode("latin-1")] = _Session(client, time.monotonic())
                await send(message)

            await self.app(scope, replay, registering)
        finally:
            self._opening[client] -= 1
            if not self._opening[client]:
                del self._opening[client]

    def _make_room(self, client: str) -> tuple[list[str], bool]:
        """The sessions to end so that `client` (already counted among the opening) may open one, and
        whether that makes room (not when the openings alone are over a limit). They are forgotten here at
        once, so concurrent openings see the room as it will be; the caller ends them either way."""
        self._forget_expired()
        ended = []
        mine = [sid for sid, s in self._sessions.items() if s.client == client]
        while len(mine) + self._opening[client] > self.per_client:
            if not mine:
                return ended, False
            ended.append(self._forget(self._least_used(mine)))
            mine.remove(ended[-1])
        while len(self._sessions) + sum(self._opening.values()) > self.total:
            if not self._sessions:
                return ended, False
            holder = Counter(s.client for s in self._sessions.values()).most_common(1)[0][0]
            ended.append(self._forget(self._least_used(
                [sid for sid, s in self._sessions.items() if s.client == holder])))
        return ended, True

    def _least_used(self, session_ids: list[str]) -> str:
        return min(session_ids, key=lambda sid: (self._sessions[sid].in_flight > 0, self._sessions[sid].last_used))

    def _forget(self, session_id: str) -> str:
        del self._sessions[session_id]
        return session_id

    def _forget_expired(self) -> None:
        """The SDK ends a session idle for idle_s by itself; forget those here too."""
        now = time.monotonic()
        for sid in [sid for sid, s in self._sessions.items() if self._expired(s, now)]:
            del self._sessions[sid]

    def _expired(self, session: _Session, now: float) -> bool:
        return not session.in_flight and now - session.last_used > self.idle_s

    async def _end(self, session_id: str, scope) -> None:
        """End a session as its client would: a DELETE with its id, to the SDK's app."""
        host, port = scope.get("server") or ("127.0.0.1", 0)
        delete = {**scope, "method": "DELETE", "query_string": b"", "headers": [
            (b"host", f"{host}:{port}".encode()), (SESSION_HEADER, session_id.encode("latin-1"))]}
        await self.app(delete, _replaying(b"", _disconnected), _ignored)


def _initializing_client(body: bytes) -> str | None:
    """The client's name when the body is an initialize request, else None."""
    try:
        message = json.loads(body)
    except ValueError:
        return None
    if not isinstance(message, dict) or message.get("method") != "initialize":
        return None
    params = message.get("params")
    info = params.get("clientInfo") if isinstance(params, dict) else None
    name = info.get("name") if isinstance(info, dict) else None
    return " ".join(str(name or "").split())[:60] or UNNAMED


async def _read_body(receive, limit: int) -> tuple[bytes, bool]:
    """The request's body, and whether it came whole within `limit` bytes."""
    chunks, size = [], 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b"".join(chunks), False  # the client left
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            return b"", False
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks), True


def _replaying(body: bytes, receive):
    """An ASGI receive that gives `body` (already read) first, then whatever `receive` gives."""
    given = False

    async def replay():
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()
    return replay


async def _disconnected():
    return {"type": "http.disconnect"}


async def _ignored(message) -> None:
    pass


async def _refuse(send, status: int, sentence: str) -> None:
    body = json.dumps({"jsonrpc": "2.0", "id": None, "error": {"code": -32000, "message": sentence}}).encode()
    await send({"type": "http.response.start", "status": status, "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": body})
