"""The tool definitions with their JSON Schemas: the reference's 16 (spec §1.1, §2, §4.2), then
check_document, this project's own (agents/check_tool.py).

Schemas stay inside a conservative subset that every function-calling model accepts: object,
properties, required, enum, additionalProperties false, plain arrays, and numeric and length bounds.
"""

from __future__ import annotations

from ..docx.editing.contract import KEYS_BY_TYPE, PARAGRAPH_PROPERTY_KEYS
from .paging import PAGED_WORDS
from .projection import FIELD_WORDS, UNTRUSTED_WORDS, VIEWS
from .suggest_options import coerce_options, describe_suggest_changes_capabilities

TOOL_NAMES = (
    "read_document", "get_document_outline", "read_section", "list_stories", "read_story", "find_text",
    "read_comments", "read_changes", "add_comment", "suggest_changes", "reply_comment", "resolve_comment",
    "read_page", "read_selection", "scroll_to_block", "show_in_document",
    "check_document",  # folio-desktop's own, beyond the reference's 16
)
ALLOWED_KEYWORDS = frozenset({"type", "properties", "required", "enum", "additionalProperties", "items", "minimum",
                              "maximum", "minLength", "pattern", "minItems", "maxItems", "minProperties",
                              "description"})


def _obj(properties: dict, required=(), description: str | None = None) -> dict:
    out = {"type": "object", "properties": properties}
    if required:  # an empty `required` is JSON Schema's default: left out, as every byte is sent each request
        out["required"] = list(required)
    out["additionalProperties"] = False
    if description:
        out["description"] = description
    return out


def _str(description: str | None = None, min_length: int | None = None, pattern: str | None = None) -> dict:
    # descriptions only where a name does not say it all: every request carries these schemas
    out = {"type": "string", "description": description} if description else {"type": "string"}
    if min_length is not None:
        out["minLength"] = min_length
    if pattern:
        out["pattern"] = pattern
    return out


def _int(description: str | None = None, minimum=None, maximum=None) -> dict:
    out = {"type": "integer", "description": description} if description else {"type": "integer"}
    if minimum is not None:
        out["minimum"] = minimum
    if maximum is not None:
        out["maximum"] = maximum
    return out


def _bool(description: str | None = None) -> dict:
    return {"type": "boolean", "description": description} if description else {"type": "boolean"}


def _enum(*values: str) -> dict:
    return {"type": "string", "enum": list(values)}


def _copied(source: str) -> dict:
    """A handle the model copies whole from another tool's result (the tools check it, and say what is wrong)."""
    return {"type": "object", "description": f"copy it whole from {source}"}


SECTION_HANDLE = _copied("get_document_outline")
STORY_HANDLE = _copied("list_stories")
TEXT_RANGE = _copied("find_text (a match's range)")
SCOPED_HANDLE = _copied("get_document_outline (section) or list_stories (story)")
PRECONDITION = {"type": "object", "description": "{blockTextHash}"}
_ALIGN = _enum("left", "center", "right", "both", "justify", "start", "end", "distribute")
_PROPERTIES = ("{styleId, alignment, listLevel, outlineLevel 0-9, spacing, indentation, numbering}; the same shape for "
               "first/second/mergedParagraphProperties")

