"""Painting one page: the white sheet, table rules, the laid-out text (which already carries the
redline formats), change bars, comment balloons, search hits, the selection and the caret."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPainterPath, QPen

from ..layout import Page
from .review_marks import ReviewIndex, change_bars, text_edges

CANVAS = QColor("#a7aaaf")
SHEET = QColor("#ffffff")
SHADOW = QColor(0, 0, 0, 60)
SELECTION = QColor("#9fc3ff")  # multiplied over the text, which stays dark
HIGHLIGHT = QColor("#ffc24d")
BALLOON = QColor("#f2b705")
RULE_PEN = QPen(QColor("#000000"), 0.75)


@dataclass
class Overlay:
    """What the view adds on top of a page, in page coordinates."""

    selection: list[QRectF] = field(default_factory=list)
    highlights: list[QRectF] = field(default_factory=list)
    caret: QRectF | None = None


def paint_page(painter: QPainter, page: Page, target: QRectF, zoom: float, marks: ReviewIndex,
               overlay: Overlay | None = None) -> None:
    """Paint `page` into `target` (device rectangle, page size times zoom)."""
    painter.fillRect(target.translated(2, 2), SHADOW)
    painter.fillRect(target, SHEET)
    painter.save()
    try:  # a painter left with saved states after an exception crashes Qt: always restore
        painter.translate(target.topLeft())
        painter.scale(zoom, zoom)
        painter.setClipRect(QRectF(0, 0, page.width, page.height))
        for rect, color in page.fills:  # cell shading goes under the text and the rules
            painter.fillRect(rect, QColor(color))
        _rules(painter, page)
        for frag in page.fragments:
            frag.draw(painter)
        left, right = text_edges(page)
        for rect, color in change_bars(page, left):
            painter.fillRect(rect, color)
        _balloons(painter, marks, page, right)
        if overlay is not None:
            _overlay(painter, overlay)
    finally:
        painter.restore()


def _rules(painter: QPainter, page: Page) -> None:
    if not page.rules:
        return
    painter.setPen(RULE_PEN)
    painter.setBrush(Qt.NoBrush)
    for rule in page.rules:
        if rule.height() < 1.5:  # the footnote separator is a thin filled bar
            painter.fillRect(rule, Qt.black)
        else:
            painter.drawRect(rule)


def _balloons(painter: QPainter, marks: ReviewIndex, page: Page, right: float) -> None:
    balloons = marks.balloons(page, right)
    if not balloons:
        return
    painter.save()
    painter.setRenderHint(QPainter.Antialiasing)
    painter.setFont(_balloon_font())
    for b in balloons:
        r = b.rect
        path = QPainterPath()
        path.addRoundedRect(r, 3, 3)
        tail = QPainterPath(QPointF(r.left() + 1, r.center().y() - 3))
        tail.lineTo(r.left() - 5, r.center().y())
        tail.lineTo(r.left() + 1, r.center().y() + 3)
        path = path.united(tail)
        painter.fillPath(path, BALLOON)
        painter.setPen(QColor("#3a2c00"))
        painter.drawText(r, Qt.AlignCenter, str(b.number or "•"))
    painter.restore()


@cache
def _balloon_font() -> QFont:  # built on first use: a QFont needs the QGuiApplication
    font = QFont("Liberation Sans")
    font.setPixelSize(11)
    font.setBold(True)
    return font


def _overlay(painter: QPainter, overlay: Overlay) -> None:
    if overlay.highlights or overlay.selection:
        painter.save()
        painter.setCompositionMode(QPainter.CompositionMode_Multiply)
        for rect in overlay.highlights:
            painter.fillRect(rect, HIGHLIGHT)
        for rect in overlay.selection:
            painter.fillRect(rect, SELECTION)
        painter.restore()
    if overlay.caret is not None:
        painter.fillRect(QRectF(overlay.caret.x(), overlay.caret.y(), 1.0, overlay.caret.height()), Qt.black)
