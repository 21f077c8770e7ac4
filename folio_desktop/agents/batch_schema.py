"""JSON Schema projection of the document-operation contract for hosts, and a validate() that never
throws (spec §1.1 FOLIO_DOCUMENT_OPERATION_BATCH_JSON_SCHEMA / Standard-Schema validate)."""

from __future__ import annotations

import copy
import re

from ..docx.editing.contract import (
    KEYS_BY_TYPE,
    MODES,
    OPERATION_TYPES,
    REQUIRED,
    InvalidDocumentOperationBatchError,
    UnsupportedDocumentOperationVersionError,
    parse_batch,
)
from .definitions import _OP_PROPERTIES


def _shape(properties: dict, required=()) -> dict:
    out = {"type": "object", "properties": properties, "additionalProperties": False}
    if required:
        out["required"] = list(required)
    return out


_INT, _BOOL, _STR = {"type": "integer"}, {"type": "boolean"}, {"type": "string", "minLength": 1}
_HASH = {"type": "string", "pattern": "^h[0-9a-z]+$"}
_SPACING = _shape({"spaceBefore": {"type": "integer", "minimum": 0}, "spaceAfter": {"type": "integer", "minimum": 0},
                   "lineSpacing": _INT, "lineSpacingRule": {"enum": ["auto", "exact", "atLeast"]},
                   "beforeAutospacing": _BOOL, "afterAutospacing": _BOOL})
_INDENT = _shape({"left": _INT, "right": _INT, "firstLine": {"type": "integer", "minimum": 0},
                  "hanging": {"type": "integer", "minimum": 0}})
# a bare "inherit" / "none" is the request itself; newList takes the new list's `level`
_NUMBERING = {"oneOf": [
    {"type": "string", "enum": ["inherit", "none"]},
    _shape({"kind": {"enum": ["inherit", "none", "levelOnly", "reference", "newList"]},
            "ilvl": {"type": "integer", "minimum": 0, "maximum": 8}, "level": {"type": "integer", "minimum": 0, "maximum": 8},
            "numId": {"type": "integer", "minimum": 1}, "format": {"enum": ["numbered", "bullet"]}}, ["kind"])]}
_PARAGRAPH = {**_shape({"styleId": _STR, "listLevel": {"type": "integer", "minimum": 0, "maximum": 8},
                        "alignment": {"enum": ["left", "center", "right", "both", "justify", "start", "end",
                                               "distribute"]},
                        "outlineLevel": {"type": "integer", "minimum": 0, "maximum": 9},
                        "spacing": _SPACING, "indentation": _INDENT, "numbering": _NUMBERING}), "minProperties": 1}

# the contract's full shapes, where the model's schema (definitions._OP_PROPERTIES) only names the keys
_CONTRACT_OVERRIDES = {
    "comment": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"],
                "additionalProperties": False},
    "formatting": {"type": "object", "minProperties": 1, "additionalProperties": False, "properties": {
        "bold": {"type": "boolean"}, "italic": {"type": "boolean"}, "underline": {"type": "boolean"},
        "strike": {"type": "boolean"}, "fontFamily": {"type": ["string", "null"], "minLength": 1},
        "fontSizePt": {"type": ["number", "null"], "exclusiveMinimum": 0, "multipleOf": 0.5},
        "color": {"type": ["string", "null"], "pattern": "^#?[0-9A-Fa-f]{6}$"}}},
    "suggestionId": {"type": "string"},
    "styleId": {"type": ["string", "null"], "minLength": 1},
    "blockId": _STR,
    "precondition": _shape({"blockTextHash": _HASH}, ["blockTextHash"]),
    "range": _shape({"type": {"enum": ["textRange"]}, "story": {"enum": ["main"]}, "blockId": _STR,
                     "startOffset": {"type": "integer", "minimum": 0}, "endOffset": {"type": "integer", "minimum": 1},
                     "selectedTextHash": _HASH},
                    ["type", "story", "blockId", "startOffset", "endOffset", "selectedTextHash"]),
    "spacing": _SPACING,
    "indentation": _INDENT,
    "numbering": _NUMBERING,
    "properties": _PARAGRAPH,
    "firstParagraphProperties": _PARAGRAPH,
    "secondParagraphProperties": _PARAGRAPH,
    "mergedParagraphProperties": _PARAGRAPH,
    "hardPageBreak": _shape({"clear": {"enum": ["none", "left", "right", "all"]}}),
    "parties": {"type": "array", "items": _shape({"name": _STR, "signatory": {"type": "string"},
                                                  "title": {"type": "string"}}, ["name"])},
    "endBlockId": _STR,
}


def _operation_schema(op_type: str) -> dict:
    props = {"type": {"const": op_type}}
    for key in KEYS_BY_TYPE[op_type]:
        if key != "type":
            source = _CONTRACT_OVERRIDES[key] if key in _CONTRACT_OVERRIDES else _OP_PROPERTIES[key]
            props[key] = copy.deepcopy(source)
    required = ["type", "range" if "range" in KEYS_BY_TYPE[op_type] else "blockId", *REQUIRED.get(op_type, ())]
    schema = {"type": "object", "properties": props, "required": required, "additionalProperties": False}
    if op_type == "mergeTableCells":
        schema["oneOf"] = [{"required": ["endBlockId"]}, {"required": ["rowCount"]}]
    return schema


DOCUMENT_OPERATION_JSON_SCHEMA = {"oneOf": [_operation_schema(t) for t in OPERATION_TYPES]}
DOCUMENT_OPERATION_BATCH_JSON_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "properties": {
        "version": {"const": 1},
        "operations": {"type": "array", "items": DOCUMENT_OPERATION_JSON_SCHEMA},
        "mode": {"enum": list(MODES)},
        "atomic": {"type": "boolean"},
        "dryRun": {"type": "boolean"},
        "precondition": {"type": "object", "properties": {"documentVersion": {"type": "string", "minLength": 1}},
                         "required": ["documentVersion"], "additionalProperties": False},
    },
    "required": ["version", "operations"],
    "additionalProperties": False,
}

_PATH_PART = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]")


def path_parts(path: str) -> list:
    """'$.operations[0].blockId' -> ['operations', 0, 'blockId']."""
    return [name if name else int(index) for name, index in _PATH_PART.findall(path)]


def validate_operation_batch(value) -> dict:
    """{"value": parsed} or {"issues": [{"message", "path"}]}; never raises."""
    try:
        return {"value": parse_batch(value)}
    except UnsupportedDocumentOperationVersionError as exc:
        return {"issues": [{"message": str(exc), "path": ["version"]}]}
    except InvalidDocumentOperationBatchError as exc:
        return {"issues": [{"message": str(exc), "path": path_parts(exc.path)}]}
    except Exception as exc:  # noqa: BLE001 - validate() is documented never to throw
        return {"issues": [{"message": f"Invalid document operation batch: {exc}."}]}
