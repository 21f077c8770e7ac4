"""Tool schemas, the suggest_changes front door and its options, replays across bridges, and the
conformance of the reviewer and editor surfaces (spec §11.1 parse, suggest-changes-options,
operation-replay, operation-conformance, bridges/editor-ref; issue 4 acceptance 2)."""

import copy
import json

import jsonschema
import pytest
from conftest import CORPUS, ROOT
from operation_samples import VALID

from folio_desktop.agents import (
    EditorRefBridge,
    InvalidSuggestChangesOptionsError,
    ReviewQueueBridge,
    SuggestChangesOptions,
    ToolInputError,
    create_editor_ref_bridge,
    create_reviewer_bridge,
    describe_suggest_changes_capabilities,
    execute_tool_call,
    get_tool_definitions,
    parse_add_comment_input,
    parse_suggest_changes_input,
    to_anthropic_tools,
    to_openai_tools,
)
from folio_desktop.agents.definitions import ALLOWED_KEYWORDS
from folio_desktop.docx import DocxReviewer
from folio_desktop.docx.editing.contract import MODES_BY_TYPE, OPERATION_TYPES, SUPPORTED_MODES

FIXTURE = CORPUS / "folio" / "authored-empty-paragraph.docx"
PILOT = CORPUS / "contract_commonpaper_pilot_agreement.docx"
ALL_TYPES = SuggestChangesOptions.create(operation_types=OPERATION_TYPES)


def _keywords(schema, found=None):
    found = set() if found is None else found
    if isinstance(schema, dict):
        for key, value in schema.items():
            found.add(key)
            if key == "properties":
                for sub in value.values():
                    _keywords(sub, found)
            elif key == "items":
                _keywords(value, found)
    return found


@pytest.mark.parametrize("options", [None, ALL_TYPES, SuggestChangesOptions.create(review_meta="required",
                                                                                      document_version="v7")])
def test_schemas_are_valid_and_conservative(options):
    defs = get_tool_definitions(options)
    assert [d["name"] for d in defs][:3] == ["read_document", "get_document_outline", "read_section"]
    for d in defs:
        jsonschema.Draft202012Validator.check_schema(d["inputSchema"])
        jsonschema.Draft7Validator.check_schema(d["inputSchema"])
        assert d["inputSchema"]["type"] == "object" and d["inputSchema"]["additionalProperties"] is False
        assert _keywords(d["inputSchema"]) <= ALLOWED_KEYWORDS, d["name"]
    anthropic = to_anthropic_tools(defs)
    assert set(anthropic[0]) == {"name", "description", "input_schema"}
    openai = to_openai_tools(defs)
    assert openai[0]["type"] == "function" and set(openai[0]["function"]) == {"name", "description", "parameters"}


def _ops_schema(options):
    return next(d for d in get_tool_definitions(options) if d["name"] == "suggest_changes")["inputSchema"]


@pytest.mark.parametrize("op_type", OPERATION_TYPES)
def test_schema_and_parser_in_lockstep(op_type):
    """Every type the schema advertises validates against the schema and passes the parser."""
    schema = _ops_schema(ALL_TYPES)
    assert op_type in schema["properties"]["operations"]["items"]["properties"]["type"]["enum"]
    op = {"type": op_type, **copy.deepcopy(VALID[op_type])}
    if "comment" in op:
        op["comment"] = op["comment"]["text"]  # the tool surface takes a plain string
    if op_type == "formatRange":
        op["formatting"] = {"bold": True}
    jsonschema.validate({"operations": [op]}, schema)
    parsed = parse_suggest_changes_input({"operations": [op]}, ALL_TYPES)
    assert parsed.operations[0]["type"] == op_type


def test_schema_rejects_what_the_parser_rejects():
    schema = _ops_schema(None)
    for bad in ({"operations": []}, {"operations": [{"type": "explode"}]}, {"operations": [{"blockId": "x"}]},
                {"operations": [{"type": "deleteBlock", "blockId": "x", "bogus": 1}]}, {}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, schema)


