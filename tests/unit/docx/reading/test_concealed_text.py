"""Hidden text is surfaced, never smuggled (issue 12, point 7): the census of text a reader may not
see (hidden, coloured like its background, under 2 pt), on documents built here and on the corpus,
and the refusal of edits that would leave hidden text live and unreviewed."""

from __future__ import annotations

import io
import sys
import time
import zipfile
from pathlib import Path

import pytest
from conftest import CORPUS, ROOT
from docbuilder import build_docx

from folio_desktop.docx import DocxReviewer
from folio_desktop.docx.editing.skips import SKIP_REASONS, prose_for
from folio_desktop.docx.model.textkit import text_hash
from folio_desktop.docx.reading.concealed import ConcealedText, concealed_text

ILPA = CORPUS / "contract_ilpa_model_lpa_whole_of_fund_75p.docx"
NVCA = CORPUS / "contract_nvca_stock_purchase_agreement_27p.docx"
W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


# -- building documents -------------------------------------------------------------------------------


def r(text: str, rpr: str = "") -> str:
    props = f"<w:rPr>{rpr}</w:rPr>" if rpr else ""
    return f'<w:r>{props}<w:t xml:space="preserve">{text}</w:t></w:r>'


def para(pid: str, *runs: str, ppr: str = "") -> str:
    props = f"<w:pPr>{ppr}</w:pPr>" if ppr else ""
    return f'<w:p w14:paraId="{pid}" w14:textId="{pid}">{props}{"".join(runs)}</w:p>'


def cell(content: str, tcpr: str = "") -> str:
    return f"<w:tc><w:tcPr><w:tcW w:w=\"4000\" w:type=\"dxa\"/>{tcpr}</w:tcPr>{content}</w:tc>"


def table(*rows: str, tblpr: str = "") -> str:
    body = "".join(f"<w:tr>{row}</w:tr>" for row in rows)
    return f'<w:tbl><w:tblPr>{tblpr}<w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid><w:gridCol w:w="4000"/>' \
           f"</w:tblGrid>{body}</w:tbl>"


STYLES = (
    '<w:docDefaults><w:rPrDefault><w:rPr><w:sz w:val="22"/></w:rPr></w:rPrDefault></w:docDefaults>'
    '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>'
    '<w:style w:type="character" w:styleId="Secret"><w:name w:val="Secret"/><w:rPr><w:vanish/></w:rPr></w:style>'
    '<w:style w:type="character" w:styleId="Speck"><w:name w:val="Speck"/><w:rPr><w:sz w:val="2"/></w:rPr></w:style>'
    '<w:style w:type="paragraph" w:styleId="HiddenPara"><w:name w:val="Hidden Para"/><w:basedOn w:val="Normal"/>'
    "<w:rPr><w:vanish/></w:rPr></w:style>"
    '<w:style w:type="paragraph" w:styleId="Ghost"><w:name w:val="Ghost"/><w:rPr><w:color w:val="FFFFFF"/></w:rPr>'
    "</w:style>"
    '<w:style w:type="table" w:styleId="Banner"><w:name w:val="Banner"/><w:tblPr/>'
    '<w:tblStylePr w:type="firstRow"><w:rPr><w:color w:val="FFFFFF"/></w:rPr>'
    '<w:tcPr><w:shd w:val="clear" w:color="auto" w:fill="1F3864"/></w:tcPr></w:tblStylePr></w:style>'
)


