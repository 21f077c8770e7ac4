"""Character formats the pages draw as Word does (issue 14): all caps and small caps from any level
of the style hierarchy, superscript, subscript and w:position raised off the baseline, footnote
marks, and a missing font's stand-in chosen by what the document's font table says of it."""

import pytest
from docbuilder import build_docx
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFontDatabase, QImage, QPainter, QRawFont

from folio_desktop.docx import DocxReviewer

PX_PER_PT = 96 / 72
NORMAL = '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>'


def _run(text: str, rpr: str = "") -> str:
    return f'<w:r>{f"<w:rPr>{rpr}</w:rPr>" if rpr else ""}<w:t xml:space="preserve">{text}</w:t></w:r>'


def _para(runs: str, ppr: str = "") -> str:
    return f'<w:p>{f"<w:pPr>{ppr}</w:pPr>" if ppr else ""}{runs}</w:p>'


def _layout(body: str, styles: str = NORMAL, **parts):
    from folio_desktop.layout import layout_document

    rev = DocxReviewer.from_bytes(build_docx(body, styles=styles, **parts))
    return layout_document(rev.document, view="none")


def _first(lay, text: str | None = None):
    """The first body fragment (or the first whose text starts with `text`)."""
    for frag in lay.pages[0].body_fragments():
        if text is None or frag.para.text.startswith(text):
            return frag
    raise AssertionError(f"no fragment starts with {text!r}")


def _width(frag) -> float:
    return frag.para.layout.lineAt(frag.first_line).naturalTextWidth()


def _render(layout, size=(900, 200)) -> QImage:
    """The layout drawn at (10, 10)."""
    image = QImage(*size, QImage.Format_RGB32)
    image.fill(Qt.white)
    painter = QPainter(image)
    layout.draw(painter, QPointF(10, 10))
    painter.end()
    return image


def _ink(image: QImage, x0: float, x1: float, y0: float = 0, y1: float | None = None):
    """(left, top, right, bottom) of the dark pixels in columns [x0, x1) and rows [y0, y1), or None."""
    y1 = image.height() if y1 is None else y1
    found = None
    for y in range(max(int(y0), 0), min(int(y1), image.height())):
        for x in range(max(int(x0), 0), min(int(x1), image.width())):
            if QColor(image.pixel(x, y)).lightness() < 140:
                if found is None:
                    found = [x, y, x, y]
                found = [min(found[0], x), min(found[1], y), max(found[2], x), max(found[3], y)]
    return tuple(found) if found else None


# -- caps and small caps -----------------------------------------------------------------------------


CAPS_STYLES = NORMAL + (
    '<w:style w:type="paragraph" w:styleId="Caps"><w:name w:val="Caps"/><w:basedOn w:val="Normal"/>'
    '<w:rPr><w:b/><w:caps/><w:sz w:val="24"/></w:rPr></w:style>'
    '<w:style w:type="paragraph" w:styleId="Plain"><w:name w:val="Plain"/><w:basedOn w:val="Normal"/>'
    '<w:rPr><w:b/><w:sz w:val="24"/></w:rPr></w:style>'
    '<w:style w:type="paragraph" w:styleId="CapsChild"><w:name w:val="Caps Child"/><w:basedOn w:val="Caps"/>'
    '</w:style>'
    '<w:style w:type="character" w:styleId="CapsChar"><w:name w:val="Caps Char"/><w:rPr><w:caps/></w:rPr>'
    '</w:style>')


def test_caps_from_a_paragraph_style_shape_capitals(qapp):
    # the ILPA's "recitals:" under a style (BoldCenter12pt, basedOn a style with w:caps)
    lay = _layout(_para(_run("recitals:"), '<w:pStyle w:val="CapsChild"/>')
                  + _para(_run("RECITALS:"), '<w:pStyle w:val="Plain"/>')
                  + _para(_run("recitals:"), '<w:pStyle w:val="Plain"/>'), CAPS_STYLES)
    caps, upper, lower = lay.pages[0].body_fragments()[:3]
    assert _width(caps) == pytest.approx(_width(upper), abs=0.01)
    assert _width(caps) > _width(lower) + 10
    assert caps.para.text == "recitals:"  # the document's text keeps its case: caps is only drawn
    assert caps.text() == "recitals:"


