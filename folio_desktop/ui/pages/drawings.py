"""Painting drawings: pictures inline in the text and floating drawings (pictures, shapes, text
boxes) where layout/floating.py placed them. The page view and the PDF export share this path.

Media bytes are read and decoded here, at first paint, and the decoded image is kept on the
layout's media store, so a 500-page layout never decodes a picture it does not show. Formats Qt
cannot decode (EMF, WMF, a corrupt file, an external link) draw as a light placeholder of the
picture's size.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPen

from ...layout import Page
from ...layout.floating import T_ANCHOR, Drawing, MediaStore, Shape, inline_picture, inline_shapes

PLACEHOLDER_FILL = QColor("#f1f3f5")
PLACEHOLDER_EDGE = QColor("#c4c9cf")
MAX_IMAGE_PIXELS = 40_000_000  # larger pictures are decoded scaled down (a hostile file's 100k x 100k PNG)


def paint_floating(painter: QPainter, page: Page, front: bool) -> None:
    """The page's floating drawings of one layer: behind the body text (header and footer drawings,
    behindDoc ones) or in front of it, in their stacking order."""
    if not page.drawings:
        return
    layer = [d for d in page.drawings if _in_front(d) == front]
    for drawing in sorted(layer, key=lambda d: (d.story == "main", d.z)):
        for shape in drawing.shapes:
            _paint_shape(painter, page.media, drawing.story, shape)


def _in_front(d: Drawing) -> bool:
    # Word paints header and footer drawings under the body text, whatever their own layer
    return not d.behind and (d.story == "main" or d.story.startswith(("footnote", "endnote")))


def paint_inline(painter: QPainter, page: Page) -> None:
    """Pictures that stand in a line of text, on that line's baseline where layout held their room."""
    for frag in page.fragments:
        para = frag.para
        if not para.drawings:
            continue
        layout = para.layout
        for offset, holder in para.drawings:
            if holder.tag == T_ANCHOR:
                continue
            line = layout.lineForTextPosition(offset)
            if not line.isValid() or not frag.first_line <= line.lineNumber() <= frag.last_line:
                continue
            rect = inline_picture(holder, frag.x + para.x + line.cursorToX(offset)[0],
                                  frag.y + line.y() + line.ascent())
            if rect is None:
                continue
            # an exact line spacing shorter than the picture shows only its foot, as Word does
            box = para.lines[line.lineNumber()]
            clip = 0 < box.height < rect.height() - 0.5
            if clip:
                painter.save()
                painter.setClipRect(QRectF(rect.x(), frag.y + box.y, rect.width(), box.height), Qt.IntersectClip)
            for shape in inline_shapes(holder, rect):
                _paint_shape(painter, page.media, frag.story, shape)
            if clip:
                painter.restore()


def _paint_shape(painter: QPainter, media: MediaStore | None, story: str, shape: Shape) -> None:
    rect = shape.rect
    if rect.width() <= 0 or rect.height() <= 0:
        return
    if shape.kind == "picture":
        image = _image(media, story, shape.embed)
        if image is None or image.isNull():
            _placeholder(painter, rect)
        else:
            painter.drawImage(rect, image)
        return
    if shape.kind == "chart":
        _placeholder(painter, rect)
        return
    painter.save()
    try:
        painter.setPen(QPen(QColor(shape.line), max(shape.line_width, 0.5)) if shape.line else Qt.NoPen)
        painter.setBrush(QColor(shape.fill) if shape.fill else Qt.NoBrush)
        if shape.fill or shape.line:
            if shape.geometry == "ellipse":
                painter.drawEllipse(rect)
            elif shape.geometry == "roundRect":
                radius = min(rect.width(), rect.height()) * 0.1667  # the preset's default adjust
                painter.drawRoundedRect(rect, radius, radius)
            else:
                painter.drawRect(rect)
        if shape.text:
            painter.setClipRect(rect, Qt.IntersectClip)  # text past a fixed box is cut, as in Word
            for frag in shape.text:
                frag.draw(painter)
    finally:
        painter.restore()


def _placeholder(painter: QPainter, rect: QRectF) -> None:
    painter.save()
    try:
        painter.setPen(QPen(PLACEHOLDER_EDGE, 0.75))
        painter.setBrush(PLACEHOLDER_FILL)
        painter.drawRect(rect)
        painter.drawLine(QPointF(rect.left(), rect.top()), QPointF(rect.right(), rect.bottom()))
        painter.drawLine(QPointF(rect.left(), rect.bottom()), QPointF(rect.right(), rect.top()))
    finally:
        painter.restore()


def _image(media: MediaStore | None, story: str, rid: str | None) -> QImage | None:
    """The decoded picture (cached on the layout's media store), or None when it cannot be drawn."""
    if media is None:
        return None
    target = media.target(story, rid)
    if target is None:
        return None
    if target in media.decoded:
        return media.decoded[target]
    image = None
    data = media.read(target)
    if data and not _is_metafile(data):
        image = _decode(data)
    media.decoded[target] = image
    return image


def _decode(data: bytes) -> QImage | None:
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice
    from PySide6.QtGui import QImageReader

    buffer = QBuffer()
    buffer.setData(QByteArray(data))
    buffer.open(QIODevice.ReadOnly)
    reader = QImageReader(buffer)
    size = reader.size()
    if size.isValid() and size.width() * size.height() > MAX_IMAGE_PIXELS:
        scale = (MAX_IMAGE_PIXELS / (size.width() * size.height())) ** 0.5
        reader.setScaledSize(size * scale)
    image = reader.read()
    return None if image.isNull() else image


def _is_metafile(data: bytes) -> bool:
    """EMF (" EMF" at byte 40) or WMF (placeable or standard header): Qt has no reader for them."""
    return data[40:44] == b" EMF" or data[:4] == b"\xd7\xcd\xc6\x9a" or data[:4] in (b"\x01\x00\x09\x00",
                                                                                     b"\x02\x00\x09\x00")
