"""The page keeps its space (issue 27): a 1600x1000 window shows the page at page width and at 75% or
more beside the three side panels; the balloons' area appearing with the first comment never shrinks
the text; a narrow window folds the side panels into strips of buttons that open them again, and the
page keeps a readable width; the window fits the screen it opens on, a saved size larger than the
screen included, and at a 2x scale factor on a 1600x1000 screen Claude's panel is on screen beside a
readable page."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

from chat_helpers import make_settings
from conftest import CORPUS, ROOT
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest

from folio_desktop.ui.desk.window import ReviewWindow

COMMENTED = CORPUS / "superdoc_word_comments_replies_tracked.docx"  # 3 comment threads
PLAIN = CORPUS / "contract_commonpaper_pilot_agreement.docx"  # no comments
SIDE_DOCKS = ("outline_dock", "changes_dock", "comments_dock")


def open_window(qtbot, tmp_path, source, width=1600, height=1000) -> ReviewWindow:
    tmp_path.mkdir(parents=True, exist_ok=True)
    copy = tmp_path / source.name
    shutil.copyfile(source, copy)
    window = ReviewWindow(make_settings(tmp_path, None, api_key=None))
    window.files.ask_before_discarding = False
    window.resize(width, height)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    with qtbot.waitSignal(window.view.layoutFinished, timeout=10_000):
        assert window.files.open_document(copy)
    return window


def docks_shown(window) -> list[bool]:
    """Which of the outline, changes, comments and Claude docks show (a tab behind another does not)."""
    return [not getattr(window, name).visibleRegion().isEmpty() for name in (*SIDE_DOCKS, "dock")]


def word_span(view, block_id: str, start: int, end: int) -> tuple[QPointF, QPointF]:
    """The viewport points where accepted-view text [start, end) of a block starts and ends."""
    from folio_desktop.ui.pages.text_flow import cursor_x

    number, frag = view.flow.entries[view.flow.block_entries(block_id)[0]]
    para = frag.para
    a, b = para.accepted.index(start), para.accepted.index(end - 1) + 1
    line = para.layout.lineAt(frag.first_line)
    y = frag.y + para.lines[frag.first_line].y + para.lines[frag.first_line].height / 2
    left = view.page_to_viewport(number, QPointF(frag.x + para.x + cursor_x(line, a), y))
    right = view.page_to_viewport(number, QPointF(frag.x + para.x + cursor_x(line, b), y))
    return left, right


def test_a_1600_by_1000_window_shows_the_page_at_75_percent_beside_the_panels(qtbot, tmp_path):
    for source in (COMMENTED, PLAIN):
        window = open_window(qtbot, tmp_path / source.stem, source)
        assert docks_shown(window) == [True, True, False, True]  # the comments tab is behind the changes
        assert window.view.fit_mode == "width"  # it opens at page width
        assert window.view.zoom >= 0.75, (source.name, window.view.zoom)
        # the balloons beside the page are in view, not cut off at the right
        page = window.view.pages[0]
        right = window.view.page_to_viewport(1, QPointF(page.width + window.view.marks.markup_width(), 0))
        assert right.x() <= window.view.viewport().width()
        window.close()
    # where the window allows, at least 100%
    wide = open_window(qtbot, tmp_path / "wide", COMMENTED, 2100, 1200)
    assert wide.view.zoom >= 1.0 and all(docks_shown(wide)[i] for i in (0, 1, 3))


def test_the_first_comment_does_not_shrink_the_text(qtbot, tmp_path):
    window = open_window(qtbot, tmp_path, PLAIN)
    view = window.view
    assert view.marks.markup_width() == 0  # no comments yet: no balloons beside the page
    block = view.flow.entries[0][1].block_id
    text = window.reviewer.snapshot().block(block).text
    end = text.index(" ") if " " in text else len(text)
    before = word_span(view, block, 0, end)
    middle = (before[0] + before[1]) / 2
    QTest.mouseDClick(view.viewport(), Qt.LeftButton, Qt.NoModifier, middle.toPoint())  # selects the word
    assert view.selection.selection_text().strip() == text[:end]
    zoom = view.zoom
    assert window.commands.add_comment("Is this the right party?") is not None
    qtbot.waitUntil(lambda: view.marks.markup_width() > 0, timeout=5_000)
    view.finish_layout()
    after = word_span(view, block, 0, end)
    width_before, width_after = before[1].x() - before[0].x(), after[1].x() - after[0].x()
    assert abs(width_after - width_before) < 0.5, (width_before, width_after)  # the word as large on screen
    assert view.zoom == zoom
    # and the new balloon shows whole beside the page
    page = view.pages[0]
    balloon = next(b for b in view.marks.balloons(page))
    assert view.page_to_viewport(1, balloon.rect.topRight()).x() <= view.viewport().width()


def test_a_narrow_window_folds_the_side_panels_into_strips(qtbot, tmp_path):
    window = open_window(qtbot, tmp_path, COMMENTED)
    strips = window.side_strips
    left = strips.strips[Qt.LeftDockWidgetArea]
    assert not left.isVisible()
    window.resize(1000, 700)
    qtbot.waitUntil(lambda: not window.outline_dock.isVisible(), timeout=2_000)
    assert docks_shown(window) == [False, False, False, True]  # Claude stays, narrower
    assert left.isVisible() and left.width() <= 40  # a narrow strip
    buttons = {b.text(): b for b in strips.buttons.values()}
    assert sorted(buttons) == ["Changes", "Checks", "Comments", "Outline"]
    # the page keeps its width (it was 19% with the panels in the way)
    qtbot.waitUntil(lambda: window.view.zoom >= 0.5, timeout=2_000)
    # a strip button opens its panel again
    button = buttons["Changes"]
    QTest.mouseClick(button, Qt.LeftButton)
    qtbot.waitUntil(window.changes_dock.isVisible, timeout=2_000)
    assert button.isChecked()
    QTest.mouseClick(button, Qt.LeftButton)
    qtbot.waitUntil(lambda: not window.changes_dock.isVisible(), timeout=2_000)
    # narrower still: Claude's side folds too
    window.resize(760, 700)
    qtbot.waitUntil(lambda: not window.dock.isVisible(), timeout=2_000)
    assert strips.strips[Qt.RightDockWidgetArea].isVisible()
    qtbot.waitUntil(lambda: window.view.zoom >= 0.5, timeout=2_000)  # once the page has the room
    # wide again: every panel is back where it was, the strips gone
    window.resize(1600, 1000)
    qtbot.waitUntil(lambda: window.outline_dock.isVisible() and window.dock.isVisible(), timeout=2_000)
    assert docks_shown(window) == [True, True, False, True]
    assert not left.isVisible() and not strips.strips[Qt.RightDockWidgetArea].isVisible()


def test_a_window_closed_narrow_saves_its_panels_unfolded(qtbot, tmp_path):
    window = open_window(qtbot, tmp_path, COMMENTED, 900, 700)
    assert not window.outline_dock.isVisible()
    window.close()
    again = ReviewWindow(make_settings(tmp_path, None, api_key=None))
    qtbot.addWidget(again)
    again.resize(1600, 1000)
    again.show()
    qtbot.waitExposed(again)
    assert docks_shown(again) == [True, True, False, True]


def test_a_saved_size_larger_than_the_screen_is_cut_down_to_it(qtbot, tmp_path):
    room = QGuiApplication.primaryScreen().availableGeometry()
    first = ReviewWindow(make_settings(tmp_path, None, api_key=None))
    qtbot.addWidget(first)
    first.show()
    qtbot.waitExposed(first)
    first.resize(room.width() + 700, room.height() + 400)  # saved on a larger screen
    first.close()
    second = ReviewWindow(make_settings(tmp_path, None, api_key=None))
    qtbot.addWidget(second)
    second.show()
    qtbot.waitExposed(second)
    qtbot.waitUntil(lambda: room.contains(second.frameGeometry()), timeout=2_000)
    assert second.width() < room.width() + 700


# the app's own start on a 1600x1000 screen at a 2x scale factor, reporting what is on screen
SCALED = """
import json, sys
from PySide6.QtWidgets import QApplication
app = QApplication(sys.argv[:1])
from folio_desktop.assistant.settings import load_settings
from folio_desktop.ui.app import start_window
window = start_window(sys.argv[1], settings=load_settings(use_keyring=False))
view = window.view
while view.is_laying_out or not view.pages:
    app.processEvents()
