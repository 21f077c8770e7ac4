"""The size budget every read tool keeps, and the paging that keeps it (issue 12, point 2).

A tool result reaches the model whole, and is sent again with every later request of the conversation,
so a read that returns a 300 KB document costs ~75k tokens on each of them. A paged read therefore returns
at most PAGE_BUDGET characters of JSON (about 3k tokens: what a model reads closely in one go, and what
keeps a short review under 50k input tokens), cut at an item boundary, with a cursor that continues
exactly where the page stopped, the totals, and `truncated`. A single text (a page of the view, the
selection) is cut at RESULT_BUDGET; no result is ever over HARD_LIMIT.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

PAGE_BUDGET = 12_000  # characters of JSON in one page of a paged read (~3k tokens)
RESULT_BUDGET = 40_000  # characters of JSON in any one result (~10k tokens)
HARD_LIMIT = 100_000  # no result is ever larger, whatever the arguments ask for
ENVELOPE_RESERVE = 1_500  # room kept for the result's own keys (totals, cursor, notes)
MIN_TEXT = 2_000  # a single item larger than a page keeps at least this much of its text

# said once, in read_document's description, for every paged read
PAGED_WORDS = ("Reads are paged (~3k tokens): when `truncated`, pass nextAfterBlockId as afterBlockId (or "
               "nextOffset as offset) for the next page.")


def json_size(value: Any) -> int:
    """Characters of the JSON the model receives for `value` (the loop's own compact encoding)."""
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")))


def take_page(items: Sequence[Any], render: Callable[[Any], dict], max_items: int,
              budget: int = PAGE_BUDGET, start: int = 0) -> tuple[list[dict], bool]:
    """Render items in order, from items[start], until `max_items` or the budget is reached (without
    copying the rest of `items`: a page costs what it holds).

    Returns (rendered, cut_by_budget). The first item is always returned (cut to fit by
    `fit_text` when it alone is over the budget), so paging always moves forward.
    """
    out: list[dict] = []
    used = ENVELOPE_RESERVE
    for i in range(start, min(len(items), start + max_items)):
        rendered = render(items[i])
        size = json_size(rendered) + 2
        if out and used + size > budget:
            return out, True
        if not out and used + size > budget:
            rendered = fit_text(rendered, budget - used)
            size = json_size(rendered) + 2
        out.append(rendered)
        used += size
    return out, False


def fit_text(item: dict, room: int) -> dict:
    """An item whose `text` (and `redline`) alone overflows the page, cut to fit: the cut is said
    in `textTruncated` and `textLength`, so the model knows there is more (find_text reaches it)."""
    item = dict(item)
    over = json_size(item) - room
    for key in ("redline", "text", "quote"):
        value = item.get(key)
        if over <= 0 or not isinstance(value, str):
            continue
        keep = max(MIN_TEXT, len(value) - over - 40)
        if keep < len(value):
            item[key] = value[:keep] + "…"
            item.setdefault("textLength", len(value))
            item["textTruncated"] = True
            over = json_size(item) - room
    return item


def clip(text: str, limit: int) -> str:
    """`text` cut to about `limit` characters at a word boundary, marked with an ellipsis."""
    if len(text) <= limit:
        return text
    cut = text[:limit]
    space = cut.rfind(" ", limit // 2)
    if space > 0:
        cut = cut[:space]
    return cut.rstrip(" ,;:") + "…"
