"""The page layout on real documents: page counts against LibreOffice's, the page <-> block maps,
sections, headers, footnotes, keep-with-next, redline text and hit testing (issue 5)."""

import json
import re
import subprocess
import sys

import pytest
from conftest import CORPUS, ROOT
from PySide6.QtCore import QPointF

from folio_desktop.docx import DocxReviewer
from folio_desktop.docx.model.textkit import normalize

LIBREOFFICE = json.loads((ROOT / "benchmarks" / "data" / "libreoffice_pages.json").read_text())["documents"]
# documents whose page count already equals LibreOffice's: a change that breaks one is a regression
MATCHING = ["contract_commonpaper_csa_with_ai_gdocs.docx", "unusual/docx2python_invalid_tag_name.docx", "contract_commonpaper_pilot_agreement.docx",
            "contract_msdn_eula_legal_numbering.docx", "powertools_HC048_dispute_resolution_numbering.docx",
            "powertools_RA001_tracked_revisions_moves.docx", "pythondocx_section_props_multi_section.docx",
            "eigenpal_docxjs_editor_demo.docx", "folio/contract-stella-style.docx",
            "folio/performance-1500-paragraphs.docx", "folio/word-hyphenation-hanging.docx",
            "docling_word_tables_merged_cells.docx", "folio/performance-long-split-table.docx",
            "contract_docx4j_individual_cla_libreoffice.docx", "powertools_HC012_hebrew_rtl_numbering.docx"]


@pytest.fixture(scope="module")
def layout_of(qapp):
    from folio_desktop.layout import layout_document

    cache = {}

    def get(name):
        if name not in cache:
            rev = DocxReviewer.open(CORPUS / name)
            cache[name] = (rev, layout_document(rev.document))
        return cache[name]

    return get


@pytest.mark.parametrize("name", MATCHING)
def test_page_count_matches_libreoffice(layout_of, name):
    _, lay = layout_of(name)
    assert lay.page_count == len(LIBREOFFICE[name]["pages"])


def test_page_of_and_page_text_agree(layout_of):
    rev, lay = layout_of("contract_ilpa_model_lpa_whole_of_fund_75p.docx")
    checked = 0
    for block in rev.snapshot().content_blocks[::7]:
        page = lay.page_of(block.id)
        assert page is not None, block.id
        words = normalize(block.text)[:25]
        assert words in normalize(lay.page_text(page)), (block.id, page)
        checked += 1
    assert checked > 100
    assert lay.page_text(0) is None and lay.page_text(lay.page_count + 1) is None
    # an offset deep inside a long paragraph that crosses a page lands on the later page
    for page in lay.pages:
        frags = [f for f in page.body_fragments() if f.block_id]
        if frags and frags[0].first_line > 0:
            frag = frags[0]
            start, _ = frag.accepted_range
            assert lay.page_of(frag.block_id, start) == page.number
            assert lay.page_of(frag.block_id, 0) == page.number - 1
            break
    else:
        pytest.fail("expected a paragraph split across pages")


def test_sections_keep_their_page_size(layout_of):
    _, lay = layout_of("pythondocx_section_props_multi_section.docx")
    shapes = ["landscape" if p.width > p.height else "portrait" for p in lay.pages]
    assert "landscape" in shapes and "portrait" in shapes


def test_headers_footers_and_page_numbers(layout_of):
    _, lay = layout_of("contract_ilpa_model_lpa_whole_of_fund_75p.docx")
    page = lay.pages[9]
    stories = {f.story.split(":")[0] for f in page.fragments}
    assert {"header", "footer", "main"} <= stories
    footer_text = " ".join(f.text() for f in page.fragments if f.story.startswith("footer"))
    assert "Last Updated: July 2020" in footer_text
    numbers = [int(n) for n in re.findall(r"\b(\d+)\b", footer_text)]
    assert numbers, footer_text  # the PAGE field shows this page's number, not the cached one


def _note_pages(lay) -> dict:
    """footnote story -> [(page number, fragment)] in page order."""
    out: dict = {}
    for page in lay.pages:
        for frag in page.fragments:
            if frag.story.startswith("footnote:"):
                out.setdefault(frag.story, []).append((page.number, frag))
    return out


