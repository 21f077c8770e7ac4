"""Formatting revisions in the redline, as Word's Compare writes them: w:rPrChange (the old run
properties) on runs whose character formatting changed, w:pPrChange (the old paragraph properties)
on paragraphs whose style or properties changed; accepting all gives the revised formatting per
character and per paragraph, rejecting all the base one; formatting=False / --no-formatting writes
none."""

from __future__ import annotations

import io
import zipfile

import docx as python_docx
import docx.shared
import pytest
from conftest import CORPUS
from docbuilder import build_docx, p
from lxml import etree

from folio_desktop.agents.versions.cli import run as compare_cli
from folio_desktop.agents.versions.redline import generate_redline_docx, story_texts
from folio_desktop.docx import DocxReviewer

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_W = "{" + W + "}"
IGNORED = {_W + t for t in ("lang", "noProof", "rPrChange")}
NOT_OWN = {_W + t for t in ("rPr", "sectPr", "pPrChange")}
STYLES = ('<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>'
          '<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/>'
          '<w:basedOn w:val="Normal"/><w:rPr><w:b/><w:sz w:val="32"/></w:rPr></w:style>')


def resolved(data: bytes, accept: bool) -> DocxReviewer:
    rev = DocxReviewer.from_bytes(data)
    rev.accept_all() if accept else rev.reject_all()
    return rev


def _key(el) -> tuple:
    attrs = tuple(sorted((k, v) for k, v in el.attrib.items() if k.startswith(_W)))  # not other tools' ids
    return el.tag, attrs, tuple(_key(c) for c in el if isinstance(c.tag, str))


def char_formats(rev: DocxReviewer) -> list[list[tuple]]:
    """Per body paragraph, per character of its text: the run properties it is shown with."""
    out = []
    for para in rev.document.body.iter(_W + "p"):
        chars = []
        for run in para.iter(_W + "r"):
            if next(run.iterancestors(_W + "p")) is not para:
                continue
            rpr = run.find(_W + "rPr")
            props = tuple(sorted(_key(c) for c in (rpr if rpr is not None else []) if c.tag not in IGNORED))
            for t in run.iter(_W + "t", _W + "noBreakHyphen"):  # (a text edit writes the latter as "-")
                chars += [(ch, props) for ch in (t.text or "" if t.tag == _W + "t" else "-")]
        out.append(chars)
    return out


def paragraph_props(rev: DocxReviewer) -> list[tuple]:
    out = []
    for para in rev.document.body.iter(_W + "p"):
        ppr = para.find(_W + "pPr")
        out.append(tuple(sorted(_key(c) for c in (ppr if ppr is not None else []) if c.tag not in NOT_OWN)))
    return out


def assert_formats_round_trip(buffer: bytes, base: bytes, revised: bytes) -> None:
    accepted, rejected = resolved(buffer, True), resolved(buffer, False)
    want_accepted, want_rejected = DocxReviewer.from_bytes(revised), DocxReviewer.from_bytes(base)
    assert story_texts(accepted) == story_texts(want_accepted)
    assert story_texts(rejected) == story_texts(want_rejected)
    assert char_formats(accepted) == char_formats(want_accepted)
    assert char_formats(rejected) == char_formats(want_rejected)
    assert paragraph_props(accepted) == paragraph_props(want_accepted)
    assert paragraph_props(rejected) == paragraph_props(want_rejected)


def document_xml(buffer: bytes) -> etree._Element:
    return etree.fromstring(zipfile.ZipFile(io.BytesIO(buffer)).read("word/document.xml"))


def run(rpr: str, text: str) -> str:
    return f'<w:r>{f"<w:rPr>{rpr}</w:rPr>" if rpr else ""}<w:t xml:space="preserve">{text}</w:t></w:r>'


