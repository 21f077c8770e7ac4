"""folio-desktop: review .docx contracts with real pages, redlines, comments and Claude."""

__version__ = "0.1.0"
APP_NAME = "folio-desktop"
