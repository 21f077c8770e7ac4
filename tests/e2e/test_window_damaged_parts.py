"""The review window tells the lawyer what a document opened without (issue 15, points 5 and 6): a
damaged theme, font table or settings part is named in a bar above the pages, and the lawyer chooses
whether a save keeps it as read (the default: nothing is lost) or repairs it; that one choice reaches
Save, Save As, a saved copy and the recovery copy. A Strict Open XML file says it will be saved as a
standard Word document. Real windows, real clicks and key presses."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from chat_helpers import PILOT, open_window
from conftest import CORPUS
from package_surgery import SETTINGS, THEME, assert_sound_theme, cut_short, entry
from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtWidgets import QApplication, QFileDialog

from folio_desktop.docx import DocxReviewer
from folio_desktop.docx.package.damage import KEEP, REBUILD
from folio_desktop.ui.desk.save_as_dialog import SaveAsOptionsDialog, SaveOptions

W_SETTINGS = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}settings"
STRICT = CORPUS / "wild" / "jandira-tech+jubarte-redlines" / "tests" / "corpus" / "broken_ones_two" / \
    "sources" / "file_196.docx"
pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def damaged(tmp_path):
    """The pilot agreement with its theme cut short: (path, the theme's bytes as they are in the file)."""
    data = cut_short(PILOT.read_bytes(), THEME)
    path = tmp_path / "pilot damaged.docx"
    path.write_bytes(data)
    return path, entry(data, THEME)


def press(qtbot, window, key, modifiers=Qt.NoModifier):
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=2_000)
    qtbot.keyClick(window, key, modifiers)


def edit_a_paragraph(window) -> None:
    block = next(b for b in window.reviewer.snapshot().blocks if "Pilot Period" in b.text)
    assert window.review_actions.edit_paragraph(block.id, block.text.replace("Pilot Period", "Trial Period", 1))