RED, BOLD_BLUE = '<w:color w:val="FF0000"/>', '<w:b/><w:color w:val="0000FF"/>'
BOLD_UNDERLINED = '<w:b/><w:u w:val="single"/>'
SENTENCE = ["The ", "Buyer ", "shall ", "pay ", "the ", "Price ", "within ", "thirty ", "days."]
# one word per character property the lawyer can set
REVISED_RPR = ["", "<w:b/>", "<w:i/>", '<w:u w:val="single"/>', "<w:strike/>", '<w:rFonts w:ascii="Arial" w:hAnsi="Arial"/>',
               '<w:sz w:val="28"/>', '<w:color w:val="C00000"/>', '<w:highlight w:val="yellow"/>']


def test_every_character_property_becomes_a_formatting_revision():
    base = build_docx(p("".join(SENTENCE), "10000001") + p("Unchanged closing words here.", "10000002"))
    revised = build_docx(f'<w:p w14:paraId="10000001">{"".join(run(r, t) for r, t in zip(REVISED_RPR, SENTENCE))}</w:p>'
                         + p("Unchanged closing words here.", "10000002"))
    result = generate_redline_docx(base, revised, author="Reviewer")
    changes = document_xml(result["buffer"]).findall(f".//{_W}rPrChange")
    assert len(changes) == 8  # one per reformatted word; no change on the plain ones
    for change in changes:
        assert change.get(_W + "author") == "Reviewer" and change.get(_W + "date")
        assert len(change.find(_W + "rPr")) == 0  # the old properties: none
    assert_formats_round_trip(result["buffer"], base, revised)


def test_formatting_removed_and_changed_keeps_the_old_properties():
    base = build_docx(f'<w:p w14:paraId="10000001">{run(BOLD_BLUE, "Bold blue words ")}'
                      f'{run("", "and plain ones.")}</w:p>')
    revised = build_docx(f'<w:p w14:paraId="10000001">{run("", "Bold ")}{run(RED, "blue words ")}'
                         f'{run("<w:i/>", "and plain ones.")}</w:p>')
    result = generate_redline_docx(base, revised)
    olds = [tuple(c.tag for c in ch.find(_W + "rPr")) for ch in document_xml(result["buffer"]).iter(_W + "rPrChange")]
    assert (_W + "b", _W + "color") in olds and () in olds
    assert_formats_round_trip(result["buffer"], base, revised)


def test_paragraph_style_and_properties_become_pPr_changes():
    base = build_docx(p("Definitions", "10000001", '<w:pStyle w:val="Normal"/>')
                      + p("The words below have these meanings.", "10000002"), styles=STYLES)
    revised = build_docx(p("Definitions", "10000001", '<w:pStyle w:val="Heading1"/>')
                         + p("The words below have these meanings.", "10000002",
                             '<w:spacing w:after="240"/><w:ind w:left="720"/><w:jc w:val="center"/>'), styles=STYLES)
    result = generate_redline_docx(base, revised, author="Reviewer")
    changes = document_xml(result["buffer"]).findall(f".//{_W}pPrChange")
    assert len(changes) == 2 and all(c.get(_W + "author") == "Reviewer" for c in changes)
    assert changes[0].find(f"{_W}pPr/{_W}pStyle").get(_W + "val") == "Normal"
    assert len(changes[1].find(_W + "pPr")) == 0
    assert_formats_round_trip(result["buffer"], base, revised)
    assert resolved(result["buffer"], True).snapshot().blocks[0].style_id == "Heading1"
    assert resolved(result["buffer"], False).snapshot().blocks[0].style_id == "Normal"


def test_a_merge_into_the_last_paragraph_keeps_the_first_paragraphs_style():
    """Two paragraphs merged at the end of the document: the last mark stays (a container keeps it) and
    the one before is deleted, so the merged paragraph takes the first one's style through a
    pPrChange on the last, and its bold words stay bold (property test, seed 10 and 152)."""
    base = build_docx(p("Definitions", "10000001", '<w:pStyle w:val="Heading1"/>')
                      + f'<w:p w14:paraId="10000002">{run("<w:b/>", "Agreement ")}{run("", "means this agreement.")}</w:p>',
                      styles=STYLES)
    revised = build_docx(f'<w:p w14:paraId="10000001"><w:pPr><w:pStyle w:val="Heading1"/></w:pPr>'
                         f'{run("", "Definitions")}{run("<w:b/>", "Agreement ")}{run("", "means this agreement.")}</w:p>',
                         styles=STYLES)
    result = generate_redline_docx(base, revised)
    assert_formats_round_trip(result["buffer"], base, revised)
    assert resolved(result["buffer"], True).snapshot().blocks[0].style_id == "Heading1"


