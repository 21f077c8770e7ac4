"""The document-operation contract, version 1 (spec §3.1-3.4): types, keys, modes, the strict parser.

The parser is strict on purpose: a model or a host that sends a misspelt key learns it at once, with
the exact path, instead of having the key silently ignored.
"""

from __future__ import annotations

import copy
import re
from typing import Any

CONTRACT_VERSION = 1

OPERATION_TYPES = (
    "replaceInBlock", "replaceRange", "commentOnRange", "formatRange", "insertAfterBlock", "insertBeforeBlock",
    "replaceBlock", "deleteBlock", "splitBlock", "mergeBlockWithNext", "setBlockParagraphProperties",
    "insertTable", "deleteTable", "commentOnBlock", "insertSignatureTable", "insertTableRow", "deleteTableRow",
    "insertTableColumn", "deleteTableColumn", "mergeTableCells", "splitTableCell",
)

MODES = ("direct", "tracked-changes", "suggested")
_ALL_MODES = MODES
_DIRECT_TRACKED = ("direct", "tracked-changes")
MODES_BY_TYPE: dict[str, tuple[str, ...]] = {
    **{t: _ALL_MODES for t in (
        "replaceInBlock", "replaceRange", "formatRange", "insertAfterBlock", "insertBeforeBlock", "replaceBlock",
        "deleteBlock", "insertTableRow", "deleteTableRow", "insertTableColumn", "deleteTableColumn")},
    **{t: _DIRECT_TRACKED for t in (
        "commentOnRange", "commentOnBlock", "splitBlock", "mergeBlockWithNext", "setBlockParagraphProperties",
        "insertTable", "deleteTable", "mergeTableCells", "splitTableCell")},
    "insertSignatureTable": ("direct", "suggested"),
}
# What this engine writes: `suggested` (web-editor provenance marks) is reported unsupportedMode.
SUPPORTED_MODES = ("direct", "tracked-changes")

_COMMON = ("id", "type", "blockId", "severity", "area", "precondition", "suggestionId")
_RANGE = ("id", "type", "range", "severity", "area", "precondition")
_INSERT = ("text", "inheritFormatting", "alignment", "spacing", "listLevel", "moveId", "pageBreakBefore", "styleId",
           "comment", "lineBreakMode", "formattingScope", "hardPageBreak", "indentation", "numbering")
KEYS_BY_TYPE: dict[str, tuple[str, ...]] = {
    "replaceInBlock": _COMMON + ("find", "replace", "comment"),
    "replaceRange": _RANGE + ("suggestionId", "replace", "comment"),
    "commentOnRange": _RANGE + ("comment",),
    "formatRange": _RANGE + ("suggestionId", "formatting"),
    "insertAfterBlock": _COMMON + _INSERT,
    "insertBeforeBlock": _COMMON + _INSERT,
    "replaceBlock": _COMMON + ("text", "preserveFormatting", "styleId", "comment"),
    "deleteBlock": _COMMON + ("moveId", "comment"),
    "splitBlock": _COMMON + ("offset", "separator", "firstParagraphProperties", "secondParagraphProperties"),
    "mergeBlockWithNext": _COMMON + ("separator", "mergedParagraphProperties"),
    "setBlockParagraphProperties": _COMMON + ("properties",),
    "insertTable": _COMMON + ("position", "rows"),
    "deleteTable": _COMMON,
    "commentOnBlock": _COMMON + ("quote", "comment"),
    "insertSignatureTable": _COMMON + ("position", "parties", "comment"),
    "insertTableRow": _COMMON + ("position", "cellTexts"),
    "deleteTableRow": _COMMON,
    "insertTableColumn": _COMMON + ("position", "cellTexts"),
    "deleteTableColumn": _COMMON,
    "mergeTableCells": _COMMON + ("endBlockId", "rowCount"),
    "splitTableCell": _COMMON,
}
RANGE_TYPES = ("replaceRange", "commentOnRange", "formatRange")
REQUIRED: dict[str, tuple[str, ...]] = {
    "replaceInBlock": ("find", "replace"),
    "replaceRange": ("replace",),
    "commentOnRange": ("comment",),
    "formatRange": ("formatting",),
    "insertAfterBlock": ("text",),
    "insertBeforeBlock": ("text",),
    "replaceBlock": ("text",),
    "splitBlock": ("offset",),
    "setBlockParagraphProperties": ("properties",),
    "insertTable": ("rows",),
    "commentOnBlock": ("comment",),
    "insertSignatureTable": ("parties",),
}
# the operation keys that hold paragraph properties of their own
PROPERTY_HOLDERS = ("properties", "firstParagraphProperties", "secondParagraphProperties", "mergedParagraphProperties")
PARAGRAPH_PROPERTY_KEYS = ("styleId", "listLevel", "alignment", "spacing", "outlineLevel", "numbering", "indentation")
ALIGNMENTS = ("left", "center", "right", "both", "start", "end", "distribute", "mediumKashida", "highKashida",
              "lowKashida", "thaiDistribute", "numTab", "justify")
