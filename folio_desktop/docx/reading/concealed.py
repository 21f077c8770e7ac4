"""A census of text a reader of the document may not see (issue 12, point 7).

Three kinds, per paragraph block, each character counted once (hidden before invisible before tiny):

* hidden: w:vanish (or w:specVanish) as Word resolves it: on the run, through its character style,
  its paragraph style's run properties, a table style or the document defaults. The snapshot
  withholds text with direct or character-style vanish from the model; the rest of what Word hides
  (paragraph style, defaults) reaches the model but not the lawyer's eye, so both count.
* invisible: drawn in the colour of what is behind it: highlight, run shading, paragraph shading,
  table cell shading, a text box's fill, or the page (white, or w:background when the settings
  display it). w:color "auto" is never invisible: Word flips it to stay readable.
* tiny: smaller than 2 pt (w:sz under 4 half-points), styles and defaults included.

Tracked-deleted text is never counted (accepting the changes removes it), nor whitespace: a white
space on a white page hides nothing.

The census must be cheap enough to run on open, so it does not resolve every run. A run can only be
concealed if something in the document could conceal it: a vanish, a size under 2 pt, or a colour
near one of the backgrounds the document paints (found by one pass over its shading and highlight
elements), stated on the run or on a style it inherits from. Only paragraphs holding such a run (or
inheriting from such a style, or sitting in a text box) are resolved with the Formatter, so a
document with nothing suspicious costs a few element scans.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..model.formatting import Formatter
from ..model.properties import _shading, hex_color
from ..package.ooxml import MC_FALLBACK, W_NS, W_VAL, on_off
from . import inline
from .inline import BREAK, NOTE, TAB, TEXT, StoryState

if TYPE_CHECKING:
    from lxml import etree

    from ..model.document import Document, Story
    from .blocks import Block, Snapshot

_W = "{" + W_NS + "}"
A_NS = "http://schemas.openxmlformats.org/drawingml/2006/main"
WPS_NS = "http://schemas.microsoft.com/office/word/2010/wordprocessingShape"
VML_NS = "urn:schemas-microsoft-com:vml"
T_P, T_R, T_RPR, T_PPR, T_TBL = _W + "p", _W + "r", _W + "rPr", _W + "pPr", _W + "tbl"
T_VANISH, T_SPEC_VANISH, T_SZ, T_SZ_CS = _W + "vanish", _W + "specVanish", _W + "sz", _W + "szCs"
T_COLOR, T_RSTYLE, T_PSTYLE, T_TBLSTYLE = _W + "color", _W + "rStyle", _W + "pStyle", _W + "tblStyle"
T_SHD, T_HIGHLIGHT, T_TXBX, T_BODY = _W + "shd", _W + "highlight", _W + "txbxContent", _W + "body"
T_FOOTNOTE, T_ENDNOTE = _W + "footnote", _W + "endnote"

HIDDEN, INVISIBLE, TINY = "hidden", "invisible", "tiny"
KINDS = (HIDDEN, INVISIBLE, TINY)
TINY_HALF_POINTS = 4  # under 2 pt
NEAR = 24  # RGB distance at which two colours read as one (FEFEFE or F2F2F2 on white: yes; D9D9D9: no)
SAMPLES = 3
SAMPLE_CHARS = 60
WHITE = "FFFFFF"
_UNKNOWN = object()  # a text box whose fill is not known (a theme or style fill): never called invisible

# w:highlight names (ST_HighlightColor)
HIGHLIGHTS = {
    "black": "000000", "blue": "0000FF", "cyan": "00FFFF", "green": "00FF00", "magenta": "FF00FF",
    "red": "FF0000", "yellow": "FFFF00", "white": "FFFFFF", "darkBlue": "000080", "darkCyan": "008080",
    "darkGreen": "008000", "darkMagenta": "800080", "darkRed": "800000", "darkYellow": "808000",
    "darkGray": "808080", "lightGray": "C0C0C0",
}
_VML_COLOURS = {"white": "FFFFFF", "black": "000000", "gray": "808080", "silver": "C0C0C0", "red": "FF0000",
                "yellow": "FFFF00", "blue": "0000FF", "green": "008000"}


@dataclass
class ConcealedText:
    """What one block (or, as totals, one story or the document) holds that a reader may not see."""

    block_id: str
    hidden: int = 0  # chars of hidden text (the lawyer does not see it; the model is not shown most of it)
    invisible: int = 0  # chars drawn in the colour of their background
    tiny: int = 0  # chars under 2 pt
    samples: list[str] = field(default_factory=list)  # up to 3 excerpts (<= 60 chars) for the lawyer
    label: str | None = None  # the number a reader finds the block by ("4.2"), when it has one
    first_sample: dict[str, str] = field(default_factory=dict, repr=False)  # kind -> its first excerpt

    def to_json(self) -> dict:
        return {kind: n for kind in KINDS if (n := getattr(self, kind))}

    def count(self, kind: str) -> int:
        return getattr(self, kind)

    @property
    def is_empty(self) -> bool:
        return not (self.hidden or self.invisible or self.tiny)

    def _add(self, other: ConcealedText) -> None:
        for kind in KINDS:
            setattr(self, kind, getattr(self, kind) + getattr(other, kind))
        for sample in other.samples:
            if len(self.samples) < SAMPLES:
                self.samples.append(sample)
        for kind, sample in other.first_sample.items():
            self.first_sample.setdefault(kind, sample)


@dataclass
class ConcealedReport:
    blocks: dict[str, ConcealedText] = field(default_factory=dict)  # main story, in document order
    stories: list[tuple[dict, ConcealedText]] = field(default_factory=list)  # headers, footers, notes

    def total(self) -> ConcealedText:
        out = ConcealedText(block_id="")
        for entry in self.blocks.values():
            out._add(entry)
        for _handle, entry in self.stories:
            out._add(entry)
        return out

    def is_empty(self) -> bool:
        return not self.blocks and not self.stories

    @property
    def first_block_id(self) -> str | None:
        """The first main-story block with concealed text (what "Show" scrolls to)."""
        return next(iter(self.blocks), None)

    def describe(self) -> str:
        """Plain words for the lawyer; "" when there is nothing to tell."""
        if self.is_empty():
            return ""
        parts = []
        for kind, noun in ((HIDDEN, "hidden text"),
                           (INVISIBLE, "text in the colour of its background (such as white on white)"),
                           (TINY, "text smaller than 2 points")):
            blocks = [e for e in self.blocks.values() if e.count(kind)]
            stories = [(h, e) for h, e in self.stories if e.count(kind)]
            chars = sum(e.count(kind) for e in blocks) + sum(e.count(kind) for _h, e in stories)
            if not chars:
                continue
            places = []
            if blocks:
                places.append(_plural(len(blocks), "paragraph"))
            places.extend(_story_places([h for h, _e in stories]))
            if blocks:
                first = blocks[0]
                label = first.label.rstrip(".") if first.label else None
                where = f"at {label} (block {first.block_id})" if label else f"at block {first.block_id}"
            else:
                first = stories[0][1]
                where = f"in {_story_name(stories[0][0])}"
            sample = first.first_sample.get(kind)
            detail = f"first {where}: “{sample}”" if sample else f"first {where}"
            parts.append(f"{_plural(chars, 'character')} of {noun} in {_join(places)} ({detail})")
        text = "This document holds text you may not see: " + "; ".join(parts) + "."
        if self.total().hidden:
            text += " To see hidden text in Word, turn on Home > Show/Hide ¶."
        return text


def concealed_text(doc: Document, snapshot: Snapshot) -> ConcealedReport:
    """The census of the main story (by block id, from `snapshot`) and of every other story."""
    census = _Census(doc)
    report = ConcealedReport()
    found = census.scan(doc.body)
    if found:
        for block in snapshot.blocks:
            p = block.element
            if p is not None and p in found:
                entry = census.paragraph(p, block)
                if entry is not None:
                    report.blocks[block.id] = entry
    # stories share parts (all footnotes live in one): scan each part once, then resolve only the
    # stories that hold a candidate
    by_part: dict[str, list[Story]] = {}
    for story in doc.stories():
        if story.type != "main":
            by_part.setdefault(story.part, []).append(story)
    for part, stories in by_part.items():
        found = census.scan(doc.package.xml(part))
        if not found:
            continue
        notes = {_note_of(p) for p in found}  # the w:id of the note each candidate sits in
        for story in stories:
            if story.note_id is not None and str(story.note_id) not in notes:
                continue
            totals = None
            for block in doc.snapshot_story(story).blocks:
                p = block.element
                if p is None or p not in found:
                    continue
                entry = census.paragraph(p, block)
                if entry is None:
                    continue
                if totals is None:
                    totals = ConcealedText(block_id=block.id)
                totals._add(entry)
            if totals is not None:
                report.stories.append((story.handle(), totals))
    return report


def hidden_spans(p: etree._Element, hidden_styles: frozenset[str], note_texts: list[str]) -> list[tuple[int, int]]:
    """(offset, characters) of each stretch of hidden, not deleted text in paragraph p that the model
    is not shown; offset indexes the accepted-view text (code points) the stretch sits before. This
    is the walk of editing.ParagraphView, so offsets agree with the ones edits resolve."""
    if not _may_hide(p, hidden_styles):
        return []
    out: list[tuple[int, int]] = []
    pos = notes = 0
    for piece in inline.iter_pieces(p, StoryState(), hidden_styles):
        kind = piece.kind
        if piece.dele is not None:
            continue
        if piece.hidden:
            n = _visible_chars(piece.text) if kind == TEXT else 0
            if n:
                if out and out[-1][0] == pos:
                    out[-1] = (pos, out[-1][1] + n)
                else:
                    out.append((pos, n))
            continue
        if kind == NOTE:
            pos += len(note_texts[notes]) if notes < len(note_texts) else 4
            notes += 1
        elif kind in (TEXT, TAB, BREAK):
            pos += len(piece.text)
    return out


# -- the census --------------------------------------------------------------------------------------


class _Census:
    def __init__(self, doc: Document):
        self.doc = doc
        self.fmt = Formatter(doc)
        self.hidden_styles = doc.hidden_character_styles
        self.page = _page_colour(doc)
        styles_root = _xml(doc, doc.related_part("styles"))
        # every colour the document paints behind text (a superset: shading and highlights anywhere)
        parts = dict.fromkeys(s.part for s in doc.stories() if s.type != "main")  # notes share a part
        roots = [doc.root, styles_root, *(_xml(doc, part) for part in parts)]
        backgrounds = {self.page}
        for root in (r for r in roots if r is not None):
            for el in root.iter(T_SHD, T_HIGHLIGHT):
                colour = _shading(el) if el.tag == T_SHD else HIGHLIGHTS.get(el.get(W_VAL) or "")
                if colour:
                    backgrounds.add(colour)
        self.backgrounds = [rgb for c in backgrounds if (rgb := _rgb(c)) is not None]
        self.everything = _suspicious(styles_root.find(f"{_W}docDefaults/{_W}rPrDefault/{T_RPR}"), self) \
            if styles_root is not None else False
        self.char_styles, self.para_styles, self.table_styles = self._suspicious_styles(styles_root)

    def _suspicious_styles(self, root) -> tuple[set[str], set[str], set[str]]:
        """Style ids (by type) that inherit something that could conceal a run."""
        own: set[str] = set()
        if root is not None:
            for el in root.iterchildren(_W + "style"):
                sid = el.get(_W + "styleId")
                if not sid:
                    continue
                holders = [el.find(T_RPR)] + [c.find(T_RPR) for c in el.iterchildren(_W + "tblStylePr")]
                if any(_suspicious(h, self) for h in holders if h is not None):
                    own.add(sid)
        out: dict[str, set[str]] = {"character": set(), "paragraph": set(), "table": set()}
        styles = self.doc.styles
        for sid, style in styles.by_id.items():
            if style.type in out and any(s.style_id in own for s in styles.chain(sid)):
                out[style.type].add(sid)
        return out["character"], out["paragraph"], out["table"]

    def near_background(self, colour: str) -> bool:
        rgb = _rgb(colour)
        if rgb is None:
            return False
        r, g, b = rgb
        return any((r - br) ** 2 + (g - bg) ** 2 + (b - bb) ** 2 <= NEAR * NEAR for br, bg, bb in self.backgrounds)

    def colour_of(self, el: etree._Element) -> str | None:
        """The colour a w:color states (theme colours resolved); None for auto or unreadable."""
        value = el.get(W_VAL)
        if value and value.lower() == "auto":
            return None
        if hex_color(value):
            return hex_color(value)
        theme = el.get(_W + "themeColor")
        return self.fmt.theme.color(theme) if theme else None

    def scan(self, root: etree._Element) -> set:
        """Paragraphs under root holding a run that could be concealed."""
        if self.everything:
            return set(root.iter(T_P))
        found = set()
        for el in root.iter(T_VANISH, T_SPEC_VANISH, T_SZ, T_SZ_CS, T_COLOR, T_RSTYLE):
            tag = el.tag
            if tag == T_SZ or tag == T_SZ_CS:  # the commonest by far: decide on the string first
                value = el.get(W_VAL)
                hit = value in ("1", "2", "3") or (value is not None and not value.isdigit() and _small(el))
            elif tag == T_COLOR:
                colour = self.colour_of(el)
                hit = colour is not None and self.near_background(colour)
            elif tag == T_RSTYLE:
                hit = el.get(W_VAL) in self.char_styles
            else:
                hit = on_off(el)
            if not hit:
                continue
            run = el.getparent().getparent()
            if run is None or run.tag != T_R:
                continue  # a paragraph mark's or an old (rPrChange) formatting
            p = _paragraph_of(run)
            if p is not None:
                found.add(p)
        if self.para_styles:
            default_suspicious = self.doc.styles.default_paragraph_style in self.para_styles
            for p in root.iter(T_P):
                ps = p.find(f"{T_PPR}/{T_PSTYLE}")
                sid = ps.get(W_VAL) if ps is not None else None
                if sid in self.para_styles or (default_suspicious and self.doc.styles.get(sid) is None):
                    found.add(p)
        if self.table_styles:
            for tbl in root.iter(T_TBL):
                el = tbl.find(f"{_W}tblPr/{T_TBLSTYLE}")
                sid = el.get(W_VAL) if el is not None else None
                if sid not in self.doc.styles.by_id:
                    sid = self.fmt._default_table_style
                if sid in self.table_styles:
                    found.update(tbl.iter(T_P))
        for box in root.iter(T_TXBX):  # a box paints its own fill, which the backgrounds above omit
            found.update(box.iter(T_P))
        return found

    def paragraph(self, p: etree._Element, block: Block) -> ConcealedText | None:
        """Count what paragraph p conceals; None when nothing."""
        fmt = self.fmt
        para = fmt.paragraph(p)
        behind: list = []  # the paragraph's background, found on first need
        counts = dict.fromkeys(KINDS, 0)
        excerpts: list[tuple[str, list[str]]] = []  # (kind, text pieces) of each concealed stretch
        open_kind = None  # the kind of the stretch being read, while it lasts
        last_run = run_kind = None
        for piece in inline.iter_pieces(p, StoryState(), self.hidden_styles):
            kind = piece.kind
            if piece.dele is not None:
                continue
            if kind == NOTE:
                open_kind = None
                continue
            if kind in (TAB, BREAK):
                if open_kind is not None:
                    excerpts[-1][1].append(" ")
                continue
            if kind != TEXT or piece.run is None:  # comment marks, page breaks, drawings, equations
                continue
            if piece.run is not last_run:
                last_run = piece.run
                run_kind = self._classify(piece, p, para, behind)
            n = _visible_chars(piece.text)
            if run_kind is None:
                if n:
                    open_kind = None  # visible words end the stretch
                elif open_kind is not None:
                    excerpts[-1][1].append(piece.text)
                continue
            counts[run_kind] += n
            if open_kind != run_kind:
                if not n:
                    continue
                excerpts.append((run_kind, []))
                open_kind = run_kind
            excerpts[-1][1].append(piece.text)
        if not any(counts.values()):
            return None
        entry = ConcealedText(block_id=block.id, **counts, label=_label(block))
        texts = [(kind, text) for kind, parts in excerpts if (text := _excerpt("".join(parts)))]
        firsts: dict[str, int] = {}
        for i, (kind, text) in enumerate(texts):
            if kind not in firsts:
                firsts[kind] = i
                entry.first_sample[kind] = text
        # one excerpt of each kind first, then the rest in reading order
        order = sorted(firsts.values()) + [i for i in range(len(texts)) if i not in firsts.values()]
        entry.samples = [texts[i][1] for i in order[:SAMPLES]]
        return entry

    def _classify(self, piece, p, para, behind: list) -> str | None:
        fmt = self.fmt.run(piece.run, p, para)
        if piece.hidden or fmt.hidden:
            return HIDDEN
        if fmt.color is not None:
            background = HIGHLIGHTS.get(fmt.highlight or "") or fmt.shading
            if background is None:
                if not behind:
                    behind.append(self._paragraph_background(p, para))
                background = behind[0]
            if background is not _UNKNOWN and _near(fmt.color, background):
                return INVISIBLE
        if fmt.size_pt * 2 < TINY_HALF_POINTS:
            return TINY
        return None

    def _paragraph_background(self, p, para):
        if para.shading:
            return para.shading
        cell = self.fmt.cell_shading(p)
        if cell:
            return cell
        box = _enclosing_box(p)
        if box is not None:
            return _box_fill(box, self.page)
        return self.page


# -- helpers -------------------------------------------------------------------------------------------


def _xml(doc: Document, part: str | None):
    if part is None:
        return None
    try:
        return doc.package.xml(part)
    except Exception:  # noqa: BLE001 - a missing or broken part paints nothing
        return None


def _page_colour(doc: Document) -> str:
    """White, unless the settings display the document's w:background colour."""
    settings = _xml(doc, doc.related_part("settings"))
    shown = settings is not None and settings.find(_W + "displayBackgroundShape") is not None \
        and on_off(settings.find(_W + "displayBackgroundShape"))
    if shown:
        el = doc.root.find(_W + "background")
        value = hex_color(el.get(_W + "color")) if el is not None else None
        if value:
            return value
    return WHITE


