"""Typing in the pages (issue 13, point 1): real key, mouse and input-method events on the page view
of a review window become tracked changes under the lawyer's name, made by the operation engine
Claude uses, with Word's rules: deleting your own pending insertion takes it out, a burst of typing
is one undo step, the caret stays where you expect. Every saved file must reopen in our reader and
in python-docx, and rejecting everything must give back the original text.
"""

from __future__ import annotations

import time

import pytest
from conftest import CORPUS
from PySide6.QtCore import QMimeData, Qt
from PySide6.QtGui import QGuiApplication, QInputMethodEvent
from PySide6.QtWidgets import QApplication
from typing_helpers import (
    LAWYER,
    SAMPLE,
    changes_of,
    click_at,
    desk,
    part,
    point_of,
    rejected_text,
    same_as_fresh_layout,
    save_and_reopen,
    text_of,
    word_texts,
)

import folio_desktop.ui.pages.typing as page_editing
import folio_desktop.ui.review_actions as review_actions
from folio_desktop.docx import DocxReviewer

DEFINITION = "2062A4BC"  # 1.1 “Confidential Information” means any information disclosed by one party ...
PURPOSE = "2D0F52ED"  # 1.2 “Purpose” means evaluating a possible supply relationship between the parties.
LIABILITY = "0847357F"  # 5.1 ... holds Harbour Legal's pending "fifty thousand" -> "one hundred thousand"
NORTHWIND, HARBOUR, NAME_LEFT = "0853EFA8", "70C94CE4", "3FCE2DC9"  # signature table: two cells, the one below
PILOT = CORPUS / "contract_commonpaper_pilot_agreement.docx"
ILPA = CORPUS / "contract_ilpa_model_lpa_whole_of_fund_75p.docx"
MEANS = len("“Confidential Information” means")


@pytest.fixture
def window(qtbot, tmp_path):
    return desk(qtbot, tmp_path)


def keys(qtbot, view, text: str) -> None:
    qtbot.keyClicks(view.viewport(), text)


def key(qtbot, view, k, modifier=Qt.NoModifier, times: int = 1) -> None:
    for _ in range(times):
        qtbot.keyClick(view.viewport(), k, modifier)


def steps(window) -> list[str]:
    stack = window.review_actions.undo_stack
    return [stack.text(i) for i in range(stack.count())]


def check_saved(window, tmp_path, original: str) -> None:
    """The saved file reopens in our reader and python-docx, holds only the lawyer's changes (beside the
    sample's own), and gives back the original text once every change is rejected."""
    reopened, path = save_and_reopen(window, tmp_path)
    assert {c.author for c in reopened.get_changes()} <= {LAWYER, "Harbour Legal"}
    assert reopened.get_content_as_text() == window.reviewer.get_content_as_text()
    assert word_texts(path)  # python-docx reads every paragraph
    assert rejected_text(path) == original


# -- typing, deleting, Word's own-insertion rule ---------------------------------------------------------


def test_typed_characters_become_one_tracked_insertion_under_the_lawyers_name(qtbot, window, tmp_path):
    view, original = window.view, rejected_text(SAMPLE)
    before = text_of(window, DEFINITION)
    click_at(qtbot, view, DEFINITION, MEANS)
    keys(qtbot, view, " only")
    assert text_of(window, DEFINITION) == before[:MEANS] + " only" + before[MEANS:]
    assert changes_of(window.reviewer, DEFINITION) == [("insertion", " only", LAWYER)]
    assert view.selection.caret_mark().offset == MEANS + len(" only")  # the caret follows the typing
    assert steps(window) == ["Typing"]
    same_as_fresh_layout(window)
    check_saved(window, tmp_path, original)
    xml = part(tmp_path / "typed.docx")
    assert xml.count(f'w:author="{LAWYER}"') == 1  # the whole word is one w:ins, not one per key


