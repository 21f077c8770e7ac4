"""The review window on a file, as the app starts it (ui/app.py), reporting in a JSON file where its
widgets are on the screen and what holds the keyboard: for tests that drive a real window with real
X key and mouse events (xdotool under Xvfb), which need screen coordinates and conditions to wait for.

    python tests/window_probe.py FILE STATE.json

The state file is rewritten (atomically) every 100 ms once the pages are laid out:
  window      the top-level X window id, and whether Qt sees the window as active
  focus       which pane holds the keyboard: pages, reply editor, comment field, find bar, outline,
              changes, comments, chat, dialog, other or none
  word        the screen point in the middle of "word" in the first paragraph
  reply       the screen point of the Reply button of the first thread's balloon
  balloon     the screen point of the first thread's balloon header (its author and date)
  selection   the selected (block id, start, end) in the pages, or null
  field       the object name of the widget that holds the keyboard ("findWhat" in Find and Replace)
  status      the message the status bar shows
  keys        how many keys (modifiers aside) the app has received, a shortcut's too: after a key,
              wait for this to grow before reading what the key did
  version, saves, replies, comments
              the document's version, how many times it was saved, each thread's number of replies,
              every comment's id
  author      the author name the lawyer's changes are made under
  dialog      the dialog shown over the window ({title, window}), or null

The app starts as for a lawyer who has used it before (the author name chosen), unless
FOLIO_PROBE_FIRST_RUN is set.
"""

from __future__ import annotations

import json
import os
import sys
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

FIRST = "6A4E1EB8"  # the corpus document's first paragraph, "This is a word document"
FIRST_RUN_ENV = "FOLIO_PROBE_FIRST_RUN"  # set: the app starts as on a first run (it asks the author name)
LAWYER = "A. Lawyer"  # the author name of a lawyer who has used the app before


def _point(view, page_number, page_point) -> list[int]:
    global_point = view.viewport().mapToGlobal(view.page_to_viewport(page_number, page_point).toPoint())
    return [global_point.x(), global_point.y()]


def word_point(view) -> list[int] | None:
    from PySide6.QtCore import QPointF

    from folio_desktop.ui.pages.text_flow import cursor_x

    entries = view.flow.block_entries(FIRST)
    if not entries:
        return None
    number, frag = view.flow.entries[entries[0]]
    para = frag.para
    try:
        a, b = para.accepted.index(10), para.accepted.index(13) + 1  # "word": accepted [10, 14)
    except ValueError:  # the paragraph is shorter now
        return None
    line = para.layout.lineAt(frag.first_line)
    x = frag.x + para.x + (cursor_x(line, a) + cursor_x(line, b)) / 2
    y = frag.y + para.lines[frag.first_line].y + para.lines[frag.first_line].height / 2
    return _point(view, number, QPointF(x, y))


def reply_point(view, thread_id: int) -> list[int] | None:
    for page in view.pages:
        for balloon in view.marks.balloons(page):
            if balloon.comment_id == thread_id and "reply" in balloon.buttons:
                return _point(view, page.number, balloon.buttons["reply"].center())
    return None


def balloon_point(view, thread_id: int) -> list[int] | None:
    from PySide6.QtCore import QPointF

    for page in view.pages:
        for balloon in view.marks.balloons(page):
            if balloon.comment_id == thread_id and not balloon.hidden:
                return _point(view, page.number, QPointF(balloon.rect.center().x(), balloon.rect.top() + 8))
    return None


def focus_name(window) -> str:
    from PySide6.QtWidgets import QApplication

    focus = QApplication.focusWidget()
    if focus is None:
        return "none"
    if focus.window() is not window:
        return "dialog"
    if focus is window.view.balloons.editor:
        return "reply editor"
    comments = getattr(window, "comment_commands", None)
    if comments is not None and focus is comments.composer.field:
        return "comment field"
    if focus is window.view:
        return "pages"
    for name, area in (("find bar", window.find_bar), ("outline", window.outline), ("changes", window.changes),
                       ("comments", window.comments), ("chat", window.chat)):
        if area.isAncestorOf(focus):
            return name
    return "other"


