"""Tables of any shape compare and never refuse (issue 28): grid offsets (w:gridBefore / w:gridAfter),
horizontal (w:gridSpan) and vertical (w:vMerge) merges, split cells, rows added or removed anywhere,
nested tables, whole tables added, removed or turned into paragraphs, and long tables.

Each redline must accept to the later version and reject to the earlier one in the cells' text and
in the tables' shape (rows, cells, offsets, spans, merges), show every changed row as a tracked
change, and reopen in our reader and python-docx. A row whose shape changed is replaced as a whole
row; a table whose grid of columns changed, as a whole table, which the summary says."""

from __future__ import annotations

import io
import time
import zipfile

import docbuilder
import docx
import pytest
from conftest import CORPUS
from docbuilder import build_docx, long_table, p
from lxml import etree

from folio_desktop.agents.versions.compare import compare_docx_versions
from folio_desktop.agents.versions.notes import redline_notes
from folio_desktop.agents.versions.redline import generate_redline_docx, story_texts
from folio_desktop.docx import DocxReviewer

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_W = "{" + W + "}"


# -- documents built in code ----------------------------------------------------------------------------

def tc(text: str, span: int = 1, vmerge: str | None = None, inner: str = "") -> str:
    pr = f'<w:tcW w:w="{1500 * span}" w:type="dxa"/>' + (f'<w:gridSpan w:val="{span}"/>' if span > 1 else "")
    if vmerge is not None:
        pr += '<w:vMerge w:val="restart"/>' if vmerge == "restart" else "<w:vMerge/>"
    return f"<w:tc><w:tcPr>{pr}</w:tcPr>{inner}{p(text)}</w:tc>"


def tr(*cells: str, before: int = 0, after: int = 0) -> str:
    pr = (f'<w:gridBefore w:val="{before}"/>' if before else "") + (f'<w:gridAfter w:val="{after}"/>' if after else "")
    return f"<w:tr>{f'<w:trPr>{pr}</w:trPr>' if pr else ''}{''.join(cells)}</w:tr>"


def tbl(*rows: str, cols: int = 3) -> str:
    grid = "".join('<w:gridCol w:w="1500"/>' for _ in range(cols))
    return f'<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid>{grid}</w:tblGrid>{"".join(rows)}</w:tbl>'


def doc(*blocks: str) -> bytes:
    return build_docx(p("Schedule of prices.") + "".join(blocks) + p("Prices exclude tax."))


def grid_rows(n: int, *, changed=(), dropped=(), added=()) -> str:
    """A 3-column table of n rows; `changed` rows get a word edited, `dropped` rows go, a new row
    follows each row in `added`."""
    rows = []
    for i in range(n):
        if i not in dropped:
            amount = f"{i * 10} EUR" + (" net" if i in changed else "")
            rows.append(tr(tc(f"Item {i}"), tc(f"Part {i}"), tc(amount)))
        if i in added:
            rows.append(tr(tc(f"Extra after {i}"), tc("New part"), tc("5 EUR")))
    return tbl(*rows)


# -- what the tests read ----------------------------------------------------------------------------------

def _body(data: bytes) -> etree._Element:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return etree.fromstring(z.read("word/document.xml")).find(_W + "body")


def _val(parent, tag: str, default):
    el = parent.find(_W + tag) if parent is not None else None
    return default if el is None else (el.get(_W + "val") or "continue")


