"""How long the contract checks take: the ILPA (budget 300 ms), the ~520-page NVCA x10 (budget 3 s), and
a re-run after one edit on the ILPA, as the window would after every edit (budget 200 ms).

    python benchmarks/checks_speed.py            # median of 5 runs each; exit 1 when over budget
The document is open before the clock starts: the time is the checks' own (reading the snapshot included)."""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from longdoc import build_long_nvca  # noqa: E402

from folio_desktop.checks import CheckSession, check_document  # noqa: E402
from folio_desktop.docx import DocxReviewer  # noqa: E402

ILPA = Path(__file__).resolve().parents[1] / ".." / "shared" / "corpus" / "contract_ilpa_model_lpa_whole_of_fund_75p.docx"


def _median_ms(run, times: int = 5) -> float:
    samples = []
    for _ in range(times):
        start = time.perf_counter()
        run()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def _fresh(data: bytes):
    """A freshly opened reviewer each time: nothing read before the clock starts but the package."""
    reviewers = iter([DocxReviewer.from_bytes(data) for _ in range(5)])
    return lambda: check_document(next(reviewers))


def main() -> int:
    ilpa = ILPA.read_bytes()
    long = build_long_nvca(repeats=10)
    ilpa_ms = _median_ms(_fresh(ilpa))
    long_ms = _median_ms(_fresh(long))
    rev = DocxReviewer.from_bytes(ilpa)
    session = CheckSession()
    session.run(rev)
    block = next(b for b in rev.snapshot().blocks if "Management Fee" in b.text and len(b.text) > 200)

    def edit_and_check():
        rev.apply_document_operations({"version": 1, "mode": "tracked-changes", "operations": [
            {"type": "insertAfterBlock", "blockId": block.id, "text": "The General Partner shall act in good faith."}]})
        session.run(rev)
    rerun_ms = _median_ms(edit_and_check)
    figures = [("ILPA (75 pages)", ilpa_ms, 300), ("NVCA x10 (~520 pages)", long_ms, 3000),
               ("ILPA re-run after an edit", rerun_ms, 200)]
    for name, ms, budget in figures:
        print(f"{name:28s} {ms:8.0f} ms  (budget {budget} ms){'' if ms <= budget else '  OVER'}")
    return 0 if all(ms <= budget for _n, ms, budget in figures) else 1


if __name__ == "__main__":
    raise SystemExit(main())
