"""The "Compare with an earlier version" quick action: the lawyer picks the earlier .docx, the compare
window File > Compare opens (desk/compare_window.py) shows it against the document open, and Claude is
sent that comparison's version diff to summarise.

The chat panel knows nothing of the review window: the window gives it `open_comparison`, a call
of compare_with_open_document bound to itself (desk/window.py).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QMessageBox

from ...docx.errors import DocxError

DOCX_FILTER = "Word documents (*.docx)"
DIFF_CHARS = 60_000  # of version diff in one message (about 15k tokens): it stays in the conversation


def compare_with_open_document(window):
    """Ask for the earlier version and open the compare window on it and the document open (returned;
    None when the lawyer cancels or the comparison fails, which `window.files` has said). A document
    with unsaved changes is compared as it stands: a copy written to a private temporary folder, which
    the compare window reads at once and which is then deleted."""
    start = str(Path(window.path).parent) if window.path else ""
    earlier, _filter = QFileDialog.getOpenFileName(window, "Compare with an earlier version", start, DOCX_FILTER)
    if not earlier:
        return None
    if window.path and not window.modified:
        return window.files.compare(earlier, window.path)
    with tempfile.TemporaryDirectory(prefix="folio-compare-") as folder:
        later = Path(folder) / window.display_name
        try:
            later.write_bytes(window.reviewer.to_bytes())
        except (DocxError, OSError) as exc:
            QMessageBox.warning(window, "The versions could not be compared", str(exc))
            return None
        return window.files.compare(earlier, str(later))


# Claude cannot ask for a quick action's next part: the closing line tells it to say the summary is partial
_QUICK_ASKS = {"minor": "include_minor=True", "rest": "… ({left} more changes are left out: tell me the summary is partial)"}


def version_diff_message(prompt: str, comparison) -> tuple[str, str]:
    """(what Claude is sent, what the transcript shows) for `prompt` about an open compare window:
    the prompt, which files, and the version diff's first part of at most DIFF_CHARS (the engine's
    paging cuts it at a change line; Claude cannot ask for the next part, so it is told to say so)."""
    from ...agents.versions.compare import page_version_diff  # (the tool layer: not at start-up)

    earlier, later = Path(comparison.base_path).name, Path(comparison.revised_path).name
    text = page_version_diff(comparison.diff, limit=DIFF_CHARS, asks=_QUICK_ASKS).text
    sent = (f"{prompt}\n\nEarlier version: {earlier}. Later version: {later}, the document open here. The ids in "
            f"brackets are the comparison's own: cite clauses by number.\n<version_diff>\n{text}\n</version_diff>")
    return sent, f"{prompt}\n(The differences between {earlier} and {later} go with this message.)"
