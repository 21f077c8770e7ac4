"""AssistantRunner: one model turn at a time in a worker QThread, every tool call on the GUI thread.

ModelLoop.run_turn blocks for the whole turn (streaming, tool rounds, retries), so it runs in a
QThread made for that turn. What the loop reports (text deltas, tool calls, notices, usage) leaves
the worker as Qt signals of this object, which lives on the GUI thread: Qt queues them, so every
slot runs on the GUI thread in the order the loop reported.

Tools run on the GUI thread (ARCHITECTURE.md, "Threads"): the worker's run_tool posts a request
with a queued signal and waits on the request's threading.Event, a TOOL_POLL_S slice at a time.
It does not use a BlockingQueuedConnection, because that cannot be cancelled: a worker blocked in
a blocking emit waits for the GUI thread, and a GUI thread that waits for the worker (closing the
window, or changing the document under a turn) would then wait forever. Here the GUI thread only
waits for the worker in shutdown() and stop_and_wait(), and always sets the turn's stop Event
first (plus, on close, the runner's closing Event). Then every place the worker can be waiting
has a way out: a tool request the GUI thread has not started is dropped within TOOL_POLL_S, a
retry pause ends at once, and the loop shuts down the socket of a reply being streamed, so a read
waiting for the server returns. The wait itself is bounded; a thread that overruns it is kept
alive until it ends rather than destroyed while running.

Stop sets the Event without waiting: it lands mid-stream or between tool calls. A tool the GUI
thread has started always finishes (nothing else runs on that thread until it returns, and the
worker waits for a started request), so the document only ever holds completed batches; a tool
request still queued when Stop was pressed is answered "stopped" without running.
"""

from __future__ import annotations

import copy
import logging
import threading

from PySide6.QtCore import QCoreApplication, QObject, Qt, QThread, Signal

from ...assistant import AssistantError, AssistantSettings, ModelLoop, TurnListener, TurnResult

log = logging.getLogger(__name__)

TOOL_POLL_S = 0.1  # how often a worker waiting for a tool checks whether the runner is closing
SHUTDOWN_WAIT_MS = 5000
STOPPED_BEFORE_RUN = "The user stopped the turn before this tool ran."
CLOSED_BEFORE_RUN = "The window was closed before this tool ran."
NO_DOCUMENT = "No document is open, so there is nothing for this tool to read or change."

_lingering: set[QThread] = set()  # threads still running after a shutdown timed out (kept alive)


class ToolRequest:
    """One tool call handed from the worker to the GUI thread. Exactly one side claims it: the GUI
    thread to run it, or the worker to give up on it (Stop, closing) while it is still queued."""

    def __init__(self, name: str, args: dict, stop: threading.Event):
        self.name = name
        self.args = args
        self.stop = stop
        self.envelope: dict | None = None
        self.done = threading.Event()
        self._lock = threading.Lock()
        self._state = "queued"

    def claim(self, state: str) -> bool:
        with self._lock:
            if self._state != "queued":
                return False
            self._state = state
            return True

    def wait(self, *give_up: tuple[threading.Event, object]):
        """The worker's wait for the envelope. While the GUI thread has not started the request, the
        first event of `give_up` that is set drops it and its answer is returned instead; a request
        the GUI thread has started is waited for (it finishes: the document holds only whole batches)."""
        while not self.done.wait(TOOL_POLL_S):
            for event, answer in give_up:
                if event.is_set() and self.claim("dropped"):
                    return answer
        return self.envelope


