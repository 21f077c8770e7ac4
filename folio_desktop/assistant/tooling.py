"""The tools a bridge can answer, in the Messages API's format, and a runner for them."""

from __future__ import annotations

from collections.abc import Callable

from ..agents import execute_tool_call, get_tool_definitions, to_anthropic_tools

# tools that only a live view can answer, and the bridge member each needs
LIVE_ONLY = {"read_page": "get_page_text", "read_selection": "get_selection_text",
             "scroll_to_block": "scroll_to_block", "show_in_document": "show_in_document"}


def anthropic_tools_for(bridge) -> list[dict]:
    """The tool definitions for this bridge: a live-only tool is offered only where it works, so a
    headless run never tempts the model with read_page."""
    keep = [d for d in get_tool_definitions()
            if d["name"] not in LIVE_ONLY or callable(getattr(bridge, LIVE_ONLY[d["name"]], None))]
    return to_anthropic_tools(keep)


def tool_runner(bridge) -> Callable[[str, dict], dict]:
    return lambda name, args: execute_tool_call(name, args, bridge)