def test_edited_paragraph_takes_the_revised_style_and_formatting():
    base = build_docx(p("Payment is due in thirty days.", "10000001"), styles=STYLES)
    revised = build_docx(f'<w:p w14:paraId="10000001"><w:pPr><w:pStyle w:val="Heading1"/></w:pPr>'
                         f'{run("", "Payment is due in ")}{run(BOLD_UNDERLINED, "ten")}'
                         f'{run("", " days.")}</w:p>', styles=STYLES)
    result = generate_redline_docx(base, revised)
    assert_formats_round_trip(result["buffer"], base, revised)


def test_the_census_lists_them_as_formatting_changes():
    base = build_docx(p("Plain text to be formatted.", "10000001") + p("A body paragraph.", "10000002"), styles=STYLES)
    revised = build_docx(f'<w:p w14:paraId="10000001">{run("<w:i/>", "Plain text to be formatted.")}</w:p>'
                         + p("A body paragraph.", "10000002", '<w:pStyle w:val="Heading1"/>'), styles=STYLES)
    result = generate_redline_docx(base, revised)
    types = {c.type for c in DocxReviewer.from_bytes(result["buffer"]).get_changes()}
    assert types == {"formatting", "paragraphPropertiesChanged"}


def test_formatting_false_writes_no_formatting_revision():
    base = build_docx(p("Definitions", "10000001") + p("Pay in thirty days.", "10000002"), styles=STYLES)
    revised = build_docx(p("Definitions", "10000001", '<w:pStyle w:val="Heading1"/>')
                         + f'<w:p w14:paraId="10000002">{run("<w:b/>", "Pay in ten days.")}</w:p>', styles=STYLES)
    result = generate_redline_docx(base, revised, formatting=False)
    xml = etree.tostring(document_xml(result["buffer"]))
    assert b"rPrChange" not in xml and b"pPrChange" not in xml
    accepted = resolved(result["buffer"], True)
    assert story_texts(accepted) == story_texts(DocxReviewer.from_bytes(revised))
    assert char_formats(accepted) == [[(ch, ()) for ch in "Definitions"], [(ch, ()) for ch in "Pay in ten days."]]
    assert accepted.snapshot().blocks[0].style_id is None


def test_cli_no_formatting(tmp_path):
    old, new = tmp_path / "old.docx", tmp_path / "new.docx"
    old.write_bytes(build_docx(p("Words to embolden here.", "10000001")))
    new.write_bytes(build_docx(f'<w:p w14:paraId="10000001">{run("<w:b/>", "Words to embolden here.")}</w:p>'))
    for flag, expected in (([], True), (["--no-formatting"], False)):
        out = tmp_path / f"out{len(flag)}.docx"
        assert compare_cli([str(old), str(new), "-o", str(out), *flag], io.StringIO(), io.StringIO()) == 0
        assert (b"rPrChange" in zipfile.ZipFile(out).read("word/document.xml")) is expected


