"""Operations on whole paragraphs: insert, delete, split, merge (spec §3.6)."""

from __future__ import annotations

import copy

from lxml import etree

from ...package.ooxml import W14_PARA_ID, W14_TEXT_ID, W_NS, W_PPR, W_RPR
from ...reading.accepted import mark_deleted
from ..paragraph_edit import EditError, expand_simple_fields, make_runs, set_rpr_child
from .context import (
    OpContext,
    append_runs,
    copied_paragraph_properties,
    is_last_paragraph,
    mark_paragraph,
    new_paragraph,
    outer_table,
    parse_emphasis,
    record_ppr_change,
)
from .paragraph_props import apply_properties, check_references, ensure_ppr, set_child
from .text import apply_hunks

_W = "{" + W_NS + "}"
T_P, T_R = _W + "p", _W + "r"
_KEEP_FONT = ("rFonts", "sz", "szCs", "lang", "color")
_PARA_KEYS = ("styleId", "alignment", "spacing", "indentation", "numbering", "listLevel")
_SPLITTABLE_WRAPPERS = {_W + t for t in ("ins", "del", "moveFrom", "moveTo", "hyperlink", "smartTag", "customXml")}


def _font_rpr(anchor: etree._Element) -> etree._Element | None:
    """Font, size and colour of the anchor's first run, so new text looks like its neighbour."""
    run = next(anchor.iter(T_R), None)
    rpr = run.find(W_RPR) if run is not None else None
    if rpr is None:
        return None
    out = etree.Element(W_RPR)
    for child in rpr:
        if child.tag[len(_W):] in _KEEP_FONT:
            out.append(copy.deepcopy(child))
    return out if len(out) else None


def _show(runs: list[etree._Element]) -> None:
    """Text the model asked for is shown: where the paragraph's style hides its runs (w:vanish; the
    anchor's own runs say w:vanish="0"), the new runs say so too, or Word and the accepted view would
    hide them."""
    for run in runs:
        rpr = run.find(W_RPR)
        if rpr is None:
            rpr = etree.Element(W_RPR)
            run.insert(0, rpr)
        set_rpr_child(rpr, "vanish").set(_W + "val", "0")


def insert_block(ctx: OpContext) -> list[etree._Element]:
    op = ctx.op
    after = op["type"] == "insertAfterBlock"
    anchor_p = ctx.block.element
    table = outer_table(anchor_p)
    # a block that joins paragraphs over deleted marks starts at its first one (accepted.py)
    anchor = table if table is not None else (anchor_p if after else ctx.block.paragraphs[0])
    props = {k: op[k] for k in _PARA_KEYS if k in op}
    check_references(ctx.doc, props)
    text = op["text"]
    inline_breaks = op.get("lineBreakMode") == "inline"
    if inline_breaks or "\n" not in text:
        lines = [text]
    else:
        lines = [line for line in text.replace("\r\n", "\n").split("\n") if line.strip()]
        if not lines:
            lines = [""]
        if len(lines) > 1:
            ctx.normalize("splitMultilineText", paragraphCount=len(lines))
    inherit = op.get("inheritFormatting", True) and table is None
    base_ppr = copied_paragraph_properties(anchor_p.find(W_PPR)) if inherit else None
    font = _font_rpr(anchor_p) if inherit else None
    scope_all = op.get("formattingScope", "allParagraphs") == "allParagraphs"
    stamp = ctx.run_stamp()
    created = []
    for n, line in enumerate(lines):
        p = new_paragraph(ctx)
        if base_ppr is not None:
            p.append(copy.deepcopy(base_ppr))
        if "styleId" in op:
            ppr = p.find(W_PPR)
            if ppr is not None and ppr.find(_W + "numPr") is not None and "numbering" not in op:
                ppr.remove(ppr.find(_W + "numPr"))
        if n == 0 or scope_all:
            if props:
                apply_properties(ctx.doc, p, props, ctx.resolved.setdefault("numbering", {}))
            if op.get("pageBreakBefore") and n == 0:
                set_child(ensure_ppr(p), "pageBreakBefore")
        runs = []
        if n == 0 and "hardPageBreak" in op:
            br_run = etree.Element(T_R)
            br = etree.SubElement(br_run, _W + "br")
            br.set(_W + "type", "page")
            clear = op["hardPageBreak"].get("clear")
            if clear:
                br.set(_W + "clear", clear)
            runs.append(br_run)
        for chunk, bold, italic in parse_emphasis(line):
            if chunk:
                runs.extend(make_runs(chunk, font, bold=bold, italic=italic))
        if ctx.doc.hidden_character_styles.for_paragraph(p).runs_hidden:
            _show(runs)
        append_runs(ctx, p, runs)
        if stamp is not None:
            mark_paragraph(ctx, p, "ins")
        created.append(p)
    if ctx.move == "to" and stamp is not None:
        _move_range(ctx, created, "moveTo")
    if after:
        for p in reversed(created):
            anchor.addnext(p)
    else:
        for p in created:
            anchor.addprevious(p)
    ctx.created.extend(created)
    return created


