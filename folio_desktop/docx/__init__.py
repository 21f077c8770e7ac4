"""The OOXML engine: package, reading, operations, comments, revisions, compare. Never imports Qt."""

from .errors import (
    CorruptDocxError,
    DocxError,
    DocxTooLargeError,
    EncryptedDocxError,
    NotADocxError,
    SaveConflictError,
    SaveTargetMissingError,
)
from .reading.blocks import Block, Snapshot
from .reviewer import DocxReviewer

__all__ = [
    "Block",
    "CorruptDocxError",
    "DocxError",
    "DocxReviewer",
    "DocxTooLargeError",
    "EncryptedDocxError",
    "NotADocxError",
    "SaveConflictError",
    "SaveTargetMissingError",
    "Snapshot",
]
