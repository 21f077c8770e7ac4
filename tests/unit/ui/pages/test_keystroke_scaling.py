"""Enter and Backspace over a paragraph mark cost what they cost on a short contract however long the
contract is (issue 26): the paragraphs read again, measured again and the pages laid out again while the
key is handled are counted on a contract and on the same contract ten times over, and must not grow with
it (they grew tenfold when a split or a join read the whole body again). The pages past the screen are
then laid out while the event loop idles, and read as a fresh layout does."""

from __future__ import annotations

import sys

import pytest
from conftest import ROOT
from PySide6.QtCore import Qt
from typing_helpers import desk

from folio_desktop.docx.reading.snapshot import _Walker
from folio_desktop.layout import layout_document
from folio_desktop.layout.engine import Paginator
from folio_desktop.layout.paragraph import ParagraphMeasurer
from folio_desktop.ui.pages.selection import Mark

SAMPLE = ROOT / "resources" / "sample_contract.docx"


@pytest.fixture
def work(monkeypatch):
    """Counts of the work done while it is switched on: paragraphs read (snapshot), paragraphs
    measured (layout), pages laid out (pagination)."""
    counts = {"read": 0, "measured": 0, "pages": 0}
    state = {"on": False}

    def counting(name, method):
        def wrapper(*args, **kwargs):
            if state["on"]:
                counts[name] += 1
            return method(*args, **kwargs)
        return wrapper

    monkeypatch.setattr(_Walker, "paragraph_text", counting("read", _Walker.paragraph_text))
    monkeypatch.setattr(ParagraphMeasurer, "measure", counting("measured", ParagraphMeasurer.measure))
    run = Paginator.run

    def counted_run(self, *args, **kwargs):
        for page in run(self, *args, **kwargs):
            if state["on"]:
                counts["pages"] += 1
            yield page

    monkeypatch.setattr(Paginator, "run", counted_run)

    def measure(action) -> dict:
        counts.update(read=0, measured=0, pages=0)
        state["on"] = True
        try:
            action()
        finally:
            state["on"] = False
        return dict(counts)

    return measure


def _long(tmp_path, repeats: int):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from longdoc import build_long

    path = tmp_path / f"sample_x{repeats}.docx"
    path.write_bytes(build_long(SAMPLE, repeats))
    return path


def _keys(qtbot, tmp_path, work, repeats: int) -> tuple[dict, dict, object]:
    """(Enter's work, Backspace at the new paragraph's start's work, window) in the middle of the
    sample contract repeated `repeats` times."""
    folder = tmp_path / f"x{repeats}"
    folder.mkdir()
    window = desk(qtbot, folder, _long(tmp_path, repeats))
    view = window.view
    snapshot = window.reviewer.snapshot()
    body = [b for b in snapshot.blocks if b.element is not None and b.table is None and len(b.text) > 80
            and b.list_reference is None]
    block = body[len(body) // 2]
    assert view.selection.place_caret(Mark(block.id, 20, False))
    view.viewport().repaint()

    def press(key):
        qtbot.keyClick(view, key)
        view.viewport().repaint()

    enter = work(lambda: press(Qt.Key_Return))
    backspace = work(lambda: press(Qt.Key_Backspace))  # the caret stands at the second half's start
    assert window.reviewer.snapshot().block(block.id).text == block.text  # joined back as it was
    return enter, backspace, window


def test_enter_and_backspace_do_the_same_work_on_a_ten_times_longer_contract(qtbot, tmp_path, work):
    short_enter, short_back, _short = _keys(qtbot, tmp_path, work, 4)
    long_enter, long_back, window = _keys(qtbot, tmp_path, work, 40)
    assert len(window.view.pages) >= 60
    for short, long in ((short_enter, long_enter), (short_back, long_back)):
        for what in ("read", "measured", "pages"):
            # a paragraph or a page either way is noise; ten times the document's is the bug
            assert long[what] <= 2 * short[what] + 4, (what, short, long)
        assert long["read"] <= 10, long  # the split paragraph and its neighbours, not the body

    # the pages past the screen follow while the event loop idles, exactly as a fresh layout has them
    view = window.view
    qtbot.waitUntil(lambda: not view.relayout_pending, timeout=20_000)
    fresh = layout_document(window.reviewer.document, view=view.markup_view)
    assert [p.text(include_headers=True) for p in view.pages] == [p.text(include_headers=True) for p in fresh.pages]


NVCA = ROOT.parent / "shared" / "corpus" / "contract_nvca_stock_purchase_agreement_27p.docx"


def test_a_join_or_split_beside_footnotes_keeps_their_numbers_without_counting_them_again(qtbot, tmp_path,
                                                                                          monkeypatch):
    """Numbering the notes walks the whole body (a tenth of a second on a 500-page contract with
    hundreds of footnotes); a split or a join moves no reference, so the numbers stand, and the pages
    (footnotes and their numbers included) read as a fresh layout's."""
    from folio_desktop.layout import footnotes

    calls = []
    number_notes = footnotes.number_notes
    monkeypatch.setattr(footnotes, "number_notes", lambda doc: calls.append(1) or number_notes(doc))
    window = desk(qtbot, tmp_path, NVCA)
    view = window.view
    qtbot.waitUntil(lambda: not view.relayout_pending, timeout=20_000)
    blocks = window.reviewer.snapshot().blocks
    body = window.reviewer.document.body
    with_note = next(i for i, b in enumerate(blocks[:-1]) if b.element is not None and b.element.getparent() is body
                     and b.table is None and "[^" in b.text and len(b.text) > 60
                     and blocks[i + 1].element is not None and blocks[i + 1].element.getparent() is body
                     and blocks[i + 1].table is None and blocks[i + 1].text.strip())
    note_block, next_block = blocks[with_note], blocks[with_note + 1]
    calls.clear()
    assert view.selection.place_caret(Mark(note_block.id, 10, False))
    qtbot.keyClick(view, Qt.Key_Return)  # a split before the note's reference
    assert view.selection.place_caret(Mark(next_block.id, 0, False))
    qtbot.keyClick(view, Qt.Key_Backspace)  # the document's own mark: struck, the two read as one
    assert any(len(b.paragraphs) == 2 and next_block.element in b.paragraphs for b in window.reviewer.snapshot().blocks)
    view.viewport().repaint()
    assert calls == []
    qtbot.waitUntil(lambda: not view.relayout_pending, timeout=20_000)
    fresh = layout_document(window.reviewer.document, view=view.markup_view)
    assert [p.text(include_headers=True) for p in view.pages] == [p.text(include_headers=True) for p in fresh.pages]
