"""The code stays lintable and keeps its layering (ARCHITECTURE.md: imports only point down)."""

import ast
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

PACKAGE = ROOT / "folio_desktop"
# layer -> layers it must never import
FORBIDDEN = {
    "docx": ("PySide6", "folio_desktop.agents", "folio_desktop.assistant", "folio_desktop.layout", "folio_desktop.ui"),
    "checks": ("PySide6", "folio_desktop.agents", "folio_desktop.assistant", "folio_desktop.layout", "folio_desktop.ui",
               "folio_desktop.sharing"),
    "agents": ("PySide6", "folio_desktop.assistant", "folio_desktop.layout", "folio_desktop.ui"),
    "assistant": ("PySide6", "folio_desktop.layout", "folio_desktop.ui"),
    "layout": ("PySide6.QtWidgets", "folio_desktop.ui", "folio_desktop.assistant"),
    "sharing": ("PySide6", "folio_desktop.layout", "folio_desktop.ui"),
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


# the ui's components, lowest first: the shared modules at ui/ top (the undo stack, wording, the single-instance
# lock and socket), the pages, then the panels and the chat beside each other, then the document's file on disk
# (which shows its news in the panels' bars), then the desk that assembles them, then app.py
UI_FORBIDDEN = {
    "review_actions.py": ("pages", "panels", "chat", "disk", "desk", "app"),
    "wording.py": ("pages", "panels", "chat", "disk", "desk", "app"),
    "single_instance.py": ("pages", "panels", "chat", "disk", "desk", "app"),
    "pages": ("panels", "chat", "disk", "desk", "app"),
    "panels": ("chat", "disk", "desk", "app"),
    "chat": ("panels", "disk", "desk", "app"),
    "disk": ("chat", "desk", "app"),
    "desk": ("app",),
}


@pytest.mark.parametrize("component", sorted(UI_FORBIDDEN))
def test_ui_components_import_only_downwards(component):
    root = PACKAGE / "ui" / component
    paths = [root] if root.suffix == ".py" else sorted(root.rglob("*.py"))
    assert paths, f"ui/{component} is gone: update UI_FORBIDDEN"
    above = tuple(f"folio_desktop.ui.{name}" for name in UI_FORBIDDEN[component])
    bad = [f"{path.relative_to(PACKAGE)} imports {name}" for path in paths for name in _imports(path)
           if any(name == a or name.startswith(a + ".") for a in above)]
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


def _module_graph() -> dict[str, set[str]]:
    """folio_desktop module -> the folio_desktop modules it imports, anywhere in it (inside functions
    and under TYPE_CHECKING too: a cycle there is still two modules that each need the other)."""
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        parts = ("folio_desktop", *path.relative_to(PACKAGE).with_suffix("").parts)
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        deps = set()
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                    base = f"{anchor}.{node.module}" if node.module else anchor
                subs = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in modules]
                # `from . import x` names module x, not the package that holds it
                targets = subs if len(subs) == len(node.names) else [base, *subs]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            deps.update(t for t in targets if t in modules and t != name)
        graph[name] = deps
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, iteratively)."""
    index, low, on_stack, stack, out = {}, {}, set(), [], []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    out.append(sorted(group))
    return out


def test_no_import_cycles():
    assert _cycles(_module_graph()) == []


def test_the_cycle_finder_finds_a_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]
    assert len(_module_graph()) > 100 and "folio_desktop.docx.reading.snapshot" in _module_graph()["folio_desktop.docx.reviewer"]


# docx/'s sub-layers, lowest first: each imports only those before it (and errors.py, beside them all);
# reviewer.py and the other modules at the top of docx/ sit above every sub-layer
DOCX_SUBLAYERS = ("package", "model", "reading", "editing")


def _docx_rank(module: str) -> int | None:
    """Where a folio_desktop.docx module sits in DOCX_SUBLAYERS (len(DOCX_SUBLAYERS): the top of docx/);
    None for errors.py and for modules outside docx/."""
    parts = module.split(".")
    if parts[:2] != ["folio_desktop", "docx"] or parts[2:3] == ["errors"]:
        return None
    if len(parts) > 2 and parts[2] in DOCX_SUBLAYERS:
        return DOCX_SUBLAYERS.index(parts[2])
    return len(DOCX_SUBLAYERS)


def test_docx_sublayers_import_only_downwards():
    bad = []
    for rank, layer in enumerate(DOCX_SUBLAYERS):
        for path in sorted((PACKAGE / "docx" / layer).rglob("*.py")):
            for name in _imports(path):
                target = _docx_rank(name)
                if target is not None and target > rank:
                    bad.append(f"{path.relative_to(PACKAGE)} imports {name}")
    assert not bad


MAX_MODULES_PER_FOLDER = 15  # __init__.py counted: a newcomer reads a folder's listing at a glance
MAX_MODULE_LINES = 700


def test_no_folder_holds_more_than_15_modules():
    crowded = {str(folder.relative_to(PACKAGE.parent)): n for folder in [PACKAGE, *PACKAGE.rglob("*")]
               if folder.is_dir() and (n := len(list(folder.glob("*.py")))) > MAX_MODULES_PER_FOLDER}
    assert not crowded


def test_no_module_is_over_700_lines():
    long = {str(path.relative_to(PACKAGE.parent)): n for path in PACKAGE.rglob("*.py")
            if (n := len(path.read_text().splitlines())) > MAX_MODULE_LINES}
    assert not long


def test_vulture_finds_no_dead_code():
    # the names it cannot see used (Qt overrides, menu slots named in strings) are in pyproject's [tool.vulture]
    if importlib.util.find_spec("vulture") is None:
        pytest.fail("vulture is part of the dev extra; install with pip install -e '.[dev]'")
    proc = subprocess.run([sys.executable, "-m", "vulture", "folio_desktop", "--min-confidence", "60"],
                          cwd=PACKAGE.parent, capture_output=True, text=True)
    assert proc.returncode == 0 and not proc.stdout, proc.stdout[-3000:] + proc.stderr[-1000:]


# What makes a test check something: an assert; pytest.raises / warns / deprecated_call; a waiting check of
# pytest-qt (it fails when its condition or signal does not come); or a call of a checking helper, a function
# defined in tests/*.py or in the test's own module whose name starts with assert_/check_/expect_ or whose
# body checks something by this same rule (so a helper that calls a checking helper checks too).
TESTS = ROOT / "tests"
CHECKING_CALLS = {"raises", "warns", "deprecated_call", "waitUntil", "waitSignal", "waitSignals", "waitCallback",
                  "assertNotEmitted"}
CHECKING_PREFIXES = ("assert_", "check_", "expect_")
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _checks(function: ast.AST, helpers: set[str]) -> bool:
    for node in ast.walk(function):
        if isinstance(node, ast.Assert):
            return True
        if isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
            if name in CHECKING_CALLS or name in helpers:
                return True
    return False


def _checking_helpers(trees: list[ast.Module]) -> set[str]:
    functions = [n for tree in trees for n in ast.walk(tree) if isinstance(n, _FUNCTIONS)
                 and not n.name.startswith("test_")]
    found = {f.name for f in functions if f.name.startswith(CHECKING_PREFIXES)}
    while more := {f.name for f in functions if f.name not in found and _checks(f, found)}:
        found |= more
    return found


def unchecked_tests(module: ast.Module, shared_helpers: set[str]) -> list[str]:
    """The test functions of a module (at its top or in its classes) that check nothing."""
    helpers = shared_helpers | _checking_helpers([module])
    tests = [n for n in module.body if isinstance(n, _FUNCTIONS)]
    tests += [m for c in module.body if isinstance(c, ast.ClassDef) for m in c.body if isinstance(m, _FUNCTIONS)]
    return [t.name for t in tests if t.name.startswith("test_") and not _checks(t, helpers)]


def test_every_test_checks_something():
    shared = _checking_helpers([ast.parse(path.read_text()) for path in TESTS.glob("*.py")])
    unchecked = [f"{path.relative_to(ROOT)}::{name}" for path in sorted(TESTS.rglob("test_*.py"))
                 for name in unchecked_tests(ast.parse(path.read_text()), shared)]
    assert not unchecked


def test_the_unchecked_test_finder_tells_checks_from_calls():
    module = ast.parse(
        "def expect_ok(x): pass\n"
        "def _verify(x):\n    assert x\n"
        "def _via(x):\n    _verify(x)\n"
        "def _runs(x):\n    return x\n"
        "def test_assert(): assert 1\n"
        "def test_raises():\n    with pytest.raises(ValueError): int('x')\n"
        "def test_waits(qtbot): qtbot.waitUntil(lambda: True)\n"
        "def test_named_helper(): expect_ok(1)\n"
        "def test_helper_two_deep(): _via(1)\n"
        "def test_runs_only(): _runs(1)\n"
        "class TestGroup:\n    def test_nothing(self): print('hi')\n")
    assert unchecked_tests(module, set()) == ["test_runs_only", "test_nothing"]
    assert unchecked_tests(module, {"_runs"}) == ["test_nothing"]
