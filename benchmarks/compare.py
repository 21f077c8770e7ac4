"""Benchmark: our redline CLI against python-redlines on the same document pairs, side by side.

Run from the project root::

    pip install "python-redlines[docxodus]"      # its documented engine (a .NET binary in the wheel)
    python benchmarks/compare.py                 # timings, then LibreOffice opens each of our outputs
    python benchmarks/compare.py --no-libreoffice

Pairs: every corpus file with tracked changes (base = all rejected, revised = all accepted), three
pairs built here by editing real documents (two contracts and the 78-page wgig report, 12 to 24
edits), and the long pair: the NVCA contract's body repeated --long times (benchmarks/longdoc.py,
about 52 pages a copy: 17 copies are about 870 pages) against a copy with 20 edits, run once
(acceptance, issue 15: under 20 s, with progress on stderr). Each tool runs as its own process per pair
(`python -m folio_desktop compare OLD NEW -o OUT` and a python-redlines `run_redline` call), three
times; the median is reported (wall time, and our CPU time, which is what a loaded machine does not
inflate), with the ratio python-redlines / ours (> 1 means we are faster). Both run from bytecode
compiled once into a private cache, as installed packages do (pip compiles at install); with
--from-source, runs under PYTHONDONTWRITEBYTECODE compile every module they import each time.
The LibreOffice step converts each of our outputs with `soffice --headless --convert-to pdf` and
reports whether it opened; it is a separate step because it is slow and needs LibreOffice.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
sys.path.insert(0, str(ROOT))

from folio_desktop.docx import DocxReviewer  # noqa: E402

REVISION = re.compile(rb"<w:(ins|del|moveFrom|moveTo|cellIns|cellDel|cellMerge|rPrChange|pPrChange|sectPrChange"
                      rb"|tblPrChange|tblGridChange|trPrChange|tblPrExChange|tcPrChange)[ />]")
PY_REDLINES = """
import sys
from python_redlines import DocxodusEngine
out, _, _ = DocxodusEngine().run_redline("bench", open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read())
open(sys.argv[3], "wb").write(out)
"""


def _tracked(path: Path) -> bool:
    with zipfile.ZipFile(path) as z:
        return any(REVISION.search(z.read(n)) for n in z.namelist() if n.endswith(".xml"))


def _resolved(data: bytes, accept: bool) -> bytes:
    rev = DocxReviewer.from_bytes(data)
    rev.accept_all() if accept else rev.reject_all()
    return rev.to_bytes()


def _edited_contract(data: bytes, edits: int) -> tuple[bytes, bytes]:
    """(base, revised): the document, and the document with words replaced, clauses removed and added."""
    base = _resolved(data, True)
    rev = DocxReviewer.from_bytes(base)
    blocks = [b for b in rev.snapshot().blocks if len(b.text.split()) >= 6 and not b.table]
    ops = []
    for n, block in enumerate(blocks[:: max(1, len(blocks) // edits)][:edits]):
        words = block.text.split(" ")
        if n % 3 == 0:
            ops.append({"type": "deleteBlock", "blockId": block.id})
        elif n % 3 == 1:
            ops.append({"type": "insertAfterBlock", "blockId": block.id, "text": "The parties further agree to "
                        "cooperate in good faith on any matter this clause does not address."})
        else:
            ops.append({"type": "replaceBlock", "blockId": block.id,
                        "text": " ".join(words[:3] + ["promptly"] + words[3:-1] + ["(as amended)."])})
    rev.apply_document_operations({"version": 1, "mode": "direct", "operations": ops})
    return base, rev.to_bytes()


def pairs(work: Path) -> list[tuple[str, Path, Path]]:
    out = []
    files = sorted(CORPUS.glob("*.docx")) + sorted((CORPUS / "folio").glob("*.docx"))
    for path in files:
        if not _tracked(path):
            continue
        data = path.read_bytes()
        old, new = work / f"{path.stem}.base.docx", work / f"{path.stem}.revised.docx"
        old.write_bytes(_resolved(data, False))
        new.write_bytes(_resolved(data, True))
        out.append((path.stem, old, new))
    for name, edits in (("contract_nvca_stock_purchase_agreement_27p", 24),
                        ("contract_commonpaper_pilot_agreement", 12), ("wgig_background_report_78p_footnotes", 20)):
        base, revised = _edited_contract((CORPUS / f"{name}.docx").read_bytes(), edits)
        old, new = work / f"{name}.edited.base.docx", work / f"{name}.edited.revised.docx"
        old.write_bytes(base)
        new.write_bytes(revised)
        out.append((f"{name} (edited)", old, new))
    return out


def long_pair(work: Path, copies: int) -> tuple[str, Path, Path]:
    from longdoc import build_long_nvca

    base, revised = _edited_contract(build_long_nvca(copies), 20)
    old, new = work / f"nvca_x{copies}.base.docx", work / f"nvca_x{copies}.revised.docx"
    old.write_bytes(base)
    new.write_bytes(revised)
    pages = round(copies * 51.5)
    return f"nvca x{copies} (~{pages} pages, 20 edits; once)", old, new


def _time(cmd: list[str], env: dict) -> tuple[float, float, str | None]:
    """Wall time and CPU time (the child's user + system: on a loaded machine wall time overstates
    what the command costs) of one run, and its last error line."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    error = None if proc.returncode == 0 else (proc.stderr.strip().splitlines() or [f"exit {proc.returncode}"])[-1]
    return elapsed, cpu, error