def test_backspace_and_delete_strike_text_of_the_original(qtbot, window, tmp_path):
    view, original = window.view, rejected_text(SAMPLE)
    before = text_of(window, DEFINITION)
    click_at(qtbot, view, DEFINITION, MEANS)
    key(qtbot, view, Qt.Key_Backspace, times=2)
    key(qtbot, view, Qt.Key_Delete)
    assert text_of(window, DEFINITION) == before[:MEANS - 2] + before[MEANS + 1:]
    # two Backspaces strike one stretch, as in Word; Delete strikes the space after the caret
    assert changes_of(window.reviewer, DEFINITION) == [("deletion", "ns ", LAWYER)]
    assert view.selection.caret_mark().offset == MEANS - 2
    keys(qtbot, view, "X")  # typed where the caret is: before the struck "ns"
    assert text_of(window, DEFINITION) == before[:MEANS - 2] + "X" + before[MEANS + 1:]
    key(qtbot, view, Qt.Key_Backspace, Qt.ControlModifier)  # Ctrl+Backspace: the word before the caret
    assert text_of(window, DEFINITION) == before[:MEANS - len("means")] + before[MEANS + 1:]
    # Delete at a paragraph's end strikes its break: the next paragraph joins it, and the accepted
    # view reads the two as one block under the id of the paragraph whose mark survives
    purpose = text_of(window, PURPOSE)
    blocks = [b.id for b in window.reviewer.snapshot().blocks]
    after = blocks[blocks.index(PURPOSE) + 1]
    click_at(qtbot, view, PURPOSE, len(purpose))
    key(qtbot, view, Qt.Key_Delete)
    assert any(c.type == "paragraphMarkDeleted" and c.author == LAWYER and c.block_id == after
               for c in window.reviewer.get_changes())
    assert window.reviewer.snapshot().block(PURPOSE) is None and text_of(window, after).startswith(purpose)
    check_saved(window, tmp_path, original)


def test_deleting_your_own_pending_insertion_takes_it_out(qtbot, window, tmp_path):
    view = window.view
    before = text_of(window, DEFINITION)
    click_at(qtbot, view, DEFINITION, MEANS)
    keys(qtbot, view, " oops")
    key(qtbot, view, Qt.Key_Backspace, times=3)
    assert changes_of(window.reviewer, DEFINITION) == [("insertion", " o", LAWYER)]  # shorter, never struck
    key(qtbot, view, Qt.Key_Backspace, times=2)
    assert changes_of(window.reviewer, DEFINITION) == [] and text_of(window, DEFINITION) == before
    reopened, path = save_and_reopen(window, tmp_path)
    assert "<w:ins " not in part(path).split("Confidential Information")[1][:3000]
    assert changes_of(reopened, DEFINITION) == []


def test_deleting_someone_elses_pending_insertion_strikes_it(qtbot, window, tmp_path):
    view = window.view
    text = text_of(window, LIABILITY)
    end = text.index("one hundred thousand euros") + len("one hundred thousand euros")
    click_at(qtbot, view, LIABILITY, end)
    key(qtbot, view, Qt.Key_Backspace, times=5)
    assert ("deletion", "euros", LAWYER) in changes_of(window.reviewer, LIABILITY)
    assert ("insertion", "one hundred thousand euros (EUR 100,000)", "Harbour Legal") in changes_of(window.reviewer,
                                                                                                    LIABILITY)
    check_saved(window, tmp_path, rejected_text(SAMPLE))


def test_a_burst_of_typing_is_one_undo_step(qtbot, window, monkeypatch):
    view = window.view
    before = text_of(window, DEFINITION)
    click_at(qtbot, view, DEFINITION, MEANS)
    keys(qtbot, view, " wholly new words")
    assert steps(window) == ["Typing"]
    key(qtbot, view, Qt.Key_Z, Qt.ControlModifier)  # Ctrl+Z takes the whole burst back
    assert text_of(window, DEFINITION) == before and changes_of(window.reviewer, DEFINITION) == []
    assert view.selection.caret_mark() is not None
    key(qtbot, view, Qt.Key_Y, Qt.ControlModifier)
    assert text_of(window, DEFINITION) == before[:MEANS] + " wholly new words" + before[MEANS:]
    window.undo_action.trigger()

    # the burst ends when the caret is put elsewhere, at another kind of key, or after a pause
    click_at(qtbot, view, DEFINITION, MEANS)
    keys(qtbot, view, "ab")
    click_at(qtbot, view, PURPOSE, 3)
    keys(qtbot, view, "cd")
    key(qtbot, view, Qt.Key_Backspace)
    keys(qtbot, view, "e")
    for module in (review_actions, page_editing):
        monkeypatch.setattr(module, "BURST_PAUSE_S", 0.05)
    stack = window.review_actions.undo_stack
    burst = stack.command(stack.index() - 1)
    qtbot.waitUntil(lambda: time.monotonic() - burst.last > review_actions.BURST_PAUSE_S, timeout=2_000)
    keys(qtbot, view, "f")  # the same kind of key in the same paragraph, after the pause: a step of its own
    assert steps(window) == ["Typing", "Typing", "Delete", "Typing", "Typing"]
    assert text_of(window, PURPOSE).startswith("“Pucefr")


