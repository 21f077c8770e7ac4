"""Strict Open XML documents (ISO/IEC 29500 Strict) open, read and save as standard .docx, with the
lawyer told (issue 15: Word opens them; we refused them)."""

import io
import zipfile

import docx
from conftest import CORPUS
from docbuilder import build_docx, p

from folio_desktop.agents import create_reviewer_bridge, execute_tool_call
from folio_desktop.docx import DocxReviewer

WILD_STRICT = CORPUS / "wild" / "jandira-tech+jubarte-redlines" / "tests" / "corpus" / "broken_ones_two" / \
    "sources" / "file_196.docx"
TO_STRICT = (
    (b"http://schemas.openxmlformats.org/wordprocessingml/2006/main", b"http://purl.oclc.org/ooxml/wordprocessingml/main"),
    (b"http://schemas.openxmlformats.org/officeDocument/2006/", b"http://purl.oclc.org/ooxml/officeDocument/"),
    (b"http://schemas.openxmlformats.org/drawingml/2006/", b"http://purl.oclc.org/ooxml/drawingml/"),
)


def as_strict(data: bytes) -> bytes:
    """The same package with the Strict namespaces and relationship types, as Word saves it."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for info in src.infolist():
            body = src.read(info)
            for transitional, strict in TO_STRICT:
                body = body.replace(transitional, strict)
            z.writestr(info, body)
    return out.getvalue()


def no_strict_names(data: bytes) -> bool:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return not any(b"purl.oclc.org/ooxml" in z.read(n) for n in z.namelist() if n.endswith((".xml", ".rels")))


def test_a_strict_document_reads_edits_and_saves_as_a_standard_one():
    data = as_strict(build_docx(p("The Supplier shall deliver the Goods.", "00000001"),
                                styles='<w:style w:type="paragraph" w:styleId="Normal"><w:name w:val="Normal"/>'
                                       '</w:style>'))
    assert b"purl.oclc.org/ooxml/wordprocessingml/main" in zipfile.ZipFile(io.BytesIO(data)).read("word/document.xml")
    rev = DocxReviewer.from_bytes(data)
    assert "Strict Open XML" in rev.open_warnings[0] and "saved as one" in rev.open_warnings[0]
    assert [b.text for b in rev.snapshot().content_blocks] == ["The Supplier shall deliver the Goods."]
    bridge = create_reviewer_bridge(rev)
    result = execute_tool_call("suggest_changes", {"operations": [
        {"type": "replaceInBlock", "blockId": "00000001", "find": "Goods", "replace": "Products"}]}, bridge)
    assert result["ok"] and result["result"]["applied"]
    saved = rev.to_bytes()
    assert no_strict_names(saved)
    again = DocxReviewer.from_bytes(saved)
    assert again.open_warnings == []
    again.accept_all()
    assert [b.text for b in again.snapshot().content_blocks] == ["The Supplier shall deliver the Products."]
    assert docx.Document(io.BytesIO(saved)).paragraphs[0].text.startswith("The Supplier")


def test_a_strict_document_word_made():
    rev = DocxReviewer.open(WILD_STRICT)
    assert rev.open_warnings and "Strict" in rev.open_warnings[0]
    texts = [b.text for b in rev.snapshot().content_blocks]
    assert len(texts) > 100 and texts[1].startswith("Video provides a powerful way")
    saved = rev.to_bytes()
    assert no_strict_names(saved)
    assert len(docx.Document(io.BytesIO(saved)).paragraphs) > 100  # python-docx reads only transitional
    assert [b.text for b in DocxReviewer.from_bytes(saved).snapshot().content_blocks] == texts
