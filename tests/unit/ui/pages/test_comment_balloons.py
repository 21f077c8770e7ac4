"""Comments beside the text (folio_desktop/ui/pages/balloons.py, marks.py): balloons in the markup
area right of each page with the thread's number, author, date, full text and replies, a leader to
where its range starts, stacked without overlap; threads numbered in reading order and anchored
by their own range; Reply / Resolve / Reopen in place through the window's comment commands (so
undo and the audit log see them); a Comments panel that never clips a body; balloons in the PDF."""

from __future__ import annotations

import shutil

import pytest
from chat_helpers import make_settings
from conftest import CORPUS, ROOT, shown_page_view
from PySide6.QtCore import QPointF, QRect, Qt
from PySide6.QtGui import QColor, QFontMetrics, QTextLayout
from PySide6.QtWidgets import QApplication

from folio_desktop.agents import create_reviewer_bridge, execute_tool_call
from folio_desktop.docx import DocxReviewer
from folio_desktop.layout import layout_document
from folio_desktop.ui.desk.window import ReviewWindow
from folio_desktop.ui.pages.balloons import BADGE, anchors
from folio_desktop.ui.pages.balloons import role_font as balloon_font
from folio_desktop.ui.pages.geometry import MARKUP_WIDTH
from folio_desktop.ui.pages.text_flow import cursor_x
from folio_desktop.ui.panels.comments import CommentsPanel

SAMPLE = ROOT / "resources" / "sample_contract.docx"
SUPERDOC = CORPUS / "superdoc_word_comments_replies_tracked.docx"  # 3 threads, each with a reply
ARABIC = CORPUS / "openxmlsdk_comment066_arabic_threaded_comments.docx"  # 66 comments, most on one word
PANDOC = CORPUS / "pandoc_comments_with_reply.docx"


@pytest.fixture
def view(qtbot):
    return shown_page_view(qtbot, 1300, 900)


def shown(view, rev, zoom=1.0):
    layout = layout_document(rev.document)
    view.set_layout(layout, rev)
    view.set_zoom(zoom)
    return layout


def click_page_point(qtbot, view, number, point, twice=False):
    view.scroll_to_page(number)
    vp = view.page_to_viewport(number, point)
    h = view.horizontalScrollBar()
    if not 0 <= vp.x() < view.viewport().width():  # the markup area may be scrolled off to the right
        h.setValue(h.value() + round(vp.x() - view.viewport().width() / 2))
        vp = view.page_to_viewport(number, point)
    qtbot.mouseClick(view.viewport(), Qt.LeftButton, pos=vp.toPoint())
    if twice:
        qtbot.mouseClick(view.viewport(), Qt.LeftButton, pos=vp.toPoint())


def balloons_of(view, number):
    return view.marks.balloons(view.pages[number - 1])


def texts(balloon):
    return [text for _r, role, text in balloon.parts if role in ("body", "body_line", "author", "reply_head")]


def word_point(layout, block_id, offset):
    """Page number and page point in the middle of the glyph at accepted offset `offset` of a block."""
    for number, frag in layout.fragments_of(block_id):
        para = frag.para
        display = next(i for i, a in enumerate(para.accepted) if a == offset)
        lo, hi = frag.display_range
        if lo <= display < hi:
            k = next(k for k in range(frag.first_line, frag.last_line + 1) if display < para.lines[k].end)
            line = para.layout.lineAt(k)
            x = (cursor_x(line, display) + cursor_x(line, display + 1)) / 2
            return number, QPointF(frag.x + para.x + x, frag.y + para.lines[k].y + para.lines[k].height / 2)
    raise AssertionError("offset not laid out")


# -- a document with two comments on the same word, and one on an earlier repeat of it ----------------


