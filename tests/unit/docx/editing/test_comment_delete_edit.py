"""Deleting and editing comments (DocxReviewer.delete_comments / edit_comment over CommentStore):
a thread's first comment takes its replies with it, every trace of a deleted id goes (comments.xml,
commentsExtended, commentsIds, commentsExtensible, range markers and reference runs in every
story), an edited comment keeps its id, author, date, thread and durable id; each is one recorded
change that undoes and redoes exactly; the saved files reopen and validate."""

from __future__ import annotations

import io
import zipfile

import docx as python_docx
from conftest import CORPUS
from lxml import etree
from test_comment_store import NS, W15, W15_PREVIEW, W16CEX, W16CID, assert_parts_valid, schema  # noqa: F401
from test_undo_records import recording, round_trip

from folio_desktop.docx import DocxReviewer

SUPERDOC = CORPUS / "superdoc_word_comments_replies_tracked.docx"  # Word 365: all four comment parts, replies
ARABIC = CORPUS / "openxmlsdk_comment066_arabic_threaded_comments.docx"  # 65 comments, 2013-preview w15
PANDOC = CORPUS / "pandoc_comments_with_reply.docx"  # no commentsIds, a comment of several paragraphs
DOCX4J = CORPUS / "docx4j_invoice_databinding_sdt_comments.docx"  # comments.xml without w14
MARKERS = ("commentRangeStart", "commentRangeEnd", "commentReference")
W_ID = f"{{{NS['w']}}}id"


def parts(data: bytes) -> dict[str, etree._Element]:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return {n: etree.fromstring(z.read(n)) for n in z.namelist() if n.endswith(".xml")}


def traces(data: bytes, comment_ids, para_ids, durables) -> list[str]:
    """Every place a saved package still mentions one of these comments."""
    ids = {str(i) for i in comment_ids}
    found = []
    for name, root in parts(data).items():
        for el in root.iter():
            if not isinstance(el.tag, str):
                continue
            local = etree.QName(el).localname
            if local in (*MARKERS, "comment") and el.get(W_ID) in ids:
                found.append(f"{name}: {local} {el.get(W_ID)}")
            for attr, value in el.attrib.items():
                if etree.QName(attr).localname in ("paraId", "paraIdParent") and value in para_ids \
                        and local != "p":
                    found.append(f"{name}: {local} names paraId {value}")
                if etree.QName(attr).localname == "durableId" and value in durables:
                    found.append(f"{name}: {local} durableId {value}")
    return found


def durable_ids(data: bytes) -> dict[str, str]:
    """paraId -> durableId in commentsIds."""
    root = parts(data).get("word/commentsIds.xml")
    if root is None:
        return {}
    return {e.get(f"{{{W16CID}}}paraId"): e.get(f"{{{W16CID}}}durableId") for e in root.iter(f"{{{W16CID}}}commentId")}


def shape(rev: DocxReviewer) -> list[tuple]:
    return [(t.id, t.author, t.date, t.text, t.done, t.anchored_text, t.block_id,
             [(r.id, r.author, r.date, r.text, r.done) for r in t.replies]) for t in rev.get_comments()]


def test_deleting_a_thread_takes_its_replies_markers_and_every_entry(schema):  # noqa: F811
    rev = DocxReviewer.open(SUPERDOC, author="Lawyer")
    first, *others = rev.get_comments()
    assert first.replies, "the corpus thread has a reply"
    doomed = [first.id, *(r.id for r in first.replies)]
    comments = {c.id: c for c in rev.all_comments()}
    para_ids = {comments[i].para_id for i in doomed}
    durables = {durable_ids(rev.to_bytes())[p] for p in para_ids}
    assert rev.delete_comments([first.id]) == doomed
    data = rev.to_bytes()
    assert traces(data, doomed, para_ids, durables) == []
    # the other threads are as they were, replies, anchors and all
    again = DocxReviewer.from_bytes(data)
    assert shape(again) == [row for row in shape(DocxReviewer.open(SUPERDOC)) if row[0] != first.id]
    assert set(python_docx_ids(data)) == {c.id for c in DocxReviewer.open(SUPERDOC).all_comments()} - set(doomed)
    assert_parts_valid(schema, data, ["word/document.xml", "word/comments.xml", "word/commentsExtended.xml",
                                      "word/commentsIds.xml", "word/commentsExtensible.xml"])


def python_docx_ids(data: bytes) -> list[int]:
    return [c.comment_id for c in python_docx.Document(io.BytesIO(data)).comments]


def test_deleting_a_reply_keeps_its_thread():
    rev = DocxReviewer.open(SUPERDOC, author="Lawyer")
    thread = rev.get_comments()[1]
    reply = thread.replies[0]
    assert rev.delete_comments([reply.id]) == [reply.id]
    again = DocxReviewer.from_bytes(rev.to_bytes())
    kept = next(t for t in again.get_comments() if t.id == thread.id)
    assert (kept.text, kept.anchored_text, kept.replies) == (thread.text, thread.anchored_text, [])
    assert len(again.get_comments()) == 3


def test_a_reply_to_a_deleted_reply_joins_the_thread_root():
    rev = DocxReviewer.open(ARABIC, author="Lawyer")
    thread = next(t for t in rev.get_comments() if len(t.replies) == 2)
    first, second = thread.replies
    # a chain as some writers make it: the second reply names the first as its parent
    ext = rev.document.package.xml(rev.document.related_part("commentsExtended"))
    ns = etree.QName(ext).namespace
    assert ns == W15_PREVIEW
    entry = next(e for e in ext.iter(f"{{{ns}}}commentEx") if e.get(f"{{{ns}}}paraId") == second.para_id)
    entry.set(f"{{{ns}}}paraIdParent", first.para_id)
    rev.document.invalidate()
    assert [r.id for r in next(t for t in rev.get_comments() if t.id == thread.id).replies] == [first.id, second.id]
    assert rev.delete_comments([first.id]) == [first.id]
    again = DocxReviewer.from_bytes(rev.to_bytes())
    assert [r.id for r in next(t for t in again.get_comments() if t.id == thread.id).replies] == [second.id]
    assert entry.get(f"{{{ns}}}paraIdParent") == thread.para_id


