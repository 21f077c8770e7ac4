"""The read tools keep what every page needs once per document version (agents/read_views.py): a read
made after any change shows that change, whichever way the document changed (an edit, accept, reject,
a comment and its thread, undo, a restored checkpoint, a typed edit that patches the snapshot), and
what is kept goes with the document."""

from __future__ import annotations

import gc
import weakref

import pytest
from conftest import err, ok
from docbuilder import build_docx

from folio_desktop.agents import create_reviewer_bridge, execute_tool_call
from folio_desktop.docx import DocxReviewer
from folio_desktop.docx.package.ooxml import w

INS = '<w:ins w:id="901" w:author="Counsel" w:date="2024-01-01T00:00:00Z"><w:r><w:t xml:space="preserve">{}</w:t></w:r></w:ins>'


def para(pid: str, text: str, level: int | None = None, extra: str = "") -> str:
    ppr = f'<w:pPr><w:outlineLvl w:val="{level}"/></w:pPr>' if level is not None else ""
    return (f'<w:p w14:paraId="{pid}" w14:textId="{pid}">{ppr}<w:r><w:t xml:space="preserve">{text}</w:t></w:r>'
            f"{extra}</w:p>")


BODY = (para("10000001", "Payment", 0)
        + para("10000002", "The Purchaser shall pay the Price within thirty days. ", extra=INS.format("in cash"))
        + para("10000003", "Late amounts bear interest at the Rate.")
        + para("10000004", "Delivery", 0)
        + para("10000005", "The Seller shall deliver the Goods to the Purchaser."))
A, B, C, D, E = "10000001", "10000002", "10000003", "10000004", "10000005"


@pytest.fixture
def session():
    rev = DocxReviewer.from_bytes(build_docx(BODY), author="Claude")
    return rev, create_reviewer_bridge(rev)


def read(bridge, tool: str, args: dict | None = None) -> dict:
    return ok(execute_tool_call(tool, args or {}, bridge))


def block(bridge, block_id: str, view: str = "accepted") -> dict | None:
    return next((b for b in read(bridge, "read_document", {"view": view})["blocks"] if b["blockId"] == block_id), None)


def heading(bridge, block_id: str) -> dict:
    return next(s for s in read(bridge, "get_document_outline")["sections"]
                if s["handle"]["headingBlockId"] == block_id)


def warm(bridge) -> None:
    """Every read once, so each has kept what it needs for this version."""
    for tool, args in (("read_document", {}), ("read_document", {"view": "redline"}), ("get_document_outline", {}),
                       ("find_text", {"query": "Purchaser"}), ("find_text", {"query": "Fee"}),
                       ("read_changes", {}), ("read_comments", {}), ("read_comments", {"filter": "open"}),
                       ("list_stories", {}), ("read_story", {"handle": {"type": "main"}})):
        read(bridge, tool, args)
    read(bridge, "read_section", {"handle": heading(bridge, A)["handle"]})


def suggest(bridge, block_id: str, find: str, replace: str) -> dict:
    return read(bridge, "suggest_changes", {"operations": [
        {"type": "replaceInBlock", "blockId": block_id, "find": find, "replace": replace}]})


def test_an_edit_shows_in_every_read_after_it(session):
    rev, bridge = session
    warm(bridge)
    before = block(bridge, B)
    assert before["pending"] == {"insertions": 1, "authors": ["Counsel"]}
    assert read(bridge, "find_text", {"query": "Fee"})["totalMatches"] == 0
    assert len(suggest(bridge, B, "Price", "Fee")["applied"]) == 1

    after = block(bridge, B)
    assert "the Fee within" in after["text"] and after["blockTextHash"] != before["blockTextHash"]
    assert after["pending"] == {"insertions": 2, "deletions": 1, "authors": ["Claude", "Counsel"]}
    assert '<del author="Claude">Price</del>' in block(bridge, B, "redline")["redline"]
    assert [c["text"] for c in read(bridge, "read_changes")["changes"]] == ["Price", "Fee", "in cash"]
    assert read(bridge, "find_text", {"query": "Fee"})["totalMatches"] == 1
    assert "the Fee within" in read(bridge, "read_story", {"handle": {"type": "main"}})["text"]
    assert "Fee" in read(bridge, "list_stories")["stories"][0]["preview"]
    section = read(bridge, "read_section", {"handle": heading(bridge, A)["handle"]})
    assert "the Fee within" in section["blocks"][1]["text"]


def test_accept_and_reject_show_in_the_reads(session):
    rev, bridge = session
    suggest(bridge, C, "Rate", "Agreed Rate")
    warm(bridge)
    changes = read(bridge, "read_changes")["changes"]
    ours = [c for c in changes if c["blockId"] == C]
    assert ours and [c["text"] for c in changes if c not in ours] == ["in cash"]
    assert rev.accept_change(next(int(c["id"]) for c in changes if c["text"] == "in cash"))  # the lawyer, in the app
    assert block(bridge, B)["text"].endswith("in cash") and "pending" not in block(bridge, B)
    assert read(bridge, "read_changes")["changes"] == ours
    warm(bridge)
    assert rev.reject_changes([int(c["id"]) for c in ours]) == len(ours)
    assert block(bridge, C)["text"] == "Late amounts bear interest at the Rate." and "pending" not in block(bridge, C)
    assert read(bridge, "read_changes")["changes"] == []
    assert read(bridge, "find_text", {"query": "Agreed"})["totalMatches"] == 0


