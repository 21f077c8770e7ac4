"""Comment threads and the change census against counts taken independently from the XML
(issue 2, acceptance 5). The expectations here come from XPath over the raw parts and from
python-docx, not from our reader."""

import io
import zipfile

import docx as python_docx
import pytest
from conftest import ALL_GOOD, CORPUS
from docbuilder import build_docx
from lxml import etree

from folio_desktop.docx import DocxReviewer

NS = {
    "w": "http://schemas.openxmlformats.org/wordprocessingml/2006/main",
    "w15": "http://schemas.microsoft.com/office/word/2012/wordml",
    "w14": "http://schemas.microsoft.com/office/word/2010/wordml",
    "mc": "http://schemas.openxmlformats.org/markup-compatibility/2006",
}
STORY_ROOTS = {"document", "hdr", "ftr", "footnotes", "endnotes"}
NOT_FALLBACK = "[not(ancestor::mc:Fallback)]"

# census type -> XPath selecting the revision elements that stand for it
XPATHS = {
    "insertion": "//w:ins[not(parent::w:rPr) and not(parent::w:trPr)] | //w:moveTo[not(parent::w:rPr)]",
    "deletion": "//w:del[not(parent::w:rPr) and not(parent::w:trPr)] | //w:moveFrom[not(parent::w:rPr)]",
    "paragraphMarkInserted": "//w:pPr/w:rPr/w:ins | //w:pPr/w:rPr/w:moveTo",
    "paragraphMarkDeleted": "//w:pPr/w:rPr/w:del | //w:pPr/w:rPr/w:moveFrom",
    "formatting": "//w:rPrChange",
    "paragraphPropertiesChanged": "//w:pPrChange",
    "sectionPropertiesChanged": "//w:sectPrChange",
    "tablePropertiesChanged": "//w:tblPrChange | //w:tblGridChange",
    "rowPropertiesChanged": "//w:trPrChange | //w:tblPrExChange",
    "cellPropertiesChanged": "//w:tcPrChange",
    "rowInserted": "//w:trPr/w:ins",
    "rowDeleted": "//w:trPr/w:del",
    "cellInserted": "//w:cellIns",
    "cellDeleted": "//w:cellDel",
    "cellMerged": "//w:cellMerge",
}

WITH_REVIEW_MARKUP = [
    p for p in ALL_GOOD
    if any(tag in zipfile.ZipFile(p).read(n) for n in zipfile.ZipFile(p).namelist() if n.endswith(".xml")
           for tag in (b"<w:ins ", b"<w:del ", b"Change ", b"<w:comment ", b"<w:moveFrom ", b"<w:cellMerge"))
]


def story_parts(path):
    with zipfile.ZipFile(path) as z:
        for name in z.namelist():
            if not name.endswith(".xml") or "/_rels/" in name:
                continue
            root = etree.fromstring(z.read(name))
            if etree.QName(root).localname in STORY_ROOTS and etree.QName(root).namespace == NS["w"]:
                yield name, root


def expected_census(path) -> dict[str, set]:
    """type -> set of revision ids present in the package's stories (Choice copies only)."""
    out: dict[str, set] = {}
    for _, root in story_parts(path):
        for kind, xpath in XPATHS.items():
            for sub in xpath.split(" | "):
                for el in root.xpath(sub + NOT_FALLBACK, namespaces=NS):
                    if kind in ("insertion", "deletion") and (_folded_into_row(el) or _holds_nothing(el)):
                        continue
                    if etree.QName(el).localname == "tblGridChange" and _grid_change_folded(el):
                        continue
                    out.setdefault(kind, set()).add(int(el.get(f"{{{NS['w']}}}id")))
    return out


# what a run mark may hold and still hold nothing a reader sees (a comment's reference mark is something:
# the Changes panel names a tracked insertion of comment marks as such)
_SOMETHING = ("descendant::*[not(self::w:r or self::w:rPr or ancestor::w:rPr or self::w:t or self::w:delText or "
              "self::w:commentRangeStart or self::w:commentRangeEnd or "
              "self::w:bookmarkStart or self::w:bookmarkEnd or self::w:proofErr)]")


def _holds_nothing(el) -> bool:
    """A run-level insertion or deletion with no text and no object: no change to review. (No corpus file
    has one whose revision id also marks text elsewhere in its block.)"""
    if el.getparent().tag.endswith("Pr"):  # a mark in a property (w:numPr/w:ins) records a property change
        return False
    return not "".join(el.xpath(".//w:t/text() | .//w:delText/text()", namespaces=NS)) \
        and not el.xpath(_SOMETHING, namespaces=NS)


