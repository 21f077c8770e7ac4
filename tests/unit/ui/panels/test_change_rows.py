"""change_rows (folio_desktop/ui/panels/change_rows.py): the census folded into the rows a lawyer decides on,
and the same rows worded as a comparison, on real documents."""

from __future__ import annotations

import docx as python_docx
import pytest
from conftest import ALL_GOOD, CORPUS
from pilot_versions import write_pilot_pair

from folio_desktop.docx import DocxReviewer
from folio_desktop.ui.desk.compare_window import build_redline
from folio_desktop.ui.panels.change_rows import (
    Places,
    change_rows,
    clause_number,
    counts,
    difference_rows,
    quote,
)

RA001 = CORPUS / "powertools_RA001_tracked_revisions_moves.docx"
MOVE = CORPUS / "pandoc_track_changes_move_macword.docx"
RPR = CORPUS / "adeu_word_rprchange_comments.docx"
ARABIC = CORPUS / "powertools_RP051_arabic_tracked_changes.docx"


def rows_of(path):
    """(the census, its rows)"""
    reviewer = DocxReviewer.open(path)
    census = reviewer.get_changes()
    return census, change_rows(census, Places(reviewer))


# every good corpus document opens (a failure to read one is an error here, not a document left out);
# those with tracked changes are the ones whose rows are checked
WITH_CHANGES = [path for path in ALL_GOOD if DocxReviewer.open(path).get_changes()]


def test_the_corpus_has_documents_with_changes_to_fold():
    assert len(WITH_CHANGES) >= 10 and RA001 in WITH_CHANGES and ARABIC in WITH_CHANGES


@pytest.mark.parametrize("path", WITH_CHANGES, ids=lambda p: p.name)
def test_every_census_entry_is_in_exactly_one_row(path):
    census, rows = rows_of(path)
    assert sorted(id(c) for row in rows for c in row.changes) == sorted(id(c) for c in census)
    assert len(rows) <= len(census)
    assert [row.order for row in rows] == sorted(row.order for row in rows)  # document order kept


def test_ra001_folds_214_marks_into_the_decisions_a_reader_makes():
    census, rows = rows_of(RA001)
    # (its table grid revision records the grid the table has: no change, tests/unit/docx/reading/test_table_grid_changes.py)
    assert len(census) == 214 and len(rows) == 56
    by_id = {c.id: c for c in census}
    # no paragraph-mark change of a paragraph whose whole text changed stands alone
    alone = [r for r in rows if r.title.startswith("Paragraph break")]
    assert all(r.text.strip() and len(r.ids) == 1 for r in alone) and len(alone) == 4
    # an inserted paragraph is its text with its mark
    inserted = next(r for r in rows if r.title == "Inserted paragraph")
    assert sorted(by_id[i].type for i in inserted.ids) == ["insertion", "paragraphMarkInserted"]
    assert inserted.text == "Order of injection:"
    # one move: every w:moveFrom and w:moveTo of the range named move424225406, both halves
    [moved] = [r for r in rows if r.kind == "move"]
    halves = {c.element.tag.rsplit("}", 1)[1] for c in moved.changes}
    assert halves == {"moveFrom", "moveTo"} and len(moved.ids) == 16
    assert all(c.is_move for c in moved.changes) and moved.title == "Moved"
    # runs of empty paragraphs are one row each, counted
    empties = [r for r in rows if "empty paragraph" in r.title]
    assert "Inserted 15 empty paragraphs" in [r.title for r in empties]
    assert sum(len(r.ids) for r in empties) > 3 * len(empties)
    # a table whose every row was inserted: one row, its cells' marks inside it
    tables = [r for r in rows if r.kind == "table"]
    assert [r.title for r in tables] == ["Inserted table (5 rows)", "Deleted table (5 rows)",
                                         "Deleted table (5 rows)", "Inserted table (5 rows)"]
    assert tables[0].text.splitlines()[0] == "Name of the preparations | No. of  injections | Purpose"
    kinds, authors = counts(rows)
    assert kinds == {"insertion": 7, "deletion": 5, "move": 1, "formatting": 6, "paragraph": 33, "table": 4}
    assert authors == {"Author": 56}


