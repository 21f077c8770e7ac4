"""`folio-desktop mcp FILE` driven by the official MCP SDK's own client over stdio (issue 17, point 1):
tools with their schemas, the outline as a resource, find, suggest a change, comment; the saved .docx
holds them as tracked changes and comments under the author; bad arguments are tool errors in words."""

import json
import shutil
import subprocess
import sys

import anyio
import pytest
from conftest import CORPUS, ROOT
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from folio_desktop.docx import DocxReviewer

PILOT = CORPUS / "contract_commonpaper_pilot_agreement.docx"
pytestmark = pytest.mark.timeout(120)


def serve(path, *extra):
    return StdioServerParameters(command=sys.executable, args=["-m", "folio_desktop", "mcp", str(path), *extra],
                                 cwd=str(ROOT))


def run(coro):
    return anyio.run(coro)


def test_a_client_lists_reads_finds_suggests_and_comments_and_the_file_holds_them(tmp_path):
    src, out = tmp_path / "pilot.docx", tmp_path / "pilot reviewed.docx"
    shutil.copy(PILOT, src)
    before = src.read_bytes()

    async def session():
        async with stdio_client(serve(src, "--author", "Counsel", "--save-to", str(out))) as streams:
            async with ClientSession(*streams) as s:
                await s.initialize()
                tools = {t.name: t for t in (await s.list_tools()).tools}
                assert {"read_document", "find_text", "suggest_changes", "add_comment"} <= set(tools)
                assert "read_page" not in tools  # a live-view tool: nothing to answer it without the window
                assert tools["find_text"].input_schema["required"] == ["query"]
                outline = (await s.read_resource("folio://document/outline")).contents[0].text
                assert '"displayLabel": "1."' in outline and "Pilot Access" in outline
                found = await s.call_tool("find_text", {"query": "Pilot Period"})
                assert not found.is_error
                block = json.loads(found.content[0].text)["blocks"][0]
                match = dict(block["matches"][0], blockId=block["blockId"])
                changed = await s.call_tool("suggest_changes", {"operations": [
                    {"type": "replaceRange", "range": match["range"], "replace": "Trial Period"}]})
                assert not changed.is_error and "saved to" in changed.content[-1].text
                commented = await s.call_tool("add_comment", {"blockId": match["blockId"], "text": "Why trial?"})
                assert not commented.is_error
                bad = await s.call_tool("find_text", {"quer": "x"})
                assert bad.is_error and "query" in bad.content[0].text
    run(session)
    assert src.read_bytes() == before  # the input is never written
    saved = DocxReviewer.open(out)
    changes = saved.get_changes()
    ours = [(c.type, c.text) for c in changes if c.author == "Counsel"]
    assert ("insertion", "Trial") in ours and ("deletion", "Pilot") in ours, ours
    assert [c.text for c in saved.get_comments(author="Counsel")] == ["Why trial?"]


def test_a_file_changed_on_disk_behind_the_server_is_told_not_worked_on(tmp_path):
    src, out = tmp_path / "pilot.docx", tmp_path / "out.docx"
    shutil.copy(PILOT, src)

    async def session():
        async with stdio_client(serve(src, "--save-to", str(out))) as streams:
            async with ClientSession(*streams) as s:
                await s.initialize()
                assert not (await s.call_tool("find_text", {"query": "Pilot"})).is_error
                src.write_bytes(src.read_bytes() + b"\0")  # another program rewrites the file
                told = await s.call_tool("find_text", {"query": "Pilot"})
                assert told.is_error and "changed or removed by another program" in told.content[0].text
                edit = await s.call_tool("add_comment", {"blockId": "00000000", "text": "x"})
                assert edit.is_error and "Restart the MCP server" in edit.content[0].text
    run(session)
    assert not out.exists()  # nothing was saved from the stale document


def test_the_server_outlives_a_client_that_leaves_mid_call(tmp_path):
    src, out = tmp_path / "pilot.docx", tmp_path / "out.docx"
    shutil.copy(PILOT, src)
    log = tmp_path / "server stderr.txt"

    async def leave_mid_call(errors):
        async with stdio_client(serve(src, "--save-to", str(out)), errlog=errors) as streams:
            async with ClientSession(*streams) as s:
                await s.initialize()
                with anyio.move_on_after(0.02):  # gone before the answer comes back
                    await s.call_tool("read_document", {"maxBlocks": 200})

    async def come_back(errors):
        async with stdio_client(serve(src, "--save-to", str(out)), errlog=errors) as streams:
            async with ClientSession(*streams) as s:
                await s.initialize()
                found = await s.call_tool("find_text", {"query": "Pilot Period"})
                assert not found.is_error and json.loads(found.content[0].text)["blocks"]
    with log.open("w") as errors:
        anyio.run(leave_mid_call, errors)
        anyio.run(come_back, errors)
    assert "Traceback" not in log.read_text()


def one_call(path, out, name, args, *extra):
    """One client run, as a client that restarts its server between calls makes: start, one call, stop."""
    async def session():
        async with stdio_client(serve(path, "--save-to", str(out), *extra)) as streams:
            async with ClientSession(*streams) as s:
                await s.initialize()
                answer = await s.call_tool(name, args)
                assert not answer.is_error, answer.content[0].text
                return answer
    return run(session)


