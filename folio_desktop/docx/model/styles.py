"""Paragraph and character styles: basedOn chains, heading levels, style numbering (spec §5.3, §5.6),
and the styles that hide text (HiddenStyles)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from lxml import etree

from ..package.ooxml import W_PPR, W_RPR, W_VAL, first_child, int_attr, on_off, w

_HEADING_NAME = re.compile(r"^heading\s*([1-9])$", re.IGNORECASE)
_MAX_CHAIN = 32  # basedOn chains are short; a cycle or a monster chain stops here
_W_PSTYLE = w("pStyle")


@dataclass
class Style:
    style_id: str
    type: str
    name: str
    based_on: str | None
    ppr: etree._Element | None
    rpr: etree._Element | None
    num_id: str | None = None  # pPr/numPr/numId as written (may be "0")
    ilvl: int | None = None
    outline_level: int | None = None  # pPr/outlineLvl (0-based as written)
    resolved: dict = field(default_factory=dict)


class Styles:
    """All styles of the document, with cached resolution along basedOn chains."""

    def __init__(self, root: etree._Element | None):
        self.by_id: dict[str, Style] = {}
        self.default_paragraph_style: str | None = None
        self.default_character_style: str | None = None
        self.doc_rpr: etree._Element | None = None
        if root is None:
            return
        defaults = root.find(w("docDefaults"))
        if defaults is not None:
            self.doc_rpr = defaults.find(f"{w('rPrDefault')}/{W_RPR}")
        for el in root.iterchildren(w("style")):
            sid = el.get(w("styleId"))
            if not sid:
                continue
            name_el = el.find(w("name"))
            based = el.find(w("basedOn"))
            ppr = el.find(W_PPR)
            style = Style(
                style_id=sid,
                type=el.get(w("type"), "paragraph"),
                name=(name_el.get(W_VAL, "") if name_el is not None else ""),
                based_on=based.get(W_VAL) if based is not None else None,
                ppr=ppr,
                rpr=el.find(W_RPR),
            )
            if ppr is not None:
                numpr = ppr.find(w("numPr"))
                if numpr is not None:
                    num_el = numpr.find(w("numId"))
                    style.num_id = num_el.get(W_VAL) if num_el is not None else None
                    style.ilvl = int_attr(numpr.find(w("ilvl")))
                style.outline_level = int_attr(ppr.find(w("outlineLvl")))
            self.by_id.setdefault(sid, style)
            if on_off_default(el):
                if style.type == "paragraph" and self.default_paragraph_style is None:
                    self.default_paragraph_style = sid
                elif style.type == "character" and self.default_character_style is None:
                    self.default_character_style = sid

    def get(self, style_id: str | None) -> Style | None:
        return self.by_id.get(style_id) if style_id else None

    def chain(self, style_id: str | None) -> list[Style]:
        """The style and its basedOn ancestors, nearest first."""
        out: list[Style] = []
        seen: set[str] = set()
        style = self.get(style_id)
        while style is not None and style.style_id not in seen and len(out) < _MAX_CHAIN:
            out.append(style)
            seen.add(style.style_id)
            style = self.get(style.based_on)
        return out

    def paragraph_style_ids(self) -> list[str]:
        return sorted(sid for sid, s in self.by_id.items() if s.type == "paragraph")

    def heading_level(self, style_id: str | None) -> int | None:
        """1-based heading level of a paragraph style: a built-in 'heading N' name (the name is
        English even when the id is localized, e.g. Nadpis1) or an outline level in the chain."""
        if not style_id:
            return None
        cache = self.get(style_id)
        if cache is None:
            return None
        if "heading" in cache.resolved:
            return cache.resolved["heading"]
        level = None
        for style in self.chain(style_id):
            match = _HEADING_NAME.match(style.name.strip())
            if match:
                level = int(match.group(1))
                break
            if style.outline_level is not None:
                level = style.outline_level + 1 if style.outline_level < 9 else None
                break
        cache.resolved["heading"] = level
        return level

    def numbering(self, style_id: str | None) -> tuple[str | None, int | None]:
        """(numId, ilvl) a paragraph style supplies through its basedOn chain."""
        if not style_id:
            return None, None
        own = self.get(style_id)
        if own is None:
            return None, None
        cached = own.resolved.get("numbering")
        if cached is not None:  # (asked for every paragraph: the chain is walked once per style)
            return cached
        num_id = ilvl = None
        for style in self.chain(style_id):
            if num_id is None and style.num_id is not None:
                num_id = style.num_id
            if ilvl is None and style.ilvl is not None:
                ilvl = style.ilvl
            if num_id is not None and ilvl is not None:
                break
        own.resolved["numbering"] = (num_id, ilvl)
        return num_id, ilvl

    def run_flag(self, style_id: str | None, tag: str, para_style: str | None = None) -> bool | None:
        """A run toggle (b, i, strike, vanish, ...) from a character style chain, then the
        paragraph style chain, then document defaults; None when nothing states it."""
        for sid in (style_id, para_style):
            for style in self.chain(sid):
                if style.rpr is not None:
                    el = style.rpr.find(w(tag))
                    if el is not None:
                        return on_off(el)
        if self.doc_rpr is not None:
            el = self.doc_rpr.find(w(tag))
            if el is not None:
                return on_off(el)
        return None


def on_off_default(el: etree._Element) -> bool:
    val = el.get(w("default"))
    return val is not None and val.lower() in ("1", "true", "on")


class HiddenStyles(frozenset):
    """The character styles whose text is hidden (w:vanish), plus what hides a paragraph's runs
    when nothing closer says otherwise: a paragraph style (through basedOn) or the document defaults.
    Word hides such text; so do the accepted view, the model's reads and the pages."""

    runs_hidden = False  # (a class attribute: inline._hidden reads it for every run)

    def __new__(cls, characters=(), paragraphs=(), default_style: str | None = None, by_default: bool = False):
        self = super().__new__(cls, characters)
        self.paragraphs = frozenset(paragraphs)
        self.default_style = default_style
        self.by_default = by_default
        self._hiding = _RunsHidden(self)
        return self

    def for_paragraph(self, p: etree._Element):
        """What to hide in paragraph p: these styles, and its runs by default when its style hides them."""
        if not self.paragraphs and not self.by_default:
            return self
        ppr = first_child(p, W_PPR)
        ps = first_child(ppr, _W_PSTYLE) if ppr is not None else None
        sid = ps.get(W_VAL) if ps is not None else self.default_style
        hidden = sid in self.paragraphs if sid else self.by_default
        return self._hiding if hidden else self


class _RunsHidden:
    """HiddenStyles for a paragraph whose style hides its runs: a run shows only if it says so."""

    runs_hidden = True

    def __init__(self, styles: HiddenStyles):
        self._styles = styles

    def __contains__(self, style_id) -> bool:
        return style_id in self._styles

    def __bool__(self) -> bool:
        return True
