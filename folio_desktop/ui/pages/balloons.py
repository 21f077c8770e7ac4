"""Comment balloons: each thread in the markup area right of its page, with its number, author,
date, full text and replies, a leader line to where its range starts, Reply / Resolve / Reopen
buttons that act in place, and Delete (Edit too on the lawyer's own) that the window acts on. A
comment being written, new (ReviewIndex.draft) or edited, shows its field in its balloon.

Stacking, per page: a balloon wants to sit level with the line its range starts on; one that would
overlap the balloon above is pushed down, and a stack that runs past the foot of the page is pulled
back up. When the page cannot hold every balloon open, they close to one line each (the thread the
lawyer picked stays open); when even that does not fit, the last ones give way to a "+N more" note
whose click opens the next hidden thread (the Comments panel lists them all). Balloons never leave
their page, so pages keep their size and the PDF prints them as the view shows them.

Geometry is in page coordinates (layout px): the markup area starts at x = page.width.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cache, lru_cache

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPen, QStaticText

from ...layout import Page
from ..wording import short_date
from .geometry import DRAFT_ID, MARKUP_WIDTH, text_edges

MARGIN_X = 14.0  # between the sheet's edge and a balloon: room for the leader's last leg
WIDTH = MARKUP_WIDTH - MARGIN_X - 10.0
PAD = 6.0
GAP = 6.0  # between balloons
EDGE = 8.0  # free space above the first balloon and below the last
HEADER = 16.0
BADGE = QColor("#f2b705")  # the numbered marker; also the print's check that balloons are there
MARKUP_BG = QColor("#eeeff1")
MARKUP_RULE = QColor("#c9ccd1")
FILL = QColor("#fffdf3")
BORDER = QColor("#e2c15a")
BORDER_ACTIVE = QColor("#a87b00")
RESOLVED = QColor("#9aa0a6")
TEXT = QColor("#202124")
META = QColor("#5f6368")
LINK = QColor("#1a56c4")
LEADER = QColor("#d4a514")
MOVE = QColor("#2e7d32")  # a move's label and leader, in the green its text is drawn in
MOVE_FILL = QColor("#eef7ee")
EDITOR_H = 22.0
COMPOSER_LINES = 4  # the least a new or edited comment's field shows


@dataclass
class Balloon:
    rect: QRectF  # page coordinates, in the markup area
    comment_id: int | None  # the thread (for a "+N more" note: the first thread it hides)
    number: int  # the thread's number in reading order (0 for a "+N more" note)
    anchor: QPointF | None = None  # where the thread's range starts (the bottom of its line)
    thread: object = None
    compact: bool = False  # closed to one line because the page is crowded, or resolved
    active: bool = False
    hidden: int = 0  # a "+N more" note: how many balloons it stands for
    parts: list = field(default_factory=list)  # (rect, role, text) to draw, in page coordinates
    buttons: dict = field(default_factory=dict)  # "reply" | "resolve" | "reopen" -> page rect
    editor: QRectF | None = None  # where the inline reply editor goes
    move: str = ""  # a move's label ("Moved (insertion) [1]"): a one-line balloon of no thread
    move_at: tuple | None = None  # (fragment, display offset) where that half of the move starts
    composer: QRectF | None = None  # where a new or edited comment's field goes (in place of its text)
    comments: dict = field(default_factory=dict)  # comment id (the thread's, a reply's) -> its rect

    @property
    def resolved(self) -> bool:
        return bool(self.thread is not None and self.thread.done)


# -- fonts and measuring ---------------------------------------------------------------------------------

_ROLES = {"author": (11, True, False), "meta": (10, False, False), "body": (11, False, False),
          "reply_head": (10, True, False), "button": (10, True, False), "badge": (10, True, False),
          "more": (10, False, True), "move": (10, True, False)}


@cache
def role_font(role: str) -> QFont:  # built on first use: a QFont needs the QGuiApplication
    size, bold, italic = _ROLES[role]
    font = QFont("Liberation Sans")
    font.setPixelSize(size)
    font.setBold(bold)
    font.setItalic(italic)
    return font


@cache
def _metrics(role: str) -> QFontMetricsF:
    return QFontMetricsF(role_font(role))


@lru_cache(maxsize=4096)
def _wrapped_height(role: str, text: str, width: float) -> float:
    rect = _metrics(role).boundingRect(QRectF(0, 0, width, 1e6), int(Qt.TextWordWrap), text)
    return max(rect.height(), _metrics(role).height())


def _one_line(role: str, text: str, width: float) -> str:
    first = " ".join(text.split())
    return _metrics(role).elidedText(first, Qt.ElideRight, width)


# -- building one balloon ----------------------------------------------------------------------------------

def _build(thread, number: int, compact: bool, active: bool, replying: bool, interactive: bool,
           composing: int | None = None, own: bool = False) -> Balloon:
    """A balloon at x = 0, y = 0 (moved into place later): its parts, buttons and height. Built once
    per thread content and state: a relayout after each keystroke paints the same balloons again.
    `composing`: the comment of the thread whose text is being written (DRAFT_ID: a new one), drawn
    as a field with Post or Save and Cancel; `own`: the thread is the lawyer's (offers Edit)."""
    key = (thread.id, thread.author, thread.date, thread.text, thread.done,
           tuple((r.id, r.author, r.date, r.text) for r in thread.replies), number, compact, active, replying,
           interactive, composing, own)
    built = _BUILT.get(key)
    if built is None:
        if len(_BUILT) > 2048:
            _BUILT.clear()
        built = _BUILT[key] = _build_new(thread, number, compact, active, replying, interactive, composing, own)
    return replace(built, thread=thread)


