"""LibreOffice's pagination of .docx files, as a reference for our layout engine (cached).

Used by ``benchmarks/fidelity.py``, which builds and refreshes the cache (``python benchmarks/fidelity.py
--refresh``); import ``libreoffice_pages`` from here to use LibreOffice's pages elsewhere.

Each document is converted to PDF by headless LibreOffice (``soffice --convert-to pdf`` with a private
``-env:UserInstallation`` profile in a temporary directory, so a running LibreOffice or the user's profile
never interferes).  The page count is ``pdfinfo``'s; each page's text is ``pdftotext -layout`` (one call
per document, pages split at the form feeds, which is what ``-f n -l n`` per page gives).

``-layout`` rather than plain ``pdftotext``: plain mode guesses columns, and for the hanging numbers of
legal numbering ("(ii)<tab>text") it reads the number column of the whole page first, so the page seems
to start with "(ii) (iii) Educational ..."; it also moves the text of numbered headings out of line.
``-layout`` keeps each printed line together, in reading order, which is what a page start is.
(``-raw``, content-stream order, reverses right-to-left text word by word.)  ``-layout`` interleaves
side-by-side table cells line by line, which matters only when a page starts inside a table with
multi-line cells.

Conversion is batched: one ``soffice`` call for all documents that need it (~0.15 s a document instead of
~1 s), then any document that produced no readable PDF is retried alone, so a document that crashes or
hangs LibreOffice is reported by itself.

Cache: ``benchmarks/data/libreoffice_pages.json``, keyed by the document's path relative to the corpus
(its file name for top-level files), each entry holding the sha256 of the file bytes, the LibreOffice
version, the page count and the first ~12 words of every page (or an ``error``).  An entry is reused while
the sha256 matches, whatever LibreOffice is installed (so the benchmark runs without LibreOffice);
``refresh=True`` / ``--refresh`` recomputes.  The file is deterministic (sorted keys, indent 1); invisible
format characters (bidi embeddings, soft hyphens) are dropped from the stored words.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import unicodedata
from pathlib import Path

CACHE = Path(__file__).resolve().parent / "data" / "libreoffice_pages.json"
WORDS_KEPT = 12  # words stored per page (fidelity.py compares 5)
BATCH_TIMEOUT_PER_DOC = 30  # seconds; a single retry gets SINGLE_TIMEOUT
SINGLE_TIMEOUT = 120


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def libreoffice_version() -> str | None:
    if shutil.which("soffice") is None:
        return None
    proc = subprocess.run(["soffice", "--version"], capture_output=True, text=True, timeout=60)
    return proc.stdout.strip().splitlines()[0] if proc.stdout.strip() else "LibreOffice (unknown version)"


def first_words(text: str, n: int = WORDS_KEPT) -> str:
    """The page's first whitespace-separated tokens, up to n that hold a letter or digit."""
    out: list[str] = []
    for token in text.split():
        token = "".join(ch for ch in token if unicodedata.category(ch) != "Cf")
        if token:
            out.append(token)
        if sum(any(ch.isalnum() for ch in t) for t in out) >= n:
            break
    return " ".join(out)


def _soffice(files: list[Path], outdir: Path, profile: Path, timeout: float) -> str:
    """Run one conversion; return its output (or a timeout note).  The whole process group is
    killed on timeout (soffice is a wrapper around soffice.bin)."""
    cmd = ["soffice", f"-env:UserInstallation={profile.as_uri()}", "--headless", "--norestore",
           "--convert-to", "pdf", "--outdir", str(outdir), *map(str, files)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
        return out
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return f"LibreOffice did not finish within {timeout:.0f} s"


def read_pdf(pdf: Path) -> dict:
    """{"pageCount": n, "pages": [first words of page 1, ...]} or {"error": ...}."""
    if not pdf.exists() or pdf.stat().st_size == 0:
        return {"error": "no PDF written"}
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, timeout=60)
    count = next((int(line.split()[1]) for line in info.stdout.splitlines() if line.startswith("Pages:")), None)
    if info.returncode != 0 or count is None:
        return {"error": f"pdfinfo failed: {info.stderr.strip()[-200:]}"}
    text = subprocess.run(["pdftotext", "-layout", "-enc", "UTF-8", str(pdf), "-"],
                          capture_output=True, text=True, timeout=120).stdout
    pages = [first_words(page) for page in text.split("\f")][:count]
    return {"pageCount": count, "pages": pages + [""] * (count - len(pages))}


