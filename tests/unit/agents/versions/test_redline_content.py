"""Redlines of content other than plain text: equations (Office Math), pictures, notes holding them,
field codes and section properties.

Each redline must be right both ways (accepting everything gives the later version, rejecting everything
the earlier one, equation text and picture bytes included), show a tracked change where the content
changed, and open in our reader and in python-docx. Built from small documents made here and from
corpus files (Docxodus' compare tests) edited in code."""

from __future__ import annotations

import hashlib
import io
import re
import struct
import zipfile
import zlib

import pytest
from conftest import CORPUS
from docbuilder import build_docx, p
from lxml import etree

from folio_desktop.agents.versions.redline import generate_redline_docx, story_texts
from folio_desktop.docx import DocxReviewer

M_DECL = 'xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"'
WC = CORPUS / "wild" / "JSv4+Docxodus" / "TestFiles" / "WC"
EMU = 9525
W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


# -- building blocks -----------------------------------------------------------------------------------

def equation(math: str, before: str = "", display: bool = False) -> str:
    """A paragraph holding an equation (m:oMath, or m:oMathPara when display) after some text."""
    text = f'<w:r><w:t xml:space="preserve">{before}</w:t></w:r>' if before else ""
    omath = f"<m:oMath><m:r><m:t>{math}</m:t></m:r><m:sSup><m:e><m:r><m:t>x</m:t></m:r></m:e>" \
            f"<m:sup><m:r><m:t>2</m:t></m:r></m:sup></m:sSup></m:oMath>"
    inner = f"<m:oMathPara {M_DECL}>{omath}</m:oMathPara>" if display else omath.replace("<m:oMath>", f"<m:oMath {M_DECL}>", 1)
    return f"<w:p>{text}{inner}</w:p>"


def png(rgb: tuple[int, int, int], w: int = 2, h: int = 2) -> bytes:
    """A small valid PNG of one colour."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    raw = b"".join(b"\x00" + bytes(rgb) * w for _ in range(h))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def picture(rid: str, w: int = 40, h: int = 20, before: str = "See the figure ") -> str:
    cx, cy = w * EMU, h * EMU
    return (f'<w:p><w:r><w:t xml:space="preserve">{before}</w:t></w:r><w:r><w:drawing>'
            f'<wp:inline distT="0" distB="0" distL="0" distR="0"><wp:extent cx="{cx}" cy="{cy}"/>'
            '<wp:docPr id="1" name="Picture 1"/><a:graphic><a:graphicData '
            'uri="http://schemas.openxmlformats.org/drawingml/2006/picture">'
            '<pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture">'
            '<pic:nvPicPr><pic:cNvPr id="1" name="pic"/><pic:cNvPicPr/></pic:nvPicPr>'
            f'<pic:blipFill><a:blip r:embed="{rid}"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>'
            f'<pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="{cx}" cy="{cy}"/></a:xfrm>'
            '<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr></pic:pic></a:graphicData></a:graphic>'
            '</wp:inline></w:drawing></w:r></w:p>')


SEPARATORS = ('<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
              '<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r>'
              '</w:p></w:footnote>')


def noted(text: str, note_id: int = 1) -> str:
    return (f'<w:p><w:r><w:t xml:space="preserve">{text}</w:t></w:r><w:r><w:rPr><w:vertAlign w:val="superscript"/>'
            f'</w:rPr><w:footnoteReference w:id="{note_id}"/></w:r></w:p>')


def footnote(note_id: int, inner: str) -> str:
    return (f'<w:footnote w:id="{note_id}"><w:p><w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr>'
            f'<w:footnoteRef/></w:r>{inner}</w:p></w:footnote>')


def edited(data: bytes, part: str, old: bytes | str, new: bytes | str, whole: bool = False) -> bytes:
    """The package with one part's bytes edited (or replaced whole)."""
    old = old.encode() if isinstance(old, str) else old
    new = new.encode() if isinstance(new, str) else new
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            body = zin.read(info.filename)
            if info.filename == part:
                if whole:
                    body = new
                else:
                    assert old in body, (part, old)
                    body = body.replace(old, new, 1)
            zout.writestr(info, body)
    return out.getvalue()


