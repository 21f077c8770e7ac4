"""Definitions written without quotes: a definitions clause that sets each term in bold at the start of its
paragraph ("Affiliate means ..."), as many firms' precedents do, defines those terms."""

from __future__ import annotations

from docbuilder import build_docx, p

from folio_desktop.checks import check_document
from folio_desktop.docx import DocxReviewer


def bold_lead(term: str, rest: str) -> str:
    return (f'<w:p><w:r><w:rPr><w:b/></w:rPr><w:t>{term}</w:t></w:r>'
            f'<w:r><w:t xml:space="preserve">{rest}</w:t></w:r></w:p>')


def kinds_of(data: bytes, text: str) -> list[str]:
    report = check_document(DocxReviewer.from_bytes(data))
    return [f["kind"] for f in report["findings"] if f["text"] == text]


def test_bold_terms_in_a_definitions_clause_are_definitions():
    data = build_docx(
        p("1. Definitions")
        + bold_lead("Affiliate", " means any person that controls, or is controlled by, a party.")
        + bold_lead("Service Credit", ": the credit set out in the Service Level Schedule.")
        + bold_lead("Business Day", " has the meaning given in the Order Form.")
        + p("2. Services")
        + p("The Supplier and each Affiliate shall perform the Services on each Business Day.")
        + p("The Customer and its Affiliates may claim a Service Credit for each failure."))
    assert kinds_of(data, "Affiliate") == []  # defined, and used (its plural counts)
    assert kinds_of(data, "Service Credit") == []
    assert kinds_of(data, "Business Day") == []


def test_a_bold_term_never_used_is_an_unused_definition_and_plain_text_defines_nothing():
    data = build_docx(
        bold_lead("Intellectual Property Rights", " means patents, copyright and every similar right.")
        + p("Customer Data means the data the customer uploads.")  # not bold: no definition
        + p("The Supplier shall protect Customer Data and keep Customer Data confidential."))
    assert kinds_of(data, "Intellectual Property Rights") == ["unusedDefinition"]
    assert "undefinedTerm" in kinds_of(data, "Customer Data")


def test_a_bold_label_in_capitals_over_a_signature_line_defines_nothing():
    data = build_docx(
        bold_lead("PROVIDER", ":") + bold_lead("Name", ": ______")
        + p("The Provider shall deliver the goods and the Provider shall invoice them."))
    assert kinds_of(data, "PROVIDER") == [] and kinds_of(data, "Provider") == []