def _reference_page(lay, story: str) -> int | None:
    for page in lay.pages:
        for f in page.body_fragments():
            start, end = f.display_range
            if any(start <= ref[0] < end and f"footnote:{ref[2]}" == story for ref in f.para.note_refs):
                return page.number
    return None


def test_footnotes_sit_on_the_page_of_their_reference(layout_of):
    _, lay = layout_of("contract_ilpa_model_lpa_whole_of_fund_75p.docx")
    notes = _note_pages(lay)
    assert len(notes) >= 20
    held_over = []
    for story, placed in notes.items():
        first_page = placed[0][0]
        ref_page = _reference_page(lay, story)
        if first_page != ref_page:
            held_over.append((story, ref_page, first_page))
        for number, frag in placed:
            body = lay.pages[number - 1].body_fragments()
            assert frag.top > max(f.bottom for f in body) - 1  # under the text
    # LibreOffice keeps "9.5 Other Conflicts of Interest" at the foot of page 41, under notes 15 and
    # 16, and sets its note 17, which does not fit there whole, at the foot of page 42
    assert held_over == [("footnote:17", 41, 42)]
    assert lay.pages[40].body_fragments()[-1].text().startswith("9.5\tOther Conflicts of Interest")
    assert [f.first_line for n, f in notes["footnote:17"]] == [0] and \
        notes["footnote:17"][0][1].last_line == len(notes["footnote:17"][0][1].para.lines) - 1


NOTE_TEXT = " ".join(f"note word {i}" for i in range(160))


def _note_doc(notes: dict[int, str], body_lines: int, refs_at: dict[int, int]) -> bytes:
    """body_lines one-line paragraphs; paragraph k carries the reference to note refs_at[k]."""
    from docbuilder import build_docx, p

    body = []
    for k in range(body_lines):
        if k in refs_at:
            body.append(f'<w:p><w:r><w:t xml:space="preserve">Line {k} with a note</w:t></w:r><w:r><w:rPr>'
                        f'<w:vertAlign w:val="superscript"/></w:rPr><w:footnoteReference w:id="{refs_at[k]}"/></w:r></w:p>')
        else:
            body.append(p(f"Line {k}"))
    footnotes = ('<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
                 '<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r>'
                 '</w:p></w:footnote>')
    for note_id, text in notes.items():
        footnotes += (f'<w:footnote w:id="{note_id}"><w:p><w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr>'
                      f'<w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> {text}</w:t></w:r></w:p></w:footnote>')
    styles = ('<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:pPr>'
              '<w:widowControl/></w:pPr><w:rPr><w:sz w:val="22"/></w:rPr></w:style>')
    return build_docx("".join(body), styles=styles, footnotes=footnotes)


def _lay_out_bytes(tmp_path, data: bytes):
    from folio_desktop.layout import layout_document

    path = tmp_path / "notes.docx"
    path.write_bytes(data)
    return layout_document(DocxReviewer.open(path).document)


def test_a_long_first_footnote_continues_on_the_next_page(qapp, tmp_path):
    """A note that does not fit under its reference keeps its opening lines there and continues at
    the foot of the next page, under a full-width continuation separator (Word)."""
    lay = _lay_out_bytes(tmp_path, _note_doc({1: NOTE_TEXT}, 80, {44: 1}))
    placed = _note_pages(lay)["footnote:1"]
    assert _reference_page(lay, "footnote:1") == 1
    assert [n for n, _f in placed] == [1, 2]
    head, tail = placed[0][1], placed[1][1]
    lines = len(head.para.lines)
    assert head.first_line == 0 and 2 <= head.last_line + 1 <= lines - 2  # widow control: two lines each side
    assert tail.first_line == head.last_line + 1 and tail.last_line == lines - 1
    assert normalize(head.text() + tail.text()) == normalize(head.para.text)
    bottom = lay.pages[0].height - 96  # the 1-inch bottom margin
    assert head.bottom <= bottom + 0.5 and tail.bottom <= bottom + 0.5
    assert max(f.bottom for f in lay.pages[0].body_fragments()) < head.top
    column = lay.pages[0].width - 192
    assert any(rule.height() < 1 and rule.width() == pytest.approx(column) for rule in lay.pages[1].rules)
    assert not any(rule.height() < 1 and rule.width() == pytest.approx(column) for rule in lay.pages[0].rules)


