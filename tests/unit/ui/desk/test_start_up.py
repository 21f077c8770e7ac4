"""Start-up imports only what the first page needs (issue 26): the app started on a contract as the lawyer
starts it (`python -m folio_desktop FILE`, in a process of its own) has painted its first page without
having imported the MCP SDK and its web server (sharing), the anthropic SDK (the chat's transport) or the
system keyring (asked once the page shows); and the window's module alone imports none of them either."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from conftest import CORPUS, ROOT

ILPA = CORPUS / "contract_ilpa_model_lpa_whole_of_fund_75p.docx"
NOT_BEFORE_THE_FIRST_PAGE = ("mcp", "anthropic", "uvicorn", "starlette", "httpx", "keyring")

# the app's own start (cli.main), with the first-paint probe reporting which of those it had imported
PROBE = """
import json, sys
from folio_desktop.ui import app

def report(self, _report=app.FirstPaintProbe.report):
    print("IMPORTED " + json.dumps(sorted({m.split(".")[0] for m in sys.modules} & set(sys.argv[2:]))), flush=True)
    _report(self)

app.FirstPaintProbe.report = report
from folio_desktop.cli import main
sys.exit(main([sys.argv[1]]))
"""


def _run(code: str, *args: str, tmp_path) -> subprocess.CompletedProcess:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "FOLIO_DESKTOP_CONFIG_DIR": str(tmp_path / "config"),
           "FOLIO_DESKTOP_FIRST_PAINT": "1", "PYTHONPATH": str(ROOT)}
    env.pop("ANTHROPIC_API_KEY", None)
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT,
                          env=env, timeout=120)


def test_the_first_page_is_painted_before_sharing_the_sdk_or_the_keyring_is_imported(tmp_path):
    proc = _run(PROBE, str(ILPA), *NOT_BEFORE_THE_FIRST_PAGE, tmp_path=tmp_path)
    lines = [line for line in proc.stdout.splitlines() if line.startswith("IMPORTED ")]
    assert proc.returncode == 0 and lines, proc.stdout[-2000:] + proc.stderr[-3000:]
    assert json.loads(lines[0][len("IMPORTED "):]) == []
    assert "first page painted" in proc.stdout


def test_the_window_module_imports_neither_sharing_nor_the_sdk(tmp_path):
    code = ("import json, sys; import folio_desktop.ui.app, folio_desktop.ui.desk.window; "
            "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules} & set(sys.argv[1:]))))")
    proc = _run(code, *NOT_BEFORE_THE_FIRST_PAGE, tmp_path=tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert json.loads(proc.stdout.strip().splitlines()[-1]) == []
    assert "folio_desktop.sharing" not in proc.stdout
