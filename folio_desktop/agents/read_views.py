"""What every page of a read needs, computed once per document version (issue 26).

Paging through a document used to recount every tracked change, re-read every comment thread and scan
every block for each page, so reading a document of N blocks cost N² (80,000 paragraphs: minutes). Each
such view (the census, the pending counts and comment threads of every block, the concealed-text report,
the redline texts, the blocks a read lists with the position of each for `afterBlockId`, the outline,
a section's blocks, the stories, where a query matches) is now computed on the first read of a document
version and kept with the document (Document.derived, reached through the bridge's optional `derived`
member) until the next change, so any later page costs what it returns. A bridge without `derived`
computes them again for every call, as before.

A kept view is shared by every read of its version: the tools never change one, and what of it reaches
a result is copied there.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from typing import Any

from ..docx.reading.search import MAX_MATCHES, SearchResult, block_matches, find_in_blocks

KEPT_SEARCHES = 16  # the queries whose matches are kept per version (paging one reads the same query again)


def kept(bridge, key, compute: Callable[[], Any]):
    """compute(), kept with the document until its next change when the bridge can keep it, else computed
    for this call alone. The value must not refer to the bridge (the document would keep the bridge, and
    the view behind a live one, alive)."""
    derived = getattr(bridge, "derived", None)
    return derived(key, compute) if callable(derived) else compute()


def _block_id(block) -> str:
    return block.id


class Listing:
    """The items a read pages through, and where each stands (by id, the first of an id), for a cursor."""

    __slots__ = ("items", "_id_of", "_positions")

    def __init__(self, items: Sequence, id_of: Callable[[Any], str] = _block_id):
        self.items = items
        self._id_of = id_of
        self._positions: dict[str, int] | None = None

    def __len__(self) -> int:
        return len(self.items)

    def position(self, item_id) -> int | None:
        if self._positions is None:
            positions: dict[str, int] = {}
            for i, item in enumerate(self.items):
                positions.setdefault(self._id_of(item), i)
            self._positions = positions
        try:
            return self._positions.get(item_id)
        except TypeError:  # an id that is no string (the tool arguments are checked, other callers may not be)
            return None


def changes(bridge) -> list[dict]:
    """The census of the main story's pending changes (bridge.get_changes())."""
    return kept(bridge, "changes", lambda: list(bridge.get_changes()))


def comment_threads(bridge) -> list[dict]:
    """The comment threads, replies nested (bridge.get_comments())."""
    return kept(bridge, "comments", lambda: list(bridge.get_comments()))


class Matches:
    """Where a query matches in a list of blocks: the blocks that hold a match, in order, and how many
    matches there are up to and including each, so a page of matches reads only the blocks it shows."""

    __slots__ = ("blocks", "ends", "query", "match_case", "whole_word")

    def __init__(self, blocks, query: str, match_case: bool, whole_word: bool):
        self.query, self.match_case, self.whole_word = query, match_case, whole_word
        self.blocks: list = []
        self.ends = array("q")
        count = 0
        for block, _start, _end, _rng in block_matches(blocks, query, match_case, whole_word, opaque=True):
            if not self.blocks or self.blocks[-1] is not block:
                self.blocks.append(block)
                self.ends.append(count)
            count += 1
            self.ends[-1] = count

    @property
    def total(self) -> int:
        return self.ends[-1] if self.ends else 0

    def page(self, skip: int) -> SearchResult:
        """What find_in_blocks(every block, ..., skip=skip) answers, from the blocks of this page alone."""
        first = bisect_right(self.ends, skip)
        if first == len(self.blocks):
            return SearchResult([], self.total, skip)
        last = min(len(self.blocks) - 1, bisect_left(self.ends, skip + MAX_MATCHES))
        before = self.ends[first - 1] if first else 0
        found = find_in_blocks(self.blocks[first:last + 1], self.query, self.match_case, self.whole_word,
                               skip=skip - before)
        return SearchResult(found.matches, self.total, skip)


def matches(bridge, scope, blocks: Callable[[], Sequence], query: str, match_case: bool, whole_word: bool) -> Matches:
    """Where `query` matches in `blocks()` (the blocks of `scope`, a key), kept for the last few queries."""
    recent = kept(bridge, "searches", dict)
    key = (scope, query, match_case, whole_word)
    found = recent.get(key)
    if found is None:
        found = Matches(blocks(), query, match_case, whole_word)
        if len(recent) >= KEPT_SEARCHES:
            del recent[next(iter(recent))]  # the oldest
        recent[key] = found
    return found
