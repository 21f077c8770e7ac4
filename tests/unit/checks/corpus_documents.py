"""The five corpus contracts whose findings were verified by hand (tests/data/checks/<name>.json), how to
open each, and their text with clause labels for checking a finding by reading:

    python tests/unit/checks/corpus_documents.py ilpa   # blockId, story, clause number, text
"""

from __future__ import annotations

import sys
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[3] / ".." / "shared" / "corpus"
_ILPA_V1 = CORPUS / "wild" / "UseJunior+safe-docx" / "tests" / "test_documents" / "redline" / \
    "ILPA-Model-Limited-Parnership-Agreement-Deal-By-Deal_v1.docx"
FILES = {
    "ilpa": CORPUS / "contract_ilpa_model_lpa_whole_of_fund_75p.docx",
    "nvca": CORPUS / "contract_nvca_stock_purchase_agreement_27p.docx",
    "pilot": CORPUS / "contract_commonpaper_pilot_agreement.docx",
    "msdn_eula": CORPUS / "contract_msdn_eula_legal_numbering.docx",
}
NAMES = (*FILES, "ilpa_redline")


def open_document(name: str):
    """A DocxReviewer on the document; "ilpa_redline" is the Word redline of the deal-by-deal ILPA model
    (the earlier version) against the whole-of-fund one, every difference a pending tracked change."""
    from folio_desktop.docx import DocxReviewer

    if name != "ilpa_redline":
        return DocxReviewer.open(FILES[name])
    from folio_desktop.agents.versions.redline import generate_redline_docx

    buffer = generate_redline_docx(_ILPA_V1.read_bytes(), FILES["ilpa"].read_bytes(), author="Counsel")["buffer"]
    return DocxReviewer.from_bytes(buffer)


def main(name: str) -> None:
    from folio_desktop.checks.view import read_units

    for u in read_units(open_document(name)):
        print(f"{u.block_id}\t{u.story}\t{u.shown_label or ''}\t{u.text}")


if __name__ == "__main__":
    main(sys.argv[1])
