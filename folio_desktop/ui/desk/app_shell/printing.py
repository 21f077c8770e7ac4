"""File > Print (Ctrl+P): the pages as the view shows them, on the printer's paper.

What prints is what a PDF export "as shown" writes: the view's own layout in its markup view, painted
by the page painter, with the comment balloons in All and Simple Markup. Each page and its markup area
are scaled together to fit the paper's printable area and centred on it (as Word prints markup), so a
letter page with balloons fits an A4 sheet. The print dialog's page range and copies are honoured.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QRectF
from PySide6.QtGui import QPainter
from PySide6.QtPrintSupport import QPrinter

from ....docx.errors import DocxError
from ....layout import Page
from ...pages.marks import ReviewIndex
from ...pages.painter import paint_page

LAYOUT_DPI = 96  # layout pixels: at this resolution the fonts measure as they were laid out


def chosen_pages(printer: QPrinter, pages: list[Page]) -> list[Page]:
    """The pages of the print dialog's range (all when it named none)."""
    first, last = printer.fromPage(), printer.toPage()
    if first <= 0:
        return list(pages)
    return list(pages[first - 1:(last or len(pages))])


def print_pages(printer: QPrinter, pages: list[Page], marks: ReviewIndex,
                progress: Callable[[int, int], None] | None = None) -> int:
    """Paint the pages on the printer, one sheet each; the number of sheets. Raises DocxError with
    a sentence for the lawyer when there is nothing to print or the printer cannot be used."""
    pages = chosen_pages(printer, pages)
    if not pages:
        raise DocxError("There are no pages to print in the range chosen.")
    printer.setResolution(LAYOUT_DPI)  # a PDF or CUPS printer takes it; a native one may keep its own
    painter = QPainter()
    if not painter.begin(printer):
        raise DocxError("The printer could not be started. Check that it is switched on and connected, "
                        "or choose another printer.")
    try:
        for index, page in enumerate(pages):
            if index:
                printer.newPage()
            # the painter's origin is the printable area's corner (QPrinter not in full-page mode)
            area = printer.pageLayout().paintRectPixels(printer.resolution())
            width = page.width + marks.markup_width(page.view)
            scale = min(area.width() / width, area.height() / page.height)
            target = QRectF((area.width() - width * scale) / 2, (area.height() - page.height * scale) / 2,
                            width * scale, page.height * scale)
            paint_page(painter, page, target, scale, marks, shadow=False)
            if progress is not None:
                progress(index + 1, len(pages))
    finally:
        painter.end()
    return len(pages)


def print_view(printer: QPrinter, view, reviewer) -> int:
    """Print what the page view shows of `reviewer`, in its markup view; the sheets printed."""
    layout = view.document_layout or view.finish_layout()
    if layout is None:
        raise DocxError("The document has no pages to print yet.")
    marks = ReviewIndex(reviewer, layout.view, interactive=False)
    return print_pages(printer, layout.pages, marks)
