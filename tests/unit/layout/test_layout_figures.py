"""Figures as Word places them: inline pictures take exactly their extent on the line (EMF and WMF
pictures Qt cannot decode, VML pictures and embedded OLE objects such as Visio drawings included), a
figure kept with its caption moves to the next page whole, an anchored picture near a page's foot
stays on its anchor's page inside the page, and a picture's line is drawn as Word draws it.

Each rule on a small document built in code (Letter, 1 inch margins: the text column is x 96..720,
y 96..960 px, 864 px tall). Body text is Calibri 11 pt (Carlito): a single line is 13.43 pt =
17.90 px, its descent (winDescent 512/2048 em) 2.75 pt = 3.67 px."""

from __future__ import annotations

import pytest
from docbuilder import build_docx, p
from PySide6.QtCore import QRectF
from test_layout_floating import _is, _png, render

from folio_desktop.docx import DocxReviewer
from folio_desktop.layout import layout_document

EMU = 9525  # per px
PX = 96 / 72  # px per pt
LINE = 13.43 * PX  # Calibri 11 pt, one line
TOP, BOTTOM, PAGE_HEIGHT = 96.0, 960.0, 1056.0
# Calibri 11 as the document default, no space after; Word's built-in Caption style (based on
# Normal, italic 9 pt, 200 twips after, single lines)
STYLES = ('<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri"/><w:sz w:val="22"/>'
          '</w:rPr></w:rPrDefault><w:pPrDefault><w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/>'
          '</w:pPr></w:pPrDefault></w:docDefaults>'
          '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>'
          '<w:style w:type="paragraph" w:styleId="Caption"><w:name w:val="caption"/><w:basedOn w:val="Normal"/>'
          '<w:next w:val="Normal"/><w:pPr><w:spacing w:after="200" w:line="240" w:lineRule="auto"/></w:pPr>'
          '<w:rPr><w:i/><w:iCs/><w:sz w:val="18"/><w:szCs w:val="18"/></w:rPr></w:style>')
EMF = b"\x01\x00\x00\x00" + b"\x00" * 36 + b" EMF" + b"\x00" * 60  # a header Qt cannot decode


def lay_out(body: str, media=None):
    rev = DocxReviewer.from_bytes(build_docx(body, media=media, styles=STYLES))
    return rev, layout_document(rev.document)


def inline(w: float, h: float, rid: str = "rIdPic", effect=(0, 0, 0, 0)) -> str:
    """A w:drawing inline picture of w x h px (its wp:extent), with a wp:effectExtent in px."""
    left, top, right, bottom = (int(v * EMU) for v in effect)
    return (f'<w:r><w:drawing><wp:inline distT="0" distB="0" distL="0" distR="0"><wp:extent cx="{int(w * EMU)}" '
            f'cy="{int(h * EMU)}"/><wp:effectExtent l="{left}" t="{top}" r="{right}" b="{bottom}"/>'
            '<wp:docPr id="2" name="i"/><a:graphic><a:graphicData '
            'uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic '
            'xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:nvPicPr><pic:cNvPr id="1" '
            f'name="p"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:embed="{rid}"/></pic:blipFill>'
            '<pic:spPr><a:prstGeom prst="rect"/></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:inline>'
            '</w:drawing></w:r>')


def vml_picture(style: str, rid: str = "rIdPic") -> str:
    """A VML picture as Word 2003 and converters write it: w:pict holding a v:shape sized by its style."""
    return ('<w:r><w:pict><v:shapetype id="_x0000_t75" coordsize="21600,21600" o:spt="75" '
            'xmlns:o="urn:schemas-microsoft-com:office:office"/><v:shape id="pic1" type="#_x0000_t75" '
            f'style="{style}"><v:imagedata r:id="{rid}"/></v:shape></w:pict></w:r>')


