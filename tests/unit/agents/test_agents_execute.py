"""execute_tool_call scenarios (spec §11.1 execute.test, operation-batch-safety, operation-references,
operation-style-references), on the reference fixture and real contracts."""

import time

import pytest
from conftest import CORPUS, err, ok
from docbuilder import build_docx, p

from folio_desktop.agents import TOOL_NAMES, create_reviewer_bridge, execute_tool_call
from folio_desktop.agents.paging import RESULT_BUDGET, json_size
from folio_desktop.docx import DocxReviewer
from folio_desktop.docx.model.textkit import text_hash

FIXTURE = CORPUS / "folio" / "authored-empty-paragraph.docx"
NVCA = CORPUS / "contract_nvca_stock_purchase_agreement_27p.docx"


def bridge_for(path=FIXTURE, data=None):
    rev = DocxReviewer.from_bytes(data) if data is not None else DocxReviewer.open(path)
    return rev, create_reviewer_bridge(rev)




def test_unknown_tool_lists_every_tool():
    _, bridge = bridge_for()
    message = err(execute_tool_call("delete_everything", {}, bridge))
    assert message == f'Unknown tool "delete_everything". Valid tools: {", ".join(TOOL_NAMES)}.'
    assert len(TOOL_NAMES) == 17  # the reference's 16 and this project's own check_document
    assert TOOL_NAMES[-1] == "check_document"


def test_argument_shape_errors():
    _, bridge = bridge_for()
    assert err(execute_tool_call("find_text", "query", bridge)) == \
        "find_text expects an object with a non-empty `query` string."
    assert err(execute_tool_call("find_text", {"query": ""}, bridge)) == "find_text requires a non-empty string `query`."
    assert err(execute_tool_call("find_text", {"query": "x", "matchCase": "yes"}, bridge)) == \
        "find_text's `matchCase` must be a boolean when provided."
    assert err(execute_tool_call("find_text", {"query": "x" * 1001}, bridge)) == \
        "find_text's `query` is 1,001 characters, over the 1,000-character limit; shorten it."
    assert err(execute_tool_call("find_text", {"query": "x", "scope": {"type": "chapter"}}, bridge)) == \
        "find_text's `scope.type` must be document, section, page, or story."
    assert err(execute_tool_call("get_document_outline", {"maxDepth": 10}, bridge)) == \
        "get_document_outline's `maxDepth` must be an integer from 1 to 9."
    assert err(execute_tool_call("add_comment", [], bridge)) == \
        "add_comment expects an object with `blockId` and `text` strings."
    assert err(execute_tool_call("add_comment", {"blockId": "", "text": "x"}, bridge)) == \
        "add_comment requires a non-empty string `blockId`."
    assert err(execute_tool_call("add_comment", {"blockId": "0304003A", "text": "x", "quote": 5}, bridge)) == \
        "add_comment's `quote` must be a string when provided."
    assert err(execute_tool_call("add_comment", {"blockId": "0304003A", "text": "x",
                                                 "precondition": {"blockTextHash": "zz"}}, bridge)).startswith(
        "add_comment's `precondition.blockTextHash` must be a normalized block text hash")
    assert err(execute_tool_call("read_comments", {"filter": "mine"}, bridge)) == \
        'read_comments\' `filter` must be one of "all", "open", "resolved" when provided.'
    assert err(execute_tool_call("read_story", {"handle": {"type": "header"}}, bridge)) == \
        "read_story requires a valid typed `handle` from list_stories."
    assert err(execute_tool_call("read_section", "x", bridge)) == \
        "read_section expects a section `handle` from get_document_outline."


def test_unsupported_capabilities_on_the_headless_bridge():
    _, bridge = bridge_for()
    assert err(execute_tool_call("read_page", {"page": 1}, bridge)) == \
        "This editor surface does not support read_page (no live paginated view)."
    assert err(execute_tool_call("read_selection", {}, bridge)) == \
        "This editor surface does not support read_selection (no live selection)."
    assert err(execute_tool_call("scroll_to_block", {"blockId": "0304003A"}, bridge)) == \
        "This editor surface does not support scroll_to_block (no live editor view)."
    assert err(execute_tool_call("show_in_document", {"blockId": "0304003A"}, bridge)) == \
        "This editor surface does not support show_in_document (no live editor view)."
    assert err(execute_tool_call("find_text", {"query": "para", "scope": {"type": "page", "page": 1}}, bridge)) == \
        "This editor surface cannot search by page without live pagination."


