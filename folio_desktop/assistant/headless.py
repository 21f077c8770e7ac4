"""`folio-desktop review FILE --prompt TEXT -o OUT.docx`: the model loop without a window.

The same loop, tools and prompt as the chat panel, over the headless reviewer bridge; it prints
what the model says and every tool call as it happens, then what changed, and saves the result.
"""

from __future__ import annotations

import json
import sys
import threading

from .loop import ModelLoop, TurnListener
from .settings import load_settings
from .tooling import anthropic_tools_for, tool_runner


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


def run_review(path: str, prompt: str, output: str, model: str | None = None, author: str | None = None,
               base_url: str | None = None, out=None) -> int:
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
    bridge = create_reviewer_bridge(reviewer)
    loop = ModelLoop(settings, tool_runner(bridge), anthropic_tools_for(bridge))
    printer = _Printer(out)
    result = loop.run_turn(prompt, printer, threading.Event())
    printer.finish()
    if result.error is not None:
        print(f"[error] {result.error.message}", file=out)
    changes = [c for c in reviewer.get_changes() if c.id not in before]
    applied = skipped = comments = 0
    for call in result.tool_calls:
        body = call.envelope.get("result") if call.envelope.get("ok") else None
        if call.name == "suggest_changes" and isinstance(body, dict):
            applied += len(body.get("applied") or [])
            skipped += len(body.get("skipped") or [])
        elif call.name == "add_comment" and body is not None:
            comments += 1
    print(f"[done] {result.status}: {len(result.tool_calls)} tool call(s); {applied} operation(s) applied, "
          f"{skipped} skipped, {comments} comment(s) added; {result.usage.describe(settings.model)}", file=out)
    print(f"[changes] {len(changes)} new tracked change(s) pending review:", file=out)
    for change in changes:
        print(f"  #{change.id} {change.type} [{change.block_id}] {change.text!r}", file=out)
    reviewer.save(output)
    print(f"[saved] {output}", file=out)
    return 0 if result.status == "completed" else 1
