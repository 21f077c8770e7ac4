"""Robustness sweep (issue 15): every .docx of a folder through every step a lawyer or the model takes,
with the invariants that say the result is right, each file in its own process under a time limit.

    python benchmarks/sweep.py [FOLDER ...] [--timeout 60] [--jobs 2] [--json OUT] [--limit N]

FOLDER defaults to ../shared/corpus/wild/. Per file, in order (a step that cannot run is "n/a"):

- open: DocxReviewer.from_bytes; a DocxError is a refusal (its class and message are listed, so
  each can be checked to name a real problem), anything else a crash;
- read: the read tools the model uses (read_document, get_document_outline, list_stories,
  read_changes, read_comments, find_text);
- layout: every page (Paginator, offscreen Qt);
- edit: a tracked paragraph inserted after the first content block and a comment on it, by the tools;
- save: the bytes reopen in our reader (same block texts) and in python-docx;
- accept: accept-all of the edited document reads as the snapshot promised (the accepted view
  with the new paragraph), list and heading numbers included;
- reject: reject-all of the edited document equals reject-all of the original;
- compare: the redline of the original against the edited copy; its accept-all equals the edited
  copy's accepted text and its reject-all the original's.

Outcomes: ok, refused, crash, hang (over --timeout s), invariant (a check failed; what differed is
listed). Then the slowest files per step. Exit status 1 when any crash, hang or invariant failure.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ROOT.parent / "shared" / "corpus" / "wild"
STEPS = ("open", "read", "layout", "edit", "save", "accept", "reject", "compare")

CHILD = r"""
import io, json, os, sys, time, traceback
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, sys.argv[2])
out = {}
def step(name, fn):
    start = time.perf_counter()
    try:
        detail = fn()
        out[name] = {"outcome": "ok" if detail is None else detail[0], "detail": None if detail is None else detail[1]}
    except Exception as exc:
        from folio_desktop.docx import DocxError
        refused = name == "open" and isinstance(exc, DocxError)
        out[name] = {"outcome": "refused" if refused else "crash",
                     "detail": f"{type(exc).__name__}: {str(exc)[:300]}",
                     "where": None if refused else traceback.format_exc(limit=-3)[-600:]}
    out[name]["seconds"] = round(time.perf_counter() - start, 3)
    print(json.dumps(out), flush=True)  # (what the parent reads if a later step hangs)
    return out[name]["outcome"] == "ok"

from folio_desktop.docx import DocxReviewer
from folio_desktop.agents import create_reviewer_bridge, execute_tool_call
data = open(sys.argv[1], "rb").read()
state = {}

def texts(rev):
    return [b.text for b in rev.snapshot().content_blocks]

def labelled(rev):  # the numbers a lawyer cites, with their text
    return [f"{b.display_label or ''} {b.text}" for b in rev.snapshot().content_blocks]

def differ(expected, got):
    for i, (a, b) in enumerate(zip(expected, got)):
        if a != b:
            return f"block {i}: expected {a[:80]!r}, got {b[:80]!r}"
    return f"{len(expected)} blocks expected, {len(got)} read"

def do_open():
    state["rev"] = DocxReviewer.from_bytes(data)
    state["texts"] = texts(state["rev"])

def do_read():
    bridge = create_reviewer_bridge(state["rev"])
    word = next((w for t in state["texts"] for w in t.split() if len(w) > 3), "the")
    for name, args in (("read_document", {}), ("get_document_outline", {}), ("list_stories", {}),
                       ("read_changes", {}), ("read_comments", {}), ("find_text", {"query": word})):
        result = execute_tool_call(name, args, bridge)
        if not result.get("ok"):
            return "invariant", f"{name}: {result.get('error')}"

def do_layout():
    from PySide6.QtGui import QGuiApplication
    state["app"] = QGuiApplication.instance() or QGuiApplication([])
    from folio_desktop.layout.engine import Paginator
    pages = sum(1 for _ in Paginator(state["rev"].document).run())
    if pages < 1:
        return "invariant", "no page laid out"

