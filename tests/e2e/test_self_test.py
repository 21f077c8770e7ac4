"""`folio-desktop --self-test`, the window's --quit-after, and finding the bundled assets when frozen."""

import io
import os
import subprocess
import sys

from folio_desktop import assets, self_test
from folio_desktop.docx import DocxReviewer

STEP_LINES = [
    "ok  opened sample (22 blocks)",
    "ok  laid out 2 page(s) on the offscreen platform",
    "ok  applied a tracked insertion after block ",
    "ok  saved to a temporary folder (",
    "ok  reopened the copy: the tracked insertion is there (2 page(s)) and rejects cleanly",
    "ok  Claude client library loads (anthropic ",
    "ok  MCP server over HTTP on 127.0.0.1: 13 tools, find_text answered",
]


def run_cli(*args, env_extra=None, timeout=90):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", **(env_extra or {})}
    return subprocess.run([sys.executable, "-m", "folio_desktop", *args], capture_output=True, text=True,
                          timeout=timeout, env=env)


def test_self_test_passes_and_prints_each_step():
    proc = run_cli("--self-test")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("folio-desktop ") and lines[0].endswith(" self-test") and "(frozen)" not in lines[0]
    assert len(lines) == len(STEP_LINES) + 2
    for line, expected in zip(lines[1:], STEP_LINES):
        assert line.startswith(expected), line
    assert lines[-1] == "self-test passed"


def test_self_test_names_the_step_that_failed(monkeypatch, tmp_path):
    monkeypatch.setattr(assets, "sample_contract_path", lambda: tmp_path / "gone.docx")
    out = io.StringIO()
    assert self_test.run_self_test(out) == 1
    lines = out.getvalue().splitlines()
    assert lines[1] == f"FAIL open sample: the bundled sample contract is missing (looked at {tmp_path / 'gone.docx'})"
    assert "self-test passed" not in out.getvalue()


def test_self_test_reports_a_crash_in_a_step_as_a_failure(monkeypatch):
    def broken(state):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(self_test, "STEPS", (self_test._open_sample, broken))
    out = io.StringIO()
    assert self_test.run_self_test(out) == 1
    assert out.getvalue().splitlines()[-1] == "FAIL broken: RuntimeError: disk on fire"


def test_a_frozen_app_finds_its_assets_in_the_bundle(monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    assert assets.sample_contract_path() == tmp_path / "folio_desktop" / "resources" / "sample_contract.docx"
    assert assets.icon_path() == tmp_path / "folio_desktop" / "resources" / "folio-desktop.png"


def test_installed_assets_are_the_sample_and_the_icon():
    assert DocxReviewer.open(assets.sample_contract_path()).snapshot().content_blocks
    assert assets.icon_path().read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_quit_after_shows_the_window_then_closes_it(tmp_path):
    proc = run_cli("--quit-after", "1000", env_extra={"FOLIO_DESKTOP_CONFIG_DIR": str(tmp_path)})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip() == "folio-desktop: window shown on offscreen: 'sample_contract (copy).docx[*] — folio-desktop', 2 page(s)"
