"""The Checks panel in the review window (issue 30, surfaces): the contract checks' findings grouped by kind
under plain-word headings with their counts, each row its clause number, text and message; a real click or
Enter on a row goes to the paragraph in the pages; a fix typed in the pages clears the finding once the
panels catch up with the typing; the panel's share of a re-run on the ILPA after a typed edit is small."""

from __future__ import annotations

import time

from conftest import CORPUS
from key_helpers import press
from planted_contract import PLACEHOLDER_BLOCK, PLACEHOLDER_TEXT, TERM_BLOCK, planted_contract
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QTabBar
from typing_helpers import click_at, desk

ILPA = CORPUS / "contract_ilpa_model_lpa_whole_of_fund_75p.docx"


def planted_window(qtbot, tmp_path):
    source = tmp_path / "planted.docx"
    source.write_bytes(planted_contract())
    window = desk(qtbot, tmp_path, source)
    bring_checks_to_front(qtbot, window)
    qtbot.waitUntil(lambda: window.checks.tree.topLevelItemCount() > 0, timeout=5_000)
    return window


def bring_checks_to_front(qtbot, window) -> None:
    """A real click on the Checks tab of the docks tabbed with Changes and Comments."""
    bar = next(b for b in window.findChildren(QTabBar) if "Checks" in [b.tabText(i) for i in range(b.count())])
    index = [bar.tabText(i) for i in range(bar.count())].index("Checks")
    qtbot.mouseClick(bar, Qt.LeftButton, Qt.NoModifier, bar.tabRect(index).center())
    qtbot.waitUntil(window.checks.in_sight, timeout=2_000)


def row_cells(row) -> tuple[str, str, str]:
    return row.text(0), row.text(1), row.text(2)


def click_row(qtbot, tree, row) -> None:
    tree.scrollToItem(row)
    rect = tree.visualItemRect(row)
    qtbot.mouseClick(tree.viewport(), Qt.LeftButton, Qt.NoModifier, rect.center())


def test_findings_are_grouped_by_kind_with_counts_clause_text_and_message(qtbot, tmp_path):
    window = planted_window(qtbot, tmp_path)
    panel = window.checks
    assert panel.group_titles() == ["Undefined terms (1)", "Broken cross-references (1)",
                                    "Blanks and placeholders (1)"]
    clause, text, message = row_cells(panel.rows("placeholder")[0])
    assert (clause, text) == ("2.", "[DATE]") and "placeholder" in message
    clause, text, message = row_cells(panel.rows("undefinedTerm")[0])
    assert (clause, text) == ("3.", "Service Credits") and "defined nowhere" in message
    assert row_cells(panel.rows("brokenCrossReference")[0])[:2] == ("3.", "Section 9")
    assert panel.summary.text().startswith("3 findings")
    assert window.checks_dock.toggleViewAction().text() == "Chec&ks"


def test_a_click_or_enter_on_a_finding_goes_to_its_paragraph(qtbot, tmp_path):
    window = planted_window(qtbot, tmp_path)
    view, panel = window.view, window.checks
    window.checks_dock.show()
    window.checks_dock.raise_()
    view.selection.select_block("10000002")  # the preamble
    qtbot.waitUntil(lambda: panel.tree.isVisible(), timeout=2_000)
    click_row(qtbot, panel.tree, panel.rows("placeholder")[0])
    assert view.selection.caret_block_id() == PLACEHOLDER_BLOCK
    assert QApplication.focusWidget() is view  # the keyboard follows, to fix it there
    # from the keyboard: Ctrl+Shift+K into the panel, Down to the next finding, Enter
    press(view, Qt.Key_K, Qt.ControlModifier | Qt.ShiftModifier)
    assert QApplication.focusWidget() is panel.tree
    panel.tree.setCurrentItem(panel.rows("undefinedTerm")[0])
    press(panel.tree, Qt.Key_Return)
    assert view.selection.caret_block_id() == TERM_BLOCK


def test_typing_a_fix_in_the_pages_clears_the_finding_after_the_rerun(qtbot, tmp_path):
    window = planted_window(qtbot, tmp_path)
    view, panel = window.view, window.checks
    end = len(PLACEHOLDER_TEXT) - 1  # just after "[DATE]", before the full stop
    click_at(qtbot, view, PLACEHOLDER_BLOCK, end)
    for _ in "[DATE]":
        qtbot.keyClick(view, Qt.Key_Backspace)
    qtbot.keyClicks(view, "1 May 2026")
    assert "[DATE]" not in window.reviewer.snapshot().block(PLACEHOLDER_BLOCK).text
    qtbot.waitUntil(lambda: "Blanks and placeholders (1)" not in panel.group_titles(), timeout=10_000)
    assert panel.group_titles() == ["Undefined terms (1)", "Broken cross-references (1)"]
    assert panel.summary.text().startswith("2 findings")


