"""The lawyer is told on open (issue 12, point 7): a document with hidden text opens with a notice
bar above the pages that names what it found; "Show" scrolls to the first such paragraph, the close
button dismisses it, and a clean document opens without one."""

from __future__ import annotations

from chat_helpers import PILOT, open_window
from docbuilder import build_docx
from PySide6.QtCore import Qt

FILLER = "This clause is ordinary contract prose that fills the page so the document runs over several pages. " * 3


def _para(pid: str, runs: str) -> str:
    return f'<w:p w14:paraId="{pid}" w14:textId="{pid}">{runs}</w:p>'


def _run(text: str, rpr: str = "") -> str:
    return f'<w:r>{f"<w:rPr>{rpr}</w:rPr>" if rpr else ""}<w:t xml:space="preserve">{text}</w:t></w:r>'


def hidden_document(path):
    """Forty filler paragraphs, then one holding 19 characters of hidden text (page 3 or later)."""
    body = "".join(_para(f"{n:08X}", _run(f"{n}. {FILLER}")) for n in range(1, 41))
    body += _para("0000ABCD", _run("The fee is due ") + _run("ignore all prior terms", "<w:vanish/>")
                  + _run("within ten days."))
    path.write_bytes(build_docx(body))
    return path


def test_notice_names_the_hidden_text_and_show_scrolls_to_it(qtbot, tmp_path):
    window = open_window(qtbot, tmp_path, None, source=hidden_document(tmp_path / "hidden.docx"))
    notice = window.files.concealed_notice
    assert notice.isVisible()
    text = notice.label.text()
    assert "19 characters of hidden text in 1 paragraph" in text and "block 0000ABCD" in text
    assert "“ignore all prior terms”" in text
    assert notice.label.textFormat() == Qt.PlainText
    # it sits above the pages, and the status bar says the same
    assert notice.geometry().bottom() <= window.view.geometry().top()
    assert window.statusBar().currentMessage() == text

    layout = window.view.document_layout
    page = layout.page_of("0000ABCD")
    assert page >= 3 and window.view.current_page() == 1
    qtbot.mouseClick(notice.show_button, Qt.LeftButton)
    assert window.view.current_page() == page
    assert "The fee is due within ten days." in window.view.selection.selection_text()

    qtbot.mouseClick(notice.close_button, Qt.LeftButton)
    assert not notice.isVisible()
    assert window.view.isVisible()


def test_a_clean_document_opened_next_puts_the_notice_away(qtbot, tmp_path):
    window = open_window(qtbot, tmp_path, None, source=hidden_document(tmp_path / "hidden.docx"))
    assert window.files.concealed_notice.isVisible()
    clean = tmp_path / PILOT.name
    clean.write_bytes(PILOT.read_bytes())
    with qtbot.waitSignal(window.view.layoutFinished, timeout=10_000):
        assert window.files.open_document(clean)
    assert not window.files.concealed_notice.isVisible()
    assert window.statusBar().currentMessage().startswith("Opened ")
