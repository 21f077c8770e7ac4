"""Typing in a run-in heading and the text that shares its line (Word's style separator, the NVCA
purchase agreement's "1.4 Defined Terms Used in this Agreement. In addition to ..."): real clicks land
in the paragraph whose text is under the pointer, and after each keystroke the pages read as a fresh
layout does, the text after the heading moved along its line."""

from __future__ import annotations

from conftest import CORPUS
from typing_helpers import click_at, desk, same_as_fresh_layout, text_of

NVCA = CORPUS / "contract_nvca_stock_purchase_agreement_27p.docx"


def _pair(window):
    blocks = window.reviewer.snapshot().blocks
    at = next(i for i, b in enumerate(blocks) if b.text == "Defined Terms Used in this Agreement")
    return blocks[at].id, blocks[at + 1].id


def _first_line(window, block_id):
    layout = window.view.document_layout
    _n, frag = layout.fragments_of(block_id)[0]
    return frag, frag.para.layout.lineAt(0)


def test_typing_in_a_run_in_heading_moves_the_text_on_its_line(qtbot, tmp_path):
    window = desk(qtbot, tmp_path, NVCA)
    view = window.view
    heading, text = _pair(window)
    head_frag, _ = _first_line(window, heading)
    frag, line = _first_line(window, text)
    assert frag.top == head_frag.top  # the text runs on on the heading's line
    start = frag.x + frag.para.x + line.position().x()
    click_at(qtbot, view, text, 5)  # a click on the shared line lands in the text, not the heading
    click_at(qtbot, view, heading, len("Defined Terms"))
    qtbot.keyClicks(view.viewport(), " Now")
    assert text_of(window, heading) == "Defined Terms Now Used in this Agreement"
    same_as_fresh_layout(window)
    frag, line = _first_line(window, text)
    assert frag.x + frag.para.x + line.position().x() > start + 10  # pushed along by the typed word
    click_at(qtbot, view, text, 2)
    qtbot.keyClicks(view.viewport(), "X")
    assert text_of(window, text).startswith(". X")
    same_as_fresh_layout(window)
