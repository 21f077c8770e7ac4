"""Comments as in Word (ui/desk/comment_commands.py, ui/panels/comment_editor.py, the balloons):
Ctrl+Alt+M opens a new balloon beside the page with the keyboard in it; Ctrl+Enter or Post sends,
Escape cancels and writes nothing; a comment is deleted (its replies with it) with the Delete key on
a clicked balloon, the balloon's Delete button and context menu, and the Comments panel; Delete all
comments shown and Delete all comments by an author from the Review menu; the lawyer edits their
own comments in place and no one else's. Each is one undo step that brings everything back."""

from __future__ import annotations

import pytest
from chat_helpers import PILOT
from conftest import CORPUS
from key_helpers import SUPERDOC, review_window  # (SUPERDOC: 3 threads by Cole Palmer, each with a reply)
from PySide6.QtCore import QPoint, QPointF, Qt, QTimer
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QApplication

from folio_desktop.docx import DocxReviewer
from folio_desktop.ui.desk.window import ReviewWindow
from folio_desktop.ui.pages.geometry import DRAFT_ID, MARKUP_WIDTH

LAWYER = "Lawyer"  # make_settings' author name


def open_desk(qtbot, tmp_path, source=SUPERDOC) -> ReviewWindow:
    """key_helpers.review_window, scrolling at once (no animation to wait for)."""
    window = review_window(qtbot, tmp_path, source)
    window.view.smooth_scrolling = False
    return window


@pytest.fixture
def desk(qtbot, tmp_path):
    return open_desk(qtbot, tmp_path)


def page_point_to_viewport(view, number, point):
    """The viewport point of a page point, scrolling it into view first."""
    view.scroll_to_page(number)
    vp = view.page_to_viewport(number, point)
    h = view.horizontalScrollBar()
    if not 0 <= vp.x() < view.viewport().width():
        h.setValue(h.value() + round(vp.x() - view.viewport().width() / 2))
        vp = view.page_to_viewport(number, point)
    return vp.toPoint()


def click_page(qtbot, view, number, point, button=Qt.LeftButton):
    qtbot.mouseClick(view.viewport(), button, pos=page_point_to_viewport(view, number, point))


def balloon(view, comment_id):
    for page in view.pages:
        for b in view.marks.balloons(page):
            if b.comment_id == comment_id and not b.hidden:
                return page.number, b
    return None


def click_in_word(qtbot, window, block_id, word):
    """A click in the middle of a word of a block: the caret there, nothing selected."""
    view = window.view
    text = window.reviewer.snapshot().block(block_id).text
    offset = text.index(word) + len(word) // 2
    for number, frag in view.document_layout.fragments_of(block_id):
        para = frag.para
        display = next(i for i, a in enumerate(para.accepted) if a == offset)
        lo, hi = frag.display_range
        if lo <= display < hi:
            k = next(k for k in range(frag.first_line, frag.last_line + 1) if display < para.lines[k].end)
            x = para.layout.lineAt(k).cursorToX(display)
            x = x[0] if isinstance(x, tuple) else x
            point = QPointF(frag.x + para.x + x, frag.y + para.lines[k].y + para.lines[k].height / 2)
            click_page(qtbot, view, number, point)
            assert view.hasFocus() and not view.selection.selection_text()
            return
    raise AssertionError("word not laid out")


def new_comment_keys(qtbot, window):
    """Ctrl+Alt+M where the keyboard is; the new comment's field then has it (a pop-up dialog instead
    is closed at once and fails the test)."""
    popped = []

    def close_pop_up():
        dialog = QApplication.activeModalWidget()
        if dialog is not None:
            popped.append(dialog.windowTitle())
            dialog.reject()

    QTimer.singleShot(300, close_pop_up)
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key_M, Qt.ControlModifier | Qt.AltModifier)
    assert not popped, f"a pop-up dialog opened: {popped}"
    field = window.comment_commands.composer.field
    qtbot.waitUntil(lambda: field.isVisible() and field.hasFocus(), timeout=5_000)
    return field


def state(reviewer):
    return [(t.id, t.author, t.text, t.done, t.anchored_text, t.block_id, [(r.id, r.author, r.text) for r in t.replies])
            for t in reviewer.get_comments()]


def comment_ids(reviewer):
    return sorted(c.id for c in reviewer.all_comments())


# -- a new comment ------------------------------------------------------------------------------------------