def visio_object(style: str, rid: str = "rIdPic", dxa: tuple[int, int] = (4000, 3000)) -> str:
    """An embedded Visio drawing: w:object with its original size (twips), the v:shape Word shows
    (its preview picture, sized by the style) and the o:OLEObject."""
    o = 'xmlns:o="urn:schemas-microsoft-com:office:office"'
    return (f'<w:r><w:object w:dxaOrig="{dxa[0]}" w:dyaOrig="{dxa[1]}"><v:shape id="ole1" {o} '
            f'type="#_x0000_t75" style="{style}" o:ole=""><v:imagedata r:id="{rid}" o:title=""/></v:shape>'
            f'<o:OLEObject {o} Type="Embed" ProgID="Visio.Drawing.15" ShapeID="ole1" DrawAspect="Content" '
            'ObjectID="_1" r:id="rIdOle"/></w:object></w:r>')


def anchor(w: float, h: float, offset: float, wrap: str = "topAndBottom") -> str:
    """A floating picture positioned `offset` px below the top of its anchor paragraph."""
    wraps = {"topAndBottom": "<wp:wrapTopAndBottom/>", "square": '<wp:wrapSquare wrapText="bothSides"/>'}
    return ('<w:r><w:drawing><wp:anchor distT="0" distB="0" distL="0" distR="0" simplePos="0" relativeHeight="2" '
            'behindDoc="0" locked="0" layoutInCell="1" allowOverlap="1"><wp:simplePos x="0" y="0"/>'
            '<wp:positionH relativeFrom="column"><wp:posOffset>0</wp:posOffset></wp:positionH>'
            f'<wp:positionV relativeFrom="paragraph"><wp:posOffset>{int(offset * EMU)}</wp:posOffset>'
            f'</wp:positionV><wp:extent cx="{int(w * EMU)}" cy="{int(h * EMU)}"/>'
            f'<wp:effectExtent l="0" t="0" r="0" b="0"/>{wraps[wrap]}<wp:docPr id="1" name="d"/><a:graphic>'
            '<a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic '
            'xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:nvPicPr><pic:cNvPr id="1" '
            'name="p"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:embed="rIdPic"/></pic:blipFill>'
            '<pic:spPr><a:prstGeom prst="rect"/></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:anchor>'
            '</w:drawing></w:r>')


def text_run(text: str) -> str:
    return f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>'


def where(layout, starts: str):
    """(page number, fragment) of the body fragment whose text starts with `starts`."""
    for number, page in enumerate(layout.pages, 1):
        for frag in page.body_fragments():
            if frag.text().startswith(starts):
                return number, frag
    raise AssertionError(f"no fragment starts with {starts!r}")


def picture_fragment(layout):
    """(page number, fragment) of the first body fragment that holds a picture."""
    for number, page in enumerate(layout.pages, 1):
        for frag in page.body_fragments():
            if frag.para.objects:
                return number, frag
    raise AssertionError("no picture on any page")


def x_of(frag, offset: int) -> float:
    line = frag.para.layout.lineForTextPosition(offset)
    return frag.x + frag.para.x + line.cursorToX(offset)[0]


# -- a figure and its caption at a page's foot ---------------------------------------------------------


def test_a_figure_kept_with_its_caption_moves_to_the_next_page_whole(qapp):
    """A figure paragraph with keepNext and its Caption paragraph, where the picture fits at the
    page's foot and the caption does not: Word sets the chain on the next page whole, as it does any
    keep-with-next chain that fits on an empty page (our engine left chains taller than 90% of a page
    where they were, so the caption went on alone). Without keepNext, nothing holds them together:
    the caption alone opens the next page.

    The arithmetic: the one-line paragraph above ends at 96 + 17.90 = 113.90 px, leaving 846.10 px.
    The figure's line is the picture (835.2 px, 8.7 in) and the text's descent (3.67 px): 838.87 px,
    which fits. The caption's 9 pt line is 9 x 2500/2048 pt = 14.65 px: the two need 853.52 px, more
    than the 846.10 left and less than the 864 px of an empty page."""
    figure = inline(624, 835.2)
    caption = p("Figure 1: The fund structure", ppr='<w:pStyle w:val="Caption"/>')
    for keep, together in (('<w:pPr><w:keepNext/></w:pPr>', True), ("", False)):
        body = p("Intro") + f"<w:p>{keep}{figure}</w:p>" + caption + p("After the figure")
        _rev, layout = lay_out(body, {"rIdPic": ("screen.emf", EMF)})
        figure_page, figure_frag = picture_fragment(layout)
        caption_page, caption_frag = where(layout, "Figure 1")
        assert caption_page == 2
        assert caption_frag.para.lines[0].height == pytest.approx(9 * 2500 / 2048 * PX, abs=0.3)
        if together:
            assert figure_page == 2 and figure_frag.top == pytest.approx(TOP)
            assert caption_frag.top == pytest.approx(figure_frag.bottom, abs=0.01)
        else:
            assert figure_page == 1 and caption_frag.top == pytest.approx(TOP)



