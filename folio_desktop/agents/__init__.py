"""The agent tool layer: 16 tools over a bridge, the suggest_changes front door, compare and redline.

Never imports Qt. The compare and redline helpers load on first use.
"""

from .batch_schema import (
    DOCUMENT_OPERATION_BATCH_JSON_SCHEMA,
    DOCUMENT_OPERATION_JSON_SCHEMA,
    validate_operation_batch,
)
from .bridges import (
    AgentBridge,
    EditorRefBridge,
    ReviewerBridge,
    ReviewQueueBridge,
    create_editor_ref_bridge,
    create_reviewer_bridge,
)
from .definitions import TOOL_NAMES, get_tool_definitions, to_anthropic_tools, to_openai_tools
from .execute import execute_tool_call
from .parse import ToolInputError, parse_add_comment_input, parse_suggest_changes_input
from .suggest_options import (
    InvalidSuggestChangesOptionsError,
    SuggestChangesOptions,
    describe_suggest_changes_capabilities,
)

_LAZY = {
    "compare_docx_versions": ".compare",
    "format_version_diff_for_llm": ".compare",
    "generate_redline_docx": ".redline",
}


def __getattr__(name):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(name)
    from importlib import import_module

    return getattr(import_module(module, __name__), name)


__all__ = [
    "DOCUMENT_OPERATION_BATCH_JSON_SCHEMA", "DOCUMENT_OPERATION_JSON_SCHEMA", "validate_operation_batch",
    "AgentBridge", "EditorRefBridge", "InvalidSuggestChangesOptionsError", "ReviewQueueBridge", "ReviewerBridge",
    "SuggestChangesOptions", "TOOL_NAMES", "ToolInputError", "compare_docx_versions", "create_editor_ref_bridge", "create_reviewer_bridge",
    "describe_suggest_changes_capabilities", "execute_tool_call", "format_version_diff_for_llm",
    "generate_redline_docx", "get_tool_definitions", "parse_add_comment_input", "parse_suggest_changes_input",
    "to_anthropic_tools", "to_openai_tools",
]