def test_ctrl_alt_m_opens_a_balloon_for_the_word_at_the_caret_and_ctrl_enter_posts_it(qtbot, desk, tmp_path):
    view, reviewer = desk.view, desk.reviewer
    block_id = reviewer.get_comments()[0].block_id  # "This is a word document"
    before = state(reviewer)
    click_in_word(qtbot, desk, block_id, "word")
    field = new_comment_keys(qtbot, desk)
    # a new balloon beside the page, the keyboard in its field, the word at the caret selected
    assert view.selection.selection_text() == "word"
    number, draft = balloon(view, DRAFT_ID)
    assert draft.composer is not None and draft.thread.author == LAWYER
    assert draft.rect.left() >= view.pages[number - 1].width  # in the markup area, not a dialog
    assert field.geometry().contains(view.page_to_viewport(number, draft.composer.center()).toPoint())
    assert view.viewport().rect().contains(field.geometry())
    assert QApplication.activeModalWidget() is None
    assert state(reviewer) == before  # nothing written yet
    qtbot.keyClicks(field, "Which word?")
    qtbot.keyClick(field, Qt.Key_Return)  # Enter: a new paragraph of the comment, not a post
    qtbot.keyClicks(field, "Define it.")
    assert field.isVisible() and state(reviewer) == before
    qtbot.keyClick(field, Qt.Key_Return, Qt.ControlModifier)
    qtbot.waitUntil(lambda: not field.isVisible(), timeout=2_000)
    new = [c for c in reviewer.get_comments() if c.id not in {t[0] for t in before}]
    assert [(c.author, c.text, c.anchored_text, c.block_id) for c in new] == \
        [(LAWYER, "Which word?\nDefine it.", "word", block_id)]
    assert balloon(view, DRAFT_ID) is None and balloon(view, new[0].id) is not None
    assert view.hasFocus()
    assert desk.undo_action.text().endswith("Add comment")
    # saved, it reopens with the comment on that word
    qtbot.keyClick(view, Qt.Key_S, Qt.ControlModifier)
    again = DocxReviewer.open(tmp_path / SUPERDOC.name)
    assert [(c.text, c.anchored_text) for c in again.get_comments() if c.author == LAWYER] == \
        [("Which word?\nDefine it.", "word")]


def test_escape_cancels_a_new_comment_and_writes_nothing(qtbot, desk):
    view, reviewer = desk.view, desk.reviewer
    version, before = reviewer.document_version(), state(reviewer)
    click_in_word(qtbot, desk, reviewer.get_comments()[0].block_id, "document")
    field = new_comment_keys(qtbot, desk)
    qtbot.keyClicks(field, "never mind")
    qtbot.keyClick(field, Qt.Key_Escape)
    qtbot.waitUntil(lambda: not field.isVisible(), timeout=2_000)
    assert balloon(view, DRAFT_ID) is None
    assert reviewer.document_version() == version and state(reviewer) == before
    assert view.hasFocus()
    assert not desk.undo_action.isEnabled()


def test_the_post_button_posts_a_selected_range(qtbot, desk):
    view, reviewer = desk.view, desk.reviewer
    thread = reviewer.get_comments()[0]
    text = reviewer.snapshot().block(thread.block_id).text
    click_in_word(qtbot, desk, thread.block_id, "This")
    qtbot.keyClick(view, Qt.Key_Home)
    for _ in range(len("This is")):
        qtbot.keyClick(view, Qt.Key_Right, Qt.ShiftModifier)
    assert view.selection.selection_text() == text[:7]
    field = new_comment_keys(qtbot, desk)
    assert view.selection.selection_text() == "This is"  # the selection is what it comments
    qtbot.keyClicks(field, "Posted by the button.")
    number, draft = balloon(view, DRAFT_ID)
    click_page(qtbot, view, number, draft.buttons["post"].center())
    mine = [c for c in reviewer.get_comments() if c.author == LAWYER]
    assert [(c.text, c.anchored_text) for c in mine] == [("Posted by the button.", "This is")]
    assert not field.isVisible()


