"""LiveBridge (folio_desktop/ui/chat/live_bridge.py): the agent tools over a document shown in a PageView.

Conformance with the headless ReviewerBridge on the same bytes, the live-only tools checked against
the layout's own page map, document versions, and the view following every edit and undo.
"""

from __future__ import annotations

import itertools
import random
import types

import pytest
from conftest import CORPUS, ok, shown_page_view
from PySide6.QtCore import QPointF, Qt

from folio_desktop.agents import create_reviewer_bridge, execute_tool_call
from folio_desktop.agents.suggest_options import SuggestChangesOptions
from folio_desktop.docx import DocxReviewer
from folio_desktop.docx.model.textkit import utf16_to_index
from folio_desktop.layout import layout_document
from folio_desktop.ui.chat.live_bridge import LiveBridge
from folio_desktop.ui.pages.text_flow import cursor_x

PILOT = CORPUS / "contract_commonpaper_pilot_agreement.docx"
ILPA = CORPUS / "contract_ilpa_model_lpa_whole_of_fund_75p.docx"

# Fields only the live bridge adds (it has get_target_page); everything else must be identical.
LIVE_ONLY_FIELDS = {
    "get_document_outline": "sections[].page",
    "read_section": "heading.page",
}


@pytest.fixture(scope="module")
def data():
    return {path.name: path.read_bytes() for path in (PILOT, ILPA)}


@pytest.fixture
def view(qtbot):
    return shown_page_view(qtbot, 900, 700)


def live(qtbot, view, raw: bytes, **kwargs) -> LiveBridge:
    rev = DocxReviewer.from_bytes(raw)
    with qtbot.waitSignal(view.layoutFinished, timeout=20_000):
        view.set_document(rev)
    return LiveBridge(rev, view, **kwargs)



def call(bridge, name, args=None, options=None):
    return ok(execute_tool_call(name, args or {}, bridge, options))


def hits(found: dict) -> list[dict]:
    """find_text's matches (grouped by block) as one list, each with its block's fields."""
    return [{**{k: v for k, v in b.items() if k != "matches"}, **m} for b in found["blocks"] for m in b["matches"]]


def every_hit(bridge, args: dict) -> list[dict]:
    """Every match of a find_text, page by page."""
    out, offset = [], 0
    while offset is not None:
        found = call(bridge, "find_text", dict(args, offset=offset))
        out += hits(found)
        offset = found.get("nextOffset")
    return out


def plain_blocks(bridge):
    """Body paragraphs drawn as their accepted text (after any list label): no table, note or change."""
    layout = bridge.view.document_layout
    out = []
    for block in bridge.reviewer.snapshot().content_blocks:
        placed = layout.fragments_of(block.id)
        if block.table is None and len(block.text) > 60 and placed \
                and all(s.kind in ("text", "label") for _n, f in placed for s in f.para.spans):
            out.append(block)
    return out


def drawn(bridge, block) -> str:
    """What selecting the whole block shows: its list label (with the tab or space after it), then its text."""
    para = bridge.view.document_layout.fragments_of(block.id)[0][1].para
    return "".join(para.text[s.start:s.end] for s in para.spans if s.kind == "label") + block.text


# -- 1. conformance with the headless bridge ---------------------------------------------------------


def script(bridge) -> list[tuple[str, object]]:
    """One review session; later arguments come from earlier answers, so both bridges get the same."""
    out = []

    def run(name, args=None):
        result = call(bridge, name, args)
        out.append((name, result))
        return result

    blocks = run("read_document")["blocks"]
    outline = run("get_document_outline")
    run("read_section", {"handle": outline["sections"][1]["handle"], "maxBlocks": 5})
    stories = run("list_stories")["stories"]
    run("read_story", {"handle": stories[-1]["handle"]})
    found = run("find_text", {"query": "Agreement", "matchCase": True})
    run("read_comments")
    run("read_changes")
    body = [b for b in blocks if len(b["text"]) > 40]
    summary = run("suggest_changes", {"operations": [
        {"type": "replaceRange", "range": found["blocks"][0]["matches"][0]["range"], "replace": "Contract"},
        {"type": "insertAfterBlock", "blockId": body[3]["blockId"], "text": "The parties add this clause."}]})
    assert len(summary["applied"]) == 2, summary
    added = run("add_comment", {"blockId": body[5]["blockId"], "text": "Is this right?",
                                "quote": body[5]["text"][:12]})
    comment_id = str(added["receipts"][0]["affected"][-1]["commentId"])
    run("reply_comment", {"commentId": comment_id, "text": "Yes."})
    run("resolve_comment", {"commentId": comment_id})
    run("read_comments")
    run("read_changes")
    run("read_document")
    return out


