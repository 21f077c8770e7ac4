"""The window fits the screen it opens on: a first window takes most of the screen (up to a size at
which the page shows at 75% or more beside the panels), and a saved size larger than the screen
offers now (another monitor, a higher scale factor) is cut down to it and moved onto it, so no panel
is ever left off screen."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QRect, QSize, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget

FIRST_SIZE = QSize(1600, 1000)  # a first window on a large screen
SHARE = 0.92  # of the available screen, at most, on a smaller one


def available(window: QWidget) -> QRect | None:
    """The screen area windows may take on the screen the window is on (or the primary one)."""
    screen = window.screen() or QGuiApplication.primaryScreen()
    return screen.availableGeometry() if screen is not None else None


def first_size(window: QWidget) -> QSize:
    """The size of a window opened without a saved one (see small_screen)."""
    room = available(window)
    if room is None:
        return FIRST_SIZE
    return QSize(min(FIRST_SIZE.width(), int(room.width() * SHARE)),
                 min(FIRST_SIZE.height(), int(room.height() * SHARE)))


def small_screen(window: QWidget) -> bool:
    """A screen smaller than a first window: the window opened without a saved size takes all of it
    (maximized), the page and Claude need every pixel of it."""
    room = available(window)
    return room is not None and (room.width() < FIRST_SIZE.width() or room.height() < FIRST_SIZE.height())


class _FitWhenShown(QObject):
    """Fits a window restored to a saved size once it shows (its frame is known only then), unless
    something sized it since."""

    def __init__(self, window: QWidget):
        super().__init__(window)
        self.size = window.size()
        window.installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt override
        if event.type() == QEvent.Show:
            watched.removeEventFilter(self)
            if watched.size() == self.size:
                QTimer.singleShot(0, lambda: fit_to_screen(watched))
            self.deleteLater()
        return False


def fit_restored(window: QWidget) -> None:
    """A window given a saved geometry: fit it to its screen now, and again with its frame once shown."""
    fit_to_screen(window)
    if not window.isVisible():
        _FitWhenShown(window)


def fit_to_screen(window: QWidget) -> bool:
    """Cut the window down to its screen's available area, frame included, and move it onto it;
    True when it had to change."""
    room = available(window)
    if room is None or window.isMaximized() or window.isFullScreen():
        return False
    frame, inner = window.frameGeometry(), window.geometry()
    extra_w, extra_h = frame.width() - inner.width(), frame.height() - inner.height()
    width = min(inner.width(), room.width() - extra_w)
    height = min(inner.height(), room.height() - extra_h)
    changed = (width, height) != (inner.width(), inner.height())
    if changed:
        window.resize(width, height)
    x = min(max(frame.x(), room.x()), room.x() + room.width() - (width + extra_w))
    y = min(max(frame.y(), room.y()), room.y() + room.height() - (height + extra_h))
    if (x, y) != (frame.x(), frame.y()):
        window.move(x, y)
        changed = True
    return changed