def test_happy_path_read_find_suggest_comment_reply_resolve():
    rev, bridge = bridge_for()
    page = ok(execute_tool_call("read_document", {}, bridge))
    blocks = page["blocks"]
    assert [b["blockId"] for b in blocks] == ["0304003A", "32560014"]  # blank blocks are not shown
    assert page["totalBlocks"] == 2 and page["truncated"] is False and "nextAfterBlockId" not in page
    found = ok(execute_tool_call("find_text", {"query": "heading"}, bridge))
    assert found["totalMatches"] == 1 and found["blocks"][0]["blockId"] == "0304003A"
    assert "occurrenceInBlock" not in found["blocks"][0]["matches"][0]  # the first in its block: the default
    summary = ok(execute_tool_call("suggest_changes", {"operations": [
        {"type": "replaceInBlock", "blockId": "0304003A", "find": "Heading", "replace": "Intro"}]}, bridge))
    [applied] = summary["applied"]
    assert applied["id"].startswith("op-") and applied["id"].endswith("-1")
    assert summary["receipts"][0]["affected"][0]["blockId"] == "0304003A"
    assert summary["skipped"] == [] and summary["queued"] == [] and summary["replayed"] == []
    listing = ok(execute_tool_call("read_changes", {}, bridge))
    changes = listing["changes"]
    assert {c["type"] for c in changes} == {"insertion", "deletion"} and len(changes) >= 2
    assert listing["totalChanges"] == len(changes) and listing["truncated"] is False
    assert {"id", "type", "author", "text", "blockId"} <= set(changes[0])
    # the edited block now says it holds pending changes, and by whom
    block = ok(execute_tool_call("read_document", {}, bridge))["blocks"][0]
    assert block["pending"] == {"insertions": 1, "deletions": 1, "authors": ["AI"]}
    added = ok(execute_tool_call("add_comment", {"blockId": "32560014", "text": "Keep this?", "quote": "Trailing"},
                                 bridge))
    comment_target = added["receipts"][0]["affected"][1]
    assert comment_target["type"] == "comment"
    threads = ok(execute_tool_call("read_comments", {}, bridge))["threads"]
    assert [(t["text"], t["quote"], t["blockId"], t["resolved"]) for t in threads] == \
        [("Keep this?", "Trailing", "32560014", False)]
    cid = threads[0]["id"]
    assert cid == str(comment_target["commentId"])
    assert ok(execute_tool_call("reply_comment", {"commentId": cid, "text": "Yes."}, bridge)) == {"replied": True}
    assert err(execute_tool_call("reply_comment", {"commentId": "999999", "text": "x"}, bridge)) == \
        'No comment with id "999999" was found.'
    assert err(execute_tool_call("reply_comment", {"commentId": f"{cid}abc", "text": "x"}, bridge)) == \
        "reply_comment's `commentId` must be a comment id from `read_comments`."
    assert ok(execute_tool_call("resolve_comment", {"commentId": cid}, bridge)) == {"resolved": True}
    assert ok(execute_tool_call("read_comments", {"filter": "open"}, bridge))["threads"] == []
    resolved = ok(execute_tool_call("read_comments", {"filter": "resolved"}, bridge))["threads"]
    assert resolved[0]["replies"][0]["text"] == "Yes."
    assert ok(execute_tool_call("resolve_comment", {"commentId": cid, "reopen": True}, bridge)) == {"resolved": False}
    # everything the model did is in the saved file
    saved = DocxReviewer.from_bytes(rev.to_bytes())
    assert saved.get_content_as_text().splitlines()[0] == "[0304003A] Intro paragraph."
    assert saved.get_comments()[0].replies[0].text == "Yes."


def test_skips_read_as_prose_and_preconditions_catch_staleness():
    _, bridge = bridge_for()
    summary = ok(execute_tool_call("suggest_changes", {"operations": [
        {"type": "replaceInBlock", "blockId": "DEADBEEF", "find": "a", "replace": "b"}]}, bridge))
    reason = summary["skipped"][0]["reason"]
    assert reason.startswith("The blockId was not found in the document; re-read it")
    assert summary["issues"][0]["code"] == "missingBlock"
    # a caller precondition echoed from an earlier read catches a change made since (cross-call)
    stale_hash = ok(execute_tool_call("read_document", {}, bridge))["blocks"][0]["blockTextHash"]
    ok(execute_tool_call("suggest_changes", {"operations": [
        {"type": "replaceInBlock", "blockId": "0304003A", "find": "Heading", "replace": "Intro"}]}, bridge))
    later = ok(execute_tool_call("suggest_changes", {"operations": [
        {"type": "replaceInBlock", "blockId": "0304003A", "find": "paragraph", "replace": "para",
         "precondition": {"blockTextHash": stale_hash}}]}, bridge))
    assert later["issues"][0]["code"] == "preconditionFailed"
    # without one, the stamped precondition still lets the edit through (same call is fresh)
    fresh = ok(execute_tool_call("suggest_changes", {"operations": [
        {"type": "replaceInBlock", "blockId": "0304003A", "find": "paragraph", "replace": "para"}]}, bridge))
    assert len(fresh["applied"]) == 1
    assert fresh["receipts"][0]["affected"][0]["blockId"] == "0304003A"


