"""PageView (folio_desktop/ui/pages/view.py): progressive layout, zoom, visible-only painting,
scrolling to blocks, selection and copy, clicks on redlines, and what the pixels show."""

from __future__ import annotations

import pytest
from conftest import CORPUS, ROOT, shown_page_view
from PySide6.QtCore import QPoint, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QWheelEvent
from PySide6.QtWidgets import QApplication

from folio_desktop.docx import DocxReviewer
from folio_desktop.layout import layout_document
from folio_desktop.ui.pages.geometry import GAP, MARKUP_WIDTH, text_edges
from folio_desktop.ui.pages.marks import BAR_OFFSET
from folio_desktop.ui.pages.painter import HIGHLIGHT
from folio_desktop.ui.pages.text_flow import cursor_x

SAMPLE = ROOT / "resources" / "sample_contract.docx"
ILPA = CORPUS / "contract_ilpa_model_lpa_whole_of_fund_75p.docx"
EIGENPAL = CORPUS / "eigenpal_docxjs_editor_demo.docx"


@pytest.fixture(scope="module")
def docs(qapp):
    """Reviewers and finished layouts, opened once per module (views only read them)."""
    out = {}
    for path in (SAMPLE, ILPA, EIGENPAL):
        rev = DocxReviewer.open(path)
        out[path.name] = (rev, layout_document(rev.document))
    return out


@pytest.fixture
def view(qtbot):
    return shown_page_view(qtbot, 900, 700)


def shown(view, docs, path, zoom=1.0):
    rev, layout = docs[path.name]
    view.set_layout(layout, rev)
    view.set_zoom(zoom)
    return rev, layout


def repaint(view) -> list[int]:
    view.viewport().repaint()
    return view.painted_pages


def spans_of(layout, kind):
    """(page number, fragment, span) of every span of a kind in the body."""
    return [(page.number, frag, span) for page in layout.pages for frag in page.body_fragments()
            for span in frag.para.spans if span.kind == kind]


def fragment(layout, block_id):
    return layout.fragments_of(block_id)[0][1]


def span_point(frag, span, fraction=0.5) -> QPointF:
    """Page point inside a span's first line, `fraction` of the way along it."""
    para = frag.para
    k = next(k for k in range(frag.first_line, frag.last_line + 1) if span.start < para.lines[k].end)
    line = para.layout.lineAt(k)
    x1 = cursor_x(line, max(span.start, para.lines[k].start))
    x2 = cursor_x(line, min(span.end, para.lines[k].end))
    y = frag.y + para.lines[k].y + para.lines[k].height / 2
    return QPointF(frag.x + para.x + x1 + (x2 - x1) * fraction, y)


def click_page_point(qtbot, view, number, point):
    view.scroll_to_page(number)
    vp = view.page_to_viewport(number, point)
    qtbot.mouseClick(view.viewport(), Qt.LeftButton, pos=vp.toPoint())


# -- progressive layout --------------------------------------------------------------------------


def test_sample_contract_lays_out_and_paints(qtbot, view, docs):
    rev, layout = docs[SAMPLE.name]
    progress = []
    view.layoutProgress.connect(progress.append)
    with qtbot.waitSignal(view.layoutFinished, timeout=10_000) as finished:
        view.set_document(DocxReviewer.open(SAMPLE))
    assert finished.args == [layout.page_count]
    assert progress[0] == 1 and progress[-1] == layout.page_count
    assert view.document_layout.page_count == layout.page_count
    assert [view.document_layout.page_text(n) for n in (1, 2)] == [layout.page_text(n) for n in (1, 2)]
    assert repaint(view) and repaint(view)[0] == 1


def test_first_page_is_painted_before_a_long_document_finishes(qtbot, view):
    with qtbot.waitSignal(view.layoutProgress, timeout=10_000) as first:
        view.set_document(DocxReviewer.open(ILPA))
    assert first.args == [1]
    assert view.is_laying_out and len(view.pages) == 1
    assert repaint(view) == [1]
    slices = []
    view.layoutProgress.connect(slices.append)
    with qtbot.waitSignal(view.layoutFinished, timeout=20_000) as finished:
        pass
    assert finished.args[0] == len(view.pages) > 60
    assert len(slices) >= 2  # the rest came in several slices, the event loop ran in between


