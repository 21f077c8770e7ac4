"""Grapheme cluster boundaries (UAX #29, extended clusters) for the edits we refuse (spec §3.5 #8).

The `regex` module's \\X implements the whole of UAX #29 at its Unicode version: combining marks, emoji ZWJ
sequences, flags, Hangul syllables built from jamo, Indic conjuncts (GB9c) and prepended marks."""

from __future__ import annotations

import regex

from .textkit import index_to_utf16

_CLUSTER = regex.compile(r"\X")


def _regional(ch: str) -> bool:
    return 0x1F1E6 <= ord(ch) <= 0x1F1FF


def clusters(text: str) -> list[tuple[int, int]]:
    """(start, end) code-point spans of the grapheme clusters of text."""
    return [m.span() for m in _CLUSTER.finditer(text)]


WINDOW = 64  # longer than any cluster a contract holds (the longest emoji ZWJ sequences are ~10)


def cluster_around(text: str, index: int) -> tuple[int, int] | None:
    """The cluster that code-point index falls strictly inside, or None when it is a boundary."""
    if index <= 0 or index >= len(text) or text.isascii():
        return None
    # only the text around index matters (typing in a long paragraph must not walk all of it for every
    # key). A start WINDOW back may fall inside a cluster: that can only add breaks inside that one
    # cluster, which ends long before index. Flags pair up by parity, so a run of them is read whole.
    base = max(index - WINDOW, 0)
    while base > 0 and _regional(text[base - 1]):
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