def test_a_caption_above_its_figure_goes_with_it_to_the_next_page(qapp):
    """A caption set above its figure, the Caption paragraph kept with the next (keepNext): three
    lines of intro end at 96 + 3 x 17.90 = 149.71 px, leaving
    810.29 px. The caption (14.65 px, 200 twips = 13.33 px after) would fit; the figure's line,
    800 + 3.67 px, would not. The chain, 14.65 + 13.33 + 803.67 = 831.65 px, fits on an empty page
    (864 px): Word sets both on the next page, the caption no longer alone at the foot. (It is over
    90% of a page, so our engine left the caption behind.)"""
    caption = p("Figure 3: Distribution waterfall", ppr='<w:pStyle w:val="Caption"/><w:keepNext/>')
    body = p("Intro one") + p("Intro two") + p("Intro three") + caption + "<w:p>" + inline(600, 800) + "</w:p>"
    _rev, layout = lay_out(body, {"rIdPic": ("chart.emf", EMF)})
    caption_page, caption_frag = where(layout, "Figure 3")
    figure_page, figure_frag = picture_fragment(layout)
    assert caption_page == figure_page == 2
    assert caption_frag.top == pytest.approx(TOP)
    assert figure_frag.top == pytest.approx(caption_frag.bottom + 200 / 15, abs=0.01)

# -- inline pictures take exactly their size -----------------------------------------------------------


def test_two_emf_pictures_of_half_the_column_share_one_line(qapp):
    """Two EMF screenshots side by side, each 312 px wide (half of the 624 px column), sit on one
    line in Word: an inline picture takes exactly its wp:extent, whatever its bytes (Qt cannot
    decode EMF; the size never comes from the blob). The text after a picture starts where the
    picture ends. (Our line held each picture as a glyph widened to its extent, and the glyph's own
    advance, 5 px at Calibri 11, came on top: 2 x 317 > 624, the second picture wrapped.)"""
    body = "<w:p>" + inline(312, 200, "rIdA") + inline(312, 200, "rIdB") + "</w:p>" + \
        "<w:p>" + text_run("See ") + inline(100, 20, "rIdA") + text_run("here") + "</w:p>"
    _rev, layout = lay_out(body, {"rIdA": ("left.emf", EMF), "rIdB": ("right.wmf", b"\xd7\xcd\xc6\x9a" + b"\0" * 40)})
    _page, pair = picture_fragment(layout)
    assert len(pair.para.lines) == 1
    assert x_of(pair, 1) - x_of(pair, 0) == pytest.approx(312, abs=0.5)
    # one line: the picture (200 px) and the text's descent, not two picture lines
    assert pair.para.lines[0].height == pytest.approx(200 + 0.2 * LINE, abs=1.0)
    _page, see = where(layout, "See")
    at = see.para.text.index("\ufffc")
    assert x_of(see, at + 1) - x_of(see, at) == pytest.approx(100, abs=0.5)


def test_a_small_inline_picture_in_a_line_of_text_breaks_it_where_word_does(qapp):
    """docxide-case16 (word-pdf): "This paragraph contains a small inline image [a 1 x 0.6 in
    picture] embedded within the text" ends its line in Word's PDF and "flow." opens the next. The
    picture held its 96 px less 8 px plus the replacement glyph's own advance, which Cambria's
    stand-in (Caladea) does not have: 88 px, and the line had room for "flow." too."""
    from conftest import CORPUS

    from folio_desktop.layout.fonts import FontBook

    book = FontBook()
    if book.family("Cambria") == "Cambria" or "Caladea" not in book.family("Cambria"):
        pytest.skip("Caladea is not installed (.ci/run installs it)")
    rev = DocxReviewer.open(CORPUS / "word-pdf" / "docxide-case16.docx")
    layout = layout_document(rev.document, view="none")
    lines = [frag.para.text[line.start:line.end].strip() for page in layout.pages for frag in page.body_fragments()
             for line in frag.para.lines[frag.first_line:frag.last_line + 1]]
    line = next(t for t in lines if t.startswith("This paragraph contains"))
    assert line.endswith("embedded within the text")
    assert "flow." in lines


