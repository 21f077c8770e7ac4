"""Redline generation (spec §9.3): accepting all changes of the output gives the revised document,
rejecting all gives the base, story by story and block by block; plus options, moves, formatting,
tables, notes, imported styles and lists, and the issue's acceptance run over the tracked corpus."""

from __future__ import annotations

import io
import re
import zipfile

import pytest
from conftest import ALL_GOOD, CORPUS
from docbuilder import build_docx, p
from package_surgery import with_core

from folio_desktop.agents.versions.cli import run as compare_cli
from folio_desktop.agents.versions.redline import generate_redline_docx, story_texts
from folio_desktop.agents.versions.redline_errors import (
    GenerateRedlineDocxResourceImportError,
    InvalidGenerateRedlineDocxOptionsError,
)
from folio_desktop.docx import DocxReviewer

REVISION_PATTERN = re.compile(rb"<w:(ins|del|moveFrom|moveTo|cellIns|cellDel|cellMerge|rPrChange|pPrChange"
                              rb"|sectPrChange|tblPrChange|tblGridChange|trPrChange|tblPrExChange|tcPrChange)[ />]")


def _tracked(path) -> bool:
    with zipfile.ZipFile(path) as z:
        return any(REVISION_PATTERN.search(z.read(n)) for n in z.namelist() if n.endswith(".xml"))


TRACKED = [path for path in ALL_GOOD if _tracked(path)]


def resolved(data: bytes, accept: bool) -> DocxReviewer:
    rev = DocxReviewer.from_bytes(data)
    rev.accept_all() if accept else rev.reject_all()
    return rev


def assert_round_trip(result: dict, base: bytes, revised: bytes) -> None:
    out = result["buffer"]
    assert story_texts(resolved(out, True)) == story_texts(resolved(revised, True))
    assert story_texts(resolved(out, False)) == story_texts(resolved(base, True))


def doc(*paragraphs, **parts) -> bytes:
    return build_docx("".join(p(*x) if isinstance(x, tuple) else p(x) for x in paragraphs), **parts)


def runs_of(rev: DocxReviewer, block_index: int) -> list[dict]:
    block = [b for b in rev.snapshot().blocks][block_index]
    return block.preview_runs or [{"text": block.text}]


# -- the acceptance: every tracked corpus file, rejected -> accepted ---------------------------

def test_the_tracked_corpus_is_there():
    assert len(TRACKED) >= 12


@pytest.mark.parametrize("path", TRACKED, ids=lambda path: path.name)
def test_redline_of_rejected_to_accepted_reproduces_both(path):
    data = path.read_bytes()
    base, revised = resolved(data, False).to_bytes(), resolved(data, True).to_bytes()
    result = generate_redline_docx(base, revised)
    assert result["skipped"] == [] and result["unprocessedStories"] == []
    accepted, rejected = resolved(result["buffer"], True), resolved(result["buffer"], False)
    assert story_texts(accepted) == story_texts(DocxReviewer.from_bytes(revised))
    assert story_texts(rejected) == story_texts(DocxReviewer.from_bytes(base))


# -- text, structure and formatting ------------------------------------------------------------------

def test_modify_delete_insert_and_trailing_additions_keep_their_order():
    base = doc(("The Supplier shall deliver the goods.", "10000001"), ("Delete this clause.", "10000002"),
               ("Payment terms apply.", "10000003"))
    revised = doc(("The Supplier must deliver the goods promptly.", "10000001"), ("A new clause here.", "20000001"),
                  ("Payment terms apply.", "10000003"), ("Trailing one.", "20000002"), ("Trailing two.", "20000003"))
    result = generate_redline_docx(base, revised)
    assert_round_trip(result, base, revised)
    assert [a["id"] for a in result["applied"]] == [f"redline-{n}" for n in range(1, len(result["applied"]) + 1)]
    assert "replaceBlock" in {a["type"] for a in result["applied"]}
    annotated = DocxReviewer.from_bytes(result["buffer"]).get_content_as_text(annotated=True)
    assert '<del author="folio compare">shall</del><ins author="folio compare">must</ins>' in annotated


def test_an_empty_base_gets_everything_inserted():
    base = doc(("", "10000001"))
    revised = doc(("First clause.", "20000001"), ("Second clause.", "20000002"))
    assert_round_trip(generate_redline_docx(base, revised), base, revised)