def test_front_door_ids_decoding_and_normalizations():
    parsed = parse_suggest_changes_input(json.dumps({"operations": json.dumps([
        {"kind": "replaceInBlock", "blockId": "B", "find": "a", "replace": "b", "text": "dropped"},
        json.dumps({"id": "mine", "type": "deleteBlock", "blockId": "C", "comment": "gone"}),
    ]), "extra": True}))
    first, second = parsed.operations
    assert first["id"].startswith("op-") and first["id"].endswith("-1") and len(first["id"]) == len("op--1") + 36
    assert second["id"] == "mine" and second["comment"] == {"text": "gone"}
    assert "text" not in first
    paths = [n["path"] for n in parsed.normalizations]
    assert paths == ["$", "extra", "operations", "operations[0].kind", "operations[0].text", "operations[1]"]
    # ids minted per call are unique across calls
    again = parse_suggest_changes_input({"operations": [{"type": "deleteBlock", "blockId": "C"}]})
    assert again.operations[0]["id"] != first["id"]


@pytest.mark.parametrize("args,message", [
    ({"operations": [{"type": "commentOnBlock", "blockId": "B", "comment": "x"}]},
     "operations[0].type must be one of replaceInBlock, replaceRange, commentOnRange, formatRange, insertAfterBlock, "
     "insertBeforeBlock, replaceBlock, deleteBlock, splitBlock, mergeBlockWithNext, setBlockParagraphProperties, "
     "insertTable, deleteTable, insertTableRow, deleteTableRow, insertTableColumn, deleteTableColumn, "
     "mergeTableCells, splitTableCell."),
    ({"operations": ["x"]}, "operations[0] must be an object."),
    ({"operations": [{"type": "replaceInBlock", "blockId": "B", "find": 3, "replace": "b"}]},
     "operations[0].find: expected a string."),
    ({"operations": [{"type": "insertTableRow", "blockId": "B", "cellTexts": ["x"] * 257}]},
     "operations[0].cellTexts has 257 entries, over the 256-entry limit."),
    ({"operations": [{"type": "deleteBlock", "blockId": "B", "id": ""}]},
     "operations[0].id must be a non-empty string when provided."),
    ({"operations": [{"type": "deleteBlock", "blockId": "B", "precondition": {"blockTextHash": "x"}}]},
     "operations[0].precondition.blockTextHash: expected a normalized block text hash."),
])
def test_front_door_errors(args, message):
    with pytest.raises(ToolInputError) as info:
        parse_suggest_changes_input(args)
    assert str(info.value) == message


def test_options_shape_schema_and_capabilities():
    with pytest.raises(InvalidSuggestChangesOptionsError, match="Invalid suggest_changes option `maxOperations`"):
        SuggestChangesOptions.create(max_operations=201)
    with pytest.raises(InvalidSuggestChangesOptionsError, match="`operationTypes`"):
        SuggestChangesOptions.create(operation_types=[])
    with pytest.raises(InvalidSuggestChangesOptionsError, match="`operationTypes`"):
        SuggestChangesOptions.create(operation_types=["explode"])
    with pytest.raises(InvalidSuggestChangesOptionsError, match="`reviewMeta`"):
        SuggestChangesOptions.create(review_meta="sometimes")
    opts = SuggestChangesOptions.create(operation_types=["deleteBlock", "replaceInBlock", "deleteBlock"],
                                        review_meta="required", max_operations=5, document_version={"current": "v3"})
    assert opts.operation_types == ("replaceInBlock", "deleteBlock")  # contract order, deduplicated
    schema = _ops_schema(opts)
    items = schema["properties"]["operations"]["items"]
    assert items["required"] == ["type", "severity", "area"]
    assert schema["properties"]["operations"]["maxItems"] == 5
    assert schema["properties"]["documentVersion"]["enum"] == ["v3"] and "documentVersion" in schema["required"]
    assert set(items["properties"]) == {"type", "id", "blockId", "severity", "area", "precondition", "find",
                                        "replace", "comment", "moveId"}
    text = describe_suggest_changes_capabilities(opts)
    assert text.splitlines()[0] == ("Supported operations: replaceInBlock (`find` exact text in a block -> "
                                    "`replace`); deleteBlock.")
    assert "cannot change run formatting" in text and "at most 5 operations" in text
    assert "must set `severity`" in text and "documentVersion" in text
    with pytest.raises(ToolInputError, match="severity is required"):
        parse_suggest_changes_input({"operations": [{"type": "deleteBlock", "blockId": "B"}], "documentVersion": "v3"},
                                    opts)
    with pytest.raises(ToolInputError, match="requires `documentVersion`"):
        parse_suggest_changes_input({"operations": [{"type": "deleteBlock", "blockId": "B", "severity": "low",
                                                     "area": "x"}]}, opts)
    default_text = describe_suggest_changes_capabilities()
    assert "Structural edits:" in default_text and "commentOnBlock" not in default_text.splitlines()[0]


