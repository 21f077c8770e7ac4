"""Text normalization, hashes, deterministic paraIds and UTF-16 offsets (spec §5.2, §5.4, §12.1).

Offsets the model sees are UTF-16 code units (as in the reference); Python strings index code
points. This module is the one place that converts between them.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left
from functools import lru_cache
from itertools import accumulate
from operator import mul

_B36 = "0123456789abcdefghijklmnopqrstuvwxyz"
HASH_PATTERN = re.compile(r"^h[0-9a-z]+$")


def normalize(text: str) -> str:
    """Collapse every whitespace run to one space and trim (str.split's whitespace is the same set
    as a regular expression's whitespace class: str.isspace)."""
    return " ".join(text.split())


_MOD = 2147483647
_POW33 = [1]  # 33**k mod (2^31 - 1), grown on demand


def text_hash(text: str) -> str:
    """'h' + base-36 of a djb2-style hash over code points, modulo 2^31-1."""
    return hash_name(hash_number(text))


def hash_number(text: str) -> int:
    """The number text_hash writes in base 36.

    The reference folds h = (h*33 + c) mod p character by character; that equals
    5381*33^n + P(33) mod p, where P(x) = sum(c_i * x^(n-1-i)) over the code points. Hashing every
    block is the costliest part of a full read, so P(33) is read in C as base-33 numerals: an ASCII
    code c is 33*(c // 33) + c % 33, so P(33) = 33*H + L, where H and L are the numerals whose digits
    are c // 33 and c % 33 (bytes.translate makes them, int(..., 33) reads them). A few other
    characters are read as '?' and corrected one by one; text mostly of them is summed per code point.
    """
    n = len(text)
    if text.isascii():
        return (5381 * pow(33, n, _MOD) + _ascii_value(text.encode("ascii"))) % _MOD
    if len(text.encode("utf-8")) - n > n // 8:
        return _summed(text)
    pw = _powers(n)
    h = 5381 * pw[n] + _ascii_value(text.encode("ascii", "replace"))
    last = n - 1
    for m in _WIDE.finditer(text):
        h += (ord(m.group()) - 63) * pw[last - m.start()]  # (63: the '?' read in its place)
    return h % _MOD


_DIGITS = b"0123456789abcdefghijklmnopqrstuvw"  # base 33
_LOW = bytes(_DIGITS[c % 33] for c in range(128)) + bytes(128)
_HIGH = bytes(_DIGITS[c // 33] for c in range(128)) + bytes(128)
_NUMERAL = 4000  # digits read at once: under the interpreter's limit on a numeral (4,300) and quick
_WIDE = re.compile(r"[^\x00-\x7f]")


def _ascii_value(data: bytes) -> int:
    """P(33) mod p of ASCII bytes."""
    h = 0
    for start in range(0, len(data), _NUMERAL):
        piece = data[start:start + _NUMERAL]
        h = (h * pow(33, len(piece), _MOD) + 33 * int(piece.translate(_HIGH), 33)
             + int(piece.translate(_LOW), 33)) % _MOD
    return h


def _powers(n: int) -> list[int]:
    """33**k mod p for k up to n."""
    pw = _POW33
    while len(pw) <= n:
        pw.append(pw[-1] * 33 % _MOD)
    return pw


def _summed(text: str) -> int:
    """hash_number by a sum over the code points (C-level map/sum, the code points reversed)."""
    n = len(text)
    pw = _powers(n)
    points = array("I", text.encode("utf-32-le"))
    points.reverse()
    return (5381 * pw[n] + sum(map(mul, points, pw))) % _MOD


def hash_name(h: int) -> str:
    """'h' + h in base 36."""
    digits = []
    while True:
        h, r = divmod(h, 36)
        digits.append(_B36[r])
        if h == 0:
            break
    return "h" + "".join(reversed(digits))


def block_text_hash(text: str) -> str:
    return text_hash(normalize(text))


def deterministic_para_id(seed: str) -> str:
    """FNV-1a 32-bit over code points, modulo 0x7FFFFFFF (0 -> 1), as 8 uppercase hex digits."""
    h = 0x811C9DC5
    for ch in seed:
        h ^= ord(ch)
        h = (h * 0x01000193) & 0xFFFFFFFF
    h %= 0x7FFFFFFF
    return f"{h or 1:08X}"


# -- UTF-16 offsets --------------------------------------------------------------------------
#
# Only characters outside the Basic Multilingual Plane (emoji, some CJK) take two UTF-16 units, so
# a text without them maps offsets one to one. Texts with them get a prefix table, cached per text
# because search maps thousands of offsets into the same block.

_ASTRAL = re.compile("[\U00010000-\U0010FFFF]")


@lru_cache(maxsize=512)
def _prefix(text: str) -> tuple[int, ...] | None:
    """UTF-16 offset of every code-point index (len+1 entries), or None when they are equal."""
    if text.isascii() or _ASTRAL.search(text) is None:
        return None
    return (0, *accumulate(2 if ord(ch) > 0xFFFF else 1 for ch in text))


def utf16_len(text: str) -> int:
    prefix = _prefix(text)
    return len(text) if prefix is None else prefix[-1]


def utf16_to_index(text: str, offset: int) -> int | None:
    """Code-point index for a UTF-16 offset, or None when it falls between surrogate halves
    or outside the text."""
    if offset < 0:
        return None
    prefix = _prefix(text)
    if prefix is None:
        return offset if offset <= len(text) else None
    i = bisect_left(prefix, offset)
    return i if i < len(prefix) and prefix[i] == offset else None


def index_to_utf16(text: str, index: int) -> int:
    """UTF-16 offset of a code-point index."""
    prefix = _prefix(text)
    return index if prefix is None else prefix[index]


def utf16_slice(text: str, start: int, end: int) -> str | None:
    a, b = utf16_to_index(text, start), utf16_to_index(text, end)
    if a is None or b is None:
        return None
    return text[a:b]
