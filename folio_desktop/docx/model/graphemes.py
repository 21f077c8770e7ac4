"""Grapheme cluster boundaries, close enough to UAX #29 for the edits we refuse (spec §3.5 #8):
base + combining marks, ZWJ emoji sequences, variation selectors, skin tones, flags, tag sequences."""

from __future__ import annotations

import unicodedata

from .textkit import index_to_utf16


def _extends(ch: str) -> bool:
    cp = ord(ch)
    return (
        unicodedata.category(ch) in ("Mn", "Me", "Mc")
        or cp == 0x200D
        or 0xFE00 <= cp <= 0xFE0F
        or 0xE0100 <= cp <= 0xE01EF
        or 0x1F3FB <= cp <= 0x1F3FF
        or 0xE0020 <= cp <= 0xE007F
    )


def _regional(ch: str) -> bool:
    return 0x1F1E6 <= ord(ch) <= 0x1F1FF


def clusters(text: str) -> list[tuple[int, int]]:
    """(start, end) code-point spans of the grapheme clusters of text."""
    out: list[tuple[int, int]] = []
    i = 0
    n = len(text)
    while i < n:
        start = i
        ri = _regional(text[i])
        i += 1
        if ri and i < n and _regional(text[i]):
            i += 1
        while i < n:
            if _extends(text[i]):
                i += 1
            elif text[i - 1] == "\u200d":
                i += 1
            else:
                break
        out.append((start, i))
    return out


WINDOW = 64  # longer than any cluster a contract holds (the longest emoji ZWJ sequences are ~10)


def cluster_around(text: str, index: int) -> tuple[int, int] | None:
    """The cluster that code-point index falls strictly inside, or None when it is a boundary."""
    if index <= 0 or index >= len(text) or text.isascii():
        return None
    # only the text around index matters: from a character that surely begins a cluster (typing in
    # a long paragraph must not walk all of it for every key)
    base = max(index - WINDOW, 0)
    while base > 0 and (_extends(text[base]) or text[base - 1] == "\u200d" or _regional(text[base])):
        base -= 1
    for start, end in clusters(text[base:index + WINDOW]):
        start, end = start + base, end + base
        if start < index < end:
            return start, end
        if start >= index:
            break
    return None


def splits_message(text: str, offset16: int, start: int, end: int) -> str:
    a16, b16 = index_to_utf16(text, start), index_to_utf16(text, end)
    return (f'offset {offset16} falls inside "{text[start:end]}", which spans offsets {a16} to {b16}; '
            f"use {a16} or {b16}.")
