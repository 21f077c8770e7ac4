"""CommentStore writes comments the way Word does: comments.xml, commentsExtended (threads, done),
commentsIds, range markers and reference runs (spec §2.9, §2.11, §2.12, §3.6, §7.1).

Every scenario runs on a real corpus document, saves with Package.to_bytes(), reopens the bytes with
our reader and with python-docx, and validates every part that was written against the ISO/IEC
29500 transitional schema plus Microsoft's w14/w15/w16cid/w16cex schemas (markup compatibility
applied first, as /work/shared/ooxml-schemas/README.md says)."""

from __future__ import annotations

import io
import re
import time
import zipfile
from pathlib import Path

import docx as python_docx
import pytest
from conftest import CORPUS
from lxml import etree

from folio_desktop.docx import DocxReviewer
from folio_desktop.docx.editing.comment_store import (
    MAX_COMMENT_ID,
    RT_COMMENTS,
    RT_COMMENTS_EXTENDED,
    RT_COMMENTS_IDS,
    CommentStore,
    clean_text,
)

SCHEMAS = CORPUS.parent / "ooxml-schemas"
W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
W14 = "http://schemas.microsoft.com/office/word/2010/wordml"
W15 = "http://schemas.microsoft.com/office/word/2012/wordml"
W15_PREVIEW = "http://schemas.microsoft.com/office/word/2010/11/wordml"
W16CID = "http://schemas.microsoft.com/office/word/2016/wordml/cid"
W16CEX = "http://schemas.microsoft.com/office/word/2018/wordml/cex"
MC = "http://schemas.openxmlformats.org/markup-compatibility/2006"
S_NS = "http://schemas.openxmlformats.org/officeDocument/2006/sharedTypes"
CT = "http://schemas.openxmlformats.org/package/2006/content-types"
REL = "http://schemas.openxmlformats.org/package/2006/relationships"
NS = {"w": W, "w14": W14, "w15": W15, "w16cid": W16CID, "w16cex": W16CEX}

EULA = "contract_msdn_eula_legal_numbering.docx"  # no comment parts, no comment styles, no w14 declared
SUPERDOC = "superdoc_word_comments_replies_tracked.docx"  # Word 365: all four comment parts, replies
PANDOC = "pandoc_comments_with_reply.docx"  # Word 2013: no commentsIds, a multi-paragraph comment
ARABIC = "openxmlsdk_comment066_arabic_threaded_comments.docx"  # commentsExtended in the 2013-preview namespace
DOCX4J = "docx4j_invoice_databinding_sdt_comments.docx"  # comments.xml without w14; unranged comment 0


# -- schema validation ------------------------------------------------------------------------------


def _shim(src: Path, out_dir: Path) -> Path:
    """A copy of a Microsoft extension schema that compiles against the 2016 ISO wml.xsd.

    Those schemas were written against ECMA-376 1st edition, where ST_OnOff and ST_String lived in
    the w namespace; ISO 29500-4:2016 moved them to sharedTypes (same value spaces). word16.xsd is
    not shipped; wml-2018.xsd is the w16 namespace it stands for."""
    text = src.read_text()
    text = text.replace("w12:ST_OnOff", "s:ST_OnOff").replace("w12:ST_String", "s:ST_String")
    if 'xmlns:s="' not in text:
        text = text.replace("xmlns:w12=", f'xmlns:s="{S_NS}" xmlns:w12=', 1)
    imports = (f'<xsd:import namespace="{S_NS}" '
               f'schemaLocation="{(SCHEMAS / "ISO-IEC29500-4_2016" / "shared-commonSimpleTypes.xsd").as_uri()}"/>')
    text = text.replace('schemaLocation="word12.xsd"/>',
                        f'schemaLocation="{(SCHEMAS / "microsoft" / "word12.xsd").as_uri()}"/>' + imports, 1)
    text = text.replace('schemaLocation="word16.xsd"', f'schemaLocation="{(out_dir / "wml-2018.xsd").as_uri()}"')
    out = out_dir / src.name
    out.write_text(text)
    return out


