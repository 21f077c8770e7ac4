"""The chat transcript as data: what each entry is, how a tool call is summarised, which places a
receipt can show, and the Markdown export. No widgets: the chat panel shows it, tests read it."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

ARG_CHARS = 48  # a chip's argument summary is cut to about this many characters
WRITE_TOOLS = ("suggest_changes", "add_comment")


@dataclass
class TranscriptEntry:
    kind: str  # user | assistant | thinking | tool | notice | fault
    text: str = ""
    name: str = ""  # tool name
    call_id: str = ""
    args: dict = field(default_factory=dict)
    envelope: dict | None = None  # None while the tool runs
    kept: bool = True  # assistant text: False when the reply was cut off and dropped from the conversation
    # tool: how its blocks and comments read when it finished ("6.1", or a block's first words; a
    # comment's (author, place)), so the chip keeps naming them after later edits
    places: dict = field(default_factory=dict)
    comments: dict = field(default_factory=dict)

    @property
    def state(self) -> str:
        """A tool entry's state: running | ok | error | stopped."""
        if self.envelope is None:
            return "running"
        if self.envelope.get("ok"):
            return "ok"
        return "stopped" if "stopped the turn" in str(self.envelope.get("error", "")) else "error"


# -- plain words --------------------------------------------------------------------------------------------

RUNNING = {
    "read_document": "Reading the document", "get_document_outline": "Reading the outline",
    "read_section": "Reading a section", "list_stories": "Listing the headers, footers and notes",
    "read_story": "Reading a header, footer or note", "find_text": "Searching", "read_comments": "Reading the comments",
    "read_changes": "Reading the tracked changes", "add_comment": "Adding a comment",
    "suggest_changes": "Proposing changes", "reply_comment": "Replying to a comment",
    "resolve_comment": "Resolving a comment", "read_page": "Reading a page", "read_selection": "Reading your selection",
    "scroll_to_block": "Showing you a place", "show_in_document": "Showing you a place",
}
FAILED = {
    "read_document": "Could not read the document", "get_document_outline": "Could not read the outline",
    "read_section": "Could not read the section", "list_stories": "Could not list the stories",
    "read_story": "Could not read that story", "find_text": "Could not search", "read_comments": "Could not read "
    "the comments", "read_changes": "Could not read the tracked changes", "add_comment": "Could not add the comment",
    "suggest_changes": "Could not propose the changes", "reply_comment": "Could not reply",
    "resolve_comment": "Could not resolve the comment", "read_page": "Could not read the page",
    "read_selection": "Could not read your selection", "scroll_to_block": "Could not show that place",
    "show_in_document": "Could not show that place",
}


def _plural(n: int, word: str) -> str:
    if n == 1:
        return f"{n} {word}"
    return f"{n} {word}{'es' if word.endswith(('ch', 'sh', 's', 'x')) else 's'}"


def join_places(places: list[str], limit: int = 3) -> str:
    places = list(dict.fromkeys(p for p in places if p))
    if len(places) > limit:
        return ", ".join(places[:limit]) + f" and {len(places) - limit} more"
    if len(places) > 1:
        return ", ".join(places[:-1]) + " and " + places[-1]
    return places[0] if places else ""


def receipt_blocks(result: dict) -> list[str]:
    """The block each receipt names first: the edited block, or the one an insertion sits beside."""
    out = []
    for receipt in result.get("receipts") or []:
        for item in receipt.get("affected") or []:
            block = item.get("blockId") or item.get("anchorBlockId") or (item.get("range") or {}).get("blockId")
            if block:
                out.append(block)
                break
    return out


def receipt_comments(result: dict) -> int:
    return sum(1 for r in result.get("receipts") or [] for item in r.get("affected") or []
               if item.get("type") == "comment")


def _in(entry: TranscriptEntry, block_ids: list[str]) -> str:
    where = join_places([entry.places.get(b, "") for b in block_ids])
    return f" in {where}" if where else ""


def _comment_words(entry: TranscriptEntry, comment_id) -> str:
    author, place = entry.comments.get(str(comment_id), ("", ""))
    who = f"{author}'s comment" if author else "a comment"
    return f"{who} on {place}" if place else who


