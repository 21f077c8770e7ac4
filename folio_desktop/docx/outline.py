"""The heading outline and section handles (spec §2.2, §2.3, §6.1)."""

from __future__ import annotations

from dataclasses import dataclass

from .snapshot import Block, Snapshot
from .textkit import HASH_PATTERN


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

    def to_json(self) -> dict:
        out = {"handle": self.handle(), "headingBlockId": self.block.id, "text": self.block.text,
               "level": self.level}
        if self.parent is not None:
            out["parentHandle"] = self.parent.handle()
        return out


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
    """The strict decoder: a well-formed headingSection handle or None."""
    if not isinstance(handle, dict):
        return None
    if handle.get("type") != "headingSection" or handle.get("story") != "main":
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