def test_caps_follow_the_toggle_rules(qapp):
    """Each style level that turns caps on flips it (paragraph style + character style = off); direct
    formatting sets it outright; document defaults count too."""
    cases = {
        "style+char": (_run("recitals:", '<w:rStyle w:val="CapsChar"/>'), "Caps", False),
        "style+direct off": (_run("recitals:", '<w:caps w:val="0"/>'), "Caps", False),
        "char style": (_run("recitals:", '<w:rStyle w:val="CapsChar"/><w:b/><w:sz w:val="24"/>'), "Normal", True),
        "direct on": (_run("recitals:", '<w:caps/>'), "Plain", True),
    }
    body = "".join(_para(run, f'<w:pStyle w:val="{style}"/>') for run, style, _ in cases.values())
    body += _para(_run("RECITALS:"), '<w:pStyle w:val="Plain"/>') + _para(_run("recitals:"), '<w:pStyle w:val="Plain"/>')
    frags = _layout(body, CAPS_STYLES).pages[0].body_fragments()
    upper, lower = _width(frags[-2]), _width(frags[-1])
    for (name, (_, _, shown_upper)), frag in zip(cases.items(), frags):
        assert _width(frag) == pytest.approx(upper if shown_upper else lower, abs=0.01), name

    defaults = ('<w:docDefaults><w:rPrDefault><w:rPr><w:caps/><w:b/><w:sz w:val="24"/></w:rPr></w:rPrDefault>'
                '</w:docDefaults>' + NORMAL)
    frag = _first(_layout(_para(_run("recitals:")), defaults))
    assert _width(frag) == pytest.approx(upper, abs=0.01)


def test_small_caps_draw_lower_case_as_smaller_capitals(qapp):
    # Word: a lower-case letter in small caps is a capital at 70% of the size (10 pt -> 7 pt)
    styles = NORMAL + ('<w:style w:type="character" w:styleId="Sc"><w:name w:val="Sc"/><w:rPr><w:smallCaps/>'
                       '<w:sz w:val="20"/></w:rPr></w:style>')
    lay = _layout(_para(_run("Recitals", '<w:rStyle w:val="Sc"/>'))
                  + _para(_run("R", '<w:sz w:val="20"/>') + _run("ECITALS", '<w:sz w:val="14"/>'))
                  + _para(_run("Recitals", '<w:sz w:val="20"/>')), styles)
    small, reference, plain = lay.pages[0].body_fragments()[:3]
    assert _width(small) == pytest.approx(_width(reference), abs=0.01)
    assert _width(small) > _width(plain) + 2
    sizes = sorted({run.rawFont().pixelSize() for run in small.para.layout.glyphRuns()})
    assert len(sizes) == 2 and sizes[0] / sizes[1] == pytest.approx(0.7, abs=0.05)


# -- vertical alignment and position -----------------------------------------------------------------


def _raised(lay):
    """(baseline y, ink of the second run's glyphs, ink of the first run's) of the first paragraph,
    drawn on its own at the origin (10, 10); the first run must be "H"."""
    frag = _first(lay)
    layout = frag.para.layout
    line = layout.lineAt(0)
    image = _render(layout)
    split = 10 + line.cursorToX(1)[0]
    end = 10 + line.cursorToX(len(frag.para.text))[0]
    return 10 + line.y() + line.ascent(), _ink(image, split + 1, end + 1), _ink(image, 0, split), line


def test_superscript_is_smaller_and_raised_a_third_of_the_em(qapp):
    # Word's PDF of docxide-case10: Aptos 12 pt superscripts are 7 pt, their baseline 4 pt up
    lay = _layout(_para(_run("H", '<w:sz w:val="48"/>') + _run("1", '<w:sz w:val="48"/><w:vertAlign w:val="superscript"/>')))
    baseline, mark, letter, _line = _raised(lay)
    em = 24 * PX_PER_PT
    assert letter[3] == pytest.approx(baseline, abs=1.5)  # "H" sits on the baseline
    assert baseline - mark[3] >= 0.28 * em  # the figure's foot is a third of the em up
    assert baseline - mark[3] <= 0.40 * em
    sizes = sorted(run.rawFont().pixelSize() for run in _first(lay).para.layout.glyphRuns())
    assert 0.5 <= sizes[0] / sizes[-1] <= 0.65  # not Qt's own 2/3 of an already reduced size


def test_subscript_is_smaller_and_lowered(qapp):
    lay = _layout(_para(_run("H", '<w:sz w:val="48"/>') + _run("2", '<w:sz w:val="48"/><w:vertAlign w:val="subscript"/>')))
    baseline, mark, _letter, _line = _raised(lay)
    em = 24 * PX_PER_PT
    assert mark[3] - baseline >= 0.05 * em
    assert mark[3] - baseline <= 0.15 * em
    sizes = sorted(run.rawFont().pixelSize() for run in _first(lay).para.layout.glyphRuns())
    assert 0.5 <= sizes[0] / sizes[-1] <= 0.65