def describe(entry: TranscriptEntry) -> str:
    """What a call did, in words a lawyer reads at a glance (no tool names, no ids)."""
    name, args = entry.name, entry.args if isinstance(entry.args, dict) else {}
    if entry.envelope is None:
        if name == "suggest_changes" and isinstance(args.get("operations"), list):
            return f"Proposing {_plural(len(args['operations']), 'change')}…"
        if name == "find_text" and isinstance(args.get("query"), str):
            return f"Searching for “{clip(args['query'], ARG_CHARS)}”…"
        return RUNNING.get(name, f"Running {name}") + "…"
    if not entry.envelope.get("ok"):
        error = str(entry.envelope.get("error", "failed"))
        if entry.state == "stopped":
            return f"{RUNNING.get(name, name)}: not done, you stopped the turn"
        return f"{FAILED.get(name, f'{name} failed')}: {clip(error, 110)}"
    result = entry.envelope.get("result")
    result = result if isinstance(result, dict) else {}
    if name == "suggest_changes":
        applied, skipped = result.get("applied") or [], result.get("skipped") or []
        queued, replayed = result.get("queued") or [], result.get("replayed") or []
        parts = []
        if applied:
            words = f"Proposed {_plural(len(applied), 'change')}{_in(entry, receipt_blocks(result))}"
            notes = receipt_comments(result)
            parts.append(words + (f", with {_plural(notes, 'comment')}" if notes else ""))
        if queued:
            parts.append(f"Queued {_plural(len(queued), 'change')} for review")
        if replayed:
            parts.append(f"{_plural(len(replayed), 'change')} already proposed")
        if skipped:
            first = clip(str(skipped[0].get("reason", "")), 90)
            parts.append(f"{len(skipped)} not proposed" + (f" ({first})" if not applied else ""))
        return "; ".join(parts) or "Nothing proposed"
    if name == "add_comment":
        if result.get("applied"):
            return f"Added a comment{_in(entry, receipt_blocks(result)).replace(' in ', ' on ', 1)}"
        skipped = result.get("skipped") or [{}]
        return f"Comment not added: {clip(str(skipped[0].get('reason', '')), 100)}"
    if name == "reply_comment":
        return f"Replied to {_comment_words(entry, args.get('commentId'))}"
    if name == "resolve_comment":
        verb = "Resolved" if result.get("resolved", True) else "Reopened"
        return f"{verb} {_comment_words(entry, args.get('commentId'))}"
    if name == "read_document":
        blocks, total = len(result.get("blocks") or []), result.get("totalBlocks", 0)
        return f"Read the document: {blocks} of {_plural(total, 'paragraph')}" + \
            (" (continued)" if "afterBlockId" in args else "")
    if name == "get_document_outline":
        return f"Read the outline: {_plural(len(result.get('sections') or []), 'heading')}"
    if name == "read_section":
        heading = result.get("heading") or {}
        title = " ".join(x for x in (heading.get("displayLabel"), clip(heading.get("text", ""), 50)) if x)
        return f"Read section {title}" if title else "Read a section"
    if name == "list_stories":
        return f"Listed the headers, footers and notes ({result.get('totalStories', 0)})"
    if name == "read_story":
        handle = result.get("handle") or {}
        kind = handle.get("type", "story")
        what = {"main": "the main text", "header": "a header", "footer": "a footer"}.get(
            kind, f"{kind} {handle.get('noteId', '')}".strip())
        return f"Read {what}"
    if name == "find_text":
        total = result.get("totalMatches", 0)
        return f"Searched for “{clip(str(args.get('query', '')), ARG_CHARS)}”: {_plural(total, 'match')}"
    if name == "read_comments":
        return f"Read the comments: {_plural(result.get('totalThreads', 0), 'thread')}"
    if name == "read_changes":
        return f"Read the tracked changes: {result.get('totalChanges', 0)}"
    if name == "read_page":
        return f"Read page {result.get('page', args.get('page', ''))}"
    if name == "read_selection":
        return "Read your selection"
    if name in ("scroll_to_block", "show_in_document"):
        place = entry.places.get(args.get("blockId") or (args.get("range") or {}).get("blockId") or "", "")
        shown = result.get("shown", result.get("scrolled"))
        return (f"Showed you {place}" if place else "Showed you a place") if shown else "That place is gone"
    return "Done"


