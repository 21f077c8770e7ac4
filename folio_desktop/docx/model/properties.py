"""The formatting vocabulary: the resolved records (RunFormat, TabStop, ParagraphFormat) and the
parsers that read one w:rPr, w:pPr, border or shading element into a partial dict, with the rules
that stack such dicts. Apart from formatting.py, which walks the style hierarchy and caches: these
know one element at a time and nothing of the document."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lxml import etree

from ..package.ooxml import W_NS, W_VAL, on_off

_W = "{" + W_NS + "}"
_WLEN = len(_W)

TOGGLES = ("b", "bCs", "i", "iCs", "caps", "smallCaps", "strike", "dstrike", "vanish")
_TOGGLE_SET = frozenset(TOGGLES)
_FONT_ATTRS = (("ascii", "asciiTheme"), ("hAnsi", "hAnsiTheme"), ("eastAsia", "eastAsiaTheme"), ("cs", "cstheme"))
_ON_OFF_PPR = {
    "contextualSpacing": "contextual",
    "keepNext": "keep_next",
    "keepLines": "keep_lines",
    "pageBreakBefore": "page_break_before",
    "widowControl": "widow",
    "bidi": "bidi",
    "snapToGrid": "snap_to_grid",
    "autoSpaceDE": "auto_space_de",
    "autoSpaceDN": "auto_space_dn",
}
_JC = {
    "left": "left", "start": "left", "right": "right", "end": "right", "center": "center",
    "both": "both", "distribute": "distribute", "lowKashida": "both", "mediumKashida": "both",
    "highKashida": "both", "thaiDistribute": "distribute", "numTab": "left",
}
_TAB_KINDS = {
    "left": "left", "start": "left", "right": "right", "end": "right", "center": "center",
    "decimal": "decimal", "bar": "bar", "clear": "clear", "num": "left",
}
_LEADERS = frozenset(("none", "dot", "hyphen", "underscore", "middleDot", "heavy"))


@dataclass(frozen=True)
class RunFormat:
    font_family: str
    east_asian_font: str | None
    complex_font: str | None
    size_pt: float
    bold: bool
    italic: bool
    underline: str | None
    strike: bool
    double_strike: bool
    color: str | None
    highlight: str | None
    shading: str | None
    caps: bool
    small_caps: bool
    vert_align: str | None
    position_half_pts: int
    hidden: bool
    spacing_twips: int
    rtl: bool


@dataclass(frozen=True)
class TabStop:
    position: int
    kind: str
    leader: str


@dataclass(frozen=True)
class ParagraphFormat:
    style_id: str | None
    alignment: str
    indent_left: int
    indent_right: int
    first_line: int
    space_before: int
    space_after: int
    before_autospacing: bool
    after_autospacing: bool
    line: int
    line_rule: str
    contextual_spacing: bool
    keep_next: bool
    keep_lines: bool
    page_break_before: bool
    widow_control: bool
    tabs: tuple[TabStop, ...]
    bidi: bool
    mark: RunFormat
    number_format: RunFormat | None
    number_suffix: str
    num_id: str | None = None  # the list (w:numId) whose label the paragraph shows
    snap_to_grid: bool = True  # lines follow the section's document grid (w:snapToGrid, on by default)
    # a gap between East Asian text and Latin letters (w:autoSpaceDE) or digits (w:autoSpaceDN), on by default
    auto_space_de: bool = True
    auto_space_dn: bool = True
    shading: str | None = None  # the paragraph's own background fill (w:pPr/w:shd), hex; None = none
    # w:pBdr sides that draw, in BORDER_SIDES order: (side, border_attrs(el)); none/nil sides left out
    borders: tuple = ()


# -- parsing property elements into partial dicts ----------------------------------------------------


def _int(el: etree._Element, attr: str) -> int | None:
    raw = el.get(attr)
    if raw is None:
        return None
    try:
        return int(raw)
    except ValueError:
        try:
            return int(float(raw))
        except ValueError:
            return None


def _flag(raw: str | None) -> bool:
    return raw is not None and raw.lower() in ("1", "true", "on")


def hex_color(value: str | None) -> str | None:
    """A w:color / w:fill value as upper-case RRGGBB, or None for auto, empty or malformed ones."""
    if not value or len(value) != 6:
        return None
    try:
        int(value, 16)
    except ValueError:
        return None
    return value.upper()


def _shading(shd: etree._Element) -> str | None:
    """The colour a w:shd paints (a solid pattern shows its pattern colour); None = no fill."""
    pattern = shd.get(W_VAL)
    fill = hex_color(shd.get(_W + "fill"))
    if pattern == "solid":
        fill = hex_color(shd.get(_W + "color")) or fill
    return None if pattern == "nil" else fill


BORDER_SIDES = ("top", "left", "bottom", "right", "between", "bar")
_SIDE_NAMES = {"start": "left", "end": "right"}


def border_attrs(el: etree._Element) -> tuple:
    """A border element's (val, sz, space, color, themeColor, themeTint, themeShade), as written."""
    get = el.get
    return (get(W_VAL) or "none", get(_W + "sz"), get(_W + "space"), get(_W + "color"), get(_W + "themeColor"),
            get(_W + "themeTint"), get(_W + "themeShade"))