# -- Enter, Shift+Enter, Tab ----------------------------------------------------------------------------


def test_enter_splits_the_paragraph_and_the_caret_goes_to_the_second_half(qtbot, window, tmp_path):
    view, reviewer, original = window.view, window.reviewer, rejected_text(SAMPLE)
    before = text_of(window, DEFINITION)
    click_at(qtbot, view, DEFINITION, MEANS)
    key(qtbot, view, Qt.Key_Return)
    snapshot = reviewer.snapshot()
    index = snapshot.anchors[DEFINITION].index
    first, second = snapshot.blocks[index], snapshot.blocks[index + 1]
    assert first.text == before[:MEANS] and second.text == before[MEANS:]
    assert (first.display_label, second.display_label) == ("1.1", "1.2")  # the new paragraph is numbered on
    assert snapshot.block(PURPOSE).display_label == "1.3"
    assert view.selection.caret_mark() == type(view.selection.caret_mark())(second.id, 0, False)
    keys(qtbot, view, "Y")
    assert text_of(window, second.id) == "Y" + before[MEANS:]
    assert ("paragraphMarkInserted", LAWYER) in [(c.type, c.author) for c in reviewer.get_changes()]
    # Enter at the very end of a paragraph: an empty paragraph after it, which the caret goes to
    click_at(qtbot, view, PURPOSE, len(text_of(window, PURPOSE)))
    key(qtbot, view, Qt.Key_Enter)
    mark = view.selection.caret_mark()
    assert mark.block_id != PURPOSE and text_of(window, mark.block_id) == "" and mark.offset == 0
    keys(qtbot, view, "New clause.")  # typed into the empty paragraph
    assert text_of(window, mark.block_id) == "New clause."
    assert changes_of(window.reviewer, mark.block_id) == [("insertion", "New clause.", LAWYER)]
    same_as_fresh_layout(window)
    check_saved(window, tmp_path, original)
    assert len(word_texts(tmp_path / "typed.docx")) == len(word_texts(SAMPLE)) + 2


def test_backspace_after_enter_joins_the_paragraphs_again(qtbot, window):
    view = window.view
    before = window.reviewer.get_content_as_text()
    click_at(qtbot, view, DEFINITION, MEANS)
    key(qtbot, view, Qt.Key_Return)
    key(qtbot, view, Qt.Key_Backspace)  # your own paragraph break: taken out, not struck
    assert window.reviewer.get_content_as_text() == before and window.reviewer.get_changes() == \
        desk_changes_of_sample(window)
    assert view.selection.caret_mark().block_id == DEFINITION and view.selection.caret_mark().offset == MEANS
    # Backspace at the start of a paragraph of the original strikes the break before it: the two read
    # as one block (the id of the paragraph whose mark survives), the caret where they meet
    definition = text_of(window, DEFINITION)
    click_at(qtbot, view, PURPOSE, 0)
    key(qtbot, view, Qt.Key_Backspace)
    assert ("paragraphMarkDeleted", LAWYER) in [(c.type, c.author) for c in window.reviewer.get_changes()]
    assert text_of(window, PURPOSE).startswith(definition)
    assert view.selection.caret_mark() == type(view.selection.caret_mark())(PURPOSE, len(definition), False)


def desk_changes_of_sample(window) -> list:
    return [c for c in window.reviewer.get_changes() if c.author == "Harbour Legal"]


def test_shift_enter_breaks_the_line_and_tab_types_a_tab(qtbot, window, tmp_path):
    view = window.view
    before = text_of(window, DEFINITION)
    click_at(qtbot, view, DEFINITION, MEANS)
    key(qtbot, view, Qt.Key_Return, Qt.ShiftModifier)
    key(qtbot, view, Qt.Key_Tab)
    assert view.hasFocus()  # Tab typed a tab; it did not move the focus on
    assert text_of(window, DEFINITION) == before[:MEANS] + "\n\t" + before[MEANS:]
    assert window.reviewer.snapshot().anchors[PURPOSE].index == window.reviewer.snapshot().anchors[DEFINITION].index + 1
    reopened, path = save_and_reopen(window, tmp_path)
    xml = part(path)
    assert "<w:br/>" in xml and "<w:tab/>" in xml
    assert reopened.snapshot().block(DEFINITION).text == text_of(window, DEFINITION)
    assert rejected_text(path) == rejected_text(SAMPLE)


# -- pastes, typing over a selection, input methods ------------------------------------------------------


