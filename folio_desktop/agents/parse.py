"""The suggest_changes and add_comment front door (spec §4.3-4.4, §2.9): lenient decoding that is
reported, never silent; validation in a fixed order, first failure wins; id minting."""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field

from ..docx.editing.contract import (
    KEYS_BY_TYPE,
    InvalidDocumentOperationBatchError,
    UnsupportedDocumentOperationVersionError,
    parse_batch,
)
from ..docx.model.textkit import HASH_PATTERN, utf16_len
from .suggest_options import AGGREGATE_LIMIT, TEXT_LIMIT, coerce_options


class ToolInputError(ValueError):
    """Input the model must fix; the message is the one plain sentence it reads."""


@dataclass
class ParsedSuggestChanges:
    operations: list[dict]
    document_version: str | None = None
    normalizations: list[dict] = field(default_factory=list)


def operation_batch(operations: list[dict], mode: str | None = None, document_version: str | None = None) -> dict:
    """The operation engine's batch for these operations: in `mode` when given (else the engine's
    default), pinned to `document_version` when given."""
    out: dict = {"version": 1, "operations": operations}
    if mode:
        out["mode"] = mode
    if document_version is not None:
        out["precondition"] = {"documentVersion": document_version}
    return out


def _maybe_json(value, opener: str):
    if isinstance(value, str) and value.strip().startswith(opener):
        try:
            return json.loads(value), True
        except ValueError:
            return value, False
    return value, False


def _length_error(label: str, value: str) -> str | None:
    n = utf16_len(value)
    if n > TEXT_LIMIT:
        return (f"{label} is {n:,} characters, over the {TEXT_LIMIT:,}-character limit; shorten it or split it "
                "into multiple operations.")
    return None


class _Budget:
    def __init__(self):
        self.used = 0

    def spend(self, value: str, index: int) -> None:
        self.used += utf16_len(value)
        if self.used > AGGREGATE_LIMIT:
            raise ToolInputError(
                f"operations[{index}] pushes suggest_changes' combined text over the {AGGREGATE_LIMIT:,}-character "
                "aggregate limit across all operations; split the edit across multiple suggest_changes calls.")


def parse_suggest_changes_input(args, options=None) -> ParsedSuggestChanges:
    """Validate suggest_changes arguments; raises ToolInputError with the sentence for the model."""
    opts = coerce_options(options)
    normalizations: list[dict] = []
    args, decoded = _maybe_json(args, "{")
    if decoded:
        normalizations.append({"path": "$", "message": "arguments were supplied as a JSON string"})
    if not isinstance(args, dict):
        raise ToolInputError("suggest_changes requires an `operations` array.")
    for key in args:
        if key not in ("operations", "documentVersion"):
            normalizations.append({"path": key, "message": f"unknown argument `{key}` was ignored"})
    ops, decoded = _maybe_json(args.get("operations"), "[")
    if decoded:
        normalizations.append({"path": "operations", "message": "`operations` was supplied as a JSON string"})
    if not isinstance(ops, list):
        raise ToolInputError("suggest_changes requires an `operations` array.")
    if not ops:
        raise ToolInputError("suggest_changes' `operations` array must not be empty.")
    if len(ops) > opts.max_operations:
        raise ToolInputError(
            f"suggest_changes' `operations` array has {len(ops)} entries, over the {opts.max_operations}-operation "
            "limit; batch it across multiple suggest_changes calls.")
    decoded_ops: list[dict] = []
    allowed = ", ".join(opts.operation_types)
    for i, op in enumerate(ops):
        op, was_json = _maybe_json(op, "{")
        if was_json:
            normalizations.append({"path": f"operations[{i}]", "message": "operation was supplied as a JSON string"})
        if not isinstance(op, dict):
            raise ToolInputError(f"operations[{i}] must be an object.")
        op = dict(op)
        if "type" not in op and isinstance(op.get("kind"), str):
            op["type"] = op.pop("kind")
            normalizations.append({"path": f"operations[{i}].kind", "message": "`kind` was read as `type`"})
        if op.get("type") not in opts.operation_types:
            raise ToolInputError(f"operations[{i}].type must be one of {allowed}.")
        keys = KEYS_BY_TYPE[op["type"]]
        for key in list(op):
            if key not in keys or key == "suggestionId":
                del op[key]
                normalizations.append({"path": f"operations[{i}].{key}",
                                       "message": f"`{key}` does not apply to {op['type']} and was ignored"})
        decoded_ops.append(op)
    version = args.get("documentVersion")
    if opts.document_version is not None:
        if not isinstance(version, str) or not version:
            raise ToolInputError("suggest_changes requires `documentVersion`: copy the current document version "
                                 "from the tool schema.")
    elif "documentVersion" in args:
        version = None
        normalizations.append({"path": "documentVersion",
                               "message": "`documentVersion` is not pinned on this surface and was ignored"})
    budget = _Budget()
    for i, op in enumerate(decoded_ops):
        _check_text_fields(op, i, budget)
        if opts.review_meta == "required":
            if op.get("severity") not in ("low", "medium", "high"):
                raise ToolInputError(f'operations[{i}].severity is required on this surface ("low", "medium", or "high").')
            if not isinstance(op.get("area"), str) or not op["area"].strip():
                raise ToolInputError(f"operations[{i}].area is required on this surface: a short review area label.")
        if "id" in op and (not isinstance(op["id"], str) or not op["id"]):
            raise ToolInputError(f"operations[{i}].id must be a non-empty string when provided.")
    prefix = f"op-{uuid.uuid4()}"
    for i, op in enumerate(decoded_ops):
        op.setdefault("id", f"{prefix}-{i + 1}")
        if isinstance(op.get("comment"), str):
            op["comment"] = {"text": op["comment"]}
    parsed = ParsedSuggestChanges(decoded_ops, version if opts.document_version is not None else None, normalizations)
    _contract_check(parsed)
    return parsed


