"""Hostile and broken input: refused with a specific DocxError, quickly, and nothing else escapes."""

import io
import os
import time
import zipfile

import pytest
from conftest import BAD, CORPUS, flip_bytes
from docbuilder import build_docx, p

from folio_desktop.docx import (
    CorruptDocxError,
    DocxError,
    DocxReviewer,
    DocxTooLargeError,
    EncryptedDocxError,
    NotADocxError,
)
from folio_desktop.docx.package import limits
from folio_desktop.docx.package import opc as pkg

ENCRYPTED = {"encrypted-agile-example.docx", "poi_password_is_pass.docx", "poi_protected_agile.docx"}


def _zip_with(entries: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in entries.items():
            z.writestr(name, data)
    return buf.getvalue()


def _valid_entries() -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(build_docx(p("hello")))) as z:
        return {n: z.read(n) for n in z.namelist()}


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.name)
def test_bad_corpus_is_refused_specifically_and_fast(path):
    data = path.read_bytes()
    start = time.monotonic()
    with pytest.raises(DocxError) as info:
        DocxReviewer.from_bytes(data)
    assert time.monotonic() - start < 5.0
    exc = info.value
    assert len(str(exc)) > 20 and "Traceback" not in str(exc)
    # every file there is either password-protected or a fuzzed, broken package
    if path.name in ENCRYPTED:
        assert type(exc) is EncryptedDocxError and "password" in str(exc)
    else:
        assert type(exc) is CorruptDocxError


def test_legacy_doc_and_other_files_are_not_docx():
    cfb_doc = pkg.CFB_MAGIC + b"\x00" * 504 + "WordDocument".encode("utf-16-le") + b"\x00" * 512
    with pytest.raises(NotADocxError, match="legacy Word 97-2003"):
        DocxReviewer.from_bytes(cfb_doc)
    with pytest.raises(NotADocxError, match="PDF"):
        DocxReviewer.from_bytes(b"%PDF-1.7\n...")
    with pytest.raises(NotADocxError, match="empty"):
        DocxReviewer.from_bytes(b"")
    with pytest.raises(NotADocxError, match="RTF"):
        DocxReviewer.from_bytes(b"{\\rtf1\\ansi hello}")


def test_a_zip_that_is_not_word_is_named_as_such():
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("hello.txt", "hi")
    with pytest.raises(NotADocxError, match="not an Office document"):
        DocxReviewer.from_bytes(buf.getvalue())
    # a spreadsheet: package relationships but no Word main part
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("[Content_Types].xml", '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>')
        z.writestr("_rels/.rels", '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"/>')
        z.writestr("xl/workbook.xml", "<workbook/>")
    with pytest.raises(NotADocxError, match="no Word main document"):
        DocxReviewer.from_bytes(buf.getvalue())


def test_missing_main_part_named_by_rels():
    data = build_docx(p("x"))
    buf = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as zin, zipfile.ZipFile(buf, "w") as zout:
        for info in zin.infolist():
            if info.filename != "word/document.xml":
                zout.writestr(info, zin.read(info))
    with pytest.raises(CorruptDocxError, match="word/document.xml"):
        DocxReviewer.from_bytes(buf.getvalue())


