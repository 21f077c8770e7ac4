"""Apply/save benchmark: the 50-operation mixed batch on the 75-page ILPA model LPA.

Run from the project root::

    python benchmarks/apply_ops.py [--runs 5] [--mode tracked-changes|direct] [--profile] [--json OUT]

The batch comes from ``benchmarks/sample_batches.py`` (``mixed_batch``: replacements, inserts,
deletes, comments, formatting, paragraph properties and table rows on 50 disjoint blocks).  Each run
opens a fresh DocxReviewer (not timed), then times ``apply_document_operations(batch)`` and
``to_bytes()`` separately.  The medians are printed next to the targets (apply < 300 ms,
save < 500 ms) with the applied/skipped counts.  When a median misses its target, or with
``--profile``, one more run is profiled with cProfile and the top functions are printed.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from sample_batches import ILPA, DocxReviewer, mixed_batch  # noqa: E402

TARGETS_MS = {"apply": 300.0, "save": 500.0}


def one_run(batch: dict) -> tuple[float, float, dict]:
    rev = DocxReviewer.open(ILPA)
    t0 = time.perf_counter()
    result = rev.apply_document_operations(batch)
    t1 = time.perf_counter()
    rev.to_bytes()
    t2 = time.perf_counter()
    return (t1 - t0) * 1000, (t2 - t1) * 1000, result


def profile(batch: dict, step: str, top: int = 25) -> str:
    rev = DocxReviewer.open(ILPA)
    prof = cProfile.Profile()
    if step == "apply":
        prof.runcall(rev.apply_document_operations, batch)
    else:
        rev.apply_document_operations(batch)
        prof.runcall(rev.to_bytes)
    out = io.StringIO()
    stats = pstats.Stats(prof, stream=out).strip_dirs()
    stats.sort_stats("cumulative").print_stats(top)
    stats.sort_stats("tottime").print_stats(top)
    return out.getvalue()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--mode", default="tracked-changes", choices=("tracked-changes", "direct"))
    ap.add_argument("--profile", action="store_true", help="profile apply and save even when on target")
    ap.add_argument("--json", type=Path, metavar="OUT")
    args = ap.parse_args(argv)

    batch = mixed_batch(DocxReviewer.open(ILPA), args.mode)
    kinds: dict[str, int] = {}
    for op in batch["operations"]:
        kinds[op["type"]] = kinds.get(op["type"], 0) + 1
    samples = {"apply": [], "save": []}
    counts = set()
    for _ in range(args.runs):
        apply_ms, save_ms, result = one_run(batch)
        samples["apply"].append(apply_ms)
        samples["save"].append(save_ms)
        counts.add((len(result["applied"]), len(result["skipped"])))
    applied, skipped = max(counts)
    medians = {k: statistics.median(v) for k, v in samples.items()}

    print(f"{ILPA.name}: {len(batch['operations'])} operations, mode {args.mode}, Python {sys.version.split()[0]}")
    print("  " + ", ".join(f"{t} {n}" for t, n in kinds.items()))
    print(f"applied {applied}, skipped {skipped}" + ("" if len(counts) == 1 else f" (runs differ: {sorted(counts)})"))
    print(f"\n{'step':<6} {'median ms':>10} {'min ms':>8} {'max ms':>8} {'target ms':>10}  verdict   ({args.runs} runs)")
    misses = []
    for step in ("apply", "save"):
        ok = medians[step] < TARGETS_MS[step]
        misses += [] if ok else [step]
        print(f"{step:<6} {medians[step]:>10.1f} {min(samples[step]):>8.1f} {max(samples[step]):>8.1f} "
              f"{f'< {TARGETS_MS[step]:g}':>10}  {'ok' if ok else 'MISSED'}")
    print("(save = to_bytes(); each run on a fresh DocxReviewer, open not timed)")
    for step in (("apply", "save") if args.profile else misses):
        print(f"\n--- cProfile of {step} (one extra run) ---")
        print(profile(batch, step))
    if args.json:
        args.json.write_text(json.dumps({
            "document": ILPA.name, "operations": len(batch["operations"]), "mode": args.mode, "runs": args.runs,
            "applied": applied, "skipped": skipped, "samples_ms": samples, "median_ms": medians,
            "targets_ms": TARGETS_MS, "missed": misses}, indent=2))
    return 1 if misses or skipped or applied != len(batch["operations"]) else 0


if __name__ == "__main__":
    sys.exit(main())