def test_a_first_comment_opens_the_markup_area_and_cancel_closes_it(qtbot, tmp_path):
    window = open_desk(qtbot, tmp_path, PILOT)
    view, reviewer = window.view, window.reviewer
    assert reviewer.get_comments() == [] and view.marks.markup_width() == 0
    block = next(b for b in reviewer.snapshot().content_blocks if len(b.text.split()) > 5)
    click_in_word(qtbot, window, block.id, block.text.split()[2])
    field = new_comment_keys(qtbot, window)
    assert view._sheet_width(view.pages[0]) == view.pages[0].width + MARKUP_WIDTH
    assert view.viewport().rect().contains(field.geometry())
    number, draft = balloon(view, DRAFT_ID)
    click_page(qtbot, view, number, draft.buttons["cancel"].center())
    assert not field.isVisible() and view._sheet_width(view.pages[0]) == view.pages[0].width
    assert reviewer.get_comments() == []
    field = new_comment_keys(qtbot, window)
    qtbot.keyClicks(field, "The first comment.")
    qtbot.keyClick(field, Qt.Key_Enter, Qt.ControlModifier)
    qtbot.waitUntil(lambda: not field.isVisible(), timeout=2_000)
    assert [(c.author, c.text, c.block_id) for c in reviewer.get_comments()] == [(LAWYER, "The first comment.", block.id)]
    qtbot.waitUntil(lambda: balloon(view, reviewer.get_comments()[0].id) is not None, timeout=5_000)


def test_in_no_markup_a_new_comment_shows_the_balloons_in_simple_markup(qtbot, desk):
    view, reviewer = desk.view, desk.reviewer
    qtbot.keyClick(view, Qt.Key_3, Qt.ControlModifier | Qt.AltModifier)  # No Markup: no balloons
    qtbot.waitUntil(lambda: view.markup_view == "none" and view.is_laid_out, timeout=5_000)
    block_id = reviewer.get_comments()[0].block_id
    click_in_word(qtbot, desk, block_id, "word")
    field = new_comment_keys(qtbot, desk)
    assert view.markup_view == "simple" and desk.markup_simple_action.isChecked()
    assert view.selection.selection_text() == "word"
    qtbot.keyClicks(field, "Seen in Simple Markup.")
    qtbot.keyClick(field, Qt.Key_Return, Qt.ControlModifier)
    qtbot.waitUntil(lambda: not field.isVisible(), timeout=2_000)
    assert [(c.text, c.anchored_text) for c in reviewer.get_comments() if c.author == LAWYER] == \
        [("Seen in Simple Markup.", "word")]