def test_truncated_zip_is_corrupt():
    data = (CORPUS / "contract_msdn_eula_legal_numbering.docx").read_bytes()
    for cut in (100, len(data) // 2, len(data) - 10):
        with pytest.raises(CorruptDocxError):
            DocxReviewer.from_bytes(data[:cut])


def _with_document(transform) -> bytes:
    entries = _valid_entries()
    entries["word/document.xml"] = transform(entries["word/document.xml"])
    return _zip_with(entries)


def test_malformed_xml_names_the_part():
    data = _with_document(lambda xml: xml.replace(b"<w:body>", b"<w:body><w:p>"))
    with pytest.raises(CorruptDocxError) as info:
        DocxReviewer.from_bytes(data)
    assert "word/document.xml" in str(info.value)
    assert info.value.part == "word/document.xml"


def test_billion_laughs_is_refused_quickly():
    entities = '<!ENTITY a0 "lol">' + "".join(
        f'<!ENTITY a{i} "{f"&a{i - 1};" * 10}">' for i in range(1, 10)
    )
    head = b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document'
    bomb = _with_document(lambda xml: xml.replace(b">hello<", b">&a9;<").replace(
        head, head.replace(b"<w:document", f"<!DOCTYPE w:document [{entities}]><w:document".encode())))
    start = time.monotonic()
    with pytest.raises(CorruptDocxError, match="DTD"):
        DocxReviewer.from_bytes(bomb)
    assert time.monotonic() - start < 2.0


def test_external_entity_is_never_fetched(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOPSECRET")
    decl = f'<!DOCTYPE w:document [<!ENTITY xxe SYSTEM "file://{secret}">]><w:document'.encode()
    doc = _with_document(lambda xml: xml.replace(b">hello<", b">&xxe;<").replace(b"<w:document", decl, 1))
    with pytest.raises(CorruptDocxError) as info:
        DocxReviewer.from_bytes(doc)
    assert "TOPSECRET" not in str(info.value)


def test_zip_bomb_ratio_is_a_rule_for_xml_parts():
    # 64 MiB of zeros deflates to ~64 KiB: a 1000:1 ratio no real XML part has; refused at open from
    # the declared sizes, before a byte is inflated
    entries = _valid_entries()
    entries["word/document.xml"] = entries["word/document.xml"] + b"<!--" + b" " * (64 * 1024 * 1024) + b"-->"
    start = time.monotonic()
    with pytest.raises(DocxTooLargeError, match="zip bomb"):
        DocxReviewer.from_bytes(_zip_with(entries))
    assert time.monotonic() - start < 2.0
    # a picture or other binary part is only size-capped (a blank EMF compresses as well as a bomb);
    # it is inflated at open for its CRC without being held, and read in full when asked for
    entries = _valid_entries()
    entries["word/media/bomb.bin"] = b"\0" * (64 * 1024 * 1024)
    rev = DocxReviewer.from_bytes(_zip_with(entries))
    assert len(rev.document.package.read("word/media/bomb.bin")) == 64 * 1024 * 1024


def test_limits_on_entry_count_and_part_size(monkeypatch):
    entries = _valid_entries()
    for i in range(50):
        entries[f"customXml/item{i}.xml"] = b"<a/>"
    data = _zip_with(entries)
    monkeypatch.setattr(limits, "MAX_ENTRIES", 40)
    with pytest.raises(DocxTooLargeError, match="entries"):
        DocxReviewer.from_bytes(data)
    monkeypatch.setattr(limits, "MAX_ENTRIES", 10_000)
    monkeypatch.setattr(limits, "MAX_PART_BYTES", 200)
    with pytest.raises(DocxTooLargeError, match="inflates to more than 200 bytes"):
        DocxReviewer.from_bytes(data)
    monkeypatch.setattr(limits, "MAX_PART_BYTES", 256 * 1024 * 1024)
    monkeypatch.setattr(limits, "MAX_TOTAL_BYTES", 300)
    with pytest.raises(DocxTooLargeError, match="in total"):
        DocxReviewer.from_bytes(data)
    monkeypatch.setattr(limits, "MAX_PACKAGE_BYTES", 100)
    with pytest.raises(DocxTooLargeError, match="limit for a document"):
        DocxReviewer.from_bytes(data)


def _nested_tables(depth: int) -> bytes:
    return build_docx("<w:tbl><w:tr><w:tc>" * depth + p("deep") + "</w:tc></w:tr></w:tbl>" * depth)


def test_deeply_nested_xml_is_refused_by_the_parser_and_moderate_nesting_is_read():
    # 300 tables deep passes the XML parser's depth limit: refused as a corrupt part, not a crash
    with pytest.raises(CorruptDocxError, match="depth") as info:
        DocxReviewer.from_bytes(_nested_tables(300))
    assert info.value.part == "word/document.xml"
    # 60 deep is odd but legal: its innermost text is read
    assert "deep" in DocxReviewer.from_bytes(_nested_tables(60)).get_content_as_text()


def test_random_byte_flips_never_escape_as_other_exceptions():
    import random

    data = (CORPUS / "pandoc_comments_with_reply.docx").read_bytes()
    rng = random.Random(1234)
    read = refused = 0
    for _ in range(150):
        try:
            rev = DocxReviewer.from_bytes(flip_bytes(data, rng, 20))
            assert isinstance(rev.get_comments(), list)
            read += 1
        except DocxError as exc:  # anything else escapes and fails the test
            assert type(exc) in (CorruptDocxError, DocxTooLargeError), type(exc)
            refused += 1
    # the flips reach both ways out: some damage is survivable, most is refused
    assert read and refused


def test_from_bytes_rejects_non_bytes():
    with pytest.raises(TypeError):
        DocxReviewer.from_bytes("not bytes")  # type: ignore[arg-type]


def test_open_reports_missing_file(tmp_path):
    with pytest.raises(DocxError, match="does not exist"):
        DocxReviewer.open(tmp_path / "nope.docx")
    with pytest.raises(DocxError, match="folder"):
        DocxReviewer.open(tmp_path)
    assert os.path.isdir(tmp_path)