def test_a_footnote_that_meets_notes_already_on_the_page_moves_whole(qapp, tmp_path):
    """Under a page's earlier notes, a note that does not fit whole goes whole to the next page and
    its reference stays (LibreOffice, the ILPA LPA's note 17)."""
    lay = _lay_out_bytes(tmp_path, _note_doc({1: "A short note.", 2: NOTE_TEXT}, 80, {3: 1, 44: 2}))
    notes = _note_pages(lay)
    assert [n for n, _f in notes["footnote:1"]] == [1]
    assert _reference_page(lay, "footnote:2") == 1
    assert [n for n, _f in notes["footnote:2"]] == [2]
    whole = notes["footnote:2"][0][1]
    assert whole.first_line == 0 and whole.last_line == len(whole.para.lines) - 1


def test_a_footnote_shows_its_own_number_and_is_measured_with_it(layout_of):
    """The w:footnoteRef inside a note is drawn as the note's number and takes width: with it, ILPA's
    footnote 11 wraps "recycling." to a second line, as LibreOffice's PDF does (466 pt of 9 pt text
    alone fits the 468 pt column), and the note goes to page 29 with the last lines of 6.4."""
    _, lay = layout_of("contract_ilpa_model_lpa_whole_of_fund_75p.docx")
    (page, frag), = [(page, f) for page in lay.pages for f in page.fragments if f.story == "footnote:11"]
    assert frag.text().startswith("11 Note that some investors")
    assert (frag.first_line, frag.last_line) == (0, 1)
    assert page.number == 29 and (lay.page_text(29) or "").startswith("Organizational Expenses")
    numbers = [int(f.text().split()[0]) for p in lay.pages for f in p.fragments
               if f.story.startswith("footnote:") and f.first_line == 0 and f.text().strip()]
    assert numbers == sorted(numbers) and len(numbers) >= 20


@pytest.mark.parametrize("name", ["wgig_background_report_78p_footnotes.docx",
                                  "contract_nvca_stock_purchase_agreement_27p.docx"])
def test_keep_with_next_headings(layout_of, name):
    # headings whose style keeps them with the next paragraph: each shares a page with that paragraph's first line
    rev, lay = layout_of(name)
    blocks = rev.snapshot().content_blocks
    kept = [(block, after) for block, after in zip(blocks, blocks[1:])
            if block.kind == "heading" and block.table is None and after.table is None
            and (frags := lay.fragments_of(block.id)) and frags[-1][1].para.keep_next]
    assert len(kept) >= 10, "the document's headings carry keep-with-next"
    apart = [block.id for block, after in kept if lay.fragments_of(block.id)[-1][0] != lay.page_of(after.id, 0)]
    assert not apart


def test_redlines_are_laid_out_in_markup_view(layout_of):
    rev, lay = layout_of("eigenpal_docxjs_editor_demo.docx")
    deleted = [c for c in rev.get_changes() if c.type == "deletion" and c.text.strip()]
    assert deleted
    spans = [(f, s) for p in lay.pages for f in p.fragments for s in f.para.spans if s.kind == "deleted"]
    texts = {f.para.text[s.start:s.end] for f, s in spans}
    assert any(d.text.strip() in "".join(texts) for d in deleted)
    assert any(s.kind == "inserted" for p in lay.pages for f in p.fragments for s in f.para.spans)


def test_hit_test_finds_the_block_under_a_point(layout_of):
    _, lay = layout_of("contract_msdn_eula_legal_numbering.docx")
    frag = next(f for f in lay.pages[1].body_fragments() if f.block_id and f.para.text.strip())
    line = frag.para.lines[frag.first_line]
    point = QPointF(frag.x + frag.para.x + 5, frag.y + line.y + line.height / 2)
    hit = lay.hit_test(2, point)
    assert hit is not None and hit[0] == frag.block_id
    assert lay.hit_test(2, QPointF(2, 2)) is None