_HASH = re.compile(r"^h[0-9a-z]+$")
_COLOR = re.compile(r"^#?[0-9A-Fa-f]{6}$")
MAX_SAFE_INTEGER = 2**53 - 1


class InvalidDocumentOperationBatchError(ValueError):
    def __init__(self, path: str, reason: str):
        super().__init__(f"Invalid document operation batch at {path}: {reason}.")
        self.path = path
        self.reason = reason


class UnsupportedDocumentOperationVersionError(ValueError):
    def __init__(self):
        super().__init__("Unsupported document operation contract version.")
        self.path = "$.version"
        self.reason = "unsupported version"


def capabilities() -> dict:
    return {
        "version": CONTRACT_VERSION,
        "operationTypes": list(OPERATION_TYPES),
        "modes": list(MODES),
        "modesByOperationType": {t: list(m) for t, m in MODES_BY_TYPE.items()},
        "batchModes": ["best-effort", "atomic"],
        "dryRun": True,
        "preconditions": ["blockTextHash"],
        "batchPreconditions": ["documentVersion"],
        "stories": ["main", "header", "footer", "footnote", "endnote"],
    }


class ParsedBatch(dict):
    """A batch that passed the parser (a deep copy; later apply calls skip re-parsing)."""


def _fail(path: str, reason: str):
    raise InvalidDocumentOperationBatchError(path, reason)


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and abs(v) <= MAX_SAFE_INTEGER


def _string(v, path, *, required=True):
    if not isinstance(v, str):
        _fail(path, "expected a string" if required else "expected a string when provided")


def _bool(v, path):
    if not isinstance(v, bool):
        _fail(path, "expected a boolean when provided")


def _non_negative(v, path):
    if not _is_int(v) or v < 0:
        _fail(path, "expected a non-negative safe integer")


def _object(v, path):
    if not isinstance(v, dict):
        _fail(path, "expected an object")


def _check_keys(obj: dict, allowed, path: str):
    for key in obj:
        if key not in allowed:
            _fail(f"{path}.{key}", "unexpected property")


def parse_batch(batch: Any) -> ParsedBatch:
    """Validate a batch strictly; return a deep copy marked as parsed."""
    if isinstance(batch, ParsedBatch):
        return batch
    _object(batch, "$")
    if batch.get("version") != CONTRACT_VERSION or isinstance(batch.get("version"), bool):
        raise UnsupportedDocumentOperationVersionError()
    _check_keys(batch, ("version", "operations", "mode", "atomic", "dryRun", "precondition"), "$")
    ops = batch.get("operations")
    if not isinstance(ops, list):
        _fail("$.operations", "expected an array")
    if "mode" in batch and batch["mode"] not in MODES:
        _fail("$.mode", 'expected "direct", "tracked-changes", or "suggested" when provided')
    for key in ("atomic", "dryRun"):
        if key in batch:
            _bool(batch[key], f"$.{key}")
    if "precondition" in batch:
        pre = batch["precondition"]
        _object(pre, "$.precondition")
        _check_keys(pre, ("documentVersion",), "$.precondition")
        if not isinstance(pre.get("documentVersion"), str) or not pre["documentVersion"]:
            _fail("$.precondition.documentVersion", "expected a string")
    seen_ids: set[str] = set()
    for i, op in enumerate(ops):
        path = f"$.operations[{i}]"
        _parse_operation(op, path)
        if "id" in op:
            if op["id"] in seen_ids:
                _fail(f"{path}.id", "expected a unique operation id")
            seen_ids.add(op["id"])
    return ParsedBatch(_normalize(copy.deepcopy(batch)))


