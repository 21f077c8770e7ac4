"""Editing one paragraph by accepted-view offsets: split runs, delete and insert, tracked or direct.

The view maps every visible character of a paragraph's accepted-view text (what the model reads)
to the run and the element (w:t, w:tab, w:br, a note reference) that carries it. Edits first make
run boundaries at the offsets they need, then wrap, remove or insert whole runs, so the formatting of
untouched text never changes. A JoinedView reads paragraphs that deleted marks join (accepted.py)
as one.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from datetime import UTC, datetime

from lxml import etree

from ..package.ooxml import W_NS, W_PPR, W_RPR
from ..reading import inline
from ..reading.inline import BREAK, COMMENT_END, COMMENT_START, NOTE, PAGE_BREAK, TAB, TEXT, StoryState

_W = "{" + W_NS + "}"
XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
T_R, T_T, T_DELTEXT, T_INSTR, T_DELINSTR = _W + "r", _W + "t", _W + "delText", _W + "instrText", _W + "delInstrText"
T_INS, T_DEL, T_MOVE_FROM, T_MOVE_TO = _W + "ins", _W + "del", _W + "moveFrom", _W + "moveTo"
T_TAB, T_BR, T_FLDCHAR = _W + "tab", _W + "br", _W + "fldChar"
_RUN_PROPERTY_REVISIONS = (_W + "rPrChange", _W + "ins", _W + "del", _W + "moveFrom", _W + "moveTo")
# elements that may stand between runs inside one w:del wrapper
_MARKERS = {_W + t for t in ("bookmarkStart", "bookmarkEnd", "commentRangeStart", "commentRangeEnd", "proofErr",
                             "permStart", "permEnd")}
REVISION_TAGS = tuple(
    _W + t for t in ("ins", "del", "moveFrom", "moveTo", "rPrChange", "pPrChange", "sectPrChange", "tblPrChange",
                     "tblGridChange", "trPrChange", "tcPrChange", "tblPrExChange", "cellIns", "cellDel", "cellMerge"))


class EditError(Exception):
    """An edit that cannot be represented; `reason` is a skip reason of spec §3.7."""

    def __init__(self, reason: str, message: str | None = None):
        super().__init__(message or reason)
        self.reason = reason
        self.message = message


@dataclass
class Stamp:
    """Author, one timestamp per batch, and revision ids unique across the package."""

    author: str
    date: str
    cursor: list[int]  # shared, so every stamp of a document draws from one sequence

    def next_id(self) -> int:
        self.cursor[0] += 1
        return self.cursor[0]

    def mark(self, tag: str) -> etree._Element:
        el = etree.Element(_W + tag)
        el.set(_W + "id", str(self.next_id()))
        el.set(_W + "author", self.author)
        el.set(_W + "date", self.date)
        return el


def now_iso() -> str:
    return datetime.now(UTC).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")


def max_revision_id(roots) -> int:
    top = 0
    for root in roots:
        for el in root.iter(*REVISION_TAGS):
            raw = el.get(_W + "id")
            if raw is not None and raw.lstrip("-").isdigit():
                top = max(top, int(raw))
    return top


@dataclass
class Seg:
    start: int
    end: int
    kind: int
    text: str
    run: etree._Element | None
    node: etree._Element | None


class ParagraphView:
    """Accepted-view text of a paragraph with each character's carrier (rebuilt after each edit)."""

    def __init__(self, p: etree._Element, hidden_styles=frozenset(), note_texts: list[str] | None = None):
        self.p = p
        self.hidden_styles = hidden_styles
        self.note_texts = note_texts or []
        self.refresh()

    def refresh(self) -> None:
        segs: list[Seg] = []
        parts: list[str] = []
        pos = 0
        notes = 0
        for piece in inline.iter_pieces(self.p, StoryState(), self.hidden_styles):
            kind = piece.kind
            if kind in (COMMENT_START, COMMENT_END, PAGE_BREAK) or piece.dele is not None or piece.hidden:
                continue
            if kind == NOTE:
                text = self.note_texts[notes] if notes < len(self.note_texts) else "[^?]"
                notes += 1
            elif kind in (TEXT, TAB, BREAK):
                text = piece.text
            else:
                continue
            if not text:
                continue
            segs.append(Seg(pos, pos + len(text), kind, text, piece.run, piece.node))
            parts.append(text)
            pos += len(text)
        self.segs = segs
        self.text = "".join(parts)

    # -- boundaries --------------------------------------------------------------------------

    def _seg_at(self, offset: int) -> int:
        for i, seg in enumerate(self.segs):
            if seg.end > offset:
                return i
        return len(self.segs)

    def boundary(self, offset: int) -> tuple[etree._Element, int]:
        """Make a run boundary at offset; return the (parent, index) where content at that offset goes."""
        segs = self.segs
        if not segs:
            return self.p, _content_start(self.p)
        if offset <= 0:
            return _position_before(_carrier(segs[0]))
        if offset >= segs[-1].end:
            run = _carrier(segs[-1])
            parent = run.getparent()
            return parent, parent.index(run) + 1
        i = self._seg_at(offset)
        seg = segs[i]
        if seg.run is None:
            raise EditError("unsupportedBlock", "the text at this offset is part of an equation")
        if seg.start < offset:
            if seg.kind != TEXT or seg.node.tag not in (T_T, T_DELTEXT):
                raise EditError("protectedReference", "the offset falls inside a footnote or endnote marker")
            k = offset - seg.start
            new = split_run(seg.run, seg.node, k)
            # the segs as a fresh walk reads them (a walk per split made a word-level redline of a
            # long paragraph quadratic): the cut text's right part, and everything after it in
            # that run, now lies in the new run
            cut = [Seg(seg.start, offset, TEXT, seg.text[:k], seg.run, seg.node),
                   Seg(offset, seg.end, TEXT, seg.text[k:], new, _text_node(new))]
            self.segs = segs[:i] + cut + _moved(segs[i + 1:], seg.run, new)
            return _position_before(new)
        prev = segs[i - 1]
        if prev.run is seg.run:
            new = split_run(seg.run, seg.node, 0)
            self.segs = segs[:i] + _moved(segs[i:], seg.run, new)
            return _position_before(new)
        return _position_before(seg.run)

    def runs_between(self, a: int, b: int) -> list[etree._Element]:
        """Runs whose visible text lies in [a, b), in order (boundaries must exist at a and b)."""
        out: list[etree._Element] = []
        for seg in self.segs:
            if seg.start >= a and seg.end <= b and seg.run is None:
                raise EditError("unsupportedBlock", "the range includes an equation")
            if seg.start >= a and seg.end <= b and seg.run not in out:
                out.append(seg.run)
            elif seg.start < b and seg.end > a and not (seg.start >= a and seg.end <= b):
                raise EditError("protectedReference", "the range cuts into a footnote or endnote marker")
        return out

    def rpr_at(self, offset: int) -> etree._Element | None:
        """The run properties of the character at offset (or the one before, at the end)."""
        if not self.segs:
            mark = self.p.find(f"{W_PPR}/{W_RPR}")
            return mark
        i = min(self._seg_at(offset), len(self.segs) - 1)
        run = self.segs[i].run
        return run.find(W_RPR) if run is not None else None

    # -- edits ------------------------------------------------------------------------------

    def delete(self, a: int, b: int, stamp: Stamp | None, allow_notes: bool = False) -> etree._Element | None:
        """Remove [a, b): wrapped in w:del when tracked (stamp given), removed when direct.
        Returns the last w:del written (tracked) so an insertion can follow it. Note markers may only
        go when the whole paragraph is deleted (allow_notes)."""
        if a >= b:
            return None
        self.boundary(a)
        self.boundary(b)
        runs = self.runs_between(a, b)
        notes = any(seg.kind == NOTE for seg in self.segs if seg.start >= a and seg.end <= b)
        if not allow_notes and notes:
            raise EditError("protectedReference", "the edit would remove a footnote or endnote marker")
        # the text after the range only moves back, unless a note marker (later ones are numbered
        # again) or a field character (it opens or closes a field for what follows) goes with it
        walk = notes or any(True for run in runs for _ in run.iter(T_FLDCHAR))
        last = self._remove(runs, stamp)
        if walk:
            self.refresh()
        else:  # (a walk of the whole paragraph per deletion made a word-level redline quadratic)
            n = b - a
            self.segs = [seg for seg in self.segs if seg.end <= a] + [
                Seg(seg.start - n, seg.end - n, seg.kind, seg.text, seg.run, seg.node)
                for seg in self.segs if seg.start >= b]
            self.text = self.text[:a] + self.text[b:]
        return last

    def delete_unread(self, paragraphs: list[etree._Element], stamp: Stamp | None) -> None:
        """For paragraphs deleted whole (this view's): also remove the runs their text does not read (a
        picture, a page break, an object), which would otherwise join the next paragraph once the
        deletion is accepted. A field's runs go too when the whole field is inside its paragraph (one
        that spans paragraphs keeps its begin or end there)."""
        runs = []
        for p in paragraphs:
            whole = _fields_balanced(p)
            runs += [run for run in p.iter(T_R) if _unread_content(run, p, whole)]
        if runs:
            self._remove(runs, stamp)
            self.refresh()

    def _remove(self, runs: list[etree._Element], stamp: Stamp | None) -> etree._Element | None:
        last = None
        if stamp is not None:
            # Word's rule: deleting text of your own pending insertion takes it out, it is not struck
            own = [run for run in runs if _own_insertion(run, self.p, stamp.author) is not None]
            runs = [run for run in runs if not any(run is o for o in own)]
            for run in own:
                wrapper = _own_insertion(run, self.p, stamp.author)
                run.getparent().remove(run)
                if not any(el.tag == T_R for el in wrapper.iter()):
                    _drop_keeping_markers(wrapper)
        if stamp is None:
            wrappers = {id(w): w for w in (_revision_of(run, self.p) for run in runs) if w is not None}
            for run in runs:
                run.getparent().remove(run)
            for wrapper in wrappers.values():  # an insertion whose text all went: no empty w:ins is left
                if not any(el.tag == T_R for el in wrapper.iter()):
                    _drop_keeping_markers(wrapper)
        else:
            for group in _sibling_groups(runs):
                wrapper = stamp.mark("del")
                first = group[0]
                parent = first.getparent()
                parent.insert(parent.index(first), wrapper)
                for el in group:
                    wrapper.append(el)
                for t in wrapper.iter(T_T):
                    t.tag = T_DELTEXT
                for t in wrapper.iter(T_INSTR):
                    t.tag = T_DELINSTR
                last = wrapper
        return last

    def insert(self, offset: int, text: str, stamp: Stamp | None, rpr: etree._Element | None = None,
               after: etree._Element | None = None, bold=False, italic=False) -> etree._Element:
        """Insert text at offset (or right after the element `after`), formatted like `rpr`."""
        if after is not None:
            parent, index = after.getparent(), after.getparent().index(after) + 1
        else:
            if rpr is None:
                rpr = self.rpr_at(offset - 1 if offset > 0 else 0)
            parent, index = self.boundary(offset)
        parent, index = outside_foreign_insertion(parent, index, stamp)
        runs = make_runs(text, rpr, bold=bold, italic=italic)
        if stamp is not None:
            wrapper = stamp.mark("ins")
            for run in runs:
                wrapper.append(run)
            parent.insert(index, wrapper)
            result = wrapper
        else:
            for k, run in enumerate(runs):
                parent.insert(index + k, run)
            result = runs[-1]
        self.refresh()
        return result

    def after_char(self, offset: int) -> tuple[etree._Element, int]:
        """The (parent, index) right after the character at offset - 1, before any deleted or
        marker content that follows it (where a caret drawn just after that character is)."""
        segs = self.segs
        if offset <= 0 or not segs:
            return self.boundary(0)
        i = self._seg_at(offset - 1)
        seg = segs[i]
        if offset < seg.end or (i + 1 < len(segs) and segs[i + 1].run is seg.run):
            return self.boundary(offset)  # inside a run: split it there
        run = _carrier(seg)
        parent = run.getparent()
        return parent, parent.index(run) + 1