def test_unsupported_mode_prose():
    rev = DocxReviewer.open(FIXTURE)
    bridge = create_reviewer_bridge(rev, mode="suggested")
    summary = ok(execute_tool_call("suggest_changes", {"operations": [
        {"type": "replaceInBlock", "blockId": "0304003A", "find": "Heading", "replace": "Intro"}]}, bridge))
    assert summary["skipped"][0]["reason"].startswith("The operation does not support the requested mutation mode")


def test_caps():
    _, bridge = bridge_for()
    assert err(execute_tool_call("suggest_changes", {"operations": []}, bridge)) == \
        "suggest_changes' `operations` array must not be empty."
    many = [{"type": "deleteBlock", "blockId": "0304003A"}] * 51
    assert err(execute_tool_call("suggest_changes", {"operations": many}, bridge)) == \
        "suggest_changes' `operations` array has 51 entries, over the 50-operation limit; batch it across multiple " \
        "suggest_changes calls."
    huge = "x" * 100_001
    assert err(execute_tool_call("suggest_changes", {"operations": [
        {"type": "replaceInBlock", "blockId": "0304003A", "find": "Heading", "replace": huge}]}, bridge)) == \
        "operations[0].replace is 100,001 characters, over the 100,000-character limit; shorten it or split it " \
        "into multiple operations."
    assert err(execute_tool_call("add_comment", {"blockId": "0304003A", "text": huge}, bridge)).startswith(
        "add_comment's `text` is 100,001 characters")
    big = "y" * 99_000
    ops = [{"type": "insertAfterBlock", "blockId": "0304003A", "text": big} for _ in range(21)]
    assert err(execute_tool_call("suggest_changes", {"operations": ops}, bridge)) == \
        "operations[20] pushes suggest_changes' combined text over the 2,000,000-character aggregate limit across " \
        "all operations; split the edit across multiple suggest_changes calls."
    assert err(execute_tool_call("suggest_changes", "nope", bridge)) == "suggest_changes requires an `operations` array."


def test_find_text_unicode_whole_word_and_large_block_speed():
    text = "Smlouva o dílo: dílo, díla, dílovedoucí a dílo_1 " * 2
    big = "slovo " * 60_000 + "dílo"
    rev, bridge = bridge_for(data=build_docx(p(text, "10000001") + p(big, "10000002")))
    res = ok(execute_tool_call("find_text", {"query": "dílo", "wholeWord": True}, bridge))
    assert res["totalMatches"] == 5
    first = next(b for b in res["blocks"] if b["blockId"] == "10000001")
    assert [m.get("occurrenceInBlock", 0) for m in first["matches"]] == [0, 1, 2, 3]
    start = time.monotonic()
    ok(execute_tool_call("find_text", {"query": "slovo", "wholeWord": True}, bridge))
    assert time.monotonic() - start < 2.0
    truncated = ok(execute_tool_call("find_text", {"query": "slovo", "maxMatches": 200}, bridge))
    shown = [m for b in truncated["blocks"] for m in b["matches"]]
    assert truncated["truncated"] and truncated["totalMatches"] == 60_000 and len(shown) <= 200
    assert json_size(truncated) <= RESULT_BUDGET and truncated["nextOffset"] == len(shown)


