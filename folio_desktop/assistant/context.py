"""Keeping a conversation inside the model's context window.

Every request is estimated locally before it is sent (no token-counting round trip): ASCII text at
ESTIMATE_CHARS_PER_TOKEN characters a token, any other character a token of its own, plus a little
per message and block. The estimate is then scaled by what the API last measured (the usage of a
reply, or the numbers in a "prompt is too long" error), so it tracks the real tokenizer.

When the estimate is over the budget, the conversation is trimmed in place, oldest first:

1. old tool results become a one-line note the model can act on (ELIDED_NOTE: call the tool
   again); the results of the current round, which the model has not seen yet, are never elided;
2. if that is not enough, whole earlier exchanges are dropped from the start (DROPPED_NOTE tells
   the model), never the current turn.

Trimming goes below the budget (to LOW_WATER of it), so it happens now and then in steps rather
than at every request (each trim changes the cached prefix). Pairing stays valid throughout: an
elided result keeps its tool_use_id, and a dropped exchange takes its tool_use and tool_result
blocks with it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

ESTIMATE_CHARS_PER_TOKEN = 3.0  # JSON ids and hashes tokenize worse than prose: err on the high side
MESSAGE_OVERHEAD = 4
BLOCK_OVERHEAD = 3
LOW_WATER = 0.8  # a trim goes down to this share of the budget
SCALE_RANGE = (0.6, 4.0)  # how far a measurement may move the estimate
SAFETY_MARGIN = 0.03  # of the context window, for what the estimate cannot see

ELIDED_NOTE = "[Result of {name} elided to save context; call {name} again if you need it.]"
DROPPED_NOTE = ("[Earlier messages of this conversation were removed to save context. Ask the lawyer "
                "or re-read the document if you need something from them.]")

_NOT_ASCII = re.compile(r"[^\x00-\x7f]")
_TOO_LONG = re.compile(r"prompt is too long:\s*(\d+)\s*tokens?\s*>\s*(\d+)", re.IGNORECASE)


def text_tokens(text: str) -> int:
    other = len(_NOT_ASCII.findall(text)) if not text.isascii() else 0
    return int((len(text) - other) / ESTIMATE_CHARS_PER_TOKEN) + other


def estimate(value) -> int:
    """Unscaled token estimate of any JSON value the request carries (a message, tools, system)."""
    if isinstance(value, str):
        return text_tokens(value)
    if isinstance(value, dict):
        if value.get("role") in ("user", "assistant"):
            return MESSAGE_OVERHEAD + estimate(value.get("content"))
        return BLOCK_OVERHEAD + text_tokens(json.dumps(value, ensure_ascii=False))
    if isinstance(value, list):
        return sum(estimate(item) for item in value)
    return 0 if value is None else 1


def budget_for(context_window: int, max_tokens: int) -> int:
    """Input tokens a request may carry: the window less the reply it reserves and a margin."""
    return max(1_000, int(context_window * (1 - SAFETY_MARGIN)) - max_tokens)


def parse_too_long(message: str) -> tuple[int, int] | None:
    """(tokens sent, the maximum) from the API's "prompt is too long: N tokens > M maximum"."""
    found = _TOO_LONG.search(message)
    return (int(found.group(1)), int(found.group(2))) if found else None


def clamp_scale(scale: float) -> float:
    low, high = SCALE_RANGE
    return min(high, max(low, scale))


@dataclass
class FitReport:
    before: int  # scaled estimate before trimming
    after: int
    elided: int = 0  # tool results replaced by the note
    dropped: int = 0  # messages removed from the start

    @property
    def changed(self) -> bool:
        return bool(self.elided or self.dropped)


def _tool_names(messages: list[dict]) -> dict[str, str]:
    names = {}
    for message in messages:
        if message["role"] == "assistant" and isinstance(message["content"], list):
            for block in message["content"]:
                if block.get("type") == "tool_use":
                    names[block["id"]] = block["name"]
    return names


def is_elided(block: dict) -> bool:
    content = block.get("content")
    return isinstance(content, str) and content.startswith("[Result of ") and "elided to save context" in content


def fit(messages: list[dict], *, fixed: int, budget: int, scale: float, protected: set[str],
        keep_from: int, low_water: float = LOW_WATER) -> FitReport:
    """Trim ``messages`` in place until ``(fixed + estimate(messages)) * scale`` is at most
    ``budget * low_water`` (only when it is over ``budget``). ``fixed`` is the unscaled estimate of
    what the request carries besides the messages (system prompt, tools); ``protected`` holds the
    tool_use ids whose results the model has not seen yet; ``keep_from`` is the index of the current
    turn's first message, before which whole exchanges may go."""
    sizes = [estimate(m) for m in messages]

    def total() -> int:
        return int((fixed + sum(sizes)) * scale)

    report = FitReport(total(), 0)
    if report.before <= budget:
        report.after = report.before
        return report
    target = budget * low_water
    names = _tool_names(messages)
    for i, message in enumerate(messages):
        if total() <= target:
            break
        if message["role"] != "user" or not isinstance(message["content"], list):
            continue
        for block in message["content"]:
            if block.get("type") != "tool_result" or block["tool_use_id"] in protected or is_elided(block):
                continue
            name = names.get(block["tool_use_id"], "the tool")
            note = ELIDED_NOTE.format(name=name)
            if estimate(block.get("content") or "") <= text_tokens(note):
                continue  # already shorter than the note
            block["content"] = note
            report.elided += 1
        sizes[i] = estimate(message)
    while total() > target:
        # the first user message after the start that lies within the earlier turns
        cut = next((j for j in range(1, min(keep_from, len(messages) - 1) + 1) if messages[j]["role"] == "user"),
                   None)
        if cut is None:
            break
        del messages[:cut]
        del sizes[:cut]
        keep_from -= cut
        report.dropped += cut
        first = messages[0]
        content = first["content"] if isinstance(first["content"], list) else [
            {"type": "text", "text": first["content"]}]
        # its tool results answered calls that are gone now
        content = [b for b in content if b.get("type") != "tool_result"]
        if not (content and content[0].get("type") == "text" and content[0].get("text") == DROPPED_NOTE):
            content.insert(0, {"type": "text", "text": DROPPED_NOTE})
        first["content"] = content
        sizes[0] = estimate(first)
    report.after = total()
    return report