def answer_save_options(qtbot, tick_repair: bool = False, tick: tuple[str, ...] = (), seen: list | None = None):
    """When the Save As options dialog is up: note what it offers, tick with real clicks, then OK."""
    def answer():
        dialog = next((w for w in QApplication.topLevelWidgets()
                       if isinstance(w, SaveAsOptionsDialog) and w.isVisible()), None)
        if dialog is None or dialog.windowHandle() is None or not dialog.windowHandle().isExposed():
            QTimer.singleShot(50, answer)
            return
        repair = getattr(dialog, "repair", None)
        if seen is not None:
            seen.append(None if repair is None else (repair.text().replace("&", ""), repair.isChecked()))
        boxes = [repair] * (tick_repair and repair is not None) + [dialog.transform_boxes[name] for name in tick]
        for box in boxes:  # on the indicator: a wide checkbox does not take clicks past its label
            qtbot.mouseClick(box, Qt.LeftButton, pos=QPoint(8, box.height() // 2))
        qtbot.mouseClick(dialog.buttons.button(dialog.buttons.StandardButton.Ok), Qt.LeftButton)

    QTimer.singleShot(50, answer)


# -- the notice --------------------------------------------------------------------------------------------


def test_the_notice_names_the_damaged_part_and_ctrl_s_keeps_it_as_read(qtbot, tmp_path, damaged):
    path, theme_as_read = damaged
    window = open_window(qtbot, tmp_path, None, source=path)
    notice = window.files.warnings_notice
    assert notice.isVisible() and notice.geometry().bottom() <= window.view.geometry().top()
    text = notice.label.text()
    assert text.startswith("This document opened with a warning:\n• The theme word/theme/theme1.xml is damaged")
    assert "Saving keeps the theme word/theme/theme1.xml as it was read, so nothing is lost." in text
    button = notice.action_button
    assert button.isVisible() and button.text() == "Repair when saving" and not button.isChecked()
    assert window.files.damaged_parts == KEEP

    edit_a_paragraph(window)
    press(qtbot, window, Qt.Key_S, Qt.ControlModifier)
    assert not window.modified
    saved = path.read_bytes()
    assert entry(saved, THEME) == theme_as_read  # the part as it was read, byte for byte
    again = DocxReviewer.open(path)  # it reopens, still telling of the same part
    assert "Trial Period" in again.get_content_as_text()
    assert len(again.open_warnings) == 1 and THEME in again.open_warnings[0]


def test_repair_when_saving_writes_a_sound_part_and_the_file_reopens_clean(qtbot, tmp_path, damaged):
    path, _theme = damaged
    window = open_window(qtbot, tmp_path, None, source=path)
    notice = window.files.warnings_notice
    qtbot.mouseClick(notice.action_button, Qt.LeftButton)
    assert notice.action_button.isChecked() and window.files.damaged_parts == REBUILD
    assert "Saving will replace the theme word/theme/theme1.xml with a minimal sound part" in notice.label.text()

    edit_a_paragraph(window)
    press(qtbot, window, Qt.Key_S, Qt.ControlModifier)
    assert window.statusBar().currentMessage().endswith("with its damaged parts repaired")
    saved = path.read_bytes()
    assert_sound_theme(saved)
    again = DocxReviewer.open(path)
    assert again.open_warnings == [] and "Trial Period" in again.get_content_as_text()

    # clicked again: back to keeping it as read, for the next save
    qtbot.mouseClick(notice.action_button, Qt.LeftButton)
    assert window.files.damaged_parts == KEEP and "Saving keeps the theme" in notice.label.text()


def test_every_damaged_part_is_named_and_the_next_document_puts_the_notice_away(qtbot, tmp_path):
    path = tmp_path / "two parts.docx"
    path.write_bytes(cut_short(PILOT.read_bytes(), THEME, SETTINGS))
    window = open_window(qtbot, tmp_path, None, source=path)
    text = window.files.warnings_notice.label.text()
    assert text.startswith("This document opened with 2 warnings:")
    assert "• The theme word/theme/theme1.xml is damaged" in text
    assert "• The settings part word/settings.xml is damaged" in text
    assert "Saving keeps the settings part word/settings.xml and the theme word/theme/theme1.xml as they were read" \
        in text  # in the package's order
    qtbot.mouseClick(window.files.warnings_notice.action_button, Qt.LeftButton)
    assert window.files.damaged_parts == REBUILD

    clean = tmp_path / PILOT.name
    clean.write_bytes(PILOT.read_bytes())
    with qtbot.waitSignal(window.view.layoutFinished, timeout=10_000):
        assert window.files.open_document(clean)
    assert not window.files.warnings_notice.isVisible() and window.files.damaged_parts == KEEP


def test_the_close_button_dismisses_the_notice_and_the_choice_stays(qtbot, tmp_path, damaged):
    path, _theme = damaged
    window = open_window(qtbot, tmp_path, None, source=path)
    qtbot.mouseClick(window.files.warnings_notice.action_button, Qt.LeftButton)
    qtbot.mouseClick(window.files.warnings_notice.close_button, Qt.LeftButton)
    assert not window.files.warnings_notice.isVisible() and window.files.damaged_parts == REBUILD
    assert window.files.save_document()
    assert_sound_theme(path.read_bytes())


# -- Save As, a saved copy, the recovery copy ----------------------------------------------------------------


def test_save_as_offers_the_repair_and_its_choice_becomes_the_documents(qtbot, tmp_path, damaged, monkeypatch):
    path, _theme = damaged
    window = open_window(qtbot, tmp_path, None, source=path)
    target = tmp_path / "repaired.docx"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    seen = []
    answer_save_options(qtbot, tick_repair=True, seen=seen)
    press(qtbot, window, Qt.Key_S, Qt.ControlModifier | Qt.ShiftModifier)
    qtbot.waitUntil(lambda: target.exists(), timeout=5_000)
    assert seen == [("Repair the damaged part (the theme word/theme/theme1.xml)", False)]
    assert window.path == str(target)  # repairing alone does not make the file a copy
    assert_sound_theme(target.read_bytes())
    assert DocxReviewer.open(target).open_warnings == []
    assert window.files.damaged_parts == REBUILD and window.files.warnings_notice.action_button.isChecked()


def test_a_copy_without_comments_carries_the_choice(qtbot, tmp_path, damaged, monkeypatch):
    path, theme_as_read = damaged
    window = open_window(qtbot, tmp_path, None, source=path)
    window.files.open_copy_chooser = lambda target, what: False
    copy = tmp_path / "copy.docx"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(copy), ""))
    seen = []
    answer_save_options(qtbot, tick=("remove-attribution",), seen=seen)
    assert window.files.save_as_dialog()
    assert seen == [("Repair the damaged part (the theme word/theme/theme1.xml)", False)]
    assert window.path == str(path) and entry(copy.read_bytes(), THEME) == theme_as_read

    qtbot.mouseClick(window.files.warnings_notice.action_button, Qt.LeftButton)  # the dialog opens ticked now
    answer_save_options(qtbot, tick=("remove-attribution",), seen=seen)
    assert window.files.save_as_dialog()
    assert seen[-1] == ("Repair the damaged part (the theme word/theme/theme1.xml)", True)
    assert_sound_theme(copy.read_bytes())
    assert "with its damaged parts repaired" in window.statusBar().currentMessage()