def test_paragraphs_appended_after_the_last_one_reject_back_to_the_base_end():
    """The Common Paper pilot agreement -> the CSA: the redline appends defined terms after the pilot's
    last paragraph, the last of them inside a hyperlink. Rejecting them used to leave an empty
    paragraph holding the emptied hyperlink, so the self-check refused the redline."""
    base = (CORPUS / "contract_commonpaper_pilot_agreement.docx").read_bytes()
    revised = (CORPUS / "contract_commonpaper_csa_with_ai_gdocs.docx").read_bytes()
    result = generate_redline_docx(base, revised)
    # the main story round-trips (the two contracts' headers and footers are different parts, which
    # the redline leaves as in the base and reports)
    out = result["buffer"]
    assert story_texts(resolved(out, True))["main"] == story_texts(resolved(revised, True))["main"]
    assert story_texts(resolved(out, False))["main"] == story_texts(resolved(base, True))["main"]
    rejected = resolved(out, False)
    assert [b.text for b in rejected.snapshot().content_blocks][-1].startswith("“User” means any individual")


def test_a_deleted_empty_paragraph_closing_a_content_control_goes_with_the_control_on_accept():
    """folio's authored-empty-paragraph -> header-vml-emf: the base's empty paragraph is the last block
    of a content control. Accepting its deletion used to leave it (nothing after it in the control
    to join), so the self-check refused the redline."""
    base = (CORPUS / "folio" / "authored-empty-paragraph.docx").read_bytes()
    revised = (CORPUS / "folio" / "header-vml-emf.docx").read_bytes()
    out = generate_redline_docx(base, revised)["buffer"]
    accepted = resolved(out, True)
    assert [b.text for b in accepted.snapshot().blocks] == [b.text for b in resolved(revised, True).snapshot().blocks]
    assert story_texts(resolved(out, False))["main"] == story_texts(resolved(base, True))["main"]
    assert accepted.document.body.find("{http://schemas.openxmlformats.org/wordprocessingml/2006/main}sdt") is None


def test_rejecting_an_inserted_last_paragraph_keeps_its_bookmarks_on_the_paragraph_before():
    ins = '<w:ins w:id="9" w:author="A" w:date="2026-01-01T00:00:00Z">'
    body = (p("Base end.", "10000001")
            + '<w:p w14:paraId="10000002"><w:pPr><w:rPr>' + ins.replace('">', '"/>', 1).replace("<w:ins", "<w:ins", 1)
            + '</w:rPr></w:pPr><w:bookmarkStart w:id="1" w:name="kept"/><w:hyperlink w:anchor="x">' + ins
            + '<w:r><w:t>Added.</w:t></w:r></w:ins></w:hyperlink><w:bookmarkEnd w:id="1"/></w:p>')
    rev = DocxReviewer.from_bytes(build_docx(body))
    assert [b.text for b in rev.snapshot().content_blocks] == ["Base end.", "Added."]
    rev.reject_all()
    assert [b.text for b in rev.snapshot().content_blocks] == ["Base end."]
    assert rev.document.body.find(".//{http://schemas.openxmlformats.org/wordprocessingml/2006/main}bookmarkStart") is not None


def test_the_last_paragraph_of_the_body_can_go():
    base = doc(("Keep this one.", "10000001"), ("Drop the last.", "10000002"))
    revised = doc(("Keep this one.", "10000001"))
    assert_round_trip(generate_redline_docx(base, revised), base, revised)


def test_moves_are_written_as_tracked_moves():
    anchors = [(f"Anchor paragraph number {n}.", f"3000000{n}") for n in range(4)]
    base = doc(("This paragraph will move down.", "10000001"), *anchors)
    revised = doc(*anchors, ("This paragraph will move down.", "20000001"))
    result = generate_redline_docx(base, revised)
    assert_round_trip(result, base, revised)
    xml = zipfile.ZipFile(io.BytesIO(result["buffer"])).read("word/document.xml")
    assert b"<w:moveFrom " in xml and b"<w:moveTo " in xml and b"moveFromRangeStart" in xml


def test_format_only_changes_become_formatting_revisions():
    base = doc(("Make part of this bold.", "10000001"), ("Italic goes away.", "10000002", "", "<w:i/>"))
    revised = build_docx(
        '<w:p w14:paraId="10000001"><w:r><w:t xml:space="preserve">Make part of </w:t></w:r>'
        '<w:r><w:rPr><w:b/></w:rPr><w:t>this bold</w:t></w:r><w:r><w:t>.</w:t></w:r></w:p>'
        + p("Italic goes away.", "10000002"))
    result = generate_redline_docx(base, revised)
    assert {a["type"] for a in result["applied"]} == {"formatRange"}
    accepted = resolved(result["buffer"], True)
    assert [r.get("bold", False) for r in runs_of(accepted, 0)] == [False, True, False]
    assert not any(r.get("italic") for r in runs_of(accepted, 1))
    rejected = resolved(result["buffer"], False)
    assert not any(r.get("bold") for r in runs_of(rejected, 0))
    assert all(r.get("italic") for r in runs_of(rejected, 1))


