"""Our pages and LibreOffice's against the PDFs Microsoft Word made (issue 14).

For every `../shared/corpus/word-pdf/<stem>.docx` beside Word's own `<stem>.pdf`: our layout printed
to PDF (the `folio-desktop pdf --no-markup` path) and LibreOffice's `soffice --convert-to pdf`, each
read back with poppler's `pdftotext -bbox-layout` and compared with Word's:

- pages: the page count;
- starts: pages whose first three body words stand among the first 60 words of Word's page of the
  same number (the header above the body's top is left out);
- F1: line-end F1 over the words both hold (the three word streams aligned; a word that ends a line
  in Word should end one in ours);
- past: words printed past Word's rightmost word on the same page (1.5 pt of slack);
- drift: for a document whose page starts differ, the first such page and why: the paragraph before
  it whose height in our layout differs most from its height in Word's PDF (page_drift.py).

    python benchmarks/word_fidelity.py [--only STEM ...] [--no-libreoffice]

LibreOffice's PDFs are cached in ~/.cache/folio-desktop-bench/ (keyed by the .docx's hash).
Targets (issue 14): F1 >= 0.92 mean, starts >= 90%, page count equal on >= 19 of 20, no word past.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from page_drift import find_drift  # noqa: E402
from pdf_words import line_end_f1, page_starts, read_pdf, words_past_edge  # noqa: E402

WORD_PDF = ROOT.parent / "shared" / "corpus" / "word-pdf"
CACHE = Path.home() / ".cache" / "folio-desktop-bench"
PX_TO_PT = 0.75


def libreoffice_pdf(docx: Path) -> Path | None:
    """LibreOffice's PDF of a document, converted once and cached."""
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if soffice is None:
        return None
    digest = hashlib.sha256(docx.read_bytes()).hexdigest()[:20]
    cached = CACHE / f"lo-{digest}.pdf"
    if cached.exists():
        return cached
    CACHE.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        shutil.copy(docx, Path(work) / "in.docx")
        subprocess.run([soffice, "--headless", f"-env:UserInstallation=file://{work}/profile", "--convert-to", "pdf",
                        "--outdir", work, str(Path(work) / "in.docx")], capture_output=True, timeout=300)
        made = Path(work) / "in.pdf"
        if not made.exists():
            return None
        shutil.copy(made, cached)
    return cached


def our_pdf(docx: Path, out: Path) -> tuple[list[float | None], list]:
    """Print our layout of the document (every change accepted) to `out`; returns each page's body
    top in points (for telling the header from the body) and the layout's pages."""
    from folio_desktop.docx import DocxReviewer
    from folio_desktop.layout import layout_document
    from folio_desktop.ui.desk.export import render_pdf
    from folio_desktop.ui.pages.marks import ReviewIndex

    rev = DocxReviewer.open(docx)
    rev.accept_all()
    layout = layout_document(rev.document, view="none")
    out.write_bytes(render_pdf(layout.pages, ReviewIndex(None, "none", interactive=False)))
    tops = []
    for page in layout.pages:
        body = page.body_fragments()
        tops.append(min(f.top for f in body) * PX_TO_PT - 3.0 if body else None)
    return tops, layout.pages


def measure(docx: Path, with_lo: bool) -> dict:
    word = read_pdf(docx.with_suffix(".pdf"))
    with tempfile.TemporaryDirectory() as work:
        ours_path = Path(work) / "ours.pdf"
        tops, layout_pages = our_pdf(docx, ours_path)
        ours = read_pdf(ours_path)
    row = {"name": docx.stem, "word": len(word), "ours": len(ours),
           "ours_starts": page_starts(word, ours, tops), "ours_f1": line_end_f1(word, ours),
           "ours_past": words_past_edge(word, ours), "drift": find_drift(word, ours, layout_pages, tops)}
    lo_path = libreoffice_pdf(docx) if with_lo else None
    if lo_path is not None:
        lo = read_pdf(lo_path)
        row.update(lo=len(lo), lo_starts=page_starts(word, lo, tops), lo_f1=line_end_f1(word, lo),
                   lo_past=words_past_edge(word, lo))
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", help="document stems to measure")
    parser.add_argument("--no-libreoffice", action="store_true")
    args = parser.parse_args()
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication.instance() or QGuiApplication(["word-fidelity"])  # noqa: F841 - fonts need it
    docs = sorted(WORD_PDF.glob("*.docx"))
    if args.only:
        docs = [d for d in docs if d.stem in args.only]
    start = time.perf_counter()
    rows = [measure(d, not args.no_libreoffice) for d in docs]
    lo = all("lo" in r for r in rows)
    head = f"{'document':28} {'pages W/us' + ('/LO' if lo else ''):>13} {'starts us' + (' LO' if lo else ''):>12} " \
           f"{'F1 us' + ('   LO' if lo else ''):>12} {'past us' + (' LO' if lo else ''):>11}"
    print(head)
    for r in rows:
        pages = f"{r['word']}/{r['ours']}" + (f"/{r['lo']}" if lo else "")
        starts = f"{r['ours_starts']}/{r['word']}" + (f" {r['lo_starts']}" if lo else "")
        f1 = f"{r['ours_f1']:.3f}" + (f" {r['lo_f1']:.3f}" if lo else "")
        past = f"{r['ours_past']}" + (f" {r['lo_past']}" if lo else "")
        print(f"{r['name']:28} {pages:>13} {starts:>12} {f1:>12} {past:>11}")
    drifting = [r for r in rows if r["drift"] is not None]
    if drifting:
        print("\nwhere our page starts first differ from Word's:")
        for r in drifting:
            print(f"{r['name']}: {r['drift'].describe()}")
    total_pages = sum(r["word"] for r in rows)

    def summary(who: str) -> str:
        equal = sum(r[who] == r["word"] for r in rows)
        starts = sum(r[f"{who}_starts"] for r in rows)
        f1 = statistics.mean(r[f"{who}_f1"] for r in rows)
        past = sum(r[f"{who}_past"] for r in rows)
        return (f"page count = Word's {equal}/{len(rows)}; page starts {starts}/{total_pages} "
                f"({starts / total_pages:.0%}); line-end F1 {f1:.3f} mean; words past Word's right edge {past}")

    print(f"\nours:        {summary('ours')}")
    if lo:
        print(f"LibreOffice: {summary('lo')}")
    print(f"({len(rows)} documents in {time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
