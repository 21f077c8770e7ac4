"""`folio-desktop --self-test`: check, without a window, that this installation works end to end.

Opens the bundled sample contract, lays it out, proposes a tracked insertion, saves to a temporary
folder, reopens the copy and finds the insertion again. It also loads the Claude client library,
which the app only imports when the first message is sent, and serves the copy to the MCP SDK's own
client over HTTP on 127.0.0.1 (as Share with an MCP client does), so a build missing either fails here
rather than in front of the lawyer. One line per step; the first failure ends the run with exit code 1.
Made for the frozen app, where a missing module or data file shows only at run time.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from . import APP_NAME, __version__

AUTHOR = "folio self-test"
INSERTED = "This clause was inserted by the folio-desktop self-test."


class StepFailed(Exception):
    pass


def _check(condition: bool, message: str) -> None:
    if not condition:
        raise StepFailed(message)


def _open_sample(state: dict) -> str:
    from .assets import sample_contract_path
    from .docx import DocxReviewer

    path = sample_contract_path()
    _check(path.is_file(), f"the bundled sample contract is missing (looked at {path})")
    state["reviewer"] = rev = DocxReviewer.open(path, author=AUTHOR)
    blocks = rev.snapshot().content_blocks
    _check(bool(blocks), f"{path.name} opened but has no paragraphs")
    return f"opened sample ({len(blocks)} blocks)"


def _gui_app():
    # Layout needs fonts, not a screen: offscreen also works where no display (or its libraries) exists.
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication

    return QGuiApplication.instance() or QGuiApplication([APP_NAME])


def _lay_out(state: dict) -> str:
    from .layout import layout_document

    state["app"] = _gui_app()
    lay = layout_document(state["reviewer"].document)
    _check(lay.page_count >= 1, "the layout produced no pages")
    _check(bool(lay.page_text(1).strip()), "page 1 of the layout has no text")
    state["pages"] = lay.page_count
    return f"laid out {lay.page_count} page(s) on the {state['app'].platformName()} platform"


def _track_change(state: dict) -> str:
    rev = state["reviewer"]
    anchor = next(b for b in rev.snapshot().content_blocks if b.text.strip())
    before = len(rev.get_changes())
    batch = {"version": 1, "mode": "tracked-changes",
             "operations": [{"type": "insertAfterBlock", "blockId": anchor.id, "text": INSERTED}]}
    result = rev.apply_document_operations(batch)
    _check(result["status"] == "committed" and len(result["applied"]) == 1,
           f"the insertion was not applied: {result['skipped'] or result['status']}")
    _check(len(rev.get_changes()) > before, "the insertion did not become a tracked change")
    return f"applied a tracked insertion after block {anchor.id}"


def _save(state: dict) -> str:
    folder = state["tmp"] = tempfile.TemporaryDirectory(prefix="folio-self-test-")
    target = Path(folder.name) / "self-test.docx"
    state["reviewer"].save(target)
    _check(target.stat().st_size > 0, f"{target} is empty after saving")
    state["saved"] = target
    return f"saved to a temporary folder ({target.stat().st_size:,} bytes)"


def _reopen(state: dict) -> str:
    from .docx import DocxReviewer
    from .layout import layout_document

    rev = DocxReviewer.open(state["saved"])
    mine = [c for c in rev.get_changes() if c.author == AUTHOR and c.type == "insertion"]
    _check(any(INSERTED in c.text for c in mine), "the reopened copy does not have the tracked insertion")
    _check(any(INSERTED in b.text for b in rev.snapshot().content_blocks),
           "the reopened copy does not show the inserted paragraph")
    rev.reject_all()
    _check(all(INSERTED not in b.text for b in rev.snapshot().content_blocks),
           "rejecting the insertion did not remove it")
    pages = layout_document(DocxReviewer.open(state["saved"]).document).page_count
    _check(pages >= state["pages"], f"the reopened copy lays out to {pages} page(s), fewer than before")
    return f"reopened the copy: the tracked insertion is there ({pages} page(s)) and rejects cleanly"


def _claude_client(state: dict) -> str:
    import anthropic

    # Building a client exercises the HTTP stack it brings (httpx, pydantic) without any network.
    client = anthropic.Anthropic(api_key="self-test-no-network", max_retries=0)
    _check(client.messages is not None, "the Claude client has no messages API")
    return f"Claude client library loads (anthropic {anthropic.__version__})"


def _mcp_over_http(state: dict) -> str:
    """What Tools > Share with an MCP client runs: the MCP server over HTTP on 127.0.0.1 behind a token,
    asked by the SDK's own client (uvicorn, starlette and the SDK load their parts at run time)."""
    import secrets

    import anyio

    from .sharing.mcp_http import LocalHttpServer
    from .sharing.mcp_server import SharedDocument, build_server

    token = secrets.token_urlsafe(16)
    shared = SharedDocument(str(state["saved"]), AUTHOR, str(Path(state["tmp"].name) / "mcp-out.docx"))
    server = LocalHttpServer(build_server(shared), token)
    server.start()
    try:
        tools, found = anyio.run(_ask_over_http, server.url, token)
    finally:
        server.stop()
    # the reference's 16 but the 4 that need the window's live view, and this project's check_document
    _check(tools == 13, f"the MCP server offered {tools} tools, not 13")
    _check(found >= 1, "find_text over MCP did not find the inserted clause")
    return f"MCP server over HTTP on 127.0.0.1: {tools} tools, find_text answered"


async def _ask_over_http(url: str, token: str) -> tuple[int, int]:
    import json

    import anyio

    from .sharing.mcp_http import client_session

    with anyio.fail_after(20):
        async with client_session(url, token) as client:
            tools = len((await client.list_tools()).tools)
            answer = await client.call_tool("find_text", {"query": "inserted by the folio-desktop self-test"})
            _check(not answer.is_error, f"find_text over MCP failed: {answer.content[0].text}")
            return tools, json.loads(answer.content[0].text)["totalMatches"]


STEPS = (_open_sample, _lay_out, _track_change, _save, _reopen, _claude_client, _mcp_over_http)


def run_self_test(out=None) -> int:
    out = out or sys.stdout
    frozen = " (frozen)" if getattr(sys, "frozen", False) else ""
    print(f"{APP_NAME} {__version__}{frozen} self-test", file=out, flush=True)
    state: dict = {}
    try:
        for step in STEPS:
            try:
                line = step(state)
            except StepFailed as exc:
                print(f"FAIL {step.__name__.strip('_').replace('_', ' ')}: {exc}", file=out, flush=True)
                return 1
            except Exception as exc:  # noqa: BLE001 - report any breakage as a failed step, not a trace
                print(f"FAIL {step.__name__.strip('_').replace('_', ' ')}: {type(exc).__name__}: {exc}",
                      file=out, flush=True)
                return 1
            print(f"ok  {line}", file=out, flush=True)
    finally:
        if "tmp" in state:
            state["tmp"].cleanup()
    print("self-test passed", file=out, flush=True)
    return 0