def test_comments_replies_and_resolving_show_in_the_reads(session):
    rev, bridge = session
    warm(bridge)
    assert "comments" not in block(bridge, E)
    read(bridge, "add_comment", {"blockId": E, "text": "Which Goods?"})
    thread = read(bridge, "read_comments")["threads"][0]
    assert thread["text"] == "Which Goods?" and thread["blockId"] == E
    assert block(bridge, E)["comments"] == [thread["id"]]
    assert "<comment" in block(bridge, E, "redline")["redline"]
    warm(bridge)
    read(bridge, "reply_comment", {"commentId": thread["id"], "text": "Those in Schedule 1."})
    assert [r["text"] for r in read(bridge, "read_comments")["threads"][0]["replies"]] == ["Those in Schedule 1."]
    warm(bridge)
    read(bridge, "resolve_comment", {"commentId": thread["id"]})
    assert read(bridge, "read_comments", {"filter": "open"})["threads"] == []
    assert read(bridge, "read_comments", {"filter": "resolved"})["totalThreads"] == 1


def test_undo_and_a_restored_checkpoint_show_in_the_reads(session):
    rev, bridge = session
    start = rev.checkpoint()
    warm(bridge)
    result = bridge.apply_document_operations({"version": 1, "operations": [
        {"id": "op-1", "type": "replaceInBlock", "blockId": E, "find": "Goods", "replace": "Products"}]})
    warm(bridge)
    assert "Products" in block(bridge, E)["text"]
    assert bridge.undo_document_operations(result["undoHandle"])["status"] == "undone"
    assert block(bridge, E)["text"] == "The Seller shall deliver the Goods to the Purchaser."
    assert "pending" not in block(bridge, E) and read(bridge, "find_text", {"query": "Products"})["totalMatches"] == 0

    read(bridge, "add_comment", {"blockId": E, "text": "Check."})
    suggest(bridge, D, "Delivery", "Shipping")
    warm(bridge)
    assert heading(bridge, D)["text"] == "Shipping"
    rev.restore(start)
    assert heading(bridge, D)["text"] == "Delivery"
    assert read(bridge, "read_comments")["threads"] == [] and "comments" not in block(bridge, E)
    assert [c["text"] for c in read(bridge, "read_changes")["changes"]] == ["in cash"]


def test_a_dry_run_leaves_the_reads_as_they_were(session):
    rev, bridge = session
    warm(bridge)
    version = rev.document.version
    result = bridge.apply_document_operations({"version": 1, "dryRun": True, "operations": [
        {"id": "op-1", "type": "replaceInBlock", "blockId": E, "find": "Goods", "replace": "Products"}]})
    assert result["status"] == "previewed" and rev.document.version == version
    assert "Products" not in block(bridge, E)["text"] and "pending" not in block(bridge, E)
    assert read(bridge, "find_text", {"query": "Products"})["totalMatches"] == 0


def test_a_typed_edit_that_patches_the_snapshot_shows_in_the_reads(session):
    rev, bridge = session
    warm(bridge)
    doc = rev.document
    element = rev.snapshot().block(E).element
    element.find(f"{w('r')}/{w('t')}").text = "The Seller shall deliver the Goods promptly."  # as typing does
    doc.invalidate(edited=[element])
    assert block(bridge, E)["text"] == "The Seller shall deliver the Goods promptly."
    assert read(bridge, "find_text", {"query": "promptly"})["totalMatches"] == 1
    assert "promptly" in read(bridge, "read_story", {"handle": {"type": "main"}})["text"]


def test_a_heading_changed_or_a_block_deleted_is_not_served_from_before(session):
    rev, bridge = session
    warm(bridge)
    old = heading(bridge, D)["handle"]
    read(bridge, "read_section", {"handle": old})
    after_c = read(bridge, "read_document", {"afterBlockId": C})["blocks"]
    assert [b["blockId"] for b in after_c] == [D, E]
    suggest(bridge, D, "Delivery", "Shipping")
    assert "heading changed" in err(execute_tool_call("read_section", {"handle": old}, bridge))
    assert read(bridge, "read_section", {"handle": heading(bridge, D)["handle"]})["heading"]["text"] == "Shipping"
    read(bridge, "suggest_changes", {"operations": [{"type": "deleteBlock", "blockId": C}]})
    bridge.reviewer.accept_all()
    assert "not a block of the document" in err(execute_tool_call("read_document", {"afterBlockId": C}, bridge))
    assert [b["blockId"] for b in read(bridge, "read_document", {"afterBlockId": B})["blocks"]] == [D, E]


def test_what_the_reads_keep_goes_with_the_document_and_never_keeps_the_bridge():
    rev = DocxReviewer.from_bytes(build_docx(BODY))
    bridge = create_reviewer_bridge(rev)
    warm(bridge)
    assert rev.document._derived[1]  # something is kept for this version
    gone_bridge = weakref.ref(bridge)
    del bridge
    gc.collect()
    assert gone_bridge() is None  # the kept views refer to the document, not to whoever read it
    warm(create_reviewer_bridge(rev))
    gone_doc = weakref.ref(rev.document)
    del rev
    gc.collect()
    assert gone_doc() is None


def test_document_derived_is_computed_once_per_version_and_forgotten_by_every_change(session):
    rev, _ = session
    doc, calls = rev.document, []

    def compute():
        calls.append(doc.version)
        return len(calls)

    assert doc.derived("k", compute) == doc.derived("k", compute) == 1
    doc.invalidate()
    assert doc._derived[1] == {}  # let go at the change, not at the next read
    assert doc.derived("k", compute) == 2
    doc.reload()
    assert doc.derived("k", compute) == 3
    doc.version -= 1  # a version set back (a refused keystroke taken back) is another version all the same
    assert doc.derived("k", compute) == 4 and doc.derived("k", compute) == 4