def without_live_fields(name, result):
    """Drop the fields LIVE_ONLY_FIELDS names for this tool, requiring each to be there."""
    path = LIVE_ONLY_FIELDS.get(name)
    if path:
        container, key = path.split(".")
        items = result[container[:-2]] if container.endswith("[]") else [result[container]]
        for item in items:
            assert isinstance(item.pop(key), int), (name, item)
    return result


def reset_ids(monkeypatch) -> None:
    """Make the ids a session mints repeatable: operation ids (uuid4), comment ids (clock seed) and
    new paraIds (secrets), so two runs over the same bytes can be compared field by field."""
    from folio_desktop.agents import parse
    from folio_desktop.docx.editing import comment_store
    from folio_desktop.docx.editing.ops import context as op_context

    counter = itertools.count()
    rng = random.Random(7)
    monkeypatch.setattr(parse, "uuid", types.SimpleNamespace(uuid4=lambda: f"fixed-{next(counter)}"))
    monkeypatch.setattr(comment_store, "default_id_seed", lambda: 4242)
    pinned = types.SimpleNamespace(randbelow=rng.randrange)
    monkeypatch.setattr(comment_store, "secrets", pinned)
    monkeypatch.setattr(op_context, "secrets", pinned)


@pytest.mark.parametrize("path", [PILOT, ILPA], ids=lambda p: p.stem)
def test_same_answers_as_the_headless_bridge(qtbot, view, data, monkeypatch, path):
    headless_rev = DocxReviewer.from_bytes(data[path.name])
    reset_ids(monkeypatch)
    headless = script(create_reviewer_bridge(headless_rev))
    bridge = live(qtbot, view, data[path.name])
    reset_ids(monkeypatch)
    shown = script(bridge)

    assert [n for n, _ in shown] == [n for n, _ in headless]
    for (name, a), (_, b) in zip(shown, headless, strict=True):
        assert without_live_fields(name, a) == b, name
    headless_bridge = create_reviewer_bridge(DocxReviewer.from_bytes(data[path.name]))
    for tool, args in (("read_page", {"page": 1}), ("read_selection", {}), ("scroll_to_block", {"blockId": "x"}),
                       ("show_in_document", {"blockId": "x"})):
        assert not execute_tool_call(tool, args, headless_bridge)["ok"]
        assert execute_tool_call(tool, args, bridge)["ok"]
        assert "does not take `colour`" in execute_tool_call(tool, dict(args, colour=1), bridge)["error"]


# -- 2. live-only tools against the layout's page map -------------------------------------------------


def test_read_page_is_the_document_text_of_the_page(qtbot, view, data):
    bridge = live(qtbot, view, data[ILPA.name])
    layout, snapshot = view.document_layout, bridge.reviewer.snapshot()
    count = layout.page_count
    checked = 0
    for n in (1, 2, 10, 38, 50, count):
        page = call(bridge, "read_page", {"page": n})
        assert page["page"] == n and page["totalPages"] == count
        lines = []
        for frag in layout.pages[n - 1].body_fragments():
            label_end = max((s.end for s in frag.para.spans if s.kind == "label"), default=0)
            lo, hi = frag.display_range
            if any(a < 0 for a in frag.para.accepted[max(lo, label_end):hi]) or frag.block_id is None:
                break  # deleted text, a page break or a drawing: the accepted view is not the drawn text
            # the block's accepted text from this fragment's start to where its next fragment starts
            block = snapshot.block(frag.block_id)
            starts = [f.accepted_range[0] for _n, f in layout.fragments_of(block.id)]
            start = frag.accepted_range[0]
            lines.append(block.text[start:next((s for s in starts if s > start), len(block.text))])
        else:
            assert page["text"] == "\n".join(lines), n
            checked += 1
    assert checked >= 4
    message = execute_tool_call("read_page", {"page": count + 1}, bridge)["error"]
    assert message == f"read_page's `page` ({count + 1}) exceeds the document's page count ({count})."
    assert execute_tool_call("read_page", {"page": 0}, bridge)["error"] == "read_page requires an integer `page` >= 1."


