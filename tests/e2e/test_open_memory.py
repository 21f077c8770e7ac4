"""Opening keeps little besides the tree, refuses hostile input before building it, and makes no
garbage on the way.

The full figures (10k..80k paragraphs against python-docx, the whole hostile set) come from
benchmarks/open_memory.py; the suite keeps to what fails fast when one of those regresses: the
memory a block costs (Python's allocations, traced), the peak of a refusal (a fresh process's RSS,
the interpreter and the file's bytes included), and the garbage cycles a read leaves.
"""

from __future__ import annotations

import gc
import json
import subprocess
import sys
import tracemalloc

import pytest
from conftest import ROOT

from benchmarks.open_memory import (
    MAX_HOSTILE_MB,
    huge_attribute,
    many_paragraphs,
    rebound_paragraphs,
    stored_paragraph,
    too_much_text,
)
from benchmarks.open_scaling import build_contract
from folio_desktop.docx import DocxReviewer, DocxTooLargeError
from folio_desktop.docx.package.limits import MAX_PARAGRAPHS

# open one file in a fresh process under a 3 GB address space; print its peak RSS and the outcome
_CHILD = r"""
import json, resource, sys
resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
sys.path.insert(0, sys.argv[2])
from folio_desktop.docx import DocxError, DocxReviewer
try:
    DocxReviewer.open(sys.argv[1])
    outcome = "opened"
except DocxError as exc:
    outcome = f"{type(exc).__name__}: {exc}"
except MemoryError:
    outcome = "MemoryError"
peak = next(int(line.split()[1]) / 1024 for line in open("/proc/self/status") if line.startswith("VmHWM:"))
print(json.dumps({"peak_mb": peak, "outcome": outcome}))
"""


def _open_in_child(path) -> dict:
    proc = subprocess.run([sys.executable, "-c", _CHILD, str(path), str(ROOT)], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("build", [
    pytest.param(many_paragraphs, id="1.5 million paragraphs"),
    pytest.param(lambda: stored_paragraph(50), id="a 50 MB paragraph, one w:t, stored"),
    pytest.param(lambda: stored_paragraph(50, runs=True), id="a 50 MB paragraph in runs, stored"),
    pytest.param(huge_attribute, id="a 50 MB attribute, stored"),
    pytest.param(too_much_text, id="41 million characters"),
])
def test_hostile_input_is_refused_within_100_mb(build, tmp_path):
    """Counted on its bytes as they are inflated, before any tree or block is built; the peak
    includes the interpreter (~25 MB) and the file itself (up to 50 MB here)."""
    path = tmp_path / "hostile.docx"
    path.write_bytes(build())
    result = _open_in_child(path)
    assert result["outcome"].startswith("DocxTooLargeError: "), result
    assert result["peak_mb"] < MAX_HOSTILE_MB, result


def test_the_paragraph_limit_holds_whatever_prefix_binds_the_namespace():
    """Paragraphs under a prefix bound on each of them escape a count on bytes; the parser counts
    them, on a tree it clears as it goes, before the document's tree is built."""
    with pytest.raises(DocxTooLargeError, match=f"more than {MAX_PARAGRAPHS:,} paragraphs"):
        DocxReviewer.from_bytes(rebound_paragraphs(MAX_PARAGRAPHS + 50_000))


def _traced_read(data: bytes) -> tuple[int, int, list]:
    """(bytes held, peak bytes) of Python's allocations over open + every block's text hash."""
    gc.collect()
    tracemalloc.start()
    try:
        snap = DocxReviewer.from_bytes(data).snapshot()
        for block in snap.blocks:
            block.text_hash  # noqa: B018 - computed lazily, forced here
        held, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return held, peak, snap.blocks


def test_a_block_costs_little_besides_its_text():
    """What an open keeps besides the tree (which lxml allocates, untraced): one small record per
    paragraph with its text, no copy of the part's bytes, nothing per run."""
    held, _peak, blocks = _traced_read(build_contract(3000))
    text = sum(len(b.text) + 49 for b in blocks) / len(blocks)  # (a str's own header: 49 bytes)
    per_block = held / len(blocks)
    assert per_block < text + 450, f"{per_block:.0f} bytes a block, {text:.0f} of them its text"


def test_opening_holds_no_copy_of_the_document_on_the_way():
    """The peak of an open whose main part streams into the parser (over 4 MiB) is what it keeps,
    near enough: the part's bytes are never held whole, nor a walk's garbage."""
    held, peak, blocks = _traced_read(build_contract(12_000))
    assert peak < 1.25 * held, f"peak {peak / 1e6:.1f} MB, held {held / 1e6:.1f} MB"
    assert peak / len(blocks) < 1000, f"peak {peak / len(blocks):.0f} bytes a paragraph"


def test_reading_makes_no_garbage_cycles():
    """The collector is paused while a story is read (every full collection would walk all the
    blocks made so far); what the read leaves for it must then be nothing, or it piles up."""
    data = build_contract(2000)
    gc.collect()
    gc.disable()
    try:
        snap = DocxReviewer.from_bytes(data).snapshot()
        for block in snap.blocks:
            block.text_hash  # noqa: B018
        garbage = gc.collect()
    finally:
        gc.enable()
    assert garbage < 400, f"{garbage} objects in reference cycles after reading {len(snap.blocks)} blocks"
