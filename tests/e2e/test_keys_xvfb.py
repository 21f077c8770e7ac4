"""Real keys in a real window (issue 25, acceptance 2): the app runs in a child process on an X server
of its own (Xvfb), and xdotool presses the keys and clicks the mouse as a person would, through the X
server, the window system and Qt's own key handling (tests/window_probe.py runs the window and says
where its widgets are and what holds the keyboard). Keys that type nothing, F6 and Ctrl+Tab leave the
document as it was; a reply sent with Enter from a balloon, with a word selected in the page, adds the
reply and nothing else. Each is checked in the file saved with Ctrl+S. (The app on its X server:
tests/xvfb_desk.py.)"""

from __future__ import annotations

import pytest
from key_helpers import FIRST, SUPERDOC, body
from xvfb_desk import NEEDS_X, Desk, desk_on

from folio_desktop.docx import DocxReviewer

pytestmark = NEEDS_X


@pytest.fixture
def desk(tmp_path):
    with desk_on(tmp_path, SUPERDOC, ready=lambda s: s.get("word") and s.get("reply")) as desk:
        yield desk


def saved(desk: Desk) -> DocxReviewer:
    """Ctrl+S, then the file as it was written."""
    desk.to_pages()
    saves = desk.state()["saves"]
    desk.key("ctrl+s")
    desk.wait("the document to be saved", lambda s: s["saves"] > saves)
    return DocxReviewer.open(desk.document)


def test_keys_that_type_nothing_and_the_pane_keys_leave_the_document_as_it_was(desk):
    original = body(DocxReviewer.open(SUPERDOC))
    state = desk.state()
    desk.click(state["word"])  # the caret in the text: typing would land there
    desk.wait("the keyboard in the pages", lambda s: s["focus"] == "pages")
    version = desk.state()["version"]

    # F6 and Shift+F6, Ctrl+Tab and Ctrl+Shift+Tab move the keyboard between the panes
    for keys, pane in (("F6", "outline"), ("shift+F6", "pages"), ("shift+F6", "chat"), ("F6", "pages"),
                       ("ctrl+Tab", "outline"), ("ctrl+shift+Tab", "pages"), ("ctrl+shift+Tab", "chat"),
                       ("ctrl+Tab", "pages")):
        desk.key(keys)
        desk.wait(f"{keys} to take the keyboard to the {pane}", lambda s, p=pane: s["focus"] == p)

    # function keys and Escape, each pressed with the keyboard in the pages
    for key in [f"F{n}" for n in range(1, 13)] + ["Escape"]:
        desk.to_pages()
        assert desk.key(key)["version"] == version, key
    desk.to_pages()
    assert desk.state()["version"] == version

    reread = saved(desk)
    assert body(reread) == original  # no new tracked change, the same text


def test_a_reply_sent_with_enter_from_a_balloon_adds_the_reply_and_nothing_else(desk):
    original = DocxReviewer.open(SUPERDOC)
    thread = original.get_comments()[0]
    state = desk.state()
    desk.click(state["word"], twice=True)  # the word selected in the page
    desk.wait("the word selected", lambda s: s["selection"] == [FIRST, 10, 14])
    desk.click(desk.state()["reply"])
    desk.wait("the reply editor", lambda s: s["focus"] == "reply editor")
    desk.xdotool("type", "--delay", "15", "Agreed, keep it.")
    desk.key("Return")
    state = desk.wait("the reply", lambda s: s["replies"][str(thread.id)] == len(thread.replies) + 1)
    desk.wait("the keyboard back in the pages", lambda s: s["focus"] == "pages")

    reread = saved(desk)
    assert body(reread) == body(original)  # the selected word is still there: no paragraph break
    replies = next(t for t in reread.get_comments() if t.id == thread.id).replies
    assert [(r.author, r.text) for r in replies] == [(r.author, r.text) for r in thread.replies] + [
        (state["author"], "Agreed, keep it.")]
    others = [(t.id, t.text, [r.text for r in t.replies]) for t in reread.get_comments() if t.id != thread.id]
    assert others == [(t.id, t.text, [r.text for r in t.replies]) for t in original.get_comments() if t.id != thread.id]