def package(body: str, *, settings: str | None = None, background: str | None = None, header: str | None = None,
            styles: str = STYLES, **parts: str) -> bytes:
    """build_docx plus what it lacks: settings, a page background and a header."""
    data = build_docx(body, styles=styles, **parts)
    if settings is None and background is None and header is None:
        return data
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    extra_rels, extra_types = [], []
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        if settings is not None:
            z.writestr("word/settings.xml", f'<w:settings xmlns:w="{W_NS}">{settings}</w:settings>')
            extra_rels.append('<Relationship Id="rIdS" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
                              'relationships/settings" Target="settings.xml"/>')
            extra_types.append('<Override PartName="/word/settings.xml" ContentType="application/vnd.openxmlformats-'
                               'officedocument.wordprocessingml.settings+xml"/>')
        if header is not None:
            z.writestr("word/header1.xml", f'<w:hdr xmlns:w="{W_NS}" xmlns:w14="http://schemas.microsoft.com/office/'
                                           f'word/2010/wordml">{header}</w:hdr>')
            extra_rels.append('<Relationship Id="rIdH" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
                              'relationships/header" Target="header1.xml"/>')
            extra_types.append('<Override PartName="/word/header1.xml" ContentType="application/vnd.openxmlformats-'
                               'officedocument.wordprocessingml.header+xml"/>')
        for item in src.infolist():
            content = src.read(item.filename).decode("utf-8")
            if item.filename == "word/document.xml" and background is not None:
                content = content.replace("<w:body>", f'<w:background w:color="{background}"/><w:body>', 1)
            elif item.filename == "word/_rels/document.xml.rels":
                content = content.replace("</Relationships>", "".join(extra_rels) + "</Relationships>")
            elif item.filename == "[Content_Types].xml":
                content = content.replace("</Types>", "".join(extra_types) + "</Types>")
            z.writestr(item.filename, content)
    return out.getvalue()


def census(body: str, **kwargs):
    rev = DocxReviewer.from_bytes(package(body, **kwargs))
    return rev, rev.concealed_text()


def counts(report, block_id: str) -> dict:
    entry = report.blocks.get(block_id)
    return entry.to_json() if entry is not None else {}


# -- hidden -------------------------------------------------------------------------------------------


def test_hidden_text_direct_through_styles_and_spec_vanish():
    rev, report = census(
        para("00000001", r("Visible "), r("direct secret", "<w:vanish/>"))
        + para("00000002", r("Visible "), r("styled secret", '<w:rStyle w:val="Secret"/>'))
        + para("00000003", r("whole paragraph hidden by its style"), ppr='<w:pStyle w:val="HiddenPara"/>')
        + para("00000004", r("Visible "), r("special", "<w:specVanish/>"))
        + para("00000005", r("Shown again"), r(" off", "<w:vanish w:val=\"0\"/>"))
        + para("00000006", r("Plain text"))
    )
    assert counts(report, "00000001") == {"hidden": len("directsecret")}  # whitespace is not counted
    assert counts(report, "00000002") == {"hidden": len("styledsecret")}
    assert counts(report, "00000003") == {"hidden": len("wholeparagraphhiddenbyitsstyle")}
    assert counts(report, "00000004") == {"hidden": len("special")}
    assert "00000005" not in report.blocks and "00000006" not in report.blocks
    assert report.blocks["00000001"].samples == ["direct secret"]
    # direct and character-style vanish never reach the model's text
    text = rev.get_content_as_text()
    assert "direct secret" not in text and "styled secret" not in text


def test_deleted_hidden_text_is_not_counted_but_inserted_is():
    deleted = ('<w:del w:id="1" w:author="A" w:date="2024-01-01T00:00:00Z"><w:r><w:rPr><w:vanish/></w:rPr>'
               '<w:delText>gone soon</w:delText></w:r></w:del>')
    inserted = ('<w:ins w:id="2" w:author="A" w:date="2024-01-01T00:00:00Z"><w:r><w:rPr><w:vanish/></w:rPr>'
                "<w:t>arriving</w:t></w:r></w:ins>")
    _rev, report = census(para("00000001", r("Kept words "), deleted) + para("00000002", r("Kept "), inserted))
    assert "00000001" not in report.blocks
    assert counts(report, "00000002") == {"hidden": len("arriving")}


# -- invisible ----------------------------------------------------------------------------------------


def test_white_on_an_unshaded_page_is_invisible_and_auto_never_is():
    _rev, report = census(
        para("00000001", r("Normal words "), r("white words", '<w:color w:val="FFFFFF"/>'))
        + para("00000002", r("nearly white", '<w:color w:val="FEFEFE"/>'))
        + para("00000003", r("light grey but readable", '<w:color w:val="BFBFBF"/>'))
        + para("00000004", r("auto on black", '<w:color w:val="auto"/><w:shd w:val="clear" w:fill="000000"/>'))
        + para("00000005", r("styled white"), ppr='<w:pStyle w:val="Ghost"/>')
        + para("00000006", r("themed white", '<w:color w:themeColor="background1"/>'))
    )
    assert counts(report, "00000001") == {"invisible": len("whitewords")}
    assert counts(report, "00000002") == {"invisible": len("nearlywhite")}
    assert counts(report, "00000005") == {"invisible": len("styledwhite")}
    for readable in ("00000003", "00000004"):
        assert readable not in report.blocks
    # no theme part here: a theme colour that cannot be resolved is not guessed at
    assert "00000006" not in report.blocks


