"""Paragraph borders and shading, table border resolution and vertically merged cells, as Word
draws them (issue 14): each rule on a small document built in code, asserted on the laid-out page,
and one rendered page whose border pixels must carry the document's colours."""

import pytest
from docbuilder import build_docx, p
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QImage, QPainter

from folio_desktop.docx import DocxReviewer

PT = 96 / 72
LEFT, WIDTH = 96.0, 624.0  # the docbuilder page: 1 inch margins on US Letter


def lay_out(body: str, styles: str = ""):
    from folio_desktop.layout import layout_document

    parts = {"styles": styles} if styles else {}
    rev = DocxReviewer.from_bytes(build_docx(body, **parts))
    return rev, layout_document(rev.document)


def frag_of(page, text: str):
    return next(f for f in page.body_fragments() if f.text().startswith(text))


def horizontal(page, color=None):
    return sorted((s for s in page.borders if abs(s.y1 - s.y2) < 0.01 and (color is None or s.color == color)),
                  key=lambda s: (s.y1, s.x1))


def vertical(page, color=None):
    return sorted((s for s in page.borders if abs(s.x1 - s.x2) < 0.01 and (color is None or s.color == color)),
                  key=lambda s: (s.x1, s.y1))


def bdr(side: str, val="single", sz=8, space=1, color="000000", extra="") -> str:
    return f'<w:{side} w:val="{val}" w:sz="{sz}" w:space="{space}" w:color="{color}"{extra}/>'


# -- paragraph borders ---------------------------------------------------------------------------------


def test_a_title_underline_is_drawn_below_the_text_in_its_colour_width_and_space(qapp):
    _rev, lay = lay_out(p("Agreement", ppr=f"<w:pBdr>{bdr('bottom', sz=12, space=4, color='2E74B5')}</w:pBdr>")
                        + p("Body text."))
    page = lay.pages[0]
    title = frag_of(page, "Agreement")
    [rule] = horizontal(page)
    assert rule.color == "#2E74B5" and rule.style == "single"
    assert rule.width == pytest.approx(12 / 8 * PT)  # w:sz is in eighths of a point
    # w:space (points) separates the text from the border; the line spans the text column
    assert rule.y1 - rule.width / 2 == pytest.approx(title.bottom + 4 * PT)
    assert (rule.x1, rule.x2) == (pytest.approx(LEFT), pytest.approx(LEFT + WIDTH))


def test_a_border_takes_room_above_and_below_the_text(qapp):
    box = f"<w:pBdr>{bdr('top', sz=24, space=6)}{bdr('bottom', sz=16, space=3)}</w:pBdr>"
    _rev, plain = lay_out(p("Intro.") + p("Boxed heading") + p("After."))
    _rev, boxed = lay_out(p("Intro.") + p("Boxed heading", ppr=box) + p("After."))
    before, after = plain.pages[0], boxed.pages[0]
    top_room = 6 * PT + 24 / 6  # space plus width (px)
    bottom_room = 3 * PT + 16 / 6
    assert frag_of(after, "Boxed").top - frag_of(before, "Boxed").top == pytest.approx(top_room)
    assert frag_of(after, "After").top - frag_of(before, "After").top == pytest.approx(top_room + bottom_room)
    top, bottom = horizontal(after)
    assert top.y1 + top.width / 2 == pytest.approx(frag_of(after, "Boxed").top - 6 * PT)  # lower edge
    assert bottom.y1 - bottom.width / 2 == pytest.approx(frag_of(after, "Boxed").bottom + 3 * PT)


