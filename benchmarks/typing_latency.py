"""Typing latency: a keystroke in the middle of the ~520-page NVCA x10 (benchmarks/longdoc.py),
from the key press to the page painted again, in the real review window (engine, undo step,
relayout, paint). Targets: median < 50 ms, 95th percentile < 100 ms. Then pages through the whole
document and checks that no page is stale: every page the view holds (and paints) reads exactly as
a fresh layout of the edited document does.

    QT_QPA_PLATFORM=offscreen python benchmarks/typing_latency.py [--keys 120] [--repeats 10] [--source X.docx]

Keys are sent as real key events (QTest) to the page view, with the event loop run between them
as it is while someone types (about 8 keys a second, faster than the pause after which the panels
catch up), so the timers the window runs meanwhile are counted where they land.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

TEXT = "the Purchaser shall deliver notice within ten days "
GAP_S = 0.12  # between keys: a quick typist


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def open_long_window(app, folder: Path, repeats: int, source: Path | None = None):
    from longdoc import build_long_nvca

    from folio_desktop.assistant import AssistantSettings
    from folio_desktop.ui.desk.window import ReviewWindow

    path = folder / (source.name if source else "nvca_long.docx")
    path.write_bytes(source.read_bytes() if source else build_long_nvca(repeats))
    settings = AssistantSettings(api_key=None, key_source=None, base_url=None, model="claude-sonnet-5-5",
                                 author="Lawyer", config_dir=folder / "config")
    window = ReviewWindow(settings)
    window.files.ask_before_discarding = False
    window.resize(1300, 900)
    window.show()
    done: list[int] = []
    window.view.layoutFinished.connect(done.append)
    window.files.open_document(path)
    while not done:
        app.processEvents()
    return window


def click_into_middle(app, window):
    """Click into a body paragraph of the middle page, just after its first word."""
    from PySide6.QtCore import QPointF, Qt
    from PySide6.QtTest import QTest

    from folio_desktop.ui.pages.text_flow import TextPos

    view = window.view
    middle = len(view.pages) // 2
    for number in range(middle, len(view.pages)):
        for index in view.flow.page_entries(number):
            frag = view.flow.entries[index][1]
            words = frag.text().split(" ")
            if frag.block_id and len(frag.para.text) > 200 and len(words) > 8 and not frag.para.spans[0].kind == "label":
                view.scroll_to_page(number)
                app.processEvents()
                lo = frag.display_range[0] + len(words[0]) + 1
                page, rect = view.flow.caret_rect(TextPos(index, lo))
                point = view.page_to_viewport(page, QPointF(rect.center()))
                QTest.mouseClick(view.viewport(), Qt.LeftButton, Qt.NoModifier, point.toPoint())
                app.processEvents()
                return number
    raise SystemExit("no long body paragraph found in the middle of the document")


def type_keys(app, window, keys: int) -> list[float]:
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    view = window.view
    times = []
    for n in range(keys):
        char = TEXT[n % len(TEXT)]
        start = time.perf_counter()
        QTest.keyClick(view, char, Qt.NoModifier)
        view.viewport().repaint()  # painted now, not at the next turn of the event loop
        times.append(time.perf_counter() - start)
        until = time.perf_counter() + GAP_S
        while time.perf_counter() < until:
            app.processEvents()
            time.sleep(0.002)
    return times


def timed_keys(app, window, key, count: int) -> list[float]:
    from PySide6.QtTest import QTest

    view = window.view
    out = []
    for _ in range(count):
        start = time.perf_counter()
        QTest.keyClick(view, key)
        view.viewport().repaint()
        out.append(time.perf_counter() - start)
        app.processEvents()
    return out


def stale_pages(app, window) -> tuple[int, int]:
    """Page through the whole document; (pages checked, pages that differ from a fresh layout)."""
    from folio_desktop.layout import layout_document

    view = window.view
    markup = getattr(view, "markup_view", None)  # lay out as the view shows it
    fresh = layout_document(window.reviewer.document, **({"view": markup} if markup else {}))
    stale = 0 if len(fresh.pages) == len(view.pages) else abs(len(fresh.pages) - len(view.pages))
    for number in range(1, len(view.pages) + 1):
        view.scroll_to_page(number)
        view.viewport().repaint()
        if number not in view.painted_pages:
            stale += 1
            continue
        ours = view.pages[number - 1]
        theirs = fresh.pages[number - 1] if number <= len(fresh.pages) else None
        if theirs is None or ours.text(include_headers=True) != theirs.text(include_headers=True):
            stale += 1
    app.processEvents()
    return len(view.pages), stale


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keys", type=int, default=120)
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument("--source", type=Path, help="type in this .docx instead of the NVCA x10")
    args = parser.parse_args()
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication

    app = QApplication([])
    with tempfile.TemporaryDirectory() as folder:
        window = open_long_window(app, Path(folder), args.repeats, args.source)
        view = window.view
        page = click_into_middle(app, window)
        block_id = view.selection.caret_block_id()
        before = window.reviewer.snapshot().block(block_id).text
        times = type_keys(app, window, args.keys)
        backspaces = timed_keys(app, window, Qt.Key_Backspace, 20)
        enters = timed_keys(app, window, Qt.Key_Return, 3)
        start = time.perf_counter()
        window.commands._typing_timer.timeout.emit()  # what the pause after typing costs (panels, outline)
        catch_up = time.perf_counter() - start
        after = window.reviewer.snapshot().block(block_id)
        checked, stale = stale_pages(app, window)
        median, p95 = statistics.median(times), percentile(times, 0.95)
        name = args.source.name if args.source else f"NVCA x{args.repeats}"
        print(f"{name}: {len(view.pages)} pages; {args.keys} keys typed on page {page}")
        print(f"keystroke to painted page: median {median * 1000:.1f} ms (target < 50), "
              f"95th percentile {p95 * 1000:.1f} ms (target < 100), slowest {max(times) * 1000:.1f} ms")
        print(f"Backspace: median {statistics.median(backspaces) * 1000:.1f} ms; "
              f"Enter: median {statistics.median(enters) * 1000:.1f} ms; "
              f"panels catching up after a pause: {catch_up * 1000:.0f} ms")
        print(f"paged through {checked} pages: {stale} stale (target 0)")
        print(f"undo steps: {window.review_actions.undo_stack.count()}; the paragraph typed in had {len(before)} "
              f"characters, its first half now {len(after.text) if after is not None else 0} (Enter split it)")
        window.close()
    return 0 if median < 0.05 and p95 < 0.1 and stale == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
