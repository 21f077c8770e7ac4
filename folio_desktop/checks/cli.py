"""`folio-desktop check FILE [--json]`: the findings grouped by kind, in document order, in plain words."""

from __future__ import annotations

import argparse
import json
import sys

from .engine import check_document
from .findings import KINDS

_TITLES = {
    "undefinedTerm": "Terms used but never defined", "unusedDefinition": "Definitions never used",
    "duplicateDefinition": "Terms defined twice", "inconsistentTerm": "Defined terms written another way",
    "brokenCrossReference": "Cross-references to clauses that do not exist", "placeholder": "Blanks and placeholders",
    "numberingGap": "Gaps in the numbering", "duplicateNumber": "Numbers used twice",
    "manualNumber": "Numbers typed by hand in automatic lists", "partyName": "Parties called by a name never given",
}


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="folio-desktop check", description=(
        "Check a contract before it goes out: defined terms, cross-references, placeholders, numbering and "
        "party names, on the text as it reads once the pending tracked changes are accepted."))
    parser.add_argument("file")
    parser.add_argument("--json", action="store_true",
                        help='print {"findings": [{"kind", "text", "blockId", "displayLabel", "story", "message", '
                             '"pendingChange"}, ...], "counts": {kind: n}}')
    args = parser.parse_args(argv)
    from ..docx import DocxError, DocxReviewer

    try:
        reviewer = DocxReviewer.open(args.file)
    except (DocxError, OSError) as exc:
        print(f"folio-desktop check: cannot read {args.file}: {exc}", file=sys.stderr)
        return 1
    report = check_document(reviewer)
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=1))
        return 0
    print(_as_text(args.file, report))
    return 0


def _as_text(path: str, report: dict) -> str:
    findings = report["findings"]
    if not findings:
        return f"{path}: nothing found."
    lines = [f"{path}: {len(findings)} finding(s)"]
    for kind in KINDS:
        of_kind = [f for f in findings if f["kind"] == kind]
        if not of_kind:
            continue
        lines.append(f"\n{_TITLES[kind]} ({len(of_kind)})")
        for f in of_kind:
            where = f["displayLabel"] or f"paragraph {f['blockId']}"
            if f["story"] != "main":
                where += f" ({f['story'].replace(':', ' ')})"
            pending = " [a pending tracked change is involved]" if f["pendingChange"] else ""
            lines.append(f"  {where}: {f['message']}{pending}")
    return "\n".join(lines)