def test_story_search_and_stories():
    _, bridge = bridge_for(NVCA)
    listing = ok(execute_tool_call("list_stories", {}, bridge))
    stories = listing["stories"]
    assert listing["totalStories"] > len(stories) and stories[0]["handle"] == {"type": "main"}
    assert listing["truncated"] and listing["nextOffset"] == len(stories)  # a page of ~3k tokens
    note = next(s for s in stories if s["handle"]["type"] == "footnote")
    story = ok(execute_tool_call("read_story", {"handle": note["handle"]}, bridge))
    assert story["handle"] == note["handle"] and story["text"].startswith(note["preview"].rstrip("…"))
    word = story["text"].split()[1]
    res = ok(execute_tool_call("find_text", {"query": word, "scope": {"type": "story", "handle": note["handle"]}},
                               bridge))
    assert res["matches"][0]["type"] == "story" and "blockId" not in res["matches"][0]
    assert err(execute_tool_call("find_text", {"query": "x", "scope": {"type": "story",
                                                                       "handle": {"type": "footnote", "noteId": 9999}}},
                                 bridge)) == "The scoped story was not found; run list_stories again."
    assert err(execute_tool_call("read_story", {"handle": {"type": "footnote", "noteId": 9999}}, bridge)) == \
        "The requested story was not found; run list_stories again."


def test_outline_and_section_pagination():
    _, bridge = bridge_for(NVCA)
    outline = ok(execute_tool_call("get_document_outline", {"maxDepth": 1}, bridge))
    assert outline["truncated"] and outline["totalSections"] > len(outline["sections"])
    assert all(s["handle"]["headingLevel"] == 1 for s in outline["sections"])
    handle = outline["sections"][0]["handle"]
    first = ok(execute_tool_call("read_section", {"handle": handle, "maxBlocks": 3}, bridge))
    assert first["truncated"] and len(first["blocks"]) == 3 and first["nextAfterBlockId"] == first["blocks"][-1]["blockId"]
    rest, after = [], first["nextAfterBlockId"]
    while after:  # pages of at most ~3k tokens, whatever maxBlocks asks, until the section ends
        page = ok(execute_tool_call("read_section", {"handle": handle, "maxBlocks": 200, "afterBlockId": after}, bridge))
        rest += page["blocks"]
        after = page.get("nextAfterBlockId")
        assert page["truncated"] == bool(after)
    assert len(rest) == first["totalBlocks"] - 3
    assert err(execute_tool_call("read_section", {"handle": handle, "afterBlockId": "NOPE"}, bridge)) == \
        "read_section's `afterBlockId` is not part of this section."
    stale = dict(handle, headingTextHash=text_hash("something else"))
    assert err(execute_tool_call("read_section", {"handle": stale}, bridge)) == \
        "The section heading changed; run get_document_outline again for a fresh handle."
    gone = dict(handle, headingBlockId="7FFFFFF1")
    assert err(execute_tool_call("read_section", {"handle": gone}, bridge)) == \
        "The section no longer exists; run get_document_outline again."
    assert err(execute_tool_call("read_section", {"handle": dict(handle, headingTextHash="Hx")}, bridge)) == \
        "read_section requires a valid `handle` from get_document_outline."


# -- operation-batch-safety and references ----------------------------------------------------------


def test_replace_then_delete_same_block_refuses_the_delete():
    body = p("First alpha gamma.", "10000000") + p("Second paragraph.", "10000001") + p("Third.", "10000002")
    rev, bridge = bridge_for(data=build_docx(body))
    summary = ok(execute_tool_call("suggest_changes", {"operations": [
        {"id": "edit-1", "type": "replaceInBlock", "blockId": "10000000", "find": "alpha", "replace": "beta"},
        {"id": "edit-2", "type": "deleteBlock", "blockId": "10000000"}]}, bridge))
    assert [a["id"] for a in summary["applied"]] == ["edit-1"]
    assert "earlier operation in this batch" in summary["skipped"][0]["reason"]
    assert '"edit-1"' in summary["skipped"][0]["reason"]
    accepted = DocxReviewer.from_bytes(rev.to_bytes())
    accepted.accept_all()
    assert [b.text for b in accepted.snapshot().blocks] == ["First beta gamma.", "Second paragraph.", "Third."]


def test_split_inside_an_emoji_is_refused():
    rev, bridge = bridge_for(data=build_docx(p("Party 🧑 agrees.", "10000000")))
    summary = ok(execute_tool_call("suggest_changes", {"operations": [
        {"type": "splitBlock", "blockId": "10000000", "offset": 7}]}, bridge))
    assert "inside a single character" in summary["skipped"][0]["reason"]
    assert "use 6 or 8" in summary["skipped"][0]["reason"]


