"""The document's tools for any MCP client (Claude Desktop, Claude Code): the MCP server, and
`folio-desktop mcp FILE`, one document served over stdio without a window.

build_server serves whatever host it is given: SharedDocument here (headless), or the app's live share
(ui/chat/mcp_share.py), whose calls run on the GUI thread. A host's call blocks, so it runs in a worker
thread and the server's event loop keeps answering other requests meanwhile.

Headless, every edit lands as a tracked change or a comment, as in the app. After each call that changed
the document the whole package is written atomically to the output (never over the input unless it is the
output asked for). The output says which document it is a review of (review_record.py), so a server the
client restarts carries on from it instead of starting again from the input and writing over the edits
made so far. When another program changes the input behind the server, every later call says so instead
of working on a version the lawyer no longer has."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Protocol

import anyio
import mcp_types as types
from mcp.server import Server
from mcp.server.stdio import stdio_server

from .. import __version__
from ..agents import TOOL_NAMES, create_reviewer_bridge, execute_tool_call, get_tool_definitions
from ..assistant.prompts import system_prompt
from ..assistant.tooling import LIVE_ONLY
from ..docx import DocxError, DocxReviewer
from ..docx.package.files import file_digest, read_document_file
from .review_record import record_source, review_start, same_file
from .tool_annotations import annotations_of, title_of

OUTLINE_URI = "folio://document/outline"
STORIES_URI = "folio://document/stories"
RESOURCE_TOOLS = {OUTLINE_URI: "get_document_outline", STORIES_URI: "list_stories"}


class ToolHost(Protocol):
    """What build_server serves: the tools on offer, and a blocking call that any thread may make."""

    def tools(self) -> list[types.Tool]: ...

    def call(self, name: str, arguments: dict, client: Client) -> types.CallToolResult: ...


class Client:
    """Who is calling: the name the client gave when it connected ("claude-code", "Claude Desktop")."""

    def __init__(self, name: str):
        self.name = name

    @classmethod
    def of(cls, ctx) -> Client:
        params = getattr(ctx.session, "client_params", None)
        info = getattr(params, "client_info", None)
        name = " ".join(str(getattr(info, "name", "") or "").split())[:60]
        return cls(name or "An MCP client")


def tool_list(names_left_out=()) -> list[types.Tool]:
    return [types.Tool(name=d["name"], title=title_of(d["name"]), description=d["description"],
                       input_schema=d["inputSchema"], annotations=annotations_of(d["name"]))
            for d in get_tool_definitions() if d["name"] not in names_left_out]


def unknown_tool(name: str, served: list[types.Tool]) -> types.CallToolResult:
    """A name that is no tool at all, answered with the tools this server serves (not every tool there is)."""
    return error_result(f'Unknown tool "{name}". Valid tools: {", ".join(t.name for t in served)}.')


def outcome_result(outcome: dict, name: str) -> types.CallToolResult:
    """A tool's envelope as an MCP result: its JSON, or its error in words."""
    if not outcome.get("ok"):
        return error_result(outcome.get("error") or f"{name} failed.")
    return types.CallToolResult(content=[types.TextContent(type="text", text=json.dumps(
        outcome["result"], ensure_ascii=False))])


