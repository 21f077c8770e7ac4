"""A short services agreement built in code with one defect of three kinds planted in numbered clauses, for
the tests of the contract checks' surfaces (the Checks panel, the check_document tool):

    clause 2  "[DATE]"           a placeholder
    clause 3  "Service Credits"  a term used in clauses 3 and 4 and defined nowhere
    clause 3  "Section 9"        a reference to a clause that does not exist
"""

from __future__ import annotations

from docbuilder import build_docx, p

NUMBERING = ('<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/>'
             '<w:lvlText w:val="%1."/></w:lvl></w:abstractNum><w:num w:numId="3"><w:abstractNumId w:val="0"/></w:num>')
NUMBERED = '<w:numPr><w:ilvl w:val="0"/><w:numId w:val="3"/></w:numPr>'
PLACEHOLDER_BLOCK = "10000004"  # clause 2: "... from [DATE]."
TERM_BLOCK = "10000005"  # clause 3: "Service Credits" first used, and "Section 9"
PLACEHOLDER_TEXT = "The Supplier shall provide the Services to the Customer from [DATE]."


def planted_contract() -> bytes:
    return build_docx("".join([
        p("SERVICES AGREEMENT", "10000001"),
        p('This Agreement is made between Acme Limited (the "Supplier") and Beta Inc (the "Customer").', "10000002"),
        p('"Services" means the services described in Schedule 1.', "10000003", NUMBERED),
        p(PLACEHOLDER_TEXT, PLACEHOLDER_BLOCK, NUMBERED),
        p("The Customer shall pay the Service Credits as set out in Section 9.", TERM_BLOCK, NUMBERED),
        p("The Customer may set off any Service Credits against the charges.", "10000006", NUMBERED),
        p("The Customer may terminate this Agreement on notice.", "10000007", NUMBERED),
    ]), numbering=NUMBERING)