@pytest.mark.parametrize("run", [
    vml_picture("width:351pt;height:225pt"),
    vml_picture("width:4.875in;height:3.125in"),
    visio_object("width:351pt;height:225pt", dxa=(9360, 5040)),  # its original size is not what shows
    visio_object("", dxa=(7020, 4500)),  # no style: its original size, 7020 x 4500 twips = 351 x 225 pt
], ids=["vml-pt", "vml-in", "visio-styled", "visio-original-size"])
def test_a_vml_picture_or_ole_object_takes_its_shown_size_on_the_line(qapp, run):
    """A VML picture (w:pict, v:shape style="width:..;height:..") and an embedded OLE object such as a
    Visio drawing (w:object, the v:shape of its preview) take the room Word gives them: the shape's
    style size (351 x 225 pt = 468 x 300 px), or an OLE object's w:dxaOrig / w:dyaOrig (twips) when
    the shape gives none. They took no room at all: the paragraph was one text line tall and the
    page held 20 px too much text. The line is 300 px and the text's descent; the text after the
    object starts 468 px right of it."""
    body = p("Above") + "<w:p>" + run + text_run("x") + "</w:p>" + p("Below")
    _rev, layout = lay_out(body, {"rIdPic": ("drawing.emf", EMF)})
    _page, frag = picture_fragment(layout)
    [line] = frag.para.lines
    assert line.height == pytest.approx(300 + 0.2 * LINE, abs=1.0)
    assert x_of(frag, 1) - x_of(frag, 0) == pytest.approx(468, abs=0.5)
    _page, below = where(layout, "Below")
    assert below.top == pytest.approx(TOP + LINE + line.height, abs=0.5)


def test_a_floating_vml_shape_takes_no_room_on_the_line(qapp):
    """A VML shape positioned absolutely floats (like a wp:anchor): it is not part of the line. Its
    paragraph is one text line, as are the ones around it; the inline VML picture beside it holds
    its 60 pt (80 px) on the line."""
    floating = ('<w:r><w:pict><v:rect style="position:absolute;margin-left:198pt;margin-top:7.8pt;'
                'width:300pt;height:400pt;z-index:1"/></w:pict></w:r>')
    body = p("Above") + "<w:p>" + floating + text_run("Beside") + "</w:p>" + \
        "<w:p>" + vml_picture("width:60pt;height:60pt") + "</w:p>"
    _rev, layout = lay_out(body, {"rIdPic": ("p.png", _png("#ff0000"))})
    _page, beside = where(layout, "Beside")
    assert beside.para.lines[0].height == pytest.approx(LINE, abs=0.3)
    _page, frag = picture_fragment(layout)
    assert frag.para.lines[0].height == pytest.approx(80 + 0.2 * LINE, abs=1.0)


def test_a_vml_picture_is_painted_at_its_size_on_its_line(qapp):
    """The VML picture's v:imagedata is drawn in the room its line holds: the picture's top is the
    line's top, the text's descent is below it."""
    body = p("Above") + "<w:p>" + vml_picture("width:150pt;height:75pt") + "</w:p>"
    _rev, layout = lay_out(body, {"rIdPic": ("p.png", _png("#ff0000"))})
    page = layout.pages[0]
    _number, frag = picture_fragment(layout)
    image = render(page)
    assert _is(image, frag.x + 100, frag.top + 3, "#ff0000")  # 200 x 100 px from the line's top
    assert _is(image, frag.x + 195, frag.top + 97, "#ff0000")
    assert _is(image, frag.x + 205, frag.top + 50, "#ffffff")
    assert _is(image, frag.x + 100, frag.top - 3, "#ffffff")