def _grid_change_folded(el) -> bool:
    """A table grid revision that is no change of its own: beside its table's property change, or
    recording the column widths the grid already has."""
    if el.xpath("ancestor::w:tbl[1]/w:tblPr/w:tblPrChange", namespaces=NS):
        return True
    widths = [c.get(f"{{{NS['w']}}}w") for c in el.xpath("../w:gridCol", namespaces=NS)]
    return widths == [c.get(f"{{{NS['w']}}}w") for c in el.xpath(".//w:gridCol", namespaces=NS)]


def _folded_into_row(el) -> bool:
    """A run mark inside a tracked row of the same side, same id or same author+date."""
    w = f"{{{NS['w']}}}"
    rows = el.xpath("ancestor::w:tr[1]/w:trPr/w:ins | ancestor::w:tr[1]/w:trPr/w:del", namespaces=NS)
    for mark in rows:
        same_side = (etree.QName(mark).localname == "ins") == (etree.QName(el).localname in ("ins", "moveTo"))
        same = mark.get(w + "id") == el.get(w + "id") or (
            mark.get(w + "author") == el.get(w + "author") and mark.get(w + "date") == el.get(w + "date"))
        if same_side and same:
            return True
    return False


def test_corpus_has_review_markup_to_check():
    assert len(WITH_REVIEW_MARKUP) >= 12


@pytest.mark.parametrize("path", WITH_REVIEW_MARKUP, ids=lambda p: p.name)
def test_change_census_matches_the_xml(path):
    changes = DocxReviewer.open(path).get_changes()
    got: dict[str, set] = {}
    for change in changes:
        got.setdefault(change.type, set()).add(change.id)
    assert got == expected_census(path)
    # grouping: one entry per revision id and block, never two entries for the same pair
    keys = [(c.type, c.id, c.block_id, c.story) for c in changes]
    assert len(keys) == len(set(keys))
    for change in changes:
        if change.type in ("insertion", "deletion") and change.story == "main":
            assert change.block_id is not None


@pytest.mark.parametrize("path", WITH_REVIEW_MARKUP, ids=lambda p: p.name)
def test_comment_threads_match_the_xml(path):
    rev = DocxReviewer.open(path)
    comments = rev.all_comments()
    # python-docx reads ids, authors and texts on its own
    theirs = {c.comment_id: (c.author, c.text) for c in python_docx.Document(str(path)).comments}
    assert {c.id: (c.author, c.text) for c in comments} == theirs
    # replies and done flags counted straight from commentsExtended
    replies = done = 0
    para_of = {}
    with zipfile.ZipFile(path) as z:
        names = {n.lower(): n for n in z.namelist()}
        if "word/comments.xml" in names:
            croot = etree.fromstring(z.read(names["word/comments.xml"]))
            for c in croot.xpath("//w:comment", namespaces=NS):
                paras = c.xpath("w:p", namespaces=NS)
                if paras:
                    para_of[paras[-1].get(f"{{{NS['w14']}}}paraId")] = int(c.get(f"{{{NS['w']}}}id"))
        if "word/commentsextended.xml" in names:
            xroot = etree.fromstring(z.read(names["word/commentsextended.xml"]))
            for ex in xroot.xpath("//*[local-name()='commentEx']"):
                attrs = {etree.QName(k).localname: v for k, v in ex.attrib.items()}
                if attrs.get("paraId") not in para_of:
                    continue
                if attrs.get("paraIdParent") in para_of:
                    replies += 1
                if attrs.get("done") in ("1", "true"):
                    done += 1
    threads = rev.get_comments()
    assert len(threads) == len(comments) - replies
    assert sum(len(t.replies) for t in threads) == replies
    assert sum(c.done for c in comments) == done
    for thread in threads:
        assert thread.parent_id is None
        for reply in thread.replies:
            assert reply.parent_id == thread.id


def test_threaded_arabic_comments_and_replies():
    rev = DocxReviewer.open(CORPUS / "openxmlsdk_comment066_arabic_threaded_comments.docx")
    threads = rev.get_comments()
    assert len(rev.all_comments()) == 65
    assert sum(len(t.replies) for t in threads) == 27
    agent = threads[0].to_agent_json()
    assert set(agent) == {"id", "author", "text", "resolved", "blockId", "quote", "replies"}
    assert isinstance(agent["id"], str)