def _parse_operation(op, path):
    _object(op, path)
    t = op.get("type")
    if not isinstance(t, str):
        _fail(f"{path}.type", "expected a string")
    if t not in KEYS_BY_TYPE:
        _fail(f"{path}.type", f'unsupported operation type "{t}"')
    _check_keys(op, KEYS_BY_TYPE[t], path)
    if t in RANGE_TYPES:
        _parse_range(op.get("range"), f"{path}.range")
    else:
        v = op.get("blockId")
        _string(v, f"{path}.blockId")
        if not v:
            _fail(f"{path}.blockId", "expected a non-empty string")
    for key in REQUIRED.get(t, ()):
        if key not in op:
            reason = {"comment": "expected an object", "formatting": "expected an object",
                      "properties": "expected an object", "rows": "expected a non-empty array",
                      "parties": "expected a non-empty array", "offset": "expected a non-negative safe integer",
                      }.get(key, "expected a string")
            _fail(f"{path}.{key}", reason)
    if "id" in op:
        _string(op["id"], f"{path}.id", required=False)
        if not op["id"]:
            _fail(f"{path}.id", "expected a non-empty string when provided")
    for key in ("area", "suggestionId", "find", "replace", "text", "quote", "separator", "moveId"):
        if key in op:
            _string(op[key], f"{path}.{key}", required=key in REQUIRED.get(t, ()))
    if "severity" in op and op["severity"] not in ("low", "medium", "high"):
        _fail(f"{path}.severity", 'expected "low", "medium", or "high" when provided')
    if "precondition" in op:
        pre = op["precondition"]
        _object(pre, f"{path}.precondition")
        _check_keys(pre, ("blockTextHash",), f"{path}.precondition")
        if not isinstance(pre.get("blockTextHash"), str) or not _HASH.match(pre["blockTextHash"]):
            _fail(f"{path}.precondition.blockTextHash", "expected a normalized block text hash")
    if "comment" in op:
        c = op["comment"]
        _object(c, f"{path}.comment")
        _check_keys(c, ("text",), f"{path}.comment")
        _string(c.get("text"), f"{path}.comment.text")
    for key in ("inheritFormatting", "pageBreakBefore", "preserveFormatting"):
        if key in op:
            _bool(op[key], f"{path}.{key}")
    if "position" in op and op["position"] not in ("after", "before"):
        _fail(f"{path}.position", 'expected "after" or "before" when provided')
    if "offset" in op:
        _non_negative(op["offset"], f"{path}.offset")
    if "lineBreakMode" in op and op["lineBreakMode"] not in ("paragraph", "inline"):
        _fail(f"{path}.lineBreakMode", 'expected "paragraph" or "inline" when provided')
    if "formattingScope" in op and op["formattingScope"] not in ("firstParagraph", "allParagraphs"):
        _fail(f"{path}.formattingScope", 'expected "firstParagraph" or "allParagraphs" when provided')
    if "hardPageBreak" in op:
        hb = op["hardPageBreak"]
        _object(hb, f"{path}.hardPageBreak")
        _check_keys(hb, ("clear",), f"{path}.hardPageBreak")
        if "clear" in hb and hb["clear"] not in ("none", "left", "right", "all"):
            _fail(f"{path}.hardPageBreak.clear", 'expected "none", "left", "right", or "all" when provided')
    _parse_paragraph_props(op, path, allow_list_level=True)
    if t == "setBlockParagraphProperties":
        _parse_properties(op["properties"], f"{path}.properties")
    for key in ("firstParagraphProperties", "secondParagraphProperties", "mergedParagraphProperties"):
        if key in op:
            _parse_properties(op[key], f"{path}.{key}")
    if "formatting" in op:
        _parse_formatting(op["formatting"], f"{path}.formatting")
    if "rows" in op:
        _parse_rows(op["rows"], f"{path}.rows")
    if "cellTexts" in op:
        cells = op["cellTexts"]
        if not isinstance(cells, list):
            _fail(f"{path}.cellTexts", "expected an array")
        for j, s in enumerate(cells):
            _string(s, f"{path}.cellTexts[{j}]")
    if "parties" in op:
        parties = op["parties"]
        if not isinstance(parties, list):
            _fail(f"{path}.parties", "expected an array")
        for j, party in enumerate(parties):
            pp = f"{path}.parties[{j}]"
            _object(party, pp)
            _check_keys(party, ("name", "signatory", "title"), pp)
            _string(party.get("name"), f"{pp}.name")
            for key in ("signatory", "title"):
                if key in party:
                    _string(party[key], f"{pp}.{key}", required=False)
    if t == "mergeTableCells":
        has_end, has_count = "endBlockId" in op, "rowCount" in op
        if has_end == has_count:
            _fail(path, "expected exactly one of endBlockId or rowCount")
        if has_end and (not isinstance(op["endBlockId"], str) or not op["endBlockId"]):
            _fail(f"{path}.endBlockId", "expected a non-empty string")
        if has_count and (not _is_int(op["rowCount"]) or op["rowCount"] < 2):
            _fail(f"{path}.rowCount", "expected an integer greater than or equal to 2")


