"""Markup views (layout view=, PageView.set_markup_view, the View menu): All Markup, Simple Markup,
No Markup and Original lay out the text each shows; the pages, the PDF export and read_page follow
the view; the choice is remembered. And the compare window's colours: colors="kind"."""

from __future__ import annotations

import re
import shutil

import pytest
from chat_helpers import make_settings
from conftest import CORPUS, ROOT, shown_page_view
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication

from folio_desktop.docx import DocxReviewer
from folio_desktop.layout import layout_document
from folio_desktop.layout.display_text import KIND_COLORS
from folio_desktop.ui.chat.live_bridge import LiveBridge
from folio_desktop.ui.desk.export import export_pdf
from folio_desktop.ui.desk.window import ReviewWindow
from folio_desktop.ui.pages.geometry import MARKUP_WIDTH, text_edges
from folio_desktop.ui.pages.marks import BAR_OFFSET, SIMPLE_BAR, span_color
from folio_desktop.ui.pages.text_flow import cursor_x

EIGENPAL = CORPUS / "eigenpal_docxjs_editor_demo.docx"  # 6 tracked changes by 3 authors, 1 comment
SUPERDOC = CORPUS / "superdoc_word_comments_replies_tracked.docx"  # an insertion and a deletion, 3 threads
MOVES = CORPUS / "powertools_RA001_tracked_revisions_moves.docx"  # moves, inserted and deleted rows and paragraphs
SAMPLE = ROOT / "resources" / "sample_contract.docx"
VIEWS = ("all", "simple", "none", "original")


def squashed(layout) -> str:
    return re.sub(r"\s+", "", "".join(layout.page_text(n) for n in range(1, layout.page_count + 1)))


def spans(layout, kind):
    return [(page.number, frag, span) for page in layout.pages for frag in page.body_fragments()
            for span in frag.para.spans if span.kind == kind and frag.display_range[0] <= span.start
            < frag.display_range[1]]


@pytest.mark.parametrize("path", [EIGENPAL, SUPERDOC, MOVES], ids=lambda p: p.stem)
def test_each_view_lays_out_the_text_it_shows(qapp, path):
    """No Markup and Simple Markup read as the document with every change accepted, Original as with
    every change rejected (the engine's own accept_all / reject_all on copies, laid out plain)."""
    rev = DocxReviewer.open(path)
    data = rev.to_bytes()
    accepted, rejected = DocxReviewer.from_bytes(data), DocxReviewer.from_bytes(data)
    accepted.accept_all()
    rejected.reject_all()
    views = {view: layout_document(rev.document, view=view) for view in VIEWS}
    assert all(layout.view == view and all(p.view == view for p in layout.pages) for view, layout in views.items())
    plain_accepted = squashed(layout_document(accepted.document, view="none"))
    plain_original = squashed(layout_document(rejected.document, view="none"))
    assert squashed(views["none"]) == squashed(views["simple"]) == plain_accepted
    assert squashed(views["original"]) == plain_original
    assert plain_accepted != plain_original and squashed(views["all"]) not in (plain_accepted, plain_original)
    assert rev.to_bytes() == data  # laying out a view never changes the document


def test_views_draw_the_changes_as_they_should(qapp):
    rev = DocxReviewer.open(EIGENPAL)
    layouts = {view: layout_document(rev.document, view=view) for view in VIEWS}
    deleted = next(c.text for c in rev.get_changes() if c.type == "deletion")
    inserted = next(c.text for c in rev.get_changes() if c.type == "insertion")
    # All Markup: both, in the authors' colours; the others show one of them, in the text's own colour
    assert spans(layouts["all"], "deleted") and spans(layouts["all"], "inserted")
    for view in ("simple", "none"):
        assert not spans(layouts[view], "deleted") and spans(layouts[view], "inserted")
        squash = squashed(layouts[view])
        assert re.sub(r"\s", "", inserted) in squash and re.sub(r"\s", "", deleted) not in squash
    assert not spans(layouts["original"], "inserted") and spans(layouts["original"], "deleted")
    author_colours = {span_color(f.para, s.start).name() for _n, f, s in spans(layouts["all"], "inserted")}
    for view, kind in (("simple", "inserted"), ("none", "inserted"), ("original", "deleted")):
        for _n, frag, span in spans(layouts[view], kind):
            assert span_color(frag.para, span.start).name() not in author_colours
            ranges = frag.para.layout.formats()  # held: each format lives as long as its list
            fmt = next(fr.format for fr in ranges if fr.start <= span.start < fr.start + fr.length)
            assert not fmt.fontStrikeOut() and not fmt.fontUnderline()


