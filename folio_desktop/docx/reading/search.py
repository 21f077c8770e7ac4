"""Literal text search over blocks and stories (spec §2.6, §6.3).

The query is a literal, matched left to right without overlaps, case-insensitively unless asked.
Offsets in results are UTF-16 code units into the accepted-view text, as the reference reports them.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from ..model.textkit import block_text_hash, index_to_utf16, text_hash, utf16_len, utf16_to_index
from .blocks import Block

MAX_MATCHES = 200
CONTEXT_UNITS = 40
MAX_QUERY = 1000


def _is_word_char(ch: str) -> bool:
    if ch == "_":
        return True
    cat = unicodedata.category(ch)
    return cat[0] in "LMN"


def compile_query(query: str, match_case: bool) -> re.Pattern:
    flags = 0 if match_case else re.IGNORECASE
    return re.compile(re.escape(query), flags)


def iter_matches(pattern: re.Pattern, text: str, whole_word: bool) -> Iterable[tuple[int, int]]:
    """(start, end) code-point spans of non-overlapping literal matches."""
    for m in pattern.finditer(text):
        start, end = m.span()
        if start == end:
            continue
        if whole_word:
            if start > 0 and _is_word_char(text[start - 1]):
                continue
            if end < len(text) and _is_word_char(text[end]):
                continue
        yield start, end


def context_window(text: str, start: int, end: int) -> str:
    """Text from 40 UTF-16 units before the match to 40 after (never splitting a character)."""
    s16, e16 = index_to_utf16(text, start), index_to_utf16(text, end)
    lo, hi = max(0, s16 - CONTEXT_UNITS), min(utf16_len(text), e16 + CONTEXT_UNITS)
    a = utf16_to_index(text, lo)
    if a is None:
        a = utf16_to_index(text, lo + 1) or start
    b = utf16_to_index(text, hi)
    if b is None:
        b = utf16_to_index(text, hi - 1) or end
    return text[a:b]


def text_range(block: Block, start: int, end: int) -> dict | None:
    """A TextRange handle for code-point span [start, end) of a block, or None if unrepresentable
    (cutting into a note marker)."""
    for boundary in block.structural_boundaries or ():
        if boundary.get("type") != "noteReference":
            continue
        m_start16 = boundary["offset"]
        m_end16 = m_start16 + boundary["length"]
        s16, e16 = index_to_utf16(block.text, start), index_to_utf16(block.text, end)
        if (m_start16 < s16 < m_end16) or (m_start16 < e16 < m_end16):
            return None
    return {
        "type": "textRange",
        "story": "main",
        "blockId": block.id,
        "startOffset": index_to_utf16(block.text, start),
        "endOffset": index_to_utf16(block.text, end),
        "selectedTextHash": text_hash(block.text[start:end]),
    }


@dataclass
class SearchResult:
    matches: list[dict]
    total: int

    skip: int = 0

    def to_json(self) -> dict:
        return {"matches": self.matches, "truncated": self.skip + len(self.matches) < self.total,
                "totalMatches": self.total}


def block_matches(blocks: Iterable[Block], query: str, match_case: bool = False, whole_word: bool = False,
                  opaque: bool = False):
    """Every main-story match, uncapped, in document order: (block, start, end, range handle), str
    offsets into the block's accepted-view text. A match that would cut a note marker is left out.
    opaque: matches in the placeholder text of diagnostic blocks too (content we cannot read, such
    as a w:altChunk), with no range: they cannot be targeted."""
    pattern = compile_query(query, match_case)
    for block in blocks:
        if not block.text or (block.kind == "diagnostic" and not opaque):
            continue
        for start, end in iter_matches(pattern, block.text, whole_word):
            if block.kind == "diagnostic":
                yield block, start, end, None
                continue
            rng = text_range(block, start, end)
            if rng is not None:
                yield block, start, end, rng


def find_in_blocks(blocks: Iterable[Block], query: str, match_case: bool = False, whole_word: bool = False,
                   page_of=None, page: int | None = None, skip: int = 0) -> SearchResult:
    """Main-story matches (the first `skip` left out). With page_of (range -> page number) and page,
    only that page counts."""
    matches: list[dict] = []
    total = 0
    current = None
    occurrence = 0
    block_hash = None
    for block, start, end, rng in block_matches(blocks, query, match_case, whole_word, opaque=True):
        if block is not current:
            current, occurrence, block_hash = block, 0, None
        if rng is None:  # the placeholder of content we cannot read: found, but not a place to edit
            if page_of is None:
                total += 1
                if total > skip and len(matches) < MAX_MATCHES:
                    matches.append({"type": "main", "story": {"type": "main"}, "blockId": block.id, "opaque": True,
                                    "occurrenceInBlock": occurrence, "context": block.text,
                                    "note": "This block is content the editor cannot read or change (it shows "
                                            "only this placeholder); it cannot be the target of an edit."})
            occurrence += 1
            continue
        found_page = None
        if page_of is not None:
            found_page = page_of(rng)
            if page is not None and found_page != page:
                occurrence += 1
                continue
        total += 1
        if total > skip and len(matches) < MAX_MATCHES:
            if block_hash is None:
                block_hash = block_text_hash(block.text)
            match = {
                "type": "main",
                "story": {"type": "main"},
                "blockId": block.id,
                "blockTextHash": block_hash,
                "range": rng,
                "occurrenceInBlock": occurrence,
                "context": context_window(block.text, start, end),
            }
            if block.display_label and block.kind != "diagnostic":
                match["displayLabel"] = block.display_label
            if found_page is not None:
                match["page"] = found_page
            matches.append(match)
        occurrence += 1
    return SearchResult(matches, total, skip)


def find_in_story(story_handle: dict, text: str, query: str, match_case: bool = False,
                  whole_word: bool = False, skip: int = 0) -> SearchResult:
    """Matches in a non-main story's normalized text (offsets into that text, no block ids)."""
    pattern = compile_query(query, match_case)
    matches: list[dict] = []
    total = 0
    for occurrence, (start, end) in enumerate(iter_matches(pattern, text, whole_word)):
        total += 1
        if total > skip and len(matches) < MAX_MATCHES:
            matches.append({
                "type": "story",
                "story": story_handle,
                "startOffset": index_to_utf16(text, start),
                "endOffset": index_to_utf16(text, end),
                "occurrenceInStory": occurrence,
                "context": context_window(text, start, end),
            })
    return SearchResult(matches, total, skip)
