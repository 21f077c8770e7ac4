"""The question asked when the app starts and a crash left unsaved work in the recovery folder:
restore each copy, discard it or keep it for later. Only copies whose session has ended are offered
(RecoveryStore.left_behind): the work of a window still open is that window's."""

from __future__ import annotations

from collections.abc import Callable

from ... import APP_NAME

RESTORE, DISCARD, LATER = "restore", "discard", "later"


def ask_recovery(window, entry) -> str:
    """Ask whether to restore one recovery copy: RESTORE, DISCARD or LATER (kept for next time)."""
    from PySide6.QtWidgets import QMessageBox

    box = QMessageBox(QMessageBox.Question, APP_NAME,
                      f"{APP_NAME} closed without saving your work on {entry.name}.", QMessageBox.NoButton, window)
    box.setInformativeText(f"A copy of it from {entry.saved_at.replace('T', ' ')} (UTC) was kept. Restore it?")
    restore = box.addButton("&Restore", QMessageBox.AcceptRole)
    discard = box.addButton("&Discard", QMessageBox.DestructiveRole)
    box.addButton("&Later", QMessageBox.RejectRole)
    box.setDefaultButton(restore)
    box.exec()
    clicked = box.clickedButton()
    return RESTORE if clicked is restore else DISCARD if clicked is discard else LATER


def offer_recovery(window, choose: Callable | None = None) -> bool:
    """Offer each recovery copy, newest first, until one is restored into `window`; True if one was.
    `choose(window, entry)` answers instead of the dialog (tests)."""
    choose = choose or ask_recovery
    for entry in window.files.recovery.left_behind():
        if window.reviewer is not None and entry.original_path == window.path:
            continue  # the document open here: its copy is the one being kept up to date
        answer = choose(window, entry)
        if answer == DISCARD:
            window.files.recovery.discard(entry)
        elif answer == RESTORE and window.files.open_recovered(entry):
            return True
    return False