def _median(cmd, env, runs=3) -> tuple[float | None, float | None, str | None]:
    times, cpus = [], []
    for _ in range(runs):
        elapsed, cpu, error = _time(cmd, env)
        if error:
            return None, None, error
        times.append(elapsed)
        cpus.append(cpu)
    return statistics.median(times), statistics.median(cpus), None


def _python_redlines_available() -> str | None:
    try:
        from python_redlines import DocxodusEngine

        DocxodusEngine()
        return None
    except Exception as exc:  # noqa: BLE001 - report why the other tool cannot run here
        return f"{type(exc).__name__}: {exc}"


def libreoffice_opens(paths: list[Path], work: Path) -> dict[str, str]:
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if soffice is None:
        return {p.name: "soffice not found" for p in paths}
    profile = work / "lo-profile"
    results = {}
    for path in paths:
        outdir = work / "pdf"
        outdir.mkdir(exist_ok=True)
        proc = subprocess.run([soffice, f"-env:UserInstallation=file://{profile}", "--headless", "--convert-to",
                               "pdf", "--outdir", str(outdir), str(path)], capture_output=True, text=True, timeout=300)
        pdf = outdir / (path.stem + ".pdf")
        ok = proc.returncode == 0 and pdf.is_file() and pdf.stat().st_size > 0
        results[path.name] = "opens" if ok else f"FAILED ({proc.returncode}: {proc.stderr.strip()[:120]})"
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--no-libreoffice", action="store_true", help="skip the LibreOffice open check")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--long", type=int, default=17, metavar="COPIES",
                        help="copies of the NVCA body in the long pair (0: no long pair)")
    parser.add_argument("--only", metavar="NAME", help="run only the pairs whose name contains NAME")
    parser.add_argument("--from-source", action="store_true",
                        help="do not compile the modules beforehand: with PYTHONDONTWRITEBYTECODE set (as on "
                             "some CI machines) each run of either tool then compiles every module it imports. "
                             "By default both run from bytecode compiled once, as an installed package runs")
    args = parser.parse_args()
    # the checkout first; a PYTHONPATH given (python-redlines installed with pip --target) stays after it
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)}
    other = _python_redlines_available()
    if other:
        print(f"python-redlines cannot run here ({other}); only our timings are measured.")
    with tempfile.TemporaryDirectory(prefix="folio-compare-bench-") as tmp:
        work = Path(tmp)
        if not args.from_source:  # a private bytecode cache: the checkout stays as it is
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            env["PYTHONPYCACHEPREFIX"] = str(work / "pycache")
            subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "folio_desktop")], env=env, check=True)
        cases = [(name, old, new, args.runs) for name, old, new in pairs(work) if not args.only or args.only in name]
        if args.long and (not args.only or args.only in f"nvca x{args.long}"):  # the long pair takes a while to build
            cases.append((*long_pair(work, args.long), 1))
        print(f"{'pair':58} {'ours s':>8} {'ours cpu s':>10} {'py-redlines s':>14} {'ratio':>7}")
        ours_all, theirs_all, outputs = [], [], []
        for name, old, new, runs in cases:
            out = work / f"{old.stem}.folio.docx"
            ours, ours_cpu, err = _median([sys.executable, "-m", "folio_desktop", "compare", str(old), str(new), "-o",
                                           str(out)], env, runs)
            theirs, _, their_err = (None, None, "not run") if other else _median(
                [sys.executable, "-c", PY_REDLINES, str(old), str(new), str(work / f"{old.stem}.pyr.docx")],
                env, runs)
            if ours is not None:
                ours_all.append(ours)
                outputs.append(out)
            if theirs is not None:
                theirs_all.append(theirs)
            ratio = f"{theirs / ours:6.2f}x" if ours and theirs else "   n/a"
            nan = float("nan")
            print(f"{name[:58]:58} {ours if ours is not None else nan:8.3f} "
                  f"{ours_cpu if ours_cpu is not None else nan:10.3f} {theirs if theirs is not None else nan:14.3f} "
                  f"{ratio:>7}" + (f"  ours failed: {err}" if err else "")
                  + (f"  py-redlines: {their_err}" if their_err and not other else ""))
        if ours_all:
            line = f"median pair: ours {statistics.median(ours_all):.3f} s"
            if theirs_all:
                m_ours, m_theirs = statistics.median(ours_all), statistics.median(theirs_all)
                line += f", python-redlines {m_theirs:.3f} s, ratio {m_theirs / m_ours:.2f}x " \
                        f"({'faster' if m_ours < m_theirs else 'slower'} than python-redlines)"
            print(line)
        if not args.no_libreoffice:
            print("\nLibreOffice (soffice --headless --convert-to pdf) on each of our outputs:")
            opened = libreoffice_opens(outputs, work)
            for name, state in opened.items():
                print(f"  {name:70} {state}")
            print(f"{sum(s == 'opens' for s in opened.values())}/{len(opened)} open")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
