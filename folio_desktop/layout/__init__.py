"""layout/: QtGui only (no widgets). Measures paragraphs with QTextLayout and paginates into pages."""

from .engine import Paginator, layout_document
from .model import DocumentLayout, Fragment, Page

__all__ = ["DocumentLayout", "Fragment", "Page", "Paginator", "layout_document"]