def test_a_selection_across_paragraphs_comments_the_part_of_the_first(qtbot, tmp_path):
    window = open_desk(qtbot, tmp_path, PILOT)
    view, reviewer = window.view, window.reviewer
    blocks = [b for b in reviewer.snapshot().content_blocks if len(b.text.split()) > 5]
    first = blocks[0]
    word = first.text.split()[-2]
    click_in_word(qtbot, window, first.id, word)
    for _ in range(3):
        qtbot.keyClick(view, Qt.Key_Down, Qt.ShiftModifier)
    assert view.selection.selection_block_range() is None  # across paragraphs
    field = new_comment_keys(qtbot, window)
    qtbot.keyClicks(field, "Across.")
    qtbot.keyClick(field, Qt.Key_Return, Qt.ControlModifier)
    qtbot.waitUntil(lambda: not field.isVisible(), timeout=2_000)
    [comment] = reviewer.get_comments()
    assert comment.block_id == first.id and first.text.endswith(comment.anchored_text)
    assert word[len(word) // 2:] in comment.anchored_text and len(comment.anchored_text) < len(first.text)


def test_ctrl_z_in_the_field_takes_back_typing_not_the_document(qtbot, desk):
    reviewer = desk.reviewer
    thread = reviewer.get_comments()[0]
    desk.commands.resolve_comment(thread.id)  # an undo step the field's Ctrl+Z must not take
    click_in_word(qtbot, desk, thread.block_id, "word")
    field = new_comment_keys(qtbot, desk)
    qtbot.keyClicks(field, "Typed")
    qtbot.keyClick(field, Qt.Key_Z, Qt.ControlModifier)
    assert field.toPlainText() == "" and field.isVisible()
    assert next(t for t in reviewer.get_comments() if t.id == thread.id).done
    assert desk.undo_action.text().endswith("Resolve comment")


# -- deleting -----------------------------------------------------------------------------------------------


def test_the_delete_key_on_a_clicked_balloon_deletes_its_thread_and_ctrl_z_brings_it_back(qtbot, desk):
    view, reviewer = desk.view, desk.reviewer
    before, ids = state(reviewer), comment_ids(reviewer)
    thread = reviewer.get_comments()[1]
    number, b = balloon(view, thread.id)
    # clicked, then the caret moved: Delete is the text's again (a tracked deletion, no comment goes)
    click_page(qtbot, view, number, QPointF(b.rect.center().x(), b.rect.top() + 8))  # its header
    qtbot.keyClick(view, Qt.Key_Right)
    qtbot.keyClick(view, Qt.Key_Delete)
    assert comment_ids(reviewer) == ids
    qtbot.keyClick(view, Qt.Key_Z, Qt.ControlModifier)
    assert state(reviewer) == before
    # clicked and Delete: the thread goes, its reply with it
    qtbot.waitUntil(lambda: view.is_laid_out and balloon(view, thread.id) is not None, timeout=5_000)
    number, b = balloon(view, thread.id)
    click_page(qtbot, view, number, QPointF(b.rect.center().x(), b.rect.top() + 8))
    assert view.marks.active == thread.id and view.hasFocus()
    qtbot.keyClick(view, Qt.Key_Delete)
    assert thread.id not in [t.id for t in reviewer.get_comments()]
    assert comment_ids(reviewer) == [i for i in ids if i not in (thread.id, thread.replies[0].id)]
    # the text's changes stay; the tracked insertion that held only this thread's two comment marks holds
    # nothing now, so it is no longer listed
    assert [t.text for t in reviewer.get_changes()] == [t.text for t in DocxReviewer.open(SUPERDOC).get_changes()
                                                        if t.text]
    assert balloon(view, thread.id) is None and desk.comments.item_for(thread.id) is None
    qtbot.keyClick(view, Qt.Key_Z, Qt.ControlModifier)
    assert state(reviewer) == before and comment_ids(reviewer) == ids
    qtbot.waitUntil(lambda: balloon(view, thread.id) is not None, timeout=5_000)


def test_the_balloons_delete_button_and_context_menu(qtbot, desk):
    view, reviewer = desk.view, desk.reviewer
    ids = comment_ids(reviewer)
    first, second = reviewer.get_comments()[:2]
    # the button deletes the thread, replies and all
    number, b = balloon(view, first.id)
    click_page(qtbot, view, number, b.buttons["delete"].center())
    assert comment_ids(reviewer) == [i for i in ids if i not in (first.id, first.replies[0].id)]
    # the context menu on a reply deletes the reply alone
    reply = second.replies[0]
    number, b = balloon(view, second.id)
    where = page_point_to_viewport(view, number, b.comments[reply.id].center())
    QApplication.sendEvent(view.viewport(), QContextMenuEvent(QContextMenuEvent.Mouse, where,
                                                              view.viewport().mapToGlobal(where)))
    menu = desk.comment_commands.menu
    qtbot.waitUntil(menu.isVisible, timeout=2_000)
    edit = next(a for a in menu.actions() if a.text() == "&Edit comment")
    assert not edit.isEnabled()  # Cole Palmer's reply, not the lawyer's
    qtbot.keyClick(menu, Qt.Key_D)
    qtbot.waitUntil(lambda: reply.id not in comment_ids(reviewer), timeout=2_000)
    kept = next(t for t in reviewer.get_comments() if t.id == second.id)
    assert (kept.text, kept.anchored_text, kept.replies) == (second.text, second.anchored_text, [])
    # two steps, each undone on its own
    assert desk.review_actions.undo_stack.count() == 2
    qtbot.keyClick(view, Qt.Key_Z, Qt.ControlModifier)
    assert [r.id for r in next(t for t in reviewer.get_comments() if t.id == second.id).replies] == [reply.id]
    qtbot.keyClick(view, Qt.Key_Z, Qt.ControlModifier)
    assert comment_ids(reviewer) == ids


def test_the_comments_panel_deletes_the_row_picked_with_the_delete_key(qtbot, desk):
    reviewer, panel = desk.reviewer, desk.comments
    desk.comments_dock.raise_()
    thread = reviewer.get_comments()[2]
    item = panel.item_for(thread.id)
    panel.tree.scrollToItem(item)
    qtbot.mouseClick(panel.tree.viewport(), Qt.LeftButton, pos=panel.tree.visualItemRect(item).center())
    assert panel.tree.hasFocus()
    qtbot.keyClick(panel.tree, Qt.Key_Delete)
    assert thread.id not in [t.id for t in reviewer.get_comments()]
    assert panel.item_for(thread.id) is None and len(reviewer.get_comments()) == 2


def review_menu_key(qtbot, window, key):
    """Alt+R opens the Review menu; `key` picks an entry by its access key."""
    qtbot.keyClick(window, Qt.Key_R, Qt.AltModifier)
    menu = window.review_menu
    qtbot.waitUntil(menu.isVisible, timeout=2_000)
    qtbot.keyClick(menu, key)
    return menu


def test_delete_all_comments_shown_keeps_the_hidden_resolved_thread(qtbot, desk):
    view, reviewer, panel = desk.view, desk.reviewer, desk.comments
    resolved = reviewer.get_comments()[1]
    number, b = balloon(view, resolved.id)
    click_page(qtbot, view, number, b.buttons["resolve"].center())
    desk.comments_dock.raise_()
    qtbot.mouseClick(panel.show_resolved, Qt.LeftButton, pos=QPoint(6, panel.show_resolved.height() // 2))
    assert not panel.show_resolved.isChecked() and len(panel.visible_thread_ids()) == 2
    review_menu_key(qtbot, desk, Qt.Key_W)  # Delete all comments sho&wn
    qtbot.waitUntil(lambda: len(reviewer.get_comments()) == 1, timeout=2_000)
    [kept] = reviewer.get_comments()
    assert (kept.id, kept.done, [r.id for r in kept.replies]) == (resolved.id, True, [r.id for r in resolved.replies])
    assert desk.statusBar().currentMessage() == "Deleted 4 comments."
    qtbot.keyClick(view, Qt.Key_Z, Qt.ControlModifier)  # one step brings the four back
    assert len(reviewer.get_comments()) == 3 and len(reviewer.all_comments()) == 6


def test_delete_all_comments_by_an_author(qtbot, desk):
    view, reviewer = desk.view, desk.reviewer
    desk.commands.add_comment("The lawyer's own.", (reviewer.get_comments()[0].block_id, 0, 4))
    before = state(reviewer)
    menu = review_menu_key(qtbot, desk, Qt.Key_B)  # Delete all comments &by
    sub = desk.comment_commands.by_author_menu
    qtbot.waitUntil(sub.isVisible, timeout=2_000)
    assert [a.text().replace("&", "") for a in sub.actions()] == ["Cole Palmer (6)", f"{LAWYER} (1)"]
    qtbot.keyClick(sub, Qt.Key_Return)  # the first entry: Cole Palmer
    qtbot.waitUntil(lambda: not menu.isVisible(), timeout=2_000)
    assert [(c.author, c.text) for c in reviewer.all_comments()] == [(LAWYER, "The lawyer's own.")]
    qtbot.keyClick(view, Qt.Key_Z, Qt.ControlModifier)
    assert state(reviewer) == before


# -- editing one's own ----------------------------------------------------------------------------------------


def test_the_lawyer_edits_their_own_comment_in_place_and_no_one_elses(qtbot, desk):
    view, reviewer = desk.view, desk.reviewer
    others = reviewer.get_comments()[0]
    mine_id = desk.commands.add_comment("Cap at 12 months.", (others.block_id, 0, 4))
    number, b = balloon(view, others.id)
    assert "edit" not in b.buttons  # Cole Palmer's: no Edit
    number, b = balloon(view, mine_id)
    assert "edit" in b.buttons
    click_page(qtbot, view, number, b.buttons["edit"].center())
    field = desk.comment_commands.composer.field
    qtbot.waitUntil(lambda: field.isVisible() and field.hasFocus(), timeout=2_000)
    assert field.toPlainText() == "Cap at 12 months."
    number, b = balloon(view, mine_id)
    assert b.composer is not None and "save" in b.buttons
    assert field.geometry().contains(view.page_to_viewport(number, b.composer.center()).toPoint())
    # Escape: nothing changes
    qtbot.keyClicks(field, " Or 24.")
    qtbot.keyClick(field, Qt.Key_Escape)
    qtbot.waitUntil(lambda: not field.isVisible(), timeout=2_000)
    assert next(c for c in reviewer.get_comments() if c.id == mine_id).text == "Cap at 12 months."
    # again, and Ctrl+Enter saves
    number, b = balloon(view, mine_id)
    click_page(qtbot, view, number, b.buttons["edit"].center())
    qtbot.waitUntil(lambda: field.isVisible() and field.hasFocus(), timeout=2_000)
    qtbot.keyClick(field, Qt.Key_A, Qt.ControlModifier)
    qtbot.keyClicks(field, "Cap at 24 months.")
    qtbot.keyClick(field, Qt.Key_Return, Qt.ControlModifier)
    qtbot.waitUntil(lambda: not field.isVisible(), timeout=2_000)
    edited = next(c for c in reviewer.get_comments() if c.id == mine_id)
    assert (edited.text, edited.author, edited.anchored_text) == ("Cap at 24 months.", LAWYER, "This")
    assert desk.undo_action.text().endswith("Edit comment")
    qtbot.keyClick(view, Qt.Key_Z, Qt.ControlModifier)
    assert next(c for c in reviewer.get_comments() if c.id == mine_id).text == "Cap at 12 months."
    # another author's comment: Review > Edit comment refuses, no field opens
    qtbot.waitUntil(lambda: view.is_laid_out and balloon(view, others.id) is not None, timeout=5_000)  # after undo
    number, b = balloon(view, others.id)
    click_page(qtbot, view, number, QPointF(b.rect.center().x(), b.rect.top() + 8))
    review_menu_key(qtbot, desk, Qt.Key_E)  # &Edit comment
    assert not field.isVisible() and view.marks.editing is None
    assert "Only your own comments can be edited" in desk.statusBar().currentMessage()
    assert next(c for c in reviewer.get_comments() if c.id == others.id).text == others.text


def test_a_range_starting_between_paragraphs_deletes_and_undoes_as_one_step(qapp):
    # docx4j's comment 1 starts its range in the body between paragraphs: the engine cannot record
    # that place, so the step keeps the whole document (ReviewActions' checkpoint) and still undoes
    from folio_desktop.ui.review_actions import ReviewActions

    rev = DocxReviewer.open(CORPUS / "docx4j_invoice_databinding_sdt_comments.docx", author=LAWYER)
    actions = ReviewActions(rev, LAWYER)
    before, saved = state(rev), rev.to_bytes()
    assert actions.perform("Delete comment", lambda: rev.delete_comments([1])) == [1]
    assert [t.id for t in rev.get_comments()] == [0]
    body = rev.document.body
    assert not [el for el in body.iter() if el.get(f"{{{body.nsmap['w']}}}id") == "1" and "comment" in el.tag]
    assert actions.undo_stack.count() == 1
    actions.undo_stack.undo()
    assert state(rev) == before and rev.to_bytes() == saved
    actions.undo_stack.redo()
    assert [t.id for t in rev.get_comments()] == [0]


def test_a_double_click_on_ones_own_comment_edits_it_and_on_anothers_does_not(qtbot, desk):
    view, reviewer = desk.view, desk.reviewer
    others = reviewer.get_comments()[0]
    mine_id = desk.commands.add_comment("Double-click me.", (others.block_id, 0, 4))
    field = desk.comment_commands.composer.field
    number, b = balloon(view, others.id)
    qtbot.mouseDClick(view.viewport(), Qt.LeftButton,
                      pos=page_point_to_viewport(view, number, b.comments[others.id].center()))
    assert not field.isVisible() and view.marks.editing is None
    number, b = balloon(view, mine_id)
    qtbot.mouseDClick(view.viewport(), Qt.LeftButton,
                      pos=page_point_to_viewport(view, number, b.comments[mine_id].center()))
    qtbot.waitUntil(lambda: field.isVisible() and field.hasFocus(), timeout=2_000)
    assert view.marks.editing == mine_id and field.toPlainText() == "Double-click me."
    qtbot.keyClicks(field, " Done.")
    qtbot.keyClick(field, Qt.Key_Enter, Qt.ControlModifier)
    qtbot.waitUntil(lambda: not field.isVisible(), timeout=2_000)
    assert next(c for c in reviewer.get_comments() if c.id == mine_id).text == "Double-click me. Done."


def test_replying_closes_a_comment_being_written(qtbot, desk):
    view, reviewer = desk.view, desk.reviewer
    thread = reviewer.get_comments()[2]
    click_in_word(qtbot, desk, reviewer.get_comments()[0].block_id, "word")
    field = new_comment_keys(qtbot, desk)
    qtbot.keyClicks(field, "Dropped for a reply.")
    number, b = balloon(view, thread.id)
    click_page(qtbot, view, number, b.buttons["reply"].center())
    assert not field.isVisible() and view.marks.draft is None
    assert view.balloons.editor.isVisible() and view.balloons.editor.hasFocus()
    assert all(c.author != LAWYER for c in reviewer.all_comments())
