"""The code stays lintable and keeps its layering (ARCHITECTURE.md: imports only point down)."""

import ast
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "folio_desktop"
# layer -> layers it must never import
FORBIDDEN = {
    "docx": ("PySide6", "folio_desktop.agents", "folio_desktop.assistant", "folio_desktop.layout", "folio_desktop.ui"),
    "agents": ("PySide6", "folio_desktop.assistant", "folio_desktop.layout", "folio_desktop.ui"),
    "assistant": ("PySide6", "folio_desktop.layout", "folio_desktop.ui"),
    "layout": ("PySide6.QtWidgets", "folio_desktop.ui", "folio_desktop.assistant"),
}


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    layer_pkg = "folio_desktop." + ".".join(path.relative_to(PACKAGE).parts[:-1])
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = layer_pkg.rsplit(".", node.level - 1)[0] if node.level > 1 else layer_pkg
                out.append(f"{base}.{node.module}" if node.module else base)
            elif node.module:
                out.append(node.module)
    return out


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layers_import_only_downwards(layer):
    bad = []
    for path in sorted((PACKAGE / layer).rglob("*.py")):
        for name in _imports(path):
            if any(name == f or name.startswith(f + ".") for f in FORBIDDEN[layer]):
                bad.append(f"{path.relative_to(PACKAGE)} imports {name}")
    assert not bad


def test_engine_runs_without_qt_loaded():
    code = ("import sys, folio_desktop.docx, folio_desktop.agents; "
            "assert not any(m.startswith('PySide6') for m in sys.modules), 'Qt was imported'")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_ruff_is_clean():
    # the interpreter running the tests finds its own ruff: a venv need not be activated (on PATH)
    if importlib.util.find_spec("ruff") is None:
        pytest.fail("ruff is part of the dev extra; install with pip install -e '.[dev]'")
    proc = subprocess.run([sys.executable, "-m", "ruff", "check", "--output-format", "concise", str(PACKAGE.parent)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-1000:]
