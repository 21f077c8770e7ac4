"""The composer (Enter, Shift+Enter, history), quick actions, a new conversation, the Markdown
export, the settings dialog, and the window's small parts (open errors, title, zoom)."""

from __future__ import annotations

import os
import stat

import pytest
from chat_helpers import make_settings, open_window, send
from fake_messages_api import Reply, Text, ToolUse
from PySide6.QtCore import Qt

from folio_desktop.assistant import QUICK_ACTIONS, load_settings
from folio_desktop.assistant import settings as settings_module
from folio_desktop.ui.chat.composer import Composer
from folio_desktop.ui.chat.panel import ChatPanel
from folio_desktop.ui.desk.settings_dialog import SettingsDialog

pytestmark = pytest.mark.timeout(60)



@pytest.fixture
def window(qtbot, tmp_path, api):
    return open_window(qtbot, tmp_path, api.base_url)


def user_texts(request) -> list[str]:
    content = request.json["messages"][-1]["content"]
    return [b["text"] for b in content if b.get("type") == "text"]


def test_enter_sends_and_shift_enter_breaks_the_line(qtbot, api, window):
    panel = window.chat
    api.script(Reply([Text("Noted.")]))
    panel.composer.setFocus()
    qtbot.keyClicks(panel.composer, "first line")
    qtbot.keyClick(panel.composer, Qt.Key_Return, Qt.ShiftModifier)
    qtbot.keyClicks(panel.composer, "second line")
    assert panel.composer.toPlainText() == "first line\nsecond line" and api.requests == []
    with qtbot.waitSignal(panel.turnFinished, timeout=10_000):
        qtbot.keyClick(panel.composer, Qt.Key_Return)
    assert user_texts(api.requests[0]) == ["first line\nsecond line"]
    assert panel.composer.toPlainText() == ""
    assert panel.items("user")[0].text() == "first line\nsecond line"
    assert "This turn:" in panel.status_label.text() and "~$" in panel.status_label.text()


def test_enter_while_claude_works_does_not_send(qtbot, api, window):
    import threading

    panel = window.chat
    gate = threading.Event()
    api.script(Reply([Text("Working on it, slowly.")], gate=gate))
    panel.send("One thing.")
    qtbot.waitUntil(lambda: bool(panel.items("assistant")), timeout=10_000)
    qtbot.keyClicks(panel.composer, "Another thing")
    qtbot.keyClick(panel.composer, Qt.Key_Return)
    assert panel.composer.toPlainText() == "Another thing"  # kept for later, not sent
    assert "still working" in panel.status_label.text()
    with qtbot.waitSignal(panel.turnFinished, timeout=10_000):
        gate.set()
    assert len(api.requests) == 1


def test_up_and_down_recall_history_from_the_first_and_last_line(qtbot):
    composer = Composer()
    qtbot.addWidget(composer)
    composer.show()
    sent = []
    composer.submitted.connect(sent.append)
    for text in ("alpha", "beta"):
        composer.setPlainText(text)
        qtbot.keyClick(composer, Qt.Key_Return)
        composer.remember(text)
        composer.clear()
    assert sent == ["alpha", "beta"]
    qtbot.keyClicks(composer, "draft")
    qtbot.keyClick(composer, Qt.Key_Up)
    assert composer.toPlainText() == "beta"
    qtbot.keyClick(composer, Qt.Key_Up)
    assert composer.toPlainText() == "alpha"
    qtbot.keyClick(composer, Qt.Key_Up)
    assert composer.toPlainText() == "alpha"  # the oldest stays
    qtbot.keyClick(composer, Qt.Key_Down)
    assert composer.toPlainText() == "beta"
    qtbot.keyClick(composer, Qt.Key_Down)
    assert composer.toPlainText() == "draft"  # back to what was being typed
    # in a message of several lines, Up and Down move the caret until it is on the edge line
    composer.setPlainText("one\ntwo\nthree")
    composer.moveCursor(composer.textCursor().MoveOperation.End)
    qtbot.keyClick(composer, Qt.Key_Up)
    assert composer.toPlainText() == "one\ntwo\nthree" and composer.textCursor().blockNumber() == 1
    qtbot.keyClick(composer, Qt.Key_Up)
    qtbot.keyClick(composer, Qt.Key_Up)
    assert composer.toPlainText() == "beta"