class JoinedView(ParagraphView):
    """The accepted-view text of paragraphs joined by deleted marks, read as one paragraph: offsets
    run over all of them in order, so an edit lands in whichever paragraph holds that text. `p` is
    the last one (the surviving mark); text at the very start of an empty joined run goes there."""

    def __init__(self, paragraphs, hidden_styles=frozenset(), note_texts: list[str] | None = None):
        self.paragraphs = list(paragraphs)
        super().__init__(self.paragraphs[-1], hidden_styles, note_texts)

    def refresh(self) -> None:
        segs, parts, pos = [], [], 0
        notes = self.note_texts
        taken = 0
        for p in self.paragraphs:
            part = ParagraphView(p, self.hidden_styles, notes[taken:])
            for seg in part.segs:
                seg.start += pos
                seg.end += pos
                segs.append(seg)
            taken += sum(1 for seg in part.segs if seg.kind == NOTE)
            parts.append(part.text)
            pos += len(part.text)
        self.segs = segs
        self.text = "".join(parts)


def expand_simple_fields(el: etree._Element) -> None:
    """Rewrite every w:fldSimple inside el as the same complex field (begin, code, separate, its
    result runs, end), which Word reads alike. A simple field is paragraph content that no w:del or
    w:ins may hold, so a tracked deletion or insertion of one needs the complex form."""
    for fld in list(el.iter(_W + "fldSimple")):
        results = [c for c in fld if isinstance(c.tag, str)]
        rpr = next((r.find(W_RPR) for r in fld.iter(T_R) if r.find(W_RPR) is not None), None)
        begin = _field_char("begin")
        for flag in ("fldLock", "dirty"):
            if fld.get(_W + flag) is not None:
                begin.set(_W + flag, fld.get(_W + flag))
        code = etree.Element(T_INSTR)
        code.text = fld.get(_W + "instr") or ""
        code.set(XML_SPACE, "preserve")
        parent, at, tail = fld.getparent(), fld.getparent().index(fld), fld.tail
        parent.remove(fld)
        nodes = [_field_run(rpr, begin), _field_run(rpr, code), _field_run(rpr, _field_char("separate")), *results,
                 _field_run(rpr, _field_char("end"))]
        for offset, node in enumerate(nodes):
            parent.insert(at + offset, node)
        nodes[-1].tail = tail