def _move_range(ctx: OpContext, paragraphs: list[etree._Element], side: str) -> None:
    """moveFromRangeStart/End (or moveTo...) around the moved paragraphs' content, named per pair."""
    start = ctx.stamp.mark(f"{side}RangeStart")
    start.set(_W + "name", ctx.move_name)
    end = etree.Element(_W + f"{side}RangeEnd")
    end.set(_W + "id", start.get(_W + "id"))
    first, last = paragraphs[0], paragraphs[-1]
    ppr = first.find(W_PPR)
    first.insert(first.index(ppr) + 1 if ppr is not None else 0, start)
    last.append(end)


def delete_block(ctx: OpContext) -> None:
    p = ctx.block.element
    paragraphs = ctx.block.paragraphs if ctx.block.joined else [p]  # (what ctx.view() reads)
    if ctx.tracked:  # a w:del may hold a complex field's runs, not a simple field
        for each in paragraphs:
            expand_simple_fields(each)
    view = ctx.view()
    last = is_last_paragraph(p)
    if not ctx.tracked:
        if last:
            if not view.text:
                raise EditError("noopOperation", "the last paragraph of its container cannot be removed")
            view.delete(0, len(view.text), None)
        else:
            p.getparent().remove(p)
        return
    if not view.text and last:
        raise EditError("noopOperation", "the last paragraph of its container cannot be removed")
    if view.text:
        view.delete(0, len(view.text), ctx.stamp, allow_notes=True)
    if not last:  # (the last paragraph stays: what it shows besides text stays with it)
        view.delete_unread(paragraphs, ctx.stamp)
    own = _own_inserted_mark(p, ctx.stamp.author) if ctx.move is None else None
    nxt = next_paragraph(p) if own is not None and not last else None
    if nxt is not None:
        # Word's rule: deleting a paragraph you inserted yourself takes its break out; what is left
        # of it (text of others, now struck) joins the next paragraph
        _join_into_next(p, nxt)
        ctx.resolved["survivor"] = nxt
    elif not last:
        _delete_mark(ctx, p)
    if ctx.move == "from":
        _move_range(ctx, [p], "moveFrom")


def split_block(ctx: OpContext) -> None:
    p = ctx.block.element
    view = ctx.view()
    k = ctx.resolved["offset"]
    # Enter at a paragraph's very start or end splits there too (an empty half, as Word's)
    inside = 0 <= k <= len(view.text) if ctx.resolved.get("keystrokes") else 0 < k < len(view.text)
    if not inside:
        raise EditError("staleRange", f"offset must fall strictly inside the block's text (1 to {len(view.text) - 1})")
    separator = ctx.op.get("separator")
    if separator:
        if view.text[k:k + len(separator)] != separator:
            raise EditError("missingFind", "the separator is not at the offset")
        apply_hunks(ctx, view, k, separator, "")
    parent, index = view.boundary(k)
    parent, index = _split_up_to(ctx, p, parent, index)
    second = new_paragraph(ctx)
    ppr = p.find(W_PPR)
    if ppr is not None:
        second_ppr = copy.deepcopy(ppr)
        for el in second_ppr.findall(_W + "pPrChange"):
            second_ppr.remove(el)
        second.append(second_ppr)
        sect = ppr.find(_W + "sectPr")
        if sect is not None:  # the section break belongs to the last half
            ppr.remove(sect)
    for child in list(p)[index:]:
        second.append(child)
    p.addnext(second)
    if ctx.tracked:
        mark_paragraph(ctx, p, "ins")
    for key, target in (("firstParagraphProperties", p), ("secondParagraphProperties", second)):
        if key in ctx.op:
            check_references(ctx.doc, ctx.op[key])
            if ctx.tracked:
                record_ppr_change(ctx, target)
            apply_properties(ctx.doc, target, ctx.op[key], ctx.resolved.setdefault("numbering", {}))
    ctx.created.append(second)


