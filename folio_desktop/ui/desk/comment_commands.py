"""Comments as in Word: a new comment written in its balloon beside the page (New comment,
Ctrl+Alt+M), the lawyer's own comments edited in place (Word lets one edit only one's own: the
comment's author is compared with the lawyer's author name), and comments deleted one at a time
(a balloon's Delete button or context menu, the Delete key on a balloon just clicked, the Comments
panel) or together (Delete all comments shown, Delete all comments by an author). Deleting a
thread's first comment deletes its replies. Each change is one undo step (ReviewActions.perform)
and one entry in the audit log.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPointF, Qt
from PySide6.QtWidgets import QMenu

from ..access_keys import with_access_key
from ..pages.geometry import DRAFT_ID
from ..pages.input import owns_keyboard
from ..pages.marks import COMMENT_VIEWS, accepted_offset
from ..panels.comment_editor import CommentComposer


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


class CommentCommands(QObject):
    """The window's comment commands beyond reply and resolve (DeskCommands has those)."""

    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window
        view = window.view
        self.composer = CommentComposer(view)
        self.composer.submitted.connect(self._submitted)
        self.picked: int | None = None  # the thread whose balloon was just clicked: Delete deletes it
        self.menu: QMenu | None = None  # the balloon's context menu shown last
        self.by_author_menu: QMenu | None = None
        self._target: tuple[str, int, int] | None = None  # what the new comment being written is on
        self._waiting = None  # a new comment waiting for the pages to show balloons
        view.balloons.actionRequested.connect(self._balloon_button)
        window.comments.deleteRequested.connect(self.delete_comment)
        window.documentOpened.connect(lambda _path: self.sync_author())
        window.documentChanged.connect(self.sync_author)
        # kept to compare with: asking a view being destroyed for its viewport would raise
        self._view, self._viewport = view, view.viewport()
        self._viewport.installEventFilter(self)
        view.installEventFilter(self)

    def install_menu(self) -> None:
        """Delete all comments by: a submenu of the Review menu, one entry per author."""
        self.by_author_menu = self.window.review_menu.addMenu("Delete all comments &by")
        self.by_author_menu.setObjectName("delete_by_author_menu")
        self.by_author_menu.aboutToShow.connect(self._fill_by_author)

    # -- the document ---------------------------------------------------------------------------------

    def _status(self, message: str, timeout: int = 5000) -> None:
        self.window.statusBar().showMessage(message, timeout)

    def sync_author(self) -> None:
        """The lawyer's name, for the balloons (their own comments offer Edit): at each document, each
        change, and when Settings change it."""
        view = self.window.view
        if view.marks.author != self.window.settings.author:
            view.marks.author = self.window.settings.author
            view.viewport().update()  # the balloons offer Edit on these

    def _comments(self) -> dict:
        reviewer = self.window.reviewer
        return {c.id: c for c in reviewer.all_comments()} if reviewer is not None else {}

    def _picked_comment(self) -> int | None:
        """The comment the lawyer is on: the row picked in the Comments panel while it has the keyboard,
        else the thread picked in the pages."""
        panel = self.window.comments
        if panel.tree.hasFocus() and panel.selected_comment_id() is not None:
            return panel.selected_comment_id()
        active = self.window.view.marks.active
        return active if active != DRAFT_ID else None

    # -- a new comment ----------------------------------------------------------------------------------

    def new_comment(self) -> bool:
        """A balloon for a new comment on the selection (or the word at the caret) with the keyboard in it."""
        window = self.window
        if window.reviewer is None:
            return False
        view = window.view
        target = self._target_range()
        if target is None:
            self._status("Click in the text to comment on, or select it, first.")
            return False
        self._target = target
        if view.markup_view not in COMMENT_VIEWS:  # No Markup and Original show no balloons: Simple does
            if self._waiting is None:
                view.layoutFinished.connect(self._open_waiting)
            self._waiting = target
            window.set_markup_view("simple", remember=False)
            self._status("Comments show beside the pages in Simple Markup.")
            return True
        self._open_draft()
        return True

    def _target_range(self) -> tuple[str, int, int] | None:
        """What a new comment is on: the selection; one across paragraphs, the part of the first
        (a comment's range is one paragraph's here); no selection, the word at the caret (as in Word),
        or its paragraph between words. Selected in the pages, so the lawyer sees it."""
        view = self.window.view
        selection = view.selection
        found = selection.selection_block_range()
        if found is None and selection.caret is not None and view.flow.entries:
            first, last = sorted((selection.anchor or selection.caret, selection.caret))
            frag = view.flow.frag(first)
            if frag.block_id != view.flow.frag(last).block_id:  # across paragraphs
                block = self.window.reviewer.snapshot().block(frag.block_id) if frag.block_id else None
                start = accepted_offset(frag.para, first.offset)
                if block is not None and start < len(block.text) and selection.select_range(block.id, start,
                                                                                            len(block.text)):
                    self._status("A comment covers one paragraph: this one is on the selected part of the first.")
                    return block.id, start, len(block.text)
            selection.select(*view.flow.word_at(selection.caret))  # as in Word: the word at the caret
            found = selection.selection_block_range()
        if found is None and selection.caret_block_id() is not None:  # between words: the paragraph
            block = self.window.reviewer.snapshot().block(selection.caret_block_id())
            if block is not None and block.text:
                selection.select_range(block.id, 0, len(block.text))
                found = (block.id, 0, len(block.text))
        return found

    def _open_waiting(self, _count: int = 0) -> None:
        view = self.window.view
        view.layoutFinished.disconnect(self._open_waiting)
        target, self._waiting = self._waiting, None
        if target is not None and view.selection.select_range(*target):
            self._open_draft()

    def _open_draft(self) -> None:
        self.sync_author()
        block_id, start, _end = self._target
        self.composer.start_new(block_id, start, self.window.settings.author)

    def _submitted(self, text: str) -> None:
        marks = self.window.view.marks
        if marks.draft is not None:
            comment_id = self.window.commands.add_comment(text, self._target)
            if comment_id is not None:
                self.composer.close()
                self.window.view.balloons.activate(comment_id)
        elif marks.editing is not None and self.save_edit(marks.editing, text):
            self.composer.close()

    # -- editing one's own -------------------------------------------------------------------------------

    def edit_comment(self, comment_id: int | None = None) -> bool:
        """The comment's text in its balloon's field, if it is the lawyer's own."""
        comment = self._comments().get(comment_id if comment_id is not None else self._picked_comment())
        if comment is None:
            self._status("Pick the comment to edit first: click its balloon or its row in the Comments panel.")
            return False
        if comment.author != self.window.settings.author:
            self._status(f"Only your own comments can be edited; this one is {comment.author or 'unsigned'}'s. "
                         "Reply to it instead.", 8000)
            return False
        self.sync_author()
        self.composer.start_edit(comment.id, comment.parent_id or comment.id, comment.text)
        return True

    def save_edit(self, comment_id: int, text: str) -> bool:
        window = self.window
        comment = self._comments().get(comment_id)
        if comment is None:
            self._status("That comment no longer exists.")
            return False
        if comment.author != window.settings.author:
            return False
        if text != comment.text:
            touched = {comment.block_id} if comment.block_id else None
            window.review_actions.perform("Edit comment", lambda: window.reviewer.edit_comment(comment_id, text),
                                          touched)
            window.record("comment", action="edit", commentId=comment_id, text=text)
            self._status("Comment edited.")
        return True

    # -- deleting -----------------------------------------------------------------------------------------

    def delete_comment(self, comment_id: int | None = None) -> bool:
        """Delete a comment; a thread's first comment takes its replies with it."""
        comment_id = comment_id if comment_id is not None else self._picked_comment()
        if comment_id is None:
            self._status("Pick the comment to delete first: click its balloon or its row in the Comments panel.")
            return False
        return bool(self._delete([comment_id], "Delete comment"))

    def delete_shown(self) -> int:
        """Delete every thread the Comments panel shows (resolved ones too, unless it hides them)."""
        window = self.window
        if window.reviewer is None:
            return 0
        window._fill_panels()  # the panel reads the document once the first page shows
        return len(self._delete(window.comments.visible_thread_ids(), "Delete all comments shown"))

    def delete_by_author(self, author: str) -> int:
        ids = [c.id for c in self._comments().values() if c.author == author]
        return len(self._delete(ids, f"Delete all comments by {author or 'no author'}"))

    def _delete(self, ids: list[int], text: str) -> list[int]:
        window = self.window
        comments = self._comments()
        ids = [i for i in ids if i in comments]
        if not ids:
            self._status("There are no comments to delete.")
            return []
        self.composer.close()
        blocks = {comments[i].block_id for i in ids}
        had_threads = bool(window.view.marks.threads())
        gone = window.review_actions.perform(text, lambda: window.reviewer.delete_comments(ids),
                                             None if None in blocks else blocks) or []
        window.record("comment", action="delete", commentIds=gone)
        view = window.view
        if view.marks.active in gone:
            view.balloons.activate(None)
        self.picked = None
        if had_threads and not window.reviewer.get_comments():
            view.refresh_sheets()  # the last comment went: so does the markup area
        self._status(f"Deleted {_plural(len(gone), 'comment')}.")
        return gone

    def _fill_by_author(self) -> None:
        menu = self.by_author_menu
        menu.clear()
        counts: dict[str, int] = {}
        for comment in self._comments().values():
            counts[comment.author] = counts.get(comment.author, 0) + 1
        taken: set[str] = set()  # each author with an access key of their own (an "&" in a name is literal)
        for author in sorted(counts, key=str.casefold):
            label = f"{(author or '(no author)').replace('&', '&&')} ({counts[author]})"
            action = menu.addAction(with_access_key(label, taken))
            action.triggered.connect(lambda _checked=False, a=author: self.delete_by_author(a))
        if not counts:
            menu.addAction("No comments").setEnabled(False)

    # -- balloons: buttons, context menu, the Delete key ---------------------------------------------------

    def _balloon_button(self, thread_id: int, name: str) -> None:
        if name == "delete":
            self.delete_comment(thread_id)
        elif name == "edit":
            self.edit_comment(thread_id)

    def _comment_at(self, point) -> tuple | None:
        """(page number, balloon, comment) under a viewport point: a reply where its lines are, else
        the thread's first comment; None off the balloons (or on one's buttons, or a comment being written)."""
        view = self._view
        found = view.balloons.hit(point)
        if found is None or found[1] is None or found[2] is not None:
            return None
        number, balloon, _button = found
        if balloon.hidden or balloon.comment_id == DRAFT_ID or balloon.composer is not None:
            return None
        at = view.viewport_to_page(point)[1]
        comment_id = next((cid for cid, rect in balloon.comments.items() if cid != balloon.comment_id
                           and rect.contains(at)), balloon.comment_id)
        comment = self._comments().get(comment_id)
        return (number, balloon, comment) if comment is not None else None

    def _context_menu(self, event) -> bool:
        view = self._view
        found = self._comment_at(QPointF(event.pos()))
        if found is None:
            return False
        number, balloon, comment = found
        comment_id = comment.id
        view.balloons.show_comment(balloon.comment_id, scroll=False)
        if self.menu is not None:
            self.menu.deleteLater()  # one menu at a time, not one more per right-click
        menu = QMenu(view)
        menu.setObjectName("comment_menu")
        edit = menu.addAction("&Edit comment", lambda: self.edit_comment(comment_id))
        edit.setEnabled(comment.author == self.window.settings.author)
        menu.addAction("&Delete comment", lambda: self.delete_comment(comment_id))
        menu.addSeparator()
        menu.addAction("&Reply", lambda: (self.composer.close(), view.balloons.open_editor(balloon.comment_id, number)))
        thread = balloon.thread
        resolve = self.window.commands.resolve_comment
        menu.addAction("Re&open" if thread.done else "Re&solve", lambda: resolve(thread.id, not thread.done))
        self.menu = menu
        menu.popup(event.globalPos())
        return True

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt override
        kind = event.type()
        if kind not in (QEvent.MouseButtonPress, QEvent.MouseButtonDblClick, QEvent.ContextMenu, QEvent.KeyPress):
            return False
        view = self._view
        if watched is self._viewport:
            if kind == QEvent.MouseButtonDblClick and event.button() == Qt.LeftButton:
                found = self._comment_at(event.position())
                if found is not None and found[2].author == self.window.settings.author:
                    return self.edit_comment(found[2].id)  # as in Word: into one's own comment's text
            elif kind == QEvent.MouseButtonPress:
                found = view.balloons.hit(event.position())
                balloon = found[1] if found is not None else None
                self.picked = balloon.comment_id if balloon is not None and found[2] is None and not balloon.hidden \
                    and balloon.comment_id != DRAFT_ID else None
                if found is not None and found[2] == "reply" and self.composer.is_open:
                    # one field at a time: the reply's. Opened here, as the balloons move once the
                    # comment being written is gone (the press would miss the Reply it was on)
                    self.composer.close()
                    view.balloons.open_editor(balloon.comment_id, found[0])
                    return True
            elif kind == QEvent.ContextMenu:
                return self._context_menu(event)
        elif watched is view and kind == QEvent.KeyPress:
            picked, self.picked = self.picked, None  # any other key: the caret is the pages' again
            if event.key() == Qt.Key_Delete and not event.modifiers() and picked is not None \
                    and picked == view.marks.active and owns_keyboard(view):
                self.delete_comment(picked)
                return True
            if event.key() in (Qt.Key_Shift, Qt.Key_Control, Qt.Key_Alt, Qt.Key_Meta):
                self.picked = picked
        return False
