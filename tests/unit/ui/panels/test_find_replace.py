"""Find and Replace (folio_desktop/ui/panels/find_replace.py, replace_text.py) driven with real keys in a
review window on corpus contracts: Ctrl+H opens it with the keyboard in Find what, Tab goes to Replace
with, Alt+F / Alt+R / Alt+A find, replace and replace all, Alt+H and Alt+Y set Match case and whole words,
Escape closes. Replace All is one batch of tracked changes under the lawyer's name (direct with Track
Changes off), one undo step, and says how many it made."""

from __future__ import annotations

import re

import pytest
from conftest import CORPUS
from key_helpers import SUPERDOC, activate, body, review_window
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QApplication

from folio_desktop.docx import DocxReviewer
from folio_desktop.ui.panels.replace_text import Search, cased, occurrences

PILOT = CORPUS / "contract_commonpaper_pilot_agreement.docx"
LAWYER = "Lawyer"  # the author name of the window's settings (chat_helpers.make_settings)
W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
CTRL, ALT, SHIFT = Qt.ControlModifier, Qt.AltModifier, Qt.ShiftModifier


@pytest.fixture
def window(qtbot, tmp_path):
    return review_window(qtbot, tmp_path, PILOT)


def focused():
    return QApplication.focusWidget()


def key(qtbot, key, modifiers=Qt.NoModifier) -> None:
    """A key pressed where the keyboard is (shortcuts first, as a keyboard gives it)."""
    qtbot.keyClick(focused(), key, modifiers)


def alt(qtbot, dialog, letter: str) -> None:
    """Alt+letter in the dialog: its button is clicked (a moment later: Qt animates the press), or its
    check box toggled."""
    button = {"F": dialog.find_next_button, "R": dialog.replace_button, "A": dialog.replace_all_button,
              "C": dialog.close_button, "H": dialog.match_case, "Y": dialog.whole_words}[letter]
    with qtbot.waitSignal(button.clicked, timeout=2_000):
        key(qtbot, getattr(Qt, f"Key_{letter}"), ALT)


def open_replace(qtbot, window):
    """Ctrl+H in the pages: the dialog, active, with the keyboard in Find what."""
    activate(qtbot, window)
    window.view.setFocus()
    key(qtbot, Qt.Key_H, CTRL)
    dialog = window.commands.replace_dialog
    assert dialog is not None and dialog.isVisible()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog, timeout=2_000)
    return dialog


def fill(qtbot, dialog, find: str, replace: str) -> None:
    """Type the words to find, Tab, the replacement (as the lawyer would)."""
    assert focused() is dialog.find_field
    qtbot.keyClicks(dialog.find_field, find)
    key(qtbot, Qt.Key_Tab)
    assert focused() is dialog.replace_field
    qtbot.keyClicks(dialog.replace_field, replace)


def texts(reviewer) -> list[str]:
    return [b.text for b in reviewer.snapshot().blocks]


def saved(qtbot, window, tmp_path) -> DocxReviewer:
    """Escape out of the dialog, Ctrl+S in the pages, the file as written."""
    activate(qtbot, window)
    window.view.setFocus()
    key(qtbot, Qt.Key_S, CTRL)
    assert not window.modified
    return DocxReviewer.open(tmp_path / PILOT.name)


def test_ctrl_h_opens_it_with_the_keyboard_in_find_what_and_tab_goes_to_replace_with(qtbot, window):
    # bound as Ctrl+H itself: Qt's standard Replace key is bound to nothing on Linux desktops
    assert QKeySequence("Ctrl+H") in window.replace_action.shortcuts()
    # Edit > Replace… (Alt+E, P): an access key no other item of the menu has
    edit = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Edit")
    assert window.replace_action in edit.actions() and window.replace_action.text() == "Re&place…"
    access = [a.text().lower().split("&")[1][0] for a in edit.actions() if "&" in a.text()]
    assert access.count("p") == 1
    dialog = open_replace(qtbot, window)
    assert focused() is dialog.find_field
    qtbot.keyClicks(dialog.find_field, "Pilot")
    key(qtbot, Qt.Key_Tab)
    assert focused() is dialog.replace_field
    key(qtbot, Qt.Key_Backtab, SHIFT)
    assert focused() is dialog.find_field
    # Alt+N and Alt+I go to the boxes, as Word's access keys do
    key(qtbot, Qt.Key_I, ALT)
    assert focused() is dialog.replace_field
    key(qtbot, Qt.Key_N, ALT)
    assert focused() is dialog.find_field
    assert window.view._highlights  # the occurrences are marked in the pages while it is open
    key(qtbot, Qt.Key_Escape)
    assert not dialog.isVisible()
    assert window.view._highlights == {}
    qtbot.waitUntil(lambda: focused() is window.view, timeout=2_000)  # the keyboard back in the pages

    # words selected in the pages are what Find what holds next time
    block = next(b for b in window.reviewer.snapshot().blocks if "Provider Feedback" in b.text)
    start = block.text.index("Provider Feedback")
    assert window.view.selection.select_range(block.id, start, start + len("Provider Feedback"))
    open_replace(qtbot, window)
    assert dialog.find_field.text() == "Provider Feedback" and dialog.find_field.selectedText() == "Provider Feedback"
    assert focused() is dialog.find_field


