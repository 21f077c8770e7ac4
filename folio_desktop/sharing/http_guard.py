"""The HTTP share's defence against being starved by connections (mcp_http.py), before any token is seen.

Any program on this computer can open connections to 127.0.0.1 without the token, and a connection that
never finishes its request headers costs the server a file descriptor for as long as it stays open: about
a thousand of them (1,024 open files is a desktop's usual limit) and the real client cannot connect. So:
- a connection must send its complete request headers within HEADER_TIMEOUT_S of opening, or of its
  previous answer when it is kept alive, else it is closed;
- at most MAX_WAITING connections wait for their headers at once: one more closes the oldest waiting
  (and at most BACKLOG are accepted at a time, so a burst cannot get past that count by far);
- a request answered before its body was read (a refusal for want of the token) closes its connection,
  so a body trickled in after the answer cannot hold the connection either;
- the process's soft limit on open files is raised toward its hard limit where it is low.

uvicorn has no such deadline of its own (its keep-alive timeout stops at the first byte received), so
GuardedH11Protocol adds one to its h11 protocol, which the share always uses.
"""

from __future__ import annotations

import asyncio
import logging

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_TIMEOUT_S = 10.0
MAX_WAITING = 128  # far above what real clients keep waiting, far below any open-files limit
# the listen backlog, which is also how many connections asyncio accepts at a time before any of them is
# seen here: uvicorn's 2,048 would let one burst take every file descriptor before the oldest are closed
BACKLOG = 128
OPEN_FILES_WANTED = 8192

log = logging.getLogger(__name__)


class WaitingRoom:
    """One server's connections that are waiting for their request headers, oldest first. Used on the
    server's event loop only. The limits are read when it is made, so a test can shrink the constants."""

    def __init__(self):
        self.cap = MAX_WAITING
        self.timeout = HEADER_TIMEOUT_S
        self._waiting: dict[H11Protocol, asyncio.TimerHandle] = {}

    def __len__(self) -> int:
        return len(self._waiting)

    def enter(self, conn: H11Protocol) -> None:
        self.leave(conn)
        while len(self._waiting) >= self.cap:
            self.close(next(iter(self._waiting)))
        self._waiting[conn] = conn.loop.call_later(self.timeout, self.close, conn)

    def leave(self, conn: H11Protocol) -> None:
        timer = self._waiting.pop(conn, None)
        if timer is not None:
            timer.cancel()

    def close(self, conn: H11Protocol) -> None:
        self.leave(conn)
        conn.transport.close()


def guarded_protocol(room: WaitingRoom) -> type[H11Protocol]:
    """uvicorn's h11 protocol, with every connection in `room` while it owes the server its headers."""

    class GuardedH11Protocol(H11Protocol):
        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            room.enter(self)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.conn.their_state is not h11.IDLE:  # a request's headers are in (or it was refused)
                room.leave(self)

        def on_response_complete(self) -> None:
            body_unread = self.conn.their_state is h11.SEND_BODY  # answered before the body came
            super().on_response_complete()
            if self.transport.is_closing():
                return
            if body_unread:
                self.transport.close()
            elif self.conn.their_state is h11.IDLE:  # kept alive: the next request owes its headers
                room.enter(self)

        def connection_lost(self, exc) -> None:
            room.leave(self)
            super().connection_lost(exc)

    return GuardedH11Protocol


def raise_open_files_limit(wanted: int = OPEN_FILES_WANTED) -> None:
    """Raise the soft limit on open files toward `wanted`, as far as the hard limit allows (a process
    may raise its own soft limit up to the hard one). Where there is no such limit (Windows), nothing."""
    try:
        import resource
    except ImportError:
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft == resource.RLIM_INFINITY or soft >= target:
        return
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    except (ValueError, OSError) as exc:
        log.info("could not raise the open-files limit from %s to %s: %s", soft, target, exc)
