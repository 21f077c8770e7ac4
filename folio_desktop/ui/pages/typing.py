"""PageEditor: typing in the pages. Keys, input-method text and pastes become operation batches for
the same engine Claude uses, applied through ReviewActions (one undo stack; tracked changes under
the lawyer's name, or direct edits with Track Changes off), and the caret goes where the lawyer
expects once the pages are laid out again.

The engine addresses text by block id and accepted-view offset, and a replaceRange never has an
empty range, so typing at a caret replaces the character beside it with that character plus the
typed text; the engine's keystroke mode (op_text.keystrokes) then inserts only what was typed, at
the caret: after the character before it, or before the character after it when the caret stands
after struck-through text. Enter is a splitBlock (at a paragraph's very start or end too),
Shift+Enter a line break inside the paragraph, Backspace at a paragraph's start a
mergeBlockWithNext of the one before. Deleting text of your own pending insertion takes it out, as
in Word (the engine's rule).
"""

from __future__ import annotations

import gc
import time

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QGuiApplication, QTextDocumentFragment

from ...docx.editing.operation_targets import pending_deletion
from ...docx.model import graphemes
from ...docx.model.textkit import index_to_utf16, text_hash
from ...docx.package.ooxml import W_NS
from ...docx.reading.splice import spliced
from ..review_actions import BURST_PAUSE_S, EditRefused
from .selection import Mark

_W = "{" + W_NS + "}"
_NOTE_MARKER = "[^"
NOT_HERE = "Click in the text where you want to type."
ORIGINAL = ("The Original view shows the document as it was before the changes; switch to All Markup, Simple "
            "Markup or No Markup to type.")