def _field_char(kind: str) -> etree._Element:
    char = etree.Element(T_FLDCHAR)
    char.set(_W + "fldCharType", kind)
    return char


def _field_run(rpr: etree._Element | None, child: etree._Element) -> etree._Element:
    run = etree.Element(T_R)
    if rpr is not None:
        run.append(copy.deepcopy(rpr))
    run.append(child)
    return run


_NOT_CONTENT = {W_RPR, _W + "lastRenderedPageBreak"}
_KEPT = {T_FLDCHAR, T_INSTR, _W + "footnoteReference", _W + "endnoteReference"}


def _fields_balanced(p: etree._Element) -> bool:
    """Every field that opens in p closes in it, and none closes that did not open in it."""
    depth = 0
    for char in p.iter(T_FLDCHAR):
        depth += {"begin": 1, "end": -1}.get(char.get(_W + "fldCharType"), 0)
        if depth < 0:
            return False
    return depth == 0


def _unread_content(run: etree._Element, p: etree._Element, fields: bool) -> bool:
    """A run of p itself (not of a text box inside it), outside every deletion, holding content but
    no text the view reads and no note reference; a field's character or code only when `fields`."""
    inside = run.getparent()
    while inside is not p:
        if inside is None or inside.tag in (T_DEL, T_MOVE_FROM, _W + "p"):
            return False
        inside = inside.getparent()
    children = [c for c in run if isinstance(c.tag, str) and c.tag not in _NOT_CONTENT]
    kept = _KEPT - {T_FLDCHAR, T_INSTR} if fields else _KEPT
    return bool(children) and not any(c.tag in kept or c.tag == T_T and c.text for c in children)


