"""The exceptions the redline raises: apart so the planner and the writer raise them below the entry point."""


class InvalidGenerateRedlineDocxOptionsError(ValueError):
    """An option of generate_redline_docx has a value it does not accept."""


class GenerateRedlineDocxResourceImportError(ValueError):
    """undefined_references="refuse" and inserted content names a style or list the revised document
    does not define; raised before anything is written."""


class RedlineVerificationError(RuntimeError):
    """The written redline did not reproduce base (reject all) and revised (accept all)."""


__all__ = ["GenerateRedlineDocxResourceImportError", "InvalidGenerateRedlineDocxOptionsError", "RedlineVerificationError"]
