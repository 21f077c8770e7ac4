"""The chat panel end to end: a request typed in the composer, a scripted model (the real SDK
against the fake Messages API) that reads the document and proposes two edits, the edits showing
in the pages while the reply still streams, the lawyer accepting one and rejecting the other in
the window, and the saved file."""

from __future__ import annotations

import threading

import pytest
from chat_helpers import MODEL, PILOT, assert_valid_conversation, click_redline, open_window, pilot_plan
from fake_messages_api import FakeMessagesAPI, Reply, Text, ToolUse
from PySide6.QtCore import Qt

from folio_desktop.docx import DocxReviewer

FINAL = "I proposed **two changes**: *Trial Period* in 1.1 and a new duty to report defects after 1.1.1."


@pytest.mark.timeout(90)
def test_a_review_turn_lands_as_tracked_changes_the_lawyer_resolves(qtbot, tmp_path):
    plan = pilot_plan()
    with FakeMessagesAPI() as api:
        window = open_window(qtbot, tmp_path, api.base_url)
        panel, view, reviewer = window.chat, window.view, window.reviewer
        assert reviewer.get_changes() == []
        calls = [ToolUse("get_document_outline", {"maxDepth": 3}),
                 ToolUse("read_section", {"handle": plan["section"]["handle"]}),
                 ToolUse("find_text", {"query": "Pilot Period"}),
                 ToolUse("suggest_changes", {"operations": [plan["replace"], plan["insert"]]})]
        gate = threading.Event()
        api.script(Reply([Text("Let me start with the outline."), calls[0]], stop_reason="tool_use"),
                   Reply([calls[1]], stop_reason="tool_use"),
                   Reply([Text("Now the exact wording."), calls[2]], stop_reason="tool_use"),
                   Reply([calls[3]], stop_reason="tool_use"),
                   Reply([Text(FINAL)], gate=gate))

        panel.composer.setFocus()
        qtbot.keyClicks(panel.composer, "Tighten the pilot terms for my client.")
        with qtbot.waitSignal(panel.turnFinished, timeout=20_000) as finished:
            qtbot.keyClick(panel.composer, Qt.Key_Return)
            # the final reply is held mid-stream by the gate: the edits must already be in the pages
            qtbot.waitUntil(lambda: len(api.requests) == 5 and panel.items("assistant")
                            and panel.entries[-1].kind == "assistant", timeout=15_000)
            assert panel.busy and not panel.send_button.isEnabled() and panel.stop_button.isEnabled()
            assert reviewer.get_changes()
            layout = view.document_layout
            shown = "\n".join(layout.page_text(n) for n in range(1, layout.page_count + 1))
            assert "Customer shall report defects in the Product promptly." in shown
            assert "During the PilotTrial Period" in shown  # deletion and insertion both drawn
            gate.set()
        result = finished.args[0]
        assert result.status == "completed" and result.error is None

        # the transcript: the user's words, four ok chips in call order, the reply as Markdown
        assert [c.entry.name for c in panel.chips()] == [c.name for c in calls]
        assert [c.state for c in panel.chips()] == ["ok"] * 4
        assert panel.items("user")[0].text() == "Tighten the pilot terms for my client."
        visible = panel.visible_text()
        assert "I proposed two changes: Trial Period in 1.1" in visible
        # chips speak plain words: what was read or proposed, where, by clause number, no ids
        assert [c.header_text() for c in panel.chips()] == [
            "✓ Read the outline: 65 headings", "✓ Read section 1.1 Access and Use. …",  # the first ~3k-token page
            "✓ Searched for “Pilot Period”: 4 matches", "✓ Proposed 2 changes in 1.1 and 1.2"]
        assert not any(word in visible for word in ("suggest_changes", "op-replace", "get_document_outline"))
        assert "This turn Claude proposed 2 changes in 1.1 and 1.2. Undo (Ctrl+Z) takes the whole turn back." \
            in visible
        assert panel.items("assistant")[-1].textFormat() == Qt.MarkdownText
        assert "This turn:" in panel.status_label.text() and "Conversation:" in panel.status_label.text()
        assert not panel.busy and panel.send_button.isEnabled() and not panel.stop_button.isEnabled()

        # a chip expands to its JSON result; its Show links select the edited blocks in the pages
        chip = panel.chips()[3]
        chip.header.click()
        assert chip.expanded and '"applied"' in chip.details.toPlainText()
        assert [t[0] for t in chip.targets] == ["op-replace", "op-insert"]
        chip.links.linkActivated.emit("show:0")
        assert "Trial Period" in view.selection.selection_text()
        chip.show_target(1)
        assert "License.  If the Product contains Software" in view.selection.selection_text()

        # what the server was sent
        first = api.requests[0].json
        headers = api.requests[0].headers
        assert first["model"] == MODEL
        assert "test-key" in headers.get("x-api-key", "") + headers.get("authorization", "")
        assert first["tools"][-1]["cache_control"] == {"type": "ephemeral"}
        assert all("cache_control" not in t for t in first["tools"][:-1])
        assert {"read_page", "read_selection", "show_in_document"} <= {t["name"] for t in first["tools"]}
        assert first["system"][0]["cache_control"] == {"type": "ephemeral"}
        for call, request in zip(calls, api.requests[1:]):
            messages = request.json["messages"]
            assert_valid_conversation(messages)
            answers = [b for b in messages[-1]["content"] if b["type"] == "tool_result"]
            assert [b["tool_use_id"] for b in answers] == [call.id]
            assert not answers[0].get("is_error")
        assert '"applied":[{"id":"op-replace"},{"id":"op-insert"}]' in \
            api.requests[4].json["messages"][-1]["content"][0]["content"]

    # the lawyer accepts "Trial" and rejects the inserted paragraph, clicking each in the pages
    block = plan["match"]["blockId"]
    trial = click_redline(qtbot, view, block, "inserted", "Trial")
    assert window.commands.current_change_id() == trial
    window.accept_action.trigger()
    inserted = next(c for c in reviewer.get_changes() if c.type == "insertion")
    assert inserted.text == plan["insert"]["text"]
    assert click_redline(qtbot, view, inserted.block_id, "inserted", "Customer shall") == inserted.id
    with qtbot.waitSignal(view.layoutFinished, timeout=10_000):
        window.reject_action.trigger()
    assert [(c.type, c.text) for c in reviewer.get_changes()] == [("deletion", "Pilot")]
    assert window.modified and window.isWindowModified()

    out = tmp_path / "reviewed.docx"
    assert window.files.save_document(out)
    assert not window.modified and window.path == str(out)
    saved = DocxReviewer.open(out)
    assert [(c.type, c.text, c.author) for c in saved.get_changes()] == [("deletion", "Pilot", "Claude")]  # Claude's own name
    text = saved.get_content_as_text()
    assert "Access and Use.  During the Trial Period and subject to" in text
    assert plan["insert"]["text"] not in text
    assert len(saved.snapshot().blocks) == len(DocxReviewer.open(PILOT).snapshot().blocks)
