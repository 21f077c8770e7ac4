"""Headers and footers in the redline: stories Word keys by relationship id are paired by where they show
(section, type), so two versions' headers compare word by word whatever their ids; a header only one version
has is redlined as inserted or deleted, never left as the earlier version has it."""

from __future__ import annotations

import re

from conftest import CORPUS
from docbuilder import build_docx, p, with_stories
from lxml import etree

from folio_desktop.agents.versions.compare import compare_docx_versions
from folio_desktop.agents.versions.redline import generate_redline_docx, story_texts
from folio_desktop.docx import DocxReviewer

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
R_ID = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
BODY = [p("The Supplier shall deliver the goods.", "10000001"), p("Payment is due in thirty days.", "10000002")]


def resolved(data: bytes, accept: bool | None) -> DocxReviewer:
    rev = DocxReviewer.from_bytes(data)
    if accept is not None:
        rev.accept_all() if accept else rev.reject_all()
    return rev


def shown(data: bytes, accept: bool | None = None) -> dict[tuple, list[str]]:
    """(kind, section, type) -> the text of the header or footer shown there; an empty one is left out."""
    rev = resolved(data, accept)
    texts = story_texts(rev)
    root = rev.document.package.xml(rev.document.main_part)
    sections = [s for s in root.iter(W + "sectPr") if not any(a.tag == W + "sectPrChange" for a in s.iterancestors())]
    out = {}
    for n, sect in enumerate(sections):
        for ref in sect:
            if ref.tag in (W + "headerReference", W + "footerReference"):
                kind = etree.QName(ref).localname[:-len("Reference")]
                text = [t for t in texts[f"{kind}:{ref.get(R_ID)}"] if t]
                if text:
                    out[(kind, n, ref.get(W + "type"))] = text
    return out


def story_xml(data: bytes, kind: str) -> list[bytes]:
    rev = DocxReviewer.from_bytes(data)
    return [etree.tostring(rev.document.package.xml(s.part)) for s in rev.stories() if s.type == kind]


def assert_both_ways(result: dict, base: bytes, revised: bytes) -> None:
    assert result["unprocessedStories"] == [] and result["fallbacks"] == []
    assert shown(result["buffer"], True) == shown(revised)
    assert shown(result["buffer"], False) == shown(base)
    assert story_texts(resolved(result["buffer"], True))["main"] == story_texts(resolved(revised, None))["main"]


def headed(*stories, body=BODY) -> bytes:
    return with_stories(build_docx("".join(body)), *stories)


def test_a_header_and_footer_only_the_revised_version_has_are_inserted():
    base = headed()
    revised = headed(("header", "rId20", p("Confidential draft"), [(0, "default")]),
                     ("footer", "rId21", p("Supplier terms v2"), [(0, "default")]))
    result = generate_redline_docx(base, revised)
    assert_both_ways(result, base, revised)
    assert shown(result["buffer"], True) == {("header", 0, "default"): ["Confidential draft"],
                                              ("footer", 0, "default"): ["Supplier terms v2"]}
    header = b"".join(story_xml(result["buffer"], "header"))
    assert re.search(rb"<w:ins [^>]*>.*Confidential draft", header)


def test_a_header_only_the_base_has_is_deleted():
    base = headed(("header", "rId7", p("Confidential draft"), [(0, "default")]))
    revised = headed()
    result = generate_redline_docx(base, revised)
    assert_both_ways(result, base, revised)
    assert re.search(rb"<w:del [^>]*>.*<w:delText[^>]*>Confidential draft", b"".join(story_xml(result["buffer"], "header")))


