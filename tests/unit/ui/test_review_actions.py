"""ReviewActions (folio_desktop/ui/review_actions.py): the lawyer's edits, accepts and rejects, and the
one QUndoStack over them and over whole agent turns.

Every edit must land as the right tracked change under the lawyer's name, and every undo and redo
must give back exactly the document as it was (text, census, saved parts).
"""

from __future__ import annotations

import io
import zipfile

import pytest
from conftest import CORPUS
from docbuilder import build_docx, p

from folio_desktop.docx import DocxReviewer
from folio_desktop.ui.chat.live_bridge import LiveBridge
from folio_desktop.ui.pages.view import PageView
from folio_desktop.ui.review_actions import EditRefused, ReviewActions, differing_span

PILOT = CORPUS / "contract_commonpaper_pilot_agreement.docx"
EIGENPAL = CORPUS / "eigenpal_docxjs_editor_demo.docx"
LAWYER = "Jane Lawyer"
PRODUCT = "6ADF7F10"  # "The Product available under this Order Form is {product_description}."
BLANK = "100DA888"  # an empty paragraph (in a table cell)
CLAUSE = "56B3FE02"  # "Upon Customer’s request, Provider will delete Customer Content within 60 days."
OTHER = "7774888B"  # "No Third-Party Beneficiary.  There are no third-party beneficiaries of this Agreement."


def state(rev: DocxReviewer) -> tuple:
    return rev.get_content_as_text(annotated=True), [c.to_json() for c in rev.get_changes()]


