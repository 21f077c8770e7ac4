"""Operations on text inside one block: replacements, formatting, comments (spec §3.6)."""

from __future__ import annotations

import copy

from lxml import etree

from ...package.ooxml import W_NS, W_PPR, W_RPR, W_VAL, on_off
from .. import worddiff
from ..paragraph_edit import (
    EditError,
    ParagraphView,
    join_own_deletions,
    make_runs,
    merge_plain_runs,
    outside_foreign_insertion,
    own_insertion_at,
    set_rpr_child,
)
from .context import OpContext, parse_emphasis, record_ppr_change, same_properties
from .paragraph_props import apply_properties, check_references, ensure_ppr, property_elements

_W = "{" + W_NS + "}"
T_R = _W + "r"
_BACKGROUND = (_W + "highlight", _W + "shd")


def replace_span(ctx: OpContext, view: ParagraphView, a: int, b: int, new: str) -> list[etree._Element]:
    """Replace [a, b) of the view's text by `new`: deletion first, then the insertion after it."""
    source = view.rpr_at(a) if a < b else view.rpr_at(max(a - 1, 0))
    source = copy.deepcopy(source) if source is not None else None
    stamp = ctx.run_stamp()
    written = []
    last_del = view.delete(a, b, stamp) if a < b else None
    if stamp is not None and last_del is not None:
        written.append(last_del)
    if new:
        rpr = source
        cleared = None
        if rpr is not None and any(rpr.find(t) is not None for t in _BACKGROUND):
            cleared = copy.deepcopy(rpr)
            rpr = copy.deepcopy(rpr)
            for tag in _BACKGROUND:
                for el in rpr.findall(tag):
                    rpr.remove(el)
        inserted = view.insert(a, new, stamp, rpr=rpr if rpr is not None else etree.Element(W_RPR),
                               after=last_del)
        if cleared is not None and stamp is not None:
            # the replaced text was highlighted: the new text is not, and that is a tracked change too
            for run in inserted.iter(T_R):
                run_rpr = run.find(W_RPR)
                if run_rpr is None:
                    run_rpr = etree.Element(W_RPR)
                    run.insert(0, run_rpr)
                change = ctx.stamp.mark("rPrChange")
                old = etree.SubElement(change, W_RPR)
                for child in cleared:
                    if child.tag != _W + "rPrChange":
                        old.append(copy.deepcopy(child))
                run_rpr.append(change)
            view.refresh()
        written.append(inserted)
    return written


def apply_hunks(ctx: OpContext, view: ParagraphView, base: int, old: str, new: str) -> list[etree._Element]:
    """Word-level diff of old -> new, written right to left so earlier offsets stay valid."""
    written: list[etree._Element] = []
    for start, end, replacement in reversed(worddiff.hunks(old, new)):
        written = replace_span(ctx, view, base + start, base + end, replacement) + written
    return written


def _check_mixed_formatting(ctx: OpContext, view: ParagraphView, a: int, b: int) -> None:
    runs = {id(seg.run): seg.run for seg in view.segs if seg.start < b and seg.end > a and seg.run is not None}
    shapes = set()
    for run in runs.values():
        rpr = run.find(W_RPR)
        shapes.add(etree.tostring(rpr) if rpr is not None else b"")
    if len(shapes) > 1:
        ctx.normalize("uniformReplacementFormatting")


def _attach_comment(ctx: OpContext, written: list[etree._Element]) -> None:
    text = (ctx.op.get("comment") or {}).get("text")
    if not text or not written:
        return
    cid = ctx.comments.add(text, ctx.stamp.author, date=ctx.stamp.date)
    start, end, ref = ctx.comments.anchor_markers(cid)
    first, last = written[0], written[-1]
    first.addprevious(start)
    last.addnext(end)
    end.addnext(ref)
    ctx.comment_id = cid


def keystrokes(ctx: OpContext, view: ParagraphView, a: int, b: int, new: str) -> list[etree._Element]:
    """A person's keystrokes over [a, b), not a rewrite to diff word by word. When `new` begins with
    the old text the rest is typed right after it (a caret after that character); when it ends
    with it, right before it; anything else deletes [a, b) and types `new` in its place. Typed text
    joins a neighbouring insertion of the same author, as Word's does."""
    old = view.text[a:b]
    if len(new) > len(old) and new.startswith(old):
        return [_type_at(ctx, view, b, new[len(old):], after=True)]
    if len(new) > len(old) and new.endswith(old):
        return [_type_at(ctx, view, a, new[:len(new) - len(old)], after=False)]
    stamp = ctx.run_stamp()
    source = view.rpr_at(a)
    source = copy.deepcopy(source) if source is not None else None
    last_del = view.delete(a, b, stamp)
    if last_del is not None:
        last_del = join_own_deletions(last_del)
        view.refresh()
    if not new:
        return [last_del] if last_del is not None else []
    if last_del is not None:  # typed over a selection: the insertion follows the struck text
        return [view.insert(a, new, stamp, rpr=source if source is not None else etree.Element(W_RPR),
                            after=last_del)]
    return [_type_at(ctx, view, a, new, after=True, rpr=source)]


