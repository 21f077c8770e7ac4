"""A seeded key fuzz over the whole review window: thousands of random keys (text, Enter, Tab, F1-F12,
Escape, arrows, Backspace, Delete, Ctrl / Alt / Shift / Meta chords) given to every widget of the
window that takes the keyboard (the pages, each panel and its widgets, the chat, the find bar, a
balloon's reply editor) and to the settings dialog opened beside it, each key with the focus in its
widget, as a keyboard gives it (the window's shortcuts first, then the focus widget).

The oracle, checked after every key: the document changes only
- by typing in the pages: the page view itself had the focus, the key is one that types (text with
  no Ctrl / Alt / Meta, Enter, Tab, Backspace, Delete, Ctrl+X / Ctrl+V, Ctrl+Backspace / Ctrl+Delete),
  and the edit is that key's (its undo step is named for it; text typed grows the body by at most that
  text); or by one of the pages' own shortcuts (Ctrl+Shift+Backspace) with the page view focused;
- by a command of the window whose shortcut changes the document by design (Undo, Redo, Accept,
  Reject, Accept / Reject and Move to Next, Track Changes), never from another window (the dialog);
- by clicking a focused button with the keyboard (Space on the changes panel's Accept, say);
- by a reply or a comment sent with Enter from a comment field (the balloon's reply editor, the
  comments panel's fields, a new or edited comment's field with Ctrl+Enter), or a comment deleted
  with Delete in the comments panel: then only the comments change, never the body.
Anything else that changes the document fails the test, with the seed and the keys that led there.
Modal dialogs, message boxes, file dialogs and menus answer "cancel" at once (a watchdog closes any
that slips through and fails the test), and Close / Quit are disabled: the fuzz never blocks or ends
the window it runs in.
"""

from __future__ import annotations

import copy
import os
import random
import time
from collections import deque

import pytest
import shiboken6
from key_helpers import body, no_blocking_dialogs, review_window
from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtGui import QAction
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractButton, QApplication, QWidget

from folio_desktop.assistant import settings as assistant_settings
from folio_desktop.ui.desk.settings_dialog import SettingsDialog

SEED = int(os.environ.get("FOLIO_KEY_FUZZ_SEED", "20250125"))
KEYS = 5_000
BUDGET_S = 60.0
W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"

CTRL, ALT, SHIFT, META = Qt.ControlModifier, Qt.AltModifier, Qt.ShiftModifier, Qt.MetaModifier
NONE = Qt.NoModifier
TEXT = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,;:!?'\"()-_/@#&%€éüß§"
NAVIGATION = (Qt.Key_Left, Qt.Key_Right, Qt.Key_Up, Qt.Key_Down, Qt.Key_Home, Qt.Key_End, Qt.Key_PageUp,
              Qt.Key_PageDown)
FUNCTION_KEYS = tuple(getattr(Qt, f"Key_F{n}") for n in range(1, 13))
# window commands that change the document by design, from anywhere in the window
DOCUMENT_COMMANDS = ("undo_action", "redo_action", "accept_action", "reject_action", "accept_next_action",
                     "reject_next_action", "track_changes_action")
PAGE_COMMANDS = ("edit_paragraph_action", "insert_paragraph_action", "delete_paragraph_action")


# -- the keys -----------------------------------------------------------------------------------------


# dialogs the window opens with open() (window-modal: they take the keyboard, block nothing): F1's list
# of shortcuts and About; the watchdog closes them like any other, without calling them blocking
OPENED_NOT_RUN = ("ShortcutsDialog", "AboutDialog")


def _char_key(ch: str):
    upper = ch.upper()
    code = ord(upper) if len(upper) == 1 else 0x100
    return Qt.Key(code) if code <= 0xFF else Qt.Key_unknown


def _x11_text(mods, letter: str) -> str:
    """The text X11 gives a key: Ctrl turns a letter into its control character; Alt and Meta leave it."""
    if mods & CTRL:
        return chr(ord(letter.lower()) & 0x1F) if letter.isalpha() and letter.isascii() else ""
    return letter


