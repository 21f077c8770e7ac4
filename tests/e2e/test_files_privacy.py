"""Files and privacy (issue 13, point 8): the bundled sample opens as an untitled copy, Save As with
privacy options says in plain words what it removed and offers the copy, change and comment authors
can be replaced by "Author", new files get the user's usual permissions, and a missing font is named
in a bar above the pages. Real windows, real key presses and button clicks."""

from __future__ import annotations

import hashlib
import io
import os
import stat
import zipfile

import docx as python_docx
import pytest
from chat_helpers import make_settings
from conftest import CORPUS
from docbuilder import build_docx
from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox

from folio_desktop.agents.versions.privacy import apply_to_package
from folio_desktop.assets import sample_contract_path
from folio_desktop.docx import DocxReviewer
from folio_desktop.docx.package.files import atomic_write, new_file_mode, write_document_file
from folio_desktop.ui.desk.save_as_dialog import SaveAsOptionsDialog
from folio_desktop.ui.desk.window import ReviewWindow

TRACKED = CORPUS / "superdoc_word_comments_replies_tracked.docx"
pytestmark = pytest.mark.timeout(120)


def window_for(qtbot, tmp_path) -> ReviewWindow:
    window = ReviewWindow(make_settings(tmp_path, None))
    window.files.ask_before_discarding = False
    window.resize(1200, 800)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    return window


def open_laid_out(qtbot, window, opener) -> None:
    with qtbot.waitSignal(window.view.layoutFinished, timeout=15_000):
        assert opener()


def answer_save_options(qtbot, boxes: tuple[str, ...] = (), anonymise: bool = False, keep_comments: bool = True):
    """When the Save As options dialog comes up, tick what is asked with real clicks, then OK."""
    def answer():
        dialog = next((w for w in QApplication.topLevelWidgets()
                       if isinstance(w, SaveAsOptionsDialog) and w.isVisible()), None)
        if dialog is None or dialog.windowHandle() is None or not dialog.windowHandle().isExposed():
            QTimer.singleShot(50, answer)  # not up yet: clicks must land on a shown dialog
            return
        ticks = [dialog.transform_boxes[name] for name in boxes] + [dialog.anonymise] * anonymise \
            + [dialog.keep_comments] * (not keep_comments)
        for box in ticks:  # on the indicator: a wide checkbox does not take clicks past its label
            qtbot.mouseClick(box, Qt.LeftButton, pos=QPoint(8, box.height() // 2))
        qtbot.mouseClick(dialog.buttons.button(dialog.buttons.StandardButton.Ok), Qt.LeftButton)

    QTimer.singleShot(50, answer)


# -- the sample opens as an untitled copy -------------------------------------------------------------------


def test_the_bundled_sample_opens_as_an_untitled_copy_and_ctrl_s_asks_where(qtbot, tmp_path, monkeypatch):
    sample = sample_contract_path()
    before = hashlib.sha256(sample.read_bytes()).hexdigest()
    window = window_for(qtbot, tmp_path)
    open_laid_out(qtbot, window, lambda: window.files.open_copy(sample))
    assert window.path is None and window.windowTitle().startswith("sample_contract (copy).docx")
    block = window.reviewer.snapshot().content_blocks[3]
    assert window.review_actions.edit_paragraph(block.id, block.text + " Amended.")["applied"]
    asked = []
    target = tmp_path / "My NDA.docx"
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda *a, **k: (asked.append(a[2]) or str(target), ""))
    answer_save_options(qtbot)
    # shortcuts reach the active window only (the offscreen platform does not activate it by itself)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=2_000)
    qtbot.keyClick(window, Qt.Key_S, Qt.ControlModifier)
    qtbot.waitUntil(lambda: target.exists(), timeout=10_000)
    assert asked and asked[0].endswith("sample_contract (copy).docx")  # Save asked where, with a name
    assert hashlib.sha256(sample.read_bytes()).hexdigest() == before  # the installed sample is untouched
    assert window.path == str(target) and not window.modified
    saved = DocxReviewer.open(target)
    assert "Amended." in saved.get_content_as_text()
    python_docx.Document(str(target))


# -- Save As with privacy -------------------------------------------------------------------------------------


def test_save_as_with_privacy_says_what_it_removed_and_can_switch_to_the_copy(qtbot, tmp_path, monkeypatch):
    source = tmp_path / TRACKED.name
    source.write_bytes(TRACKED.read_bytes())
    window = window_for(qtbot, tmp_path)
    open_laid_out(qtbot, window, lambda: window.files.open_document(source))
    authors = {c.author for c in window.reviewer.get_changes()} | {c.author for c in window.reviewer.all_comments()}
    assert authors - {"Author"}
    copy = tmp_path / "for the other side.docx"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(copy), ""))
    offered = []
    window.files.open_copy_chooser = lambda target, what: offered.append((target, what)) or False
    answer_save_options(qtbot, ("remove-attribution", "remove-timestamps"), anonymise=True)
    assert window.files.save_as_dialog()
    [(target, what)] = offered
    assert target == str(copy)
    assert what == ("without the author and last-modified names and the created and modified dates, with every "
                    "tracked change and comment made by “Author”")
    message = window.statusBar().currentMessage()
    assert message.startswith(f"Saved a copy to {copy} without the author") and "remove-" not in message
    assert window.path == str(source)  # kept working on the original, which keeps everything
    assert source.read_bytes() == TRACKED.read_bytes()
    out = DocxReviewer.open(copy)
    assert {c.author for c in out.get_changes()} | {c.author for c in out.all_comments()} == {"Author"}
    with zipfile.ZipFile(copy) as z:
        core = z.read("docProps/core.xml").decode()
    assert "<dc:creator>" not in core and "dcterms:modified" not in core
    python_docx.Document(str(copy))

    # the same again, choosing the copy: the window now works on it
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(tmp_path / "second.docx"), ""))
    window.files.open_copy_chooser = None

    def open_the_copy():
        box = next((w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible()), None)
        if box is None or box.windowHandle() is None or not box.windowHandle().isExposed():
            QTimer.singleShot(50, open_the_copy)
            return
        assert "Open the copy instead?" in box.informativeText()
        qtbot.mouseClick(next(b for b in box.buttons() if b.text().replace("&", "") == "Open the copy"), Qt.LeftButton)

    answer_save_options(qtbot, keep_comments=False)
    QTimer.singleShot(400, open_the_copy)
    assert window.files.save_as_dialog()
    qtbot.waitUntil(lambda: window.path == str(tmp_path / "second.docx"), timeout=10_000)
    assert window.reviewer.get_comments() == []