# -- checks ------------------------------------------------------------------------------------------------

def resolved(data: bytes, accept: bool) -> DocxReviewer:
    rev = DocxReviewer.from_bytes(data)
    rev.accept_all() if accept else rev.reject_all()
    return rev


def media_digests(rev: DocxReviewer) -> list[str]:
    """The image bytes every picture of the main text shows, in document order."""
    doc = rev.document
    rels = {r.id: r for r in doc.package.rels(doc.main_part)}
    root = doc.package.xml(doc.main_part)
    out = []
    for blip in root.iter("{http://schemas.openxmlformats.org/drawingml/2006/main}blip"):
        rel = rels[blip.get("{http://schemas.openxmlformats.org/officeDocument/2006/relationships}embed")]
        out.append(hashlib.sha1(doc.package.read(rel.target)).hexdigest())
    return out


def part_xml(data: bytes, part: str) -> str:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return z.read(part).decode("utf-8")


def assert_redline_is_right(base: bytes, revised: bytes) -> dict:
    result = generate_redline_docx(base, revised)
    out = result["buffer"]
    accepted, rejected = resolved(out, True), resolved(out, False)
    assert story_texts(accepted) == story_texts(DocxReviewer.from_bytes(revised))
    assert story_texts(rejected) == story_texts(DocxReviewer.from_bytes(base))
    assert media_digests(accepted) == media_digests(DocxReviewer.from_bytes(revised))
    assert media_digests(rejected) == media_digests(DocxReviewer.from_bytes(base))
    # the saved redline opens in our reader and in python-docx
    assert DocxReviewer.from_bytes(out).snapshot().blocks
    docx = pytest.importorskip("docx")
    assert docx.Document(io.BytesIO(out)).paragraphs is not None
    return result


def tracked_equations(xml: str) -> tuple[int, int]:
    """How many equations sit inside a tracked deletion, and inside a tracked insertion."""
    dels = len(re.findall(r"<w:del [^>]*>(?:(?!</w:del>).)*<m:oMath", xml, re.S))
    ins = len(re.findall(r"<w:ins [^>]*>(?:(?!</w:ins>).)*<m:oMath", xml, re.S))
    return dels, ins


# -- equations -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("display", [False, True], ids=["inline", "display"])
def test_an_edited_equation_is_deleted_and_inserted_whole(display):
    base = build_docx(p("Intro.") + equation("E=m", "Energy is ", display) + p("After."))
    revised = build_docx(p("Intro.") + equation("E=mc", "Energy is ", display) + p("After."))
    result = assert_redline_is_right(base, revised)
    assert result["fallbacks"] == []
    xml = part_xml(result["buffer"], "word/document.xml")
    assert tracked_equations(xml) == (1, 1)
    assert "<w:delText" not in xml  # the words beside the equation stay as they are
    # the equation text is what accepting and rejecting give
    assert resolved(result["buffer"], True).snapshot().blocks[1].text == "Energy is E=mcx2"
    assert resolved(result["buffer"], False).snapshot().blocks[1].text == "Energy is E=mx2"


def test_equations_added_and_removed_both_ways():
    base = build_docx(p("One.") + equation("a+b", display=True) + p("Two."))
    revised = build_docx(p("One.") + p("Two.") + equation("c=d", "Then ") + equation("y=", display=True))
    for a, b in ((base, revised), (revised, base)):
        result = assert_redline_is_right(a, b)
        dels, ins = tracked_equations(part_xml(result["buffer"], "word/document.xml"))
        assert dels + ins >= 2


def test_an_equation_in_a_footnote_changed_both_ways():
    base = build_docx(noted("Body text"), footnotes=SEPARATORS + footnote(1, '<w:r><w:t xml:space="preserve"> Note</w:t></w:r>'))
    revised = build_docx(noted("Body text"), footnotes=SEPARATORS + footnote(
        1, f'<w:r><w:t xml:space="preserve"> Note</w:t></w:r><m:oMath {M_DECL}><m:r><m:t>n+1</m:t></m:r></m:oMath>'))
    for a, b in ((base, revised), (revised, base)):
        result = assert_redline_is_right(a, b)
        assert sum(tracked_equations(part_xml(result["buffer"], "word/footnotes.xml"))) == 1


