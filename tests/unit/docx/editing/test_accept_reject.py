"""Accepting and rejecting tracked changes (spec §7.2) on every story of real documents.

The expected texts come from an independent reading of the ORIGINAL XML (below, `view_texts`):
the final view keeps inserted text, drops deleted text and joins a paragraph whose mark was deleted
to the next one; the original view does the opposite; a partial view does either for a few ids and
leaves the rest pending. The resolved document is then read by the ordinary snapshot and compared
block list by block list, story by story. A first test checks that this reader and the snapshot
agree on the untouched documents, so a mismatch later is the resolution's, not the reading's.
"""

from __future__ import annotations

import io
import re
import zipfile

import docx as python_docx
import pytest
from conftest import ALL_GOOD, CORPUS
from docbuilder import build_docx, p
from lxml import etree
from ooxml_validate import load_wml_schema, part_errors

from folio_desktop.docx import DocxReviewer
from folio_desktop.docx.editing.resolve import accept_changes, reject_changes
from folio_desktop.docx.model.numbering import bullet_glyph

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
MC_NS = "http://schemas.openxmlformats.org/markup-compatibility/2006"
M_NS = "http://schemas.openxmlformats.org/officeDocument/2006/math"
NS = {"w": W_NS, "mc": MC_NS}


def q(tag: str) -> str:
    return f"{{{W_NS}}}{tag}"


REVISION_PATTERN = re.compile(
    rb"<w:(ins|del|moveFrom|moveTo|cellIns|cellDel|cellMerge|rPrChange|pPrChange|sectPrChange|tblPrChange"
    rb"|tblGridChange|trPrChange|tblPrExChange|tcPrChange|moveFromRangeStart|moveToRangeStart)[ />]")
STORY_ROOTS = {"document", "hdr", "ftr", "footnotes", "endnotes"}