def random_key(rng: random.Random):
    """(key, modifiers, text) of one random key."""
    roll = rng.random()
    if roll < 0.30:
        ch = rng.choice(TEXT)
        return _char_key(ch), SHIFT if ch.isupper() else NONE, ch
    if roll < 0.38:
        return rng.choice((Qt.Key_Return, Qt.Key_Enter)), rng.choice((NONE, NONE, SHIFT)), "\r"
    if roll < 0.44:
        return (Qt.Key_Tab, NONE, "\t") if rng.random() < 0.7 else (Qt.Key_Backtab, SHIFT, "")
    if roll < 0.50:
        key = rng.choice((Qt.Key_Backspace, Qt.Key_Delete))
        return key, rng.choice((NONE, NONE, CTRL)), "\b" if key == Qt.Key_Backspace else "\x7f"
    if roll < 0.58:
        return rng.choice(NAVIGATION), rng.choice((NONE, SHIFT, CTRL, CTRL | SHIFT)), ""
    if roll < 0.70:
        return rng.choice(FUNCTION_KEYS), rng.choice((NONE, NONE, SHIFT, CTRL, ALT, CTRL | SHIFT)), ""
    if roll < 0.75:
        return Qt.Key_Escape, rng.choice((NONE, SHIFT)), "\x1b"
    # a chord: Ctrl / Alt / Shift / Meta with a letter, a digit, or a key that edits
    mods = rng.choice((CTRL, CTRL, CTRL | SHIFT, ALT, ALT | SHIFT, CTRL | ALT, META, CTRL | ALT | SHIFT))
    target = rng.choice("abcdefghijklmnopqrstuvwxyz0123456789.,=-" + "\r\t\b\x7f ")
    special = {"\r": Qt.Key_Return, "\t": Qt.Key_Tab, "\b": Qt.Key_Backspace, "\x7f": Qt.Key_Delete,
               " ": Qt.Key_Space}
    if target in special:
        return special[target], mods, target if not mods & CTRL or target in "\r\t" else ""
    return _char_key(target), mods, _x11_text(mods, target)


def typing_labels(key, mods, text: str) -> set[str]:
    """The undo steps a key may make in the pages, by this test's own account of typing (not the
    code's): empty for a key that must not change the document there."""
    ctrl, alt, shift = bool(mods & CTRL), bool(mods & ALT), bool(mods & SHIFT)
    printable = bool(text) and all(ch.isprintable() for ch in text)
    if mods & META or (alt and not ctrl):
        return set()
    if ctrl and alt:
        return {"Typing", "Delete"} if printable else set()  # AltGr: a character, typed over a selection
    if key == Qt.Key_Delete and shift and not ctrl:
        return {"Cut"}
    if key in (Qt.Key_Backspace, Qt.Key_Delete):
        return {"Delete"}
    if ctrl:
        return {"Cut"} if key == Qt.Key_X else {"Paste", "Delete"} if key == Qt.Key_V else set()
    if key in (Qt.Key_Return, Qt.Key_Enter):
        return {"Line break", "Delete"} if shift else {"New paragraph", "Delete"}
    if key == Qt.Key_Tab or (printable and key not in NAVIGATION):
        return {"Typing", "Delete"}
    return set()


# -- the window under test ----------------------------------------------------------------------------


class Recorder:
    """What happened during one key: the QActions triggered, the buttons clicked, the keystroke undo
    steps that reached the window's ReviewActions."""

    def __init__(self, window):
        self.actions: list[str] = []
        self.buttons: list[QWidget] = []
        self.keystrokes: list[str] = []
        names = {id(getattr(window, n)): n for n in dir(window) if n.endswith("_action")
                 and isinstance(getattr(window, n, None), QAction)}
        for action in window.findChildren(QAction):
            name = names.get(id(action), action.text())
            action.triggered.connect(lambda _c=False, n=name: self.actions.append(n))
        for button in window.findChildren(QAbstractButton):
            button.clicked.connect(lambda _c=False, b=button: self.buttons.append(b))
        actions = window.review_actions
        keystroke = actions.keystroke

        def recorded(label, *args, **kwargs):
            self.keystrokes.append(label)
            return keystroke(label, *args, **kwargs)

        actions.keystroke = recorded

    def clear(self) -> None:
        self.actions.clear()
        self.buttons.clear()
        self.keystrokes.clear()


def _chars(blocks: list[str]) -> int:
    return sum(len(text.replace("\n", "")) for text in blocks)


def live_paragraphs(reviewer) -> int:
    """The paragraphs the body keeps once every change is accepted: the blocks of the accepted view,
    less those wholly pending deletion (their text and their paragraph mark struck)."""
    count = 0
    for block in reviewer.snapshot().blocks:
        mark = block.element.find(f"{W}pPr/{W}rPr") if block.element is not None else None
        struck = mark is not None and (mark.find(f"{W}del") is not None or mark.find(f"{W}moveFrom") is not None)
        count += not (struck and not block.text.strip())
    return count


