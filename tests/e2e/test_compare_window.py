"""CompareWindow (folio_desktop/ui/desk/compare_window.py): File > Compare opens the redline of two
versions as pages at fit width, insertions and deletions in two colours, the differences beside it in
plain words with clause numbers, each accepted or rejected in place, and Save / Save As that say
where the redline went. Driven with real mouse and key events."""

from __future__ import annotations

import re

import docx as python_docx
import pytest
from conftest import CORPUS
from docbuilder import build_docx, p
from pilot_versions import FORCE_MAJEURE, PILOT, write_pilot_pair  # 7.11, Force Majeure
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox

from folio_desktop.agents.versions.compare import open_view
from folio_desktop.agents.versions.redline import story_texts
from folio_desktop.docx import DocxReviewer
from folio_desktop.docx.errors import DocxError
from folio_desktop.ui.desk.compare_window import CompareWindow
from folio_desktop.ui.pages.geometry import GAP
from folio_desktop.ui.panels.changes import KIND_COLORS

EIGENPAL = CORPUS / "eigenpal_docxjs_editor_demo.docx"
CSA = CORPUS / "contract_commonpaper_csa_with_ai_gdocs.docx"


@pytest.fixture
def versions(tmp_path):
    """The eigenpal demo before (all changes rejected) and after (all accepted) its redlines."""
    data = EIGENPAL.read_bytes()
    base, revised = tmp_path / "charter v1.docx", tmp_path / "charter v2.docx"
    base.write_bytes(open_view(data, "original").to_bytes())
    revised.write_bytes(open_view(data, "final").to_bytes())
    return base, revised


@pytest.fixture
def pilot_pair(tmp_path):
    """The pilot agreement and a later version (pilot_versions.py)."""
    return write_pilot_pair(tmp_path)


def open_compare(qtbot, base, revised, author="Comparison") -> CompareWindow:
    window = CompareWindow(base, revised, author=author)
    window.ask_before_discarding = False
    window.resize(1300, 850)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    qtbot.waitUntil(lambda: window.view.document_layout is not None, timeout=15_000)
    return window


def accepted(rev: DocxReviewer, accept: bool) -> dict:
    copy = DocxReviewer.from_bytes(rev.to_bytes())
    copy.accept_all() if accept else copy.reject_all()
    return story_texts(copy)


def click_row(qtbot, panel, row):
    rect = panel.list.visualItemRect(panel.item_of(row))
    qtbot.mouseClick(panel.list.viewport(), Qt.LeftButton, Qt.NoModifier, rect.center())


def press(qtbot, window, key, modifiers=Qt.NoModifier):
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=2_000)
    qtbot.keyClick(window, key, modifiers)


def span_colors(layout) -> dict[str, set[str]]:
    """span kind -> the foreground colours its text is drawn in, over every page."""
    out: dict[str, set[str]] = {}
    for page in layout.pages:
        for frag in page.body_fragments():
            ranges = frag.para.layout.formats()
            for span in frag.para.spans:
                if span.kind not in ("inserted", "deleted") or span.end <= span.start:
                    continue
                fmt = next(r.format for r in ranges if r.start <= span.start < r.start + r.length)
                out.setdefault("moved" if span.moved else span.kind, set()).add(fmt.foreground().color().name())
    return out


# -- opening ------------------------------------------------------------------------------------------


def test_the_redline_turns_base_into_revised(qtbot, versions):
    base, revised = versions
    window = open_compare(qtbot, base, revised, author="Jane Lawyer")
    changes = window.reviewer.get_changes()
    assert {c.author for c in changes} == {"Jane Lawyer"}
    assert {c.type for c in changes} == {"insertion", "deletion"}
    texts = {(c.type, c.text) for c in changes}
    assert ("deletion", "zero") in texts and ("insertion", "no") in texts
    assert accepted(window.reviewer, True) == story_texts(DocxReviewer.open(revised))
    assert accepted(window.reviewer, False) == story_texts(DocxReviewer.open(base))
    layout = window.view.finish_layout()
    assert window.view.reviewer is window.reviewer and layout.page_count == len(window.view.pages) >= 3
    assert window.windowTitle().replace("[*]", "") == "Compare: charter v1.docx → charter v2.docx"


