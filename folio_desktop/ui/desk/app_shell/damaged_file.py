"""A file that cannot be opened because it is damaged: named, explained in plain words, and with what
can be done. When the words of its main document can still be read (docx/package/salvage.py), the
lawyer may open them as a new untitled document; the damaged file is never written to."""

from __future__ import annotations

import io
from pathlib import Path

from PySide6.QtWidgets import QMessageBox

from .... import APP_NAME
from ....docx.package.salvage import recoverable_paragraphs
from ...wording import counted

WHAT_TO_DO = ("To get the whole document back, open an earlier copy or a backup, or ask whoever sent it "
              "for the file again.")


def recovered_document(paragraphs: list[str]) -> bytes:
    """A plain .docx holding the paragraphs (python-docx's blank document: Word's default styles)."""
    import docx as python_docx  # (python-docx: only needed here)

    document = python_docx.Document()
    for text in paragraphs:
        document.add_paragraph(text)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def explain_damaged(files, path: str, reason: Exception) -> bool:
    """Tell the lawyer that `path` is damaged and offer its recoverable text; True when that text was
    opened in the window (as an untitled document)."""
    window, name = files.window, Path(path).name
    try:
        paragraphs = recoverable_paragraphs(Path(path).read_bytes())
    except OSError:
        paragraphs = []
    box = QMessageBox(QMessageBox.Warning, APP_NAME, f"“{name}” is damaged and cannot be opened as it is.",
                      QMessageBox.NoButton, window)
    box.setObjectName("damagedFileMessage")
    cause = ("The file seems to have been cut short or scrambled, for example by a download or a copy that "
             "did not finish, or by a problem with a disk or an email.")
    if paragraphs:
        box.setInformativeText(f"{cause}\n\nThe words of {counted(len(paragraphs), 'paragraph')} can still be "
                               "read. You can open them as a new, untitled document, without the formatting, "
                               f"comments and tracked changes, and compare it with a good copy.\n\n{WHAT_TO_DO}")
        recover = box.addButton("&Open Recovered Text", QMessageBox.AcceptRole)
        box.addButton(QMessageBox.Close)
        box.setDefaultButton(recover)
    else:
        box.setInformativeText(f"{cause} None of its text can be read.\n\n{WHAT_TO_DO}")
        recover = None
        box.addButton(QMessageBox.Close)
    box.setDetailedText(f"{path}\n{reason}")  # the technical reason, for whoever looks into it
    window.statusBar().showMessage(f"{name} is damaged and could not be opened.", 10000)
    box.exec()
    chosen = recover is not None and box.clickedButton() is recover
    box.deleteLater()
    if not chosen:
        return False
    opened = files.open_copy(path, name=f"{Path(path).stem} (recovered text).docx",
                             data=recovered_document(paragraphs))
    if opened:
        window.statusBar().showMessage(
            f"Opened the text recovered from {name} ({counted(len(paragraphs), 'paragraph')}) as a new "
            "document: Save asks where to keep it.", 10000)
    return opened
