"""`folio-desktop check FILE [--json]`: the findings grouped by kind, in document order, in plain words."""

from __future__ import annotations

import argparse
import json
import sys

from .engine import check_document
from .findings import KIND_TITLES, KINDS


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
    text = json.dumps(report, ensure_ascii=False, indent=1) if args.json else _as_text(args.file, report,
                                                                                         _places(reviewer))
    try:
        print(text)
    except BrokenPipeError:  # `folio-desktop check FILE | head`: the reader has all it wanted
        sys.stderr.close()
    return 0


def _places(reviewer) -> dict[str, str]:
    """Block id -> where a reader finds it: its clause number, else "after 4.2" (the last number before
    it in its story), else its first words; a header, footer or note says which."""
    out: dict[str, str] = {}
    doc = reviewer.document
    for story in doc.stories():
        last = None
        kind = "" if story.type == "main" else f" ({story.type}{' ' + str(story.note_id) if story.note_id else ''})"
        for block in doc.snapshot_story(story).blocks:
            label = (block.display_label or "").strip()
            if label and label != block.style_id and any(ch.isalnum() for ch in label):
                last = out[block.id] = label
            elif last:
                out[block.id] = f"after {last}"
            else:
                words = " ".join(block.text.split()[:6])
                out[block.id] = f"“{words}…”" if words else "an empty paragraph"
            out[block.id] += kind
    return out


def _as_text(path: str, report: dict, places: dict[str, str]) -> str:
    findings = report["findings"]
    if not findings:
        return f"{path}: nothing found."
    lines = [f"{path}: {len(findings)} finding(s)"]
    for kind in KINDS:
        of_kind = [f for f in findings if f["kind"] == kind]
        if not of_kind:
            continue
        lines.append(f"\n{KIND_TITLES[kind][1]} ({len(of_kind)})")
        for f in of_kind:
            where = places.get(f["blockId"]) or f["displayLabel"] or f["story"].replace(":", " ")
            pending = " [a pending tracked change is involved]" if f["pendingChange"] else ""
            lines.append(f"  {where}: {f['message']}{pending}")
    return "\n".join(lines)