def test_paste_plain_text_and_rich_text_as_plain_paragraphs(qtbot, window, tmp_path):
    view, original = window.view, rejected_text(SAMPLE)
    before = text_of(window, PURPOSE)
    click_at(qtbot, view, PURPOSE, len("“Purpose” means"))
    QGuiApplication.clipboard().setText(" first line\nsecond line\n\n**not bold**\nthird")
    key(qtbot, view, Qt.Key_V, Qt.ControlModifier)
    snapshot = window.reviewer.snapshot()
    index = snapshot.anchors[PURPOSE].index
    head = len("“Purpose” means")
    assert [b.text for b in snapshot.blocks[index:index + 5]] == [
        before[:head] + " first line", "second line", "", "**not bold**", "third" + before[head:]]
    assert steps(window) == ["Paste"]
    assert view.selection.caret_mark().offset == len("third")
    index += 2
    data = QMimeData()
    data.setHtml("<p>Alpha <b>beta</b></p><p>Gamma</p>")
    QGuiApplication.clipboard().setMimeData(data)
    key(qtbot, view, Qt.Key_V, Qt.ControlModifier)
    snapshot = window.reviewer.snapshot()
    assert [b.text for b in snapshot.blocks[index + 2:index + 4]] == ["thirdAlpha beta", "Gamma" + before[head:]]
    assert {c.author for c in window.reviewer.get_changes() if c.block_id in {b.id for b in snapshot.blocks}} \
        <= {LAWYER, "Harbour Legal"}
    same_as_fresh_layout(window)
    check_saved(window, tmp_path, original)
    window.review_actions.undo_stack.undo()
    window.review_actions.undo_stack.undo()
    assert window.reviewer.snapshot().block(PURPOSE).text == before


def test_typing_over_a_selection_replaces_it(qtbot, window, tmp_path):
    view, original = window.view, rejected_text(SAMPLE)
    before = text_of(window, DEFINITION)
    start = before.index("any information")
    click_at(qtbot, view, DEFINITION, start)
    point = point_of(view, DEFINITION, start + len("any"))
    qtbot.mouseClick(view.viewport(), Qt.LeftButton, Qt.ShiftModifier, point.toPoint())
    assert view.selection.selection_text() == "any"
    keys(qtbot, view, "all")
    assert text_of(window, DEFINITION) == before[:start] + "all" + before[start + 3:]
    assert changes_of(window.reviewer, DEFINITION) == [("deletion", "any", LAWYER), ("insertion", "all", LAWYER)]
    assert steps(window) == ["Typing"]  # typing over a selection and on is one burst
    # Ctrl+X: the selection goes to the clipboard and is struck
    word = before.index("disclosed")
    click_at(qtbot, view, DEFINITION, word)
    qtbot.mouseClick(view.viewport(), Qt.LeftButton, Qt.ShiftModifier,
                     point_of(view, DEFINITION, word + len("disclosed")).toPoint())
    key(qtbot, view, Qt.Key_X, Qt.ControlModifier)
    assert QGuiApplication.clipboard().text() == "disclosed"
    assert ("deletion", "disclosed", LAWYER) in changes_of(window.reviewer, DEFINITION)
    window.undo_action.trigger()
    # over two paragraphs: the text between and the paragraph break go, as one undo step
    click_at(qtbot, view, DEFINITION, start)
    purpose = text_of(window, PURPOSE)
    point = point_of(view, PURPOSE, len("“Purpose”"))
    qtbot.mouseClick(view.viewport(), Qt.LeftButton, Qt.ShiftModifier, point.toPoint())
    keys(qtbot, view, "Z")
    assert steps(window) == ["Typing", "Typing"]
    accepted = DocxReviewer.from_bytes(window.reviewer.to_bytes())
    accepted.accept_all()
    texts = [b.text for b in accepted.snapshot().blocks]
    assert before[:start] + "Z" + purpose[len("“Purpose”"):] in texts and purpose not in texts
    check_saved(window, tmp_path, original)


def test_input_method_text_is_typed_at_the_caret(qtbot, window, tmp_path):
    view = window.view
    before = text_of(window, DEFINITION)
    click_at(qtbot, view, DEFINITION, MEANS)
    assert view.testAttribute(Qt.WA_InputMethodEnabled) and view.inputMethodQuery(Qt.ImEnabled)
    composing = QInputMethodEvent("けいやく", [])
    QApplication.sendEvent(view, composing)
    assert text_of(window, DEFINITION) == before  # still being composed
    done = QInputMethodEvent()
    done.setCommitString("契約")
    QApplication.sendEvent(view, done)
    assert text_of(window, DEFINITION) == before[:MEANS] + "契約" + before[MEANS:]
    assert changes_of(window.reviewer, DEFINITION) == [("insertion", "契約", LAWYER)]
    assert view.selection.caret_mark().offset == MEANS + 2
    check_saved(window, tmp_path, rejected_text(SAMPLE))