def _own_insertion(run: etree._Element, p: etree._Element, author: str) -> etree._Element | None:
    """The w:ins by `author` that holds run (directly or through a hyperlink), if any."""
    el = run.getparent()
    while el is not None and el is not p:
        if el.tag in (T_INS, T_MOVE_TO, T_DEL, T_MOVE_FROM):
            return el if el.tag == T_INS and el.get(_W + "author") == author else None
        el = el.getparent()
    return None


def _revision_of(run: etree._Element, p: etree._Element) -> etree._Element | None:
    """The w:ins or w:moveTo that holds run (directly or through a hyperlink), if any."""
    el = run.getparent()
    while el is not None and el is not p:
        if el.tag in (T_INS, T_MOVE_TO):
            return el
        el = el.getparent()
    return None


def _drop_keeping_markers(wrapper: etree._Element) -> None:
    """Remove an emptied revision wrapper; bookmarks or comment marks inside it stay in its place."""
    parent = wrapper.getparent()
    index = parent.index(wrapper)
    for child in list(wrapper):
        if child.tag in _MARKERS:
            parent.insert(index, child)
            index += 1
    parent.remove(wrapper)


def own_insertion_at(parent: etree._Element, index: int, author: str) -> tuple[etree._Element, int] | None:
    """Where new text at (parent, index) joins a neighbouring w:ins by `author` instead of opening a
    w:ins of its own: inside it when the position is inside or at either edge of one."""
    if parent.tag == T_INS:
        return (parent, index) if parent.get(_W + "author") == author else None
    before = parent[index - 1] if index > 0 else None
    if before is not None and before.tag == T_INS and before.get(_W + "author") == author:
        return before, len(before)
    after = parent[index] if index < len(parent) else None
    if after is not None and after.tag == T_INS and after.get(_W + "author") == author:
        return after, 0
    return None