def test_an_equation_beside_a_picture_edited():
    media = {"rId10": ("image1.png", png((200, 0, 0)))}
    body = picture("rId10")[:-len("</w:p>")] + f"<m:oMath {M_DECL}><m:r><m:t>MATH</m:t></m:r></m:oMath></w:p>"
    base = build_docx(body.replace("MATH", "k=0"), media=media)
    revised = build_docx(body.replace("MATH", "k=1"), media=media)
    result = assert_redline_is_right(base, revised)
    assert tracked_equations(part_xml(result["buffer"], "word/document.xml")) == (1, 1)


@pytest.mark.parametrize("name, old, new", [
    ("WC012-Math-Before.docx", "<m:t>A=π</m:t>", "<m:t>A=2π</m:t>"),
    ("WC022-Image-Math-Para-Before.docx", "<m:t>k=0</m:t>", "<m:t>k=1</m:t>"),
])
def test_corpus_equations_edited_both_ways(name, old, new):
    base = (WC / name).read_bytes()
    revised = edited(base, "word/document.xml", old, new)
    for a, b in ((base, revised), (revised, base)):
        result = assert_redline_is_right(a, b)
        dels, ins = tracked_equations(part_xml(result["buffer"], "word/document.xml"))
        assert dels >= 1 and ins >= 1


# -- pictures ------------------------------------------------------------------------------------------------

def _tracked_drawings(xml: str) -> tuple[int, int]:
    dels = len(re.findall(r"<w:del [^>]*>(?:(?!</w:del>).)*<w:drawing", xml, re.S))
    ins = len(re.findall(r"<w:ins [^>]*>(?:(?!</w:ins>).)*<w:drawing", xml, re.S))
    return dels, ins


def test_a_replaced_picture_is_a_deletion_and_an_insertion():
    base = build_docx(p("Before.") + picture("rId10") + p("After."), media={"rId10": ("image1.png", png((255, 0, 0)))})
    revised = build_docx(p("Before.") + picture("rId10") + p("After."), media={"rId10": ("image1.png", png((0, 0, 255)))})
    for a, b in ((base, revised), (revised, base)):
        result = assert_redline_is_right(a, b)
        assert result["applied"], "a replaced picture must be reported as a change"
        xml = part_xml(result["buffer"], "word/document.xml")
        assert _tracked_drawings(xml) == (1, 1)
        assert "<w:delText" not in xml  # only the picture is shown changed, not the caption beside it


def test_a_resized_picture_is_a_deletion_and_an_insertion():
    media = {"rId10": ("image1.png", png((0, 128, 0)))}
    base = build_docx(picture("rId10", 40, 20), media=media)
    revised = build_docx(picture("rId10", 80, 40), media=media)
    result = assert_redline_is_right(base, revised)
    assert _tracked_drawings(part_xml(result["buffer"], "word/document.xml")) == (1, 1)
    extents = re.findall(r'<wp:extent cx="(\d+)"', part_xml(result["buffer"], "word/document.xml"))
    assert sorted(extents) == [str(40 * EMU), str(80 * EMU)]


