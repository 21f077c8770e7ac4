"""Laying the pages out again after an edit of a few paragraphs, in time for the next keystroke.

DocumentLayout.relayout re-reads sections and note numbers and paginates from the first page the
edit touches to the end of the document: on a 500-page contract that is a second or more, too slow
to follow typing. Two things make the common case cheap:

- a text-only edit (the document's snapshot was patched: every other block is the very same object
  as before) only forgets the measurements of the edited paragraphs; sections, note numbers and
  comment ranges cannot have changed;
- pagination stops as soon as it has converged: once a page after the edited paragraphs begins
  cleanly with the same element as it did before, or holds exactly what it held before, every
  later page would come out the same, so the old pages are kept from there on.

Anything else (a new paragraph, a renumbered list) goes the general way, which still converges.

An edit that adds or removes a line can move every later page by that line, and converge nowhere:
the pages on screen are laid out at once, the rest while the event loop idles (Relayout).
"""

from __future__ import annotations

import time

from ...layout import DocumentLayout


def relayout_blocks(layout: DocumentLayout, block_ids) -> tuple[int, int]:
    """Lay `layout` out again after the blocks `block_ids` changed (new blocks included, and blocks
    an edit removed), to the end. Returns (first, last): the pages from `first` to `last` are new
    objects; the pages before and after them are the very objects the layout had before."""
    relayout = Relayout(layout, block_ids)
    relayout.advance()
    return relayout.first, relayout.last


class Relayout:
    """One edit's relayout, which can stop part-way and go on later: pagination runs on from the first
    page the edit reaches until it converges (a page begins as it did before) or ends, but an edit that
    moves every later page by a line converges nowhere, and paginating 250 pages is a quarter of a
    second. advance(until_page=...) stops once the pages on screen are done; layout.pages are then the
    new pages so far followed by the old ones (stale, `done` tells where they begin) until further
    advance() calls finish the rest (the view does so in slices while the event loop idles).

    `trusted`: how many of layout.pages are up to date (an earlier relayout that stopped part-way
    left the rest stale): pagination may converge only on those."""

    def __init__(self, layout: DocumentLayout, block_ids, trusted: int | None = None):
        self.layout = layout
        paginator = layout.paginator
        snapshot = paginator.doc.snapshot()
        placed = [(n, f) for bid in block_ids for n, f in layout.fragments_of(bid)]
        paragraphs = {f.para_element for _n, f in placed if f.para_element is not None}
        for bid in block_ids:
            block = snapshot.block(bid)
            if block is not None and block.element is not None:
                paragraphs.add(block.element)  # a paragraph the edit made is not laid out yet
        start = min((n for n, _f in placed), default=1)
        if not _forget_text_edits(paginator, snapshot, paragraphs):
            # the paragraphs forgotten beside the edited ones (a list numbered again after them) must
            # be laid out again too: no page before the last that held one may end the relayout
            forgotten = paginator.invalidate(list(paragraphs)) - paragraphs
            snapshot = paginator.snapshot
            ids = {b.id for p in forgotten if (b := snapshot.block_of_paragraph.get(p)) is not None}
            placed += [(n, f) for bid in ids for n, f in layout.fragments_of(bid)]
            paragraphs |= forgotten
        self.paragraphs = paragraphs
        self.old_pages = list(layout.pages)
        self.old_restarts = dict(paginator.restarts)
        self.trusted = len(self.old_pages) if trusted is None else min(trusted, len(self.old_pages))
        self.last_edited = max((n for n, _f in placed), default=len(self.old_pages))
        self.first, self.last = start, start - 1  # the new pages so far: first..last (none yet)
        self.finished = False
        self._second = False  # the second pass "Page X of Y" needs, under way
        self._run = paginator.run(resume_page=start)

    @property
    def done(self) -> int:
        """The pages up to this one are laid out anew (or were up to date); those after it may be stale."""
        return len(self.layout.pages) if self.finished else self.last

    def advance(self, until_page: int | None = None, deadline: float | None = None) -> bool:
        """Paginate on until finished, or (when given) past page `until_page` or time.perf_counter()
        `deadline`, whichever comes first. True once finished."""
        if self.finished:
            return True
        paginator = self.layout.paginator
        while True:
            for page in self._run:
                number = page.number
                self.first, self.last = min(self.first, number), number
                if self._second:
                    pass  # every page again, with the settled counts: nothing to converge on
                elif any(f.para_element in self.paragraphs for f in page.fragments):
                    self.last_edited = max(self.last_edited, number)
                elif number > self.last_edited and number <= self.trusted and (
                        self.old_restarts.get(number, False) == paginator.restarts.get(number)
                        or _signature(page) == _signature(self.old_pages[number - 1])):
                    if self._converge(number):
                        return True
                    break  # on with the pages an earlier relayout left stale
                if (until_page is not None and number >= until_page) or \
                        (deadline is not None and time.perf_counter() >= deadline):
                    self._show(paginator.pages + self.old_pages[len(paginator.pages):])
                    return False
            else:
                if not self._second and _numpages_changed(paginator):
                    # "Page X of Y": every page shows the new total (SECTIONPAGES the section's): once more
                    self._show(paginator.pages + self.old_pages[len(paginator.pages):])
                    paginator.settle_counts()
                    self._second, self.trusted, self.old_pages = True, 0, list(self.layout.pages)
                    self._run = paginator.run()
                    continue
                self._show(list(paginator.pages), final=True)
                return True

    def close(self) -> None:
        """Give up the rest (a newer edit's relayout goes on from where this one stands)."""
        self._run.close()

    def _converge(self, number: int) -> bool:
        """Page `number` began exactly as it did before: the old pages after it stand as they were, up to
        `trusted`. True when that is every page; otherwise the pages after `trusted` (left stale by an
        earlier relayout that stopped part-way) are laid out from there on, and False."""
        paginator = self.layout.paginator
        self._run.close()
        paginator.pages = paginator.pages[:number] + self.old_pages[number:self.trusted]
        paginator.restarts.update({n: r for n, r in self.old_restarts.items() if number < n <= self.trusted})
        if self.trusted >= len(self.old_pages):
            self.last = number
            self._show(list(paginator.pages), final=True)
            return True
        self.last = self.trusted
        self._run = paginator.run(resume_page=self.trusted + 1)
        self.trusted = 0  # nothing after this is known to be up to date: no page to converge on
        return False

    def _show(self, pages: list, final: bool = False) -> None:
        """Make `pages` the layout's, indexing those that are not the very objects it had."""
        layout = self.layout
        before = layout.pages
        head, tail = same_ends(before, pages)
        end = max(len(pages), len(before)) - tail
        if head < end:
            _reindex(layout, before, head + 1, end, pages)
        else:
            layout.pages = pages
        if final:
            self.finished = True
            self.last = max(self.last, self.first - 1)


