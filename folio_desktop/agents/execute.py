"""execute_tool_call: the one boundary between the model and the document (spec §1-2, §4.5).

It never raises. Each tool checks its arguments in a fixed order and answers with the result, or
with one plain sentence that names the tool and the argument and says what to do next.
"""

from __future__ import annotations

from ..docx.editing.operations import OperationIdConflictError
from ..docx.editing.skips import prose_for
from ..docx.model.textkit import text_hash, utf16_slice
from . import read_tools
from .bridges import decode_comment_id
from .check_tool import check_document
from .definitions import TOOL_NAMES
from .paging import RESULT_BUDGET, clip
from .parse import ToolInputError, operation_batch, parse_add_comment_input, parse_suggest_changes_input
from .read_tools import has as _has
from .suggest_options import coerce_options
from .tool_args import ToolError, refuse_unknown


def execute_tool_call(name, args, bridge, options=None) -> dict:
    """{"ok": True, "result": ...} or {"ok": False, "error": "<one plain sentence>"}."""
    handler = _HANDLERS.get(name) if isinstance(name, str) else None
    if handler is None:
        return {"ok": False, "error": f'Unknown tool "{name}". Valid tools: {", ".join(TOOL_NAMES)}.'}
    try:
        return {"ok": True, "result": handler(args if args is not None else {}, bridge, options)}
    except (ToolError, ToolInputError, OperationIdConflictError) as exc:
        return {"ok": False, "error": str(exc)}
    except Exception as exc:  # noqa: BLE001 - the single boundary that turns bridge failures into answers
        message = str(exc) or type(exc).__name__
        return {"ok": False, "error": message}


# -- writing ---------------------------------------------------------------------------------------------


def _summary(result: dict, normalizations: list[dict]) -> dict:
    """The agent apply summary (spec §3.9): prose skip reasons, merged normalizations."""
    out = {
        "version": 1,
        "applied": [{"id": a["id"]} for a in result.get("applied", [])],
        "queued": [{"id": q["id"]} for q in result.get("queued", [])],
        "replayed": [{"id": r["id"]} for r in result.get("replayed", [])],
        "skipped": [{"id": s["id"], "reason": prose_for(s["reason"], s.get("message"))}
                    for s in result.get("skipped", [])],
        "issues": result.get("issues", []),
        "receipts": result.get("receipts", []),
        "normalizations": list(normalizations),
    }
    for item in result.get("normalizations", []):
        op_id, code = item.get("operationId"), item.get("code")
        if code == "splitMultilineText":
            n = item.get("paragraphCount")
            out["normalizations"].append({
                "path": f"operations[id={op_id}].text",
                "message": f"`text` contained line breaks; split into {n} consecutive paragraphs (one per non-blank "
                           "line) instead of one paragraph with embedded newlines."})
        else:
            out["normalizations"].append({"path": f"operations[id={op_id}]", "message": f"input was normalized ({code})."})
    return out


def _stamp_preconditions(operations: list[dict], bridge) -> None:
    """Give every operation without its own precondition the hash of its block as it reads now."""
    snapshot = bridge.snapshot()
    for op in operations:
        if "precondition" in op:
            continue
        block_id = op["range"]["blockId"] if "range" in op else op.get("blockId")
        block = snapshot.block(block_id) if block_id else None
        if block is not None:
            op["precondition"] = {"blockTextHash": block.text_hash}


def _apply(bridge, operations: list[dict], version: str | None, normalizations: list[dict]) -> dict:
    if version is not None:
        if not _has(bridge, "get_document_version"):
            raise ToolError("This editor surface cannot verify `documentVersion`; it has no document version to "
                            "compare against.")
        if bridge.get_document_version() != version:
            from ..docx.editing.skips import issue_for

            skipped = [{"id": op["id"], "reason": "documentVersionMismatch"} for op in operations]
            issues = [issue_for("documentVersionMismatch", op["id"], i, None) for i, op in enumerate(operations)]
            return _summary({"skipped": skipped, "issues": issues}, normalizations)
    _stamp_preconditions(operations, bridge)
    batch = operation_batch(operations, bridge.document_operation_mode, version)
    return _summary(bridge.apply_document_operations(batch), normalizations)


def _suggest_changes(args, bridge, options):
    parsed = parse_suggest_changes_input(args, coerce_options(options))
    return _apply(bridge, parsed.operations, parsed.document_version, parsed.normalizations)


def _add_comment(args, bridge, options):
    if isinstance(args, dict):
        refuse_unknown("add_comment", args, ("blockId", "text", "quote", "precondition"))
    op = parse_add_comment_input(args)
    return _apply(bridge, [op], None, [])


def _comment_args(tool: str, args, bridge, need_text: bool):
    if not isinstance(args, dict):
        raise ToolError(f"{tool} expects an object with a `commentId` string" + (" and `text`." if need_text else "."))
    refuse_unknown(tool, args, ("commentId", "text") if need_text else ("commentId", "reopen"))
    cid = args.get("commentId")
    if not isinstance(cid, str) or not cid:
        raise ToolError(f"{tool} requires a non-empty string `commentId`.")
    text = args.get("text")
    if need_text:
        if not isinstance(text, str) or not text.strip():
            raise ToolError(f"{tool} requires a non-empty string `text`.")
        if len(text) > 100_000:
            raise ToolError(f"{tool}'s `text` is {len(text):,} characters, over the 100,000-character limit; "
                            "shorten it.")
    if getattr(bridge, "validates_comment_ids", False) and decode_comment_id(cid) is None:
        raise ToolError(f"{tool}'s `commentId` must be a comment id from `read_comments`.")
    return cid, text