def parse_borders(el: etree._Element | None) -> dict[str, tuple]:
    """side -> border_attrs of a w:pBdr, w:tblBorders or w:tcBorders (start/end read as left/right)."""
    out: dict[str, tuple] = {}
    if el is None:
        return out
    for child in el:
        if isinstance(child.tag, str) and child.tag.startswith(_W):
            name = child.tag[_WLEN:]
            out[_SIDE_NAMES.get(name, name)] = border_attrs(child)
    return out


def parse_rpr(rpr: etree._Element | None) -> dict[str, Any]:
    """The run properties one w:rPr states, as a partial dict (absent keys inherit)."""
    out: dict[str, Any] = {}
    if rpr is None:
        return out
    for child in rpr:
        tag = child.tag
        if not isinstance(tag, str) or not tag.startswith(_W):
            continue
        name = tag[_WLEN:]
        if name in _TOGGLE_SET:
            out[name] = on_off(child)
        elif name == "rFonts":
            for attr, theme_attr in _FONT_ATTRS:
                theme = child.get(_W + theme_attr)
                plain = child.get(_W + attr)
                if theme:
                    out["font_" + attr] = ("theme", theme, plain or None)
                elif plain:
                    out["font_" + attr] = ("font", plain)
        elif name == "sz" or name == "szCs":
            value = _int(child, W_VAL)
            if value is not None and value > 0:
                out[name] = value
        elif name == "u":
            value = child.get(W_VAL) or "single"
            out["u"] = None if value == "none" else value
        elif name == "color":
            value = child.get(W_VAL)
            theme = child.get(_W + "themeColor")
            if value and value.lower() == "auto":
                out["color"] = None
            elif hex_color(value):
                out["color"] = hex_color(value)
            elif theme:
                out["color"] = ("theme", theme)
        elif name == "highlight":
            value = child.get(W_VAL)
            out["highlight"] = None if not value or value == "none" else value
        elif name == "shd":
            out["shd"] = _shading(child)
        elif name == "specVanish":
            out["specVanish"] = on_off(child)
        elif name == "vertAlign":
            value = child.get(W_VAL)
            out["vertAlign"] = value if value in ("superscript", "subscript") else None
        elif name == "position" or name == "spacing":
            value = _int(child, W_VAL)
            if value is not None:
                out[name] = value
        elif name == "rtl" or name == "cs":
            out[name] = on_off(child)
        elif name == "rStyle":
            out["rStyle"] = child.get(W_VAL)
    return out


def _slot(el: etree._Element, twips_attrs: tuple[str, ...], chars_attrs: tuple[str, ...], sign: int = 1):
    """An indent slot: ('ch', n) when a nonzero xxxChars attribute is stated, else ('tw', n)."""
    for attr in chars_attrs:
        value = _int(el, _W + attr)
        if value:
            return ("ch", sign * value)
    for attr in twips_attrs:
        value = _int(el, _W + attr)
        if value is not None:
            return ("tw", sign * value)
    for attr in chars_attrs:
        if el.get(_W + attr) is not None:
            return ("tw", 0)
    return None



