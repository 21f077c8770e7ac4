"""ShellCommands, the review window's `shell`: File > Print and the Help menu."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QMessageBox

from ....docx.errors import DocxError
from ...wording import counted
from .help_dialogs import AboutDialog, ShortcutsDialog

if TYPE_CHECKING:  # Qt's printing is loaded when the lawyer first prints, not before the first page shows
    from PySide6.QtPrintSupport import QPrinter


class ShellCommands:
    def __init__(self, window):
        self.window = window
        self.printer: QPrinter | None = None  # kept, so the next print starts from the last choices
        self.shortcuts_dialog: ShortcutsDialog | None = None
        self.about_dialog: AboutDialog | None = None

    def print_document(self) -> int:
        """Ask the print dialog, then print the pages as shown; the sheets printed (0: none)."""
        window = self.window
        if window.reviewer is None:
            return 0
        from PySide6.QtPrintSupport import QAbstractPrintDialog, QPrintDialog, QPrinter

        from .printing import print_view

        if self.printer is None:
            self.printer = QPrinter(QPrinter.HighResolution)
        printer = self.printer
        printer.setDocName(window.display_name)
        pages = len(window.view.pages)
        dialog = QPrintDialog(printer, window)
        dialog.setWindowTitle(f"Print {window.display_name}")
        dialog.setOption(QAbstractPrintDialog.PrintToFile, True)
        dialog.setOption(QAbstractPrintDialog.PrintPageRange, True)
        dialog.setOption(QAbstractPrintDialog.PrintCurrentPage, False)
        printer.setFromTo(0, 0)
        dialog.setMinMax(1, max(pages, 1))
        if not dialog.exec():
            return 0
        try:
            sheets = print_view(printer, window.view, window.reviewer)
        except DocxError as exc:
            window.statusBar().showMessage(str(exc), 10000)
            QMessageBox.warning(window, "Nothing was printed", str(exc))
            return 0
        where = f" to {printer.outputFileName()}" if printer.outputFileName() else ""
        window.statusBar().showMessage(f"Sent {counted(sheets, 'page')} to print{where}.", 8000)
        window.record("print", pages=sheets)
        return sheets

    def show_shortcuts(self) -> ShortcutsDialog:
        """Help > Keyboard Shortcuts: made afresh from the actions each time, so it lists what is there."""
        if self.shortcuts_dialog is not None:
            self.shortcuts_dialog.close()
            self.shortcuts_dialog.deleteLater()
        self.shortcuts_dialog = ShortcutsDialog(self.window)
        self.shortcuts_dialog.open()  # modal to the window (it takes the keyboard), without blocking
        self.shortcuts_dialog.filter.setFocus()
        return self.shortcuts_dialog

    def show_about(self) -> AboutDialog:
        if self.about_dialog is None:
            self.about_dialog = AboutDialog(self.window)
        self.about_dialog.open()
        return self.about_dialog