def shape(w: int, h: int) -> str:
    """A drawn freeform (no image) as Word writes it: a DrawingML choice with a VML fallback."""
    cx, cy = w * EMU, h * EMU
    return ('<w:p><w:r><w:t xml:space="preserve">Signed here </w:t></w:r><w:r><mc:AlternateContent><mc:Choice '
            'Requires="wps"><w:drawing><wp:anchor distT="0" distB="0" distL="0" distR="0" simplePos="0" '
            'relativeHeight="1" behindDoc="0" locked="0" layoutInCell="1" allowOverlap="1"><wp:simplePos x="0" y="0"/>'
            '<wp:positionH relativeFrom="column"><wp:posOffset>0</wp:posOffset></wp:positionH><wp:positionV '
            f'relativeFrom="paragraph"><wp:posOffset>0</wp:posOffset></wp:positionV><wp:extent cx="{cx}" cy="{cy}"/>'
            '<wp:wrapNone/><wp:docPr id="4" name="Freeform 4"/><a:graphic><a:graphicData '
            'uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp><wps:cNvSpPr/>'
            f'<wps:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="{cx}" cy="{cy}"/></a:xfrm><a:prstGeom prst="ellipse">'
            '<a:avLst/></a:prstGeom></wps:spPr><wps:bodyPr/></wps:wsp></a:graphicData></a:graphic></wp:anchor>'
            f'</w:drawing></mc:Choice><mc:Fallback><w:pict><v:oval style="width:{w}pt;height:{h}pt"/></w:pict>'
            '</mc:Fallback></mc:AlternateContent></w:r></w:p>')


def test_a_resized_drawn_shape_without_an_image_is_a_deletion_and_an_insertion():
    """A freeform has no image to digest: its size (the anchor's extent) is what changed, and a redline
    that showed nothing would keep the earlier size in its accept-all (docling_drawingml_images)."""
    base, revised = build_docx(p("Before.") + shape(40, 20)), build_docx(p("Before.") + shape(60, 30))
    for a, b in ((base, revised), (revised, base)):
        result = assert_redline_is_right(a, b)
        xml = part_xml(result["buffer"], "word/document.xml")
        assert _tracked_drawings(xml) == (1, 1)
        for accept, want in ((True, b), (False, a)):
            got = part_xml(resolved(result["buffer"], accept).to_bytes(), "word/document.xml")
            assert re.findall(r'<wp:extent cx="(\d+)"', got) == re.findall(r'<wp:extent cx="(\d+)"', part_xml(want, "word/document.xml"))


def test_an_unchanged_picture_beside_edited_text_stays_untouched():
    media = {"rId10": ("image1.png", png((9, 9, 9)))}
    base = build_docx(picture("rId10", before="See the chart ") + p("Old words."), media=media)
    revised = build_docx(picture("rId10", before="See the chart ") + p("New words."), media=media)
    result = assert_redline_is_right(base, revised)
    assert _tracked_drawings(part_xml(result["buffer"], "word/document.xml")) == (0, 0)


@pytest.mark.parametrize("path", [
    CORPUS / "docling_drawingml_images.docx",
    CORPUS / "wild" / "jandira-tech+jubarte-redlines" / "tests" / "fixtures" / "relids" / "image_doc.docx",
], ids=lambda path: path.name)
def test_a_corpus_picture_replaced_both_ways(path):
    base = path.read_bytes()
    with zipfile.ZipFile(io.BytesIO(base)) as z:
        media = [n for n in z.namelist() if n.startswith("word/media/")]
    assert media
    revised = edited(base, media[0], b"", png((1, 2, 3), 4, 4), whole=True)
    for a, b in ((base, revised), (revised, base)):
        result = assert_redline_is_right(a, b)
        dels, ins = _tracked_drawings(part_xml(result["buffer"], "word/document.xml"))
        assert dels >= 1 and ins >= 1


def test_libreoffice_opens_a_redline_with_an_equation_and_a_picture(tmp_path):
    import shutil
    import subprocess

    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if soffice is None:
        pytest.skip("LibreOffice is not installed")
    media = {"rId10": ("image1.png", png((255, 0, 0)))}
    base = build_docx(equation("a", "x ") + picture("rId10"), media=media)
    revised = build_docx(equation("b", "x ") + picture("rId10"), media={"rId10": ("image1.png", png((0, 255, 0)))})
    path = tmp_path / "redline.docx"
    path.write_bytes(generate_redline_docx(base, revised)["buffer"])
    run = subprocess.run([soffice, "--headless", "--convert-to", "txt", "--outdir", str(tmp_path), str(path)],
                         capture_output=True, timeout=120)
    assert run.returncode == 0 and (tmp_path / "redline.txt").exists()


