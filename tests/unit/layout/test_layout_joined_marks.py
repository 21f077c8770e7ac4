"""No Markup and Simple Markup lay out paragraphs joined by a deleted paragraph mark as one paragraph
(issue 15, point 1), as Word shows them and as accept-all makes them: the text runs on across the
join, under the properties of the paragraph whose mark survives (indents, spacing, alignment, list
label). All Markup and Original still show each paragraph on its own. Offsets on the pages (hit
testing, caret, selection) are those of the joined block."""

from __future__ import annotations

import pytest
from conftest import CORPUS, shown_page_view
from docbuilder import build_docx
from lxml import etree
from PySide6.QtCore import QPointF, Qt

from folio_desktop.docx import DocxReviewer
from folio_desktop.layout import layout_document
from folio_desktop.layout.model import TWIP
from folio_desktop.ui.pages.geometry import text_edges
from folio_desktop.ui.pages.marks import change_bars
from folio_desktop.ui.pages.selection import Mark
from folio_desktop.ui.pages.text_flow import cursor_x

DATE = 'w:date="2024-01-01T00:00:00Z"'
W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
RP051 = CORPUS / "powertools_RP051_arabic_tracked_changes.docx"  # 4 blocks joined over deleted marks
NUMBERING = ('<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/>'
             '<w:lvlText w:val="%1."/><w:pPr><w:ind w:left="1440" w:hanging="360"/></w:pPr></w:lvl></w:abstractNum>'
             '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>')
ALPHA = "Alpha " + "alpha " * 24  # wraps over lines of its own; ends in a space, as a joined paragraph does
BETA = "beta " * 20 + "end."


def gone(kind: str = "del", rid: int = 1, author: str = "Bob") -> str:
    """A paragraph mark pending deletion (w:pPr/w:rPr/w:del), or moved away (w:moveFrom)."""
    return f'<w:rPr><w:{kind} w:id="{rid}" w:author="{author}" {DATE}/></w:rPr>'


def para(pid: str, text: str, ppr: str = "", deleted: bool = False) -> str:
    tag = "w:delText" if deleted else "w:t"
    run = f'<w:r><{tag} xml:space="preserve">{text}</{tag}></w:r>'
    if deleted:
        run = f'<w:del w:id="9{pid[-2:]}" w:author="Carol" {DATE}>{run}</w:del>'
    return f'<w:p w14:paraId="{pid}" w14:textId="{pid}"><w:pPr>{ppr}</w:pPr>{run}</w:p>'


# Bob deleted the mark after ALPHA: a centred paragraph with wide spacing runs on into a numbered,
# indented, justified one, whose properties the joined paragraph takes
JOINED = (para("10000001", ALPHA, '<w:spacing w:before="0" w:after="600"/><w:jc w:val="center"/>' + gone())
          + para("10000002", BETA, '<w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr>'
                 '<w:spacing w:before="240" w:after="120"/><w:jc w:val="both"/>')
          + para("10000003", "Gamma follows."))
# a chain: Bob deleted one mark, Carol moved the next away and struck the text between
CHAIN = (para("20000001", ALPHA, gone())
         + para("20000002", "struck words ", gone("moveFrom", 2, "Carol"), deleted=True)
         + para("20000003", BETA, '<w:ind w:left="720"/>')
         + para("20000004", "Three."))
# joined paragraphs inside a table cell
IN_CELL = ('<w:tbl><w:tblPr><w:tblW w:w="9000" w:type="dxa"/></w:tblPr><w:tblGrid><w:gridCol w:w="6000"/>'
           '<w:gridCol w:w="3000"/></w:tblGrid><w:tr><w:tc><w:tcPr><w:tcW w:w="6000" w:type="dxa"/></w:tcPr>'
           + para("30000001", ALPHA, gone()) + para("30000002", BETA, '<w:jc w:val="right"/>')
           + '</w:tc><w:tc><w:tcPr><w:tcW w:w="3000" w:type="dxa"/></w:tcPr>' + para("30000003", "Side.")
           + '</w:tc></w:tr></w:tbl>' + para("30000004", "After the table."))
NOTES = ('<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
         + "".join(f'<w:footnote w:id="{n}"><w:p><w:r><w:t>Note {n}.</w:t></w:r></w:p></w:footnote>' for n in (1, 2)))