def test_replace_all_is_one_batch_of_tracked_changes_under_the_lawyers_name_and_one_undo(qtbot, window, tmp_path):
    reviewer = window.reviewer
    original = texts(reviewer)
    count = reviewer.find_text("Pilot").total
    assert count == 17  # 13 "Pilot", 4 "pilot", one of them split over formatting runs ("Pilot Period")
    steps = window.review_actions.undo_stack.count()
    version = reviewer.document.version
    dialog = open_replace(qtbot, window)
    fill(qtbot, dialog, "Pilot", "Trial")
    alt(qtbot, dialog, "A")

    said = f"Replaced 17 occurrences of “Pilot” with “Trial”, as tracked changes under {LAWYER}."
    assert dialog.status.text() == said
    assert window.statusBar().currentMessage() == said
    assert reviewer.document.version == version + 1  # one batch
    assert window.review_actions.undo_stack.count() == steps + 1  # one undo step
    changes = reviewer.get_changes()
    assert sorted((c.type, c.text) for c in changes) == sorted(
        [("deletion", "Pilot")] * 13 + [("deletion", "pilot")] * 4 + [("insertion", "Trial")] * 17)
    assert {c.author for c in changes} == {LAWYER}
    expected = [re.sub("pilot", "Trial", text, flags=re.IGNORECASE) for text in original]
    assert texts(reviewer) == expected
    assert [e["action"] for e in window.audit.entries if e["kind"] == "edit"] == ["replace_all"]

    # the saved file holds them: accepted, the text with the word replaced; rejected, the original
    key(qtbot, Qt.Key_Escape)
    written = saved(qtbot, window, tmp_path)
    assert sorted((c.type, c.author) for c in written.get_changes()) == sorted(
        [("deletion", LAWYER)] * 17 + [("insertion", LAWYER)] * 17)
    written.accept_all()
    assert texts(written) == expected
    rejected = DocxReviewer.open(tmp_path / PILOT.name)
    rejected.reject_all()
    assert texts(rejected) == original

    # Ctrl+Z in the pages takes every one of them back at once
    window.view.setFocus()
    key(qtbot, Qt.Key_Z, CTRL)
    assert reviewer.get_changes() == []
    assert texts(reviewer) == original