def _split_up_to(ctx: OpContext, p, parent, index):
    """Split inline wrappers (hyperlinks, revisions) so position (parent, index) sits directly in p."""
    while parent is not p:
        if parent.tag not in _SPLITTABLE_WRAPPERS:
            raise EditError("unsupportedBlock", "the paragraph cannot be split inside this content")
        outer = parent.getparent()
        pos = outer.index(parent)
        if index <= 0:
            parent, index = outer, pos
            continue
        if index >= len(parent):
            parent, index = outer, pos + 1
            continue
        tail = etree.Element(parent.tag, attrib=dict(parent.attrib))
        if tail.get(_W + "id") is not None and parent.tag != _W + "hyperlink":
            tail.set(_W + "id", str(ctx.stamp.next_id()))
        for child in list(parent)[index:]:
            tail.append(child)
        parent.addnext(tail)
        parent, index = outer, pos + 1
    return parent, index


def next_paragraph(p: etree._Element) -> etree._Element | None:
    sib = p.getnext()
    while sib is not None and sib.tag in (_W + "bookmarkStart", _W + "bookmarkEnd", _W + "commentRangeStart",
                                          _W + "commentRangeEnd", _W + "proofErr", _W + "permStart", _W + "permEnd"):
        sib = sib.getnext()
    return sib if sib is not None and sib.tag == T_P else None


def merge_block(ctx: OpContext) -> None:
    p = ctx.block.element
    nxt = next_paragraph(p)
    if nxt is None:
        raise EditError("unsupportedBlock", "there is no following paragraph in the same container to merge with")
    separator = ctx.op.get("separator", "")
    view = ctx.view()
    if separator:
        view.insert(len(view.text), separator, ctx.run_stamp())
    props = ctx.op.get("mergedParagraphProperties")
    if props:
        check_references(ctx.doc, props)
    if ctx.tracked and _own_inserted_mark(p, ctx.stamp.author) is not None and not props:
        # Word's rule: taking out your own pending paragraph break joins the paragraphs outright
        _join_into_first(p, nxt)
        return
    if ctx.tracked:
        _delete_mark(ctx, p)
        if props:
            record_ppr_change(ctx, nxt)
            apply_properties(ctx.doc, nxt, props, ctx.resolved.setdefault("numbering", {}))
        return
    # direct: the following paragraph's mark survives; this paragraph's content moves into it
    _join_into_next(p, nxt)
    if props:
        apply_properties(ctx.doc, nxt, props, ctx.resolved.setdefault("numbering", {}))
    ctx.resolved["survivor"] = nxt


def _delete_mark(ctx: OpContext, p: etree._Element) -> None:
    """Record p's paragraph mark as deleted, keeping whatever is pending on it: an insertion of the
    mark (anyone's) stays beside our deletion, so rejecting every change still takes the mark out
    and accepting every change joins the paragraphs; a deletion already pending keeps its author."""
    if mark_deleted(p):
        return
    rpr = p.find(f"{W_PPR}/{W_RPR}")
    ins = rpr.find(_W + "ins") if rpr is not None else None
    if ins is None and (rpr is None or rpr.find(_W + "moveTo") is None):
        mark_paragraph(ctx, p, "del")
        return
    # CT_ParaRPr: ins?, del?, moveFrom?, moveTo?, then the mark's run properties
    rpr.insert(rpr.index(ins) + 1 if ins is not None else 0, ctx.stamp.mark("del"))


def _own_inserted_mark(p: etree._Element, author: str) -> etree._Element | None:
    mark = p.find(f"{W_PPR}/{W_RPR}/{_W}ins")
    return mark if mark is not None and mark.get(_W + "author") == author else None


def _join_into_next(p: etree._Element, nxt: etree._Element) -> None:
    """p's content moves to the start of nxt, whose paragraph mark survives; p goes."""
    nxt_ppr = nxt.find(W_PPR)
    insert_at = nxt.index(nxt_ppr) + 1 if nxt_ppr is not None else 0
    for child in [c for c in p if c.tag != W_PPR]:
        nxt.insert(insert_at, child)
        insert_at += 1
    p.getparent().remove(p)


def _join_into_first(p: etree._Element, nxt: etree._Element) -> None:
    """nxt's content moves to the end of p and p takes nxt's paragraph properties (the mark that
    survives); p keeps its own id, so the paragraph reads as before the break was typed."""
    for child in [c for c in p if c.tag == W_PPR]:
        p.remove(child)
    nxt_ppr = nxt.find(W_PPR)
    if nxt_ppr is not None:
        p.insert(0, nxt_ppr)
    for child in [c for c in nxt if c.tag != W_PPR]:
        p.append(child)
    nxt.getparent().remove(nxt)


__all__ = ["insert_block", "delete_block", "split_block", "merge_block", "W14_PARA_ID", "W14_TEXT_ID"]