def noted(pid: str, text: str, note_id: int, ppr: str = "") -> str:
    return (f'<w:p w14:paraId="{pid}" w14:textId="{pid}"><w:pPr>{ppr}</w:pPr><w:r><w:t xml:space="preserve">{text}'
            f'</w:t></w:r><w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:footnoteReference w:id="{note_id}"/>'
            '</w:r></w:p>')


# a footnote referenced on each side of the join: both at the foot of the page, numbered on
WITH_NOTES = (noted("60000001", ALPHA, 1, gone()) + noted("60000002", BETA, 2) + para("60000003", "Last."))
# a table whose rows are all deleted stands between the joined paragraphs: it is gone once accepted
ROW = ('<w:tr><w:trPr><w:del w:id="{rid}" w:author="Bob" ' + DATE + '/></w:trPr><w:tc><w:tcPr><w:tcW w:w="9000" '
       'w:type="dxa"/></w:tcPr><w:p><w:r><w:delText>Row {rid}.</w:delText></w:r></w:p></w:tc></w:tr>')
OVER_TABLE = (para("70000000", "Before.", '<w:spacing w:after="200"/>') + para("70000001", ALPHA, gone())
              + '<w:tbl><w:tblPr><w:tblW w:w="9000" w:type="dxa"/></w:tblPr><w:tblGrid><w:gridCol w:w="9000"/>'
              '</w:tblGrid>' + ROW.format(rid=11) + ROW.format(rid=12) + '</w:tbl>'
              + para("70000002", BETA, '<w:spacing w:before="300"/>') + para("70000003", "After."))
BUILT = {"joined": JOINED, "chain": CHAIN, "in-cell": IN_CELL, "with-notes": WITH_NOTES, "over-table": OVER_TABLE}


def reviewer(body: str) -> DocxReviewer:
    return DocxReviewer.from_bytes(build_docx(body, numbering=NUMBERING, footnotes=NOTES), author="AI")


def accepted_copy(rev: DocxReviewer) -> DocxReviewer:
    copy = DocxReviewer.from_bytes(rev.to_bytes())
    copy.accept_all()
    return copy


def placed(layout) -> list[tuple]:
    """Every fragment of the body and the notes as (page, story, block id, x, y, the text of each of
    its lines)."""
    return [(page.number, f.story, f.block_id if f.story == "main" else None, round(f.x + f.para.x, 2), round(f.y, 2),
             tuple(f.para.text[line.start:line.end] for line in f.para.lines[f.first_line:f.last_line + 1]))
            for page in layout.pages for f in page.fragments]


def paragraphs(layout) -> list:
    """The measured paragraphs of the body, in order, each once (a paragraph split over pages too)."""
    out = []
    for page in layout.pages:
        for frag in page.body_fragments():
            if not out or out[-1] is not frag.para:
                out.append(frag.para)
    return out


def joined_fragment(layout, block_id: str):
    return layout.fragments_of(block_id)[0][1]


# -- the pages of an accepted view are the pages of the accepted document ------------------------------


@pytest.mark.parametrize("view", ["none", "simple"])
@pytest.mark.parametrize("name", [*BUILT, "RP051"])
def test_accepted_view_lays_out_as_the_accept_all_result(qapp, name, view):
    """Line for line, place for place: the joined paragraphs break into the lines accept-all's
    one paragraph breaks into, and every paragraph after them stands where it stands there."""
    rev = DocxReviewer.open(RP051) if name == "RP051" else reviewer(BUILT[name])
    assert any(b.joined for b in rev.snapshot().blocks)
    expected = layout_document(accepted_copy(rev).document, view="none")
    got = layout_document(rev.document, view=view)
    assert len(paragraphs(got)) == len(paragraphs(expected))
    assert placed(got) == placed(expected)
    assert got.page_count == expected.page_count