def test_saved_redline_reopens_in_our_reader_and_python_docx(tmp_path):
    base = build_docx(p("Definitions", "10000001") + p("Some text.", "10000002"), styles=STYLES)
    revised = build_docx(p("Definitions", "10000001", '<w:pStyle w:val="Heading1"/>')
                         + f'<w:p w14:paraId="10000002">{run(RED, "Some text.")}</w:p>',
                         styles=STYLES)
    out = tmp_path / "redline.docx"
    out.write_bytes(generate_redline_docx(base, revised)["buffer"])
    assert [b.text for b in DocxReviewer.from_bytes(out.read_bytes()).snapshot().blocks][:2] == \
        ["Definitions", "Some text."]
    reopened = python_docx.Document(str(out))
    assert [para.text for para in reopened.paragraphs] == ["Definitions", "Some text."]
    assert reopened.paragraphs[0].style.style_id == "Heading1"  # the redline shows the later formatting
    assert reopened.paragraphs[1].runs[0].font.color.rgb == python_docx.shared.RGBColor(0xFF, 0, 0)


# -- a corpus document reformatted --------------------------------------------------------------------------

CORPUS_PAIRS = ["contract_commonpaper_pilot_agreement.docx", "contract_msdn_eula_legal_numbering.docx"]


def _reformatted(data: bytes) -> bytes:
    """The document with every third paragraph's first run recoloured and enlarged, every fifth run
    bold, and every seventh paragraph centred: formatting only, no text changed."""
    rev = DocxReviewer.from_bytes(data)
    body = rev.document.body
    paras = [para for para in body.iter(_W + "p") if "".join(t.text or "" for t in para.iter(_W + "t")).strip()]
    n = 0
    for i, para in enumerate(paras):
        runs = [r for r in para.iter(_W + "r") if r.find(_W + "t") is not None]
        for j, r in enumerate(runs):
            n += 1
            rpr = r.find(_W + "rPr")
            if rpr is None:
                rpr = etree.Element(_W + "rPr")
                r.insert(0, rpr)
            if i % 3 == 0 and j == 0:
                for tag, val in (("color", "C00000"), ("sz", "30")):
                    old = rpr.find(_W + tag)
                    if old is not None:
                        rpr.remove(old)
                    etree.SubElement(rpr, _W + tag).set(_W + "val", val)
            if n % 5 == 0 and rpr.find(_W + "b") is None:
                rpr.insert(0, etree.Element(_W + "b"))
        if i % 7 == 0:
            ppr = para.find(_W + "pPr")
            if ppr is None:
                ppr = etree.Element(_W + "pPr")
                para.insert(0, ppr)
            old = ppr.find(_W + "jc")
            if old is not None:
                ppr.remove(old)
            jc = etree.Element(_W + "jc")
            jc.set(_W + "val", "center")
            keep = [c for c in ppr if c.tag in (_W + "rPr", _W + "sectPr")]
            (keep[0].addprevious(jc) if keep else ppr.append(jc))
    rev.document.package.mark_dirty(rev.document.main_part)
    return rev.to_bytes()


@pytest.mark.parametrize("name", CORPUS_PAIRS)
def test_corpus_document_reformatted(name):
    path = next(CORPUS.rglob(name), None)
    if path is None:
        pytest.skip(f"{name} is not in the corpus")
    base = resolved(path.read_bytes(), True).to_bytes()
    revised = _reformatted(base)
    result = generate_redline_docx(base, revised)
    xml = document_xml(result["buffer"])
    assert len(xml.findall(f".//{_W}rPrChange")) >= 5 and len(xml.findall(f".//{_W}pPrChange")) >= 2
    assert_formats_round_trip(result["buffer"], base, revised)


TRACKED_FORMATTING = ["openxmlsdk_comment042_tracked_pPr_rPr_changes_notes.docx",
                      "powertools_RP051_arabic_tracked_changes.docx"]


@pytest.mark.parametrize("name", TRACKED_FORMATTING)
def test_tracked_corpus_rejected_to_accepted_keeps_formatting_both_ways(name):
    """Documents whose own tracked changes include formatting: the redline of their rejected view to
    their accepted view gives each view back, formatting per character and per paragraph included."""
    data = (CORPUS / name).read_bytes()
    base, revised = resolved(data, False).to_bytes(), resolved(data, True).to_bytes()
    assert_formats_round_trip(generate_redline_docx(base, revised)["buffer"], base, revised)