def test_second_pass_fills_in_numpages(qtbot, view):
    with qtbot.waitSignal(view.layoutFinished, timeout=10_000) as finished:
        view.set_document(DocxReviewer.open(EIGENPAL))
    count = finished.args[0]
    footer = next(f for f in view.pages[0].fragments if f.story.startswith("footer"))
    assert f"1 of {count}" in footer.text()


def test_a_layout_failure_is_reported_not_raised(qtbot, view, monkeypatch):
    from folio_desktop.ui.pages import progressive

    def broken(_doc):
        raise ValueError("boom")

    monkeypatch.setattr(progressive, "Paginator", broken)
    with qtbot.waitSignal(view.layoutFailed, timeout=5_000) as failed:
        view.set_document(DocxReviewer.open(SAMPLE))
    assert "could not be laid out" in failed.args[0]
    assert not view.is_laying_out


# -- zoom and painting ---------------------------------------------------------------------------


def test_fit_width_and_fit_page(view, docs):
    _rev, layout = shown(view, docs, ILPA)
    page = layout.pages[0]
    view.fit_width()
    assert view.fit_mode == "width"
    # All Markup keeps room for the balloons even before the first comment (issue 27): the page and
    # the markup area fill the width
    assert abs((page.width + MARKUP_WIDTH) * view.zoom - (view.viewport().width() - 2 * GAP)) < 1
    view.set_markup_view("none")
    view.finish_layout()
    view.fit_width()
    assert abs(page.width * view.zoom - (view.viewport().width() - 2 * GAP)) < 1
    view.fit_page()
    rect = view.page_rect(view.current_page())
    assert rect.height() <= view.viewport().height() - 2 * GAP + 1
    assert rect.top() >= 0 and rect.bottom() <= view.viewport().height()
    view.resize(1200, 900)  # fit modes follow the window
    assert abs(view.page_rect(view.current_page()).height() - (view.viewport().height() - 2 * GAP)) < 2


def test_zoom_steps_are_clamped_and_keep_the_centre(view, docs):
    shown(view, docs, ILPA)
    view.scroll_to_page(5)
    centre = QPointF(view.viewport().width() / 2, view.viewport().height() / 2)
    number, before = view.viewport_to_page(centre)
    for factor in (0.5, 4.0):
        view.set_zoom(factor)
        assert view.zoom == factor and view.fit_mode is None
        after = view.viewport_to_page(centre)
        assert after[0] == number
        assert abs(after[1].y() - before.y()) < 2 and abs(after[1].x() - before.x()) < 2
    view.set_zoom(9)
    assert view.zoom == 4.0
    view.set_zoom(0.01)
    assert view.zoom == 0.5


def test_ctrl_wheel_zooms_in_steps(view, docs):
    shown(view, docs, SAMPLE)
    pos = QPointF(300, 300)

    def wheel(dy, modifiers):
        event = QWheelEvent(pos, view.viewport().mapToGlobal(pos), QPoint(), QPoint(0, dy), Qt.NoButton,
                            modifiers, Qt.NoScrollPhase, False)
        QApplication.sendEvent(view.viewport(), event)

    wheel(120, Qt.ControlModifier)
    assert view.zoom == 1.1
    wheel(-120, Qt.ControlModifier)
    wheel(-120, Qt.ControlModifier)
    assert view.zoom == 0.9
    view.set_zoom(1.0)
    wheel(-120, Qt.NoModifier)  # a plain wheel scrolls (smooth scrolling is off in this fixture)
    assert view.verticalScrollBar().value() > 0 and view.zoom == 1.0


def test_smooth_wheel_scrolling_ends_at_the_target(qtbot, view, docs):
    shown(view, docs, ILPA)
    view.verticalScrollBar().setValue(0)  # (zooming from fit width to 100% kept the centre, not the top)
    view.smooth_scrolling = True
    pos = QPointF(300, 300)
    event = QWheelEvent(pos, view.viewport().mapToGlobal(pos), QPoint(), QPoint(0, -240), Qt.NoButton,
                        Qt.NoModifier, Qt.NoScrollPhase, False)
    QApplication.sendEvent(view.viewport(), event)
    qtbot.waitUntil(lambda: view.verticalScrollBar().value() == 240, timeout=2_000)