def test_readme_mentions_every_non_default_type():
    readme = (ROOT / "README.md").read_text()
    for op_type in ("commentOnBlock", "insertSignatureTable"):
        assert op_type in readme


def test_version_pin_through_the_executor():
    rev = DocxReviewer.open(FIXTURE)
    bridge = create_reviewer_bridge(rev)
    pinned = {"suggest_changes": SuggestChangesOptions.create(document_version=rev.document_version())}
    op = {"type": "replaceInBlock", "blockId": "0304003A", "find": "Heading", "replace": "Intro"}
    result = execute_tool_call("suggest_changes", {"operations": [op], "documentVersion": rev.document_version()},
                               bridge, pinned)
    assert not result["ok"] and "cannot verify `documentVersion`" in result["error"]
    bridge.get_document_version = rev.document_version
    fresh = execute_tool_call("suggest_changes", {"operations": [op], "documentVersion": rev.document_version()},
                              bridge, pinned)
    assert fresh["ok"] and len(fresh["result"]["applied"]) == 1
    stale = execute_tool_call("suggest_changes", {"operations": [dict(op, find="paragraph", replace="para")],
                                                  "documentVersion": pinned["suggest_changes"].document_version},
                              bridge, pinned)
    assert stale["ok"] and stale["result"]["issues"][0]["code"] == "documentVersionMismatch"
    assert stale["result"]["receipts"] == [] and stale["result"]["applied"] == []


# -- replays -------------------------------------------------------------------------------------------


def _op_for(rev, op_type):
    from benchmarks.sample_batches import batch_for

    return batch_for(rev, op_type, "tracked-changes")["operations"][0]


@pytest.mark.parametrize("op_type,mode", [(t, m) for t in OPERATION_TYPES for m in MODES_BY_TYPE[t]
                                          if m in SUPPORTED_MODES])
def test_replay_for_every_type_and_mode(op_type, mode):
    from benchmarks.sample_batches import batch_for, open_for

    rev = open_for(op_type)
    op = dict(batch_for(rev, op_type, mode)["operations"][0], id="replay-me")
    first = rev.apply_document_operations({"version": 1, "mode": mode, "operations": [op]})
    assert [a["id"] for a in first["applied"]] == ["replay-me"], first["skipped"]
    after = rev.to_bytes()
    again = rev.apply_document_operations({"version": 1, "mode": mode, "operations": [op]})
    assert again["replayed"] == [{"id": "replay-me"}] and again["receipts"] == first["receipts"]
    assert rev.to_bytes() == after


def test_session_is_the_document_not_the_bridge():
    rev = DocxReviewer.open(FIXTURE)
    a, b = create_reviewer_bridge(rev), create_reviewer_bridge(rev)
    args = {"operations": [{"id": "same", "type": "replaceInBlock", "blockId": "0304003A", "find": "Heading",
                            "replace": "Intro"}]}
    assert execute_tool_call("suggest_changes", args, a)["result"]["applied"] == [{"id": "same"}]
    assert execute_tool_call("suggest_changes", args, b)["result"]["replayed"] == [{"id": "same"}]
    changed = copy.deepcopy(args)
    changed["operations"][0]["replace"] = "Preface"
    result = execute_tool_call("suggest_changes", changed, b)
    assert not result["ok"] and '"same"' in result["error"]