def test_the_version_diff_names_a_replaced_picture():
    from folio_desktop.agents.versions.compare import compare_docx_versions

    base = build_docx(picture("rId10") + equation("a", "Sum ") + p("Same."), media={"rId10": ("i.png", png((1, 1, 1)))})
    revised = build_docx(picture("rId10") + equation("a", "Sum ") + p("Same."), media={"rId10": ("i.png", png((2, 2, 2)))})
    changes = compare_docx_versions(base, revised)["changes"]
    assert [(c["type"], c["segments"][-1]) for c in changes] == [("modified", {"type": "insert", "text": "[picture]"})]
    unchanged = compare_docx_versions(base, base)["changes"]
    assert unchanged == []


# -- fields and sections ------------------------------------------------------------------------------------

def complex_field(code: str, shown: str) -> str:
    return ('<w:p><w:r><w:t xml:space="preserve">See page </w:t></w:r><w:r><w:fldChar w:fldCharType="begin"/></w:r>'
            f'<w:r><w:instrText xml:space="preserve"> {code} </w:instrText></w:r>'
            '<w:r><w:fldChar w:fldCharType="separate"/></w:r>'
            f'<w:r><w:t>{shown}</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>')


def field_codes(rev: DocxReviewer) -> list[str]:
    root = rev.document.package.xml(rev.document.main_part)
    return ["".join(t.text or "" for t in root.iter(f"{{{W_NS}}}instrText")).strip()]


def test_a_field_whose_code_changed_is_redlined():
    base = build_docx(p("Intro.") + complex_field("PAGEREF Clause3 \\h", "4"))
    revised = build_docx(p("Intro.") + complex_field("PAGEREF Clause7 \\h", "4"))
    for a, b in ((base, revised), (revised, base)):
        result = assert_redline_is_right(a, b)
        assert field_codes(resolved(result["buffer"], True)) == field_codes(DocxReviewer.from_bytes(b))
        assert field_codes(resolved(result["buffer"], False)) == field_codes(DocxReviewer.from_bytes(a))
        xml = part_xml(result["buffer"], "word/document.xml")
        assert "<w:delInstrText" in xml and re.search(r"<w:ins [^>]*>(?:(?!</w:ins>).)*<w:instrText", xml, re.S)


def simple_field(code: str, shown: str) -> str:
    return (f'<w:p><w:r><w:t xml:space="preserve">See page </w:t></w:r><w:fldSimple w:instr=" {code} ">'
            f'<w:r><w:t>{shown}</w:t></w:r></w:fldSimple></w:p>')


def any_field_codes(data: bytes) -> list[str]:
    """Field codes in document order, simple (w:instr) or complex (w:instrText), spacing aside."""
    root = etree.fromstring(part_xml(data, "word/document.xml").encode())
    found = [(el.get(f"{{{W_NS}}}instr") if el.tag.endswith("fldSimple") else el.text) or ""
             for el in root.iter(f"{{{W_NS}}}fldSimple", f"{{{W_NS}}}instrText")]
    return [" ".join(code.split()) for code in found]


def test_a_simple_field_whose_code_changed_is_redlined():
    """w:fldSimple keeps its code in an attribute: compare saw no change and the redline kept the
    earlier code on both sides. No revision may wrap a simple field, so both sides are written as the
    complex field it stands for."""
    base = build_docx(p("Intro.") + simple_field("PAGEREF Clause3 \\h", "4"))
    revised = build_docx(p("Intro.") + simple_field("PAGEREF Clause7 \\h", "4"))
    for a, b in ((base, revised), (revised, base)):
        result = assert_redline_is_right(a, b)
        assert result["applied"], "a changed field code is a change"
        assert any_field_codes(resolved(result["buffer"], True).to_bytes()) == any_field_codes(b)
        assert any_field_codes(resolved(result["buffer"], False).to_bytes()) == any_field_codes(a)
        xml = part_xml(result["buffer"], "word/document.xml")
        assert "<w:delInstrText" in xml and not re.search(r"<w:(del|ins) [^>]*>(?:(?!</w:\1>).)*<w:fldSimple", xml, re.S)


