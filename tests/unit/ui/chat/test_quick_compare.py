"""The "Compare with an earlier version" quick action: a click asks for the earlier .docx, opens the
compare window on it and the document open (as File > Compare does), and sends Claude the version diff
through the real SDK to the fake Messages API; the transcript shows the request, not the diff."""

from __future__ import annotations

from pathlib import Path

import pytest
from chat_helpers import open_window
from fake_messages_api import Reply, Text
from pilot_versions import write_pilot_pair
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from folio_desktop.agents import compare_docx_versions, format_version_diff_for_llm
from folio_desktop.assistant import QUICK_ACTIONS
from folio_desktop.assistant.prompts import COMPARE_ACTION

pytestmark = pytest.mark.timeout(90)


@pytest.fixture
def pair(tmp_path):
    return write_pilot_pair(tmp_path)  # (pilot v1.docx, pilot v2.docx): v2 rewords 2.2 and 5.1, adds, deletes, moves


@pytest.fixture
def asked(monkeypatch):
    """The file dialog's static getter answers with `asked.answer`; `asked.calls` records each question."""
    class Asked:
        answer = ""
        calls: list[tuple] = []

    def get_open_file_name(parent, caption, start, filters):
        Asked.calls.append((caption, start, filters))
        return Asked.answer, filters

    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(get_open_file_name))
    return Asked


def user_text(request) -> str:
    return "".join(b["text"] for b in request.json["messages"][-1]["content"] if b.get("type") == "text")


def click_compare(qtbot, window):
    button = window.chat.quick_buttons[COMPARE_ACTION]
    with qtbot.waitSignal(window.chat.turnFinished, timeout=20_000) as finished:
        qtbot.mouseClick(button, Qt.LeftButton)
    return finished.args[0]


def only_comparison(window):
    assert len(window.files.compare_windows) == 1
    comparison = window.files.compare_windows[0]
    comparison.ask_before_discarding = False
    return comparison


def test_compare_opens_the_two_versions_and_sends_claude_their_diff(qtbot, tmp_path, api, pair, asked):
    base, revised = pair
    window = open_window(qtbot, tmp_path, api.base_url, source=revised)
    asked.answer = str(base)
    api.script(Reply([Text("Clause 5.1 now caps liability in the **aggregate**.")]))
    assert click_compare(qtbot, window).status == "completed"

    assert asked.calls == [("Compare with an earlier version", str(tmp_path), "Word documents (*.docx)")]
    comparison = only_comparison(window)
    assert (comparison.base_path, comparison.revised_path) == (str(base), window.path)
    assert comparison.isVisible() and comparison.windowTitle().startswith("Compare: pilot v1.docx → pilot v2.docx")

    sent = user_text(api.requests[0])
    diff = format_version_diff_for_llm(compare_docx_versions(base.read_bytes(), revised.read_bytes()))
    assert "total cumulative" in diff and "aggregate" in diff and "Applicable Laws" in diff
    assert sent.startswith(QUICK_ACTIONS[COMPARE_ACTION])
    assert f"<version_diff>\n{diff}\n</version_diff>" in sent
    assert "Earlier version: pilot v1.docx. Later version: pilot v2.docx" in sent

    # the transcript shows the request and which files, not the diff; nothing in the document changed
    shown = window.chat.items("user")[0].text()
    assert shown.startswith(QUICK_ACTIONS[COMPARE_ACTION]) and "pilot v1.docx and pilot v2.docx" in shown
    assert "<version_diff>" not in shown and "Applicable Laws" not in shown
    assert "aggregate" in window.chat.visible_text()
    assert window.reviewer.get_changes() == [] and not window.modified
    comparison.close()


def test_unsaved_changes_are_compared_as_they_stand(qtbot, tmp_path, api, pair, asked):
    base, revised = pair
    window = open_window(qtbot, tmp_path, api.base_url, source=base)
    block = next(b for b in window.reviewer.snapshot().blocks if "immediately" in b.text)
    result = window.reviewer.apply_document_operations({"version": 1, "mode": "tracked-changes", "operations": [
        {"type": "replaceInBlock", "blockId": block.id, "find": "immediately", "replace": "forthwith"}]})
    assert result["applied"] and window.modified
    asked.answer = str(revised)  # any version will do: here the later one stands in as "earlier"
    api.script(Reply([Text("Noted.")]))
    assert click_compare(qtbot, window).status == "completed"

    comparison = only_comparison(window)
    assert Path(comparison.revised_path).name == "pilot v1.docx" and Path(comparison.revised_path) != base
    assert not Path(comparison.revised_path).exists()  # the private copy is gone once read
    sent = user_text(api.requests[0])
    assert "forthwith" in sent and "at once" in sent  # the unsaved edit against the other version's wording
    comparison.close()


def test_cancelling_the_file_dialog_opens_and_sends_nothing(qtbot, tmp_path, api, pair, asked):
    window = open_window(qtbot, tmp_path, api.base_url, source=pair[1])
    asked.answer = ""
    qtbot.mouseClick(window.chat.quick_buttons[COMPARE_ACTION], Qt.LeftButton)
    assert len(asked.calls) == 1
    assert window.files.compare_windows == [] and not window.chat.busy and window.chat.entries == []
    assert api.requests == []


def test_a_long_diff_is_cut_at_a_line_and_says_so():
    from types import SimpleNamespace

    from conftest import CORPUS

    from folio_desktop.ui.chat.version_compare import DIFF_CHARS, version_diff_message

    ilpa, pilot = CORPUS / "contract_ilpa_model_lpa_whole_of_fund_75p.docx", CORPUS / "contract_commonpaper_pilot_agreement.docx"
    diff = compare_docx_versions(ilpa.read_bytes(), pilot.read_bytes())
    whole = format_version_diff_for_llm(diff, limit=10**9)  # the engine's own bound: one part of at most 100k
    assert len(whole) > DIFF_CHARS
    sent, shown = version_diff_message("Summarize.", SimpleNamespace(base_path=ilpa, revised_path=pilot, diff=diff))
    body = sent.split("<version_diff>\n", 1)[1].removesuffix("\n</version_diff>")
    kept, note = body.rsplit("\n", 1)
    assert len(body) <= DIFF_CHARS + 200 and whole.startswith(kept + "\n")
    total = len([c for c in diff["changes"] if not c.get("minor")])
    shown_changes = len(kept.splitlines()) - 2  # the head lines: counts, and what was left out as minor
    assert note == f"… ({total - shown_changes} more changes are left out: tell me the summary is partial)"
    assert shown == ("Summarize.\n(The differences between contract_ilpa_model_lpa_whole_of_fund_75p.docx and "
                     "contract_commonpaper_pilot_agreement.docx go with this message.)")
