"""The frozen app (issue 8): build it with PyInstaller when needed and run packaging/smoke_test.py on it.

Slow (a build takes about half a minute, the checks about fifteen seconds), so the default run skips
it; run it with `python -m pytest -m packaging` after `pip install -e ".[build]"`.
"""

import importlib.util
import subprocess
import sys

import pytest
from conftest import ROOT

DIST = ROOT / "dist"
BINARY = DIST / "folio-desktop" / ("folio-desktop.exe" if sys.platform == "win32" else "folio-desktop")
SOURCES = [ROOT / "folio_desktop", ROOT / "resources", ROOT / "packaging"]


def bundle_is_current() -> bool:
    """A bundle newer than every source file it was built from (else the test would check old code)."""
    if not BINARY.is_file():
        return False
    built = BINARY.stat().st_mtime
    return all(p.stat().st_mtime <= built for folder in SOURCES for p in folder.rglob("*")
               if p.is_file() and "__pycache__" not in p.parts)


@pytest.mark.packaging
@pytest.mark.timeout(1800)
def test_frozen_app_passes_the_smoke_test():
    build = not bundle_is_current()
    if build and importlib.util.find_spec("PyInstaller") is None:
        pytest.fail('building the app needs PyInstaller: pip install -e ".[build]"')
    cmd = [sys.executable, str(ROOT / "packaging" / "smoke_test.py"), "--dist", str(DIST), "--work", str(ROOT / "build")]
    proc = subprocess.run(cmd + (["--build"] if build else []), capture_output=True, text=True, timeout=1700)
    print(proc.stdout)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    for check in ("size", "version", "self-test", "read", "pages", "compare", "review"):
        assert any(line.startswith(f"PASS {check} ") for line in proc.stdout.splitlines()), check
