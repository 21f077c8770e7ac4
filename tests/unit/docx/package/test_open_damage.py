"""Everything is checked at open (issue 15, points 4 and 5): every entry's CRC and every XML part's
well-formedness; damage in an essential part refuses the open naming it, damage elsewhere opens with
a warning and never fails a later step; zip bombs are refused from their declared sizes in little
memory; our own output is never held to the input ratio rule."""

import io
import json
import random
import struct
import subprocess
import sys
import textwrap
import zipfile

import pytest
from conftest import CORPUS, ROOT, flip_bytes
from docbuilder import build_docx, p

from folio_desktop.cli import main
from folio_desktop.docx import CorruptDocxError, DocxError, DocxReviewer

PILOT = CORPUS / "contract_commonpaper_pilot_agreement.docx"  # theme, fonts, settings, header, notes, customXml


def _local_body(data: bytes, name: str) -> tuple[int, int]:
    """Where an entry's compressed bytes lie in the file."""
    info = zipfile.ZipFile(io.BytesIO(data)).getinfo(name)
    start = info.header_offset
    n, m = struct.unpack("<HH", data[start + 26:start + 30])
    body = start + 30 + n + m
    return body, body + info.compress_size


def _flip_inside(data: bytes, name: str) -> bytes:
    """One byte of the entry's deflated stream inverted, a third of the way in."""
    start, end = _local_body(data, name)
    at = start + (end - start) // 3
    out = bytearray(data)
    out[at] ^= 0xFF
    return bytes(out)


def _with_crc(data: bytes, name: str, crc: int) -> bytes:
    """The CRC-32 of the (last) entry of that name changed in its local header and its
    central-directory record, data intact."""
    out = bytearray(data)
    z = zipfile.ZipFile(io.BytesIO(data))
    info = z.getinfo(name)
    out[info.header_offset + 14:info.header_offset + 18] = struct.pack("<I", crc)
    pos = z.start_dir
    while out[pos:pos + 4] == b"PK\x01\x02":
        n, m, k = struct.unpack("<HHH", out[pos + 28:pos + 34])
        offset = struct.unpack("<I", out[pos + 42:pos + 46])[0]
        if out[pos + 46:pos + 46 + n].decode() == name and offset == info.header_offset:
            out[pos + 16:pos + 20] = struct.pack("<I", crc)
        pos += 46 + n + m + k
    return bytes(out)


def _replaced(data: bytes, name: str, content: bytes) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as zin, zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            zout.writestr(info, content if info.filename == name else zin.read(info))
    return buf.getvalue()


def _entry(data: bytes, name: str) -> bytes:
    return zipfile.ZipFile(io.BytesIO(data)).read(name)


@pytest.mark.parametrize("part", ["word/theme/theme1.xml", "word/fontTable.xml", "word/settings.xml",
                                  "word/webSettings.xml", "customXml/item1.xml", "docProps/core.xml"])
def test_damaged_non_essential_part_opens_with_a_warning_and_saves_either_way(part, tmp_path):
    data = _flip_inside(PILOT.read_bytes(), part)
    rev = DocxReviewer.from_bytes(data)
    assert rev.list_stories() and rev.get_changes() is not None and rev.get_comments() is not None
    rev.accept_all()
    rev.save(tmp_path / "kept.docx")
    assert len(rev.open_warnings) == 1 and part in rev.open_warnings[0], rev.open_warnings
    rev.save(tmp_path / "rebuilt.docx", damaged_parts="rebuild")
    salvage = rev.document.package.damaged[part].salvage
    kept = (tmp_path / "kept.docx").read_bytes()
    assert _entry(kept, part) == salvage  # as it was read, CRC now right for those bytes
    rebuilt = DocxReviewer.open(tmp_path / "rebuilt.docx")
    assert rebuilt.open_warnings == []
    assert rebuilt.get_content_as_text() == DocxReviewer.from_bytes(kept).get_content_as_text()


def test_damage_found_at_open_lets_the_layout_run(qapp):
    from folio_desktop.layout import layout_document

    data = PILOT.read_bytes()
    for part in ("word/theme/theme1.xml", "word/fontTable.xml", "word/settings.xml"):
        data = _flip_inside(data, part)
    rev = DocxReviewer.from_bytes(data)
    clean = layout_document(DocxReviewer.from_bytes(PILOT.read_bytes()).document)
    assert layout_document(rev.document).page_count >= clean.page_count - 1
    assert len(rev.open_warnings) == 3
    for part in ("word/theme/theme1.xml", "word/fontTable.xml", "word/settings.xml"):
        assert sum(part in w for w in rev.open_warnings) == 1


