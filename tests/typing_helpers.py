"""Shared set-up for the typing, Track Changes and navigation tests: a review window on a copy of a
real contract, clicks into the pages at a given place in the text, and what the saved file holds."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import docx as python_docx
from chat_helpers import open_window
from conftest import ROOT
from PySide6.QtCore import QPointF, Qt

from folio_desktop.docx import DocxReviewer
from folio_desktop.layout import layout_document
from folio_desktop.ui.pages.marks import display_offset
from folio_desktop.ui.pages.text_flow import TextPos, text_start

SAMPLE = ROOT / "resources" / "sample_contract.docx"
LAWYER = "Lawyer"  # chat_helpers.make_settings' author


ZOOM = 1.25  # characters wide enough for a click to land between the two intended ones


def desk(qtbot, tmp_path: Path, source: Path = SAMPLE):
    """A shown, laid-out review window on a copy of `source` (no Claude: no key, no server), at 125%."""
    window = open_window(qtbot, tmp_path, None, api_key=None, source=source)
    window.view.set_zoom(ZOOM)
    window.activateWindow()  # shortcuts (Ctrl+Z, Ctrl+Shift+E, Ctrl+G) need the active window
    qtbot.waitUntil(window.isActiveWindow, timeout=2_000)
    window.view.setFocus()
    return window


def point_of(view, block_id: str, offset: int, after_deleted: bool = False) -> QPointF:
    """The viewport point of the caret position at accepted-view `offset` of a block, scrolled into view."""
    entries = view.flow.block_entries(block_id)
    assert entries, f"block {block_id} is not laid out"
    para = view.flow.entries[entries[0]][1].para
    display = display_offset(para, offset) if after_deleted or not offset else display_offset(para, offset, end=True)
    display = max(display, text_start(view.flow.entries[entries[0]][1]))
    index = next((i for i in entries if view.flow.entries[i][1].display_range[0] <= display
                  < view.flow.entries[i][1].display_range[1]), entries[-1])
    number, rect = view.flow.caret_rect(TextPos(index, display))
    view.scroll_to_page(number)
    view._show_page_point(number, rect.center())
    return view.page_to_viewport(number, QPointF(rect.x(), rect.center().y()))


def click_at(qtbot, view, block_id: str, offset: int, modifier=Qt.NoModifier) -> None:
    """A real mouse click that puts the caret at accepted-view `offset` of a block."""
    point = point_of(view, block_id, offset)
    qtbot.mouseClick(view.viewport(), Qt.LeftButton, modifier, point.toPoint())
    mark = view.selection.caret_mark()
    assert mark is not None and mark.block_id == block_id and mark.offset == offset, (mark, block_id, offset)


def text_of(window, block_id: str) -> str:
    return window.reviewer.snapshot().block(block_id).text


def changes_of(reviewer, block_id: str | None = None) -> list[tuple[str, str, str]]:
    return [(c.type, c.text, c.author) for c in reviewer.get_changes() if block_id is None or c.block_id == block_id]


def save_and_reopen(window, tmp_path: Path, name: str = "typed.docx") -> tuple[DocxReviewer, Path]:
    """Save As a new file; the file reopened in our reader, after python-docx has read it too."""
    out = tmp_path / name
    window.reviewer.save(out)
    python_docx.Document(str(out))  # Word's other reader opens it
    return DocxReviewer.open(out), out


def word_texts(path: Path) -> list[str]:
    return [p.text for p in python_docx.Document(str(path)).paragraphs]


def part(path: Path, name: str = "word/document.xml") -> str:
    with zipfile.ZipFile(io.BytesIO(path.read_bytes())) as z:
        return z.read(name).decode("utf-8")


def reading(reviewer: DocxReviewer) -> list[tuple[str | None, str]]:
    """Every paragraph as it reads: its list label and its text (block ids may differ)."""
    return [(b.display_label, b.text) for b in reviewer.snapshot().blocks]


def rejected_text(path: Path) -> list[tuple[str | None, str]]:
    """The document's paragraphs once every change in it is rejected."""
    reviewer = DocxReviewer.open(path)
    reviewer.reject_all()
    return reading(reviewer)


def same_as_fresh_layout(window) -> None:
    """Every page the view holds reads as a fresh layout of the document does, and the view's text
    flow and the layout's block index agree with it: nothing stale after a quick relayout (the pages past
    the screen, which an edit's relayout may still be laying out while the event loop idles, once the
    view's layout is asked for: that finishes it)."""
    view = window.view
    layout = view.document_layout
    markup = getattr(view, "markup_view", None)
    fresh = layout_document(window.reviewer.document, **({"view": markup} if markup else {}))
    assert len(view.pages) == len(fresh.pages)
    assert [p.text(include_headers=True) for p in view.pages] == [p.text(include_headers=True) for p in fresh.pages]
    assert {b: [n for n, _f in layout.fragments_of(b)] for b in layout._block_pages} == \
        {b: [n for n, _f in fresh.fragments_of(b)] for b in fresh._block_pages}
    flow = [(n, f.block_id, f.display_range) for n, f in view.flow.entries]
    assert flow == [(p.number, f.block_id, f.display_range) for p in fresh.pages for f in p.body_fragments()]
