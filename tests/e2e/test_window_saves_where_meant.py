"""The window saves where the lawyer thinks it does: Ctrl+S on a document opened through a symbolic link
updates the file it points to and keeps the link; a document moved or deleted while open is a
question at Save (Cancel leaves nothing on disk, "save it there again" writes it); the audit log of
the session is readable by the lawyer only. Real key presses in a real window."""

from __future__ import annotations

import os
import stat
import sys

import pytest
from PySide6.QtCore import Qt
from typing_helpers import SAMPLE, click_at, desk

from folio_desktop.docx import DocxReviewer
from folio_desktop.ui.desk.files import CANCEL, OVERWRITE

pytestmark = [pytest.mark.timeout(120), pytest.mark.skipif(sys.platform == "win32", reason="POSIX links")]


def type_into_first_paragraph(qtbot, window, text: str) -> str:
    block = window.reviewer.snapshot().content_blocks[0]
    click_at(qtbot, window.view, block.id, 0)
    qtbot.keyClicks(window.view, text)
    return block.id


def inserted_texts(path) -> list[str]:
    return [c.text for c in DocxReviewer.open(path).get_changes() if c.type == "insertion"]


def test_ctrl_s_through_a_symbolic_link_updates_the_target_and_keeps_the_link(qtbot, tmp_path):
    real = tmp_path / "matters" / SAMPLE.name
    real.parent.mkdir()
    real.write_bytes(SAMPLE.read_bytes())
    link = tmp_path / SAMPLE.name  # desk() opens tmp_path / SAMPLE.name: make that the link
    link.symlink_to(real)

    window = desk(qtbot, tmp_path)
    assert window.path == str(link)
    type_into_first_paragraph(qtbot, window, "Draft ")
    qtbot.keyClick(window, Qt.Key_S, Qt.ControlModifier)

    qtbot.waitUntil(lambda: not window.modified, timeout=5_000)
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert "Draft " in inserted_texts(real)
    assert window.path == str(link)  # the window still shows the name it was opened by


def test_a_document_deleted_while_open_asks_before_it_is_written_again(qtbot, tmp_path):
    window = desk(qtbot, tmp_path)
    path = tmp_path / SAMPLE.name
    type_into_first_paragraph(qtbot, window, "Draft ")
    path.unlink()
    asked = []
    window.files.ask_save_missing = lambda target: asked.append(target) or CANCEL

    qtbot.keyClick(window, Qt.Key_S, Qt.ControlModifier)

    assert asked == [str(path)]
    assert not path.exists(), "the deleted file was created again without asking"
    assert window.modified

    window.files.ask_save_missing = lambda target: OVERWRITE  # "Save It There Again"
    qtbot.keyClick(window, Qt.Key_S, Qt.ControlModifier)
    assert path.exists() and not window.modified
    assert "Draft " in inserted_texts(path)


def test_the_sessions_audit_log_is_private(qtbot, tmp_path):
    window = desk(qtbot, tmp_path)
    type_into_first_paragraph(qtbot, window, "Draft ")
    qtbot.keyClick(window, Qt.Key_S, Qt.ControlModifier)
    qtbot.waitUntil(lambda: not window.modified, timeout=5_000)
    log = window.audit.path
    assert log.exists()
    assert stat.S_IMODE(log.stat().st_mode) == 0o600
    assert stat.S_IMODE(log.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(window.settings.config_dir.stat().st_mode) == 0o700