def tables(data: bytes) -> list:
    """Every table (nested too) as its grid width and rows of (gridBefore, gridAfter, cells of (text,
    span, vMerge)), read with lxml from the package: the shape the lawyer sees."""
    out = []
    for t in _body(data).iter(_W + "tbl"):
        rows = []
        for row in t.iter(_W + "tr"):
            if next(row.iterancestors(_W + "tbl")) is not t:
                continue
            pr = row.find(_W + "trPr")
            cells = tuple(("".join(x.text or "" for x in c.iter(_W + "t")), _val(c.find(_W + "tcPr"), "gridSpan", "1"),
                           _val(c.find(_W + "tcPr"), "vMerge", None))
                          for c in row.iter(_W + "tc") if next(c.iterancestors(_W + "tr")) is row)
            rows.append((_val(pr, "gridBefore", "0"), _val(pr, "gridAfter", "0"), cells))
        out.append((len(t.findall(f"{_W}tblGrid/{_W}gridCol")), rows))
    return out


def resolved(data: bytes, accept: bool) -> bytes:
    rev = DocxReviewer.from_bytes(data)
    rev.accept_all() if accept else rev.reject_all()
    return rev.to_bytes()


def final(data: bytes) -> bytes:
    """The version as compared: its own pending changes accepted."""
    return resolved(data, True)


def unmarked_rows(data: bytes) -> list[str]:
    """The text of every table row of a redline that shows no tracked change of its own."""
    out = []
    for row in _body(data).iter(_W + "tr"):
        if next(row.iter(_W + "ins", _W + "del"), None) is None:  # (a mark in a nested table counts too)
            out.append("|".join(x.text or "" for x in row.iter(_W + "t")))
    return out


def rows_text(data: bytes) -> list[str]:
    return ["|".join(x.text or "" for x in row.iter(_W + "t")) for row in _body(data).iter(_W + "tr")]


def redline(base: bytes, revised: bytes) -> dict:
    """The redline, checked: accept-all is the revised version and reject-all the base, in text and
    in the shape of every table; every row that is not in both versions as it was shows a change;
    it reopens in our reader and in python-docx."""
    result = generate_redline_docx(base, revised)
    buf = result["buffer"]
    accepted, rejected = resolved(buf, True), resolved(buf, False)
    assert tables(accepted) == tables(final(revised))
    assert tables(rejected) == tables(final(base))
    assert story_texts(DocxReviewer.from_bytes(accepted))["main"] == story_texts(
        DocxReviewer.from_bytes(final(revised)))["main"]
    assert story_texts(DocxReviewer.from_bytes(rejected))["main"] == story_texts(
        DocxReviewer.from_bytes(final(base)))["main"]
    kept = {r for r in rows_text(final(base)) if r in set(rows_text(final(revised)))}
    assert [r for r in unmarked_rows(buf) if r not in kept] == []
    assert len(docx.Document(io.BytesIO(buf)).tables) == len(_body(buf).findall(_W + "tbl"))
    assert DocxReviewer.from_bytes(buf).snapshot() is not None  # (it reopens in our reader)
    return result


def marked_rows(data: bytes) -> int:
    """How many table rows of a redline show a tracked change."""
    return len(rows_text(data)) - len(unmarked_rows(data))


def row_mark(data: bytes, text: str) -> set[str]:
    """The row-level marks (ins / del) of the rows of the redline whose text holds `text`."""
    out = set()
    for row in _body(data).iter(_W + "tr"):
        if text in "".join(x.text or "" for x in row.iter(_W + "t", _W + "delText")):
            out |= {m.tag[len(_W):] for m in row.findall(f"{_W}trPr/*") if m.tag in (_W + "ins", _W + "del")}
    return out


# -- grid offsets, merges, split cells ------------------------------------------------------------------

OFFSET_BASE = tbl(tr(tc("Name"), tc("Value"), tc("Note")),
                  tr(tc("Rent"), tc("100"), before=1),
                  tr(tc("Deposit"), tc("300"), after=1))


def test_a_cell_edited_in_rows_with_grid_offsets_is_redlined_word_by_word():
    revised = tbl(tr(tc("Name"), tc("Value"), tc("Note")),
                  tr(tc("Rent"), tc("120"), before=1),
                  tr(tc("Deposit"), tc("300"), after=1))
    result = redline(doc(OFFSET_BASE), doc(revised))
    assert result["fallbacks"] == []
    body = _body(result["buffer"])
    assert [t.text for t in body.iter(_W + "delText")] == ["100"]
    assert [t.text for t in body.iter(_W + "t") if t.getparent().getparent().tag == _W + "ins"] == ["120"]


