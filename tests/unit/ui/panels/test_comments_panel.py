"""CommentsPanel (folio_desktop/ui/panels/comments.py): threads with replies, resolve/reopen,
reply, add on the selection and jump to the anchor, all as signals."""

from __future__ import annotations

import pytest
from conftest import CORPUS
from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette

from folio_desktop.docx import DocxReviewer
from folio_desktop.ui.panels.comments import CommentsPanel

SUPERDOC = CORPUS / "superdoc_word_comments_replies_tracked.docx"


@pytest.fixture
def reviewer():
    return DocxReviewer.open(SUPERDOC, author="Lawyer")


@pytest.fixture
def panel(qtbot, reviewer):
    p = CommentsPanel()
    p.resize(500, 700)
    qtbot.addWidget(p)
    p.show()
    qtbot.waitExposed(p)
    p.set_document(reviewer)
    return p


def click(qtbot, panel, item):
    panel.tree.scrollToItem(item)
    qtbot.mouseClick(panel.tree.viewport(), Qt.LeftButton, pos=panel.tree.visualItemRect(item).center())


def test_threads_show_author_quote_text_and_their_replies(panel, reviewer):
    threads = reviewer.get_comments()
    assert [t.id for t in threads] == [0, 3, 7]
    assert panel.visible_thread_ids() == [0, 3, 7]
    for i, thread in enumerate(threads):
        item = panel.tree.topLevelItem(i)
        lines = item.text(0).split("\n")
        assert lines[0].startswith(f"{i + 1} · Cole Palmer · ")  # numbered as the balloons are
        assert lines[1] == f"“{thread.anchored_text}”"
        assert lines[2] == thread.text
        assert [item.child(k).data(0, Qt.UserRole) for k in range(item.childCount())] == [r.id for r in thread.replies]
        assert item.child(0).text(0).split("\n")[1] == thread.replies[0].text.strip()
    assert panel.count_label.text() == "3 open"


def test_clicking_a_thread_or_a_reply_jumps_to_the_thread_anchor(qtbot, panel):
    thread = panel.item_for(3)
    with qtbot.waitSignal(panel.commentActivated, timeout=1000) as blocker:
        click(qtbot, panel, thread)
    assert blocker.args == [3]
    with qtbot.waitSignal(panel.commentActivated, timeout=1000) as blocker:
        click(qtbot, panel, panel.item_for(8))  # the reply in thread 7
    assert blocker.args == [7]
    with qtbot.assertNotEmitted(panel.commentActivated):
        panel.select_comment(0)
    assert panel.selected_comment_id() == 0 and panel.selected_thread_id() == 0


def test_resolve_then_reopen_after_the_window_applied_it(qtbot, panel, reviewer):
    assert not panel.resolve_button.isEnabled()  # nothing selected
    panel.select_comment(4)  # a reply: resolving acts on its thread
    assert panel.resolve_button.text() == "Resolve"
    with qtbot.waitSignal(panel.resolveRequested, timeout=1000) as blocker:
        qtbot.mouseClick(panel.resolve_button, Qt.LeftButton)
    assert blocker.args == [3, True]
    assert not reviewer.get_comments()[1].done  # the panel asked; it did not resolve
    assert reviewer.resolve_comment(3, True)
    panel.refresh()
    item = panel.item_for(3)
    assert "resolved" in item.text(0).split("\n")[0]
    grey = panel.palette().color(QPalette.Disabled, QPalette.Text)
    assert item.foreground(0).color() == grey and item.child(0).foreground(0).color() == grey
    assert panel.item_for(0).foreground(0).color() != grey
    assert panel.count_label.text() == "2 open, 1 resolved"
    assert panel.selected_thread_id() == 3 and panel.resolve_button.text() == "Reopen"
    with qtbot.waitSignal(panel.resolveRequested, timeout=1000) as blocker:
        qtbot.mouseClick(panel.resolve_button, Qt.LeftButton)
    assert blocker.args == [3, False]
    panel.show_resolved.setChecked(False)
    assert panel.visible_thread_ids() == [0, 7]
    assert panel.selected_thread_id() is None


def test_reply_goes_to_the_selected_thread(qtbot, panel, reviewer):
    panel.select_comment(8)
    qtbot.keyClicks(panel.reply_field, "  Agreed, delete it.  ")
    with qtbot.waitSignal(panel.replyRequested, timeout=1000) as blocker:
        qtbot.mouseClick(panel.reply_button, Qt.LeftButton)
    assert blocker.args == [7, "Agreed, delete it."]
    assert panel.reply_field.text() == ""
    assert not panel.reply_button.isEnabled()
    reply_id = reviewer.reply_to(7, "Agreed, delete it.")
    panel.refresh()
    thread = panel.item_for(7)
    assert thread.childCount() == 2 and thread.child(1).data(0, Qt.UserRole) == reply_id
    assert thread.child(1).text(0).startswith("Lawyer · ")
    qtbot.keyClicks(panel.reply_field, "Enter sends too")
    with qtbot.waitSignal(panel.replyRequested, timeout=1000) as blocker:
        qtbot.keyClick(panel.reply_field, Qt.Key_Return)
    assert blocker.args == [7, "Enter sends too"]


def test_add_comment_on_the_selection_emits_its_text(qtbot, panel, reviewer):
    assert not panel.add_button.isEnabled()
    qtbot.keyClicks(panel.add_field, "Is this defined?")
    with qtbot.waitSignal(panel.addRequested, timeout=1000) as blocker:
        qtbot.mouseClick(panel.add_button, Qt.LeftButton)
    assert blocker.args == ["Is this defined?"]
    assert panel.add_field.text() == ""
    assert len(reviewer.get_comments()) == 3
    block = reviewer.snapshot().blocks[0]
    new_id = reviewer.add_comment(block.id, "Is this defined?")
    panel.refresh()
    assert new_id in panel.visible_thread_ids() and len(panel.visible_thread_ids()) == 4
