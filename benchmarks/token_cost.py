"""What a short review costs in input tokens, through the app's real model loop.

A scripted model makes the calls a careful review starts with: get_document_outline -> read_section
of one clause -> find_text "shall" -> add_comment on the first clause found (the section's heading when
nothing is found) -> read_changes and
read_comments -> its answer. The loop (assistant.ModelLoop) sends each request with the real anthropic
SDK to the fake Messages API on a socket (tests/fake_messages_api.py), which counts a request's
input as its bytes // 4 and splits it the way the API's prompt cache does. Printed per request:
input tokens, cache writes, cache reads and their sum; then the totals.

    python benchmarks/token_cost.py [--prompt-tokens N]

--prompt-tokens pads the system prompt to about N tokens (default 1,200: the room left for the review
prompt), so the figures hold for the prompt the app will carry. Targets on the ILPA: under 50,000 input
tokens in all (every kind counted), the first request under 4,000, and cache reads from the second
request on. Exit status 1 if a target is missed.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from fake_messages_api import FakeMessagesAPI, Reply, Text, ToolUse  # noqa: E402

from folio_desktop.agents import create_reviewer_bridge, execute_tool_call  # noqa: E402
from folio_desktop.assistant import AssistantSettings, ModelLoop  # noqa: E402
from folio_desktop.assistant.prompts import system_prompt  # noqa: E402
from folio_desktop.assistant.tooling import anthropic_tools_for, tool_runner  # noqa: E402
from folio_desktop.docx import DocxReviewer  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus"
ILPA = CORPUS / "contract_ilpa_model_lpa_whole_of_fund_75p.docx"
HANDBOOK = CORPUS / "wild" / "eigenpal+docx-editor" / "e2e" / "fixtures" / "issue-68-large.docx"  # ~430 pages
QUERY = "shall"
TOTAL_TARGET = 50_000
FIRST_TARGET = 4_000
KINDS = ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")


def padded_prompt(tokens: int) -> str:
    """The review prompt, lengthened with plain prose to about `tokens` tokens (bytes / 4)."""
    prompt = system_prompt()
    filler = " Read before you judge, cite clauses by number, and keep every edit small."
    while len(prompt.encode()) < tokens * 4:
        prompt += filler
    return prompt


def _call(bridge, name: str, args: dict):
    envelope = execute_tool_call(name, args, bridge)
    if not envelope["ok"]:
        raise RuntimeError(f"{name}: {envelope['error']}")
    return envelope["result"]


def _comment_target(found: dict, section: dict) -> str:
    """The first block find_text reports, else (no match: the handbook says "must") the section's heading."""
    return found["blocks"][0]["blockId"] if found["blocks"] else section["handle"]["headingBlockId"]


def plan(path: Path, section_label: str | None) -> dict:
    """The arguments the scripted model will send, read from the same bytes as the loop's document (the
    ids are the same: they come from the document, not from the session)."""
    bridge = create_reviewer_bridge(DocxReviewer.open(path))
    sections = _call(bridge, "get_document_outline", {})["sections"]
    section = next((s for s in sections if s.get("displayLabel") == section_label), sections[len(sections) // 2])
    found = _call(bridge, "find_text", {"query": QUERY})
    return {"section": section["handle"], "block": _comment_target(found, section)}


def script(steps: dict) -> list[Reply]:
    tool = "tool_use"
    return [
        Reply([Text("I'll start from the outline."), ToolUse("get_document_outline", {})], stop_reason=tool),
        Reply([ToolUse("read_section", {"handle": steps["section"]})], stop_reason=tool),
        Reply([ToolUse("find_text", {"query": QUERY})], stop_reason=tool),
        Reply([ToolUse("add_comment", {"blockId": steps["block"],
                                       "text": "Is this obligation meant to bind the General Partner alone?"})],
              stop_reason=tool),
        Reply([ToolUse("read_changes", {}), ToolUse("read_comments", {})], stop_reason=tool),
        Reply([Text("I added one comment; there are no other pending changes or comments.")]),
    ]


@dataclass
class Run:
    name: str
    requests: list[dict]

    def total(self, kind: str | None = None) -> int:
        return sum(sum(r[k] for k in KINDS) if kind is None else r[kind] for r in self.requests)


def review(path: Path, section_label: str | None, prompt_tokens: int) -> Run:
    steps = plan(path, section_label)
    bridge = create_reviewer_bridge(DocxReviewer.open(path, author="Claude"))
    with FakeMessagesAPI() as api:
        api.script(*script(steps))
        settings = AssistantSettings(api_key="benchmark-key", base_url=api.base_url, model="claude-sonnet-5-5")
        loop = ModelLoop(settings, tool_runner(bridge), anthropic_tools_for(bridge),
                         system=padded_prompt(prompt_tokens))
        result = loop.run_turn("Review the clause on clawback, then what else the partners must do.")
        if result.status != "completed" or not all(c.envelope["ok"] for c in result.tool_calls):
            raise RuntimeError(f"{path.name}: the scripted review did not complete ({result.status}, {result.error})")
        return Run(path.name, [dict(r.usage) for r in api.requests])


def report(run: Run) -> list[str]:
    print(f"\n{run.name}")
    print(f"{'request':>8} {'input':>8} {'cache write':>12} {'cache read':>11} {'all':>8}")
    for i, usage in enumerate(run.requests, 1):
        print(f"{i:>8} {usage['input_tokens']:>8,} {usage['cache_creation_input_tokens']:>12,} "
              f"{usage['cache_read_input_tokens']:>11,} {sum(usage[k] for k in KINDS):>8,}")
    print(f"{'in all':>8} {run.total('input_tokens'):>8,} {run.total('cache_creation_input_tokens'):>12,} "
          f"{run.total('cache_read_input_tokens'):>11,} {run.total():>8,}")
    return []


def misses(run: Run) -> list[str]:
    out = []
    first = sum(run.requests[0][k] for k in KINDS)
    if run.total() >= TOTAL_TARGET:
        out.append(f"{run.name}: {run.total():,} input tokens in all, target under {TOTAL_TARGET:,}")
    if first >= FIRST_TARGET:
        out.append(f"{run.name}: the first request is {first:,} tokens, target under {FIRST_TARGET:,}")
    if not all(r["cache_read_input_tokens"] > 0 for r in run.requests[1:]):
        out.append(f"{run.name}: a repeated request read nothing from the cache")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prompt-tokens", type=int, default=1_200)
    args = parser.parse_args()
    ilpa = review(ILPA, "14.", args.prompt_tokens)  # Distributions; Allocations (clawback is 14.7)
    report(ilpa)
    failed = misses(ilpa)
    if HANDBOOK.exists():
        report(review(HANDBOOK, None, args.prompt_tokens))
    for line in failed:
        print("MISS", line)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