@pytest.fixture(scope="module")
def schema(tmp_path_factory) -> etree.XMLSchema:
    out_dir = tmp_path_factory.mktemp("xsd")
    ms = SCHEMAS / "microsoft"
    shimmed = {name: _shim(ms / name, out_dir)
               for name in ("wml-2010.xsd", "wml-2012.xsd", "wml-cid-2016.xsd", "wml-2018.xsd", "wml-cex-2018.xsd")}
    imports = [(W, SCHEMAS / "ISO-IEC29500-4_2016" / "wml.xsd"), (W14, shimmed["wml-2010.xsd"]),
               (W15, shimmed["wml-2012.xsd"]), (W16CID, shimmed["wml-cid-2016.xsd"]),
               (W16CEX, shimmed["wml-cex-2018.xsd"])]
    wrapper = ('<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:folio:all">'
               + "".join(f'<xsd:import namespace="{ns}" schemaLocation="{path.as_uri()}"/>' for ns, path in imports)
               + "</xsd:schema>")
    return etree.XMLSchema(etree.fromstring(wrapper.encode(), base_url=(out_dir / "all.xsd").as_uri()))


def mce_view(root: etree._Element) -> etree._Element:
    """What a consumer that knows only the schemas sees: mc:AlternateContent replaced by its
    Fallback, elements and attributes of the root's mc:Ignorable namespaces dropped (except the
    root's own namespace: commentsEx/commentsIds list themselves as ignorable), mc attributes gone."""
    ignorable = {root.nsmap.get(p) for p in (root.get(f"{{{MC}}}Ignorable") or "").split()}
    ignorable.discard(etree.QName(root).namespace)
    for ac in list(root.iter(f"{{{MC}}}AlternateContent")):
        parent, fallback = ac.getparent(), ac.find(f"{{{MC}}}Fallback")
        at = parent.index(ac)
        for child in list(fallback) if fallback is not None else []:
            parent.insert(at, child)
            at += 1
        parent.remove(ac)
    for el in list(root.iter()):
        if not isinstance(el.tag, str):
            continue
        if etree.QName(el).namespace in ignorable and el.getparent() is not None:
            el.getparent().remove(el)
            continue
        for name in list(el.attrib):
            if name.startswith("{") and etree.QName(name).namespace in ignorable | {MC}:
                del el.attrib[name]
    return root


def _rename_namespace(root: etree._Element, old: str, new: str) -> etree._Element:
    for el in root.iter():
        if isinstance(el.tag, str) and el.tag.startswith(f"{{{old}}}"):
            el.tag = f"{{{new}}}" + el.tag.split("}", 1)[1]
        for name in list(el.attrib):
            if name.startswith(f"{{{old}}}"):
                el.set(f"{{{new}}}" + name.split("}", 1)[1], el.attrib.pop(name))
    return root


def assert_parts_valid(schema: etree.XMLSchema, data: bytes, names) -> None:
    """Each named part validates; a commentsEx written in the Word 2013 preview namespace is checked
    structurally against the w15 schema (no schema was ever published for that namespace)."""
    errors = {}
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        for name in names:
            root = etree.fromstring(z.read(name))
            if etree.QName(root).namespace == W15_PREVIEW:
                root = _rename_namespace(root, W15_PREVIEW, W15)
            if not schema.validate(mce_view(root)):
                errors[name] = [e.message for e in schema.error_log][:3]
    assert not errors


def written_xml_parts(pkg) -> list[str]:
    """Parts the package will serialize from trees: every part we touched (rels and content types aside)."""
    return sorted(n for n in pkg.dirty if n.endswith(".xml") and not n.startswith("[") and "/_rels/" not in n)


# -- helpers ----------------------------------------------------------------------------------------


def open_store(name: str, **kwargs) -> tuple[DocxReviewer, CommentStore]:
    rev = DocxReviewer.open(CORPUS / name)
    return rev, CommentStore(rev.document, **kwargs)


def threads_json(rev: DocxReviewer) -> list[dict]:
    out = []
    for c in rev.get_comments():
        out.append({"id": c.id, "author": c.author, "text": c.text, "done": c.done, "quote": c.anchored_text,
                    "replies": [(r.id, r.author, r.text, r.done) for r in c.replies]})
    return out


def part_root(data: bytes, name: str) -> etree._Element:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return etree.fromstring(z.read(name))


def python_docx_comments(data: bytes) -> dict[int, tuple[str, str]]:
    return {c.comment_id: (c.author, c.text) for c in python_docx.Document(io.BytesIO(data)).comments}


def marker_ids(root: etree._Element, tag: str) -> list[str]:
    return root.xpath(f"//w:{tag}/@w:id", namespaces=NS)