def test_it_opens_at_fit_width(qtbot, pilot_pair):
    window = open_compare(qtbot, *pilot_pair)
    view = window.view
    layout = view.finish_layout()
    assert view.fit_mode == "width"
    widest = max(view.page_rect(n).width() for n in range(1, layout.page_count + 1))
    assert abs(widest + 2 * GAP - view.viewport().width()) <= 1  # the widest sheet fills the width, no more


def test_insertions_and_deletions_are_drawn_in_two_colours(qtbot, pilot_pair):
    window = open_compare(qtbot, *pilot_pair)
    colors = span_colors(window.view.finish_layout())
    assert {k: len(v) for k, v in colors.items()} == {"inserted": 1, "deleted": 1, "moved": 1}
    assert len(colors["inserted"] | colors["deleted"] | colors["moved"]) == 3
    # the differences' bars are the pages' colours
    assert (colors["inserted"], colors["deleted"], colors["moved"]) == (
        {KIND_COLORS["insertion"]}, {KIND_COLORS["deletion"]}, {KIND_COLORS["move"]})


def test_the_differences_read_in_plain_words_with_clause_numbers(qtbot, pilot_pair):
    window = open_compare(qtbot, *pilot_pair)
    panel = window.differences
    assert [r.title for r in panel.rows] == [
        "Clause 2.2: “immediately:” replaced by “at once:”",
        "Moved: “Force Majeure. Neither party will be liable for a delay or…” from clause 7.11 to clause c",
        "New clause 3.2: “Each party will comply with all Applicable Laws in…”",
        "Clause 5.1: “total cumulative” replaced by “aggregate”",
        "Deleted: clause 5.3 “Applicability. The limitations and waivers contained in…”",
    ]
    assert panel.count_label.text() == "5 differences: 2 changed paragraphs, 1 insertion, 1 deletion, 1 move"
    assert window.summary.text() == "Earlier version: pilot v1.docx\nLater version: pilot v2.docx\n" \
                                    "148 paragraphs unchanged."
    shown = "\n".join([window.summary.text(), panel.count_label.text()]
                      + [t for r in panel.rows for t in (r.title, r.text, r.detail)])
    block_ids = {b.id for b in window.reviewer.snapshot().blocks}
    assert not any(bid in shown for bid in block_ids)
    assert not re.search(r"\[-|-\]|\{\+|\+\}", shown)
    # the whole paragraph as it now reads and as it was, under the row
    item = panel.item_of(panel.rows[0])
    click_row(qtbot, panel, panel.rows[0])
    qtbot.keyClick(panel.list, Qt.Key_Right)
    assert item.child(0).text(0).splitlines() == [
        "Now reads: Termination.  Either party may terminate the Agreement at once:",
        "Was: Termination.  Either party may terminate the Agreement immediately:"]


