"""The README's screenshots of the reviewing pane and the compare window.

    xvfb-run -a -s "-screen 0 1600x1000x24" python scripts/review_screenshots.py [FOLDER]
                                                          (default docs/screenshots)

reviewing-pane.png: the Common Paper pilot agreement with tracked changes by two authors (a word
replaced, a clause deleted, a clause moved, a new clause, a clause made bold), written through the
operation engine, open in the review window with the move chosen in the Changes panel and every
row's whole text shown. compare-window.png: File > Compare of the pilot agreement and a later
version of it, the first difference chosen and opened. Settings live in a temporary folder, so the user's own
are never read or changed. Without a display, Qt's offscreen platform is used instead of Xvfb.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from shot_helpers import review_window, wait_for, workspace

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

PILOT = ROOT.parent / "shared" / "corpus" / "contract_commonpaper_pilot_agreement.docx"
FORCE_MAJEURE, SURVIVAL_B, REPRESENTATIONS = "2B40068A", "197F919C", "3B3CEE90"
NEW_CLAUSE = "Each party will comply with all Applicable Laws in performing this Agreement."


def settle(app, ms: int = 400) -> None:
    from PySide6.QtCore import QDeadlineTimer, QEventLoop

    deadline = QDeadlineTimer(ms)
    while not deadline.hasExpired():
        app.processEvents(QEventLoop.AllEvents, 20)


def save(window, path: Path) -> None:
    """The window as a 256-colour PNG: a quarter of the size, the text as sharp (no dithering)."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage

    image = window.grab().toImage().convertToFormat(QImage.Format_Indexed8, Qt.ThresholdDither | Qt.AvoidDither)
    image.save(str(path), "PNG", 0)


def apply(reviewer, mode: str, *operations) -> None:
    result = reviewer.apply_document_operations({"version": 1, "mode": mode, "operations": list(operations)})
    if len(result["applied"]) != len(operations):
        raise SystemExit(f"an edit was skipped: {result['skipped']}")


def reviewed_contract(path: Path) -> None:
    """The pilot agreement with two authors' tracked changes."""
    from folio_desktop.docx import DocxReviewer

    reviewer = DocxReviewer.open(PILOT, author="Dana Whitfield")
    force_majeure = reviewer.snapshot().block(FORCE_MAJEURE).text
    apply(reviewer, "tracked-changes",
          {"type": "replaceInBlock", "blockId": "2490E3DE", "find": "immediately", "replace": "on written notice"},
          {"type": "deleteBlock", "blockId": "495703C8"},
          {"type": "deleteBlock", "blockId": FORCE_MAJEURE, "moveId": "fm"},
          {"type": "insertAfterBlock", "blockId": SURVIVAL_B, "text": force_majeure, "moveId": "fm"})
    reviewer.author = reviewer.engine.author = "Alex Morgan"
    apply(reviewer, "tracked-changes",
          {"type": "insertAfterBlock", "blockId": REPRESENTATIONS, "text": NEW_CLAUSE},
          {"type": "replaceInBlock", "blockId": "2780E4B6", "find": "total cumulative", "replace": "aggregate"})
    reviewer.save(path)


def later_version(base: Path, revised: Path) -> None:
    from folio_desktop.docx import DocxReviewer

    base.write_bytes(PILOT.read_bytes())
    reviewer = DocxReviewer.open(PILOT)
    force_majeure = reviewer.snapshot().block(FORCE_MAJEURE).text
    apply(reviewer, "direct",
          {"type": "replaceInBlock", "blockId": "2490E3DE", "find": "immediately", "replace": "on written notice"},
          {"type": "replaceInBlock", "blockId": "2780E4B6", "find": "total cumulative", "replace": "aggregate"},
          {"type": "insertAfterBlock", "blockId": REPRESENTATIONS, "text": NEW_CLAUSE},
          {"type": "deleteBlock", "blockId": "495703C8"},
          {"type": "deleteBlock", "blockId": FORCE_MAJEURE},
          {"type": "insertAfterBlock", "blockId": SURVIVAL_B, "text": force_majeure})
    reviewer.save(revised)


def main(argv: list[str]) -> int:
    out = Path(argv[1]) if len(argv) > 1 else ROOT / "docs" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    work = workspace()

    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication

    from folio_desktop.ui.desk.compare_window import CompareWindow

    app = QApplication.instance() or QApplication(argv[:1])

    document = work / "Pilot Agreement (their draft).docx"
    reviewed_contract(document)
    window = review_window(app, work, document)  # the pages and the reviewing pane, without the Claude panel
    window.resizeDocks([window.changes_dock], [470], Qt.Horizontal)
    window.changes.full_text.setChecked(True)
    moved = next(row for row in window.changes.rows if row.kind == "move")
    window.changes.select_change(moved.shown.id)
    window.commands.show_change(moved.shown.id)
    settle(app)
    save(window, out / "reviewing-pane.png")
    window.close()

    base, revised = work / "Pilot Agreement v1.docx", work / "Pilot Agreement v2.docx"
    later_version(base, revised)
    compare = CompareWindow(base, revised, author="Alex Morgan")
    compare.ask_before_discarding = False
    compare.resize(1500, 940)
    compare.show()
    wait_for(app, lambda: compare.view.document_layout is not None)
    compare.differences.next_change()
    compare.differences.list.currentItem().setExpanded(True)  # the clause as it reads now and as it was
    settle(app)
    save(compare, out / "compare-window.png")
    compare.close()
    for name in ("reviewing-pane.png", "compare-window.png"):
        print(out / name)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
