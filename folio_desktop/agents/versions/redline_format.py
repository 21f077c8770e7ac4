"""Formatting revisions of the redline, as Word's Compare writes them: on every paragraph paired with
the same text, the runs take the revised run properties with the old ones kept in w:rPrChange, and a
paragraph whose own properties (style, alignment, indentation, spacing, list...) changed takes the
revised w:pPr with the old one kept in w:pPrChange. Written straight into the XML (after the text
edits), per character: a base run is split where the revised runs' formatting changes.

A run the redline inserted (inside w:ins) simply takes the revised properties: rejecting removes it
anyway. A paragraph whose runs do not hold the same content as the revised one (a field, a picture,
a note reference in another place) keeps its run formatting; its paragraph properties still follow.
"""

from __future__ import annotations

import copy

from lxml import etree

from folio_desktop.docx.editing.ops.paragraph_props import PPR_ORDER
from folio_desktop.docx.editing.paragraph_edit import RPR_ORDER
from folio_desktop.docx.package.ooxml import W_NS, W_PPR, W_RPR

_W = "{" + W_NS + "}"
T_P, T_R, T_T = _W + "p", _W + "r", _W + "t"
T_RPR_CHANGE, T_PPR_CHANGE = _W + "rPrChange", _W + "pPrChange"
_GONE = {_W + t for t in ("del", "moveFrom")}  # runs not in the accepted view
_INSERTED = {_W + t for t in ("ins", "moveTo")}
_TEXT_TAGS = (T_T, _W + "instrText")
_ZERO = {W_RPR, _W + "lastRenderedPageBreak"}
# run content the text edits may write as a plain character (a non-breaking hyphen becomes "-")
_AS_TEXT = {_W + "noBreakHyphen": "-", _W + "tab": "\t", _W + "br": "\n", _W + "cr": "\n"}
_XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
# run properties that are not formatting a reader sees (spell-check language, proofing)
_RPR_IGNORED = {_W + t for t in ("lang", "noProof", "rPrChange", "ins", "del", "moveFrom", "moveTo")}
_PPR_NOT_OWN = {W_RPR, _W + "sectPr", T_PPR_CHANGE}


def _key(el: etree._Element) -> tuple:
    """A canonical form of a property element: tag, sorted WordprocessingML attributes (another
    tool's bookkeeping attributes, e.g. PowerTools' Unid, are not formatting), children."""
    attrs = tuple(sorted((k, v) for k, v in el.attrib.items() if k.startswith(_W)))
    return el.tag, attrs, tuple(_key(c) for c in el if isinstance(c.tag, str))


def _rpr_key(children) -> tuple:
    return tuple(sorted(_key(c) for c in children if isinstance(c.tag, str) and c.tag not in _RPR_IGNORED))


def _ppr_key(children) -> tuple:
    return tuple(sorted(_key(c) for c in children if isinstance(c.tag, str) and c.tag not in _PPR_NOT_OWN))


# -- the content of runs, as tokens ---------------------------------------------------------------------

def _length(child) -> int:
    """Tokens a run child stands for: its characters, 1 for other content, 0 for layout hints."""
    if not isinstance(child.tag, str) or child.tag in _ZERO:
        return 0
    return len(child.text or "") if child.tag in _TEXT_TAGS else 1


def _tokens(run: etree._Element) -> list:
    """One token per character of text and per other run content (a tab, a break, a picture)."""
    out: list = []
    for child in run:
        if child.tag in _TEXT_TAGS:
            out.extend(child.text or "")
        elif _length(child):
            out.append(_AS_TEXT.get(child.tag, child.tag))
    return out


def _own_runs(p: etree._Element) -> list[etree._Element]:
    """The paragraph's runs in the accepted view, in order (not those of text boxes inside it)."""
    out = []
    for run in p.iter(T_R):
        inside = run.getparent()
        gone = False
        while inside is not p:
            if inside.tag == T_P or inside.tag in _GONE:
                gone = True
                break
            inside = inside.getparent()
        if not gone:
            out.append(run)
    return out


def _split(run: etree._Element, cuts: list[int]) -> list[etree._Element]:
    """The run split in place at token offsets `cuts` (increasing, inside it): one run per piece."""
    if not cuts:
        return [run]
    rpr = run.find(W_RPR)
    children = [c for c in run if c is not rpr]
    pieces = [run]
    for _ in cuts:
        piece = etree.Element(T_R, dict(run.attrib))
        if rpr is not None:
            piece.append(copy.deepcopy(rpr))
        pieces[-1].addnext(piece)
        pieces.append(piece)
    for child in children:
        run.remove(child)
    edges = [*cuts, float("inf")]
    pos = k = 0
    for child in children:
        length = _length(child)
        if child.tag in _TEXT_TAGS and length:
            text = child.text
            while text:
                while pos >= edges[k]:
                    k += 1
                take = int(min(len(text), edges[k] - pos))
                seg = copy.deepcopy(child)
                seg.tail = None
                seg.text = text[:take]
                seg.set(_XML_SPACE, "preserve")
                pieces[k].append(seg)
                text, pos = text[take:], pos + take
            continue
        while length and pos >= edges[k]:
            k += 1
        pieces[k].append(child)
        pos += length
    return pieces


# -- writing the changes -----------------------------------------------------------------------------------