def do_edit():
    snap = state["rev"].snapshot()
    if not snap.content_blocks:
        return "n/a", "no content block"
    anchor = snap.content_blocks[0]
    if "Sweep clause inserted for review." in state["texts"]:
        return "n/a", "the document already holds the sweep's text"
    bridge = create_reviewer_bridge(state["rev"])
    result = execute_tool_call("suggest_changes", {"operations": [
        {"type": "insertAfterBlock", "blockId": anchor.id, "text": "Sweep clause inserted for review."}]}, bridge)
    codes = [i.get("code") for i in result.get("result", {}).get("issues", [])]
    if "documentNotEditable" in codes:  # a protected form or read-only document: refused, rightly
        return "n/a", "the document is protected against editing"
    if not result.get("ok") or not result["result"]["applied"]:
        return "invariant", f"insertAfterBlock not applied: {json.dumps(result)[:300]}"
    # (after a cell's paragraph the new one goes after the table, spec 3.6: wherever it went, the
    # rest must read as before)
    got = texts(state["rev"])
    if got.count("Sweep clause inserted for review.") != 1:
        return "invariant", "the inserted paragraph is not in the accepted view once"
    rest = [t for t in got if t != "Sweep clause inserted for review."]
    if rest != state["texts"]:
        return "invariant", "the accepted view after the edit: " + differ(state["texts"], rest)
    state["intended"] = got
    state["numbered"] = labelled(state["rev"])
    new = next(b for b in state["rev"].snapshot().content_blocks if b.text == "Sweep clause inserted for review.")
    result = execute_tool_call("add_comment", {"blockId": new.id, "text": "Sweep comment."}, bridge)
    if not result.get("ok") or not result["result"]["applied"]:
        return "invariant", f"add_comment not applied: {json.dumps(result)[:300]}"

def do_save():
    if "intended" not in state:
        return "n/a", "no edit"
    state["saved"] = state["rev"].to_bytes()
    again = DocxReviewer.from_bytes(state["saved"])
    if texts(again) != state["intended"]:
        return "invariant", "reopened: " + differ(state["intended"], texts(again))
    import docx
    try:
        docx.Document(io.BytesIO(state["saved"]))
    except Exception as exc:  # python-docx's own limits (a template, a part it cannot find) are no fault of ours
        try:
            docx.Document(io.BytesIO(data))
        except Exception:
            return "ok", f"python-docx cannot read the original either ({type(exc).__name__})"
        raise

def do_accept():
    if "saved" not in state:
        return "n/a", "not saved"
    rev = DocxReviewer.from_bytes(state["saved"])
    rev.accept_all()
    if texts(rev) != state["intended"]:
        return "invariant", "accept-all: " + differ(state["intended"], texts(rev))
    if labelled(rev) != state["numbered"]:
        return "invariant", "accept-all numbers: " + differ(state["numbered"], labelled(rev))

def do_reject():
    if "saved" not in state:
        return "n/a", "not saved"
    original = DocxReviewer.from_bytes(data)
    original.reject_all()
    edited = DocxReviewer.from_bytes(state["saved"])
    edited.reject_all()
    if texts(edited) != texts(original):
        return "invariant", "reject-all: " + differ(texts(original), texts(edited))

def do_compare():
    if "saved" not in state:
        return "n/a", "not saved"
    from folio_desktop.agents.versions.redline import generate_redline_docx
    result = generate_redline_docx(data, state["saved"])
    redline = result["buffer"]
    accepted = DocxReviewer.from_bytes(redline)
    accepted.accept_all()
    if texts(accepted) != state["intended"]:
        return "invariant", "redline accept-all: " + differ(state["intended"], texts(accepted))
    rejected = DocxReviewer.from_bytes(redline)
    rejected.reject_all()
    if texts(rejected) != state["texts"]:
        return "invariant", "redline reject-all: " + differ(state["texts"], texts(rejected))

