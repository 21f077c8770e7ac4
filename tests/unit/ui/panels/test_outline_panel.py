"""OutlinePanel (folio_desktop/ui/panels/outline.py): numbered headings as a tree, a click or Enter
asks to go there, follow() tracks the section under the viewport, page numbers from a layout."""

from __future__ import annotations

import pytest
from conftest import CORPUS
from PySide6.QtCore import Qt

from folio_desktop.docx import DocxReviewer
from folio_desktop.layout import layout_document
from folio_desktop.ui.panels.outline import OutlinePanel

ILPA = CORPUS / "contract_ilpa_model_lpa_whole_of_fund_75p.docx"
NUMBERED = CORPUS / "docling_numbered_headings.docx"


@pytest.fixture(scope="module")
def ilpa():
    return DocxReviewer.open(ILPA)


@pytest.fixture
def panel(qtbot):
    p = OutlinePanel()
    p.resize(400, 600)
    qtbot.addWidget(p)
    p.show()
    qtbot.waitExposed(p)
    return p


def all_items(tree):
    out = []

    def walk(item):
        out.append(item)
        for i in range(item.childCount()):
            walk(item.child(i))

    for i in range(tree.topLevelItemCount()):
        walk(tree.topLevelItem(i))
    return out


def click(qtbot, panel, item):
    panel.tree.scrollToItem(item)
    qtbot.mouseClick(panel.tree.viewport(), Qt.LeftButton, pos=panel.tree.visualItemRect(item).center())


def test_ilpa_headings_show_their_numbers_nested_under_their_parents(panel, ilpa):
    panel.set_document(ilpa)
    entries = ilpa.outline()
    items = all_items(panel.tree)
    assert [item.data(0, Qt.UserRole) for item in items] == [e.block.id for e in entries]
    first, second = items[0], items[1]
    assert first.text(0) == "1.  Definitions and Interpretation"
    assert second.text(0).startswith("1.1  Definitions.")
    assert second.parent() is first
    for entry in entries:
        item = panel.item_for(entry.block.id)
        parent = item.parent()
        assert (parent.data(0, Qt.UserRole) if parent else None) == (entry.parent.block.id if entry.parent else None)
    # the long clause "headings" are cut to one readable line, the tooltip keeps the whole text
    long = next(e for e in entries if len(e.block.text) > 200)
    shown = panel.item_for(long.block.id).text(0)
    assert shown.endswith("…") and len(shown) < 120
    assert long.block.text in panel.item_for(long.block.id).toolTip(0)
    assert panel.tree.isColumnHidden(1)  # no layout given: no page column


def test_clicking_or_pressing_enter_on_a_heading_asks_to_go_there(qtbot, panel, ilpa):
    panel.set_document(ilpa)
    target = ilpa.outline()[1].block.id
    item = panel.item_for(target)
    with qtbot.waitSignal(panel.blockActivated, timeout=1000) as blocker:
        click(qtbot, panel, item)
    assert blocker.args == [target]
    panel.tree.setCurrentItem(panel.tree.topLevelItem(0))
    panel.tree.setFocus()
    qtbot.keyClick(panel.tree, Qt.Key_Down)  # moving does not navigate
    with qtbot.waitSignal(panel.blockActivated, timeout=1000) as blocker:
        qtbot.keyClick(panel.tree, Qt.Key_Return)
    assert blocker.args == [target]


def test_follow_highlights_the_section_holding_a_block_without_navigating(qtbot, panel, ilpa):
    panel.set_document(ilpa)
    snapshot = ilpa.snapshot()
    entries = ilpa.outline()
    heading_index = {e.block.id: snapshot.anchors[e.block.id].index for e in entries}
    # a body paragraph inside section 1.1 (after that heading, before the next one)
    h11, nxt = entries[1].block.id, entries[2].block.id
    body = next(b for b in snapshot.blocks[heading_index[h11] + 1:heading_index[nxt]] if b.text.strip())
    before_first = snapshot.blocks[0].id
    assert heading_index[entries[0].block.id] > 0
    with qtbot.assertNotEmitted(panel.blockActivated):
        panel.follow(body.id)
        assert panel.current_block_id() == h11
        panel.follow(nxt)
        assert panel.current_block_id() == nxt
        panel.follow(snapshot.blocks[-1].id)
        assert panel.current_block_id() == entries[-1].block.id
        panel.follow(before_first)
        assert panel.current_block_id() is None
        panel.follow(body.id)
        panel.follow("not-a-block")  # unknown: the highlight stays
        assert panel.current_block_id() == h11
        panel.follow(None)
        assert panel.current_block_id() is None


def test_page_column_with_a_layout_and_unnumbered_headings_show_no_style_name(qtbot, qapp, panel):
    rev = DocxReviewer.open(NUMBERED)
    layout = layout_document(rev.document)
    panel.set_document(rev, layout)
    assert not panel.tree.isColumnHidden(1)
    items = all_items(panel.tree)
    assert [i.text(1) for i in items] == [str(layout.page_of(e.block.id)) for e in rev.outline()]
    assert [i.text(0) for i in items[:2]] == ["1.  Section 1", "1.1.  Section 1.1"]
    assert items[-1].text(0) == "REFERENCES"  # style id "HeadingInvisNum" is not a number


def test_refresh_after_an_edit_shows_the_new_heading_renumbered_and_keeps_the_highlight(qtbot, panel):
    rev = DocxReviewer.open(NUMBERED, author="Lawyer")
    panel.set_document(rev)
    entries = rev.outline()
    panel.follow(entries[2].block.id)  # "1.2. Section 1.2"
    result = rev.apply_document_operations({"version": 1, "operations": [
        {"type": "insertAfterBlock", "blockId": entries[1].block.id, "text": "Added heading", "styleId": "Heading2"}]})
    assert result["applied"]
    panel.refresh()
    texts = [i.text(0) for i in all_items(panel.tree)]
    assert texts[1:4] == ["1.1.  Section 1.1", "1.2.  Added heading", "1.3.  Section 1.2"]
    assert panel.current_block_id() == entries[2].block.id