def test_a_sound_document_is_not_offered_the_repair(qtbot, tmp_path, monkeypatch):
    window = open_window(qtbot, tmp_path, None)
    assert not window.files.warnings_notice.isVisible()
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(tmp_path / "other.docx"), ""))
    seen = []
    answer_save_options(qtbot, seen=seen)
    assert window.files.save_as_dialog()
    assert seen == [None]


def test_the_recovery_copy_is_written_as_the_lawyer_chose(qtbot, tmp_path, damaged):
    path, theme_as_read = damaged
    window = open_window(qtbot, tmp_path, None, source=path)
    edit_a_paragraph(window)
    written = window.files.autosaver.save_now()
    assert written and entry(Path(written).read_bytes(), THEME) == theme_as_read
    qtbot.mouseClick(window.files.warnings_notice.action_button, Qt.LeftButton)
    written = window.files.autosaver.save_now()
    assert_sound_theme(Path(written).read_bytes())


def test_a_restored_recovery_copy_tells_its_warnings_again(qtbot, tmp_path, damaged):
    path, _theme = damaged
    window = open_window(qtbot, tmp_path, None, source=path)
    edit_a_paragraph(window)
    qtbot.mouseClick(window.files.warnings_notice.action_button, Qt.LeftButton)
    qtbot.mouseClick(window.files.warnings_notice.close_button, Qt.LeftButton)
    window.files.set_repair_damaged(False)  # the copy keeps the part as read, so it is damaged again when restored
    window.files.autosaver.save_now()
    pending = next(e for e in window.files.recovery.entries() if e.original_path == str(path))
    window.files.set_repair_damaged(True)
    with qtbot.waitSignal(window.view.layoutFinished, timeout=10_000):
        assert window.files.open_recovered(pending)
    assert window.files.warnings_notice.isVisible() and THEME in window.files.warnings_notice.label.text()
    assert window.files.damaged_parts == KEEP and not window.files.warnings_notice.action_button.isChecked()


# -- Strict Open XML --------------------------------------------------------------------------------------


def test_a_strict_document_says_it_will_be_saved_as_a_standard_one(qtbot, tmp_path):
    copy = tmp_path / "strict.docx"
    copy.write_bytes(STRICT.read_bytes())  # not the mode: the corpus may be read-only
    window = open_window(qtbot, tmp_path, None, source=copy)
    notice = window.files.warnings_notice
    assert notice.isVisible() and not notice.action_button.isVisible()  # nothing to repair
    assert notice.label.text() == (
        "This document opened with a warning:\n• This document is in Strict Open XML format. It was read as a "
        "standard Word document and will be saved as one (Word opens both).")
    assert window.files.save_document()
    saved = copy.read_bytes()
    with zipfile.ZipFile(io.BytesIO(saved)) as z:
        assert not any(b"purl.oclc.org/ooxml" in z.read(n) for n in z.namelist() if n.endswith((".xml", ".rels")))
    assert DocxReviewer.from_bytes(saved).open_warnings == []


# -- the options themselves -----------------------------------------------------------------------------------


def test_save_options_hold_the_choice_and_it_alone_makes_no_copy():
    assert SaveOptions().damaged_parts == KEEP
    assert not SaveOptions(damaged_parts=REBUILD).makes_copy
    assert SaveOptions(("remove-timestamps",), damaged_parts=REBUILD).makes_copy
    assert SaveOptions(keep_comments=False).makes_copy and SaveOptions(anonymise_authors=True).makes_copy
    with pytest.raises(ValueError, match="damaged_parts must be one of"):
        SaveOptions(damaged_parts="mend")