def test_queue_bridge_enqueues_once():
    rev = DocxReviewer.open(FIXTURE)
    queue = []
    bridge = ReviewQueueBridge(rev, queue)
    args = {"operations": [{"id": "q1", "type": "replaceInBlock", "blockId": "0304003A", "find": "Heading",
                            "replace": "Intro"}]}
    first = execute_tool_call("suggest_changes", args, bridge)["result"]
    assert first["queued"] == [{"id": "q1"}] and first["applied"] == []
    assert queue[0]["precondition"] == {"blockTextHash": "hnoenbg"}  # stamped before queueing
    second = execute_tool_call("suggest_changes", args, ReviewQueueBridge(rev, queue))["result"]
    assert second["replayed"] == [{"id": "q1"}] and len(queue) == 1
    assert rev.get_changes() == []  # nothing applied
    closed = execute_tool_call("suggest_changes", {"operations": [{"type": "deleteBlock", "blockId": "0304003A"}]},
                               ReviewQueueBridge(rev, [], editable=False))["result"]
    assert closed["issues"][0]["code"] == "documentNotEditable"


# -- editor-ref bridge: every degrade rule -------------------------------------------------------------------


class FakeEditor:
    """A minimal live editor over a reviewer: what the desktop view will offer, member by member."""

    def __init__(self, rev, members=()):
        self.rev = rev
        for name in members:
            setattr(self, name, getattr(self, "_" + name))

    def snapshot(self):
        return self.rev.snapshot()

    def _apply_document_operations(self, batch):
        return {k: v for k, v in self.rev.apply_document_operations(batch).items() if k not in ("issues", "receipts")}

    def apply_ai_edit_operations(self, ops):
        result = self.rev.apply_document_operations({"version": 1, "operations": ops})
        return {"applied": [a["id"] for a in result["applied"]], "skipped": result["skipped"]}

    def _get_tracked_changes(self):
        return [c.to_agent_json() for c in self.rev.get_changes()]

    def _get_comment_anchors(self):
        return {c.id: {"blockId": c.block_id, "quote": c.anchored_text} for c in self.rev.all_comments()}

    def _get_selection_text(self):
        return "Heading"

    def _get_page_text(self, page):
        return None

    def _get_total_pages(self):
        return 3

    def _get_target_page(self, target):
        return 1

    def _show_in_document(self, target):
        return target.get("blockId") == "0304003A"


def _editor_bridge(members=(), mounted=True):
    rev = DocxReviewer.open(FIXTURE)
    editor = FakeEditor(rev, members)
    if not mounted:
        editor.snapshot = lambda: None
    state = {"comments": [{"id": 1, "author": "Ann", "text": "Root", "parentId": None},
                          {"id": 2, "author": "Bob", "text": "Reply", "parentId": 1}]}
    bridge = create_editor_ref_bridge(editor, "Lawyer", lambda: state["comments"],
                                      lambda c: state.__setitem__("comments", c))
    return rev, bridge, state