class _Listener(TurnListener):
    """Runs on the worker: turns the loop's reports into the runner's (queued) signals."""

    def __init__(self, runner: AssistantRunner):
        self._runner = runner

    def _emit(self, signal, *args) -> None:
        try:
            signal.emit(*args)
        except RuntimeError:  # the runner was deleted while a lingering turn still reports
            pass

    def text_delta(self, text: str) -> None:
        self._emit(self._runner.textDelta, text)

    def thinking_delta(self, text: str) -> None:
        self._emit(self._runner.thinkingDelta, text)

    def tool_started(self, call_id: str, name: str, args: dict) -> None:
        self._emit(self._runner.toolStarted, call_id, name, args)

    def tool_finished(self, call_id: str, name: str, envelope: dict) -> None:
        self._emit(self._runner.toolFinished, call_id, name, envelope)

    def notice(self, message: str) -> None:
        self._emit(self._runner.notice, message)

    def usage(self, turn, total) -> None:
        # copies: the loop keeps adding to these objects on this thread while the GUI reads them
        self._emit(self._runner.usage, copy.copy(turn), copy.copy(total))


class _TurnThread(QThread):
    def __init__(self, loop: ModelLoop, text: str, listener: TurnListener, stop: threading.Event):
        super().__init__()
        self.setObjectName("assistant-turn")
        self._loop = loop
        self._text = text
        self._listener = listener
        self._stop = stop
        self.result: TurnResult | None = None

    def run(self) -> None:
        try:
            self.result = self._loop.run_turn(self._text, self._listener, self._stop)
        except Exception as exc:  # noqa: BLE001 - a bug in the loop must still end the turn visibly
            log.exception("the model loop failed")
            self.result = TurnResult("failed", error=AssistantError(
                "stream", f"Unexpected problem in the assistant: {type(exc).__name__}: {exc}"))