def _parse_range(rng, path):
    _object(rng, path)
    _check_keys(rng, ("type", "story", "blockId", "startOffset", "endOffset", "selectedTextHash"), path)
    if rng.get("type") != "textRange":
        _fail(f"{path}.type", 'expected "textRange"')
    if "story" in rng and rng["story"] != "main":
        _fail(f"{path}.story", 'expected "main"')
    if not isinstance(rng.get("blockId"), str) or not rng["blockId"]:
        _fail(f"{path}.blockId", "expected a non-empty string")
    _non_negative(rng.get("startOffset"), f"{path}.startOffset")
    end = rng.get("endOffset")
    _non_negative(end, f"{path}.endOffset")
    if end <= rng["startOffset"]:
        _fail(f"{path}.endOffset", "expected a value greater than startOffset")
    h = rng.get("selectedTextHash")
    if not isinstance(h, str) or not _HASH.match(h):
        _fail(f"{path}.selectedTextHash", "expected a normalized text hash")


def _parse_paragraph_props(obj, path, allow_list_level=True):
    if "styleId" in obj and obj["styleId"] is not None and (not isinstance(obj["styleId"], str) or not obj["styleId"]):
        _fail(f"{path}.styleId", "expected a non-empty string or null when provided")
    if "alignment" in obj and obj["alignment"] is not None and obj["alignment"] not in ALIGNMENTS:
        _fail(f"{path}.alignment", "expected a paragraph alignment or null")
    if "spacing" in obj and obj["spacing"] is not None:
        sp = obj["spacing"]
        _object(sp, f"{path}.spacing")
        _check_keys(sp, ("spaceBefore", "spaceAfter", "lineSpacing", "lineSpacingRule", "beforeAutospacing",
                         "afterAutospacing"), f"{path}.spacing")
        for key in ("spaceBefore", "spaceAfter"):
            if key in sp:
                _non_negative(sp[key], f"{path}.spacing.{key}")
        if "lineSpacing" in sp and not _is_int(sp["lineSpacing"]):
            _fail(f"{path}.spacing.lineSpacing", "expected an integer")
        if "lineSpacingRule" in sp and sp["lineSpacingRule"] not in ("auto", "exact", "atLeast"):
            _fail(f"{path}.spacing.lineSpacingRule", 'expected "auto", "exact", or "atLeast"')
        for key in ("beforeAutospacing", "afterAutospacing"):
            if key in sp:
                _bool(sp[key], f"{path}.spacing.{key}")
    if allow_list_level and "listLevel" in obj and obj["listLevel"] is not None:
        if not _is_int(obj["listLevel"]) or not 0 <= obj["listLevel"] <= 8:
            _fail(f"{path}.listLevel", "expected a list level from 0 to 8 or null")
    if "outlineLevel" in obj and obj["outlineLevel"] is not None:
        if not _is_int(obj["outlineLevel"]) or not 0 <= obj["outlineLevel"] <= 9:
            _fail(f"{path}.outlineLevel", "expected an outline level from 0 to 9 or null")
    if "indentation" in obj and obj["indentation"] is not None:
        ind = obj["indentation"]
        _object(ind, f"{path}.indentation")
        _check_keys(ind, ("left", "right", "firstLine", "hanging"), f"{path}.indentation")
        for key, value in ind.items():
            if not _is_int(value) or (key in ("firstLine", "hanging") and value < 0):
                _fail(f"{path}.indentation.{key}", "expected an integer number of twips")
        if "firstLine" in ind and "hanging" in ind:
            _fail(f"{path}.indentation", "expected at most one of firstLine or hanging")
    if "numbering" in obj:
        _parse_numbering(obj["numbering"], f"{path}.numbering")


BARE_NUMBERING = ("inherit", "none")  # the two requests that need no fields may be sent as bare strings