def test_only_visible_pages_are_painted(view, docs):
    shown(view, docs, ILPA)
    assert repaint(view) == [1]
    view.scroll_to_page(40)
    assert 40 in repaint(view) and set(view.painted_pages) <= {39, 40, 41}
    view.set_zoom(0.5)
    assert 2 <= len(repaint(view)) <= 4
    view.fit_page()
    assert len(repaint(view)) <= 2


def test_painting_one_page_at_100_percent(view, docs):
    """Exercises the paint path once; its speed is measured by benchmarks/page_view.py."""
    shown(view, docs, ILPA)
    view.resize(int(view.pages[0].width + 2 * GAP + 30), 600)
    view.scroll_to_page(10)
    assert repaint(view) == [10]
    image = view.render_page(10)
    assert (image.width(), image.height()) == (816, 1056)


# -- scrolling and selection ---------------------------------------------------------------------


def test_scroll_to_block_shows_its_page_and_selects_it(view, docs):
    rev, layout = shown(view, docs, ILPA)
    target = layout.pages[49].body_fragments()[2]
    assert view.scroll_to_block(target.block_id)
    number = layout.page_of(target.block_id)
    assert view.current_page() == number
    assert view.page_rect(number).intersects(view.viewport().rect().toRectF())
    assert number in repaint(view)
    block = rev.snapshot().block(target.block_id)
    assert block.text.strip() in view.selection.selection_text()
    assert not view.scroll_to_block("NOT-A-BLOCK")


def test_scroll_to_a_block_before_it_is_laid_out(qtbot, view, docs):
    _rev, layout = docs[ILPA.name]
    block_id = layout.pages[70].body_fragments()[0].block_id
    with qtbot.waitSignal(view.layoutProgress, timeout=10_000):
        view.set_document(DocxReviewer.open(ILPA))
    assert not view.scroll_to_block(block_id)  # remembered, shown when its page arrives
    with qtbot.waitSignal(view.layoutFinished, timeout=20_000):
        pass
    assert view.current_page() == layout.page_of(block_id)


def test_relayout_keeps_the_reading_position(qtbot, view):
    with qtbot.waitSignal(view.layoutFinished, timeout=20_000):
        view.set_document(DocxReviewer.open(ILPA))
    view.set_zoom(1.0)
    view.scroll_to_page(30)
    with qtbot.waitSignal(view.layoutFinished, timeout=20_000):
        view.relayout()
    assert view.current_page() == 30 and view.zoom == 1.0


def test_mouse_selection_reads_back_and_copies(qtbot, view, docs):
    _rev, layout = shown(view, docs, SAMPLE)
    frag = fragment(layout, "18BD21DC")  # "This Agreement is made on 1 March 2026 ..."
    para = frag.para
    line = para.layout.lineAt(0)
    y = frag.y + para.lines[0].y + para.lines[0].height / 2
    start, end = 5, 25

    def at(offset):
        # just inside the character cell, so rounding lands on the intended boundary
        point = QPointF(frag.x + para.x + cursor_x(line, offset) + 0.5, y)
        return view.page_to_viewport(1, point).toPoint()

    qtbot.mousePress(view.viewport(), Qt.LeftButton, pos=at(start))
    qtbot.mouseMove(view.viewport(), pos=at(15))
    qtbot.mouseMove(view.viewport(), pos=at(end))
    qtbot.mouseRelease(view.viewport(), Qt.LeftButton, pos=at(end))
    assert view.selection.selection_text() == para.text[start:end]
    QApplication.clipboard().clear()
    qtbot.keyClick(view, Qt.Key_C, Qt.ControlModifier)
    assert QApplication.clipboard().text() == para.text[start:end]
    word_start = para.text.index("March")
    qtbot.mouseDClick(view.viewport(), Qt.LeftButton, pos=at(word_start + 2))
    assert view.selection.selection_text() == "March"
    qtbot.keyClick(view, Qt.Key_Escape)
    assert view.selection.selection_text() == ""


