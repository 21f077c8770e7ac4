"""Documents with parts the engine does not read itself (issue 15): an altChunk's imported content is
left as it stands by the comment tools, and its placeholder, which read_document shows, is found by
find_text (as a place that cannot be edited)."""

import io
import zipfile

from conftest import ok
from docbuilder import build_docx, p

from folio_desktop.agents import create_reviewer_bridge, execute_tool_call
from folio_desktop.docx import DocxReviewer

AFCHUNK = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/aFChunk"
MAIN_XML = "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"


def with_alt_chunk(name: str, content_type: str, payload: bytes) -> bytes:
    """Two clauses with a w:altChunk between them whose part holds payload."""
    data = build_docx(p("Clause one.", "00000001") + '<w:altChunk r:id="rIdAlt"/>' + p("Clause two.", "00000002"))
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for info in src.infolist():
            body = src.read(info)
            if info.filename == "word/_rels/document.xml.rels":
                body = body.replace(b"</Relationships>", f'<Relationship Id="rIdAlt" Type="{AFCHUNK}" '
                                    f'Target="{name}"/></Relationships>'.encode())
            if info.filename == "[Content_Types].xml":
                body = body.replace(b"</Types>", f'<Override PartName="/word/{name}" ContentType="{content_type}"/>'
                                    "</Types>".encode())
            z.writestr(info, body)
        z.writestr(f"word/{name}", payload)
    return out.getvalue()


def test_comment_on_a_document_whose_alt_chunk_is_a_whole_docx():
    """An altChunk may be a whole .docx declared as a main document part (a zip, not XML): adding a
    comment scans parts for paragraph ids and used to read it as XML and fail."""
    data = with_alt_chunk("chunk.docx", MAIN_XML, build_docx(p("Imported clause.")))
    rev = DocxReviewer.from_bytes(data)
    bridge = create_reviewer_bridge(rev)
    ok(execute_tool_call("add_comment", {"blockId": "00000001", "text": "Check this clause."}, bridge))
    saved = DocxReviewer.from_bytes(rev.to_bytes())
    assert [c.text for c in saved.all_comments()] == ["Check this clause."]
    with zipfile.ZipFile(io.BytesIO(rev.to_bytes())) as z:  # the chunk is kept as it was
        assert z.read("word/chunk.docx") == zipfile.ZipFile(io.BytesIO(data)).read("word/chunk.docx")


def test_find_text_finds_the_placeholder_read_document_shows():
    data = with_alt_chunk("afchunk.mht", "message/rfc822", b"MIME-Version: 1.0\r\n\r\n<html><p>Imported</p></html>")
    rev = DocxReviewer.from_bytes(data)
    bridge = create_reviewer_bridge(rev)
    shown = ok(execute_tool_call("read_document", {}, bridge))
    assert "[Unsupported w:altChunk content]" in str(shown)
    found = ok(execute_tool_call("find_text", {"query": "unsupported w:altChunk"}, bridge))
    assert found["totalMatches"] == 1
    match = found["blocks"][0]  # the block the match is in, its note said once
    assert match["opaque"] is True and match["blockId"].startswith("opaque-") and "range" not in match["matches"][0]
    assert "cannot be the target of an edit" in match["note"]
    # and it is not a place to edit, in words that do not send the model to re-read it
    edit = ok(execute_tool_call("suggest_changes", {"operations": [
        {"type": "replaceBlock", "blockId": match["blockId"], "text": "Supported"}]}, bridge))
    assert edit["issues"][0]["code"] == "unsupportedBlock"
    assert "w:altChunk the editor cannot read or change" in edit["skipped"][0]["reason"]
    # ordinary matches still carry their ranges
    clause = ok(execute_tool_call("find_text", {"query": "Clause"}, bridge))
    assert clause["totalMatches"] == 2 and all("range" in m for b in clause["blocks"] for m in b["matches"])