def test_a_row_moved_to_another_grid_offset_is_replaced_as_a_whole_row():
    revised = tbl(tr(tc("Name"), tc("Value"), tc("Note")),
                  tr(tc("Rent"), tc("100"), after=1),  # gridBefore 1 -> gridAfter 1, same text
                  tr(tc("Deposit"), tc("300"), after=1))
    result = redline(doc(OFFSET_BASE), doc(revised))
    assert row_mark(result["buffer"], "Rent") == {"ins", "del"}
    assert row_mark(result["buffer"], "Deposit") == set()
    assert result["fallbacks"] == []


def test_rows_added_and_removed_around_grid_offsets():
    revised = tbl(tr(tc("Rent"), tc("100"), before=1),
                  tr(tc("Fees"), tc("20"), before=2),
                  tr(tc("Deposit"), tc("300"), after=1),
                  tr(tc("Total"), tc("420"), tc(""), before=0))
    result = redline(doc(OFFSET_BASE), doc(revised))
    assert row_mark(result["buffer"], "Name") == {"del"}
    assert row_mark(result["buffer"], "Fees") == row_mark(result["buffer"], "Total") == {"ins"}


def test_cells_merged_across_a_row_and_split_again():
    base = tbl(tr(tc("Party"), tc("Role"), tc("Signed")), tr(tc("Acme"), tc("Buyer"), tc("Yes")))
    merged = tbl(tr(tc("Party and role", span=2), tc("Signed")), tr(tc("Acme"), tc("Buyer"), tc("Yes")))
    result = redline(doc(base), doc(merged))
    assert row_mark(result["buffer"], "Party") == {"ins", "del"}
    assert row_mark(result["buffer"], "Acme") == set()
    redline(doc(merged), doc(base))


def test_a_cell_split_in_two_and_a_cell_gaining_a_neighbour():
    base = tbl(tr(tc("Acme Ltd, London", span=2), tc("Buyer")), tr(tc("Beta"), tc("Paris"), tc("Seller")))
    revised = tbl(tr(tc("Acme Ltd"), tc("London"), tc("Buyer")), tr(tc("Beta"), tc("Paris"), tc("Seller")))
    result = redline(doc(base), doc(revised))
    assert row_mark(result["buffer"], "Acme") == {"ins", "del"}
    grown = tbl(tr(tc("Acme Ltd, London", span=2), tc("Buyer")), tr(tc("Beta"), tc("Paris"), before=1))
    redline(doc(grown), doc(base))


def test_cells_merged_down_a_column_and_unmerged():
    base = tbl(tr(tc("Term"), tc("12 months"), tc("a")), tr(tc("Renewal"), tc("12 months"), tc("b")))
    merged = tbl(tr(tc("Term"), tc("12 months", vmerge="restart"), tc("a")),
                 tr(tc("Renewal"), tc("", vmerge="continue"), tc("b")))
    result = redline(doc(base), doc(merged))
    assert row_mark(result["buffer"], "Renewal") == {"ins", "del"}
    redline(doc(merged), doc(base))


def test_a_column_added_replaces_the_table_whole_and_the_summary_says_so():
    base = tbl(tr(tc("A"), tc("B")), tr(tc("1"), tc("2")), cols=2)
    revised = tbl(tr(tc("A"), tc("B"), tc("C")), tr(tc("1"), tc("2"), tc("3")), cols=3)
    result = redline(doc(base), doc(revised))
    assert [(f["scope"], f["regions"]) for f in result["fallbacks"]] == [("table", 1)]
    assert "1 table is shown deleted and inserted whole" in redline_notes(result)[0]
    assert row_mark(result["buffer"], "A") == {"ins", "del"}


