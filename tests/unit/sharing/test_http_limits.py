"""The HTTP share's limits, with the clock shrunk (sharing/http_guard.py, sharing/sessions.py, mcp_http.py):
unfinished requests are closed after the header deadline, the oldest when too many wait; sessions are
capped per client and in all, the least used ending first; idle sessions expire; the open-files limit
is raised; stopping keeps the caller waiting no more than moments, and the port is free again at once.
The floods at full size, with the real limits, are in tests/e2e/test_mcp_share_limits.py."""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
import threading
import time

import anyio
import httpx2
import pytest
from conftest import ROOT

from folio_desktop.sharing import http_guard, sessions
from folio_desktop.sharing.mcp_http import LocalHttpServer, client_session
from folio_desktop.sharing.mcp_server import build_server, error_result, tool_list

pytestmark = pytest.mark.timeout(60)
TOKEN = "t" * 43
HEADERS = {"Authorization": f"Bearer {TOKEN}", "Accept": "application/json, text/event-stream"}


class Host:
    """A ToolHost whose calls wait until `release` is set (a call in flight while the share stops)."""

    def __init__(self):
        self.started, self.release = threading.Event(), threading.Event()

    def tools(self):
        return tool_list()

    def call(self, name, arguments, client):
        self.started.set()
        self.release.wait(10)
        return error_result("released")


@pytest.fixture
def serve():
    servers = []

    def start(host=None, port=0) -> LocalHttpServer:
        mcp_server = build_server(host or Host())
        server = LocalHttpServer(mcp_server, TOKEN, port)
        server.sdk_sessions = lambda: len(mcp_server._session_manager._server_instances)  # the SDK's own count
        server.start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()
        assert server.join()