def test_pages_asked_for_while_layout_runs_are_exact(qtbot, view, data):
    rev = DocxReviewer.from_bytes(data[ILPA.name])
    finished = []
    view.layoutFinished.connect(finished.append)
    bridge = LiveBridge(rev, view)  # the view showed nothing: the bridge opens the document in it
    assert view.reviewer is rev and view.is_laying_out
    reference = layout_document(DocxReviewer.from_bytes(data[ILPA.name]).document)
    last = call(bridge, "read_page", {"page": reference.page_count})  # completes the running layout
    assert last["totalPages"] == reference.page_count and finished == [reference.page_count]
    assert not view.is_laying_out and last["text"] == bridge.get_page_text(reference.page_count)
    assert [view.document_layout.page_text(n) for n in (1, 40)] == [reference.page_text(n) for n in (1, 40)]


def test_a_failed_layout_gives_no_page_numbers(qtbot, view, data, monkeypatch):
    from folio_desktop.ui.pages import progressive

    def broken(_doc):
        raise ValueError("boom")

    monkeypatch.setattr(progressive, "Paginator", broken)
    rev = DocxReviewer.from_bytes(data[PILOT.name])
    with qtbot.waitSignal(view.layoutFailed, timeout=5_000):
        view.set_document(rev)
    bridge = LiveBridge(rev, view)
    assert "could not be laid out into pages" in execute_tool_call("read_page", {"page": 1}, bridge)["error"]
    assert all("page" not in e for e in call(bridge, "get_document_outline")["sections"])
    assert call(bridge, "scroll_to_block", {"blockId": rev.snapshot().content_blocks[0].id}) == {"scrolled": False}


def test_outline_pages_and_page_scoped_search(qtbot, view, data):
    bridge = live(qtbot, view, data[PILOT.name])
    layout = view.document_layout
    outline = call(bridge, "get_document_outline", {"maxDepth": 9})
    assert outline["sections"] and \
        all(e["page"] == layout.page_of(e["handle"]["headingBlockId"]) for e in outline["sections"])
    everywhere = every_hit(bridge, {"query": "Customer", "matchCase": True})
    snapshot = bridge.reviewer.snapshot()

    def page_of(match):
        block = snapshot.block(match["blockId"])
        return layout.page_of(block.id, utf16_to_index(block.text, match["range"]["startOffset"]))

    pages_seen = set()
    for n in range(1, layout.page_count + 1):
        args = {"query": "Customer", "matchCase": True, "scope": {"type": "page", "page": n}}
        scoped = every_hit(bridge, args)
        expected = [m for m in everywhere if page_of(m) == n]
        assert [{k: v for k, v in m.items() if k != "page"} for m in scoped] == expected
        assert all(m["page"] == n for m in scoped)
        assert call(bridge, "find_text", args)["totalMatches"] == len(expected)
        pages_seen |= {n} if expected else set()
    assert len(pages_seen) >= 3
    assert execute_tool_call("find_text", {"query": "x", "scope": {"type": "page", "page": 99}}, bridge)["error"] == \
        f"find_text's page (99) exceeds the document's page count ({layout.page_count})."


def test_scroll_to_block_selects_it_and_shows_its_page(qtbot, view, data):
    bridge = live(qtbot, view, data[ILPA.name])
    layout = view.document_layout
    block = next(b for b in plain_blocks(bridge) if layout.page_of(b.id) > 40)
    assert call(bridge, "scroll_to_block", {"blockId": block.id}) == {"scrolled": True}
    assert view.selection.selection_text() == drawn(bridge, block)
    number, frag = layout.fragments_of(block.id)[0]
    assert view.current_page() == number == layout.page_of(block.id)
    top_left = view.page_to_viewport(number, frag.rect.topLeft())
    assert view.viewport().rect().contains(top_left.toPoint())
    assert call(bridge, "scroll_to_block", {"blockId": "NOT-A-BLOCK"}) == {"scrolled": False}