@pytest.fixture
def same_word(qapp):
    """The sample contract (one comment, in clause 6.1) with three more in clause 2.1, made through
    ranges so each sits exactly where it was put: X and Z on the second "shall" (X made first), Y on
    the first "shall" (made last: a higher id, earlier in reading order)."""
    rev = DocxReviewer.open(SAMPLE, author="Lawyer")
    bridge = create_reviewer_bridge(rev)
    found = execute_tool_call("find_text", {"query": "shall"}, bridge)["result"]
    matches = [m for b in found["blocks"] if b.get("displayLabel") == "2.1" for m in b["matches"]]
    first, second = matches[0]["range"], matches[1]["range"]
    ids = {}
    for name, target in (("X", second), ("Z", second), ("Y", first)):
        result = rev.apply_document_operations({"version": 1, "operations": [
            {"type": "commentOnRange", "range": target, "comment": {"text": f"Comment {name} on shall."}}]})
        assert result["applied"], result
        ids[name] = result["applied"][0]["commentId"]
    ids["6.1"] = next(c.id for c in rev.get_comments() if c.text.startswith("Can we agree"))
    block = first["blockId"]
    return rev, ids, block, first["startOffset"], second["startOffset"]


def test_markers_are_in_reading_order_and_anchored_by_range(qtbot, view, same_word):
    rev, ids, block, first, second = same_word
    assert ids["Y"] > ids["X"] and ids["Z"] > ids["X"]  # Y was made last
    layout = shown(view, rev)
    numbers = view.marks.numbers
    assert sorted(numbers.values()) == [1, 2, 3, 4]  # each thread its own number, none repeated
    assert numbers[ids["Y"]] == 1  # earliest in the text, though made last
    assert {numbers[ids["X"]], numbers[ids["Z"]]} == {2, 3}
    assert numbers[ids["6.1"]] == 4
    number, _point = word_point(layout, block, first)
    page_balloons = balloons_of(view, number)
    by_thread = {b.comment_id: b for b in page_balloons}
    assert {ids["X"], ids["Y"], ids["Z"]} <= set(by_thread)  # one balloon per thread, none pointing at another
    for name in ("X", "Y", "Z"):
        b = by_thread[ids[name]]
        assert b.number == numbers[ids[name]]
        assert f"Comment {name} on shall." in texts(b)
    # the leaders start where each range starts: X and Z at the second "shall", Y at the first
    frag = layout.fragments_of(block)[0][1]
    for name, offset in (("Y", first), ("X", second), ("Z", second)):
        display = frag.para.accepted.index(offset)
        k = next(k for k in range(frag.first_line, frag.last_line + 1) if display < frag.para.lines[k].end)
        x = frag.x + frag.para.x + cursor_x(frag.para.layout.lineAt(k), display)
        assert by_thread[ids[name]].anchor.x() == pytest.approx(x, abs=0.5), name

    # a click on balloon X selects its own "shall" (the second), not the first one in the block
    with qtbot.waitSignal(view.commentClicked, timeout=1_000) as clicked:
        click_page_point(qtbot, view, number, by_thread[ids["X"]].rect.center())
    assert clicked.args == [ids["X"]]
    assert view.selection.selection_block_range() == (block, second, second + len("shall"))
    with qtbot.waitSignal(view.commentClicked, timeout=1_000) as clicked:
        click_page_point(qtbot, view, number, by_thread[ids["Y"]].rect.center())
    assert clicked.args == [ids["Y"]]
    assert view.selection.selection_block_range() == (block, first, first + len("shall"))

    # clicking the word itself picks the first thread over it, clicking again the next one
    number, point = word_point(layout, block, second + 2)
    view.balloons.activate(None)
    seen = []
    view.commentClicked.connect(seen.append)
    click_page_point(qtbot, view, number, point)
    click_page_point(qtbot, view, number, point)
    click_page_point(qtbot, view, number, point)
    first_pick = min((ids["X"], ids["Z"]), key=numbers.get)
    other = ids["Z"] if first_pick == ids["X"] else ids["X"]
    assert seen == [first_pick, other, first_pick]
    assert view.marks.active == first_pick
    assert next(b for b in balloons_of(view, number) if b.comment_id == first_pick).active


def test_the_panel_lists_threads_in_reading_order_with_the_balloons_numbers(qtbot, same_word):
    rev, ids, _block, _first, _second = same_word
    panel = CommentsPanel()
    qtbot.addWidget(panel)
    panel.set_document(rev)
    order = panel.visible_thread_ids()
    assert order[0] == ids["Y"] and order[-1] == ids["6.1"] and set(order[1:3]) == {ids["X"], ids["Z"]}
    for n, thread_id in enumerate(order, 1):
        assert panel.item_for(thread_id).text(0).startswith(f"{n} · ")