_BUILT: dict = {}


def _composer_height(text: str, width: float) -> float:
    line = _metrics("body").height()
    return max(_wrapped_height("body", text or " ", width) + line, COMPOSER_LINES * line) + 8


def _build_new(thread, number: int, compact: bool, active: bool, replying: bool, interactive: bool,
               composing: int | None, own: bool) -> Balloon:
    inner = WIDTH - 2 * PAD
    parts: list = []
    regions: dict = {}
    composer = None
    y = PAD
    badge = str(number) if thread.id != DRAFT_ID else "New"
    badge_w = max(_metrics("badge").horizontalAdvance(badge) + 8, 16.0)
    parts.append((QRectF(PAD, y, badge_w, HEADER - 2), "badge", badge))
    date = short_date(thread.date)
    if compact and thread.replies:
        date = f"{date} · {len(thread.replies)} repl{'y' if len(thread.replies) == 1 else 'ies'}".lstrip(" ·")
    date_w = min(_metrics("meta").horizontalAdvance(date) + 2, inner / 2)
    head_x = PAD + badge_w + 5
    author = _metrics("author").elidedText(thread.author or "(no author)", Qt.ElideRight,
                                           max(inner - badge_w - 5 - date_w - 6, 20.0))
    parts.append((QRectF(head_x, y, inner - badge_w - 5 - date_w - 4, HEADER), "author", author))
    parts.append((QRectF(WIDTH - PAD - date_w, y, date_w, HEADER), "meta", date))
    y += HEADER + 2
    text = thread.text.strip()
    if compact:
        line = _metrics("body").height()
        parts.append((QRectF(PAD, y, inner, line), "body_line", _one_line("body", text, inner)))
        y += line
    else:
        if composing == thread.id:
            composer = QRectF(PAD, y, inner, _composer_height(thread.text, inner))
            y += composer.height()
        elif text:
            h = _wrapped_height("body", text, inner)
            parts.append((QRectF(PAD, y, inner, h), "body", text))
            y += h
        regions[thread.id] = QRectF(0, 0, WIDTH, y)
        for reply in thread.replies:
            y += 5
            head = " · ".join(p for p in (reply.author or "(no author)", short_date(reply.date)) if p)
            head_h = _metrics("reply_head").height()
            parts.append((QRectF(PAD + 9, y, inner - 9, head_h), "reply_head",
                          _metrics("reply_head").elidedText(head, Qt.ElideRight, inner - 9)))
            top = y
            y += head_h + 1
            body = reply.text.strip()
            if composing == reply.id:
                composer = QRectF(PAD + 9, y, inner - 9, _composer_height(reply.text, inner - 9))
                y += composer.height()
            elif body:
                h = _wrapped_height("body", body, inner - 9)
                parts.append((QRectF(PAD + 9, y, inner - 9, h), "body", body))
                y += h
            parts.append((QRectF(PAD + 2, top, 1.5, y - top), "rule", ""))
            regions[reply.id] = QRectF(0, top, WIDTH, y - top)
    buttons: dict = {}
    editor = None
    if interactive and not compact:
        if replying and composing is None:
            y += 5
            editor = QRectF(PAD, y, inner, EDITOR_H)
            y += EDITOR_H
        y += 5
        right = WIDTH - PAD
        if composing is not None:
            names = (("post", "Post") if thread.id == DRAFT_ID else ("save", "Save"), ("cancel", "Cancel"))
        else:
            names = (("resolve", "Resolve") if not thread.done else ("reopen", "Reopen"), ("reply", "Reply"),
                     ("delete", "Delete"), *((("edit", "Edit"),) if own else ()))
        for name, label in names:
            w = _metrics("button").horizontalAdvance(label) + 10
            buttons[name] = QRectF(right - w, y, w, 17)
            parts.append((buttons[name], "button", label))
            right -= w + 4
        y += 17
    y += PAD
    return Balloon(QRectF(0, 0, WIDTH, y), thread.id, number, thread=thread, compact=compact, active=active,
                   parts=parts, buttons=buttons, editor=editor, composer=composer, comments=regions)