def test_show_in_document_selects_the_hit_until_it_goes_stale(qtbot, view, data):
    bridge = live(qtbot, view, data[ILPA.name])
    layout = view.document_layout
    plain = {b.id for b in plain_blocks(bridge)}
    found = call(bridge, "find_text", {"query": "Limited Partner", "matchCase": True, "offset": 300})
    hit = next(m for m in hits(found) if m["blockId"] in plain and layout.page_of(m["blockId"]) > 20)
    assert call(bridge, "show_in_document", {"range": hit["range"]}) == {"shown": True}
    assert view.selection.selection_text() == "Limited Partner"
    assert call(bridge, "read_selection") == {"text": "Limited Partner"}
    block = bridge.reviewer.snapshot().block(hit["blockId"])
    assert view.current_page() == layout.page_of(block.id, utf16_to_index(block.text, hit["range"]["startOffset"]))
    assert call(bridge, "show_in_document", {"blockId": hit["blockId"]}) == {"shown": True}
    assert view.selection.selection_text() == drawn(bridge, block)
    # another batch rewrites the hit: the old range no longer selects what find_text returned
    call(bridge, "suggest_changes", {"operations": [
        {"type": "replaceRange", "range": hit["range"], "replace": "Investor"}]})
    assert call(bridge, "show_in_document", {"range": hit["range"]}) == {"shown": False}
    assert call(bridge, "show_in_document", {"blockId": "NOT-A-BLOCK"}) == {"shown": False}


def test_read_selection_returns_what_the_user_selected(qtbot, view, data):
    bridge = live(qtbot, view, data[PILOT.name])
    assert call(bridge, "read_selection") == {"text": ""}
    block = plain_blocks(bridge)[0]
    number, frag = view.document_layout.fragments_of(block.id)[0]
    assert bridge.scroll_to_block(block.id)  # brings its first line into view (and selects it)
    view.selection.clear_selection()
    assert call(bridge, "read_selection") == {"text": ""}
    para, word = frag.para, next(w for w in block.text.split()[1:] if w.isalpha())
    offset = para.text.index(word, frag.display_range[0])
    line = para.layout.lineAt(frag.first_line)
    point = QPointF(frag.x + para.x + cursor_x(line, offset + 1) + 0.5,
                    frag.y + para.lines[frag.first_line].y + para.lines[frag.first_line].height / 2)
    qtbot.mouseDClick(view.viewport(), Qt.LeftButton, pos=view.page_to_viewport(number, point).toPoint())
    assert call(bridge, "read_selection") == {"text": word}
    assert view.selection.select_block(block.id)
    assert call(bridge, "read_selection") == {"text": drawn(bridge, block)}


# -- 3. document versions -------------------------------------------------------------------------------


def test_every_edit_changes_the_version_and_pins_are_checked(qtbot, view, data):
    notices = []
    bridge = live(qtbot, view, data[PILOT.name], author="Claude", on_changed=notices.append)
    rev = bridge.reviewer
    block = plain_blocks(bridge)[0]
    seen = [bridge.get_document_version()]

    def changed():
        seen.append(bridge.get_document_version())
        assert seen[-1] not in seen[:-1]

    insert = {"operations": [{"type": "insertAfterBlock", "blockId": block.id, "text": "An added sentence."}]}
    call(bridge, "suggest_changes", insert)
    changed()
    assert bridge.undo_document_operations(notices[-1]["undoHandle"])["status"] == "undone"
    changed()
    call(bridge, "suggest_changes", insert)
    changed()
    cid = str(call(bridge, "add_comment", {"blockId": block.id, "text": "Check."})["receipts"][0]["affected"][-1]
              ["commentId"])
    changed()
    call(bridge, "reply_comment", {"commentId": cid, "text": "Done."})
    changed()
    call(bridge, "resolve_comment", {"commentId": cid})
    changed()
    [thread] = call(bridge, "read_comments")["threads"]
    assert (thread["author"], thread["replies"][0]["author"], thread["resolved"]) == ("Claude", "Claude", True)
    assert rev.accept_change(rev.get_changes()[0].id)  # the user accepts a change in the app
    changed()

    stale, current = seen[0], bridge.get_document_version()
    pinned = {"suggest_changes": SuggestChangesOptions.create(document_version=current)}
    op = {"type": "replaceInBlock", "blockId": block.id, "find": block.text.split()[0], "replace": "Indeed"}
    told = len(notices)
    refused = call(bridge, "suggest_changes", {"operations": [op], "documentVersion": stale}, pinned)
    assert refused["applied"] == [] and refused["issues"][0]["code"] == "documentVersionMismatch"
    assert bridge.get_document_version() == current and len(notices) == told
    applied = call(bridge, "suggest_changes", {"operations": [op], "documentVersion": current}, pinned)
    assert len(applied["applied"]) == 1 and applied["skipped"] == []
    assert bridge.get_document_version() != current and len(notices) == told + 1