def test_modified_text_keeps_the_revised_formatting():
    base = doc(("Pay within thirty days.", "10000001"))
    revised = build_docx('<w:p w14:paraId="10000001"><w:r><w:t xml:space="preserve">Pay within </w:t></w:r>'
                         '<w:r><w:rPr><w:b/></w:rPr><w:t>ten</w:t></w:r><w:r><w:t xml:space="preserve"> days.</w:t>'
                         "</w:r></w:p>")
    result = generate_redline_docx(base, revised)
    assert_round_trip(result, base, revised)
    runs = runs_of(resolved(result["buffer"], True), 0)
    assert [(r["text"], r.get("bold", False)) for r in runs] == [("Pay within ", False), ("ten", True), (" days.", False)]


def test_tables_rows_and_whole_tables():
    def table(*rows, pid="5"):
        body = "".join("<w:tr>" + "".join(f"<w:tc>{p(text, f'{pid}{r}{c}00000')}</w:tc>" for c, text in enumerate(row))
                       + "</w:tr>" for r, row in enumerate(rows))
        return f'<w:tbl><w:tblPr/><w:tblGrid><w:gridCol/><w:gridCol/></w:tblGrid>{body}</w:tbl>'
    base = build_docx(p("Before.", "10000001") + table(["a1", "b1"], ["a2", "b2"], ["a3", "b3"]) + p("After.", "10000002"))
    revised = build_docx(p("Before.", "10000001")
                         + table(["a1", "b1"], ["a3", "b3 changed"]).replace("51000000", "53000000")
                         .replace("51100000", "53100000")
                         + p("Between.", "20000001") + table(["new", "table"], pid="7") + p("After.", "10000002"))
    assert_round_trip(generate_redline_docx(base, revised), base, revised)
    grown = build_docx(p("Before.", "10000001") + table(["a1", "b1"], ["a2", "b2"], ["x", "y"], ["a3", "b3"])
                       .replace("52000000", "59000000").replace("52100000", "59100000") + p("After.", "10000002"))
    assert_round_trip(generate_redline_docx(base, grown), base, grown)


def test_notes_and_headers_of_a_real_document():
    data = (CORPUS / "openxmlsdk_comment042_tracked_pPr_rPr_changes_notes.docx").read_bytes()
    base, revised = resolved(data, False).to_bytes(), resolved(data, True).to_bytes()
    result = generate_redline_docx(base, revised)
    keys = set(story_texts(resolved(result["buffer"], True)))
    assert {"footnote:1", "endnote:1", "header:rId10"} <= keys
    assert "footnote:1" not in story_texts(resolved(result["buffer"], False))


def test_header_edits_are_redlined_in_their_story():
    data = (CORPUS / "eigenpal_docxjs_editor_demo.docx").read_bytes()
    base = resolved(data, True).to_bytes()
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(base)) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            body = zin.read(info)
            if info.filename.startswith("word/header"):
                body = re.sub(rb"(<w:t[^>]*>)([^<&]+)", lambda m: m.group(1) + m.group(2).upper(), body, count=1)
            zout.writestr(info, body)
    revised = out.getvalue()
    assert story_texts(DocxReviewer.from_bytes(revised)) != story_texts(DocxReviewer.from_bytes(base))
    result = generate_redline_docx(base, revised)
    assert_round_trip(result, base, revised)
    # word by word through the engine in the header's own story, not the whole-story fallback
    assert result["fallbacks"] == [] and "replaceBlock" in {a["type"] for a in result["applied"]}


# -- options -----------------------------------------------------------------------------------------

def test_custom_author_and_one_date():
    base = doc(("Old words here.", "10000001"), ("Gone.", "10000002"))
    revised = doc(("New words here.", "10000001"), ("Added.", "20000001"))
    out = generate_redline_docx(base, revised, author="Jane Lawyer")["buffer"]
    xml = zipfile.ZipFile(io.BytesIO(out)).read("word/document.xml").decode()
    assert set(re.findall(r'w:author="([^"]+)"', xml)) == {"Jane Lawyer"}
    assert len(set(re.findall(r'w:date="([^"]+)"', xml))) == 1


