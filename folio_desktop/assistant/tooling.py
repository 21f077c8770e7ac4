"""The tools a bridge can answer, in the Messages API's format, and a runner for them."""

from __future__ import annotations

from collections.abc import Callable

from ..agents import execute_tool_call, get_tool_definitions, to_anthropic_tools

# tools that only a live view can answer, and the bridge member each needs
LIVE_ONLY = {"read_page": "get_page_text", "read_selection": "get_selection_text",
             "scroll_to_block": "scroll_to_block", "show_in_document": "show_in_document"}
# every tool a bridge may lack, and the member it needs: the live-only ones, and the contract checks (this
# project's own tool), which a bridge over a reviewer answers and an editor's ref bridge does not
NEEDS = {**LIVE_ONLY, "check_document": "check_document"}


def anthropic_tools_for(bridge) -> list[dict]:
    """The tool definitions for this bridge: a tool it may lack (NEEDS) is offered only where it works,
    so a headless run never tempts the model with read_page."""
    keep = [d for d in get_tool_definitions()
            if d["name"] not in NEEDS or callable(getattr(bridge, NEEDS[d["name"]], None))]
    return to_anthropic_tools(keep)


def tool_runner(bridge) -> Callable[[str, dict], dict]:
    return lambda name, args: execute_tool_call(name, args, bridge)