def test_shading_behind_text_decides_what_is_invisible():
    white = '<w:color w:val="FFFFFF"/>'
    black = '<w:color w:val="000000"/>'
    dark_fill = '<w:shd w:val="clear" w:color="auto" w:fill="1F3864"/>'
    black_fill = '<w:shd w:val="clear" w:color="auto" w:fill="000000"/>'
    _rev, report = census(
        para("00000001", r("white on a dark run", white + dark_fill))
        + para("00000002", r("white on a dark paragraph", white), ppr=dark_fill)
        + table(cell(para("00000003", r("white in a dark cell", white)), tcpr=dark_fill))
        + table(cell(para("00000004", r("white in a styled header row", white))),
                tblpr='<w:tblStyle w:val="Banner"/>')
        + para("00000005", r("black on a black run", black + black_fill))
        + para("00000006", r("black on a black paragraph", black), ppr=black_fill)
        + table(cell(para("00000007", r("black in a black cell", black)), tcpr=black_fill))
        + para("00000008", r("red on red highlight", '<w:color w:val="FF0000"/><w:highlight w:val="red"/>'))
        + para("00000009", r("white on yellow highlight", white + '<w:highlight w:val="yellow"/>'))
        + table(cell(para("0000000A", r("white in a cell shaded by the table", white))),
                tblpr=f"{dark_fill}")
    )
    for readable in ("00000001", "00000002", "00000003", "00000004", "00000009", "0000000A"):
        assert readable not in report.blocks, readable
    assert counts(report, "00000005") == {"invisible": len("blackonablackrun")}
    assert counts(report, "00000006") == {"invisible": len("blackonablackparagraph")}
    assert counts(report, "00000007") == {"invisible": len("blackinablackcell")}
    assert counts(report, "00000008") == {"invisible": len("redonredhighlight")}


def text_box(pid: str, text: str, fill: str) -> str:
    """A paragraph anchoring a DrawingML text box whose shape has `fill` (inner XML of wps:spPr)."""
    inner = para(pid, r(text, '<w:color w:val="FFFFFF"/>'))
    box = (f"<wps:wsp><wps:spPr>{fill}</wps:spPr><wps:txbx><w:txbxContent>{inner}</w:txbxContent></wps:txbx>"
           "<wps:bodyPr/></wps:wsp>")
    graphic = ('<a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape">'
               f"{box}</a:graphicData></a:graphic>")
    drawing = f'<w:drawing><wp:inline><wp:extent cx="1000000" cy="500000"/><wp:docPr id="1" name="Box"/>{graphic}' \
              "</wp:inline></w:drawing>"
    return para(f"{pid[:-1]}0", r("Anchor "), f"<w:r>{drawing}</w:r>")


def test_white_in_a_text_box_depends_on_the_box_fill():
    _rev, report = census(
        text_box("000000A1", "white on a navy box", '<a:solidFill><a:srgbClr val="1F3864"/></a:solidFill>')
        + text_box("000000B1", "white in a see-through box", "<a:noFill/>")
        + text_box("000000C1", "white on a theme fill", '<a:solidFill><a:schemeClr val="accent1"/></a:solidFill>')
    )
    assert {b.id for b in _rev.snapshot().blocks} >= {"000000A1", "000000B1", "000000C1"}
    assert list(report.blocks) == ["000000B1"]
    assert counts(report, "000000B1") == {"invisible": len("whiteinasee-throughbox")}


def test_page_background_counts_only_when_the_settings_display_it():
    body = para("00000001", r("white text", '<w:color w:val="FFFFFF"/>')) \
        + para("00000002", r("black text", '<w:color w:val="000000"/>'))
    shown = '<w:displayBackgroundShape/>'
    _rev, on_black = census(body, background="000000", settings=shown)
    assert "00000001" not in on_black.blocks
    assert counts(on_black, "00000002") == {"invisible": len("blacktext")}
    _rev, not_shown = census(body, background="000000", settings="")
    assert counts(not_shown, "00000001") == {"invisible": len("whitetext")}
    assert "00000002" not in not_shown.blocks


