"""A read costs what it returns: a page of any paged read tool costs about the same on a document ten
times larger, once the document has been read (the census of changes, the comment threads, the outline,
the listings and their indexes are kept per document version, agents/read_views.py).

Measured as ratios, not absolute times: the processor time of one page (best of several, with the
collector paused, since a collection walks the whole heap whatever the page) per item it returns, on a
document of LARGE clauses over one of SMALL. Reading what every page needs again for each page makes the
ratio about LARGE / SMALL = 10.
"""

from __future__ import annotations

import gc
import time

import pytest
from conftest import ok
from docbuilder import build_docx

from folio_desktop.agents import create_reviewer_bridge, execute_tool_call
from folio_desktop.docx import DocxReviewer

SMALL, LARGE = 1_000, 10_000
MAX_RATIO = 3.0
REPEATS = 7


def dense_contract(n: int) -> bytes:
    """n clauses, each a heading (levels 1, 2, 3 in turn) with a tracked insertion and deletion, a comment
    and a footnote: every listing a read pages through (blocks, outline, changes, comment threads, stories,
    matches) grows with n, and one page of each is full at both sizes."""
    body, comments, notes = [], [], []
    for i in range(n):
        body.append(
            f'<w:p><w:pPr><w:outlineLvl w:val="{i % 3}"/></w:pPr><w:commentRangeStart w:id="{i}"/>'
            f'<w:r><w:t xml:space="preserve">Clause {i}: the Purchaser shall pay the Price </w:t></w:r>'
            f'<w:ins w:id="{100_000 + i}" w:author="Counsel" w:date="2024-01-01T00:00:00Z"><w:r>'
            '<w:t xml:space="preserve">within thirty days </w:t></w:r></w:ins>'
            f'<w:del w:id="{200_000 + i}" w:author="Counsel" w:date="2024-01-01T00:00:00Z"><w:r>'
            '<w:delText xml:space="preserve">promptly </w:delText></w:r></w:del>'
            f'<w:commentRangeEnd w:id="{i}"/><w:r><w:commentReference w:id="{i}"/></w:r>'
            f'<w:r><w:footnoteReference w:id="{i + 1}"/></w:r></w:p>')
        comments.append(f'<w:comment w:id="{i}" w:author="Reviewer" w:initials="R"><w:p><w:r>'
                        f'<w:t>Please confirm clause {i}.</w:t></w:r></w:p></w:comment>')
        notes.append(f'<w:footnote w:id="{i + 1}"><w:p><w:r><w:t>See Schedule {i}.</w:t></w:r></w:p></w:footnote>')
    return build_docx("".join(body), comments="".join(comments), footnotes="".join(notes))


@pytest.fixture(scope="module")
def bridges():
    return {n: create_reviewer_bridge(DocxReviewer.from_bytes(dense_contract(n))) for n in (SMALL, LARGE)}


def _middle(bridge) -> str:
    blocks = bridge.snapshot().blocks
    return blocks[len(blocks) // 2].id


def _section(bridge) -> dict:
    blocks = bridge.snapshot().blocks
    heading = next(b for b in blocks[len(blocks) // 2:] if b.heading_level == 1)
    return {"handle": {"headingBlockId": heading.id, "headingTextHash": heading.text_hash, "headingLevel": 1}}


# tool -> the arguments of a page in the middle of the document (of the bridge's size)
PAGES = {
    "read_document": lambda b, n: {"afterBlockId": _middle(b), "maxBlocks": 20},
    "read_document redline": lambda b, n: {"afterBlockId": _middle(b), "maxBlocks": 20, "view": "redline"},
    "read_section": lambda b, n: _section(b),
    "get_document_outline": lambda b, n: {"maxDepth": 3, "afterBlockId": _middle(b)},
    "find_text": lambda b, n: {"query": "Purchaser", "offset": n // 2},
    "read_comments": lambda b, n: {"offset": n // 2},
    "read_changes": lambda b, n: {"offset": n},
    "list_stories": lambda b, n: {"offset": n // 2},
    "read_story": lambda b, n: {"handle": {"type": "main"}, "afterBlockId": _middle(b), "maxBlocks": 20},
}
ITEMS = ("blocks", "sections", "matches", "threads", "changes", "stories")


def _page_cost(bridge, tool: str, args: dict) -> tuple[float, int]:
    """(best processor seconds of the page, items it returned), after a first read of the same page."""
    ok(execute_tool_call(tool, args, bridge))
    best = float("inf")
    for _ in range(REPEATS):
        gc.disable()
        try:
            start = time.process_time()
            result = execute_tool_call(tool, args, bridge)
            best = min(best, time.process_time() - start)
        finally:
            gc.enable()
    page = ok(result)
    items = next((len(page[k]) for k in ITEMS if k in page), None)
    if items is None:  # read_story: one text of a line per block
        items = page["text"].count("\n") + 1
    return best, items


@pytest.mark.parametrize("case", sorted(PAGES))
def test_a_page_costs_the_same_on_a_ten_times_larger_document(bridges, case):
    tool = case.split()[0]
    per_item = {}
    for n, bridge in bridges.items():
        seconds, items = _page_cost(bridge, tool, PAGES[case](bridge, n))
        assert items > 0
        per_item[n] = (seconds / items, seconds, items)
    ratio = per_item[LARGE][0] / per_item[SMALL][0]
    assert ratio < MAX_RATIO, (f"{case}: a page costs {ratio:.1f}x per item on {LARGE:,} clauses what it costs on "
                               f"{SMALL:,} (seconds, items: {per_item})")