def all_para_ids(data: bytes) -> list[str]:
    out = []
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        for name in z.namelist():
            if name.endswith(".xml") and not name.startswith("["):
                out.extend(etree.fromstring(z.read(name)).xpath("//w:p/@w14:paraId", namespaces=NS))
    return out


def body_run(doc, text: str) -> etree._Element:
    for t in doc.body.iter(f"{{{W}}}t"):
        if t.text == text:
            return t.getparent()
    raise AssertionError(f"no run with text {text!r}")


def anchor_around(store: CommentStore, comment_id: int, run: etree._Element) -> None:
    start, end, ref = store.anchor_markers(comment_id)
    run.addprevious(start)
    run.addnext(end)
    end.addnext(ref)
    store.mark_story_dirty(store.doc.main_part)


# -- ids --------------------------------------------------------------------------------------------


def test_ids_are_clock_seeded_int32_and_skip_every_id_in_use():
    _rev, store = open_store(SUPERDOC, id_seed=3)
    # comments 3, 4, 7, 8 and revisions 5, 6, 9 are taken: the cursor walks past them
    assert [store.allocate_id(), store.allocate_id()] == [10, 11]

    _rev, store = open_store(SUPERDOC, id_seed=MAX_COMMENT_ID)
    assert store.allocate_id() == MAX_COMMENT_ID
    assert store.allocate_id() == 10  # wrapped to 0; 0-9 are all in use

    _rev, store = open_store(SUPERDOC)
    first = store.allocate_id()
    assert 0 <= first <= MAX_COMMENT_ID
    assert abs(first - int(time.time()) % (MAX_COMMENT_ID + 1)) < 600  # seeded by the clock (seconds)
    assert store.allocate_id() == first + 1


def test_clean_text_keeps_what_xml_can_carry():
    assert clean_text("a\r\nb\rc\x00\x07d\ufffe") == "a\nb\ncd"


# -- a document without any comment part ----------------------------------------------------------


def test_first_comment_creates_parts_and_threads_round_trip(schema):
    rev, store = open_store(EULA)
    doc = rev.document
    title = "MASTER END-USER LICENSE AGREEMENT"
    root_id = store.add("Check the title.\n\n  Indented\tand tabbed", "Reviewer", initials="RV",
                        date="2024-05-06T07:08:09Z")
    anchor_around(store, root_id, body_run(doc, title))
    reply_id = store.reply(root_id, "Agreed.", "Lawyer")
    nested_id = store.reply(reply_id, "A reply to the reply joins the root's thread.", "AI")
    assert store.set_done(root_id, True)
    assert len({root_id, reply_id, nested_id}) == 3
    assert all(0 <= i <= MAX_COMMENT_ID for i in (root_id, reply_id, nested_id))

    data = doc.package.to_bytes()
    names = set(zipfile.ZipFile(io.BytesIO(data)).namelist())
    assert {"word/comments.xml", "word/commentsExtended.xml", "word/commentsIds.xml"} <= names
    overrides = {el.get("PartName"): el.get("ContentType")
                 for el in part_root(data, "[Content_Types].xml").iter(f"{{{CT}}}Override")}
    assert overrides["/word/comments.xml"].endswith("wordprocessingml.comments+xml")
    assert overrides["/word/commentsExtended.xml"].endswith("wordprocessingml.commentsExtended+xml")
    assert overrides["/word/commentsIds.xml"].endswith("wordprocessingml.commentsIds+xml")
    rels = {el.get("Type"): el.get("Target")
            for el in part_root(data, "word/_rels/document.xml.rels").iter(f"{{{REL}}}Relationship")}
    assert rels[RT_COMMENTS] == "comments.xml"
    assert rels[RT_COMMENTS_EXTENDED] == "commentsExtended.xml"
    assert rels[RT_COMMENTS_IDS] == "commentsIds.xml"

    reopened = DocxReviewer.from_bytes(data)
    assert threads_json(reopened) == [{
        "id": root_id, "author": "Reviewer", "text": "Check the title.\n\n  Indented\tand tabbed", "done": True,
        "quote": title,
        "replies": [(reply_id, "Lawyer", "Agreed.", False),
                    (nested_id, "AI", "A reply to the reply joins the root's thread.", False)],
    }]
    # the replies carry their own markers on the root's range
    assert {c.id: c.anchored_text for c in reopened.all_comments()} == {root_id: title, reply_id: title,
                                                                      nested_id: title}
    comment = part_root(data, "word/comments.xml")[0]
    assert comment.get(f"{{{W}}}date") == "2024-05-06T07:08:09Z" and comment.get(f"{{{W}}}initials") == "RV"
    assert comment.xpath("w:p[1]/w:r[1]/w:annotationRef", namespaces=NS)
    assert not comment.xpath(".//w:pStyle | .//w:rStyle", namespaces=NS)  # the document defines neither style
    reply_date = part_root(data, "word/comments.xml")[1].get(f"{{{W}}}date")
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", reply_date)

    assert python_docx_comments(data) == {
        root_id: ("Reviewer", "Check the title.\n\n  Indented\tand tabbed"),
        reply_id: ("Lawyer", "Agreed."),
        nested_id: ("AI", "A reply to the reply joins the root's thread."),
    }
    assert_parts_valid(schema, data, ["word/comments.xml", "word/commentsExtended.xml", "word/commentsIds.xml",
                                      "word/document.xml"])