# -- tiny ---------------------------------------------------------------------------------------------


def test_text_under_two_points_is_tiny():
    _rev, report = census(
        para("00000001", r("Normal "), r("one point", '<w:sz w:val="2"/>'))
        + para("00000002", r("two points exactly", '<w:sz w:val="4"/>'))
        + para("00000003", r("speck style", '<w:rStyle w:val="Speck"/>'))
        + para("00000004", r("style speck undone", '<w:rStyle w:val="Speck"/><w:sz w:val="20"/>'))
    )
    assert counts(report, "00000001") == {"tiny": len("onepoint")}
    assert "00000002" not in report.blocks
    assert counts(report, "00000003") == {"tiny": len("speckstyle")}
    assert "00000004" not in report.blocks


def test_tiny_through_document_defaults():
    styles = STYLES.replace('<w:sz w:val="22"/>', '<w:sz w:val="3"/>')
    _rev, report = census(para("00000001", r("all tiny")) + para("00000002", r("not tiny", '<w:sz w:val="24"/>')),
                          styles=styles)
    assert counts(report, "00000001") == {"tiny": len("alltiny")}
    assert "00000002" not in report.blocks


def test_each_character_is_counted_once_hidden_first():
    _rev, report = census(para("00000001", r("all at once", '<w:vanish/><w:color w:val="FFFFFF"/><w:sz w:val="2"/>'),
                                r(" white tiny", '<w:color w:val="FFFFFF"/><w:sz w:val="2"/>'),
                                r(" tiny", '<w:sz w:val="2"/>')))
    assert counts(report, "00000001") == {"hidden": 9, "invisible": 9, "tiny": 4}
    assert report.blocks["00000001"].samples == ["all at once", "white tiny", "tiny"]


# -- the report ---------------------------------------------------------------------------------------


NUMBERING = (
    '<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="4"/><w:numFmt w:val="decimal"/>'
    '<w:lvlText w:val="%1."/></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>'
)


def test_report_shape_samples_and_the_lawyers_sentence():
    long_secret = "hidden words " * 100  # 1,100 visible characters, 1,300 with spaces
    _rev, report = census(
        para("00000001", r("Clause text "), r(long_secret, "<w:vanish/>"),
             ppr='<w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr>')
        + para("00000002", r("More "), r("a", "<w:vanish/>"), r(" visible "), r("b", "<w:vanish/>"),
               r(" and "), r("c", "<w:vanish/>"), r(" and "), r("d", "<w:vanish/>"))
        + para("00000003", r("white words", '<w:color w:val="FFFFFF"/>')),
        numbering=NUMBERING,
        header=para("0000000H", r("header secret", "<w:vanish/>")),
    )
    first = report.blocks["00000001"]
    assert first.to_json() == {"hidden": 1100} and first.label == "4."
    assert all(len(s) <= 60 for s in first.samples) and first.samples[0].endswith("…")
    assert report.blocks["00000002"].samples == ["a", "b", "c"]  # at most three
    assert list(report.blocks) == ["00000001", "00000002", "00000003"] and report.first_block_id == "00000001"
    [(handle, totals)] = report.stories
    assert handle == {"type": "header", "relationshipId": "rIdH"} and totals.to_json() == {"hidden": 12}
    total = report.total()
    assert isinstance(total, ConcealedText) and total.to_json() == {"hidden": 1100 + 4 + 12, "invisible": 10}
    assert not report.is_empty()
    text = report.describe()
    assert text.startswith("This document holds text you may not see: 1,116 characters of hidden text in "
                           "2 paragraphs and 1 header (first at 4 (block 00000001): “hidden words hidden")
    assert "10 characters of text in the colour of its background" in text and "1 paragraph (first at block " \
        "00000003: “white words”)" in text
    assert "Home > Show/Hide" in text