class AssistantRunner(QObject):
    """Runs turns of one conversation (ModelLoop) over one bridge. GUI thread only, except the
    signals' origin: each signal is emitted on the worker and delivered on the GUI thread."""

    turnStarted = Signal(str)  # the user's text
    textDelta = Signal(str)
    thinkingDelta = Signal(str)  # the model's thinking as it streams (shown collapsed, never part of the answer)
    toolStarted = Signal(str, str, object)  # call id, tool name, arguments
    toolFinished = Signal(str, str, object)  # call id, tool name, envelope {"ok", "result" | "error"}
    notice = Signal(str)  # e.g. "... Retrying in 3 s (attempt 2 of 3)."
    usage = Signal(object, object)  # Usage of this turn, Usage of the conversation
    turnFinished = Signal(object)  # TurnResult
    busyChanged = Signal(bool)
    _toolRequested = Signal(object)  # worker -> GUI thread

    def __init__(self, settings: AssistantSettings, bridge=None, parent=None, system: str | None = None):
        super().__init__(parent)
        self.settings = settings
        self.bridge = None
        self._system = system
        self._run_tool = None
        self._thread: _TurnThread | None = None
        self._stop = threading.Event()
        self._closing = threading.Event()
        self.loop = self._make_loop([])
        self._toolRequested.connect(self._execute_tool, Qt.QueuedConnection)
        self.set_bridge(bridge)

    # -- configuration ------------------------------------------------------------------------------

    def _make_loop(self, tools: list[dict]) -> ModelLoop:
        return ModelLoop(self.settings, self._tool_from_worker, tools, system=self._system)

    def set_bridge(self, bridge) -> None:
        """Work on another document: its tools, and a new conversation (ids from the old one mean
        nothing there). Not while a turn runs."""
        if self.busy:
            raise RuntimeError("a turn is running; stop it before changing the document")
        self.bridge = bridge
        if bridge is not None:
            # the tool layer is imported with the first document (the window gives it after its first page)
            from ...assistant.tooling import anthropic_tools_for, tool_runner

            self._run_tool, self.loop.tools = tool_runner(bridge), anthropic_tools_for(bridge)
        else:
            self._run_tool, self.loop.tools = None, []
        self.loop.new_conversation()

    def apply_settings(self, settings: AssistantSettings) -> None:
        """New key, base URL or model: the next request uses them; the conversation is kept."""
        if self.busy:
            raise RuntimeError("a turn is running; stop it before changing the settings")
        old = self.loop
        self.settings = settings
        self.loop = self._make_loop(old.tools)
        self.loop.messages, self.loop.total = old.messages, old.total

    # -- turns ----------------------------------------------------------------------------------------

    @property
    def busy(self) -> bool:
        return self._thread is not None

    def start(self, text: str) -> bool:
        """Start a turn; False when one is already running (one turn at a time) or closing."""
        if self.busy or self._closing.is_set():
            return False
        self._stop = threading.Event()
        thread = _TurnThread(self.loop, text, _Listener(self), self._stop)
        thread.finished.connect(self._turn_done, Qt.QueuedConnection)
        self._thread = thread
        self.turnStarted.emit(text)
        self.busyChanged.emit(True)
        thread.start()
        return True

    def stop(self) -> None:
        """Stop the running turn: mid-stream at once, or before the next tool call. A tool already
        running on the GUI thread finishes first (this is called on the GUI thread, after it)."""
        if self._thread is None:
            return
        self._stop.set()  # the loop shuts the streaming reply's socket at once (no waiting for the server)

    def stop_and_wait(self, timeout_ms: int = SHUTDOWN_WAIT_MS) -> bool:
        """Stop the running turn and wait until it has ended and reported (its last signals are
        delivered before this returns). For changing the document or settings under a turn."""
        thread = self._thread
        if thread is None:
            return True
        self.stop()
        if not thread.wait(timeout_ms):
            return False
        QCoreApplication.sendPostedEvents()  # the turn's queued signals, in order, then _turn_done
        return self._thread is None

    @property
    def stopping(self) -> bool:
        return self.busy and self._stop.is_set()

    def new_conversation(self) -> None:
        if self.busy:
            raise RuntimeError("a turn is running; stop it before starting a new conversation")
        self.loop.new_conversation()

    def _turn_done(self) -> None:
        thread = self._thread
        if thread is None:  # shutdown() already took it
            return
        thread.wait()  # run() has returned; this only lets QThread finish its own bookkeeping
        self._thread = None
        result = thread.result or TurnResult("failed", error=AssistantError("stream", "The turn ended unexpectedly."))
        thread.deleteLater()
        self.busyChanged.emit(False)
        self.turnFinished.emit(result)

    def shutdown(self, timeout_ms: int = SHUTDOWN_WAIT_MS) -> bool:
        """End a running turn and wait for its thread (window close). True when nothing is left
        running. Never deadlocks: see the module docstring."""
        self._closing.set()
        thread = self._thread
        if thread is None:
            return True
        self._stop.set()
        finished = thread.wait(timeout_ms)
        self._thread = None
        try:
            thread.finished.disconnect(self._turn_done)
        except (RuntimeError, TypeError):
            pass
        if not finished:  # stuck outside our reach (e.g. connecting): keep it alive until it ends
            log.warning("the assistant's turn did not end within %d ms of closing", timeout_ms)
            thread.setParent(None)
            _lingering.add(thread)
            thread.finished.connect(lambda t=thread: _lingering.discard(t))
        return finished

    # -- tools: worker side, then GUI side ----------------------------------------------------------

    def _tool_from_worker(self, name: str, args: dict) -> dict:
        request = ToolRequest(name, args, self._stop)
        self._toolRequested.emit(request)
        return request.wait((self._closing, {"ok": False, "error": CLOSED_BEFORE_RUN}),
                            (request.stop, {"ok": False, "error": STOPPED_BEFORE_RUN}))

    def _execute_tool(self, request: ToolRequest) -> None:
        if not request.claim("running"):
            return
        if self._closing.is_set():
            envelope = {"ok": False, "error": CLOSED_BEFORE_RUN}
        elif request.stop.is_set():
            envelope = {"ok": False, "error": STOPPED_BEFORE_RUN}
        elif self._run_tool is None:
            envelope = {"ok": False, "error": NO_DOCUMENT}
        else:
            try:
                envelope = self._run_tool(request.name, request.args)
            except Exception as exc:  # noqa: BLE001 - execute_tool_call never raises; a bridge bug is an answer
                log.exception("tool %s failed", request.name)
                envelope = {"ok": False, "error": f"{request.name} failed: {exc}"}
        request.envelope = envelope
        request.done.set()
