"""Floating drawings (wp:anchor) placed where Word puts them, text wrapped around them, and
pictures (inline and floating) and text boxes painted there, on screen and in the PDF.

Page geometry of docbuilder's documents: Letter at 96 dpi (816 x 1056 px), 1 inch margins (96 px),
so the text column is x 96..720."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRectF
from PySide6.QtGui import QColor, QImage, QPainter

from folio_desktop.docx import DocxReviewer

EMU = 9525  # per px
WORDS = " ".join(f"word{i}" for i in range(400))
MARGIN = 96.0


def _png(color: str, w: int = 20, h: int = 10) -> bytes:
    image = QImage(w, h, QImage.Format_RGB32)
    image.fill(QColor(color))
    buffer = QBuffer()
    buffer.setData(QByteArray())
    buffer.open(QIODevice.WriteOnly)
    image.save(buffer, "PNG")
    return bytes(buffer.data())


def _pos(axis: str, base: str, value) -> str:
    inner = f"<wp:align>{value}</wp:align>" if isinstance(value, str) else f"<wp:posOffset>{int(value * EMU)}</wp:posOffset>"
    return f'<wp:position{axis} relativeFrom="{base}">{inner}</wp:position{axis}>'


def _picture(rid: str, w: float, h: float) -> str:
    return ('<a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture">'
            '<pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture">'
            '<pic:nvPicPr><pic:cNvPr id="1" name="pic"/><pic:cNvPicPr/></pic:nvPicPr>'
            f'<pic:blipFill><a:blip r:embed="{rid}"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>'
            f'<pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="{int(w * EMU)}" cy="{int(h * EMU)}"/></a:xfrm>'
            '<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr></pic:pic></a:graphicData>')


def _text_box(text: str, fill: str = "FFFF00") -> str:
    return ('<a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp>'
            '<wps:cNvSpPr txBox="1"/><wps:spPr><a:prstGeom prst="rect"><a:avLst/></a:prstGeom>'
            f'<a:solidFill><a:srgbClr val="{fill}"/></a:solidFill><a:ln w="12700"><a:solidFill>'
            '<a:srgbClr val="000000"/></a:solidFill></a:ln></wps:spPr>'
            f'<wps:txbx><w:txbxContent><w:p><w:r><w:rPr><w:sz w:val="28"/></w:rPr><w:t>{text}</w:t></w:r></w:p>'
            '</w:txbxContent></wps:txbx><wps:bodyPr lIns="91440" tIns="45720" rIns="91440" bIns="45720"/>'
            '</wps:wsp></a:graphicData>')


def anchor(w: float, h: float, h_pos=("column", 0), v_pos=("paragraph", 0), wrap="square", side="bothSides",
           content: str | None = None, behind: bool = False, dist: float = 0) -> str:
    wraps = {"square": f'<wp:wrapSquare wrapText="{side}"/>', "tight": f'<wp:wrapTight wrapText="{side}">'
             '<wp:wrapPolygon edited="0"><wp:start x="0" y="0"/><wp:lineTo x="0" y="21600"/></wp:wrapPolygon>'
             '</wp:wrapTight>', "topAndBottom": "<wp:wrapTopAndBottom/>", "none": "<wp:wrapNone/>"}
    d = int(dist * EMU)
    return (f'<w:r><w:drawing><wp:anchor distT="{d}" distB="{d}" distL="{d}" distR="{d}" simplePos="0" '
            f'relativeHeight="2" behindDoc="{int(behind)}" locked="0" layoutInCell="1" allowOverlap="1">'
            '<wp:simplePos x="0" y="0"/>' + _pos("H", *h_pos) + _pos("V", *v_pos)
            + f'<wp:extent cx="{int(w * EMU)}" cy="{int(h * EMU)}"/><wp:effectExtent l="0" t="0" r="0" b="0"/>'
            + wraps[wrap] + '<wp:docPr id="1" name="d"/><a:graphic>' + (content or _picture("rIdPic", w, h))
            + "</a:graphic></wp:anchor></w:drawing></w:r>")


def inline(w: float, h: float, rid: str = "rIdPic") -> str:
    return (f'<w:r><w:drawing><wp:inline distT="0" distB="0" distL="0" distR="0"><wp:extent cx="{int(w * EMU)}" '
            f'cy="{int(h * EMU)}"/><wp:docPr id="2" name="i"/><a:graphic>{_picture(rid, w, h)}</a:graphic>'
            "</wp:inline></w:drawing></w:r>")


def para(runs: str = "", text: str = "") -> str:
    t = f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>' if text else ""
    return f"<w:p>{runs}{t}</w:p>"


def lay_out(qapp, body: str, media=None):
    from docbuilder import build_docx

    from folio_desktop.layout import layout_document

    rev = DocxReviewer.from_bytes(build_docx(body, media=media or {"rIdPic": ("red.png", _png("#ff0000"))}))
    return rev, layout_document(rev.document)


def body_lines(page):
    """(page x of the line's start, page x of its end, page top, page bottom, text) of every body line."""
    out = []
    for frag in page.body_fragments():
        p = frag.para
        for i in range(frag.first_line, frag.last_line + 1):
            line = p.layout.lineAt(i)
            if not line.textLength():
                continue
            x = frag.x + p.x + line.position().x()
            top = frag.y + line.y()
            out.append((x, x + line.naturalTextWidth(), top, top + line.height(),
                        p.text[line.textStart():line.textStart() + line.textLength()]))
    return out


def render(page, zoom: float = 1.0) -> QImage:
    from folio_desktop.ui.pages.marks import ReviewIndex
    from folio_desktop.ui.pages.painter import paint_page

    image = QImage(int(page.width * zoom), int(page.height * zoom), QImage.Format_RGB32)
    image.fill(QColor("#ffffff"))
    painter = QPainter(image)
    paint_page(painter, page, QRectF(0, 0, page.width * zoom, page.height * zoom), zoom,
               ReviewIndex(None, "none", interactive=False), shadow=False)
    painter.end()
    return image


def _is(image: QImage, x: float, y: float, color: str, tolerance: int = 40) -> bool:
    got, want = image.pixelColor(int(x), int(y)), QColor(color)
    return all(abs(a - b) <= tolerance for a, b in ((got.red(), want.red()), (got.green(), want.green()),
                                                    (got.blue(), want.blue())))


# -- wrapping --------------------------------------------------------------------------------------


@pytest.mark.parametrize("wrap", ["square", "tight"])
def test_square_wrap_narrows_only_the_lines_beside_the_picture(qapp, wrap):
    """A 200 x 100 px picture at the column's left, at its paragraph's top: the lines beside it
    start right of it (plus distR), the lines below it take the whole column again."""
    _rev, lay = lay_out(qapp, para(anchor(200, 100, ("column", 0), ("paragraph", 0), wrap=wrap, dist=12), WORDS))
    page = lay.pages[0]
    [drawing] = page.drawings
    assert drawing.rect == QRectF(MARGIN, MARGIN, 200, 100)
    lines = body_lines(page)
    beside = [ln for ln in lines if ln[2] < MARGIN + 100 + 12]
    below = [ln for ln in lines if ln[2] >= MARGIN + 100 + 12]
    assert len(beside) >= 5 and len(below) >= 5
    assert all(ln[0] >= MARGIN + 200 + 12 - 0.5 for ln in beside), beside[:2]
    assert all(abs(ln[0] - MARGIN) < 0.5 for ln in below), below[:2]
    assert all(ln[1] <= 720.5 for ln in lines)
    # beside the picture a line holds fewer words than a full one
    assert len(beside[1][4].split()) < len(below[1][4].split())


def test_square_wrap_on_the_left_of_a_right_aligned_picture(qapp):
    """Aligned right in the margins: the lines beside it end before it."""
    _rev, lay = lay_out(qapp, para(anchor(150, 120, ("margin", "right"), ("paragraph", 0)), WORDS))
    page = lay.pages[0]
    assert page.drawings[0].rect.x() == pytest.approx(720 - 150)
    lines = body_lines(page)
    beside = [ln for ln in lines if ln[2] < MARGIN + 120]
    assert beside and all(ln[1] <= 570.5 and abs(ln[0] - MARGIN) < 0.5 for ln in beside)
    assert any(ln[1] > 650 for ln in lines if ln[2] > MARGIN + 130)


def test_both_sides_wrap_sets_text_left_and_right_of_a_centred_picture(qapp):
    _rev, lay = lay_out(qapp, para(anchor(160, 80, ("margin", "center"), ("paragraph", 0)), WORDS))
    page = lay.pages[0]
    left, right = 408 - 80, 408 + 80
    beside = [ln for ln in body_lines(page) if ln[2] < MARGIN + 80]
    assert any(ln[1] <= left + 0.5 for ln in beside) and any(ln[0] >= right - 0.5 for ln in beside)
    assert not any(ln[0] < right - 0.5 and ln[1] > left + 0.5 for ln in beside)  # nothing over the picture


def test_wrap_text_right_keeps_the_left_side_empty(qapp):
    """wrapText="right": text only on the picture's right, even where the left has room."""
    _rev, lay = lay_out(qapp, para(anchor(160, 80, ("margin", "center"), ("paragraph", 0), side="right"), WORDS))
    beside = [ln for ln in body_lines(lay.pages[0]) if ln[2] < MARGIN + 80]
    assert beside and all(ln[0] >= 408 + 80 - 0.5 for ln in beside)


def test_top_and_bottom_moves_the_crossing_lines_below_the_picture(qapp):
    """A picture across the page at y 300..420: no text line beside it, the text goes on below."""
    body = para(text="First paragraph. " + WORDS[:600]) + \
        para(anchor(100, 120, ("page", 400), ("page", 300), wrap="topAndBottom"), WORDS)
    _rev, lay = lay_out(qapp, body)
    page = lay.pages[0]
    assert page.drawings[0].rect == QRectF(400, 300, 100, 120)
    lines = body_lines(page)
    assert not [ln for ln in lines if ln[3] > 300.5 and ln[2] < 419.5]
    assert any(ln[2] < 300 for ln in lines) and any(ln[2] >= 420 for ln in lines)
    # the lines that moved are not lost: the text still reads in order
    assert lay.page_text(1).split()[-1].startswith("word") and "word0" in lay.page_text(1)


def test_wrap_none_leaves_the_text_where_it_was(qapp):
    with_drawing = para(anchor(300, 200, ("column", 0), ("paragraph", 0), wrap="none"), WORDS)
    _rev, lay = lay_out(qapp, with_drawing)
    _rev2, plain = lay_out(qapp, para(text=WORDS))
    assert len(lay.pages[0].drawings) == 1 and lay.pages[0].drawings[0].wrap == "none"
    assert [ln[:4] for ln in body_lines(lay.pages[0])] == [ln[:4] for ln in body_lines(plain.pages[0])]


def test_text_after_the_picture_wraps_too_and_text_far_below_does_not(qapp):
    body = para(anchor(200, 150, ("column", 0), ("paragraph", 0)), "Short.") + para(text=WORDS[:300]) + \
        "".join(para(text=f"Later paragraph {i} " + WORDS[:200]) for i in range(3))
    _rev, lay = lay_out(qapp, body)
    lines = body_lines(lay.pages[0])
    second = [ln for ln in lines if ln[4].startswith("word0 ")]
    assert second and second[0][0] >= MARGIN + 200 - 0.5
    assert all(abs(ln[0] - MARGIN) < 0.5 for ln in lines if ln[2] > MARGIN + 160)


# -- position ------------------------------------------------------------------------------------


def test_anchors_are_positioned_from_page_margin_and_paragraph(qapp):
    body = (para(anchor(40, 30, ("page", 50), ("page", 60), wrap="none"), "one")
            + para(anchor(40, 30, ("margin", 10), ("margin", 20), wrap="none"), "two")
            + para(text="filler " * 40)
            + para(anchor(40, 30, ("column", 5), ("paragraph", 7), wrap="none"), "three")
            + para(anchor(40, 30, ("page", "center"), ("margin", "bottom"), wrap="none"), "four")
            + para(anchor(40, 30, ("margin", "right"), ("topMargin", "center"), wrap="none"), "five"))
    _rev, lay = lay_out(qapp, body)
    page = lay.pages[0]
    rects = [d.rect for d in page.drawings]
    assert rects[0] == QRectF(50, 60, 40, 30)
    assert rects[1] == QRectF(MARGIN + 10, MARGIN + 20, 40, 30)
    third = next(f for f in page.body_fragments() if f.text() == "three")
    assert rects[2].x() == pytest.approx(MARGIN + 5) and rects[2].y() == pytest.approx(third.top + 7)
    assert rects[3] == QRectF(408 - 20, 1056 - MARGIN - 30, 40, 30)
    assert rects[4] == QRectF(720 - 40, (MARGIN - 30) / 2, 40, 30)


def test_a_paragraph_that_starts_on_the_next_page_takes_its_drawing_there(qapp):
    filler = "".join(para(text=f"Line {i}") for i in range(44))
    _rev, lay = lay_out(qapp, filler + para(anchor(40, 30, ("column", 0), ("paragraph", 0), wrap="none"),
                                            "Anchor paragraph " + WORDS[:80]))
    where = [n for n, page in enumerate(lay.pages, 1) if page.drawings]
    start = lay.page_of(lay.pages[-1].body_fragments()[-1].block_id)
    assert where == [start]


# -- text boxes --------------------------------------------------------------------------------


def test_a_text_box_lays_out_its_paragraphs_inside_the_box_and_draws_them(qapp):
    box = anchor(240, 90, ("page", 300), ("page", 500), wrap="none", content=_text_box("Boxed words here"))
    _rev, lay = lay_out(qapp, para(box, "Body text."))
    page = lay.pages[0]
    [shape] = page.drawings[0].shapes
    assert shape.fill == "#FFFF00"
    [frag] = shape.text
    assert frag.text() == "Boxed words here"
    assert frag.x == pytest.approx(300 + 9.6) and frag.top >= 500 + 4.8 - 0.5
    assert "Boxed" not in lay.page_text(1)  # a text box's words are not body text
    image = render(page)
    assert _is(image, 300 + 235, 500 + 85, "#ffff00")  # the fill, clear of the text
    dark = [(x, y) for x in range(300, 540) for y in range(500, 590) if image.pixelColor(x, y).value() < 100]
    inside = [(x, y) for x, y in dark if 305 < x < 535 and 505 < y < 585]
    assert len(inside) > 50  # the words are painted in the box (the 1 pt outline is at its edge)


# -- painting ------------------------------------------------------------------------------------


def test_a_floating_picture_is_painted_at_its_anchored_place(qapp):
    _rev, lay = lay_out(qapp, para(anchor(100, 50, ("page", 300), ("page", 400), wrap="none"), "Some text"))
    image = render(lay.pages[0])
    assert _is(image, 350, 425, "#ff0000")
    assert _is(image, 302, 402, "#ff0000") and _is(image, 397, 447, "#ff0000")
    assert _is(image, 296, 425, "#ffffff") and _is(image, 350, 453, "#ffffff")
    doubled = render(lay.pages[0], zoom=2.0)
    assert _is(doubled, 700, 850, "#ff0000") and _is(doubled, 590, 850, "#ffffff")


def test_behind_text_pictures_paint_under_the_words(qapp):
    _rev, lay = lay_out(qapp, para(anchor(624, 60, ("column", 0), ("paragraph", 0), wrap="none", behind=True),
                                   "X" * 30))
    image = render(lay.pages[0])
    frag = lay.pages[0].body_fragments()[0]
    y = int(frag.top + frag.para.lines[0].ascent - 3)
    row = [image.pixelColor(x, y) for x in range(96, 400)]
    assert any(c.red() > 200 and c.green() < 60 for c in row)  # the picture
    assert any(c.value() < 60 for c in row)  # the text over it


def test_an_inline_picture_is_painted_on_its_line(qapp):
    media = {"rIdPic": ("green.png", _png("#00c000"))}
    _rev, lay = lay_out(qapp, "<w:p><w:r><w:t xml:space=\"preserve\">Before </w:t></w:r>" + inline(80, 40)
                        + "<w:r><w:t xml:space=\"preserve\"> after</w:t></w:r></w:p>", media)
    page = lay.pages[0]
    frag = page.body_fragments()[0]
    offset = frag.para.text.index("\ufffc")
    line = frag.para.layout.lineForTextPosition(offset)
    x = frag.x + frag.para.x + line.cursorToX(offset)[0]
    baseline = frag.y + line.y() + line.ascent()
    image = render(page)
    assert _is(image, x + 40, baseline - 20, "#00c000")
    assert _is(image, x + 40, baseline - 45, "#ffffff")
    assert frag.text().startswith("Before") and frag.text().endswith("after")


@pytest.mark.parametrize("name,data", [
    ("logo.emf", b"\x01\x00\x00\x00" + b"\x00" * 36 + b" EMF" + b"\x00" * 60),
    ("broken.png", b"\x89PNG\r\n\x1a\n not really"),
], ids=["emf", "corrupt-png"])
def test_pictures_qt_cannot_decode_draw_a_placeholder(qapp, name, data):
    from folio_desktop.ui.pages.drawings import PLACEHOLDER_FILL

    _rev, lay = lay_out(qapp, para(anchor(100, 60, ("page", 200), ("page", 200), wrap="none"), "x"),
                        {"rIdPic": (name, data)})
    image = render(lay.pages[0])
    assert _is(image, 230, 215, PLACEHOLDER_FILL.name(), tolerance=6)


def test_images_are_decoded_at_paint_not_at_layout(qapp):
    _rev, lay = lay_out(qapp, para(anchor(100, 50, ("page", 300), ("page", 400), wrap="none"), "x"))
    assert lay.pages[0].media.decoded == {}
    render(lay.pages[0])
    assert len(lay.pages[0].media.decoded) == 1


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs poppler's pdftoppm")
def test_the_pdf_export_prints_the_picture_where_it_is_anchored(qapp, tmp_path):
    from folio_desktop.ui.desk.export import render_pdf
    from folio_desktop.ui.pages.marks import ReviewIndex

    _rev, lay = lay_out(qapp, para(anchor(100, 50, ("page", 300), ("page", 400), wrap="none"), "Some text"))
    pdf = tmp_path / "out.pdf"
    pdf.write_bytes(render_pdf(lay.pages, ReviewIndex(None, "none", interactive=False)))
    subprocess.run(["pdftoppm", "-r", "96", "-png", "-singlefile", str(pdf), str(tmp_path / "page")], check=True)
    image = QImage(str(tmp_path / "page.png"))
    assert _is(image, 350, 425, "#ff0000") and _is(image, 290, 425, "#ffffff")
