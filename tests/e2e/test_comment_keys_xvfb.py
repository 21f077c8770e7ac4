"""Comments as in Word with real keys under Xvfb (xdotool through the X server and Qt's own key
handling; test_keys_xvfb.py's window in a child process): Ctrl+Alt+M puts the keyboard in a new
balloon's field, Escape drops it, Ctrl+Enter posts it; a click on a balloon and Delete deletes its
thread with its reply. Checked in the file saved with Ctrl+S."""

from __future__ import annotations

from key_helpers import SUPERDOC, body
from test_keys_xvfb import desk, saved  # noqa: F401 - the fixture

from folio_desktop.docx import DocxReviewer


def test_a_new_comment_from_ctrl_alt_m_and_a_thread_deleted_with_the_delete_key(desk):  # noqa: F811
    original = DocxReviewer.open(SUPERDOC)
    first = original.get_comments()[0]
    ids = sorted(c.id for c in original.all_comments())
    desk.click(desk.state()["word"])
    version = desk.wait("the keyboard in the pages", lambda s: s["focus"] == "pages")["version"]

    # Escape drops the comment being written: nothing changes
    desk.key("ctrl+alt+m")
    desk.wait("the new comment's field", lambda s: s["focus"] == "comment field")
    desk.xdotool("type", "--delay", "15", "never mind")
    desk.key("Escape")
    assert desk.wait("the pages again", lambda s: s["focus"] == "pages")["version"] == version

    # Ctrl+Enter posts it, on the word at the caret
    desk.key("ctrl+alt+m")
    desk.wait("the new comment's field", lambda s: s["focus"] == "comment field")
    desk.xdotool("type", "--delay", "15", "Define it.")
    desk.key("ctrl+Return")
    state = desk.wait("the new comment", lambda s: len(s["comments"]) == len(ids) + 1 and s["focus"] == "pages")
    new_id = next(i for i in state["comments"] if i not in ids)

    # a click on the first thread's balloon, then Delete: the thread and its reply go
    desk.click(desk.wait("the balloon", lambda s: s["balloon"])["balloon"])
    desk.wait("the keyboard in the pages", lambda s: s["focus"] == "pages")
    desk.key("Delete")
    desk.wait("the thread deleted", lambda s: first.id not in s["comments"])

    reread = saved(desk)
    assert body(reread) == body(original)  # no text typed or deleted in the page
    kept = {c.id: (c.author, c.text, c.anchored_text) for c in reread.all_comments()}
    assert sorted(kept) == sorted([new_id, *(i for i in ids if i not in (first.id, first.replies[0].id))])
    assert kept[new_id] == (state["author"], "Define it.", "word")
