"""ChatPanel: the conversation with Claude beside the pages.

A transcript (the lawyer's messages, Claude's replies rendered as Markdown while they stream, one
compact chip per tool call, grey notices, styled faults), a composer (Enter sends, Shift+Enter
breaks the line, Up/Down recall earlier messages), Stop, quick actions, a new conversation, a
Markdown export, and a status line with the tokens and estimated cost of the turn and of the
conversation.

The turn itself runs in AssistantRunner's worker; every slot here runs on the GUI thread and does
little work (streamed text is re-rendered at most every RENDER_MS), so the page view keeps laying
out the changes Claude proposes while the reply is still streaming.
"""

from __future__ import annotations

import html
import json
from pathlib import Path

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QFont, QTextDocument, QTextDocumentFragment
from PySide6.QtWidgets import (
    QFileDialog,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ...agents.paging import clip as clip_words
from ...assistant import QUICK_ACTIONS, AssistantSettings, TurnResult
from ...assistant.prompts import COMPARE_ACTION, NEEDS_SELECTION
from .composer import Composer
from .runner import AssistantRunner
from .transcript import (
    TranscriptEntry,
    block_ids_of,
    clip,
    describe,
    show_targets,
    transcript_markdown,
    turn_summary,
    write_transcript,
)
from .version_compare import version_diff_message

RENDER_MS = 40  # streamed Markdown is re-rendered at most this often
RESULT_CHARS = 200_000  # a chip's JSON view shows at most this much of a result
SETTINGS_KINDS = ("no_key", "setup", "auth", "permission", "not_found")  # faults the Settings dialog can fix

STYLE = """
QWidget#transcript { background: palette(base); }
QLabel#user { background: #e8f0fe; color: #202124; border-radius: 8px; padding: 6px 9px; }
QLabel#assistant { padding: 2px 3px; }
QLabel#assistant[kept="false"] { color: #9aa0a6; }
QLabel#notice { color: #80868b; font-size: 11px; padding: 0 3px; }
QLabel#summary { color: #3c4043; background: #f1f3f4; border-radius: 6px; padding: 4px 8px; }
QToolButton#thinking { border: none; color: #80868b; font-size: 11px; text-align: left; }
QLabel#thinkingText { color: #80868b; font-size: 11px; padding: 0 3px 0 14px; }
QLabel#fault { background: #fce8e6; color: #a50e0e; border: 1px solid #ee675c; border-radius: 6px; padding: 6px 9px; }
QLabel#fault[kind="max_tokens"], QLabel#fault[kind="refusal"], QLabel#fault[kind="context_window"],
QLabel#fault[kind="pause_turn"], QLabel#fault[kind="prompt_too_long"] {
    background: #fef7e0; color: #7a4f01; border-color: #f9ab00; }
QFrame#chip { border: 1px solid #dadce0; border-radius: 6px; background: #f8f9fa; color: #202124; }
QFrame#chip[state="error"], QFrame#chip[state="stopped"] { border-color: #ee675c; background: #fef6f5; }
QToolButton#chipHeader { border: none; padding: 2px 4px; text-align: left; color: #202124; }
QLabel#status { color: #5f6368; font-size: 11px; }
"""


# -- widgets ------------------------------------------------------------------------------------------


def place_of(block) -> str:
    """How a chip names a block: its clause number, else its first words in quotes."""
    if block is None:
        return ""
    label = block.display_label if block.kind in ("listItem", "heading") else None
    if label and block.kind == "heading" and label == block.style_id:
        label = None  # an unnumbered heading's label is its style id: its words say more
    if label:
        return label
    words = clip_words(" ".join(block.text.split()), 32)
    return f"“{words}”" if words else "a deleted paragraph"


def _label(text: str, name: str, fmt=Qt.PlainText) -> QLabel:
    label = QLabel()
    label.setObjectName(name)
    label.setTextFormat(fmt)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextSelectableByMouse | Qt.LinksAccessibleByMouse)
    label.setOpenExternalLinks(False)
    label.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Preferred)
    label.setText(text)
    return label


