"""Numbering as displayed: numberingGap (2.1, 2.2, 2.4), duplicateNumber (3.1, 3.1), and manualNumber
(a number typed as text among paragraphs Word numbers automatically)."""

from __future__ import annotations

import bisect
import re

from .references import roman_value

_PARTS = re.compile(r"^(?P<pre>(?:article|section|clause)\s+)?(?P<body>.*?)$", re.I)


def _shapes(label: str) -> list[tuple[str, int, str]]:
    """The readings of a number as (shape, value of its last part, the parts before): "2.3" -> ("#.#", 3, "2");
    "(c)" -> ("(a)", 3, ""); "ARTICLE IV" -> ("article I", 4, ""); "(i)" -> roman 1, or the letter i."""
    m = _PARTS.match(label.strip())
    pre = (m.group("pre") or "").lower()
    body = m.group("body").rstrip(".")
    if re.fullmatch(r"\d+(?:\.\d+)*", body):
        parts = body.split(".")
        return [(pre + "#." * (len(parts) - 1) + "#", int(parts[-1]), ".".join(parts[:-1]))]
    inner = re.fullmatch(r"\((\w{1,6})\)", body)
    token = inner.group(1) if inner else body
    wrap = "({})" if inner else "{}."
    out = []
    if re.fullmatch(r"[ivxl]+", token):
        out.append((pre + wrap.format("i"), roman_value(token), ""))
    if re.fullmatch(r"[IVXLC]+", token) and (pre or len(token) > 1):
        out.append((pre + wrap.format("I"), roman_value(token), ""))
    if re.fullmatch(r"[a-z]", token):
        out.append((pre + wrap.format("a"), ord(token) - 96, ""))
    elif re.fullmatch(r"[A-Z]", token):
        out.append((pre + wrap.format("A"), ord(token) - 64, ""))
    elif re.fullmatch(r"\d+", token):
        out.append((pre + wrap.format("1"), int(token), ""))
    return out


def check_numbering(units, emit) -> None:
    by_story: dict[str, list] = {}
    for unit in units:
        by_story.setdefault(unit.story, []).append(unit)
    for story_units in by_story.values():
        _sequence(story_units, emit)
        _manual(story_units, emit)


def _pick(stack, shapes):
    """The reading that continues a level already open (h, i: the letter), else the first."""
    open_levels = {entry[0]: entry for entry in stack}
    for shape in shapes:
        entry = open_levels.get(shape[0])
        if entry is not None and shape[1] == entry[1] + 1:
            return shape
    # (i) after (c): a new level of roman numbers, not the letter i
    return next((s for s in shapes if s[0] not in open_levels and s[1] == 1), None) or \
        next((s for s in shapes if s[0] in open_levels), shapes[0])


def _sequence(units, emit) -> None:
    # one stack of levels: a shape seen again closes the levels opened after it
    stack: list[list] = []  # [shape, last value, prefix]
    for unit in units:
        label = unit.shown_label
        if not label or unit.in_table or not unit.text.strip():
            continue  # an empty numbered paragraph (left by a comparison) is no clause of its own
        shapes = _shapes(label)
        if not shapes:
            continue
        shape, value, prefix = _pick(stack, shapes)
        at = next((i for i, entry in enumerate(stack) if entry[0] == shape), None)
        if at is None:
            stack.append([shape, value, prefix])
            continue
        del stack[at + 1:]
        last, last_prefix = stack[at][1], stack[at][2]
        stack[at][1:] = [value, prefix]
        if prefix != last_prefix:
            continue  # 3.1 after 2.4: a new clause's sub-clauses
        if value == last:
            emit("duplicateNumber", label, unit, 0, f"Number {label} appears twice in a row.")
        elif value > last + 1:
            missing = value - last - 1
            emit("numberingGap", label, unit, 0,
                 f"The numbering jumps to {label}: {missing} number{'s' if missing > 1 else ''} missing before it.")


_TOC_LINE = re.compile(r"\t\s*\d+\s*$")  # a table of contents' line ends in its page number


def _continues(units, i, typed) -> bool:
    """Does the typed number come next after the last number Word showed in its shape, with no typed number
    of that shape between (Word's 1., 2., then "3.")?"""
    for shape, value, prefix in _shapes(typed):
        for j in range(i - 1, max(-1, i - 200), -1):  # a list's next number sits within a few pages
            unit = units[j]
            same = [s for s in _shapes(unit.label) if s[0] == shape] if unit.label else []
            if same:
                if same[0][1] + 1 == value and same[0][2] == prefix:
                    return True
                break
            if unit.typed_number and any(s[0] == shape for s in _shapes(unit.typed_number)):
                break
    return False


def _manual(units, emit) -> None:
    """A typed number where the paragraphs around are numbered by Word in the same shape."""
    positions = [i for i, u in enumerate(units) if u.label]
    if not positions:
        return
    for i, unit in enumerate(units):
        typed = unit.typed_number
        if typed is None or unit.in_table:
            continue
        shapes = {s[0] for s in _shapes(typed)}
        if not shapes:
            continue
        if unit.label:
            # "2.5.2  2.5.2 The expenses": the number typed again; "(c) (i) the Fund ...": an inline list
            if typed.rstrip(".") == unit.label.rstrip("."):
                emit("manualNumber", typed, unit, 0,
                     f"“{typed}” is typed before the number Word already shows ({unit.label}).")
            continue
        if _TOC_LINE.search(unit.text):
            continue
        k = bisect.bisect_left(positions, i)
        near = [units[positions[j]] for j in (k - 1, k) if 0 <= j < len(positions) and abs(positions[j] - i) <= 12]
        if any(shapes & {s[0] for s in _shapes(u.label)} for u in near) or _continues(units, i, typed):
            emit("manualNumber", typed, unit, 0,
                 f"“{typed}” is typed as text in a list that Word numbers automatically.")