def join_own_deletions(wrapper: etree._Element) -> etree._Element:
    """Join a w:del with the w:del of the same author right beside it (Backspace after Backspace
    strikes one stretch, as in Word, not one revision per key); returns the wrapper that is left."""
    author = wrapper.get(_W + "author")
    before = wrapper.getprevious()
    if before is not None and before.tag == T_DEL and before.get(_W + "author") == author:
        before.extend(list(wrapper))
        wrapper.getparent().remove(wrapper)
        wrapper = before
    after = wrapper.getnext()
    if after is not None and after.tag == T_DEL and after.get(_W + "author") == author:
        wrapper.extend(list(after))
        after.getparent().remove(after)
    for run in list(wrapper):
        if run.getparent() is wrapper:
            merge_plain_runs(run)
    return wrapper


def merge_plain_runs(run: etree._Element) -> None:
    """Join a run of plain text (or of struck text) with its neighbours of identical properties
    (typing a word one key at a time would otherwise leave a run per key)."""
    for neighbour in (run.getprevious(), run.getnext()):
        if neighbour is None or not _plain_text_run(run) or not _plain_text_run(neighbour) \
                or dict(neighbour.attrib) != dict(run.attrib) or _rpr_bytes(neighbour) != _rpr_bytes(run):
            continue
        first, second = (neighbour, run) if neighbour is run.getprevious() else (run, neighbour)
        a, b = _text_node(first), _text_node(second)
        if a.tag != b.tag:
            continue
        a.text = (a.text or "") + (b.text or "")
        if a.text != a.text.strip() or "  " in a.text:
            a.set(XML_SPACE, "preserve")
        second.getparent().remove(second)
        run = first


def _plain_text_run(run: etree._Element) -> bool:
    kids = [c for c in run if c.tag != W_RPR]
    return run.tag == T_R and len(kids) == 1 and kids[0].tag in (T_T, T_DELTEXT)


def _text_node(run: etree._Element) -> etree._Element:
    return next(c for c in run if c.tag in (T_T, T_DELTEXT))


def _moved(segs: list[Seg], run: etree._Element, new: etree._Element) -> list[Seg]:
    """`segs` after split_run moved the rest of `run` into `new`."""
    return [Seg(s.start, s.end, s.kind, s.text, new, s.node) if s.run is run else s for s in segs]


def _carrier(seg: Seg) -> etree._Element:
    if seg.run is None:  # equation text (m:t) is not a run we can split around
        raise EditError("unsupportedBlock", "the paragraph's text at this point is part of an equation")
    return seg.run


def _content_start(p) -> int:
    ppr = p.find(W_PPR)
    return p.index(ppr) + 1 if ppr is not None else 0


def _position_before(run) -> tuple[etree._Element, int]:
    parent = run.getparent()
    return parent, parent.index(run)


def outside_foreign_insertion(parent, index, stamp):
    """Never nest our w:ins inside another w:ins/w:moveTo: split that wrapper at the index."""
    if stamp is None or parent.tag not in (T_INS, T_MOVE_TO):
        return parent, index
    outer = parent.getparent()
    pos = outer.index(parent)
    if index <= 0:
        return outer, pos
    if index >= len(parent):
        return outer, pos + 1
    tail = etree.Element(parent.tag, attrib=dict(parent.attrib))
    tail.set(_W + "id", str(stamp.next_id()))
    for child in list(parent)[index:]:
        tail.append(child)
    parent.addnext(tail)
    return outer, pos + 1


