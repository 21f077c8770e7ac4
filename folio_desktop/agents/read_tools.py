"""The read tools (spec §2.1-2.8 as issue 12 has them): bounded, pageable, annotated.

Every result stays within the paging budget (agents/paging.py) and says so: `truncated`, the totals,
and a cursor (`nextAfterBlockId` for blocks, `nextOffset` for lists) that continues exactly where the
page stopped, so paging reaches every block. Blocks carry their clause numbers and what is pending
in them (agents/projection.py). Unknown arguments are refused with the valid ones named.
"""

from __future__ import annotations

from ..docx.model.textkit import normalize
from ..docx.reading.outline import SectionResolution, decode_section_handle, outline, section_blocks
from ..docx.reading.search import MAX_MATCHES, MAX_QUERY, find_in_blocks, find_in_story
from ..docx.reading.views import block_line
from .bridges import story_key
from .paging import PAGE_BUDGET, RESULT_BUDGET, clip, json_size, take_page
from .projection import VIEWS, BlockReader
from .read_views import Listing, changes, comment_threads, kept, matches
from .tool_args import ToolError, choice_arg, int_arg, refuse_unknown, require_object, str_arg

DEFAULT_MATCHES = 20  # find_text: a page of matches a model reads closely; maxMatches asks for up to 200
DEFAULT_MAX_BLOCKS = 100
MAX_BLOCKS = 200
PREVIEW_CHARS = 120  # list_stories: how much of each story it shows
QUOTE_CHARS = 300  # read_comments: a comment's anchored text beyond this is cut
CHANGE_CHARS = 300  # read_changes: a change's text beyond this is cut
COMMENT_CHARS = 2_000  # read_comments: a comment or reply body beyond this is cut
PAGE_FIELD_CHARS = len(',"page":1000')  # what a live view's page number adds to an outline entry


def has(bridge, member: str) -> bool:
    return callable(getattr(bridge, member, None))


def content(blocks):
    return [b for b in blocks if b.is_content]


def _start_after(listing: Listing, after: str | None, missing: str) -> int:
    if after is None:
        return 0
    i = listing.position(after)
    if i is None:
        raise ToolError(missing)
    return i + 1


def page_of_blocks(tool: str, listing: Listing, args: dict, reader: BlockReader, missing: str) -> dict:
    """{blocks, totalBlocks, truncated, nextAfterBlockId?}: the page after `afterBlockId`."""
    max_blocks = int_arg(tool, args, "maxBlocks", DEFAULT_MAX_BLOCKS, 1, MAX_BLOCKS)
    after = str_arg(tool, args, "afterBlockId")
    start = _start_after(listing, after, missing)
    page, _cut = take_page(listing.items, reader.render, max_blocks, start=start)
    truncated = start + len(page) < len(listing)
    result = {"blocks": page, "totalBlocks": len(listing), "truncated": truncated}
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


def shown_listing(key, blocks, reader: BlockReader) -> Listing:
    """shown(blocks()) with each block's position, kept per version under `key` (the scope) and view."""
    return kept(reader.bridge, ("shown", key, reader.view), lambda: Listing(shown(blocks(), reader)))


def outline_listing(bridge) -> Listing:
    """The document's outline, each entry found by its heading's block id."""
    return kept(bridge, "outline", lambda: Listing(outline(bridge.snapshot()), lambda e: e.block.id))


def find_section(bridge, handle) -> SectionResolution:
    """reading.outline.resolve_section over the kept outline: a section found again, never a neighbour."""
    decoded = decode_section_handle(handle)
    if decoded is None:
        return SectionResolution("missing")
    entries = outline_listing(bridge)
    i = entries.position(decoded["headingBlockId"])
    if i is None:
        return SectionResolution("missing")
    entry = entries.items[i]
    if entry.block.text_hash != decoded["headingTextHash"] or entry.level != decoded["headingLevel"]:
        return SectionResolution("stale", entry)
    blocks = kept(bridge, ("section", entry.block.id), lambda: section_blocks(bridge.snapshot(), entry))
    return SectionResolution("found", entry, blocks)


# -- read_document, get_document_outline, read_section ------------------------------------------------------


