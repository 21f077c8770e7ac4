"""`folio-desktop review FILE --prompt TEXT -o OUT.docx`: the model loop without a window.

The same loop, tools and prompt as the chat panel, over the headless reviewer bridge; it prints
what the model says and every tool call as it happens, then what changed, and saves the result.

The API timeouts are transport.Timeouts: a server that sends no content (silent, or only pings)
ends the run in loop.worst_case_silent_s (85 s with the defaults, retries included).
FOLIO_DESKTOP_API_TIMEOUTS shortens them ("connect=1,first_byte=2,stall=2,request=30,answer=6"), as
does the ``timeouts`` argument of run_review.
"""

from __future__ import annotations

import json
import sys
import threading

from .loop import ModelLoop, ToolCall, TurnListener
from .settings import load_settings
from .tooling import anthropic_tools_for, tool_runner
from .transport import Timeouts


class _Printer(TurnListener):
    def __init__(self, out):
        self.out = out
        self._mid_line = False

    def _line(self, text: str) -> None:
        if self._mid_line:
            self.out.write("\n")
            self._mid_line = False
        self.out.write(text + "\n")
        self.out.flush()

    def text_delta(self, text: str) -> None:
        self.out.write(text)
        self.out.flush()
        self._mid_line = not text.endswith("\n")

    def tool_started(self, call_id: str, name: str, args: dict) -> None:
        brief = json.dumps(args, ensure_ascii=False)
        self._line(f"[tool] {name} {brief[:120]}{'…' if len(brief) > 120 else ''}")

    def tool_finished(self, call_id: str, name: str, envelope: dict) -> None:
        if not envelope.get("ok"):
            self._line(f"[tool] {name} failed: {envelope.get('error')}")
            return
        result = envelope.get("result")
        if isinstance(result, dict) and "applied" in result and "skipped" in result:
            applied = len(result.get("applied") or [])
            skipped = result.get("skipped") or []
            line = f"[tool] {name}: {applied} applied, {len(skipped)} skipped"
            for item in skipped:
                line += f"\n       skipped {item.get('id', '?')}: {item.get('reason', '')}"
            self._line(line)
        else:
            self._line(f"[tool] {name} ok")

    def notice(self, message: str) -> None:
        self._line(f"[note] {message}")

    def finish(self) -> None:
        if self._mid_line:
            self.out.write("\n")
            self._mid_line = False


def summarize_calls(calls: list[ToolCall]) -> dict:
    """What the turn's tool calls did, from their results: operations applied and skipped, comments
    added (every comment a receipt names, whichever tool made it: add_comment, or suggest_changes'
    commentOnRange / commentOnBlock / an operation's comment), comments resolved and reopened."""
    summary = {"applied": 0, "skipped": 0, "comments": 0, "replies": 0, "resolved": [], "reopened": []}
    for call in calls:
        body = call.envelope.get("result") if call.envelope.get("ok") else None
        if not isinstance(body, dict):
            continue
        if call.name == "resolve_comment":
            which = "resolved" if body.get("resolved") else "reopened"
            summary[which].append(str(call.input.get("commentId", "?")))
            continue
        if call.name == "reply_comment" and body.get("replied"):
            summary["replies"] += 1
            continue
        if call.name not in ("suggest_changes", "add_comment"):
            continue
        applied = len(body.get("applied") or [])
        if call.name == "suggest_changes":
            summary["applied"] += applied
            summary["skipped"] += len(body.get("skipped") or [])
        made = sum(1 for receipt in body.get("receipts") or [] for target in receipt.get("affected") or []
                   if isinstance(target, dict) and target.get("type") == "comment")
        if call.name == "add_comment" and not made:
            made = applied  # a surface whose receipts do not name the comment
        summary["comments"] += made
    return summary


def run_review(path: str, prompt: str, output: str, model: str | None = None, author: str | None = None,
               base_url: str | None = None, out=None, timeouts: Timeouts | None = None) -> int:
    from ..agents import create_reviewer_bridge
    from ..docx import DocxReviewer

    out = out or sys.stdout
    settings = load_settings()
    if model:
        settings.model = model
    if base_url:
        settings.base_url = base_url
    reviewer = DocxReviewer.open(path, author=author or "Claude")
    before = {c.id for c in reviewer.get_changes()}
    bridge = create_reviewer_bridge(reviewer, resolve_others=settings.allow_resolving_others)
    loop = ModelLoop(settings, tool_runner(bridge), anthropic_tools_for(bridge), timeouts=timeouts)
    printer = _Printer(out)
    result = loop.run_turn(prompt, printer, threading.Event())
    printer.finish()
    if result.error is not None:
        print(f"[error] {result.error.message}", file=out)
    changes = [c for c in reviewer.get_changes() if c.id not in before]
    done = summarize_calls(result.tool_calls)
    line = (f"[done] {result.status}: {len(result.tool_calls)} tool call(s); {done['applied']} operation(s) "
            f"applied, {done['skipped']} skipped, {done['comments']} comment(s) added")
    if done["replies"]:
        line += f", {done['replies']} repl{'y' if done['replies'] == 1 else 'ies'} to comments"
    line += f"; {result.usage.describe(settings.model)}"
    print(line, file=out)
    for cid in done["resolved"]:
        print(f"[comments] resolved comment {cid}", file=out)
    for cid in done["reopened"]:
        print(f"[comments] reopened comment {cid}", file=out)
    print(f"[changes] {len(changes)} new tracked change(s) pending review:", file=out)
    for change in changes:
        print(f"  #{change.id} {change.type} [{change.block_id}] {change.text!r}", file=out)
    reviewer.save(output)
    print(f"[saved] {output}", file=out)
    return 0 if result.status == "completed" else 1