def test_missing_numbering_and_style_references():
    rev, bridge = bridge_for(data=build_docx(p("Clause one.", "10000000")))
    before = rev.to_bytes()
    summary = ok(execute_tool_call("suggest_changes", {"operations": [
        {"type": "insertAfterBlock", "blockId": "10000000", "text": "Clause two.",
         "numbering": {"kind": "reference", "numId": 1}}]}, bridge))
    issue = summary["issues"][0]
    assert issue["code"] == "missingNumbering" and issue["recovery"] == "refreshDocument"
    assert "numbering instance this document does not define" in summary["skipped"][0]["reason"]
    assert "numId 1" in summary["skipped"][0]["reason"]
    summary = ok(execute_tool_call("suggest_changes", {"operations": [
        {"type": "insertAfterBlock", "blockId": "10000000", "text": "Clause two.", "styleId": "Heading9"}]}, bridge))
    assert "names no paragraph style this document defines" in summary["skipped"][0]["reason"]
    assert rev.to_bytes() == before
    DocxReviewer.from_bytes(rev.to_bytes())  # still saves and reopens
    # control: a new list and a style the document defines apply
    rev2, bridge2 = bridge_for(NVCA)
    target = rev2.snapshot().content_blocks[4]
    style = next(s for s, st in rev2.document.styles.by_id.items() if st.type == "paragraph")
    applied = ok(execute_tool_call("suggest_changes", {"operations": [
        {"type": "insertAfterBlock", "blockId": target.id, "text": "New list item", "styleId": style,
         "numbering": {"kind": "newList", "format": "numbered"}}]}, bridge2))
    assert applied["skipped"] == [] and len(applied["applied"]) == 1
    labels = [b.display_label for b in rev2.snapshot().blocks if b.text == "New list item"]
    assert labels == ["1."]


def test_bridge_exceptions_become_answers():
    class Broken:
        document_operation_mode = None

        def snapshot(self):
            raise RuntimeError("The editor view is not mounted; no snapshot is available yet.")

    assert err(execute_tool_call("read_document", {}, Broken())) == \
        "The editor view is not mounted; no snapshot is available yet."


@pytest.mark.parametrize("name", TOOL_NAMES)
def test_no_tool_raises_on_garbage(name):
    _, bridge = bridge_for()
    for args in (None, "x", 5, [], {"x": object()}, {"query": None, "handle": 3, "page": "one", "blockId": 7}):
        result = execute_tool_call(name, args, bridge)
        assert isinstance(result, dict) and "ok" in result


def test_resolving_someone_elses_comment_needs_the_lawyers_permission():
    rev = DocxReviewer.open(CORPUS / "pandoc_comments_with_reply.docx", author="Claude")
    bridge = create_reviewer_bridge(rev)
    theirs = ok(execute_tool_call("read_comments", {}, bridge))["threads"][0]
    assert theirs["author"] == "Jesse Rosenthal"
    refusal = err(execute_tool_call("resolve_comment", {"commentId": theirs["id"]}, bridge))
    assert refusal.startswith(f"resolve_comment was not allowed to resolve comment {theirs['id']}: it was written by "
                              "Jesse Rosenthal, and the lawyer has not allowed you")
    assert "reply_comment" in refusal
    assert not rev.get_comments()[0].done  # nothing changed
    # Claude's own comment is its to close
    added = ok(execute_tool_call("add_comment", {"blockId": theirs["blockId"], "text": "Resolved in 2.1?"}, bridge))
    own = str(added["receipts"][0]["affected"][-1]["commentId"])
    assert ok(execute_tool_call("resolve_comment", {"commentId": own}, bridge)) == {"resolved": True}
    # with the lawyer's permission the other side's thread can be resolved too
    allowed = create_reviewer_bridge(rev, resolve_others=True)
    assert ok(execute_tool_call("resolve_comment", {"commentId": theirs["id"]}, allowed)) == {"resolved": True}
    assert rev.get_comments()[0].done


def test_reply_and_resolve_refuse_arguments_they_do_not_take():
    rev, bridge = bridge_for()
    added = ok(execute_tool_call("add_comment", {"blockId": "32560014", "text": "Keep this?"}, bridge))
    cid = str(added["receipts"][0]["affected"][1]["commentId"])
    assert err(execute_tool_call("reply_comment", {"commentId": cid, "text": "Yes.", "reopen": True}, bridge)) == \
        ("reply_comment does not take `reopen`; its arguments are: `commentId`, `text`. Send the call again "
         "without it.")
    assert err(execute_tool_call("resolve_comment", {"commentId": cid, "text": "Done.", "force": 1}, bridge)) == \
        ("resolve_comment does not take `text`, `force`; its arguments are: `commentId`, `reopen`. Send the call "
         "again without them.")
    # nothing was written: no reply, the thread still open
    assert [(c.text, c.done, c.replies) for c in rev.get_comments()] == [("Keep this?", False, [])]
