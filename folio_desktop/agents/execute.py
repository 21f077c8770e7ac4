"""execute_tool_call: the one boundary between the model and the document (spec §1-2, §4.5).

It never raises. Each tool checks its arguments in a fixed order and answers with the result, or
with one plain sentence that names the tool and the argument and says what to do next.
"""

from __future__ import annotations

from ..docx.operations import OperationIdConflictError
from ..docx.outline import decode_section_handle, outline, resolve_section
from ..docx.search import MAX_QUERY, find_in_blocks, find_in_story
from ..docx.skips import prose_for
from ..docx.textkit import text_hash, utf16_slice
from .bridges import decode_comment_id
from .definitions import TOOL_NAMES
from .parse import ToolInputError, parse_add_comment_input, parse_suggest_changes_input
from .suggest_options import coerce_options


class ToolError(Exception):
    """A tool's answer that is an error sentence for the model."""


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


def _require_object(args, message: str) -> dict:
    if not isinstance(args, dict):
        raise ToolError(message)
    return args


def _has(bridge, member: str) -> bool:
    return callable(getattr(bridge, member, None))


def _content(blocks):
    return [b for b in blocks if b.is_content]


# -- reading ---------------------------------------------------------------------------------------


def _read_document(args, bridge, options):
    return [b.read_projection() for b in _content(bridge.snapshot().blocks)]


def _page_of_block(bridge, block_id: str):
    if not _has(bridge, "get_target_page"):
        return None
    page = bridge.get_target_page({"type": "block", "story": "main", "blockId": block_id})
    return page if isinstance(page, int) else None


def _outline_entry_json(entry, bridge):
    out = entry.to_json()
    page = _page_of_block(bridge, entry.block.id)
    if page is not None:
        out["page"] = page
    return out


def _get_document_outline(args, bridge, options):
    args = _require_object(args, "get_document_outline expects an object.")
    depth = args.get("maxDepth", 3)
    if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= 9:
        raise ToolError("get_document_outline's `maxDepth` must be an integer from 1 to 9.")
    entries = outline(bridge.snapshot())
    shown = [_outline_entry_json(e, bridge) for e in entries if e.level <= depth]
    return {"sections": shown, "totalSections": len(entries), "truncated": len(shown) < len(entries)}


def _read_section(args, bridge, options):
    if not isinstance(args, dict):
        raise ToolError("read_section expects a section `handle` from get_document_outline.")
    handle = args.get("handle")
    if decode_section_handle(handle) is None:
        raise ToolError("read_section requires a valid `handle` from get_document_outline.")
    max_blocks = args.get("maxBlocks", 100)
    if isinstance(max_blocks, bool) or not isinstance(max_blocks, int) or not 1 <= max_blocks <= 200:
        raise ToolError("read_section's `maxBlocks` must be an integer from 1 to 200.")
    after = args.get("afterBlockId")
    if "afterBlockId" in args and (not isinstance(after, str) or not after):
        raise ToolError("read_section's `afterBlockId` must be a non-empty string when provided.")
    found = resolve_section(bridge.snapshot(), handle)
    if found.status == "missing":
        raise ToolError("The section no longer exists; run get_document_outline again.")
    if found.status == "stale":
        raise ToolError("The section heading changed; run get_document_outline again for a fresh handle.")
    blocks = _content(found.blocks)
    start = 0
    if after is not None:
        ids = [b.id for b in blocks]
        if after not in ids:
            raise ToolError("read_section's `afterBlockId` is not part of this section.")
        start = ids.index(after) + 1
    page = blocks[start:start + max_blocks]
    truncated = start + max_blocks < len(blocks)
    result = {"handle": found.entry.handle(), "heading": _outline_entry_json(found.entry, bridge),
              "blocks": [b.read_projection() for b in page], "totalBlocks": len(blocks), "truncated": truncated}
    if truncated and page:
        result["nextAfterBlockId"] = page[-1].id
    return result


def _list_stories(args, bridge, options):
    if not _has(bridge, "list_stories"):
        raise ToolError("This editor surface does not support story discovery.")
    return bridge.list_stories()