def test_an_effect_extent_adds_to_an_inline_pictures_room(qapp):
    """A picture with a shadow or an outline carries wp:effectExtent, the room its effects take
    past the extent on each side (ECMA-376 Part 1 §20.4.2.6: it "shall be added to each edge" of
    the object): a 200 x 100 px picture with 6 px left, 4 px top, 10 px right and 12 px bottom takes
    216 px on its line and a line of 116 px and the text's descent. (It was laid out at its bare extent.)"""
    body = "<w:p>" + inline(200, 100, effect=(6, 4, 10, 12)) + text_run("after") + "</w:p>"
    _rev, layout = lay_out(body, {"rIdPic": ("p.png", _png("#ff0000"))})
    _page, frag = picture_fragment(layout)
    assert x_of(frag, 1) - x_of(frag, 0) == pytest.approx(216, abs=0.5)
    assert frag.para.lines[0].height == pytest.approx(116 + 0.2 * LINE, abs=1.0)
    image = render(layout.pages[0])
    x0 = x_of(frag, 0)
    assert _is(image, x0 + 8, frag.top + 6, "#ff0000") and _is(image, x0 + 204, frag.top + 102, "#ff0000")
    assert _is(image, x0 + 3, frag.top + 50, "#ffffff") and _is(image, x0 + 100, frag.top + 107, "#ffffff")


# -- anchored pictures near a page's foot ----------------------------------------------------------------


def _filler(lines: int) -> str:
    return "".join(p(f"Filler {i}") for i in range(lines))


def test_an_anchored_picture_near_the_foot_is_moved_up_inside_its_anchors_page(qapp):
    """A top-and-bottom picture 300 px tall, positioned from its paragraph (offset 0), whose anchor
    paragraph starts at 96 + 45 x 17.90 = 901.5 px: it would reach 1201.5 px, past the page's
    1056 px edge. Word keeps it on its anchor's page, moved up until its bottom is the page's edge
    (y 756), and the text it wraps top-and-bottom, with no room below it there, moves on to the next
    page. (It ran off the page, and the paragraph's first line was set over it.)"""
    body = _filler(45) + "<w:p>" + anchor(200, 300, 0) + text_run("Anchored text") + "</w:p>" + p("After")
    _rev, layout = lay_out(body, {"rIdPic": ("p.png", _png("#ff0000"))})
    first = layout.pages[0]
    [drawing] = first.drawings
    assert drawing.rect == QRectF(96, PAGE_HEIGHT - 300, 200, 300)
    number, text = where(layout, "Anchored text")
    assert number == 2 and text.top == pytest.approx(TOP)
    assert not layout.pages[1].drawings
    _number, filler = where(layout, "Filler 44")
    assert filler.bottom == pytest.approx(901.5, abs=0.3)  # the text above is not moved


def test_a_square_wrapped_picture_near_the_foot_stays_inside_the_page(qapp):
    """The same for square wrapping: the 300 px picture anchored at 96 + 42 x 17.90 = 847.8 px goes
    up to y 756, on the anchor's page; the paragraph's first lines run beside it on that page."""
    body = _filler(42) + "<w:p>" + anchor(200, 300, 0, wrap="square") + text_run("Beside the picture") + "</w:p>"
    _rev, layout = lay_out(body, {"rIdPic": ("p.png", _png("#ff0000"))})
    [drawing] = layout.pages[0].drawings
    assert drawing.rect.bottom() == pytest.approx(PAGE_HEIGHT) and drawing.rect.top() == pytest.approx(756)
    number, text = where(layout, "Beside")
    assert number == 1 and x_of(text, 0) == pytest.approx(296, abs=0.5)


def test_text_under_a_top_and_bottom_picture_with_no_room_below_it_moves_on(qapp):
    """A top-and-bottom picture from 615.1 to 945.1 px (its paragraph's one line at 96 + 28 x 17.90
    = 597.2, the picture 17.90 px below the paragraph's top): the next paragraph would start at
    615.1, under the picture; below it, at 945.1 + 17.90 = 963.0 px, its line passes the margin at
    960. Word sets it on the next page. (Our engine moved on only a paragraph's later lines; the
    first was set over the picture.)"""
    top = 96 + 28 * LINE  # 597.2 px
    body = _filler(28) + "<w:p>" + text_run("Anchor") + anchor(200, 330, LINE) + "</w:p>" + p("Next one")
    _rev, layout = lay_out(body, {"rIdPic": ("p.png", _png("#ff0000"))})
    [drawing] = layout.pages[0].drawings
    assert drawing.rect.top() == pytest.approx(top + LINE, abs=0.3)
    number, nxt = where(layout, "Next one")
    assert number == 2 and nxt.top == pytest.approx(TOP)