def test_notes_are_stories_of_their_own():
    notes = ('<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
             '<w:footnote w:id="1"><w:p w14:paraId="0000F001"><w:r><w:t>A plain note.</w:t></w:r></w:p></w:footnote>'
             '<w:footnote w:id="2"><w:p w14:paraId="0000F002"><w:r><w:rPr><w:color w:val="FFFFFF"/></w:rPr>'
             "<w:t>white note</w:t></w:r></w:p></w:footnote>")
    body = para("00000001", r("Text"), '<w:r><w:footnoteReference w:id="1"/></w:r>', r(" more"),
                '<w:r><w:footnoteReference w:id="2"/></w:r>')
    _rev, report = census(body, footnotes=notes)
    assert report.blocks == {} and report.first_block_id is None
    assert [(h, e.block_id, e.to_json()) for h, e in report.stories] == \
        [({"type": "footnote", "noteId": 2}, "0000F002", {"invisible": 9})]
    assert "9 characters of text in the colour of its background (such as white on white) in 1 footnote (first " \
           "in footnote 2: “white note”)" in report.describe()


def test_nothing_concealed_is_an_empty_report():
    rev, report = census(para("00000001", r("Plain words, black on white.", '<w:color w:val="000000"/>')))
    assert report.is_empty() and report.blocks == {} and report.stories == [] and report.describe() == ""
    assert report.total().to_json() == {}


def test_reviewer_caches_the_census_per_document_version():
    rev, report = census(para("00000001", r("Visible words "), r("secret", "<w:vanish/>")))
    assert rev.concealed_text() is report
    applied = rev.apply_document_operations({"version": 1, "operations": [
        {"type": "replaceInBlock", "blockId": "00000001", "find": "Visible", "replace": "Seen"}]})
    assert applied["applied"]
    again = rev.concealed_text()
    assert again is not report and again.blocks["00000001"].hidden == len("secret")


# -- the corpus ---------------------------------------------------------------------------------------

TOP_LEVEL = sorted(CORPUS.glob("*.docx"))


@pytest.mark.parametrize("path", TOP_LEVEL, ids=[p.name for p in TOP_LEVEL])
def test_census_runs_on_every_corpus_document(path: Path):
    rev = DocxReviewer.open(path)
    report = rev.concealed_text()
    ids = {b.id for b in rev.snapshot().blocks}
    assert set(report.blocks) <= ids
    for entry in [*report.blocks.values(), *(e for _h, e in report.stories)]:
        assert entry.to_json() and set(entry.to_json()) <= {"hidden", "invisible", "tiny"}
        assert len(entry.samples) <= 3 and all(0 < len(s) <= 60 for s in entry.samples)
    assert bool(report.describe()) is not report.is_empty()


def test_what_the_corpus_conceals():
    """Known findings: Word's own hidden-text sample, hidden markers in a footer, white in a header."""
    adeu = DocxReviewer.open(CORPUS / "adeu_word_rprchange_comments.docx").concealed_text()
    assert adeu.total().to_json() == {"hidden": 6} and adeu.total().samples == ["Hidden"]
    footer = DocxReviewer.open(CORPUS / "docx4j_numbering_indents_pages.docx").concealed_text()
    assert [(h["type"], e.to_json()) for h, e in footer.stories] == [("footer", {"hidden": 3})]
    header = DocxReviewer.open(CORPUS / "powertools_RA001_tracked_revisions_moves.docx").concealed_text()
    assert [(h["type"], e.to_json(), e.samples) for h, e in header.stories] == \
        [("header", {"invisible": 5}, ["Head1"])]
    for clean in (ILPA, NVCA):
        assert DocxReviewer.open(clean).concealed_text().is_empty()


def _census_ms(rev, repeats: int = 5) -> float:
    """The least processor time of `repeats` censuses (the machine running the tests may be shared)."""
    doc, snap = rev.document, rev.snapshot()
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        concealed_text(doc, snap)
        best = min(best, time.process_time() - start)
    return best * 1000