def test_headers_under_other_relationship_ids_are_redlined_word_by_word():
    base = headed(("header", "rId7", p("Draft of 1 May"), [(0, "default")]),
                  ("footer", "rId8", p("Page footer"), [(0, "default")]))
    revised = headed(("footer", "rId30", p("Page footer"), [(0, "default")]),
                     ("header", "rId31", p("Draft of 2 May"), [(0, "default")]))
    result = generate_redline_docx(base, revised)
    assert_both_ways(result, base, revised)
    header, = story_xml(result["buffer"], "header")
    assert re.search(rb"<w:delText[^>]*>1</w:delText>", header) and re.search(rb"<w:t[^>]*>2</w:t>", header)
    assert b"<w:del " not in b"".join(story_xml(result["buffer"], "footer"))  # the same footer: no change
    assert len(story_xml(result["buffer"], "header")) == 1  # no second header part was added

    diff = compare_docx_versions(base, revised)
    stories = {(s["baseStory"] or {}).get("relationshipId", s["baseStory"] and "main"): s for s in diff["stories"]}
    assert stories["rId7"]["revisedStory"] == {"type": "header", "relationshipId": "rId31"}
    assert [c["type"] for c in stories["rId7"]["changes"]] == ["modified"]
    assert stories["rId8"]["changes"] == [] and None not in stories


def test_a_first_page_header_added_beside_the_default_one():
    default = ("header", "rId7", p("Master Services Agreement"), [(0, "default")])
    base = headed(default)
    revised = headed(("header", "rId9", p("Master Services Agreement"), [(0, "default")]),
                     ("header", "rId10", p("Execution version"), [(0, "first")]))
    result = generate_redline_docx(base, revised)
    assert_both_ways(result, base, revised)
    assert b"<w:ins " not in story_xml(result["buffer"], "header")[0]  # the default header is unchanged


def test_an_inserted_section_break_brings_its_own_header():
    section_break = '<w:p w14:paraId="20000001"><w:pPr><w:sectPr><w:pgSz w:w="12240" w:h="15840"/></w:sectPr></w:pPr></w:p>'
    base = headed(("header", "rId7", p("Agreement"), [(0, "default")]))
    revised = headed(("header", "rId8", p("Schedule 1"), [(0, "default")]),
                     ("header", "rId9", p("Agreement"), [(1, "default")]), body=BODY[:1] + [section_break] + BODY[1:])
    assert shown(revised) == {("header", 0, "default"): ["Schedule 1"], ("header", 1, "default"): ["Agreement"]}
    result = generate_redline_docx(base, revised)
    assert_both_ways(result, base, revised)


def side_stories(data: bytes, accept: bool | None = None) -> list[list[str]]:
    """Every header's and footer's text (empty ones left out), sorted."""
    return sorted(v for k, v in story_texts(resolved(data, accept)).items() if k != "main" and v != [""])


def test_the_corpus_header_with_pictures_is_redlined_in():
    revised = (CORPUS / "folio" / "header-vml-emf.docx").read_bytes()
    base = build_docx("".join(p(b.text) for b in DocxReviewer.from_bytes(revised).snapshot().blocks))
    result = generate_redline_docx(base, revised)
    assert result["unprocessedStories"] == []
    assert side_stories(result["buffer"], True) == side_stories(revised) != []
    assert any("[objects" in t for v in side_stories(result["buffer"], True) for t in v)
    assert side_stories(result["buffer"], False) == []


def test_two_agreements_with_five_and_nine_header_and_footer_parts():
    base = (CORPUS / "contract_commonpaper_pilot_agreement.docx").read_bytes()
    revised = (CORPUS / "contract_commonpaper_csa_with_ai_gdocs.docx").read_bytes()
    result = generate_redline_docx(base, revised)
    assert result["unprocessedStories"] == [] and all(f["story"] == "main" for f in result["fallbacks"])
    assert side_stories(result["buffer"], True) == side_stories(revised)
    assert side_stories(result["buffer"], False) == side_stories(base)


def test_a_section_break_inside_a_content_control_pairs_its_header():
    in_control = ('<w:sdt><w:sdtPr/><w:sdtContent><w:p><w:pPr><w:sectPr><w:pgSz w:w="12240" w:h="15840"/>'
                  '</w:sectPr></w:pPr><w:r><w:t>Cover page.</w:t></w:r></w:p></w:sdtContent></w:sdt>')
    body = [in_control] + BODY
    base = headed(("header", "rId7", p("Cover of 1 May"), [(0, "default")]), body=body)
    revised = headed(("header", "rId12", p("Cover of 2 May"), [(0, "default")]), body=body)
    result = generate_redline_docx(base, revised)
    assert_both_ways(result, base, revised)
    header, = story_xml(result["buffer"], "header")
    assert re.search(rb"<w:delText[^>]*>1</w:delText>", header)