def test_many_comments_on_one_word_each_get_their_own_balloon(view):
    """The Open XML SDK sample puts 29 comment ranges (threads and replies) on the one word "On":
    every thread has its own number and its own balloon, none repeated."""
    rev = DocxReviewer.open(ARABIC)
    layout = shown(view, rev, zoom=0.75)
    threads = rev.get_comments()
    numbers = view.marks.numbers
    assert sorted(numbers.values()) == list(range(1, len(threads) + 1))
    shown_ids, hidden = [], 0
    for page in layout.pages:
        placed = balloons_of(view, page.number)
        shown_ids += [b.comment_id for b in placed if not b.hidden]
        hidden += sum(b.hidden for b in placed)
        assert [b.number for b in placed if not b.hidden] == sorted(b.number for b in placed if not b.hidden)
    assert len(shown_ids) == len(set(shown_ids))  # no thread twice, no balloon for another's thread
    anchored = {tid for page in layout.pages for tid in anchors(page, view.marks)}
    assert len(shown_ids) + hidden == len(anchored) == len(threads)


def test_balloons_never_overlap_and_stay_on_their_page(view):
    for path in (ARABIC, SUPERDOC, PANDOC, SAMPLE):
        rev = DocxReviewer.open(path)
        layout = shown(view, rev)
        for page in layout.pages:
            placed = balloons_of(view, page.number)
            for above, below in zip(placed, placed[1:]):
                assert above.rect.bottom() < below.rect.top(), (path.name, page.number)
            for b in placed:
                assert 0 <= b.rect.top() and b.rect.bottom() <= page.height, (path.name, page.number)
                assert page.width < b.rect.left() and b.rect.right() <= page.width + MARKUP_WIDTH


def test_balloons_show_author_date_text_and_replies_beside_the_page(view):
    rev = DocxReviewer.open(SUPERDOC)
    layout = shown(view, rev)
    threads = rev.get_comments()
    placed = balloons_of(view, 1)
    assert [b.comment_id for b in placed] == [t.id for t in threads]  # reading order, top to bottom
    for b, thread in zip(placed, threads, strict=True):
        shown_texts = texts(b)
        assert thread.author in shown_texts and thread.text.strip() in shown_texts
        for reply in thread.replies:
            assert reply.text.strip() in shown_texts
            assert any(t.startswith(reply.author) for t in shown_texts)
        assert set(b.buttons) == {"reply", "resolve", "delete"}  # no Edit: none of them is the lawyer's
    # the pixels: the markup area is beside the sheet, each balloon's numbered marker is drawn
    image = view.render_page(1)
    page = layout.pages[0]
    assert image.width() == round(page.width + MARKUP_WIDTH)
    for b in placed:
        badge = next(r for r, role, _t in b.parts if role == "badge")
        assert QColor(image.pixel(int(badge.left() + 2), int(badge.center().y()))) == BADGE
    assert QColor(image.pixel(int(page.width + 4), 4)) != QColor("white")  # the markup area, not the sheet


def test_a_comment_of_several_paragraphs_is_drawn_whole(view):
    """Pandoc's third comment is "This one has multiple paragraphs." and "See?" after an empty
    paragraph: the balloon is as tall as all three lines, and its last line is painted there."""
    rev = DocxReviewer.open(PANDOC)
    shown(view, rev)
    balloon = next(b for b in balloons_of(view, 1) if b.thread.text.endswith("See?"))
    body = next(r for r, role, _t in balloon.parts if role == "body")
    line = QFontMetrics(balloon_font("body")).lineSpacing()
    assert body.height() >= 3 * line - 1
    image = view.render_page(1)

    def ink(top, bottom):
        return sum(1 for y in range(int(top), int(bottom)) for x in range(int(body.left()), int(body.right()))
                   if QColor(image.pixel(x, y)).lightness() < 140)

    assert ink(body.bottom() - line, body.bottom()) > 20  # "See?"
    assert ink(body.top() + line + 2, body.top() + 2 * line - 2) == 0  # the empty paragraph between