def parse_ppr(ppr: etree._Element | None, only_indents: bool = False) -> dict[str, Any]:
    """The paragraph properties one w:pPr states, as a partial dict (absent keys inherit). Tab stops
    are kept as a tuple of operations (position, kind, leader) where kind "clear" removes a stop."""
    out: dict[str, Any] = {}
    if ppr is None:
        return out
    for child in ppr:
        tag = child.tag
        if not isinstance(tag, str) or not tag.startswith(_W):
            continue
        name = tag[_WLEN:]
        if name == "ind":
            left = _slot(child, ("start", "left"), ("startChars", "leftChars"))
            if left is not None:
                out["ind_left"] = left
            right = _slot(child, ("end", "right"), ("endChars", "rightChars"))
            if right is not None:
                out["ind_right"] = right
            # hanging and firstLine are exclusive; when both are stated, hanging wins
            first = _slot(child, ("hanging",), ("hangingChars",), -1)
            if first is None:
                first = _slot(child, ("firstLine",), ("firstLineChars",))
            if first is not None:
                out["first"] = first
        elif name == "tabs":
            ops = []
            for tab in child:
                if tab.tag != _W + "tab":
                    continue
                pos = _int(tab, _W + "pos")
                if pos is None:
                    continue
                kind = _TAB_KINDS.get(tab.get(W_VAL) or "left", "left")
                leader = tab.get(_W + "leader") or "none"
                ops.append((pos, kind, leader if leader in _LEADERS else "none"))
            out["tabs"] = tuple(ops)
        elif only_indents:
            continue
        elif name == "shd":
            out["shd"] = _shading(child)
        elif name == "pBdr":
            # each side inherits on its own through the style hierarchy (ECMA-376 17.3.1.24)
            for side, attrs in parse_borders(child).items():
                out["bdr_" + side] = attrs
        elif name == "jc":
            value = child.get(W_VAL)
            if value:
                out["jc"] = _JC.get(value, "left")
        elif name == "spacing":
            for side in ("before", "after"):
                lines = _int(child, _W + side + "Lines")
                value = _int(child, _W + side)
                if lines:
                    out[side] = ("ln", lines)
                elif value is not None:
                    out[side] = ("tw", value)
                auto = child.get(_W + side + "Autospacing")
                if auto is not None:
                    out[side + "_auto"] = _flag(auto)
                elif lines or value is not None:
                    out[side + "_auto"] = False  # an explicit space overrides inherited auto spacing
            line = _int(child, _W + "line")
            if line is not None:
                out["line"] = line
            rule = child.get(_W + "lineRule")
            if rule in ("auto", "exact", "atLeast"):
                out["line_rule"] = rule
            elif line is not None and rule is None:
                # LibreOffice reads w:line without w:lineRule as an exact height (measured: 276 gives
                # 13.8 pt lines for Arial 11 and 20 pt alike), not as inheriting the rule
                out["line_rule"] = "exact"
        elif name in _ON_OFF_PPR:
            out[_ON_OFF_PPR[name]] = on_off(child)
    return out


def merge(base: dict[str, Any], layer: dict[str, Any]) -> dict[str, Any]:
    """layer over base; tab operations accumulate in order."""
    if not layer:
        return base
    if not base:
        return layer
    out = dict(base)
    out.update(layer)
    if "tabs" in layer and "tabs" in base:
        out["tabs"] = base["tabs"] + layer["tabs"]
    return out


def _tab_stops(ops: tuple) -> tuple[TabStop, ...]:
    stops: dict[int, tuple[str, str]] = {}
    for pos, kind, leader in ops:
        if kind == "clear":
            stops.pop(pos, None)
        else:
            stops[pos] = (kind, leader)
    return tuple(TabStop(pos, kind, leader) for pos, (kind, leader) in sorted(stops.items()))


def _resolve(levels: tuple, directs: tuple) -> tuple[dict, dict]:
    """Stack style levels and direct layers: plain properties override in order; a toggle flips at
    each style level that turns it on, and a direct layer sets it absolutely."""
    values: dict = {}
    for layer in levels:
        values.update(layer)
    for layer in directs:
        values.update(layer)
    toggles = {}
    for name in TOGGLES:
        state = False
        for layer in levels:
            if layer.get(name):
                state = not state
        for layer in directs:
            if name in layer:
                state = layer[name]
        toggles[name] = state
    return values, toggles
