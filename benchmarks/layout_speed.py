"""Layout speed on the ~520-page document (benchmarks/longdoc.py: the NVCA body x10), side by side
with LibreOffice's headless PDF conversion of the same file.

Reports: open, time to the first laid-out page, full layout, page count and peak RSS (each in a
fresh process, median of 3), then LibreOffice's conversion time. Targets: first page < 1 s, full
layout < 3 s, peak RSS < 600 MB.

    python benchmarks/layout_speed.py [--runs N] [--no-libreoffice]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHILD = r"""
import json, os, resource, sys, time
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, sys.argv[2])
from PySide6.QtGui import QGuiApplication
app = QGuiApplication([])
from folio_desktop.docx import DocxReviewer
from folio_desktop.layout.engine import Paginator
t0 = time.perf_counter()
c0 = time.process_time()
rev = DocxReviewer.open(sys.argv[1])
t1 = time.perf_counter()
pages = Paginator(rev.document).run()
next(pages)
t2 = time.perf_counter()
count = 1 + sum(1 for _ in pages)
t3 = time.perf_counter()
print(json.dumps({"open": t1 - t0, "first": t2 - t0, "full": t3 - t0, "cpu": time.process_time() - c0, "pages": count,
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def _calibration_ms() -> float:
    import timeit

    return min(timeit.repeat("sum(range(10**6))", number=5, repeat=5)) / 5 * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-libreoffice", action="store_true")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from longdoc import build_long_nvca

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "nvca_x10.docx"
        path.write_bytes(build_long_nvca(10))
        runs = []
        for _ in range(args.runs):
            out = subprocess.run([sys.executable, "-c", CHILD, str(path), str(ROOT)], capture_output=True, text=True,
                                 check=True)
            runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
        med = {k: statistics.median(r[k] for r in runs) for k in ("open", "first", "full", "cpu", "rss_mb")}
        print(f"{path.name}: {runs[0]['pages']} pages (median of {args.runs} fresh processes)")
        print(f"  open {med['open']:.2f} s   first page {med['first']:.2f} s (target < 1 s)   "
              f"full layout {med['full']:.2f} s (target < 3 s)   peak RSS {max(r['rss_mb'] for r in runs):.0f} MB "
              "(target < 600 MB)")
        # a shared host's other tenants stretch the wall clock: the processor time and a fixed
        # pure-Python loop timed in the same run say how much of a figure is the machine
        print(f"  processor time, open and full layout: {med['cpu']:.2f} s   this machine runs "
              f"sum(range(10**6)) in {_calibration_ms():.1f} ms")
        ok = med["first"] < 1 and med["full"] < 3 and max(r["rss_mb"] for r in runs) < 600
        if not args.no_libreoffice:
            profile = Path(tmp) / "profile"
            start = time.perf_counter()
            subprocess.run(["soffice", f"-env:UserInstallation=file://{profile}", "--headless", "--convert-to", "pdf",
                            "--outdir", tmp, str(path)], capture_output=True, check=False)
            lo = time.perf_counter() - start
            pdf = Path(tmp) / "nvca_x10.pdf"
            pages = "?"
            if pdf.exists():
                info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True).stdout
                pages = next((line.split()[-1] for line in info.splitlines() if line.startswith("Pages:")), "?")
            print(f"  LibreOffice headless PDF conversion: {lo:.2f} s, {pages} pages "
                  f"(ratio LibreOffice/ours {lo / med['full']:.1f}x)")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
