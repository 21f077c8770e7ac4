"""Errors raised when a package cannot be read. Every message says what happened and what to do."""


class DocxError(Exception):
    """Base of every error the docx engine raises for bad input."""


class NotADocxError(DocxError):
    """The bytes are not a Word .docx package (legacy .doc, another zip, or not a zip at all)."""


class EncryptedDocxError(DocxError):
    """The package is password-protected (an encrypted CFB container)."""


class CorruptDocxError(DocxError):
    """The package is damaged: a truncated zip, a bad entry, or malformed XML in a named part."""

    def __init__(self, message: str, part: str | None = None):
        super().__init__(message)
        self.part = part


class DocxTooLargeError(DocxError):
    """The package exceeds one of the safety limits in docx.limits."""


class SaveConflictError(DocxError):
    """The file on disk changed after it was opened; saving over it would lose someone's work."""


class SaveTargetMissingError(DocxError):
    """The file the document came from was moved or deleted while it was open; saving would create it
    again where the lawyer may no longer expect it."""
