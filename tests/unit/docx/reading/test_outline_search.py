"""Stories, outline and section handles, and find_text semantics (spec §2.2-2.6, §6)."""

import pytest
from conftest import CORPUS
from docbuilder import build_docx, p

from folio_desktop.docx import DocxReviewer
from folio_desktop.docx.model.textkit import text_hash, utf16_slice
from folio_desktop.docx.reading.outline import decode_section_handle
from folio_desktop.docx.reading.search import MAX_MATCHES

HEADINGS = (
    '<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style>'
    '<w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/></w:style>'
)


def _doc(body: str) -> DocxReviewer:
    return DocxReviewer.from_bytes(build_docx(body, styles=HEADINGS))


H1 = '<w:pStyle w:val="Heading1"/>'
H2 = '<w:pStyle w:val="Heading2"/>'
OUTLINE_BODY = "".join([
    p("Definitions", "00000001", H1),
    p("Affiliate means any entity.", "00000002"),
    p("Scope", "00000003", H2),
    p("The scope is narrow.", "00000004"),
    p("", "00000005"),
    p("Payment", "00000006", H1),
    p("Fees are due in 30 days.", "00000007"),
])


def test_outline_parents_and_section_blocks():
    rev = _doc(OUTLINE_BODY)
    entries = [e.to_json() for e in rev.outline()]
    assert [(e["text"], e["level"]) for e in entries] == [("Definitions", 1), ("Scope", 2), ("Payment", 1)]
    assert "parentHandle" not in entries[0]
    assert entries[1]["parentHandle"] == entries[0]["handle"]
    handle = entries[0]["handle"]
    assert handle == {"type": "headingSection", "story": "main", "headingBlockId": "00000001",
                      "headingTextHash": text_hash("Definitions"), "headingLevel": 1}
    found = rev.resolve_section(handle)
    assert found.status == "found"
    assert [b.id for b in found.blocks] == ["00000001", "00000002", "00000003", "00000004", "00000005"]


def test_section_handles_go_stale_or_missing():
    rev = _doc(OUTLINE_BODY)
    handle = rev.outline()[0].handle()
    renamed = _doc(OUTLINE_BODY.replace(">Definitions<", ">Interpretation<"))
    assert renamed.resolve_section(handle).status == "stale"
    relevelled = _doc(OUTLINE_BODY.replace(H1, H2, 1))
    assert relevelled.resolve_section(handle).status == "stale"
    gone = _doc(OUTLINE_BODY.replace(p("Definitions", "00000001", H1), ""))
    assert gone.resolve_section(handle).status == "missing"
    # the decoder is strict
    for bad in (
        {**handle, "type": "section"}, {**handle, "story": "header"}, {**handle, "headingBlockId": ""},
        {**handle, "headingTextHash": "Hxyz"}, {**handle, "headingLevel": 10}, {**handle, "headingLevel": True},
        "not a handle",
    ):
        assert decode_section_handle(bad) is None


def test_find_text_semantics():
    body = "".join([
        p("The Supplier shall supply. SUPPLIER obligations.", "00000001"),
        p("Party 🧑 agrees to supply_chain terms (supply).", "00000002"),
        p("a+b (c) [d] literal.", "00000003"),
    ])
    rev = _doc(body)
    res = rev.find_text("supplier").to_json()
    assert res["totalMatches"] == 2 and not res["truncated"]
    assert [m["occurrenceInBlock"] for m in res["matches"]] == [0, 1]
    first = res["matches"][0]
    assert first["type"] == "main" and first["story"] == {"type": "main"} and first["blockId"] == "00000001"
    rng = first["range"]
    assert (rng["startOffset"], rng["endOffset"]) == (4, 12)
    assert rng["selectedTextHash"] == text_hash("Supplier")
    assert rev.find_text("supplier", match_case=True).total == 0
    assert rev.find_text("Supplier", match_case=True).total == 1
    # whole words: "supply" inside "supply_chain" is not a whole word, "(supply)" is
    whole = rev.find_text("supply", whole_word=True).to_json()["matches"]
    assert [(m["blockId"], m["range"]["startOffset"]) for m in whole] == [("00000001", 19), ("00000002", 39)]
    # offsets are UTF-16 units: the emoji counts twice
    agrees = rev.find_text("agrees").matches[0]["range"]
    block = rev.snapshot().block("00000002")
    assert agrees["startOffset"] == 9 and utf16_slice(block.text, 9, 15) == "agrees"
    # the query is a literal, never a pattern
    assert rev.find_text("(c) [d]").total == 1 and rev.find_text("a+b").total == 1 and rev.find_text(".").total == 4