def test_a_large_comparison_in_plain_words(qtbot, tmp_path):
    window = open_compare(qtbot, PILOT, CSA)
    rows = window.differences.rows
    assert 100 < len(rows) < len(window.reviewer.get_changes()) / 5  # 1,508 tracked changes
    titles = [r.title for r in rows]
    # the redline shows the later version's formatting (numbering included) with the earlier one kept in
    # formatting revisions, as Word's Compare does: clause 7.6 of the pilot is 12.6 of the later agreement
    assert "Clause 12.6: “Provider” replaced by “either”; “party” inserted; “Provider” replaced by “the assigning " \
           "party”; formatting changed (style, indentation, spacing, numbering, tab stops, font)" in titles
    assert "Clause 1: “Pilot” replaced by “Service”; “Access” deleted; formatting changed (indentation, spacing, " \
           "numbering, tab stops, font)" in titles
    assert "Clause 1.2: “License.” replaced by “Support.”; “If the Product contains Software, then, during the " \
           "Pilot…” replaced by “During”; 12 more edits; formatting changed (style, indentation, spacing, numbering, " \
           "tab stops, bold, font, font colour)" in titles
    assert "Deleted: clause 1.1 “Customer Content. Provider may copy, display, modify, and…”" in titles
    assert "New table (16 rows): “Order Form The key business terms of this Order Form are as…”" in titles
    assert not any(re.search(r"\[-|\{\+|\b[0-9A-F]{8}\b", t) for t in titles)
    # the two agreements' headers and footers (five parts against nine) are redlined too, none left out
    assert "left as in the earlier version" not in window.summary.text()


def test_added_and_deleted_paragraphs(qtbot, tmp_path):
    base, revised = tmp_path / "a.docx", tmp_path / "b.docx"
    base.write_bytes(build_docx(p("Term: one year.", "10000001") + p("Old clause goes.", "10000002")
                                + p("Signatures.", "10000003")))
    revised.write_bytes(build_docx(p("Term: two years.", "10000001") + p("Signatures.", "10000003")
                                   + p("A new schedule.", "20000001")))
    window = open_compare(qtbot, base, revised)
    assert [r.title for r in window.differences.rows] == [
        "The paragraph “Term: two years.”: “one” replaced by “two”; “year.” replaced by “years.”",
        "Deleted paragraph: “Old clause goes.”", "New paragraph: “A new schedule.”"]
    assert accepted(window.reviewer, True)["main"] == ["Term: two years.", "Signatures.", "A new schedule."]
    assert accepted(window.reviewer, False)["main"] == ["Term: one year.", "Old clause goes.", "Signatures."]


# -- deciding, undoing and saving ----------------------------------------------------------------------


def test_accept_and_reject_in_place_then_save_says_where(qtbot, pilot_pair, tmp_path, monkeypatch):
    window = open_compare(qtbot, *pilot_pair)
    panel, reviewer = window.differences, window.reviewer
    rows = list(panel.rows)
    out = tmp_path / "pilot redline.docx"
    asked = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda _parent, _title, start, _filter: (asked.append(start), (str(out), ""))[1])

    # a click on the difference selects it in the pages; Accept keeps "at once"
    with qtbot.waitSignal(panel.changeActivated, timeout=2_000):
        click_row(qtbot, panel, rows[0])
    assert window.view.selection.change_at_selection() == rows[0].shown.id and rows[0].shown.text == "immediately:"
    qtbot.mouseClick(panel.accept_button, Qt.LeftButton)
    assert [r.title for r in panel.rows] == [r.title for r in rows[1:]]
    assert not set(rows[0].ids) & {c.id for c in reviewer.get_changes()}

    # Reject and Move to Next (its shortcut) on the move: Force Majeure stays clause 7.11
    click_row(qtbot, panel, panel.rows[0])
    press(qtbot, window, Qt.Key_Delete, Qt.ControlModifier | Qt.ShiftModifier)
    assert [r.title for r in panel.selected_rows()] == [rows[2].title]  # the new clause 3.2 is next
    # Accept and Move to Next (the button) on the new clause; then undo it with Ctrl+Z, and redo
    qtbot.mouseClick(panel.accept_next_button, Qt.LeftButton)
    assert [r.title for r in panel.rows] == [rows[3].title, rows[4].title]
    press(qtbot, window, Qt.Key_Z, Qt.ControlModifier)
    assert [r.title for r in panel.rows] == [rows[2].title, rows[3].title, rows[4].title]
    press(qtbot, window, Qt.Key_Y, Qt.ControlModifier)
    assert len(panel.rows) == 2

    # first save: Save As, suggesting a name beside the later version; the status says where
    press(qtbot, window, Qt.Key_S, Qt.ControlModifier)
    assert asked == [str(pilot_pair[1].with_name("pilot v2 (redline).docx"))]
    assert window.path == str(out.resolve()) and not window.modified
    assert window.statusBar().currentMessage() == f"Saved the redline to {out.resolve()} (2 differences still to decide)."
    assert window.windowTitle().endswith("— pilot redline.docx[*]")
    # rejecting the rest marks it unsaved; Ctrl+S saves there again without asking
    qtbot.mouseClick(panel.reject_all_button, Qt.LeftButton)
    assert panel.rows == [] and window.modified and window.isWindowModified()
    press(qtbot, window, Qt.Key_S, Qt.ControlModifier)
    assert len(asked) == 1 and window.statusBar().currentMessage() == f"Saved the redline to {out.resolve()}."

    # the saved redline holds what was chosen: 2.2 and 3.2 as revised, the rest as the base
    saved = DocxReviewer.open(out)
    assert saved.get_changes() == []
    texts = {b.id: b.text for b in saved.snapshot().blocks}
    assert "at once:" in texts["2490E3DE"] and "total cumulative" in texts["2780E4B6"]
    assert texts[FORCE_MAJEURE].startswith("Force Majeure.") and "495703C8" in texts
    body = [para.text for para in python_docx.Document(str(out)).paragraphs]
    assert "Each party will comply with all Applicable Laws in performing this Agreement." in body
    assert sum(t.startswith("Force Majeure.  Neither party") for t in body) == 1


