"""Compare sweep (issue 28, acceptance 2): every .docx of a folder compared against an edited copy of itself.

    python benchmarks/compare_sweep.py [FOLDER ...] [--timeout 60] [--limit N] [--json OUT]

FOLDER defaults to ../shared/corpus/wild/ (searched recursively). Per file:

- open: DocxReviewer.from_bytes; a DocxError is a refusal of unreadable input (listed by class and
  message) and the file goes no further;
- edit: the copy is the file with up to three body words replaced and one body paragraph deleted (a
  paragraph inserted where it has neither), written into the main part with lxml;
- compare: generate_redline_docx(original, copy). A RedlineVerificationError (or any DocxError) is a
  refusal of valid input, which the issue says must not happen; any other exception a crash;
- check: the redline's accept-all must read as the copy (pending changes accepted) and its
  reject-all as the original, story by story, block by block; a fallback to a coarser redline is
  counted (by scope) but is not a failure.

Runs in one process (a timeout per file through SIGALRM); prints the outcomes per step, the refusals
and failures by kind, and the fallbacks. Exit status 1 when a valid file is refused, crashes or fails
the check.
"""

from __future__ import annotations

import argparse
import collections
import io
import json
import random
import signal
import sys
import time
import zipfile
from pathlib import Path

from lxml import etree

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DEFAULT = ROOT.parent / "shared" / "corpus" / "wild"
W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
W = "{" + W_NS + "}"
TRACKED = {W + t for t in ("ins", "del", "moveFrom", "moveTo")}


class Timeout(Exception):
    pass


def _document_part(z: zipfile.ZipFile) -> str:
    """The main document part's name, from the package relationships."""
    rels = etree.fromstring(z.read("_rels/.rels"))
    for rel in rels:
        if rel.get("Type", "").endswith("/officeDocument"):
            return rel.get("Target").lstrip("/")
    return "word/document.xml"


def edited_copy(data: bytes, seed: int = 28) -> tuple[bytes | None, str]:
    """The file with up to three body words replaced and one body paragraph deleted (a file with
    neither gets a paragraph inserted instead), and what was done; None when it has no body."""
    rng = random.Random(seed)
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        name = _document_part(z)
        root = etree.fromstring(z.read(name))
        body = root.find(W + "body")
        if body is None:
            return None, "no body"
        texts = [t for t in body.iter(W + "t") if any(w.isalpha() for w in (t.text or "").split(" "))
                 and not any(a.tag in TRACKED for a in t.iterancestors())]
        paragraphs = [p for p in body.findall(W + "p") if p.find("w:pPr/w:sectPr", {"w": W_NS}) is None
                      and p.getnext() is not None and p.getnext().tag != W + "sectPr"
                      and not any(isinstance(el.tag, str) and (el.tag in TRACKED or el.tag.endswith("Reference"))
                                  for el in p.iter())]
        done = []
        for t in rng.sample(texts, min(3, len(texts))):
            words = t.text.split(" ")
            i = rng.choice([i for i, w in enumerate(words) if w.isalpha()])
            words[i] = f"sweep{rng.randrange(1000, 9999)}"
            t.text = " ".join(words)
        if texts:
            done.append(f"{min(3, len(texts))} words")
        if paragraphs:
            body.remove(rng.choice(paragraphs))
            done.append("a paragraph deleted")
        if not done:
            new = etree.SubElement(body, W + "p")
            etree.SubElement(etree.SubElement(new, W + "r"), W + "t").text = "Sweep inserted paragraph."
            body.insert(0, new)
            done.append("a paragraph inserted")
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
            for item in z.infolist():
                dst.writestr(item, etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)
                             if item.filename == name else z.read(item.filename))
    return out.getvalue(), ", ".join(done)


def _alarm(signum, frame):
    raise Timeout