def _suspicious(rpr, census: _Census) -> bool:
    """Whether a run-properties element states something that could conceal text."""
    if rpr is None:
        return False
    for el in rpr:
        tag = el.tag
        if tag == T_VANISH or tag == T_SPEC_VANISH:
            if on_off(el):
                return True
        elif tag == T_SZ or tag == T_SZ_CS:
            if _small(el):
                return True
        elif tag == T_COLOR:
            colour = census.colour_of(el)
            if colour is not None and census.near_background(colour):
                return True
    return False


def _small(el) -> bool:
    try:
        return 0 < int(el.get(W_VAL)) < TINY_HALF_POINTS
    except (TypeError, ValueError):
        return False


def _rgb(colour: str | None) -> tuple[int, int, int] | None:
    """(r, g, b) of RRGGBB; None for anything else (a theme part may hold any string)."""
    if not colour or len(colour) != 6:
        return None
    try:
        value = int(colour, 16)
    except ValueError:
        return None
    return value >> 16, (value >> 8) & 0xFF, value & 0xFF


def _near(a: str, b: str) -> bool:
    one, two = _rgb(a), _rgb(b)
    if one is None or two is None:
        return False
    return sum((x - y) ** 2 for x, y in zip(one, two, strict=True)) <= NEAR * NEAR