def test_identical_borders_make_one_box_with_between_rules(qapp):
    sides = (bdr("top", color="111111") + bdr("left", space=4, color="111111") + bdr("bottom", color="111111")
             + bdr("right", space=4, color="111111") + bdr("between", sz=4, color="C00000"))
    ppr = f"<w:pBdr>{sides}</w:pBdr>"
    _rev, lay = lay_out(p("Before.") + p("One", ppr=ppr) + p("Two", ppr=ppr) + p("Three", ppr=ppr) + p("After."))
    page = lay.pages[0]
    one, two, three = (frag_of(page, t) for t in ("One", "Two", "Three"))
    assert len(horizontal(page, "#111111")) == 2  # one top border, one bottom border for the three
    betweens = horizontal(page, "#C00000")
    assert len(betweens) == 2
    for rule, below in zip(betweens, (two, three), strict=True):
        assert one.bottom <= rule.y1 <= below.top  # between the paragraphs, above the next one's text
    left, right = vertical(page)
    top, bottom = horizontal(page, "#111111")
    assert left.y1 == pytest.approx(top.y1 - top.width / 2) and left.y2 == pytest.approx(bottom.y2 + bottom.width / 2)
    # the side borders sit outside the text, w:space away from it
    assert left.x1 + left.width / 2 == pytest.approx(LEFT - 4 * PT)
    assert right.x1 - right.width / 2 == pytest.approx(LEFT + WIDTH + 4 * PT)


def test_a_group_without_a_between_border_has_no_rule_inside(qapp):
    ppr = f"<w:pBdr>{bdr('bottom', sz=18, color='A6A6A6')}</w:pBdr>"
    _rev, lay = lay_out(p("Name:", ppr=ppr) + p("Date:", ppr=ppr) + p("Next."))
    page = lay.pages[0]
    [rule] = horizontal(page)
    assert rule.y1 > frag_of(page, "Date:").bottom  # only under the last of the two


def test_different_borders_or_indents_do_not_share_a_box(qapp):
    green = f"<w:pBdr>{bdr('bottom', sz=24, color='009900')}</w:pBdr>"
    light = f"<w:pBdr>{bdr('bottom', sz=24, color='33CC33')}</w:pBdr>"
    indented = light + '<w:ind w:left="720"/>'
    _rev, lay = lay_out(p("First", ppr=green) + p("Second", ppr=light) + p("Third", ppr=indented))
    page = lay.pages[0]
    rules = horizontal(page)
    assert [r.color for r in rules] == ["#009900", "#33CC33", "#33CC33"]
    assert rules[2].x1 == pytest.approx(LEFT + 720 / 15)  # the border follows the paragraph's indent


def test_paragraph_borders_inherit_side_by_side_and_nil_removes_one(qapp):
    styles = ('<w:style w:type="paragraph" w:styleId="Rule"><w:name w:val="Rule"/><w:pPr><w:pBdr>'
              + bdr("bottom", sz=12, color="1F3864") + '</w:pBdr></w:pPr></w:style>')
    both = f'<w:pStyle w:val="Rule"/><w:pBdr>{bdr("top", color="FF0000")}</w:pBdr>'
    removed = f'<w:pStyle w:val="Rule"/><w:pBdr>{bdr("bottom", val="nil")}</w:pBdr>'
    _rev, lay = lay_out(p("Both", ppr=both) + p("Plain") + p("Removed", ppr=removed), styles)
    page = lay.pages[0]
    assert [r.color for r in horizontal(page)] == ["#FF0000", "#1F3864"]
    assert all(r.y1 < frag_of(page, "Plain").top for r in horizontal(page))


def test_border_colours_auto_and_theme(qapp):
    from folio_desktop.layout.borders import make_border

    auto = f"<w:pBdr>{bdr('bottom', color='auto')}</w:pBdr>"
    theme_attrs = ' w:themeColor="background1" w:themeShade="80"'
    themed = "<w:pBdr>" + bdr("bottom", color="A6A6A6", extra=theme_attrs) + "</w:pBdr>"
    _rev, lay = lay_out(p("Auto", ppr=auto) + p("Gap") + p("Themed", ppr=themed))
    # auto is black; without a theme part the w:color Word wrote beside the theme colour stands
    assert [r.color for r in horizontal(lay.pages[0])] == ["#000000", "#A6A6A6"]

    class Theme:
        def color(self, name):
            return {"background1": "FFFFFF", "accent1": "4472C4"}.get(name)

    theme = Theme()
    # with a theme the theme colour wins, shaded (times 0x80/0xFF) or tinted (towards white)
    assert make_border(("single", "8", "0", "A6A6A6", "background1", None, "80"), theme).color == "#808080"
    assert make_border(("single", "8", "0", "000000", "accent1", "33", None), theme).color == "#DAE3F3"