def test_a_crc_mismatch_is_found_at_open_and_the_content_kept(tmp_path):
    original = PILOT.read_bytes()
    data = _with_crc(original, "word/settings.xml", 0x12345678)
    rev = DocxReviewer.from_bytes(data)
    rev.save(tmp_path / "out.docx")
    assert len(rev.open_warnings) == 1
    assert "word/settings.xml" in rev.open_warnings[0] and "CRC" in rev.open_warnings[0]
    out = (tmp_path / "out.docx").read_bytes()
    assert _entry(out, "word/settings.xml") == _entry(original, "word/settings.xml")
    assert DocxReviewer.from_bytes(out).open_warnings == []


def test_the_fuzz_file_whose_theme_is_damaged_opens_with_a_warning_and_saves(tmp_path):
    """A real fuzz file: it opened and was reviewed, then failed at save (theme CRC)."""
    path = CORPUS / "wild" / "apache+poi" / "test-data" / "document" / \
        "clusterfuzz-testcase-minimized-POIXWPFFuzzer-6733884933668864.docx"
    rev = DocxReviewer.open(path)
    rev.list_stories()
    rev.save(tmp_path / "out.docx")
    assert rev.open_warnings == [
        "The theme word/theme/theme1.xml is damaged (its CRC-32 check failed: the bytes are not the ones "
        "that were written); the document opened without it, and it is kept as it was when you save, "
        "or rebuilt minimal if you choose."]
    assert DocxReviewer.open(tmp_path / "out.docx").get_content_as_text() == rev.get_content_as_text()


def test_damage_in_an_essential_part_refuses_the_open_naming_it():
    original = PILOT.read_bytes()
    for part in ("word/header1.xml", "word/footnotes.xml", "word/document.xml", "word/styles.xml"):
        with pytest.raises(CorruptDocxError) as info:
            DocxReviewer.from_bytes(_flip_inside(original, part))
        assert info.value.part == part and part in str(info.value)
        with pytest.raises(CorruptDocxError, match="CRC") as info:
            DocxReviewer.from_bytes(_with_crc(original, part, 0))
        assert info.value.part == part
    header = _entry(original, "word/header1.xml").replace(b"</w:p>", b"</w:q>", 1)
    with pytest.raises(CorruptDocxError, match="word/header1.xml is not well-formed"):
        DocxReviewer.from_bytes(_replaced(original, "word/header1.xml", header))


def test_byte_flip_mutants_either_refuse_at_open_or_survive_every_later_step():
    """The issue's sweep (16 of 200 mutants opened, then failed at list_stories, layout or save; on
    this document 98 of 200 did). 80 mutants here, to keep the suite quick."""
    original = PILOT.read_bytes()
    rng = random.Random(15)
    late, opened = [], 0
    for i in range(80):
        data = flip_bytes(original, rng, 4)
        try:
            rev = DocxReviewer.from_bytes(data)
        except DocxError:
            continue
        opened += 1
        try:
            rev.list_stories()
            rev.get_changes()
            rev.get_comments()
            rev.concealed_text()
            DocxReviewer.from_bytes(rev.to_bytes())
        except DocxError as exc:
            late.append((i, str(exc)[:100]))
    assert late == [] and opened > 10


def _emf(size: int) -> bytes:
    """An EMF header record (" EMF" signature) and a blank body: as compressible as pictures get."""
    header = struct.pack("<II4i4i", 1, 108, 0, 0, 100, 100, 0, 0, 2540, 2540) + b" EMF" + b"\0" * 64
    return header + b"\0" * (size - len(header))