@pytest.fixture
def view(qtbot):
    return shown_page_view(qtbot, 1300, 900)


def bars_at(image, page, colour) -> list[int]:
    """Rows of the change-bar column painted in `colour`."""
    x = int(text_edges(page)[0] - BAR_OFFSET + 1)
    return [y for y in range(image.height()) if QColor(image.pixel(x, y)) == colour]


def test_simple_markup_marks_changed_lines_with_bars_only(qtbot, view):
    rev = DocxReviewer.open(SUPERDOC)
    view.set_markup_view("simple")
    with qtbot.waitSignal(view.layoutFinished, timeout=10_000):
        view.set_document(rev)
    layout = view.document_layout
    assert layout.view == "simple" and view.marks.markup_width("simple") == MARKUP_WIDTH
    page = layout.pages[0]
    image = view.render_page(1)
    rows = bars_at(image, page, SIMPLE_BAR)
    # a bar beside the line with the insertion, and beside the one whose deletion is left out
    for block in ("431E8D20", "2CCA02A3"):
        frag = layout.fragments_of(block)[0][1]
        middle = int(frag.y + frag.para.lines[0].y + frag.para.lines[0].height / 2)
        assert middle in rows, block
    plain = layout.fragments_of("6A4E1EB8")[0][1]  # an unchanged line: no bar
    assert int(plain.y + plain.para.lines[0].y + plain.para.lines[0].height / 2) not in rows
    assert view.marks.balloons(page)  # comments still show beside the page
    # No Markup: no bars, no balloons, no markup area; Original the same
    for other in ("none", "original"):
        with qtbot.waitSignal(view.layoutFinished, timeout=10_000):
            view.set_markup_view(other)
        page = view.document_layout.pages[0]
        image = view.render_page(1)
        assert image.width() == round(page.width) and not bars_at(image, page, SIMPLE_BAR)
        assert not view.marks.balloons(page)


def test_switching_views_keeps_the_page_in_view(qtbot, view):
    rev = DocxReviewer.open(CORPUS / "contract_ilpa_model_lpa_whole_of_fund_75p.docx")
    with qtbot.waitSignal(view.layoutFinished, timeout=20_000):
        view.set_document(rev)
    view.scroll_to_page(30)
    assert view.current_page() == 30
    with qtbot.waitSignal(view.layoutFinished, timeout=20_000):
        view.set_markup_view("original")
    assert view.current_page() == 30 and view.document_layout.view == "original"


# -- the window: View menu, shortcuts, remembered, PDF and read_page follow -----------------------------


def new_window(qtbot, tmp_path, source=EIGENPAL) -> ReviewWindow:
    copy = tmp_path / source.name
    if not copy.exists():
        shutil.copyfile(source, copy)
    window = ReviewWindow(make_settings(tmp_path, None))
    window.files.ask_before_discarding = False
    window.resize(1400, 850)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    with qtbot.waitSignal(window.view.layoutFinished, timeout=10_000):
        assert window.files.open_document(copy)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=2_000)
    return window


def press(qtbot, window, key) -> None:
    with qtbot.waitSignal(window.view.layoutFinished, timeout=10_000):
        qtbot.keyClick(window, key, Qt.ControlModifier | Qt.AltModifier)