def test_a_document_without_comments_has_no_markup_area(view):
    rev = DocxReviewer.open(CORPUS / "contract_commonpaper_pilot_agreement.docx")
    layout = shown(view, rev)
    assert rev.get_comments() == [] and view.render_page(1).width() == round(layout.pages[0].width)


def test_a_crowded_page_closes_balloons_and_keeps_the_picked_one_open(qtbot, view):
    rev = DocxReviewer.open(ARABIC)
    shown(view, rev, zoom=0.75)
    placed = balloons_of(view, 1)
    assert placed and all(b.compact for b in placed)  # 21 threads: only closed ones fit
    target = placed[4]
    with qtbot.waitSignal(view.commentClicked, timeout=1_000) as clicked:
        click_page_point(qtbot, view, 1, target.rect.center())
    assert clicked.args == [target.comment_id]
    now = {b.comment_id: b for b in balloons_of(view, 1)}
    assert not now[target.comment_id].compact and now[target.comment_id].buttons
    assert sum(not b.compact for b in now.values()) == 1


def test_a_page_too_crowded_even_for_closed_balloons_says_how_many_more(qtbot, view):
    rev = DocxReviewer.open(SAMPLE, author="Lawyer")
    first_page = [b for b in rev.snapshot().content_blocks if b.text][:8]
    for n in range(36):
        block = first_page[n % len(first_page)]
        result = rev.apply_document_operations({"version": 1, "operations": [
            {"type": "commentOnBlock", "blockId": block.id, "comment": {"text": f"Point {n + 1} to raise."}}]})
        assert result["applied"], result
    layout = shown(view, rev, zoom=0.75)
    page = layout.pages[0]
    placed = balloons_of(view, 1)
    more = placed[-1]
    assert more.hidden and f"+{more.hidden} more comments on this page" in [t for _r, _k, t in more.parts]
    assert len(placed) - 1 + more.hidden == len(anchors(page, view.marks)) >= 36
    assert more.rect.bottom() <= page.height and all(a.rect.bottom() < b.rect.top() for a, b in zip(placed, placed[1:]))
    hidden_thread = more.comment_id
    assert hidden_thread not in [b.comment_id for b in placed[:-1]]
    with qtbot.waitSignal(view.commentClicked, timeout=1_000) as clicked:
        click_page_point(qtbot, view, 1, more.rect.center())
    assert clicked.args == [hidden_thread]
    now = {b.comment_id: b for b in balloons_of(view, 1) if not b.hidden}
    assert hidden_thread in now and not now[hidden_thread].compact  # the picked thread is always shown, open


# -- reply, resolve and reopen in place ---------------------------------------------------------------------


@pytest.fixture
def window(qtbot, tmp_path):
    copy = tmp_path / SUPERDOC.name
    shutil.copyfile(SUPERDOC, copy)
    w = ReviewWindow(make_settings(tmp_path, None))
    w.files.ask_before_discarding = False
    w.resize(1500, 900)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    with qtbot.waitSignal(w.view.layoutFinished, timeout=10_000):
        assert w.files.open_document(copy)
    w.view.fit_width()
    w.activateWindow()  # keyboard focus (the reply editor's) needs the active window
    qtbot.waitUntil(lambda: QApplication.activeWindow() is w, timeout=2_000)
    return w


def click_button(qtbot, view, thread_id, name):
    balloon = next(b for b in balloons_of(view, 1) if b.comment_id == thread_id)
    click_page_point(qtbot, view, 1, balloon.buttons[name].center())


