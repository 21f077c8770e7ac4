"""Mouse, keyboard and input methods in the pages: PageInput, the page view's `input`. Select with
the mouse (drag, shift+click, double-click for a word, triple-click for a paragraph) or the keyboard; move the caret by character,
word (Ctrl+arrows), line, Home/End, Ctrl+Home/End and PgUp/PgDn (Shift extends the selection); copy
as text; click a tracked change or comment to select it and report its id. Keys that type go to the
view's PageEditor (typing.py), as does input-method text.

The keyboard obeys one rule, written here once (owns_keyboard and typed below):
- the pages act on a key only when the page view itself is the focus widget. A key that reaches the
  view while another widget has the focus came up from a child that did not take it (the balloon's
  reply editor, say): it was never typed at the pages, so they leave it alone and it goes on up to
  the window. The pages' own shortcuts (desk/actions.py) follow the same rule: PAGE_SHORTCUT_CONTEXT.
- of the keys the pages own, typing is: text without Ctrl, Meta or a lone Alt (Ctrl+Alt is AltGr),
  all of it printable; Tab; Enter (Shift+Enter: a line break); Backspace and Delete (with Ctrl: a
  word). Nothing else ever changes the text: function keys, Escape and the Ctrl / Alt chords carry no
  printable text or carry a modifier, so they move the caret, copy, zoom, or are left to the window.

PageView keeps the Qt event handlers and hands each event here; the selection they move is the
view's `selection` (selection.PageSelection).
"""

from __future__ import annotations

import time
from typing import NamedTuple

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QApplication

from .geometry import text_edges
from .text_flow import TextPos

NAVIGATION = (Qt.Key_Left, Qt.Key_Right, Qt.Key_Up, Qt.Key_Down, Qt.Key_Home, Qt.Key_End, Qt.Key_PageUp,
              Qt.Key_PageDown)

STORY_NOTICE = {
    "header": "Headers and footers cannot be edited here yet; edit them in Word. The body text can be typed in.",
    "footer": "Headers and footers cannot be edited here yet; edit them in Word. The body text can be typed in.",
    "footnote": "Footnotes cannot be edited here yet; edit them in Word. The body text can be typed in.",
    "endnote": "Endnotes cannot be edited here yet; edit them in Word. The body text can be typed in.",
}


# the pages' shortcuts (Edit paragraph, Insert and Delete paragraph, Replace selection) act only while
# the page view itself has the focus, as its keys do: never from the reply editor inside it
PAGE_SHORTCUT_CONTEXT = Qt.WidgetShortcut


def owns_keyboard(view) -> bool:
    """Whether the pages may act on a key now: only while the page view itself is the focus widget
    (a key that came up from a child with the focus is that child's, taken or not)."""
    return QApplication.focusWidget() is view


class Typed(NamedTuple):
    """What a key types in the pages: "text" (`text`), "line break", "paragraph" or "delete"
    (`direction` -1 Backspace, 1 Delete; `word` with Ctrl)."""

    kind: str
    text: str = ""
    direction: int = 0
    word: bool = False


def typed(event) -> Typed | None:
    """What a key event types in the pages; None for a key that types nothing."""
    key, mods, text = event.key(), event.modifiers(), event.text()
    ctrl, alt = bool(mods & Qt.ControlModifier), bool(mods & Qt.AltModifier)
    printable = bool(text) and all(ch.isprintable() for ch in text)
    if mods & Qt.MetaModifier or (alt and not ctrl):
        return None  # Alt and Meta chords are the menus' and the system's
    if ctrl and alt:  # AltGr (Ctrl+Alt on Windows): the character it makes, nothing else
        return Typed("text", text) if printable else None
    if key in (Qt.Key_Backspace, Qt.Key_Delete):
        return Typed("delete", direction=-1 if key == Qt.Key_Backspace else 1, word=ctrl)
    if ctrl:
        return None  # Ctrl chords: shortcuts, Ctrl+Tab and Ctrl+Enter included
    if key in (Qt.Key_Return, Qt.Key_Enter):
        return Typed("line break") if mods & Qt.ShiftModifier else Typed("paragraph")
    if key == Qt.Key_Tab:
        return Typed("text", "\t")
    return Typed("text", text) if printable and key not in NAVIGATION else None