def test_the_view_menu_switches_views_and_remembers_the_choice(qtbot, tmp_path):
    window = new_window(qtbot, tmp_path)
    view_menu = next(a.menu() for a in window.menuBar().actions() if a.text().replace("&", "") == "View")
    names = [a.text().replace("&", "") for a in view_menu.actions() if a.isCheckable() and a.actionGroup()]
    assert names == ["All Markup", "Simple Markup", "No Markup", "Original"]
    assert window.markup_all_action.isChecked() and window.view.document_layout.view == "all"
    for key, view, action in ((Qt.Key_2, "simple", window.markup_simple_action),
                              (Qt.Key_3, "none", window.markup_none_action),
                              (Qt.Key_4, "original", window.markup_original_action)):
        press(qtbot, window, key)
        assert window.view.markup_view == view == window.view.document_layout.view
        assert action.isChecked() and sum(a.isChecked() for a in window.markup_group.actions()) == 1
        assert window.desktop.value("view/markup") == view
    deleted = next(c.text for c in window.reviewer.get_changes() if c.type == "deletion")
    assert deleted[:12] in window.view.document_layout.page_text(1)  # Original shows the deleted text
    window.markup_none_action.trigger()  # the menu item does the same as its shortcut
    qtbot.waitUntil(lambda: window.view.document_layout is not None and window.view.document_layout.view == "none")
    window.close()
    second = ReviewWindow(make_settings(tmp_path, None))
    qtbot.addWidget(second)
    assert second.view.markup_view == "none" and second.markup_none_action.isChecked()


def test_an_edit_in_simple_markup_stays_in_simple_markup(qtbot, tmp_path):
    window = new_window(qtbot, tmp_path, SAMPLE)
    press(qtbot, window, Qt.Key_2)
    block = next(b for b in window.reviewer.snapshot().blocks if b.text.startswith("The Recipient shall use"))
    window.view.selection.select_range(block.id, 4, 13)  # "Recipient"
    window.view.setFocus()
    window.commands.add_comment("Which party?")
    layout = window.view.document_layout
    assert layout.view == "simple" and all(p.view == "simple" for p in layout.pages)
    texts = [t for b in window.view.marks.balloons(layout.pages[0]) for _r, _k, t in b.parts]
    assert "Which party?" in texts
    assert "fifty thousand" not in layout.page_text(layout.page_of("0847357F"))  # 5.1's deletion stays out


def test_read_page_follows_the_view_and_says_which(qtbot, view):
    rev = DocxReviewer.open(EIGENPAL)
    bridge = LiveBridge(rev, view)
    view.finish_layout()
    deleted = next(c.text for c in rev.get_changes() if c.type == "deletion")[:15]
    inserted = next(c.text for c in rev.get_changes() if c.type == "insertion")[:15]
    from folio_desktop.agents import execute_tool_call

    def read(n=1):
        envelope = execute_tool_call("read_page", {"page": n}, bridge)
        assert envelope["ok"], envelope
        return envelope["result"]["text"]

    text = read()
    assert not text.startswith("[") and deleted in text and inserted in text  # All Markup: raw text
    for markup, present, absent, word in (("simple", inserted, deleted, "Simple Markup"),
                                          ("none", inserted, deleted, "No Markup"),
                                          ("original", deleted, inserted, "Original")):
        view.set_markup_view(markup)
        text = read()
        first, rest = text.split("\n", 1)
        assert first.startswith("[") and word in first
        assert present in rest and absent not in rest


def test_the_pdf_export_prints_the_view_shown(qapp, tmp_path):
    from pdf_reading import Pdf, has_colour, squash

    from folio_desktop.ui.pages.balloons import BADGE

    rev = DocxReviewer.open(EIGENPAL)
    deleted = squash(next(c.text for c in rev.get_changes() if c.type == "deletion"))
    inserted = squash(next(c.text for c in rev.get_changes() if c.type == "insertion"))
    comment = squash(rev.get_comments()[0].text)
    out = {}
    for markup in VIEWS:
        layout = layout_document(rev.document, view=markup)
        path = tmp_path / f"{markup}.pdf"
        assert export_pdf(rev, path, layout=layout) == layout.page_count
        pdf = Pdf(path.read_bytes())
        out[markup] = (pdf, squash("".join(pdf.text(i) for i in range(len(pdf.pages)))))
    pdf, text = out["all"]
    assert deleted in text and inserted in text and comment in text
    pdf, text = out["simple"]
    assert deleted not in text and inserted in text and comment in text
    assert any(has_colour(pdf.fill_colours(i), SIMPLE_BAR) for i in range(len(pdf.pages)))
    for markup in ("none", "original"):
        pdf, text = out[markup]
        assert comment not in text
        assert not any(has_colour(pdf.fill_colours(i), BADGE) for i in range(len(pdf.pages)))
    assert deleted not in out["none"][1] and inserted in out["none"][1]
    assert deleted in out["original"][1] and inserted not in out["original"][1]
    # the view's layout is what is printed: without one, a view can still be asked for
    assert export_pdf(rev, tmp_path / "o.pdf", view="original") == len(out["original"][0].pages)