def test_find_next_selects_the_next_occurrence_and_replace_replaces_it_and_moves_on(qtbot, window):
    reviewer = window.reviewer
    view = window.view
    hits = [(b.id, s, e) for b, s, e, _r in Search("Pilot", match_case=True).hits(reviewer)]
    dialog = open_replace(qtbot, window)
    fill(qtbot, dialog, "Pilot", "Trial")
    alt(qtbot, dialog, "H")  # Match case
    assert dialog.match_case.isChecked()
    version = reviewer.document.version

    alt(qtbot, dialog, "F")  # the first occurrence after the caret (at the top) is selected
    assert view.selection.selection_block_range() == hits[0]
    assert view.selection.selection_text() == "Pilot"
    assert dialog.status.text() == f"Occurrence 1 of {len(hits)}."
    alt(qtbot, dialog, "F")
    assert view.selection.selection_block_range() == hits[1]
    assert reviewer.document.version == version  # finding changes nothing
    page = view.current_page()
    assert page == view.document_layout.page_of(hits[1][0], hits[1][1])  # its page is shown

    alt(qtbot, dialog, "R")  # replaces the selected one, then selects the next
    block_id, start, _end = hits[1]
    assert reviewer.snapshot().block(block_id).text[start:start + 5] == "Trial"
    assert [(c.type, c.text, c.author) for c in reviewer.get_changes()] == [
        ("deletion", "Pilot", LAWYER), ("insertion", "Trial", LAWYER)]
    assert view.selection.selection_text() == "Pilot"
    remaining = [(b.id, s, e) for b, s, e, _r in dialog.search.hits(reviewer)]
    assert view.selection.selection_block_range() == remaining[1]  # the one after the replaced one
    assert len(remaining) == len(hits) - 1
    assert dialog.status.text() == f"Replaced 1 occurrence. Occurrence 2 of {len(remaining)}."
    assert window.undo_action.text() == "&Undo Replace “Pilot”"

    # Enter in Find what finds the next one too; after the last, the search goes round from the top
    last = remaining[-1]
    assert view.selection.select_range(*last)
    dialog.find_field.setFocus()
    key(qtbot, Qt.Key_Return)
    assert dialog.isVisible()
    assert view.selection.selection_block_range() == remaining[0]
    assert dialog.status.text() == f"Occurrence 1 of {len(remaining)} (from the top of the document again)."

    # with nothing of it selected, Replace first finds one (as Word does)
    view.selection.clear_selection()
    version = reviewer.document.version
    alt(qtbot, dialog, "R")
    assert reviewer.document.version == version
    assert view.selection.selection_text() == "Pilot"


def test_match_case_and_whole_words_decide_what_is_replaced(qtbot, window):
    reviewer = window.reviewer
    original = texts(reviewer)
    dialog = open_replace(qtbot, window)
    fill(qtbot, dialog, "pilot", "trial")
    alt(qtbot, dialog, "H")  # Match case: only the 4 written in lower case
    alt(qtbot, dialog, "A")
    assert dialog.status.text().startswith("Replaced 4 occurrences of “pilot” with “trial”")
    assert sorted({c.text for c in reviewer.get_changes()}) == ["pilot", "trial"]
    assert texts(reviewer) == [re.sub("pilot", "trial", t) for t in original]
    window.undo_action.trigger()
    assert texts(reviewer) == original

    # what already reads as the replacement is left alone, and said so
    dialog.replace_field.setText("pilot")
    version = reviewer.document.version
    alt(qtbot, dialog, "A")
    assert dialog.status.text() == "Nothing to replace: 4 occurrences of “pilot” already read “pilot”."
    assert reviewer.document.version == version

    # whole words: "use" but not "because" or "user"
    dialog.find_field.setFocus()
    dialog.find_field.selectAll()
    qtbot.keyClicks(dialog.find_field, "use")
    dialog.replace_field.setText("employ")
    alt(qtbot, dialog, "H")  # Match case off again
    alt(qtbot, dialog, "Y")  # whole words only
    assert dialog.whole_words.isChecked() and not dialog.match_case.isChecked()
    whole = reviewer.find_text("use", whole_word=True).total
    assert whole < reviewer.find_text("use").total
    alt(qtbot, dialog, "A")
    assert dialog.status.text().startswith(f"Replaced {whole} occurrences of “use” with “employ”")
    for before, after in zip(original, texts(reviewer)):
        assert after == re.sub(r"(?<!\w)use(?!\w)", lambda m: cased("employ", m.group(), False), before,
                               flags=re.IGNORECASE)


def test_with_track_changes_off_it_replaces_directly_still_as_one_undo(qtbot, window):
    reviewer = window.reviewer
    original = texts(reviewer)
    window.view.setFocus()
    key(qtbot, Qt.Key_E, CTRL | SHIFT)  # Track Changes off
    assert not window.review_actions.track_changes
    dialog = open_replace(qtbot, window)
    fill(qtbot, dialog, "Provider Feedback", "Vendor Input")
    alt(qtbot, dialog, "A")
    assert dialog.status.text() == ("Replaced 1 occurrence of “Provider Feedback” with “Vendor Input”, directly "
                                    "(Track Changes is off).")
    assert reviewer.get_changes() == []
    assert texts(reviewer) == [t.replace("Provider Feedback", "Vendor Input") for t in original]
    key(qtbot, Qt.Key_Escape)
    activate(qtbot, window)
    window.view.setFocus()
    key(qtbot, Qt.Key_Z, CTRL)
    assert texts(reviewer) == original


