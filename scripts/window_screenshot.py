"""A PNG of the whole review desk, for the README and for a person to look at.

    xvfb-run -a python scripts/window_screenshot.py [OUT.png]      (default screenshots/window.png)

Opens a copy of the bundled sample contract in the review window, has a short scripted
conversation with "Claude" (the real SDK against the test suite's fake Messages API on
127.0.0.1, so no key and no network are needed) that proposes one change with its reason, selects
the first tracked change, and grabs the window. The settings, recovery folder and window layout
live in a temporary folder, so the user's own are never read or changed. Without a display (no
DISPLAY), Qt's offscreen platform is used instead of Xvfb.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from shot_helpers import wait_for, workspace

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

REASON = "Five years matches the supply term under discussion; three would expire mid-contract."
REPLY = ("I read the outline and the term clause. I proposed **one change** to clause 4 (Term): "
         "*three (3) years* becomes *five (5) years*, with the reason attached as a comment. "
         "The liability cap in clause 5 looks balanced.")


def main(argv: list[str]) -> int:
    out = Path(argv[1]) if len(argv) > 1 else ROOT / "screenshots" / "window.png"
    work = workspace()

    from fake_messages_api import FakeMessagesAPI, Reply, Text, ToolUse
    from PySide6.QtWidgets import QApplication

    from folio_desktop.agents import create_reviewer_bridge, execute_tool_call
    from folio_desktop.assistant import AssistantSettings
    from folio_desktop.cli import sample_contract_path
    from folio_desktop.docx import DocxReviewer
    from folio_desktop.ui.desk.window import ReviewWindow

    app = QApplication.instance() or QApplication(argv[:1])
    document = work / "Mutual NDA - Northwind and Harbour.docx"
    shutil.copyfile(sample_contract_path(), document)
    bridge = create_reviewer_bridge(DocxReviewer.open(document))
    match = execute_tool_call("find_text", {"query": "three (3) years"}, bridge)["result"]["matches"][0]
    change = {"id": "term", "type": "replaceRange", "range": match["range"], "replace": "five (5) years",
              "comment": REASON}

    try:
        with FakeMessagesAPI() as api:
            settings = AssistantSettings(api_key="screenshot", key_source="settings file", base_url=api.base_url,
                                         author="Alex Morgan", config_dir=work / "config")
            window = ReviewWindow(settings)
            window.files.ask_before_discarding = False
            window.resize(1440, 920)
            window.show()
            window.files.open_document(document)
            wait_for(app, lambda: window.view.document_layout is not None)
            api.script(Reply([Text("Let me look at the structure first."), ToolUse("get_document_outline", {})],
                             stop_reason="tool_use"),
                       Reply([ToolUse("suggest_changes", {"operations": [change]})], stop_reason="tool_use"),
                       Reply([Text(REPLY)]))
            finished = []
            window.chat.turnFinished.connect(finished.append)
            window.chat.send("Review the term and liability clauses for my client, Harbour Analytics.")
            if not wait_for(app, lambda: bool(finished)):
                print("the scripted conversation did not finish", file=sys.stderr)
                return 1
        window.changes_dock.raise_()
        window.commands.next_change()
        window.statusBar().showMessage("Claude proposed 1 edit: a tracked change for you to accept or reject.")
        wait_for(app, lambda: False, 300)  # let the pages and panels repaint
        out.parent.mkdir(parents=True, exist_ok=True)
        if not window.grab().save(str(out)):
            print(f"could not write {out}", file=sys.stderr)
            return 1
        print(out)
        window.close()
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