def _move_balloon(label: tuple) -> Balloon:
    """The one-line balloon beside a half of a move ((text, fragment, offset): ReviewIndex.move_labels),
    at x = 0, y = 0."""
    text, frag, offset = label
    return Balloon(QRectF(0, 0, WIDTH, HEADER + 2 * PAD), None, 0, compact=True, move=text, move_at=(frag, offset),
                   parts=[(QRectF(PAD, PAD, WIDTH - 2 * PAD, HEADER), "move", text)])


def _moved(b: Balloon, x: float, y: float) -> Balloon:
    """A copy of a balloon (built at 0, 0) placed with its top-left corner at x, y."""
    dx, dy = x - b.rect.x(), y - b.rect.y()
    return replace(b, rect=b.rect.translated(dx, dy), parts=[(r.translated(dx, dy), role, text) for r, role, text in b.parts],
                   buttons={k: r.translated(dx, dy) for k, r in b.buttons.items()},
                   editor=b.editor.translated(dx, dy) if b.editor is not None else None,
                   composer=b.composer.translated(dx, dy) if b.composer is not None else None,
                   comments={k: r.translated(dx, dy) for k, r in b.comments.items()})


# -- a page's balloons ---------------------------------------------------------------------------------
# (`marks` below is the page view's marks.ReviewIndex, duck-typed: that module places its
# balloons with this one, so this one does not import it)

def anchors(page: Page, marks) -> dict[int, tuple[float, float, float]]:
    """Thread id -> (line top, x, line height) where its range starts on this page, found from the
    layout's comment ranges (a reply's range stands in only for a thread without one of its own)."""
    found: dict[int, tuple[float, float, float]] = {}
    ranged = marks.ranged_ids()
    for frag in page.fragments:
        para = frag.para
        if not para.comment_marks:
            continue
        lo, hi = frag.display_range
        at_end = frag.last_line == len(para.lines) - 1
        for cid, start, _end, here in para.comment_marks:
            if not here or not (lo <= start < hi or (at_end and start == hi)):
                continue
            tid = marks.thread_of(cid)
            if tid is None or tid in found or (cid != str(tid) and str(tid) in ranged):
                continue
            found[tid] = _spot(frag, start)
    return found


def _spot(frag, display: int) -> tuple[float, float, float]:
    """(line top, x, line height) of a display offset in a fragment."""
    para = frag.para
    k = next((k for k in range(frag.first_line, frag.last_line + 1) if display < para.lines[k].end), frag.last_line)
    x = para.layout.lineAt(k).cursorToX(display)
    x = float(x[0] if isinstance(x, tuple) else x)
    line = para.lines[k]
    return frag.y + line.y, frag.x + para.x + x, line.height


def _draft_spot(page: Page, draft) -> tuple[float, float, float] | None:
    """Where a comment being written points, when its place is on this page."""
    for frag in page.fragments:
        if frag.block_id != draft.block_id:
            continue
        accepted = frag.para.accepted
        display = next((i for i, a in enumerate(accepted) if a >= draft.offset), len(accepted))
        lo, hi = frag.display_range
        if lo <= display < hi or (display == hi and frag.last_line == len(frag.para.lines) - 1):
            return _spot(frag, display)
    return None


def _composing(thread, marks) -> int | None:
    """The comment of this thread whose text is being written in its balloon, if any."""
    if thread.id == DRAFT_ID:
        return DRAFT_ID
    editing = marks.editing
    return editing if editing is not None and (editing == thread.id or any(
        r.id == editing for r in thread.replies)) else None


