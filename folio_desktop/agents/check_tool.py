"""check_document: the contract checks (folio_desktop.checks) as a tool for Claude and MCP clients.

This tool is folio-desktop's own, beyond the reference's 16. The model gets what a careful associate
checks before a contract goes out (undefined and unused terms, broken cross-references, blanks, numbering,
party names) without spending tokens reading for it: each finding with its clause number, a page at a
time within the read budget, with the count of each kind on every page (no filter by kind: its schema would
cost more of the tool definitions' budget, sent with every request, than paging costs).
"""

from __future__ import annotations

from .paging import clip, take_page
from .read_tools import has
from .tool_args import ToolError, int_arg, refuse_unknown, require_object

TOOL = "check_document"
TEXT_CHARS = 200  # a finding's text (a long blank line, a long reference) beyond this is cut


def _finding_json(finding: dict) -> dict:
    """A finding as the model reads it: the keys that carry nothing (main story, no clause number, no
    pending change) left out, as every character is sent again with each later request."""
    out = {"kind": finding["kind"], "text": clip(finding["text"], TEXT_CHARS), "blockId": finding["blockId"]}
    if finding.get("displayLabel"):
        out["displayLabel"] = finding["displayLabel"]
    if finding.get("story", "main") != "main":
        out["story"] = finding["story"]
    out["message"] = finding["message"]
    if finding.get("pendingChange"):
        out["pendingChange"] = True
    return out


def check_document(args, bridge, options):
    """{findings, counts, totalFindings, truncated, nextOffset?}: a page of findings in document order."""
    args = require_object(TOOL, args)
    refuse_unknown(TOOL, args, ("offset",))
    if not has(bridge, "check_document"):
        raise ToolError("This editor surface does not support check_document (it has no document to check).")
    offset = int_arg(TOOL, args, "offset", 0, 0)
    report = bridge.check_document()
    findings = report["findings"]
    page, _cut = take_page(findings, _finding_json, len(findings), start=offset)
    result = {"findings": page, "counts": report["counts"], "totalFindings": len(findings),
              "truncated": offset + len(page) < len(findings)}
    if result["truncated"]:
        result["nextOffset"] = offset + len(page)
    return result
