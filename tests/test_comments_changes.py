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
                    if kind in ("insertion", "deletion") and _folded_into_row(el):
                        continue
                    out.setdefault(kind, set()).add(int(el.get(f"{{{NS['w']}}}id")))
    return out


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
