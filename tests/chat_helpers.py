"""Shared set-up for the chat panel tests: a review window on a copy of a corpus contract, talking
to the fake Messages API through the real SDK, and checks on what the server received."""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import CORPUS
from PySide6.QtCore import QPointF, Qt

from folio_desktop.agents import create_reviewer_bridge, execute_tool_call
from folio_desktop.assistant import AssistantSettings
from folio_desktop.docx import DocxReviewer
from folio_desktop.ui.desk.window import ReviewWindow
from folio_desktop.ui.pages.text_flow import cursor_x

PILOT = CORPUS / "contract_commonpaper_pilot_agreement.docx"
MODEL = "claude-sonnet-5-5"
TURN_MS = 15_000


def make_settings(tmp_path: Path, base_url: str | None, api_key: str | None = "test-key") -> AssistantSettings:
    return AssistantSettings(api_key=api_key, key_source="settings file" if api_key else None, base_url=base_url,
                             model=MODEL, author="Lawyer", config_dir=tmp_path / "config")


def open_window(qtbot, tmp_path: Path, base_url: str | None, api_key: str | None = "test-key",
                source: Path = PILOT) -> ReviewWindow:
    """A shown ReviewWindow on a copy of `source`, laid out."""
    copy = tmp_path / source.name
    if not copy.exists():
        shutil.copy(source, copy)
    window = ReviewWindow(make_settings(tmp_path, base_url, api_key))
    window.files.ask_before_discarding = False
    window.resize(1300, 850)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    with qtbot.waitSignal(window.view.layoutFinished, timeout=10_000):
        assert window.files.open_document(copy)
    return window


def send(qtbot, panel, text: str, timeout: int = TURN_MS):
    """Type `text` in the composer, press Enter, and wait for the turn's TurnResult."""
    panel.composer.setFocus()
    panel.composer.clear()
    qtbot.keyClicks(panel.composer, text)
    with qtbot.waitSignal(panel.turnFinished, timeout=timeout) as finished:
        qtbot.keyClick(panel.composer, Qt.Key_Return)
    return finished.args[0]


def pilot_plan(path: Path = PILOT) -> dict:
    """Real ids and ranges of the pilot agreement, read headless from the same bytes."""
    bridge = create_reviewer_bridge(DocxReviewer.open(path))
    outline = execute_tool_call("get_document_outline", {"maxDepth": 3}, bridge)["result"]  # all 67 on one page
    section = next(s for s in outline["sections"] if s["text"].startswith("Access and Use."))
    found = execute_tool_call("find_text", {"query": "Pilot Period"}, bridge)["result"]
    matches = [dict(m, blockId=b["blockId"]) for b in found["blocks"] for m in b["matches"]]
    match = next(m for m in matches if m["blockId"] == section["handle"]["headingBlockId"])
    anchor = next(s for s in outline["sections"] if s["text"].startswith("License."))
    return {
        "section": section,
        "match": match,
        "replace": {"id": "op-replace", "type": "replaceRange", "range": match["range"], "replace": "Trial Period"},
        "insert": {"id": "op-insert", "type": "insertAfterBlock", "blockId": anchor["handle"]["headingBlockId"],
                   "text": "Customer shall report defects in the Product promptly."},
    }


def assert_valid_conversation(messages: list[dict]) -> None:
    """What the Messages API demands of a request's messages: user first and last, roles
    alternating, and every tool_use answered by a tool_result at the start of the next message."""
    assert messages and messages[0]["role"] == "user" and messages[-1]["role"] == "user"
    for before, after in zip(messages, messages[1:]):
        assert before["role"] != after["role"], [m["role"] for m in messages]
    for i, message in enumerate(messages):
        content = message["content"] if isinstance(message["content"], list) else []
        uses = [b["id"] for b in content if b.get("type") == "tool_use"]
        if uses:
            answer = messages[i + 1]["content"]
            results = [b["tool_use_id"] for b in answer if b.get("type") == "tool_result"]
            assert results == uses
            assert [b.get("type") for b in answer[:len(uses)]] == ["tool_result"] * len(uses)


def span_point(frag, span) -> QPointF:
    """The page point in the middle of a span's first line."""
    para = frag.para
    k = next(k for k in range(frag.first_line, frag.last_line + 1) if span.start < para.lines[k].end)
    line = para.layout.lineAt(k)
    x1 = cursor_x(line, max(span.start, para.lines[k].start))
    x2 = cursor_x(line, min(span.end, para.lines[k].end))
    return QPointF(frag.x + para.x + (x1 + x2) / 2, frag.y + para.lines[k].y + para.lines[k].height / 2)


def click_redline(qtbot, view, block_id: str, kind: str, text: str) -> int:
    """Click the `kind` span ("inserted", "deleted") reading `text` in a block; the change id clicked."""
    for page in view.document_layout.pages:
        for frag in page.body_fragments():
            if frag.block_id != block_id:
                continue
            for span in frag.para.spans:
                if span.kind == kind and frag.para.text[span.start:span.end].startswith(text):
                    view.scroll_to_page(page.number)
                    point = view.page_to_viewport(page.number, span_point(frag, span)).toPoint()
                    with qtbot.waitSignal(view.changeClicked, timeout=2_000) as clicked:
                        qtbot.mouseClick(view.viewport(), Qt.LeftButton, pos=point)
                    return clicked.args[0]
    raise AssertionError(f"no {kind} span {text!r} in block {block_id}")
