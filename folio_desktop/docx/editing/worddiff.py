"""Word-level diff (spec §3.6, §9.1): tokens are maximal whitespace or non-whitespace runs; LCS."""

from __future__ import annotations

import re
from functools import lru_cache

# note markers ([^1], [^e2]) are tokens of their own, so words next to them can change alone
_TOKENS = re.compile(r"\[\^e?\d+\]|\s+|(?:(?!\[\^e?\d+\])\S)+")
CELL_BUDGET = 4_000_000


def tokenize(text: str) -> list[str]:
    return _TOKENS.findall(text)


def diff_words(old: str, new: str) -> list[tuple[str, str]]:
    """[(op, text)] with op in equal|del|ins, adjacent equal ops merged, deletions before insertions.

    Over the cell budget the whole text is one deletion and one insertion."""
    return list(_diff_words(old, new))


@lru_cache(maxsize=256)  # compare diffs a changed paragraph, then its redline diffs the same texts again
def _diff_words(old: str, new: str) -> tuple[tuple[str, str], ...]:
    a, b = tokenize(old), tokenize(new)
    start = 0
    while start < len(a) and start < len(b) and a[start] == b[start]:
        start += 1
    end_a, end_b = len(a), len(b)
    while end_a > start and end_b > start and a[end_a - 1] == b[end_b - 1]:
        end_a -= 1
        end_b -= 1
    ops: list[tuple[str, str]] = [("equal", t) for t in a[:start]]
    mid_a, mid_b = a[start:end_a], b[start:end_b]
    if len(mid_a) * len(mid_b) > CELL_BUDGET:
        ops += [("del", t) for t in mid_a] + [("ins", t) for t in mid_b]
    else:
        ops += _lcs_ops(mid_a, mid_b)
    ops += [("equal", t) for t in a[end_a:]]
    return tuple(_merge(ops))


def _lcs_ops(a: list[str], b: list[str]) -> list[tuple[str, str]]:
    n, m = len(a), len(b)
    if n == 0 or m == 0:
        return [("del", t) for t in a] + [("ins", t) for t in b]
    # lengths[i][j] = LCS of a[i:], b[j:]
    lengths = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        row, below = lengths[i], lengths[i + 1]
        ai = a[i]
        for j in range(m - 1, -1, -1):
            row[j] = below[j + 1] + 1 if ai == b[j] else max(below[j], row[j + 1])
    ops = []
    i = j = 0
    while i < n and j < m:
        if a[i] == b[j]:
            ops.append(("equal", a[i]))
            i += 1
            j += 1
        elif lengths[i + 1][j] >= lengths[i][j + 1]:
            ops.append(("del", a[i]))
            i += 1
        else:
            ops.append(("ins", b[j]))
            j += 1
    ops += [("del", t) for t in a[i:]] + [("ins", t) for t in b[j:]]
    return ops


def _merge(ops: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Merge runs of one kind; inside each change hunk put the deletion before the insertion."""
    out: list[tuple[str, str]] = []
    i = 0
    while i < len(ops):
        if ops[i][0] == "equal":
            text = []
            while i < len(ops) and ops[i][0] == "equal":
                text.append(ops[i][1])
                i += 1
            out.append(("equal", "".join(text)))
            continue
        dels, inss = [], []
        while i < len(ops) and ops[i][0] != "equal":
            (dels if ops[i][0] == "del" else inss).append(ops[i][1])
            i += 1
        if dels:
            out.append(("del", "".join(dels)))
        if inss:
            out.append(("ins", "".join(inss)))
    return out


def hunks(old: str, new: str) -> list[tuple[int, int, str]]:
    """Change hunks as (start, end, replacement) code-point spans of `old`, left to right."""
    out = []
    pos = 0
    ops = diff_words(old, new)
    i = 0
    while i < len(ops):
        op, text = ops[i]
        if op == "equal":
            pos += len(text)
            i += 1
            continue
        start = pos
        deleted = ""
        inserted = ""
        if op == "del":
            deleted = text
            i += 1
            if i < len(ops) and ops[i][0] == "ins":
                inserted = ops[i][1]
                i += 1
        else:
            inserted = text
            i += 1
        pos += len(deleted)
        out.append((start, start + len(deleted), inserted))
    return out
