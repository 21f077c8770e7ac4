"""The read tools (spec §2.1-2.8 as issue 12 has them): bounded, pageable, annotated.

Every result stays within the paging budget (agents/paging.py) and says so: `truncated`, the totals,
and a cursor (`nextAfterBlockId` for blocks, `nextOffset` for lists) that continues exactly where the
page stopped, so paging reaches every block. Blocks carry their clause numbers and what is pending
in them (agents/projection.py). Unknown arguments are refused with the valid ones named.
"""

from __future__ import annotations

from ..docx.model.textkit import normalize
from ..docx.reading.outline import decode_section_handle, outline, resolve_section
from ..docx.reading.search import MAX_QUERY, find_in_blocks, find_in_story
from ..docx.reading.views import block_line
from .paging import RESULT_BUDGET, clip, json_size, take_page
from .projection import VIEWS, BlockReader
from .tool_args import ToolError, choice_arg, int_arg, refuse_unknown, require_object, str_arg

DEFAULT_MAX_BLOCKS = 100
MAX_BLOCKS = 200
PREVIEW_CHARS = 120  # list_stories: how much of each story it shows
QUOTE_CHARS = 300  # read_comments: a comment's anchored text beyond this is cut
CHANGE_CHARS = 300  # read_changes: a change's text beyond this is cut
COMMENT_CHARS = 2_000  # read_comments: a comment or reply body beyond this is cut


def has(bridge, member: str) -> bool:
    return callable(getattr(bridge, member, None))


def content(blocks):
    return [b for b in blocks if b.is_content]


def _start_after(blocks, after: str | None, missing: str) -> int:
    if after is None:
        return 0
    for i, block in enumerate(blocks):
        if block.id == after:
            return i + 1
    raise ToolError(missing)


def page_of_blocks(tool: str, blocks, args: dict, reader: BlockReader, missing: str) -> dict:
    """{blocks, totalBlocks, truncated, nextAfterBlockId?}: the page after `afterBlockId`."""
    max_blocks = int_arg(tool, args, "maxBlocks", DEFAULT_MAX_BLOCKS, 1, MAX_BLOCKS)
    after = str_arg(tool, args, "afterBlockId")
    start = _start_after(blocks, after, missing)
    page, _cut = take_page(blocks[start:start + max_blocks], reader.render, max_blocks)
    truncated = start + len(page) < len(blocks)
    result = {"blocks": page, "totalBlocks": len(blocks), "truncated": truncated}
    if truncated and page:
        result["nextAfterBlockId"] = page[-1]["blockId"]
    return result


def _reader(tool: str, args: dict, bridge, snapshot) -> BlockReader:
    return BlockReader(bridge, snapshot, choice_arg(tool, args, "view", VIEWS, "accepted"))


def shown(blocks, reader: BlockReader):
    """The blocks a read lists: content blocks, and in the redline view also paragraphs whose words
    are all pending deletion (empty as if accepted, but the lawyer sees them struck through)."""
    if reader.view != "redline":
        return content(blocks)
    marked = reader.redline()
    return [b for b in blocks if b.is_content or (marked.get(b.id) or "").strip()]


# -- read_document, get_document_outline, read_section ------------------------------------------------------


def read_document(args, bridge, options):
    args = require_object("read_document", args)
    refuse_unknown("read_document", args, ("afterBlockId", "maxBlocks", "view"))
    snapshot = bridge.snapshot()
    reader = _reader("read_document", args, bridge, snapshot)
    return page_of_blocks("read_document", shown(snapshot.blocks, reader), args, reader,
                          "read_document's `afterBlockId` is not a block of the document (it may have been deleted); "
                          "read again without it, or find the place with find_text.")


def page_of_block(bridge, block_id: str):
    if not has(bridge, "get_target_page"):
        return None
    page = bridge.get_target_page({"type": "block", "story": "main", "blockId": block_id})
    return page if isinstance(page, int) else None