class PageInput:
    """The page view's input (view.input): what the mouse, the keys and input methods do in the
    pages, with the state of a press (where the left button went down, and whether it has dragged)."""

    def __init__(self, view):
        self.view = view  # the PageView: its pages, flow, marks, selection, editor, scrolling and signals
        self._press: QPointF | None = None
        self._dragging = False
        # a double-click's place and when a press there makes it a triple-click (time.monotonic), as
        # Qt's own text widgets time it: from the double-click, for the double-click interval
        self._triple: tuple[QPointF, float] | None = None

    # -- mouse ----------------------------------------------------------------------------------------

    def _locate(self, point: QPointF) -> TextPos | None:
        hit = self.view.viewport_to_page(point)
        return self.view.flow.locate(self.view.pages[hit[0] - 1], hit[1]) if hit else None

    def mouse_press(self, event) -> bool:
        """A left press puts the caret (Shift: extends the selection); False for other buttons."""
        if event.button() != Qt.LeftButton:
            return False
        selection = self.view.selection
        self.view.setFocus(Qt.MouseFocusReason)
        if self._triple_click(event):
            return True
        self._press, self._dragging, selection.desired_x = event.position(), False, None
        pos = self._locate(event.position())
        if pos is not None and event.modifiers() & Qt.ShiftModifier and selection.anchor is not None:
            selection.select(selection.anchor, pos)
        else:
            selection.select(pos, pos)
        return True

    def mouse_move(self, event) -> None:
        selection = self.view.selection
        if self._press is None:
            return
        if (event.position() - self._press).manhattanLength() >= 3:
            self._dragging = True
        if not self._dragging or selection.anchor is None:
            return
        y, vh = event.position().y(), self.view.viewport().height()
        if y < 0 or y > vh:  # dragging past the edge scrolls
            v = self.view.verticalScrollBar()
            v.setValue(v.value() + round(y if y < 0 else y - vh))
        pos = self._locate(event.position())
        if pos is not None:
            selection.select(selection.anchor, pos)

    def mouse_release(self, event) -> None:
        if event.button() == Qt.LeftButton and self._press is not None and not self._dragging:
            self._click(event.position())
        self._press = None

    def mouse_double_click(self, event) -> None:
        story = self._story_at(event.position())
        if story is not None:
            self.view.editingNotice.emit(STORY_NOTICE.get(story.split(":")[0], STORY_NOTICE["header"]))
            return
        pos = self._locate(event.position())
        if pos is not None:
            self.view.selection.select(*self.view.flow.word_at(pos))
            self._triple = (event.position(), time.monotonic() + QApplication.doubleClickInterval() / 1000)

    def _triple_click(self, event) -> bool:
        """A press soon after a double-click, where it was: select the paragraph, as Word does."""
        triple, self._triple = self._triple, None
        if triple is None or time.monotonic() > triple[1] or event.modifiers() & Qt.ShiftModifier:
            return False
        if (event.position() - triple[0]).manhattanLength() > QApplication.startDragDistance():
            return False
        pos = self._locate(event.position())
        if pos is None:
            return False
        flow = self.view.flow
        block_id = flow.frag(pos).block_id
        entries = flow.block_entries(block_id) if block_id else [pos.index]
        # from after a list label to the paragraph's end, across a page break
        self.view.selection.select(flow.caret_start(entries[0]), flow.end(entries[-1]))
        self._press = None  # its release is no click on a change or a comment
        return True

    def _story_at(self, point: QPointF) -> str | None:
        """The header, footer or note story under a viewport point, if the point is on one."""
        hit = self.view.viewport_to_page(point)
        if hit is None:
            return None
        for frag in self.view.pages[hit[0] - 1].fragments:
            if frag.story != "main" and frag.rect.contains(hit[1]):
                return frag.story
        return None

    def _click(self, point: QPointF) -> None:
        """A click on a comment balloon, a tracked change or commented text says which it is. In pages
        that can be typed in the caret stays where the click put it (as in Word: a click into a
        pending insertion to fix a typo must not select the whole insertion); read-only pages select
        the change or the commented text."""
        view = self.view
        hit = view.viewport_to_page(point)
        if hit is None:
            return
        page = view.pages[hit[0] - 1]
        for balloon in view.marks.balloons(page, text_edges(page)[1]):
            if balloon.comment_id is not None and balloon.rect.adjusted(-3, -3, 3, 3).contains(hit[1]):
                view.commentClicked.emit(balloon.comment_id)
                return
        pos = view.flow.char_at(page, hit[1])
        if pos is None:
            return
        frag = view.flow.frag(pos)
        found = view.marks.change_at(frag, pos.offset)
        signal = view.changeClicked
        if found is None:
            found, signal = view.marks.comment_at(frag, pos.offset), view.commentClicked
        if found is None:
            return
        item_id, (start, end) = found
        lo, hi = frag.display_range
        if view.editor is None:
            view.selection.select(TextPos(pos.index, max(start, lo)), TextPos(pos.index, min(end, hi)))
        signal.emit(item_id)

    # -- keyboard -------------------------------------------------------------------------------------

    def key_press(self, event) -> bool:
        """A key the pages own (owns_keyboard): copy, cut and paste, typing, select all, zoom, Escape
        and the caret's moves; False for a key none of them takes."""
        view, selection, editor = self.view, self.view.selection, self.view.editor
        typing = typed(event)
        if event.matches(QKeySequence.Copy):
            selection.copy()
        elif editor is not None and event.matches(QKeySequence.Cut):
            editor.cut()
        elif editor is not None and event.matches(QKeySequence.Paste):
            editor.paste()
        elif editor is not None and typing is not None:
            editor.type_key(typing)  # typed, deleted, a new paragraph or a line break
        elif event.matches(QKeySequence.SelectAll):
            selection.select_all()
        elif event.matches(QKeySequence.ZoomIn) or (event.modifiers() & Qt.ControlModifier
                                                    and event.key() == Qt.Key_Equal):
            view.zoom_in()
        elif event.matches(QKeySequence.ZoomOut):
            view.zoom_out()
        elif event.modifiers() & Qt.ControlModifier and event.key() == Qt.Key_0:
            view.set_zoom(1.0)
        elif event.key() == Qt.Key_Escape and selection.anchor is not None:
            if editor is not None and selection.caret is not None:
                selection.select(selection.caret, selection.caret)  # pages one types in keep their caret
            else:
                selection.clear_selection()
        elif not (event.key() in NAVIGATION and self._move_caret(event)):
            return False
        return True

    def _move_caret(self, event) -> bool:
        selection = self.view.selection
        key, mods = event.key(), event.modifiers()
        shift, ctrl = bool(mods & Qt.ShiftModifier), bool(mods & Qt.ControlModifier)
        if ctrl and key in (Qt.Key_Home, Qt.Key_End):
            self.view.finish_layout()  # the real end, not the end of the pages laid out so far
        if not self.view.flow.entries:
            return False
        if selection.caret is None:  # no caret yet: keys start from the top of what is on screen
            selection.caret = selection.anchor = self._first_visible()
        caret, anchor, flow = selection.caret, selection.anchor, self.view.flow
        if key in (Qt.Key_Up, Qt.Key_Down):
            if selection.desired_x is None:
                selection.desired_x = flow.page_x(caret)
            new = flow.move_line(caret, -1 if key == Qt.Key_Up else 1, selection.desired_x)
        elif key in (Qt.Key_PageUp, Qt.Key_PageDown):
            new = self._page_move(caret, -1 if key == Qt.Key_PageUp else 1)
        else:
            selection.desired_x = None
            if key in (Qt.Key_Left, Qt.Key_Right) and not shift and anchor != caret and not ctrl:
                first, last = sorted((anchor, caret))
                new = first if key == Qt.Key_Left else last  # collapse the selection
            elif key in (Qt.Key_Left, Qt.Key_Right):
                step = -1 if key == Qt.Key_Left else 1
                new = flow.move_word(caret, step) if ctrl else flow.move_char(caret, step)
            elif key in (Qt.Key_Home, Qt.Key_End) and ctrl:
                new = flow.document_start() if key == Qt.Key_Home else flow.document_end()
            elif key in (Qt.Key_Home, Qt.Key_End):
                new = flow.line_edge(caret, end=key == Qt.Key_End)
            else:
                return False
        selection.select(anchor if shift else new, new)
        self.view.ensure_caret_visible()
        return True

    def _first_visible(self) -> TextPos:
        """The body text nearest the top left of what the viewport shows."""
        pos = self._locate(QPointF(self.view.viewport().width() / 2, 24.0))
        return pos if pos is not None else self.view.flow.document_start()

    def _page_move(self, caret: TextPos, delta: int) -> TextPos:
        """PgDn / PgUp: scroll a screen and put the caret where it was on the screen."""
        view = self.view
        number, rect = view.flow.caret_rect(caret)
        point = view.page_to_viewport(number, QPointF(rect.center()))
        v = view.verticalScrollBar()
        before = v.value()
        view.scroll_to_canvas_y(before + delta * view.viewport().height())
        moved = v.value() - before
        if not moved:
            return view.flow.document_start() if delta < 0 else view.flow.document_end()
        y = min(max(point.y(), 1.0), view.viewport().height() - 1.0)
        found = self._locate(QPointF(point.x(), y))
        return found if found is not None else caret

    # -- input methods (CJK and other composed text) -----------------------------------------------

    def input_method(self, event) -> None:
        editor = self.view.editor
        if editor is not None and event.commitString():
            editor.type_text(event.commitString())
        event.accept()

    def input_method_query(self, query):
        """What an input method asks of the pages (is typing on, where is the caret); None when
        the scroll area's own answer will do."""
        view = self.view
        if query == Qt.ImEnabled:
            return view.editor is not None
        if query in (Qt.ImCursorRectangle, Qt.ImAnchorRectangle) and view.selection.caret is not None:
            number, rect = view.flow.caret_rect(view.selection.caret)
            top = view.page_to_viewport(number, rect.topLeft())
            return QRectF(top.x(), top.y(), 1.0, rect.height() * view.zoom)
        if query == Qt.ImHints:
            return int(Qt.ImhMultiLine)
        return None
