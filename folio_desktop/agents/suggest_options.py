"""Host-side options of the suggest_changes surface and the capability text the model reads (spec §4.1, §4.6)."""

from __future__ import annotations

from dataclasses import dataclass

from ..docx.editing.contract import OPERATION_TYPES

DEFAULT_MAX_OPERATIONS = 50
DEFAULT_TYPES = tuple(t for t in OPERATION_TYPES if t not in ("commentOnBlock", "insertSignatureTable"))
TEXT_LIMIT = 100_000
AGGREGATE_LIMIT = 2_000_000

# what each type needs beyond its name, in the fewest words that keep the rule (the model reads them on every
# request); neighbouring types with the same words are listed together, a type whose name says it all stands bare
SUMMARIES = {
    "replaceInBlock": "`find` exact text in a block -> `replace`",
    "replaceRange": "a `range` copied from find_text",
    "commentOnRange": "a `range` copied from find_text",
    "formatRange": "bold, italic or underline on a `range` from find_text",
    "insertAfterBlock": "a new paragraph",
    "insertBeforeBlock": "a new paragraph",
    "replaceBlock": "",
    "deleteBlock": "",
    "splitBlock": "at `offset`",
    "mergeBlockWithNext": "",
    "setBlockParagraphProperties": "`properties`",
    "insertTable": "`rows` beside a block",
    "deleteTable": "at a cell block",
    "commentOnBlock": "optionally on a `quote` in the block",
    "insertSignatureTable": "for `parties`",
    "insertTableRow": "at a cell block",
    "deleteTableRow": "at a cell block",
    "insertTableColumn": "at a cell block",
    "deleteTableColumn": "at a cell block",
    "mergeTableCells": "from a cell block to `endBlockId`, or `rowCount` rows down",
    "splitTableCell": "a merged cell",
}


def summary_line(types) -> str:
    """`Supported operations: a, b (what they need); c; ...`: each type once, in contract order."""
    groups: list[tuple[list[str], str]] = []
    for t in types:
        if groups and groups[-1][1] == SUMMARIES[t] and SUMMARIES[t]:
            groups[-1][0].append(t)
        else:
            groups.append(([t], SUMMARIES[t]))
    return "Supported operations: " + "; ".join(", ".join(names) + (f" ({words})" if words else "")
                                                for names, words in groups) + "."


class InvalidSuggestChangesOptionsError(ValueError):
    """A host configured the surface wrongly; never reaches the model."""

    def __init__(self, name: str, detail: str):
        super().__init__(f"Invalid suggest_changes option `{name}`: {detail}.")


@dataclass(frozen=True)
class SuggestChangesOptions:
    operation_types: tuple[str, ...] = DEFAULT_TYPES
    review_meta: str = "optional"
    max_operations: int = DEFAULT_MAX_OPERATIONS
    document_version: str | None = None  # the current version token when the surface pins versions

    @classmethod
    def create(cls, operation_types=None, review_meta="optional", max_operations=DEFAULT_MAX_OPERATIONS,
               document_version=None) -> SuggestChangesOptions:
        if operation_types is None:
            types = DEFAULT_TYPES
        else:
            if isinstance(operation_types, str) or not hasattr(operation_types, "__iter__"):
                raise InvalidSuggestChangesOptionsError("operationTypes", "expected a list of operation types")
            given = list(operation_types)
            if not given:
                raise InvalidSuggestChangesOptionsError("operationTypes", "expected at least one operation type")
            unknown = [t for t in given if t not in OPERATION_TYPES]
            if unknown:
                raise InvalidSuggestChangesOptionsError("operationTypes", f'unknown operation type "{unknown[0]}"')
            types = tuple(t for t in OPERATION_TYPES if t in given)  # contract order, deduplicated
        if review_meta not in ("optional", "required"):
            raise InvalidSuggestChangesOptionsError("reviewMeta", 'expected "optional" or "required"')
        if isinstance(max_operations, bool) or not isinstance(max_operations, int) or not 1 <= max_operations <= 200:
            raise InvalidSuggestChangesOptionsError("maxOperations", "expected an integer from 1 to 200")
        if document_version is not None:
            current = document_version.get("current") if isinstance(document_version, dict) else document_version
            if not isinstance(current, str) or not current:
                raise InvalidSuggestChangesOptionsError("documentVersion", "expected a non-empty `current` string")
            document_version = current
        return cls(types, review_meta, max_operations, document_version)


def coerce_options(options) -> SuggestChangesOptions:
    """Accept None, a SuggestChangesOptions, or a dict with spec-style or snake_case keys."""
    if options is None:
        return SuggestChangesOptions()
    if isinstance(options, SuggestChangesOptions):
        return options
    if isinstance(options, dict):
        inner = options.get("suggest_changes", options.get("suggestChanges", options))
        if isinstance(inner, SuggestChangesOptions):
            return inner
        if inner is None:
            return SuggestChangesOptions()
        keys = {"operationTypes": "operation_types", "reviewMeta": "review_meta", "maxOperations": "max_operations",
                "documentVersion": "document_version"}
        kwargs = {keys.get(k, k): v for k, v in inner.items()}
        allowed = set(keys.values())
        for key in kwargs:
            if key not in allowed:
                raise InvalidSuggestChangesOptionsError(key, "unknown option")
        return SuggestChangesOptions.create(**kwargs)
    raise InvalidSuggestChangesOptionsError("options", "expected an object")


def describe_suggest_changes_capabilities(options=None) -> str:
    """The plain-language capability paragraph that closes the suggest_changes description."""
    opts = coerce_options(options)
    types = opts.operation_types
    lines = [summary_line(types)]
    structural = [t for t in ("insertAfterBlock", "insertBeforeBlock", "replaceBlock") if t in types]
    if structural:
        parts = ["text is plain (no markdown or directive markers)"]
        if any(t.startswith("insert") for t in structural):
            parts.append("`pageBreakBefore` starts a new page")
        where = ("an insert or replaceBlock" if "replaceBlock" in structural and len(structural) > 1
                 else "replaceBlock" if "replaceBlock" in structural else "an insert")
        parts.append(f"`styleId` on {where} sets a paragraph style the document defines, e.g. a clause heading")
        lines.append("Structural edits: " + "; ".join(parts) + ".")
    if "insertSignatureTable" in types:
        lines.append("Draw signature blocks with insertSignatureTable, never with paragraphs of underscores.")
    if "formatRange" not in types:
        lines.append("This surface cannot change run formatting (fonts, bold, italic, underline, size, colour, "
                     "alignment, spacing, list style); do not promise formatting changes.")
    lines.append(f"Limits: at most {opts.max_operations} operations per call (batch more across calls); each text "
                 f"at most {TEXT_LIMIT:,} characters.")
    if opts.review_meta == "required":
        lines.append("Every operation must set `severity` (low, medium, high) and a short `area`.")
    else:
        lines.append("Set `severity` and a short `area` when the edit is part of a structured review.")
    if opts.document_version is not None:
        lines.append("Pass `documentVersion` exactly as the schema gives it; the whole batch is skipped when the "
                     "document has moved on.")
    return "\n".join(lines)