def test_reply_to_a_block_level_range_puts_its_reference_in_a_paragraph(schema):
    rev, store = open_store(EULA)
    doc = rev.document
    first = doc.body[0]
    root_id = store.add("Whole paragraph", "Reviewer")
    start, end, ref = store.anchor_markers(root_id)
    first.addprevious(start)  # range markup between paragraphs is allowed (CT_Body)
    first.addnext(end)
    first.append(ref)
    store.mark_story_dirty(doc.main_part)
    reply_id = store.reply(root_id, "Seen", "Lawyer")

    assert end.getnext().tag == f"{{{W}}}commentRangeEnd" and end.getnext().get(f"{{{W}}}id") == str(reply_id)
    assert first[-1].xpath("string(w:commentReference/@w:id)", namespaces=NS) == str(reply_id)
    data = doc.package.to_bytes()
    reopened = DocxReviewer.from_bytes(data)
    [thread] = reopened.get_comments()
    assert thread.id == root_id and [r.id for r in thread.replies] == [reply_id]
    assert_parts_valid(schema, data, written_xml_parts(doc.package))


# -- Word documents with threads ------------------------------------------------------------------


def test_word365_threads_reply_resolve_reopen_remove(schema):
    rev, store = open_store(SUPERDOC)
    doc = rev.document
    before = threads_json(rev)
    assert [t["id"] for t in before] == [0, 3, 7]

    new_id = store.reply(1, "Reply to the reply", "Tester", initials="T")  # 1 replies to 0
    assert store.set_done(3, True)
    assert store.set_done(7, True) and store.set_done(7, False)
    store.remove(8)

    # Word-style markers: right after the root's start and end, then the reference run
    p = doc.body[0]
    kinds = [(etree.QName(el).localname, el.get(f"{{{W}}}id") or el.xpath("string(w:commentReference/@w:id)",
                                                                           namespaces=NS))
             for el in p if etree.QName(el).localname != "pPr"]
    nid = str(new_id)
    assert kinds[kinds.index(("commentRangeStart", "0")) + 1] == ("commentRangeStart", nid)
    at = kinds.index(("commentRangeEnd", "0"))
    assert kinds[at + 1: at + 3] == [("commentRangeEnd", nid), ("r", nid)]

    data = doc.package.to_bytes()
    reopened = DocxReviewer.from_bytes(data)
    expected = [dict(t) for t in before]
    expected[0]["replies"] = [*before[0]["replies"], (new_id, "Tester", "Reply to the reply", False)]
    expected[1]["done"] = True  # only the root: its reply keeps done=0
    expected[2]["replies"] = []  # reply 8 removed; 7 resolved then reopened
    assert threads_json(rev) == expected  # the live document sees it at once (invalidate)
    assert threads_json(reopened) == expected
    assert {c.id: c.anchored_text for c in reopened.all_comments()}[new_id] == "document"

    ids = part_root(data, "word/commentsIds.xml")
    ext = part_root(data, "word/commentsExtended.xml")
    cex = part_root(data, "word/commentsExtensible.xml")
    doc_root = part_root(data, "word/document.xml")
    assert "68F3A4D5" not in ids.xpath("//@w16cid:paraId", namespaces=NS)  # reply 8's entries are gone
    assert "68F3A4D5" not in ext.xpath("//@w15:paraId", namespaces=NS)
    assert "2518836C" not in cex.xpath("//@w16cex:durableId", namespaces=NS)
    assert "8" not in marker_ids(doc_root, "commentRangeStart") + marker_ids(doc_root, "commentReference")
    new_durable = ids[-1].get(f"{{{W16CID}}}durableId")
    assert cex[-1].get(f"{{{W16CEX}}}durableId") == new_durable and int(new_durable, 16) < 0x7FFFFFFF
    assert set(python_docx_comments(data)) == {0, 1, 3, 4, 7, new_id}
    assert_parts_valid(schema, data, ["word/comments.xml", "word/commentsExtended.xml", "word/commentsIds.xml",
                                      "word/commentsExtensible.xml", "word/document.xml"])


