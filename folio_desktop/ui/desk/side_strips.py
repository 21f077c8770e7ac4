"""The side panels make way for the page when the window is narrow: the docks on a side fold into a
strip of buttons (one a panel, its name written down the strip) that open them again, so the page
keeps a readable size instead of shrinking to a sliver between the panels.

Which sides fold is worked out from the window's width alone (plan_sides), so resizing back and
forth never makes the panels flicker: the left side folds first; then Claude's side narrows (down to
NARROW_RIGHT) to keep the page near TARGET_ZOOM; and folds too only when even that leaves the page
below MIN_ZOOM. Zooms are judged in device pixels: at a 2x scale factor a page at 40% is drawn as
large as one at 80% on a plain screen.

A panel opened from its strip (or by its shortcut) while its side is folded shows over the page's
room: the lawyer asked for it. The window saves its layout unfolded (expand_for_saving), so a window
closed narrow opens wide with its panels where they were.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QEvent, QObject, QRectF, QSize, Qt, QTimer
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QDockWidget, QMainWindow, QStyle, QStyleOptionToolButton, QToolBar, QToolButton

from ..pages.geometry import GAP

MIN_ZOOM = 0.5  # the page's fit-width zoom (device pixels) below which the panels start to make way
TARGET_ZOOM = 0.8  # what Claude's side narrows for, once the left side has folded
NARROW_RIGHT = 280  # Claude's side narrows no further than this (px)
SIDE_WIDTHS = {Qt.LeftDockWidgetArea: 320, Qt.RightDockWidgetArea: 370}  # before the lawyer sizes them
CHROME = 24  # the page view's frame, its scroll bar and the docks' separators (px)
STRIP = 30  # a folded side's strip of buttons (px)


@dataclass(frozen=True)
class SidePlan:
    left_open: bool
    right_width: int | None  # None: folded


def page_zoom(central: float, sheet: float) -> float:
    """The zoom fit width gives a sheet `sheet` layout px wide in a central area `central` px wide."""
    return (central - CHROME - 2 * GAP) / sheet


def plan_sides(width: int, dpr: float, sheet: float, left: int, right: int) -> SidePlan:
    """Which sides stay open in a window `width` px wide (device pixel ratio `dpr`) for a page
    `sheet` layout px wide, the left side `left` px wide and the right `right` px (0: no panels open
    there)."""
    def zoom(left_width: int, right_width: int) -> float:
        return page_zoom(width - left_width - right_width, sheet) * dpr

    left_strip = STRIP if left else 0
    if zoom(left, right) >= MIN_ZOOM:
        return SidePlan(True, right or None)
    if not right:
        return SidePlan(False, None)
    narrow = min(right, NARROW_RIGHT)
    # the widest right side that still gives the page TARGET_ZOOM, within [narrow, right]
    room_for_target = width - left_strip - (TARGET_ZOOM / dpr * sheet + CHROME + 2 * GAP)
    chosen = int(min(right, max(narrow, room_for_target)))
    if zoom(left_strip, chosen) >= MIN_ZOOM:
        return SidePlan(False, chosen)
    return SidePlan(False, None)


class StripButton(QToolButton):
    """A strip's button: the panel's name written down the strip, checked while the panel shows."""

    def __init__(self, text: str, parent=None):
        super().__init__(parent)
        self.setText(text)
        self.setCheckable(True)
        self.setFocusPolicy(Qt.NoFocus)  # F6 and the panels' shortcuts are the keyboard's way in

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        metrics = self.fontMetrics()
        return QSize(metrics.height() + 8, metrics.horizontalAdvance(self.text().replace("&", "")) + 16)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return self.sizeHint()

    def paintEvent(self, _event) -> None:  # noqa: N802 - Qt override
        painter = QPainter(self)
        option = QStyleOptionToolButton()
        self.initStyleOption(option)
        option.text = ""
        self.style().drawComplexControl(QStyle.CC_ToolButton, option, painter, self)
        painter.translate(0, self.height())
        painter.rotate(-90)
        painter.setPen(self.palette().buttonText().color())
        painter.drawText(QRectF(0, 0, self.height(), self.width()), Qt.AlignCenter, self.text().replace("&", ""))
        painter.end()


class SideStrips(QObject):
    """Folds the window's side docks into strips when it is narrow (window.side_strips)."""

    def __init__(self, window: QMainWindow, sheet_width, docks: tuple[QDockWidget, ...], parent=None):
        super().__init__(parent or window)
        self.window = window
        self._docks = docks  # the side panels, in the order their buttons take down a strip
        self._sheet_width = sheet_width  # () -> the layout px the page needs (PageView.fit_sheet_width)
        self._plan: SidePlan | None = None
        self._folded: dict[QDockWidget, int] = {}  # docks this folded -> the area they were in
        self._front: set[QDockWidget] = set()  # of those, the ones not tabbed behind another
        self._widths = dict(SIDE_WIDTHS)  # each side's width when last open at full width
        self._right_narrowed = False  # Claude's side is narrower than the lawyer left it, to make room
        self._width_due = False  # the plan's width for Claude's side is still to be given to it
        self.strips: dict[int, QToolBar] = {}
        self.buttons: dict[QDockWidget, StripButton] = {}
        self._actions: dict[QDockWidget, object] = {}  # each button's QAction in its strip
        for area, toolbar_area, name in ((Qt.LeftDockWidgetArea, Qt.LeftToolBarArea, "leftStrip"),
                                         (Qt.RightDockWidgetArea, Qt.RightToolBarArea, "rightStrip")):
            strip = QToolBar(window)
            strip.setObjectName(name)
            strip.setWindowTitle("Folded panels")
            strip.setMovable(False)
            strip.setFloatable(False)
            strip.setOrientation(Qt.Vertical)
            strip.toggleViewAction().setVisible(False)
            window.addToolBar(toolbar_area, strip)
            strip.hide()
            self.strips[area] = strip
        window.installEventFilter(self)

    # -- what folds -------------------------------------------------------------------------------

    def docks(self, area) -> list[QDockWidget]:
        """The docks in an area of the window, not floating (folded ones count where they were)."""
        window = self.window
        return [d for d in self._docks
                if (self._folded.get(d) == area) or (d not in self._folded and not d.isFloating()
                                                     and window.dockWidgetArea(d) == area)]

    def _open_width(self, area) -> int:
        """The width of a side's open panels (its remembered width when folded; 0 with none open)."""
        docks = self.docks(area)
        if not any(d in self._folded or not d.isHidden() for d in docks):
            return 0
        shown = [d.width() for d in docks if d not in self._folded and d.isVisible()]
        if shown and self._roomy() and (area == Qt.LeftDockWidgetArea or not self._right_narrowed):
            self._widths[area] = max(shown)  # as the lawyer left it (not as a squeezed window made it)
        return self._widths[area]

    def _roomy(self) -> bool:
        """Is the window shown with the page at MIN_ZOOM or more (its docks at their own widths)?"""
        window = self.window
        central = window.centralWidget()
        return (window.isVisible() and central is not None
                and page_zoom(central.width(), self._sheet_width()) * window.devicePixelRatioF() >= MIN_ZOOM)

    def update_sides(self) -> SidePlan:
        """Fold or unfold the sides for the window's width now."""
        window = self.window
        plan = plan_sides(window.width(), window.devicePixelRatioF(), self._sheet_width(),
                          self._open_width(Qt.LeftDockWidgetArea), self._open_width(Qt.RightDockWidgetArea))
        if plan != self._plan:
            self._plan = plan
            self._set_folded(Qt.LeftDockWidgetArea, not plan.left_open)
            self._set_folded(Qt.RightDockWidgetArea, plan.right_width is None)
            self._width_due = plan.right_width is not None
        right = [d for d in self.docks(Qt.RightDockWidgetArea) if d.isVisible()]
        if self._width_due and right and window.isVisible():  # docks take a width once they are on screen
            self._width_due = False
            narrowed = plan.right_width < self._widths[Qt.RightDockWidgetArea]
            if narrowed or self._right_narrowed:
                window.resizeDocks(right, [plan.right_width] * len(right), Qt.Horizontal)
            self._right_narrowed = narrowed
        return plan

    def _set_folded(self, area, fold: bool) -> None:
        strip = self.strips[area]
        if fold:
            for dock in self.docks(area):
                if dock not in self._folded and not dock.isHidden():  # a panel the lawyer closed stays closed
                    self._folded[dock] = area
                    if not dock.visibleRegion().isEmpty():  # not a tab behind another: in front again
                        self._front.add(dock)
                    self._button(strip, dock)
                    dock.hide()
            for dock, action in self._actions.items():
                if action in strip.actions():
                    action.setVisible(self._folded.get(dock) == area)
            strip.setVisible(any(where == area for where in self._folded.values()))
        else:
            shown = [dock for dock, where in self._folded.items() if where == area]
            for dock in shown:
                del self._folded[dock]
                dock.show()
            for dock in shown:
                if dock in self._front:
                    dock.raise_()
            self._front.difference_update(shown)
            strip.hide()

    def _button(self, strip: QToolBar, dock: QDockWidget) -> StripButton:
        """The dock's button in this side's strip (made anew when the dock moved to the other side)."""
        action = self._actions.get(dock)
        if action is not None and action not in strip.actions():
            action.parent().removeAction(action)
            del self._actions[dock], self.buttons[dock]
        button = self.buttons.get(dock)
        if button is None:
            title = dock.windowTitle().replace("&", "")
            button = StripButton(title)
            button.setToolTip(f"Show the {title} panel")
            button.setObjectName(dock.objectName() + "Strip")
            button.toggled.connect(lambda on, d=dock: d.setVisible(on))
            dock.visibilityChanged.connect(lambda _v, b=button, d=dock: b.setChecked(not d.isHidden()))
            self.buttons[dock] = button
            self._actions[dock] = strip.addWidget(button)
        button.setChecked(False)
        return button

    def expand_for_saving(self) -> None:
        """Unfold every side: the layout is saved as the lawyer set it, not as a narrow window folded it."""
        for area in list(self.strips):
            self._set_folded(area, False)
        self._plan = None

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt override
        if watched is self.window:
            kind = event.type()
            if kind == QEvent.Show:  # once the docks are laid out and on screen (which tab is in front)
                QTimer.singleShot(0, self, self.update_sides)
            elif kind in (QEvent.Resize, QEvent.DevicePixelRatioChange) and self.window.isVisible():
                self.update_sides()
        return False