def test_quick_actions_and_a_new_conversation(qtbot, api, window):
    panel = window.chat
    label = "Summarize pending changes"
    api.script(Reply([Text("There are no pending changes.")]), Reply([Text("Hello again.")]))
    with qtbot.waitSignal(panel.turnFinished, timeout=10_000):
        panel.quick_buttons[label].click()
    assert user_texts(api.requests[0]) == [QUICK_ACTIONS[label]]
    assert panel.entries[0].text == QUICK_ACTIONS[label]
    panel.new_button.click()
    assert panel.entries == [] and panel.status_label.text() == ""
    send(qtbot, panel, "Hi.")
    assert len(api.requests[1].json["messages"]) == 1  # the earlier exchange is gone


def test_export_writes_the_transcript_as_markdown(qtbot, tmp_path, api, window):
    panel = window.chat
    api.script(Reply([Text("Looking."), ToolUse("get_document_outline", {"maxDepth": 2})], stop_reason="tool_use"),
               Reply([Text("The agreement has **two** levels of headings.")]))
    send(qtbot, panel, "What is the structure?")
    path = panel.export_transcript(tmp_path / "transcript.md")
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# Conversation with Claude about contract_commonpaper_pilot_agreement.docx")
    assert "## You\n\nWhat is the structure?" in text
    assert "## Claude" in text and "The agreement has **two** levels of headings." in text
    assert "- Read the outline: 2 headings" in text
    assert panel.transcript_markdown().split("\n", 3)[3] == text.split("\n", 3)[3]


def test_a_fault_link_opens_settings(qtbot, tmp_path):
    panel = ChatPanel(make_settings(tmp_path, None, api_key=None))
    qtbot.addWidget(panel)
    panel.runner.set_bridge(object())  # never used: with no key the turn fails before any tool
    with qtbot.waitSignal(panel.turnFinished, timeout=5_000):
        assert panel.send("Hello?")
    [fault] = panel.items("fault")
    with qtbot.waitSignal(panel.settingsRequested, timeout=1_000):
        fault.linkActivated.emit("settings")


def test_settings_store_a_typed_key_in_a_private_file_without_a_keyring(qtbot, tmp_path, monkeypatch):
    monkeypatch.setattr(settings_module, "_keyring", lambda: None)
    config = tmp_path / "config"
    settings = load_settings(config, environ={})
    assert settings.api_key is None
    dialog = SettingsDialog(settings, environ={})
    qtbot.addWidget(dialog)
    assert dialog.key_edit.echoMode() == dialog.key_edit.EchoMode.Password
    assert dialog.key_status.text().startswith("No API key is set.")
    dialog.key_edit.setText("  sk-ant-typed-key  ")
    dialog.base_url_edit.setText("http://127.0.0.1:9")
    dialog.model_combo.setCurrentText("claude-haiku-4-5")
    dialog.author_edit.setText("A. Lawyer")
    dialog.accept()
    assert dialog.result() == dialog.DialogCode.Accepted
    credentials = config / "credentials.json"
    assert os.stat(credentials).st_mode & 0o777 == 0o600
    assert stat.S_IMODE(os.stat(config / "settings.json").st_mode) == 0o600
    assert "credentials.json, readable only by you" in dialog.message
    assert dialog.key_status.text() == dialog.message and dialog.key_edit.text() == ""
    again = load_settings(config, environ={})
    assert (again.api_key, again.key_source) == ("sk-ant-typed-key", "settings file")
    assert (again.base_url, again.model, again.author) == ("http://127.0.0.1:9", "claude-haiku-4-5", "A. Lawyer")


def test_settings_keep_the_environment_base_url_out_of_the_file(qtbot, tmp_path, monkeypatch):
    monkeypatch.setattr(settings_module, "_keyring", lambda: None)
    env = {"ANTHROPIC_API_KEY": "env-key", "ANTHROPIC_BASE_URL": "http://proxy.invalid"}
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "http://proxy.invalid")
    settings = load_settings(tmp_path, environ=env)
    dialog = SettingsDialog(settings, environ=env)
    qtbot.addWidget(dialog)
    assert "ANTHROPIC_API_KEY environment variable" in dialog.key_status.text()
    assert dialog.base_url_edit.text() == "" and "proxy.invalid" in dialog.base_url_edit.placeholderText()
    assert dialog.apply() == "Settings saved."
    assert settings.effective_base_url == "http://proxy.invalid"  # still used in this session
    assert load_settings(tmp_path, environ={}).base_url is None  # but not written to settings.json


