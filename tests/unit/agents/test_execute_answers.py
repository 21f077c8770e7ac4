"""What execute_tool_call answers, to the key: the summary of a batch (its version, normalizations,
a pinned batch the document moved past), the comment tools' refusals, the live-view tools' checks
on a host that has a live view, and whether a TextRange still selects its text."""

from conftest import CORPUS, err, ok

from folio_desktop.agents import create_reviewer_bridge, execute_tool_call
from folio_desktop.agents.bridges import ReviewerBridge
from folio_desktop.agents.execute import range_still_matches
from folio_desktop.docx import DocxReviewer
from folio_desktop.docx.editing.skips import prose_for

FIXTURE = CORPUS / "folio" / "authored-empty-paragraph.docx"
BLOCK = "0304003A"


def test_a_summary_says_its_version_and_explains_a_split_insert():
    bridge = create_reviewer_bridge(DocxReviewer.open(FIXTURE))
    summary = ok(execute_tool_call("suggest_changes", {"operations": [
        {"id": "two", "type": "insertAfterBlock", "blockId": BLOCK, "text": "First line.\nSecond line."}]}, bridge))
    assert summary["version"] == 1 and [a["id"] for a in summary["applied"]] == ["two"]
    assert summary["normalizations"] == [{
        "path": "operations[id=two].text",
        "message": "`text` contained line breaks; split into 2 consecutive paragraphs (one per non-blank line) "
                   "instead of one paragraph with embedded newlines."}]


def test_a_batch_pinned_to_an_older_host_version_is_skipped_in_prose():
    rev = DocxReviewer.open(FIXTURE)
    bridge = create_reviewer_bridge(rev, document_version=lambda: "host-2")
    summary = ok(execute_tool_call("suggest_changes", {"documentVersion": "host-1", "operations": [
        {"id": "late", "type": "replaceInBlock", "blockId": BLOCK, "find": "Heading", "replace": "Intro"}]},
        bridge, {"documentVersion": "host-2"}))
    assert summary["applied"] == [] and summary["normalizations"] == []
    assert summary["skipped"] == [{"id": "late", "reason": prose_for("documentVersionMismatch", None)}]
    assert summary["issues"][0]["code"] == "documentVersionMismatch"
    assert rev.get_changes() == []


def test_reply_and_resolve_refuse_a_comment_id_that_is_empty_or_not_a_string():
    bridge = create_reviewer_bridge(DocxReviewer.open(FIXTURE))
    for cid in ("", 5):
        assert err(execute_tool_call("reply_comment", {"commentId": cid, "text": "x"}, bridge)) == \
            "reply_comment requires a non-empty string `commentId`."
        assert err(execute_tool_call("resolve_comment", {"commentId": cid}, bridge)) == \
            "resolve_comment requires a non-empty string `commentId`."


class LiveBridge(ReviewerBridge):
    """A host with a live view of three pages, recording what it was asked to show."""

    def __init__(self, reviewer):
        super().__init__(reviewer)
        self.shown: list = []

    def get_page_count(self):
        return 3

    def get_page_text(self, page):
        return f"text of page {page}" if page != 2 else None

    def scroll_to_block(self, block_id):
        self.shown.append(("scroll", block_id))
        return True

    def show_in_document(self, target):
        self.shown.append(("show", target))
        return True


def test_the_live_view_tools_check_their_arguments_before_asking_the_host():
    rev = DocxReviewer.open(FIXTURE)
    bridge = LiveBridge(rev)
    assert ok(execute_tool_call("read_page", {"page": 3}, bridge)) == \
        {"page": 3, "totalPages": 3, "text": "text of page 3"}
    assert ok(execute_tool_call("read_page", {"page": 2}, bridge)) == {"page": 2, "totalPages": 3, "text": ""}
    assert err(execute_tool_call("read_page", {"page": 4}, bridge)) == \
        "read_page's `page` (4) exceeds the document's page count (3)."
    assert ok(execute_tool_call("scroll_to_block", {"blockId": BLOCK}, bridge)) == {"scrolled": True}
    assert err(execute_tool_call("show_in_document", [BLOCK], bridge)) == \
        "show_in_document expects exactly one of `blockId` or `range`."
    [match] = ok(execute_tool_call("find_text", {"query": "Heading"}, bridge))["blocks"][0]["matches"]
    assert ok(execute_tool_call("show_in_document", {"range": match["range"]}, bridge)) == {"shown": True}
    assert bridge.shown == [("scroll", BLOCK), ("show", match["range"])]


def test_a_range_from_find_text_still_matches_until_its_text_changes():
    rev = DocxReviewer.open(FIXTURE)
    bridge = create_reviewer_bridge(rev)
    [match] = ok(execute_tool_call("find_text", {"query": "Heading"}, bridge))["blocks"][0]["matches"]
    rng = match["range"]
    assert range_still_matches(rev.snapshot(), rng)
    assert not range_still_matches(rev.snapshot(), dict(rng, blockId="DEADBEEF"))
    ok(execute_tool_call("suggest_changes", {"operations": [
        {"type": "replaceInBlock", "blockId": BLOCK, "find": "Heading", "replace": "Intro"}]}, bridge))
    assert not range_still_matches(rev.snapshot(), rng)