def test_keyboard_extends_by_character_and_by_line(qtbot, view, docs):
    _rev, layout = shown(view, docs, SAMPLE)
    frag = fragment(layout, "2062A4BC")  # 1.1, three lines
    para = frag.para
    qtbot.mouseClick(view.viewport(), Qt.LeftButton,
                     pos=view.page_to_viewport(1, span_point(frag, para.spans[1], 0.0)).toPoint())
    caret = view.selection.caret.offset
    for _ in range(3):
        qtbot.keyClick(view, Qt.Key_Right, Qt.ShiftModifier)
    assert view.selection.selection_text() == para.text[caret:caret + 3]
    qtbot.keyClick(view, Qt.Key_Left, Qt.ShiftModifier)
    assert view.selection.selection_text() == para.text[caret:caret + 2]
    qtbot.keyClick(view, Qt.Key_Down, Qt.ShiftModifier)
    text = view.selection.selection_text()
    assert text.startswith(para.text[caret:para.lines[0].end]) and len(text) > para.lines[0].end - caret
    assert para.lines[1].start <= view.selection.caret.offset < para.lines[1].end
    qtbot.keyClick(view, Qt.Key_Up, Qt.ShiftModifier)
    assert view.selection.selection_text() == para.text[caret:caret + 2]
    qtbot.keyClick(view, Qt.Key_Right)  # collapses
    assert view.selection.selection_text() == ""


def test_selection_copies_deleted_text_out_and_joins_paragraphs(view, docs):
    rev, layout = shown(view, docs, SAMPLE)
    assert view.selection.select_block("0847357F")  # 5.1, with a tracked replacement
    text = view.selection.selection_text()
    assert "one hundred thousand euros" in text and "fifty thousand euros" not in text
    view.selection.select_all()
    text = view.selection.selection_text()
    assert text.startswith("Mutual Non-Disclosure Agreement\nThis Agreement is made")
    assert text.count("\n") >= len(rev.snapshot().blocks) - 1


def test_search_hits_are_highlighted(view, docs):
    rev, layout = shown(view, docs, SAMPLE)
    block = rev.snapshot().block("18BD21DC")
    start = block.text.index("1 March 2026")
    view.set_highlights([("18BD21DC", start, start + len("1 March 2026"))])
    frag = fragment(layout, "18BD21DC")
    image = view.render_page(1)
    x1 = frag.x + frag.para.x + cursor_x(frag.para.layout.lineAt(0), start)
    y = frag.y + frag.para.lines[0].y + 2  # above the glyphs: pure background
    assert QColor(image.pixel(int(x1) + 4, int(y))) == HIGHLIGHT
    view.set_highlights([])
    assert QColor(view.render_page(1).pixel(int(x1) + 4, int(y))) == QColor("white")


# -- redlines --------------------------------------------------------------------------------------


def test_click_on_changes_and_comments_emits_their_ids(qtbot, view, docs):
    rev, layout = shown(view, docs, EIGENPAL)
    changes = {(c.type, c.text): c.id for c in rev.get_changes()}
    for kind, ctype in (("inserted", "insertion"), ("deleted", "deletion")):
        for number, frag, span in spans_of(layout, kind):
            with qtbot.waitSignal(view.changeClicked, timeout=1_000) as clicked:
                click_page_point(qtbot, view, number, span_point(frag, span))
            expected = next(i for (t, text), i in changes.items()
                            if t == ctype and text.startswith(frag.para.text[span.start:span.end][:20]))
            assert clicked.args == [expected]
            assert view.selection.selection_text() == ("" if kind == "deleted" else frag.para.text[span.start:span.end])
    comment = rev.get_comments()[0]
    number, frag, span = next((n, f, s) for n, f, s in spans_of(layout, "text") if s.comment)
    with qtbot.waitSignal(view.commentClicked, timeout=1_000) as clicked:
        click_page_point(qtbot, view, number, span_point(frag, span))
    assert clicked.args == [comment.id]
    balloon = view.marks.balloons(layout.pages[number - 1], text_edges(layout.pages[number - 1])[1])[0]
    assert balloon.number == 1
    with qtbot.waitSignal(view.commentClicked, timeout=1_000) as clicked:
        click_page_point(qtbot, view, number, balloon.rect.center())
    assert clicked.args == [comment.id]


