"""The compare window says how its redline was written (issue 15, point 3): a story part redlined as
whole paragraphs and tables because the word-level redline failed its check, and a style the later
version uses without defining it, in the same sentences the command line prints (agents/versions/notes.py)."""

from __future__ import annotations

import pytest
from docbuilder import build_docx, cell, p, row, table

from folio_desktop.agents.versions.cli import run as compare_cli
from folio_desktop.ui.desk.compare_window import CompareWindow

pytestmark = pytest.mark.timeout(120)
FALLBACK_NOTE = ("Note: in the main text, 1 table is shown deleted and inserted whole, not row by row: its cells "
                 "were split or merged in a way a row-by-row redline cannot show.")
GHOST_NOTE = ("Note: the later version uses the style “Ghost” without defining it (only the earlier version "
              "does), so the text it inserts is shown without that style.")


def open_compare(qtbot, base, revised) -> CompareWindow:
    window = CompareWindow(base, revised)
    window.ask_before_discarding = False
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    qtbot.waitUntil(lambda: window.view.document_layout is not None, timeout=15_000)
    return window


@pytest.fixture
def fallback_pair(tmp_path):
    """A row whose first cell stays in the first row and whose last goes to a new second row: no row
    of the later table is that row, so the table is replaced whole."""
    base, revised = tmp_path / "prices v1.docx", tmp_path / "prices v2.docx"
    base.write_bytes(build_docx(p("Price list.") + table(row(cell(p("Alpha")), cell(p("Gamma"))),
                                                         row(cell(p("Kept")), cell(p("1")))) + p("Prices exclude tax.")))
    revised.write_bytes(build_docx(p("Price list.") + table(row(cell(p("Alpha")), cell(p("Eta"))),
                                                            row(cell(p("Zeta")), cell(p("Gamma"))),
                                                            row(cell(p("Kept")), cell(p("1")))) + p("Prices exclude tax.")))
    return base, revised


@pytest.fixture
def ghost_pair(tmp_path):
    """The later version styles an inserted paragraph "Ghost" without defining the style."""
    base, revised = tmp_path / "ghost v1.docx", tmp_path / "ghost v2.docx"
    base.write_bytes(build_docx(p("Intro.", "10000001"),
                                styles='<w:style w:type="paragraph" w:styleId="Ghost"><w:name w:val="G"/></w:style>'))
    revised.write_bytes(build_docx(p("Intro.", "10000001") + p("Ghost styled text.", "20000001",
                                                                '<w:pStyle w:val="Ghost"/>')))
    return base, revised


def test_the_summary_names_the_part_redlined_whole(qtbot, fallback_pair):
    window = open_compare(qtbot, *fallback_pair)
    lines = window.summary.text().splitlines()
    assert lines[:2] == ["Earlier version: prices v1.docx", "Later version: prices v2.docx"]
    assert lines[-1] == FALLBACK_NOTE
    assert window.summary.isVisible()


def test_the_summary_names_a_style_the_later_version_never_defined(qtbot, ghost_pair, tmp_path, capsys):
    window = open_compare(qtbot, *ghost_pair)
    assert window.summary.text().splitlines()[-1] == GHOST_NOTE
    # the command line says it in the same words
    assert compare_cli([*map(str, ghost_pair), "-o", str(tmp_path / "red.docx"), "--summary"]) == 0
    assert GHOST_NOTE in capsys.readouterr().out.splitlines()



def test_a_damaged_earlier_version_is_named_and_the_redline_saves_its_part_as_chosen(qtbot, tmp_path, monkeypatch):
    from chat_helpers import PILOT
    from package_surgery import THEME, assert_sound_theme, cut_short, entry

    from folio_desktop.docx import DocxReviewer

    damaged = cut_short(PILOT.read_bytes(), THEME)
    base, revised = tmp_path / "pilot v1.docx", tmp_path / "pilot v2.docx"
    base.write_bytes(damaged)
    revised.write_bytes(cut_short(PILOT.read_bytes(), "word/settings.xml"))
    window = open_compare(qtbot, base, revised)
    lines = window.summary.text().splitlines()
    assert lines[-2:] == [
        "The earlier version's theme word/theme/theme1.xml is damaged. The redline is built on that version, so "
        "saving it keeps that part as read, unless you choose File > Repair Damaged Parts When Saving.",
        "The later version's settings part word/settings.xml is damaged; its text was compared without it."]
    assert window.repair_action.isVisible() and not window.repair_action.isChecked()

    kept, repaired = tmp_path / "kept.docx", tmp_path / "repaired.docx"
    assert window.save_to(str(kept))
    assert entry(kept.read_bytes(), THEME) == entry(damaged, THEME)
    file_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&File")
    next(a for a in file_menu.actions() if a.text() == "&Repair Damaged Parts When Saving").trigger()
    assert window.repair_action.isChecked()
    assert window.save_to(str(repaired))
    assert_sound_theme(repaired.read_bytes())
    assert DocxReviewer.open(repaired).open_warnings == []
    assert DocxReviewer.open(kept).get_content_as_text() == DocxReviewer.open(repaired).get_content_as_text()