def test_pages_cli_json():
    env_code = ("import os; os.environ['QT_QPA_PLATFORM']='offscreen';"
                "from folio_desktop.cli import main; raise SystemExit(main())")
    proc = subprocess.run([sys.executable, "-c", env_code, "pages", str(CORPUS / "contract_msdn_eula_legal_numbering.docx"),
                           "--json"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["pageCount"] == 14 and len(data["pages"]) == 14
    first = data["pages"][0]
    assert first["number"] == 1 and first["firstWords"] == "MASTER END-USER LICENSE AGREEMENT MSDN, The Microsoft Developer"
    assert first["text"].startswith("MASTER END-USER LICENSE AGREEMENT\n")
    assert all(len(p["firstWords"].split()) <= 8 for p in data["pages"])


def test_incremental_relayout_after_an_edit(qapp):
    from folio_desktop.layout import layout_document

    rev = DocxReviewer.open(CORPUS / "contract_ilpa_model_lpa_whole_of_fund_75p.docx")
    lay = layout_document(rev.document)
    pages_before = list(lay.pages)
    target = next(b for b in rev.snapshot().content_blocks[400:] if b.table is None and len(b.text) > 200)
    page = lay.page_of(target.id)
    calls = []
    measurer = lay.paginator.measurer
    original = measurer.measure
    measurer.measure = lambda *a, **k: calls.append(a[0]) or original(*a, **k)
    result = rev.apply_document_operations({"version": 1, "operations": [
        {"type": "insertAfterBlock", "blockId": target.id, "text": "A new clause the lawyer added. " * 12}]})
    assert result["applied"]
    restart = lay.relayout([target.id])
    assert 1 < restart <= page
    assert all(a is b for a, b in zip(lay.pages[:restart - 1], pages_before[:restart - 1], strict=False))
    assert len(calls) < 40  # the edited paragraph and the new one, not the whole contract
    fresh = layout_document(DocxReviewer.from_bytes(rev.to_bytes()).document)
    assert lay.page_count == fresh.page_count
    assert [lay.page_text(n) for n in range(1, lay.page_count + 1)] == \
        [fresh.page_text(n) for n in range(1, fresh.page_count + 1)]
    new_block = next(b for b in rev.snapshot().blocks if b.text.startswith("A new clause the lawyer added."))
    assert lay.page_of(new_block.id) in (page, page + 1)


def test_page_x_of_y_shows_the_new_total_after_an_edit_adds_a_page(qapp):
    """The eigenpal demo's footer reads "Page N of M" (NUMPAGES): an edit that adds pages must change M
    on every page, not only on the pages laid out again."""
    from folio_desktop.layout import layout_document

    rev = DocxReviewer.open(CORPUS / "eigenpal_docxjs_editor_demo.docx")
    lay = layout_document(rev.document)
    count = lay.page_count

    def footer(n):
        return " ".join(f.text() for f in lay.pages[n - 1].fragments if f.story.startswith("footer"))

    assert [footer(n) for n in (1, count)] == [f"Page 1 of {count} · eigenpal.com", f"Page {count} of {count} · eigenpal.com"]
    last = rev.snapshot().content_blocks[-1]
    result = rev.apply_document_operations({"version": 1, "operations": [
        {"type": "insertAfterBlock", "blockId": last.id, "text": "An added clause. " * 60} for _ in range(12)]})
    assert result["applied"]
    lay.relayout([last.id])
    total = lay.page_count
    assert total > count
    assert [footer(n) for n in range(1, total + 1)] == [f"Page {n} of {total} · eigenpal.com" for n in range(1, total + 1)]


def test_a_fragment_ending_with_a_note_reference_covers_the_whole_marker(layout_of):
    """A footnote reference is drawn as its number but reads "[^n]" in the accepted view: a fragment
    ending with one covers the whole marker, so page_of() of any offset in it is that page."""
    rev, lay = layout_of("contract_ilpa_model_lpa_whole_of_fund_75p.docx")
    snap = rev.snapshot()
    checked = 0
    for page in lay.pages:
        for frag in page.body_fragments():
            hi = frag.display_range[1]
            if not frag.block_id or not any(s.kind == "note" and s.start < hi <= s.end for s in frag.para.spans):
                continue
            start, end = frag.accepted_range
            text = snap.block(frag.block_id).text
            marker = text[:end][text[:end].rfind("[^"):]
            assert marker.startswith("[^") and marker.endswith("]"), (page.number, text[start:end][-20:])
            assert all(lay.page_of(frag.block_id, k) == page.number for k in range(end - len(marker), end))
            checked += 1
    assert checked >= 5


def test_a_table_nested_in_a_cell_lays_its_cells_side_by_side(layout_of):
    """ILPA's Schedule 1 is a table inside a one-cell table. Its three columns sit side by side, as in
    LibreOffice's PDF (the schedule then fits one page and the document has LibreOffice's 75 pages)."""
    rev, lay = layout_of("contract_ilpa_model_lpa_whole_of_fund_75p.docx")
    page = next(p for p in lay.pages if any(f.text() == "Limited Partners" for f in p.body_fragments()))
    assert page.body_fragments()[0].text().startswith("SCHEDULE\xa01")
    heads = {f.text(): f for f in page.body_fragments()
             if f.text() in ("Limited Partners", "Commitments", "Address; Attention; Email")}
    assert len(heads) == 3
    tops = {round(f.top, 1) for f in heads.values()}
    assert len(tops) == 1  # one row
    xs = [heads[t].x for t in ("Limited Partners", "Commitments", "Address; Attention; Email")]
    assert xs == sorted(xs) and xs[1] - xs[0] > 50
    assert any(f.text().startswith("Total Commitments") for f in page.body_fragments())
    assert lay.page_count == 75
    # every cell paragraph stays inside the page's text column
    assert all(96 - 1 <= f.x and f.x + f.para.x + f.para.width <= page.width - 96 + 1 for f in heads.values())


def test_a_long_nested_table_breaks_between_its_rows(qapp):
    """A nested table taller than a page continues on the next page, breaking between its rows."""
    from docbuilder import build_docx

    from folio_desktop.layout import layout_document

    def cell(text, width):
        return f'<w:tc><w:tcPr><w:tcW w:w="{width}" w:type="dxa"/></w:tcPr><w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:tc>'

    rows = "".join(f"<w:tr>{cell(f'Party {i}', 3000)}{cell(f'Amount {i}', 3000)}</w:tr>" for i in range(80))
    inner = f'<w:tbl><w:tblGrid><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/></w:tblGrid>{rows}</w:tbl>'
    outer = ('<w:tbl><w:tblGrid><w:gridCol w:w="9000"/></w:tblGrid><w:tr><w:tc><w:tcPr><w:tcW w:w="9000" '
             f'w:type="dxa"/></w:tcPr><w:p><w:r><w:t>Schedule</w:t></w:r></w:p>{inner}<w:p/></w:tc></w:tr></w:tbl>')
    rev = DocxReviewer.from_bytes(build_docx(outer + "<w:p/>"))
    lay = layout_document(rev.document)
    assert lay.page_count >= 2
    where = {}
    for page in lay.pages:
        for f in page.body_fragments():
            where.setdefault(f.text(), set()).add((page.number, round(f.top, 1)))
    for i in range(80):
        party, amount = where[f"Party {i}"], where[f"Amount {i}"]
        assert len(party) == 1 and party == amount  # each row whole, its two cells side by side
    pages = {next(iter(where[f"Party {i}"]))[0] for i in range(80)}
    assert pages == set(range(1, max(pages) + 1)) and len(pages) >= 2
    for page in lay.pages:  # nothing runs past the bottom margin
        assert all(f.bottom <= page.height - 96 + 0.5 for f in page.body_fragments())


def test_cell_shading_is_laid_out(layout_of):
    _, lay = layout_of("eigenpal_docxjs_editor_demo.docx")
    fills = {color for page in lay.pages for _rect, color in page.fills}
    assert "#1E293B" in fills  # the dark table header the document shades


def test_moves_and_formatting_changes_are_marked(layout_of):
    _, lay = layout_of("pandoc_track_changes_move_macword.docx")
    spans = [(f, s) for p in lay.pages for f in p.fragments for s in f.para.spans if s.moved]
    assert {s.kind for _f, s in spans} == {"inserted", "deleted"}
    frag, span = spans[0]
    color = next(fr.format.foreground().color().name() for fr in frag.para.layout.formats()
                 if fr.start <= span.start < fr.start + fr.length)
    assert color == "#2e7d32"
    _, lay = layout_of("adeu_word_rprchange_comments.docx")
    assert any(s.kind == "formatted" for p in lay.pages for f in p.fragments for s in f.para.spans)


def _spacing_doc(tmp_path, html_auto_spacing: bool):
    """Four Normal-style paragraphs: two plain ones with 10 pt before and after, then two items of
    one list with HTML auto spacing before and after."""
    import docx
    from docx.oxml import parse_xml
    from docx.oxml.ns import nsdecls
    from docx.shared import Pt

    d = docx.Document()
    for text in ("First paragraph.", "Second paragraph."):
        p = d.add_paragraph(text)
        p.paragraph_format.space_before = Pt(10)
        p.paragraph_format.space_after = Pt(10)
    for text in ("Item one.", "Item two."):
        p = d.add_paragraph(text, style="List Number")  # numbered through its style
        ppr = p._p.get_or_add_pPr()
        ppr.append(parse_xml(f'<w:spacing {nsdecls("w")} w:beforeAutospacing="1" w:afterAutospacing="1"/>'))
        ppr.append(parse_xml(f'<w:contextualSpacing {nsdecls("w")} w:val="0"/>'))  # not what removes it
    if not html_auto_spacing:
        compat = d.settings.element.find(docx.oxml.ns.qn("w:compat"))
        if compat is None:
            compat = parse_xml(f'<w:compat {nsdecls("w")}/>')
            d.settings.element.append(compat)
        compat.append(parse_xml(f'<w:doNotUseHTMLParagraphAutoSpacing {nsdecls("w")}/>'))
    path = tmp_path / f"spacing_{html_auto_spacing}.docx"
    d.save(path)
    return path


@pytest.mark.parametrize("html_auto_spacing", [True, False])
def test_paragraph_spacing_collapses_with_html_auto_spacing(qapp, tmp_path, html_auto_spacing):
    from folio_desktop.layout import layout_document

    rev = DocxReviewer.open(_spacing_doc(tmp_path, html_auto_spacing))
    lay = layout_document(rev.document)
    frags = sorted(lay.pages[0].body_fragments(), key=lambda f: f.top)
    assert [f.para.text.split("\t")[-1] for f in frags][:2] == ["First paragraph.", "Second paragraph."]
    gap = frags[1].top - frags[0].bottom
    # 10 pt after + 10 pt before: the larger one (Word's HTML paragraph auto spacing), or their sum
    assert gap == pytest.approx((10 if html_auto_spacing else 20) * 96 / 72, abs=0.5)
    items = [f for f in frags if "Item" in f.para.text]
    assert items[0].para.list_key is not None and items[0].para.list_key == items[1].para.list_key
    assert items[1].top - items[0].bottom == pytest.approx(0.0, abs=0.5)  # no auto spacing inside a list


def test_line_grid_snaps_body_lines_to_the_pitch(layout_of):
    # w:docGrid type="lines" linePitch="312": LibreOffice (and Word) give every body line a whole
    # number of 15.6 pt grid lines; this document has 13 pages without the grid, 16 in LibreOffice
    _, lay = layout_of("openxmlsdk_cjk_tables_merged_two_page_sizes.docx")
    pitch = 312 / 15
    heights = {round(line.height / pitch, 3) for page in lay.pages[:3] for frag in page.fragments
               if frag.story == "main" for line in frag.para.lines[frag.first_line:frag.last_line + 1]}
    assert heights and all(h == int(h) for h in heights)


def test_first_page_header_after_a_blank_parity_page(layout_of):
    _, lay = layout_of("pandoc_0_level_headers_toc_sections.docx")
    assert lay.pages[1].text(include_headers=True).strip() == ""  # the blank page before an odd-page section
    headers = [f for f in lay.pages[2].fragments if f.story.startswith("header")]
    # the section's first-page header (titlePg), not its running "CONTENTS (Continued)" one
    assert headers and "Continued" not in " ".join(f.text() for f in headers)
    section = lay.paginator.sections[lay.pages[2].section]
    assert section.title_page and headers[0].story == f"header:{section.headers.first}"


def test_keep_with_next_counts_a_whole_keep_lines_paragraph(layout_of):
    """wgig paragraph 43 keeps with the boxed definition after it, which cannot be split: both move
    to the next page together, as LibreOffice and Word lay them out."""
    rev, lay = layout_of("wgig_background_report_78p_footnotes.docx")
    blocks = rev.snapshot().content_blocks
    i = next(k for k, b in enumerate(blocks) if b.text.startswith("43."))
    frags = lay.fragments_of(blocks[i].id)
    assert frags[0][1].para.keep_next
    following = blocks[i + 1]
    assert lay.fragments_of(following.id)[0][1].para.keep_lines
    assert lay.page_of(blocks[i].id) == lay.page_of(following.id)