class KeyCounter:
    """Counts the keys pressed in the app, modifiers left out: each once, whether it went to a widget
    (KeyPress, offered to each parent that ignores it: the same timestamp) or fired a shortcut
    (ShortcutOverride, asked first), and also when a modal dialog opens from it."""

    def __init__(self):
        from PySide6.QtCore import QEvent, QObject, Qt

        counter = self
        modifiers = {Qt.Key_Control, Qt.Key_Shift, Qt.Key_Alt, Qt.Key_Meta, Qt.Key_AltGr, Qt.Key_Super_L,
                     Qt.Key_Super_R}

        class Filter(QObject):
            def eventFilter(self, _watched, event) -> bool:  # noqa: N802 - Qt override
                if event.type() in (QEvent.KeyPress, QEvent.ShortcutOverride) and event.key() not in modifiers:
                    seen = (event.timestamp(), event.key())
                    if seen != counter.last:
                        counter.last = seen
                        counter.count += 1
                return False

        self.count, self.last = 0, None
        self.filter = Filter()


def state(window, keys: KeyCounter) -> dict:
    from PySide6.QtWidgets import QApplication

    view, reviewer = window.view, window.reviewer
    threads = reviewer.get_comments() if reviewer is not None else []
    return {
        "ready": reviewer is not None and view.document_layout is not None,
        "window": int(window.winId()),
        "active": QApplication.activeWindow() is window,
        "title": window.windowTitle(),
        "focus": focus_name(window),
        "field": focus.objectName() if (focus := QApplication.focusWidget()) is not None else None,
        "status": window.statusBar().currentMessage(),
        "word": word_point(view),
        "reply": reply_point(view, threads[0].id) if threads else None,
        "balloon": balloon_point(view, threads[0].id) if threads else None,
        "selection": view.selection.selection_block_range(),
        "version": reviewer.document.version if reviewer is not None else None,
        "saves": sum(1 for e in (window.audit.entries if window.audit else []) if e["kind"] == "save"),
        "replies": {str(t.id): len(t.replies) for t in threads},
        "comments": sorted(c.id for c in reviewer.all_comments()) if reviewer is not None else [],
        "author": window.settings.author,
        "keys": keys.count,
        "dialog": open_dialog(window),
    }


def returning_lawyer() -> None:
    """A lawyer who has used the app before: the first run's question for the author name is answered
    (FIRST_RUN_ENV set: it is asked, as at a first start)."""
    from folio_desktop.assistant.settings import load_settings, save_preferences

    settings = load_settings(use_keyring=False, environ={})
    if not settings.author_chosen:
        settings.author, settings.author_chosen = LAWYER, True
        save_preferences(settings)


def open_dialog(window) -> dict | None:
    """The dialog shown over the window, if any: its title and X window id."""
    from PySide6.QtWidgets import QApplication, QDialog

    shown = [w for w in QApplication.topLevelWidgets() if isinstance(w, QDialog) and w.isVisible()]
    if not shown:
        return None
    dialog = QApplication.activeModalWidget() if QApplication.activeModalWidget() in shown else shown[-1]
    return {"title": dialog.windowTitle(), "window": int(dialog.winId())}


def main(argv: list[str]) -> int:
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from folio_desktop.ui.app import start_window

    path, out = argv[1], Path(argv[2])
    app = QApplication.instance() or QApplication(argv[:1])
    if not os.environ.get(FIRST_RUN_ENV):
        returning_lawyer()
    keys = KeyCounter()
    app.installEventFilter(keys.filter)
    window = start_window(path)
    window.files.ask_before_discarding = False

    def report() -> None:  # (the pages fit the width: the balloons are in the window)
        try:
            now = state(window, keys)
        except Exception:  # noqa: BLE001 - said in the state, where the test reads it
            now = {"error": traceback.format_exc()}
        temporary = out.with_suffix(".tmp")
        temporary.write_text(json.dumps(now))
        os.replace(temporary, out)

    timer = QTimer()
    timer.timeout.connect(report)
    timer.start(100)
    return app.exec()


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