def layout_balloons(page: Page, marks, right: float) -> list[Balloon]:
    """Every balloon of the page, stacked without overlap inside the page's height: the comment
    threads', and in All Markup a "Moved" label beside each half of a move (labels give way first
    when the page cannot hold them all)."""
    placed = anchors(page, marks)
    labels = marks.move_labels(page)
    spot = _draft_spot(page, marks.draft) if marks.draft is not None else None
    if spot is not None:
        placed[DRAFT_ID] = spot
    if not placed and not labels:
        return []
    # (thread, or the label of a move: a tuple, anchor), top to bottom
    items = sorted([(marks.thread(tid), a) for tid, a in placed.items() if marks.thread(tid) is not None] + labels,
                   key=lambda item: (item[1][0], item[1][1],
                                     0 if isinstance(item[0], tuple) else marks.numbers.get(item[0].id, 0)))
    x = page.width + MARGIN_X
    top, bottom = EDGE, page.height - EDGE

    def build(thread, crowded: bool) -> Balloon:
        if isinstance(thread, tuple):
            return _move_balloon(thread)
        active = thread.id == marks.active
        composing = _composing(thread, marks)
        compact = not active and composing is None and (crowded or thread.done)
        own = bool(marks.author) and thread.author == marks.author
        return _build(thread, marks.numbers.get(thread.id, 0), compact, active,
                      marks.replying == thread.id, marks.interactive, composing, own)

    balloons = [build(t, False) for t, _a in items]
    wants = [a[0] + a[2] / 2 - (PAD + HEADER / 2) for _t, a in items]
    tops = _stack(wants, [b.rect.height() for b in balloons], top, bottom)
    hidden: list = []
    if tops is None:
        balloons = [build(t, True) for t, _a in items]
        tops = _stack(wants, [b.rect.height() for b in balloons], top, bottom)
    if tops is None and labels:  # the moves' labels give way to the comments (the changes panel lists them)
        kept = [i for i, (t, _a) in enumerate(items) if not isinstance(t, tuple)]
        items, balloons, wants = [items[i] for i in kept], [balloons[i] for i in kept], [wants[i] for i in kept]
        tops = _stack(wants, [b.rect.height() for b in balloons], top, bottom)
    if tops is None:  # not even closed: the last ones give way to a "+N more" note
        more_h = _metrics("more").height() + 2 * PAD
        keep = list(range(len(balloons)))
        while keep and sum(balloons[i].rect.height() + GAP for i in keep) + more_h > bottom - top:
            keep.pop()
        active = next((i for i, (t, _a) in enumerate(items) if t.id == marks.active), None)
        if active is not None and active not in keep and keep:
            keep[-1] = active  # the thread the lawyer picked is always shown
            keep.sort()
            while keep and sum(balloons[i].rect.height() + GAP for i in keep) + more_h > bottom - top:
                keep.remove(next(i for i in reversed(keep) if i != active))
        hidden = [items[i][0] for i in range(len(items)) if i not in keep]
        balloons = [balloons[i] for i in keep]
        wants = [wants[i] for i in keep]
        items = [items[i] for i in keep]
        tops = _stack(wants, [b.rect.height() for b in balloons], top, bottom - more_h - GAP) or \
            _packed([b.rect.height() for b in balloons], top)
    out = []
    for b, (_thread, (line_top, ax, line_h)), y in zip(balloons, items, tops, strict=True):
        placed_b = _moved(b, x, y)
        placed_b.anchor = QPointF(ax, line_top + line_h)
        out.append(placed_b)
    if hidden:
        text = f"+{len(hidden)} more comment{'s' if len(hidden) != 1 else ''} on this page"
        h = _metrics("more").height() + 2 * PAD
        rect = QRectF(x, bottom - h, WIDTH, h)
        out.append(Balloon(rect, hidden[0].id, 0, thread=hidden[0], compact=True, hidden=len(hidden),
                           parts=[(rect.adjusted(PAD, PAD, -PAD, -PAD), "more", text)]))
    return out


def _stack(wants: list[float], heights: list[float], top: float, bottom: float) -> list[float] | None:
    """Tops for boxes that each want a y: pushed down past the one above, then pulled up from the
    bottom limit. None when they cannot all fit between top and bottom."""
    if sum(heights) + GAP * (len(heights) - 1) > bottom - top:
        return None
    tops = []
    prev = top - GAP
    for want, h in zip(wants, heights, strict=True):
        y = max(want, prev + GAP, top)
        tops.append(y)
        prev = y + h
    limit = bottom
    for i in range(len(tops) - 1, -1, -1):
        tops[i] = min(tops[i], limit - heights[i])
        limit = tops[i] - GAP
    return tops


def _packed(heights: list[float], top: float) -> list[float]:
    tops, y = [], top
    for h in heights:
        tops.append(y)
        y += h + GAP
    return tops


# -- painting -------------------------------------------------------------------------------------------

