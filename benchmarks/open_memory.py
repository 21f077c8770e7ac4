"""Open time and memory against python-docx, and what a refusal costs: one run, every target PASS/FAIL.

Run from the project root::

    python benchmarks/open_memory.py [--runs 3] [--sizes 10000,40000,80000] [--repeats 10]
                                     [--only scaling,read,hostile] [--code DIR] [--json OUT]

Every measurement runs in a fresh process (this script with ``--child``) that imports its reader
first (not timed) and prints processor seconds, wall seconds and its peak RSS (the interpreter and
the file's bytes included; VmHWM, since ru_maxrss starts from the parent's). The machine is shared,
so times are processor time, the least of ``--runs`` runs (the scaling sizes are taken in turn, so
each sees the same load); peaks are the median. Three sections:

* scaling: contracts of 10,000 / 40,000 / 80,000 paragraphs built in code (``open_scaling.build_contract``),
  opened and read (every block's text and hash) by us, and by python-docx (every body paragraph's
  text). Targets: 80k / 10k within 9x processor time (8x is linear); our peak at 80k at most
  python-docx's.
* full read: the 75-page ILPA and the ~520-page NVCA x10 (``longdoc.py``), open + every block's text
  and hash, against python-docx reading every paragraph, table cells included (``open_read.py``).
  Target: at most 0.8x python-docx's processor time.
* hostile: inputs built in code (``hostile_inputs``) that must be refused (or, for the many parts,
  opened) within 100 MB of peak RSS: 1.5 million low-ratio paragraphs, a 50 MB stored paragraph
  whole and in runs, 100,001 real paragraphs, 41 million characters, 16.8 million tags, 1.5 million
  paragraphs under a namespace prefix bound on each, deep nesting, a 50 MB attribute, 10,001 parts,
  and 9,000 parts of 10 KB. Children run under a 3 GB address-space limit, so a reader that would
  take more fails with MemoryError instead of taking the machine.

``--code DIR`` measures the folio_desktop of another checkout (a copy made before a change, say);
the inputs are built by this one.
"""

from __future__ import annotations

import argparse
import io
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.open_scaling import _HEAD, _NSDECL, _REL, _SECT, _WORDS, build_contract  # noqa: E402

CORPUS = ROOT / ".." / "shared" / "corpus"
ILPA = CORPUS / "contract_ilpa_model_lpa_whole_of_fund_75p.docx"
W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
MAX_SCALING = 9.0  # 80k paragraphs within 9x the processor time of 10k (8x is linear)
MAX_READ_RATIO = 0.8  # open + full read within 0.8x python-docx's processor time
MAX_HOSTILE_MB = 100.0  # a refusal's peak RSS, the interpreter and the file's bytes included
CHILD_ADDRESS_SPACE = 3 << 30


# -- hostile inputs, built in code ------------------------------------------------------------------