def test_accept_all_then_save_with_a_highly_compressible_emf(tmp_path):
    drawing = ('<w:r><w:drawing><wp:inline><wp:extent cx="914400" cy="914400"/><wp:docPr id="1" name="p"/>'
               '<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture">'
               '<pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture">'
               '<pic:nvPicPr><pic:cNvPr id="1" name="p"/><pic:cNvPicPr/></pic:nvPicPr>'
               '<pic:blipFill><a:blip r:embed="rId9"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>'
               '<pic:spPr/></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>')
    body = (p("Before the figure.") + f"<w:p>{drawing}</w:p>"
            + '<w:p><w:ins w:id="1" w:author="A" w:date="2024-01-01T00:00:00Z"><w:r><w:t>Added.</w:t></w:r>'
            "</w:ins></w:p>")
    emf = _emf(8 * 1024 * 1024)
    data = build_docx(body, media={"rId9": ("image1.emf", emf)})
    info = zipfile.ZipFile(io.BytesIO(data)).getinfo("word/media/image1.emf")
    assert info.file_size > 250 * info.compress_size  # past the ratio a zip bomb is judged by, in XML
    rev = DocxReviewer.from_bytes(data)
    assert rev.accept_all() == 1
    rev.save(tmp_path / "accepted.docx")
    again = DocxReviewer.open(tmp_path / "accepted.docx")
    assert again.document.package.read("word/media/image1.emf") == emf
    assert "Added." in again.get_content_as_text() and again.get_changes() == []
    assert again.open_warnings == []


_BOMB_SCRIPT = textwrap.dedent('''
    import io, resource, struct, sys, time, zipfile, zlib
    sys.path.insert(0, sys.argv[1])
    sys.path.insert(0, sys.argv[1] + "/tests")
    from docbuilder import build_docx, p
    from folio_desktop.docx import DocxError, DocxReviewer

    def deflated_zeros(total, chunk=1 << 20):
        """A deflate stream of `total` zero bytes, built from one full-flushed block repeated."""
        c = zlib.compressobj(9, zlib.DEFLATED, -15)
        first = c.compress(b"\\0" * chunk) + c.flush(zlib.Z_FULL_FLUSH)
        block = c.compress(b"\\0" * chunk) + c.flush(zlib.Z_FULL_FLUSH)
        assert block == c.compress(b"\\0" * chunk) + c.flush(zlib.Z_FULL_FLUSH)
        return first + block * (total // chunk - 1) + c.flush()

    def zip_of(entries):
        """name -> (deflated, crc, size); sizes past 4 GiB get their zip64 extra field."""
        out, central = io.BytesIO(), b""
        for name, (raw, crc, size) in entries.items():
            big = size >= 0xFFFFFFFF or len(raw) >= 0xFFFFFFFF
            extra = struct.pack("<HHQQ", 1, 16, size, len(raw)) if big else b""
            s32, c32 = (0xFFFFFFFF, 0xFFFFFFFF) if big else (size, len(raw))
            fixed = (45, 0, 8, 0, 0x21, crc, c32, s32, len(name), len(extra))
            offset = out.tell()
            out.write(struct.pack("<4sHHHHHIIIHH", b"PK\\x03\\x04", *fixed) + name.encode() + extra + raw)
            central += struct.pack("<4sHHHHHHIIIHHHHHII", b"PK\\x01\\x02", 45, *fixed, 0, 0, 0, 0, offset)
            central += name.encode() + extra
        start = out.tell()
        out.write(central + struct.pack("<4sHHHHIIH", b"PK\\x05\\x06", 0, 0, len(entries), len(entries),
                                        len(central), start, 0))
        return out.getvalue()

    plain = zipfile.ZipFile(io.BytesIO(build_docx(p("hello"))))
    def sound():
        out = {}
        for name in plain.namelist():
            data = plain.read(name)
            c = zlib.compressobj(6, zlib.DEFLATED, -15)
            out[name] = (c.compress(data) + c.flush(), zlib.crc32(data), len(data))
        return out

    TEN_GB = 10 * 1024 ** 3
    bomb = deflated_zeros(TEN_GB)
    cases = {}
    for where, size in (("word/media/image1.emf", TEN_GB), ("word/document.xml", TEN_GB),
                        ("word/document.xml", 2 << 20)):  # the last one's header understates its size
        entries = sound()
        entries[where] = (bomb, 0, size)
        data = zip_of(entries)
        start = time.monotonic()
        try:
            DocxReviewer.from_bytes(data)
            outcome = "opened"
        except DocxError as exc:
            outcome = type(exc).__name__ + ": " + str(exc)
        cases[f"{where} {size}"] = (outcome, time.monotonic() - start)
        del data, entries
    # VmHWM, not ru_maxrss: Linux carries the pre-exec peak of the forked parent (pytest, after the
    # mutant sweep: 200 MB) into the child's ru_maxrss; the high-water mark starts again at exec
    with open("/proc/self/status") as fh:
        hwm = [int(line.split()[1]) for line in fh if line.startswith("VmHWM:")]
    peak_kb = hwm[0] if hwm else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(repr({"cases": cases, "compressed": len(bomb), "maxrss_mb": peak_kb / 1024}))
''')


