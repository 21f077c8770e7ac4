"""What an edit costs as the document grows, and what the undo history holds (issue 26).

Run from the project root::

    python benchmarks/edit_costs.py [--sizes 10000,80000] [--calls 20] [--edits 100]

Each measurement runs in a fresh process (this script with ``--child``):

* ``suggest N``: a generated contract of N paragraphs (open_scaling.build_contract), a one-word
  replaceInBlock through ``execute_tool_call("suggest_changes", ...)`` over ``create_reviewer_bridge``,
  processor time per call after a warm-up (min and median of --calls calls); add_comment and an
  undo of the latest batch the same way.
* ``memory``: the ~520-page NVCA x10 (longdoc.build_long_nvca): the process's resident memory before
  and after --edits suggest_changes and --edits add_comment through the tools.
* ``mcp``: the ILPA through ``folio-desktop mcp``'s document host (SharedDocument: every call saved to
  the output): resident memory before and after 40 add_comment calls.
* ``window``: the ILPA with the review desk's undo stack (ReviewActions, as the window's MCP share
  runs a client's call: one agent turn per call): resident memory before and after 60 add_comment.

The table prints each figure and the acceptance checks: 80,000 paragraphs within 2x the time of
10,000, and memory growth over the 200 edits at most 100 MB.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
ILPA = CORPUS / "contract_ilpa_model_lpa_whole_of_fund_75p.docx"


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _targets(rev):
    """Paragraphs with a word found once in them (the word): a one-word replaceInBlock each."""
    out = []
    for b in rev.snapshot().blocks:
        if b.kind != "paragraph" or b.table is not None:
            continue
        words = [w for w in re.findall(r"[A-Za-z]{6,}", b.text) if len(re.findall(rf"\b{w}\b", b.text)) == 1
                 and b.text.count(w) == 1]
        if words:
            out.append((b.id, words[0]))
    return out


def _timed(action, calls: int) -> dict:
    samples = []
    for i in range(calls):
        start = time.process_time()
        action(i)
        samples.append(time.process_time() - start)
    return {"min": min(samples), "median": statistics.median(samples)}


def child_suggest(n: int, calls: int) -> dict:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from open_scaling import build_contract

    from folio_desktop.agents import execute_tool_call
    from folio_desktop.agents.bridges import create_reviewer_bridge
    from folio_desktop.docx import DocxReviewer

    rev = DocxReviewer.from_bytes(build_contract(n))
    bridge = create_reviewer_bridge(rev)
    targets = _targets(rev)

    def suggest(i):
        block_id, word = targets[i]
        envelope = execute_tool_call("suggest_changes", {"operations": [
            {"type": "replaceInBlock", "blockId": block_id, "find": word, "replace": word.upper() + "X"}]}, bridge)
        assert envelope["ok"] and envelope["result"]["applied"], envelope

    def comment(i):
        envelope = execute_tool_call("add_comment", {"blockId": targets[i][0], "text": "Why?"}, bridge)
        assert envelope["ok"] and envelope["result"]["applied"], envelope

    suggest(0)  # warm-up
    comment(1)
    out = {"blocks": len(rev.snapshot().blocks)}
    out["suggest"] = _timed(lambda i: suggest(2 + i), calls)
    out["comment"] = _timed(lambda i: comment(2 + calls + i), calls)
    engine = rev.engine
    out["undo"] = _timed(lambda i: engine.undo(engine._undo[-1].handle), calls)
    return out


def child_memory(edits: int) -> dict:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from longdoc import build_long_nvca

    from folio_desktop.agents import execute_tool_call
    from folio_desktop.agents.bridges import create_reviewer_bridge
    from folio_desktop.docx import DocxReviewer

    rev = DocxReviewer.from_bytes(build_long_nvca(10))
    bridge = create_reviewer_bridge(rev)
    targets = _targets(rev)
    gc.collect()
    before, start = rss_mb(), time.process_time()
    for i in range(edits):
        block_id, word = targets[i]
        envelope = execute_tool_call("suggest_changes", {"operations": [
            {"type": "replaceInBlock", "blockId": block_id, "find": word, "replace": word.upper() + "X"}]}, bridge)
        assert envelope["ok"] and envelope["result"]["applied"], envelope
        envelope = execute_tool_call("add_comment", {"blockId": targets[edits + i][0], "text": f"Note {i}."}, bridge)
        assert envelope["ok"] and envelope["result"]["applied"], envelope
    gc.collect()
    return {"blocks": len(rev.snapshot().blocks), "before_mb": before, "after_mb": rss_mb(),
            "cpu_s": time.process_time() - start}


def child_mcp(calls: int) -> dict:
    from folio_desktop.sharing.mcp_server import SharedDocument

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "ilpa.docx"
        path.write_bytes(ILPA.read_bytes())
        shared = SharedDocument(str(path), "Claude", str(Path(folder) / "ilpa-reviewed.docx"))
        targets = _targets(shared.reviewer)
        gc.collect()
        before = rss_mb()
        for i in range(calls):
            result = shared.call("add_comment", {"blockId": targets[i][0], "text": f"Note {i}."})
            assert not result.is_error, result
        gc.collect()
        return {"before_mb": before, "after_mb": rss_mb()}


def child_window(calls: int) -> dict:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication

    from folio_desktop.agents import execute_tool_call
    from folio_desktop.agents.bridges import create_reviewer_bridge
    from folio_desktop.docx import DocxReviewer
    from folio_desktop.ui.review_actions import ReviewActions

    app = QGuiApplication.instance() or QGuiApplication([])
    rev = DocxReviewer.open(ILPA, author="Lawyer")
    actions = ReviewActions(rev, "Lawyer")
    bridge = create_reviewer_bridge(rev)
    targets = _targets(rev)
    gc.collect()
    before = rss_mb()
    for i in range(calls):
        actions.begin_agent_turn("", merge_key=("mcp", i // 10), text="client's edits")
        envelope = execute_tool_call("add_comment", {"blockId": targets[i][0], "text": f"Note {i}."}, bridge)
        actions.end_agent_turn()
        assert envelope["ok"], envelope
    gc.collect()
    out = {"before_mb": before, "after_mb": rss_mb(), "steps": actions.undo_stack.count()}
    del app
    return out


def run_child(*args: str) -> dict:
    proc = subprocess.run([sys.executable, __file__, "--child", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=3600)
    if proc.returncode != 0:
        raise SystemExit(proc.stderr[-3000:])
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="10000,80000", help="paragraph counts, smallest first")
    ap.add_argument("--calls", type=int, default=20, help="timed calls per kind and size (default 20)")
    ap.add_argument("--edits", type=int, default=100, help="suggest_changes and add_comment calls each (default 100)")
    ap.add_argument("--only", default="suggest,memory,mcp,window", help="which measurements")
    ap.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    if args.child:
        kind, *rest = args.child
        out = {"suggest": lambda: child_suggest(int(rest[0]), int(rest[1])), "memory": lambda: child_memory(int(rest[0])),
               "mcp": lambda: child_mcp(40), "window": lambda: child_window(60)}[kind]()
        print(json.dumps(out))
        return 0
    only = args.only.split(",")
    ok = True
    if "suggest" in only:
        sizes = [int(s) for s in args.sizes.split(",")]
        rows = {n: run_child("suggest", str(n), str(args.calls)) for n in sizes}
        print(f"{'paragraphs':>10} {'blocks':>7} | {'suggest min/median ms':>22} | {'comment min/median ms':>22} |"
              f" {'undo min/median ms':>19}")
        for n, r in rows.items():
            cells = [f"{r[k]['min'] * 1000:9.2f} / {r[k]['median'] * 1000:8.2f}" for k in ("suggest", "comment", "undo")]
            print(f"{n:>10} {r['blocks']:>7} | {cells[0]:>22} | {cells[1]:>22} | {cells[2]:>19}")
        small, large = rows[sizes[0]], rows[sizes[-1]]
        for k in ("suggest", "comment", "undo"):
            ratio = large[k]["min"] / small[k]["min"]
            ratio_median = large[k]["median"] / small[k]["median"]
            print(f"{k}: {sizes[-1]:,} / {sizes[0]:,} = {ratio:.2f}x (min), {ratio_median:.2f}x (median)")
            ok &= k != "suggest" or ratio <= 2.0
    if "memory" in only:
        r = run_child("memory", str(args.edits))
        growth = r["after_mb"] - r["before_mb"]
        print(f"NVCA x10 ({r['blocks']} blocks): {args.edits} suggest_changes + {args.edits} add_comment: "
              f"RSS {r['before_mb']:.0f} -> {r['after_mb']:.0f} MB (+{growth:.0f} MB), {r['cpu_s']:.1f} s CPU")
        ok &= growth <= 100
    if "mcp" in only:
        r = run_child("mcp")
        print(f"ILPA, folio-desktop mcp's host, 40 add_comment: RSS {r['before_mb']:.0f} -> {r['after_mb']:.0f} MB")
    if "window" in only:
        r = run_child("window")
        print(f"ILPA, the review desk's undo stack, 60 add_comment as MCP turns: RSS {r['before_mb']:.0f} -> "
              f"{r['after_mb']:.0f} MB ({r['steps']} undo steps)")
    print("acceptance:", "met" if ok else "NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