def _paragraph_of(el):
    parent = el.getparent()
    while parent is not None:
        if parent.tag == T_P:
            return parent
        if parent.tag == MC_FALLBACK:
            return None  # a copy of content shown elsewhere
        parent = parent.getparent()
    return None


def _note_of(p) -> str | None:
    parent = p.getparent()
    while parent is not None:
        if parent.tag == T_FOOTNOTE or parent.tag == T_ENDNOTE:
            return parent.get(_W + "id")
        parent = parent.getparent()
    return None


def _may_hide(p, hidden_styles) -> bool:
    for el in p.iter(T_VANISH):
        if on_off(el):
            return True
    if hidden_styles:
        return any(el.get(W_VAL) in hidden_styles for el in p.iter(T_RSTYLE))
    return False


def _enclosing_box(p):
    parent = p.getparent()
    while parent is not None:
        if parent.tag == T_TXBX:
            return parent
        if parent.tag == T_BODY:
            return None
        parent = parent.getparent()
    return None


def _box_fill(box, page: str):
    """The colour behind a text box's text: its shape's solid fill, the page when it has none, and
    _UNKNOWN for fills this census does not resolve (theme, gradient, a style's fill)."""
    parent = box.getparent()
    while parent is not None:
        tag = parent.tag
        if tag == f"{{{WPS_NS}}}wsp":
            sppr = parent.find(f"{{{WPS_NS}}}spPr")
            if sppr is not None:
                if sppr.find(f"{{{A_NS}}}noFill") is not None:
                    return page
                solid = sppr.find(f"{{{A_NS}}}solidFill")
                if solid is not None:
                    rgb = solid.find(f"{{{A_NS}}}srgbClr")
                    value = rgb.get("val") if rgb is not None else None
                    return hex_color(value) or _UNKNOWN
                if any(sppr.find(f"{{{A_NS}}}{t}") is not None for t in ("gradFill", "blipFill", "pattFill")):
                    return _UNKNOWN
            ref = parent.find(f"{{{WPS_NS}}}style/{{{A_NS}}}fillRef")
            return _UNKNOWN if ref is not None and ref.get("idx") not in (None, "0") else page
        if isinstance(tag, str) and tag.startswith(f"{{{VML_NS}}}") and tag != f"{{{VML_NS}}}textbox":
            if (parent.get("filled") or "t").lower() in ("f", "false"):
                return page
            raw = (parent.get("fillcolor") or "white").split()
            raw = raw[0] if raw else "white"
            return (hex_color(raw[1:]) if raw.startswith("#") else _VML_COLOURS.get(raw.lower())) or _UNKNOWN
        parent = parent.getparent()
    return _UNKNOWN


def _visible_chars(text: str) -> int:
    return len("".join(text.split()))


def _excerpt(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= SAMPLE_CHARS else text[:SAMPLE_CHARS - 1].rstrip() + "…"


def _label(block: Block) -> str | None:
    """The number a reader finds the block by; not a bullet, not an unnumbered heading's style id."""
    label = block.display_label
    if not label or label == block.style_id or not any(c.isalnum() for c in label):
        return None
    return label


def _plural(n: int, noun: str) -> str:
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


_STORY_NOUNS = {"header": "header", "footer": "footer", "footnote": "footnote", "endnote": "endnote"}


def _story_places(handles: list[dict]) -> list[str]:
    counts: dict[str, int] = {}
    for handle in handles:
        noun = _STORY_NOUNS.get(handle.get("type"), "story")
        counts[noun] = counts.get(noun, 0) + 1
    return [_plural(n, noun) for noun, n in counts.items()]


def _story_name(handle: dict) -> str:
    kind = handle.get("type")
    if kind in ("footnote", "endnote"):
        return f"{kind} {handle.get('noteId')}"
    return f"a {_STORY_NOUNS.get(kind, 'story')}"


__all__ = ["ConcealedReport", "ConcealedText", "concealed_text", "hidden_spans"]
