"""Painting one page: the white sheet, table rules, the laid-out text (which already carries the
redline formats), change bars, the markup area with comment balloons (balloons.py), search hits,
the selection and the caret."""

from __future__ import annotations

from dataclasses import dataclass, field

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen

from ...layout import Page
from .balloons import BADGE, paint_markup_area
from .border_painter import paint_borders
from .drawings import paint_floating, paint_inline
from .geometry import text_edges
from .marks import ReviewIndex, change_bars

CANVAS = QColor("#a7aaaf")
SHEET = QColor("#ffffff")
SHADOW = QColor(0, 0, 0, 60)
SELECTION = QColor("#9fc3ff")  # multiplied over the text, which stays dark
HIGHLIGHT = QColor("#ffc24d")
BALLOON = BADGE  # the numbered comment marker's fill
RULE_PEN = QPen(QColor("#000000"), 0.75)
FOCUS_FRAME = QColor("#2f6fde")  # around the pages while they have the keyboard
FOCUS_FRAME_WIDTH = 3.0


@dataclass
class Overlay:
    """What the view adds on top of a page, in page coordinates."""

    selection: list[QRectF] = field(default_factory=list)
    highlights: list[QRectF] = field(default_factory=list)
    caret: QRectF | None = None


def paint_page(painter: QPainter, page: Page, target: QRectF, zoom: float, marks: ReviewIndex,
               overlay: Overlay | None = None, shadow: bool = True) -> None:
    """Paint `page` into `target` (device rectangle: the page, and the markup area right of it when
    the marks have one for the page's view, times zoom)."""
    markup = marks.markup_width(page.view)
    sheet = QRectF(target.x(), target.y(), page.width * zoom, page.height * zoom)
    if shadow:
        painter.fillRect(QRectF(sheet.x(), sheet.y(), (page.width + markup) * zoom, sheet.height()).translated(2, 2),
                         SHADOW)
    painter.fillRect(sheet, SHEET)
    painter.save()
    try:  # a painter left with saved states after an exception crashes Qt: always restore
        painter.translate(target.topLeft())
        painter.scale(zoom, zoom)
        painter.setClipRect(QRectF(0, 0, page.width, page.height))
        for rect, color in page.fills:  # cell shading goes under the text and the rules
            painter.fillRect(rect, QColor(color))
        paint_floating(painter, page, front=False)  # drawings behind the text, header and footer ones
        _rules(painter, page)
        paint_borders(painter, page.borders)
        for frag in page.fragments:
            frag.draw(painter)
        paint_inline(painter, page)
        paint_floating(painter, page, front=True)
        left, _right = text_edges(page)
        for rect, color in change_bars(page, left):
            painter.fillRect(rect, color)
        if markup > 0:
            painter.setClipRect(QRectF(0, 0, page.width + markup, page.height))
            paint_markup_area(painter, page, marks, markup)
            painter.setClipRect(QRectF(0, 0, page.width, page.height))
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


def paint_focus_frame(painter: QPainter, rect: QRectF) -> None:
    """The frame drawn just inside the pages' edge while they have the keyboard focus."""
    half = FOCUS_FRAME_WIDTH / 2
    painter.save()
    painter.setPen(QPen(FOCUS_FRAME, FOCUS_FRAME_WIDTH))
    painter.setBrush(Qt.NoBrush)
    painter.drawRect(rect.adjusted(half, half, -half, -half))
    painter.restore()