def test_paragraph_shading_fills_behind_the_paragraph(qapp):
    shaded = '<w:shd w:val="clear" w:color="auto" w:fill="DEEAF6"/>'
    _rev, lay = lay_out(p("Shaded one", ppr=shaded) + p("Shaded two", ppr=shaded) + p("Plain")
                        + p("Auto", ppr='<w:shd w:val="clear" w:color="auto" w:fill="auto"/>'))
    page = lay.pages[0]
    fills = [(rect, color) for rect, color in page.fills if color == "#DEEAF6"]
    one, two = frag_of(page, "Shaded one"), frag_of(page, "Shaded two")
    top = min(rect.top() for rect, _c in fills)
    bottom = max(rect.bottom() for rect, _c in fills)
    assert top == pytest.approx(one.top) and bottom == pytest.approx(two.bottom)
    # consecutive shaded paragraphs are one block: the gap between them is shaded too
    assert sum(rect.height() for rect, _c in fills) == pytest.approx(two.bottom - one.top)
    assert all(rect.left() == pytest.approx(LEFT) and rect.width() == pytest.approx(WIDTH) for rect, _c in fills)
    assert len(page.fills) == len(fills)  # fill="auto" shades nothing


# -- tables --------------------------------------------------------------------------------------------


def tc(text: str, tcpr: str = "", width: int = 3000) -> str:
    return f'<w:tc><w:tcPr><w:tcW w:w="{width}" w:type="dxa"/>{tcpr}</w:tcPr>{p(text)}</w:tc>'


def table(rows: list[list[str]], tblpr: str = "", cols: int = 2, tr_extra: dict | None = None) -> str:
    grid = "".join('<w:gridCol w:w="3000"/>' for _ in range(cols))
    body = "".join(f"<w:tr>{(tr_extra or {}).get(i, '')}{''.join(row)}</w:tr>" for i, row in enumerate(rows))
    return f"<w:tbl><w:tblPr>{tblpr}</w:tblPr><w:tblGrid>{grid}</w:tblGrid>{body}</w:tbl>" + p("after")


def test_table_borders_have_their_colours_widths_and_styles(qapp):
    borders = ("<w:tblBorders>" + bdr("top", sz=12, color="0000FF") + bdr("left", color="0000FF")
               + bdr("bottom", val="double", sz=4, color="0000FF") + bdr("right", color="0000FF")
               + bdr("insideH", val="dashed", sz=4, color="BFBFBF") + bdr("insideV", val="dotted", sz=4, color="BFBFBF")
               + "</w:tblBorders>")
    _rev, lay = lay_out(table([[tc("A"), tc("B")], [tc("C"), tc("D")]], borders))
    page = lay.pages[0]
    rows = horizontal(page)
    assert [(r.color, r.style) for r in rows] == [("#0000FF", "single"), ("#BFBFBF", "dashed"), ("#0000FF", "double")]
    assert rows[0].width == pytest.approx(2.0) and rows[2].width == pytest.approx(3 * 4 / 6)  # double: two lines and a gap
    inner = [s for s in vertical(page) if s.color == "#BFBFBF"]
    assert inner and all(s.style == "dotted" and s.x1 == pytest.approx(LEFT + 200) for s in inner)
    assert not page.rules  # no more uniform black boxes


def test_a_table_style_without_borders_draws_none(qapp):
    styles = '<w:style w:type="table" w:styleId="Plain"><w:name w:val="Plain"/><w:tblPr/></w:style>'
    _rev, lay = lay_out(table([[tc("A"), tc("B")]], '<w:tblStyle w:val="Plain"/>'), styles)
    assert not lay.pages[0].borders and not lay.pages[0].rules