def outline_entry_json(entry, bridge, with_page: bool = True) -> dict:
    """An outline entry as the model sees it: the handle (which holds the heading's block id and
    level, so they are not repeated; its constant type and story are left out), the number to cite,
    and the heading's title (a clause styled as a heading shows its first words). Parents follow from
    the order and the levels. A listing of a hundred sections stays about 5k tokens this way."""
    handle = entry.handle()
    out = {"handle": {k: handle[k] for k in ("headingBlockId", "headingTextHash", "headingLevel")}}
    if entry.block.display_label:
        out["displayLabel"] = entry.block.display_label
    out["text"] = entry.title
    if with_page:
        page = page_of_block(bridge, entry.block.id)
        if page is not None:
            out["page"] = page
    return out


def get_document_outline(args, bridge, options):
    tool = "get_document_outline"
    args = require_object(tool, args, "get_document_outline expects an object.")
    refuse_unknown(tool, args, ("maxDepth", "afterBlockId"))
    depth = int_arg(tool, args, "maxDepth", 3, 1, 9)
    after = str_arg(tool, args, "afterBlockId")
    entries = outline(bridge.snapshot())
    note = None
    if "maxDepth" not in args and after is None:
        # the default listing: the deepest level up to 3 whose whole outline fits one page
        sizes: dict[int, int] = {}
        for entry in entries:
            if entry.level <= depth:
                sizes[entry.level] = sizes.get(entry.level, 0) + json_size(outline_entry_json(entry, bridge, False))
        chosen = depth
        while chosen > 1 and sum(v for lvl, v in sizes.items() if lvl <= chosen) > RESULT_BUDGET * 0.9:
            chosen -= 1
        if chosen < depth:
            deeper = sum(1 for e in entries if chosen < e.level <= depth)
            note = (f"Headings below level {chosen} ({deeper:,} of them) are left out to keep this result small; "
                    f"read_section shows a section with everything under it, or pass maxDepth to list them page by "
                    "page.")
            depth = chosen
    listed = [e for e in entries if e.level <= depth]
    start = 0
    if after is not None:
        ids = [e.block.id for e in listed]
        if after not in ids:
            raise ToolError(f"get_document_outline's `afterBlockId` is not a heading of this outline at maxDepth "
                            f"{depth}; run get_document_outline again.")
        start = ids.index(after) + 1
    page, cut = take_page(listed[start:], lambda e: outline_entry_json(e, bridge), len(listed))
    result = {"sections": page, "totalSections": len(entries), "maxDepth": depth,
              "truncated": len(page) < len(entries)}
    if start + len(page) < len(listed) and page:
        result["nextAfterBlockId"] = page[-1]["handle"]["headingBlockId"]
    if note:
        result["note"] = note
    return result


def read_section(args, bridge, options):
    tool = "read_section"
    if not isinstance(args, dict):
        raise ToolError("read_section expects a section `handle` from get_document_outline.")
    refuse_unknown(tool, args, ("handle", "maxBlocks", "afterBlockId", "view"))
    handle = args.get("handle")
    if decode_section_handle(handle) is None:
        raise ToolError("read_section requires a valid `handle` from get_document_outline.")
    int_arg(tool, args, "maxBlocks", DEFAULT_MAX_BLOCKS, 1, MAX_BLOCKS)
    str_arg(tool, args, "afterBlockId")
    snapshot = bridge.snapshot()
    found = resolve_section(snapshot, handle)
    if found.status == "missing":
        raise ToolError("The section no longer exists; run get_document_outline again.")
    if found.status == "stale":
        raise ToolError("The section heading changed; run get_document_outline again for a fresh handle.")
    reader = _reader(tool, args, bridge, snapshot)
    page = page_of_blocks(tool, shown(found.blocks, reader), args, reader,
                          "read_section's `afterBlockId` is not part of this section.")
    return {"handle": found.entry.handle(), "heading": outline_entry_json(found.entry, bridge), **page}


