"""Contract checks on the accepted view of a document: defined terms, cross-references, placeholders,
numbering and parties (no Qt; reads folio_desktop.docx only).

    from folio_desktop.checks import check_document, CheckSession
    check_document(reviewer)  # {"findings": [{"kind", "text", "blockId", "displayLabel", "story",
                              #   "message", "pendingChange"}, ...], "counts": {kind: n}}
    session = CheckSession(); session.run(reviewer)  # again after each edit: unchanged paragraphs are not re-read
"""

from .engine import CheckSession, check_document
from .findings import KINDS

__all__ = ["KINDS", "CheckSession", "check_document"]