def split_run(run: etree._Element, node: etree._Element, k: int) -> etree._Element:
    """Split run before node (k == 0) or inside node's text at k; return the new right-hand run."""
    new = etree.Element(run.tag, attrib=dict(run.attrib))
    rpr = run.find(W_RPR)
    if rpr is not None:
        new.append(copy.deepcopy(rpr))
    children = list(run)
    idx = children.index(node)
    if k > 0:
        text = node.text or ""
        node.text = text[:k]
        node.set(XML_SPACE, "preserve")
        rest = etree.SubElement(new, node.tag)
        rest.text = text[k:]
        rest.set(XML_SPACE, "preserve")
        move = children[idx + 1:]
    else:
        move = children[idx:]
    for child in move:
        new.append(child)
    run.addnext(new)
    return new


def _sibling_groups(runs: list[etree._Element]) -> list[list[etree._Element]]:
    """Runs grouped into maximal sibling sequences (range markers between them go along)."""
    groups: list[list[etree._Element]] = []
    for run in runs:
        if run.getparent() is not None and run.getparent().tag in (T_DEL, T_MOVE_FROM):
            continue
        if groups:
            last = groups[-1][-1]
            if last.getparent() is run.getparent():
                between = []
                sib = last.getnext()
                while sib is not None and sib is not run and sib.tag in _MARKERS:
                    between.append(sib)
                    sib = sib.getnext()
                if sib is run:
                    groups[-1].extend(between + [run])
                    continue
        groups.append([run])
    return groups


def _rpr_bytes(run: etree._Element) -> bytes:
    rpr = run.find(W_RPR)
    return etree.tostring(rpr) if rpr is not None else b""


def clean_rpr(rpr: etree._Element | None) -> etree._Element | None:
    """A copy of run properties for new text: no revision marks of the source run."""
    if rpr is None:
        return None
    out = copy.deepcopy(rpr)
    for child in list(out):
        if child.tag in _RUN_PROPERTY_REVISIONS:
            out.remove(child)
    return out if len(out) else None


def make_runs(text: str, rpr: etree._Element | None, bold=False, italic=False) -> list[etree._Element]:
    """Runs for plain text: tabs become w:tab and line breaks w:br; formatted like rpr."""
    run = etree.Element(T_R)
    props = clean_rpr(rpr)
    if bold or italic:
        props = props if props is not None else etree.Element(W_RPR)
        _set_toggle(props, "b", bold)
        _set_toggle(props, "i", italic)
    if props is not None:
        run.append(props)
    buf: list[str] = []

    def flush():
        if buf:
            t = etree.SubElement(run, T_T)
            t.text = "".join(buf)
            if t.text != t.text.strip() or "  " in t.text:
                t.set(XML_SPACE, "preserve")
            buf.clear()

    for ch in text:
        if ch == "\t":
            flush()
            etree.SubElement(run, T_TAB)
        elif ch == "\n":
            flush()
            etree.SubElement(run, T_BR)
        else:
            buf.append(ch)
    flush()
    return [run]


# CT_RPr child order (ISO 29500 §17.3.2.28), used to insert properties where the schema wants them.
RPR_ORDER = [
    "rStyle", "rFonts", "b", "bCs", "i", "iCs", "caps", "smallCaps", "strike", "dstrike", "outline", "shadow",
    "emboss", "imprint", "noProof", "snapToGrid", "vanish", "webHidden", "color", "spacing", "w", "kern",
    "position", "sz", "szCs", "highlight", "u", "effect", "bdr", "shd", "fitText", "vertAlign", "rtl", "cs",
    "em", "lang", "eastAsianLayout", "specVanish", "oMath",
]


def set_rpr_child(rpr: etree._Element, name: str) -> etree._Element:
    """The rPr child `name`, created at its schema position if missing."""
    existing = rpr.find(_W + name)
    if existing is not None:
        return existing
    el = etree.Element(_W + name)
    rank = RPR_ORDER.index(name)
    for i, child in enumerate(rpr):
        local = child.tag[len(_W):] if child.tag.startswith(_W) else ""
        if (local in RPR_ORDER and RPR_ORDER.index(local) > rank) or local == "rPrChange":
            rpr.insert(i, el)
            return el
    rpr.append(el)
    return el


def _set_toggle(rpr: etree._Element, name: str, on: bool) -> None:
    if on:
        set_rpr_child(rpr, name)