# -- stories ----------------------------------------------------------------------------------------------------


def valid_story_handle(handle) -> bool:
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


def _story_handles(bridge) -> list[dict]:
    if has(bridge, "list_story_handles"):
        return bridge.list_story_handles()
    return [s["handle"] for s in bridge.list_stories()]


def _story_summary(bridge, handle: dict) -> dict:
    out: dict = {"handle": handle}
    if has(bridge, "snapshot_story"):
        snap = bridge.snapshot_story(handle)
        blocks = content(snap.blocks) if snap is not None else []
        text = normalize(" ".join(b.text for b in blocks[:8]))
        out.update(blocks=len(blocks), characters=sum(len(b.text) for b in blocks))
    else:
        story = bridge.read_story(handle) or {}
        text = normalize(story.get("text", ""))
        out["characters"] = len(text)
    out["preview"] = clip(text, PREVIEW_CHARS)
    return out


def list_stories(args, bridge, options):
    if not has(bridge, "list_stories"):
        raise ToolError("This editor surface does not support story discovery.")
    args = require_object("list_stories", args)
    refuse_unknown("list_stories", args, ("offset",))
    offset = int_arg("list_stories", args, "offset", 0, 0)
    handles = _story_handles(bridge)
    page, _cut = take_page(handles[offset:], lambda h: _story_summary(bridge, h), len(handles))
    result = {"stories": page, "totalStories": len(handles), "truncated": offset + len(page) < len(handles)}
    if result["truncated"]:
        result["nextOffset"] = offset + len(page)
    return result


def read_story(args, bridge, options):
    tool = "read_story"
    if not has(bridge, "read_story"):
        raise ToolError("This editor surface does not support story reads.")
    if not isinstance(args, dict) or not valid_story_handle(args.get("handle")):
        raise ToolError("read_story requires a valid typed `handle` from list_stories.")
    refuse_unknown(tool, args, ("handle", "afterBlockId", "maxBlocks"))
    handle = args["handle"]
    max_blocks = int_arg(tool, args, "maxBlocks", DEFAULT_MAX_BLOCKS, 1, MAX_BLOCKS)
    after = str_arg(tool, args, "afterBlockId")
    if not has(bridge, "snapshot_story"):  # a bridge that only has text: one page, cut at the budget
        story = bridge.read_story(handle)
        if story is None:
            raise ToolError("The requested story was not found; run list_stories again.")
        text = story.get("text", "")
        cut = len(text) > RESULT_BUDGET
        return {"handle": story["handle"], "text": clip(text, RESULT_BUDGET) if cut else text, "truncated": cut}
    snap = bridge.snapshot_story(handle)
    if snap is None:
        raise ToolError("The requested story was not found; run list_stories again.")
    blocks = content(snap.blocks)
    main = handle.get("type") == "main"
    start = _start_after(blocks, after, "read_story's `afterBlockId` is not a block of this story; read it again "
                                        "without it.")
    page, _cut = take_page(blocks[start:start + max_blocks],
                           lambda b: {"blockId": b.id, "text": block_line(b) if main else b.text}, max_blocks)
    lines = [p["text"] for p in page]
    result = {"handle": dict(handle), "text": "\n".join(lines) if main else normalize(" ".join(lines)),
              "totalBlocks": len(blocks), "truncated": start + len(page) < len(blocks)}
    if result["truncated"] and page:
        result["nextAfterBlockId"] = page[-1]["blockId"]
    return result


# -- find_text --------------------------------------------------------------------------------------------------