def test_census_is_fast_and_linear():
    ilpa = DocxReviewer.open(ILPA)
    ilpa.snapshot()
    start = time.perf_counter()
    ilpa.concealed_text()
    assert (time.perf_counter() - start) * 1000 < 100  # cold, on a 75-page agreement
    start = time.perf_counter()
    ilpa.concealed_text()
    assert (time.perf_counter() - start) * 1000 < 1  # warm: cached

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from longdoc import build_long

    one = DocxReviewer.open(NVCA)
    ten = DocxReviewer.from_bytes(build_long(NVCA, 10))
    assert _census_ms(ten) < 12 * _census_ms(one) + 20


# -- edits never smuggle hidden text ------------------------------------------------------------------


def _rng(rev, block_id, start, end):
    text = rev.snapshot().block(block_id).text
    return {"type": "textRange", "story": "main", "blockId": block_id, "startOffset": start, "endOffset": end,
            "selectedTextHash": text_hash(text[start:end])}


def _hidden_doc():
    # accepted view of 00000001: "Pay the fee within ten days." with "[secret instruction]" (19 characters besides its space) hidden after "fee "
    return DocxReviewer.from_bytes(package(
        para("00000001", r("Pay the fee "), r("[secret instruction]", "<w:vanish/>"), r("within ten days."))
        + para("00000002", r("Nothing hidden here."))
    ))


def _refused(rev, op) -> dict:
    before = rev.get_content_as_text(annotated=True)
    result = rev.apply_document_operations({"version": 1, "operations": [op]})
    assert result["applied"] == [] and result["skipped"][0]["reason"] == "hiddenText", result
    assert rev.get_content_as_text(annotated=True) == before
    issue = result["issues"][0]
    assert issue["code"] == "hiddenText" and issue["recovery"] == "changeTarget" and issue["retryable"] is False
    return result["skipped"][0]


@pytest.mark.parametrize("op", [
    {"type": "replaceBlock", "blockId": "00000001", "text": "Pay nothing."},
    {"type": "deleteBlock", "blockId": "00000001"},
])
def test_whole_paragraph_edits_over_hidden_text_are_refused(op):
    rev = _hidden_doc()
    skip = _refused(rev, op)
    assert "holds 19 characters of hidden text the model cannot see" in skip["message"]
    assert "replaceInBlock or replaceRange" in skip["message"] and "Show/Hide" in skip["message"]
    sentence = prose_for("hiddenText", skip["message"])
    assert sentence.startswith("The edit would pass over hidden text: this paragraph holds 19 characters")
    assert ("replacing" if op["type"] == "replaceBlock" else "deleting") in sentence
    assert SKIP_REASONS["hiddenText"][:2] == ("changeTarget", False)


def test_replacing_a_span_with_hidden_text_inside_is_refused():
    rev = _hidden_doc()
    assert rev.snapshot().block("00000001").text == "Pay the fee within ten days."
    skip = _refused(rev, {"type": "replaceRange", "range": _rng(rev, "00000001", 4, 18), "replace": "a charge in"})
    assert "the replaced text has 19 characters of hidden text inside it" in skip["message"]
    _refused(rev, {"type": "replaceInBlock", "blockId": "00000001", "find": "fee within", "replace": "sum within"})


def test_edits_beside_hidden_text_still_apply():
    rev = _hidden_doc()
    # "the fee " ends where the hidden text starts; "within" starts where it ends
    for op in ({"type": "replaceInBlock", "blockId": "00000001", "find": "the fee ", "replace": "a charge "},
               {"type": "replaceInBlock", "blockId": "00000001", "find": "within", "replace": "inside"}):
        result = rev.apply_document_operations({"version": 1, "operations": [op]})
        assert len(result["applied"]) == 1, result
    assert rev.snapshot().block("00000001").text == "Pay a charge inside ten days."
    result = rev.apply_document_operations({"version": 1, "operations": [
        {"type": "replaceBlock", "blockId": "00000002", "text": "Still nothing hidden."}]})
    assert len(result["applied"]) == 1
    # the hidden text is still there, untouched, and the census still reports it
    assert rev.concealed_text().blocks["00000001"].hidden == 19


def test_hidden_text_already_deleted_does_not_block_a_rewrite():
    deleted = ('<w:del w:id="1" w:author="A" w:date="2024-01-01T00:00:00Z"><w:r><w:rPr><w:vanish/></w:rPr>'
               "<w:delText>old secret</w:delText></w:r></w:del>")
    rev = DocxReviewer.from_bytes(package(para("00000001", r("Some words "), deleted, r("and more."))))
    result = rev.apply_document_operations({"version": 1, "operations": [
        {"type": "replaceBlock", "blockId": "00000001", "text": "Other words entirely."}]})
    assert len(result["applied"]) == 1, result



