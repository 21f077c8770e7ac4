"""The HTTP share holds out, at full size and with its real limits, against another program on the machine
that floods it with connections that never finish their request (no token needed for that), and against a
client with the token that opens session after session. The share runs in a process of its own
(share_server.py) with a desktop's usual limit of 1,024 open files; the floods come from this process."""

from __future__ import annotations

import json
import os
import resource
import socket
import subprocess
import sys
import threading
import time
from contextlib import contextmanager

import anyio
import pytest
from conftest import E2E, ROOT

from folio_desktop.sharing import http_guard, sessions
from folio_desktop.sharing.mcp_http import client_session

pytestmark = pytest.mark.timeout(120)
TOKEN = "t" * 43
ANSWER_S = 2.0  # a client with the token must be answered within this, whatever the flood


@contextmanager
def share_process(*args: str):
    """The share in a process of its own: yields its URL and a function that asks how many sessions it holds."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # this checkout's folio_desktop, not an installed one
    proc = subprocess.Popen([sys.executable, str(E2E / "share_server.py"), TOKEN, *args], cwd=str(ROOT), env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def held_sessions() -> int:
        proc.stdin.write("sessions\n")
        proc.stdin.flush()
        return int(proc.stdout.readline())

    try:
        url = proc.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:"), "the share did not start"
        yield url, held_sessions
    finally:
        proc.stdin.close()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()


def time_to_answer(url: str) -> float:
    """Seconds a new client with the token (the SDK's own) takes to connect and list the tools."""
    async def ask() -> int:
        with anyio.fail_after(15):
            async with client_session(url, TOKEN, "claude-code") as client:
                return len((await client.list_tools()).tools)
    started = time.monotonic()
    assert anyio.run(ask) == 17  # every tool: the reference's 16 and check_document
    return time.monotonic() - started


def port_of(url: str) -> int:
    return int(url.rsplit(":", 1)[1].split("/")[0])


@contextmanager
def open_files_allowed(count: int):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < count:
        pytest.skip(f"this test opens {count} sockets; the hard open-files limit here is {hard}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, count), hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def closed_by_server(sock: socket.socket) -> bool:
    try:
        while sock.recv(65536):
            pass
        return True
    except BlockingIOError:
        return False
    except OSError:
        return True


def test_a_flood_of_unfinished_requests_neither_locks_out_a_client_nor_stays_open():
    flood_size = 1100  # over the 1,024 open files the share's process may have
    with open_files_allowed(flood_size + 300), share_process("--open-files", "1024") as (url, _sessions):
        port = port_of(url)
        flood: dict[socket.socket, float] = {}  # socket -> when it connected
        for _ in range(flood_size):
            sock = socket.socket()
            sock.settimeout(0.2)
            try:
                sock.connect(("127.0.0.1", port))
                sock.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and never the rest
            except OSError:
                pass
            sock.setblocking(False)
            flood[sock] = time.monotonic()
        flooded = time.monotonic()
        took = time_to_answer(url)
        print(f"\nanswered in {took:.2f} s under a flood of {flood_size} unfinished requests")
        assert took < ANSWER_S

        closed_at: dict[socket.socket, float] = {}
        deadline = flooded + http_guard.HEADER_TIMEOUT_S + 5
        while len(closed_at) < len(flood) and time.monotonic() < deadline:
            for sock in flood:
                if sock not in closed_at and closed_by_server(sock):
                    closed_at[sock] = time.monotonic()
            time.sleep(0.1)
        try:
            assert len(closed_at) == flood_size, f"{flood_size - len(closed_at)} unfinished requests are still open"
            # those still waiting once the flood was over were closed at the header deadline, not before
            timed_out = [closed_at[s] - flood[s] for s in flood if closed_at[s] > flooded + 3]
            assert len(timed_out) <= http_guard.MAX_WAITING
            assert all(http_guard.HEADER_TIMEOUT_S - 0.5 < t < http_guard.HEADER_TIMEOUT_S + 3 for t in timed_out)
        finally:
            for sock in flood:
                sock.close()


def test_ten_thousand_sessions_opened_by_one_client_neither_lock_out_another_nor_pile_up():
    opens, connections = 10_000, 8
    with share_process() as (url, held_sessions):
        port, refused = port_of(url), []
        body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "flood", "version": "1"}}})
        request = (f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {TOKEN}\r\n"
                   "Accept: application/json, text/event-stream\r\nContent-Type: application/json\r\n"
                   f"Content-Length: {len(body)}\r\n\r\n{body}").encode()

        def open_sessions(count: int) -> None:
            """Initialize after initialize on one kept-alive connection, each answer read to its end."""
            with socket.create_connection(("127.0.0.1", port)) as sock:
                pending = b""
                for _ in range(count):
                    sock.sendall(request)
                    while not (b"\r\n0\r\n\r\n" in pending or (b"\r\n\r\n" in pending and b"content-length" in
                                                                 pending.split(b"\r\n\r\n")[0].lower())):
                        pending += sock.recv(65536)
                    head, _, pending = pending.partition(b"\r\n\r\n")
                    if not head.startswith(b"HTTP/1.1 200"):
                        refused.append(head.split(b"\r\n")[0])
                        length = int(next(h.split(b":")[1] for h in head.split(b"\r\n")[1:]
                                          if h.lower().startswith(b"content-length")))
                        while len(pending) < length:
                            pending += sock.recv(65536)
                        pending = pending[length:]
                    else:
                        pending = pending.partition(b"\r\n0\r\n\r\n")[2]

        started = time.monotonic()
        workers = [threading.Thread(target=open_sessions, args=(opens // connections,)) for _ in range(connections)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(90)
        flood_took = time.monotonic() - started
        held = held_sessions()
        took = time_to_answer(url)
        print(f"\n{opens} session opens in {flood_took:.1f} s ({len(refused)} refused); the SDK then held {held} "
              f"sessions; a new client was answered in {took:.2f} s")
        assert took < ANSWER_S
        assert held <= sessions.MAX_PER_CLIENT
        assert held_sessions() <= sessions.MAX_PER_CLIENT  # the new client's session ended with it