def test_kind_colours_tell_insertions_from_deletions_whoever_made_them(qapp):
    rev = DocxReviewer.open(EIGENPAL)
    authors = {c.author for c in rev.get_changes()}
    assert len(authors) == 3
    by_author = layout_document(rev.document)
    by_kind = layout_document(rev.document, colors="kind")
    for kind in ("inserted", "deleted"):
        colours = {span_color(f.para, s.start).name() for _n, f, s in spans(by_kind, kind)}
        assert colours == {KIND_COLORS[kind]}
        assert len({span_color(f.para, s.start).name() for _n, f, s in spans(by_author, kind)}) == 3
    assert squashed(by_kind) == squashed(by_author)
    with pytest.raises(ValueError, match="change colours"):
        layout_document(rev.document, colors="rainbow")


def test_the_page_view_takes_kind_colours(qtbot, view):
    rev = DocxReviewer.open(EIGENPAL)
    view.set_change_colors("kind")
    with qtbot.waitSignal(view.layoutFinished, timeout=10_000):
        view.set_document(rev)
    number, frag, span = spans(view.document_layout, "deleted")[0]
    image = view.render_page(number)
    para = frag.para
    k = next(k for k in range(frag.first_line, frag.last_line + 1) if span.start < para.lines[k].end)
    line = para.layout.lineAt(k)
    x1, x2 = cursor_x(line, span.start), cursor_x(line, min(span.end, para.lines[k].end))
    y0 = frag.y + para.lines[k].y
    want = QColor(KIND_COLORS["deleted"])
    hits = sum(1 for x in range(int(frag.x + para.x + x1), int(frag.x + para.x + x2))
               for y in range(int(y0), int(y0 + para.lines[k].height)) if QColor(image.pixel(x, y)) == want)
    assert hits > x2 - x1  # the glyphs and the strike line in the deletion colour


def test_the_window_exports_the_view_shown_and_says_which(qtbot, tmp_path, monkeypatch):
    from chat_helpers import open_window
    from PySide6.QtWidgets import QFileDialog

    window = open_window(qtbot, tmp_path, None, source=EIGENPAL)
    with qtbot.waitSignal(window.view.layoutFinished, timeout=15_000):
        window.set_markup_view("original")
    asked = []
    target = tmp_path / "as shown.pdf"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (asked.append(a[2]) or str(target), ""))
    assert window.files.export_pdf_dialog() == str(target)
    assert asked[0].endswith(" (original).pdf")
    assert window.statusBar().currentMessage().endswith(f"pages as they were before the tracked changes to {target}")


def test_a_copy_takes_the_text_as_the_view_shows_it(qtbot, view):
    rev = DocxReviewer.open(EIGENPAL)
    deleted = next(c.text for c in rev.get_changes() if c.type == "deletion" and len(c.text) > 3)
    with qtbot.waitSignal(view.layoutFinished, timeout=10_000):
        view.set_document(rev)
    for markup, has_deleted in (("all", False), ("original", True)):
        if view.markup_view != markup:
            with qtbot.waitSignal(view.layoutFinished, timeout=10_000):
                view.set_markup_view(markup)
        view.selection.select_all()
        view.setFocus()
        qtbot.keyClick(view, Qt.Key_C, Qt.ControlModifier)
        copied = " ".join(QApplication.clipboard().text().split())
        assert (" ".join(deleted.split()) in copied) is has_deleted, markup