class ToolChip(QFrame):
    """One tool call: a one-line header in plain words ("Proposed 2 changes in 6.1 and 7.3") that
    toggles the details (the tool, its arguments and its JSON result), with Show links for the
    operations of a suggest_changes / add_comment call."""

    showRequested = Signal(object)  # a TextRange dict or a block id

    MARKS = {"running": "…", "ok": "✓", "error": "✗", "stopped": "■"}

    def __init__(self, entry: TranscriptEntry, parent=None):
        super().__init__(parent)
        self.entry = entry
        self.setObjectName("chip")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 2)
        layout.setSpacing(2)
        self.header = QToolButton()
        self.header.setObjectName("chipHeader")
        self.header.setCheckable(True)
        self.header.setToolButtonStyle(Qt.ToolButtonTextBesideIcon)
        self.header.setArrowType(Qt.RightArrow)
        self.header.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Fixed)  # a long line is cut, never widens
        self.header.toggled.connect(self.set_expanded)
        layout.addWidget(self.header)
        self.links = _label("", "chipLinks", Qt.RichText)
        self.links.linkActivated.connect(self._link)
        self.links.hide()
        layout.addWidget(self.links)
        self.details = QPlainTextEdit()
        self.details.setReadOnly(True)
        self.details.setFont(QFont("monospace", 8))
        self.details.setMaximumHeight(220)
        self.details.hide()
        layout.addWidget(self.details)
        self._targets: list[tuple[str, str, object]] = []
        self.refresh()

    @property
    def state(self) -> str:
        return self.entry.state

    @property
    def expanded(self) -> bool:
        return self.details.isVisibleTo(self)

    def header_text(self) -> str:
        return f"{self.MARKS[self.state]} {describe(self.entry)}"

    def refresh(self) -> None:
        self.header.setText(self.header_text())
        self.header.setToolTip(self.header_text() + "\n(click for the details)")
        self.setProperty("state", self.state)
        self.style().unpolish(self)
        self.style().polish(self)
        self._targets = show_targets(self.entry)
        if self._targets:
            rows = [f"{html.escape(clip(words, 100))} · <a href='show:{i}'>Show</a>"
                    for i, (_op_id, words, _t) in enumerate(self._targets)]
            self.links.setText("<br>".join(rows))
            self.links.show()
        if self.expanded:
            self._fill_details()

    def set_expanded(self, on: bool) -> None:
        if on:
            self._fill_details()
        self.details.setVisible(on)
        self.header.setArrowType(Qt.DownArrow if on else Qt.RightArrow)
        if self.header.isChecked() != on:
            self.header.setChecked(on)

    def show_target(self, index: int = 0) -> None:
        """What clicking the index-th Show link does."""
        self.showRequested.emit(self._targets[index][2])

    @property
    def targets(self) -> list[tuple[str, str, object]]:
        return list(self._targets)

    def _link(self, href: str) -> None:
        if href.startswith("show:"):
            self.show_target(int(href[5:]))

    def _fill_details(self) -> None:
        envelope = self.entry.envelope
        head = (f"Tool: {self.entry.name}\nArguments:\n"
                + json.dumps(self.entry.args, ensure_ascii=False, indent=1) + "\n\n")
        if envelope is None:
            text = head + "Running…"
        elif envelope.get("ok"):
            text = head + "Result:\n" + json.dumps(envelope.get("result"), ensure_ascii=False, indent=1)
        else:
            text = head + "Error:\n" + str(envelope.get("error"))
        if len(text) > RESULT_CHARS:
            text = text[:RESULT_CHARS] + "\n… (cut here)"
        self.details.setPlainText(text)