def _valid_story_handle(handle) -> bool:
    if not isinstance(handle, dict):
        return False
    kind = handle.get("type")
    if kind == "main":
        return True
    if kind in ("header", "footer"):
        return isinstance(handle.get("relationshipId"), str) and bool(handle["relationshipId"])
    if kind in ("footnote", "endnote"):
        note = handle.get("noteId")
        return isinstance(note, int) and not isinstance(note, bool)
    return False


def _read_story(args, bridge, options):
    if not _has(bridge, "read_story"):
        raise ToolError("This editor surface does not support story reads.")
    handle = args.get("handle") if isinstance(args, dict) else None
    if not _valid_story_handle(handle):
        raise ToolError("read_story requires a valid typed `handle` from list_stories.")
    story = bridge.read_story(handle)
    if story is None:
        raise ToolError("The requested story was not found; run list_stories again.")
    return story


def _find_text(args, bridge, options):
    if not isinstance(args, dict):
        raise ToolError("find_text expects an object with a non-empty `query` string.")
    query = args.get("query")
    if not isinstance(query, str) or not query:
        raise ToolError("find_text requires a non-empty string `query`.")
    if len(query) > MAX_QUERY:
        raise ToolError(f"find_text's `query` is {len(query):,} characters, over the 1,000-character limit; shorten it.")
    for key in ("matchCase", "wholeWord"):
        if key in args and not isinstance(args[key], bool):
            raise ToolError(f"find_text's `{key}` must be a boolean when provided.")
    match_case, whole_word = args.get("matchCase", False), args.get("wholeWord", False)
    scope = args.get("scope", {"type": "document"})
    if not isinstance(scope, dict):
        raise ToolError("find_text's `scope` must be a document, section, page, or story scope.")
    kind = scope.get("type")
    if kind not in ("document", "section", "page", "story"):
        raise ToolError("find_text's `scope.type` must be document, section, page, or story.")
    snapshot = bridge.snapshot()
    if kind == "document":
        return find_in_blocks(snapshot.blocks, query, match_case, whole_word).to_json()
    if kind == "section":
        handle = scope.get("handle")
        if decode_section_handle(handle) is None:
            raise ToolError("find_text's section scope requires a handle from get_document_outline.")
        found = resolve_section(snapshot, handle)
        if found.status != "found":
            raise ToolError("The scoped section is stale or missing; run get_document_outline again.")
        return find_in_blocks(found.blocks, query, match_case, whole_word).to_json()
    if kind == "page":
        if not _has(bridge, "get_target_page"):
            raise ToolError("This editor surface cannot search by page without live pagination.")
        page = scope.get("page")
        if isinstance(page, bool) or not isinstance(page, int) or page < 1:
            raise ToolError("find_text's page scope requires an integer `page` >= 1.")
        if _has(bridge, "get_page_count"):
            count = bridge.get_page_count()
            if isinstance(count, int) and page > count:
                raise ToolError(f"find_text's page ({page}) exceeds the document's page count ({count}).")
        return find_in_blocks(snapshot.blocks, query, match_case, whole_word, page_of=bridge.get_target_page,
                              page=page).to_json()
    handle = scope.get("handle")
    if isinstance(handle, dict) and handle.get("type") == "main":
        return find_in_blocks(snapshot.blocks, query, match_case, whole_word).to_json()
    if not _has(bridge, "read_story"):
        raise ToolError("This editor surface does not support story search.")
    if not _valid_story_handle(handle):
        raise ToolError("find_text's story scope requires a handle from list_stories.")
    story = bridge.read_story(handle)
    if story is None:
        raise ToolError("The scoped story was not found; run list_stories again.")
    return find_in_story(story["handle"], story["text"], query, match_case, whole_word).to_json()


def _read_comments(args, bridge, options):
    args = _require_object(args, "read_comments expects an object.")
    which = args.get("filter", "all")
    if which not in ("all", "open", "resolved"):
        raise ToolError('read_comments\' `filter` must be one of "all", "open", "resolved" when provided.')
    threads = [c for c in bridge.get_comments() if c.get("parentId") is None]
    if which == "open":
        threads = [c for c in threads if not c["resolved"]]
    elif which == "resolved":
        threads = [c for c in threads if c["resolved"]]
    return threads