def hello(name: str) -> dict:
    return {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": name, "version": "1"}}}


def open_session(http, url: str, name: str) -> str:
    answer = http.post(url, json=hello(name), headers=HEADERS)
    assert answer.status_code == 200, answer.text
    return answer.headers["mcp-session-id"]


def alive(http, url: str, session_id: str) -> bool:
    ping = {"jsonrpc": "2.0", "id": 2, "method": "ping"}
    answer = http.post(url, json=ping, headers={**HEADERS, "mcp-session-id": session_id,
                                                "mcp-protocol-version": "2025-06-18"})
    assert answer.status_code in (200, 404), answer.text
    return answer.status_code == 200


def unfinished(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # the headers never end
    return sock


def closed_by_server(sock: socket.socket) -> bool:
    """Whether the server has closed the connection (whatever it answered before is read and dropped)."""
    sock.setblocking(False)
    try:
        while sock.recv(65536):
            pass
        return True
    except BlockingIOError:
        return False
    except OSError:
        return True


def until(condition, timeout: float = 5.0) -> float:
    """Seconds until condition() held, polled every 10 ms; fails the test past the timeout."""
    start = time.monotonic()
    while not condition():
        assert time.monotonic() - start < timeout, f"not so after {timeout} s"
        time.sleep(0.01)
    return time.monotonic() - start


def test_unfinished_requests_are_closed_after_the_deadline_and_the_oldest_when_too_many_wait(serve, monkeypatch):
    monkeypatch.setattr(http_guard, "HEADER_TIMEOUT_S", 1.0)
    monkeypatch.setattr(http_guard, "MAX_WAITING", 4)
    server = serve()
    first = [unfinished(server.port) for _ in range(2)]
    until(lambda: len(server._waiting) == 2)  # the guard counts them as waiting, oldest first
    entered = time.monotonic()
    later = [unfinished(server.port) for _ in range(4)]  # six waiting, four allowed: the first two go
    until(lambda: all(closed_by_server(s) for s in first))
    assert len(server._waiting) == 4 and not any(closed_by_server(s) for s in later)
    with httpx2.Client() as http:  # a client that sends its request at once is served meanwhile
        open_session(http, server.url, "claude-code")
    until(lambda: all(closed_by_server(s) for s in later))
    assert time.monotonic() - entered >= 1.0  # at the deadline, not before

    # a kept-alive connection owes the deadline again for its next request
    sock = socket.create_connection(("127.0.0.1", server.port))
    sock.sendall(b"GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")  # no token: 401, kept alive
    assert sock.recv(4096).startswith(b"HTTP/1.1 401")
    sock.sendall(b"GET /mcp HTTP/1.1\r\n")
    # the clock starts when the 401 is complete, moments before this socket has read it
    assert until(lambda: closed_by_server(sock)) > 0.8

    # a body trickled in after the refusal does not keep the connection
    sock = socket.create_connection(("127.0.0.1", server.port))
    sock.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n{")
    assert sock.recv(4096).startswith(b"HTTP/1.1 401")
    assert until(lambda: closed_by_server(sock)) < 0.8  # at once, not at the header deadline


def test_sessions_are_capped_per_client_and_in_all_the_least_used_ending_first(serve, monkeypatch):
    monkeypatch.setattr(sessions, "MAX_PER_CLIENT", 2)
    monkeypatch.setattr(sessions, "MAX_SESSIONS", 3)
    server = serve()
    url = server.url
    with httpx2.Client() as http:
        a1, a2 = open_session(http, url, "flood"), open_session(http, url, "flood")
        assert alive(http, url, a1)  # a1 is now used more recently than a2
        a3 = open_session(http, url, "flood")  # over its own cap: its least used session ends
        assert not alive(http, url, a2) and alive(http, url, a1) and alive(http, url, a3)
        b1 = open_session(http, url, "claude-code")
        assert server.sessions.count() == 3
        c1 = open_session(http, url, "other")  # over the total: the biggest holder gives one up
        assert [alive(http, url, s) for s in (a1, a3, b1, c1)].count(False) == 1
        assert alive(http, url, b1) and alive(http, url, c1) and server.sessions.count() == 3
        for n in range(10):  # a client that gives a new name each time only takes turns with itself
            open_session(http, url, f"flood {n}")
        assert server.sessions.count() == 3 and server.sdk_sessions() <= 3


def test_openings_at_once_beyond_the_cap_are_refused_and_nothing_piles_up(serve, monkeypatch):
    monkeypatch.setattr(sessions, "MAX_PER_CLIENT", 2)
    server = serve()

    async def flood():
        async with httpx2.AsyncClient() as http:
            async def one():
                return (await http.post(server.url, json=hello("flood"), headers=HEADERS)).status_code
            return [await task for task in [asyncio.ensure_future(one()) for _ in range(12)]]
    codes = asyncio.run(flood())
    assert set(codes) <= {200, 503} and 200 in codes
    assert server.sessions.count() <= 2 and server.sdk_sessions() <= 2


def test_a_client_holding_a_stream_open_keeps_its_session_while_idle_ones_end(serve, monkeypatch):
    monkeypatch.setattr(sessions, "MAX_PER_CLIENT", 2)
    server = serve()

    async def scenario():
        async with client_session(server.url, TOKEN, "claude-code") as busy:  # its event stream stays open
            with anyio.fail_after(5):  # until the guard sees that stream in flight
                while not any(s.in_flight for s in list(server.sessions._sessions.values())):
                    await anyio.sleep(0.01)
            async with httpx2.AsyncClient() as http:
                for _ in range(3):
                    answer = await http.post(server.url, json=hello("claude-code"), headers=HEADERS)
                    assert answer.status_code == 200
            assert len((await busy.list_tools()).tools) == 17  # the idle ones went, not this one
    anyio.run(scenario)


def test_idle_sessions_expire(serve, monkeypatch):
    monkeypatch.setattr(sessions, "SESSION_IDLE_S", 0.5)
    server = serve()
    with httpx2.Client() as http:
        session = open_session(http, server.url, "claude-code")
        assert alive(http, server.url, session)
        # the guard counts it out once idle past the limit (without a request, which would use it)
        assert until(lambda: server.sessions.count() == 0) > 0.4
        assert not alive(http, server.url, session)


def test_stopping_returns_at_once_with_a_call_in_flight_and_the_port_is_free_again(serve):
    host = Host()
    server = serve(host)

    async def call_then_stop():
        async with client_session(server.url, TOKEN, "claude-code") as client:
            async with anyio.create_task_group() as tg:
                tg.start_soon(_call_ignoring_errors, client)
                await anyio.to_thread.run_sync(host.started.wait, 10)
                started = time.monotonic()
                server.stop()
                took = time.monotonic() - started
                tg.cancel_scope.cancel()
        return took
    took = anyio.run(call_then_stop)
    host.release.set()
    assert took <= 0.5, f"stop() kept its caller {took:.2f} s"
    again = serve(port=server.port)  # sharing again at once, on the same port
    with httpx2.Client() as http:
        open_session(http, again.url, "claude-code")
    assert server.join()


async def _call_ignoring_errors(client):
    try:
        await client.call_tool("find_text", {"query": "x"})
    except Exception:  # noqa: BLE001 - the server stops under it
        pass


def test_a_low_open_files_limit_is_raised_toward_the_hard_one():
    code = ("import resource; from folio_desktop.sharing.http_guard import raise_open_files_limit; "
            "soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE); "
            "resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard)); raise_open_files_limit(); "
            "print(resource.getrlimit(resource.RLIMIT_NOFILE)[0], min(hard, 8192))")
    proc = subprocess.run([sys.executable, "-c", code], cwd=str(ROOT), capture_output=True, text=True, timeout=60)
    now, wanted = map(int, proc.stdout.split())
    assert now == wanted > 256, proc.stderr


def test_the_opening_request_is_read_whole_and_its_client_named():
    body = json.dumps(hello("  Claude\n Desktop ")).encode()
    assert sessions._initializing_client(body) == "Claude Desktop"
    assert sessions._initializing_client(b'{"jsonrpc":"2.0","id":1,"method":"ping"}') is None
    assert sessions._initializing_client(json.dumps(hello("")).encode()) == sessions.UNNAMED