def test_deleting_every_comment_leaves_no_marker(schema):  # noqa: F811
    rev = DocxReviewer.open(ARABIC, author="Lawyer")
    every = [c.id for c in rev.all_comments()]
    assert len(every) > 60
    assert sorted(rev.delete_comments([t.id for t in rev.get_comments()])) == sorted(every)
    data = rev.to_bytes()
    assert DocxReviewer.from_bytes(data).all_comments() == []
    for name, root in parts(data).items():
        assert not any(root.iter(*(W_ID.replace("id", m) for m in MARKERS))), name
    assert python_docx_ids(data) == []
    assert_parts_valid(schema, data, ["word/document.xml", "word/comments.xml"])


def test_an_unknown_comment_deletes_and_edits_nothing():
    rev = DocxReviewer.open(SUPERDOC, author="Lawyer")
    version, saved = rev.document_version(), rev.to_bytes()
    assert rev.delete_comments([987654]) == []
    assert rev.edit_comment(987654, "Nobody reads this.") is False
    assert rev.document_version() == version and rev.to_bytes() == saved


def test_a_deleted_thread_comes_back_with_its_replies_anchors_and_ids_on_undo():
    rev = DocxReviewer.open(SUPERDOC, author="Lawyer")
    records = recording(rev)
    before = shape(rev)
    thread = rev.get_comments()[2]
    round_trip(rev, lambda: rev.delete_comments([thread.id]))  # undone and redone exactly, also by place
    assert [t.id for t in rev.get_comments()] == [row[0] for row in before if row[0] != thread.id]
    rev.engine.set_done(records[0], False)
    assert shape(rev) == before


def test_delete_and_undo_through_the_record_restore_the_same_ids():
    rev = DocxReviewer.open(PANDOC, author="Lawyer")
    records = recording(rev)
    before, saved = shape(rev), rev.to_bytes()
    thread = next(t for t in rev.get_comments() if t.replies)
    rev.delete_comments([thread.id])
    assert thread.id not in [t.id for t in rev.get_comments()]
    rev.engine.set_done(records[-1], False)
    assert shape(rev) == before and rev.to_bytes() == saved
    assert DocxReviewer.from_bytes(rev.to_bytes()).get_comments()[-1].replies[0].id == thread.replies[0].id


def test_editing_a_comment_keeps_its_id_author_date_thread_and_durable_id(schema):  # noqa: F811
    rev = DocxReviewer.open(SUPERDOC, author="Lawyer")
    thread = rev.get_comments()[0]
    durable = durable_ids(rev.to_bytes())[thread.para_id]
    assert rev.edit_comment(thread.id, "Check the cap.\nAnd the carve-outs.")
    data = rev.to_bytes()
    again = DocxReviewer.from_bytes(data)
    edited = again.get_comments()[0]
    assert (edited.id, edited.author, edited.date, edited.done, edited.anchored_text) == \
        (thread.id, thread.author, thread.date, thread.done, thread.anchored_text)
    assert edited.text == "Check the cap.\nAnd the carve-outs."
    assert [(r.id, r.text) for r in edited.replies] == [(r.id, r.text) for r in thread.replies]
    assert edited.para_id == thread.para_id and durable_ids(data)[edited.para_id] == durable
    assert_parts_valid(schema, data, ["word/comments.xml", "word/commentsExtended.xml", "word/commentsIds.xml"])
    assert dict((c.comment_id, c.text) for c in python_docx.Document(io.BytesIO(data)).comments)[thread.id] == \
        "Check the cap.\nAnd the carve-outs."


def test_an_edit_round_trips_through_its_record():
    rev = DocxReviewer.open(SUPERDOC, author="Lawyer")
    reply = rev.get_comments()[1].replies[0]
    round_trip(rev, lambda: rev.edit_comment(reply.id, "Reworded reply."))
    assert rev.get_comments()[1].replies[0].text == "Reworded reply."


def test_editing_where_comments_carry_no_paragraph_ids(schema):  # noqa: F811
    for source in (PANDOC, DOCX4J):
        rev = DocxReviewer.open(source, author="Lawyer")
        thread = rev.get_comments()[-1]
        assert rev.edit_comment(thread.id, "  New words\twith a tab  ")
        data = rev.to_bytes()
        edited = next(t for t in DocxReviewer.from_bytes(data).get_comments() if t.id == thread.id)
        assert edited.text == "  New words\twith a tab  "
        assert [r.id for r in edited.replies] == [r.id for r in thread.replies]
        assert_parts_valid(schema, data, ["word/comments.xml"])


def test_a_new_comment_declares_w14_where_its_ignorable_names_it(schema):  # noqa: F811
    # comments.xml without w14: the declaration has to land on the root, where mc:Ignorable lists it
    rev = DocxReviewer.open(DOCX4J, author="Lawyer")
    block = next(b for b in rev.snapshot().content_blocks if b.text.strip())
    rev.add_comment(block.id, "Declared where it is named.")
    root = parts(rev.to_bytes())["word/comments.xml"]
    assert NS["w14"] in root.nsmap.values()
    assert_parts_valid(schema, rev.to_bytes(), ["word/comments.xml"])
