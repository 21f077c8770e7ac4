"""What any desktop app has (ui/desk/app_shell): Ctrl+P prints the pages as shown, balloons included;
F1 lists every shortcut from the actions themselves; Help > About gives the version and the licences
read from the installed metadata; the toolbar shows icons (drawn in the palette's text colour) with
tooltips that keep the command and its keys; a dark system scheme darkens the app, never the pages."""

from __future__ import annotations

import re
import shutil
import subprocess
from importlib import metadata

import pytest
from key_helpers import activate, no_blocking_dialogs, press, review_window
from pdf_reading import Pdf, has_colour, squash
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAction, QColor, QPalette
from PySide6.QtPrintSupport import QPrintDialog, QPrinter
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QToolButton

from folio_desktop.ui.desk.app_shell.palette import follow_system_scheme, is_dark
from folio_desktop.ui.pages.painter import BALLOON


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    no_blocking_dialogs(monkeypatch)
    return review_window(qtbot, tmp_path)


def print_to_pdf(monkeypatch, target, page_range=(0, 0)):
    """The print dialog answers at once: print to `target` as a PDF file (the range: (0, 0) is all)."""
    asked = []

    def answer(dialog):
        printer = dialog.printer()
        printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
        printer.setOutputFileName(str(target))
        printer.setFromTo(*page_range)
        asked.append(dialog.windowTitle())
        return 1

    monkeypatch.setattr(QPrintDialog, "exec", answer)
    return asked


# -- Print ---------------------------------------------------------------------------------------------

def test_ctrl_p_prints_every_page_as_shown_with_the_balloons(qtbot, window, monkeypatch, tmp_path):
    target = tmp_path / "printed.pdf"
    asked = print_to_pdf(monkeypatch, target)
    press(window.view, Qt.Key_P, Qt.ControlModifier)
    assert asked == ["Print superdoc_word_comments_replies_tracked.docx"]
    data = target.read_bytes()
    pages = window.view.pages
    assert len(re.findall(rb"/Type\s*/Page\b", data)) == len(pages) >= 1
    pdf = Pdf(data)
    for index, page in enumerate(pages):  # every paragraph the view shows on a page is printed on its sheet
        drawn = squash(pdf.text(index))
        assert [f.text() for f in page.fragments if squash(f.text()) not in drawn] == []
    # the comment balloons beside the first page: their badge colour and the comment's text
    assert has_colour(pdf.fill_colours(0), BALLOON)
    thread = window.reviewer.get_comments()[0]
    assert squash(thread.text)[:20] in squash(pdf.text(0))
    assert "Sent 1 page to print" in window.statusBar().currentMessage()
    if shutil.which("pdfinfo"):
        info = subprocess.run(["pdfinfo", str(target)], capture_output=True, text=True).stdout
        assert re.search(rf"^Pages:\s+{len(pages)}$", info, re.M)


def test_print_honours_the_page_range_and_the_markup_view(qtbot, tmp_path, monkeypatch):
    from conftest import CORPUS

    no_blocking_dialogs(monkeypatch)
    window = review_window(qtbot, tmp_path, CORPUS / "eigenpal_docxjs_editor_demo.docx")  # 3 pages
    press(window.view, Qt.Key_3, Qt.ControlModifier | Qt.AltModifier)  # No Markup
    qtbot.waitUntil(lambda: window.view.is_laid_out and window.view.markup_view == "none", timeout=10_000)
    target = tmp_path / "two.pdf"
    print_to_pdf(monkeypatch, target, (2, 3))
    press(window.view, Qt.Key_P, Qt.ControlModifier)
    pdf = Pdf(target.read_bytes())
    assert len(pdf.pages) == 2
    shown = window.view.pages[1]
    assert squash(shown.fragments[0].text()) in squash(pdf.text(0))
    assert not has_colour(pdf.fill_colours(0), BALLOON)  # No Markup prints no balloons


# -- Help ----------------------------------------------------------------------------------------------

def test_f1_lists_every_shortcut_from_the_actions_and_finds_one_as_you_type(qtbot, window):
    press(window.view, Qt.Key_F1)
    dialog = window.shell.shortcuts_dialog
    assert dialog is not None and dialog.isVisible()
    rows = dialog.rows()
    assert ("Accept change", "Ctrl+Shift+A") in rows and ("Print", "Ctrl+P") in rows
    assert ("Keyboard Shortcuts", "F1") in rows and ("Save", "Ctrl+S") in rows
    wanted = {(a.text().replace("&", "").rstrip("…"), a.shortcut().toString())
              for a in window.findChildren(QAction) if not a.shortcut().isEmpty() and a.text()}
    listed = {(text, keys.split(", ")[0]) for text, keys in rows}
    assert wanted <= listed  # every action with a key is there
    qtbot.keyClicks(dialog.filter, "reject")
    assert {text for text, _keys in dialog.rows()} == {"Reject change", "Reject and Move to Next"}
    press(dialog.filter, Qt.Key_Escape)
    assert not dialog.isVisible()
    # an action added later is listed the next time: the dialog is made from the actions
    added = window.review_menu.addAction("Mark as final")
    added.setShortcut("Ctrl+Alt+F")
    activate(qtbot, window)
    press(window.view, Qt.Key_F1)
    assert ("Mark as final", "Ctrl+Alt+F") in window.shell.shortcuts_dialog.rows()