def test_click_on_plain_text_emits_nothing(qtbot, view, docs):
    _rev, layout = shown(view, docs, SAMPLE)
    frag = fragment(layout, "18BD21DC")
    with qtbot.assertNotEmitted(view.changeClicked), qtbot.assertNotEmitted(view.commentClicked):
        click_page_point(qtbot, view, 1, span_point(frag, frag.para.spans[0]))


def _colour_hits(image, rects, colour: QColor, tolerance=40) -> int:
    hits = 0
    for rect in rects:
        for x in range(int(rect.left()), int(rect.right())):
            for y in range(int(rect.top()), int(rect.bottom())):
                c = QColor(image.pixel(x, y))
                if abs(c.red() - colour.red()) + abs(c.green() - colour.green()) + abs(c.blue() - colour.blue()) < tolerance:
                    hits += 1
    return hits


def _span_rect(frag, span):
    para = frag.para
    k = next(k for k in range(frag.first_line, frag.last_line + 1) if span.start < para.lines[k].end)
    line = para.layout.lineAt(k)
    x1 = cursor_x(line, max(span.start, para.lines[k].start))
    x2 = cursor_x(line, min(span.end, para.lines[k].end))
    return QRectF(frag.x + para.x + x1, frag.y + para.lines[k].y, x2 - x1, para.lines[k].height)


@pytest.mark.parametrize("kind", ["inserted", "deleted"])
def test_redline_pixels_carry_the_author_colour(view, docs, kind):
    _rev, layout = shown(view, docs, EIGENPAL)
    number, frag, span = spans_of(layout, kind)[0]
    colour = next(fr.format.foreground().color() for fr in frag.para.layout.formats()
                  if fr.start <= span.start < fr.start + fr.length)
    assert colour != QColor("black")
    image = view.render_page(number)
    rect = _span_rect(frag, span)
    assert _colour_hits(image, [rect], colour) > rect.width()  # glyphs plus the under/strike line
    plain = next(s for s in frag.para.spans if s.kind == "text")
    assert _colour_hits(image, [_span_rect(frag, plain)], colour) == 0
    # and the change bar in the left margin, beside the line
    left = text_edges(layout.pages[number - 1])[0]
    assert QColor(image.pixel(int(left - BAR_OFFSET + 1), int(rect.center().y()))) == colour


def test_the_widget_paints_the_same_redline_pixels(qtbot, view, docs):
    _rev, layout = shown(view, docs, EIGENPAL)
    number, frag, span = spans_of(layout, "inserted")[0]
    colour = next(fr.format.foreground().color() for fr in frag.para.layout.formats()
                  if fr.start <= span.start < fr.start + fr.length)
    view.scroll_to_page(number)
    image = view.viewport().grab().toImage()
    rect = _span_rect(frag, span)
    rect.moveTopLeft(view.page_to_viewport(number, rect.topLeft()))
    ratio = image.devicePixelRatio()
    scaled = QRectF(rect.x() * ratio, rect.y() * ratio, rect.width() * ratio, rect.height() * ratio)
    assert _colour_hits(image, [scaled], colour) > rect.width()


def test_screenshots_of_three_contracts_are_written(view):
    """The README's screenshots/ folder gets page 1 of three corpus contracts (and two overlay shots),
    each a page-sized image showing the grey canvas, the white sheet and dark text."""
    import screenshots

    app = QApplication.instance()
    for name, path, number in screenshots.SHOTS:
        target = screenshots.shoot(app, view, name, path, number, ROOT / "screenshots")
        image = QImage(str(target))
        assert not image.isNull() and image.width() > 700 and image.height() > 900, name
        colours = {image.pixelColor(x, y).name() for x in range(0, image.width(), 7)
                   for y in range(0, image.height(), 7)}
        dark = [c for c in colours if QColor(c).lightness() < 80]
        assert "#ffffff" in colours and len(colours) > 3 and dark, name