def test_find_text_context_and_truncation():
    long_text = "x" * 100 + " needle " + "y" * 100
    rev = _doc(p(long_text, "00000001") + "".join(p("needle", f"1{i:07d}") for i in range(MAX_MATCHES + 20)))
    res = rev.find_text("needle").to_json()
    assert res["totalMatches"] == MAX_MATCHES + 21 and res["truncated"] and len(res["matches"]) == MAX_MATCHES
    assert res["matches"][0]["context"] == "x" * 39 + " needle " + "y" * 39


def test_find_text_section_and_story_scopes():
    rev = DocxReviewer.open(CORPUS / "contract_nvca_stock_purchase_agreement_27p.docx")
    outline = rev.outline()
    assert len(outline) > 10
    section = next(e for e in outline if "Representations" in e.block.text)
    scoped = rev.find_text("Company", scope={"type": "section", "handle": section.handle()})
    whole = rev.find_text("Company")
    assert 0 < scoped.total < whole.total
    section_ids = {b.id for b in rev.resolve_section(section.handle()).blocks}
    assert all(m["blockId"] in section_ids for m in scoped.matches)
    with pytest.raises(LookupError, match="stale or missing"):
        rev.find_text("Company", scope={"type": "section", "handle": {**section.handle(), "headingTextHash": "h1"}})
    # footnotes are stories of their own; their matches carry offsets into the story text
    stories = rev.list_stories()
    note = next(s for s in stories if s["handle"]["type"] == "footnote" and "Company" in s["text"])
    res = rev.find_text("Company", scope={"type": "story", "handle": note["handle"]}).to_json()
    assert res["totalMatches"] >= 1
    match = res["matches"][0]
    assert match["type"] == "story" and match["story"] == note["handle"]
    assert note["text"][match["startOffset"]:match["endOffset"]].lower() == "company"
    with pytest.raises(LookupError, match="list_stories"):
        rev.find_text("x", scope={"type": "story", "handle": {"type": "footnote", "noteId": 99999}})


def test_stories_list_and_read():
    rev = DocxReviewer.open(CORPUS / "contract_ilpa_model_lpa_whole_of_fund_75p.docx")
    stories = rev.list_stories()
    kinds = [s["handle"]["type"] for s in stories]
    assert kinds[0] == "main"
    # order: main, headers, footers, footnotes, endnotes
    order = {"main": 0, "header": 1, "footer": 2, "footnote": 3, "endnote": 4}
    assert [order[k] for k in kinds] == sorted(order[k] for k in kinds)
    assert kinds.count("footnote") == 23
    main_lines = stories[0]["text"].splitlines()
    first_block = rev.snapshot().content_blocks[0]
    assert main_lines[0].startswith(f"[{first_block.id}]")
    for story in stories[1:]:
        assert "\n" not in story["text"] and story["text"] == story["text"].strip()
        assert rev.read_story(story["handle"]) == story
    assert rev.read_story({"type": "header", "relationshipId": "rId999"}) is None
    assert rev.read_story({"type": "footnote", "noteId": True}) is None
    # separator notes are never stories
    note_ids = [s["handle"]["noteId"] for s in stories if s["handle"]["type"] == "footnote"]
    assert -1 not in note_ids and 0 not in note_ids


def test_notes_as_text_lines():
    rev = DocxReviewer.open(CORPUS / "openxmlsdk_comment042_tracked_pPr_rPr_changes_notes.docx")
    lines = rev.get_notes_as_text().splitlines()
    assert any(line.startswith("[footnote #") for line in lines)
    assert any(line.startswith("[endnote #") for line in lines)
    assert any(line.startswith("[header ") for line in lines)


def test_numbering_definitions_listing():
    rev = DocxReviewer.open(CORPUS / "contract_msdn_eula_legal_numbering.docx")
    defs = rev.read_numbering_definitions()
    assert defs == sorted(defs, key=lambda d: (d["numId"], d["level"]))
    first = next(d for d in defs if d["numId"] == 1 and d["level"] == 1)
    assert first == {"numId": 1, "level": 1, "format": "lowerLetter", "levelText": "%2."}
