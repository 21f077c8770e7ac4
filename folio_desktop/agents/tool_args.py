"""Checking a tool's arguments: the sentences the model reads when it sends something wrong.

An argument a tool does not know is refused with the valid ones named: silently ignoring
`{"maxBlocks": 50}` on a tool that has no such argument would hand the model a result it did not
ask for and let it believe otherwise.
"""

from __future__ import annotations


class ToolError(Exception):
    """A tool's answer that is an error sentence for the model."""


def possessive(tool: str) -> str:
    """`read_section's`, but `read_comments'` (the reference's wording)."""
    return f"{tool}'" if tool.endswith("s") else f"{tool}'s"


def require_object(tool: str, args, message: str | None = None) -> dict:
    if args is None:
        return {}
    if not isinstance(args, dict):
        raise ToolError(message or f"{tool} expects an object of arguments.")
    return args


def refuse_unknown(tool: str, args: dict, allowed: tuple[str, ...]) -> None:
    unknown = [k for k in args if k not in allowed]
    if not unknown:
        return
    names = ", ".join(f"`{k}`" for k in unknown)
    valid = ", ".join(f"`{k}`" for k in allowed) if allowed else "none"
    raise ToolError(f"{tool} does not take {names}; its arguments are: {valid}. Send the call again without "
                    f"{'them' if len(unknown) > 1 else 'it'}.")


def int_arg(tool: str, args: dict, key: str, default: int, lo: int, hi: int | None = None) -> int:
    value = args.get(key, default)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < lo or (hi is not None and value > hi):
        span = f"from {lo} to {hi}" if hi is not None else f">= {lo}"
        raise ToolError(f"{possessive(tool)} `{key}` must be an integer {span}.")
    return value


def str_arg(tool: str, args: dict, key: str) -> str | None:
    if key not in args:
        return None
    value = args[key]
    if not isinstance(value, str) or not value:
        raise ToolError(f"{possessive(tool)} `{key}` must be a non-empty string when provided.")
    return value


def choice_arg(tool: str, args: dict, key: str, choices: tuple[str, ...], default: str) -> str:
    value = args.get(key, default)
    if value not in choices:
        options = ", ".join(f'"{c}"' for c in choices)
        raise ToolError(f"{possessive(tool)} `{key}` must be one of {options} when provided.")
    return value