for _ in range(50):
    app.processEvents()
room = window.screen().availableGeometry()
frame = window.frameGeometry()
claude = window.dock
top_left = claude.mapToGlobal(claude.rect().topLeft())
print("STATE " + json.dumps({
    "screen": [room.x(), room.y(), room.width(), room.height()],
    "window": [frame.x(), frame.y(), frame.width(), frame.height()],
    "claude": [top_left.x(), top_left.y(), claude.width(), claude.height()] if claude.isVisible() else None,
    "zoom": view.zoom, "dpr": window.devicePixelRatioF()}), flush=True)
"""


def test_at_a_2x_scale_factor_claude_is_on_screen_beside_a_readable_page(tmp_path):
    screens = tmp_path / "screens.json"
    screens.write_text(json.dumps({"screens": [{"name": "laptop", "x": 0, "y": 0, "width": 1600, "height": 1000,
                                                "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]}))
    copy = tmp_path / COMMENTED.name
    shutil.copyfile(COMMENTED, copy)
    env = {**os.environ, "QT_QPA_PLATFORM": f"offscreen:configfile={screens}", "QT_SCALE_FACTOR": "2",
           "FOLIO_DESKTOP_CONFIG_DIR": str(tmp_path / "config"), "PYTHONPATH": str(ROOT)}
    env.pop("ANTHROPIC_API_KEY", None)
    done = subprocess.run([sys.executable, "-c", SCALED, str(copy)], capture_output=True, text=True, cwd=ROOT,
                          env=env, timeout=120)
    line = next((x for x in done.stdout.splitlines() if x.startswith("STATE ")), None)
    assert line, done.stderr[-2000:]
    state = json.loads(line[6:])
    sx, sy, sw, sh = state["screen"]
    assert (sw, sh, state["dpr"]) == (800, 500, 2.0)  # 1600x1000 device pixels at 2x
    x, y, w, h = state["window"]
    assert sx <= x and sy <= y and x + w <= sx + sw and y + h <= sy + sh, state
    assert state["claude"] is not None, state  # Claude's panel is shown...
    cx, cy, cw, ch = state["claude"]
    assert sx <= cx and cx + cw <= sx + sw and cy + ch <= sy + sh, state  # ...and on the screen
    assert state["zoom"] * state["dpr"] >= 0.75, state  # the page as large as 75% on a plain screen
