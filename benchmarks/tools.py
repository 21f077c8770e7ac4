"""Tool-call timings on the 75-page ILPA contract (issue 4): read_document, find_text, get_document_outline.

Each tool is timed on a freshly opened document ("cold": opening already reads the block snapshot,
see open_read.py for that; text hashes, projections, outline and search run inside the timing),
median of 5 runs, plus the same call again on the now warm document.

    python benchmarks/tools.py [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from folio_desktop.agents import create_reviewer_bridge, execute_tool_call  # noqa: E402
from folio_desktop.docx import DocxReviewer  # noqa: E402

ILPA = ROOT.parent / "shared" / "corpus" / "contract_ilpa_model_lpa_whole_of_fund_75p.docx"
CALLS = [
    ("read_document", {}, 150),
    ("find_text", {"query": "General Partner"}, 50),
    ("find_text", {"query": "capital contribution", "wholeWord": True}, 50),
    ("get_document_outline", {"maxDepth": 3}, 50),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    data = ILPA.read_bytes()
    failed = False
    print(f"{ILPA.name}: median of {args.runs} runs (ms)")
    print(f"{'tool':22} {'args':45} {'cold':>8} {'warm':>8} {'target':>7}  verdict")
    for name, tool_args, target in CALLS:
        cold, warm = [], []
        for _ in range(args.runs):
            bridge = create_reviewer_bridge(DocxReviewer.from_bytes(data))
            start = time.perf_counter()
            result = execute_tool_call(name, tool_args, bridge)
            cold.append((time.perf_counter() - start) * 1000)
            assert result["ok"], result
            start = time.perf_counter()
            execute_tool_call(name, tool_args, bridge)
            warm.append((time.perf_counter() - start) * 1000)
        c, w = statistics.median(cold), statistics.median(warm)
        ok = c < target
        failed |= not ok
        print(f"{name:22} {str(tool_args)[:45]:45} {c:8.1f} {w:8.1f} {'< ' + str(target):>7}  {'ok' if ok else 'MISS'}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
