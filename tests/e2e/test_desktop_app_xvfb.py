"""A first start in a real window (issue 27), on an X server of its own with real keys (xdotool): the app
asks for the author name before anything is filed under the login, the name typed is the one the
lawyer's typing carries in the saved file; F1 lists the shortcuts and Ctrl+P asks the print dialog,
each closed again with Escape."""

from __future__ import annotations

import pytest
from key_helpers import SUPERDOC
from xvfb_desk import NEEDS_X, desk_on

from folio_desktop.docx import DocxReviewer

pytestmark = NEEDS_X


@pytest.fixture
def first_start(tmp_path):
    """The app started on a copy of the corpus contract with no settings yet (a first run)."""
    with desk_on(tmp_path, SUPERDOC, env_extra={"FOLIO_PROBE_FIRST_RUN": "1"}, settled=False) as desk:
        yield desk


def dialog_titled(title: str):
    return lambda s: (s.get("dialog") or {}).get("title") == title and s["focus"] == "dialog"


def test_the_first_start_asks_the_name_the_typing_then_carries(first_start):
    desk = first_start
    state = desk.wait("the question for the author name",
                      lambda s: s.get("ready") and s.get("word") and dialog_titled("Your name on tracked changes")(s))
    assert state["author"] == "Reviewer"  # never the login ("root") meanwhile
    desk.xdotool("type", "--delay", "15", "Jane Q. Lawyer")
    desk.key("Return")
    desk.wait("the name taken", lambda s: s["author"] == "Jane Q. Lawyer" and s["dialog"] is None)

    desk.activate()
    desk.click(desk.state()["word"])
    desk.wait("the keyboard in the pages", lambda s: s["focus"] == "pages")
    version = desk.state()["version"]
    desk.xdotool("type", "--delay", "15", "very ")
    desk.wait("the typing", lambda s: s["version"] > version)

    desk.key("F1")
    desk.wait("the shortcuts", dialog_titled("Keyboard Shortcuts"))
    desk.key("Escape")
    desk.wait("the shortcuts closed", lambda s: s["dialog"] is None)
    desk.activate()
    desk.key("ctrl+p")
    desk.wait("the print dialog", dialog_titled("Print contract.docx"))
    desk.key("Escape")
    desk.wait("the print dialog closed", lambda s: s["dialog"] is None)

    desk.to_pages()
    saves = desk.state()["saves"]
    desk.key("ctrl+s")
    desk.wait("the document to be saved", lambda s: s["saves"] > saves)
    inserted = [(c.text, c.author) for c in DocxReviewer.open(desk.document).get_changes() if "very" in c.text]
    assert inserted == [("very ", "Jane Q. Lawyer")]
