"""What an MCP client is told about each tool besides its schema (MCP ToolAnnotations): a title for
people, and hints a client uses to decide what to run without asking (reads) and what to confirm first
(resolve_comment, which changes a thread's state in the file at once rather than proposing anything).

Every tool works on the one document it was given and reaches nothing outside it: openWorldHint is
false for all. Edits are proposals (tracked changes and comments the lawyer accepts or rejects), so they
are not destructive; proposing the same edit twice makes two proposals, so they are not idempotent."""

from __future__ import annotations

import mcp_types as types

# name -> (title, readOnlyHint, destructiveHint, idempotentHint)
_READ = (True, False, True)
_PROPOSE = (False, False, False)
_VIEW = (False, False, True)  # moves the lawyer's view or selection in the window; the document is untouched
TOOL_HINTS: dict[str, tuple[str, bool, bool, bool]] = {
    "read_document": ("Read the document", *_READ),
    "get_document_outline": ("Document outline", *_READ),
    "read_section": ("Read a section", *_READ),
    "list_stories": ("List headers, footers and notes", *_READ),
    "read_story": ("Read a header, footer or note", *_READ),
    "find_text": ("Find text", *_READ),
    "read_comments": ("Read comments", *_READ),
    "read_changes": ("Read tracked changes", *_READ),
    "read_page": ("Read a page", *_READ),
    "read_selection": ("Read the lawyer's selection", *_READ),
    "add_comment": ("Add a comment", *_PROPOSE),
    "suggest_changes": ("Suggest tracked changes", *_PROPOSE),
    "reply_comment": ("Reply to a comment", *_PROPOSE),
    # marks a thread resolved (or open again) in the file directly: no tracked change to reject
    "resolve_comment": ("Resolve or reopen a comment", False, True, True),
    "scroll_to_block": ("Scroll to a passage", *_VIEW),
    "show_in_document": ("Show a passage in the document", *_VIEW),
    # folio-desktop's own, beyond the reference's 16: reads the document, changes nothing
    "check_document": ("Check terms, references, blanks and numbering", *_READ),
}


def title_of(name: str) -> str:
    return TOOL_HINTS[name][0]


def annotations_of(name: str) -> types.ToolAnnotations:
    title, read_only, destructive, idempotent = TOOL_HINTS[name]
    return types.ToolAnnotations(title=title, read_only_hint=read_only, destructive_hint=destructive,
                                 idempotent_hint=idempotent, open_world_hint=False)