def _read_changes(args, bridge, options):
    return bridge.get_changes()


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
            from ..docx.skips import issue_for

            skipped = [{"id": op["id"], "reason": "documentVersionMismatch"} for op in operations]
            issues = [issue_for("documentVersionMismatch", op["id"], i, None) for i, op in enumerate(operations)]
            return _summary({"skipped": skipped, "issues": issues}, normalizations)
    _stamp_preconditions(operations, bridge)
    batch: dict = {"version": 1, "operations": operations}
    if bridge.document_operation_mode:
        batch["mode"] = bridge.document_operation_mode
    if version is not None:
        batch["precondition"] = {"documentVersion": version}
    return _summary(bridge.apply_document_operations(batch), normalizations)


def _suggest_changes(args, bridge, options):
    parsed = parse_suggest_changes_input(args, coerce_options(options))
    return _apply(bridge, parsed.operations, parsed.document_version, parsed.normalizations)


def _add_comment(args, bridge, options):
    op = parse_add_comment_input(args)
    return _apply(bridge, [op], None, [])


def _comment_args(tool: str, args, bridge, need_text: bool):
    if not isinstance(args, dict):
        raise ToolError(f"{tool} expects an object with a `commentId` string" + (" and `text`." if need_text else "."))
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
    if not bridge.resolve_comment(cid, not reopen):
        raise ToolError(f'No comment with id "{cid}" was found.')
    return {"resolved": not reopen}


# -- live view -----------------------------------------------------------------------------------------


def _read_page(args, bridge, options):
    if not _has(bridge, "get_page_text"):
        raise ToolError("This editor surface does not support read_page (no live paginated view).")
    page = args.get("page") if isinstance(args, dict) else None
    if isinstance(page, float) and page.is_integer():
        page = int(page)
    if isinstance(page, bool) or not isinstance(page, int) or page < 1:
        raise ToolError("read_page requires an integer `page` >= 1.")
    total = bridge.get_page_count() if _has(bridge, "get_page_count") else None
    if isinstance(total, int) and page > total:
        raise ToolError(f"read_page's `page` ({page}) exceeds the document's page count ({total}).")
    text = bridge.get_page_text(page)
    out = {"page": page, "text": text or ""}
    if isinstance(total, int):
        out = {"page": page, "totalPages": total, "text": text or ""}
    return out


def _read_selection(args, bridge, options):
    if not _has(bridge, "get_selection_text"):
        raise ToolError("This editor surface does not support read_selection (no live selection).")
    return {"text": bridge.get_selection_text() or ""}


def _scroll_to_block(args, bridge, options):
    if not _has(bridge, "scroll_to_block"):
        raise ToolError("This editor surface does not support scroll_to_block (no live editor view).")
    block_id = args.get("blockId") if isinstance(args, dict) else None
    if not isinstance(block_id, str) or not block_id:
        raise ToolError("scroll_to_block requires a non-empty string `blockId`.")
    return {"scrolled": bool(bridge.scroll_to_block(block_id))}


def _show_in_document(args, bridge, options):
    if not _has(bridge, "show_in_document"):
        raise ToolError("This editor surface does not support show_in_document (no live editor view).")
    if not isinstance(args, dict):
        raise ToolError("show_in_document expects exactly one of `blockId` or `range`.")
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
    "read_document": _read_document, "get_document_outline": _get_document_outline, "read_section": _read_section,
    "list_stories": _list_stories, "read_story": _read_story, "find_text": _find_text,
    "read_comments": _read_comments, "read_changes": _read_changes, "add_comment": _add_comment,
    "suggest_changes": _suggest_changes, "reply_comment": _reply_comment, "resolve_comment": _resolve_comment,
    "read_page": _read_page, "read_selection": _read_selection, "scroll_to_block": _scroll_to_block,
    "show_in_document": _show_in_document,
}
assert set(_HANDLERS) == set(TOOL_NAMES)