for name, fn in (("open", do_open), ("read", do_read), ("layout", do_layout), ("edit", do_edit),
                 ("save", do_save), ("accept", do_accept), ("reject", do_reject), ("compare", do_compare)):
    if not step(name, fn) and name == "open":
        break
"""


def run_one(path: Path, timeout: float) -> dict:
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", CHILD, str(path), str(ROOT)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        stdout, stderr = proc.communicate(timeout=timeout)
        hung = False
    except subprocess.TimeoutExpired:
        proc.kill()
        stdout, stderr = proc.communicate()
        hung = True
    lines = [line for line in stdout.splitlines() if line.startswith("{")]
    steps = json.loads(lines[-1]) if lines else {}
    done = [s for s in STEPS if s in steps]
    following = STEPS[len(done)] if len(done) < len(STEPS) else None
    if hung and following:
        steps[following] = {"outcome": "hang", "detail": f"over {timeout:.0f} s", "seconds": timeout}
    elif following and (proc.returncode or not done) and steps.get("open", {}).get("outcome") != "refused":
        steps[following] = {"outcome": "crash", "detail": f"the process ended ({proc.returncode}): "
                            f"{stderr.strip().splitlines()[-1][:300] if stderr.strip() else 'no message'}",
                            "seconds": 0.0}
    return {"file": str(path), "seconds": round(time.perf_counter() - start, 2), "steps": steps}


def report(results: list[dict]) -> int:
    table = {s: collections.Counter() for s in STEPS}
    problems = []
    refusals = collections.Counter()
    for r in results:
        for s in STEPS:
            step = r["steps"].get(s)
            if step is None:
                continue
            table[s][step["outcome"]] += 1
            if step["outcome"] == "refused":
                refusals[step["detail"].split(":")[0] + ": " + step["detail"].split(": ", 1)[-1][:90]] += 1
            elif step["outcome"] in ("crash", "hang", "invariant"):
                problems.append((s, step["outcome"], Path(r["file"]).name, step["detail"]))
    outcomes = ("ok", "n/a", "refused", "crash", "hang", "invariant")
    print(f"{len(results)} files\n")
    print(f"{'step':10s}" + "".join(f"{o:>11s}" for o in outcomes))
    for s in STEPS:
        print(f"{s:10s}" + "".join(f"{table[s][o]:11d}" for o in outcomes))
    if refusals:
        print("\nrefusals (each should name a real problem with the file):")
        for text, n in refusals.most_common():
            print(f"  {n:4d}  {text}")
    if problems:
        print("\nproblems:")
        for s, outcome, name, detail in problems:
            print(f"  {s:8s} {outcome:9s} {name}: {detail}")
    print("\nslowest files (whole run in its process):")
    for r in sorted(results, key=lambda r: -r["seconds"])[:8]:
        slowest = max(r["steps"].items(), key=lambda kv: kv[1].get("seconds", 0), default=(None, {}))
        print(f"  {r['seconds']:7.2f} s  {Path(r['file']).name}  (slowest step: {slowest[0]} "
              f"{slowest[1].get('seconds', 0):.2f} s)")
    return 1 if problems else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="*", type=Path, default=[DEFAULT])
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--jobs", type=int, default=max(1, min(2, os.cpu_count() or 1)))
    parser.add_argument("--limit", type=int, help="only the first N files (sorted by name)")
    parser.add_argument("--json", type=Path, help="write every file's steps here")
    args = parser.parse_args()
    files = sorted(f for folder in args.folders for f in folder.rglob("*.docx"))[: args.limit]
    start = time.perf_counter()
    with ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda f: run_one(f, args.timeout), files))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    status = report(results)
    print(f"\n({len(files)} files in {time.perf_counter() - start:.0f} s, {args.jobs} at a time)")
    return status


if __name__ == "__main__":
    sys.exit(main())
