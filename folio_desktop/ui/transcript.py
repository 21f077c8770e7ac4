"""The chat transcript as data: what each entry is, how a tool call is summarised, which places a
receipt can show, and the Markdown export. No widgets: the chat panel shows it, tests read it."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

ARG_CHARS = 48  # a chip's argument summary is cut to about this many characters
WRITE_TOOLS = ("suggest_changes", "add_comment")


@dataclass
class TranscriptEntry:
    kind: str  # user | assistant | tool | notice | fault
    text: str = ""
    name: str = ""  # tool name
    call_id: str = ""
    args: dict = field(default_factory=dict)
    envelope: dict | None = None  # None while the tool runs
    error_kind: str = ""  # fault: AssistantError.kind
    kept: bool = True  # assistant text: False when the reply was cut off and dropped from the conversation

    @property
    def state(self) -> str:
        """A tool entry's state: running | ok | error | stopped."""
        if self.envelope is None:
            return "running"
        if self.envelope.get("ok"):
            return "ok"
        return "stopped" if "stopped the turn" in str(self.envelope.get("error", "")) else "error"


def short_args(name: str, args) -> str:
    """A few words that tell one call of a tool from another: the query, the block, the count."""
    if not isinstance(args, dict) or not args:
        return ""
    if isinstance(args.get("query"), str):
        return f"“{clip(args['query'], ARG_CHARS)}”"
    if isinstance(args.get("operations"), list):
        n = len(args["operations"])
        return f"{n} operation{'s' if n != 1 else ''}"
    handle = args.get("handle")
    if isinstance(handle, dict):
        return clip(str(handle.get("headingBlockId") or handle.get("relationshipId") or handle.get("noteId")
                        or handle.get("type", "")), ARG_CHARS)
    for key, label in (("blockId", "block "), ("page", "page "), ("commentId", "comment ")):
        if key in args:
            return clip(f"{label}{args[key]}", ARG_CHARS)
    parts = [f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in list(args.items())[:2]]
    return clip(", ".join(parts), ARG_CHARS)


def result_summary(entry: TranscriptEntry) -> str:
    """What a finished call did, in a few words."""
    if entry.envelope is None:
        return "running…"
    if not entry.envelope.get("ok"):
        return clip(str(entry.envelope.get("error", "failed")), 90)
    result = entry.envelope.get("result")
    if entry.name in WRITE_TOOLS and isinstance(result, dict):
        parts = [f"{len(result.get(k) or [])} {k}" for k in ("applied", "queued", "replayed", "skipped")
                 if result.get(k)]
        return ", ".join(parts) or "nothing applied"
    if isinstance(result, dict) and isinstance(result.get("totalMatches"), int):
        return f"{result['totalMatches']} match{'es' if result['totalMatches'] != 1 else ''}"
    if isinstance(result, dict):
        for key in ("sections", "blocks"):
            if isinstance(result.get(key), list):
                n = len(result[key])
                return f"{n} {key if n != 1 else key[:-1]}"
    if isinstance(result, list):
        return f"{len(result)} item{'s' if len(result) != 1 else ''}"
    return "ok"


def show_targets(entry: TranscriptEntry) -> list[tuple[str, str, object]]:
    """(operation id, what happened, target) for each operation of a write call: a target is a
    TextRange dict for show_in_document, or a block id."""
    result = (entry.envelope or {}).get("result")
    if entry.name not in WRITE_TOOLS or not isinstance(result, dict):
        return []
    out: list[tuple[str, str, object]] = []
    for receipt in result.get("receipts") or []:
        target = None
        for item in receipt.get("affected") or []:
            if item.get("type") == "textRange" and isinstance(item.get("range"), dict):
                target = item["range"]
            else:
                target = item.get("blockId") or item.get("anchorBlockId")
            if target:
                break
        if target:
            out.append((str(receipt.get("operationId", "")), "proposed", target))
    ops = _input_operations(entry)
    for skip in result.get("skipped") or []:
        op_id = str(skip.get("id", ""))
        op = _operation_for(op_id, ops)
        target = None
        if op is not None:
            rng = op.get("range")
            target = rng if isinstance(rng, dict) and rng.get("blockId") else op.get("blockId")
        if isinstance(target, str | dict) and target:
            out.append((op_id, f"skipped: {skip.get('reason', '')}", target))
    return out


def _input_operations(entry: TranscriptEntry) -> list[dict]:
    if entry.name == "add_comment":
        return [entry.args] if isinstance(entry.args, dict) else []
    ops = entry.args.get("operations") if isinstance(entry.args, dict) else None
    return [op for op in ops if isinstance(op, dict)] if isinstance(ops, list) else []


def _operation_for(op_id: str, ops: list[dict]) -> dict | None:
    """The input operation a result id names: by its own id, else by the position the parser
    minted into it (op-<uuid>-<n>), else the only one."""
    for op in ops:
        if op.get("id") == op_id:
            return op
    tail = op_id.rsplit("-", 1)[-1]
    if tail.isdigit() and 1 <= int(tail) <= len(ops) and "id" not in ops[int(tail) - 1]:
        return ops[int(tail) - 1]
    return ops[0] if len(ops) == 1 else None


def clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def transcript_markdown(entries: list[TranscriptEntry], title: str = "", model: str = "") -> str:
    """The conversation as a Markdown document."""
    lines = [f"# Conversation with Claude{f' about {title}' if title else ''}", ""]
    stamp = datetime.now().strftime("%Y-%m-%d %H:%M")
    lines += [f"_Exported {stamp}{f', model {model}' if model else ''}._", ""]
    speaker = None
    for entry in entries:
        if entry.kind == "user":
            lines += ["## You", "", entry.text, ""]
            speaker = "user"
        elif entry.kind == "assistant":
            if speaker != "assistant":
                lines += ["## Claude", ""]
                speaker = "assistant"
            lines += [entry.text + ("" if entry.kept else "\n\n_(cut off; not kept in the conversation)_"), ""]
        elif entry.kind == "tool":
            if speaker != "assistant":
                lines += ["## Claude", ""]
                speaker = "assistant"
            args = short_args(entry.name, entry.args)
            lines += [f"- Tool `{entry.name}`{f' ({args})' if args else ''}: {entry.state}, "
                      f"{result_summary(entry)}", ""]
        elif entry.kind == "notice":
            lines += [f"_{entry.text}_", ""]
        elif entry.kind == "fault":
            lines += [f"> **Problem:** {entry.text}", ""]
    return "\n".join(lines).rstrip() + "\n"


def write_transcript(path: str | Path, entries: list[TranscriptEntry], title: str = "", model: str = "") -> Path:
    path = Path(path)
    path.write_text(transcript_markdown(entries, title, model), encoding="utf-8")
    return path


