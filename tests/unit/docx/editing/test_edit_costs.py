"""An edit costs what it touches, not the document: the time of a one-word suggestion, a comment
and their undo, and what the undo history keeps per edit, stay the same in a document ten times
longer (measured as ratios between a generated contract of 2,000 paragraphs and one of 20,000).
The undo history is bounded and goes with the document."""

from __future__ import annotations

import gc
import re
import sys
import time
import weakref

import pytest
from conftest import ROOT
from lxml import etree

from folio_desktop.agents import execute_tool_call
from folio_desktop.agents.bridges import create_reviewer_bridge
from folio_desktop.docx import DocxReviewer

SMALL, LARGE = 2_000, 20_000
MAX_RATIO = 2.0  # ten times the document, at most twice the cost (the same cost, with room for noise)


@pytest.fixture(scope="module")
def contracts() -> dict[int, bytes]:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from open_scaling import build_contract

    return {n: build_contract(n) for n in (SMALL, LARGE)}


def _targets(rev: DocxReviewer) -> list:
    """Paragraphs where "Company" occurs once: a one-word replaceInBlock each."""
    return [b for b in rev.snapshot().blocks
            if b.kind == "paragraph" and b.table is None and len(re.findall(r"\bCompany\b", b.text)) == 1]


def _suggest(bridge, block_id: str) -> None:
    envelope = execute_tool_call("suggest_changes", {"operations": [
        {"type": "replaceInBlock", "blockId": block_id, "find": "Company", "replace": "Issuer"}]}, bridge)
    assert envelope["ok"] and envelope["result"]["applied"], envelope


def _comment(bridge, block_id: str) -> None:
    envelope = execute_tool_call("add_comment", {"blockId": block_id, "text": "Is this right?"}, bridge)
    assert envelope["ok"] and envelope["result"]["applied"], envelope


def _cpu(action, repeats: int) -> float:
    """The least processor time of `repeats` runs of action(i): the cost without the machine's noise."""
    best = float("inf")
    for i in range(repeats):
        start = time.process_time()
        action(i)
        best = min(best, time.process_time() - start)
    return best


def _costs(data: bytes) -> dict[str, float]:
    rev = DocxReviewer.from_bytes(data)
    bridge = create_reviewer_bridge(rev)
    targets = _targets(rev)
    _suggest(bridge, targets[0].id)  # warm-up: the engine, the caches, the first copy of anything
    _comment(bridge, targets[1].id)
    out = {
        "suggest": _cpu(lambda i: _suggest(bridge, targets[2 + i].id), 9),
        "comment": _cpu(lambda i: _comment(bridge, targets[20 + i].id), 9),
    }
    for i in range(9):
        _suggest(bridge, targets[40 + i].id)
    engine, undone = rev.engine, []
    out["undo"] = _cpu(lambda i: undone.append(engine.undo(engine._undo[-1].handle)["status"]), 9)
    assert undone == ["undone"] * 9  # the latest batch each time, newest first
    return out


def test_a_suggestion_a_comment_and_an_undo_cost_the_same_in_a_ten_times_longer_document(contracts):
    small, large = _costs(contracts[SMALL]), _costs(contracts[LARGE])
    for kind in ("suggest", "comment", "undo"):
        assert large[kind] <= MAX_RATIO * small[kind] + 0.0005, (kind, small, large)


# -- what the undo history keeps -------------------------------------------------------------------------------


def live_roots(rev: DocxReviewer) -> set[int]:
    """The roots of the open document's XML parts (by id)."""
    package = rev.document.package
    return {id(package.xml(name)) for name in package.part_names()
            if name.endswith((".xml", ".rels")) and package.has_part(name)}


def held_bytes(obj, live: set[int]) -> int:
    """How much the object holds: bytes and strings by their length, XML elements that are not in the
    open document by their serialized size (an element still in one of its parts costs the history
    nothing), containers and objects by what they hold."""
    seen: set[int] = set()
    total = 0
    stack = [obj]
    while stack:
        o = stack.pop()
        if id(o) in seen or o is None or isinstance(o, (int, float, bool, type)):
            continue
        seen.add(id(o))
        if isinstance(o, etree._Element):
            if id(o.getroottree().getroot()) not in live:
                total += len(etree.tostring(o))
            continue
        if isinstance(o, (bytes, bytearray, str)):
            total += len(o)
        elif isinstance(o, dict):
            stack.extend(o.keys())
            stack.extend(o.values())
        elif isinstance(o, (list, tuple, set, frozenset)):
            stack.extend(o)
        else:
            stack.extend(getattr(o, "__dict__", {}).values())
            for cls in type(o).__mro__:
                stack.extend(getattr(o, name, None) for name in getattr(cls, "__slots__", ()))
    return total


def _kept_per_edit(data: bytes) -> float:
    rev = DocxReviewer.from_bytes(data)
    bridge = create_reviewer_bridge(rev)
    targets = _targets(rev)
    _suggest(bridge, targets[0].id)  # warm-up
    _comment(bridge, targets[1].id)
    for i in range(6):
        _suggest(bridge, targets[2 + i].id)
        _comment(bridge, targets[30 + i].id)
    history = rev.engine._undo[-12:]
    return held_bytes(history, live_roots(rev)) / 12


def test_what_undo_keeps_per_edit_does_not_grow_with_the_document(contracts):
    small, large = _kept_per_edit(contracts[SMALL]), _kept_per_edit(contracts[LARGE])
    assert large <= MAX_RATIO * small, (small, large)
    assert small < 20_000  # a paragraph or two and a comment's entries, not the document


def test_the_undo_history_keeps_the_last_max_undo_batches(contracts):
    rev = DocxReviewer.from_bytes(contracts[SMALL], max_undo=3)
    bridge = create_reviewer_bridge(rev)
    targets = _targets(rev)
    before = [b.text for b in rev.snapshot().blocks]
    for i in range(5):
        _suggest(bridge, targets[i].id)
    handles = [f"headless-{n}" for n in range(1, 6)]
    assert len(rev.engine._undo) == 3
    for handle in handles[:2]:  # the oldest went first
        assert rev.undo_document_operations(handle)["reason"] == "unknownHandle"
    for handle in reversed(handles[2:]):
        assert rev.undo_document_operations(handle)["status"] == "undone"
    assert rev.undo_document_operations(handles[1])["reason"] == "unknownHandle"
    texts = [b.text for b in rev.snapshot().blocks]
    assert sum(a != b for a, b in zip(texts, before)) == 2  # the two oldest stay made
    assert DocxReviewer.from_bytes(contracts[SMALL]).max_undo == 100  # the default


def test_no_undo_history_at_all(contracts):
    rev = DocxReviewer.from_bytes(contracts[SMALL], max_undo=0)
    block = _targets(rev)[0]
    result = rev.apply_document_operations({"version": 1, "operations": [
        {"type": "replaceInBlock", "blockId": block.id, "find": "Company", "replace": "Issuer"}]})
    assert result["applied"] and result["undoHandle"] is None and rev.engine._undo == []


def _edited(data: bytes):
    """A document after six edits, seen only through weak references to it and its undo records."""
    rev = DocxReviewer.from_bytes(data)
    bridge = create_reviewer_bridge(rev)
    for block in _targets(rev)[:3]:
        _suggest(bridge, block.id)
        _comment(bridge, block.id)
    return weakref.ref(rev.document), weakref.WeakSet(entry.record for entry in rev.engine._undo)


def test_a_closed_document_lets_its_undo_history_go(contracts):
    document, records = _edited(contracts[SMALL])
    gc.collect()
    assert document() is None and len(records) == 0