def test_word2013_document_gains_comment_ids_for_every_comment(schema):
    rev, store = open_store(PANDOC)
    doc = rev.document
    before = threads_json(rev)
    nested = store.reply(4, "Done that too.", "Tester")  # 4 is a reply to 3
    multi = store.reply(2, "On the multi-paragraph comment", "Tester")
    new_root = store.add("Unanchored note", "Tester")
    assert store.set_done(4, True)

    data = doc.package.to_bytes()
    reopened = DocxReviewer.from_bytes(data)
    expected = [dict(t) for t in before]
    expected[2]["replies"] = [(multi, "Tester", "On the multi-paragraph comment", False)]
    expected[3]["replies"] = [(4, "Jesse Rosenthal", "Do something else.", True),
                              (nested, "Tester", "Done that too.", False)]
    expected.append({"id": new_root, "author": "Tester", "text": "Unanchored note", "done": False, "quote": "",
                     "replies": []})
    assert threads_json(reopened) == expected

    ext = part_root(data, "word/commentsExtended.xml")
    parent = {e.get(f"{{{W15}}}paraId"): e.get(f"{{{W15}}}paraIdParent") for e in ext}
    comments = part_root(data, "word/comments.xml")
    last_pid = {int(c.get(f"{{{W}}}id")): c.xpath("string(w:p[last()]/@w14:paraId)", namespaces=NS)
                for c in comments}
    assert parent[last_pid[multi]] == "475FE386"  # the root's LAST paragraph
    assert parent[last_pid[nested]] == "2596C45C"  # the thread root, not reply 4
    ids = part_root(data, "word/commentsIds.xml")
    assert sorted(e.get(f"{{{W16CID}}}paraId") for e in ids) == sorted(last_pid.values())
    durables = [e.get(f"{{{W16CID}}}durableId") for e in ids]
    assert len(set(durables)) == len(durables) and all(0 < int(d, 16) < 0x7FFFFFFF for d in durables)
    assert set(python_docx_comments(data)) == {0, 1, 2, 3, 4, nested, multi, new_root}
    assert_parts_valid(schema, data, written_xml_parts(doc.package))


def test_preview_namespace_comments_extended_stays_in_its_namespace(schema):
    rev, store = open_store(ARABIC)
    doc = rev.document
    before = threads_json(rev)
    busiest = max(before, key=lambda t: len(t["replies"]))
    last_reply = busiest["replies"][-1][0]
    new_id = store.reply(last_reply, "پاسخ تازه", "مرور", initials="م")
    assert store.set_done(busiest["id"], not busiest["done"])
    first_reply = busiest["replies"][0]
    assert store.set_done(first_reply[0], True)

    data = doc.package.to_bytes()
    ext = part_root(data, "word/commentsExtended.xml")
    assert etree.QName(ext).namespace == W15_PREVIEW
    assert not ext.xpath("//*[namespace-uri()=$ns]", ns=W15)
    reopened = DocxReviewer.from_bytes(data)
    expected = [dict(t) for t in before]
    at = before.index(busiest)
    replies = [(first_reply[0], first_reply[1], first_reply[2], True), *busiest["replies"][1:],
               (new_id, "مرور", "پاسخ تازه", False)]
    expected[at] = {**busiest, "done": not busiest["done"], "replies": replies}
    assert threads_json(reopened) == expected
    quotes = {c.id: c.anchored_text for c in reopened.all_comments()}
    assert quotes[new_id] == quotes[busiest["id"]] != ""
    assert new_id in python_docx_comments(data)
    assert_parts_valid(schema, data, written_xml_parts(doc.package))


