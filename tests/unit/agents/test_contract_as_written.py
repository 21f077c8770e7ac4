"""The reference's own request forms: bare numbering states, a new list's level, and a batch pinned to
the host's document version through the reviewer bridge (spec §5.7, §4.5, §8.2)."""

import pytest
from conftest import CORPUS, err, ok

from folio_desktop.agents import create_reviewer_bridge, execute_tool_call
from folio_desktop.docx import DocxReviewer
from folio_desktop.docx.editing.contract import InvalidDocumentOperationBatchError, parse_batch

NVCA = CORPUS / "contract_nvca_stock_purchase_agreement_27p.docx"
PILOT = CORPUS / "contract_commonpaper_pilot_agreement.docx"  # its clauses state their list (numId 23)
W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


def numbered_block(rev):
    """A body paragraph that states its own list membership."""
    return next(b for b in rev.snapshot().content_blocks
                if (b.stated_numbering or {}).get("kind") == "reference")


def suggest(bridge, *operations, **extra):
    return execute_tool_call("suggest_changes", {"operations": list(operations), **extra}, bridge, **(
        {"options": {"documentVersion": {"current": extra["documentVersion"]}}} if "documentVersion" in extra else {}))


@pytest.mark.parametrize("state", ["none", "inherit"])
def test_bare_numbering_state_applies_as_its_object_form(state):
    results = []
    for request in (state, {"kind": state}):
        rev = DocxReviewer.open(PILOT)
        target = numbered_block(rev)
        applied = ok(suggest(create_reviewer_bridge(rev), {"type": "setBlockParagraphProperties", "blockId": target.id,
                                                           "properties": {"numbering": request}}))
        assert applied["skipped"] == [] and len(applied["applied"]) == 1
        block = rev.snapshot().block(target.id)
        numpr = block.element.find(f"{W}pPr/{W}numPr")
        results.append((block.stated_numbering, block.to_json().get("listReference"),
                        None if numpr is None else [(c.tag, dict(c.attrib)) for c in numpr]))
    assert results[0] == results[1]
    stated, reference, numpr = results[0]
    if state == "none":  # numId 0 cancels the list: the clause is in no list
        assert stated == {"kind": "none"} and reference is None and len(numpr) == 1
    else:  # no numPr of its own: numbering, if any, from the style
        assert stated == {"kind": "inherit"} and numpr is None


def test_bare_numbering_state_on_an_insert():
    rev = DocxReviewer.open(PILOT)
    target = numbered_block(rev)
    applied = ok(suggest(create_reviewer_bridge(rev),
                         {"type": "insertAfterBlock", "blockId": target.id, "text": "Not a numbered clause.",
                          "numbering": "none"}))
    assert applied["skipped"] == []
    inserted = next(b for b in rev.snapshot().blocks if b.text == "Not a numbered clause.")
    assert inserted.stated_numbering == {"kind": "none"} and "listReference" not in inserted.to_json()
    assert target.to_json()["listReference"]["numId"] == 23  # the clause it follows is in a list


def test_new_list_takes_the_level_asked_for():
    rev = DocxReviewer.open(NVCA)
    target = rev.snapshot().content_blocks[4]
    applied = ok(suggest(create_reviewer_bridge(rev),
                         {"type": "insertAfterBlock", "blockId": target.id, "text": "Top item",
                          "numbering": {"kind": "newList", "format": "numbered"}},
                         {"type": "insertAfterBlock", "blockId": target.id, "text": "Sub item",
                          "numbering": {"kind": "newList", "format": "numbered", "level": 2}}))
    assert applied["skipped"] == []
    sub = next(b for b in rev.snapshot().blocks if b.text == "Sub item")
    assert sub.to_json()["listReference"]["level"] == 2
    assert sub.display_label == "i."  # the minted list's third level counts in lower roman


def test_parsed_batch_hands_the_engine_one_numbering_shape():
    parsed = parse_batch({"version": 1, "operations": [
        {"type": "insertAfterBlock", "blockId": "b", "text": "x", "numbering": {"kind": "newList", "format": "bullet",
                                                                              "level": 3}},
        {"type": "setBlockParagraphProperties", "blockId": "b", "properties": {"numbering": "none"}},
        {"type": "splitBlock", "blockId": "b", "offset": 1, "secondParagraphProperties": {"numbering": "inherit"}}]})
    ops = parsed["operations"]
    assert ops[0]["numbering"] == {"kind": "newList", "format": "bullet", "ilvl": 3}
    assert ops[1]["properties"]["numbering"] == {"kind": "none"}
    assert ops[2]["secondParagraphProperties"]["numbering"] == {"kind": "inherit"}