def _search(args, bridge, query: str, match_case: bool, whole_word: bool, skip: int):
    scope = args.get("scope", {"type": "document"})
    if not isinstance(scope, dict):
        raise ToolError("find_text's `scope` must be a document, section, page, or story scope.")
    kind = scope.get("type")
    if kind not in ("document", "section", "page", "story"):
        raise ToolError("find_text's `scope.type` must be document, section, page, or story.")
    snapshot = bridge.snapshot()
    if kind == "document":
        return find_in_blocks(snapshot.blocks, query, match_case, whole_word, skip=skip)
    if kind == "section":
        handle = scope.get("handle")
        if decode_section_handle(handle) is None:
            raise ToolError("find_text's section scope requires a handle from get_document_outline.")
        found = resolve_section(snapshot, handle)
        if found.status != "found":
            raise ToolError("The scoped section is stale or missing; run get_document_outline again.")
        return find_in_blocks(found.blocks, query, match_case, whole_word, skip=skip)
    if kind == "page":
        if not has(bridge, "get_target_page"):
            raise ToolError("This editor surface cannot search by page without live pagination.")
        page = scope.get("page")
        if isinstance(page, bool) or not isinstance(page, int) or page < 1:
            raise ToolError("find_text's page scope requires an integer `page` >= 1.")
        if has(bridge, "get_page_count"):
            count = bridge.get_page_count()
            if isinstance(count, int) and page > count:
                raise ToolError(f"find_text's page ({page}) exceeds the document's page count ({count}).")
        return find_in_blocks(snapshot.blocks, query, match_case, whole_word, page_of=bridge.get_target_page,
                              page=page, skip=skip)
    handle = scope.get("handle")
    if isinstance(handle, dict) and handle.get("type") == "main":
        return find_in_blocks(snapshot.blocks, query, match_case, whole_word, skip=skip)
    if not has(bridge, "read_story"):
        raise ToolError("This editor surface does not support story search.")
    if not valid_story_handle(handle):
        raise ToolError("find_text's story scope requires a handle from list_stories.")
    story = bridge.read_story(handle)
    if story is None:
        raise ToolError("The scoped story was not found; run list_stories again.")
    return find_in_story(story["handle"], story["text"], query, match_case, whole_word, skip=skip)


def find_text(args, bridge, options):
    tool = "find_text"
    if not isinstance(args, dict):
        raise ToolError("find_text expects an object with a non-empty `query` string.")
    query = args.get("query")
    if not isinstance(query, str) or not query:
        raise ToolError("find_text requires a non-empty string `query`.")
    if len(query) > MAX_QUERY:
        raise ToolError(f"find_text's `query` is {len(query):,} characters, over the 1,000-character limit; shorten it.")
    refuse_unknown(tool, args, ("query", "matchCase", "wholeWord", "scope", "offset"))
    for key in ("matchCase", "wholeWord"):
        if key in args and not isinstance(args[key], bool):
            raise ToolError(f"find_text's `{key}` must be a boolean when provided.")
    skip = int_arg(tool, args, "offset", 0, 0)
    found = _search(args, bridge, query, args.get("matchCase", False), args.get("wholeWord", False), skip)
    page, _cut = take_page(found.matches, dict, len(found.matches))
    result = {"matches": page, "truncated": skip + len(page) < found.total, "totalMatches": found.total}
    if result["truncated"]:
        result["nextOffset"] = skip + len(page)
    return result


# -- comments and changes ------------------------------------------------------------------------------------


def _cited(item: dict, snapshot, key: str, limit: int, length_key: str) -> dict:
    """A comment thread or change as listed: its block's clause number added, `key` cut at `limit`
    characters with the whole length said in `length_key`."""
    out = dict(item)
    block = snapshot.block(item.get("blockId")) if item.get("blockId") else None
    if block is not None and block.kind != "diagnostic" and block.display_label:
        out["displayLabel"] = block.display_label
    value = out.get(key) or ""
    if len(value) > limit:
        out[key] = clip(value, limit)
        out[length_key] = len(value)
    return out