def same_ends(before: list, after: list) -> tuple[int, int]:
    """How many pages at the start, and (when the count is the same) at the end, are the very same
    objects in both lists: what a relayout left as it was."""
    head, most = 0, min(len(before), len(after))
    while head < most and before[head] is after[head]:
        head += 1
    tail = 0
    if len(before) == len(after):
        while tail < most - head and before[-1 - tail] is after[-1 - tail]:
            tail += 1
    return head, tail


def _reindex(layout: DocumentLayout, old_pages, first: int, last: int, pages) -> None:
    """Make `pages` the layout's, indexing pages first..last only (the others are the objects they
    were, at the same numbers): the full index walks every fragment of every page."""
    index = getattr(layout, "_block_pages", None)
    if index is None:
        layout._index(pages)
        return
    new = [(page.number, f) for page in pages[first - 1:last] for f in page.fragments if f.story == "main" and f.block_id]
    touched = {f.block_id for page in old_pages[first - 1:last] for f in page.fragments if f.story == "main"}
    touched.update(f.block_id for _n, f in new)
    touched.discard(None)
    for block_id in touched:
        kept = [(n, f) for n, f in index.get(block_id, ()) if not first <= n <= last]
        if kept:
            index[block_id] = kept
        else:
            index.pop(block_id, None)
    for number, frag in new:
        index.setdefault(frag.block_id, []).append((number, frag))
    for block_id in touched:
        if block_id in index:
            index[block_id].sort(key=lambda item: item[0])
    layout.pages = pages


def _signature(page) -> tuple:
    """What a page holds: its body fragments' paragraphs, lines and places, and its notes' lines and
    places. A page after the edit that holds exactly what it held before ends the flow in the same
    state (the same line of the same paragraph, the same notes carried on, since notes are placed
    in the order of their references), so the pages after it come out the same too. Headers and
    footers follow from the page number alone (and are laid out afresh, as new elements, for every
    page), so they are left out."""
    return page.number, tuple(
        (f.story, id(f.para_element) if f.story == "main" else None, f.first_line, f.last_line,
         round(f.x, 2), round(f.y, 2))
        for f in page.fragments if not f.story.startswith(("header", "footer")))


def _forget_text_edits(paginator, snapshot, paragraphs) -> bool:
    """Forget only the edited paragraphs' measurements when the edit changed nothing but their text:
    the document's snapshot was patched, so every other block is the very object the paginator
    measured. False when the paginator must invalidate in full."""
    old, measured = paginator.snapshot, getattr(paginator, "_measured", None)
    if measured is None or len(old.blocks) != len(snapshot.blocks):
        return False
    for a, b in zip(old.blocks, snapshot.blocks):
        if a is not b and (a.element is not b.element or b.element not in paragraphs
                           or a.display_label != b.display_label):
            return False
    paginator.snapshot = snapshot
    paginator.forget(paragraphs)
    return True


def _numpages_changed(paginator) -> bool:
    hint = getattr(paginator, "total_pages_hint", 0)
    return bool(hint) and paginator.counts_stale()