# every operation property the model may send, by contract key; the contract's full shapes of the nested
# objects are in batch_schema.py (for hosts): the model reads their keys here and the parser says what is wrong
_OP_PROPERTIES = {
    "id": _str("echoed in the result"),
    "blockId": _str(),
    "severity": _enum("low", "medium", "high"),
    "area": _str("e.g. Liability"),
    "precondition": PRECONDITION,
    "range": TEXT_RANGE,
    "find": _str("exact text in the block", 1),
    "replace": _str(),
    "comment": _str("the reason, attached as a comment"),
    "formatting": {"type": "object", "description": "{bold, italic, underline}: true or false"},
    "text": _str("the paragraph's text"),
    "inheritFormatting": _bool("default true"),
    "alignment": _ALIGN,
    "spacing": {"type": "object", "description": "twips: {spaceBefore, spaceAfter, lineSpacing (240 = single), "
                                                 "lineSpacingRule auto|exact|atLeast, before/afterAutospacing}"},
    "listLevel": _int(None, 0, 8),
    "moveId": _str("pairs a deleteBlock and an insert as a move"),
    "pageBreakBefore": _bool(),
    "styleId": _str(),
    "lineBreakMode": _enum("paragraph", "inline"),
    "formattingScope": _enum("firstParagraph", "allParagraphs"),
    "hardPageBreak": {"type": "object", "description": "a page break before the text: {clear: none|left|right|all}"},
    "indentation": {"type": "object", "description": "twips: {left, right, firstLine, hanging}"},
    "numbering": {"type": ["object", "string"], "description": "\"inherit\" | \"none\" | {kind: inherit|none|"
                  "levelOnly|reference|newList, ilvl 0-8, numId, format: numbered|bullet, level 0-8 (newList)}"},
    "preserveFormatting": _bool("default true"),
    "offset": _int("UTF-16 units", 0),
    "separator": _str("text at the split or join point"),
    "firstParagraphProperties": {"type": "object"},  # these three: as `properties` (its description says so)
    "secondParagraphProperties": {"type": "object"},
    "mergedParagraphProperties": {"type": "object"},
    "properties": {"type": "object", "description": _PROPERTIES, "minProperties": 1},  # said once, here
    "position": _enum("after", "before"),
    "rows": {"type": "array", "items": {"type": "array", "items": {"type": "string"}}, "description": "cell texts"},
    "quote": _str("text within the block to anchor the comment on", 1),
    "parties": {"type": "array", "items": {"type": "object", "description": "{name, signatory, title}"}},
    "cellTexts": {"type": "array", "maxItems": 256, "items": {"type": "string"}},
    "endBlockId": _str("the last cell to merge"),
    "rowCount": _int(None, 2),
}

_SUGGEST_DESCRIPTION = (
    "Propose edits: each lands as a tracked change (or comment) for the lawyer to accept or reject, never applied "
    "directly. Copy block ids and ranges from read_document, read_section or find_text, and set "
    "precondition.blockTextHash to the block's blockTextHash so an edit never lands on text changed since. On a "
    "skip, re-read and retry with fresh ids."
)


def _suggest_changes_schema(opts) -> dict:
    keys: list[str] = []
    for t in opts.operation_types:
        for key in KEYS_BY_TYPE[t]:
            if key not in ("type", "suggestionId") and key not in keys:
                keys.append(key)
    # what each type does is said once, in the tool description's capability text
    item_props = {"type": _enum(*opts.operation_types)}
    item_props.update({k: _OP_PROPERTIES[k] for k in keys})
    required = ["type", "severity", "area"] if opts.review_meta == "required" else ["type"]
    props = {"operations": {"type": "array", "minItems": 1, "maxItems": opts.max_operations,
                            "items": _obj(item_props, required)}}
    top_required = ["operations"]
    if opts.document_version is not None:
        props["documentVersion"] = {"type": "string", "enum": [opts.document_version],
                                    "description": "copy this document version exactly"}
        top_required.append("documentVersion")
    return _obj(props, top_required)