def test_cell_borders_beat_table_borders_and_nil_removes_an_edge(qapp):
    borders = "<w:tblBorders>" + bdr("insideH", color="BFBFBF") + bdr("insideV", color="BFBFBF") + "</w:tblBorders>"
    red_bottom = f"<w:tcBorders>{bdr('bottom', sz=4, color='FF0000')}</w:tcBorders>"
    no_left = f"<w:tcBorders>{bdr('left', val='nil')}</w:tcBorders>"
    _rev, lay = lay_out(table([[tc("A", red_bottom), tc("B")], [tc("C"), tc("D", no_left)]], borders))
    page = lay.pages[0]
    [edge] = horizontal(page, "#BFBFBF")
    assert edge.x1 == pytest.approx(LEFT + 200)  # under B, the table's insideH
    [red] = horizontal(page, "#FF0000")
    assert (red.x1, red.x2) == (pytest.approx(LEFT), pytest.approx(LEFT + 200))  # under A its own border wins
    # insideV shows between A and B, but D's nil left edge removes the one between C and D
    [between] = vertical(page)
    assert between.y2 == pytest.approx(red.y1)


def test_adjacent_cell_borders_resolve_by_weight_then_colour(qapp):
    thin_black = f"<w:tcBorders>{bdr('right', sz=4, color='000000')}</w:tcBorders>"
    wide_blue = f"<w:tcBorders>{bdr('left', sz=24, color='4472C4')}</w:tcBorders>"
    light = f"<w:tcBorders>{bdr('right', sz=8, color='D9D9D9')}</w:tcBorders>"
    dark = f"<w:tcBorders>{bdr('left', sz=8, color='595959')}</w:tcBorders>"
    dashed_wide = f"<w:tcBorders>{bdr('bottom', val='dashed', sz=24, color='00B050')}</w:tcBorders>"
    single = f"<w:tcBorders>{bdr('top', sz=4, color='7030A0')}</w:tcBorders>"
    _rev, lay = lay_out(table([[tc("A", thin_black), tc("B", wide_blue)], [tc("C", light), tc("D", dark)],
                               [tc("E", dashed_wide), tc("F")], [tc("G", single), tc("H")]]))
    page = lay.pages[0]
    colours = [s.color for s in vertical(page)]
    # the wider border wins (width x border number); at equal weight the darker colour wins
    assert colours == ["#4472C4", "#595959"]
    # a dashed border weighs 1 whatever its width: the thin single line beats it
    assert [s.color for s in horizontal(page)] == ["#7030A0"]


def test_table_style_borders_with_a_first_row_rule_and_row_exceptions(qapp):
    styles = ('<w:style w:type="table" w:styleId="Ruled"><w:name w:val="Ruled"/><w:tblPr><w:tblBorders>'
              + bdr("top", color="808080") + bdr("bottom", color="808080") + bdr("insideH", sz=4, color="D9D9D9")
              + '</w:tblBorders></w:tblPr><w:tblStylePr w:type="firstRow"><w:tcPr><w:tcBorders>'
              + bdr("bottom", sz=12, color="1F4E79") + '</w:tcBorders></w:tcPr></w:tblStylePr></w:style>')
    exception = f'<w:tblPrEx><w:tblBorders>{bdr("insideH", sz=4, color="FFC000")}</w:tblBorders></w:tblPrEx>'
    rows = [[tc("Head"), tc("Head")], [tc("A"), tc("B")], [tc("C"), tc("D")], [tc("E"), tc("F")]]
    _rev, lay = lay_out(table(rows, '<w:tblStyle w:val="Ruled"/>', tr_extra={2: exception}), styles)
    colours = [r.color for r in horizontal(lay.pages[0])]
    # the style's top; its first-row rule, a cell border, beats the table's insideH; row 2's
    # w:tblPrEx insideH above and below it ties with the style's insideH on weight and style, and
    # wins as the darker colour (R+B+2G); the style's bottom
    assert colours == ["#808080", "#1F4E79", "#FFC000", "#FFC000", "#808080"]


