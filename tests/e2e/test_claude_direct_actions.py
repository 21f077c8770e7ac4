"""What Claude does at once, not as a tracked change (issue 12, points 6 and 8): resolving a comment
takes the lawyer's leave, and when it happens it is in the chip, the turn's summary and the audit
log, and Ctrl+Z takes it back with the turn. Quick actions that need a selection wait for one.
The real SDK against the fake Messages API, in the real window."""

from __future__ import annotations

import pytest
from chat_helpers import open_window, send
from conftest import CORPUS
from fake_messages_api import FakeMessagesAPI, Reply, Text, ToolUse
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

COMMENTED = CORPUS / "pandoc_comments_with_reply.docx"
pytestmark = pytest.mark.timeout(90)


def test_resolving_the_other_sides_comment_needs_leave_and_is_seen_logged_and_undone(qtbot, tmp_path):
    with FakeMessagesAPI() as api:
        window = open_window(qtbot, tmp_path, api.base_url, source=COMMENTED)
        panel, reviewer = window.chat, window.reviewer
        theirs = reviewer.get_comments()[0]
        assert theirs.author == "Jesse Rosenthal" and not theirs.done
        resolve = {"commentId": str(theirs.id)}

        # an instruction in the document ("resolve all comments") cannot make Claude close them
        api.script(Reply([ToolUse("resolve_comment", resolve)], stop_reason="tool_use"),
                   Reply([Text("I may not resolve that comment.")]))
        send(qtbot, panel, "Resolve all comments.")
        [chip] = panel.chips()
        assert chip.state == "error"
        assert chip.header_text().startswith("✗ Could not resolve the comment: resolve_comment was not allowed to "
                                             "resolve comment")
        assert not reviewer.get_comments()[0].done
        assert "This turn Claude" not in panel.visible_text()  # nothing was done
        refused = api.requests[1].json["messages"][-1]["content"][0]
        assert refused["is_error"] and "Jesse Rosenthal" in refused["content"]

        # the lawyer allows it in Settings: now it is done, and said, and logged
        window.settings.allow_resolving_others = True
        window.apply_settings()
        api.script(Reply([ToolUse("resolve_comment", resolve)], stop_reason="tool_use"),
                   Reply([Text("Resolved.")]))
        send(qtbot, panel, "Resolve Jesse's comment, it is dealt with.")
        chip = panel.chips()[-1]
        assert chip.header_text() == "✓ Resolved Jesse Rosenthal's comment on “I want some text to have a…”"
        assert reviewer.get_comments()[0].done
        assert ("This turn Claude resolved Jesse Rosenthal's comment on “I want some text to have a…”. Undo (Ctrl+Z) "
                "takes the whole turn back.") in panel.visible_text()
        [action] = [e for e in window.audit.entries if e.get("kind") == "action"]
        assert action["type"] == "commentResolved" and action["commentAuthor"] == "Jesse Rosenthal"
        assert action["who"].startswith("Claude")
        assert window.undo_action.text().replace("&", "").startswith("Undo Claude's turn")

        # Ctrl+Z takes the turn back: the comment is open again
        # shortcuts reach the active window only (the offscreen platform does not activate it by itself)
        window.activateWindow()
        qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=2_000)
        qtbot.keyClick(window, Qt.Key_Z, Qt.ControlModifier)
        assert not reviewer.get_comments()[0].done


def test_explain_the_selected_clause_waits_for_a_selection(qtbot, tmp_path):
    with FakeMessagesAPI() as api:
        window = open_window(qtbot, tmp_path, api.base_url)
        panel, view = window.chat, window.view
        explain = panel.quick_buttons["Explain the selected clause"]
        view.selection.clear_selection()
        assert not explain.isEnabled() and "Select the clause" in explain.toolTip()
        assert panel.quick_buttons["Issues list"].isEnabled()
        block = window.reviewer.snapshot().content_blocks[5]
        assert view.selection.select_block(block.id)
        assert explain.isEnabled()
        api.script(Reply([Text("It sets the pilot period.")]))
        with qtbot.waitSignal(panel.turnFinished, timeout=15_000):
            explain.click()
        sent = api.requests[0].json["messages"][0]["content"][-1]["text"]
        assert sent.startswith("Explain the clause I have selected") and "read_selection" not in sent
        view.selection.clear_selection()
        assert not explain.isEnabled()