def test_anonymising_replaces_every_name_and_keeps_the_other_parts_byte_for_byte():
    data = TRACKED.read_bytes()
    out, report = apply_to_package(data, ["anonymize-revisions"])  # what Save As's "anonymise" applies
    assert report["authorsReplaced"] >= 5
    rev = DocxReviewer.from_bytes(out)
    assert {c.author for c in rev.get_changes()} == {"Author"}
    assert {c.author for c in rev.all_comments()} == {"Author"}
    assert {c.initials for c in rev.all_comments() if c.initials} <= {"A"}
    assert rev.get_content_as_text() == DocxReviewer.from_bytes(data).get_content_as_text()
    with zipfile.ZipFile(io.BytesIO(data)) as a, zipfile.ZipFile(io.BytesIO(out)) as b:
        changed = {n for n in a.namelist() if a.read(n) != b.read(n)}
        assert changed and changed <= {"word/document.xml", "word/comments.xml", "word/people.xml"}
        if "word/people.xml" in b.namelist():
            assert b"presenceInfo" not in b.read("word/people.xml")
    assert apply_to_package(out, ["anonymize-revisions"])[1]["authorsReplaced"] == 0  # nothing left to replace


# -- permissions ------------------------------------------------------------------------------------------------


def test_new_files_get_the_users_usual_permissions_and_private_ones_stay_private(qtbot, tmp_path, monkeypatch):
    expected = new_file_mode()
    assert expected == 0o666 & ~_umask()
    fresh = tmp_path / "new.docx"
    write_document_file(fresh, TRACKED.read_bytes())
    assert stat.S_IMODE(os.stat(fresh).st_mode) == expected
    kept = tmp_path / "kept.docx"
    kept.write_bytes(b"x")
    os.chmod(kept, 0o640)
    write_document_file(kept, TRACKED.read_bytes())
    assert stat.S_IMODE(os.stat(kept).st_mode) == 0o640  # an existing file keeps what it had
    secret = tmp_path / "recovery.docx"
    atomic_write(secret, b"x", private=True)
    assert stat.S_IMODE(os.stat(secret).st_mode) == 0o600
    # and what the window writes: a PDF export and an audit report
    source = tmp_path / "doc.docx"
    source.write_bytes(TRACKED.read_bytes())
    window = window_for(qtbot, tmp_path)
    open_laid_out(qtbot, window, lambda: window.files.open_document(source))
    targets = iter([tmp_path / "redline.pdf", tmp_path / "audit.html"])
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(next(targets)), ""))
    assert window.files.export_pdf_dialog() and window.files.export_audit_html_dialog()
    for name in ("redline.pdf", "audit.html"):
        assert stat.S_IMODE(os.stat(tmp_path / name).st_mode) == expected, name


def _umask() -> int:
    with open("/proc/self/status", encoding="ascii") as fh:
        return next(int(line.split()[1], 8) for line in fh if line.startswith("Umask:"))


# -- a missing font --------------------------------------------------------------------------------------------


def test_a_missing_font_is_named_with_its_substitute_once_per_document(qtbot, tmp_path):
    body = ('<w:p w14:paraId="10000001"><w:r><w:rPr><w:rFonts w:ascii="Inter" w:hAnsi="Inter"/></w:rPr>'
            '<w:t>The Supplier shall deliver the goods.</w:t></w:r></w:p>')
    path = tmp_path / "inter.docx"
    path.write_bytes(build_docx(body))
    window = window_for(qtbot, tmp_path)
    open_laid_out(qtbot, window, lambda: window.files.open_document(path))
    notice = window.files.font_notice
    assert notice.isVisible()
    used = window.view.document_layout.font_substitutions["Inter"]
    assert notice.label.text().startswith(f"The font Inter is not installed on this computer: the pages use {used}")
    qtbot.mouseClick(notice.close_button, Qt.LeftButton)
    assert not notice.isVisible()
    with qtbot.waitSignal(window.view.layoutFinished, timeout=10_000):
        window.view.relayout()
    assert not notice.isVisible()  # told once, not after every relayout
    clean = tmp_path / "clean.docx"
    clean.write_bytes(build_docx('<w:p><w:r><w:t>Plain.</w:t></w:r></w:p>'))
    open_laid_out(qtbot, window, lambda: window.files.open_document(clean))
    assert not notice.isVisible()