class SharedDocument:
    """One document served to one client: the reviewer, its bridge, and where edits are saved.

    The review starts from the output when it already holds a review of this input as it is now (the
    server was restarted), else from the input; `overwrite` starts from the input whatever the output
    holds. Raises ReviewRefused when the output holds anything else, DocxError when a file cannot be read."""

    def __init__(self, path: str, author: str, save_to: str | None, overwrite: bool = False):
        self.path = os.path.abspath(path)
        self.save_to = os.path.abspath(save_to) if save_to else _default_output(self.path)
        self._input_stat = _stat(self.path)
        self._input_digest = file_digest(self.path)
        if self._input_digest is None:
            read_document_file(self.path)  # says why it cannot be read, before anything is said about the output
        start = review_start(self.path, self.save_to, self._input_digest or "", overwrite)
        self.continued = start != self.path  # the edits of an earlier run are there
        self.reviewer = DocxReviewer.open(start, author=author)
        if not self._saves_over_input() and self._input_digest:
            record_source(self.reviewer.document.package, os.path.basename(self.path), self._input_digest)
        self.bridge = create_reviewer_bridge(self.reviewer)
        self._saved_version = self.reviewer.document.version
        self._lock = threading.Lock()  # calls come from worker threads; one runs at a time

    def tools(self) -> list[types.Tool]:
        return tool_list(LIVE_ONLY)

    def call(self, name: str, arguments: dict, client: Client | None = None) -> types.CallToolResult:
        with self._lock:
            return self._call(name, arguments)

    def _call(self, name: str, arguments: dict) -> types.CallToolResult:
        changed = self._input_changed()
        if changed:
            return error_result(changed)
        if name in LIVE_ONLY:
            return error_result(f"{name} needs the document open in the folio-desktop window; it is not available "
                                "here.")
        result = outcome_result(execute_tool_call(name, arguments or {}, self.bridge), name)
        if result.is_error or self.reviewer.document.version == self._saved_version:
            return result
        try:
            self.reviewer.save(self.save_to)
        except (DocxError, OSError) as exc:
            return error_result(f"The change was made but could not be saved to {self.save_to}: {exc}")
        self._saved_version = self.reviewer.document.version
        if self._saves_over_input():  # our own write is not another program's change
            self._input_stat, self._input_digest = _stat(self.path), file_digest(self.path)
        result.content.append(types.TextContent(type="text", text=f"(saved to {self.save_to})"))
        return result

    def _saves_over_input(self) -> bool:
        return os.path.normcase(self.save_to) == os.path.normcase(self.path) or same_file(self.save_to, self.path)

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


def error_result(message: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=message)], is_error=True)


def build_server(host: ToolHost) -> Server:
    async def list_tools(ctx, params):
        return types.ListToolsResult(tools=host.tools())

    async def call_tool(ctx, params):
        if params.name not in TOOL_NAMES:
            return unknown_tool(params.name, host.tools())
        client = Client.of(ctx)
        return await anyio.to_thread.run_sync(host.call, params.name, dict(params.arguments or {}), client)

    async def list_resources(ctx, params):
        return types.ListResourcesResult(resources=[
            types.Resource(uri=OUTLINE_URI, name="outline", mime_type="application/json",
                           description="The document's headings with their clause numbers and section handles."),
            types.Resource(uri=STORIES_URI, name="stories", mime_type="application/json",
                           description="The document's stories: main text, headers, footers, notes, comments."),
        ])

    async def read_resource(ctx, params):
        uri = str(params.uri)
        tool = RESOURCE_TOOLS.get(uri)
        if tool is None:
            raise ValueError(f"No resource {uri}; the resources are {OUTLINE_URI} and {STORIES_URI}.")
        result = await anyio.to_thread.run_sync(host.call, tool, {}, Client.of(ctx))
        text = result.content[0].text if result.content else ""
        if result.is_error:
            raise ValueError(text)
        return types.ReadResourceResult(contents=[types.TextResourceContents(
            uri=uri, mime_type="application/json", text=text)])

    async def list_prompts(ctx, params):
        return types.ListPromptsResult(prompts=[types.Prompt(
            name="review_contract", description="Review this contract as a careful lawyer would, with tracked changes.")])

    async def get_prompt(ctx, params):
        return types.GetPromptResult(description="Contract review", messages=[types.PromptMessage(
            role="user", content=types.TextContent(type="text", text=system_prompt()))])

    return Server("folio-desktop", version=__version__, on_list_tools=list_tools, on_call_tool=call_tool,
                  on_list_resources=list_resources, on_read_resource=read_resource,
                  on_list_prompts=list_prompts, on_get_prompt=get_prompt)


async def serve_stdio(host: ToolHost) -> None:
    server = build_server(host)
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())
