"""The agent tool layer: the reference's 16 tools and our check_document over a bridge, the suggest_changes
front door, compare and redline.

Never imports Qt. Every name loads its module on first use, so `folio-desktop compare` does not
import the tool layer it never calls (a tenth of a second at each start).
"""

_LAZY = {
    **dict.fromkeys(("DOCUMENT_OPERATION_BATCH_JSON_SCHEMA", "DOCUMENT_OPERATION_JSON_SCHEMA",
                     "validate_operation_batch"), ".batch_schema"),
    **dict.fromkeys(("AgentBridge", "EditorRefBridge", "ReviewerBridge", "ReviewQueueBridge",
                     "create_editor_ref_bridge", "create_reviewer_bridge"), ".bridges"),
    **dict.fromkeys(("TOOL_NAMES", "get_tool_definitions", "to_anthropic_tools", "to_openai_tools"), ".definitions"),
    "execute_tool_call": ".execute",
    **dict.fromkeys(("ToolInputError", "parse_add_comment_input", "parse_suggest_changes_input"), ".parse"),
    **dict.fromkeys(("InvalidSuggestChangesOptionsError", "SuggestChangesOptions",
                     "describe_suggest_changes_capabilities"), ".suggest_options"),
    "compare_docx_versions": ".versions.compare",
    "format_version_diff_for_llm": ".versions.compare",
    "generate_redline_docx": ".versions.redline",
}


def __getattr__(name):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(module, __name__), name)
    globals()[name] = value  # found once; later lookups are plain attribute reads
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "DOCUMENT_OPERATION_BATCH_JSON_SCHEMA", "DOCUMENT_OPERATION_JSON_SCHEMA", "validate_operation_batch",
    "AgentBridge", "EditorRefBridge", "InvalidSuggestChangesOptionsError", "ReviewQueueBridge", "ReviewerBridge",
    "SuggestChangesOptions", "TOOL_NAMES", "ToolInputError", "compare_docx_versions", "create_editor_ref_bridge", "create_reviewer_bridge",
    "describe_suggest_changes_capabilities", "execute_tool_call", "format_version_diff_for_llm",
    "generate_redline_docx", "get_tool_definitions", "parse_add_comment_input", "parse_suggest_changes_input",
    "to_anthropic_tools", "to_openai_tools",
]