def section_breaks(data: bytes) -> list[str]:
    """Each body paragraph's text, with "|" after one that ends a section."""
    body = etree.fromstring(part_xml(data, "word/document.xml").encode()).find(f"{{{W_NS}}}body")
    return ["".join(t.text or "" for t in para.iter(f"{{{W_NS}}}t"))
            + ("|" if para.find(f"{{{W_NS}}}pPr/{{{W_NS}}}sectPr") is not None else "")
            for para in body.iter(f"{{{W_NS}}}p")]


def test_a_section_break_added_or_removed_is_redlined():
    """A section break lives in its paragraph's mark: the paragraph is deleted and inserted whole, so
    accepting gives the revised sections and rejecting the earlier ones (was: no change at all)."""
    landscape = '<w:sectPr><w:pgSz w:w="15840" w:h="12240" w:orient="landscape"/></w:sectPr>'
    base = build_docx(p("One.") + p("Two.") + p("Three."))
    revised = build_docx(p("One.") + p("Two.", ppr=landscape) + p("Three."))
    for a, b in ((base, revised), (revised, base)):
        result = assert_redline_is_right(a, b)
        assert section_breaks(resolved(result["buffer"], True).to_bytes()) == section_breaks(b)
        assert section_breaks(resolved(result["buffer"], False).to_bytes()) == section_breaks(a)
    assert section_breaks(revised) == ["One.", "Two.|", "Three."]


PORTRAIT = '<w:pgSz w:w="12240" w:h="15840"/>'
LANDSCAPE = '<w:pgSz w:w="15840" w:h="12240" w:orient="landscape"/>'


def page_sizes(data: bytes, accept: bool) -> list[str]:
    return re.findall(r"<w:pgSz [^>]*/>", part_xml(resolved(data, accept).to_bytes(), "word/document.xml"))


def test_a_page_turned_landscape_is_a_section_change():
    base = build_docx(p("Body text."))
    revised = edited(base, "word/document.xml", PORTRAIT, LANDSCAPE)
    for a, b, before, after in ((base, revised, PORTRAIT, LANDSCAPE), (revised, base, LANDSCAPE, PORTRAIT)):
        result = generate_redline_docx(a, b)
        xml = part_xml(result["buffer"], "word/document.xml")
        assert "<w:sectPrChange " in xml
        assert page_sizes(result["buffer"], True) == [after]
        assert page_sizes(result["buffer"], False) == [before]
        assert DocxReviewer.from_bytes(result["buffer"]).snapshot().blocks
        docx = pytest.importorskip("docx")
        assert docx.Document(io.BytesIO(result["buffer"])).sections[0].page_width is not None


def test_an_unchanged_section_has_no_section_change():
    base = build_docx(p("Body text."))
    revised = build_docx(p("Body text changed."))
    assert "<w:sectPrChange " not in part_xml(generate_redline_docx(base, revised)["buffer"], "word/document.xml")


# -- valid input is never refused ---------------------------------------------------------------------------

def without_part(data: bytes, part: str) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            if info.filename != part:
                zout.writestr(info, zin.read(info.filename))
    return out.getvalue()


def test_a_picture_whose_image_is_missing_is_copied_in_all_the_same():
    # the relationship names a media part the package lacks (a real file in the corpus does this)
    revised = without_part(build_docx(p("Intro.") + picture("rId10") + p("End."),
                                      media={"rId10": ("image1.png", png((5, 5, 5)))}), "word/media/image1.png")
    base = build_docx(p("Intro.") + p("End."))
    for a, b in ((base, revised), (revised, base)):
        result = generate_redline_docx(a, b)
        out = result["buffer"]
        assert story_texts(resolved(out, True)) == story_texts(DocxReviewer.from_bytes(b))
        assert story_texts(resolved(out, False)) == story_texts(DocxReviewer.from_bytes(a))
        assert _tracked_drawings(part_xml(out, "word/document.xml")) in ((1, 0), (0, 1))