def test_original_and_final_views_of_a_base_with_pending_changes():
    data = (CORPUS / "superdoc_word_comments_replies_tracked.docx").read_bytes()
    final = resolved(data, True).to_bytes()
    same = generate_redline_docx(data, final)  # base read as final: nothing to do
    assert same["applied"] == []
    from_original = generate_redline_docx(data, final, base_view="original")
    assert story_texts(resolved(from_original["buffer"], False)) == story_texts(resolved(data, False))
    assert story_texts(resolved(from_original["buffer"], True)) == story_texts(resolved(data, True))
    to_original = generate_redline_docx(data, data, revised_view="original")
    assert story_texts(resolved(to_original["buffer"], True)) == story_texts(resolved(data, False))
    for kwargs, name in (({"base_view": "current"}, "baseView"), ({"revised_view": ""}, "revisedView")):
        with pytest.raises(InvalidGenerateRedlineDocxOptionsError, match=f"^{name} must be original or final.$"):
            generate_redline_docx(data, final, **kwargs)


def test_privacy_strips_the_output_metadata_only():
    base = with_core(doc(("One.", "10000001")), "<dc:creator>Alice</dc:creator><dc:title>T</dc:title>")
    revised = doc(("Two.", "10000001"))
    result = generate_redline_docx(base, revised, privacy={"transforms": ["remove-attribution"]})
    assert result["privacyReport"] == {"appliedTransforms": ["remove-attribution"],
                                       "removedMetadataProperties": ["creator"]}
    core = zipfile.ZipFile(io.BytesIO(result["buffer"])).read("docProps/core.xml")
    assert b"Alice" not in core and b"<dc:title>T</dc:title>" in core


STYLES = ('<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>'
          '<w:style w:type="paragraph" w:styleId="Clause"><w:name w:val="Clause"/><w:basedOn w:val="Normal"/>'
          '<w:pPr><w:numPr><w:numId w:val="1"/></w:numPr></w:pPr><w:rPr><w:b/></w:rPr></w:style>')
NUMBERING = ('<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/>'
             '<w:lvlText w:val="%1."/></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>')


def test_inserted_paragraphs_bring_their_style_and_list():
    base = doc(("Intro.", "10000001"))
    revised = doc(("Intro.", "10000001"), ("A numbered clause.", "20000001", '<w:pStyle w:val="Clause"/>'),
                  styles=STYLES, numbering=NUMBERING)
    result = generate_redline_docx(base, revised)
    assert_round_trip(result, base, revised)
    accepted = resolved(result["buffer"], True)
    block = accepted.snapshot().blocks[1]
    assert block.style_id == "Clause" and block.display_label == "1." and runs_of(accepted, 1)[0].get("bold")


def test_references_the_revised_document_never_defined():
    ghost = ("Ghost styled text.", "20000001", '<w:pStyle w:val="Ghost"/>')
    base = doc(("Intro.", "10000001"), styles='<w:style w:type="paragraph" w:styleId="Ghost"><w:name w:val="G"/></w:style>')
    revised = doc(("Intro.", "10000001"), ghost)
    result = generate_redline_docx(base, revised)
    assert [w["reference"] for w in result["referenceWarnings"]] == ["Ghost"]
    assert resolved(result["buffer"], True).snapshot().blocks[1].style_id is None
    with pytest.raises(GenerateRedlineDocxResourceImportError, match='styleId "Ghost"'):
        generate_redline_docx(base, revised, undefined_references="refuse")


# -- the command line -----------------------------------------------------------------------------------

def test_compare_cli(tmp_path, capsys):
    old, new = tmp_path / "old.docx", tmp_path / "new.docx"
    old.write_bytes(doc(("The term is one year.", "10000001")))
    new.write_bytes(doc(("The term is two years.", "10000001"), ("Renewal is automatic.", "20000001")))
    out = tmp_path / "red.docx"
    assert compare_cli([str(old), str(new), "-o", str(out), "--summary", "--author", "Ann"]) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[0] == f"Wrote {out}: 1 added, 0 deleted, 1 modified, 0 format-changed, 0 moved, 0 unchanged " \
                      "(2 edits by Ann)."
    assert text[1].startswith("Version diff: 1 added") and "{+two+}" in text[2]
    assert story_texts(resolved(out.read_bytes(), True)) == story_texts(DocxReviewer.open(new))
    assert compare_cli([str(tmp_path / "missing.docx"), str(new), "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "does not exist" in err and "Traceback" not in err
    bad = tmp_path / "bad.docx"
    bad.write_bytes(b"PK\x03\x04 truncated")
    assert compare_cli([str(bad), str(new), "-o", str(out)]) == 1
    assert compare_cli([str(old), str(new)]) == 1  # -o is required