# -- the caret ----------------------------------------------------------------------------------------------


def test_caret_moves_by_character_word_line_and_line_edge(qtbot, window):
    view = window.view
    text = text_of(window, DEFINITION)
    click_at(qtbot, view, DEFINITION, 0)
    key(qtbot, view, Qt.Key_Right, times=3)
    assert view.selection.caret_mark().offset == 3
    key(qtbot, view, Qt.Key_Right, Qt.ControlModifier)
    assert view.selection.caret_mark().offset == text.index("Information")
    key(qtbot, view, Qt.Key_Right, Qt.ControlModifier)
    assert view.selection.caret_mark().offset == text.index("”")  # punctuation is a word of its own, as in Word
    key(qtbot, view, Qt.Key_Right, Qt.ControlModifier)
    assert view.selection.caret_mark().offset == text.index("means")
    key(qtbot, view, Qt.Key_Left, Qt.ControlModifier, times=2)
    assert view.selection.caret_mark().offset == text.index("Information")
    key(qtbot, view, Qt.Key_End)
    line_end = view.selection.caret_mark().offset
    assert 0 < line_end < len(text)  # the end of the first line, not of the paragraph
    key(qtbot, view, Qt.Key_Home)
    assert view.selection.caret_mark().offset == 0  # after the list label, at the text's start
    key(qtbot, view, Qt.Key_Down)
    assert view.selection.caret_mark().block_id == DEFINITION and view.selection.caret_mark().offset > line_end - 5
    key(qtbot, view, Qt.Key_Left, Qt.ShiftModifier, times=2)
    assert len(view.selection.selection_text()) == 2
    key(qtbot, view, Qt.Key_Home, Qt.ControlModifier)
    assert view.selection.caret_mark() == type(view.selection.caret_mark())(window.reviewer.snapshot().blocks[0].id, 0, False)
    key(qtbot, view, Qt.Key_End, Qt.ControlModifier)
    last = window.reviewer.snapshot().blocks[-1]
    assert view.selection.caret_mark().block_id == last.id and view.selection.caret_mark().offset == len(last.text)


def test_up_and_down_in_a_table_go_to_the_cell_above_and_below(qtbot, window):
    view = window.view
    click_at(qtbot, view, NORTHWIND, 3)
    key(qtbot, view, Qt.Key_Down)
    assert view.selection.caret_mark().block_id == NAME_LEFT  # the cell below, not Harbour's beside it
    key(qtbot, view, Qt.Key_Up)
    assert view.selection.caret_mark().block_id == NORTHWIND
    key(qtbot, view, Qt.Key_End)
    key(qtbot, view, Qt.Key_Right)
    assert view.selection.caret_mark().block_id == HARBOUR  # along the row, cell to cell
    keys(qtbot, view, "!")
    assert text_of(window, HARBOUR) == "!Harbour Analytics B.V."


def test_page_down_and_up_move_the_caret_a_screen(qtbot, tmp_path):
    window = desk(qtbot, tmp_path, PILOT)
    view = window.view
    first = window.reviewer.snapshot().content_blocks[3]
    click_at(qtbot, view, first.id, 0)
    start_page = view.selection.caret_page()
    y = view.verticalScrollBar().value()
    key(qtbot, view, Qt.Key_PageDown, times=2)
    assert view.verticalScrollBar().value() > y and view.selection.caret_page() > start_page
    assert view.selection.caret_mark() is not None
    key(qtbot, view, Qt.Key_PageUp, times=2)
    assert view.selection.caret_page() == start_page


def test_double_click_in_a_header_or_a_footnote_says_plainly_they_cannot_be_edited(qtbot, tmp_path):
    window = desk(qtbot, tmp_path, ILPA)
    view = window.view
    for story, word in (("header", "Headers"), ("footnote", "Footnotes")):
        number, frag = next((page.number, f) for page in view.pages for f in page.fragments if f.story.startswith(story))
        view.scroll_to_page(number)
        point = view.page_to_viewport(number, frag.rect.center())
        qtbot.mouseDClick(view.viewport(), Qt.LeftButton, Qt.NoModifier, point.toPoint())
        message = window.statusBar().currentMessage()
        assert message.startswith(word) and "cannot be edited here yet" in message
    version = window.reviewer.document_version()
    keys(qtbot, view, "x")  # no caret in the body yet: nothing is typed anywhere
    assert window.reviewer.document_version() == version
    assert window.statusBar().currentMessage() == "Click in the text where you want to type."