# -- rows anywhere, nested tables, whole tables -----------------------------------------------------------

@pytest.mark.parametrize(("changed", "dropped", "added"), [
    ((), (0,), ()), ((), (7,), ()), ((), (3, 4, 5), ()),  # first, last, several in the middle
    ((), (), (7,)), ((), (), (0, 2, 5)),  # after the last, several
    ((1, 6), (0, 7), (3,)),  # everything at once
])
def test_rows_added_and_removed_anywhere(changed, dropped, added):
    result = redline(doc(grid_rows(8)), doc(grid_rows(8, changed=changed, dropped=dropped, added=added)))
    assert result["fallbacks"] == []
    for i in dropped:
        assert row_mark(result["buffer"], f"Item {i}") == {"del"}
    for i in added:
        assert row_mark(result["buffer"], f"Extra after {i}") == {"ins"}


@pytest.mark.parametrize(("dropped", "added"), [(34, None), (None, 35), (9, 21)])
def test_rows_in_content_controls_of_a_long_table_come_and_go_as_rows(dropped, added):
    # every fifth row of long_table sits in a repeating-section content control (w:sdt around w:tr)
    base = doc(long_table(rows=60))
    rows = [r for n in range(60) for r in (docbuilder.row(docbuilder.cell(p(f"Item {n}")), docbuilder.cell(p(f"Amount {n}")),
                                                            in_control=n % 5 == 4),
                                           docbuilder.row(docbuilder.cell(p("Added item")), docbuilder.cell(p("Added amount")),
                                                          in_control=True))
            if n != dropped and (n == added or "Added" not in r)]
    result = redline(base, doc(docbuilder.table(*rows)))
    assert result["fallbacks"] == []
    assert marked_rows(result["buffer"]) == (dropped is not None) + (added is not None)
    if dropped is not None:
        assert row_mark(result["buffer"], f"Item {dropped}") == {"del"}
    if added is not None:
        assert row_mark(result["buffer"], "Added item") == {"ins"}


def test_a_row_added_before_the_first_one():
    base = grid_rows(3)
    revised = tbl(tr(tc("Heading"), tc("Part"), tc("Amount")), *[tr(tc(f"Item {i}"), tc(f"Part {i}"),
                                                                      tc(f"{i * 10} EUR")) for i in range(3)])
    result = redline(doc(base), doc(revised))
    assert row_mark(result["buffer"], "Heading") == {"ins"}


def test_a_row_added_above_rows_of_empty_cells_marks_that_row_only():
    # the paragraphs have no w14:paraId: the ids the reader makes up for the empty cells shift with
    # the new row and must not pair an empty cell with the one a row away
    base = tbl(*[tr(tc(f"Clause {i}"), tc(""), tc("")) for i in range(4)])
    revised = tbl(tr(tc("Clause 0"), tc(""), tc("")), tr(tc("New clause"), tc(""), tc("")),
                  *[tr(tc(f"Clause {i}"), tc(""), tc("")) for i in range(1, 4)])
    result = redline(doc(base), doc(revised))
    assert marked_rows(result["buffer"]) == 1
    assert row_mark(result["buffer"], "New clause") == {"ins"}


def test_nested_tables_edited_grown_and_reshaped():
    def outer(inner: str) -> str:
        return tbl(tr(tc("Outer", inner=inner), tc("x"), tc("y")), tr(tc("Kept"), tc("1"), tc("2")))
    base = outer(tbl(tr(tc("in a"), tc("in b")), cols=2))
    edited = outer(tbl(tr(tc("in a"), tc("in b changed")), tr(tc("in c"), tc("in d")), cols=2))
    result = redline(doc(base), doc(edited))
    assert row_mark(result["buffer"], "in c") == {"ins"}
    reshaped = outer(tbl(tr(tc("in a and b", span=2)), cols=2))
    redline(doc(base), doc(reshaped))