def parts(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return {name: z.read(name) for name in z.namelist()}


def text_of(rev: DocxReviewer, block_id: str) -> str:
    return rev.snapshot().block(block_id).text


@pytest.fixture
def pilot(qapp):
    rev = DocxReviewer.open(PILOT, author="AI")
    actions = ReviewActions(rev, LAWYER)
    seen: list = []
    actions.changed.connect(seen.append)
    actions.seen = seen
    return rev, actions


def round_trip(rev: DocxReviewer, actions: ReviewActions, before: tuple, after: tuple) -> None:
    """Undo gives back `before`, redo `after`, twice over; each relays out the whole document."""
    for _ in range(2):
        actions.seen.clear()
        actions.undo_stack.undo()
        assert state(rev) == before
        actions.undo_stack.redo()
        assert state(rev) == after
        assert actions.seen == [None, None]


# -- edits ------------------------------------------------------------------------------------------------


def test_edit_paragraph_strikes_and_inserts_only_the_words_that_differ(pilot):
    rev, actions = pilot
    before = state(rev)
    new = "Upon Customer’s written request, Provider will delete Customer Content within 30 days."
    result = actions.edit_paragraph(CLAUSE, new)
    assert result["status"] == "committed" and len(result["applied"]) == 1
    changes = rev.get_changes()
    assert [(c.type, c.text, c.author, c.block_id) for c in changes] == [
        ("insertion", "written ", LAWYER, CLAUSE), ("deletion", "60", LAWYER, CLAUSE),
        ("insertion", "30", LAWYER, CLAUSE)]
    assert text_of(rev, CLAUSE) == new
    assert actions.seen == [{CLAUSE}]
    assert actions.undo_stack.count() == 1 and actions.undo_stack.undoText() == "Edit paragraph"
    round_trip(rev, actions, before, state(rev))


def test_edit_paragraph_that_only_adds_or_only_removes_words(pilot):
    rev, actions = pilot
    old = text_of(rev, PRODUCT)
    actions.edit_paragraph(PRODUCT, old.replace("The Product", "The software Product"))
    assert [(c.type, c.text) for c in rev.get_changes()] == [("insertion", "software ")]
    actions.edit_paragraph(PRODUCT, old.replace("The Product", "The software Product").replace("available ", ""))
    assert sorted((c.type, c.text) for c in rev.get_changes()) == [("deletion", "available "),
                                                                   ("insertion", "software ")]
    actions.edit_paragraph(PRODUCT, old + " Extra words.")  # insertion at the very end
    assert ("insertion", " Extra words.") in [(c.type, c.text) for c in rev.get_changes()]
    assert text_of(rev, PRODUCT) == old + " Extra words."
    assert actions.undo_stack.count() == 3
    for _ in range(3):
        actions.undo_stack.undo()
    assert rev.get_changes() == [] and text_of(rev, PRODUCT) == old


def test_edit_of_a_blank_paragraph_inserts_its_text(pilot):
    rev, actions = pilot
    actions.edit_paragraph(BLANK, "Filled in.")
    assert [(c.type, c.text, c.author, c.block_id) for c in rev.get_changes()] == [
        ("insertion", "Filled in.", LAWYER, BLANK)]


def test_insert_paragraph_after(pilot):
    rev, actions = pilot
    before, count = state(rev), len(rev.snapshot().blocks)
    result = actions.insert_paragraph_after(CLAUSE, "The Pilot is free of charge.")
    blocks = rev.snapshot().blocks
    index = [b.id for b in blocks].index(CLAUSE)
    new = blocks[index + 1]
    assert len(blocks) == count + 1 and new.text == "The Pilot is free of charge."
    assert sorted((c.type, c.text, c.author, c.block_id) for c in rev.get_changes()) == [
        ("insertion", new.text, LAWYER, new.id), ("paragraphMarkInserted", new.text, LAWYER, new.id)]
    assert actions.seen == [{CLAUSE}] and result["receipts"][0]["affected"][0]["anchorBlockId"] == CLAUSE
    assert actions.undo_stack.undoText() == "Insert paragraph"
    round_trip(rev, actions, before, state(rev))
    actions.undo_stack.undo()
    assert len(rev.snapshot().blocks) == count


def test_delete_paragraph(pilot):
    rev, actions = pilot
    before, old, count = state(rev), text_of(rev, OTHER), len(rev.snapshot().blocks)
    actions.delete_paragraph(OTHER)
    assert sorted((c.type, c.text, c.author) for c in rev.get_changes()) == [
        ("deletion", old, LAWYER), ("paragraphMarkDeleted", "", LAWYER)]
    assert text_of(rev, OTHER) == "" and len(rev.snapshot().blocks) == count  # struck through, still there
    assert actions.undo_stack.undoText() == "Delete paragraph"
    deleted = state(rev)
    round_trip(rev, actions, before, deleted)
    # rejecting the struck text brings the paragraph back whole, mark included
    text_id = next(c.id for c in rev.get_changes() if c.type == "deletion")
    assert actions.reject([text_id]) == 1
    assert state(rev) == before
    actions.undo_stack.undo()
    # accepting the mark alone removes the paragraph with its text
    mark_id = next(c.id for c in rev.get_changes() if c.type == "paragraphMarkDeleted")
    assert actions.accept([mark_id]) == 1
    assert rev.get_changes() == [] and len(rev.snapshot().blocks) == count - 1
    assert old not in rev.get_content_as_text()


def test_replace_range_replaces_exactly_the_selection(pilot):
    rev, actions = pilot
    old = text_of(rev, PRODUCT)
    start = old.index("Order Form")
    actions.replace_range(PRODUCT, start + 1, start + len("Order"), "ption")  # "Order" -> "Option"
    assert [(c.type, c.text) for c in rev.get_changes()] == [("deletion", "rder"), ("insertion", "ption")]
    assert text_of(rev, PRODUCT) == old.replace("Order Form", "Option Form")
    assert actions.undo_stack.undoText() == "Replace text"
    actions.undo_stack.undo()
    assert rev.get_changes() == []


def test_replace_range_with_a_caret_inserts_there(pilot):
    rev, actions = pilot
    old = text_of(rev, PRODUCT)
    at = old.index("available")
    actions.replace_range(PRODUCT, at, at, "generally ")
    assert [(c.type, c.text, c.author) for c in rev.get_changes()] == [("insertion", "generally ", LAWYER)]
    assert text_of(rev, PRODUCT) == old[:at] + "generally " + old[at:]


def test_replace_range_offsets_are_code_points_even_after_an_emoji(qapp):
    rev = DocxReviewer.from_bytes(build_docx(p("Smile 🙂 then pay within 30 days.", "00000001")))
    actions = ReviewActions(rev, LAWYER)
    old = text_of(rev, "00000001")
    start = old.index("30")
    actions.replace_range("00000001", start, start + 2, "45")
    assert text_of(rev, "00000001") == "Smile 🙂 then pay within 45 days."
    assert [(c.type, c.text) for c in rev.get_changes()] == [("deletion", "30"), ("insertion", "45")]


def test_a_refused_edit_raises_and_pushes_nothing(pilot):
    rev, actions = pilot
    actions.delete_paragraph(OTHER)
    after_delete = state(rev)
    with pytest.raises(EditRefused) as refused:
        actions.edit_paragraph(OTHER, "Something else entirely.")
    assert refused.value.reason == "pendingDeletion" and "reject the deletion" in refused.value.message
    assert refused.value.result["skipped"][0]["reason"] == "pendingDeletion"
    with pytest.raises(EditRefused) as same:
        actions.edit_paragraph("7B579AED", "Product")
    assert same.value.reason == "noopOperation"
    with pytest.raises(EditRefused) as gone:
        actions.insert_paragraph_after("NOPE0000", "x")
    assert gone.value.reason == "missingBlock"
    with pytest.raises(EditRefused):
        actions.replace_range("7B579AED", 3, 99, "x")
    assert state(rev) == after_delete
    assert actions.undo_stack.count() == 1 and actions.seen == [{OTHER}]


def test_set_author_changes_whose_name_later_edits_carry(pilot):
    rev, actions = pilot
    actions.set_author("Sam Partner")
    actions.edit_paragraph(BLANK, "Partner text.")
    assert {c.author for c in rev.get_changes()} == {"Sam Partner"}
    assert rev.author == "AI"  # the reviewer's own default is left alone


def test_differing_span_is_never_empty_and_rebuilds_the_new_text():
    for old, new in [("the big dog", "the very big dog"), ("the big dog", "the dog"), ("a b", "a b c"),
                     ("word", "new word"), ("shall pay", "must pay"), ("x", "")]:
        start, end, replacement = differing_span(old, new)
        assert start < end and old[:start] + replacement + old[end:] == new


# -- accept and reject ------------------------------------------------------------------------------------


def test_accept_one_and_several_changes_each_one_undo_step(qapp):
    rev = DocxReviewer.open(EIGENPAL)
    actions = ReviewActions(rev, LAWYER)
    original = state(rev)
    ids = [c.id for c in rev.get_changes()]
    assert actions.accept([ids[0]]) == 1
    one = state(rev)
    assert [c.id for c in rev.get_changes()] == ids[1:]
    assert actions.undo_stack.undoText() == "Accept change"
    assert actions.accept(ids[2:4]) == 2
    assert [c.id for c in rev.get_changes()] == [ids[1]] + ids[4:]
    assert actions.undo_stack.undoText() == "Accept 2 changes"
    assert actions.accept([ids[0], 999]) == 0  # nothing pending among them: no step
    assert actions.undo_stack.count() == 2
    actions.undo_stack.undo()
    assert state(rev) == one
    actions.undo_stack.undo()
    assert state(rev) == original


def test_reject_restores_the_original_wording_and_undo_brings_the_change_back(qapp):
    rev = DocxReviewer.open(EIGENPAL)
    actions = ReviewActions(rev, LAWYER)
    seen: list = []
    actions.changed.connect(seen.append)
    original = state(rev)
    replacement = [c for c in rev.get_changes() if c.id in (10, 11)]
    assert [c.text for c in replacement] == ["zero backend required", "no backend required"]
    assert actions.reject([10, 11]) == 2
    block = replacement[0].block_id
    assert "zero backend required" in text_of(rev, block) and "no backend required" not in text_of(rev, block)
    assert seen == [{block}]  # two inline changes in one paragraph: only it is laid out again
    assert actions.undo_stack.undoText() == "Reject 2 changes"
    actions.undo_stack.undo()
    assert state(rev) == original


def test_a_whole_inserted_paragraph_is_accepted_or_rejected_with_its_mark(pilot):
    rev, actions = pilot
    count = len(rev.snapshot().blocks)
    actions.insert_paragraph_after(CLAUSE, "Kept paragraph.")
    actions.insert_paragraph_after(OTHER, "Dropped paragraph.")
    changes = rev.get_changes()
    kept = next(c for c in changes if c.type == "insertion" and c.text == "Kept paragraph.")
    dropped_mark = next(c for c in changes if c.type == "paragraphMarkInserted" and c.text == "Dropped paragraph.")
    assert actions.accept([kept.id]) == 1
    assert actions.reject([dropped_mark.id]) == 1
    assert rev.get_changes() == []
    texts = [b.text for b in rev.snapshot().blocks]
    # the accepted paragraph stands alone, the rejected one left no empty paragraph behind
    assert "Kept paragraph." in texts and "Dropped paragraph." not in texts and len(texts) == count + 1
    assert actions.undo_stack.undoText() == "Reject change"


def test_a_word_deleted_paragraph_goes_with_its_paragraph_mark(qapp):
    who = 'w:author="Ann" w:date="2024-01-01T00:00:00Z"'
    body = (p("Keep this.", "00000001")
            + f'<w:p w14:paraId="00000002"><w:pPr><w:rPr><w:del w:id="5" {who}/></w:rPr></w:pPr>'
            f'<w:del w:id="4" {who}><w:r><w:delText>Gone paragraph.</w:delText></w:r></w:del></w:p>'
            + p("Last.", "00000003"))
    rev = DocxReviewer.from_bytes(build_docx(body))
    actions = ReviewActions(rev, LAWYER)
    assert sorted(c.type for c in rev.get_changes()) == ["deletion", "paragraphMarkDeleted"]
    assert actions.accept([4]) == 1
    assert rev.get_changes() == []
    assert [b.text for b in rev.snapshot().blocks] == ["Keep this.", "Last."]
    actions.undo_stack.undo()
    assert [c.id for c in rev.get_changes()] == [5, 4]


# -- agent turns ----------------------------------------------------------------------------------------------


@pytest.fixture
def live(qtbot):
    view = PageView()
    view.resize(900, 700)
    qtbot.addWidget(view)
    rev = DocxReviewer.open(PILOT, author=LAWYER)
    with qtbot.waitSignal(view.layoutFinished, timeout=20_000):
        view.set_document(rev)
    bridge = LiveBridge(rev, view, author="Claude")
    return rev, bridge, ReviewActions(rev, LAWYER)


def claude_edits(bridge: LiveBridge, block_id: str, find: str, replace: str) -> None:
    result = bridge.apply_document_operations(
        {"version": 1, "operations": [{"type": "replaceInBlock", "blockId": block_id, "find": find, "replace": replace}]})
    assert result["applied"], result["skipped"]


def test_an_agent_turn_of_two_batches_is_one_undo_step(live):
    rev, bridge, actions = live
    before = state(rev)
    actions.begin_agent_turn("Tighten the payment terms and make the product description clearer for the pilot")
    claude_edits(bridge, PRODUCT, "available", "offered")
    claude_edits(bridge, "6E37763A", "[ # ]", "30")
    assert actions.undo_stack.count() == 0  # nothing is pushed while the turn runs
    actions.end_agent_turn()
    after = state(rev)
    changes = rev.get_changes()
    assert {c.author for c in changes} == {"Claude"}
    assert {(c.type, c.text) for c in changes} >= {("deletion", "available"), ("insertion", "offered"),
                                                    ("deletion", "[ # ]"), ("insertion", "30")}
    assert actions.undo_stack.count() == 1
    label = actions.undo_stack.undoText()
    assert label.startswith("Claude's turn: Tighten the payment terms") and label.endswith("…")
    actions.undo_stack.undo()
    assert state(rev) == before
    actions.undo_stack.redo()
    assert state(rev) == after


def test_an_agent_turn_that_changed_nothing_pushes_nothing(live):
    rev, bridge, actions = live
    actions.begin_agent_turn("Summarise the agreement")
    bridge.get_document_version()
    skipped = bridge.apply_document_operations(
        {"version": 1, "operations": [{"type": "replaceInBlock", "blockId": PRODUCT, "find": "absent", "replace": "x"}]})
    assert skipped["skipped"]
    actions.end_agent_turn()
    assert actions.undo_stack.count() == 0 and not actions.agent_turn_open


def test_stretches_with_one_merge_key_undo_as_one_step_until_something_comes_between(live):
    # an MCP client's turn arrives as separate calls, each its own begin/end
    rev, bridge, actions = live
    original = state(rev)
    for find, replace in (("available", "offered"), ("Product", "Service")):
        actions.begin_agent_turn("", merge_key=("mcp", 1), text="claude-code's edits")
        claude_edits(bridge, PRODUCT, find, replace)
        actions.end_agent_turn()
    stack = actions.undo_stack
    assert [stack.text(i) for i in range(stack.count())] == ["claude-code's edits"]
    two = state(rev)
    actions.edit_paragraph(BLANK, "Lawyer text.")  # the lawyer's step comes between
    actions.begin_agent_turn("", merge_key=("mcp", 1), text="claude-code's edits")
    claude_edits(bridge, "6E37763A", "[ # ]", "30")
    actions.end_agent_turn()
    actions.begin_agent_turn("", merge_key=("mcp", 2), text="claude-code's edits")  # a new turn: its own step
    claude_edits(bridge, "6E37763A", "30", "45")
    actions.end_agent_turn()
    assert stack.count() == 4
    stack.undo()
    stack.undo()
    stack.undo()
    assert state(rev) == two
    stack.undo()  # both calls of the first turn at once
    assert state(rev) == original


def test_the_lawyer_acting_during_a_turn_splits_it_around_the_action(live):
    rev, bridge, actions = live
    original = state(rev)
    actions.begin_agent_turn("Review")
    claude_edits(bridge, PRODUCT, "available", "offered")
    ids = [c.id for c in rev.get_changes()]
    assert actions.accept(ids) == 2
    claude_edits(bridge, "6E37763A", "[ # ]", "30")
    actions.end_agent_turn()
    stack = actions.undo_stack
    assert [stack.text(i) for i in range(stack.count())] == ["Claude's turn: Review", "Accept 2 changes",
                                                             "Claude's turn: Review"]
    final = state(rev)
    stack.undo()
    assert "offered" in text_of(rev, PRODUCT) and rev.get_changes() == []
    stack.undo()
    assert [c.author for c in rev.get_changes()] == ["Claude", "Claude"]
    stack.undo()
    assert state(rev) == original
    for _ in range(3):
        stack.redo()
    assert state(rev) == final


def test_undo_during_a_turn_keeps_the_turn_going_from_there(live):
    rev, bridge, actions = live
    actions.edit_paragraph(BLANK, "Lawyer text.")
    actions.begin_agent_turn("Review")
    actions.undo_stack.undo()  # the lawyer's edit is undone while Claude works
    claude_edits(bridge, PRODUCT, "available", "offered")
    actions.end_agent_turn()
    assert [c.author for c in rev.get_changes()] == ["Claude", "Claude"]
    actions.undo_stack.undo()
    assert rev.get_changes() == []


# -- other changes, saving ---------------------------------------------------------------------------------


def test_perform_makes_a_comment_one_undo_step(pilot):
    rev, actions = pilot
    comment = actions.perform("Add comment", lambda: rev.add_comment(PRODUCT, "Check this."), touched={PRODUCT})
    assert [c.id for c in rev.get_comments()] == [comment]
    assert actions.seen == [{PRODUCT}] and actions.undo_stack.undoText() == "Add comment"
    actions.undo_stack.undo()
    assert rev.get_comments() == []
    assert actions.perform("Nothing", lambda: 7) == 7 and actions.undo_stack.count() == 1


def test_undo_after_save_gives_the_saved_document_back_on_reopening(pilot, tmp_path):
    rev, actions = pilot
    raw = PILOT.read_bytes()
    original = state(DocxReviewer.from_bytes(raw))
    actions.edit_paragraph(CLAUSE, text_of(rev, CLAUSE).replace("60", "90"))
    actions.insert_paragraph_after(CLAUSE, "A new clause.")
    edited = tmp_path / "edited.docx"
    rev.save(edited)
    edited_state = state(DocxReviewer.open(edited))
    assert [c["type"] for c in edited_state[1]] == ["deletion", "insertion", "paragraphMarkInserted", "insertion"]

    actions.undo_stack.undo()
    actions.undo_stack.undo()
    undone = tmp_path / "undone.docx"
    rev.save(undone)
    assert state(DocxReviewer.open(undone)) == original
    assert parts(undone.read_bytes()) == parts(raw)  # every part byte-identical to the original

    actions.undo_stack.redo()
    actions.undo_stack.redo()
    redone = tmp_path / "redone.docx"
    rev.save(redone)
    assert state(DocxReviewer.open(redone)) == edited_state
    assert parts(redone.read_bytes()) == parts(edited.read_bytes())


# -- a keystroke is whole or not at all ----------------------------------------------------------------


def _two_paragraphs(qapp):
    rev = DocxReviewer.from_bytes(build_docx(p("Alpha beta.", "10000001") + p("Gamma delta.", "10000002")),
                                  author="AI")
    actions = ReviewActions(rev, LAWYER)
    return rev, actions


def _replace_op(rev, block_id: str, start: int, end: int, text: str, stale: bool = False) -> dict:
    from folio_desktop.docx.model.textkit import text_hash

    old = text_of(rev, block_id)
    return {"type": "replaceRange", "replace": text, "range": {
        "type": "textRange", "blockId": block_id, "startOffset": start, "endOffset": end,
        "selectedTextHash": text_hash("stale" if stale else old[start:end])}}


def test_a_keystroke_whose_later_batch_is_refused_takes_back_the_earlier_ones(qapp):
    rev, actions = _two_paragraphs(qapp)
    before, version = state(rev), rev.document.version

    def script(apply):
        apply([_replace_op(rev, "10000001", 0, 5, "Omega")])
        apply([_replace_op(rev, "10000002", 0, 5, "Zeta", stale=True)])  # refused: staleRange

    with pytest.raises(EditRefused):
        actions.keystroke("Typing", script, ["10000001", "10000002"])
    assert state(rev) == before
    assert rev.document.version == version  # the document reads as before, so it is that version again
    assert actions.undo_stack.count() == 0


def test_a_keystroke_batch_made_only_in_part_is_taken_back(qapp):
    rev, actions = _two_paragraphs(qapp)
    before = state(rev)

    def script(apply):
        apply([_replace_op(rev, "10000001", 0, 5, "Omega"), _replace_op(rev, "10000002", 0, 5, "Zeta", stale=True)])

    with pytest.raises(EditRefused):
        actions.keystroke("Typing", script, ["10000001", "10000002"])
    assert state(rev) == before
    assert [c.text for c in rev.get_changes()] == []


def test_a_refused_keystroke_in_a_burst_keeps_the_burst_typed_so_far(qapp):
    rev, actions = _two_paragraphs(qapp)
    actions.keystroke("Typing", lambda apply: apply([_replace_op(rev, "10000001", 0, 5, "Omega")]), ["10000001"],
                      kind="typing")
    typed = state(rev)

    def refused(apply):
        apply([_replace_op(rev, "10000001", 0, 5, "Sigma")])
        apply([_replace_op(rev, "10000001", 0, 3, "x", stale=True)])

    with pytest.raises(EditRefused):
        actions.keystroke("Typing", refused, ["10000001"], kind="typing", burst=True)
    assert state(rev) == typed
    assert actions.undo_stack.count() == 1
    actions.undo_stack.undo()
    assert text_of(rev, "10000001") == "Alpha beta."


def test_a_keystroke_over_paragraphs_of_different_containers_is_whole_or_not_at_all(qapp):
    from docbuilder import cell, row, table

    rev = DocxReviewer.from_bytes(build_docx(p("Alpha beta.", "10000001") + table(row(cell(p("Gamma delta.",
                                                                                              "10000002"))))),
                                  author="AI")
    actions = ReviewActions(rev, LAWYER)
    before = state(rev)

    def script(apply):
        apply([_replace_op(rev, "10000001", 0, 5, "Omega")])
        apply([_replace_op(rev, "10000002", 0, 5, "Zeta", stale=True)])

    with pytest.raises(EditRefused):
        actions.keystroke("Typing", script, ["10000001", "10000002"])
    assert state(rev) == before
    assert actions.undo_stack.count() == 0


# -- what a step keeps ----------------------------------------------------------------------------------


def count_checkpoints(rev: DocxReviewer) -> list:
    """Every whole-document checkpoint the reviewer takes from now on."""
    taken: list = []
    take = rev.checkpoint

    def counted():
        taken.append(1)
        return take()

    rev.checkpoint = counted
    return taken


def test_edits_comments_and_agent_turns_keep_what_they_touched_not_the_document(live):
    rev, bridge, actions = live
    original = state(rev)
    taken = count_checkpoints(rev)
    actions.edit_paragraph(CLAUSE, text_of(rev, CLAUSE).replace("60", "90"))
    actions.insert_paragraph_after(CLAUSE, "A new clause.")
    actions.perform("Add comment", lambda: rev.add_comment(PRODUCT, "Check this."), touched={PRODUCT})
    for turn in range(3):  # a chat turn, and an MCP client's calls that arrive one by one
        actions.begin_agent_turn("Review", merge_key=("mcp", 1) if turn else None)
        claude_edits(bridge, OTHER, ["No", "There", "this"][turn], ["None", "Here", "that"][turn])
        assert bridge.apply_document_operations({"version": 1, "operations": [
            {"type": "commentOnBlock", "blockId": OTHER, "comment": {"text": f"Why {turn}?"}}]})["applied"]
        actions.end_agent_turn()
    assert taken == []  # no whole-document checkpoint: each step holds the engine's records
    assert actions.undo_stack.count() == 5
    final = state(rev)
    while actions.undo_stack.canUndo():
        actions.undo_stack.undo()
    assert state(rev) == original
    while actions.undo_stack.canRedo():
        actions.undo_stack.redo()
    assert state(rev) == final
    assert taken == []
    actions.accept([c.id for c in rev.get_changes()][:1])  # an accept is not recorded: the whole document
    assert len(taken) == 1


def test_a_turn_that_replies_and_resolves_undoes_exactly(qtbot):
    view = PageView()
    qtbot.addWidget(view)
    rev = DocxReviewer.open(CORPUS / "superdoc_word_comments_replies_tracked.docx", author=LAWYER)
    view.set_document(rev)
    bridge = LiveBridge(rev, view, author="Claude")
    actions = ReviewActions(rev, LAWYER)
    before = state(rev), [(c.id, c.done, [r.text for r in c.replies]) for c in rev.get_comments()]
    taken = count_checkpoints(rev)
    thread = rev.get_comments()[0]
    actions.begin_agent_turn("Answer the comments")
    assert bridge.reply_to_comment(str(thread.id), "Done, see the new wording.")
    assert bridge.resolve_comment(str(thread.id), True)
    actions.end_agent_turn()
    after = state(rev), [(c.id, c.done, [r.text for r in c.replies]) for c in rev.get_comments()]
    assert after != before and taken == []
    actions.undo_stack.undo()
    assert (state(rev), [(c.id, c.done, [r.text for r in c.replies]) for c in rev.get_comments()]) == before
    actions.undo_stack.redo()
    assert (state(rev), [(c.id, c.done, [r.text for r in c.replies]) for c in rev.get_comments()]) == after


def test_a_step_that_no_longer_finds_its_place_is_dropped_not_misapplied(pilot):
    rev, actions = pilot
    actions.insert_paragraph_after(CLAUSE, "One.\nTwo.")
    body = rev.document.body
    for el in [el for el in body if el.getprevious() is not None][:60]:
        body.remove(el)  # changed beside the undo stack
    rev.document.invalidate()
    before = state(rev)
    actions.undo_stack.undo()
    assert state(rev) == before and actions.undo_stack.count() == 0