def _differences(before, after) -> str:
    """The paragraphs and tracked changes that differ between two body() states, for a failure message."""
    lines = [f"  paragraph {i}: {a!r} -> {b!r}" for i, (a, b) in enumerate(zip(before[0], after[0])) if a != b]
    if len(before[0]) != len(after[0]):
        lines.append(f"  {len(before[0])} paragraphs -> {len(after[0])}")
    gone = [c for c in before[1] if c not in after[1]]
    came = [c for c in after[1] if c not in before[1]]
    if gone or came:
        lines.append(f"  changes gone {gone}, changes new {came}")
    elif before[1] != after[1]:
        lines.append(f"  the same changes in another order:\n    {before[1]}\n    {after[1]}")
    return "\n".join(lines) or "  (nothing: the same text and changes)"


def _with_text(changes: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The tracked changes less empty insertions and deletions (a run holding only a comment's reference)."""
    return [c for c in changes if c[1] or c[0] not in ("insertion", "deletion")]


def comments_of(reviewer) -> list[tuple]:
    """Every comment and reply in the comments part (get_comments leaves out some, e.g. on struck text)."""
    return [(c.id, c.text, c.done) for c in reviewer.all_comments()]


def describe(widget) -> str:
    if widget is None or not shiboken6.isValid(widget):
        return "nothing"
    name = widget.objectName() or ""
    parent = widget.parentWidget()
    where = type(parent).__name__ if parent is not None else "-"
    return f"{type(widget).__name__}{'#' + name if name else ''} in {where}"


class Fuzz:
    def __init__(self, window, rng: random.Random):
        self.window, self.rng = window, rng
        self.view, self.reviewer = window.view, window.reviewer
        self.recorder = Recorder(window)
        # the dialog works on a copy of the settings: a key typed and saved there never reaches Claude
        self.dialog = SettingsDialog(copy.deepcopy(window.settings), window)
        self.history: deque = deque(maxlen=25)
        self.targeted: set[str] = set()
        self.reached: set[int] = set()  # the widgets given keys
        self.edits = self.commands = self.comments = self.clicks = 0
        self.states: dict[int, tuple] = {}  # document version -> (body, comments), for the oracle
        self.paragraphs: dict[int, int] = {}  # document version -> paragraphs once every change is accepted
        window.find_bar.open()
        self.view.balloons.open_editor(self.reviewer.get_comments()[0].id)
        self.dialog.show()
        self.queue = [*self.focusable(window), *self.focusable(self.dialog)][::-1]
        self.every = len(self.queue)  # focusable widgets, each given keys before the random picks

    # -- targets ----------------------------------------------------------------------------------

    def focusable(self, top) -> list[QWidget]:
        return [w for w in top.findChildren(QWidget) if w.focusPolicy() & Qt.TabFocus and w.isVisible()
                and w.isEnabled() and w.window() is top]

    def pick(self) -> tuple[QWidget, str]:
        """A widget to give the next keys to: every focusable widget of the window and of the dialog
        in turn first, then at random (made visible first when it is one that opens)."""
        while self.queue:
            widget = self.queue.pop()
            if shiboken6.isValid(widget) and widget.isVisible() and widget.isEnabled():
                return widget, describe(widget)
        window, view, roll = self.window, self.view, self.rng.random()
        if roll < 0.30:
            self.place_caret()
            return view, "pages"
        if roll < 0.38:
            threads = self.reviewer.get_comments()
            if threads:
                if not view.balloons.editor.isVisible():
                    view.balloons.open_editor(self.rng.choice(threads).id)
                if view.balloons.editor.isVisible():
                    return view.balloons.editor, "reply editor"
        if roll < 0.44:
            if not window.find_bar.isVisible():
                window.find_bar.open()
            return window.find_bar.field, "find field"
        if roll < 0.50:
            return window.chat.composer, "chat composer"
        if roll < 0.56:
            if not self.dialog.isVisible():
                self.dialog.show()
            widgets = self.focusable(self.dialog)
            return self.rng.choice(widgets), "settings dialog"
        if roll < 0.60:
            self.rng.choice((window.changes_dock, window.comments_dock)).raise_()
        widgets = [w for w in self.focusable(window) if w is not view.balloons.editor]
        widget = self.rng.choice(widgets)
        return widget, describe(widget)

    def place_caret(self) -> None:
        """Now and then a click, a double-click (a word) or a drag in the text, as the lawyer would."""
        view = self.view
        if self.rng.random() > 0.3 or not view.pages:
            return
        rect = view.page_rect(max(view.current_page(), 1)).intersected(view.viewport().rect())
        if rect.isEmpty():
            return
        point = QPoint(round(rect.left() + self.rng.random() * rect.width() * 0.7),
                       round(rect.top() + self.rng.random() * min(rect.height(), 400)))
        if self.rng.random() < 0.5:
            QTest.mouseClick(view.viewport(), Qt.LeftButton, NONE, point)
        else:
            QTest.mouseDClick(view.viewport(), Qt.LeftButton, NONE, point)

    def focus(self, widget) -> bool:
        top = widget.window()
        if QApplication.activeWindow() is not top:
            top.activateWindow()
            deadline = time.monotonic() + 2
            while QApplication.activeWindow() is not top and time.monotonic() < deadline:
                QApplication.processEvents()
        if QApplication.focusWidget() is not widget:
            widget.setFocus(Qt.OtherFocusReason)
        return QApplication.focusWidget() is widget

    # -- one key and its check ----------------------------------------------------------------------

    def state(self, version: int) -> tuple:
        if version not in self.states:
            self.states[version] = (body(self.reviewer), comments_of(self.reviewer))
            self.paragraphs[version] = live_paragraphs(self.reviewer)
        return self.states[version]

    def selected_chars(self) -> int:
        """How many characters of the body (as it reads, breaks left out) the selection in the
        pages holds: what typing over it may take away."""
        marks = self.view.selection.selection_marks()
        if marks is None:
            return 0
        (first, start), (last, end) = ((m.block_id, m.offset) for m in marks)
        blocks = self.reviewer.snapshot().blocks
        ids = [b.id for b in blocks]
        if first not in ids or last not in ids:
            return 0
        i, j = ids.index(first), ids.index(last)
        if i == j:
            return len(blocks[i].text[start:end].replace("\n", ""))
        inner = "".join(b.text for b in blocks[i + 1:j])
        return len((blocks[i].text[start:] + inner + blocks[j].text[:end]).replace("\n", ""))

    def key(self, widget, key, mods, text) -> None:
        window, view, recorder = self.window, self.view, self.recorder
        document = self.reviewer.document
        focus = QApplication.focusWidget()
        before_version = document.version
        before, before_comments = self.state(before_version)
        selected = self.selected_chars() if focus is view else 0
        recorder.clear()
        self.history.append((describe(focus), key, mods, repr(text)))
        QTest.sendKeyEvent(QTest.Click, widget, key, text, mods)
        QApplication.processEvents()  # what a key leaves for afterwards (a reply is sent then)
        while (popup := QApplication.activePopupWidget()) is not None:
            popup.close()  # Alt+letter opened a menu
        if document.version == before_version:
            return
        after, after_comments = self.state(document.version)
        if (after, after_comments) == (before, before_comments):
            return  # a refused edit moves the version on and changes nothing
        commands = set(recorder.actions)
        in_window = focus is not None and focus.window() is window
        if in_window and commands & set(DOCUMENT_COMMANDS):
            self.commands += 1
            return
        if focus is view and commands & set(PAGE_COMMANDS):
            self.edits += 1
            return
        if focus is not None and focus in recorder.buttons and key in (Qt.Key_Space, Qt.Key_Select):
            self.clicks += 1  # the keyboard clicked the focused button
            return
        if recorder.keystrokes:
            labels = typing_labels(key, mods, text)
            self.check(focus is view, "the pages changed though they did not have the focus")
            self.check(set(recorder.keystrokes) <= labels,
                       f"undo steps {recorder.keystrokes} from a key that may make only {sorted(labels)}")
            if recorder.keystrokes == ["Typing"]:
                # nothing but the text typed gets in (counted without paragraph and line breaks: the
                # editing engine may split or join paragraphs around tracked-deleted marks)
                grown = _chars(after[0]) - _chars(before[0])
                typed = text if key != Qt.Key_Tab else "\t"
                self.check(grown <= len(typed), f"typing {typed!r} added {grown} characters to the body:\n"
                                                f"{before[0]}\n{after[0]}")
                self.check(grown >= len(typed) - selected,
                           f"typing {typed!r} over {selected} characters lost text: {grown:+d}")
                paragraphs = self.paragraphs[before_version], self.paragraphs[document.version]
                self.check(paragraphs[1] <= paragraphs[0],
                           f"typing {typed!r} brought back paragraph breaks: {paragraphs[0]} -> {paragraphs[1]} "
                           "paragraphs")
            self.edits += 1
            return
        comment_fields = (view.balloons.editor, window.comments.reply_field, window.comments.add_field,
                          window.comment_commands.composer.field)  # (the last sends with Ctrl+Enter)
        if focus in comment_fields and key in (Qt.Key_Return, Qt.Key_Enter):
            self.check(after[0] == before[0] and after[1] == before[1], "a comment sent with Enter changed the body")
            self.check(after_comments != before_comments, "Enter in a comment field changed something else")
            self.comments += 1
            return
        if focus is window.comments.tree and key == Qt.Key_Delete and "&Delete comment" in commands:
            # (a tracked insertion or deletion that held nothing but the comment's reference goes with it)
            self.check(after[0] == before[0] and _with_text(after[1]) == _with_text(before[1]),
                       f"deleting a comment changed the body:\n{_differences(before, after)}")
            self.comments += 1  # the Comments panel's Delete key deletes the comment picked there
            return
        self.check(False, f"the document changed (actions {sorted(commands)}, keystrokes {recorder.keystrokes})")

    def check(self, ok: bool, what: str) -> None:
        if not ok:
            keys = "\n".join(f"  focus {f}: key {k!r} mods {m!r} text {t}" for f, k, m, t in self.history)
            pytest.fail(f"{what}\nseed {SEED} (FOLIO_KEY_FUZZ_SEED={SEED} repeats it); the last keys:\n{keys}")


@pytest.fixture
def fuzz_window(qtbot, tmp_path, monkeypatch):
    asked = no_blocking_dialogs(monkeypatch)
    monkeypatch.setattr(assistant_settings, "_keyring", lambda: None)  # a key typed in the dialog stays in tmp_path
    window = review_window(qtbot, tmp_path)
    window.close_action.setEnabled(False)  # Ctrl+W and Ctrl+Q would end the window the fuzz runs in
    window.quit_action.setEnabled(False)
    return window, asked


def test_random_keys_change_the_document_only_by_typing_in_the_pages(fuzz_window):
    window, asked = fuzz_window
    rng = random.Random(SEED)
    fuzz = Fuzz(window, rng)
    blocked: list[str] = []

    def watchdog():  # a modal dialog that the stubs missed: close it, and fail below
        modal = QApplication.activeModalWidget()
        if modal is not None:
            if type(modal).__name__ not in OPENED_NOT_RUN:
                blocked.append(type(modal).__name__)
            modal.reject()

    timer = QTimer()
    timer.timeout.connect(watchdog)
    timer.start(50)
    start, sent, misses = time.monotonic(), 0, 0
    try:
        while sent < KEYS:
            widget, what = fuzz.pick()
            if not fuzz.focus(widget):
                misses += 1
                assert misses < 1_000, f"the focus could not be given to {what}"
                continue
            fuzz.targeted.add(what)
            fuzz.reached.add(id(widget))
            for _ in range(rng.randint(1, 10)):
                if sent >= KEYS or not shiboken6.isValid(widget) or QApplication.focusWidget() is not widget:
                    break
                fuzz.key(widget, *random_key(rng))
                sent += 1
                fuzz.check(not blocked, f"a modal dialog blocked the keys: {blocked}")
    finally:
        timer.stop()
        fuzz.dialog.close()
    elapsed = time.monotonic() - start
    print(f"key fuzz: seed {SEED}, {sent} keys in {elapsed:.1f} s over {len(fuzz.reached)} widgets "
          f"({fuzz.every} focusable at the start, each given keys); "
          f"{fuzz.edits} typing edits in the pages, {fuzz.commands} window commands, {fuzz.clicks} button "
          f"clicks, {fuzz.comments} comments sent with Enter; {len(asked)} dialogs answered at once")
    assert sent == KEYS
    assert elapsed < BUDGET_S, f"{sent} keys took {elapsed:.1f} s"
    for needed in ("pages", "reply editor", "find field", "chat composer", "settings dialog"):
        assert needed in fuzz.targeted
    assert fuzz.edits > 50  # the pages were really typed in