def test_a_term_split_over_formatting_runs_is_replaced_whole(qtbot, window):
    # in this contract "Pilot Period" is a bold "Pilot", a space that is not bold and a bold "Period"
    reviewer = window.reviewer
    original = texts(reviewer)
    term = reviewer.snapshot().block("36397B28")  # "Access and Use.  During the Pilot Period and subject…"
    runs = [(r.findtext(f"{W}t"), r.find(f"{W}rPr/{W}b") is not None) for r in term.element.iter(f"{W}r")]
    at = runs.index(("Pilot", True))
    assert runs[at:at + 3] == [("Pilot", True), (" ", False), ("Period ", True)]
    dialog = open_replace(qtbot, window)
    fill(qtbot, dialog, "Pilot Period", "Trial Term")
    alt(qtbot, dialog, "A")
    assert dialog.status.text().startswith("Replaced 4 occurrences of “Pilot Period” with “Trial Term”")
    assert texts(reviewer) == [t.replace("Pilot Period", "Trial Term") for t in original]
    # struck whole and inserted whole, as Word's Replace writes it, in the bold of the term's first letter
    element = reviewer.snapshot().block(term.id).element
    struck = [(t.text, t.getparent().find(f"{W}rPr/{W}b") is not None) for t in element.iter(f"{W}delText")]
    inserted = [(t.text, t.getparent().find(f"{W}rPr/{W}b") is not None) for t in element.iter(f"{W}t")
                if t.getparent().getparent().tag == f"{W}ins"]
    assert struck == [("Pilot", True), (" ", False), ("Period", True)] and inserted == [("Trial Term", True)]
    assert sorted({(c.type, c.text) for c in reviewer.get_changes()}) == [
        ("deletion", "Pilot Period"), ("insertion", "Trial Term")]
    assert {c.author for c in reviewer.get_changes()} == {LAWYER}
    reviewer.reject_all()
    assert texts(reviewer) == original


def test_text_already_struck_through_is_left_alone_and_said_so(qtbot, tmp_path):
    window = review_window(qtbot, tmp_path, SUPERDOC)  # "deletion" stands only in a pending deletion
    reviewer = window.reviewer
    before = body(reviewer)
    dialog = open_replace(qtbot, window)
    fill(qtbot, dialog, "deletion", "removal")
    alt(qtbot, dialog, "A")
    assert dialog.status.text() == ("No occurrence of “deletion” was replaced. 1 occurrence in text already "
                                    "deleted (struck through) is left as it is.")
    assert body(reviewer) == before
    alt(qtbot, dialog, "F")
    assert dialog.status.text() == ("No occurrences of “deletion”. 1 occurrence in text already deleted (struck "
                                    "through) cannot be replaced.")

    dialog.find_field.selectAll()
    qtbot.keyClicks(dialog.find_field, "no such words")
    alt(qtbot, dialog, "A")
    assert dialog.status.text() == "No occurrences of “no such words”."
    assert body(reviewer) == before


def test_counts_agree_in_number_and_case_follows_the_found_text():
    assert occurrences(1) == "1 occurrence" and occurrences(12) == "12 occurrences" and occurrences(0) == "0 occurrences"
    assert cased("trial", "PILOT", False) == "TRIAL"
    assert cased("trial", "Pilot", False) == "Trial"
    assert cased("trial", "pilot", False) == "trial"
    assert cased("Trial", "pilot", False) == "Trial"  # typed with a capital: as typed
    assert cased("trial", "Pilot", True) == "trial"  # Match case: as typed


def test_what_the_engine_refuses_is_said_in_the_lawyers_words_and_changes_nothing(qtbot, tmp_path):
    window = review_window(qtbot, tmp_path, CORPUS / "unusual" / "poi_document_protection_readonly.docx")
    reviewer = window.reviewer
    before, steps = body(reviewer), window.review_actions.undo_stack.count()
    dialog = open_replace(qtbot, window)
    fill(qtbot, dialog, "senza", "without")
    alt(qtbot, dialog, "A")
    assert dialog.status.text() == ("No occurrence of “senza” was replaced. 1 occurrence could not be replaced: the "
                                    "document is protected against editing; remove the protection in Word first.")
    alt(qtbot, dialog, "R")  # selects it
    assert window.view.selection.selection_text() == "senza"
    alt(qtbot, dialog, "R")
    assert dialog.status.text() == ("That occurrence was not replaced: the document is protected against editing; "
                                    "remove the protection in Word first.")
    assert body(reviewer) == before and window.review_actions.undo_stack.count() == steps