def get_tool_definitions(options=None) -> list[dict]:
    """[{name, description, inputSchema}] for every tool (suggest_changes shaped by the options)."""
    opts = coerce_options(options)
    after = _str()  # the paging cursor: read_document's description says how, once
    max_blocks = _int("default 100", 1, 200)
    view = _enum(*VIEWS)
    offset = _int()
    defs = [
        ("read_document", "Read the main text as blocks, in order. " + PAGED_WORDS + " For a long contract start "
         "from get_document_outline and read_section. " + FIELD_WORDS + " " + UNTRUSTED_WORDS,
         _obj({"afterBlockId": after, "maxBlocks": max_blocks, "view": view})),
        ("get_document_outline", "The headings, each with a handle for read_section and find_text, headingBlockId, "
         "clause number and title (first words and … for a clause styled as a heading); levels 1-3, fewer if they "
         "would not fit (see note).",
         _obj({"maxDepth": _int("deepest level (default 3)", 1, 9), "afterBlockId": after})),
        ("read_section", "Read one section: its heading and the blocks under it, as read_document gives them.",
         _obj({"handle": SECTION_HANDLE, "maxBlocks": max_blocks, "afterBlockId": after, "view": view}, ["handle"])),
        ("list_stories", "The stories (main, headers, footers, notes): handles for read_story and "
         "find_text, size, preview.", _obj({"offset": offset})),
        ("read_story", "Read one story: the main text as `[blockId] text` lines, a header, footer or note as one "
         "line.", _obj({"handle": STORY_HANDLE, "afterBlockId": after, "maxBlocks": max_blocks}, ["handle"])),
        ("find_text", "Find literal text (not a pattern) in the document, a section, a page or a story. Matches are "
         "grouped by block (blockId, displayLabel, blockTextHash), each a range to edit with its context.",
         _obj({"query": _str("1 to 1,000 characters", 1), "matchCase": _bool(), "wholeWord": _bool(),
               "scope": _obj({"type": _enum("document", "section", "page", "story"), "handle": SCOPED_HANDLE,
                              "page": _int(None, 1)}, ["type"]),
               "maxMatches": _int("default 20", 1, 200), "offset": offset}, ["query"])),
        ("read_comments", "The comment threads with replies; a long quote is cut (quoteLength: its length).",
         _obj({"filter": _enum("all", "open", "resolved"), "offset": offset})),
        ("read_changes", "The pending tracked changes; a long text is cut (textLength: its length); a move is "
         "one change of type moved, with from and to.",
         _obj({"offset": offset})),
        ("add_comment", "Comment on a block, or on quoted text within it.",
         _obj({"blockId": _str(), "text": _str(None, 1), "quote": _str("exact text within the block", 1),
               "precondition": PRECONDITION}, ["blockId", "text"])),
        ("suggest_changes", _SUGGEST_DESCRIPTION + "\n" + describe_suggest_changes_capabilities(opts),
         _suggest_changes_schema(opts)),
        ("reply_comment", "Reply in a comment thread.",
         _obj({"commentId": _str("from read_comments"), "text": _str(None, 1)}, ["commentId", "text"])),
        ("resolve_comment", "Resolve or reopen a comment thread, at once (no tracked change): only threads you "
         "wrote or the lawyer asked you to; others are refused.",
         _obj({"commentId": _str("from read_comments"), "reopen": _bool()}, ["commentId"])),
        ("read_page", "Read one rendered page (live view).",
         _obj({"page": {"type": "number", "minimum": 1}}, ["page"])),
        ("read_selection", "Read the lawyer's selection (live view).", _obj({})),
        ("scroll_to_block", "Select a block and scroll to it (live view).", _obj({"blockId": _str()}, ["blockId"])),
        ("show_in_document", "Show the lawyer a block or a range (live view).",
         _obj({"blockId": _str(), "range": TEXT_RANGE})),
        ("check_document", "folio-desktop's own: undefined or unused terms, broken references, blanks, "
         "numbering, parties; by clause.",
         _obj({"offset": offset})),
    ]
    return [{"name": n, "description": d, "inputSchema": s} for n, d, s in defs]


def to_anthropic_tools(definitions: list[dict]) -> list[dict]:
    return [{"name": d["name"], "description": d["description"], "input_schema": d["inputSchema"]} for d in definitions]


def to_openai_tools(definitions: list[dict]) -> list[dict]:
    return [{"type": "function", "function": {"name": d["name"], "description": d["description"],
                                              "parameters": d["inputSchema"]}} for d in definitions]


__all__ = ["ALLOWED_KEYWORDS", "PARAGRAPH_PROPERTY_KEYS", "TOOL_NAMES", "get_tool_definitions",
           "to_anthropic_tools", "to_openai_tools"]