def test_the_rerun_after_a_typed_edit_on_the_ilpa_is_measured_and_the_panel_adds_little(qtbot, tmp_path):
    window = desk(qtbot, tmp_path, ILPA)
    panel = window.checks
    bring_checks_to_front(qtbot, window)
    qtbot.waitUntil(lambda: panel.tree.topLevelItemCount() > 0, timeout=20_000)
    total = len(panel.findings)
    body = [b for b in window.reviewer.snapshot().blocks if b.table is None and len(b.text) > 200]
    block = body[len(body) // 2]
    click_at(qtbot, view := window.view, block.id, 10)
    before = panel.run_ms
    typed = time.perf_counter()
    qtbot.keyClicks(view, "very ")
    qtbot.waitUntil(lambda: panel.run_ms != before and not window.commands.catch_up.running, timeout=20_000)
    print(f"\nILPA re-run after a typed edit: checks {panel.run_ms:.0f} ms, panel {panel.show_ms:.1f} ms, "
          f"{total} findings; {1000 * (time.perf_counter() - typed):.0f} ms from the first key to caught up")
    assert len(panel.findings) == total  # "very " defines nothing, breaks nothing
    assert panel.show_ms < 20  # the panel's own work: the findings compared, the tree untouched


def test_out_of_sight_the_checks_wait_for_the_panel_to_show(qtbot, tmp_path):
    """Closed (or behind another tab), the panel does not run the checks after each edit, which on a long
    document would cost the lawyer a pause for a list nobody is looking at; shown again, it checks at once."""
    window = planted_window(qtbot, tmp_path)
    view, panel = window.view, window.checks
    window.checks_dock.close()
    qtbot.waitUntil(lambda: not panel.isVisible(), timeout=2_000)
    runs = []
    real = panel.session.run
    panel.session.run = lambda reviewer: runs.append(1) or real(reviewer)
    end = len(PLACEHOLDER_TEXT) - 1
    click_at(qtbot, view, PLACEHOLDER_BLOCK, end)
    for _ in "[DATE]":
        qtbot.keyClick(view, Qt.Key_Backspace)
    qtbot.keyClicks(view, "1 May 2026")
    qtbot.waitUntil(lambda: panel.stale, timeout=10_000)  # the panels caught up: the checks only noted it
    assert runs == [] and "Blanks and placeholders (1)" in panel.group_titles()
    window.checks_dock.show()
    bring_checks_to_front(qtbot, window)
    qtbot.waitUntil(lambda: "Blanks and placeholders (1)" not in panel.group_titles(), timeout=5_000)
    assert runs == [1] and not panel.stale


def test_behind_another_tab_the_checks_wait_for_their_tab(qtbot, tmp_path):
    """Tabbed behind the changes (as the window opens), the panel is open but out of sight: an edit only
    notes that the checks must run again (on a 500-page contract they take seconds of the typing's pause);
    a click on its tab runs them."""
    window = planted_window(qtbot, tmp_path)
    view, panel = window.view, window.checks
    bar = next(b for b in window.findChildren(QTabBar) if "Changes" in [b.tabText(i) for i in range(b.count())])
    qtbot.mouseClick(bar, Qt.LeftButton, Qt.NoModifier, bar.tabRect(0).center())
    qtbot.waitUntil(lambda: not panel.in_sight(), timeout=2_000)
    assert panel.isVisible()  # Qt still calls a dock behind a tab visible
    runs = []
    real = panel.session.run
    panel.session.run = lambda reviewer: runs.append(1) or real(reviewer)
    click_at(qtbot, view, PLACEHOLDER_BLOCK, len(PLACEHOLDER_TEXT) - 1)
    for _ in "[DATE]":
        qtbot.keyClick(view, Qt.Key_Backspace)
    qtbot.keyClicks(view, "1 May 2026")
    qtbot.waitUntil(lambda: panel.stale, timeout=10_000)
    assert runs == []
    bring_checks_to_front(qtbot, window)
    qtbot.waitUntil(lambda: "Blanks and placeholders (1)" not in panel.group_titles(), timeout=5_000)
    assert runs == [1] and not panel.stale


def test_the_summary_line_never_widens_the_dock(qtbot, tmp_path):
    """The line over the findings wraps: unwrapped, "31 findings on the text as it reads with the changes
    accepted" made the docks wider than the window leaves them, and the page beside them smaller."""
    window = planted_window(qtbot, tmp_path)
    panel = window.checks
    assert panel.summary.text().startswith("3 findings")
    assert panel.summary.minimumSizeHint().width() < 200 and panel.minimumSizeHint().width() < 250
