"""A server that accepts the connection and never answers: how long `folio-desktop review` takes to
give up, with the real default timeouts (issue 12: it must be under 90 s; it was 371 s).

Runs the real command line in a child process (FOLIO_DESKTOP_API_TIMEOUTS cleared, so the defaults
of folio_desktop.assistant.transport.Timeouts apply) against tests/fake_messages_api.py scripted to
stay silent, and prints the elapsed time, the requests made and the message the lawyer sees.

    python benchmarks/silent_server.py
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from fake_messages_api import FakeMessagesAPI, Silent  # noqa: E402

from folio_desktop.assistant.loop import worst_case_silent_s  # noqa: E402
from folio_desktop.assistant.transport import ENV_TIMEOUTS, Timeouts  # noqa: E402

PILOT = ROOT.parent / "shared" / "corpus" / "contract_commonpaper_pilot_agreement.docx"
LIMIT_S = 90.0


def main() -> int:
    defaults = Timeouts()
    print(f"defaults: connect {defaults.connect:g} s, first byte {defaults.first_byte:g} s, "
          f"stall {defaults.stall:g} s, request {defaults.request:g} s; "
          f"worst case for a silent server {worst_case_silent_s(defaults):g} s")
    with FakeMessagesAPI() as api, tempfile.TemporaryDirectory() as tmp:
        api.script(*[Silent()] * 5)  # more than the loop will use: the count below shows how many it did
        env = {k: v for k, v in os.environ.items() if k != ENV_TIMEOUTS}
        env.update(ANTHROPIC_API_KEY="benchmark-key", FOLIO_DESKTOP_CONFIG_DIR=str(Path(tmp) / "cfg"))
        started = time.monotonic()
        proc = subprocess.run([sys.executable, "-m", "folio_desktop", "review", str(PILOT), "--prompt", "Review it",
                               "-o", str(Path(tmp) / "out.docx"), "--base-url", api.base_url],
                              capture_output=True, text=True, env=env, timeout=600)
        elapsed = time.monotonic() - started
        requests = len(api.requests)
    errors = [line for line in proc.stdout.splitlines() if line.startswith(("[error]", "[note]"))]
    print(f"elapsed: {elapsed:.1f} s for {requests} request(s), exit code {proc.returncode}")
    for line in errors:
        print("  " + line)
    ok = elapsed < LIMIT_S and proc.returncode == 1 and any(line.startswith("[error]") for line in errors)
    print(f"verdict: {'ok' if ok else 'FAIL'} (limit {LIMIT_S:g} s)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
