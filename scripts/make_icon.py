"""Draw the app icon: a page with a struck-out line and an inserted one (a redline), on a blue tile.

    QT_QPA_PLATFORM=offscreen python scripts/make_icon.py [OUT_DIR]     (default resources/)

Writes folio-desktop.png (256 px, the window icon and the Linux build's icon) and folio-desktop.ico
(the Windows executable's icon; PyInstaller needs .ico there). Drawn with QtGui so no image tool is
needed; run it again only to change the design.
"""

from __future__ import annotations

import os
import struct
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QBuffer, QIODevice, QPointF, QRectF, Qt  # noqa: E402
from PySide6.QtGui import QColor, QGuiApplication, QImage, QPainter, QPainterPath, QPen  # noqa: E402

SIZE = 256
OUT = Path(__file__).resolve().parent.parent / "resources"


def draw(size: int = SIZE) -> QImage:
    image = QImage(size, size, QImage.Format_ARGB32_Premultiplied)
    image.fill(Qt.transparent)
    p = QPainter(image)
    p.setRenderHint(QPainter.Antialiasing)
    p.scale(size / 256, size / 256)  # designed on a 256 grid
    p.setPen(Qt.NoPen)
    p.setBrush(QColor("#1f3a5f"))
    p.drawRoundedRect(QRectF(8, 8, 240, 240), 44, 44)
    # the page, with its top-right corner folded down
    page = QPainterPath()
    page.moveTo(62, 36)
    page.lineTo(164, 36)
    page.lineTo(198, 70)
    page.lineTo(198, 220)
    page.lineTo(62, 220)
    page.closeSubpath()
    p.setBrush(QColor("#fbfaf7"))
    p.drawPath(page)
    fold = QPainterPath(QPointF(164, 36))
    fold.lineTo(164, 70)
    fold.lineTo(198, 70)
    fold.closeSubpath()
    p.setBrush(QColor("#c9d3e0"))
    p.drawPath(fold)
    # plain text lines
    p.setBrush(QColor("#9aa6b5"))
    for y, width in ((62, 84), (84, 112), (150, 112), (172, 96), (194, 70)):
        p.drawRoundedRect(QRectF(78, y, width, 9), 4, 4)
    # a deleted line: struck through in red
    p.setBrush(QColor("#e6b3b3"))
    p.drawRoundedRect(QRectF(78, 106, 104, 9), 4, 4)
    p.setPen(QPen(QColor("#c0392b"), 5, Qt.SolidLine, Qt.RoundCap))
    p.drawLine(QPointF(74, 110.5), QPointF(186, 110.5))
    # an inserted line: underlined in blue
    p.setPen(Qt.NoPen)
    p.setBrush(QColor("#2e6fd1"))
    p.drawRoundedRect(QRectF(78, 126, 92, 9), 4, 4)
    p.setPen(QPen(QColor("#2e6fd1"), 3, Qt.SolidLine, Qt.RoundCap))
    p.drawLine(QPointF(78, 140), QPointF(170, 140))
    p.end()
    return image


def png_bytes(image: QImage) -> bytes:
    buffer = QBuffer()
    buffer.open(QIODevice.WriteOnly)
    image.save(buffer, "PNG")
    return bytes(buffer.data())


def ico_bytes(png: bytes) -> bytes:
    """An .ico holding one PNG entry (Windows Vista on reads these): 4 KB instead of Qt's 270 KB bitmap."""
    header = struct.pack("<HHH", 0, 1, 1)  # reserved, type 1 = icon, one image
    # width and height 0 mean 256; 1 plane, 32 bits per pixel; then the data size and offset
    entry = struct.pack("<BBBBHHII", 0, 0, 0, 0, 1, 32, len(png), 6 + 16)
    return header + entry + png


def main(argv: list[str]) -> int:
    out = Path(argv[1]) if len(argv) > 1 else OUT
    app = QGuiApplication.instance() or QGuiApplication(argv[:1])  # noqa: F841 - QPainter needs it
    out.mkdir(parents=True, exist_ok=True)
    png = png_bytes(draw())
    for name, data in (("folio-desktop.png", png), ("folio-desktop.ico", ico_bytes(png))):
        (out / name).write_bytes(data)
        print(out / name)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
