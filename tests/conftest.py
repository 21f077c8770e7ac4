"""Shared test set-up. Qt must run headless: without this the test process aborts on CI."""

import os
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
# ../shared beside the checkout; one folder further up when the tests run in a copy of the checkout made
# inside it (the mutation runner's mutants/)
SHARED = next((d / "shared" for d in (ROOT.parent, ROOT.parent.parent) if (d / "shared").is_dir()),
              ROOT.parent / "shared")
CORPUS = SHARED / "corpus"


def corpus_files(*folders: str) -> list[Path]:
    out: list[Path] = []
    for folder in folders:
        base = CORPUS / folder if folder else CORPUS
        out.extend(sorted(base.glob("*.docx")))
    return out


ALL_GOOD = corpus_files("", "folio", "unusual")
BAD = sorted((CORPUS / "bad").glob("*"))


@pytest.fixture
def api():
    """A fake Messages API on a real socket of 127.0.0.1 (tests/fake_messages_api.py), closed after the test."""
    from fake_messages_api import FakeMessagesAPI

    with FakeMessagesAPI() as server:
        yield server


@pytest.fixture(scope="session")
def corpus() -> Path:
    if not CORPUS.is_dir():
        pytest.fail(f"the shared corpus is missing at {CORPUS}")
    return CORPUS


def shown_page_view(qtbot, width: int, height: int):
    """A PageView of this size, shown (exposed) and closed after the test, scrolling without animation."""
    from folio_desktop.ui.pages.view import PageView

    view = PageView()
    view.smooth_scrolling = False
    view.resize(width, height)
    qtbot.addWidget(view)
    view.show()
    qtbot.waitExposed(view)
    return view


def ok(envelope: dict):
    """The result of a tool call that must have succeeded (execute_tool_call's envelope)."""
    assert envelope["ok"], envelope
    return envelope["result"]


def err(envelope: dict) -> str:
    """The sentence of a tool call that must have failed."""
    assert not envelope["ok"], envelope
    return envelope["error"]


def flip_bytes(data: bytes, rng, most: int) -> bytes:
    """data with 1..most random bytes overwritten by random values (a damaged file, reproducible by rng)."""
    out = bytearray(data)
    for _ in range(rng.randint(1, most)):
        out[rng.randrange(len(out))] = rng.randrange(256)
    return bytes(out)


E2E = TESTS / "e2e"


def pytest_collection_modifyitems(items):
    # tests/e2e/ holds the end-to-end and whole-window workflows: `-m "not slow"` runs only the unit tests
    for item in items:
        if E2E in Path(item.fspath).parents:
            item.add_marker(pytest.mark.slow)