def test_joined_paragraph_takes_the_properties_of_the_surviving_mark(qapp):
    rev = reviewer(JOINED)
    block = next(b for b in rev.snapshot().blocks if b.joined)
    assert block.id == "10000002"
    layout = layout_document(rev.document, view="none")
    body = paragraphs(layout)
    assert len(body) == 2  # "Alpha ... beta ... end." and "Gamma follows."
    joined = body[0]
    assert joined.text == "1.\t" + ALPHA + BETA  # the label of the paragraph whose mark survives
    assert joined.spans[0].kind == "label" and joined.text[joined.spans[0].start:joined.spans[0].end] == "1.\t"
    # its indents and spacing, not those of the paragraph whose mark is deleted
    assert joined.x == pytest.approx(1440 * TWIP)
    assert (joined.space_before, joined.space_after) == (pytest.approx(240 * TWIP), pytest.approx(120 * TWIP))
    # the text runs on across the join: the line holding the end of ALPHA holds the start of BETA
    join = len("1.\t" + ALPHA)
    assert joined.text[join:].startswith("beta") and any(ln.start < join < ln.end for ln in joined.lines)
    # the pages show it as the surviving paragraph, under the block's id
    frag = joined_fragment(layout, block.id)
    assert frag.para_element is block.element
    # All Markup (the deleted mark shown) and Original (the text as it was) keep both paragraphs
    for view in ("all", "original"):
        first, second, _gamma = paragraphs(layout_document(rev.document, view=view))
        assert first.text == ALPHA and second.text == "1.\t" + BETA
        assert first.x == 0.0 and second.x == pytest.approx(1440 * TWIP)
    # where All Markup's accepted offsets still run on over the block
    second = paragraphs(layout_document(rev.document, view="all"))[1]
    assert second.accepted[len("1.\t")] == block.start_of(block.element) == len(ALPHA)


@pytest.mark.parametrize("name", list(BUILT))
def test_accepted_map_gives_the_offsets_of_the_joined_block(qapp, name):
    rev = reviewer(BUILT[name])
    block = next(b for b in rev.snapshot().blocks if b.joined)
    layout = layout_document(rev.document, view="none")
    frags = [f for _n, f in layout.fragments_of(block.id)]
    assert len({id(f.para) for f in frags}) == 1  # one paragraph for the whole block
    para = frags[0].para
    read = []  # the block's text as the accepted map reads it off the laid-out paragraph
    for span in para.spans:
        if span.kind == "note":  # a note's number stands for its [^n] marker
            at = para.accepted[span.start]
            read.append((at, block.text[at:block.text.index("]", at) + 1]))
        elif span.kind == "text":
            read.extend((para.accepted[i], para.text[i]) for i in range(span.start, span.end))
    assert [a for a, _t in read] == sorted(a for a, _t in read)
    assert "".join(t for _a, t in read) == block.text
    assert all(block.text.startswith(t, a) for a, t in read)
    assert (frags[0].accepted_range[0], frags[-1].accepted_range[1]) == (0, len(block.text))


def test_simple_markup_bars_the_line_where_a_mark_was_deleted(qapp):
    rev = reviewer(JOINED)
    block = next(b for b in rev.snapshot().blocks if b.joined)
    for view, bars in (("simple", 1), ("none", 0)):
        layout = layout_document(rev.document, view=view)
        frag = joined_fragment(layout, block.id)
        page = layout.pages[0]
        found = change_bars(page, text_edges(page)[0])
        assert len(found) == bars
        if bars:
            join = frag.para.text.index("beta")
            line = next(ln for ln in frag.para.lines if ln.start <= join < ln.end)
            assert found[0][0].top() == pytest.approx(frag.y + line.y)


# -- the page view: clicks, caret and selection land in the joined block ----------------------------------


def test_click_after_the_join_lands_at_the_block_offset(qtbot, qapp):
    rev = reviewer(JOINED)
    block = next(b for b in rev.snapshot().blocks if b.joined)
    layout = layout_document(rev.document, view="none")
    view = shown_page_view(qtbot, 900, 700)
    view.set_layout(layout, rev)
    frag = joined_fragment(layout, block.id)
    para = frag.para
    target = para.text.index("beta") + 2  # inside the first word of the surviving paragraph
    k = next(i for i, ln in enumerate(para.lines) if ln.start <= target < ln.end)
    assert para.lines[k].start < len("1.\t" + ALPHA) - 1  # on the line that ends ALPHA's text
    line = para.layout.lineAt(k)
    point = QPointF(frag.x + para.x + cursor_x(line, target) + 0.5, frag.y + para.lines[k].y + para.lines[k].height / 2)
    assert layout.hit_test(1, point) == (block.id, block.text.index("beta") + 2)
    view.scroll_to_page(1)
    qtbot.mouseClick(view.viewport(), Qt.LeftButton, pos=view.page_to_viewport(1, point).toPoint())
    assert view.selection.caret_mark() == Mark(block.id, block.text.index("beta") + 2)
    # a selection over the join reads as one paragraph: no line break between the two texts
    start = block.text.rindex("alpha ", 0, block.start_of(block.element))
    end = block.text.index("beta") + 4
    assert view.selection.select_range(block.id, start, end)
    assert view.selection.selection_text() == block.text[start:end]
    assert view.selection.selection_block_range() == (block.id, start, end)


