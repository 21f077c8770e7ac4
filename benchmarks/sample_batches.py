"""Sample document-operation batches on real corpus contracts, shared by the benchmark scripts.

Not a script of its own; ``benchmarks/libreoffice_roundtrip.py`` and ``benchmarks/apply_ops.py``
import it.  To check every batch applies with nothing skipped, run from the project root::

    python benchmarks/sample_batches.py

* ``open_for(op_type)`` opens the Common Paper pilot agreement (body clauses plus two tables)
  ready for one operation type; ``batch_for(rev, op_type, mode)`` builds the one-operation batch
  for it.  splitTableCell needs a vertically merged cell and no corpus contract has one, so
  ``open_for("splitTableCell")`` first merges three empty signature-table cells in direct mode.
* ``mixed_batch(rev)`` builds 50 operations on disjoint blocks of the 75-page ILPA model LPA.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from folio_desktop.docx import DocxReviewer  # noqa: E402
from folio_desktop.docx.editing.contract import OPERATION_TYPES  # noqa: E402
from folio_desktop.docx.model.textkit import index_to_utf16, text_hash  # noqa: E402

CORPUS = ROOT / ".." / "shared" / "corpus"
PILOT = CORPUS / "contract_commonpaper_pilot_agreement.docx"
ILPA = CORPUS / "contract_ilpa_model_lpa_whole_of_fund_75p.docx"


# -- helpers -------------------------------------------------------------------------------------


def block(rev: DocxReviewer, prefix: str):
    """The one block whose text starts with prefix."""
    found = [b for b in rev.snapshot().blocks if b.text.startswith(prefix)]
    if len(found) != 1:
        raise LookupError(f"{len(found)} blocks start with {prefix!r}")
    return found[0]


def cell(rev: DocxReviewer, table: int, row: int, col: int, paragraph: int = 0):
    """The block at one table position (table_index, row, grid column, paragraph in the cell)."""
    for b in rev.snapshot().blocks:
        t = b.table
        if t and (t.table_index, t.row_index, t.grid_column_index, t.paragraph_index) == (table, row, col, paragraph):
            return b
    raise LookupError(f"no cell block at table {table} row {row} column {col}")


def text_range(b, phrase: str, occurrence: int = 0) -> dict:
    """A textRange over the occurrence-th copy of phrase in block b (UTF-16 offsets)."""
    start = -1
    for _ in range(occurrence + 1):
        start = b.text.index(phrase, start + 1)
    a, z = index_to_utf16(b.text, start), index_to_utf16(b.text, start + len(phrase))
    return {"type": "textRange", "story": "main", "blockId": b.id, "startOffset": a, "endOffset": z,
            "selectedTextHash": text_hash(phrase)}


def batch(operations: list[dict], mode: str = "tracked-changes") -> dict:
    return {"version": 1, "mode": mode, "operations": operations}


# -- one batch per operation type (pilot agreement) -----------------------------------------------------

TABLE_ORDER_FORM, TABLE_SIGNATURES = 0, 1  # the pilot's table indexes


def _operation(rev: DocxReviewer, t: str) -> dict:
    if t == "replaceInBlock":
        return {"blockId": block(rev, "Access and Use.").id, "find": "solely for Customer’s Evaluation Purposes",
                "replace": "only for Customer’s internal evaluation", "comment": {"text": "Narrowed the purpose."}}
    if t == "replaceRange":
        return {"range": text_range(block(rev, "Taxes."), "all duties, taxes, and levies"), "replace": "all taxes"}
    if t == "commentOnRange":
        return {"range": text_range(block(rev, "Customer Content."), "Customer Content", 1),
                "comment": {"text": "Is Customer Content defined broadly enough?"}}
    if t == "formatRange":
        return {"range": text_range(block(rev, "Force Majeure."), "Force Majeure Event"),
                "formatting": {"bold": True, "underline": True}}
    if t == "insertAfterBlock":
        return {"blockId": block(rev, "for any or no reason following 30 days").id,
                "text": "automatically if Customer fails to pay any Fees when due."}
    if t == "insertBeforeBlock":
        return {"blockId": block(rev, "Agreement.  The Agreement will start").id,
                "text": "Pilot Period.  The Pilot Period lasts 90 days unless extended in writing."}
    if t == "replaceBlock":
        return {"blockId": block(rev, '"Fees" means').id,
                "text": '"Fees" means the amounts stated in the Order Form, exclusive of taxes.'}
    if t == "deleteBlock":
        return {"blockId": block(rev, "“Product” means the product").id}
    if t == "splitBlock":
        b = block(rev, "User Accounts.")
        return {"blockId": b.id, "offset": index_to_utf16(b.text, b.text.index("Customer and Users must"))}
    if t == "mergeBlockWithNext":
        return {"blockId": block(rev, "if the other party fails to cure").id, "separator": " "}
    if t == "setBlockParagraphProperties":
        return {"blockId": block(rev, "Provider makes no guarantees").id,
                "properties": {"alignment": "center", "spacing": {"spaceAfter": 240}}}
    if t == "insertTable":
        return {"blockId": block(rev, "Provider and Customer have not changed").id,
                "rows": [["Milestone", "Date"], ["Pilot start", "{effective_date}\nor the date of last signature"],
                         ["Pilot end", "{end_date}"]]}
    if t == "deleteTable":
        return {"blockId": block(rev, "PROVIDER: {company_name}").id}
    if t == "commentOnBlock":
        return {"blockId": block(rev, "Entire Agreement.").id,
                "quote": "supersedes all prior or contemporaneous statements", "comment": {"text": "Too broad?"}}
    if t == "insertSignatureTable":
        return {"blockId": block(rev, "Signature.  This Agreement may be signed").id,
                "parties": [{"name": "Provider", "signatory": "Jane Doe", "title": "CEO"},
                            {"name": "Customer", "signatory": "John Roe", "title": "CTO"}]}
    if t == "insertTableRow":
        return {"blockId": cell(rev, TABLE_ORDER_FORM, 7, 1).id,  # Governing Law row
                "cellTexts": ["Venue", "The state and federal courts of {venue}"]}
    if t == "deleteTableRow":
        return {"blockId": cell(rev, TABLE_ORDER_FORM, 12, 0).id}  # Technical Support row
    if t == "insertTableColumn":
        return {"blockId": cell(rev, TABLE_SIGNATURES, 0, 3).id,
                "cellTexts": ["GUARANTOR: {guarantor_name}", "", "{guarantor_signatory_name}"]}
    if t == "deleteTableColumn":
        return {"blockId": cell(rev, TABLE_SIGNATURES, 0, 3).id}  # the CUSTOMER column
    if t == "mergeTableCells":
        return {"blockId": cell(rev, TABLE_SIGNATURES, 0, 2).id, "rowCount": 2}  # empty spacer column
    if t == "splitTableCell":
        return {"blockId": cell(rev, TABLE_SIGNATURES, 1, 2).id}  # merged by _SETUP
    raise ValueError(f"unknown operation type {t!r}")


# Preparation applied (direct mode) before the measured batch, for types the pilot cannot show as is.
_SETUP = {
    "splitTableCell": lambda rev: [{"type": "mergeTableCells", "blockId": cell(rev, TABLE_SIGNATURES, 1, 2).id,
                                    "rowCount": 3}],
}


def open_for(op_type: str, path: Path = PILOT) -> DocxReviewer:
    """A fresh reviewer on the pilot agreement, prepared for op_type."""
    rev = DocxReviewer.open(path)
    if op_type in _SETUP:
        res = rev.apply_document_operations(batch(_SETUP[op_type](rev), mode="direct"))
        if res["skipped"]:
            raise RuntimeError(f"setup for {op_type} was skipped: {res['skipped']}")
    return rev


def batch_for(rev: DocxReviewer, op_type: str, mode: str = "tracked-changes") -> dict:
    return batch([{"id": f"{op_type}-1", "type": op_type, **_operation(rev, op_type)}], mode)


# -- the 50-operation mixed batch (ILPA model LPA) --------------------------------------------------------

_WORD = re.compile(r"[A-Za-z]{7,}")
_COUNTS = {"replaceInBlock": 22, "replaceRange": 8, "insertAfterBlock": 3, "insertBeforeBlock": 2, "deleteBlock": 3,
           "commentOnRange": 3, "commentOnBlock": 1, "formatRange": 2, "setBlockParagraphProperties": 2}
# 46 paragraph operations (+ 4 table row operations = 50), each type spread evenly through the document
MIX = [t for _, t in sorted(((j + 0.5) / n, t) for t, n in _COUNTS.items() for j in range(n))]


def _unique_word(text: str) -> str | None:
    """A word of 7+ letters that occurs exactly once in text (also not inside a longer word)."""
    for m in _WORD.finditer(text):
        if text.count(m.group()) == 1:
            return m.group()
    return None


def mixed_batch(rev: DocxReviewer, mode: str = "tracked-changes") -> dict:
    """50 operations on 50 different blocks spread evenly through the ILPA body."""
    blocks = rev.snapshot().blocks
    candidates = [b for b in blocks if b.table is None and len(b.text) >= 80 and "[^" not in b.text
                  and not (b.style_id or "").startswith("TOC") and _unique_word(b.text)]
    step = len(candidates) / len(MIX)
    ops = []
    for k, t in enumerate(MIX):
        b = candidates[int(k * step)]
        word = _unique_word(b.text)
        op: dict = {"id": f"mix-{k + 1:02d}-{t}", "type": t}
        if t == "replaceInBlock":
            op.update(blockId=b.id, find=word, replace=word.lower() if word[0].isupper() else word.capitalize())
        elif t == "replaceRange":
            op.update(range=text_range(b, word), replace=f"the {word.lower()}")
        elif t in ("insertAfterBlock", "insertBeforeBlock"):
            op.update(blockId=b.id, text=f"Reviewer insertion {k + 1}: the parties confirm this provision.")
        elif t == "deleteBlock":
            op.update(blockId=b.id)
        elif t == "commentOnRange":
            op.update(range=text_range(b, word), comment={"text": f"Reviewer note {k + 1} on “{word}”."})
        elif t == "commentOnBlock":
            op.update(blockId=b.id, comment={"text": "Check this clause against the side letter."})
        elif t == "formatRange":
            op.update(range=text_range(b, word), formatting={"bold": True})
        elif t == "setBlockParagraphProperties":
            op.update(blockId=b.id, properties={"alignment": "both", "spacing": {"spaceAfter": 120}})
        ops.append(op)
    # Table row operations: Schedule 1 (partners and commitments) and the signature table.
    schedule = next(b.table.table_index for b in blocks if b.table and b.text == "Limited Partners")
    signatures = next(b.table.table_index for b in blocks if b.text == "FUND MANAGER")
    ops += [
        {"id": "mix-47-insertTableRow", "type": "insertTableRow", "blockId": cell(rev, schedule, 1, 0).id,
         "cellTexts": ["Example LP", "$10,000,000", "1 Main Street"]},
        {"id": "mix-48-deleteTableRow", "type": "deleteTableRow", "blockId": cell(rev, schedule, 6, 0).id},
        {"id": "mix-49-insertTableRow", "type": "insertTableRow", "blockId": cell(rev, schedule, 8, 0).id,
         "position": "before", "cellTexts": ["Feeder LP", "$5,000,000"]},
        {"id": "mix-50-insertTableRow", "type": "insertTableRow", "blockId": cell(rev, signatures, 1, 0).id},
    ]
    return batch(ops, mode)


# -- self-check ------------------------------------------------------------------------------------------


def main() -> int:
    failures = 0
    for t in OPERATION_TYPES:
        mode = "direct" if t == "insertSignatureTable" else "tracked-changes"
        rev = open_for(t)
        res = rev.apply_document_operations(batch_for(rev, t, mode))
        ok = len(res["applied"]) == 1 and not res["skipped"]
        failures += not ok
        print(f"{t:<28} {mode:<16} {'applied' if ok else res['skipped']}")
    rev = DocxReviewer.open(ILPA)
    b = mixed_batch(rev)
    res = rev.apply_document_operations(b)
    targets = {op.get("blockId") or op["range"]["blockId"] for op in b["operations"]}
    ok = len(b["operations"]) == len(targets) == len(res["applied"]) == 50 and not res["skipped"]
    failures += not ok
    print(f"ILPA mixed batch: {len(b['operations'])} operations, {len(res['applied'])} applied, "
          f"skipped {res['skipped']}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
