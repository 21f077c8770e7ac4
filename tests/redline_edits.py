"""Seeded random edit scripts on real documents, for the redline's property test (issue 28, point 5).

A corpus document is cut down to a window of its body (so a case stays cheap) and resolved (pending
changes accepted); an edit script then changes a copy of its XML directly with lxml (words,
paragraphs, table rows and cells, formatting, moves, equations, pictures, footnotes). Each edit
records what the redline must show for it. `canon` reads a package's stories as the property
compares them: blocks, tables, rows and cells, paragraph style, text, and bold / italic / underline
per character."""

from __future__ import annotations

import copy
import io
import random
import zipfile
from dataclasses import dataclass, field

from lxml import etree

from folio_desktop.docx import DocxReviewer

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
M_NS = "http://schemas.openxmlformats.org/officeDocument/2006/math"
MC_CHOICE = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Choice"
MC_ALTERNATE = "{http://schemas.openxmlformats.org/markup-compatibility/2006}AlternateContent"
WP_NS = "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"
W = "{" + W_NS + "}"
M = "{" + M_NS + "}"
WP_EXTENT = "{" + WP_NS + "}extent"
NS = {"w": W_NS, "m": M_NS, "wp": WP_NS}
DOC, NOTES = "word/document.xml", "word/footnotes.xml"
TOGGLES = ("b", "i", "u")


# -- reading a package the way the property compares it --------------------------------------------------

def _on(rpr, tag: str) -> bool:
    el = rpr.find(W + tag) if rpr is not None else None
    if el is None:
        return False
    return el.get(W + "val", "true").lower() not in ("0", "false", "off", "none")


def _own(el, p) -> bool:
    """el belongs to paragraph p itself, not to a paragraph nested inside it (a text box)."""
    return next(el.iterancestors(W + "p"), None) is p


def _paragraph(p) -> tuple:
    chars: list[tuple] = []
    for el in p.iter(W + "r", M + "r"):
        if not _own(el, p):
            continue
        rpr = el.find(W + "rPr")
        fmt = tuple(_on(rpr, t) for t in TOGGLES) if el.tag == W + "r" else ("math",)
        for node in el:
            if node.tag == MC_ALTERNATE:  # a drawn shape: Word reads the first choice
                node = next(node.iter(W + "drawing"), node) if node.find(MC_CHOICE) is not None else node
            if node.tag in (W + "t", M + "t"):
                chars += [(ch, fmt) for ch in node.text or ""]
            elif node.tag == W + "tab":
                chars.append(("\t", fmt))
            elif node.tag in (W + "br", W + "cr"):
                chars.append(("\n", fmt))
            elif node.tag == W + "drawing":
                ext = next(node.iter(WP_EXTENT), None)
                size = (ext.get("cx"), ext.get("cy")) if ext is not None else ()
                chars.append((f"[picture {size}]", fmt))
            elif node.tag in (W + "footnoteReference", W + "endnoteReference"):
                chars.append(("[note]", fmt))
    style = p.find("w:pPr/w:pStyle", NS)
    text = "".join(c for c, _ in chars)
    runs: list[list] = []
    for ch, fmt in chars:  # runs of equal formatting: how a paragraph is split into w:r does not matter
        if runs and runs[-1][1] == fmt:
            runs[-1][0] += ch
        else:
            runs.append([ch, fmt])
    return ("p", style.get(W + "val") if style is not None else None, text, tuple(map(tuple, runs)))


def _blocks(container) -> list:
    out: list = []
    for el in container:
        if el.tag == W + "p":
            out.append(_paragraph(el))
        elif el.tag == W + "tbl":
            out.append(("tbl", tuple(tuple(tuple(_blocks(tc)) for tc in tr.findall(W + "tc"))
                                     for tr in el.findall(W + "tr"))))
        elif el.tag in (W + "sdt", W + "customXml", W + "sdtContent", W + "smartTag"):
            out += _blocks(el.find(W + "sdtContent") if el.tag == W + "sdt" else el)
    return out