def test_save_as_from_the_menu_and_a_failed_save_is_explained(qtbot, versions, tmp_path, monkeypatch):
    window = open_compare(qtbot, *versions)
    target = tmp_path / "no such folder" / "x.docx"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    warned = []
    monkeypatch.setattr(QMessageBox, "warning", lambda _p, title, text: warned.append(text))
    assert window.save_as_action.text().replace("&", "") == "Save Redline As…"
    window.save_as_action.trigger()
    assert warned and str(target) in warned[0] and window.path is None
    assert window.statusBar().currentMessage() == warned[0]
    named = tmp_path / "named"  # no extension typed: .docx is added
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(named), ""))
    window.save_as_action.trigger()
    assert window.path == str(named.with_suffix(".docx").resolve())
    assert [(c.type, c.text) for c in DocxReviewer.open(window.path).get_changes()] == \
        [(c.type, c.text) for c in window.reviewer.get_changes()]


def test_closing_with_undecided_saves_nothing_but_unsaved_decisions_ask(qtbot, versions, monkeypatch):
    window = open_compare(qtbot, *versions)
    window.ask_before_discarding = True
    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: (asked.append(a[2]), QMessageBox.Cancel)[1])
    window.differences.next_change()
    qtbot.mouseClick(window.differences.accept_button, Qt.LeftButton)
    window.close()
    assert asked and "not saved" in asked[0] and window.isVisible()
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.Discard)
    window.close()
    assert not window.isVisible()


def test_save_redline(qtbot, versions, tmp_path):
    window = CompareWindow(*versions)
    qtbot.addWidget(window)
    out = tmp_path / "redline.docx"
    window.save_redline(out)
    saved = DocxReviewer.open(out)
    assert [(c.type, c.text) for c in saved.get_changes()] == [(c.type, c.text) for c in window.reviewer.get_changes()]
    with pytest.raises(DocxError, match="could not be written"):
        window.save_redline(tmp_path / "redline.docx" / "inside-a-file.docx")


def test_unreadable_versions_are_plain_errors(qtbot, tmp_path, versions):
    base, _revised = versions
    with pytest.raises(DocxError, match="missing.docx does not exist"):
        CompareWindow(base, tmp_path / "missing.docx")
    notes = tmp_path / "notes.docx"
    notes.write_text("not a zip")
    with pytest.raises(DocxError):
        CompareWindow(notes, base)