def test_every_row_of_ra001_resolves_all_it_stands_for_and_the_file_reopens(tmp_path):
    _reviewer, rows = rows_of(RA001)
    out = tmp_path / "resolved.docx"
    for row in rows[::4] + [r for r in rows if r.kind in ("move", "table")]:
        for accept in (True, False):
            reviewer = DocxReviewer.open(RA001)
            (reviewer.accept_changes if accept else reviewer.reject_changes)(row.ids)
            assert not set(row.ids) & {c.id for c in reviewer.get_changes()}, (row.title, accept)
            reviewer.save(out)
            # at least the row's marks are gone (a paragraph rejected away takes its other marks too)
            assert len(DocxReviewer.open(out).get_changes()) <= 215 - len(row.changes)
            python_docx.Document(str(out))


def test_a_move_without_clause_numbers_and_its_text():
    _reviewer, rows = rows_of(MOVE)
    [row] = rows
    assert (row.kind, row.title, row.text, row.author) == ("move", "Moved", "Here is the text to be moved.",
                                                         "Jesse Rosenthal")
    # unnumbered paragraphs, wholly moved: each end is placed by the paragraph before it
    assert row.detail == "From the paragraph after “Here is some more text.” to the paragraph after “Here is some text.”"


def test_formatting_changes_say_what_changed_and_adjacent_ones_join():
    _reviewer, rows = rows_of(RPR)
    formatted = [r for r in rows if r.kind == "formatting"]
    assert [r.title for r in formatted] == ["Formatted: language"] * 5
    assert formatted[0].text == "Typing some" and len(formatted[0].ids) == 3


def test_runs_inserted_one_by_one_read_as_one_insertion():
    _reviewer, rows = rows_of(ARABIC)
    assert len(rows) == 87  # of 571 census entries
    first = rows[0]
    assert (first.title, first.text, first.ids) == ("Deleted", "417\xa0(WRC", [0, 1])
    # a paragraph inserted run by run (a no-break hyphen in it) is still one inserted paragraph
    whole = next(r for r in rows if 75 in r.ids)
    assert whole.title == "Inserted paragraph" and len(whole.ids) == 10


def test_clause_numbers_from_display_labels():
    assert [clause_number(x) for x in ("4.2", "4.2.", "1.", "(a)", "iii)", "6)", "a.", "Article 3", "2.3.8.1.")] == \
        ["4.2", "4.2", "1", "(a)", "iii", "6", "a", "Article 3", "2.3.8.1"]
    assert [clause_number(x) for x in ("Heading5", "•", "", None, "a", "iv", "Schedule of Terms 1")] == [None] * 7
    assert quote("  shall\n  not  ") == "“shall not”"
    assert quote("word " * 30).endswith("…”") and len(quote("word " * 30)) <= 64


@pytest.fixture(scope="module")
def pilot_pair(tmp_path_factory):
    """The pilot agreement and a later version (pilot_versions.py)."""
    return write_pilot_pair(tmp_path_factory.mktemp("pair"))


def test_differences_are_sentences_with_clause_numbers(pilot_pair):
    redline, _diff, _result = build_redline(*pilot_pair, "Comparison")
    rows = difference_rows(redline.get_changes(), Places(redline))
    assert [r.title for r in rows] == [
        "Clause 2.2: “immediately:” replaced by “at once:”",
        "Moved: “Force Majeure. Neither party will be liable for a delay or…” from clause 7.11 to clause c",
        "New clause 3.2: “Each party will comply with all Applicable Laws in…”",
        "Clause 5.1: “total cumulative” replaced by “aggregate”",
        "Deleted: clause 5.3 “Applicability. The limitations and waivers contained in…”",
    ]
    assert [r.kind for r in rows] == ["modified", "move", "insertion", "modified", "deletion"]
    changed = rows[0]
    assert changed.text.startswith("Termination.  Either party may terminate the Agreement at once:")
    assert changed.detail.startswith("Was: Termination.  Either party may terminate the Agreement immediately:")
    # each row resolves all its changes; every census entry is in one row
    assert sorted(i for r in rows for i in r.ids) == sorted(c.id for c in redline.get_changes())


def test_the_rows_are_worded_without_qt():
    import subprocess
    import sys

    code = ("import sys, folio_desktop.ui.panels.change_rows; "
            "assert not any(m.startswith('PySide6') for m in sys.modules), 'Qt was imported'")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