def _reply_comment(args, bridge, options):
    cid, text = _comment_args("reply_comment", args, bridge, True)
    if not bridge.reply_to_comment(cid, text):
        raise ToolError(f'No comment with id "{cid}" was found.')
    return {"replied": True}


def _resolve_comment(args, bridge, options):
    cid, _ = _comment_args("resolve_comment", args, bridge, False)
    reopen = args.get("reopen", False)
    if not isinstance(reopen, bool):
        raise ToolError("resolve_comment's `reopen` must be a boolean when provided.")
    if _has(bridge, "may_resolve_comment"):  # the lawyer decides whether Claude may close others' threads
        refusal = bridge.may_resolve_comment(cid, not reopen)
        if refusal:
            raise ToolError(refusal)
    if not bridge.resolve_comment(cid, not reopen):
        raise ToolError(f'No comment with id "{cid}" was found.')
    return {"resolved": not reopen}


# -- live view -----------------------------------------------------------------------------------------


def _read_page(args, bridge, options):
    if not _has(bridge, "get_page_text"):
        raise ToolError("This editor surface does not support read_page (no live paginated view).")
    if isinstance(args, dict):
        refuse_unknown("read_page", args, ("page",))
    page = args.get("page") if isinstance(args, dict) else None
    if isinstance(page, float) and page.is_integer():
        page = int(page)
    if isinstance(page, bool) or not isinstance(page, int) or page < 1:
        raise ToolError("read_page requires an integer `page` >= 1.")
    total = bridge.get_page_count() if _has(bridge, "get_page_count") else None
    if isinstance(total, int) and page > total:
        raise ToolError(f"read_page's `page` ({page}) exceeds the document's page count ({total}).")
    text = bridge.get_page_text(page) or ""
    out = {"page": page, "totalPages": total} if isinstance(total, int) else {"page": page}
    return out | _clipped_text(text)


def _clipped_text(text: str) -> dict:
    """A page's or selection's text for the model: cut to the result budget, saying so when it was."""
    out: dict = {"text": clip(text, RESULT_BUDGET)}
    if len(text) > RESULT_BUDGET:
        out.update(truncated=True, textLength=len(text))
    return out


def _read_selection(args, bridge, options):
    if not _has(bridge, "get_selection_text"):
        raise ToolError("This editor surface does not support read_selection (no live selection).")
    if isinstance(args, dict):
        refuse_unknown("read_selection", args, ())
    return _clipped_text(bridge.get_selection_text() or "")


def _scroll_to_block(args, bridge, options):
    if not _has(bridge, "scroll_to_block"):
        raise ToolError("This editor surface does not support scroll_to_block (no live editor view).")
    block_id = args.get("blockId") if isinstance(args, dict) else None
    if not isinstance(block_id, str) or not block_id:
        raise ToolError("scroll_to_block requires a non-empty string `blockId`.")
    refuse_unknown("scroll_to_block", args, ("blockId",))
    return {"scrolled": bool(bridge.scroll_to_block(block_id))}


def _show_in_document(args, bridge, options):
    if not _has(bridge, "show_in_document"):
        raise ToolError("This editor surface does not support show_in_document (no live editor view).")
    if not isinstance(args, dict):
        raise ToolError("show_in_document expects exactly one of `blockId` or `range`.")
    refuse_unknown("show_in_document", args, ("blockId", "range"))
    has_block, has_range = "blockId" in args, "range" in args
    if has_block == has_range:
        raise ToolError("show_in_document requires exactly one of `blockId` or `range`.")
    if has_block:
        if not isinstance(args["blockId"], str) or not args["blockId"]:
            raise ToolError("show_in_document's `blockId` must be a non-empty string.")
        return {"shown": bool(bridge.show_in_document({"type": "block", "story": "main", "blockId": args["blockId"]}))}
    rng = args["range"]
    keys = ("type", "story", "blockId", "startOffset", "endOffset", "selectedTextHash")
    if not isinstance(rng, dict) or rng.get("type") != "textRange" or any(k not in rng for k in keys):
        raise ToolError("show_in_document's `range` must be copied from find_text.")
    return {"shown": bool(bridge.show_in_document(rng))}


def range_still_matches(snapshot, rng: dict) -> bool:
    """Whether a TextRange still selects the text it was made from (shared by live bridges)."""
    block = snapshot.block(rng.get("blockId"))
    if block is None:
        return False
    sliced = utf16_slice(block.text, rng.get("startOffset", -1), rng.get("endOffset", -1))
    return sliced is not None and text_hash(sliced) == rng.get("selectedTextHash")


_HANDLERS = {
    "read_document": read_tools.read_document, "get_document_outline": read_tools.get_document_outline,
    "read_section": read_tools.read_section, "list_stories": read_tools.list_stories,
    "read_story": read_tools.read_story, "find_text": read_tools.find_text,
    "read_comments": read_tools.read_comments, "read_changes": read_tools.read_changes, "add_comment": _add_comment,
    "suggest_changes": _suggest_changes, "reply_comment": _reply_comment, "resolve_comment": _resolve_comment,
    "read_page": _read_page, "read_selection": _read_selection, "scroll_to_block": _scroll_to_block,
    "show_in_document": _show_in_document, "check_document": check_document,
}
assert set(_HANDLERS) == set(TOOL_NAMES)