class PageEditor(QObject):
    """Attached to a PageView (view.editor); `actions()` returns the open document's ReviewActions."""

    notice = Signal(str)  # a plain sentence for the status bar: a refusal, where typing does not work
    edited = Signal(str, object)  # (what the keystroke did, block ids it touched), for the audit log

    def __init__(self, view, actions, parent=None):
        super().__init__(parent or view)
        self.view = view
        self._actions = actions
        self._expected: Mark | None = None  # where the last keystroke left the caret
        self._last = 0.0
        self._frozen = None  # the document whose objects were last moved out of the collector's way
        view.editor = self
        view.layoutFinished.connect(self._freeze)
        view.destroyed.connect(_thaw)  # a closed window's objects must be collectable again

    # -- keys -----------------------------------------------------------------------------------------

    def type_key(self, typing) -> bool:
        """Do what a key types (input.Typed: which keys type is input.py's rule, not this one's)."""
        if typing.kind == "delete":
            return self.delete(typing.direction, word=typing.word)
        if typing.kind == "paragraph":
            return self.new_paragraph()
        if typing.kind == "line break":
            return self.type_text("\n", label="Line break")
        return self.type_text(typing.text)

    # -- edits ----------------------------------------------------------------------------------------

    def type_text(self, text: str, label: str = "Typing") -> bool:
        """Type `text` at the caret, or over the selection; a newline in it starts a new paragraph
        (except a lone "\\n", Shift+Enter's line break)."""
        if "\n" in text and text != "\n":
            return self._paste_lines(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"))
        if self.view.selection.selection_marks() is not None:
            return self._replace_selection(text, label)
        caret = self._caret()
        if caret is None:
            return False
        kind = "typing" if text != "\n" else None
        return self._run(label, [caret.block_id], lambda apply: self._insert(apply, caret, text), kind)

    def delete(self, direction: int, word: bool = False) -> bool:
        """Backspace (direction -1) or Delete (1): the selection, else a character (a word with Ctrl)
        beside the caret, else the paragraph break at the caret's edge of the paragraph."""
        if self.view.selection.selection_marks() is not None:
            return self._replace_selection("", "Delete")
        caret = self._caret()
        if caret is None:
            return False
        text = self._text(caret.block_id)
        if text is None:
            return False
        k = caret.offset
        if (direction < 0 and k == 0) or (direction > 0 and k >= len(text)):
            return self._join(caret, direction)
        if word:  # to the word's edge, within this paragraph
            mark = self.view.selection.word_mark(direction)
            edge = mark.offset if mark is not None and mark.block_id == caret.block_id else (0 if direction < 0 else len(text))
            start, end = sorted((k, edge))
        elif direction < 0:
            start, end = _cluster_before(text, k), k
        else:
            start, end = k, _cluster_after(text, k)
        if start == end:
            return False
        op = _replace(caret.block_id, text, start, end, "")
        target = Mark(caret.block_id, start, False)

        def script(apply):
            apply([op])
            return target

        return self._run("Delete", [caret.block_id], script, "deleting")

    def new_paragraph(self) -> bool:
        """Enter: split the paragraph at the caret; the caret goes to the start of the second half."""
        if self.view.selection.selection_marks() is not None and not self._replace_selection("", "Delete"):
            return False
        caret = self._caret()
        if caret is None:
            return False

        def script(apply):
            self._split(apply, caret.block_id, caret.offset)
            return self._next_block_start(caret.block_id)

        return self._run("New paragraph", [caret.block_id], script, None)

    def paste(self) -> bool:
        """The clipboard's text at the caret (rich text as its plain text, paragraph by paragraph)."""
        data = QGuiApplication.clipboard().mimeData()
        if data is None:
            return False
        if data.hasText():
            text = data.text()
        elif data.hasHtml():
            text = QTextDocumentFragment.fromHtml(data.html()).toPlainText()
        else:
            text = ""
        text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\u2029", "\n").replace("\u2028", "\n")
        if not text:
            self.notice.emit("There is no text on the clipboard to paste.")
            return False
        if "\n" in text:
            return self._paste_lines(text.split("\n"))
        if self.view.selection.selection_marks() is not None:
            return self._replace_selection(text, "Paste")
        caret = self._caret()
        return caret is not None and self._run(
            "Paste", [caret.block_id], lambda apply: self._insert(apply, caret, text), None)

    def cut(self) -> bool:
        if self.view.selection.selection_marks() is None:
            return False
        self.view.selection.copy()
        return self._replace_selection("", "Cut")

    # -- building batches -----------------------------------------------------------------------------

    def _insert(self, apply, caret: Mark, text: str) -> Mark:
        """Type `text` at the caret (apply: ReviewActions' batch runner); the caret after it."""
        block_text = self._text(caret.block_id) or ""
        k = caret.offset
        if not block_text:
            apply([{"type": "replaceBlock", "blockId": caret.block_id, "text": text}])
        elif k > 0 and (not caret.after_deleted or k >= len(block_text)):
            start = _cluster_before(block_text, k)  # the character before: the text goes after it
            old = block_text[start:k]
            apply([_replace(caret.block_id, block_text, start, k, old + text)])
        else:
            end = _cluster_after(block_text, k)  # the character after: the text goes before it
            old = block_text[k:end]
            apply([_replace(caret.block_id, block_text, k, end, text + old)])
        return Mark(caret.block_id, k + len(text), False)

    def _split(self, apply, block_id: str, offset: int) -> None:
        text = self._text(block_id) or ""
        apply([{"type": "splitBlock", "blockId": block_id, "offset": index_to_utf16(text, offset)}])

    def _paste_lines(self, lines: list[str]) -> bool:
        """Paragraphs of text: the first joins the caret's paragraph, each later one starts a new
        paragraph, the last joins what followed the caret."""
        if self.view.selection.selection_marks() is not None and not self._replace_selection("", "Delete"):
            return False
        caret = self._caret()
        if caret is None:
            return False

        block = self.view.reviewer.snapshot().block(caret.block_id)
        in_table = block is not None and block.table is not None

        def script(apply):
            here = self._insert(apply, caret, lines[0]) if lines[0] else caret
            self._split(apply, here.block_id, here.offset)
            second = self._next_block_start(here.block_id)
            middle, last = lines[1:-1], lines[-1]
            if in_table:  # a new paragraph is inserted beside a table, not in its cell: split line by line
                for line in middle:
                    if line:
                        second = self._insert(apply, second, line)
                    self._split(apply, second.block_id, second.offset)
                    second = self._next_block_start(second.block_id)
                return self._insert(apply, second, last) if last else second
            # one batch for the rest: the middle lines as new paragraphs after the first half (given
            # last to first, since each goes right after it), the last line at the second half's start
            literal = any("**" in line for line in middle)  # inserted text reads **x** as bold: fill those in after
            ops = [{"type": "insertAfterBlock", "blockId": here.block_id, "text": "" if literal else line}
                   for line in reversed(middle)]
            rest = self._text(second.block_id) or ""
            if last and rest:  # before the second half's first character
                end = _cluster_after(rest, 0)
                ops.append(_replace(second.block_id, rest, 0, end, last + rest[:end]))
            elif last:
                ops.append({"type": "replaceBlock", "blockId": second.block_id, "text": last})
            if ops:
                apply(ops)
            if literal:
                snapshot = self.view.reviewer.snapshot()
                start = snapshot.anchors[here.block_id].index + 1
                fill = [{"type": "replaceBlock", "blockId": block.id, "text": line}
                        for block, line in zip(snapshot.blocks[start:start + len(middle)], middle) if line]
                if fill:
                    apply(fill)
            return Mark(second.block_id, len(last), False)

        return self._run("Paste", [caret.block_id], script, None)

    def _replace_selection(self, text: str, label: str) -> bool:
        """Type over (or delete) the selection: within one paragraph a replaceRange; over several
        sibling paragraphs, their text and the breaks between them go too."""
        start, end = self.view.selection.selection_marks()
        snapshot = self.view.reviewer.snapshot()
        first, last = snapshot.block(start.block_id), snapshot.block(end.block_id)
        if first is None or last is None:
            return False
        i, j = snapshot.anchors[first.id].index, snapshot.anchors[last.id].index
        # paragraphs at either end that are already pending deletion (text and mark struck) go anyway:
        # what is typed over is what lies between them
        while i < j and pending_deletion(snapshot.blocks[i]):
            i += 1
            first, start = snapshot.blocks[i], Mark(snapshot.blocks[i].id, 0, False)
        while j > i and pending_deletion(snapshot.blocks[j]):
            j -= 1
            last, end = snapshot.blocks[j], Mark(snapshot.blocks[j].id, len(snapshot.blocks[j].text), False)
        if first.id == last.id:
            if start.offset == end.offset:  # only struck-through text is selected: type where it starts
                return bool(text) and self.view.selection.place_caret(start) and self.type_text(text, label)
            op = _replace(first.id, first.text, start.offset, end.offset, text)
            target = Mark(first.id, start.offset + len(text), False)

            def script(apply):
                apply([op])
                return target

            # typing over a selection starts a burst that the next keys carry on
            return self._run(label, [first.id], script, "typing" if text and label == "Typing" else None)
        blocks = snapshot.blocks[i:j + 1]
        parent = first.element.getparent() if first.element is not None else None
        if any(b.element is None or b.element.getparent() is not parent or b.kind == "diagnostic" for b in blocks):
            self.notice.emit("The edit was not made. Select text within one table cell, or only outside tables, "
                             "to type over it or delete it.")
            return False
        ops: list[dict] = []
        if start.offset < len(first.text):
            ops.append(_replace(first.id, first.text, start.offset, len(first.text), text or ""))
        elif text:
            ops.append(_append(first.id, first.text, text))
        for block in blocks[1:-1]:
            if not pending_deletion(block):
                ops.append({"type": "deleteBlock", "blockId": block.id})
        if end.offset > 0:
            ops.append(_replace(last.id, last.text, 0, end.offset, ""))
        ops.append({"type": "mergeBlockWithNext", "blockId": first.id})

        def script(apply):
            apply(ops)
            # joined directly (Track Changes off), the last paragraph's mark and id are the survivors
            here = first.id if self.view.reviewer.snapshot().block(first.id) is not None else last.id
            return Mark(here, start.offset + len(text), False)

        return self._run(label, [b.id for b in blocks], script, None)

    def _join(self, caret: Mark, direction: int) -> bool:
        """Backspace at a paragraph's start joins it to the one before; Delete at its end, to the
        one after. A break already struck through is stepped over: the character beyond it goes."""
        snapshot = self.view.reviewer.snapshot()
        block = snapshot.block(caret.block_id)
        index = snapshot.anchors[block.id].index
        other_index = index + direction
        if not 0 <= other_index < len(snapshot.blocks):
            return False
        first, second = (snapshot.blocks[other_index], block) if direction < 0 else (block, snapshot.blocks[other_index])
        if first.element is None or second.element is None or first.element.getparent() is not second.element.getparent():
            self.notice.emit("A paragraph cannot be joined with a table or with a paragraph in another table cell.")
            return False
        if _mark_deleted(first.element):
            # the break between them is already pending deletion: go on to the next character over it
            beyond = Mark(first.id, len(first.text)) if direction < 0 else Mark(second.id, 0)
            if (direction < 0 and not first.text) or (direction > 0 and not second.text):
                return False
            self.view.selection.place_caret(beyond)
            return self.delete(direction)
        def script(apply):
            apply([{"type": "mergeBlockWithNext", "blockId": first.id}])
            # the struck break joins the two in the accepted view: one block, read under the id of
            # the paragraph whose mark survives (docx/reading/accepted.py), the first one's text first
            here = first.id if self.view.reviewer.snapshot().block(first.id) is not None else second.id
            return Mark(here, len(first.text), False)

        return self._run("Delete", [first.id, second.id], script, "deleting")

    # -- running --------------------------------------------------------------------------------------

    def _freeze(self, _pages: int) -> None:
        """Once a document is laid out: it and its layout live as long as the window, so move them out
        of the garbage collector's way, or a full collection walks millions of objects in the middle
        of a keystroke (~200 ms on a 500-page contract)."""
        reviewer = self.view.reviewer
        if not self.view.isVisible():
            return  # a window being closed: no typing to come, and its widgets may be going (a full
            # collection then can meet a Qt wrapper half torn down)
        if reviewer is not None and reviewer is not self._frozen:
            self._frozen = reviewer
            gc.unfreeze()  # the document shown before may be garbage now
            gc.collect()
            gc.freeze()

    def freeze_survivors(self) -> None:
        """Once typing pauses (and what it changed is laid out and in the panels): move what survived it
        out of the collector's way too, as _freeze does for the document, so that the objects made by
        relayouts do not pile up into a full collection that stalls a later keystroke. Typing makes no
        reference cycles (reading.splice, text_boxes), so nothing freezes that would need collecting."""
        if self._frozen is not None:
            gc.freeze()

    def _caret(self) -> Mark | None:
        view = self.view
        if getattr(view, "markup_view", "all") == "original":
            self.notice.emit(ORIGINAL)
            return None
        if self._actions() is None or view.reviewer is None:
            return None
        caret = view.selection.caret_mark()
        if caret is None:
            self.notice.emit(NOT_HERE)
        return caret

    def _text(self, block_id: str) -> str | None:
        block = self.view.reviewer.snapshot().block(block_id)
        return block.text if block is not None else None

    def _next_block_start(self, block_id: str) -> Mark:
        """The start of the paragraph right after a block (the second half of a split)."""
        snapshot = self.view.reviewer.snapshot()
        index = snapshot.anchors[block_id].index
        following = snapshot.blocks[index + 1] if index + 1 < len(snapshot.blocks) else None
        return Mark(following.id if following is not None else block_id, 0, False)

    def _splicing(self, apply, region: list[str]):
        """`apply` (ReviewActions' batch runner) keeping the body's snapshot: a keystroke changes only the
        sibling paragraphs of its region and those it makes beside them (ReviewActions.keystroke), so
        after a batch that dropped the snapshot (a paragraph split or joined) only that stretch of the
        body is read again (reading.splice), not all of it: Enter on page 300 costs what it does on page 3."""
        reviewer = self.view.reviewer
        doc = reviewer.document
        snapshot = reviewer.snapshot()
        paragraphs = [p for block_id in region if (block := snapshot.block(block_id)) is not None
                      for p in block.paragraphs]
        parent = paragraphs[0].getparent() if paragraphs else None
        if parent is None or any(p.getparent() is not parent for p in paragraphs):
            return apply
        places = [parent.index(p) for p in paragraphs]
        span = [min(places), max(places) - min(places) + 1]  # the stretch of parent's children: start, count

        def run(ops: list[dict]) -> dict:
            before, version, length = reviewer.snapshot(), doc.version, len(parent)
            stories = doc.story_snapshots()  # the notes, headers and footers: a keystroke leaves them as they are
            result = apply(ops)
            count = span[1] + len(parent) - length
            if doc.version == version + 1 and not doc.snapshot_is_read:
                doc.adopt_snapshot(spliced(doc, before, parent, span[0], span[1], count), stories)
            span[1] = count
            return result

        return run

    def _run(self, label: str, region: list[str], script, kind: str | None) -> bool:
        actions = self._actions()
        if actions is None:
            return False
        view = self.view
        now = time.monotonic()
        burst = kind is not None and view.selection.caret_mark() == self._expected and now - self._last <= BURST_PAUSE_S
        try:
            target = actions.keystroke(label, lambda apply: script(self._splicing(apply, region)), region,
                                       kind=kind, burst=burst)
        except EditRefused as exc:
            self.notice.emit(f"The edit was not made. {exc.message}")
            self._expected = None
            return False
        self._last = now
        if target is not None and view.selection.place_caret(target):
            self._expected = view.selection.caret_mark()
        else:
            self._expected = None
        self.edited.emit(label, region)
        return True


def _replace(block_id: str, text: str, start: int, end: int, replacement: str) -> dict:
    return {"type": "replaceRange", "replace": replacement,
            "range": {"type": "textRange", "blockId": block_id, "startOffset": index_to_utf16(text, start),
                      "endOffset": index_to_utf16(text, end), "selectedTextHash": text_hash(text[start:end])}}


def _append(block_id: str, text: str, addition: str) -> dict:
    start = _cluster_before(text, len(text))
    return _replace(block_id, text, start, len(text), text[start:] + addition)


def _cluster_before(text: str, k: int) -> int:
    """Where the character (a whole grapheme, a whole footnote marker) that ends at k begins."""
    marker = text.rfind(_NOTE_MARKER, max(k - 8, 0), k)
    if marker >= 0 and _is_marker(text[marker:k]):
        return marker
    if text.isascii():
        return k - 1
    window = max(k - 32, 0)
    last = k - 1
    for start, _end in graphemes.clusters(text[window:k]):
        last = window + start
    return last


def _cluster_after(text: str, k: int) -> int:
    """Where the character (a whole grapheme, a whole footnote marker) that starts at k ends."""
    close = text.find("]", k, k + 8) if text.startswith(_NOTE_MARKER, k) else -1
    if close > 0 and _is_marker(text[k:close + 1]):
        return close + 1
    if text.isascii():
        return k + 1
    clusters = graphemes.clusters(text[k:k + 32])
    return k + clusters[0][1] if clusters else k + 1


def _is_marker(s: str) -> bool:
    body = s[2:-1]
    return s.startswith(_NOTE_MARKER) and s.endswith("]") and (body.isdigit() or (body[:1] == "e" and body[1:].isdigit()))


def _mark_deleted(p) -> bool:
    mark = p.find(f"{_W}pPr/{_W}rPr")
    return mark is not None and (mark.find(_W + "del") is not None or mark.find(_W + "moveFrom") is not None)


def _thaw(*_args) -> None:
    gc.unfreeze()
