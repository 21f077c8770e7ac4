"""Moves in the redline, as Word writes them: a paragraph of at least MOVE_MIN_WORDS words that left
one place and arrived, with the same text, at another is a w:moveFrom / w:moveTo pair inside
w:moveFromRangeStart/End and w:moveToRangeStart/End of one w:name; our reader pairs the halves,
accepting all gives the later order, rejecting all the earlier one; moves=False / --no-moves writes
a deletion and an insertion instead."""

from __future__ import annotations

import io
import zipfile

import docx as python_docx
import pytest
from conftest import CORPUS
from docbuilder import build_docx, p
from lxml import etree

from folio_desktop.agents.versions.cli import run as compare_cli
from folio_desktop.agents.versions.compare import MOVE_MIN_WORDS, open_view
from folio_desktop.agents.versions.redline import generate_redline_docx, redline_reviewers, story_texts
from folio_desktop.docx import DocxReviewer

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
ANCHORS = [(f"Anchor paragraph number {n} stays.", f"3000000{n}") for n in range(4)]
MOVED = ("The moved clause about notices travels down.", "10000001")


def doc(*paragraphs) -> bytes:
    return build_docx("".join(p(*x) for x in paragraphs))


def resolved(data: bytes, accept: bool) -> DocxReviewer:
    rev = DocxReviewer.from_bytes(data)
    rev.accept_all() if accept else rev.reject_all()
    return rev


def document_xml(buffer: bytes) -> etree._Element:
    return etree.fromstring(zipfile.ZipFile(io.BytesIO(buffer)).read("word/document.xml"))


def assert_round_trip(buffer: bytes, base: bytes, revised: bytes) -> None:
    assert story_texts(resolved(buffer, True)) == story_texts(DocxReviewer.from_bytes(revised))
    assert story_texts(resolved(buffer, False)) == story_texts(DocxReviewer.from_bytes(base))


def assert_word_move(xml: etree._Element, text: str, author: str) -> None:
    """One move of `text`: both halves inside ranges of one name, each range closed by its id, the
    paragraph marks moved with the text, author and date on every mark."""
    starts = {side: xml.findall(f".//{_W}move{side}RangeStart") for side in ("From", "To")}
    assert len(starts["From"]) == len(starts["To"]) == 1
    assert starts["From"][0].get(_W + "name") == starts["To"][0].get(_W + "name")
    for side in ("From", "To"):
        start = starts[side][0]
        assert start.get(_W + "author") == author and start.get(_W + "date")
        para = start.getparent()
        ends = para.findall(f"{_W}move{side}RangeEnd")
        assert [e.get(_W + "id") for e in ends] == [start.get(_W + "id")]
        wrappers = para.findall(f"{_W}move{side}")
        assert wrappers and all(w.get(_W + "author") == author for w in wrappers)
        assert para.find(f"{_W}pPr/{_W}rPr/{_W}move{side}") is not None
        assert "".join(t.text or "" for w in wrappers for t in w.iter(_W + "t")) == text
        assert not [d for w in wrappers for d in w.iter(_W + "delText")]  # Word keeps moved text as w:t
        assert para.index(start) < para.index(wrappers[0]) and para.index(ends[0]) > para.index(wrappers[-1])
    assert xml.find(f".//{_W}ins") is None and xml.find(f".//{_W}del") is None


def test_a_moved_paragraph_is_a_word_move_our_reader_pairs():
    base = doc(MOVED, *ANCHORS)
    revised = doc(*ANCHORS, MOVED)
    result = generate_redline_docx(base, revised, author="Reviewer")
    assert_word_move(document_xml(result["buffer"]), MOVED[0], "Reviewer")
    changes = DocxReviewer.from_bytes(result["buffer"]).get_changes()
    halves = [c for c in changes if c.is_move]
    assert {c.move_side for c in halves} == {"from", "to"}
    assert len({c.move.key for c in halves}) == 1  # the two halves of one move
    assert_round_trip(result["buffer"], base, revised)


def test_the_last_paragraph_moved_up_is_a_move_and_keeps_the_paragraphs_formats():
    """A container keeps its last paragraph mark, so the mark before it is deleted instead: the moved
    text is still a move, and the paragraph that joins the last mark on accepting takes its own
    properties with it (a centred clause stays centred)."""
    centred = '<w:jc w:val="center"/>'
    base = doc((ANCHORS[0][0], ANCHORS[0][1], centred), ANCHORS[1], MOVED)
    revised = doc(MOVED, (ANCHORS[0][0], ANCHORS[0][1], centred), ANCHORS[1])
    result = generate_redline_docx(base, revised, author="Reviewer")
    xml = document_xml(result["buffer"])
    assert "".join(t.text for m in xml.iter(_W + "moveFrom") for t in m.iter(_W + "t")) == MOVED[0]
    assert "".join(t.text for m in xml.iter(_W + "moveTo") for t in m.iter(_W + "t")) == MOVED[0]
    halves = [c for c in DocxReviewer.from_bytes(result["buffer"]).get_changes() if c.is_move]
    assert {c.move_side for c in halves} == {"from", "to"}
    assert_round_trip(result["buffer"], base, revised)
    for accept, want in ((True, revised), (False, base)):
        jc = [b.element.find(f"{_W}pPr/{_W}jc") is not None for b in resolved(result["buffer"], accept).snapshot().blocks]
        assert jc == [b.element.find(f"{_W}pPr/{_W}jc") is not None for b in DocxReviewer.from_bytes(want).snapshot().blocks]


