"""The version diff text the model reads: in parts of at most 100,000 characters that continue where
they stopped, without the differences that are only whitespace or only a field's cached result unless
asked for. On the two ILPA model agreements (deal-by-deal and whole-of-fund) and small built documents."""

from __future__ import annotations

import io
import re

import pytest
from conftest import CORPUS
from docbuilder import build_docx

from folio_desktop.agents.versions.cli import run as compare_cli
from folio_desktop.agents.versions.compare import (
    MAX_TEXT,
    compare_docx_versions,
    format_version_diff_for_llm,
    open_view,
    page_version_diff,
    story_blocks,
)

ILPA_V1 = CORPUS / "wild" / "UseJunior+safe-docx" / "tests" / "test_documents" / "redline" / \
    "ILPA-Model-Limited-Parnership-Agreement-Deal-By-Deal_v1.docx"
ILPA_V2 = CORPUS / "contract_ilpa_model_lpa_whole_of_fund_75p.docx"
BLANK = CORPUS / "folio" / "upstream-empty.docx"
LINE_ID = re.compile(r"^[-+~<>] \[([^\]]+)\]", re.M)
NEXT = re.compile(r"ask with start=(\d+) for the next part")


@pytest.fixture(scope="module")
def ilpa_diff() -> dict:
    return compare_docx_versions(ILPA_V1.read_bytes(), ILPA_V2.read_bytes())


def all_parts(diff: dict, **kwargs) -> list[str]:
    """Every part of the text, each asked for with the start the one before it named."""
    parts, start = [], 0
    while True:
        page = page_version_diff(diff, start, **kwargs)
        parts.append(page.text)
        said = NEXT.search(page.text)
        assert (said is None) == (page.next_start is None)
        if page.next_start is None:
            return parts
        assert int(said.group(1)) == page.next_start > start
        start = page.next_start


def toc_entries(data: bytes) -> set[str]:
    blocks = story_blocks(open_view(data))["main"][1]
    return {b.id for b in blocks if b.style_id and b.style_id.upper().startswith("TOC")}


# -- the two ILPA versions --------------------------------------------------------------------------

def test_ilpa_toc_page_numbers_are_left_out_and_counted(ilpa_diff):
    toc = toc_entries(ILPA_V2.read_bytes())
    toc_changes = [c for c in ilpa_diff["changes"] if c["blockId"] in toc]
    assert len(toc_changes) == 16  # the deal-by-deal version's contents run a page later
    assert {(c["type"], c.get("minor")) for c in toc_changes} == {("modified", "field")}
    minor = [c for c in ilpa_diff["changes"] if c.get("minor")]
    kinds = [c["minor"] for c in minor]
    text = format_version_diff_for_llm(ilpa_diff)
    assert f"Left out: {len(minor)} minor differences ({kinds.count('whitespace')} only in tabs, spaces or blank " \
           f"paragraphs, {kinds.count('field')} only in field results" in text
    assert "ask with include_minor=True to list them." in text
    shown = set(LINE_ID.findall(text))
    assert not shown & {c["blockId"] for c in minor}
    assert shown == {c["blockId"] for c in ilpa_diff["changes"] if not c.get("minor")}
    # a real edit right beside them stays: the agreement's title names the other waterfall
    assert "~ [4730091F] modified: The ILPA Model Limited Partnership Agreement [-(Deal-by-Deal-]{+(Whole-of-Fund+}" \
        in text
    everything = format_version_diff_for_llm(ilpa_diff, include_minor=True)
    assert "Left out" not in everything
    assert "~ [30C5DCBF] modified: 2.\tGeneral Provisions\t[-16-]{+15+}" in everything
    assert set(LINE_ID.findall(everything)) == {c["blockId"] for c in ilpa_diff["changes"]}


def test_ilpa_parts_are_bounded_and_continuation_reaches_every_change(ilpa_diff):
    for include_minor in (False, True):
        parts = all_parts(ilpa_diff, include_minor=include_minor, limit=4_000)
        assert len(parts) > 3 and all(len(part) <= 4_000 for part in parts)
        seen = [bid for part in parts for bid in LINE_ID.findall(part)]
        wanted = [c["blockId"] for c in ilpa_diff["changes"] if include_minor or not c.get("minor")]
        assert seen == wanted  # each once, in order
        assert all(part.startswith("Version diff: 0 added, 23 deleted, 57 modified,") for part in parts)
        assert parts[-1].endswith("the last part.")


def test_a_whole_agreement_deleted_is_cut_at_100000_characters_and_continues():
    diff = compare_docx_versions(ILPA_V2.read_bytes(), BLANK.read_bytes())
    deleted = [c for c in diff["changes"] if c["type"] == "deleted" and not c.get("minor")]
    assert sum(len(c["text"]) for c in deleted) > 2 * MAX_TEXT
    first = format_version_diff_for_llm(diff)
    assert MAX_TEXT - 2_000 < len(first) <= MAX_TEXT
    assert re.search(r"Shown: changes 1-\d+ of \d+; \d+ more, ask with start=\d+ for the next part\.$", first)
    parts = all_parts(diff)
    assert parts[0] == first and len(parts) >= 3 and all(len(part) <= MAX_TEXT for part in parts)
    assert [bid for part in parts for bid in LINE_ID.findall(part)] == \
        [c["blockId"] for c in diff["changes"] if not c.get("minor")]
    assert page_version_diff(diff, 10_000).text.endswith(f"No changes from 10001 on ({len(deleted)} in all).")
    assert len(format_version_diff_for_llm(diff, limit=10 * MAX_TEXT)) <= MAX_TEXT