class ChatPanel(QWidget):
    """The assistant side panel over one document's bridge (see the module docstring)."""

    busyChanged = Signal(bool)
    turnFinished = Signal(object)  # TurnResult, after the transcript shows it
    settingsRequested = Signal()

    def __init__(self, settings: AssistantSettings, bridge=None, parent=None, title: str = ""):
        super().__init__(parent)
        self.settings = settings
        self.title = title
        self.entries: list[TranscriptEntry] = []
        self._items: list[QWidget] = []  # transcript widgets, in entry order
        self._chips: dict[str, ToolChip] = {}
        self._current_text: tuple[TranscriptEntry, QLabel] | None = None
        self._stick = True  # keep the transcript scrolled to its end
        self._usage_text = ""
        self._has_selection = False
        self._turn_start = 0  # index in entries of this turn's first entry
        self._thinking: tuple[TranscriptEntry, QToolButton, QLabel] | None = None
        self._shown: str | None = None  # what the transcript shows of the message being sent, when shorter
        # () -> an open compare window or None: the review window's (version_compare.py)
        self.open_comparison = None
        self.setStyleSheet(STYLE)

        self.runner = AssistantRunner(settings, bridge, parent=self)
        self.runner.turnStarted.connect(self._on_turn_started)
        self.runner.textDelta.connect(self._on_text)
        self.runner.thinkingDelta.connect(self._on_thinking)
        self.runner.toolStarted.connect(self._on_tool_started)
        self.runner.toolFinished.connect(self._on_tool_finished)
        self.runner.notice.connect(self._on_notice)
        self.runner.usage.connect(self._on_usage)
        self.runner.turnFinished.connect(self._on_turn_finished)
        self.runner.busyChanged.connect(self._on_busy)

        self._render_timer = QTimer(self)
        self._render_timer.setSingleShot(True)
        self._render_timer.setInterval(RENDER_MS)
        self._render_timer.timeout.connect(self._render_text)
        self._build()
        self._on_busy(False)

    # -- building -------------------------------------------------------------------------------------

    def _build(self) -> None:
        outer = QVBoxLayout(self)
        outer.setContentsMargins(6, 6, 6, 6)
        outer.setSpacing(6)

        self.scroll = QScrollArea()
        self.scroll.setWidgetResizable(True)
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.scroll.setFrameShape(QFrame.StyledPanel)
        self.transcript = QWidget()
        self.transcript.setObjectName("transcript")
        self._column = QVBoxLayout(self.transcript)
        self._column.setContentsMargins(6, 6, 6, 6)
        self._column.setSpacing(6)
        self._column.addStretch(1)
        self.scroll.setWidget(self.transcript)
        bar = self.scroll.verticalScrollBar()
        bar.rangeChanged.connect(self._follow_end)
        bar.valueChanged.connect(lambda v: setattr(self, "_stick", v >= bar.maximum() - 4))
        outer.addWidget(self.scroll, 1)

        quick = QGridLayout()  # two a row: the labels stay readable in a narrow dock
        quick.setSpacing(4)
        self.quick_buttons: dict[str, QPushButton] = {}
        for i, (label, prompt) in enumerate(QUICK_ACTIONS.items()):
            button = QPushButton(label)
            button.setToolTip(prompt)
            button.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Fixed)
            button.clicked.connect(lambda _=False, p=prompt, lbl=label: self._quick(lbl, p))
            quick.addWidget(button, i // 2, i % 2)
            self.quick_buttons[label] = button
        outer.addLayout(quick)

        self.composer = Composer()
        self.composer.submitted.connect(self.send)
        outer.addWidget(self.composer)

        row = QHBoxLayout()
        self.new_button = QPushButton("New conversation")
        self.new_button.clicked.connect(self.new_conversation)
        self.export_button = QPushButton("Export…")
        self.export_button.setToolTip("Save the transcript as a Markdown file")
        self.export_button.clicked.connect(lambda: self.export_transcript())
        self.stop_button = QPushButton("Stop")
        self.stop_button.clicked.connect(self.stop)
        self.send_button = QPushButton("Send")
        self.send_button.setDefault(True)
        self.send_button.clicked.connect(lambda: self.send())
        for button in (self.export_button, self.stop_button, self.send_button):
            button.setMinimumWidth(40)  # a narrow dock squeezes the labels rather than the page (desk/side_strips.py)
        row.addWidget(self.new_button)
        row.addWidget(self.export_button)
        row.addStretch(1)
        row.addWidget(self.stop_button)
        row.addWidget(self.send_button)
        outer.addLayout(row)

        self.status_label = _label("", "status")
        outer.addWidget(self.status_label)

    # -- public ---------------------------------------------------------------------------------------

    @property
    def busy(self) -> bool:
        return self.runner.busy

    @property
    def bridge(self):
        return self.runner.bridge

    def set_bridge(self, bridge, title: str = "") -> None:
        """Talk about another document: its tools, and a fresh conversation."""
        if self.busy:
            self.shutdown_turn()
        self.runner.set_bridge(bridge)
        self.title = title
        self._clear()

    def set_settings(self, settings: AssistantSettings) -> None:
        if self.busy:
            self.shutdown_turn()
        self.settings = settings
        self.runner.apply_settings(settings)

    def send(self, text: str | None = None, shown: str | None = None) -> bool:
        """Send `text` (default: the composer's) as the next user message, which the transcript
        shows as `shown` when given. False when a turn is running, or there is nothing to send."""
        from_composer = text is None
        text = (self.composer.toPlainText() if from_composer else text).strip()
        if not text:
            return False
        if self.busy:
            self._set_status("Claude is still working: wait for the reply, or press Stop.")
            return False
        if self.bridge is None:
            self._add_fault("Open a document first: Claude reads and edits the document open beside this panel.",
                            "no_document")
            return False
        if shown is None:  # a message with a version diff is not one to recall and send again
            self.composer.remember(text)
        if from_composer or self.composer.toPlainText().strip() == text:
            self.composer.clear()
        self._shown = shown  # read by _on_turn_started, which start() calls
        started = self.runner.start(text)
        self._shown = None
        return started

    def set_selection_available(self, available: bool) -> None:
        """Whether the lawyer has text selected: actions about "the selected clause" need some."""
        self._has_selection = bool(available)
        self._on_busy(self.busy)

    def _quick(self, label: str, prompt: str) -> bool:
        if label in NEEDS_SELECTION and not self._has_selection:
            self._set_status("Select the clause in the document first.")
            return False
        if label == COMPARE_ACTION:
            return self.compare_with_earlier(prompt)
        return self.send(prompt)

    def compare_with_earlier(self, prompt: str) -> bool:
        """Ask for the earlier version, open its comparison with this document, and send Claude
        `prompt` with the version diff."""
        if self.busy or self.bridge is None:
            return self.send(prompt)  # which says why not
        if self.open_comparison is None:
            self._set_status("Comparing needs a document open in the review window.")
            return False
        comparison = self.open_comparison()
        if comparison is None:
            return False
        return self.send(*version_diff_message(prompt, comparison))

    def stop(self) -> None:
        if self.busy:
            self.runner.stop()
            self.stop_button.setEnabled(False)
            self._set_status("Stopping…")

    def new_conversation(self) -> None:
        if self.busy:
            return
        self.runner.new_conversation()
        self._clear()

    def export_transcript(self, path: str | Path | None = None) -> Path | None:
        """Write the transcript as Markdown; without a path, ask for one."""
        if path is None:
            stem = Path(self.title).stem if self.title else "conversation"
            chosen, _filter = QFileDialog.getSaveFileName(self, "Export transcript", f"{stem} - Claude.md",
                                                          "Markdown (*.md);;All files (*)")
            if not chosen:
                return None
            path = chosen
        try:
            return write_transcript(path, self.entries, self.title, self.settings.model)
        except OSError as exc:
            self._add_fault(f"The transcript could not be written to {path} ({exc.strerror or exc}).", "export")
            return None

    def transcript_markdown(self) -> str:
        return transcript_markdown(self.entries, self.title, self.settings.model)

    def show_target(self, target) -> bool:
        """Show an operation's place in the document: a text range when it still matches, else its block."""
        bridge = self.bridge
        if bridge is None or not target:
            return False
        show = getattr(bridge, "show_in_document", None)
        if isinstance(target, dict):
            if callable(show) and show(target):
                return True
            target = target.get("blockId")
            if not target:
                return False
        if callable(show):
            return bool(show({"type": "block", "story": "main", "blockId": target}))
        scroll = getattr(bridge, "scroll_to_block", None)
        return bool(scroll(target)) if callable(scroll) else False

    def items(self, kind: str | None = None) -> list[QWidget]:
        """The transcript's widgets (of one entry kind), in order."""
        return [w for w, e in zip(self._items, self.entries) if kind is None or e.kind == kind]

    def chips(self) -> list[ToolChip]:
        return [w for w in self._items if isinstance(w, ToolChip)]

    def visible_text(self) -> str:
        """What the transcript shows, as plain text (chips by their header line)."""
        out = []
        for widget, entry in zip(self._items, self.entries):
            if isinstance(widget, ToolChip):
                out.append(widget.header_text())
            elif entry.kind == "thinking":  # collapsed: only its toggle shows
                out.append("Claude's thinking")
            elif entry.kind == "assistant":
                doc = QTextDocument()
                doc.setMarkdown(widget.text())
                out.append(doc.toPlainText())
            elif widget.textFormat() == Qt.RichText:
                out.append(QTextDocumentFragment.fromHtml(widget.text()).toPlainText())
            else:
                out.append(widget.text())
        return "\n".join(out)

    def shutdown(self) -> bool:
        """End a running turn for good (the window is closing)."""
        self._render_timer.stop()
        return self.runner.shutdown()

    def shutdown_turn(self) -> None:
        """Stop a running turn and wait for it to end (before the document or settings change)."""
        self.runner.stop_and_wait()

    # -- runner signals (GUI thread) -----------------------------------------------------------------

    def _on_turn_started(self, text: str) -> None:
        text = self._shown or text
        self._turn_start = len(self.entries)
        self._add(TranscriptEntry("user", text), _label(text, "user"))
        self._current_text = None
        self._thinking = None
        self._set_status("Claude is working…")

    def _on_thinking(self, delta: str) -> None:
        """The model's thinking, collapsed under a toggle: shown only when asked, never part of the answer."""
        if self._thinking is None:
            self._end_text()
            entry = TranscriptEntry("thinking")
            box = QWidget()
            column = QVBoxLayout(box)
            column.setContentsMargins(0, 0, 0, 0)
            column.setSpacing(0)
            toggle = QToolButton()
            toggle.setObjectName("thinking")
            toggle.setCheckable(True)
            toggle.setArrowType(Qt.RightArrow)
            toggle.setToolButtonStyle(Qt.ToolButtonTextBesideIcon)
            toggle.setText("Claude's thinking")
            text = _label("", "thinkingText")
            text.hide()

            def flip(on: bool, t=text, b=toggle) -> None:
                t.setVisible(on)
                b.setArrowType(Qt.DownArrow if on else Qt.RightArrow)

            toggle.toggled.connect(flip)
            column.addWidget(toggle)
            column.addWidget(text)
            self._add(entry, box)
            self._thinking = (entry, toggle, text)
        entry, _toggle, text = self._thinking
        entry.text += delta
        text.setText(entry.text)

    def thinking_widgets(self) -> list[tuple[QToolButton, QLabel]]:
        out = []
        for widget, entry in zip(self._items, self.entries):
            if entry.kind == "thinking":
                out.append((widget.findChild(QToolButton), widget.findChild(QLabel)))
        return out

    def _on_text(self, delta: str) -> None:
        self._thinking = None  # the answer follows; a later thinking block gets a toggle of its own
        if self._current_text is None:
            entry = TranscriptEntry("assistant")
            label = _label("", "assistant", Qt.MarkdownText)
            self._add(entry, label)
            self._current_text = (entry, label)
        self._current_text[0].text += delta
        if not self._render_timer.isActive():
            self._render_timer.start()

    def _render_text(self) -> None:
        if self._current_text is not None:
            entry, label = self._current_text
            label.setText(entry.text)

    def _end_text(self) -> None:
        self._render_text()
        self._render_timer.stop()
        self._current_text = None

    def _on_tool_started(self, call_id: str, name: str, args) -> None:
        self._end_text()
        self._thinking = None
        self._chip(call_id, name, args)

    def _on_tool_finished(self, call_id: str, name: str, envelope) -> None:
        self._end_text()
        chip = self._chips.get(call_id) or self._chip(call_id, name, {})  # invalid input: never started
        chip.entry.envelope = envelope if isinstance(envelope, dict) else {"ok": False, "error": str(envelope)}
        self._name_places(chip.entry)
        chip.refresh()

    def _name_places(self, entry: TranscriptEntry) -> None:
        """Resolve, now, the clause numbers (or first words) of the blocks and the authors of the
        comments a call names, so its chip speaks of "6.1" and "Jane's comment", never of ids."""
        bridge = self.bridge
        if bridge is None:
            return
        try:
            snapshot = bridge.snapshot()
            for block_id in block_ids_of(entry):
                entry.places[block_id] = place_of(snapshot.block(block_id))
            cid = entry.args.get("commentId") if isinstance(entry.args, dict) else None
            if isinstance(cid, str):
                for thread in bridge.get_comments():
                    for c in [thread, *(thread.get("replies") or ())]:
                        if str(c.get("id")) == cid:
                            where = place_of(snapshot.block(thread.get("blockId"))) if thread.get("blockId") else ""
                            entry.comments[cid] = (c.get("author", ""), where)
        except Exception:  # noqa: BLE001 - naming places is a nicety; a chip without them still reads
            pass

    def _chip(self, call_id: str, name: str, args) -> ToolChip:
        entry = TranscriptEntry("tool", name=name, call_id=call_id, args=args if isinstance(args, dict) else {})
        chip = ToolChip(entry)
        chip.showRequested.connect(self.show_target)
        self._chips[call_id] = chip
        self._add(entry, chip)
        return chip

    def _on_notice(self, message: str) -> None:
        self._end_text()
        self._add(TranscriptEntry("notice", message), _label(message, "notice"))

    def _on_usage(self, turn, total) -> None:
        model = self.settings.model
        self._usage_text = f"This turn: {turn.describe(model)}\nConversation: {total.describe(model)}"
        self._set_status(("Claude is working…\n" if self.busy else "") + self._usage_text)

    def _on_turn_finished(self, result: TurnResult) -> None:
        last = self._current_text
        self._end_text()
        # a reply being streamed when the turn was stopped, failed or refused is not part of the conversation
        if result.status in ("stopped", "failed", "refusal") and last is not None and self.entries \
                and self.entries[-1] is last[0]:
            # the reply being streamed was dropped from the conversation: show that it was
            last[0].kept = False
            last[1].setProperty("kept", "false")
            last[1].setToolTip("This reply was cut off and is not part of the conversation.")
            last[1].style().unpolish(last[1])
            last[1].style().polish(last[1])
        summary = turn_summary(self.entries[self._turn_start:])
        if summary:
            self._add(TranscriptEntry("notice", summary), _label(summary, "summary"))
        if result.status == "stopped":
            self._on_notice("Stopped. Changes Claude proposed before the stop stay in the document.")
        if result.error is not None:
            self._add_fault(result.error.message, result.error.kind)
        for chip in self._chips.values():
            if chip.entry.envelope is None:  # cannot happen with the loop's contract; never leave a spinner
                chip.entry.envelope = {"ok": False, "error": "The user stopped the turn before this tool finished."}
                chip.refresh()
        self._set_status(self._usage_text)
        self.composer.setFocus()
        self.turnFinished.emit(result)

    def _on_busy(self, busy: bool) -> None:
        self.stop_button.setEnabled(busy)
        self.send_button.setEnabled(not busy)
        self.new_button.setEnabled(not busy)
        for label, button in self.quick_buttons.items():
            needs = label in NEEDS_SELECTION and not self._has_selection
            button.setEnabled(not busy and not needs)
            button.setToolTip("Select the clause in the document first." if needs else QUICK_ACTIONS[label])
        self.busyChanged.emit(busy)

    # -- transcript ---------------------------------------------------------------------------------------

    def _add(self, entry: TranscriptEntry, widget: QWidget) -> None:
        self.entries.append(entry)
        self._items.append(widget)
        self._column.insertWidget(self._column.count() - 1, widget)
        widget.show()  # now, not when the layout gets to it: the transcript is read as it grows

    def _add_fault(self, message: str, kind: str) -> None:
        self._end_text()
        text = html.escape(message)
        if kind in SETTINGS_KINDS:
            text += " <a href='settings'>Open Settings…</a>"
        label = _label(text, "fault", Qt.RichText)
        label.setProperty("kind", kind)
        label.linkActivated.connect(lambda href: self.settingsRequested.emit() if href == "settings" else None)
        self._add(TranscriptEntry("fault", message), label)

    def _clear(self) -> None:
        self._render_timer.stop()
        for widget in self._items:
            self._column.removeWidget(widget)
            widget.deleteLater()
        self._items.clear()
        self.entries.clear()
        self._chips.clear()
        self._current_text = None
        self._thinking = None
        self._turn_start = 0
        self._usage_text = ""
        self._set_status("")

    def _follow_end(self, _lo: int, hi: int) -> None:
        if self._stick:
            self.scroll.verticalScrollBar().setValue(hi)

    def _set_status(self, text: str) -> None:
        self.status_label.setText(text)