WILD_TEXTBOX = next((CORPUS / "wild").rglob("testWORD_emptyParaInTextbox.docx"), None)


@pytest.mark.parametrize("where", ["insertAfterBlock", "insertBeforeBlock"])
def test_a_paragraph_inserted_beside_text_shown_against_its_style_is_shown(where):
    # the style hides its runs; the anchor's own runs say vanish="0". The new paragraph copies the
    # style, so its text would be hidden too unless it says so (wild/ testWORD_emptyParaInTextbox)
    shown = para("00000001", r("Shown heading", '<w:vanish w:val="0"/>'), ppr='<w:pStyle w:val="HiddenPara"/>')
    rev = DocxReviewer.from_bytes(package(shown + para("00000002", r("Body text."))))
    result = rev.apply_document_operations({"version": 1, "operations": [
        {"type": where, "blockId": "00000001", "text": "New clause for review."}]})
    assert len(result["applied"]) == 1, result
    texts = [b.text for b in rev.snapshot().content_blocks]
    assert texts.count("New clause for review.") == 1, texts
    rev.accept_all()
    assert "New clause for review." in [b.text for b in rev.snapshot().content_blocks]


def test_a_paragraph_inserted_after_a_plain_one_gets_no_vanish():
    rev = DocxReviewer.from_bytes(package(para("00000001", r("Plain."))))
    rev.apply_document_operations({"version": 1, "operations": [
        {"type": "insertAfterBlock", "blockId": "00000001", "text": "Next."}]})
    new = next(p for p in rev.document.body.iter(f"{{{W_NS}}}p") if "".join(p.itertext()) == "Next.")
    assert new.find(f".//{{{W_NS}}}vanish") is None


@pytest.mark.skipif(WILD_TEXTBOX is None, reason="wild/ corpus absent")
def test_the_sweep_insert_shows_on_the_heading_whose_style_hides_it():
    rev = DocxReviewer.open(WILD_TEXTBOX)
    first = rev.snapshot().content_blocks[0]
    result = rev.apply_document_operations({"version": 1, "operations": [
        {"type": "insertAfterBlock", "blockId": first.id, "text": "Sweep clause inserted for review."}]})
    assert len(result["applied"]) == 1
    texts = [b.text for b in rev.snapshot().content_blocks]
    assert texts[1] == "Sweep clause inserted for review."

# -- the command line ---------------------------------------------------------------------------------


def test_summary_and_headless_review_print_the_notice(tmp_path, capsys, monkeypatch):
    from folio_desktop import cli
    from folio_desktop.assistant import headless

    path = tmp_path / "hidden.docx"
    path.write_bytes(package(para("00000001", r("Visible "), r("secret", "<w:vanish/>"))))
    assert cli.main([str(path), "--summary"]) == 0
    out = capsys.readouterr().out
    assert "  This document holds text you may not see: 6 characters of hidden text in 1 paragraph" in out

    ran = []
    monkeypatch.setattr(headless, "run_review", lambda *args, **kwargs: ran.append(args) or 0)
    assert cli.main(["review", str(path), "--prompt", "Review it", "-o", str(tmp_path / "out.docx")]) == 0
    assert ran and capsys.readouterr().out.startswith("[notice] This document holds text you may not see: 6 ")
    assert cli.main([str(CORPUS / "contract_commonpaper_pilot_agreement.docx"), "--summary"]) == 0
    assert "you may not see" not in capsys.readouterr().out


def test_only_the_reviewers_engine_guards_hidden_text():
    """The redline writer drives its own engine: it writes a comparison, not an author's edit."""
    from folio_desktop.docx.editing.operations import OperationEngine

    rev = _hidden_doc()
    assert rev.engine.guard_hidden_text
    result = OperationEngine(rev.document, "folio compare").apply({"version": 1, "operations": [
        {"type": "replaceBlock", "blockId": "00000001", "text": "Pay the fee within five days."}]})
    assert len(result["applied"]) == 1, result
