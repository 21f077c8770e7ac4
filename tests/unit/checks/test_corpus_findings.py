"""The checks against findings verified by hand on five corpus contracts (tests/data/checks/<name>.json:
what a careful associate flags, and the engine's former false findings rejected with a reason):
precision and recall of at least 0.9 on every kind, per document."""

import json
from collections import defaultdict
from pathlib import Path

import pytest
from corpus_documents import NAMES, open_document

from folio_desktop.checks import KINDS, check_document

DATA = Path(__file__).resolve().parents[2] / "data" / "checks"


def scores(expected: list[dict], found: list[dict]) -> dict:
    """{kind: (precision, recall)} on (kind, text, blockId); a kind nobody expects or finds scores 1.0."""
    want, got = defaultdict(set), defaultdict(set)
    for e in expected:
        want[e["kind"]].add((e["text"], e["blockId"]))
    for f in found:
        got[f["kind"]].add((f["text"], f["blockId"]))
    out = {}
    for kind in KINDS:
        hit = len(want[kind] & got[kind])
        out[kind] = (hit / len(got[kind]) if got[kind] else 1.0, hit / len(want[kind]) if want[kind] else 1.0)
    return out


@pytest.mark.parametrize("name", NAMES)
def test_findings_match_what_a_careful_reader_flags(name):
    data = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
    report = check_document(open_document(name))
    short = {k: s for k, s in scores(data["expected"], report["findings"]).items() if min(s) < 0.9}
    assert not short, short