def _story_xml(path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return {n: z.read(n) for n in z.namelist() if n.endswith(".xml") and "/_rels/" not in n}


def _has_revisions(path) -> bool:
    return any(REVISION_PATTERN.search(data) for data in _story_xml(path).values())


TRACKED = [path for path in ALL_GOOD if _has_revisions(path)]


# -- an independent reading of the XML ---------------------------------------------------------

INS, DEL = (q("ins"), q("moveTo")), (q("del"), q("moveFrom"))
TRANSPARENT = {q(t) for t in ("hyperlink", "smartTag", "customXml", "bdo", "dir", "fldSimple")}
BETWEEN = {q(t) for t in ("bookmarkStart", "bookmarkEnd", "commentRangeStart", "commentRangeEnd", "proofErr",
                          "permStart", "permEnd", "moveFromRangeStart", "moveFromRangeEnd", "moveToRangeStart",
                          "moveToRangeEnd")}
FALLBACK, CHOICE, ALTERNATE = (f"{{{MC_NS}}}{t}" for t in ("Fallback", "Choice", "AlternateContent"))


def _on(el) -> bool:
    return el is not None and (el.get(q("val")) or "true").lower() not in ("0", "false", "off")


def _rid(el) -> int | None:
    try:
        return int(el.get(q("id")))
    except (TypeError, ValueError):
        return None


VIEWS = {"current": (set(), True), "final": (None, True), "original": (None, False)}


class _Reader:
    """Paragraph texts of one story as one view shows them.

    A view resolves the revisions with the given ids (None: all) by accepting or rejecting them and
    leaves the rest pending: "current" resolves nothing (deletions hidden, and a paragraph whose mark
    is a pending deletion joined to the next one, as the snapshot reads it), "final" accepts
    everything, "original" rejects everything.
    """

    def __init__(self, ids: set[int] | None, accept: bool):
        self.ids, self.accept = ids, accept
        self.fields: list[bool] = []  # per open complex field: in its result part yet?
        self.notes = {"footnote": 0, "endnote": 0}

    def resolved(self, el) -> bool:
        return self.ids is None or _rid(el) in self.ids

    def hides(self, wrapper) -> bool:
        """Is the content of this w:ins / w:del (or move) wrapper out of the view?"""
        rejected = self.resolved(wrapper) and not self.accept
        return rejected if wrapper.tag in INS else not rejected

    def drops(self, marker) -> bool:
        """Does the row, cell or paragraph mark this marker tracks go away in the view?"""
        inserted = marker.tag in INS or marker.tag == q("cellIns")
        return self.resolved(marker) and inserted != self.accept

    def visible(self, para, container) -> bool:
        for anc in para.iterancestors():
            if anc is container:
                return True
            if anc.tag == FALLBACK or (anc.tag in INS + DEL and self.hides(anc)):
                return False
            if anc.tag == q("tr"):
                trpr = anc.find(q("trPr"))
                if trpr is not None:
                    if _on(trpr.find(q("hidden"))):
                        return False
                    if any(self.drops(m) for m in trpr if m.tag in (q("ins"), q("del"))):
                        return False
            if anc.tag == q("tc"):
                tcpr = anc.find(q("tcPr"))
                if tcpr is not None and any(self.drops(m) for m in tcpr if m.tag in (q("cellIns"), q("cellDel"))):
                    return False
        return True

    def in_code(self) -> bool:
        return any(not result for result in self.fields)

    def text(self, para) -> str:
        out: list[str] = []
        self._walk(para, out)
        return "".join(out)

    def _walk(self, parent, out):
        for child in parent:
            tag = child.tag
            if not isinstance(tag, str) or tag == q("pPr"):
                continue
            if tag == q("r"):
                self._run(child, out)
            elif tag in INS + DEL and self.hides(child):
                continue
            elif tag in INS or tag in DEL or tag in TRANSPARENT:
                self._walk(child, out)
            elif tag == q("sdt"):
                content = child.find(q("sdtContent"))
                if content is not None:
                    self._walk(content, out)
            elif tag == ALTERNATE:
                choice = child.find(CHOICE)
                if choice is not None:
                    self._walk(choice, out)
            elif tag == f"{{{M_NS}}}t":
                if not self.in_code():
                    out.append(child.text or "")
            elif tag.startswith(f"{{{M_NS}}}"):
                self._walk(child, out)

    def _hidden(self, run) -> bool:
        rpr = run.find(q("rPr"))
        change = rpr.find(q("rPrChange")) if rpr is not None else None
        if change is not None and self.resolved(change) and not self.accept:
            rpr = change.find(q("rPr"))  # the formatting before the change
        return rpr is not None and _on(rpr.find(q("vanish")))

    def _run(self, run, out, hidden=None):
        hidden = self._hidden(run) if hidden is None else hidden
        for c in run:
            tag = c.tag
            if tag in (q("t"), q("delText")):
                if not self.in_code() and not hidden:
                    out.append(c.text or "")
            elif tag == q("fldChar"):
                kind = c.get(q("fldCharType"))
                if kind == "begin":
                    self.fields.append(False)
                elif kind == "separate" and self.fields:
                    self.fields[-1] = True
                elif kind == "end" and self.fields:
                    self.fields.pop()
            elif self.in_code() or hidden:
                continue
            elif tag in (q("tab"), q("ptab")):
                out.append("\t")
            elif tag == q("br"):
                out.append("" if c.get(q("type")) in ("page", "column") else "\n")
            elif tag == q("cr"):
                out.append("\n")
            elif tag == q("noBreakHyphen"):
                out.append("-")
            elif tag == q("sym") and c.get(q("char")):
                out.append(bullet_glyph(chr(int(c.get(q("char")), 16)), c.get(q("font"))))
            elif tag in (q("footnoteReference"), q("endnoteReference")):
                kind = "footnote" if tag == q("footnoteReference") else "endnote"
                self.notes[kind] += 1
                out.append(f"[^{'' if kind == 'footnote' else 'e'}{self.notes[kind]}]")
            elif tag == ALTERNATE:
                choice = c.find(CHOICE)
                if choice is not None:
                    self._run(choice, out, hidden)


def _table_goes(tbl, reader: _Reader) -> bool:
    """Every row of the table is a tracked row this view drops (so the table goes with them)."""
    rows = tbl.findall(q("tr"))
    return bool(rows) and all(any(reader.drops(m) for m in r.xpath("w:trPr/w:ins | w:trPr/w:del", namespaces=NS))
                              for r in rows)


def _table_gone_once_accepted(tbl, reader: _Reader) -> bool:
    """Every row of the table is dropped by this view or a deletion still pending."""
    rows = tbl.findall(q("tr"))
    return bool(rows) and all(
        any(reader.drops(m) or m.tag in DEL and not reader.resolved(m)
            for m in r.xpath("w:trPr/w:ins | w:trPr/w:del", namespaces=NS)) for r in rows)


def _next_paragraph(para, reader: _Reader, pending: bool = False):
    """The paragraph para joins: past tables the view drops (and, for a join still pending, past
    tables gone once accepted)."""
    goes = _table_gone_once_accepted if pending else _table_goes
    nxt = para.getnext()
    while nxt is not None and (not isinstance(nxt.tag, str) or nxt.tag in BETWEEN
                               or nxt.tag == q("tbl") and goes(nxt, reader)):
        nxt = nxt.getnext()
    return nxt if nxt is not None and nxt.tag == q("p") else None


def _left_empty(para, reader: _Reader) -> bool:
    """Does nothing but properties, point markup and empty runs stay in the paragraph once the view's
    resolutions are done (removed wrappers count as gone, pending ones as content)?"""
    for c in para:
        if not isinstance(c.tag, str) or c.tag == q("pPr") or c.tag in BETWEEN:
            continue
        if c.tag == q("r") and all(x.tag == q("rPr") for x in c):
            continue
        if c.tag in INS + DEL and reader.resolved(c) and (c.tag in DEL) == reader.accept:
            continue
        return False
    return True


def mark_fate(para, reader: _Reader) -> str:
    """What a view does with a paragraph: "keep" it, "join" it to the next paragraph (its mark goes),
    or "drop" it (its mark goes, nothing is left in it and a table follows); "pending join": its
    mark is a pending deletion, so the snapshot reads it joined to the next one unless it is empty."""
    mark = para.find(f"{q('pPr')}/{q('rPr')}")
    if mark is None:
        return "keep"
    if not any(m.tag in INS + DEL and reader.drops(m) for m in mark):
        # a deletion of the mark still pending: the snapshot's accepted view reads the paragraph
        # joined to the next one when a paragraph follows right after it, past tables that are
        # gone once accepted (every row dropped here or a pending deletion), never across others
        if any(m.tag in DEL and not reader.resolved(m) for m in mark):
            return "pending join" if _next_paragraph(para, reader, pending=True) is not None else "keep"
        return "keep"
    if _next_paragraph(para, reader) is not None:
        return "join"
    following = para.getnext()
    while following is not None and (not isinstance(following.tag, str) or following.tag in BETWEEN):
        following = following.getnext()
    return "drop" if following is not None and _left_empty(para, reader) else "keep"


def view_texts(container, view: str = "current", ids: set[int] | None = None, accept: bool = True) -> list[str]:
    """The story's paragraph texts in a named view, or with just `ids` accepted or rejected (view
    "partial"). A paragraph whose mark the view drops joins the paragraph that follows it; text
    boxes anchored in it then follow the paragraph it joined."""
    reader = _Reader(*VIEWS[view]) if view != "partial" else _Reader(ids, accept)
    carried: dict = {}  # paragraph -> text of the paragraphs joined into it
    deferred: dict = {}  # paragraph -> texts (of text boxes) that come right after it
    joined: dict = {}  # paragraph -> the paragraph it joined
    out: list[str] = []

    def sink(para) -> list[str]:
        host = next(para.iterancestors(q("p")), None)
        if host is None:
            return out
        return deferred.setdefault(joined[host], []) if host in joined else sink(host)

    for para in container.iter(q("p")):
        if not reader.visible(para, container):
            continue
        target = sink(para)
        text = carried.pop(para, "") + reader.text(para)
        fate = mark_fate(para, reader)
        pending = fate == "pending join"
        if pending:  # a wholly deleted paragraph stays a blank block of its own
            fate = "join" if text else "keep"
        if fate == "join":
            nxt = _next_paragraph(para, reader, pending)
            carried[nxt] = text
            joined[para] = nxt
            deferred[nxt] = deferred.pop(para, [])
            continue
        if fate == "drop":
            assert text == "" and not deferred.get(para)
            continue
        target.append(text)
        target.extend(deferred.pop(para, []))
    assert not carried
    return out


def original_stories(data: bytes) -> dict[tuple[str, int | None], etree._Element]:
    """(part, note id) -> story container, parsed straight from the package."""
    out = {}
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        for name in z.namelist():
            if not name.endswith(".xml") or "/_rels/" in name:
                continue
            root = etree.fromstring(z.read(name))
            qn = etree.QName(root)
            if qn.namespace != W_NS or qn.localname not in STORY_ROOTS:
                continue
            if qn.localname == "document":
                out[(name, None)] = root.find(q("body"))
            elif qn.localname in ("hdr", "ftr"):
                out[(name, None)] = root
            else:
                for note in root:
                    if note.get(q("type")) in ("separator", "continuationSeparator", "continuationNotice"):
                        continue
                    out[(name, int(note.get(q("id"))))] = note
    return out


def expected_texts(data: bytes, view: str) -> dict:
    return {key: view_texts(container, view) for key, container in original_stories(data).items()}


def actual_texts(doc) -> dict:
    out = {}
    for story in doc.stories():
        snap = doc.snapshot_story(story)
        out[(story.part, story.note_id)] = [b.text for b in snap.blocks if b.kind != "diagnostic"]
    return out


def leftover_revisions(data: bytes) -> list[str]:
    found = []
    for name, xml in _story_xml(io.BytesIO(data)).items():
        root = etree.fromstring(xml)
        if etree.QName(root).localname in STORY_ROOTS:
            found += [f"{name}: {m.group(0).decode()}" for m in REVISION_PATTERN.finditer(xml)]
    return found


@pytest.fixture(scope="module")
def wml_schema():
    return load_wml_schema()


def _open(data: bytes):
    return DocxReviewer.from_bytes(data).document


# -- the corpus --------------------------------------------------------------------------------

def test_corpus_has_tracked_documents_in_every_kind_of_story():
    assert len(TRACKED) >= 12
    kinds = set()
    for path in TRACKED:
        for container in original_stories(path.read_bytes()).values():
            if container.xpath(".//w:ins | .//w:del | .//w:rPrChange", namespaces=NS):
                kinds.add(etree.QName(container).localname)
    assert {"body", "hdr", "ftr", "footnote", "endnote"} <= kinds


@pytest.mark.parametrize("path", TRACKED, ids=lambda p: p.name)
def test_the_independent_reader_agrees_with_the_snapshot(path):
    """Before anything is resolved, the test's reader and the snapshot read the same texts, so the
    comparisons below test the resolution and not two ways of reading."""
    data = path.read_bytes()
    doc = _open(data)
    actual = actual_texts(doc)
    expected = expected_texts(data, "current")
    assert actual == {k: expected[k] for k in actual}


@pytest.mark.parametrize("accept", [True, False], ids=["accept", "reject"])
@pytest.mark.parametrize("path", TRACKED, ids=lambda p: p.name)
def test_resolving_everything(path, accept, wml_schema):
    data = path.read_bytes()
    doc = _open(data)
    before = DocxReviewer(doc).get_changes()
    resolve = accept_changes if accept else reject_changes
    assert resolve(doc) == len(before)

    # nothing pending in any story, in the census or in the XML (mc:Fallback copies included)
    assert DocxReviewer(doc).get_changes() == []
    out = doc.package.to_bytes()
    assert leftover_revisions(out) == []

    # every story reads as the view computed from the original XML; notes whose reference was
    # removed are gone
    expected = expected_texts(data, "final" if accept else "original")
    actual = actual_texts(doc)
    assert actual == {k: expected[k] for k in actual}
    stories_before = {(s.part, s.note_id) for s in _open(data).stories()}
    assert set(actual) == stories_before - _swallowed(data, None, accept)[1]

    # the package reopens, here and in python-docx, and still validates where it did before
    reopened = DocxReviewer.from_bytes(out)
    assert actual_texts(reopened.document) == actual
    python_docx.Document(io.BytesIO(out))
    original_parts, written = _story_xml(path), _story_xml(io.BytesIO(out))
    assert doc.package.dirty, "nothing was written"
    for name in doc.package.dirty:
        errors_in, errors_out = part_errors(wml_schema, original_parts[name]), part_errors(wml_schema, written[name])
        if not errors_in:
            assert errors_out == [], name
        else:  # an input that was already off-schema (Google Docs, PowerTools): no new kind of error
            assert _kinds(errors_out) <= _kinds(errors_in), name

    # text boxes: the VML Fallback copy reads like the Choice copy
    for xml in written.values():
        if etree.QName(etree.fromstring(xml)).localname not in STORY_ROOTS:
            continue
        for alt in etree.fromstring(xml).iter(ALTERNATE):
            choice = alt.xpath("mc:Choice//w:txbxContent", namespaces=NS)
            fallback = alt.xpath("mc:Fallback//w:txbxContent", namespaces=NS)
            if choice and len(choice) == len(fallback):
                assert [view_texts(b) for b in choice] == [view_texts(b) for b in fallback]


def _kinds(errors: list[str]) -> set[str]:
    return {re.sub(r"^line \d+: ", "", e) for e in errors}


# -- one change at a time ----------------------------------------------------------------------

def _ids(doc) -> dict[int, set[str]]:
    out: dict[int, set[str]] = {}
    for change in DocxReviewer(doc).get_changes():
        out.setdefault(change.id, set()).add(change.type)
    return out


def test_accepting_one_side_of_a_replacement():
    path = CORPUS / "eigenpal_docxjs_editor_demo.docx"
    doc = _open(path.read_bytes())
    before = _ids(doc)
    assert before[10] == {"deletion"} and before[11] == {"insertion"}
    body = actual_texts(doc)[("word/document.xml", None)]
    assert accept_changes(doc, {10}) == 1
    after = _ids(doc)
    assert after == {k: v for k, v in before.items() if k != 10}
    # the accepted view does not move; the deleted words are gone from the XML for good
    assert actual_texts(doc)[("word/document.xml", None)] == body
    out = doc.package.to_bytes()
    xml = _story_xml(io.BytesIO(out))["word/document.xml"]
    assert b"zero backend required" not in xml and b"no backend required" in xml
    original = view_texts(original_stories(out)[("word/document.xml", None)], "original")
    assert not any("zero backend required" in t for t in original)


def test_rejecting_one_side_of_a_replacement():
    path = CORPUS / "eigenpal_docxjs_editor_demo.docx"
    doc = _open(path.read_bytes())
    before = _ids(doc)
    texts = actual_texts(doc)[("word/document.xml", None)]
    [index] = [i for i, t in enumerate(texts) if "no backend required" in t]
    assert reject_changes(doc, {11}) == 1
    assert _ids(doc) == {k: v for k, v in before.items() if k != 11}
    assert actual_texts(doc)[("word/document.xml", None)][index] == texts[index].replace("no backend required", "")
    # the deletion is still pending: rejecting it too restores the old words as plain text
    assert reject_changes(doc, {10}) == 1
    now = actual_texts(doc)[("word/document.xml", None)][index]
    assert now == texts[index].replace("no backend required", "zero backend required")
    assert doc.body.xpath(".//w:t[.='zero backend required']/parent::w:r/parent::w:p", namespaces=NS)


ONE_AT_A_TIME = ["eigenpal_docxjs_editor_demo.docx", "openxmlsdk_comment042_tracked_pPr_rPr_changes_notes.docx",
                 "superdoc_gdocs_comments_and_tracked_changes.docx", "pandoc_track_changes_move_macword.docx",
                 "powertools_HC031_complicated_document.docx", "adeu_word_rprchange_comments.docx",
                 "powertools_RA001_tracked_revisions_moves.docx", "powertools_RP051_arabic_tracked_changes.docx"]
PER_TYPE = 3  # the two big documents: this many ids of each change type (all of them take minutes)


def _one_id_cases():
    for name in ONE_AT_A_TIME:
        by_type: dict[str, list[int]] = {}
        for change in DocxReviewer.open(CORPUS / name).get_changes():
            if change.id not in by_type.setdefault(change.type, []):
                by_type[change.type].append(change.id)
        big = name.startswith(("powertools_RA001", "powertools_RP051"))
        picked = sorted({rid for ids in by_type.values() for rid in (ids[:PER_TYPE] if big else ids)})
        for rid in picked:
            yield pytest.param(name, rid, id=f"{name.split('_')[0]}-{name.split('_')[1]}-{rid}")


REVISIONS_INSIDE = " | ".join(f".//w:{t}" for t in (
    "ins", "del", "moveFrom", "moveTo", "rPrChange", "pPrChange", "sectPrChange", "tblPrChange", "tblGridChange",
    "trPrChange", "tblPrExChange", "tcPrChange", "cellIns", "cellDel", "cellMerge"))


def _with_folded(data: bytes, rid: int) -> set[int]:
    """rid plus the run marks the census folds into its tracked row (same side, same id or same
    author and date, nearest row): resolving the row resolves them."""
    out = {rid}
    for container in original_stories(data).values():
        for mark in container.xpath(f".//w:trPr/w:ins[@w:id='{rid}'] | .//w:trPr/w:del[@w:id='{rid}']", namespaces=NS):
            row, side = mark.getparent().getparent(), (INS if mark.tag == q("ins") else DEL)
            for el in row.iter(*side):
                same = _rid(el) == rid or (el.get(q("author")), el.get(q("date"))) == (
                    mark.get(q("author")), mark.get(q("date")))
                if same and el.getparent().tag != q("rPr") and next(el.iterancestors(q("tr"))) is row:
                    out.add(_rid(el))
    return out


def _swallowed(data: bytes, ids: set[int] | None, accept: bool) -> tuple[set[int], set]:
    """What resolving `ids` takes away with it: the ids of the revisions inside removed content
    (wrappers, rows, cells, the properties of a paragraph that joins the next one, notes whose
    reference went), and those notes' story keys."""
    out: set[int] = set()
    notes: set = set()
    reader = _Reader(ids, accept)
    stories = original_stories(data)
    for container in stories.values():
        for el in container.xpath(".//*[@w:id][not(ancestor::mc:Fallback)]", namespaces=NS):
            if not reader.resolved(el) or etree.QName(el).namespace != W_NS:
                continue
            local, parent = etree.QName(el).localname, el.getparent()
            removed = None
            if parent.tag == q("trPr") and local in ("ins", "del") and (local == "del") == accept:
                removed = parent.getparent()  # the row
            elif local in ("cellIns", "cellDel") and (local == "cellDel") == accept:
                removed = parent.getparent()  # the cell
            elif parent.tag == q("rPr") and parent.getparent().tag == q("pPr"):
                if reader.drops(el) and mark_fate(parent.getparent().getparent(), reader) != "keep":
                    removed = parent.getparent()  # the properties of a paragraph that joins or goes
            elif parent.tag != q("numPr") and el.tag in INS + DEL and reader.hides(el):
                removed = el
            if removed is None:
                continue
            out |= {_rid(inner) for inner in removed.xpath(REVISIONS_INSIDE, namespaces=NS)}
            for ref in removed.xpath(".//w:footnoteReference | .//w:endnoteReference", namespaces=NS):
                kind = etree.QName(ref).localname.replace("Reference", "")
                for key, note in stories.items():
                    if etree.QName(note).localname == kind and key[1] == int(ref.get(q("id"))):
                        notes.add(key)
                        out |= {_rid(inner) for inner in note.xpath(REVISIONS_INSIDE, namespaces=NS)}
    return out, notes


_RUN_MARKS = "//w:ins | //w:del | //w:moveFrom | //w:moveTo"
_CONTENT = "descendant::*[not(self::w:r or self::w:rPr or ancestor::w:rPr or self::w:t or self::w:delText)]"


def _emptied_marks(doc) -> set[tuple[str, int]]:
    """(census type, id) of the run-level revision marks that hold neither text nor anything else, when
    no mark of the same type and id still holds something."""
    empty, full = set(), set()
    for story in doc.stories():
        for el in doc.story_container(story).xpath(_RUN_MARKS, namespaces=NS):
            if el.getparent().tag.endswith("Pr"):
                continue
            key = ("insertion" if el.tag in INS else "deletion", _rid(el))
            blank = not "".join(el.xpath(".//w:t/text() | .//w:delText/text()", namespaces=NS)) and \
                not el.xpath(_CONTENT, namespaces=NS)
            (empty if blank else full).add(key)
    return empty - full


@pytest.mark.parametrize("accept", [True, False], ids=["accept", "reject"])
@pytest.mark.parametrize("name, rid", list(_one_id_cases()))
def test_resolving_one_change_in_any_story(name, rid, accept):
    """Only the chosen change leaves the census, and every story reads as the original XML with just
    that change accepted or rejected."""
    data = (CORPUS / name).read_bytes()
    doc = _open(data)
    census = DocxReviewer(doc).get_changes()
    before = sorted((c.type, c.id, c.story) for c in census)
    # a move resolves whole: either half brings the other half and its range markers
    partners = set().union(*(c.move.ids for c in census if c.id == rid and c.move is not None))
    assert (accept_changes if accept else reject_changes)(doc, {rid}) == \
        sum(1 for c in before if c[1] in {rid} | partners)
    ids = _with_folded(data, rid) | partners
    swallowed, dropped_notes = _swallowed(data, ids, accept)
    emptied = _emptied_marks(doc)  # a mark whose content the resolution took away is no change any more
    assert sorted((c.type, c.id, c.story) for c in DocxReviewer(doc).get_changes()) \
        == [c for c in before if c[1] not in swallowed | ids and (c[0], c[1]) not in emptied]
    expected = {key: view_texts(container, "partial", ids, accept)
                for key, container in original_stories(data).items() if key not in dropped_notes}
    actual = actual_texts(doc)
    assert actual == {k: expected[k] for k in actual}
    assert not dropped_notes & set(actual)
    DocxReviewer.from_bytes(doc.package.to_bytes())


def test_rejecting_an_inserted_note_reference_deletes_the_note(wml_schema):
    path = CORPUS / "openxmlsdk_comment042_tracked_pPr_rPr_changes_notes.docx"
    doc = _open(path.read_bytes())
    assert {s.key for s in doc.stories()} >= {"footnote:1", "endnote:1"}
    assert reject_changes(doc, {43}) == 1  # w:ins holding both reference marks
    assert not {s.key for s in doc.stories()} & {"footnote:1", "endnote:1"}
    assert {c.story for c in DocxReviewer(doc).get_changes()} & {"footnote:1", "endnote:1"} == set()
    written = _story_xml(io.BytesIO(doc.package.to_bytes()))
    for part in ("word/footnotes.xml", "word/endnotes.xml"):
        assert part in doc.package.dirty and part_errors(wml_schema, written[part]) == []
        # the separator notes stay
        assert etree.fromstring(written[part]).xpath("count(*[@w:type])", namespaces=NS) == 2


def test_a_text_box_revision_resolves_its_fallback_copy_too():
    path = CORPUS / "openxmlsdk_comment042_tracked_pPr_rPr_changes_notes.docx"
    doc = _open(path.read_bytes())
    choice = doc.body.xpath(".//mc:Choice//w:txbxContent", namespaces=NS)[0]
    fallback = choice.xpath("ancestor::mc:AlternateContent/mc:Fallback//w:txbxContent", namespaces=NS)[0]
    first = choice.xpath(".//w:ins[not(parent::w:rPr)]", namespaces=NS)[0]
    twin_count = len(fallback.xpath(".//w:ins", namespaces=NS))
    assert reject_changes(doc, {int(first.get(q("id")))}) == 1
    assert len(fallback.xpath(".//w:ins", namespaces=NS)) == twin_count - 1
    assert view_texts(choice, "current") == view_texts(fallback, "current")


def _anchor_counts(xml: bytes) -> dict:
    root = etree.fromstring(xml)
    tags = ("commentRangeStart", "commentRangeEnd", "commentReference", "bookmarkStart", "bookmarkEnd")
    return {(tag, el.get(q("id"))): len(root.xpath(f"//w:{tag}[@w:id='{el.get(q('id'))}']", namespaces=NS))
            for tag in tags for el in root.iter(q(tag))}


@pytest.mark.parametrize("resolve", [accept_changes, reject_changes], ids=["accept", "reject"])
def test_comment_anchors_survive_removed_content(resolve):
    """Google Docs puts comment ranges inside tracked insertions and deletions."""
    data = (CORPUS / "superdoc_gdocs_comments_and_tracked_changes.docx").read_bytes()
    rev = DocxReviewer.from_bytes(data)
    comments = [(c.id, c.anchored_text != "") for c in rev.all_comments()]
    resolve(rev.document)
    out = rev.to_bytes()
    assert _anchor_counts(_story_xml(io.BytesIO(out))["word/document.xml"]) \
        == _anchor_counts(_story_xml(io.BytesIO(data))["word/document.xml"])
    assert [c.id for c in DocxReviewer.from_bytes(out).all_comments()] == [cid for cid, _ in comments]


# -- built documents for what the corpus lacks -------------------------------------------------

STAMP = 'w:author="Ann" w:date="2025-01-01T00:00:00Z"'


def _tc(text: str, tcpr: str = "") -> str:
    return f"<w:tc>{f'<w:tcPr>{tcpr}</w:tcPr>' if tcpr else ''}{p(text)}</w:tc>"


def _tr(cells: str, trpr: str = "") -> str:
    return f"<w:tr>{f'<w:trPr>{trpr}</w:trPr>' if trpr else ''}{cells}</w:tr>"


def _tbl(rows: str, tblpr: str = '<w:tblW w:w="0" w:type="auto"/>',
         grid: str = '<w:gridCol w:w="4000"/><w:gridCol w:w="4000"/>') -> str:
    return f"<w:tbl><w:tblPr>{tblpr}</w:tblPr><w:tblGrid>{grid}</w:tblGrid>{rows}</w:tbl>"


def _resolved(body: str, accept: bool, wml_schema, check_view: bool = True):
    """Resolve every change of a built document; check schema validity and the independent view."""
    data = build_docx(body)
    doc = _open(data)
    (accept_changes if accept else reject_changes)(doc)
    assert DocxReviewer(doc).get_changes() == []
    xml = _story_xml(io.BytesIO(doc.package.to_bytes()))["word/document.xml"]
    assert part_errors(wml_schema, xml) == []
    if check_view:
        view = view_texts(original_stories(data)[("word/document.xml", None)], "final" if accept else "original")
        assert _texts(doc) == view
    return doc, etree.fromstring(xml)


def _texts(doc) -> list[str]:
    return [b.text for b in doc.snapshot().blocks]


@pytest.mark.parametrize("accept", [True, False], ids=["accept", "reject"])
def test_tracked_rows(accept, wml_schema):
    body = _tbl(_tr(_tc("keep") + _tc("me"))
                + _tr(_tc("new") + _tc("row"), f'<w:ins w:id="1" {STAMP}/>')
                + _tr(_tc("old") + _tc("row"), f'<w:del w:id="2" {STAMP}/>')) + p("after")
    doc, root = _resolved(body, accept, wml_schema)
    rows = root.xpath("//w:tr", namespaces=NS)
    assert len(rows) == 2 and not root.xpath("//w:trPr/*", namespaces=NS)
    assert _texts(doc) == (["keep", "me", "new", "row", "after"] if accept else ["keep", "me", "old", "row", "after"])


@pytest.mark.parametrize("accept", [True, False], ids=["accept", "reject"])
def test_a_table_whose_rows_all_go_is_removed_and_its_cell_keeps_a_paragraph(accept, wml_schema):
    mark = "del" if accept else "ins"
    inner = _tbl(_tr(_tc("gone"), f'<w:{mark} w:id="1" {STAMP}/>'), grid='<w:gridCol w:w="2000"/>')
    # an outer cell holding only the doomed table (no paragraph after it, as some producers write)
    body = _tbl(_tr(f"<w:tc>{inner}</w:tc>"), grid='<w:gridCol w:w="4000"/>') + p("after")
    doc, root = _resolved(body, accept, wml_schema, check_view=False)  # the view knows no repairs
    assert len(root.xpath("//w:tbl", namespaces=NS)) == 1
    [cell] = root.xpath("//w:tc", namespaces=NS)
    assert [etree.QName(c).localname for c in cell] == ["p"]
    assert _texts(doc) == ["", "after"]


@pytest.mark.parametrize("accept", [True, False], ids=["accept", "reject"])
def test_tracked_cells_and_merges(accept, wml_schema):
    body = _tbl(
        _tr(_tc("A", f'<w:tcW w:w="4000" w:type="dxa"/><w:cellIns w:id="1" {STAMP}/>')
            + _tc("B", f'<w:tcW w:w="4000" w:type="dxa"/><w:cellDel w:id="2" {STAMP}/>'))
        + _tr(_tc("C", f'<w:tcW w:w="4000" w:type="dxa"/><w:shd w:val="clear" w:fill="FF0000"/>'
                       f'<w:cellMerge w:id="3" w:vMerge="rest" {STAMP}/>') + _tc("D"))
        + _tr(_tc("", f'<w:tcW w:w="4000" w:type="dxa"/><w:cellMerge w:id="4" w:vMerge="cont" {STAMP}/>')
              + _tc("E"))) + p("after")
    doc, root = _resolved(body, accept, wml_schema)
    cells = [" ".join(c.itertext()) for c in root.xpath("//w:tc", namespaces=NS)]
    assert not root.xpath("//w:cellIns | //w:cellDel | //w:cellMerge", namespaces=NS)
    vmerge = root.xpath("//w:tcPr/w:vMerge", namespaces=NS)
    if accept:
        assert cells == ["A", "C", "D", "", "E"]
        assert [v.get(q("val")) for v in vmerge] == ["restart", None]
        # vMerge sits in schema order: after tcW, before shd
        tcpr = vmerge[0].getparent()
        assert [etree.QName(c).localname for c in tcpr] == ["tcW", "vMerge", "shd"]
    else:
        assert cells == ["B", "C", "D", "", "E"] and vmerge == []


@pytest.mark.parametrize("accept", [True, False], ids=["accept", "reject"])
def test_table_row_and_cell_property_changes(accept, wml_schema):
    body = _tbl(
        _tr(_tc("x", f'<w:tcW w:w="4000" w:type="dxa"/><w:vAlign w:val="center"/>'
                     f'<w:tcPrChange w:id="4" {STAMP}><w:tcPr><w:tcW w:w="2000" w:type="dxa"/></w:tcPr></w:tcPrChange>'),
            f'<w:cantSplit/><w:trPrChange w:id="3" {STAMP}><w:trPr><w:trHeight w:val="400"/></w:trPr></w:trPrChange>'),
        tblpr=f'<w:tblW w:w="5000" w:type="pct"/><w:jc w:val="center"/>'
              f'<w:tblPrChange w:id="1" {STAMP}><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr></w:tblPrChange>',
        grid='<w:gridCol w:w="4000"/><w:tblGridChange w:id="2"><w:tblGrid><w:gridCol w:w="2000"/></w:tblGrid>'
             '</w:tblGridChange>') + p("after")
    doc, root = _resolved(body, accept, wml_schema)

    def names(xpath):
        return [etree.QName(c).localname for c in root.xpath(xpath, namespaces=NS)[0]]

    if accept:
        assert names("//w:tblPr") == ["tblW", "jc"]
        assert root.xpath("string(//w:gridCol/@w:w)", namespaces=NS) == "4000"
        assert names("//w:trPr") == ["cantSplit"] and names("//w:tcPr") == ["tcW", "vAlign"]
    else:
        assert names("//w:tblPr") == ["tblW"] and root.xpath("string(//w:tblW/@w:type)", namespaces=NS) == "auto"
        assert root.xpath("string(//w:gridCol/@w:w)", namespaces=NS) == "2000"
        assert names("//w:trPr") == ["trHeight"] and names("//w:tcPr") == ["tcW"]
    assert _texts(doc) == ["x", "after"]


@pytest.mark.parametrize("accept", [True, False], ids=["accept", "reject"])
def test_section_paragraph_and_run_property_changes(accept, wml_schema):
    body = (
        '<w:p><w:pPr><w:pStyle w:val="Heading1"/><w:jc w:val="center"/><w:rPr><w:b/></w:rPr>'
        '<w:sectPr><w:pgSz w:w="15840" w:h="12240" w:orient="landscape"/>'
        f'<w:sectPrChange w:id="1" {STAMP}><w:sectPr><w:pgSz w:w="12240" w:h="15840"/></w:sectPr></w:sectPrChange>'
        '</w:sectPr>'
        f'<w:pPrChange w:id="2" {STAMP}><w:pPr><w:ind w:left="720"/></w:pPr></w:pPrChange></w:pPr>'
        f'<w:r><w:rPr><w:b/><w:i/><w:rPrChange w:id="3" {STAMP}><w:rPr><w:u w:val="single"/></w:rPr></w:rPrChange>'
        '</w:rPr><w:t>Styled</w:t></w:r></w:p>' + p("after"))
    doc, root = _resolved(body, accept, wml_schema)
    ppr = root.xpath("//w:p[1]/w:pPr", namespaces=NS)[0]
    run_rpr = root.xpath("//w:p[1]/w:r/w:rPr", namespaces=NS)[0]
    sect = ppr.find(q("sectPr"))
    if accept:
        assert [etree.QName(c).localname for c in ppr] == ["pStyle", "jc", "rPr", "sectPr"]
        assert [etree.QName(c).localname for c in run_rpr] == ["b", "i"]
        assert sect.find(q("pgSz")).get(q("orient")) == "landscape"
    else:
        assert [etree.QName(c).localname for c in ppr] == ["ind", "rPr", "sectPr"]
        assert [etree.QName(c).localname for c in run_rpr] == ["u"]
        assert sect.find(q("pgSz")).get(q("w")) == "12240" and sect.find(q("pgSz")).get(q("orient")) is None
    assert not root.xpath("//w:sectPrChange | //w:pPrChange | //w:rPrChange", namespaces=NS)
    assert _texts(doc) == ["Styled", "after"]


def test_rejecting_a_final_section_change_keeps_header_references():
    data = build_docx(p("Body"))  # build_docx writes the final sectPr itself; patch it in place
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        parts = {n: z.read(n) for n in z.namelist()}
    parts["word/document.xml"] = parts["word/document.xml"].replace(
        b"<w:sectPr>", b'<w:sectPr><w:headerReference w:type="default" r:id="rId99"/>').replace(
        b"</w:sectPr>", f'<w:sectPrChange w:id="7" {STAMP}><w:sectPr><w:pgSz w:w="11906" w:h="16838"/>'
        '</w:sectPr></w:sectPrChange></w:sectPr>'.encode())
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for n, b in parts.items():
            z.writestr(n, b)
    doc = _open(out.getvalue())
    assert reject_changes(doc) == 1
    sect = doc.body.find(q("sectPr"))
    assert [etree.QName(c).localname for c in sect] == ["headerReference", "pgSz"]
    assert sect.find(q("pgSz")).get(q("w")) == "11906"


@pytest.mark.parametrize("accept", [True, False], ids=["accept", "reject"])
def test_paragraph_marks(accept, wml_schema):
    body = (
        # an inserted mark: one paragraph split in two
        f'<w:p><w:pPr><w:jc w:val="left"/><w:rPr><w:ins w:id="1" {STAMP}/></w:rPr></w:pPr>'
        '<w:r><w:t xml:space="preserve">First half, </w:t></w:r><w:bookmarkStart w:id="0" w:name="b"/></w:p>'
        '<w:bookmarkEnd w:id="0"/>'
        '<w:p><w:pPr><w:jc w:val="right"/></w:pPr><w:r><w:t>second half.</w:t></w:r></w:p>'
        # a deleted mark (twice): three paragraphs merge into one
        f'<w:p><w:pPr><w:rPr><w:del w:id="2" {STAMP}/></w:rPr></w:pPr><w:r><w:t xml:space="preserve">One </w:t></w:r>'
        f'<w:del w:id="3" {STAMP}><w:r><w:delText xml:space="preserve">gone </w:delText></w:r></w:del></w:p>'
        f'<w:p><w:pPr><w:rPr><w:del w:id="4" {STAMP}/></w:rPr></w:pPr><w:r><w:t xml:space="preserve">two </w:t></w:r></w:p>'
        '<w:p><w:pPr><w:ind w:left="720"/></w:pPr><w:r><w:t>three</w:t></w:r></w:p>'
        # a deleted mark before a table has nothing to join: only the marker goes
        f'<w:p><w:pPr><w:rPr><w:del w:id="5" {STAMP}/></w:rPr></w:pPr><w:r><w:t>before table</w:t></w:r></w:p>'
        + _tbl(_tr(_tc("cell") + _tc("")))
        # ... unless nothing is left of the paragraph: then it goes (a wholly deleted paragraph)
        + f'<w:p><w:pPr><w:rPr><w:del w:id="6" {STAMP}/></w:rPr></w:pPr><w:bookmarkStart w:id="9" w:name="k"/>'
          f'<w:del w:id="7" {STAMP}><w:r><w:delText>wholly deleted</w:delText></w:r></w:del><w:bookmarkEnd w:id="9"/></w:p>'
        + _tbl(_tr(_tc("cell 2") + _tc(""))) + p("end"))
    doc, root = _resolved(body, accept, wml_schema)
    if accept:
        assert _texts(doc) == ["First half, ", "second half.", "One two three", "before table", "cell", "",
                               "cell 2", "", "end"]
        # the bookmark of the paragraph that went stays, between the two tables
        assert [etree.QName(c).localname for c in doc.body][5:9] == ["tbl", "bookmarkStart", "bookmarkEnd", "tbl"]
        merged = root.xpath("//w:p[w:r/w:t='three']", namespaces=NS)[0]
        assert merged.find(f"{q('pPr')}/{q('ind')}") is not None  # the survivor keeps the last pPr
    else:
        assert _texts(doc) == ["First half, second half.", "One gone ", "two ", "three", "before table", "cell",
                               "", "wholly deleted", "cell 2", "", "end"]
        joined = root.xpath("//w:p[w:r/w:t='second half.']", namespaces=NS)[0]
        assert joined.find(f"{q('pPr')}/{q('jc')}").get(q("val")) == "right"
        # the bookmark between the two halves moved into the joined paragraph, in order
        assert [etree.QName(c).localname for c in joined][1:] == ["r", "bookmarkStart", "bookmarkEnd", "r"]
        assert root.xpath("//w:t[.='gone ']/@xml:space", namespaces=NS) == ["preserve"]
    assert not root.xpath("//w:pPr/w:rPr/*", namespaces=NS)


@pytest.mark.parametrize("accept", [True, False], ids=["accept", "reject"])
def test_a_tracked_row_resolves_the_run_marks_folded_into_it(accept):
    other = 'w:author="Bob" w:date="2025-02-01T00:00:00Z"'
    body = _tbl(_tr(_tc("keep") + _tc("me"))
                + _tr(f'<w:tc><w:p><w:ins w:id="8" {STAMP}><w:r><w:t>folded</w:t></w:r></w:ins>'
                      f'<w:ins w:id="9" {other}><w:r><w:t>-own</w:t></w:r></w:ins></w:p></w:tc>' + _tc("x"),
                      f'<w:ins w:id="7" {STAMP}/>')) + p("after")
    doc = _open(build_docx(body))
    assert {c.id for c in DocxReviewer(doc).get_changes()} == {7, 9}
    (accept_changes if accept else reject_changes)(doc, {7})
    assert {c.id for c in DocxReviewer(doc).get_changes()} == ({9} if accept else set())
    assert _texts(doc) == (["keep", "me", "folded-own", "x", "after"] if accept else ["keep", "me", "after"])


@pytest.mark.parametrize("accept", [True, False], ids=["accept", "reject"])
def test_block_level_wrappers_around_whole_paragraphs(accept):
    """Some producers wrap whole paragraphs (and a cell's only paragraph) in w:ins / w:del."""
    body = (f'<w:ins w:id="1" {STAMP}>{p("new paragraph")}</w:ins>'
            f'<w:del w:id="2" {STAMP}><w:p><w:r><w:delText>old paragraph</w:delText></w:r></w:p></w:del>'
            + _tbl(_tr(f'<w:tc><w:ins w:id="3" {STAMP}>{p("new cell text")}</w:ins></w:tc>'
                       f'<w:tc><w:del w:id="4" {STAMP}>{p("old cell text")}</w:del></w:tc>'))
            + p("end"))
    doc = _open(build_docx(body))
    assert (accept_changes if accept else reject_changes)(doc) == 4
    assert DocxReviewer(doc).get_changes() == []
    if accept:
        assert _texts(doc) == ["new paragraph", "new cell text", "", "end"]
    else:
        assert _texts(doc) == ["old paragraph", "", "old cell text", "end"]
    # every cell still ends with a paragraph
    for cell in doc.body.iter(q("tc")):
        assert cell[-1].tag == q("p")


def test_a_deletion_holding_a_comment_keeps_the_comment_anchored():
    body = ('<w:p><w:r><w:t xml:space="preserve">Keep </w:t></w:r>'
            f'<w:del w:id="5" {STAMP}><w:commentRangeStart w:id="1"/><w:r><w:delText>cut</w:delText></w:r>'
            '<w:commentRangeEnd w:id="1"/><w:r><w:rPr><w:rStyle w:val="CommentReference"/></w:rPr>'
            '<w:commentReference w:id="1"/></w:r></w:del></w:p>')
    comments = '<w:comment w:id="1" w:author="A"><w:p><w:r><w:t>why?</w:t></w:r></w:p></w:comment>'
    rev = DocxReviewer.from_bytes(build_docx(body, comments=comments))
    assert accept_changes(rev.document) == 1
    para = rev.document.body.find(q("p"))
    assert [etree.QName(c).localname for c in para] == ["r", "commentRangeStart", "commentRangeEnd", "r"]
    assert para[-1].find(q("commentReference")) is not None
    assert para[-1].find(f"{q('rPr')}/{q('rStyle')}").get(q("val")) == "CommentReference"
    [comment] = DocxReviewer.from_bytes(rev.to_bytes()).all_comments()
    assert comment.text == "why?"


def test_nothing_to_resolve_writes_nothing():
    doc = _open(build_docx(p("plain")))
    assert accept_changes(doc) == 0 and reject_changes(doc, {1}) == 0
    assert not doc.package.dirty


# -- a paragraph deleted whole takes what its text does not read with it ----------------------------------

PAGE_BREAK = '<w:p><w:r><w:br w:type="page"/></w:r></w:p>'
PICTURE_RUN = ('<w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing">'
               '<wp:extent cx="381000" cy="190500"/><wp:docPr id="1" name="Picture 1"/></wp:inline></w:drawing></w:r>')


@pytest.mark.parametrize("doomed", [
    PAGE_BREAK,
    f'<w:p><w:r><w:t xml:space="preserve">See the chart </w:t></w:r>{PICTURE_RUN}</w:p>',
    f"<w:p>{PICTURE_RUN}</w:p>",
    '<w:p><w:r><w:t xml:space="preserve">See page </w:t></w:r><w:fldSimple w:instr=" PAGE "><w:r><w:t>4</w:t></w:r>'
    '</w:fldSimple></w:p>',
    '<w:p><w:r><w:t xml:space="preserve">See page </w:t></w:r><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r>'
    '<w:instrText xml:space="preserve"> PAGE </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>'
    '<w:r><w:t>4</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>',
], ids=["page break", "text and picture", "picture alone", "simple field", "complex field"])
def test_a_deleted_paragraph_takes_its_page_break_picture_or_field_with_it(doomed):
    """deleteBlock struck the paragraph's text and mark but left a page break, a picture or a field's
    code, which accepting then joined onto the next paragraph (the redline property test, seed 1097)."""
    base = build_docx(p("Before it.") + doomed + p("The next paragraph stays as it was."))
    rev = DocxReviewer.from_bytes(base)
    target = rev.snapshot().blocks[1]
    res = rev.apply_document_operations({"version": 1, "mode": "tracked-changes", "operations": [
        {"id": "d", "type": "deleteBlock", "blockId": target.id}]})
    assert [a["id"] for a in res["applied"]] == ["d"]
    marked = rev.to_bytes()
    accepted = DocxReviewer.from_bytes(marked)
    accepted.accept_all()
    body = accepted.document.body
    assert [b.text for b in accepted.snapshot().blocks] == ["Before it.", "The next paragraph stays as it was."]
    assert all(body.find(f".//{q(tag)}") is None for tag in ("br", "drawing", "fldSimple", "fldChar", "instrText"))
    rejected = DocxReviewer.from_bytes(marked)
    rejected.reject_all()
    again = DocxReviewer.from_bytes(base)
    if "fldSimple" in doomed:  # rejected, it reads as the same field written in its complex form
        assert [b.text for b in rejected.snapshot().blocks] == [b.text for b in again.snapshot().blocks]
        assert rejected.document.body.find(f".//{q('instrText')}").text == " PAGE "
        return
    assert etree.tostring(rejected.document.body, method="c14n") == etree.tostring(again.document.body, method="c14n")
