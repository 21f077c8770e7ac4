"""Open-and-read benchmark: folio_desktop's DocxReviewer against python-docx.

Run from the project root::

    python benchmarks/open_read.py [--runs 5] [--repeats 10] [--json OUT]

Inputs: ``../shared/corpus/contract_ilpa_model_lpa_whole_of_fund_75p.docx``
and the long NVCA document from ``benchmarks/longdoc.py`` (``--repeats``
copies of the 52-page agreement, about 520 pages; built once into a temp
file).  Readers:

* ours: ``DocxReviewer.open(path).snapshot()`` plus every block's text hash (hashes are computed
  lazily, so they are forced here to time a full read); count = ``len(snap.blocks)``
* python-docx: ``docx.Document(path)``, then the text of every paragraph in
  document order, table cells included (nested tables recursed, a merged
  cell read once); count = number of paragraphs

Every measurement runs in a fresh Python process (this script with
``--child``) that imports its reader first (not timed), times open + read and
prints JSON: seconds, peak RSS (``ru_maxrss``) in MB and the count.  Runs of
the two readers alternate.  The table shows the median time, the ratio
ours/python-docx, the largest peak RSS over the runs and the counts, next to
the targets (ours at most 2x python-docx time, peak RSS under 400 MB).  A
failing child is reported with its error and makes the exit status 1.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / ".." / "shared" / "corpus"
ILPA = CORPUS / "contract_ilpa_model_lpa_whole_of_fund_75p.docx"
READERS = ("ours", "python-docx")
MAX_RATIO, MAX_RSS_MB = 2.0, 400.0


# -- child side: one measurement -------------------------------------------------
def _reader_ours():
    sys.path.insert(0, str(ROOT))
    from folio_desktop.docx import DocxReviewer

    def read(path: str) -> int:
        rev = DocxReviewer.open(path)
        snap = rev.snapshot()
        # a full read: every block's text hash and label, as read_document needs them
        for block in snap.blocks:
            block.text_hash  # noqa: B018 - computed lazily, forced here
        return len(snap.blocks)

    return read


def _reader_python_docx():
    import docx
    from docx.table import Table

    def texts(container):
        for item in container.iter_inner_content():
            if isinstance(item, Table):
                seen = set()  # row.cells repeats merged cells; read each once
                for row in item.rows:
                    for cell in row.cells:
                        if cell._tc not in seen:
                            seen.add(cell._tc)
                            yield from texts(cell)
            else:
                yield item.text

    def read(path: str) -> int:
        return sum(1 for _ in texts(docx.Document(path)))

    return read


def child(reader: str, path: str) -> None:
    read = {"ours": _reader_ours, "python-docx": _reader_python_docx}[reader]()
    t0 = time.perf_counter()
    count = read(path)
    seconds = time.perf_counter() - t0
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    print(json.dumps({"seconds": seconds, "peak_rss_mb": rss_mb, "count": count}))


# -- parent side ---------------------------------------------------------------
def measure(reader: str, path: Path) -> dict:
    proc = subprocess.run([sys.executable, __file__, "--child", reader, str(path)],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        lines = (proc.stderr or proc.stdout).strip().splitlines() or [f"exit status {proc.returncode}"]
        return {"error": lines[-1]}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def bench(name: str, path: Path, runs: int) -> list[dict]:
    samples: dict[str, list[dict]] = {r: [] for r in READERS}
    errors: dict[str, str] = {}
    for _ in range(runs):
        for reader in READERS:
            if reader in errors:
                continue
            result = measure(reader, path)
            if "error" in result:
                errors[reader] = result["error"]
            else:
                samples[reader].append(result)
    rows = []
    for reader in READERS:
        s = samples[reader]
        rows.append({
            "input": name, "reader": reader, "runs": len(s), "error": errors.get(reader),
            "median_s": statistics.median(x["seconds"] for x in s) if s else None,
            "peak_rss_mb": max(x["peak_rss_mb"] for x in s) if s else None,
            "count": s[0]["count"] if s else None,
        })
    ours, theirs = rows
    if ours["median_s"] is not None and theirs["median_s"]:
        ours["ratio"] = ours["median_s"] / theirs["median_s"]
    return rows


def _fmt(row: dict, width: int) -> str:
    if row["error"] and row["median_s"] is None:
        return f"{row['input']:<{width}} {row['reader']:<12} FAILED: {row['error']}"
    unit = "blocks" if row["reader"] == "ours" else "paragraphs"
    ratio = row.get("ratio")
    ratio_s = (f"{ratio:5.2f}x {'ok' if ratio <= MAX_RATIO else 'OVER':<4}" if ratio is not None
               else f"{'':11}")
    rss = row["peak_rss_mb"]
    return (f"{row['input']:<{width}} {row['reader']:<12} {row['median_s']:9.3f} {ratio_s} "
            f"{rss:8.1f} {'ok' if rss < MAX_RSS_MB else 'OVER':<4} {row['count']:>7} {unit}"
            + (f"  (error: {row['error']})" if row["error"] else ""))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5, help="runs per reader and input (default 5)")
    ap.add_argument("--repeats", type=int, default=10, help="NVCA copies in the long document (default 10)")
    ap.add_argument("--json", type=Path, metavar="OUT", help="also write the results as JSON")
    ap.add_argument("--child", nargs=2, metavar=("READER", "PATH"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        child(*args.child)
        return 0

    with tempfile.TemporaryDirectory() as tmp:
        long_path = Path(tmp) / f"nvca_x{args.repeats}.docx"
        # built in a subprocess: this process stays small, because on Linux a
        # child's ru_maxrss starts from the parent's RSS at fork/exec time
        subprocess.run([sys.executable, str(Path(__file__).with_name("longdoc.py")), str(long_path),
                        "--repeats", str(args.repeats)], check=True, stdout=subprocess.DEVNULL)
        inputs = [(ILPA.name, ILPA), (f"longdoc.py NVCA x{args.repeats}", long_path)]
        width = max(len(name) for name, _ in inputs)
        print(f"{args.runs} runs each, fresh process per run, Python {sys.version.split()[0]}")
        print(f"targets: ours <= {MAX_RATIO:g}x python-docx median time; peak RSS < {MAX_RSS_MB:g} MB\n")
        print(f"{'input':<{width}} {'reader':<12} {'median s':>9} {'ours/pydocx':<11} "
              f"{'peak MB':>8} {'':4} {'count':>7}")
        results = []
        for name, path in inputs:
            rows = bench(name, path, args.runs)
            results += rows
            for row in rows:
                print(_fmt(row, width), flush=True)
    if args.json:
        args.json.write_text(json.dumps({"runs": args.runs, "repeats": args.repeats,
                                         "max_ratio": MAX_RATIO, "max_rss_mb": MAX_RSS_MB,
                                         "results": results}, indent=2))
    return 1 if any(r["error"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