def _check_text_fields(op: dict, i: int, budget: _Budget) -> None:
    for key in ("find", "replace", "text", "quote", "styleId", "area"):
        value = op.get(key)
        if isinstance(value, str):
            error = _length_error(f"operations[{i}].{key}", value)
            if error:
                raise ToolInputError(error)
            budget.spend(value, i)
    comment = op.get("comment")
    text = comment.get("text") if isinstance(comment, dict) else comment
    if isinstance(text, str):
        error = _length_error(f"operations[{i}].comment", text)
        if error:
            raise ToolInputError(error)
        budget.spend(text, i)
    cells = op.get("cellTexts")
    if isinstance(cells, list):
        if len(cells) > 256:
            raise ToolInputError(f"operations[{i}].cellTexts has {len(cells)} entries, over the 256-entry limit.")
        for j, cell in enumerate(cells):
            if isinstance(cell, str):
                error = _length_error(f"operations[{i}].cellTexts[{j}]", cell)
                if error:
                    raise ToolInputError(error)
                budget.spend(cell, i)
    parties = op.get("parties")
    if isinstance(parties, list):
        for j, party in enumerate(parties):
            if isinstance(party, dict):
                for key in ("name", "signatory", "title"):
                    if isinstance(party.get(key), str):
                        error = _length_error(f"operations[{i}].parties[{j}].{key}", party[key])
                        if error:
                            raise ToolInputError(error)
                        budget.spend(party[key], i)


def _contract_check(parsed: ParsedSuggestChanges) -> None:
    try:
        parse_batch(operation_batch(parsed.operations, None, parsed.document_version))
    except InvalidDocumentOperationBatchError as exc:
        raise ToolInputError(f"{exc.path.removeprefix('$.')}: {exc.reason}.") from None
    except UnsupportedDocumentOperationVersionError as exc:
        raise ToolInputError(str(exc)) from None


def parse_add_comment_input(args) -> dict:
    """Validate add_comment arguments into one commentOnBlock operation (with a unique id)."""
    if not isinstance(args, dict):
        raise ToolInputError("add_comment expects an object with `blockId` and `text` strings.")
    block_id, text = args.get("blockId"), args.get("text")
    if not isinstance(block_id, str) or not block_id:
        raise ToolInputError("add_comment requires a non-empty string `blockId`.")
    if not isinstance(text, str) or not text.strip():
        raise ToolInputError("add_comment requires a non-empty string `text`.")
    error = _length_error("add_comment's `text`", text)
    if error:
        raise ToolInputError(error)
    op = {"id": f"comment-{uuid.uuid4()}", "type": "commentOnBlock", "blockId": block_id, "comment": {"text": text}}
    if "quote" in args:
        if not isinstance(args["quote"], str):
            raise ToolInputError("add_comment's `quote` must be a string when provided.")
        error = _length_error("add_comment's `quote`", args["quote"])
        if error:
            raise ToolInputError(error)
        if args["quote"]:
            op["quote"] = args["quote"]
    if "precondition" in args:
        pre = args["precondition"]
        if not isinstance(pre, dict):
            raise ToolInputError("add_comment's `precondition` must be an object when provided.")
        h = pre.get("blockTextHash")
        if not isinstance(h, str) or not HASH_PATTERN.match(h):
            raise ToolInputError("add_comment's `precondition.blockTextHash` must be a normalized block text hash, "
                                 "echoed from read_document / read_section / find_text.")
        op["precondition"] = {"blockTextHash": h}
    return op