def test_comments_without_w14_and_without_ranges(schema):
    rev, store = open_store(DOCX4J)
    doc = rev.document
    to_unranged = store.reply(0, "Reply on an unranged comment", "Tester")
    to_block = store.reply(1, "Reply on a block-level range", "Tester")

    ref_run = doc.root.xpath("//w:r[w:commentReference/@w:id='0']", namespaces=NS)[0]
    assert ref_run.getnext().xpath("string(w:commentReference/@w:id)", namespaces=NS) == str(to_unranged)
    root_start = doc.root.xpath("//w:commentRangeStart[@w:id='1']", namespaces=NS)[0]
    assert root_start.getnext().get(f"{{{W}}}id") == str(to_block)
    assert root_start.getnext().get(f"{{{W}}}displacedByCustomXml") == "next"

    data = doc.package.to_bytes()
    comments = part_root(data, "word/comments.xml")
    assert comments.nsmap.get("w14") == W14 and "w14" in comments.get(f"{{{MC}}}Ignorable").split()
    reopened = DocxReviewer.from_bytes(data)
    threads = {t["id"]: t for t in threads_json(reopened)}
    assert [r[0] for r in threads[0]["replies"]] == [to_unranged]
    assert [r[0] for r in threads[1]["replies"]] == [to_block]
    quotes = {c.id: c.anchored_text for c in reopened.all_comments()}
    assert quotes[to_block] == quotes[1] != ""
    assert set(python_docx_comments(data)) == {0, 1, to_unranged, to_block}
    assert_parts_valid(schema, data, written_xml_parts(doc.package))


# -- remove, errors, uniqueness -----------------------------------------------------------------------


def test_remove_undoes_what_add_and_reply_wrote(schema):
    rev, store = open_store(PANDOC)
    doc = rev.document
    before = threads_json(rev)
    original = doc.package.to_bytes()
    root_id = store.add("Temporary", "AI")
    anchor_around(store, root_id, body_run(doc, "comment in a comment"))
    reply_id = store.reply(root_id, "Temporary reply", "AI")
    existing_reply = store.reply(3, "Temporary reply on an old thread", "AI")
    for cid in (existing_reply, reply_id, root_id):
        store.remove(cid)

    data = doc.package.to_bytes()
    assert threads_json(DocxReviewer.from_bytes(data)) == before
    for name in ("word/comments.xml", "word/commentsExtended.xml"):
        assert etree.tostring(part_root(data, name)) == etree.tostring(part_root(original, name))
    doc_root = part_root(data, "word/document.xml")
    for tag in ("commentRangeStart", "commentRangeEnd", "commentReference"):
        assert marker_ids(doc_root, tag) == marker_ids(part_root(original, "word/document.xml"), tag)
    ids = part_root(data, "word/commentsIds.xml")  # created by the first add, backfilled, now back to five
    assert len(ids) == 5
    assert_parts_valid(schema, data, written_xml_parts(doc.package))


def test_unknown_ids():
    rev, store = open_store(SUPERDOC)
    with pytest.raises(KeyError):
        store.reply(424242, "x", "AI")
    with pytest.raises(KeyError):
        store.add("x", "AI", parent_id=424242)
    assert store.set_done(424242, True) is False
    store.remove(424242)
    assert not rev.document.package.dirty


def test_para_and_durable_ids_are_unique_in_the_package(schema):
    rev, store = open_store(PANDOC)
    made = [store.add(f"note {n}\nsecond paragraph", "AI") for n in range(40)]
    made += [store.reply(made[n], f"reply {n}", "AI") for n in range(0, 40, 4)]
    data = rev.document.package.to_bytes()
    para_ids = all_para_ids(data)
    assert len(para_ids) == len(set(para_ids))
    assert all(0 < int(pid, 16) < 0x80000000 for pid in para_ids)
    text_ids = part_root(data, "word/comments.xml").xpath("//w:p/@w14:textId", namespaces=NS)
    assert all(0 < int(t, 16) < 0x80000000 for t in text_ids)
    durables = part_root(data, "word/commentsIds.xml").xpath("//@w16cid:durableId", namespaces=NS)
    assert len(durables) == len(set(durables)) == 5 + len(made)
    assert len(set(made)) == len(made)
    assert set(python_docx_comments(data)) >= set(made)
    assert_parts_valid(schema, data, written_xml_parts(rev.document.package))