def _thread_json(thread: dict, snapshot) -> dict:
    out = _cited(thread, snapshot, "quote", QUOTE_CHARS, "quoteLength")
    out["text"] = clip(out.get("text") or "", COMMENT_CHARS)
    out["replies"] = [dict(r, text=clip(r.get("text") or "", COMMENT_CHARS)) for r in out.get("replies") or ()]
    return out


def _listing(tool: str, key: str, items: list, render, offset: int) -> dict:
    page, _cut = take_page(items[offset:], render, len(items))
    total_key = "total" + key[0].upper() + key[1:]
    result = {key: page, total_key: len(items), "truncated": offset + len(page) < len(items)}
    if result["truncated"]:
        result["nextOffset"] = offset + len(page)
    return result


def read_comments(args, bridge, options):
    tool = "read_comments"
    args = require_object(tool, args, "read_comments expects an object.")
    refuse_unknown(tool, args, ("filter", "offset"))
    which = args.get("filter", "all")
    if which not in ("all", "open", "resolved"):
        raise ToolError('read_comments\' `filter` must be one of "all", "open", "resolved" when provided.')
    offset = int_arg(tool, args, "offset", 0, 0)
    threads = [c for c in bridge.get_comments() if c.get("parentId") is None]
    if which == "open":
        threads = [c for c in threads if not c["resolved"]]
    elif which == "resolved":
        threads = [c for c in threads if c["resolved"]]
    snapshot = bridge.snapshot()
    return _listing(tool, "threads", threads, lambda t: _thread_json(t, snapshot), offset)


def _move_end(halves: list[dict]) -> dict:
    """One end of a move: its first block with moved text and the text, a line per block."""
    texts = [h for h in halves if h.get("type") in ("insertion", "deletion")] or halves
    by_block: dict = {}
    for half in texts:
        by_block[half.get("blockId")] = by_block.get(half.get("blockId"), "") + (half.get("text") or "")
    with_text = [b for b, t in by_block.items() if t.strip()] or list(by_block)
    return {"blockId": with_text[0] if with_text else None,
            "text": "\n".join(t for t in by_block.values() if t.strip())}


def fold_moves(changes: list[dict]) -> list[dict]:
    """The halves of each move (census entries carrying the same `move` key) as one change of type
    `moved`, where its first half stood: its id is the first id of the half that left (accepting or
    rejecting it resolves the whole move), `from` and `to` say where the text left and arrived. A half
    without a partner stays an insertion or deletion marked `moved`."""
    groups: dict[str, list[dict]] = {}
    for change in changes:
        move = change.get("move")
        if isinstance(move, dict) and move.get("key") is not None:
            groups.setdefault(move["key"], []).append(change)
    out = []
    for change in changes:
        move = change.get("move")
        if not isinstance(move, dict) or move.get("key") is None:
            out.append(change)
            continue
        halves = groups.pop(move["key"], None)
        if halves is None:
            continue  # folded into the move's entry already
        away = [h for h in halves if h["move"].get("side") == "from"]
        here = [h for h in halves if h["move"].get("side") == "to"]
        source, target = _move_end(away), _move_end(here)
        out.append({"id": (away or here)[0]["id"], "type": "moved", "author": halves[0].get("author", ""),
                    "text": source["text"] or target["text"], "blockId": source["blockId"] or target["blockId"],
                    "from": source, "to": target})
    return out


def _change_json(change: dict, snapshot) -> dict:
    out = _cited(change, snapshot, "text", CHANGE_CHARS, "textLength")
    for end in ("from", "to"):
        if end in out:
            out[end] = dict(out[end], text=clip(out[end]["text"], CHANGE_CHARS))
    return out


def read_changes(args, bridge, options):
    tool = "read_changes"
    args = require_object(tool, args)
    refuse_unknown(tool, args, ("offset",))
    offset = int_arg(tool, args, "offset", 0, 0)
    snapshot = bridge.snapshot()
    return _listing(tool, "changes", fold_moves(bridge.get_changes()), lambda c: _change_json(c, snapshot), offset)
