"""Build resources/sample_contract.docx: the short contract the app opens when given no file.

Our own text (no third-party contract), with what a reviewer meets in practice: numbered clauses
through heading styles, a definitions list, a signature table, one pending tracked replacement by the
counterparty and one open comment.

    python scripts/make_sample_contract.py [OUT]
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import docx
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls, qn

OUT = Path(__file__).resolve().parent.parent / "resources" / "sample_contract.docx"

CLAUSES = [
    ("Definitions", [
        "“Confidential Information” means any information disclosed by one party (the “Discloser”) to the "
        "other (the “Recipient”) that is marked confidential or would reasonably be understood to be confidential.",
        "“Purpose” means evaluating a possible supply relationship between the parties.",
    ]),
    ("Obligations of the Recipient", [
        "The Recipient shall use Confidential Information only for the Purpose and shall protect it with at "
        "least the care it uses for its own confidential information, and never less than reasonable care.",
        "The Recipient may disclose Confidential Information to its employees and advisers who need to know it "
        "for the Purpose and are bound by duties of confidentiality no less protective than this Agreement.",
    ]),
    ("Exclusions", [
        "These obligations do not apply to information that is or becomes public through no fault of the "
        "Recipient, that the Recipient already knew, or that it develops independently.",
    ]),
    ("Term and Return", [
        "This Agreement lasts for three (3) years from the Effective Date. On request the Recipient shall "
        "promptly return or destroy all Confidential Information.",
    ]),
    ("Liability", [
        "Neither party is liable for indirect or consequential loss. Each party’s total liability under this "
        "Agreement is limited to fifty thousand euros (EUR 50,000).",
    ]),
    ("Governing Law", [
        "This Agreement is governed by the laws of Ireland, and the courts of Dublin have exclusive jurisdiction.",
    ]),
]

NUMBERING = f"""<w:abstractNum {nsdecls('w')} w:abstractNumId="90">
  <w:multiLevelType w:val="multilevel"/>
  <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:pStyle w:val="Heading1"/>
    <w:lvlText w:val="%1."/><w:lvlJc w:val="left"/><w:pPr><w:ind w:left="567" w:hanging="567"/></w:pPr></w:lvl>
  <w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:pStyle w:val="Heading2"/>
    <w:lvlText w:val="%1.%2"/><w:lvlJc w:val="left"/><w:pPr><w:ind w:left="567" w:hanging="567"/></w:pPr></w:lvl>
</w:abstractNum>"""


def build(out: Path) -> None:
    document = docx.Document()
    document.core_properties.title = "Mutual Non-Disclosure Agreement"
    document.core_properties.author = "folio-desktop"
    numbering = document.part.numbering_part.element
    numbering.insert(0, parse_xml(NUMBERING))
    numbering.append(parse_xml(f'<w:num {nsdecls("w")} w:numId="90"><w:abstractNumId w:val="90"/></w:num>'))
    for name, ilvl in (("Heading 1", 0), ("Heading 2", 1)):
        ppr = document.styles[name].element.get_or_add_pPr()
        ppr.append(parse_xml(f'<w:numPr {nsdecls("w")}><w:ilvl w:val="{ilvl}"/><w:numId w:val="90"/></w:numPr>'))
    # clause bodies are numbered at level 2 of the same list, as in most contracts
    body_style = document.styles.add_style("Clause Text", docx.enum.style.WD_STYLE_TYPE.PARAGRAPH)
    body_style.base_style = document.styles["Normal"]
    body_style.element.get_or_add_pPr().append(
        parse_xml(f'<w:numPr {nsdecls("w")}><w:ilvl w:val="1"/><w:numId w:val="90"/></w:numPr>'))

    document.add_paragraph("Mutual Non-Disclosure Agreement", style="Title")
    document.add_paragraph(
        "This Agreement is made on 1 March 2026 (the “Effective Date”) between Northwind Components Ltd "
        "(“Northwind”) and Harbour Analytics B.V. (“Harbour”).")
    liability = None
    for heading, paragraphs in CLAUSES:
        document.add_paragraph(heading, style="Heading 1")
        for text in paragraphs:
            para = document.add_paragraph(text, style="Clause Text")
            if heading == "Liability":
                liability = para
    table = document.add_table(rows=3, cols=2)
    table.style = "Table Grid"
    for row, (left, right) in zip(table.rows, (("Northwind Components Ltd", "Harbour Analytics B.V."),
                                                ("Name:", "Name:"), ("Title:", "Title:"))):
        row.cells[0].text, row.cells[1].text = left, right

    # a pending tracked replacement by the counterparty: "fifty thousand" -> "one hundred thousand"
    run = liability.runs[0]
    text = run.text
    before, after = text.split("fifty thousand euros (EUR 50,000)")
    run.text = before
    stamp = 'w:author="Harbour Legal" w:date="2026-03-02T09:00:00Z"'
    liability._p.append(parse_xml(
        f'<w:del {nsdecls("w")} w:id="901" {stamp}><w:r><w:delText>fifty thousand euros (EUR 50,000)</w:delText></w:r></w:del>'))
    liability._p.append(parse_xml(
        f'<w:ins {nsdecls("w")} w:id="902" {stamp}><w:r><w:t>one hundred thousand euros (EUR 100,000)</w:t></w:r></w:ins>'))
    tail = copy.deepcopy(run._r)
    tail.find(qn("w:t")).text = after
    liability._p.append(tail)

    # a comment thread on the governing-law clause
    law = [p for p in document.paragraphs if p.text.startswith("This Agreement is governed")][0]
    document.add_comment(law.runs, text="Can we agree on the Netherlands instead?",
                         author="Harbour Legal", initials="HL")
    document.save(out)


if __name__ == "__main__":
    build(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT)
    print(f"wrote {sys.argv[1] if len(sys.argv) > 1 else OUT}")
