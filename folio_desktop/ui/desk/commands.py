"""The review desk's commands: moving through the document, accepting and rejecting, editing
paragraphs, typing in the pages, Track Changes, going to a page, and comments: DeskCommands, the
review window's `commands`, which uses the window's view, panels and ReviewActions.

Edits, accepts and rejects go through ReviewActions (tracked changes under the lawyer's name, or
direct edits with Track Changes off; one undo step each); its `changed` signal makes the window lay
out and refresh. Keystrokes (PageEditor) lay out at once and refresh the panels once the typing
pauses. Comments go through the reviewer directly and refresh here. Each is written to the audit log.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QInputDialog

from ...docx.reading.search import text_range
from ..pages.typing import PageEditor
from ..panels.find_replace import FindReplaceDialog
from ..review_actions import EditRefused
from ..wording import counted
from .catch_up import CatchUp
from .edit_dialogs import ask_text

CLIP = 60
TYPING_REFRESH_MS = 400  # the panels catch up with typing once it pauses this long


def _clip(text: str, n: int = CLIP) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"


class DeskCommands:
    """The review window's commands (window.commands), with the state only they use: the change
    last clicked in the pages, and typing in the pages (the PageEditor, the blocks typed in since the
    panels last caught up, and the timer that waits for a pause in the typing)."""

    def __init__(self, window):
        self.window = window  # the review window: its document, view, panels, status bar and audit log
        self.clicked_change: int | None = None  # the change last clicked in the pages or shown
        self.editor: PageEditor | None = None  # made by install_editing, once the actions exist
        self._typed_blocks: set[str] = set()
        self._typing_timer: QTimer | None = None
        self.catch_up = CatchUp(window)  # the panels after a pause in the typing, in short steps
        self.replace_dialog: FindReplaceDialog | None = None  # Find and Replace, made when first opened

    def _status(self, message: str, timeout: int = 0) -> None:
        self.window.statusBar().showMessage(message, timeout)

    # -- view -----------------------------------------------------------------------------------------

    def zoom_in(self) -> None:
        self.window.view.zoom_in()

    def zoom_out(self) -> None:
        self.window.view.zoom_out()

    def actual_size(self) -> None:
        self.window.view.set_zoom(1.0)

    def fit_width(self) -> None:
        self.window.view.fit_width()

    def fit_page(self) -> None:
        self.window.view.fit_page()

    def go_to_block(self, block_id: str) -> bool:
        shown = self.window.view.scroll_to_block(block_id)
        if shown:
            self.window.view.setFocus()
        return shown

    def go_to_finding(self, block_id: str) -> bool:
        """A finding of the Checks panel: its paragraph in the pages, or where it is when the pages do not
        show it (a header or a note)."""
        if self.go_to_block(block_id):
            return True
        row = self.window.checks.tree.currentItem()
        place = row.text(0) if row is not None and row.text(0) else "a part of the document the pages do not show"
        self._status(f"That finding is in {place}; it cannot be shown in the pages.", 6000)
        return False

    # -- find -----------------------------------------------------------------------------------------

    def show_find(self) -> None:
        if self.window.reviewer is not None:
            selected = self.window.view.selection.selection_text()
            self.window.find_bar.open(selected if selected and "\n" not in selected else None)

    def find_next(self) -> bool:
        if not self.window.find_bar.isVisible():
            self.show_find()
        return self.window.find_bar.find_next()

    def find_previous(self) -> bool:
        if not self.window.find_bar.isVisible():
            self.show_find()
        return self.window.find_bar.find_previous()

    def show_replace(self) -> FindReplaceDialog | None:
        """Ctrl+H: Find and Replace, with the words selected in the pages in Find what (as in Word)."""
        window = self.window
        if window.reviewer is None:
            return None
        if self.replace_dialog is None:
            self.replace_dialog = FindReplaceDialog(lambda: (window.view, window.reviewer, window.review_actions),
                                                    window)
            self.replace_dialog.message.connect(lambda text: self._status(text, 8000))
            self.replace_dialog.replaced.connect(lambda fields: window.record("edit", **fields))
        selected = window.view.selection.selection_text()
        self.replace_dialog.open_with(selected if selected and "\n" not in selected else None)
        return self.replace_dialog

    # -- tracked changes ------------------------------------------------------------------------------

    def on_change_clicked(self, change_id: int) -> None:
        self.clicked_change = change_id
        self.window.changes.select_change(change_id)
        change = self._change(change_id)
        if change is not None:
            row = self.window.changes.row_of(change_id)  # says it as the Changes panel does ("Moved · 7.11")
            what = row.title if row is not None else change.type
            who = f" by {change.author}" if change.author else ""
            text = row.text if row is not None else change.text
            self._status(f"{what}{who}: “{_clip(text)}”. Accept or reject it from the Review menu.")

    def show_change(self, change_id: int) -> bool:
        """Select a change in the pages (the changes panel asked, or next/previous)."""
        change = self._change(change_id)
        if change is None:
            return False
        self.clicked_change = change_id
        view = self.window.view
        shown = view.selection.select_change(change)
        if not shown and view.is_laying_out:
            # an accept or reject is being laid out again: select the change once its pages are back
            view.layoutFinished.connect(lambda _n: self.clicked_change == change_id and self.show_change(change_id),
                                        Qt.SingleShotConnection)
        return shown

    def next_change(self) -> int | None:
        found = self.window.changes.next_change()
        if found is None:
            self._status("There are no tracked changes to go to.", 5000)
        return found

    def previous_change(self) -> int | None:
        found = self.window.changes.previous_change()
        if found is None:
            self._status("There are no tracked changes to go to.", 5000)
        return found

    def accept_and_next(self) -> int | None:
        return self._resolve_and_next(True)

    def reject_and_next(self) -> int | None:
        return self._resolve_and_next(False)

    def _resolve_and_next(self, accept: bool) -> int | None:
        """Accept (reject) the change chosen in the panel or clicked in the pages, then go to the next
        one; with none chosen, go to the first. Returns the change now selected."""
        panel = self.window.changes
        if not panel.selected_change_ids() and self.current_change_id() is not None:
            panel.select_change(self.current_change_id())
        done = panel.selected_rows()
        found = panel.accept_and_next() if accept else panel.reject_and_next()
        row = panel.row_of(found) if found is not None else None
        if done and row is not None:
            verb = "Accepted" if accept else "Rejected"
            what = done[0].title if len(done) == 1 else f"{len(done)} changes"
            self._status(f"{verb}: {what}. Next: {row.title}, {_clip(row.text, 40)}".rstrip(", "), 5000)
        elif found is None:
            self._status("There are no tracked changes left.", 5000)
        return found

    def _change(self, change_id: int | None):
        if self.window.reviewer is None or change_id is None:
            return None
        return next((c for c in self.window.reviewer.get_changes() if c.id == change_id), None)

    def current_change_id(self) -> int | None:
        """The change last clicked in the pages or chosen in the panel, else the one under the selection."""
        if self._change(self.clicked_change) is not None:
            return self.clicked_change
        return self._change_under_selection()

    def _change_under_selection(self) -> int | None:
        return self.window.view.selection.change_at_selection()

    def accept_change(self, change_id: int | None = None) -> bool:
        return self._resolve_one(True, change_id)

    def reject_change(self, change_id: int | None = None) -> bool:
        return self._resolve_one(False, change_id)

    def accept_changes(self, change_ids: list[int]) -> int:
        return self._resolve(True, change_ids)

    def reject_changes(self, change_ids: list[int]) -> int:
        return self._resolve(False, change_ids)

    def accept_all(self) -> int:
        return self._resolve(True, self.window.changes.visible_change_ids())

    def reject_all(self) -> int:
        return self._resolve(False, self.window.changes.visible_change_ids())

    def _resolve_one(self, accept: bool, change_id: int | None) -> bool:
        verb = "accept" if accept else "reject"
        chosen = change_id if change_id is not None else self.current_change_id()
        if self._change(chosen) is None:
            self._status(f"Click a tracked change in the document first, then {verb} it.", 5000)
            return False
        # the whole row of the changes panel: a move's two halves, a paragraph's mark with its text
        return self._resolve(accept, self.window.changes.row_ids(chosen)) > 0

    def _resolve(self, accept: bool, change_ids: list[int]) -> int:
        """Accept or reject changes as one undo step (ReviewActions takes a whole inserted or deleted
        paragraph's mark along with its text, as Word does). Returns how many were resolved."""
        verb = "accept" if accept else "reject"
        if self.window.reviewer is None or not change_ids:
            return 0
        by_id = {c.id: c for c in self.window.reviewer.get_changes()}
        chosen = [by_id[i] for i in dict.fromkeys(change_ids) if i in by_id]
        rows = list({id(r): r for c in chosen if (r := self.window.changes.row_of(c.id)) is not None}.values())
        actions = self.window.review_actions
        done = (actions.accept if accept else actions.reject)([c.id for c in chosen])
        if not done:
            self._status(f"That change could not be {verb}ed; it may already be resolved.", 5000)
            return 0
        self.clicked_change = None
        for change in chosen:
            self.window.record(verb, change_id=change.id, type=change.type, text=change.text, author=change.author,
                               blockId=change.block_id)
        if len(rows) == 1:  # one decision, however many marks it folds (a move, a paragraph and its mark)
            row = rows[0]
            self._status(f"{verb.capitalize()}ed: {row.title}, “{_clip(row.text)}”.", 5000)
        elif len(chosen) == 1:
            change = chosen[0]
            self._status(f"{verb.capitalize()}ed the {change.type} “{_clip(change.text)}”.", 5000)
        else:
            self._status(f"{verb.capitalize()}ed {len(chosen)} changes.", 5000)
        return done

    # -- editing --------------------------------------------------------------------------------------

    def ask_text(self, title: str, prompt: str, text: str = "", ok_text: str = "OK",
                 one_paragraph: bool = True) -> str | None:
        return ask_text(self.window, title, prompt, text, ok_text, one_paragraph)

    def _target_block(self, what: str):
        block_id = self.window.view.selection.caret_block_id() if self.window.reviewer is not None else None
        block = self.window.reviewer.snapshot().block(block_id) if block_id else None
        if block is None:
            self._status(f"Click in a paragraph of the document first, then {what}.", 5000)
        return block

    def _edit(self, done: str, edit, *args) -> bool:
        """Run one ReviewActions edit; a refused edit is explained in the status bar."""
        try:
            edit(*args)
        except EditRefused as exc:
            self._status(f"The edit was not made. {exc.message}", 8000)
            return False
        if self.window.review_actions.track_changes:
            self._status(f"{done} as a tracked change under {self.window.settings.author}.", 5000)
        else:
            self._status(f"{done} directly: Track Changes is off.", 5000)
        return True

    def edit_paragraph(self) -> bool:
        block = self._target_block("edit it")
        if block is None:
            return False
        tracked = self.window.review_actions.track_changes
        how = "become tracked changes" if tracked else "are made directly (Track Changes is off)"
        text = self.ask_text("Edit paragraph", "Rewrite the paragraph as it should read. This box shows its text as it "
                             "reads with the pending changes, not the changes themselves; what you change here "
                             f"{how}. You can also type straight into the page.", block.text, "Apply")
        if text is None or text == block.text:
            return False
        if not self._edit("Edited the paragraph", self.window.review_actions.edit_paragraph, block.id, text):
            return False
        self.window.record("edit", action="edit_paragraph", blockId=block.id, before=block.text, after=text)
        return True

    def insert_paragraph(self) -> bool:
        block = self._target_block("insert after it")
        if block is None:
            return False
        text = self.ask_text("Insert paragraph", f"The new paragraph, after “{_clip(block.text, 80)}”:", "", "Insert")
        if not text:
            return False
        if not self._edit("Inserted the paragraph", self.window.review_actions.insert_paragraph_after, block.id, text):
            return False
        self.window.record("edit", action="insert_paragraph_after", blockId=block.id, text=text)
        return True

    def delete_paragraph(self) -> bool:
        block = self._target_block("delete it")
        if block is None:
            return False
        if not self._edit("Deleted the paragraph", self.window.review_actions.delete_paragraph, block.id):
            return False
        self.window.record("edit", action="delete_paragraph", blockId=block.id, text=block.text)
        return True

    # -- typing in the pages, Track Changes, going to a page ------------------------------------------

    def install_editing(self) -> None:
        """The pages take typing (PageEditor); the Track Changes action becomes a switch, on."""
        window = self.window
        self.editor = PageEditor(window.view, lambda: window.review_actions, parent=window)
        tell = lambda message: window.statusBar().showMessage(message, 8000)  # noqa: E731
        self.editor.notice.connect(tell)
        window.view.editingNotice.connect(tell)
        self.editor.edited.connect(self._on_typed_edit)
        self._typed_blocks = set()
        # the panels read the whole document: after a keystroke they wait for a pause in the typing
        self._typing_timer = QTimer(window)
        self._typing_timer.setSingleShot(True)
        self._typing_timer.setInterval(TYPING_REFRESH_MS)
        self._typing_timer.timeout.connect(self._after_typing)
        window.track_changes_action.setCheckable(True)
        window.track_changes_action.setChecked(True)

    def attach_editing(self) -> None:
        """A document was installed: its ReviewActions follow the Track Changes switch."""
        self.window.review_actions.track_changes = self.window.track_changes_action.isChecked()
        self.window.review_actions.typed.connect(self._on_typed)

    def _on_typed(self, block_ids) -> None:
        self.catch_up.cancel()  # the document moved on: the panels catch up after the next pause
        self.clicked_change = None
        self.window.relayout(set(block_ids) if block_ids else None)
        self.window.update_title()
        self.window.files.autosaver.changed()
        self._typing_timer.start()

    def _on_typed_edit(self, what: str, block_ids) -> None:
        self._typed_blocks.update(block_ids or ())
        if what != "Typing":
            self.window.record("edit", action=what.lower(), blockIds=sorted(block_ids or ()))

    def _after_typing(self) -> None:
        self.catch_up.start(self._catch_up_steps())

    def _catch_up_steps(self):
        """What the typing left to do, one panel at a time (catch_up.CatchUp): keystrokes change the
        main story alone, so the changes panel reads only its census again."""
        window = self.window
        if self._typed_blocks:
            window.record("edit", action="typing", blockIds=sorted(self._typed_blocks))
            self._typed_blocks = set()
        if window.reviewer is None:
            return
        yield
        window.changes.refresh(main_only=True)
        yield
        window.comments.refresh()
        yield
        window.checks.refresh()  # one step: the session re-reads only the paragraphs typed in
        yield
        while window.view.relayout_pending:  # the outline's pages: once the pages past the screen are laid out
            yield
        yield from window.outline.refresh_steps(window.view.document_layout)
        window.update_title()
        window.documentChanged.emit()
        self.editor.freeze_survivors()

    def toggle_track_changes(self) -> bool:
        return self.set_track_changes(self.window.track_changes_action.isChecked())

    def set_track_changes(self, on: bool) -> bool:
        """Your own edits as tracked changes (on) or made directly (off). Claude's stay tracked."""
        self.window.track_changes_action.setChecked(on)
        if self.window.review_actions is not None:
            self.window.review_actions.track_changes = on
            self.window.review_actions.end_burst()
        self.window.indicators.refresh()
        if on:
            self._status(f"Track Changes is on: your edits are tracked changes under "
                         f"{self.window.settings.author}.", 6000)
        else:
            self._status("Track Changes is off: your edits change the text directly. Claude's "
                         "edits are still tracked.", 6000)
        return on

    def go_to_page(self, number: int) -> bool:
        """Show page `number` from its top, with the caret at its first text."""
        if self.window.reviewer is None:
            return False
        self.window.view.finish_layout()
        if not 1 <= number <= len(self.window.view.pages):
            self._status(f"There is no page {number}; the document has "
                         f"{counted(len(self.window.view.pages), 'page')}.", 5000)
            return False
        self.window.view.selection.caret_to_page(number)
        self.window.view.setFocus()
        return True

    def go_to_page_dialog(self) -> bool:
        if self.window.reviewer is None:
            return False
        self.window.view.finish_layout()
        count = len(self.window.view.pages)
        number = self.ask_page_number(count, max(self.window.view.current_page(), 1))
        return number is not None and self.go_to_page(number)

    def ask_page_number(self, count: int, current: int) -> int | None:
        number, ok = QInputDialog.getInt(self.window, "Go to page", f"Page number (1 to {count}):", current, 1, count)
        return number if ok else None

    # -- comments -------------------------------------------------------------------------------------

    def add_comment(self, text: str, target: tuple[str, int, int] | None = None) -> int | None:
        """Comment the selected text (or, with no selection, the paragraph at the cursor); `target`:
        (block id, start, end) to comment instead of the selection (comment_commands.py's balloon)."""
        if self.window.reviewer is None:
            return None
        found = target or self.window.view.selection.selection_block_range()
        block_id = found[0] if found else self.window.view.selection.caret_block_id()
        if block_id is None:
            self._status("Select the text to comment on first.", 5000)
            return None
        block = self.window.reviewer.snapshot().block(block_id)
        quote = block.text[found[1]:found[2]] if found else None
        # on the selected range itself, not on the first occurrence of its words in the paragraph
        rng = text_range(block, found[1], found[2]) if found else None
        try:
            comment_id = self.window.review_actions.perform(
                "Add comment", lambda: self._comment_on(block_id, text, rng, quote), {block_id})
        except LookupError as exc:
            self._status(f"The comment was not added: {exc}", 8000)
            return None
        self.window.record("comment", action="add", commentId=comment_id, blockId=block_id, quote=quote, text=text)
        self.window.comments.select_comment(comment_id)
        self._status("Comment added.", 5000)
        return comment_id

    def _comment_on(self, block_id: str, text: str, rng: dict | None, quote: str | None = None) -> int:
        if rng is None:  # no selection (the whole paragraph), or one that cuts a note marker
            return self.window.reviewer.add_comment(block_id, text, quote=quote or None)
        result = self.window.reviewer.apply_document_operations(
            {"version": 1, "operations": [{"type": "commentOnRange", "range": rng, "comment": {"text": text}}]})
        if not result["applied"]:
            skip = result["skipped"][0]
            raise LookupError(skip.get("message") or skip["reason"])
        return result["applied"][0]["commentId"]

    def _comment(self, comment_id: int):
        return next((c for c in self.window.reviewer.all_comments() if c.id == comment_id), None)

    def reply_to_comment(self, comment_id: int, text: str) -> int | None:
        window = self.window
        if window.reviewer is None:
            return None
        comment = self._comment(comment_id)
        touched = {comment.block_id} if comment is not None and comment.block_id else None
        try:
            reply = window.review_actions.perform(
                "Reply", lambda: window.reviewer.reply_to(comment_id, text, author=window.settings.author), touched)
        except KeyError:
            self._status("That comment no longer exists.", 5000)
            return None
        self.window.record("comment", action="reply", commentId=comment_id, replyId=reply, text=text)
        self.window.comments.select_comment(reply)
        return reply

    def resolve_comment(self, comment_id: int, resolved: bool = True) -> bool:
        window = self.window
        if window.reviewer is None:
            return False
        comment = self._comment(comment_id)
        touched = {comment.block_id} if comment is not None and comment.block_id else None
        verb = "Resolve comment" if resolved else "Reopen comment"
        if not window.review_actions.perform(verb, lambda: window.reviewer.resolve_comment(comment_id, resolved), touched):
            return False
        self.window.record("comment", action="resolve" if resolved else "reopen", commentId=comment_id)
        self.window.comments.select_comment(comment_id)
        return True

    def show_comment(self, comment_id: int) -> bool:
        """Select the text a comment is anchored to (its paragraph when the text has changed)."""
        comment = self._comment(comment_id) if self.window.reviewer is not None else None
        if comment is None or not comment.block_id:
            return False
        block = self.window.reviewer.snapshot().block(comment.block_id)
        start = block.text.find(comment.anchored_text) if block is not None and comment.anchored_text else -1
        if start < 0:
            return self.window.view.scroll_to_block(comment.block_id)
        end = start + len(comment.anchored_text)
        return self.window.view.scroll_to_block(comment.block_id, start) and \
            self.window.view.selection.select_range(comment.block_id, start, end)

