"""What each model can take in and give out: its context window and its most output tokens.

The loop sizes every request from these: max_tokens (thinking counts against it) never exceeds what
the model can write, and the conversation is trimmed to fit the window minus that reply. An unknown
model id gets conservative defaults that every current Claude model accepts; if the API still says
a limit is lower (its 400 names the real one), the loop learns it from the error and retries.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

REPLY_TOKENS = 32_000  # the most one reply (thinking + text + tool input) may use, whatever the model allows


@dataclass(frozen=True)
class ModelLimits:
    context_window: int  # input + output tokens the model can hold
    max_output: int  # the highest max_tokens the API accepts for the model


# model id prefix -> limits, as published in Anthropic's models overview
KNOWN_MODELS = {
    "claude-opus-5-5": ModelLimits(1_000_000, 128_000),
    "claude-opus-5": ModelLimits(1_000_000, 128_000),
    "claude-sonnet-5-5": ModelLimits(1_000_000, 128_000),
    "claude-sonnet-5": ModelLimits(1_000_000, 128_000),
    "claude-opus-4-8": ModelLimits(1_000_000, 128_000),
    "claude-opus-4-7": ModelLimits(1_000_000, 128_000),
    "claude-opus-4-6": ModelLimits(200_000, 128_000),
    "claude-sonnet-4-6": ModelLimits(200_000, 64_000),  # 1M only with a beta header this app does not send
    "claude-opus-4-5": ModelLimits(200_000, 64_000),
    "claude-sonnet-4-5": ModelLimits(200_000, 64_000),
    "claude-haiku-4-5": ModelLimits(200_000, 64_000),
    "claude-opus-4-1": ModelLimits(200_000, 32_000),
    "claude-opus-4": ModelLimits(200_000, 32_000),
    "claude-sonnet-4": ModelLimits(200_000, 64_000),
    "claude-3-7-sonnet": ModelLimits(200_000, 64_000),
    "claude-3-5-sonnet": ModelLimits(200_000, 8_192),
    "claude-3-5-haiku": ModelLimits(200_000, 8_192),
    "claude-3-opus": ModelLimits(200_000, 4_096),
    "claude-3-haiku": ModelLimits(200_000, 4_096),
}
DEFAULT_LIMITS = ModelLimits(200_000, 16_000)  # every Claude model since 3.5 holds at least this


def anthropic_model_id(model: str) -> str:
    """The Anthropic id inside a cloud's: Bedrock's "us.anthropic.claude-sonnet-4-5-20250929-v1:0" and
    Vertex's "claude-sonnet-4-5@20250929" are both "claude-sonnet-4-5..." here."""
    model = model.rpartition("anthropic.")[2].partition("@")[0]
    return re.sub(r"-v\d+(:\d+)?$", "", model)


def by_model(table: dict, model: str):
    """table's entry for the model (a cloud's id read as the Anthropic one), by the longest matching
    prefix, so "claude-opus-4-1-20250805" is not read as "claude-opus-4"; None when none matches."""
    model = anthropic_model_id(model)
    for prefix in sorted(table, key=len, reverse=True):
        if model == prefix or model.startswith(prefix + "-"):
            return table[prefix]
    return None


def limits_for(model: str) -> ModelLimits:
    return by_model(KNOWN_MODELS, model) or DEFAULT_LIMITS


def reply_tokens(limits: ModelLimits, thinking_budget: int | None = None) -> int:
    """max_tokens for one request: the model's ceiling, capped at REPLY_TOKENS, and always above a
    thinking budget (thinking tokens are part of max_tokens)."""
    tokens = min(limits.max_output, REPLY_TOKENS)
    if thinking_budget:
        tokens = min(limits.max_output, max(tokens, thinking_budget + 4_096))
    return tokens