def test_reply_resolve_and_reopen_in_the_balloon(qtbot, window):
    view, reviewer = window.view, window.reviewer
    thread = reviewer.get_comments()[1]
    before = len(thread.replies)

    # Reply: an editor opens in the balloon; typed text and Enter add the reply as the lawyer
    click_button(qtbot, view, thread.id, "reply")
    editor = view.balloons.editor
    assert editor.isVisible() and editor.hasFocus()
    balloon = next(b for b in balloons_of(view, 1) if b.comment_id == thread.id)
    assert view.viewport().rect().contains(editor.geometry().center())
    assert editor.geometry().contains(view.page_to_viewport(1, balloon.editor.center()).toPoint())
    qtbot.keyClicks(editor, "Agreed, keep it.")
    qtbot.keyClick(editor, Qt.Key_Return)
    qtbot.waitUntil(lambda: not editor.isVisible(), timeout=2_000)  # sent once the key event is over
    replies = next(t for t in reviewer.get_comments() if t.id == thread.id).replies
    assert len(replies) == before + 1 and (replies[-1].author, replies[-1].text) == ("Lawyer", "Agreed, keep it.")
    balloon = next(b for b in balloons_of(view, 1) if b.comment_id == thread.id)
    assert "Agreed, keep it." in texts(balloon)  # the page shows it at once

    # Escape closes the editor without replying
    click_button(qtbot, view, thread.id, "reply")
    qtbot.keyClicks(view.balloons.editor, "never mind")
    qtbot.keyClick(view.balloons.editor, Qt.Key_Escape)
    qtbot.waitUntil(lambda: not view.balloons.editor.isVisible(), timeout=2_000)
    assert len(next(t for t in reviewer.get_comments() if t.id == thread.id).replies) == before + 1

    # Resolve, then Reopen
    click_button(qtbot, view, thread.id, "resolve")
    assert next(t for t in reviewer.get_comments() if t.id == thread.id).done
    balloon = next(b for b in balloons_of(view, 1) if b.comment_id == thread.id)
    assert balloon.resolved and "reopen" in balloon.buttons  # still open: it is the picked thread
    click_button(qtbot, view, thread.id, "reopen")
    assert not next(t for t in reviewer.get_comments() if t.id == thread.id).done

    # each went through the window's commands: the audit log and the undo stack have them
    actions = [e["action"] for e in window.audit.entries if e["kind"] == "comment"]
    assert actions == ["reply", "resolve", "reopen"]
    assert window.comments.selected_thread_id() == thread.id
    window.undo_action.trigger()
    assert next(t for t in reviewer.get_comments() if t.id == thread.id).done  # the reopen undone
    window.undo_action.trigger()
    assert not next(t for t in reviewer.get_comments() if t.id == thread.id).done  # the resolve undone
    window.undo_action.trigger()
    assert len(next(t for t in reviewer.get_comments() if t.id == thread.id).replies) == before


def test_page_shortcuts_do_not_fire_while_typing_a_reply(qtbot, window):
    view, reviewer = window.view, window.reviewer
    thread = reviewer.get_comments()[0]
    blocks = len(reviewer.snapshot().blocks)
    click_button(qtbot, view, thread.id, "reply")
    qtbot.keyClicks(view.balloons.editor, "Short")
    qtbot.keyClick(view.balloons.editor, Qt.Key_Backspace, Qt.ControlModifier | Qt.ShiftModifier)
    qtbot.keyClick(view.balloons.editor, Qt.Key_Return, Qt.ControlModifier)
    assert len(reviewer.snapshot().blocks) == blocks  # no paragraph inserted or deleted
    assert [(c.type, c.text) for c in reviewer.get_changes()] == [
        (c.type, c.text) for c in DocxReviewer.open(SUPERDOC).get_changes()]
    assert view.balloons.editor.text() == ""  # Ctrl+Shift+Backspace deleted the word in the field


def test_a_thread_picked_in_the_panel_opens_its_balloon_and_selects_its_range(qtbot, window):
    view, panel = window.view, window.comments
    window.comments_dock.raise_()
    thread = window.reviewer.get_comments()[2]
    item = panel.item_for(thread.id)
    panel.tree.scrollToItem(item)
    qtbot.mouseClick(panel.tree.viewport(), Qt.LeftButton, pos=panel.tree.visualItemRect(item).center())
    assert view.marks.active == thread.id
    assert view.selection.selection_text() == thread.anchored_text


# -- the Comments panel --------------------------------------------------------------------------------------