def test_comment_quote_and_block_come_from_the_anchor():
    rev = DocxReviewer.open(CORPUS / "pandoc_comments_with_reply.docx")
    by_id = {c.id: c for c in rev.all_comments()}
    first = by_id[0]
    assert first.anchored_text and first.block_id in rev.snapshot().anchors
    assert first.anchored_text in rev.snapshot().block(first.block_id).text
    # a comment across paragraphs quotes text from both, a line each
    assert by_id[1].anchored_text == "a new paragraph.\nAnd so"
    assert by_id[1].block_id == rev.snapshot().blocks[1].id


def test_reply_to_a_reply_joins_the_thread_root_and_done_is_read():
    body = ('<w:p w14:paraId="0000000A"><w:commentRangeStart w:id="1"/><w:r><w:t>Fee</w:t></w:r>'
            '<w:commentRangeEnd w:id="1"/></w:p>')
    comments = "".join(
        f'<w:comment w:id="{i}" w:author="A{i}"><w:p w14:paraId="0000010{i}"><w:r><w:t>c{i}</w:t></w:r></w:p></w:comment>'
        for i in (1, 2, 3))
    extended = ('<w15:commentEx w15:paraId="00000101" w15:done="1"/>'
                '<w15:commentEx w15:paraId="00000102" w15:paraIdParent="00000101" w15:done="0"/>'
                '<w15:commentEx w15:paraId="00000103" w15:paraIdParent="00000102" w15:done="0"/>')
    rev = DocxReviewer.from_bytes(build_docx(body, comments=comments, commentsExtended=extended))
    [thread] = rev.get_comments()
    assert thread.id == 1 and thread.done and thread.anchored_text == "Fee"
    assert [r.id for r in thread.replies] == [2, 3]
    assert rev.get_comments(done=False) == []


def test_census_types_and_grouping_on_tracked_tables():
    rev = DocxReviewer.open(CORPUS / "powertools_RA001_tracked_revisions_moves.docx")
    changes = rev.get_changes()
    types = {c.type for c in changes}
    assert {"insertion", "deletion", "paragraphPropertiesChanged", "rowPropertiesChanged",
            "cellPropertiesChanged"} <= types
    # to_json carries dates; the agent projection drops them
    sample = changes[0]
    assert set(sample.to_agent_json()) == {"id", "type", "author", "text", "blockId"}
    assert set(sample.to_json()) == {"id", "type", "author", "date", "text", "blockId", "story"}


def test_save_keeps_comment_and_change_parts_identical():
    path = CORPUS / "superdoc_word_comments_replies_tracked.docx"
    data = path.read_bytes()
    rev = DocxReviewer.from_bytes(data)
    rev.get_changes()
    rev.get_comments()
    out = rev.to_bytes()
    with zipfile.ZipFile(io.BytesIO(data)) as a, zipfile.ZipFile(io.BytesIO(out)) as b:
        for name in a.namelist():
            assert a.read(name) == b.read(name)