def refused(path, out, *extra):
    """A start that must be refused: the exit code and what stderr says."""
    proc = subprocess.run([sys.executable, "-m", "folio_desktop", "mcp", str(path), "--save-to", str(out), *extra],
                          cwd=str(ROOT), stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    return proc.returncode, proc.stderr


def test_each_run_carries_on_from_the_saved_review_and_other_outputs_are_refused(tmp_path):
    src, out = tmp_path / "pilot.docx", tmp_path / "pilot reviewed.docx"
    shutil.copy(PILOT, src)
    block = DocxReviewer.open(src).snapshot().content_blocks[3].id
    one_call(src, out, "add_comment", {"blockId": block, "text": "First run's comment"})
    second = one_call(src, out, "find_text", {"query": "Pilot Period"})
    match = json.loads(second.content[0].text)["blocks"][0]["matches"][0]
    one_call(src, out, "suggest_changes", {"operations": [
        {"type": "replaceRange", "range": match["range"], "replace": "Trial Period"}]})
    saved = DocxReviewer.open(out)  # both runs' edits are there
    assert [c.text for c in saved.get_comments(author="Claude")] == ["First run's comment"]
    assert ("insertion", "Trial") in [(c.type, c.text) for c in saved.get_changes()]

    other = tmp_path / "stella reviewed.docx"  # a review of another document
    shutil.copy(CORPUS / "folio" / "contract-stella-style.docx", other)
    before = other.read_bytes()
    code, said = refused(src, other)
    assert code != 0 and f"{other} already exists and is not a review of pilot.docx" in said, said
    assert "--save-to" in said and "--overwrite" in said
    assert other.read_bytes() == before

    src.write_bytes(src.read_bytes() + b"\0")  # the input changed since the review was saved
    code, said = refused(src, out)
    assert code != 0 and "review of an earlier version of pilot.docx" in said, said

    shutil.copy(PILOT, src)
    one_call(src, out, "add_comment", {"blockId": block, "text": "Fresh start"}, "--overwrite")
    assert [c.text for c in DocxReviewer.open(out).get_comments(author="Claude")] == ["Fresh start"]


READS = {"read_document", "get_document_outline", "read_section", "list_stories", "read_story", "find_text",
         "read_comments", "read_changes", "check_document"}


def check_annotations(tools) -> None:
    """What every client is told besides the schema: a title for people, and the MCP hints by which it
    auto-approves reads and asks before a tool that changes the file's state directly."""
    for tool in tools:
        hints = tool.annotations
        assert tool.title and hints is not None and hints.title == tool.title, tool.name
        assert hints.open_world_hint is False, tool.name
    by_name = {t.name: t.annotations for t in tools}
    for name in READS & set(by_name):
        assert by_name[name].read_only_hint is True and by_name[name].destructive_hint is False, name
    for name in ("suggest_changes", "add_comment", "reply_comment"):  # proposals: nothing is lost
        assert (by_name[name].read_only_hint, by_name[name].destructive_hint) == (False, False), name
    assert (by_name["resolve_comment"].read_only_hint, by_name["resolve_comment"].destructive_hint) == (False, True)
    assert by_name["check_document"].idempotent_hint is True  # the same document, the same findings
    assert by_name["suggest_changes"].idempotent_hint is False and by_name["resolve_comment"].idempotent_hint is True


def test_tools_carry_titles_and_hints_and_an_unknown_name_lists_only_the_tools_served(tmp_path):
    src = tmp_path / "pilot.docx"
    shutil.copy(PILOT, src)

    async def session():
        async with stdio_client(serve(src, "--save-to", str(tmp_path / "out.docx"))) as streams:
            async with ClientSession(*streams) as s:
                await s.initialize()
                tools = (await s.list_tools()).tools
                check_annotations(tools)
                titles = {t.name: t.title for t in tools}
                assert titles["resolve_comment"] == "Resolve or reopen a comment"
                assert titles["find_text"] == "Find text"
                served = [t.name for t in tools]
                assert len(served) == 13  # the reference's 16 but the 4 live-view ones, and check_document
                unknown = await s.call_tool("delete_everything", {})
                assert unknown.is_error
                assert unknown.content[0].text == f'Unknown tool "delete_everything". Valid tools: {", ".join(served)}.'
                for live_only in ("read_page", "read_selection", "scroll_to_block", "show_in_document"):
                    assert live_only not in unknown.content[0].text
                # a live-view tool by name is still told why it is not here
                page = await s.call_tool("read_page", {"page": 1})
                assert page.is_error and "open in the folio-desktop window" in page.content[0].text
    run(session)


def test_a_client_checks_the_contract_and_reads_each_finding_with_its_clause(tmp_path):
    """check_document, this project's own tool, through the real MCP client over stdio: listed with its
    title, read-only, and answering the findings with their clause numbers, totals and a cursor."""
    src, out = tmp_path / "pilot.docx", tmp_path / "out.docx"
    shutil.copy(PILOT, src)

    async def session():
        async with stdio_client(serve(src, "--save-to", str(out))) as streams:
            async with ClientSession(*streams) as s:
                await s.initialize()
                tools = {t.name: t for t in (await s.list_tools()).tools}
                check = tools["check_document"]
                assert "folio-desktop's own" in check.description and check.annotations.read_only_hint is True
                assert check.title == "Check terms, references, blanks and numbering"
                first = await s.call_tool("check_document", {})
                assert not first.is_error
                report = json.loads(first.content[0].text)
                bad = await s.call_tool("check_document", {"offset": "next"})
                assert bad.is_error and "`offset` must be an integer" in bad.content[0].text
                return report
    report = run(session)
    texts = {(f["kind"], f["text"]) for f in report["findings"]}
    assert ("placeholder", "{product_description}") in texts and ("undefinedTerm", "Usage Data") in texts
    assert report["totalFindings"] == sum(report["counts"].values()) and "truncated" in report
    assert any(f.get("displayLabel") for f in report["findings"])  # clause numbers come with the findings
    assert not out.exists()  # a read changes nothing, so nothing is saved