def test_editor_ref_degrades_member_by_member():
    _, bridge, state = _editor_bridge()
    assert isinstance(bridge, EditorRefBridge)
    for name in ("get_selection_text", "get_page_text", "get_target_page", "show_in_document",
                 "undo_document_operations", "get_page_count"):
        assert not hasattr(bridge, name)
    assert execute_tool_call("read_changes", {}, bridge)["result"]["changes"] == []  # no tracked-change support
    threads = execute_tool_call("read_comments", {}, bridge)["result"]["threads"]
    assert threads == [{"id": "1", "author": "Ann", "text": "Root", "resolved": False, "blockId": None, "quote": "",
                        "replies": [{"id": "2", "author": "Bob", "text": "Reply"}]}]
    assert execute_tool_call("reply_comment", {"commentId": "2", "text": "Noted"}, bridge)["ok"]
    assert state["comments"][-1] == {"id": 3, "author": "Lawyer", "text": "Noted", "parentId": 1, "done": False}
    assert execute_tool_call("resolve_comment", {"commentId": "1"}, bridge)["result"] == {"resolved": True}
    assert state["comments"][0]["done"] is True
    # the legacy apply path: dry runs and atomic batches are unsupported, best effort applies
    op = {"id": "e1", "type": "replaceInBlock", "blockId": "0304003A", "find": "Heading", "replace": "Intro"}
    preview = bridge.apply_document_operations({"version": 1, "operations": [op], "dryRun": True})
    assert preview["status"] == "previewed" and preview["skipped"][0]["reason"] == "unsupportedMode"
    atomic = bridge.apply_document_operations({"version": 1, "operations": [op], "atomic": True})
    assert atomic["status"] == "rejected"
    done = bridge.apply_document_operations({"version": 1, "operations": [op]})
    assert done["status"] == "committed" and done["applied"] == [{"id": "e1"}] and done["undoHandle"] is None
    with pytest.raises(ValueError):
        bridge.apply_document_operations({"version": 2, "operations": []})


def test_editor_ref_full_members():
    rev, bridge, _ = _editor_bridge(("apply_document_operations", "get_tracked_changes", "get_comment_anchors",
                                     "get_selection_text", "get_page_text", "get_total_pages", "get_target_page",
                                     "show_in_document"))
    assert execute_tool_call("read_selection", {}, bridge)["result"] == {"text": "Heading"}
    assert execute_tool_call("read_page", {"page": 2}, bridge)["result"] == {"page": 2, "totalPages": 3, "text": ""}
    assert execute_tool_call("read_page", {"page": 4}, bridge)["error"] == \
        "read_page's `page` (4) exceeds the document's page count (3)."
    assert execute_tool_call("show_in_document", {"blockId": "0304003A"}, bridge)["result"] == {"shown": True}
    assert execute_tool_call("show_in_document", {}, bridge)["error"] == \
        "show_in_document requires exactly one of `blockId` or `range`."
    assert execute_tool_call("show_in_document", {"range": {"type": "x"}}, bridge)["error"] == \
        "show_in_document's `range` must be copied from find_text."
    on_page = execute_tool_call("find_text", {"query": "paragraph", "scope": {"type": "page", "page": 1}}, bridge)
    assert on_page["result"]["totalMatches"] == 2
    assert all(m["page"] == 1 for b in on_page["result"]["blocks"] for m in b["matches"])
    assert execute_tool_call("find_text", {"query": "x", "scope": {"type": "page", "page": 9}}, bridge)["error"] == \
        "find_text's page (9) exceeds the document's page count (3)."
    outline_pages = execute_tool_call("get_document_outline", {}, bridge)["result"]
    assert outline_pages["sections"] == []  # the fixture has no headings
    result = bridge.apply_document_operations({"version": 1, "operations": [
        {"id": "e2", "type": "replaceInBlock", "blockId": "0304003A", "find": "Heading", "replace": "Intro"}]})
    assert result["issues"] == [] and result["receipts"] == [] and result["undoHandle"] is not None


def test_editor_ref_not_mounted():
    _, bridge, _ = _editor_bridge(mounted=False)
    assert execute_tool_call("read_document", {}, bridge)["error"] == \
        "The editor view is not mounted; no snapshot is available yet."