def test_a_note_the_earlier_version_left_unreferenced_is_not_a_refusal():
    note_part = SEPARATORS + footnote(1, '<w:r><w:t xml:space="preserve"> A note</w:t></w:r>')
    base = build_docx(p("Body text."), footnotes=note_part)  # the note is there, nothing refers to it
    revised = build_docx(noted("Body text."), footnotes=note_part)
    result = generate_redline_docx(base, revised)
    out = result["buffer"]
    assert story_texts(resolved(out, True)) == story_texts(DocxReviewer.from_bytes(revised))
    assert resolved(out, False).snapshot().blocks[0].text == "Body text."
    assert re.search(r"<w:ins [^>]*>(?:(?!</w:ins>).)*<w:footnoteReference", part_xml(out, "word/document.xml"), re.S)
    back = generate_redline_docx(revised, base)  # the later version's note is shown nowhere: reported
    assert [u["reason"] for u in back["unprocessedStories"]] == ["unreferenced-note"]
    assert story_texts(resolved(back["buffer"], True))["main"] == ["Body text."]


def test_every_note_only_the_later_version_has_and_nothing_refers_to_is_reported():
    # two footnotes and an endnote the later version holds with no reference to any of them
    def endnote(note_id: int, inner: str) -> str:
        return footnote(note_id, inner).replace("footnote", "endnote")

    def text(words: str) -> str:
        return f'<w:r><w:t xml:space="preserve"> {words}</w:t></w:r>'
    base = build_docx(p("Body text."))
    revised = build_docx(p("Body text, changed."),
                         footnotes=SEPARATORS + footnote(1, text("First stray")) + footnote(2, text("Second stray")),
                         endnotes=SEPARATORS.replace("footnote", "endnote") + endnote(1, text("Stray endnote")))
    result = generate_redline_docx(base, revised)
    assert result["unprocessedStories"] == [
        {"baseStory": None, "revisedStory": {"type": kind, "noteId": n}, "reason": "unreferenced-note"}
        for kind, n in (("footnote", 1), ("footnote", 2), ("endnote", 1))]
    assert story_texts(resolved(result["buffer"], True)) == {"main": ["Body text, changed."]}
    assert story_texts(resolved(result["buffer"], False)) == {"main": ["Body text."]}


def test_a_body_with_no_paragraph_given_one_is_redlined():
    """The sweep's HC013-Test-08: a body holding only its section properties. Rejecting the inserted
    paragraph leaves the empty paragraph a body must keep, which the check reads as the empty body."""
    base = build_docx("")
    revised = build_docx(p("The first words of the agreement."))
    result = generate_redline_docx(base, revised)
    assert [b.text for b in resolved(result["buffer"], True).snapshot().blocks] == ["The first words of the agreement."]
    assert [b.text for b in resolved(result["buffer"], False).snapshot().blocks] in ([], [""])


def test_a_paragraph_holding_a_content_control_deleted_before_a_block_content_control():
    """The sweep's Bug55142: the deleted paragraph cannot join the block content control after it,
    and the inline control it kept (its runs struck) made it count as not empty, so accepting left an
    empty paragraph behind."""
    def block_control(text: str) -> str:
        return f'<w:sdt><w:sdtPr><w:id w:val="2"/></w:sdtPr><w:sdtContent>{p(text)}</w:sdtContent></w:sdt>'
    inline = ('<w:p><w:sdt><w:sdtPr><w:id w:val="1"/></w:sdtPr><w:sdtContent><w:r><w:t>Rich text four</w:t></w:r>'
              '</w:sdtContent></w:sdt><w:r><w:t xml:space="preserve"> and more.</w:t></w:r></w:p>')
    base = build_docx(p("Before.") + inline + block_control("Rich text five.") + p("After."))
    revised = build_docx(p("Before.") + block_control("Rich text five.") + p("After."))
    result = assert_redline_is_right(base, revised)
    assert [b.text for b in resolved(result["buffer"], True).snapshot().blocks] == ["Before.", "Rich text five.", "After."]
