"""The README's markup screenshots: comment balloons on the bundled sample contract (All Markup),
and the same pages in Simple Markup.

    xvfb-run -a python scripts/markup_screenshots.py [FOLDER]      (default docs/screenshots)

Opens a copy of the sample contract in the review window (settings in a temporary folder, so the
user's own are never read or changed), adds a reply and a second comment through the window's own
comment commands, picks the first thread, and grabs the window: comment-balloons.png, then
simple-markup.png after switching the View menu to Simple Markup. Without a display, Qt's
offscreen platform is used instead of Xvfb.
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


def main(argv: list[str]) -> int:
    out = Path(argv[1]) if len(argv) > 1 else ROOT / "docs" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    work = workspace()

    from PySide6.QtWidgets import QApplication

    from folio_desktop.assistant import AssistantSettings
    from folio_desktop.cli import sample_contract_path
    from folio_desktop.ui.desk.window import ReviewWindow

    app = QApplication.instance() or QApplication(argv[:1])
    document = work / "Mutual NDA - Northwind and Harbour.docx"
    shutil.copyfile(sample_contract_path(), document)
    try:
        settings = AssistantSettings(api_key=None, author="Alex Morgan", config_dir=work / "config")
        window = ReviewWindow(settings)
        window.files.ask_before_discarding = False
        window.resize(1440, 900)
        window.dock.hide()  # Claude's panel: the pages get the room
        window.show()
        window.files.open_document(document)
        wait_for(app, lambda: window.view.document_layout is not None)
        reviewer, view = window.reviewer, window.view
        thread = reviewer.get_comments()[0]
        window.commands.reply_to_comment(thread.id, "Ireland is where Northwind's counsel sits; the Netherlands would "
                                         "suit Harbour. Could we offer England and Wales as neutral ground?")
        cap = next(b for b in reviewer.snapshot().blocks if "total liability" in b.text)
        start = cap.text.index("total liability")
        view.selection.select_range(cap.id, start, start + len("total liability"))
        window.commands.add_comment("Is the cap mutual? Harbour's draft capped only Northwind's liability.")
        wait_for(app, lambda: view.document_layout is not None)
        window.comments_dock.raise_()
        view.fit_width()
        view.balloons.show_comment(thread.id)
        app.processEvents()
        window.grab().save(str(out / "comment-balloons.png"))
        window.set_markup_view("simple")
        wait_for(app, lambda: view.document_layout is not None and view.document_layout.view == "simple")
        view.balloons.show_comment(thread.id)
        app.processEvents()
        window.grab().save(str(out / "simple-markup.png"))
        window.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"wrote {out / 'comment-balloons.png'} and {out / 'simple-markup.png'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