def test_conformance_reviewer_and_editor_surfaces_agree():
    batch_ops = [{"id": "c1", "type": "replaceInBlock", "blockId": "0304003A", "find": "Heading", "replace": "Intro"},
                 {"id": "c2", "type": "insertAfterBlock", "blockId": "32560014", "text": "Closing paragraph."},
                 {"id": "c3", "type": "deleteBlock", "blockId": "MISSING0"}]
    rev_a = DocxReviewer.open(FIXTURE)
    a = execute_tool_call("suggest_changes", {"operations": copy.deepcopy(batch_ops)}, create_reviewer_bridge(rev_a))
    rev_b, bridge_b, _ = _editor_bridge(("apply_document_operations",))
    b = execute_tool_call("suggest_changes", {"operations": copy.deepcopy(batch_ops)}, bridge_b)
    assert a["result"]["applied"] == b["result"]["applied"]
    assert [s["reason"] for s in a["result"]["skipped"]] == [s["reason"] for s in b["result"]["skipped"]]
    saved_a = DocxReviewer.from_bytes(rev_a.to_bytes())
    saved_b = DocxReviewer.from_bytes(rev_b.to_bytes())
    import re

    def redline(rev):  # new paragraphs get fresh random ids on each surface; compare the marked-up text
        return re.sub(r"^\[[^\]]+\] ", "", rev.get_content_as_text(annotated=True), flags=re.M)

    assert redline(saved_a) == redline(saved_b)
    # a dry run through either surface mutates nothing
    rev_c = DocxReviewer.open(FIXTURE)
    before = rev_c.to_bytes()
    preview = create_reviewer_bridge(rev_c).apply_document_operations(
        {"version": 1, "operations": batch_ops[:1], "dryRun": True})
    assert preview["status"] == "previewed" and rev_c.to_bytes() == before


def test_add_comment_ids_are_unique():
    first = parse_add_comment_input({"blockId": "B", "text": "x"})
    second = parse_add_comment_input({"blockId": "B", "text": "x"})
    assert first["id"] != second["id"] and first["id"].startswith("comment-")
    rev = DocxReviewer.open(PILOT)
    bridge = create_reviewer_bridge(rev)
    block = rev.snapshot().content_blocks[2]
    for text in ("One", "Two"):
        assert execute_tool_call("add_comment", {"blockId": block.id, "text": text}, bridge)["result"]["applied"]
    assert [c.text for c in rev.get_comments()] == ["One", "Two"]


# -- the contract's JSON Schema and validate() -------------------------------------------------------


def _batch(op):
    return {"version": 1, "operations": [op]}


def test_batch_schema_and_parser_agree():
    from folio_desktop.agents import DOCUMENT_OPERATION_BATCH_JSON_SCHEMA, validate_operation_batch
    from folio_desktop.docx.editing.contract import REQUIRED

    validator = jsonschema.Draft202012Validator(DOCUMENT_OPERATION_BATCH_JSON_SCHEMA)
    validator.check_schema(DOCUMENT_OPERATION_BATCH_JSON_SCHEMA)
    for op_type in OPERATION_TYPES:
        good = _batch({"type": op_type, **copy.deepcopy(VALID[op_type])})
        assert not list(validator.iter_errors(good)), op_type
        assert "value" in validate_operation_batch(good)
        required = ["range" if op_type in ("replaceRange", "commentOnRange", "formatRange") else "blockId",
                    *REQUIRED.get(op_type, ())]
        for key in required:  # each missing required field is refused by both
            bad = copy.deepcopy(good)
            del bad["operations"][0][key]
            assert list(validator.iter_errors(bad)), (op_type, key)
            issues = validate_operation_batch(bad)["issues"]
            assert issues[0]["path"][:2] == ["operations", 0]
    for bad, path in ((dict(_batch({"type": "deleteBlock", "blockId": "B"}), version=2), ["version"]),
                      (_batch({"type": "explode", "blockId": "B"}), ["operations", 0, "type"]),
                      (_batch({"type": "deleteBlock", "blockId": "B", "extra": 1}), ["operations", 0, "extra"]),
                      (dict(_batch({"type": "deleteBlock", "blockId": "B"}), extra=1), ["extra"])):
        assert list(validator.iter_errors(bad))
        assert validate_operation_batch(bad)["issues"][0]["path"] == path
    for junk in (None, 3, "x", [], {"version": 1}, {"version": 1, "operations": [None]}):
        result = validate_operation_batch(junk)
        assert "issues" in result and result["issues"][0]["message"]