def test_relayout_after_edits_of_joined_paragraphs_equals_a_fresh_layout(qapp):
    """Relayout after an edit of the joined block's text, of the formatting of the paragraph whose
    mark is deleted (named alone), and of a new join (only the block now reading the text named):
    the pages equal those of a fresh layout of the edited document."""
    rev = reviewer(JOINED)
    block = next(b for b in rev.snapshot().blocks if b.joined)
    layout = layout_document(rev.document, view="none")

    def fresh():
        return placed(layout_document(DocxReviewer.from_bytes(rev.to_bytes()).document, view="none"))

    result = rev.apply_document_operations({"version": 1, "mode": "tracked-changes", "operations": [
        {"id": "op1", "type": "replaceInBlock", "blockId": block.id, "find": "Alpha", "replace": "Omega"}]})
    assert result["applied"], result
    layout.relayout([block.id])
    assert placed(layout) == fresh()
    assert paragraphs(layout)[0].text.startswith("1.\tOmega alpha")
    # larger type in the paragraph whose mark is deleted: its lines in the joined paragraph grow
    first = block.joined[0]
    rpr = etree.SubElement(first.find(W + "r"), W + "rPr")
    etree.SubElement(rpr, W + "sz").set(W + "val", "40")
    rpr.getparent().insert(0, rpr)
    rev.document.invalidate()
    before = paragraphs(layout)[0].content_height
    layout.relayout(changed_paragraphs=[first])
    assert placed(layout) == fresh() and paragraphs(layout)[0].content_height > before
    # delete the mark between the joined paragraph and "Gamma follows.": all three now read as one
    gamma = next(b for b in rev.snapshot().blocks if b.text == "Gamma follows.")
    result = rev.apply_document_operations({"version": 1, "mode": "tracked-changes", "operations": [
        {"id": "op2", "type": "mergeBlockWithNext", "blockId": block.id}]})
    assert result["applied"], result
    layout.relayout([gamma.id])
    assert placed(layout) == fresh()
    assert len(paragraphs(layout)) == 1 and paragraphs(layout)[0].text.endswith("end.Gamma follows.")


def test_keep_with_next_keeps_a_heading_with_the_joined_paragraph(qapp):
    """A keepNext heading before joined paragraphs goes to the next page with them, as it goes with
    accept-all's one paragraph: the paragraph joined away takes no part in the chain."""
    def body(fillers: int) -> str:
        return ("".join(para(f"4{i:07d}", f"Filler line {i}.") for i in range(fillers))
                + para("40100000", "Heading", '<w:keepNext/>')
                + para("40100001", ALPHA, gone()) + para("40100002", BETA))

    for fillers in range(30, 80):
        rev = reviewer(body(fillers))
        expected = layout_document(accepted_copy(rev).document, view="none")
        heading_page = next(n for n, _f in expected.fragments_of("40100000"))
        if heading_page == 2 and expected.fragments_of(f"4{fillers - 1:07d}")[0][0] == 1:
            break  # the first page the heading would end, and so is carried over
    else:
        raise AssertionError("no filler count carries the heading over to page 2")
    got = layout_document(rev.document, view="none")
    assert placed(got) == placed(expected)
    assert got.fragments_of("40100000")[0][0] == 2