def _parse_numbering(req, path):
    if isinstance(req, str):
        if req not in BARE_NUMBERING:
            _fail(path, 'expected "inherit", "none", or an object')
        return
    _object(req, path)
    kind = req.get("kind")
    allowed = {"inherit": ("kind",), "none": ("kind",), "levelOnly": ("kind", "ilvl"),
               "reference": ("kind", "numId", "ilvl"), "newList": ("kind", "format", "ilvl", "level")}
    if kind not in allowed:
        _fail(f"{path}.kind", 'expected "inherit", "none", "levelOnly", "reference", or "newList"')
    _check_keys(req, allowed[kind], path)
    if "ilvl" in req and "level" in req:
        _fail(path, "expected at most one of ilvl or level")
    for key in ("ilvl", "level"):
        if (kind == "levelOnly" and key == "ilvl") or key in req:
            if not _is_int(req.get(key)) or not 0 <= req[key] <= 8:
                _fail(f"{path}.{key}", "expected a list level from 0 to 8")
    if kind == "reference" and (not _is_int(req.get("numId")) or req["numId"] < 1):
        _fail(f"{path}.numId", "expected a positive integer numId")
    if kind == "newList" and req.get("format") not in ("numbered", "bullet"):
        _fail(f"{path}.format", 'expected "numbered" or "bullet"')


def _normal_numbering(req) -> dict:
    """One shape for the engine: a bare "none"/"inherit" becomes {kind}, newList's `level` its `ilvl`."""
    if isinstance(req, str):
        return {"kind": req}
    if "level" in req:
        req = {("ilvl" if key == "level" else key): value for key, value in req.items()}
    return req


def _normalize(batch: dict) -> dict:
    for op in batch["operations"]:
        for holder in (op, *(op.get(key) for key in PROPERTY_HOLDERS)):
            if isinstance(holder, dict) and "numbering" in holder:
                holder["numbering"] = _normal_numbering(holder["numbering"])
    return batch


def _parse_properties(props, path):
    _object(props, path)
    _check_keys(props, PARAGRAPH_PROPERTY_KEYS, path)
    if not props:
        _fail(path, "expected at least one property to set")
    _parse_paragraph_props(props, path)


def _parse_formatting(fmt, path):
    _object(fmt, path)
    _check_keys(fmt, ("bold", "italic", "underline", "strike", "fontFamily", "fontSizePt", "color"), path)
    if not fmt:
        _fail(path, "expected at least one formatting property")
    for key in ("bold", "italic", "underline", "strike"):
        if key in fmt:
            _bool(fmt[key], f"{path}.{key}")
    if "fontFamily" in fmt and fmt["fontFamily"] is not None and (
            not isinstance(fmt["fontFamily"], str) or not fmt["fontFamily"]):
        _fail(f"{path}.fontFamily", "expected a non-empty string or null when provided")
    if "fontSizePt" in fmt and fmt["fontSizePt"] is not None:
        v = fmt["fontSizePt"]
        if isinstance(v, bool) or not isinstance(v, (int, float)) or v <= 0 or (v * 2) != int(v * 2):
            _fail(f"{path}.fontSizePt", "expected a positive half-point value or null")
    if "color" in fmt and fmt["color"] is not None:
        if not isinstance(fmt["color"], str) or not _COLOR.match(fmt["color"]):
            _fail(f"{path}.color", "expected a six-digit RGB color or null")


def _parse_rows(rows, path):
    if not isinstance(rows, list) or not rows:
        _fail(path, "expected a non-empty array")
    width = None
    for r, row in enumerate(rows):
        if not isinstance(row, list) or not row:
            _fail(f"{path}[{r}]", "expected a non-empty array")
        for c, cell in enumerate(row):
            _string(cell, f"{path}[{r}][{c}]")
        if width is None:
            width = len(row)
        elif len(row) != width:
            _fail(path, "expected every row to hold the same number of cells")


def target_block_id(op: dict) -> str:
    return op["range"]["blockId"] if op["type"] in RANGE_TYPES else op["blockId"]


def touched_blocks(result: dict) -> set[str]:
    """Blocks a batch's receipts name (edited, commented, or anchoring an insertion)."""
    ids = set()
    for receipt in result.get("receipts", ()):
        for item in receipt.get("affected", ()):
            for key in ("blockId", "anchorBlockId", "endAnchorBlockId"):
                if item.get(key):
                    ids.add(item[key])
            if isinstance(item.get("range"), dict) and item["range"].get("blockId"):
                ids.add(item["range"]["blockId"])
    return ids