def test_one_change_longer_than_a_part_is_cut_and_the_next_part_moves_on():
    long = "word " * 30_000
    diff = compare_docx_versions(build_docx('<w:p><w:r><w:t>Kept.</w:t></w:r></w:p>'),
                                 build_docx(f'<w:p><w:r><w:t>Kept.</w:t></w:r></w:p><w:p><w:r><w:t>{long}</w:t>'
                                            '</w:r></w:p><w:p><w:r><w:t>After the long one.</w:t></w:r></w:p>'))
    first = page_version_diff(diff)
    assert len(first.text) <= MAX_TEXT and re.search(r"word… \(line cut: 150,0\d\d characters in all\)", first.text)
    assert first.next_start == 1
    assert "added: After the long one." in page_version_diff(diff, first.next_start).text


# -- small built documents ------------------------------------------------------------------------------

def para(*runs: str, pid: str = "") -> str:
    attrs = f' w14:paraId="{pid}" w14:textId="{pid}"' if pid else ""
    return f"<w:p{attrs}>" + "".join(f"<w:r>{r}</w:r>" for r in runs) + "</w:p>"


def t(text: str) -> str:
    return f'<w:t xml:space="preserve">{text}</w:t>'


def complex_field(code: str, result: str) -> list[str]:
    return ['<w:fldChar w:fldCharType="begin"/>', f'<w:instrText xml:space="preserve"> {code} </w:instrText>',
            '<w:fldChar w:fldCharType="separate"/>', t(result), '<w:fldChar w:fldCharType="end"/>']


def diff_of(base_body: str, revised_body: str) -> dict:
    return compare_docx_versions(build_docx(base_body), build_docx(revised_body))


def test_a_tab_for_a_space_and_a_blank_paragraph_are_whitespace_only():
    diff = diff_of(para(t("1.1 Definitions."), pid="10000001") + para(t("Payment is due in thirty days."), pid="10000002"),
                   para(t("1.1"), "<w:tab/>", t("Definitions."), pid="10000001") + para(pid="10000003")
                   + para(t("Payment is due in  thirty days."), pid="10000002"))
    assert [(c["type"], c.get("minor")) for c in diff["changes"]] == \
        [("modified", "whitespace"), ("added", "whitespace"), ("modified", "whitespace")]
    text = format_version_diff_for_llm(diff)
    assert text.splitlines()[1:] == [
        "Left out: 3 minor differences (3 only in tabs, spaces or blank paragraphs, 0 only in field results such as "
        "table-of-contents page numbers and cross-reference numbers); ask with include_minor=True to list them."]
    assert len(format_version_diff_for_llm(diff, include_minor=True).splitlines()) == 4
    # words run together, or a paragraph that holds a picture, are more than white space
    drawing = '<w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing">' \
              '<wp:extent cx="10" cy="10"/></wp:inline></w:drawing>'
    diff = diff_of(para(t("Net amount due."), pid="10000001"),
                   para(t("Netamount due."), pid="10000001") + para(drawing, pid="10000002"))
    assert [(c["type"], c.get("minor")) for c in diff["changes"]] == [("modified", None), ("added", None)]
    assert "Left out" not in format_version_diff_for_llm(diff, include_minor=False)


def test_only_a_fields_cached_result_is_a_minor_difference():
    before = para(t("As set out in Section "), *complex_field("REF _Ref1 \\r \\h", "4.2"), t(", see page "),
                  *complex_field("PAGEREF _Ref1 \\h", "7"), t("."))
    after = para(t("As set out in Section "), *complex_field("REF _Ref1 \\r \\h", "4.3"), t(", see page "),
                 *complex_field("PAGEREF _Ref1 \\h", "8"), t("."))
    simple = '<w:p><w:r>{}</w:r><w:fldSimple w:instr=" PAGE "><w:r>{}</w:r></w:fldSimple></w:p>'
    edited = para(t("As set out in Clause "), *complex_field("REF _Ref1 \\r \\h", "4.3"), t(", see page "),
                  *complex_field("PAGEREF _Ref1 \\h", "8"), t("."))
    diff = diff_of(before + simple.format(t("Page "), t("1")) + para(t("Fee: 4.2 per cent.")) + before,
                   after + simple.format(t("Page "), t("2")) + para(t("Fee: 4.3 per cent.")) + edited)
    assert [(c["type"], c.get("minor")) for c in diff["changes"]] == \
        [("modified", "field"), ("modified", "field"), ("modified", None), ("modified", None)]
    text = format_version_diff_for_llm(diff)
    assert "(0 only in tabs, spaces or blank paragraphs, 2 only in field results" in text
    assert "{+4.3+}" in text and "[-Section-]{+Clause+}" in text
    assert len(LINE_ID.findall(text)) == 2


# -- the command line --------------------------------------------------------------------------------------

def test_the_compare_summary_says_how_to_ask_for_minor_differences_and_the_next_part(tmp_path):
    out = io.StringIO()
    assert compare_cli([str(ILPA_V1), str(ILPA_V2), "-o", str(tmp_path / "r.docx"), "--summary"], out, io.StringIO()) == 0
    printed = out.getvalue()
    assert "Left out: 31 minor differences" in printed and "ask with --include-minor to list them." in printed
    assert "[30C5DCBF]" not in printed
    out = io.StringIO()
    assert compare_cli([str(ILPA_V1), str(ILPA_V2), "-o", str(tmp_path / "r.docx"), "--summary", "--include-minor",
                        "--summary-from", "80"], out, io.StringIO()) == 0
    printed = out.getvalue()
    assert "Left out" not in printed and printed.rstrip().endswith("Shown: changes 81-86 of 86, the last part.")
    assert len(LINE_ID.findall(printed)) == 6
