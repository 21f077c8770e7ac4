"""The README's screenshots of Find and Replace and of the window made narrow.

    xvfb-run -a -s "-screen 0 1600x1000x24" python scripts/desk_screenshots.py [FOLDER]
                                                          (default docs/screenshots)

find-replace.png: the Common Paper pilot agreement with Find and Replace open (Ctrl+H) after Replace
All of "Pilot" by "Trial": the replacements on the page as tracked changes, the dialog saying how many
it made. narrow-window.png: the same window made narrow, the side panels folded to a strip so the page
keeps its width. A dialog is a window of its own, so it is drawn onto the window's picture where it
stands. Settings live in a temporary folder, so the user's own are never read or changed. Without a
display, Qt's offscreen platform is used instead of Xvfb.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from review_screenshots import PILOT, settle
from shot_helpers import review_window, wait_for, workspace

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def save_with(window, dialogs, path: Path) -> None:
    """The window with its dialogs drawn where they stand, as a 256-colour PNG."""
    from PySide6.QtCore import QRect, Qt
    from PySide6.QtGui import QColor, QImage, QPainter, QPen

    image = window.grab().toImage().convertToFormat(QImage.Format_RGB32)
    painter = QPainter(image)
    title = 28  # a plain title bar, as a window manager would draw one
    for dialog in dialogs:
        at = window.mapFromGlobal(dialog.mapToGlobal(dialog.rect().topLeft()))
        frame = QRect(at.x() - 1, at.y() - title, dialog.width() + 2, dialog.height() + title + 1)
        painter.fillRect(frame, QColor("#dadce0"))
        painter.fillRect(QRect(at, dialog.size()), dialog.palette().window())
        painter.setPen(QColor("#202124"))
        painter.drawText(QRect(frame.x() + 10, frame.y(), frame.width() - 20, title), Qt.AlignVCenter,
                         dialog.windowTitle())
        painter.drawImage(at, dialog.grab().toImage())
        painter.setPen(QPen(QColor("#80868b"), 1))
        painter.drawRect(frame)
    painter.end()
    image = image.convertToFormat(QImage.Format_Indexed8, Qt.ThresholdDither | Qt.AvoidDither)
    image.save(str(path), "PNG", 0)


def main(argv: list[str]) -> int:
    out = Path(argv[1]) if len(argv) > 1 else ROOT / "docs" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    work = workspace()

    from PySide6.QtCore import QPoint
    from PySide6.QtWidgets import QApplication


    app = QApplication.instance() or QApplication(argv[:1])
    document = work / "Pilot Agreement.docx"
    document.write_bytes(PILOT.read_bytes())
    window = review_window(app, work, document)  # the pages and the panels, without the Claude panel

    dialog = window.commands.show_replace()
    dialog.find_field.setText("Pilot")
    dialog.replace_field.setText("Trial")
    dialog.replace_all()
    wait_for(app, lambda: "Replaced" in dialog.status.text())
    dialog.move(window.mapToGlobal(QPoint(window.width() - dialog.width() - 380, 150)))
    settle(app, 800)
    save_with(window, [dialog], out / "find-replace.png")
    dialog.reject()

    window.dock.show()
    window.resize(900, 940)  # narrow: the panels fold to a strip, the page keeps its width
    settle(app, 1200)
    save_with(window, [], out / "narrow-window.png")
    window.close()
    for name in ("find-replace.png", "narrow-window.png"):
        print(out / name)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