def paint_markup_area(painter: QPainter, page: Page, marks, width: float) -> None:
    """The markup area right of the sheet and the page's balloons with their leader lines."""
    painter.fillRect(QRectF(page.width, 0, width, page.height), MARKUP_BG)
    painter.fillRect(QRectF(page.width, 0, 0.75, page.height), MARKUP_RULE)
    balloons = marks.balloons(page)
    if not balloons:
        return
    right = text_edges(page)[1]
    painter.save()
    painter.setRenderHint(QPainter.Antialiasing)
    # leaders first (balloons are drawn over them), one path per look: a crowded page has dozens
    paths: dict[tuple, QPainterPath] = {}
    for b in balloons:
        if b.anchor is None:
            continue
        look = ("move" if b.move else "resolved" if b.resolved else "open", b.active)
        path = paths.setdefault(look, QPainterPath())
        path.moveTo(b.anchor)
        path.lineTo(max(right + 4, b.anchor.x()), b.anchor.y())
        path.lineTo(b.rect.left(), b.rect.top() + PAD + HEADER / 2)
    painter.setBrush(Qt.NoBrush)
    for (state, active), path in paths.items():
        colour = MOVE if state == "move" else RESOLVED if state == "resolved" else (BORDER_ACTIVE if active else LEADER)
        painter.setPen(QPen(colour, 1.2 if active else 0.8, Qt.SolidLine if active else Qt.DashLine))
        painter.drawPath(path)
    for b in balloons:
        _paint_balloon(painter, b)
    painter.restore()


# how each text part is set: font role and alignment inside its rectangle
_ALIGN = {"author": Qt.AlignLeft | Qt.AlignVCenter, "reply_head": Qt.AlignLeft | Qt.AlignVCenter,
          "meta": Qt.AlignRight | Qt.AlignVCenter, "button": Qt.AlignCenter, "badge": Qt.AlignCenter,
          "move": Qt.AlignLeft | Qt.AlignVCenter}


@lru_cache(maxsize=8192)
def _static(role: str, text: str, width: float) -> QStaticText:
    """The text of a part laid out once (wrapped at width for a body): repainting a balloon, as
    every scroll and keystroke does, then only places glyphs."""
    static = QStaticText(text.replace("\n", "\u2028"))  # plain static text breaks lines only at U+2028
    static.setTextFormat(Qt.PlainText)
    static.setPerformanceHint(QStaticText.AggressiveCaching)
    if role == "body":
        static.setTextWidth(width)
    static.prepare(font=role_font(role))
    return static


def _draw(painter: QPainter, rect: QRectF, role: str, text: str) -> None:
    font_role = "body" if role == "body_line" else role
    static = _static(font_role, text, round(rect.width(), 1))
    size = static.size()
    align = _ALIGN.get(role, Qt.AlignLeft | Qt.AlignTop)
    x, y = rect.left(), rect.top()
    if align & Qt.AlignRight:
        x = rect.right() - size.width()
    elif align & Qt.AlignHCenter:
        x = rect.left() + (rect.width() - size.width()) / 2
    if align & Qt.AlignVCenter:
        y = rect.top() + (rect.height() - size.height()) / 2
    painter.setFont(role_font(font_role))
    painter.drawStaticText(QPointF(x, y), static)


def _paint_balloon(painter: QPainter, b: Balloon) -> None:
    path = QPainterPath()
    path.addRoundedRect(b.rect, 4, 4)
    if b.move:  # a move's label: green, as its text is
        painter.fillPath(path, MOVE_FILL)
        painter.setPen(QPen(MOVE, 0.9))
        painter.drawPath(path)
        for rect, role, text in b.parts:
            _draw(painter, rect, role, text)
        return
    painter.fillPath(path, FILL if not b.hidden else MARKUP_BG.lighter(104))
    edge = RESOLVED if b.resolved and not b.active else (BORDER_ACTIVE if b.active else BORDER)
    painter.setPen(QPen(edge, 1.6 if b.active else 0.9))
    painter.drawPath(path)
    text_colour = RESOLVED if b.resolved and not b.active else TEXT
    for rect, role, text in b.parts:
        if role == "badge":
            badge = QPainterPath()
            badge.addRoundedRect(rect, 3, 3)
            painter.fillPath(badge, BADGE if not b.resolved else RESOLVED.lighter(130))
            painter.setPen(QColor("#3a2c00"))
        elif role == "rule":
            painter.fillRect(rect, BORDER if not b.resolved else RESOLVED)
            continue
        elif role == "button":
            painter.setPen(LINK)
        else:
            painter.setPen(META if role in ("meta", "more") else text_colour)
        _draw(painter, rect, role, text)
    for field_rect in (b.editor, b.composer):  # the live editor covers this; printed it would be an empty box
        if field_rect is not None:
            painter.fillRect(field_rect, Qt.white)
            painter.setPen(QPen(BORDER, 0.8))
            painter.drawRect(field_rect)