# -- the line of a paragraph holding a picture ---------------------------------------------------------------


@pytest.mark.parametrize("spacing", ["", '<w:spacing w:line="276" w:lineRule="auto"/>',
                                     '<w:spacing w:line="400" w:lineRule="atLeast"/>'],
                         ids=["single", "multiple-1.15", "at-least-20pt"])
def test_an_inline_picture_stands_on_its_lines_baseline_from_the_lines_top(qapp, spacing):
    """Single, multiple (1.15) and at-least spacing under a 300 px picture: the line is the picture
    and the text's descent (Word: the OpenChain handout's 179.5 pt logo line at 1.15 lines is
    185 pt, its Arial 26 pt descent added), the picture's foot on the baseline, so its top is the
    line's top and nothing of it is drawn over the paragraph above. (The baseline sat where the
    text's sits in a taller box, 4/5 of the way down: the picture reached 57 px above its line.)"""
    body = p("Above") + f"<w:p><w:pPr>{spacing}</w:pPr>" + inline(300, 300) + text_run("x") + "</w:p>"
    _rev, layout = lay_out(body, {"rIdPic": ("p.png", _png("#ff0000"))})
    _number, frag = picture_fragment(layout)
    assert frag.para.lines[0].height == pytest.approx(300 + 0.2 * LINE, abs=1.0)
    image = render(layout.pages[0])
    x = x_of(frag, 0)
    assert _is(image, x + 150, frag.top + 2, "#ff0000") and _is(image, x + 150, frag.top + 297, "#ff0000")
    assert _is(image, x + 150, frag.top - 2, "#ffffff")
    line = frag.para.layout.lineAt(0)
    assert frag.y + line.y() + line.ascent() == pytest.approx(frag.top + 300, abs=1.0)  # the baseline


def test_exact_line_spacing_shows_only_the_foot_of_a_taller_picture(qapp):
    """An exact line spacing (20 pt = 26.67 px) under a 300 px picture: Word keeps the line at
    26.67 px and clips the picture to it, its foot on the baseline; nothing is drawn over the
    paragraph above. (The whole picture was drawn, 270 px up over the text above.)"""
    body = p("Above") + '<w:p><w:pPr><w:spacing w:line="400" w:lineRule="exact"/></w:pPr>' + \
        inline(300, 300) + "</w:p>"
    _rev, layout = lay_out(body, {"rIdPic": ("p.png", _png("#ff0000"))})
    _number, frag = picture_fragment(layout)
    assert frag.para.lines[0].height == pytest.approx(400 / 15)
    image = render(layout.pages[0])
    x = x_of(frag, 0)
    assert _is(image, x + 150, frag.top + 10, "#ff0000")
    assert _is(image, x + 150, frag.top - 5, "#ffffff") and _is(image, x + 150, TOP + 5, "#ffffff")


def test_a_paragraph_that_orphan_control_moves_on_takes_its_picture_with_it(qapp):
    """A two-line paragraph anchoring a square-wrapped picture, starting at 96 + 47 x 17.90 = 937.3
    px: its first line fits above the 960 px margin, its second does not, and widow and orphan
    control (Word's default) sends the whole paragraph to the next page. Its picture goes with its
    anchor, to the top of page 2. (The picture stayed on page 1, under the last filler line.)"""
    words = " ".join(["words"] * 20)  # two lines, beside the picture or not
    body = _filler(47) + "<w:p>" + anchor(100, 50, 0, wrap="square") + text_run("Moved " + words) + "</w:p>"
    _rev, layout = lay_out(body, {"rIdPic": ("p.png", _png("#ff0000"))})
    number, text = where(layout, "Moved")
    assert number == 2 and text.top == pytest.approx(TOP)
    assert len(text.para.lines) == 2
    assert not layout.pages[0].drawings
    [drawing] = layout.pages[1].drawings
    assert drawing.rect == QRectF(96, TOP, 100, 50)