def convert(docs: dict[str, Path]) -> dict[str, dict]:
    """LibreOffice's pages for each document (name -> result of read_pdf)."""
    if shutil.which("soffice") is None:
        return {name: {"error": "soffice is not installed"} for name in docs}
    with tempfile.TemporaryDirectory(prefix="folio-lo-") as tmp:
        tmp_path = Path(tmp)
        indir, outdir, profile = tmp_path / "in", tmp_path / "out", tmp_path / "profile"
        indir.mkdir()
        # Copies under neutral names: no output-name clashes between folders, no odd characters.
        inputs = {name: indir / f"{i:04d}.docx" for i, name in enumerate(sorted(docs))}
        for name, copy in inputs.items():
            shutil.copyfile(docs[name], copy)
        _soffice(list(inputs.values()), outdir, profile, 60 + BATCH_TIMEOUT_PER_DOC * len(inputs))
        results = {name: read_pdf(outdir / f"{copy.stem}.pdf") for name, copy in inputs.items()}
        for name, result in results.items():
            if "error" in result:  # retry alone, to tell a failing document from a failed batch
                single = tmp_path / f"single-{inputs[name].stem}"
                log = _soffice([inputs[name]], single, profile, SINGLE_TIMEOUT)
                results[name] = read_pdf(single / f"{inputs[name].stem}.pdf")
                if "error" in results[name]:
                    lines = [line.strip() for line in log.splitlines() if line.strip()]
                    detail = " ".join(line for line in lines if "javaldx" not in line)[-300:]
                    results[name]["error"] += f" ({detail})" if detail else ""
        return results


def load_cache(path: Path = CACHE) -> dict[str, dict]:
    if not path.exists():
        return {}
    return json.loads(path.read_text(encoding="utf-8")).get("documents", {})


def save_cache(entries: dict[str, dict], path: Path = CACHE) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps({"documents": entries}, sort_keys=True, indent=1, ensure_ascii=False)
    path.write_text(text + "\n", encoding="utf-8")


def libreoffice_pages(docs: dict[str, Path], refresh: bool = False, prune: bool = False,
                      cache_path: Path = CACHE) -> tuple[dict[str, dict], dict]:
    """LibreOffice's entry for each document (name -> {"sha256", "libreoffice", "pageCount", "pages"}
    or {"sha256", "libreoffice", "error"}), computing what the cache lacks and saving the cache.
    ``prune`` drops cached documents not in ``docs`` (use it for whole-corpus runs).
    Also returns {"computed": number of documents converted, "seconds": time that took}."""
    cache = load_cache(cache_path)
    hashes = {name: sha256(path) for name, path in docs.items()}
    todo = {name: path for name, path in docs.items()
            if refresh or cache.get(name, {}).get("sha256") != hashes[name]}
    stats = {"computed": len(todo), "seconds": 0.0}
    if todo:
        start = time.monotonic()
        version = libreoffice_version()
        for name, result in convert(todo).items():
            cache[name] = {"sha256": hashes[name], "libreoffice": version, **result}
        stats["seconds"] = round(time.monotonic() - start, 1)
    if prune:
        cache = {name: entry for name, entry in cache.items() if name in docs}
    if todo or prune:
        save_cache(cache, cache_path)
    return {name: cache[name] for name in docs}, stats