def test_position_raises_and_lowers_and_makes_the_line_taller(qapp):
    # w:position is in half points: 24 = 12 pt up, -12 = 6 pt down
    plain = _layout(_para(_run("H", '<w:sz w:val="24"/>') + _run("1", '<w:sz w:val="24"/>')))
    up = _layout(_para(_run("H", '<w:sz w:val="24"/>') + _run("1", '<w:sz w:val="24"/><w:position w:val="24"/>')))
    down = _layout(_para(_run("H", '<w:sz w:val="24"/>') + _run("1", '<w:sz w:val="24"/><w:position w:val="-12"/>')))
    base_plain, mark_plain, _, _ = _raised(plain)
    base_up, mark_up, _, _ = _raised(up)
    base_down, mark_down, _, _ = _raised(down)
    assert (base_up - mark_up[3]) - (base_plain - mark_plain[3]) == pytest.approx(12 * PX_PER_PT, abs=1.5)
    assert (mark_down[3] - base_down) - (mark_plain[3] - base_plain) == pytest.approx(6 * PX_PER_PT, abs=1.5)
    height = _first(plain).para.lines[0].height
    assert _first(up).para.lines[0].height >= height + 12 * PX_PER_PT - 1
    assert _first(down).para.lines[0].height >= height + 6 * PX_PER_PT - 1


# -- font fallback by the font table -----------------------------------------------------------------


def _font_entry(name: str, family: str = "auto", pitch: str = "variable", panose: str | None = None,
                alt: str | None = None) -> str:
    return (f'<w:font w:name="{name}">' + (f'<w:altName w:val="{alt}"/>' if alt else "")
            + (f'<w:panose1 w:val="{panose}"/>' if panose else "")
            + f'<w:family w:val="{family}"/><w:pitch w:val="{pitch}"/></w:font>')


FONT_TABLE = (
    _font_entry("Quillmark Pro", family="swiss", panose="020B0604020202020204")  # swiss and a sans PANOSE
    + _font_entry("Quillmark Neue", panose="020F0502020204030204")  # only the PANOSE says sans (rounded)
    + _font_entry("Quillmark Code", family="modern", pitch="fixed")
    + _font_entry("Quillmark Book", family="roman", panose="02020603050405020304")
    + _font_entry("Quillmark Legal", family="roman", alt="Courier New")  # its altName's clone
    + _font_entry("Quillmark Text", family="roman", alt="DejaVu Sans")  # an installed altName
    + _font_entry("Quillmark Blank", family="swiss", panose="00000000000000000000")
)


@pytest.mark.parametrize("name, used", [
    ("Quillmark Pro", "Liberation Sans"), ("Quillmark Neue", "Liberation Sans"),
    ("Quillmark Code", "Liberation Mono"), ("Quillmark Book", "Liberation Serif"),
    ("Quillmark Legal", "Liberation Mono"), ("Quillmark Text", "DejaVu Sans"),
    ("Quillmark Blank", "Liberation Sans"),  # an all-zero PANOSE says nothing: the family decides
])
def test_a_missing_font_falls_back_by_its_font_table_entry(qapp, name, used):
    body = _para(_run("Some words", f'<w:rFonts w:ascii="{name}" w:hAnsi="{name}"/>'))
    lay = _layout(body, fontTable=FONT_TABLE)
    assert lay.font_substitutions.get(name) == used
    fonts = {run.rawFont().familyName() for run in _first(lay).para.layout.glyphRuns()}
    assert fonts == {used}


def test_fallback_without_a_font_table_keeps_the_name_hints(qapp):
    from folio_desktop.layout.fonts import FontBook

    book = FontBook()
    assert book.family("Quillmark Sans") == "Liberation Sans"
    assert book.family("Quillmark Mono") == "Liberation Mono"
    assert book.family("Quillmark") == "Liberation Serif"
    book.use_font_table({})
    assert book.substitutions == {"Quillmark Sans": "Liberation Sans", "Quillmark Mono": "Liberation Mono",
                                  "Quillmark": "Liberation Serif"}
    # the Inter (eigenpal's demo names it with no font table entry) is a sans
    if "Inter" not in QFontDatabase.families():
        assert book.family("Inter") == "Liberation Sans"


@pytest.mark.parametrize("name, clone", [("Century Gothic", "URW Gothic"), ("Palatino Linotype", "P052"),
                                         ("Book Antiqua", "P052"), ("Bookman Old Style", "URW Bookman"),
                                         ("Century Schoolbook", "C059"), ("Arial Narrow", "Nimbus Sans Narrow")])
