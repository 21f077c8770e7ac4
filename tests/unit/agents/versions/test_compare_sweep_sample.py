"""A sample of benchmarks/compare_sweep.py (issue 28, acceptance 2): real files from the wild corpus, each
compared against a copy with words changed and a paragraph deleted, must give a redline whose
accept-all is the copy and whose reject-all the original. The whole sweep runs as a benchmark."""

from __future__ import annotations

import pytest
from conftest import CORPUS

from benchmarks.compare_sweep import edited_copy, one

WILD = CORPUS / "wild"
# a tracked-changes test file, a contract template, a table, numbering: small and varied
SAMPLE = ("JSv4+Docxodus/TestFiles/CA/CA014-Complex-Table.docx",
          "open-agreements+open-agreements",
          "JSv4+Docxodus/NewDocxDocuments/RevisionTracking.docx")


def _files() -> list:
    out = []
    for entry in SAMPLE:
        path = WILD / entry
        out.append(path if path.suffix == ".docx" else min(path.rglob("*.docx"), key=lambda f: f.stat().st_size))
    return out


@pytest.mark.parametrize("path", _files() if WILD.is_dir() else [], ids=lambda p: p.name)
def test_a_wild_file_compares_against_its_edited_copy(path):
    copy, done = edited_copy(path.read_bytes())
    assert copy is not None and "words" in done
    result = one(path, timeout=120)
    assert (result["step"], result["outcome"]) == ("check", "ok"), result["detail"]
