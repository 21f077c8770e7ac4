"""What the read tools cost the model's context (issue 12, acceptance 2).

For the ILPA model LPA, the ~520-page NVCA x10 and the largest documents of the corpus, prints each
read tool's default result size (characters of JSON, as the model receives it), then pages through
the whole document with each paging tool and checks: every page under the budget, paging reaches
every content block exactly once (read_document, read_story) or every item (list_stories,
find_text, read_changes, read_comments), and every numbered block it returns carries displayLabel.

    python benchmarks/tool_budget.py [--largest N]

Exit status 1 if any check fails.
"""

from __future__ import annotations

import argparse
import sys
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from longdoc import build_long_nvca  # noqa: E402

from folio_desktop.agents import create_reviewer_bridge, execute_tool_call  # noqa: E402
from folio_desktop.agents.paging import HARD_LIMIT, RESULT_BUDGET, json_size  # noqa: E402
from folio_desktop.docx import DocxError, DocxReviewer  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus"
ILPA = CORPUS / "contract_ilpa_model_lpa_whole_of_fund_75p.docx"
DEFAULT_CALLS = ("read_document", "get_document_outline", "read_section", "list_stories", "read_story",
                 "find_text", "read_comments", "read_changes")


def largest_documents(n: int) -> list[Path]:
    """The corpus documents (bad/ aside) with the largest main part, uncompressed."""
    sized = []
    for path in CORPUS.rglob("*.docx"):
        if "bad" in path.relative_to(CORPUS).parts:
            continue
        try:
            with zipfile.ZipFile(path) as z:
                info = next((i for i in z.infolist() if i.filename.lower() == "word/document.xml"), None)
        except (zipfile.BadZipFile, OSError):
            continue
        if info is not None:
            sized.append((info.file_size, path))
    return [p for _size, p in sorted(sized, reverse=True)[:n]]


class Check:
    def __init__(self):
        self.failures: list[str] = []

    def __call__(self, ok: bool, what: str) -> None:
        if not ok:
            self.failures.append(what)


def call(bridge, name, args=None):
    result = execute_tool_call(name, args or {}, bridge)
    if not result["ok"]:
        raise RuntimeError(f"{name} {args}: {result['error']}")
    return result["result"]


def page_through(bridge, name, args, items_key, cursor_key, arg_key, check, label):
    """Follow a tool's cursor to the end; returns (pages, items, largest page)."""
    pages, items, largest, args = 0, [], 0, dict(args)
    while True:
        result = call(bridge, name, args)
        size = json_size(result)
        largest = max(largest, size)
        check(size <= RESULT_BUDGET, f"{label}: {name} page {pages + 1} is {size:,} characters")
        pages += 1
        got = result[items_key] if items_key in result else \
            [m for b in result["blocks"] for m in b["matches"]]  # find_text: matches grouped by block
        items.extend(got if isinstance(got, list) else [got])
        if not result.get("truncated") or cursor_key not in result:
            return pages, items, largest
        check(bool(got), f"{label}: {name} returned an empty page before the end")
        args[arg_key] = result[cursor_key]
        if pages > 100_000:
            check(False, f"{label}: {name} never ends")
            return pages, items, largest


def measure(label: str, data: bytes, check: Check) -> None:
    start = time.perf_counter()
    rev = DocxReviewer.from_bytes(data)
    bridge = create_reviewer_bridge(rev)
    snapshot = rev.snapshot()
    content = [b for b in snapshot.blocks if b.is_content]
    labelled = {b.id for b in content if b.display_label and b.kind != "diagnostic"}
    outline = call(bridge, "get_document_outline")
    section = {"handle": outline["sections"][0]["handle"]} if outline["sections"] else None
    default_args = {"read_section": section, "read_story": {"handle": {"type": "main"}},
                    "find_text": {"query": "the"}}
    sizes = {}
    for name in DEFAULT_CALLS:
        if name in default_args and default_args[name] is None:
            sizes[name] = None
            continue
        result = call(bridge, name, default_args.get(name))
        sizes[name] = json_size(result)
        check(sizes[name] <= RESULT_BUDGET, f"{label}: default {name} is {sizes[name]:,} characters")
    print(f"\n{label}: {len(content):,} content blocks, {len(labelled):,} numbered; "
          f"opened and read in {time.perf_counter() - start:.2f} s")
    print("  default result (characters of JSON): " + ", ".join(
        f"{n} {s:,}" if s is not None else f"{n} -" for n, s in sizes.items()))

    pages, blocks, largest = page_through(bridge, "read_document", {}, "blocks", "nextAfterBlockId",
                                          "afterBlockId", check, label)
    ids = [b["blockId"] for b in blocks]
    check(ids == [b.id for b in content], f"{label}: read_document paging does not reach every block once")
    missing = [b["blockId"] for b in blocks if b["blockId"] in labelled and "displayLabel" not in b]
    check(not missing, f"{label}: {len(missing)} numbered blocks without displayLabel")
    reached = len(set(ids) & {b.id for b in content}) / max(1, len(content))
    print(f"  read_document: {pages} pages (largest {largest:,}) reach {reached:.0%} of content blocks; "
          f"displayLabel on {len(labelled) - len(missing):,}/{len(labelled):,} numbered blocks")
    pages, texts, largest = page_through(bridge, "read_story", {"handle": {"type": "main"}}, "text",
                                         "nextAfterBlockId", "afterBlockId", check, label)
    # every block's line, in order: "[id] ..." starts each one
    starts = [line[1:line.index("]")] for text in texts for line in text.split("\n")
              if line.startswith("[") and "]" in line]
    check([i for i in starts if i in set(ids)] == ids, f"{label}: read_story paging does not reach every block")
    print(f"  read_story main: {pages} pages (largest {largest:,})")
    for name, args, key in (("list_stories", {}, "stories"), ("find_text", {"query": "the"}, "matches"),
                            ("read_changes", {}, "changes"), ("read_comments", {}, "threads")):
        first = call(bridge, name, args)
        total = next(v for k, v in first.items() if k.startswith("total"))
        pages, items, largest = page_through(bridge, name, args, key, "nextOffset", "offset", check, label)
        check(len(items) == total, f"{label}: {name} paging reached {len(items)} of {total}")
        print(f"  {name}: {total:,} items in {pages} pages (largest {largest:,})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--largest", type=int, default=6, help="how many of the corpus's largest documents")
    args = parser.parse_args()
    print(f"budget: {RESULT_BUDGET:,} characters per default result (hard limit {HARD_LIMIT:,})")
    check = Check()
    docs = [("ILPA model LPA (75 p.)", ILPA.read_bytes()), ("NVCA x10 (~520 p.)", build_long_nvca(10))]
    for path in largest_documents(args.largest):
        if path != ILPA:
            docs.append((str(path.relative_to(CORPUS)), path.read_bytes()))
    for label, data in docs:
        try:
            measure(label, data, check)
        except DocxError as exc:
            print(f"\n{label}: not opened ({exc})")
    print()
    if check.failures:
        print(f"FAIL: {len(check.failures)} check(s)")
        for failure in check.failures[:40]:
            print("  " + failure)
        return 1
    print("ok: every result under the budget; paging reached every block and item; every numbered block "
          "carried displayLabel")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