def _type_at(ctx: OpContext, view: ParagraphView, offset: int, text: str, after: bool,
             rpr: etree._Element | None = None) -> etree._Element:
    """Insert typed text at a caret: after the character before `offset` (after=True) or before the
    character at it, formatted like the character it follows (or, at the start, the one it precedes)."""
    if rpr is None:
        rpr = view.rpr_at(offset - 1 if offset > 0 else 0)
        rpr = copy.deepcopy(rpr) if rpr is not None else None
    parent, index = view.after_char(offset) if after else view.boundary(offset)
    stamp = ctx.run_stamp()
    run = make_runs(text, rpr)[0]
    joined = own_insertion_at(parent, index, stamp.author) if stamp is not None else None
    if stamp is not None and joined is None:
        parent, index = outside_foreign_insertion(parent, index, stamp)
        wrapper = stamp.mark("ins")
        wrapper.append(run)
        parent.insert(index, wrapper)
        view.refresh()
        return wrapper
    if joined is not None:
        parent, index = joined
    parent.insert(index, run)
    merge_plain_runs(run)
    view.refresh()
    return parent if joined is not None else run


def replace_in_block(ctx: OpContext) -> None:
    a, b = ctx.resolved["start"], ctx.resolved["end"]
    view = ctx.view()
    if ctx.resolved.get("keystrokes"):
        keystrokes(ctx, view, a, b, ctx.op["replace"])
        return
    _check_mixed_formatting(ctx, view, a, b)
    written = apply_hunks(ctx, view, a, view.text[a:b], ctx.op["replace"])
    _attach_comment(ctx, written)


replace_range = replace_in_block


def replace_block(ctx: OpContext) -> None:
    op = ctx.op
    p = ctx.block.element
    if "styleId" in op:
        check_references(ctx.doc, {"styleId": op["styleId"]})
    view = ctx.view()
    text = op["text"]
    if ctx.mode == "direct" and op.get("preserveFormatting") is False:
        # a fresh paragraph: old runs and paragraph properties go (the section break stays)
        ppr = p.find(W_PPR)
        sect = ppr.find(_W + "sectPr") if ppr is not None else None
        for child in list(p):
            p.remove(child)
        for joined in ctx.block.joined:  # text the block reads from paragraphs joined to it goes too
            for child in [c for c in joined if c.tag != W_PPR]:
                joined.remove(child)
        if sect is not None:
            ensure_ppr(p).append(sect)
        for chunk, bold, italic in parse_emphasis(text):
            if chunk:
                for run in make_runs(chunk, None, bold=bold, italic=italic):
                    p.append(run)
        if op.get("styleId"):
            apply_properties(ctx.doc, p, {"styleId": op["styleId"]})
        return
    if view.text == text and not ("styleId" in op and _style_changes(p, op["styleId"])):
        raise EditError("noopOperation")
    written = apply_hunks(ctx, view, 0, view.text, text) if view.text != text else []
    if "styleId" in op and _style_changes(p, op["styleId"]):
        if ctx.tracked:
            record_ppr_change(ctx, p)
        apply_properties(ctx.doc, p, {"styleId": op["styleId"]})
    _attach_comment(ctx, written)


def _style_changes(p, style_id) -> bool:
    ps = p.find(f"{W_PPR}/{_W}pStyle")
    current = ps.get(W_VAL) if ps is not None else None
    return current != style_id


# -- formatRange ------------------------------------------------------------------------------------

_TOGGLES = {"bold": "b", "italic": "i", "strike": "strike"}


def _run_matches(rpr, fmt: dict) -> bool:
    """Whether a run already has exactly the requested direct formatting."""
    for key, tag in _TOGGLES.items():
        if key in fmt:
            el = rpr.find(_W + tag) if rpr is not None else None
            if (el is not None and on_off(el)) != fmt[key]:
                return False
    if "underline" in fmt:
        u = rpr.find(_W + "u") if rpr is not None else None
        on = u is not None and u.get(W_VAL, "single") != "none"
        if on != fmt["underline"]:
            return False
    if "fontFamily" in fmt:
        f = rpr.find(_W + "rFonts") if rpr is not None else None
        current = f.get(_W + "ascii") if f is not None else None
        if current != fmt["fontFamily"]:
            return False
    if "fontSizePt" in fmt:
        sz = rpr.find(_W + "sz") if rpr is not None else None
        current = int(sz.get(W_VAL)) / 2 if sz is not None and (sz.get(W_VAL) or "").isdigit() else None
        if current != fmt["fontSizePt"]:
            return False
    if "color" in fmt:
        c = rpr.find(_W + "color") if rpr is not None else None
        current = c.get(W_VAL, "").upper() if c is not None else None
        wanted = fmt["color"].lstrip("#").upper() if fmt["color"] else None
        if current != wanted:
            return False
    return True