class FormatWriter:
    """Formatting revisions of one redline; `style` maps a revised style id into the base (importing
    it), `num` a revised list id."""

    def __init__(self, stamp_factory, style, num):
        self._stamp, self._style, self._num = stamp_factory, style, num
        self.written = 0  # formatting revisions written

    def paragraph(self, base_p: etree._Element, rev_p: etree._Element) -> bool:
        """Bring the base paragraph's formatting to the revised one's, tracked; whether it changed."""
        if base_p.tag != T_P or rev_p.tag != T_P:
            return False
        changed = self.paragraph_properties(base_p, rev_p)
        return self._runs(base_p, rev_p) or changed

    def _imported(self, el: etree._Element) -> etree._Element:
        el = copy.deepcopy(el)
        for tag, mapper in (("pStyle", self._style), ("rStyle", self._style), ("numId", self._num)):
            for ref in list(el.iter(_W + tag)):
                new = mapper(ref.get(_W + "val"))
                if new is not None:
                    ref.set(_W + "val", new)
                    continue
                gone = ref.getparent() if tag == "numId" else ref  # a list reference goes with its numPr
                gone.getparent().remove(gone)
        return el

    def paragraph_properties(self, base_p, rev_p) -> bool:
        """Bring the base paragraph's own properties to the revised one's, tracked; whether they changed."""
        ppr = base_p.find(W_PPR)
        rev_ppr = rev_p.find(W_PPR)
        pending = ppr.find(T_PPR_CHANGE) if ppr is not None else None
        old = list(pending.find(W_PPR)) if pending is not None and pending.find(W_PPR) is not None else \
            [c for c in (ppr if ppr is not None else []) if c.tag not in _PPR_NOT_OWN]
        new = [c for c in (self._imported(rev_ppr) if rev_ppr is not None else []) if c.tag not in _PPR_NOT_OWN]
        current = [c for c in (ppr if ppr is not None else []) if c.tag not in _PPR_NOT_OWN]
        if _ppr_key(current) == _ppr_key(new) and (pending is None) == (_ppr_key(old) == _ppr_key(new)):
            return False
        keep = [c for c in (ppr if ppr is not None else []) if c.tag in (W_RPR, _W + "sectPr")]
        children = sorted(new, key=lambda c: _rank(c.tag)) + keep
        self._set(base_p, ppr, W_PPR, children, old if _ppr_key(old) != _ppr_key(new) else None, "pPrChange")
        return True

    def _runs(self, base_p, rev_p) -> bool:
        b_runs, r_runs = _own_runs(base_p), _own_runs(rev_p)
        b_tok = [_tokens(r) for r in b_runs]
        r_tok = [_tokens(r) for r in r_runs]
        if [t for ts in b_tok for t in ts] != [t for ts in r_tok for t in ts]:
            return False  # not the same content run for run: no reliable per-character walk
        # revised formatting boundaries, as token offsets, with the revised run starting there
        bounds, starts, pos = [], [], 0
        for run, toks in zip(r_runs, r_tok):
            if toks:
                starts.append(pos)
                bounds.append(run)
                pos += len(toks)
        changed = False
        pos = 0
        for run, toks in zip(b_runs, b_tok):
            if not toks:
                continue
            end = pos + len(toks)
            cuts = [s - pos for s in starts if pos < s < end]
            first = _last_at_or_before(starts, pos)
            for piece, index in zip(_split(run, cuts), range(first, first + len(cuts) + 1)):
                changed |= self._run(piece, bounds[index])
            pos = end
        return changed

    def _run(self, run: etree._Element, rev_run: etree._Element) -> bool:
        rpr = run.find(W_RPR)
        rev_rpr = rev_run.find(W_RPR)
        current = list(rpr) if rpr is not None else []
        new = [c for c in (self._imported(rev_rpr) if rev_rpr is not None else []) if c.tag not in _RPR_IGNORED]
        if _rpr_key(current) == _rpr_key(new):
            return False
        inserted = any(a.tag in _INSERTED for a in run.iterancestors())
        pending = rpr.find(T_RPR_CHANGE) if rpr is not None else None
        if pending is not None and pending.find(W_RPR) is not None:
            old = list(pending.find(W_RPR))
        else:
            old = [c for c in current if c.tag != T_RPR_CHANGE]
        kept = [c for c in current if c.tag in _RPR_IGNORED and c.tag != T_RPR_CHANGE]  # language stays
        children = sorted(new + kept, key=lambda c: _rank(c.tag, RPR_ORDER))
        self._set(run, rpr, W_RPR, children, old if not inserted and _rpr_key(old) != _rpr_key(new) else None,
                  "rPrChange")
        return True

    def _set(self, owner, props, tag: str, children: list, old: list | None, change: str) -> None:
        """owner's properties element `props` (tag; made first when None) holds `children`, and, when
        `old` is given, a w:<change> revision holding the old properties (dropped when left empty)."""
        if props is None:
            props = etree.Element(tag)
            owner.insert(0, props)
        if old is not None:
            mark = self._stamp().mark(change)
            held = etree.SubElement(mark, tag)
            for c in old:
                held.append(copy.deepcopy(c))
            children.append(mark)
            self.written += 1
        props[:] = children
        if len(props) == 0:
            owner.remove(props)


def _last_at_or_before(starts: list[int], pos: int) -> int:
    index = 0
    for i, s in enumerate(starts):
        if s <= pos:
            index = i
        else:
            break
    return index


def _rank(tag: str, order=PPR_ORDER) -> int:
    local = tag.split("}", 1)[-1]
    return order.index(local) if local in order else len(order)
