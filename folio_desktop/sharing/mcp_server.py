"""`folio-desktop mcp FILE`: the document's tools for any MCP client (Claude Desktop, Claude Code), over stdio.

Every edit lands as a tracked change or a comment, as in the app. After each call that changed the document
the whole package is written atomically to the output (never over the input unless it is the output asked
for). When another program changes the input behind the server, every later call says so instead of working
on a version the lawyer no longer has."""

from __future__ import annotations

import json
import os
from pathlib import Path

import mcp_types as types
from mcp.server import Server
from mcp.server.stdio import stdio_server

from .. import __version__
from ..agents import create_reviewer_bridge, execute_tool_call, get_tool_definitions
from ..assistant.prompts import system_prompt
from ..assistant.tooling import LIVE_ONLY
from ..docx import DocxError, DocxReviewer
from ..docx.package.files import file_digest

OUTLINE_URI = "folio://document/outline"
STORIES_URI = "folio://document/stories"


class SharedDocument:
    """One document served to one client: the reviewer, its bridge, and where edits are saved."""

    def __init__(self, path: str, author: str, save_to: str | None):
        self.path = os.path.abspath(path)
        self.reviewer = DocxReviewer.open(self.path, author=author)
        self.bridge = create_reviewer_bridge(self.reviewer)
        self.save_to = os.path.abspath(save_to) if save_to else _default_output(self.path)
        self._saved_version = self.reviewer.document.version
        self._input_stat = _stat(self.path)
        self._input_digest = file_digest(self.path)

    def tools(self) -> list[types.Tool]:
        return [types.Tool(name=d["name"], description=d["description"], input_schema=d["inputSchema"])
                for d in get_tool_definitions() if d["name"] not in LIVE_ONLY]

    def call(self, name: str, arguments: dict) -> types.CallToolResult:
        changed = self._input_changed()
        if changed:
            return _error(changed)
        if name in LIVE_ONLY:
            return _error(f"{name} needs the document open in the folio-desktop window; it is not available here.")
        outcome = execute_tool_call(name, arguments or {}, self.bridge)
        if not outcome.get("ok"):
            return _error(outcome.get("error") or f"{name} failed.")
        text = json.dumps(outcome["result"], ensure_ascii=False)
        if self.reviewer.document.version != self._saved_version:
            try:
                self.reviewer.save(self.save_to)
            except (DocxError, OSError) as exc:
                return _error(f"The change was made but could not be saved to {self.save_to}: {exc}")
            self._saved_version = self.reviewer.document.version
            text += f"\n(saved to {self.save_to})"
        return types.CallToolResult(content=[types.TextContent(type="text", text=text)])

    def _input_changed(self) -> str | None:
        """Why the server must stop working on the document, when its file changed on disk since it opened."""
        now = _stat(self.path)
        if now == self._input_stat:
            return None
        if now is not None and file_digest(self.path) == self._input_digest:
            self._input_stat = now  # touched, not changed
            return None
        return (f"{self.path} was changed or removed by another program after this server opened it, so the "
                "document here is no longer the one on disk. Restart the MCP server to review the file as it is now"
                + (f"; the edits made so far are in {self.save_to}." if os.path.exists(self.save_to) else "."))


def _stat(path: str) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


def _default_output(path: str) -> str:
    p = Path(path)
    return str(p.with_name(f"{p.stem} (reviewed){p.suffix}"))


def _error(message: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=message)], is_error=True)


def build_server(shared: SharedDocument) -> Server:
    async def list_tools(ctx, params):
        return types.ListToolsResult(tools=shared.tools())

    async def call_tool(ctx, params):
        return shared.call(params.name, dict(params.arguments or {}))

    async def list_resources(ctx, params):
        return types.ListResourcesResult(resources=[
            types.Resource(uri=OUTLINE_URI, name="outline", mime_type="application/json",
                           description="The document's headings with their clause numbers and section handles."),
            types.Resource(uri=STORIES_URI, name="stories", mime_type="application/json",
                           description="The document's stories: main text, headers, footers, notes, comments."),
        ])

    async def read_resource(ctx, params):
        uri = str(params.uri)
        tool = {OUTLINE_URI: "get_document_outline", STORIES_URI: "list_stories"}.get(uri)
        if tool is None:
            raise ValueError(f"No resource {uri}; the resources are {OUTLINE_URI} and {STORIES_URI}.")
        outcome = execute_tool_call(tool, {}, shared.bridge)
        return types.ReadResourceResult(contents=[types.TextResourceContents(
            uri=uri, mime_type="application/json", text=json.dumps(outcome.get("result"), ensure_ascii=False))])

    async def list_prompts(ctx, params):
        return types.ListPromptsResult(prompts=[types.Prompt(
            name="review_contract", description="Review this contract as a careful lawyer would, with tracked changes.")])

    async def get_prompt(ctx, params):
        return types.GetPromptResult(description="Contract review", messages=[types.PromptMessage(
            role="user", content=types.TextContent(type="text", text=system_prompt()))])

    return Server("folio-desktop", version=__version__, on_list_tools=list_tools, on_call_tool=call_tool,
                  on_list_resources=list_resources, on_read_resource=read_resource,
                  on_list_prompts=list_prompts, on_get_prompt=get_prompt)


async def serve_stdio(shared: SharedDocument) -> None:
    server = build_server(shared)
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())
