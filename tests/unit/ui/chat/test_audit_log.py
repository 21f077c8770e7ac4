"""AuditLog (folio_desktop/ui/chat/audit_log.py): per-document JSON Lines that survive reopening, and
the JSON Lines and HTML exports."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from datetime import datetime
from html.parser import HTMLParser

from folio_desktop.ui.chat.audit_log import AuditLog, log_file_for


def test_records_are_stamped_and_survive_reopening(tmp_path):
    doc = tmp_path / "contracts" / "msa.docx"
    audit = AuditLog(str(doc), folder=tmp_path / "audit")
    audit.who = "Jane Lawyer"
    call = audit.record("tool_call", tool="read_document", args={"offset": 0})
    proposal = audit.record("proposal", reason="Cap liability", who="Claude", at="2025-01-02T03:04:05Z")
    audit.record("accept", change_id=7, type="insertion", text="twelve months")
    assert call["who"] == "Jane Lawyer" and call["kind"] == "tool_call"
    stamped = datetime.fromisoformat(call["at"].replace("Z", "+00:00"))
    assert stamped.utcoffset().total_seconds() == 0
    assert proposal["who"] == "Claude" and proposal["at"] == "2025-01-02T03:04:05Z"  # given values win

    again = AuditLog(str(doc), folder=tmp_path / "audit")
    assert again.entries == audit.entries
    assert [e["kind"] for e in again.entries] == ["tool_call", "proposal", "accept"]
    again.record("reject", change_id=8)
    assert len(AuditLog(str(doc), folder=tmp_path / "audit").entries) == 4  # appended, not rewritten


def test_each_document_has_its_own_log(tmp_path):
    folder = tmp_path / "audit"
    a = AuditLog(str(tmp_path / "one" / "agreement.docx"), folder=folder)
    b = AuditLog(str(tmp_path / "two" / "agreement.docx"), folder=folder)
    a.record("save", path="x")
    assert a.path != b.path and a.path.name.startswith("agreement-")
    assert b.entries == [] and AuditLog(str(tmp_path / "two" / "agreement.docx"), folder=folder).entries == []
    # relative and absolute spellings of one file share the log
    assert log_file_for(tmp_path / "one" / ".." / "one" / "agreement.docx", folder) == a.path


def test_the_default_folder_is_the_app_config_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("FOLIO_DESKTOP_CONFIG_DIR", str(tmp_path / "cfg"))
    audit = AuditLog(str(tmp_path / "deal.docx"))
    audit.record("edit", block_id="B1")
    assert audit.path.parent == tmp_path / "cfg" / "audit" and audit.path.is_file()


def test_a_line_cut_short_by_a_crash_is_skipped(tmp_path):
    audit = AuditLog(str(tmp_path / "deal.docx"), folder=tmp_path)
    audit.record("accept", change_id=1)
    with open(audit.path, "a", encoding="utf-8") as fh:
        fh.write('{"kind": "reje')
    assert [e["change_id"] for e in AuditLog(str(tmp_path / "deal.docx"), folder=tmp_path).entries] == [1]


def test_an_unwritable_folder_keeps_the_entry_and_says_why(tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    audit = AuditLog(str(tmp_path / "deal.docx"), folder=blocker / "audit")
    entry = audit.record("accept", change_id=3)
    assert audit.entries == [entry]
    assert audit.write_error and "could not be written" in audit.write_error


def test_export_jsonl_lines_parse(tmp_path):
    audit = AuditLog(str(tmp_path / "deal.docx"), folder=tmp_path / "audit")
    audit.record("tool_call", tool="suggest_changes", args={"operations": [{"type": "replaceInBlock"}]})
    audit.record("comment", text="Line one\nline two — «quoted»")
    audit.record("save", path=tmp_path / "deal.docx")  # a Path is written as its text
    out = tmp_path / "export.jsonl"
    audit.export_jsonl(out)
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 3
    parsed = [json.loads(line) for line in lines]
    assert parsed == audit.entries
    assert parsed[1]["text"] == "Line one\nline two — «quoted»" and parsed[2]["path"] == str(tmp_path / "deal.docx")


class _Cells(HTMLParser):
    def __init__(self):
        super().__init__()
        self.rows: list[list[str]] = []
        self.tags: list[str] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append("".join(self._cell))
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def test_export_html_is_a_readable_escaped_table(tmp_path):
    audit = AuditLog(str(tmp_path / "deal.docx"), folder=tmp_path / "audit")
    audit.record("tool_call", tool="read_document", args={"query": "<b>x</b>" + "y" * 400}, who="Claude")
    audit.record("proposal", reason="<script>alert('x')</script> cap at 12 months", who="Claude",
                 tool="suggest_changes", type="replaceInBlock", text="12 months", operationId=None)
    audit.record("accept", change_id=12, type="insertion", text="& twelve <months>", who="Jane")
    audit.record("reject", change_id=13, type="deletion", text="gross negligence")
    out = tmp_path / "report.html"
    audit.export_html(out)
    page = out.read_text(encoding="utf-8")
    assert "<script" not in page.lower() and "&lt;script&gt;" in page
    assert "http://" not in page and "https://" not in page  # self-contained
    parser = _Cells()
    parser.feed(page)
    assert "script" not in parser.tags
    header, *rows = parser.rows
    assert header == ["Time (UTC)", "Who", "What", "Details"]
    assert [r[1:3] for r in rows] == [["Claude", "Tool call"], ["Claude", "Proposal"], ["Jane", "Accepted"],
                                       [audit.who, "Rejected"]]
    tool, proposal, accept, reject = (r[3] for r in rows)
    assert tool.startswith('read_document {"query": "<b>x</b>yyy') and tool.endswith("…") and len(tool) < 200
    assert proposal == "replaceInBlock “12 months”\nReason: <script>alert('x')</script> cap at 12 months\n" \
                       "tool: suggest_changes"  # empty fields are left out
    assert accept == "change 12 insertion\n“& twelve <months>”"
    assert reject.startswith("change 13 deletion")
    assert re.search(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", rows[3][0])


def test_the_audit_log_does_not_load_qt():
    code = "import sys, folio_desktop.ui.chat.audit_log; assert not any(m.startswith('PySide6') for m in sys.modules)"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
