"""CompareWindow (folio_desktop/ui/compare_window.py): File > Compare opens the redline of two
versions as pages, with the diff summary beside it, and saves it."""

from __future__ import annotations

import pytest
from conftest import CORPUS
from docbuilder import build_docx, p

from folio_desktop.agents.compare import open_view
from folio_desktop.agents.redline import story_texts
from folio_desktop.docx import DocxReviewer
from folio_desktop.docx.errors import DocxError
from folio_desktop.ui.compare_window import CompareWindow

EIGENPAL = CORPUS / "eigenpal_docxjs_editor_demo.docx"


@pytest.fixture
def versions(tmp_path):
    """The eigenpal demo before (all changes rejected) and after (all accepted) its redlines."""
    data = EIGENPAL.read_bytes()
    base, revised = tmp_path / "charter v1.docx", tmp_path / "charter v2.docx"
    base.write_bytes(open_view(data, "original").to_bytes())
    revised.write_bytes(open_view(data, "final").to_bytes())
    return base, revised


def accepted(rev: DocxReviewer, accept: bool) -> dict:
    copy = DocxReviewer.from_bytes(rev.to_bytes())
    copy.accept_all() if accept else copy.reject_all()
    return story_texts(copy)


def test_the_redline_turns_base_into_revised(qtbot, versions):
    base, revised = versions
    window = CompareWindow(base, revised, author="Jane Lawyer")
    qtbot.addWidget(window)
    changes = window.reviewer.get_changes()
    assert {c.author for c in changes} == {"Jane Lawyer"}
    assert {c.type for c in changes} == {"insertion", "deletion"}
    texts = {(c.type, c.text) for c in changes}
    assert ("deletion", "zero") in texts and ("insertion", "no") in texts
    assert accepted(window.reviewer, True) == story_texts(DocxReviewer.open(revised))
    assert accepted(window.reviewer, False) == story_texts(DocxReviewer.open(base))

    window.show()
    layout = window.view.finish_layout()
    assert window.view.reviewer is window.reviewer and layout.page_count == len(window.view.pages) >= 3
    assert any(s.kind == "inserted" for page in layout.pages for f in page.body_fragments() for s in f.para.spans)
    assert window.windowTitle() == "Compare: charter v1.docx → charter v2.docx"


def test_the_summary_counts_blocks_and_lists_the_diff(qtbot, versions):
    window = CompareWindow(*versions)
    qtbot.addWidget(window)
    text = window.summary.toPlainText()
    assert window.summary.isReadOnly() and window.summary_dock.widget() is window.summary
    assert "Base: charter v1.docx\nRevised: charter v2.docx" in text
    assert "Inserted blocks: 0\nDeleted blocks: 0\nChanged blocks: 3\n" in text
    assert "Version diff: 0 added, 0 deleted, 3 modified" in text
    assert "[-zero-]{+no+} backend required" in text
    assert {c.author for c in window.reviewer.get_changes()} == {"Comparison"}


def test_added_and_deleted_paragraphs(qtbot, tmp_path):
    base, revised = tmp_path / "a.docx", tmp_path / "b.docx"
    base.write_bytes(build_docx(p("Term: one year.", "10000001") + p("Old clause goes.", "10000002")
                                + p("Signatures.", "10000003")))
    revised.write_bytes(build_docx(p("Term: two years.", "10000001") + p("Signatures.", "10000003")
                                   + p("A new schedule.", "20000001")))
    window = CompareWindow(base, revised)
    qtbot.addWidget(window)
    assert "Inserted blocks: 1\nDeleted blocks: 1\nChanged blocks: 1\n" in window.summary.toPlainText()
    assert "+ [20000001] added: A new schedule." in window.summary.toPlainText()
    assert accepted(window.reviewer, True)["main"] == ["Term: two years.", "Signatures.", "A new schedule."]
    assert accepted(window.reviewer, False)["main"] == ["Term: one year.", "Old clause goes.", "Signatures."]


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