def hostile_package(document: bytes, *, stored: bool = False, extra: dict[str, bytes] | None = None) -> bytes:
    """A minimal package around `document` (the main part's bytes), stored or deflated, with `extra`
    parts (name -> bytes, deflated) listed in no relationship."""
    out = io.BytesIO()
    ct = (f'{_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
          '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
          '<Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" '
          'ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>')
    rels = (f'{_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            f'<Relationship Id="rId1" Type="{_REL}/officeDocument" Target="word/document.xml"/></Relationships>')
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        z.writestr("[Content_Types].xml", ct)
        z.writestr("_rels/.rels", rels)
        z.writestr("word/document.xml", document, compress_type=zipfile.ZIP_STORED if stored else None)
        for name, data in (extra or {}).items():
            z.writestr(name, data)
    return out.getvalue()


def _document(body: bytes, nsdecl: str = _NSDECL) -> bytes:
    return (f"{_HEAD}<w:document {nsdecl}><w:body>".encode() + body + f"{_SECT}</w:body></w:document>".encode())


def _words(chars: int) -> bytes:
    """`chars` characters of contract words (ASCII): 64 KB of them, varied, repeated."""
    out, k, n = [], 0, 0
    while n < min(chars, 1 << 16):
        word = _WORDS[(k * 7919) % len(_WORDS)] + (" " if k % 13 else ". ")
        out.append(word)
        n += len(word)
        k += 1
    base = "".join(out).encode()
    return (base * (chars // len(base) + 1))[:chars]


def many_paragraphs(count: int = 1_500_000) -> bytes:
    """`count` short paragraphs, numbered so they compress some 10:1 (no zip bomb)."""
    return hostile_package(_document(b"".join(b"<w:p><w:r><w:t>%d</w:t></w:r></w:p>" % i for i in range(count))))


def stored_paragraph(megabytes: float = 50, runs: bool = False) -> bytes:
    """One paragraph of `megabytes` MB, stored uncompressed: one w:t of that much text, or runs of 100
    characters (with their markup, that many MB of XML)."""
    text = _words(int(megabytes * 1_000_000 * (100 / 162 if runs else 1)))
    if runs:
        body = b"".join(b'<w:r w:rsidR="00A1B2C3"><w:t xml:space="preserve">' + text[i:i + 100] + b"</w:t></w:r>"
                        for i in range(0, len(text), 100))
    else:
        body = b'<w:r><w:t xml:space="preserve">' + text + b"</w:t></w:r>"
    return hostile_package(_document(b"<w:p>" + body + b"</w:p>"), stored=True)


def too_much_text(paragraphs: int = 52_000, chars: int = 800) -> bytes:
    """More than 40 million characters in real-sized paragraphs (each under the paragraph limit)."""
    text = _words(chars * 64)
    body = b"".join(b'<w:p><w:r><w:t xml:space="preserve">' + text[(i % 64) * chars:(i % 64 + 1) * chars]
                    + b"%d</w:t></w:r></w:p>" % i for i in range(paragraphs))
    return hostile_package(_document(body))


def dense_markup(items: int = 2_400_000) -> bytes:
    """Some 16.8 million tags and no paragraph at all: runs of empty formatting in the body."""
    return hostile_package(_document(b"".join(b'<w:r w:rsidR="%07d"><w:rPr><w:b/><w:i/><w:caps/></w:rPr></w:r>' % i
                                              for i in range(items))))


def rebound_paragraphs(count: int = 1_500_000) -> bytes:
    """`count` paragraphs, each binding its own prefix to the WordprocessingML namespace."""
    body = b"".join(b'<x:p xmlns:x="' + W_NS.encode() + b'"><x:r><x:t>%d</x:t></x:r></x:p>' % i
                    for i in range(count))
    return hostile_package(_document(body))


def deep_nesting(levels: int = 1_000_000) -> bytes:
    """Content controls nested `levels` deep (46 MB, stored)."""
    return hostile_package(_document(b"<w:sdt><w:sdtContent>" * levels + b"</w:sdtContent></w:sdt>" * levels),
                           stored=True)


def huge_attribute(megabytes: float = 50) -> bytes:
    """A paragraph whose one attribute holds `megabytes` MB (stored)."""
    value = _words(int(megabytes * 1_000_000)).replace(b" ", b"_").replace(b".", b"_")
    return hostile_package(_document(b'<w:p w:rsidR="' + value + b'"/>'), stored=True)


def many_parts(count: int, size: int = 200) -> bytes:
    """`count` custom XML parts of `size` bytes each beside a one-paragraph document."""
    extra = {f"customXml/item{i}.xml": b"<items>" + b"".join(b"<i>%d</i>" % (i * 1000 + k)
                                                             for k in range(max(1, (size - 15) // 12))) + b"</items>"
             for i in range(count)}
    return hostile_package(_document(b"<w:p><w:r><w:t>Parts.</w:t></w:r></w:p>"), extra=extra)


def hostile_inputs() -> list[tuple[str, object]]:
    """(name, builder) of every hostile input, cheapest first."""
    return [
        ("10,001 parts", lambda: many_parts(10_001, 20)),
        ("9,000 parts of 10 KB (opens)", lambda: many_parts(9_000, 10_000)),
        ("deep nesting, 46 MB stored", deep_nesting),
        ("50 MB attribute, stored", huge_attribute),
        ("50 MB paragraph, one w:t, stored", stored_paragraph),
        ("50 MB paragraph in runs, stored", lambda: stored_paragraph(runs=True)),
        ("1.5 million paragraphs", many_paragraphs),
        ("1.5 million rebound paragraphs", rebound_paragraphs),
        ("41 million characters", too_much_text),
        ("16.8 million tags", dense_markup),
        ("100,001 real paragraphs", lambda: build_contract(100_001)),
    ]


# -- child side: one measurement ------------------------------------------------------------------

def _reader(name: str):
    if name == "ours":
        from folio_desktop.docx import DocxReviewer

        def read(path: str) -> int:
            snap = DocxReviewer.open(path).snapshot()
            for block in snap.blocks:
                block.text_hash  # noqa: B018 - computed lazily, forced here
            return len(snap.blocks)

        return read
    import docx

    if name == "python-docx":  # every body paragraph's text (as open_scaling.py)
        return lambda path: sum(1 for p in docx.Document(path).paragraphs if p.text is not None)

    from open_read import _reader_python_docx  # python-docx-full: table cells too

    return _reader_python_docx()


def peak_rss_mb() -> float:
    """This process's peak RSS (VmHWM: ru_maxrss would start from the parent's at fork)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def child(reader: str, path: str, code: str) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (CHILD_ADDRESS_SPACE, CHILD_ADDRESS_SPACE))
    sys.path.insert(0, code)
    read = _reader(reader)
    base = peak_rss_mb()
    t0, c0 = time.perf_counter(), time.process_time()
    try:
        count, error = read(path), None
    except BaseException as exc:  # noqa: BLE001 - reported to the parent (MemoryError included)
        count, error = None, f"{type(exc).__name__}: {str(exc)[:160]}"
    print(json.dumps({"wall": time.perf_counter() - t0, "cpu": time.process_time() - c0, "count": count,
                      "error": error, "peak_mb": peak_rss_mb(),
                      "base_mb": base}))


def measure(reader: str, path: Path, code: str, timeout: float = 900) -> dict:
    try:
        proc = subprocess.run([sys.executable, __file__, "--child", reader, str(path), code],
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"still running after {timeout:g} s"}
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if not lines:
        tail = (proc.stderr or "").strip().splitlines() or [f"exit status {proc.returncode}"]
        return {"error": tail[-1]}
    return json.loads(lines[-1])


def summary(samples: list[dict]) -> dict:
    """The least processor time of the runs (the one the shared machine disturbed least), the median
    wall time and peak memory."""
    good = [s for s in samples if s.get("count") is not None]
    if not good:
        return samples[0]
    return {"cpu": min(s["cpu"] for s in good), "wall": statistics.median(s["wall"] for s in good),
            "peak_mb": statistics.median(s["peak_mb"] for s in good), "count": good[0]["count"], "runs": len(good)}


def median_of(reader: str, path: Path, runs: int, code: str) -> dict:
    return summary([measure(reader, path, code) for _ in range(runs)])


# -- parent side ----------------------------------------------------------------------------------

def _verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def scaling(sizes: list[int], runs: int, code: str, tmp: Path, results: dict) -> list[bool]:
    print(f"\n== scaling: open + read of generated contracts ({runs} runs, the sizes taken in turn; "
          "least processor s, median peak MB)")
    paths = {}
    for n in sizes:
        paths[n] = tmp / f"contract{n}.docx"
        paths[n].write_bytes(build_contract(n))
    samples: dict[tuple[int, str], list[dict]] = {(n, r): [] for n in sizes for r in ("ours", "python-docx")}
    for _ in range(runs):  # in turn, so every size sees the same load
        for n in sizes:
            for reader in ("ours", "python-docx"):
                samples[(n, reader)].append(measure(reader, paths[n], code))
    print(f"{'paragraphs':>10} {'ours cpu':>9} {'x first':>7} {'ours MB':>8}   {'python-docx cpu':>15} "
          f"{'x first':>7} {'pd MB':>7}  {'ours/pd MB':>10}")
    rows = {n: {r: summary(samples[(n, r)]) for r in ("ours", "python-docx")} for n in sizes}
    for n in sizes:
        ours, theirs = rows[n]["ours"], rows[n]["python-docx"]
        if ours.get("count") is None or theirs.get("count") is None:
            print(f"{n:>10,} ours: {ours.get('error')}  python-docx: {theirs.get('error')}")
            continue
        first = rows[sizes[0]]
        print(f"{n:>10,} {ours['cpu']:9.2f} {ours['cpu'] / first['ours']['cpu']:6.2f}x {ours['peak_mb']:8.0f}   "
              f"{theirs['cpu']:15.2f} {theirs['cpu'] / first['python-docx']['cpu']:6.2f}x {theirs['peak_mb']:7.0f}  "
              f"{ours['peak_mb'] / theirs['peak_mb']:9.2f}x", flush=True)
    results["scaling"] = {str(n): row for n, row in rows.items()}
    small, large = rows[sizes[0]], rows[sizes[-1]]
    if any(r.get("count") is None for row in (small, large) for r in row.values()):
        print("FAIL: a reader failed")
        return [False]
    ratio = large["ours"]["cpu"] / small["ours"]["cpu"]
    allowed = MAX_SCALING * (sizes[-1] / sizes[0]) / 8
    theirs_ratio = large["python-docx"]["cpu"] / small["python-docx"]["cpu"]
    memory = large["ours"]["peak_mb"] / large["python-docx"]["peak_mb"]
    checks = [ratio <= allowed, memory <= 1.0]
    print(f"{_verdict(checks[0])}: {sizes[-1]:,} / {sizes[0]:,} paragraphs take {ratio:.2f}x the processor time "
          f"(target <= {allowed:g}x; python-docx {theirs_ratio:.2f}x)")
    print(f"{_verdict(checks[1])}: peak memory at {sizes[-1]:,} paragraphs {large['ours']['peak_mb']:.0f} MB, "
          f"{memory:.2f}x python-docx's {large['python-docx']['peak_mb']:.0f} MB (target <= 1x)")
    return checks


def full_read(repeats: int, runs: int, code: str, tmp: Path, results: dict) -> list[bool]:
    print(f"\n== full read: open + every block's text and hash ({runs} runs: least processor s, median peak MB)")
    long_path = tmp / f"nvca_x{repeats}.docx"
    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "longdoc.py"), str(long_path), "--repeats",
                    str(repeats)], check=True, stdout=subprocess.DEVNULL)
    print(f"{'input':<28} {'ours cpu':>9} {'ours MB':>8}   {'python-docx cpu':>15} {'pd MB':>7}  {'ours/pd':>8}")
    checks = []
    for name, path in ((ILPA.name[:28], ILPA), (f"NVCA x{repeats} (~520 pages)", long_path)):
        ours, theirs = median_of("ours", path, runs, code), median_of("python-docx-full", path, runs, code)
        results.setdefault("read", {})[name] = {"ours": ours, "python-docx": theirs}
        if ours.get("count") is None or theirs.get("count") is None:
            print(f"{name:<28} ours: {ours.get('error')}  python-docx: {theirs.get('error')}")
            checks.append(False)
            continue
        ratio = ours["cpu"] / theirs["cpu"]
        checks.append(ratio <= MAX_READ_RATIO)
        print(f"{name:<28} {ours['cpu']:9.3f} {ours['peak_mb']:8.0f}   {theirs['cpu']:15.3f} {theirs['peak_mb']:7.0f}  "
              f"{ratio:7.2f}x {_verdict(checks[-1])} (target <= {MAX_READ_RATIO:g}x)", flush=True)
    return checks


def hostile(code: str, tmp: Path, results: dict) -> list[bool]:
    print(f"\n== hostile inputs: refused within {MAX_HOSTILE_MB:g} MB of peak RSS (one run each)")
    print(f"{'input':<34} {'file MB':>7} {'peak MB':>8} {'cpu s':>6}  outcome")
    checks = []
    for name, build in hostile_inputs():
        path = tmp / "hostile.docx"
        path.write_bytes(build())
        size = path.stat().st_size / 1e6
        row = measure("ours", path, code)
        path.unlink()
        results.setdefault("hostile", {})[name] = row | {"file_mb": size}
        outcome = (row.get("error") or f"opened ({row.get('count')} blocks)")[:90]
        peak = row.get("peak_mb")
        checks.append(peak is not None and peak <= MAX_HOSTILE_MB)
        peak_s = f"{peak:8.0f}" if peak is not None else f"{'?':>8}"
        cpu_s = f"{row['cpu']:6.2f}" if "cpu" in row else f"{'':>6}"
        print(f"{name:<34} {size:7.1f} {peak_s} {cpu_s}  {_verdict(checks[-1])} {outcome}", flush=True)
    return checks


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3, help="runs per reader and input (default 3)")
    ap.add_argument("--sizes", default="10000,40000,80000", help="paragraph counts, smallest first")
    ap.add_argument("--repeats", type=int, default=10, help="NVCA copies in the long document (default 10)")
    ap.add_argument("--only", default="scaling,read,hostile", help="sections to run (default all three)")
    ap.add_argument("--code", default=str(ROOT), help="the checkout whose folio_desktop is measured")
    ap.add_argument("--json", type=Path, metavar="OUT", help="also write the figures as JSON")
    ap.add_argument("--child", nargs=3, metavar=("READER", "PATH", "CODE"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        child(*args.child)
        return 0
    sections = set(args.only.split(","))
    print(f"Python {sys.version.split()[0]}; measuring {args.code}; fresh process per measurement")
    results: dict = {}
    checks: list[bool] = []
    with tempfile.TemporaryDirectory() as tmp:
        if "scaling" in sections:
            checks += scaling([int(s) for s in args.sizes.split(",")], args.runs, args.code, Path(tmp), results)
        if "read" in sections:
            checks += full_read(args.repeats, args.runs, args.code, Path(tmp), results)
        if "hostile" in sections:
            checks += hostile(args.code, Path(tmp), results)
    print(f"\n{sum(checks)} of {len(checks)} targets met")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0 if all(checks) else 1


if __name__ == "__main__":
    sys.exit(main())
