"""A review session on large documents: paging through read_document, then edits and comments (issue 26).

Run from the project root::

    python benchmarks/session_scaling.py [--sizes 10000,40000,80000] [--repeats 5,10,40] [--edits 100]

For each document, in a fresh process of its own (this script with ``--child``, so its memory figures
start clean), through ``execute_tool_call`` and a reviewer bridge (``create_reviewer_bridge``), as Claude
would:

1. page through the whole document with ``read_document`` (default maxBlocks, following
   ``nextAfterBlockId`` to the end): total processor time, the first page (which reads what every page
   needs) and the median and 95th percentile of one page;
2. ``--edits`` calls of ``suggest_changes`` (one replaceInBlock each: one word of a block replaced, the
   blocks spread evenly over the document) alternating with ``--edits`` calls of ``add_comment`` (on other
   blocks, also spread over it): the median and 95th percentile of one call of each, and how many applied;
3. one ``read_document`` page after the edits (the first read of the edited document).

Resident memory (RSS, from /proc/self/statm) is taken after opening, after paging and after the edits
(each after a garbage collection), with the process's peak (ru_maxrss).

Documents: ``--sizes`` generated contracts of that many paragraphs (``open_scaling.build_contract``:
numbered clauses, a tracked insertion and deletion every 25 paragraphs, a comment every 60, footnotes,
tables) and the NVCA stock purchase agreement with its body repeated ``--repeats`` times (``longdoc``'s
approach; 10 copies is the ~520-page document).

Targets, each printed PASS or FAIL (n/a when the subset run lacks the documents it compares):

* paging the 80,000-paragraph document costs at most 10x paging the 10,000-paragraph one;
* one suggest_changes call (median) on 80,000 paragraphs costs at most 2x one on 10,000;
* resident memory grows by at most 100 MB over the edits on the ~520-page document (NVCA x10).

Times are processor seconds (time.process_time: the machine may be shared); wall seconds beside the
totals. Exit status 1 if a target fails.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
NVCA = CORPUS / "contract_nvca_stock_purchase_agreement_27p.docx"
MAX_PAGING_RATIO = 10.0  # paging 80k paragraphs / paging 10k
MAX_EDIT_RATIO = 2.0  # one suggest_changes call at 80k / at 10k
MAX_EDIT_GROWTH_MB = 100.0  # resident memory growth over the edits on the ~520-page document
LONG_REPEATS = 10  # NVCA x10: the ~520-page document
_WORD = re.compile(r"[A-Za-z]{5,}")


# -- child side: one document -------------------------------------------------------------------------


def rss_mb(collect: bool = True) -> float:
    """Resident memory now (after a garbage collection unless `collect` is False)."""
    if collect:
        gc.collect()
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e6
    except OSError:  # not Linux: the peak is the best there is
        return peak_mb()


def peak_mb() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 1e6 if sys.platform == "darwin" else peak / 1e3  # bytes on macOS, KiB elsewhere


def build(spec: str) -> bytes:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    kind, _, n = spec.partition(":")
    if kind == "generated":
        from open_scaling import build_contract

        return build_contract(int(n))
    from longdoc import build_long

    return build_long(NVCA, int(n))


def spread(items: list, count: int, phase: float = 0.0) -> list:
    """`count` items evenly spaced over `items` (offset by `phase` of a step)."""
    if not items:
        return []
    step = len(items) / count
    return [items[min(len(items) - 1, int((k + phase) * step))] for k in range(count)]


def unique_word(text: str) -> str | None:
    """A word of 5+ letters that occurs once in the text (so a replaceInBlock finds exactly it)."""
    for m in _WORD.finditer(text):
        if text.count(m.group()) == 1:
            return m.group()
    return None


def call(bridge, name: str, args: dict) -> tuple[dict, float, float]:
    from folio_desktop.agents import execute_tool_call

    c0, t0 = time.process_time(), time.perf_counter()
    out = execute_tool_call(name, args, bridge)
    cpu, wall = time.process_time() - c0, time.perf_counter() - t0
    if not out["ok"]:
        raise RuntimeError(f"{name}: {out['error']}")
    return out["result"], cpu, wall


def summary(costs: list[float]) -> dict:
    ordered = sorted(costs)
    return {"median": statistics.median(ordered) if ordered else None,
            "p95": ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] if ordered else None,
            "n": len(ordered)}


def child(spec: str, edits: int, max_rss: float) -> None:
    sys.path.insert(0, str(ROOT))
    from folio_desktop.agents import create_reviewer_bridge
    from folio_desktop.docx import DocxReviewer

    data = build(spec)
    rss_start = rss_mb()
    c0 = time.process_time()
    reviewer = DocxReviewer.from_bytes(data)
    open_cpu = time.process_time() - c0
    del data
    bridge = create_reviewer_bridge(reviewer)
    snapshot = reviewer.snapshot()
    out: dict = {"spec": spec, "blocks": len(snapshot.blocks), "openCpu": open_cpu, "rssStart": rss_start,
                 "rssOpen": rss_mb()}

    # 1. paging through read_document
    costs, args, wall, blocks = [], {}, 0.0, 0
    while True:
        page, cpu, seconds = call(bridge, "read_document", args)
        costs.append(cpu)
        wall += seconds
        blocks += len(page["blocks"])
        if not page["truncated"]:
            break
        args = {"afterBlockId": page["nextAfterBlockId"]}
    out.update(pages=len(costs), pagedBlocks=blocks, pagingCpu=sum(costs), pagingWall=wall, firstPage=costs[0],
               page=summary(costs[1:]), rssPaged=rss_mb())

    # 2. suggest_changes and add_comment, alternating, on blocks spread over the document
    candidates = [b for b in snapshot.blocks if b.is_content and b.kind != "diagnostic" and "[^" not in b.text]
    words = [(b, w) for b in candidates if (w := unique_word(b.text))]
    edited = spread(words, edits)
    taken = {b.id for b, _w in edited}
    commented = spread([b for b in candidates if b.id not in taken], edits, 0.5)
    suggest, comment, applied = [], [], {"suggest_changes": 0, "add_comment": 0}
    stopped = None
    for k in range(edits):
        if rss_mb(collect=False) > max_rss:  # a shared machine: stop before the edits' memory takes it down
            stopped = k
            break
        if k < len(edited):
            block, word = edited[k]
            replace = word.upper() if word != word.upper() else word.lower()
            result, cpu, _ = call(bridge, "suggest_changes", {"operations": [
                {"type": "replaceInBlock", "blockId": block.id, "find": word, "replace": replace}]})
            suggest.append(cpu)
            applied["suggest_changes"] += len(result["applied"])
        if k < len(commented):
            result, cpu, _ = call(bridge, "add_comment", {"blockId": commented[k].id,
                                                          "text": f"Reviewer note {k + 1}: please confirm this clause."})
            comment.append(cpu)
            applied["add_comment"] += len(result["applied"])
    out.update(suggest=summary(suggest), comment=summary(comment), applied=applied, stoppedAt=stopped,
               rssEdited=rss_mb())

    # 3. the first read of the edited document
    _page, cpu, _ = call(bridge, "read_document", {})
    out.update(readAfterEdits=cpu, rssPeak=peak_mb())
    print(json.dumps(out))


# -- parent side --------------------------------------------------------------------------------------


def run_child(spec: str, edits: int, max_rss: float, timeout: float) -> dict:
    try:
        proc = subprocess.run([sys.executable, __file__, "--child", spec, "--edits", str(edits),
                               "--max-rss", str(max_rss)],
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"spec": spec, "error": f"still running after {timeout:g} s"}
    if proc.returncode != 0:
        lines = (proc.stderr or proc.stdout).strip().splitlines() or [f"exit status {proc.returncode}"]
        return {"spec": spec, "error": lines[-1]}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def label(spec: str) -> str:
    kind, _, n = spec.partition(":")
    return f"{int(n):,} paragraphs" if kind == "generated" else f"NVCA x{n}"


def ms(value: float | None) -> str:
    return f"{value * 1000:8.1f}" if value is not None else f"{'-':>8}"


def verdict(ok: bool | None, text: str) -> bool:
    print(f"  {'n/a ' if ok is None else 'PASS' if ok else 'FAIL'}  {text}")
    return ok is not False


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="10000,40000,80000", help="paragraph counts of the generated documents "
                    "(empty: none)")
    ap.add_argument("--repeats", default="5,10,40", help="copies of the NVCA body (empty: none)")
    ap.add_argument("--edits", type=int, default=100, help="suggest_changes calls, and as many add_comment calls")
    ap.add_argument("--max-rss", type=float, default=4000.0, help="MB of resident memory past which a document's "
                    "edits stop (reported), so a leak cannot exhaust the machine (default 4000)")
    ap.add_argument("--timeout", type=float, default=3600.0, help="seconds before a document counts as hung")
    ap.add_argument("--child", metavar="SPEC", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        child(args.child, args.edits, args.max_rss)
        return 0

    specs = [f"generated:{int(n)}" for n in args.sizes.split(",") if n.strip()]
    specs += [f"nvca:{int(n)}" for n in args.repeats.split(",") if n.strip()]
    print(f"Python {sys.version.split()[0]}; processor time in ms (wall beside totals); one fresh process per "
          f"document; {args.edits} suggest_changes and {args.edits} add_comment calls")
    print(f"{'document':<18} {'blocks':>7} {'open s':>7} {'pages':>5} {'paging s':>8} {'wall s':>7} {'1st page':>8} "
          f"{'page med':>8} {'p95':>8} {'suggest':>8} {'p95':>8} {'comment':>8} {'p95':>8} {'read after':>10} "
          f"{'RSS open':>8} {'paged':>7} {'edited':>7} {'growth':>7} {'peak':>7}")
    rows = {}
    for spec in specs:
        row = rows[spec] = run_child(spec, args.edits, args.max_rss, args.timeout)
        if "error" in row:
            print(f"{label(spec):<18} error: {row['error']}")
            continue
        growth = row["rssEdited"] - row["rssPaged"]
        print(f"{label(spec):<18} {row['blocks']:>7,} {row['openCpu']:7.2f} {row['pages']:>5} {row['pagingCpu']:8.2f} "
              f"{row['pagingWall']:7.2f} {ms(row['firstPage'])} {ms(row['page']['median'])} {ms(row['page']['p95'])} "
              f"{ms(row['suggest']['median'])} {ms(row['suggest']['p95'])} {ms(row['comment']['median'])} "
              f"{ms(row['comment']['p95'])} {ms(row['readAfterEdits']):>10} {row['rssOpen']:8.0f} "
              f"{row['rssPaged']:7.0f} {row['rssEdited']:7.0f} {growth:7.0f} {row['rssPeak']:7.0f}")
        done = row["applied"]
        if row["stoppedAt"] is not None:
            print(f"{'':<18} edits stopped after {row['stoppedAt']} of {args.edits} pairs: resident memory passed "
                  f"--max-rss {args.max_rss:g} MB")
        if done["suggest_changes"] < row["suggest"]["n"] or done["add_comment"] < row["comment"]["n"]:
            print(f"{'':<18} applied: {done['suggest_changes']} of {row['suggest']['n']} suggest_changes, "
                  f"{done['add_comment']} of {row['comment']['n']} add_comment")
    print("(RSS in MB; growth: over the edits)")

    def good(spec: str) -> dict | None:
        row = rows.get(spec)
        return row if row is not None and "error" not in row else None

    print("\nTargets")
    small, large, long_doc = good("generated:10000"), good("generated:80000"), good(f"nvca:{LONG_REPEATS}")
    passed = True
    if small and large:
        ratio = large["pagingCpu"] / small["pagingCpu"]
        passed &= verdict(ratio <= MAX_PAGING_RATIO, f"paging 80,000 / 10,000 paragraphs: {ratio:.1f}x "
                          f"({large['pagingCpu']:.2f} s / {small['pagingCpu']:.2f} s; at most {MAX_PAGING_RATIO:g}x)")
        edit = large["suggest"]["median"] / small["suggest"]["median"]
        passed &= verdict(edit <= MAX_EDIT_RATIO, f"one suggest_changes call at 80,000 / 10,000 paragraphs: "
                          f"{edit:.1f}x ({ms(large['suggest']['median']).strip()} ms / "
                          f"{ms(small['suggest']['median']).strip()} ms median; at most {MAX_EDIT_RATIO:g}x)")
    else:
        verdict(None, "paging 80,000 / 10,000 paragraphs (needs --sizes with 10000 and 80000)")
        verdict(None, "one suggest_changes call at 80,000 / 10,000 paragraphs (needs --sizes with 10000 and 80000)")
    if long_doc:
        growth = long_doc["rssEdited"] - long_doc["rssPaged"]
        made = long_doc["suggest"]["n"] + long_doc["comment"]["n"]
        cut = f", stopped at --max-rss after {made} of {2 * args.edits}" if long_doc["stoppedAt"] is not None else ""
        passed &= verdict(growth <= MAX_EDIT_GROWTH_MB and not cut, f"memory growth over {2 * args.edits} edits on "
                          f"the ~520-page document (NVCA x{LONG_REPEATS}): {growth:.0f} MB{cut} "
                          f"(at most {MAX_EDIT_GROWTH_MB:g} MB)")
    else:
        verdict(None, f"memory growth over the edits on the ~520-page document (needs --repeats with {LONG_REPEATS})")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