def test_a_vertically_merged_cell_is_one_cell(qapp):
    grid_borders = "<w:tblBorders>" + "".join(bdr(s) for s in ("top", "left", "bottom", "right", "insideH",
                                                               "insideV")) + "</w:tblBorders>"
    shade = '<w:shd w:val="clear" w:color="auto" w:fill="FCE4D6"/>'
    rows = [[tc("Merged", '<w:vMerge w:val="restart"/>' + shade), tc("one")],
            [tc("", "<w:vMerge/>"), tc("two")],
            [tc("", "<w:vMerge/>"), tc("three")],
            [tc("Own"), tc("four")]]
    _rev, lay = lay_out(table(rows, grid_borders))
    page = lay.pages[0]
    one, two, three, four = (frag_of(page, t) for t in ("one", "two", "three", "four"))
    col0 = [r for r in horizontal(page) if r.x1 <= LEFT + 100 <= r.x2]
    col1 = [r for r in horizontal(page) if r.x1 <= LEFT + 300 <= r.x2]
    assert len(col1) == 5  # every row edge in the second column
    assert len(col0) == 3  # top, the edge under the merged cell, bottom: none across the merge
    assert one.top >= col0[0].y1 and three.bottom <= col0[1].y1 <= four.top
    assert not any(two.top - 6 < r.y1 < two.bottom + 6 for r in col0)
    # the merged cell's shading spans its three rows
    fills = [rect for rect, color in page.fills if color == "#FCE4D6"]
    assert min(r.top() for r in fills) == pytest.approx(col0[0].y1)
    assert max(r.bottom() for r in fills) == pytest.approx(col0[1].y1)


def test_border_colours_reach_the_painted_page(qapp):
    """Rendered with paint_page: cell borders light grey and a thick blue left bar, a paragraph
    rule in dark red, pixel for pixel in the document's colours (main drew black boxes)."""
    from folio_desktop.ui.pages.marks import ReviewIndex
    from folio_desktop.ui.pages.painter import paint_page

    grey = "<w:tblBorders>" + "".join(bdr(s, sz=8, color="C7C7C7") for s in ("top", "bottom", "insideH")) \
        + "</w:tblBorders>"
    bar = f"<w:tcBorders>{bdr('left', sz=36, color='2F5597')}</w:tcBorders>"
    rev, lay = lay_out(p("Heading", ppr=f"<w:pBdr>{bdr('bottom', sz=24, color='C00000')}</w:pBdr>")
                       + p("Terms") + table([[tc("Term", bar), tc("Value")], [tc("Fee", bar), tc("Ten")]], grey))
    page = lay.pages[0]
    image = QImage(int(page.width), int(page.height), QImage.Format_RGB32)
    image.fill(QColor("#ffffff"))
    painter = QPainter(image)
    paint_page(painter, page, QRectF(0, 0, page.width, page.height), 1.0,
               ReviewIndex(rev, view="none", interactive=False), shadow=False)
    painter.end()

    def pixel(x, y):
        return QColor(image.pixel(int(x), int(y))).name()

    [rule] = horizontal(page, "#C00000")
    assert pixel(LEFT + 300, rule.y1) == "#c00000"
    greys = horizontal(page, "#C7C7C7")
    assert len(greys) == 3
    for line in greys:
        assert pixel(LEFT + 300, line.y1) == "#c7c7c7"
    left_bar = vertical(page, "#2F5597")[0]
    assert left_bar.width == pytest.approx(6.0)
    assert pixel(left_bar.x1, (left_bar.y1 + left_bar.y2) / 2) == "#2f5597"
    assert "#000000" not in {pixel(LEFT + 300, line.y1) for line in greys}