def test_bordered_paragraphs_share_one_box_across_a_joined_paragraph(qapp):
    """Paragraphs with the same borders share one box; the paragraph joined away is no box of its
    own, so the one before it meets the joined paragraph as accept-all's document has them."""
    box = ('<w:pBdr>' + "".join(f'<w:{side} w:val="single" w:sz="4" w:space="4" w:color="000000"/>'
                                for side in ("top", "left", "bottom", "right")) + '</w:pBdr>')
    rev = reviewer(para("50000001", "Boxed first.", box) + para("50000002", ALPHA, box + gone())
                   + para("50000003", BETA, box) + para("50000004", "Plain after."))
    expected = layout_document(accepted_copy(rev).document, view="none")
    got = layout_document(rev.document, view="none")
    assert placed(got) == placed(expected)
    def lines(layout):
        return sorted((round(b.x1, 2), round(b.y1, 2), round(b.x2, 2), round(b.y2, 2)) for b in layout.pages[0].borders)

    assert lines(got) == lines(expected) and len(lines(got)) == 4  # one box


COMMENTS = "".join(f'<w:comment w:id="{n}" w:author="Dan"><w:p><w:r><w:t>Note {n}.</w:t></w:r></w:p></w:comment>'
                   for n in (5, 6))


def commented(pid: str, text: str, ppr: str = "", end: int | None = None, start: int | None = None) -> str:
    """A paragraph whose text a comment range opens (start) or closes (end) around."""
    head = f'<w:commentRangeStart w:id="{start}"/>' if start is not None else ""
    tail = f'<w:commentRangeEnd w:id="{end}"/><w:r><w:commentReference w:id="{end}"/></w:r>' if end is not None else ""
    return (f'<w:p w14:paraId="{pid}" w14:textId="{pid}"><w:pPr>{ppr}</w:pPr>{head}'
            f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>{tail}</w:p>')


def test_comment_ranges_between_joined_paragraphs_cover_the_text_they_cover_once_accepted(qapp):
    """A range that starts between two joined paragraphs (body-level markup, which accept-all moves
    into the joined paragraph) covers the text after the join; one that ends there, the text
    before it only, as in the accept-all result's one paragraph."""
    body = (commented("90000001", "Alpha first ", gone(rid=3), start=6) + '<w:commentRangeEnd w:id="6"/>'
            + commented("90000002", "wording. ", gone()) + '<w:commentRangeStart w:id="5"/>'
            + commented("90000003", "beta commented", end=5) + para("90000004", "Last."))
    rev = DocxReviewer.from_bytes(build_docx(body, comments=COMMENTS), author="AI")
    assert next(b for b in rev.snapshot().blocks if b.joined).text == "Alpha first wording. beta commented"
    expected = layout_document(accepted_copy(rev).document, view="simple")
    got = layout_document(rev.document, view="simple")

    def covered(layout):
        para = paragraphs(layout)[0]
        return para.text, sorted(para.comment_marks), [(s.start, s.end, s.comments) for s in para.spans if s.comment]

    assert covered(got) == covered(expected)
    text, marks, _spans = covered(got)
    assert [(cid, text[a:b]) for cid, a, b, _here in marks] == [("5", "beta commented"), ("6", "Alpha first ")]


def test_typing_after_the_join_in_no_markup_lands_in_the_surviving_paragraph(qtbot, tmp_path):
    """The lawyer clicks in the text after the join on the page and types: the insertion goes in
    the paragraph that holds that text, and the pages laid out again read as a fresh layout."""
    from typing_helpers import click_at, desk, same_as_fresh_layout, text_of

    source = tmp_path / "joined.docx"
    source.write_bytes(build_docx(JOINED, numbering=NUMBERING, footnotes=NOTES))
    window = desk(qtbot, tmp_path, source)
    view = window.view
    with qtbot.waitSignal(view.layoutFinished, timeout=10_000):
        view.set_markup_view("none")
    block = next(b for b in window.reviewer.snapshot().blocks if b.joined)
    at = block.text.index("beta") + 2
    click_at(qtbot, view, block.id, at)
    qtbot.keyClicks(view.viewport(), "XY")
    assert text_of(window, block.id) == block.text[:at] + "XY" + block.text[at:]
    surviving = block.element
    assert "beXYta" in "".join(surviving.itertext()) and "XY" not in "".join(block.joined[0].itertext())
    same_as_fresh_layout(window)
    assert len({id(f.para) for _n, f in view.document_layout.fragments_of(block.id)}) == 1