def read_document(args, bridge, options):
    args = require_object("read_document", args)
    refuse_unknown("read_document", args, ("afterBlockId", "maxBlocks", "view"))
    snapshot = bridge.snapshot()
    reader = _reader("read_document", args, bridge, snapshot)
    return page_of_blocks("read_document", shown_listing("document", lambda: snapshot.blocks, reader), args, reader,
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


def _default_depth(entries, depth: int) -> tuple[int, str | None]:
    """The default listing's depth: the deepest level up to `depth` whose whole outline fits one page,
    with the note that says what was left out. Each entry is counted with room for the `page` a live view
    adds, so the live and headless listings are the same."""
    sizes: dict[int, int] = {}
    for entry in entries:
        if entry.level <= depth:
            size = json_size(outline_entry_json(entry, None, False)) + PAGE_FIELD_CHARS
            sizes[entry.level] = sizes.get(entry.level, 0) + size
    chosen = depth
    while chosen > 1 and sum(v for lvl, v in sizes.items() if lvl <= chosen) > PAGE_BUDGET * 0.9:
        chosen -= 1
    if chosen == depth:
        return depth, None
    deeper = sum(1 for e in entries if chosen < e.level <= depth)
    return chosen, (f"Headings below level {chosen} ({deeper:,} of them) are left out to keep this result small; "
                    f"read_section shows a section with everything under it, or pass maxDepth to list them page by "
                    "page.")


def get_document_outline(args, bridge, options):
    tool = "get_document_outline"
    args = require_object(tool, args, "get_document_outline expects an object.")
    refuse_unknown(tool, args, ("maxDepth", "afterBlockId"))
    depth = int_arg(tool, args, "maxDepth", 3, 1, 9)
    after = str_arg(tool, args, "afterBlockId")
    entries = outline_listing(bridge).items
    note = None
    if "maxDepth" not in args and after is None:
        depth, note = kept(bridge, ("outlineDepth", depth), lambda: _default_depth(entries, depth))
    listed = kept(bridge, ("outlineListed", depth),
                  lambda: Listing([e for e in entries if e.level <= depth], lambda e: e.block.id))
    start = 0
    if after is not None:
        i = listed.position(after)
        if i is None:
            raise ToolError(f"get_document_outline's `afterBlockId` is not a heading of this outline at maxDepth "
                            f"{depth}; run get_document_outline again.")
        start = i + 1
    page, cut = take_page(listed.items, lambda e: outline_entry_json(e, bridge), len(listed), start=start)
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
    found = find_section(bridge, handle)
    if found.status == "missing":
        raise ToolError("The section no longer exists; run get_document_outline again.")
    if found.status == "stale":
        raise ToolError("The section heading changed; run get_document_outline again for a fresh handle.")
    reader = _reader(tool, args, bridge, snapshot)
    page = page_of_blocks(tool, shown_listing(("section", found.entry.block.id), lambda: found.blocks, reader), args,
                          reader, "read_section's `afterBlockId` is not part of this section.")
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


def _kept_summary(bridge, handle: dict) -> dict:
    """A story's summary, kept per version (a copy: the summary itself stays as it was made)."""
    summary = kept(bridge, ("storySummary", story_key(handle)), lambda: _story_summary(bridge, dict(handle)))
    return dict(summary, handle=dict(summary["handle"]))


def list_stories(args, bridge, options):
    if not has(bridge, "list_stories"):
        raise ToolError("This editor surface does not support story discovery.")
    args = require_object("list_stories", args)
    refuse_unknown("list_stories", args, ("offset",))
    offset = int_arg("list_stories", args, "offset", 0, 0)
    handles = kept(bridge, "storyHandles", lambda: _story_handles(bridge))
    page, _cut = take_page(handles, lambda h: _kept_summary(bridge, h), len(handles), start=offset)
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
    blocks = kept(bridge, ("story", story_key(handle)), lambda: Listing(content(snap.blocks)))
    main = handle.get("type") == "main"
    start = _start_after(blocks, after, "read_story's `afterBlockId` is not a block of this story; read it again "
                                        "without it.")
    page, _cut = take_page(blocks.items, lambda b: {"blockId": b.id, "text": block_line(b) if main else b.text},
                           max_blocks, start=start)
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

    def in_document():  # where the query matches in the main story, kept while the model pages through them
        return matches(bridge, "document", lambda: snapshot.blocks, query, match_case, whole_word)

    if kind == "document":
        return in_document().page(skip)
    if kind == "section":
        handle = scope.get("handle")
        if decode_section_handle(handle) is None:
            raise ToolError("find_text's section scope requires a handle from get_document_outline.")
        found = find_section(bridge, handle)
        if found.status != "found":
            raise ToolError("The scoped section is stale or missing; run get_document_outline again.")
        return matches(bridge, ("section", found.entry.block.id), lambda: found.blocks, query, match_case,
                       whole_word).page(skip)
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
        # only the blocks that hold a match can hold one on the page: their pages are asked, not every block's
        return find_in_blocks(in_document().blocks, query, match_case, whole_word, page_of=bridge.get_target_page,
                              page=page, skip=skip)
    handle = scope.get("handle")
    if isinstance(handle, dict) and handle.get("type") == "main":
        return in_document().page(skip)
    if not has(bridge, "read_story"):
        raise ToolError("This editor surface does not support story search.")
    if not valid_story_handle(handle):
        raise ToolError("find_text's story scope requires a handle from list_stories.")
    story = bridge.read_story(handle)
    if story is None:
        raise ToolError("The scoped story was not found; run list_stories again.")
    return find_in_story(story["handle"], story["text"], query, match_case, whole_word, skip=skip)


def group_by_block(matches: list[dict]) -> list[dict]:
    """Main-story matches as the model reads them: one entry per block (its id, clause number and hash,
    said once) holding its matches in order, each the range to edit and the context around it. What every
    match of the main story shares (type and story "main") and an occurrenceInBlock of 0 are left out."""
    blocks: list[dict] = []
    for match in matches:
        if not blocks or blocks[-1]["blockId"] != match["blockId"]:
            blocks.append({k: match[k] for k in ("blockId", "displayLabel", "blockTextHash", "opaque", "note")
                           if k in match})
            blocks[-1]["matches"] = []
        hit = {k: match[k] for k in ("context", "range", "page") if k in match}
        if match.get("occurrenceInBlock"):
            hit["occurrenceInBlock"] = match["occurrenceInBlock"]
        blocks[-1]["matches"].append(hit)
    return blocks


def find_text(args, bridge, options):
    tool = "find_text"
    if not isinstance(args, dict):
        raise ToolError("find_text expects an object with a non-empty `query` string.")
    query = args.get("query")
    if not isinstance(query, str) or not query:
        raise ToolError("find_text requires a non-empty string `query`.")
    if len(query) > MAX_QUERY:
        raise ToolError(f"find_text's `query` is {len(query):,} characters, over the 1,000-character limit; shorten it.")
    refuse_unknown(tool, args, ("query", "matchCase", "wholeWord", "scope", "offset", "maxMatches"))
    for key in ("matchCase", "wholeWord"):
        if key in args and not isinstance(args[key], bool):
            raise ToolError(f"find_text's `{key}` must be a boolean when provided.")
    skip = int_arg(tool, args, "offset", 0, 0)
    most = int_arg(tool, args, "maxMatches", DEFAULT_MATCHES, 1, MAX_MATCHES)
    found = _search(args, bridge, query, args.get("matchCase", False), args.get("wholeWord", False), skip)
    page, _cut = take_page(found.matches, dict, most)
    if page and page[0].get("type") == "story":  # a header, footer or note: offsets into its text, no blocks
        result = {"matches": page}
    else:
        result = {"blocks": group_by_block(page)}
    result.update(totalMatches=found.total, truncated=skip + len(page) < found.total)
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
    page, _cut = take_page(items, render, len(items), start=offset)
    total_key = "total" + key[0].upper() + key[1:]
    result = {key: page, total_key: len(items), "truncated": offset + len(page) < len(items)}
    if result["truncated"]:
        result["nextOffset"] = offset + len(page)
    return result


def _threads(comments: list[dict], which: str) -> list[dict]:
    threads = [c for c in comments if c.get("parentId") is None]
    if which == "open":
        return [c for c in threads if not c["resolved"]]
    if which == "resolved":
        return [c for c in threads if c["resolved"]]
    return threads


def read_comments(args, bridge, options):
    tool = "read_comments"
    args = require_object(tool, args, "read_comments expects an object.")
    refuse_unknown(tool, args, ("filter", "offset"))
    which = args.get("filter", "all")
    if which not in ("all", "open", "resolved"):
        raise ToolError('read_comments\' `filter` must be one of "all", "open", "resolved" when provided.')
    offset = int_arg(tool, args, "offset", 0, 0)
    threads = kept(bridge, ("threads", which), lambda: _threads(comment_threads(bridge), which))
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
    if isinstance(out.get("move"), dict):  # a copy: the census is kept for every read of this version
        out["move"] = dict(out["move"])
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
    folded = kept(bridge, "foldedChanges", lambda: fold_moves(changes(bridge)))
    return _listing(tool, "changes", folded, lambda c: _change_json(c, snapshot), offset)
