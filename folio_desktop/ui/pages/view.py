"""PageView: a laid-out document as white sheets on a grey canvas, with zoom, selection, search
hits and clickable redlines.

A QAbstractScrollArea rather than a QGraphicsView: pages are painted straight from the layout's
fragments (no scene items to build or keep in sync for 500+ pages), only the visible pages are
painted, and canvas geometry is a sorted list of page tops (geometry.PageStrip).

The view owns the pages, their text flow and review marks, zoom and scrolling, and painting; its
`selection` (selection.PageSelection) owns the caret and the selection, its `input`
(input.PageInput) what the mouse and the keys do. The Qt event handlers stay here and hand each
event to `input`.
"""

from __future__ import annotations

import math
import time

from PySide6.QtCore import QEasingCurve, QPointF, QRectF, Qt, QTimer, QVariantAnimation, Signal
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QAbstractScrollArea

from ...layout import DocumentLayout, Page
from ...layout.display_text import COLOR_SCHEMES, VIEWS
from .balloon_layer import BalloonLayer
from .geometry import GAP, MARKUP_WIDTH, PageStrip
from .input import PageInput, owns_keyboard
from .marks import COMMENT_VIEWS, ReviewIndex, display_offset
from .painter import CANVAS, Overlay, paint_focus_frame, paint_page
from .progressive import ProgressiveLayout
from .quick_relayout import Relayout, same_ends
from .selection import PageSelection
from .text_flow import TextFlow, range_rects

ZOOM_STEPS = (0.5, 0.67, 0.75, 0.9, 1.0, 1.1, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 4.0)
MIN_ZOOM, MAX_ZOOM = ZOOM_STEPS[0], ZOOM_STEPS[-1]
MIN_FIT_ZOOM = 0.1  # fit page in a small window may go below the 50% step
WHEEL_STEP = 120.0  # screen px per wheel notch
SCROLL_MS = 160
RELAYOUT_SLICE_S = 0.012  # an edit's relayout goes on past the pages on screen in slices this long