def lines_needed(font, text: str, width: int) -> int:
    """How many lines Qt's own text layout breaks `text` into at `width` (paragraph by paragraph)."""
    count = 0
    for paragraph in text.split("\n"):
        layout = QTextLayout(paragraph, font)
        layout.beginLayout()
        while True:
            line = layout.createLine()
            if not line.isValid():
                break
            line.setLineWidth(width)
            count += 1
        layout.endLayout()
    return count


@pytest.mark.parametrize("width", [215, 260, 420])
def test_the_panel_never_clips_a_comment_body(qtbot, width):
    rev = DocxReviewer.open(SAMPLE)  # its comment quotes a long clause: the quote wraps when narrow
    panel = CommentsPanel()
    qtbot.addWidget(panel)
    panel.resize(500, 600)
    panel.show()
    qtbot.waitExposed(panel)
    panel.set_document(rev)
    panel.resize(width, 600)
    qtbot.waitUntil(lambda: panel.width() == width)
    QApplication.processEvents()
    tree = panel.tree
    item = tree.topLevelItem(0)
    text = item.text(0)
    rect = tree.visualItemRect(item)
    font = tree.font()
    text_width = panel.tree.itemDelegate().text_width(tree.indexFromItem(item))
    needed = lines_needed(font, text, text_width) * QFontMetrics(font).lineSpacing()
    assert lines_needed(font, text.split("\n")[1], text_width) >= (2 if width < 300 else 1)
    assert rect.height() >= needed  # every line of the quote and of the body fits in the row
    # and the body's last line is painted inside the row: ink in its band, none below the row
    image = tree.viewport().grab().toImage()
    ratio = image.devicePixelRatio()

    def ink(top, bottom):
        return sum(1 for y in range(int(top * ratio), int(bottom * ratio)) for x in range(0, int(rect.width() * ratio), 2)
                   if QColor(image.pixel(x, y)).lightness() < 128)

    line = QFontMetrics(font).lineSpacing()
    assert ink(rect.bottom() - 4 - line, rect.bottom() - 4) > 0
    below = QRect(rect.left(), rect.bottom() + 1, rect.width(), 30)
    assert ink(below.top(), min(below.bottom(), tree.viewport().height())) == 0


# -- the marked-up PDF ------------------------------------------------------------------------------------------


def test_the_marked_up_pdf_prints_the_balloons(qapp, tmp_path):
    from pdf_reading import Pdf, has_colour, squash

    from folio_desktop.ui.desk.export import export_pdf

    rev = DocxReviewer.open(SUPERDOC)
    out = tmp_path / "markup.pdf"
    layout = layout_document(rev.document)
    export_pdf(rev, out, layout=layout)
    pdf = Pdf(out.read_bytes())
    text = squash(pdf.text(0))
    for thread in rev.get_comments():
        assert squash(thread.text) in text and squash(thread.author) in text
        for reply in thread.replies:
            assert squash(reply.text) in text
    assert "Reply" not in text and "Resolve" not in text  # no buttons on paper
    assert has_colour(pdf.fill_colours(0), BADGE)
    page = layout.pages[0]
    assert pdf.media_box(0) == pytest.approx((page.width * 0.75, page.height * 0.75), abs=0.01)  # the paper size
    clean = tmp_path / "clean.pdf"
    export_pdf(rev, clean, markup=False)
    assert squash(rev.get_comments()[0].text) not in squash(Pdf(clean.read_bytes()).text(0))


def test_a_comment_on_a_selected_word_anchors_on_that_occurrence(qtbot, tmp_path):
    from chat_helpers import open_window
    from docbuilder import build_docx, p

    path = tmp_path / "twice.docx"
    path.write_bytes(build_docx(p("The Supplier shall deliver the goods and shall invoice them.", "10000001")))
    window = open_window(qtbot, tmp_path, None, source=path)
    text = window.reviewer.snapshot().block("10000001").text
    second = text.index("shall", text.index("shall") + 1)
    assert window.view.selection.select_range("10000001", second, second + len("shall"))
    comment_id = window.commands.add_comment("Why twice?")
    assert comment_id is not None
    marked = window.reviewer.get_content_as_text(annotated=True)
    assert f'goods and <comment id="{comment_id}">shall</comment> invoice' in marked