def block_ids_of(entry: TranscriptEntry) -> list[str]:
    """Every block a call names, so the panel can resolve their clause numbers when it finishes."""
    args = entry.args if isinstance(entry.args, dict) else {}
    ids = [args.get("blockId"), (args.get("range") or {}).get("blockId")]
    for op in args.get("operations") or []:
        if isinstance(op, dict):
            ids += [op.get("blockId"), (op.get("range") or {}).get("blockId")]
    result = (entry.envelope or {}).get("result")
    if isinstance(result, dict):
        ids += receipt_blocks(result)
    return [i for i in dict.fromkeys(ids) if isinstance(i, str) and i]


def turn_summary(entries: list[TranscriptEntry]) -> str | None:
    """One line after a turn that changed the document: what Claude proposed and what it did at once
    (replies, resolved comments), so nothing it did goes unseen; None when it only read."""
    proposed = comments = replies = 0
    places: list[str] = []
    resolved: list[str] = []
    for entry in entries:
        result = (entry.envelope or {}).get("result") if entry.state == "ok" else None
        if not isinstance(result, dict):
            continue
        if entry.name == "suggest_changes":
            proposed += len(result.get("applied") or [])
            comments += receipt_comments(result)
            places += [entry.places.get(b, "") for b in receipt_blocks(result)]
        elif entry.name == "add_comment":
            comments += len(result.get("applied") or [])
        elif entry.name == "reply_comment":
            replies += 1
        elif entry.name == "resolve_comment":
            verb = "resolved" if result.get("resolved", True) else "reopened"
            resolved.append(f"{verb} {_comment_words(entry, entry.args.get('commentId'))}")
    parts = []
    if proposed:
        where = join_places(places, 5)
        parts.append(f"proposed {_plural(proposed, 'change')}" + (f" in {where}" if where else ""))
    if comments:
        parts.append(f"added {_plural(comments, 'comment')}")
    if replies:
        parts.append(f"replied to {_plural(replies, 'comment')}")
    parts += resolved
    if not parts:
        return None
    text = join_places(parts, 10)
    return f"This turn Claude {text}. Undo (Ctrl+Z) takes the whole turn back."


def show_targets(entry: TranscriptEntry) -> list[tuple[str, str, object]]:
    """(operation id, plain words, target) for each operation of a write call: a target is a
    TextRange dict for show_in_document, or a block id. The words never show the id."""
    result = (entry.envelope or {}).get("result")
    if entry.name not in WRITE_TOOLS or not isinstance(result, dict):
        return []
    out: list[tuple[str, str, object]] = []
    noun = "Comment" if entry.name == "add_comment" else "Change"
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
            block = target.get("blockId") if isinstance(target, dict) else target
            place = entry.places.get(block, "")
            out.append((str(receipt.get("operationId", "")), f"{noun}{f' in {place}' if place else ''}", target))
    ops = _input_operations(entry)
    for skip in result.get("skipped") or []:
        op_id = str(skip.get("id", ""))
        op = _operation_for(op_id, ops)
        target = None
        if op is not None:
            rng = op.get("range")
            target = rng if isinstance(rng, dict) and rng.get("blockId") else op.get("blockId")
        if isinstance(target, str | dict) and target:
            block = target.get("blockId") if isinstance(target, dict) else target
            place = entry.places.get(block, "")
            out.append((op_id, f"Not proposed{f' in {place}' if place else ''}: {clip(str(skip.get('reason', '')), 80)}",
                        target))
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
            lines += [f"- {describe(entry)}", ""]
        elif entry.kind == "thinking":
            lines += [f"<details><summary>Claude's thinking</summary>\n\n{entry.text}\n\n</details>", ""]
        elif entry.kind == "notice":
            lines += [f"_{entry.text}_", ""]
        elif entry.kind == "fault":
            lines += [f"> **Problem:** {entry.text}", ""]
    return "\n".join(lines).rstrip() + "\n"


def write_transcript(path: str | Path, entries: list[TranscriptEntry], title: str = "", model: str = "") -> Path:
    path = Path(path)
    path.write_text(transcript_markdown(entries, title, model), encoding="utf-8")
    return path