def test_a_table_added_removed_and_turned_into_paragraphs_and_back():
    table = grid_rows(3)
    as_paragraphs = "".join(p(f"Item {i}") + p(f"Part {i}") + p(f"{i * 10} EUR") for i in range(3))
    for base, revised in ((p("No table."), table), (table, p("No table.")), (table, as_paragraphs),
                          (as_paragraphs, table)):
        result = redline(doc(base), doc(revised))
        marks = {m for i in range(3) for m in row_mark(result["buffer"], f"Item {i}")}
        assert marks == ({"ins"} if "<w:tbl>" in revised else {"del"})


def test_compare_lists_the_reshaped_row():
    revised = tbl(tr(tc("Name"), tc("Value"), tc("Note")), tr(tc("Rent"), tc("100"), after=1),
                  tr(tc("Deposit"), tc("300"), after=1))
    diff = compare_docx_versions(doc(OFFSET_BASE), doc(revised))
    assert diff["summaryCounts"]["unchanged"] > 0  # the comparison itself reads the table as before


# -- corpus documents -------------------------------------------------------------------------------------

def _edit_xml(data: bytes, edit) -> bytes:
    z = zipfile.ZipFile(io.BytesIO(data))
    root = etree.fromstring(z.read("word/document.xml"))
    edit(root)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as o:
        for info in z.infolist():
            o.writestr(info, etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)
                       if info.filename == "word/document.xml" else z.read(info.filename))
    return out.getvalue()


def _offset_rows(root) -> list:
    return [row for row in root.iter(_W + "tr") if row.find(f"{_W}trPr/{_W}gridBefore") is not None]


@pytest.mark.parametrize("name", ["docling_word_tables_merged_cells.docx",
                                  "wild/Unstructured-IO+unstructured/example-docs/tables-with-incomplete-rows.docx"])
def test_corpus_rows_with_grid_offsets_changed(name):
    data = (CORPUS / name).read_bytes()

    def shift(root):  # the first offset row loses its offset and gains an empty cell in its place
        row = _offset_rows(root)[0]
        trpr = row.find(_W + "trPr")
        n = int(trpr.find(_W + "gridBefore").get(_W + "val"))
        trpr.remove(trpr.find(_W + "gridBefore"))
        for _ in range(n):
            cell = etree.fromstring(f'<w:tc xmlns:w="{W}"><w:p/></w:tc>')
            trpr.addnext(cell)

    def edit(root):  # a word changed in the last offset row
        t = next(x for row in reversed(_offset_rows(root)) for x in row.iter(_W + "t") if (x.text or "").strip())
        t.text += " amended"

    assert _offset_rows(_body(data))
    for change, rows in ((shift, 2), (edit, 1)):  # the shifted row deleted and inserted whole; the edited one
        revised = _edit_xml(data, change)
        for result in (redline(data, revised), redline(revised, data)):
            assert result["fallbacks"] == []
            assert marked_rows(result["buffer"]) == rows


def test_corpus_long_table_split_over_pages_edited_in_many_places():
    data = (CORPUS / "folio" / "performance-long-split-table.docx").read_bytes()

    def edit(root):
        table = next(root.iter(_W + "tbl"))
        rows = table.findall(_W + "tr")
        for n in (5, 60, 110):
            t = next(x for x in rows[n].iter(_W + "t") if (x.text or "").strip())
            t.text += " amended"
        for n in (1, 40, len(rows) - 1):
            table.remove(rows[n])
        extra = etree.fromstring(etree.tostring(rows[80]))
        next(x for x in extra.iter(_W + "t") if (x.text or "").strip()).text = "A row added on a later page"
        rows[80].addnext(extra)

    revised = _edit_xml(data, edit)
    result = redline(data, revised)
    assert result["fallbacks"] == []
    assert marked_rows(result["buffer"]) == 7
    assert row_mark(result["buffer"], "A row added on a later page") == {"ins"}


