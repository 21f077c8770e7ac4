"""The heading outline and section handles (spec §2.2, §2.3, §6.1)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..model.textkit import HASH_PATTERN, normalize
from .blocks import Block, Snapshot

TITLE_CHARS = 72  # a heading longer than this is a clause styled as a heading: show its start
PREVIEW_CHARS = 60  # ... about this much of it
# a run-in title: a few words ending in "." or ":" after a lowercase letter or a bracket ("Definitions.",
# "Capital Contributions:"), so "U.S." or "Section 2.1" never end one
_RUN_IN = re.compile(r"^([^.:;]{3,60}?[a-z\u00df-\u00ff)\]][.:])\s+\S")


@dataclass
class OutlineEntry:
    block: Block
    level: int
    parent: OutlineEntry | None

    def handle(self) -> dict:
        return {
            "type": "headingSection",
            "story": "main",
            "headingBlockId": self.block.id,
            "headingTextHash": self.block.text_hash,
            "headingLevel": self.level,
        }

    @property
    def title(self) -> str:
        return heading_title(self.block.text)

    def to_json(self) -> dict:
        out = {"handle": self.handle(), "headingBlockId": self.block.id, "text": self.block.text,
               "level": self.level}
        if self.parent is not None:
            out["parentHandle"] = self.parent.handle()
        return out


def heading_title(text: str) -> str:
    """What an outline shows of a heading: the heading itself, or, when a heading-styled paragraph is
    a whole clause, its run-in title ("Definitions. …") or its first words, marked with an ellipsis."""
    text = normalize(text)
    if len(text) <= TITLE_CHARS:
        return text
    m = _RUN_IN.match(text)
    if m and len(m.group(1).split()) <= 8:
        return m.group(1) + " …"
    cut = text[:PREVIEW_CHARS]
    space = cut.rfind(" ", PREVIEW_CHARS // 2)
    return (cut[:space] if space > 0 else cut).rstrip(" ,;:") + "…"


def outline(snapshot: Snapshot) -> list[OutlineEntry]:
    """Every content block with a heading level, each with its nearest shallower ancestor."""
    entries: list[OutlineEntry] = []
    stack: list[OutlineEntry] = []
    for block in snapshot.blocks:
        if block.heading_level is None or not block.is_content or block.kind == "diagnostic":
            continue
        level = max(1, min(9, block.heading_level))
        while stack and stack[-1].level >= level:
            stack.pop()
        entry = OutlineEntry(block, level, stack[-1] if stack else None)
        entries.append(entry)
        stack.append(entry)
    return entries


def decode_section_handle(handle) -> dict | None:
    """The strict decoder: a well-formed headingSection handle or None. `type` and `story` may be
    left out (the outline tool leaves them out: they are the same on every entry of a listing that
    would otherwise spend a tenth of its size on them); when given they must be right."""
    if not isinstance(handle, dict):
        return None
    if handle.get("type", "headingSection") != "headingSection" or handle.get("story", "main") != "main":
        return None
    block_id = handle.get("headingBlockId")
    text_hash = handle.get("headingTextHash")
    level = handle.get("headingLevel")
    if not isinstance(block_id, str) or not block_id:
        return None
    if not isinstance(text_hash, str) or not HASH_PATTERN.match(text_hash):
        return None
    if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= 9:
        return None
    return {"headingBlockId": block_id, "headingTextHash": text_hash, "headingLevel": level}


@dataclass
class SectionResolution:
    status: str  # found | missing | stale
    entry: OutlineEntry | None = None
    blocks: list[Block] | None = None


def resolve_section(snapshot: Snapshot, handle: dict) -> SectionResolution:
    """Find a section again in a fresh snapshot; never guesses a neighbouring heading."""
    decoded = decode_section_handle(handle)
    if decoded is None:
        return SectionResolution("missing")
    entries = outline(snapshot)
    entry = next((e for e in entries if e.block.id == decoded["headingBlockId"]), None)
    if entry is None:
        return SectionResolution("missing")
    if entry.block.text_hash != decoded["headingTextHash"] or entry.level != decoded["headingLevel"]:
        return SectionResolution("stale", entry)
    return SectionResolution("found", entry, section_blocks(snapshot, entry))


def section_blocks(snapshot: Snapshot, entry: OutlineEntry) -> list[Block]:
    """The heading block and every following block until a heading at its level or shallower."""
    blocks = snapshot.blocks
    start = snapshot.anchors[entry.block.id].index
    out = [blocks[start]]
    for block in blocks[start + 1:]:
        if block.heading_level is not None and block.is_content and block.heading_level <= entry.level:
            break
        out.append(block)
    return out