# -- long documents and laying out again ------------------------------------------------------------------


def test_typing_in_a_long_contract_lays_out_exactly_as_a_fresh_layout(qtbot, tmp_path):
    window = desk(qtbot, tmp_path, ILPA)
    view, reviewer = window.view, window.reviewer
    original = rejected_text(ILPA)
    middle = view.pages[len(view.pages) // 2]
    block = next(f.block_id for f in middle.body_fragments() if f.block_id and len(f.para.text) > 300
                 and f.first_line == 0)
    click_at(qtbot, view, block, 40)
    keys(qtbot, view, " and any further words the lawyer types here push the lines on" * 3)
    same_as_fresh_layout(window)
    key(qtbot, view, Qt.Key_Return)
    keys(qtbot, view, "A new paragraph.")
    same_as_fresh_layout(window)
    key(qtbot, view, Qt.Key_Backspace, times=len("A new paragraph.") + 1)
    same_as_fresh_layout(window)
    assert view.selection.caret_mark().block_id == block
    window.review_actions.undo_stack.undo()
    same_as_fresh_layout(window)
    check_saved(window, tmp_path, original)
    assert {c.author for c in reviewer.get_changes()} == {LAWYER}


def test_keys_that_do_not_type_leave_the_text_alone(qtbot, window):
    view = window.view
    click_at(qtbot, view, DEFINITION, MEANS)
    version = window.reviewer.document_version()
    for k, modifier in ((Qt.Key_Q, Qt.AltModifier), (Qt.Key_K, Qt.ControlModifier), (Qt.Key_F5, Qt.NoModifier),
                        (Qt.Key_Escape, Qt.NoModifier), (Qt.Key_Shift, Qt.ShiftModifier)):
        key(qtbot, view, k, modifier)
    assert window.reviewer.document_version() == version and steps(window) == []
    assert view.selection.caret_mark().offset == MEANS
    key(qtbot, view, Qt.Key_Right, Qt.ShiftModifier, times=2)
    key(qtbot, view, Qt.Key_Escape)  # the selection goes, the caret stays
    assert view.selection.selection_text() == "" and view.selection.caret_mark().offset == MEANS + 2


# -- typing over paragraphs already pending deletion -----------------------------------------------------


def _with_a_struck_paragraph(tmp_path):
    from docbuilder import build_docx, p

    struck = ('<w:p w14:paraId="10000002"><w:pPr><w:rPr><w:del w:id="91" w:author="Harbour Legal" '
              'w:date="2026-01-01T00:00:00Z"/></w:rPr></w:pPr><w:del w:id="92" w:author="Harbour Legal" '
              'w:date="2026-01-01T00:00:00Z"><w:r><w:delText>Beta two.</w:delText></w:r></w:del></w:p>')
    path = tmp_path / "struck.docx"
    path.write_bytes(build_docx(p("Alpha one.", "10000001") + struck + p("Gamma three.", "10000003")))
    return path


@pytest.mark.parametrize("anchor", [("10000001", 6), ("10000002", 0)], ids=["from before it", "from inside it"])
def test_typing_over_a_selection_across_a_paragraph_pending_deletion_types_it(qtbot, tmp_path, anchor):
    from folio_desktop.ui.pages.selection import Mark

    (tmp_path / "src").mkdir()
    source = _with_a_struck_paragraph(tmp_path / "src")
    window = desk(qtbot, tmp_path, source=source)
    view = window.view
    assert [b.text for b in window.reviewer.snapshot().blocks] == ["Alpha one.", "", "Gamma three."]
    assert view.selection.place_caret(Mark("10000003", 5, False), Mark(*anchor, False))

    keys(qtbot, view, "X")

    texts = [b.text for b in window.reviewer.snapshot().blocks if b.text]
    expected = "Alpha X three." if anchor[0] == "10000001" else "X three."
    assert expected in texts, texts
    assert steps(window) == ["Typing"]
    assert [t for _, t in rejected_text(save_and_reopen(window, tmp_path)[1])] == ["Alpha one.", "Beta two.",
                                                                                "Gamma three."]
