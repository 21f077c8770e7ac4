"""Two versions of the Common Paper pilot agreement, for the compare tests: the later one changes
a word in 2.2 and in 5.1, adds a clause after 3.1, deletes 5.3 and moves 7.11 (Force Majeure)
under 2.4."""

from __future__ import annotations

from pathlib import Path

from conftest import CORPUS

from folio_desktop.docx import DocxReviewer

PILOT = CORPUS / "contract_commonpaper_pilot_agreement.docx"
FORCE_MAJEURE = "2B40068A"


def write_pilot_pair(folder: Path) -> tuple[Path, Path]:
    """(base, revised) written into folder."""
    base, revised = folder / "pilot v1.docx", folder / "pilot v2.docx"
    base.write_bytes(PILOT.read_bytes())
    reviewer = DocxReviewer.open(PILOT)
    force_majeure = reviewer.snapshot().block(FORCE_MAJEURE).text
    result = reviewer.apply_document_operations({"version": 1, "mode": "direct", "operations": [
        {"type": "replaceInBlock", "blockId": "2490E3DE", "find": "immediately", "replace": "at once"},
        {"type": "replaceInBlock", "blockId": "2780E4B6", "find": "total cumulative", "replace": "aggregate"},
        {"type": "insertAfterBlock", "blockId": "3B3CEE90",
         "text": "Each party will comply with all Applicable Laws in performing this Agreement."},
        {"type": "deleteBlock", "blockId": "495703C8"},
        {"type": "deleteBlock", "blockId": FORCE_MAJEURE},
        {"type": "insertAfterBlock", "blockId": "197F919C", "text": force_majeure},
    ]})
    assert len(result["applied"]) == 6, result
    reviewer.save(revised)
    return base, revised