# -- 4. the view follows edits and undo -----------------------------------------------------------------


def test_view_shows_an_edit_and_loses_it_on_undo(qtbot, view, data):
    notices = []
    bridge = live(qtbot, view, data[ILPA.name], author="Claude", on_changed=notices.append)
    layout = view.document_layout
    anchor = next(b for b in plain_blocks(bridge) if layout.page_of(b.id) > 30)
    page = layout.page_of(anchor.id)
    old_word = next(w for w in anchor.text.split() if len(w) > 5 and w.isalpha() and anchor.text.count(w) == 1)
    word_page = layout.page_of(anchor.id, anchor.text.index(old_word))
    relayouts = []
    original = view.relayout_blocks
    view.relayout_blocks = lambda ids: relayouts.append({"changed_block_ids": set(ids)}) or original(ids)

    # nothing applied: no relayout, no notice
    assert bridge.apply_document_operations({"version": 1, "dryRun": True, "operations": [
        {"type": "insertAfterBlock", "blockId": anchor.id, "text": "Preview only."}]})["status"] == "previewed"
    call(bridge, "suggest_changes", {"operations": [{"type": "replaceInBlock", "blockId": anchor.id,
                                                     "find": "no such words here", "replace": "x"}]})
    assert relayouts == [] and notices == []

    text = "The General Partner shall report to the Advisory Committee each quarter."
    summary = call(bridge, "suggest_changes", {"operations": [
        {"type": "insertAfterBlock", "blockId": anchor.id, "text": text},
        {"type": "replaceInBlock", "blockId": anchor.id, "find": old_word, "replace": "REPLACED"}]})
    assert len(summary["applied"]) == 2, summary
    assert len(relayouts) == 1 and relayouts[0]["changed_block_ids"] == {anchor.id}
    assert len(notices) == 1 and notices[0]["status"] == "committed"
    assert view.document_layout is layout and not view.is_laying_out
    new = next(b for b in bridge.reviewer.snapshot().content_blocks if b.text == text)
    new_page = layout.page_of(new.id)
    assert new_page in (page, page + 1)
    assert text in view.document_layout.page_text(new_page) and text in call(bridge, "read_page", {"page": new_page})[
        "text"]
    frags = layout.fragments_of(new.id)
    kinds = {s.kind for _n, f in frags for s in f.para.spans} - {"label"}
    assert kinds == {"inserted"}  # painted as a redline
    assert frags[0][1] in view.pages[new_page - 1].fragments  # the view shows the new pages
    raw = call(bridge, "read_page", {"page": word_page})["text"]
    assert f"{old_word}REPLACED" in raw  # read_page is raw text: the tracked deletion stays in
    assert {c["author"] for c in call(bridge, "read_changes")["changes"]} == {"Claude"}

    undone = bridge.undo_document_operations(notices[0]["undoHandle"])
    assert undone["status"] == "undone" and notices[-1] is undone
    assert all(text not in call(bridge, "read_page", {"page": n})["text"]
               for n in range(max(page - 1, 1), page + 3))
    assert view.document_layout is not None and all(text not in p.text() for p in view.document_layout.pages)
    assert call(bridge, "read_changes")["changes"] == []


def test_claudes_edit_elsewhere_leaves_the_lawyers_caret_where_it_was(qtbot, view, data):
    bridge = live(qtbot, view, data[PILOT.name], author="Claude")
    blocks = plain_blocks(bridge)
    mine, theirs = blocks[1], blocks[-1]
    assert view.selection.select_range(mine.id, 5, 12)
    chosen = view.selection.selection_text()
    summary = call(bridge, "suggest_changes", {"operations": [
        {"type": "insertAfterBlock", "blockId": theirs.id, "text": "Claude adds this clause."}]})
    assert len(summary["applied"]) == 1
    assert view.selection.caret_block_id() == mine.id and view.selection.selection_text() == chosen