def _apply_format(rpr, fmt: dict) -> None:
    for key, tag in _TOGGLES.items():
        if key in fmt:
            el = set_rpr_child(rpr, tag)
            if fmt[key]:
                el.attrib.pop(W_VAL, None)
            else:
                el.set(W_VAL, "0")
    if "underline" in fmt:
        set_rpr_child(rpr, "u").set(W_VAL, "single" if fmt["underline"] else "none")
    if "fontFamily" in fmt:
        old = rpr.find(_W + "rFonts")
        if fmt["fontFamily"] is None:
            if old is not None:
                rpr.remove(old)
        else:
            el = set_rpr_child(rpr, "rFonts")
            for attr in ("ascii", "hAnsi", "cs", "eastAsia"):
                el.set(_W + attr, fmt["fontFamily"])
    if "fontSizePt" in fmt:
        for tag in ("sz", "szCs"):
            old = rpr.find(_W + tag)
            if fmt["fontSizePt"] is None:
                if old is not None:
                    rpr.remove(old)
            else:
                set_rpr_child(rpr, tag).set(W_VAL, str(int(fmt["fontSizePt"] * 2)))
    if "color" in fmt:
        old = rpr.find(_W + "color")
        if fmt["color"] is None:
            if old is not None:
                rpr.remove(old)
        else:
            set_rpr_child(rpr, "color").set(W_VAL, fmt["color"].lstrip("#").upper())


def format_range(ctx: OpContext) -> None:
    a, b = ctx.resolved["start"], ctx.resolved["end"]
    fmt = ctx.op["formatting"]
    view = ctx.view()
    view.boundary(a)
    view.boundary(b)
    runs = view.runs_between(a, b)
    targets = [r for r in runs if not _run_matches(r.find(W_RPR), fmt)]
    if not targets:
        raise EditError("noopOperation")
    if ctx.tracked:
        for run in targets:
            rpr = run.find(W_RPR)
            if rpr is not None and rpr.find(_W + "rPrChange") is not None:
                raise EditError("pendingRunPropertyChange", "the text already carries a pending formatting change")
    for run in targets:
        rpr = run.find(W_RPR)
        if rpr is None:
            rpr = etree.Element(W_RPR)
            run.insert(0, rpr)
        before = [copy.deepcopy(c) for c in rpr if c.tag != _W + "rPrChange"]
        _apply_format(rpr, fmt)
        if ctx.tracked:
            change = ctx.stamp.mark("rPrChange")
            old = etree.SubElement(change, W_RPR)
            for el in before:
                old.append(el)
            rpr.append(change)
        if len(rpr) == 0:
            run.remove(rpr)


# -- comments ------------------------------------------------------------------------------------------


def _comment_span(ctx: OpContext, view: ParagraphView, a: int, b: int, text: str) -> None:
    cid = ctx.comments.add(text, ctx.stamp.author, date=ctx.stamp.date)
    start, end, ref = ctx.comments.anchor_markers(cid)
    if a == b == 0 and not view.segs:
        p = view.p
        ppr = p.find(W_PPR)
        index = p.index(ppr) + 1 if ppr is not None else 0
        p.insert(index, start)
        start.addnext(end)
        end.addnext(ref)
    else:
        parent, index = view.boundary(b)
        parent.insert(index, end)
        end.addnext(ref)
        parent, index = view.boundary(a)
        parent.insert(index, start)
    ctx.comment_id = cid


def comment_on_range(ctx: OpContext) -> None:
    text = ctx.op["comment"]["text"]
    if not text.strip():
        raise EditError("emptyOperation", "the comment text is empty")
    _comment_span(ctx, ctx.view(), ctx.resolved["start"], ctx.resolved["end"], text)


def comment_on_block(ctx: OpContext) -> None:
    text = ctx.op["comment"]["text"]
    if not text.strip():
        raise EditError("emptyOperation", "the comment text is empty")
    view = ctx.view()
    a, b = ctx.resolved.get("start", 0), ctx.resolved.get("end", len(view.text))
    _comment_span(ctx, view, a, b, text)


def set_paragraph_properties(ctx: OpContext) -> None:
    props = ctx.op["properties"]
    check_references(ctx.doc, props)
    p = ctx.block.element
    ppr = p.find(W_PPR)
    before = [copy.deepcopy(e) for e in property_elements(ppr)]
    trial = copy.deepcopy(p)
    apply_properties(ctx.doc, trial, props, ctx.resolved.setdefault("numbering", {}))
    if same_properties(before, property_elements(trial.find(W_PPR))):
        raise EditError("noopOperation")
    if ctx.tracked:
        record_ppr_change(ctx, p)
    apply_properties(ctx.doc, p, props, ctx.resolved["numbering"])