@pytest.mark.parametrize("numbering, path, reason", [
    ("restart", "$.operations[0].numbering", 'expected "inherit", "none", or an object'),
    ({"kind": "newList", "format": "numbered", "level": 9}, "$.operations[0].numbering.level",
     "expected a list level from 0 to 8"),
    ({"kind": "newList", "format": "numbered", "level": True}, "$.operations[0].numbering.level",
     "expected a list level from 0 to 8"),
    ({"kind": "newList", "format": "numbered", "level": 1, "ilvl": 1}, "$.operations[0].numbering",
     "expected at most one of ilvl or level"),
    ({"kind": "levelOnly", "level": 1}, "$.operations[0].numbering.level", "unexpected property"),
])
def test_numbering_forms_still_refused(numbering, path, reason):
    with pytest.raises(InvalidDocumentOperationBatchError) as caught:
        parse_batch({"version": 1, "operations": [
            {"type": "insertAfterBlock", "blockId": "b", "text": "x", "numbering": numbering}]})
    assert (caught.value.path, caught.value.reason) == (path, reason)


class Host:
    """A host that hands out version tokens of its own (not the engine's)."""

    def __init__(self, rev):
        self.rev = rev
        self.edits = 0

    def version(self):
        return f"host-rev-{self.edits}"


def test_pin_to_the_hosts_version_applies_and_a_stale_one_is_skipped():
    rev = DocxReviewer.open(NVCA)
    host = Host(rev)
    bridge = create_reviewer_bridge(rev, document_version=host.version)
    blocks = rev.snapshot().content_blocks
    pin = host.version()
    assert pin != rev.document_version()  # the engine's own token is another one
    first = ok(suggest(bridge, {"type": "insertAfterBlock", "blockId": blocks[3].id, "text": "Pinned clause."},
                       documentVersion=pin))
    assert first["skipped"] == [] and len(first["applied"]) == 1
    assert any(b.text == "Pinned clause." for b in rev.snapshot().blocks)
    host.edits += 1  # another edit: the host's token moves on
    stale = ok(suggest(bridge, {"type": "insertAfterBlock", "blockId": blocks[5].id, "text": "Stale clause."},
                       documentVersion=pin))
    assert stale["applied"] == [] and [i["code"] for i in stale["issues"]] == ["documentVersionMismatch"]
    assert not any(b.text == "Stale clause." for b in rev.snapshot().blocks)
    fresh = ok(suggest(bridge, {"type": "insertAfterBlock", "blockId": blocks[5].id, "text": "Fresh clause."},
                       documentVersion=host.version()))
    assert fresh["skipped"] == [] and any(b.text == "Fresh clause." for b in rev.snapshot().blocks)


def test_host_pinned_batch_sent_straight_to_the_bridge_is_checked_against_the_host():
    rev = DocxReviewer.open(NVCA)
    host = Host(rev)
    bridge = create_reviewer_bridge(rev, document_version=host.version)
    block = rev.snapshot().content_blocks[3]
    batch = {"version": 1, "precondition": {"documentVersion": "host-rev-0"},
             "operations": [{"id": "a", "type": "commentOnBlock", "blockId": block.id, "comment": {"text": "ok"}}]}
    assert [a["id"] for a in bridge.apply_document_operations(batch)["applied"]] == ["a"]
    host.edits += 1
    again = dict(batch, operations=[dict(batch["operations"][0], id="b")])
    result = bridge.apply_document_operations(again)
    assert result["applied"] == [] and result["skipped"][0]["reason"] == "documentVersionMismatch"
    assert "host-rev-1" in result["skipped"][0]["message"]


def test_without_a_host_version_a_pin_is_still_refused():
    rev = DocxReviewer.open(NVCA)
    bridge = create_reviewer_bridge(rev)
    block = rev.snapshot().content_blocks[3]
    assert err(suggest(bridge, {"type": "insertAfterBlock", "blockId": block.id, "text": "x"},
                       documentVersion="anything")) == (
        "This editor surface cannot verify `documentVersion`; it has no document version to compare against.")


def test_host_batch_schema_takes_the_same_numbering_forms_as_the_parser():
    import jsonschema

    from folio_desktop.agents import DOCUMENT_OPERATION_BATCH_JSON_SCHEMA, validate_operation_batch

    validator = jsonschema.Draft202012Validator(DOCUMENT_OPERATION_BATCH_JSON_SCHEMA)
    for numbering, good in (("none", True), ("inherit", True), ("restart", False),
                            ({"kind": "newList", "format": "bullet", "level": 2}, True),
                            ({"kind": "newList", "format": "bullet", "level": 9}, False)):
        batch = {"version": 1, "operations": [{"type": "insertAfterBlock", "blockId": "b", "text": "x",
                                               "numbering": numbering}]}
        assert (not list(validator.iter_errors(batch))) is good, numbering
        assert ("value" in validate_operation_batch(batch)) is good, numbering
