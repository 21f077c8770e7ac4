"""McpShare: the open document shared with MCP clients on this machine (Tools > Share with an MCP client).

The SDK's server runs in a thread of its own (sharing/mcp_http.py: streamable HTTP on 127.0.0.1, behind
a token). Each tool call it receives is handed to the GUI thread as a ToolRequest, as the Claude panel's
are (runner.py), and runs through a LiveBridge over the window's view: the live-view tools (read_page,
read_selection, scroll_to_block, show_in_document) work, and edits appear in the pages as they are made.

MCP has no turns, only calls (and on streamable HTTP each call may be its own request, with no session to
tell turns apart). So the calls of one client (by the name it gives) less than TURN_GAP_S apart are one
turn, and its edits undo as one step ("<client>'s edits"): each call's step merges into the one before it while
that is still the top of the undo stack. The lawyer's own step, an undo, or a turn of the Claude panel in
between starts a new step. Every call goes to the audit log under the client's name.

stop() (the lawyer's, or the document closing) ends the server without keeping the GUI thread waiting (the
port closes at once, the rest in the background); a call still waiting for the GUI thread is answered that
the document was closed, and nothing runs after it. The document stays in the window, so a client that
connects again (a new session, or a new share) finds every edit made so far.
"""

from __future__ import annotations

import logging
import threading
import time

from PySide6.QtCore import QObject, Qt, Signal

from ...agents import execute_tool_call
from ...sharing.mcp_http import LocalHttpServer
from ...sharing.mcp_server import Client, build_server, error_result, outcome_result, tool_list
from .audit_trail import ACTING_TOOLS, PROPOSING_TOOLS
from .runner import ToolRequest

log = logging.getLogger(__name__)

TURN_GAP_S = 30.0  # calls closer together than this, from one client, are one turn (one undo step)
CHANGING_TOOLS = PROPOSING_TOOLS + ACTING_TOOLS
CLOSED = "The document is no longer shared: it was closed in folio-desktop, or the lawyer stopped sharing it."
BUSY = ("Claude in the folio-desktop window is working on this document right now, so this change was not "
        "made; try again when its turn has ended.")


class _ClientCall(ToolRequest):
    def __init__(self, name: str, args: dict, closing: threading.Event, client: Client):
        super().__init__(name, args, closing)
        self.client = client


class McpShare(QObject):
    """One window's document served to MCP clients until stop(). GUI thread, except call() and tools(),
    which the server's worker threads make.

    `bridge` is a LiveBridge over the window's view; `review_actions` holds the undo stack; `busy()` says
    whether the Claude panel's turn is running; `record(who, name, args, envelope)` writes the audit log."""

    callFinished = Signal(str, str, object, object)  # client name, tool name, arguments, envelope
    _callRequested = Signal(object)  # worker -> GUI thread

    def __init__(self, bridge, review_actions, busy, record, token: str, port: int = 0,
                 parent=None):
        super().__init__(parent)
        self.bridge = bridge
        self.review_actions = review_actions
        self._busy = busy
        self._record = record
        self._closing = threading.Event()
        self._last_call: dict[str, float] = {}  # client name -> when its last call ran (monotonic)
        self._turns: dict[str, int] = {}  # client name -> its current turn's number (unique across clients)
        self._turn_count = 0
        self._server = LocalHttpServer(build_server(self), token, port)
        self._callRequested.connect(self._run, Qt.QueuedConnection)

    @property
    def url(self) -> str:
        return self._server.url

    @property
    def port(self) -> int | None:
        return self._server.port

    @property
    def token(self) -> str:
        return self._server.token

    def start(self) -> None:
        """Start serving; raises SharingError (in words) when it cannot."""
        self._server.start()

    def stop(self) -> None:
        self._closing.set()
        self._server.stop()

    # -- the server's side (worker threads) ---------------------------------------------------------

    def tools(self):
        return tool_list()  # a LiveBridge answers every tool, the live-view ones included

    def call(self, name: str, arguments: dict, client: Client):
        if self._closing.is_set():
            return error_result(CLOSED)
        request = _ClientCall(name, arguments, self._closing, client)
        try:
            self._callRequested.emit(request)
        except RuntimeError:  # the window and this object are gone
            return error_result(CLOSED)
        return request.wait((self._closing, error_result(CLOSED)))  # a call not yet started is dropped on stop

    # -- the GUI thread's side ----------------------------------------------------------------------

    def _run(self, request: _ClientCall) -> None:
        if not request.claim("running"):
            return
        try:
            request.envelope = self._answer(request)
        except Exception as exc:  # noqa: BLE001 - a bug here must still answer the client
            log.exception("MCP call %s failed", request.name)
            request.envelope = error_result(f"{request.name} failed: {exc}")
        request.done.set()

    def _answer(self, request: _ClientCall):
        if self._closing.is_set():
            return error_result(CLOSED)
        client, name = request.client, request.name
        turn = self._turn_of(client)
        changes = name in CHANGING_TOOLS
        if changes and self._busy():
            envelope = {"ok": False, "error": BUSY}
        elif changes:
            actions = self.review_actions
            actions.begin_agent_turn("", merge_key=("mcp", turn), text=f"{client.name}'s edits")
            try:
                envelope = execute_tool_call(name, request.args, self.bridge)
            finally:
                actions.end_agent_turn()
        else:
            envelope = execute_tool_call(name, request.args, self.bridge)
        self._record(f"{client.name} (MCP)", name, request.args, envelope)
        self.callFinished.emit(client.name, name, request.args, envelope)
        return outcome_result(envelope, name)

    def _turn_of(self, client: Client) -> int:
        """The number of the client's turn this call belongs to: a new one after a pause of TURN_GAP_S."""
        now = time.monotonic()
        key = client.name
        last = self._last_call.get(key)
        if last is None or now - last > TURN_GAP_S:
            self._turn_count += 1
            self._turns[key] = self._turn_count
        self._last_call[key] = now
        return self._turns[key]
