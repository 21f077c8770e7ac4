"""Find and Replace with real keys in a real window (issue 27, acceptance 2): the app on an X server of its
own (tests/xvfb_desk.py), xdotool typing as the lawyer would. Ctrl+H, the word, Tab, its replacement,
Alt+A, Escape, Ctrl+S: the saved file holds every occurrence as a tracked deletion and insertion under
the lawyer's name and nothing else: accepted, it reads as the original with the word replaced; rejected,
as the original; every other part of the package is as it was."""

from __future__ import annotations

import re
import zipfile

from conftest import CORPUS
from lxml import etree
from xvfb_desk import NEEDS_X, desk_on

from folio_desktop.docx import DocxReviewer

pytestmark = NEEDS_X
PILOT = CORPUS / "contract_commonpaper_pilot_agreement.docx"  # "Pilot" 13 times, "pilot" 4 times, no change yet
# typed in lower case without Match case, the replacement takes the case of each occurrence, as in Word
REPLACED = {"Pilot": "Trial", "pilot": "trial"}


def texts(reviewer) -> list[str]:
    return [block.text for block in reviewer.snapshot().blocks]


def parts(path) -> dict[str, bytes]:
    """Each part of the package; an XML part in canonical form (an edit writes a few parts out again
    with another XML declaration, which says nothing new)."""
    with zipfile.ZipFile(path) as package:
        return {name: _canonical(name, package.read(name)) for name in package.namelist()}


def _canonical(name: str, data: bytes) -> bytes:
    if not name.endswith((".xml", ".rels")):
        return data
    return etree.tostring(etree.fromstring(data), method="c14n")


def test_ctrl_h_word_tab_replacement_alt_a_escape_ctrl_s_saves_every_occurrence_as_a_tracked_change(tmp_path):
    original = DocxReviewer.open(PILOT)
    assert original.get_changes() == [] and original.find_text("pilot").total == 17
    with desk_on(tmp_path, PILOT) as desk:
        version = desk.state()["version"]
        desk.key("ctrl+h")
        desk.wait("Find and Replace, the keyboard in Find what", lambda s: s["field"] == "findWhat")
        desk.type("pilot")
        desk.key("Tab")
        desk.wait("the keyboard in Replace with", lambda s: s["field"] == "replaceWith")
        desk.type("trial")
        desk.key("alt+a")
        state = desk.wait("the replacements", lambda s: s["version"] != version)
        state = desk.wait("the count said", lambda s: s["status"].startswith("Replaced"))
        author = state["author"]
        assert state["status"] == f"Replaced 17 occurrences of “pilot” with “trial”, as tracked changes under {author}."
        desk.key("Escape")
        desk.wait("the keyboard back in the pages", lambda s: s["focus"] == "pages" and s["active"])
        saves = desk.state()["saves"]
        desk.key("ctrl+s")
        desk.wait("the document to be saved", lambda s: s["saves"] > saves)
        assert desk.state()["version"] == version + 1  # one batch: nothing was changed before or after it

    written = DocxReviewer.open(desk.document)
    changes = written.get_changes()
    assert sorted((c.type, c.text, c.author) for c in changes) == sorted(
        [("deletion", "Pilot", author)] * 13 + [("deletion", "pilot", author)] * 4
        + [("insertion", "Trial", author)] * 13 + [("insertion", "trial", author)] * 4)
    assert written.get_comments() == []
    written.accept_all()
    assert texts(written) == [re.sub("pilot", lambda m: REPLACED[m.group()], text, flags=re.IGNORECASE)
                              for text in texts(original)]
    rejected = DocxReviewer.open(desk.document)
    rejected.reject_all()
    assert texts(rejected) == texts(original)
    # the body is the only part the replacements wrote (the document's properties note the save)
    before, after = parts(PILOT), parts(desk.document)
    assert after.keys() == before.keys()
    assert {name for name in before if before[name] != after[name]} <= {"word/document.xml", "docProps/core.xml"}
