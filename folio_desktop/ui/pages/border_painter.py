"""Painting the layout's styled border lines (layout.borders.BorderSegment): single, double and
triple lines, dots and dashes, in the document's colours and widths."""

from __future__ import annotations

from PySide6.QtCore import QLineF, QPointF, Qt
from PySide6.QtGui import QColor, QPainter, QPen

# the lines of a multi-line border: (offset from the centre, width), in units of its total width
_DOUBLE = ((-1 / 3, 1 / 3), (1 / 3, 1 / 3))
_TRIPLE = ((-0.4, 0.2), (0.0, 0.2), (0.4, 0.2))
_THIN_THICK = ((-0.4, 0.2), (0.2, 0.6))
_THICK_THIN = ((-0.2, 0.6), (0.4, 0.2))
_LINES = {"double": _DOUBLE, "doubleWave": _DOUBLE, "triple": _TRIPLE,
          "thinThickThinSmallGap": _TRIPLE, "thinThickThinMediumGap": _TRIPLE, "thinThickThinLargeGap": _TRIPLE,
          "thinThickSmallGap": _THIN_THICK, "thinThickMediumGap": _THIN_THICK, "thinThickLargeGap": _THIN_THICK,
          "thickThinSmallGap": _THICK_THIN, "thickThinMediumGap": _THICK_THIN, "thickThinLargeGap": _THICK_THIN}
_DASHES = {"dotted": Qt.DotLine, "dashed": Qt.DashLine, "dashSmallGap": Qt.DashLine, "dotDash": Qt.DashDotLine,
           "dotDotDash": Qt.DashDotDotLine, "dashDotStroked": Qt.DashDotLine}


def paint_borders(painter: QPainter, segments) -> None:
    if not segments:
        return
    painter.save()
    try:
        painter.setBrush(Qt.NoBrush)
        pens: dict = {}
        for seg in segments:
            lines = _LINES.get(seg.style, ((0.0, 1.0),))
            horizontal = abs(seg.y2 - seg.y1) < abs(seg.x2 - seg.x1)
            for offset, share in lines:
                width = max(seg.width * share, 0.5)
                key = (seg.color, round(width, 2), seg.style)
                pen = pens.get(key)
                if pen is None:
                    pen = pens[key] = QPen(QColor(seg.color), width, _DASHES.get(seg.style, Qt.SolidLine), Qt.FlatCap)
                painter.setPen(pen)
                d = offset * seg.width
                shift = QPointF(0.0, d) if horizontal else QPointF(d, 0.0)
                painter.drawLine(QLineF(QPointF(seg.x1, seg.y1) + shift, QPointF(seg.x2, seg.y2) + shift))
    finally:
        painter.restore()