def test_ten_gigabyte_zip_bomb_is_refused_from_its_declared_size_in_little_memory():
    proc = subprocess.run([sys.executable, "-c", _BOMB_SCRIPT, str(ROOT)], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    report = eval(proc.stdout)  # noqa: S307 - our own subprocess's repr of plain values
    cases = report["cases"]
    for key in (f"word/media/image1.emf {10 * 1024 ** 3}", f"word/document.xml {10 * 1024 ** 3}"):
        outcome, seconds = cases[key]
        assert outcome.startswith("DocxTooLargeError") and "its zip entry says 10,737,418,240" in outcome, key
        assert seconds < 2.0, (key, seconds)
    outcome, seconds = cases[f"word/document.xml {2 << 20}"]
    assert outcome.startswith("CorruptDocxError") and "word/document.xml" in outcome and seconds < 2.0
    assert report["maxrss_mb"] < 100, repr(report)


def test_the_cli_prints_the_warning(capsys, tmp_path):
    path = tmp_path / "damaged-theme.docx"
    path.write_bytes(_flip_inside(PILOT.read_bytes(), "word/theme/theme1.xml"))
    assert main(["stories", str(path)]) == 0
    err = capsys.readouterr().err
    assert "warning: The theme word/theme/theme1.xml is damaged" in err


def test_pages_json_carries_the_warning(qapp, tmp_path, capsys):
    path = tmp_path / "damaged-fonts.docx"
    path.write_bytes(_flip_inside(PILOT.read_bytes(), "word/fontTable.xml"))
    assert main(["pages", "--json", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["pageCount"] > 0 and "word/fontTable.xml" in out["warnings"][0]


def test_rebuilt_parts_are_schema_valid(tmp_path):
    """What "rebuild" writes in place of a damaged theme, font table, settings or properties part is
    what ISO/IEC 29500 requires of that part, so Word opens the saved file without repairing it."""
    from lxml import etree
    from ooxml_validate import SCHEMAS, load_wml_schema

    schemas = SCHEMAS / "ISO-IEC29500-4_2016"
    wml = load_wml_schema()  # imports DrawingML, so it knows a:theme too
    by_part = {"word/theme/theme1.xml": wml, "word/fontTable.xml": wml, "word/settings.xml": wml,
               "word/webSettings.xml": wml,
               "docProps/app.xml": etree.XMLSchema(etree.parse(str(schemas / "shared-documentPropertiesExtended.xsd")))}
    data = PILOT.read_bytes()
    for part in by_part:
        data = _flip_inside(data, part)
    rev = DocxReviewer.from_bytes(data)
    assert len(rev.open_warnings) == len(by_part)
    rev.save(tmp_path / "rebuilt.docx", damaged_parts="rebuild")
    out = (tmp_path / "rebuilt.docx").read_bytes()
    for part, schema in by_part.items():
        root = etree.fromstring(_entry(out, part))
        assert schema.validate(etree.ElementTree(root)), (part, schema.error_log)


def test_a_second_entry_of_the_same_name_stays_unread(recwarn):
    """Guard (not a defect): the open reads every entry now, and the first of two same-named
    entries is still the part, as before; the second one's damage costs nothing."""
    data = build_docx(p("first"))
    buf = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as zin, zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            zout.writestr(info, zin.read(info))
        zout.writestr("word/document.xml", zin.read("word/document.xml").replace(b"first", b"second"))
    rev = DocxReviewer.from_bytes(_with_crc(buf.getvalue(), "word/document.xml", 0))
    assert rev.get_content_as_text().endswith("first") and rev.open_warnings == []


def test_a_damaged_picture_opens_with_a_warning_draws_and_saves(qapp, tmp_path):
    from folio_desktop.layout import layout_document

    path = CORPUS / "docling_drawingml_images.docx"
    data = _flip_inside(path.read_bytes(), "word/media/image1.jpeg")
    rev = DocxReviewer.from_bytes(data)
    assert layout_document(rev.document).page_count == layout_document(DocxReviewer.open(path).document).page_count
    rev.save(tmp_path / "out.docx")
    assert len(rev.open_warnings) == 1 and "word/media/image1.jpeg" in rev.open_warnings[0]
    assert _entry((tmp_path / "out.docx").read_bytes(), "word/media/image1.jpeg") == \
        rev.document.package.damaged["word/media/image1.jpeg"].salvage