def test_window_title_zoom_and_a_file_that_cannot_be_opened(qtbot, tmp_path, window, monkeypatch):
    assert window.windowTitle().startswith("contract_commonpaper_pilot_agreement.docx")
    window.view.set_zoom(1.0)  # (fit width in this window is about the 50% floor, which zooms out no further)
    zoom = window.view.zoom
    window.zoom_in_action.trigger()
    assert window.view.zoom > zoom
    window.zoom_out_action.trigger()
    window.zoom_out_action.trigger()
    assert window.view.zoom < zoom
    shown = []
    monkeypatch.setattr(window.files, "_error", lambda title, message: shown.append(message))
    bad = tmp_path / "not-a-document.docx"
    bad.write_bytes(b"plain text, not a zip")
    assert window.files.open_document(bad) is False
    assert shown and "Traceback" not in shown[0]
    assert window.path.endswith("contract_commonpaper_pilot_agreement.docx")  # the open document stays
    assert window.commands.accept_change() is False  # nothing clicked, nothing under the selection
    assert "Click a tracked change" in window.statusBar().currentMessage()


def test_a_skipped_operation_has_a_show_link_to_its_block(qtbot, api, window):
    from chat_helpers import pilot_plan

    panel, view = window.chat, window.view
    block = pilot_plan()["insert"]["blockId"]
    stale = {"type": "replaceInBlock", "blockId": block, "find": "words that are not there", "replace": "x"}
    api.script(Reply([ToolUse("suggest_changes", {"operations": [stale]})], stop_reason="tool_use"),
               Reply([Text("That wording was not found.")]))
    send(qtbot, panel, "Change it.")
    [chip] = panel.chips()
    assert chip.state == "ok" and chip.header_text().startswith("✓ 1 not proposed (`find` was not found")
    [(op_id, what, target)] = chip.targets
    assert op_id.startswith("op-") and what.startswith("Not proposed in 1.2: `find` was not found") and target == block
    assert "op-" not in chip.links.text() and "op-" not in chip.header_text()
    assert "Show" in chip.links.text() and chip.links.isVisible()
    view.selection.clear_selection()
    chip.links.linkActivated.emit("show:0")
    assert "License.  If the Product contains Software" in view.selection.selection_text()
    assert window.reviewer.get_changes() == []


def test_the_command_line_opens_the_window_or_prints_a_summary(qtbot, tmp_path, monkeypatch, capsys):
    from chat_helpers import PILOT
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from folio_desktop.cli import main
    from folio_desktop.ui.desk.window import ReviewWindow

    assert main([str(PILOT), "--summary"]) == 0
    assert "pending change(s)" in capsys.readouterr().out
    monkeypatch.setenv("FOLIO_DESKTOP_CONFIG_DIR", str(tmp_path))
    seen = []

    def close_when_open():
        windows = [w for w in QApplication.topLevelWidgets() if isinstance(w, ReviewWindow) and w.isVisible()]
        if windows and windows[0].path:
            seen.append(windows[0].path)
            windows[0].close()
        else:
            QTimer.singleShot(50, close_when_open)

    QTimer.singleShot(0, close_when_open)
    QTimer.singleShot(15_000, QApplication.quit)  # never hang the suite
    assert main([str(PILOT)]) == 0
    assert seen == [str(PILOT)]


def test_thinking_is_shown_collapsed_and_kept_apart_from_the_answer(qtbot, api, window):
    from fake_messages_api import Thinking

    panel = window.chat
    api.script(Reply([Thinking("The lawyer wants the term. Clause 3 says twelve months."), Text("Twelve months.")]))
    result = send(qtbot, panel, "How long is the term?")
    assert result.status == "completed" and result.text == "Twelve months."
    [(toggle, text)] = panel.thinking_widgets()
    assert toggle.text() == "Claude's thinking" and not text.isVisible()
    assert text.text() == "The lawyer wants the term. Clause 3 says twelve months."
    toggle.click()
    assert text.isVisible()
    assert panel.items("assistant")[-1].text() == "Twelve months."
    assert "<summary>Claude's thinking</summary>" in panel.transcript_markdown()