def canon(data: bytes) -> dict:
    """The body's blocks and the footnotes' blocks in the order the body refers to them."""
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        doc = etree.fromstring(z.read(DOC))
        notes = etree.fromstring(z.read(NOTES)) if NOTES in z.namelist() else None
    out = {"body": _blocks(doc.find(W + "body"))}
    if notes is not None:
        by_id = {n.get(W + "id"): n for n in notes.findall(W + "footnote")}
        refs = [r.get(W + "id") for r in doc.iter(W + "footnoteReference")]
        out["footnotes"] = [_blocks(by_id[i]) if i in by_id else None for i in refs]
    return out


def resolved(data: bytes, accept: bool) -> bytes:
    rev = DocxReviewer.from_bytes(data)
    rev.accept_all() if accept else rev.reject_all()
    return rev.to_bytes()


# -- the documents ----------------------------------------------------------------------------------------

def _replace_parts(data: bytes, parts: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            dst.writestr(item, parts.get(item.filename, src.read(item.filename)))
    return out.getvalue()


def window(data: bytes, around: str | None, size: int = 10) -> bytes:
    """The document cut to `size` body blocks (the section properties kept), starting a few blocks
    before the first block that holds `around` (an XPath), its footnotes cut to those it still refers
    to; pending changes accepted."""
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        doc = etree.fromstring(z.read(DOC))
        notes = etree.fromstring(z.read(NOTES)) if NOTES in z.namelist() else None
    body = doc.find(W + "body")
    blocks = [el for el in body if el.tag != W + "sectPr"]
    start = 0
    if around:
        hit = next((i for i, el in enumerate(blocks) if el.xpath(around, namespaces=NS)), 0)
        start = max(0, hit - 4)
    for i, el in enumerate(blocks):
        if not start <= i < start + size:
            body.remove(el)
    parts = {DOC: etree.tostring(doc, xml_declaration=True, encoding="UTF-8", standalone=True)}
    if notes is not None:
        kept = {r.get(W + "id") for r in doc.iter(W + "footnoteReference")}
        for note in notes.findall(W + "footnote"):
            if note.get(W + "type") is None and note.get(W + "id") not in kept:
                notes.remove(note)
        parts[NOTES] = etree.tostring(notes, xml_declaration=True, encoding="UTF-8", standalone=True)
    return resolved(_replace_parts(data, parts), accept=True)


# -- edits ------------------------------------------------------------------------------------------------

@dataclass
class Edit:
    kind: str
    where: str  # a few words saying which place changed, for the failure message
    shows: object  # redline parts {name: root} -> True when the redline shows this edit


@dataclass
class Script:
    edits: list[Edit] = field(default_factory=list)
    touched: set = field(default_factory=set)  # paragraphs, rows and notes an earlier edit changed


WORDS = ("alpha", "beta", "gamma", "delta", "omega", "sigma", "kappa", "theta")


def _token(rng: random.Random) -> str:
    return f"{rng.choice(WORDS)}{rng.randrange(10_000, 99_999)}"


def _in_revision(root, text: str, tags=("ins",)) -> bool:
    """Some w:t (or m:t) inside a revision wrapper of one of `tags` holds text."""
    for t in root.iter(W + "t", M + "t", W + "delText"):
        if text in (t.text or "") and any(a.tag in {W + x for x in tags} for a in t.iterancestors()):
            return True
        if text in (t.text or "") and t.tag == M + "t":
            rpr = t.getparent().find(W + "rPr")
            if rpr is not None and any(rpr.find(W + x) is not None for x in tags):
                return True
    return False


def _squeezed(text: str) -> str:
    return "".join(text.split())


def _deleted_words(root, text: str) -> bool:
    """The text (spacing aside) is in the deleted (or moved-away) runs, read in document order."""
    gone = "".join(t.text or "" for t in root.iter(W + "delText"))
    gone += "".join(t.text or "" for mf in root.iter(W + "moveFrom") for t in mf.iter(W + "t"))
    return _squeezed(text) in _squeezed(gone)


def _has(root, path: str) -> bool:
    return next(root.iterfind(path, NS), None) is not None


def _mark(root, tag: str) -> bool:
    """A paragraph mark tracked as `tag` (ins or del)."""
    return _has(root, f".//w:pPr/w:rPr/w:{tag}")


def _text_nodes(p) -> list:
    return [t for t in p.iter(W + "t") if _own(t, p) and (t.text or "").strip()
            and not any(a.tag in (W + "fldSimple", W + "hyperlink", W + "sdt") for a in t.iterancestors())]


def _paragraphs(body, script: Script, in_table: bool | None = None, text: bool = True) -> list:
    out = []
    for p in body.iter(W + "p"):
        if p in script.touched or any(a in script.touched for a in p.iterancestors()):
            continue
        if p.find("w:pPr/w:sectPr", NS) is not None or any(a.tag in (W + "txbxContent", W + "sdt")
                                                           for a in p.iterancestors()):
            continue
        if p.xpath(".//w:drawing|.//m:oMath|.//w:footnoteReference|.//w:fldChar|.//w:fldSimple", namespaces=NS):
            continue  # those have kinds of their own
        inside = next(p.iterancestors(W + "tbl"), None) is not None
        if in_table is not None and inside != in_table:
            continue
        if text and not _text_nodes(p):
            continue
        out.append(p)
    return out


def _word_edit(rng, body, script, kind: str, in_table: bool) -> Edit | None:
    paras = _paragraphs(body, script, in_table=in_table)
    if not paras:
        return None
    p = rng.choice(paras)
    t = rng.choice(_text_nodes(p))
    words = t.text.split(" ")
    spots = [i for i, w in enumerate(words) if w.isalpha() and len(w) > 2]
    if not spots:
        return None
    i = rng.choice(spots)
    old, new = words[i], _token(rng)
    if kind == "word-delete":
        del words[i]
        t.text = " ".join(words)
        shows = lambda parts, old=old: _deleted_words(parts[DOC], old)  # noqa: E731
    elif kind == "word-insert":
        words.insert(i, new)
        shows = lambda parts, new=new: _in_revision(parts[DOC], new)  # noqa: E731
    else:
        words[i] = new
        shows = lambda parts, new=new, old=old: _in_revision(parts[DOC], new) and _deleted_words(parts[DOC], old)  # noqa: E731
    t.text = " ".join(words)
    t.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
    script.touched.add(p)
    return Edit(kind, f"{old!r} in {''.join(x.text or '' for x in p.iter(W + 't'))[:60]!r}", shows)


def _para_text(p) -> str:
    return "".join(t.text or "" for t in p.iter(W + "t"))


def _fresh_paragraph(rng, like) -> tuple:
    """A new paragraph with the properties and first run formatting of `like`, and new words."""
    p = etree.Element(W + "p")
    ppr = like.find(W + "pPr")
    if ppr is not None:
        ppr = copy.deepcopy(ppr)
        for bad in ppr.xpath("w:rPr/w:ins|w:rPr/w:del|w:sectPr|w:pPrChange", namespaces=NS):
            bad.getparent().remove(bad)
        p.append(ppr)
    words = " ".join(_token(rng) for _ in range(rng.randrange(3, 7)))
    r = etree.SubElement(p, W + "r")
    first = like.find(W + "r")
    if first is not None and first.find(W + "rPr") is not None:
        r.append(copy.deepcopy(first.find(W + "rPr")))
    t = etree.SubElement(r, W + "t")
    t.text = words
    return p, words


def _touch(script: Script, *paragraphs) -> None:
    """Mark paragraphs and their neighbours as edited: a later edit next to a split or a merge could be
    redlined, just as rightly, as a different pairing of the same paragraphs."""
    for p in paragraphs:
        script.touched |= {x for x in (p, p.getprevious(), p.getnext()) if x is not None}


def _para_edit(rng, body, script, kind: str) -> Edit | None:
    paras = _paragraphs(body, script, in_table=False)
    if kind == "para-insert":
        if not paras:
            return None
        like = rng.choice(paras)
        new, words = _fresh_paragraph(rng, like)
        like.addnext(new) if rng.random() < 0.5 else like.addprevious(new)
        _touch(script, like, new)
        first = words.split()[0]
        return Edit(kind, f"after {_para_text(like)[:50]!r}", lambda parts: _in_revision(parts[DOC], first))
    if kind == "para-delete":
        paras = [p for p in paras if p.getnext() is not None and p.getnext().tag != W + "sectPr"]
        if not paras:
            return None
        p = rng.choice(paras)
        text = _para_text(p)
        for neighbour in (p.getprevious(), p.getnext()):
            if neighbour is not None:
                script.touched.add(neighbour)
        p.getparent().remove(p)
        return Edit(kind, repr(text[:60]), lambda parts, text=text: _deleted_words(parts[DOC], text))
    if kind == "para-split":
        cands = []
        for p in paras:
            for t in _text_nodes(p):
                gaps = [i for i, ch in enumerate(t.text) if ch == " " and 0 < i < len(t.text) - 1]
                if gaps:
                    cands.append((p, t, gaps))
        if not cands:
            return None
        p, t, gaps = rng.choice(cands)
        cut = rng.choice(gaps)
        run = t.getparent()
        if run.getparent() is not p:
            return None
        tail = copy.deepcopy(run)
        for x in tail:
            if x.tag != W + "rPr":
                tail.remove(x)
        t2 = etree.SubElement(tail, W + "t")
        t2.text, t.text = t.text[cut + 1:], t.text[:cut]
        t.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
        new = etree.Element(W + "p")
        if p.find(W + "pPr") is not None:
            new.append(copy.deepcopy(p.find(W + "pPr")))
        new.append(tail)
        after = list(run.itersiblings())
        for x in after:
            new.append(x)
        p.addnext(new)
        _touch(script, p, new)
        return Edit(kind, f"{_para_text(p)[-30:]!r} | {_para_text(new)[:30]!r}", lambda parts: _mark(parts[DOC], "ins"))
    if kind == "para-merge":
        cands = [p for p in paras if p.getnext() is not None and p.getnext() in paras]
        if not cands:
            return None
        p = rng.choice(cands)
        nxt = p.getnext()
        for x in list(nxt):
            if x.tag != W + "pPr":
                p.append(x)
        nxt.getparent().remove(nxt)
        _touch(script, p)
        return Edit(kind, repr(_para_text(p)[:60]), lambda parts: _mark(parts[DOC], "del"))
    return None


def _rows(body, script) -> list:
    out = []
    for tr in body.iter(W + "tr"):
        tbl = tr.getparent()
        if tr in script.touched or tbl in script.touched or tbl.getparent().tag != W + "body" \
                or any(p in script.touched for p in tr.iter(W + "p")):
            continue
        if tr.xpath(".//w:vMerge|.//w:drawing|.//w:footnoteReference|.//w:sdt", namespaces=NS):
            continue  # vertically merged cells and rows with notes or pictures: kept for kinds of their own
        out.append(tr)
    return out


def _row_edit(rng, body, script, kind: str) -> Edit | None:
    rows = _rows(body, script)
    if kind == "row-delete":
        rows = [tr for tr in rows if len(tr.getparent().findall(W + "tr")) > 1]
    if not rows:
        return None
    tr = rng.choice(rows)
    script.touched.add(tr.getparent())
    if kind == "row-delete":
        text = _para_text(tr)
        tr.getparent().remove(tr)
        return Edit(kind, repr(text[:60]), lambda parts, text=text: _has(parts[DOC], ".//w:trPr/w:del")
                    and _deleted_words(parts[DOC], text))
    new = copy.deepcopy(tr)
    token = _token(rng)
    for tc in new.findall(W + "tc"):
        ps = tc.findall(W + "p")
        for extra in ps[1:]:
            tc.remove(extra)
        for r in ps[0].findall(W + "r")[1:] if ps else []:
            ps[0].remove(r)
        ts = list(ps[0].iter(W + "t")) if ps else []
        if ts:
            ts[0].text = token
        elif ps:
            r = etree.SubElement(ps[0], W + "r")
            etree.SubElement(r, W + "t").text = token
    for x in new.iter():
        if x.tag in (W + "bookmarkStart", W + "bookmarkEnd", W + "commentRangeStart", W + "commentRangeEnd"):
            x.getparent().remove(x)
    tr.addnext(new) if rng.random() < 0.6 else tr.addprevious(new)
    return Edit(kind, f"next to {_para_text(tr)[:50]!r}", lambda parts, token=token: _in_revision(parts[DOC], token)
                and _has(parts[DOC], ".//w:trPr/w:ins"))


def _format_edit(rng, body, script, kind: str) -> Edit | None:
    paras = _paragraphs(body, script)
    if not paras:
        return None
    p = rng.choice(paras)
    if kind == "style":
        styles = ("Heading1", "Heading2", "Title", "Quote", "ListParagraph")
        ppr = p.find(W + "pPr")
        if ppr is None:
            ppr = etree.Element(W + "pPr")
            p.insert(0, ppr)
        old = ppr.find(W + "pStyle")
        if old is None:
            old = etree.Element(W + "pStyle")
            ppr.insert(0, old)
        now = old.get(W + "val")
        old.set(W + "val", rng.choice([s for s in styles if s != now]))
        script.touched.add(p)
        text = _para_text(p)
        return Edit(kind, repr(text[:60]), lambda parts, text=text: any(
            _para_text(q) == text for q in parts[DOC].iter(W + "p") if q.find("w:pPr/w:pPrChange", NS) is not None))
    # runs of unstyled paragraphs only: a bold heading made bold directly looks the same (no change to show)
    runs = [t.getparent() for t in _text_nodes(p) if t.getparent().getparent() is p
            and t.getparent().find("w:rPr/w:rStyle", NS) is None]
    if not runs or p.find("w:pPr/w:pStyle", NS) is not None:
        return None
    run = rng.choice(runs)
    tag = {"bold": "b", "italic": "i"}[kind]
    rpr = run.find(W + "rPr")
    if rpr is None:
        rpr = etree.Element(W + "rPr")
        run.insert(0, rpr)
    now = _on(rpr, tag)
    for el in rpr.findall(W + tag):
        rpr.remove(el)
    flip = etree.Element(W + tag)
    if now:
        flip.set(W + "val", "0")
    # CT_RPr's order: rStyle, rFonts, b, bCs, i, iCs, ...; put it after what must come first
    firsts = [c for c in rpr if c.tag in (W + "rStyle", W + "rFonts") or (tag == "i" and c.tag in (W + "b", W + "bCs"))]
    firsts[-1].addnext(flip) if firsts else rpr.insert(0, flip)
    script.touched.add(p)
    text = "".join(t.text or "" for t in run.iter(W + "t"))
    return Edit(kind, repr(text[:60]), lambda parts, text=text: any(
        text.strip()[:12] in "".join(t.text or "" for t in r.iter(W + "t", W + "delText"))
        for r in parts[DOC].iter(W + "r") if r.find("w:rPr/w:rPrChange", NS) is not None)
        or _deleted_words(parts[DOC], text) and _in_revision(parts[DOC], text.strip()))


def _move_edit(rng, body, script) -> Edit | None:
    paras = [p for p in _paragraphs(body, script, in_table=False) if len(_para_text(p).split()) >= 4]
    if len(paras) < 3:
        return None
    p = rng.choice(paras)
    dests = [q for q in paras if q is not p and q is not p.getnext() and q is not p.getprevious()]
    if not dests:
        return None
    dest = rng.choice(dests)
    text = _para_text(p)
    # the paragraphs p jumps over: a minimal redline may move those instead (the same order results)
    siblings = list(p.getparent())
    lo, hi = sorted((siblings.index(p), siblings.index(dest)))
    jumped = [_para_text(q) for q in siblings[lo + 1:hi + 1] if q is not p and q.tag == W + "p"]
    for neighbour in (p.getprevious(), p.getnext()):
        if neighbour is not None:
            script.touched.add(neighbour)
    dest.addnext(p)
    script.touched |= {p, dest}

    texts = (text, *jumped)

    def shows(parts) -> bool:
        """The paragraph, or one it jumped over (the same order results), is moved; or, below the
        move threshold (a short or empty paragraph), deleted at one place and inserted at the other."""
        doc = parts[DOC]
        moved = lambda tag: "".join(t.text or "" for m in doc.iter(W + tag) for t in m.iter(W + "t", W + "delText"))  # noqa: E731
        inserted = _squeezed("".join(t.text or "" for i in doc.iter(W + "ins", W + "moveTo") for t in i.iter(W + "t")))
        for t in texts:
            if t.strip() and t in moved("moveFrom") and t in moved("moveTo"):
                return True
            if t.strip() and _deleted_words(doc, t) and _squeezed(t) in inserted:
                return True
            if not t.strip() and _mark(doc, "del") and _mark(doc, "ins"):
                return True
        return False
    return Edit("move", repr(text[:60]), shows)


def _equation_edit(rng, body, script) -> Edit | None:
    ts = [t for t in body.iter(M + "t") if (t.text or "").strip()
          and next(t.iterancestors(W + "p")) not in script.touched]
    if not ts:
        return None
    t = rng.choice(ts)
    token = f"x{rng.randrange(10, 99)}"
    t.text = t.text + token
    script.touched.add(next(t.iterancestors(W + "p")))
    return Edit("equation", repr(t.text), lambda parts, token=token: _in_revision(parts[DOC], token))


def _picture_edit(rng, body, script) -> Edit | None:
    extents = [e for e in body.iter(WP_EXTENT) if next(e.iterancestors(W + "p")) not in script.touched]
    if not extents:
        return None
    ext = rng.choice(extents)
    scale = rng.choice((0.5, 0.75, 1.25))
    for axis in ("cx", "cy"):
        ext.set(axis, str(int(int(ext.get(axis)) * scale)))
    for a_ext in ext.getparent().iter("{http://schemas.openxmlformats.org/drawingml/2006/main}ext"):
        for axis in ("cx", "cy"):
            if a_ext.get(axis):
                a_ext.set(axis, str(int(int(a_ext.get(axis)) * scale)))
    script.touched.add(next(ext.iterancestors(W + "p")))

    def shows(parts) -> bool:
        drawn = lambda tag: any(next(d.iterancestors(W + tag), None) is not None for d in parts[DOC].iter(W + "drawing"))  # noqa: E731
        return drawn("ins") and drawn("del")
    return Edit("picture", f"scaled by {scale}", shows)


def _footnote_edit(rng, notes, script) -> Edit | None:
    if notes is None:
        return None
    ts = [t for n in notes.findall(W + "footnote") if n.get(W + "type") is None and n not in script.touched
          for t in n.iter(W + "t") if any(w.isalpha() and len(w) > 2 for w in (t.text or "").split(" "))]
    if not ts:
        return None
    t = rng.choice(ts)
    words = t.text.split(" ")
    i = rng.choice([i for i, w in enumerate(words) if w.isalpha() and len(w) > 2])
    token = _token(rng)
    words[i] = token
    t.text = " ".join(words)
    script.touched.add(next(t.iterancestors(W + "footnote")))
    return Edit("footnote", repr(t.text[:60]), lambda parts, token=token: _in_revision(parts[NOTES], token))


def apply_edit(rng, kind: str, roots: dict, script: Script) -> Edit | None:
    body = roots[DOC].find(W + "body")
    if kind.startswith("word-"):
        return _word_edit(rng, body, script, kind, in_table=False)
    if kind == "cell":
        return _word_edit(rng, body, script, "word-replace", in_table=True)
    if kind.startswith("para-"):
        return _para_edit(rng, body, script, kind)
    if kind.startswith("row-"):
        return _row_edit(rng, body, script, kind)
    if kind in ("bold", "italic", "style"):
        return _format_edit(rng, body, script, kind)
    if kind == "move":
        return _move_edit(rng, body, script)
    if kind == "equation":
        return _equation_edit(rng, body, script)
    if kind == "picture":
        return _picture_edit(rng, body, script)
    if kind == "footnote":
        return _footnote_edit(rng, roots.get(NOTES), script)
    raise ValueError(kind)


def edited(base: bytes, seed: int, kinds: list[str]) -> tuple[bytes, list[Edit]]:
    """The revised document: base with one edit of each kind in `kinds` (a kind with no place to act
    on in this document is left out), and the edits made."""
    rng = random.Random(seed)
    with zipfile.ZipFile(io.BytesIO(base)) as z:
        roots = {name: etree.fromstring(z.read(name)) for name in (DOC, NOTES) if name in z.namelist()}
    script = Script()
    for kind in kinds:
        edit = apply_edit(rng, kind, roots, script)
        if edit is not None:
            script.edits.append(edit)
    parts = {name: etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)
             for name, root in roots.items()}
    return _replace_parts(base, parts), script.edits


def redline_parts(data: bytes) -> dict:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return {name: etree.fromstring(z.read(name)) for name in (DOC, NOTES) if name in z.namelist()}