def one(path: Path, timeout: float) -> dict:
    from folio_desktop.agents.versions.redline import compared_texts, generate_redline_docx
    from folio_desktop.agents.versions.redline_errors import RedlineVerificationError
    from folio_desktop.docx import DocxError, DocxReviewer

    def texts(data: bytes, accept: bool) -> dict:
        rev = DocxReviewer.from_bytes(data)
        rev.accept_all() if accept else rev.reject_all()
        return compared_texts(rev)

    out = {"file": str(path)}
    data = path.read_bytes()
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(int(timeout))
    step = "open"
    try:
        try:
            DocxReviewer.from_bytes(data)
        except DocxError as exc:
            return out | {"step": "open", "outcome": "refused", "detail": f"{type(exc).__name__}: {exc}"[:200]}
        step = "edit"
        try:
            copy, why = edited_copy(data)
        except (etree.XMLSyntaxError, KeyError, zipfile.BadZipFile) as exc:
            copy, why = None, f"{type(exc).__name__}: {exc}"[:200]
        if copy is None:
            return out | {"step": "edit", "outcome": "n/a", "detail": why}
        step = "compare"
        try:
            result = generate_redline_docx(data, copy)
        except (RedlineVerificationError, DocxError) as exc:
            return out | {"step": "compare", "outcome": "refused", "detail": f"{type(exc).__name__}: {exc}"[:300]}
        out["fallbacks"] = [f"{f['story']}:{f['scope']}" for f in result["fallbacks"]]
        step = "check"
        buffer = result["buffer"]
        for accept, want, label in ((True, texts(copy, True), "accept-all"), (False, texts(data, True), "reject-all")):
            got = texts(buffer, accept)
            if got != want:
                where = sorted(k for k in set(got) | set(want) if got.get(k) != want.get(k))
                return out | {"step": "check", "outcome": "failed", "detail": f"{label} differs in {where[:4]}"}
        return out | {"step": "check", "outcome": "ok", "detail": ""}
    except Timeout:
        return out | {"step": step, "outcome": "hang", "detail": f"over {timeout:.0f} s"}
    except Exception as exc:  # noqa: BLE001 - the sweep reports every failure and goes on
        return out | {"step": step, "outcome": "crash", "detail": f"{type(exc).__name__}: {exc}"[:300]}
    finally:
        signal.alarm(0)


def report(results: list[dict]) -> int:
    outcomes = collections.Counter((r["step"], r["outcome"]) for r in results)
    print(f"{len(results)} files")
    for (step, outcome), n in sorted(outcomes.items()):
        print(f"  {step:8s} {outcome:9s} {n:5d}")
    opened = [r for r in results if not (r["step"] == "open" and r["outcome"] == "refused")]
    compared = [r for r in opened if r["step"] in ("compare", "check")]
    print(f"\nopened {len(opened)}, compared {len(compared)}, "
          f"redline right {sum(r['outcome'] == 'ok' for r in compared)}")
    kinds = collections.Counter(r["detail"].split(":")[0] for r in results if r["outcome"] == "refused"
                                and r["step"] == "open")
    if kinds:
        print("\nunreadable input refused at open:", dict(kinds))
    bad = [r for r in opened if r["outcome"] not in ("ok", "n/a")]
    if bad:
        print("\nvalid files refused or wrong, by kind:")
        by_kind = collections.Counter(f"{r['step']} {r['outcome']}: {r['detail'][:90]}" for r in bad)
        for text, n in by_kind.most_common():
            print(f"  {n:4d}  {text}")
        for r in bad:
            print(f"    {Path(r['file']).parent.name}/{Path(r['file']).name}")
    fallbacks = collections.Counter(f for r in results for f in r.get("fallbacks", ()))
    if fallbacks:
        print("\nfallbacks to a coarser redline (story:scope):", dict(fallbacks))
    return 1 if bad else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="*", type=Path, default=[DEFAULT])
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--limit", type=int, default=0, help="only the first N files (sorted)")
    parser.add_argument("--json", type=Path, help="write every file's outcome here")
    args = parser.parse_args()
    files = sorted(p for folder in args.folders for p in folder.rglob("*.docx"))
    if args.limit:
        files = files[:args.limit]
    results = []
    start = time.perf_counter()
    for path in files:
        results.append(one(path, args.timeout))
    print(f"({time.perf_counter() - start:.0f} s)")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return report(results)


if __name__ == "__main__":
    sys.exit(main())