def test_moves_false_writes_a_deletion_and_an_insertion():
    base = doc(MOVED, *ANCHORS)
    revised = doc(*ANCHORS, MOVED)
    result = generate_redline_docx(base, revised, moves=False)
    xml = document_xml(result["buffer"])
    assert xml.find(f".//{_W}moveFrom") is None and xml.find(f".//{_W}moveTo") is None
    assert xml.find(f".//{_W}moveFromRangeStart") is None
    assert xml.find(f".//{_W}ins") is not None and xml.find(f".//{_W}del") is not None
    assert not any(c.is_move for c in DocxReviewer.from_bytes(result["buffer"]).get_changes())
    assert_round_trip(result["buffer"], base, revised)


def test_redline_reviewers_writes_moves_unless_told_not_to():
    # the desk's compare window calls it with no moves argument: a moved clause must show as a move
    base, revised = doc(MOVED, *ANCHORS), doc(*ANCHORS, MOVED)
    result = redline_reviewers(open_view(base, "final", "Reviewer"), open_view(revised, "final"), "Reviewer")
    assert_word_move(document_xml(result["buffer"]), MOVED[0], "Reviewer")
    assert_round_trip(result["buffer"], base, revised)
    plain = redline_reviewers(open_view(base, "final", "Reviewer"), open_view(revised, "final"), "Reviewer",
                              moves=False)
    assert document_xml(plain["buffer"]).find(f".//{_W}moveTo") is None


def test_a_paragraph_shorter_than_the_threshold_is_not_a_move():
    short = (" ".join(["Short"] * (MOVE_MIN_WORDS - 1)) + ".", "10000001")
    base = doc(short, *ANCHORS)
    revised = doc(*ANCHORS, short)
    result = generate_redline_docx(base, revised)
    assert document_xml(result["buffer"]).find(f".//{_W}moveFrom") is None
    assert_round_trip(result["buffer"], base, revised)


def test_cli_no_moves(tmp_path):
    old, new = tmp_path / "old.docx", tmp_path / "new.docx"
    old.write_bytes(doc(MOVED, *ANCHORS))
    new.write_bytes(doc(*ANCHORS, MOVED))
    for flag, expected in (([], True), (["--no-moves"], False)):
        out = tmp_path / f"out{len(flag)}.docx"
        assert compare_cli([str(old), str(new), "-o", str(out), *flag], io.StringIO(), io.StringIO()) == 0
        assert (b"<w:moveTo " in zipfile.ZipFile(out).read("word/document.xml")) is expected


def test_a_saved_move_reopens_in_python_docx(tmp_path):
    base = doc(MOVED, *ANCHORS)
    revised = doc(*ANCHORS, MOVED)
    out = tmp_path / "moved.docx"
    out.write_bytes(generate_redline_docx(base, revised)["buffer"])
    paragraphs = python_docx.Document(str(out)).paragraphs
    assert len(paragraphs) == 6  # the paragraph where it left and where it arrived
    assert [b.text for b in DocxReviewer.from_bytes(out.read_bytes()).snapshot().blocks][1:5] == \
        [a[0] for a in ANCHORS]


# -- a corpus contract with a clause moved ----------------------------------------------------------------

def _with_paragraph_moved(data: bytes, words: int) -> tuple[bytes, str]:
    """The document with its first body paragraph of at least `words` words moved five paragraphs on."""
    rev = DocxReviewer.from_bytes(data)
    body = rev.document.body
    paras = [x for x in body if x.tag == _W + "p"]
    texts = ["".join(t.text or "" for t in x.iter(_W + "t")) for x in paras]
    i = next(i for i, t in enumerate(texts[:-8]) if len(t.split()) >= words and texts.count(t) == 1)
    para = paras[i]
    paras[i + 5].addnext(para)
    rev.document.package.mark_dirty(rev.document.main_part)
    return rev.to_bytes(), texts[i]


@pytest.mark.parametrize("name", ["contract_commonpaper_pilot_agreement.docx",
                                  "contract_nvca_stock_purchase_agreement_27p.docx"])
def test_corpus_clause_moved(name):
    base = resolved((CORPUS / name).read_bytes(), True).to_bytes()
    revised, text = _with_paragraph_moved(base, 8)
    result = generate_redline_docx(base, revised)
    changes = DocxReviewer.from_bytes(result["buffer"]).get_changes()
    halves = [c for c in changes if c.move is not None]
    assert {c.move_side for c in halves} == {"from", "to"} and len({c.move.key for c in halves}) == 1
    assert all(text.startswith(c.text) or c.text in text for c in halves)
    assert_round_trip(result["buffer"], base, revised)
    plain = generate_redline_docx(base, revised, moves=False)
    assert not any(c.is_move for c in DocxReviewer.from_bytes(plain["buffer"]).get_changes())
    assert_round_trip(plain["buffer"], base, revised)
