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
"""

from __future__ import annotations

from ...layout import DocumentLayout


def relayout_blocks(layout: DocumentLayout, block_ids) -> tuple[int, int]:
    """Lay `layout` out again after the blocks `block_ids` changed (new blocks included, and blocks
    an edit removed). Returns (first, last): the pages from `first` to `last` are new objects; the
    pages before and after them are the very objects the layout had before."""
    paginator = layout.paginator
    snapshot = paginator.doc.snapshot()
    placed = [(n, f) for bid in block_ids for n, f in layout.fragments_of(bid)]
    paragraphs = {f.para_element for _n, f in placed if f.para_element is not None}
    for bid in block_ids:
        block = snapshot.block(bid)
        if block is not None and block.element is not None:
            paragraphs.add(block.element)  # a paragraph the edit made is not laid out yet
    first = min((n for n, _f in placed), default=1)
    if not _forget_text_edits(paginator, snapshot, paragraphs):
        paginator.invalidate(list(paragraphs))
    old_pages = list(paginator.pages)
    old_restarts = dict(paginator.restarts)
    last_edited = max((n for n, _f in placed), default=len(old_pages))
    pages = paginator.run(resume_page=first)
    new_first = converged = None
    for page in pages:
        number = page.number
        new_first = number if new_first is None else new_first
        if any(f.para_element in paragraphs for f in page.fragments):
            last_edited = max(last_edited, number)
            continue
        if number > last_edited and number <= len(old_pages) and (
                old_restarts.get(number, False) == paginator.restarts.get(number)
                or _signature(page) == _signature(old_pages[number - 1])):
            converged = number
            break
    pages.close()
    new_first = new_first or first
    if converged is None:
        if _numpages_changed(paginator):
            return 1, _second_pass(layout)
        layout._index(paginator.pages)
        return new_first, len(paginator.pages)
    # this page began exactly as it did before: the old pages after it stand as they were
    paginator.pages = paginator.pages[:converged] + old_pages[converged:]
    paginator.restarts.update({n: r for n, r in old_restarts.items() if n > converged})
    _reindex(layout, old_pages, new_first, converged)
    return new_first, converged


def _reindex(layout: DocumentLayout, old_pages, first: int, last: int) -> None:
    """layout._index over the pages first..last only (the others are the objects they were, at the
    same numbers): the full index walks every fragment of every page."""
    index = getattr(layout, "_block_pages", None)
    pages = layout.paginator.pages
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


def _second_pass(layout: DocumentLayout) -> int:
    """"Page X of Y" shows the new total on every page (SECTIONPAGES the section's): paginate once more with it."""
    paginator = layout.paginator
    paginator.settle_counts()
    list(paginator.run())
    layout._index(paginator.pages)
    return len(paginator.pages)
