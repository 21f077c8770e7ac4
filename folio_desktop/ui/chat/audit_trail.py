"""What the model did, for the audit log: every tool call (name, arguments, outcome) and every
proposal it made (a tracked change or comment that landed) with the reason it gave.

A proposal's reason is the `comment` of a suggest_changes operation (the model's stated reason,
attached as a comment), or the text of an add_comment call.
"""

from __future__ import annotations

PROPOSING_TOOLS = ("suggest_changes", "add_comment")
ACTING_TOOLS = ("reply_comment", "resolve_comment")  # what the model does at once, not as a tracked change
TEXT_KEYS = ("replace", "text", "find")


def tool_call_entry(name: str, args, envelope) -> dict:
    ok = bool(isinstance(envelope, dict) and envelope.get("ok"))
    entry = {"tool": name, "args": args if isinstance(args, dict) else {}, "ok": ok}
    if not ok:
        entry["error"] = str(envelope.get("error") if isinstance(envelope, dict) else envelope)
    return entry


def proposal_entries(name: str, args, envelope) -> list[dict]:
    """One entry per operation the tool applied (skipped ones proposed nothing)."""
    if name not in PROPOSING_TOOLS or not isinstance(envelope, dict) or not envelope.get("ok"):
        return []
    result = envelope.get("result") or {}
    applied = [a.get("id") for a in result.get("applied") or [] if isinstance(a, dict)]
    args = args if isinstance(args, dict) else {}
    if name == "add_comment":
        return [{"tool": name, "operationId": op_id, "type": "comment", "blockId": args.get("blockId"),
                 "quote": args.get("quote"), "reason": args.get("text")} for op_id in applied]
    operations = [op for op in args.get("operations") or [] if isinstance(op, dict)]
    by_id = {op.get("id"): op for op in operations if op.get("id")}
    out = []
    for index, op_id in enumerate(applied):
        # an operation sent without an id gets one from the engine: fall back to its position
        op = by_id.get(op_id) or (operations[index] if index < len(operations) else {})
        text = next((op[k] for k in TEXT_KEYS if isinstance(op.get(k), str)), None)
        entry = {"tool": name, "operationId": op_id, "type": op.get("type"), "blockId": op.get("blockId"),
                 "text": text, "reason": op.get("comment") or None}
        if isinstance(op.get("range"), dict):
            entry["blockId"] = entry["blockId"] or op["range"].get("blockId")
        out.append(entry)
    return out


def action_entries(name: str, args, envelope, reviewer=None) -> list[dict]:
    """A reply or a resolved (reopened) comment: done at once, so the log says whose thread it was."""
    if name not in ACTING_TOOLS or not isinstance(envelope, dict) or not envelope.get("ok"):
        return []
    args = args if isinstance(args, dict) else {}
    cid = args.get("commentId")
    entry = {"tool": name, "commentId": cid}
    if name == "resolve_comment":
        entry["type"] = "commentResolved" if (envelope.get("result") or {}).get("resolved", True) else "commentReopened"
    else:
        entry.update(type="commentReply", text=args.get("text"))
    if reviewer is not None and isinstance(cid, str) and cid.isdigit():
        comment = next((c for c in reviewer.all_comments() if c.id == int(cid)), None)
        if comment is not None:
            entry.update(commentAuthor=comment.author, commentText=comment.text, blockId=comment.block_id)
    return [entry]
