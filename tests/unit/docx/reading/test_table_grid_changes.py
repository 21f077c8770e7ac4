"""Table grid revisions (w:tblGridChange) in the change census (issue 15): part of their table's
property change, and nothing at all when they record the grid the table already has (Google Docs
writes one per table, id 0, no author)."""

from conftest import CORPUS
from docbuilder import build_docx

from folio_desktop.docx import DocxReviewer


def table(tblpr: str, grid: str, old_grid: str | None) -> str:
    change = f'<w:tblGridChange w:id="7">{old_grid}</w:tblGridChange>' if old_grid is not None else ""
    cell = '<w:tc><w:tcPr><w:tcW w:w="{}" w:type="dxa"/></w:tcPr><w:p><w:r><w:t>cell</w:t></w:r></w:p></w:tc>'
    return (f"<w:tbl><w:tblPr>{tblpr}</w:tblPr><w:tblGrid>{grid}{change}</w:tblGrid>"
            f"<w:tr>{cell.format(3000)}{cell.format(6000)}</w:tr></w:tbl><w:p/>")


GRID = '<w:gridCol w:w="3000"/><w:gridCol w:w="6000"/>'
OLD = '<w:tblGrid><w:gridCol w:w="4500"/><w:gridCol w:w="4500"/></w:tblGrid>'
PR_CHANGE = ('<w:tblW w:w="9000" w:type="dxa"/><w:tblPrChange w:id="6" w:author="Ana" w:date="2024-01-01T00:00:00Z">'
             '<w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr></w:tblPrChange>')


def table_changes(body: str) -> list:
    rev = DocxReviewer.from_bytes(build_docx(body))
    return [(c.id, c.type, c.author) for c in rev.get_changes() if c.type == "tablePropertiesChanged"]


def test_a_google_docs_export_has_no_table_changes_to_review():
    rev = DocxReviewer.open(CORPUS / "contract_commonpaper_csa_with_ai_gdocs.docx")
    assert [c for c in rev.get_changes() if c.type == "tablePropertiesChanged"] == []


def test_a_grid_revision_recording_the_same_grid_is_not_a_change():
    assert table_changes(table("", GRID, f"<w:tblGrid>{GRID}</w:tblGrid>")) == []


def test_a_grid_revision_beside_a_table_property_change_is_one_change():
    assert table_changes(table(PR_CHANGE, GRID, OLD)) == [(6, "tablePropertiesChanged", "Ana")]


def test_a_grid_revision_of_its_own_that_changes_the_columns_is_reported():
    assert table_changes(table("", GRID, OLD)) == [(7, "tablePropertiesChanged", "")]