def test_every_census_type_from_a_built_document():
    stamp = 'w:author="Ann" w:date="2025-01-01T00:00:00Z"'
    other = 'w:author="Bob" w:date="2025-02-01T00:00:00Z"'
    body = (
        # paragraph mark inserted, paragraph mark deleted, paragraph properties changed
        f'<w:p w14:paraId="00000001"><w:pPr><w:jc w:val="center"/><w:rPr><w:ins w:id="10" {stamp}/></w:rPr>'
        f'<w:pPrChange w:id="11" {stamp}><w:pPr/></w:pPrChange></w:pPr><w:r><w:t>Intro</w:t></w:r></w:p>'
        f'<w:p w14:paraId="00000002"><w:pPr><w:rPr><w:del w:id="12" {stamp}/></w:rPr></w:pPr>'
        f'<w:r><w:rPr><w:b/><w:rPrChange w:id="13" {stamp}><w:rPr/></w:rPrChange></w:rPr><w:t>Bold now</w:t></w:r></w:p>'
        # a table: changed properties, an inserted row whose runs fold into it, cell revisions
        f'<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/><w:tblPrChange w:id="20" {stamp}><w:tblPr/></w:tblPrChange></w:tblPr>'
        f'<w:tr><w:trPr><w:ins w:id="21" {stamp}/></w:trPr>'
        f'<w:tc><w:p w14:paraId="00000003"><w:ins w:id="22" {stamp}><w:r><w:t>New</w:t></w:r></w:ins></w:p></w:tc>'
        f'<w:tc><w:p w14:paraId="00000004"><w:ins w:id="23" {stamp}><w:r><w:t>row</w:t></w:r></w:ins></w:p></w:tc></w:tr>'
        f'<w:tr><w:trPr><w:del w:id="24" {other}/><w:trPrChange w:id="25" {other}><w:trPr/></w:trPrChange></w:trPr>'
        f'<w:tc><w:tcPr><w:cellIns w:id="26" {other}/></w:tcPr><w:p w14:paraId="00000005"><w:r><w:t>A</w:t></w:r></w:p></w:tc>'
        f'<w:tc><w:tcPr><w:cellDel w:id="27" {other}/></w:tcPr><w:p w14:paraId="00000006"><w:r><w:t>B</w:t></w:r></w:p></w:tc></w:tr>'
        f'<w:tr><w:tc><w:tcPr><w:cellMerge w:id="28" w:vMerge="rest" {other}/><w:tcPrChange w:id="29" {other}><w:tcPr/></w:tcPrChange></w:tcPr>'
        f'<w:p w14:paraId="00000007"><w:r><w:t>C</w:t></w:r></w:p></w:tc>'
        f'<w:tc><w:tcPr><w:cellMerge w:id="28" w:vMerge="rest" {other}/></w:tcPr><w:p w14:paraId="00000008"><w:r><w:t>D</w:t></w:r></w:p></w:tc></w:tr>'
        '</w:tbl>'
    )
    data = build_docx(body)
    # a section property change in the body's final sectPr
    import io
    import zipfile as zf

    entries = {}
    with zf.ZipFile(io.BytesIO(data)) as z:
        for n in z.namelist():
            entries[n] = z.read(n)
    entries["word/document.xml"] = entries["word/document.xml"].replace(
        b"</w:sectPr>", f'<w:sectPrChange w:id="30" {stamp}><w:sectPr/></w:sectPrChange></w:sectPr>'.encode())
    out = io.BytesIO()
    with zf.ZipFile(out, "w") as z:
        for n, b in entries.items():
            z.writestr(n, b)
    rev = DocxReviewer.from_bytes(out.getvalue())
    got = {(c.type, c.id): (c.text, c.block_id) for c in rev.get_changes()}
    assert got == {
        ("paragraphMarkInserted", 10): ("Intro", "00000001"),
        ("paragraphPropertiesChanged", 11): ("Intro", "00000001"),
        ("paragraphMarkDeleted", 12): ("Bold now", "00000002"),
        ("formatting", 13): ("Bold now", "00000002"),
        ("tablePropertiesChanged", 20): ("", "00000003"),
        ("rowInserted", 21): ("Newrow", "00000003"),  # the row's own runs fold into it
        ("rowDeleted", 24): ("", "00000005"),
        ("rowPropertiesChanged", 25): ("", "00000005"),
        ("cellInserted", 26): ("A", "00000005"),
        ("cellDeleted", 27): ("B", "00000006"),
        ("cellMerged", 28): ("C\nD", "00000007"),  # one revision over two cells
        ("cellPropertiesChanged", 29): ("C", "00000007"),
        ("sectionPropertiesChanged", 30): ("", None),
    }
    from folio_desktop.docx.reading.changes import CHANGE_TYPES

    assert {t for t, _ in got} | {"insertion", "deletion"} == set(CHANGE_TYPES)
    assert rev.get_changes(author="Bob", type="cellMerged")[0].id == 28


def test_preview_runs_show_styled_runs_only():
    body = ('<w:p w14:paraId="00000001"><w:r><w:t xml:space="preserve">Plain </w:t></w:r>'
            '<w:r><w:rPr><w:b/><w:i/></w:rPr><w:t>strong</w:t></w:r>'
            '<w:r><w:rPr><w:b/><w:i/></w:rPr><w:t xml:space="preserve"> words</w:t></w:r>'
            '<w:r><w:rPr><w:u w:val="single"/><w:sz w:val="24"/><w:color w:val="ff0000"/></w:rPr><w:t>!</w:t></w:r></w:p>'
            '<w:p w14:paraId="00000002"><w:r><w:t>Nothing styled</w:t></w:r></w:p>')
    blocks = DocxReviewer.from_bytes(build_docx(body)).snapshot().blocks
    assert blocks[0].preview_runs == [
        {"text": "Plain "},
        {"text": "strong words", "bold": True, "italic": True, "directFormatting": True},
        {"text": "!", "underline": True, "fontSizePt": 12.0, "color": "FF0000", "directFormatting": True},
    ]
    assert blocks[1].preview_runs is None and "previewRuns" not in blocks[1].to_json()