class PageView(QAbstractScrollArea):
    """The pages of a document: laid out, zoomed, scrolled and painted, with search hits; the
    caret and selection are its `selection`, the mouse and keys its `input`."""

    layoutProgress = Signal(int)  # pages laid out so far
    layoutFinished = Signal(int)  # page count
    layoutFailed = Signal(str)  # a message for the user
    changeClicked = Signal(int)  # census change id
    commentClicked = Signal(int)  # comment id
    zoomChanged = Signal(float)
    selectionChanged = Signal()
    editingNotice = Signal(str)  # a sentence for the lawyer: where typing does not work, and why
    pagesRelaidOut = Signal(int, int)  # first and last page an edit laid out again
    firstPagePainted = Signal()  # a document's first page is on screen (emitted once per document shown)

    editor = None  # a PageEditor when the pages can be typed in (it sets itself here)
    keeps_markup_room = True  # fit width leaves room for balloons before there are any (fit_sheet_width)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.pages: list[Page] = []
        self._document_layout: DocumentLayout | None = None  # set when layout has finished
        self._relayout: Relayout | None = None  # an edit's relayout still going on past the pages on screen
        self._first_paint_due = False  # firstPagePainted is still to come for the document shown
        self._relayout_timer = QTimer(self)
        self._relayout_timer.setSingleShot(True)
        self._relayout_timer.setInterval(0)
        self._relayout_timer.timeout.connect(self._relayout_slice)
        self.reviewer = None
        self.painted_pages: list[int] = []  # page numbers painted by the last paint event
        self.smooth_scrolling = True
        self._strip = PageStrip()
        self.flow = TextFlow()  # the laid-out text in reading order: what the caret moves through
        self.marks = ReviewIndex()  # the tracked changes and comments drawn on the pages
        self.selection = PageSelection(self)
        self.input = PageInput(self)
        self._fit: str | None = "width"
        self._highlights: dict[str, list[tuple[int, int]]] = {}
        self._pending_scroll: tuple[str, int] | None = None
        self._restore_scroll: int | None = None
        self._view = "all"  # the markup view (layout.display_text.VIEWS)
        self._colors = "author"  # how changes are coloured (layout.display_text.COLOR_SCHEMES)
        self._restore_page: tuple[int, float] | None = None
        self._runner = ProgressiveLayout(self)
        self._runner.pagesReady.connect(self._add_pages)
        self._runner.finished.connect(self._layout_done)
        self._runner.failed.connect(self.layoutFailed)
        self._scroll_anim = QVariantAnimation(self)
        self._scroll_anim.setDuration(SCROLL_MS)
        self._scroll_anim.setEasingCurve(QEasingCurve.OutCubic)
        self._scroll_anim.valueChanged.connect(lambda v: self.verticalScrollBar().setValue(round(v)))
        self.setFocusPolicy(Qt.StrongFocus)  # a click, Tab or F6 (desk/panes.py) gives the pages the keyboard
        # always there, as in Word: a scroll bar that came and went with the zoom would change the width
        # fit width fills, and the zoom with it, over and over
        self.setVerticalScrollBarPolicy(Qt.ScrollBarAlwaysOn)
        self.setAttribute(Qt.WA_InputMethodEnabled, True)  # CJK and other input methods type here
        self.viewport().setCursor(Qt.IBeamCursor)
        self.viewport().setAutoFillBackground(False)
        self.balloons = BalloonLayer(self)  # clicks, Reply / Resolve / Reopen in the markup area
        self.commentClicked.connect(self.balloons.activate)

    # -- documents -------------------------------------------------------------------------------

    def set_document(self, reviewer) -> None:
        """Show a DocxReviewer's document; pages appear as they are laid out (layoutProgress, then
        layoutFinished)."""
        if reviewer is not self.reviewer:
            self._first_paint_due = True
        self._reset()
        self.marks = self._index(reviewer, self._view)
        self.reviewer = reviewer
        self._runner.start(reviewer.document, view=self._view, colors=self._colors)

    def set_layout(self, layout: DocumentLayout, reviewer=None) -> None:
        """Show a layout computed elsewhere (reviewer: for mapping clicks to changes and comments)."""
        self._first_paint_due = True
        self._reset()
        self.marks = self._index(reviewer, layout.view)
        self.reviewer = reviewer
        self._add_pages(list(layout.pages))
        self._layout_done(layout)

    def relayout(self) -> None:
        """Lay the current document out again (after an edit), keeping zoom and scroll position."""
        if self.reviewer is not None:
            value = self.verticalScrollBar().value()
            self.set_document(self.reviewer)
            self._restore_scroll = value

    @property
    def document_layout(self) -> DocumentLayout | None:
        """The finished layout (None while a document is first laid out). An edit's relayout still
        going on past the pages on screen is finished first: what callers read is exact."""
        if self._relayout is not None:
            self._advance_relayout()
        return self._document_layout

    @property
    def is_laid_out(self) -> bool:
        """Has the document been laid out (an edit's relayout may still be going on)?"""
        return self._document_layout is not None

    @property
    def relayout_pending(self) -> bool:
        """Is an edit's relayout still going on (the pages past the ones on screen may be stale)?"""
        return self._relayout is not None

    def relayout_blocks(self, block_ids) -> None:
        """After an edit of these blocks: lay out again only the pages it reaches (quick_relayout)
        and show them, keeping zoom, scroll position, caret and selection (by their place in the
        text). The pages on screen are laid out at once; when the edit moved the pages after them
        too, those follow in slices while the event loop idles (painting one first finishes it).
        Without a finished layout, or with no blocks named, the whole document."""
        layout = self._document_layout
        if layout is None or not block_ids or self.reviewer is None:
            self.relayout()
            return
        trusted = None
        if self._relayout is not None:  # a newer edit: it goes on from where the last one stands
            trusted = self._relayout.done
            self._relayout.close()
            self._relayout = None
        self.marks = self._index(self.reviewer, layout.view)
        self._relayout = Relayout(layout, set(block_ids), trusted)
        self._advance_relayout(self._last_visible_page() + 2)

    def _last_visible_page(self) -> int:
        top = self.verticalScrollBar().value()
        shown = self._strip.visible(top, top + self.viewport().height())
        return shown[-1] + 1 if shown else 1

    def _advance_relayout(self, until_page: int | None = None, deadline: float | None = None) -> None:
        """Take the edit's relayout on (to its end, past `until_page`, or to `deadline`) and show the
        pages it made, keeping caret and selection by their place in the text."""
        relayout = self._relayout
        selection = self.selection
        caret, anchor = selection.caret_mark(), selection.anchor_mark()
        before = self.pages
        if relayout.advance(until_page, deadline):
            self._relayout = None
            if self.editor is not None:  # the new pages live on: out of the collector's way (PageEditor)
                self.editor.freeze_survivors()
        else:
            self._relayout_timer.start()
        after = list(relayout.layout.pages)
        head, tail = same_ends(before, after)
        first, last, old_last = head + 1, len(after) - tail, len(before) - tail
        self.pages = after
        if len(after) == len(before):
            self._strip.splice(head, old_last, [(self._sheet_width(p), p.height) for p in after[head:last]])
        else:
            self._strip.set_sizes([(self._sheet_width(p), p.height) for p in after])
        if self.flow.entries and first <= len(before) + 1:
            self.flow.replace_pages(after, first, last, old_last)
        else:
            self.flow = TextFlow()
            for page in after:
                self.flow.add_page(page)
        selection.anchor = selection.caret = None
        here = selection.unmark(caret)
        if here is not None:  # a caret whose block went leaves no anchor behind either (painting needs both)
            selection.anchor, selection.caret = selection.unmark(anchor) or here, here
        self._update_scrollbars()
        top = self.verticalScrollBar().value()
        shown = self._strip.visible(top, top + self.viewport().height())
        if len(after) != len(before) or (shown and first <= shown[-1] + 1 and last >= shown[0] + 1):
            self.viewport().update()  # (pages laid out past the screen change nothing on it)
        if first <= last:
            self.pagesRelaidOut.emit(first, last)

    def _relayout_slice(self) -> None:
        if self._relayout is not None:
            self._advance_relayout(deadline=time.perf_counter() + RELAYOUT_SLICE_S)

    def _index(self, reviewer, view: str) -> ReviewIndex:
        """A fresh index of changes and comments; the thread picked (and a reply or a comment being
        written) stays when the same document is laid out again."""
        marks, old = ReviewIndex(reviewer, view), self.marks
        if reviewer is not None and reviewer is old.reviewer:
            marks.active, marks.replying, marks.draft, marks.editing = old.active, old.replying, old.draft, old.editing
        marks.author = old.author
        return marks

    @property
    def markup_view(self) -> str:
        return self._view

    def set_markup_view(self, view: str) -> None:
        """Show the document in a markup view: "all" (redlines and comment balloons), "simple" (the
        text as accepted, change bars and balloons), "none" (the text as accepted, nothing marked)
        or "original" (the text as if every change were rejected). Lays the pages out again, keeping
        the reading position on the same page."""
        if view not in VIEWS:
            raise ValueError(f"unknown markup view {view!r}; expected one of {', '.join(VIEWS)}")
        if view == self._view:
            return
        self._view = view
        if self.reviewer is not None:
            number = max(self.current_page(), 1)
            rect = self._strip.page_rect(number - 1, self.viewport().width()) if self.pages else None
            fraction = (self.verticalScrollBar().value() - rect.top()) / rect.height() if rect else 0.0
            self.set_document(self.reviewer)
            self._restore_page = (number, fraction)

    def set_change_colors(self, colors: str) -> None:
        """"author" (each author's colour, the default) or "kind" (insertions and deletions in two
        colours whoever made them, as a comparison reads); applies from the next layout."""
        if colors not in COLOR_SCHEMES:
            raise ValueError(f"unknown change colours {colors!r}; expected one of {', '.join(COLOR_SCHEMES)}")
        self._colors = colors

    def _sheet_width(self, page: Page) -> float:
        """The page and, when its view shows comments and there are some, the markup area beside it."""
        return page.width + self.marks.markup_width(page.view)

    def refresh_sheets(self) -> None:
        """The markup area came or went (a comment being written where there was none): every sheet
        takes its new width, the fit is kept."""
        self._strip.set_sizes([(self._sheet_width(p), p.height) for p in self.pages])
        if self._fit:
            self._apply_fit()
        self._update_scrollbars()
        self.viewport().update()

    def _reset(self) -> None:
        self._runner.cancel()
        if self._relayout is not None:
            self._relayout.close()
            self._relayout = None
        self.pages = []
        self._document_layout = None
        self._strip.clear()
        self.flow = TextFlow()
        self.selection.anchor = self.selection.caret = None
        self._pending_scroll = None
        self._restore_scroll = None
        self._restore_page = None
        self._update_scrollbars()
        self.viewport().update()

    def _add_pages(self, pages: list[Page]) -> None:
        first = not self.pages
        wider = any(self._sheet_width(p) > self._strip.max_width() for p in pages) and not first
        for page in pages:
            self.pages.append(page)
            self._strip.append(self._sheet_width(page), page.height)
            self.flow.add_page(page)
        if self._fit and (first or (wider and self._fit == "width")):
            self._apply_fit()
        self._update_scrollbars()
        v = self.verticalScrollBar()
        if self._restore_scroll is not None and v.maximum() >= self._restore_scroll:
            v.setValue(self._restore_scroll)  # once enough pages are back (relayout)
            self._restore_scroll = None
        if self._restore_page is not None and len(self.pages) >= self._restore_page[0]:
            number, fraction = self._restore_page  # the same page in another markup view
            rect = self._strip.page_rect(number - 1, self.viewport().width())
            v.setValue(round(rect.top() + fraction * rect.height()))
            self._restore_page = None
        if self._pending_scroll and self.flow.block_entries(self._pending_scroll[0]):
            self.scroll_to_block(*self._pending_scroll)
        self.viewport().update()
        self.layoutProgress.emit(len(self.pages))

    def _layout_done(self, layout: DocumentLayout) -> None:
        replaced = len(layout.pages) != len(self.pages) or any(a is not b for a, b in zip(layout.pages, self.pages))
        if replaced:  # a second pass (NUMPAGES) replaced every page
            count = len(self.flow.entries)
            self.pages = list(layout.pages)
            self._strip.set_sizes([(self._sheet_width(p), p.height) for p in self.pages])
            self.flow = TextFlow()
            for page in self.pages:
                self.flow.add_page(page)
            if len(self.flow.entries) != count:
                self.selection.anchor = self.selection.caret = None
            self._update_scrollbars()
            self.viewport().update()
        self._document_layout = layout
        self._pending_scroll = self._restore_scroll = self._restore_page = None
        self.layoutFinished.emit(len(self.pages))

    @property
    def is_laying_out(self) -> bool:
        return self._runner.running

    def finish_layout(self) -> DocumentLayout | None:
        """Run a layout still in progress to its end now, on this thread, and return the finished
        layout (None if it failed or no document is shown). For callers that need exact page
        numbers at once; the pages laid out so far are kept, not redone."""
        while self._runner.running:
            self._runner._slice()  # emits pagesReady / finished exactly as the timer-driven slices do
        return self.document_layout  # (an edit's relayout still going on is finished too)

    # -- geometry ---------------------------------------------------------------------------------

    def _scroll(self) -> QPointF:
        return QPointF(self.horizontalScrollBar().value(), self.verticalScrollBar().value())

    def page_rect(self, number: int) -> QRectF:
        """Viewport rectangle of page `number` (1-based)."""
        rect = self._strip.page_rect(number - 1, self.viewport().width())
        return rect.translated(-self._scroll())

    def page_to_viewport(self, number: int, point: QPointF) -> QPointF:
        return self._strip.from_page(number - 1, point, self.viewport().width()) - self._scroll()

    def viewport_to_page(self, point: QPointF) -> tuple[int, QPointF] | None:
        """(page number, page point) under a viewport point; gaps go to the page above."""
        canvas = QPointF(point) + self._scroll()
        index = self._strip.nearest(canvas.y())
        if index < 0:
            return None
        return index + 1, self._strip.to_page(index, canvas, self.viewport().width())

    def current_page(self) -> int:
        """The page under the middle of the viewport (0 when nothing is shown)."""
        if not self.pages:
            return 0
        return self._strip.nearest(self.verticalScrollBar().value() + self.viewport().height() / 2) + 1

    def _update_scrollbars(self) -> None:
        vw, vh = self.viewport().width(), self.viewport().height()
        h, v = self.horizontalScrollBar(), self.verticalScrollBar()
        # (fit width makes the sheet exactly as wide as the viewport: a rounding error is no overflow)
        h.setRange(0, max(0, math.ceil(self._strip.canvas_width(vw) - vw - 1e-6)))
        h.setPageStep(vw)
        h.setSingleStep(20)
        v.setRange(0, max(0, math.ceil(self._strip.canvas_height() - vh)))
        v.setPageStep(vh)
        v.setSingleStep(40)

    # -- zoom ---------------------------------------------------------------------------------------

    @property
    def zoom(self) -> float:
        return self._strip.zoom

    def set_zoom(self, factor: float) -> None:
        """Zoom to `factor` (clamped to 50-400%); leaves fit-width / fit-page mode."""
        self._fit = None
        self._apply_zoom(min(max(factor, MIN_ZOOM), MAX_ZOOM))

    def zoom_in(self, anchor: QPointF | None = None) -> None:
        self._fit = None
        self._apply_zoom(next((z for z in ZOOM_STEPS if z > self.zoom + 1e-3), MAX_ZOOM), anchor)

    def zoom_out(self, anchor: QPointF | None = None) -> None:
        self._fit = None
        self._apply_zoom(next((z for z in reversed(ZOOM_STEPS) if z < self.zoom - 1e-3), MIN_ZOOM), anchor)

    def fit_width(self) -> None:
        self._fit = "width"
        self._apply_fit()

    def fit_page(self) -> None:
        self._fit = "page"
        self._apply_fit()

    @property
    def fit_mode(self) -> str | None:
        return self._fit

    def _apply_fit(self) -> None:
        if not self.pages:
            return
        vw, vh = self.viewport().width(), self.viewport().height()
        zoom = (vw - 2 * GAP) / self.fit_sheet_width()
        number = self.current_page()
        if self._fit == "page":
            _w, height = self._strip.sizes[number - 1]
            zoom = min(zoom, (vh - 2 * GAP) / height)
        self._apply_zoom(min(max(zoom, MIN_FIT_ZOOM), MAX_ZOOM))
        if self._fit == "page":
            self.scroll_to_canvas_y(self._strip.page_rect(number - 1, vw).top() - GAP)

    def fit_sheet_width(self) -> float:
        """The width fit width makes room for (layout px): the widest page and, in a view that shows
        comments, the markup area beside it even before the first comment, so that the balloons
        appearing never shrink the text (unless `keeps_markup_room` is off: pages no one comments on)."""
        if not self.keeps_markup_room:
            return self._strip.max_width()
        pages = max((p.width for p in self.pages), default=self._strip.max_width())
        return pages + (MARKUP_WIDTH if self._view in COMMENT_VIEWS else 0.0)

    def _apply_zoom(self, zoom: float, anchor: QPointF | None = None) -> None:
        """Change zoom keeping the document point under `anchor` (default: viewport centre) still."""
        if anchor is None:
            anchor = QPointF(self.viewport().width() / 2, self.viewport().height() / 2)
        held = self.viewport_to_page(anchor)
        self._scroll_anim.stop()
        changed = abs(zoom - self._strip.zoom) > 1e-6
        self._strip.set_zoom(zoom)
        self._update_scrollbars()
        if held is not None and changed:
            number, point = held
            canvas = self._strip.from_page(number - 1, point, self.viewport().width())
            self.horizontalScrollBar().setValue(round(canvas.x() - anchor.x()))
            self.verticalScrollBar().setValue(round(canvas.y() - anchor.y()))
        self.viewport().update()
        if changed:
            self.zoomChanged.emit(zoom)

    # -- scrolling ----------------------------------------------------------------------------------

    def scroll_to_block(self, block_id: str, offset: int = 0) -> bool:
        """Bring the page holding accepted-view `offset` of a block into view and select the block.
        While layout is still running, an unknown block is remembered and shown when it arrives."""
        entries = self.flow.block_entries(block_id)
        if not entries:
            if self._runner.running:
                self._pending_scroll = (block_id, offset)
            return False
        self._pending_scroll = None
        index = next((i for i in entries if offset < self.flow.entries[i][1].accepted_range[1]), entries[-1])
        number, frag = self.flow.entries[index]
        self.selection.select_block(block_id)
        self._show_page_point(number, QPointF(frag.x + frag.para.x, frag.top))
        return True

    def scroll_to_page(self, number: int) -> None:
        if 1 <= number <= len(self.pages):
            self.scroll_to_canvas_y(self._strip.page_rect(number - 1, self.viewport().width()).top() - GAP)

    def _show_page_point(self, number: int, point: QPointF) -> None:
        """Scroll so a page point shows in the upper part of the viewport, with the viewport's
        middle still on that page (so current_page() reports it)."""
        vw, vh = self.viewport().width(), self.viewport().height()
        rect = self._strip.page_rect(number - 1, vw)
        canvas = self._strip.from_page(number - 1, point, vw)
        if rect.height() <= vh - 2 * GAP:
            y = rect.center().y() - vh / 2
        else:
            y = min(max(canvas.y() - vh * 0.25, rect.top() - vh / 2 + 1), rect.bottom() - vh / 2 - 1)
        self.scroll_to_canvas_y(y)
        h = self.horizontalScrollBar()
        if not h.value() <= canvas.x() <= h.value() + vw:
            h.setValue(round(canvas.x() - 40))

    def scroll_to_canvas_y(self, y: float) -> None:
        self._scroll_anim.stop()
        self.verticalScrollBar().setValue(round(y))

    def ensure_caret_visible(self) -> None:
        caret = self.selection.caret
        if caret is None:
            return
        number, rect = self.flow.caret_rect(caret)
        top = self.page_to_viewport(number, rect.topLeft())
        bottom = self.page_to_viewport(number, rect.bottomLeft())
        v, vh = self.verticalScrollBar(), self.viewport().height()
        if top.y() < 0:
            self.scroll_to_canvas_y(v.value() + top.y() - 20)
        elif bottom.y() > vh:
            self.scroll_to_canvas_y(v.value() + bottom.y() - vh + 20)

    def scrollContentsBy(self, dx: int, dy: int) -> None:  # noqa: N802 - Qt override
        self.viewport().update()

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        if self._fit:
            self._apply_fit()
        self._update_scrollbars()

    def wheelEvent(self, event) -> None:  # noqa: N802
        steps = event.angleDelta().y() / 120
        if event.modifiers() & Qt.ControlModifier:
            if steps > 0:
                self.zoom_in(event.position())
            elif steps < 0:
                self.zoom_out(event.position())
            event.accept()
            return
        if not self.smooth_scrolling or not steps or not event.pixelDelta().isNull():
            super().wheelEvent(event)  # touchpads send pixel deltas: follow them directly
            return
        v = self.verticalScrollBar()
        running = self._scroll_anim.state() == QVariantAnimation.Running
        start = self._scroll_anim.endValue() if running else v.value()
        target = min(max(start - steps * WHEEL_STEP, v.minimum()), v.maximum())
        self._scroll_anim.stop()
        self._scroll_anim.setStartValue(float(v.value()))
        self._scroll_anim.setEndValue(float(target))
        self._scroll_anim.start()
        event.accept()

    # -- mouse, keys and input methods: PageInput's ------------------------------------------------

    def mousePressEvent(self, event) -> None:  # noqa: N802 - Qt override
        if not self.input.mouse_press(event):
            super().mousePressEvent(event)

    def mouseMoveEvent(self, event) -> None:  # noqa: N802 - Qt override
        self.input.mouse_move(event)

    def mouseReleaseEvent(self, event) -> None:  # noqa: N802 - Qt override
        self.input.mouse_release(event)

    def mouseDoubleClickEvent(self, event) -> None:  # noqa: N802 - Qt override
        self.input.mouse_double_click(event)

    def keyPressEvent(self, event) -> None:  # noqa: N802 - Qt override
        if not owns_keyboard(self):
            event.ignore()  # up from a child with the focus (the reply editor): not the pages' (input.py)
        elif not self.input.key_press(event):
            super().keyPressEvent(event)

    def focusNextPrevChild(self, forward: bool) -> bool:  # noqa: N802 - Qt override
        # Tab types a tab in the pages (as in Word) instead of moving the focus on; from the reply
        # editor inside them it moves the focus as anywhere else
        if self.editor is not None and owns_keyboard(self):
            return False
        return super().focusNextPrevChild(forward)

    def inputMethodEvent(self, event) -> None:  # noqa: N802 - Qt override
        if owns_keyboard(self):
            self.input.input_method(event)
        else:
            event.ignore()

    def focusInEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().focusInEvent(event)
        self.viewport().update()  # the focus frame and the caret

    def focusOutEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().focusOutEvent(event)
        self.viewport().update()

    def inputMethodQuery(self, query):  # noqa: N802 - Qt override
        answer = self.input.input_method_query(query)
        return answer if answer is not None else super().inputMethodQuery(query)

    # -- painting -------------------------------------------------------------------------------------

    def set_highlights(self, hits) -> None:
        """Highlight search hits: [(block_id, start, end), ...] in accepted-view offsets."""
        self._highlights = {}
        for block_id, start, end in hits:
            self._highlights.setdefault(block_id, []).append((start, end))
        self.viewport().update()


    def paintEvent(self, event) -> None:  # noqa: N802
        if self._relayout is not None and self._last_visible_page() > self._relayout.done:
            self._advance_relayout(self._last_visible_page())  # a stale page is never painted
        painter = QPainter(self.viewport())
        area = QRectF(event.rect())
        painted = []
        try:
            painter.fillRect(area, CANVAS)
            scroll = self._scroll()
            vw = self.viewport().width()
            for index in self._strip.visible(scroll.y() + area.top(), scroll.y() + area.bottom()):
                target = self._strip.page_rect(index, vw).translated(-scroll)
                if target.intersects(area):
                    paint_page(painter, self.pages[index], target, self.zoom, self.marks, self._overlay(index))
                    painted.append(index + 1)
            if self.hasFocus():  # where the keyboard is always shows: the pages have it
                paint_focus_frame(painter, QRectF(self.viewport().rect()))
        finally:
            painter.end()
            self.painted_pages = painted
        if painted and self._first_paint_due:
            self._first_paint_due = False
            QTimer.singleShot(0, self.firstPagePainted.emit)  # after this paint, not inside it

    def render_page(self, number: int, zoom: float = 1.0) -> QImage:
        """Page `number` painted exactly as the view paints it, into an image at `zoom`."""
        page = self.pages[number - 1]
        width = self._sheet_width(page)
        image = QImage(math.ceil(width * zoom), math.ceil(page.height * zoom), QImage.Format_ARGB32_Premultiplied)
        image.fill(CANVAS)
        painter = QPainter(image)
        try:
            paint_page(painter, page, QRectF(0, 0, width * zoom, page.height * zoom), zoom, self.marks,
                       self._overlay(number - 1))
        finally:
            painter.end()
        return image

    def _overlay(self, index: int) -> Overlay:
        overlay = Overlay()
        page = self.pages[index]
        anchor, caret = self.selection.anchor, self.selection.caret
        has_selection = anchor is not None and anchor != caret
        for frag in page.body_fragments():
            if has_selection:
                part = self.flow.slices(anchor, caret, self.flow.index_of(frag))
                if part is not None:
                    overlay.selection.extend(range_rects(frag, *part))
            for start, end in self._highlights.get(frag.block_id or "", ()):
                lo, hi = frag.display_range
                s = max(display_offset(frag.para, start), lo)
                e = min(display_offset(frag.para, end, end=True), hi)
                if s < e:
                    overlay.highlights.extend(range_rects(frag, s, e))
        if caret is not None and not has_selection and self.hasFocus():
            number, rect = self.flow.caret_rect(caret)
            if number == page.number:
                overlay.caret = rect
        return overlay