def test_metric_compatible_clones_from_the_urw_fonts(qapp, name, clone):
    from folio_desktop.layout.fonts import FontBook

    if not any(f == clone or f.startswith(clone + " [") for f in QFontDatabase.families()):
        pytest.skip(f"{clone} is not installed (fonts-urw-base35; .ci/run installs it)")
    book = FontBook()
    font = book.font(name, 12)
    assert QRawFont.fromFont(font).familyName().split(" [")[0] == clone
    assert book.substitutions == {name: clone}  # the info bar names the family, not Qt's foundry
    assert book.line_height(font) > 0 and len(bytes(QRawFont.fromFont(font).fontTable("hhea"))) > 0  # the OpenType copy


# -- pixels: what the page shows ---------------------------------------------------------------------


def _paint(lay, zoom: float = 2.0) -> QImage:
    from folio_desktop.ui.pages.marks import ReviewIndex
    from folio_desktop.ui.pages.painter import paint_page

    page = lay.pages[0]
    image = QImage(int(page.width * zoom), int(page.height * zoom), QImage.Format_RGB32)
    image.fill(Qt.white)
    painter = QPainter(image)
    paint_page(painter, page, QRectF(0, 0, page.width * zoom, page.height * zoom), zoom,
               ReviewIndex(None, "none", interactive=False), shadow=False)
    painter.end()
    return image


def test_pixels_a_caps_heading_is_as_wide_as_its_capitals(qapp):
    heading = ('<w:style w:type="paragraph" w:styleId="Heading"><w:name w:val="Heading"/><w:basedOn w:val="Normal"/>'
               '<w:pPr><w:jc w:val="center"/></w:pPr><w:rPr><w:b/><w:sz w:val="32"/>{caps}</w:rPr></w:style>')
    widths = []
    for text, caps in (("recitals:", "<w:caps/>"), ("RECITALS:", "")):
        lay = _layout(_para(_run(text), '<w:pStyle w:val="Heading"/>') + _para(_run("Body text.")),
                      NORMAL + heading.format(caps=caps))
        frag = _first(lay)
        image = _paint(lay)
        ink = _ink(image, 0, image.width(), frag.top * 2, frag.bottom * 2)
        widths.append(ink[2] - ink[0])
    assert widths[0] == pytest.approx(widths[1], abs=1)


FOOTNOTES = ('<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
             '<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p>'
             '</w:footnote><w:footnote w:id="1"><w:p><w:pPr><w:pStyle w:val="FootnoteText"/></w:pPr><w:r><w:rPr>'
             '<w:rStyle w:val="FootnoteReference"/></w:rPr><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> '
             'The note.</w:t></w:r></w:p></w:footnote>')
NOTE_STYLES = NORMAL + (
    '<w:style w:type="character" w:styleId="FootnoteReference"><w:name w:val="footnote reference"/>'
    '<w:rPr><w:vertAlign w:val="superscript"/></w:rPr></w:style>'
    '<w:style w:type="paragraph" w:styleId="FootnoteText"><w:name w:val="footnote text"/><w:rPr>'
    '<w:sz w:val="20"/></w:rPr></w:style>'
    '<w:style w:type="paragraph" w:styleId="Body"><w:name w:val="Body"/><w:rPr><w:sz w:val="22"/></w:rPr></w:style>')


def test_pixels_a_footnote_mark_is_raised_above_the_baseline_beside_it(qapp):
    body = _para(_run("Clause 1") + '<w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr>'
                 '<w:footnoteReference w:id="1"/></w:r>' + _run(" goes on."), '<w:pStyle w:val="Body"/>')
    lay = _layout(body, NOTE_STYLES, footnotes=FOOTNOTES)
    frag = _first(lay, "Clause 1")
    offset = frag.para.note_refs[0][0]
    line = frag.para.layout.lineAt(0)
    zoom = 2.0
    left = frag.x + frag.para.x
    baseline = (frag.y + line.y() + line.ascent()) * zoom
    image = _paint(lay, zoom)
    top, bottom = (frag.top - 4) * zoom, (frag.bottom + 4) * zoom
    one = _ink(image, (left + line.cursorToX(offset - 1)[0]) * zoom, (left + line.cursorToX(offset)[0]) * zoom,
               top, bottom)
    mark = _ink(image, (left + line.cursorToX(offset)[0]) * zoom, (left + line.cursorToX(offset + 1)[0]) * zoom + 1,
                top, bottom)
    assert one is not None and mark is not None
    assert one[3] == pytest.approx(baseline, abs=2)  # the text's own "1" stands on the baseline
    em = 11 * PX_PER_PT * zoom
    assert baseline - mark[3] >= 0.25 * em  # the mark's foot is well above it, as Word draws it
    assert (mark[3] - mark[1]) / (one[3] - one[1]) == pytest.approx(0.58, abs=0.1)  # and 58% tall, not a speck