def test_help_about_gives_the_version_and_each_components_licence(qtbot, window):
    QTest.keyClick(window, Qt.Key_H, Qt.AltModifier)  # the Help menu, as a keyboard opens it
    qtbot.waitUntil(lambda: window.help_menu.isVisible(), timeout=2_000)
    QTest.keyClick(window.help_menu, Qt.Key_A)  # its &About item
    dialog = window.shell.about_dialog
    qtbot.waitUntil(lambda: dialog is not None and dialog.isVisible(), timeout=2_000)
    text = dialog.text()
    assert text.startswith(f"folio-desktop {metadata.version('folio-desktop')}")
    for name in ("PySide6-Essentials", "lxml", "anthropic", "python-docx", "keyring", "mcp"):
        licence = metadata.metadata(name).get("License-Expression") or metadata.metadata(name)["License"]
        assert f"{name} {metadata.version(name)}: {licence}" in text
    assert re.search(r"^Qt 6\.[\d.]+: LGPL-3\.0", text, re.M)
    assert "lxml" in text and "BSD-3-Clause" in text and "LGPL-3.0-only OR GPL" in text


# -- the toolbar -----------------------------------------------------------------------------------------

def toolbar_buttons(window) -> dict[str, QToolButton]:
    out = {}
    for action in window.main_toolbar.actions():
        button = window.main_toolbar.widgetForAction(action)
        if isinstance(button, QToolButton):
            out[action.objectName() or action.text()] = button
    return out


def inked(image, colour: QColor) -> int:
    """How many pixels of the image are near `colour`."""
    near = 0
    for y in range(image.height()):
        for x in range(image.width()):
            c = image.pixelColor(x, y)
            if c.alpha() > 200 and abs(c.red() - colour.red()) + abs(c.green() - colour.green()) \
                    + abs(c.blue() - colour.blue()) < 60:
                near += 1
    return near


def test_the_toolbar_shows_icons_with_the_command_and_its_keys_as_tooltip(qtbot, window):
    buttons = toolbar_buttons(window)
    assert {"accept_action", "reject_action", "zoom_in_action", "print_action"} <= set(buttons)
    for name, button in buttons.items():
        assert not button.icon().isNull(), name
        assert button.toolButtonStyle() == Qt.ToolButtonIconOnly, name
    assert window.accept_action.toolTip() == "Accept change (Ctrl+Shift+A)"
    assert window.zoom_in_action.toolTip().startswith("Zoom in (Ctrl++")
    # the icon is drawn in the palette's text colour: dark on a light window
    ink = window.palette().color(QPalette.WindowText)
    assert inked(window.find_action.icon().pixmap(24, 24).toImage(), ink) > 10
    # a click on the Next change button (a real mouse click) selects the first tracked change
    QTest.mouseClick(buttons["next_change_action"], Qt.LeftButton, Qt.NoModifier, QPoint(8, 8))
    assert window.view.selection.selection_text()


# -- the dark palette ------------------------------------------------------------------------------------

@pytest.fixture
def follower(qapp):
    follower = follow_system_scheme(qapp)
    yield follower
    follower.follow(Qt.ColorScheme.Light)  # the next tests get the light palette back


def test_a_dark_system_scheme_darkens_the_window_and_the_pages_stay_white(qtbot, window, follower):
    hints = QApplication.styleHints()
    hints.colorSchemeChanged.emit(Qt.ColorScheme.Dark)  # as the platform tells it when the system goes dark
    qtbot.waitUntil(lambda: is_dark(window.palette()), timeout=2_000)
    assert is_dark(window.changes.list.palette()) and is_dark(window.chat.composer.palette())
    # the icons are drawn again in the dark palette's light text colour
    light_ink = window.palette().color(QPalette.WindowText)
    assert light_ink.lightness() > 200
    assert inked(window.find_action.icon().pixmap(24, 24).toImage(), light_ink) > 10
    # the page is still white paper
    window.view.scroll_to_page(1)
    page = window.view.page_rect(1)
    image = window.view.viewport().grab().toImage()
    corner = image.pixelColor(int(page.left() + 12), int(page.top() + 12))
    assert corner == QColor("#ffffff")
    hints.colorSchemeChanged.emit(Qt.ColorScheme.Light)
    qtbot.waitUntil(lambda: not is_dark(window.palette()), timeout=2_000)
    ink = window.palette().color(QPalette.WindowText)
    assert inked(window.find_action.icon().pixmap(24, 24).toImage(), ink) > 10
