"""Export to PDF: the laid-out pages painted by the view's own painter, one PDF page per layout page
at each section's page size.

The marked-up PDF prints the view it is given (the view's layout carries it): in All Markup the
redlines in the authors' colours, change bars, and the comment balloons with their full text and
replies; in Simple Markup the accepted text with change bars and balloons; in No Markup and
Original the text of that view, unmarked. Where balloons print, the page and its markup area are
scaled together to fit the sheet (as Word prints markup), so the paper size stays the section's.
The clean PDF lays out a copy of the document with every change accepted and paints it plain; the
open document is never touched.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QMarginsF, QRectF, QSizeF
from PySide6.QtGui import QPageLayout, QPageSize, QPainter, QPdfWriter

from ...docx import DocxReviewer
from ...docx.errors import DocxError
from ...docx.package.files import write_document_file
from ...layout import DocumentLayout, Page, layout_document
from ..pages.marks import ReviewIndex
from ..pages.painter import paint_page

LAYOUT_DPI = 96  # layout pixels; the writer uses the same resolution so fonts measure as laid out
POINTS_PER_PX = 72 / LAYOUT_DPI


def export_pdf(reviewer, path, markup: bool = True, *, layout: DocumentLayout | None = None,
               progress: Callable[[int, int], None] | None = None, view: str | None = None) -> int:
    """Write the document as a PDF; returns the number of pages written.

    markup: True prints a markup view (view, else the layout's, else "all"); False prints the
    clean copy with every change accepted.
    layout: the view's finished layout of this reviewer, to skip laying out again (used when its
    view is the one printed).
    progress: called with (pages painted, total) after each page.
    Raises DocxError with a message for the user when the file cannot be written."""
    if markup:
        view = view or (layout.view if layout is not None else "all")
        if layout is None or layout.view != view:
            layout = layout_document(reviewer.document, view=view)
        marks = ReviewIndex(reviewer, view, interactive=False)
        pages = layout.pages
    else:
        clean = DocxReviewer.from_bytes(reviewer.to_bytes())
        clean.accept_all()
        marks = ReviewIndex(None, "none", interactive=False)
        pages = layout_document(clean.document, view="none").pages
    title = Path(reviewer.source_path).stem if getattr(reviewer, "source_path", None) else ""
    data = render_pdf(pages, marks, title, progress)
    write_document_file(path, data, retry="export it somewhere else", work_open=False)
    return len(pages)


def render_pdf(pages: list[Page], marks: ReviewIndex, title: str = "",
               progress: Callable[[int, int], None] | None = None) -> bytes:
    """The PDF bytes of the pages (built in memory so a failed export never leaves half a file)."""
    if not pages:
        raise DocxError("The document has no pages to export.")
    buffer = QBuffer()
    buffer.setData(QByteArray())
    buffer.open(QIODevice.WriteOnly)
    writer = QPdfWriter(buffer)
    writer.setResolution(LAYOUT_DPI)
    writer.setTitle(title)
    writer.setCreator("folio-desktop")
    painter = None
    try:
        for index, page in enumerate(pages):
            writer.setPageLayout(_page_layout(page))  # before newPage(): the next page takes it
            if painter is None:
                painter = QPainter(writer)
            else:
                writer.newPage()
            # the page and its markup area, scaled to the sheet's width and centred down it
            width = page.width + marks.markup_width(page.view)
            scale = page.width / width
            top = page.height * (1 - scale) / 2
            paint_page(painter, page, QRectF(0, top, width * scale, page.height * scale), scale, marks, shadow=False)
            if progress is not None:
                progress(index + 1, len(pages))
    finally:
        if painter is not None:
            painter.end()
    buffer.close()
    return bytes(buffer.data())


def _page_layout(page: Page) -> QPageLayout:
    # the exact sheet of the section (portrait or landscape as laid out), not the nearest standard size
    size = QPageSize(QSizeF(page.width * POINTS_PER_PX, page.height * POINTS_PER_PX), QPageSize.Point, "",
                     QPageSize.ExactMatch)
    return QPageLayout(size, QPageLayout.Portrait, QMarginsF(0, 0, 0, 0))