# -- speed ------------------------------------------------------------------------------------------------

def _timed(n: int) -> float:
    base = doc(grid_rows(n))
    revised = doc(grid_rows(n, changed=(1, n // 2), dropped=(n // 3,), added=(n - 2,)))
    start = time.perf_counter()
    result = generate_redline_docx(base, revised)
    compare_docx_versions(base, revised)
    elapsed = time.perf_counter() - start
    assert result["fallbacks"] == []
    assert tables(resolved(result["buffer"], True)) == tables(revised)
    assert marked_rows(result["buffer"]) == 4  # two edited, one removed, one added: no other row
    return elapsed


def test_a_long_table_compares_in_linear_time():
    small = min(_timed(200) for _ in range(2))
    large = _timed(2000)
    assert large / small < 15, (small, large)


def test_a_table_left_without_rows_is_not_refused():
    # a table's only row removed, leaving <w:tbl> with no row (not valid, but written by some tools):
    # accepting the row's deletion drops the table, which reads the same as the rowless one
    base = doc(tbl(tr(tc("Only row"), tc("of"), tc("the table"))))
    revised = doc(tbl())
    result = generate_redline_docx(base, revised)
    assert row_mark(result["buffer"], "Only row") == {"del"}
    assert story_texts(DocxReviewer.from_bytes(resolved(result["buffer"], True))) == story_texts(
        DocxReviewer.from_bytes(revised))


def test_a_row_split_into_two_rows_goes_whole_table_and_the_summary_says_so():
    # the row's first cell stays in the first row, its last goes to a new second row: no row of the
    # revised table is that row, so the table is replaced whole
    base = tbl(tr(tc("Alpha"), tc("Beta"), tc("Gamma")), tr(tc("Kept"), tc("1"), tc("2")))
    revised = tbl(tr(tc("Alpha"), tc("Delta"), tc("Eta")), tr(tc("Zeta"), tc("Theta"), tc("Gamma")),
                  tr(tc("Kept"), tc("1"), tc("2")))
    result = redline(doc(base), doc(revised))
    assert [(f["scope"], f["regions"]) for f in result["fallbacks"]] == [("table", 1)]
    assert "split or merged" in redline_notes(result)[0]


def _merge_first_cells(root) -> None:
    """The first two cells of a row half way down the document become one cell spanning both."""
    rows = list(root.iter(_W + "tr"))
    for row in rows[len(rows) // 2:]:
        cells = [c for c in row if c.tag == _W + "tc"]
        if len(cells) < 2:
            continue
        first, second = cells[:2]
        span = sum(int(c.find(f"{_W}tcPr/{_W}gridSpan").get(_W + "val")) if c.find(f"{_W}tcPr/{_W}gridSpan")
                   is not None else 1 for c in (first, second))
        pr = first.find(_W + "tcPr")
        if pr is None:
            pr = etree.Element(_W + "tcPr")
            first.insert(0, pr)
        grid_span = pr.find(_W + "gridSpan")
        if grid_span is None:
            grid_span = etree.SubElement(pr, _W + "gridSpan")
        grid_span.set(_W + "val", str(span))
        first.extend(c for c in list(second) if c.tag == _W + "p")
        row.remove(second)
        return


@pytest.mark.parametrize("name", ["docling_word_tables_merged_cells.docx",
                                  "wild/apache+tika/tika-grpc/src/test/resources/test-files/014760.docx"])
def test_corpus_cells_merged_in_tables_with_merges_and_offsets(name):
    data = (CORPUS / name).read_bytes()
    revised = _edit_xml(data, _merge_first_cells)
    for result in (redline(data, revised), redline(revised, data)):
        assert result["fallbacks"] == []
        assert marked_rows(result["buffer"]) == 2  # that row deleted and its merged copy inserted, no other
