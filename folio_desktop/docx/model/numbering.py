"""numbering.xml: list definitions and the label counter (spec §5.6, §5.7).

Labels are counted from the document as it stands, paragraph by paragraph in reading order, the
way Word does: counters belong to the abstract list, so list instances (w:num) that share an
abstract definition continue each other unless an instance restarts a level with startOverride.
A paragraph's list membership (its own w:numPr over its style's) is read here too, for the
snapshot and the formatter alike.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lxml import etree

from ..package.ooxml import MC_ALTERNATE, MC_FALLBACK, W_NS, W_RPR, W_VAL, int_attr, on_off, w
from .styles import Styles

MAX_LEVELS = 9
_W = "{" + W_NS + "}"


@dataclass
class Level:
    ilvl: int
    start: int = 1
    num_fmt: str = "decimal"
    custom_format: str | None = None
    lvl_text: str | None = None
    restart: int | None = None  # w:lvlRestart (1-based level after which this one restarts; 0 = never)
    is_lgl: bool = False
    p_style: str | None = None
    suffix: str = "tab"
    hidden: bool = False
    font: str | None = None


@dataclass
class AbstractNum:
    abstract_id: str
    levels: dict[int, Level] = field(default_factory=dict)
    num_style_link: str | None = None


@dataclass
class Num:
    num_id: str
    abstract_id: str | None
    start_overrides: dict[int, int] = field(default_factory=dict)
    level_overrides: dict[int, Level] = field(default_factory=dict)


# the w:lvl children a Level reads, by the name _parse_level knows them by
_LEVEL_CHILDREN = {**{w(t): t for t in ("start", "numFmt", "lvlText", "lvlRestart", "isLgl", "pStyle", "suff")},
                   W_RPR: "rPr", MC_ALTERNATE: "alt"}


def _parse_level(el: etree._Element) -> Level:
    lvl = Level(ilvl=int_attr(el, w("ilvl"), 0) or 0)
    # the first child of each kind, in one pass (a find per property made opening a document with
    # a thousand list levels cost a tenth of a second)
    found: dict[str, etree._Element] = {}
    for child in el:
        name = _LEVEL_CHILDREN.get(child.tag)
        if name is not None and name not in found:
            found[name] = child
    start = found.get("start")
    if start is not None:
        lvl.start = int_attr(start, default=1)
    fmt = found.get("numFmt")
    if fmt is None:
        # Word 2010 custom formats ("001, 002, ...") come wrapped in mc:AlternateContent.
        alt = found.get("alt")
        if alt is not None:
            for branch in alt:
                cand = branch.find(w("numFmt"))
                if cand is not None and cand.get(W_VAL) == "custom":
                    fmt = cand
                    lvl.custom_format = cand.get(w("format"))
                    break
            if fmt is None:
                fb = alt.find(f"{MC_FALLBACK}/{w('numFmt')}")
                fmt = fb
    if fmt is not None:
        lvl.num_fmt = fmt.get(W_VAL, "decimal")
    text = found.get("lvlText")
    if text is not None:
        lvl.lvl_text = text.get(W_VAL, "")
    restart = found.get("lvlRestart")
    if restart is not None:
        lvl.restart = int_attr(restart)
    lvl.is_lgl = on_off(found.get("isLgl"))
    pstyle = found.get("pStyle")
    if pstyle is not None:
        lvl.p_style = pstyle.get(W_VAL)
    suff = found.get("suff")
    if suff is not None:
        lvl.suffix = suff.get(W_VAL, "tab")
    rpr = found.get("rPr")
    if rpr is not None:
        lvl.hidden = on_off(rpr.find(w("vanish")))
        fonts = rpr.find(w("rFonts"))
        if fonts is not None:
            lvl.font = fonts.get(w("ascii")) or fonts.get(w("hAnsi"))
    return lvl


class Numbering:
    def __init__(self, root: etree._Element | None, styles: Styles):
        self.styles = styles
        self.abstracts: dict[str, AbstractNum] = {}
        self.nums: dict[str, Num] = {}
        if root is None:
            return
        for el in root.iterchildren(w("abstractNum")):
            aid = el.get(w("abstractNumId"))
            if aid is None:
                continue
            absn = AbstractNum(aid)
            for lvl_el in el.iterchildren(w("lvl")):
                lvl = _parse_level(lvl_el)
                if 0 <= lvl.ilvl < MAX_LEVELS:
                    absn.levels.setdefault(lvl.ilvl, lvl)
            link = el.find(w("numStyleLink"))
            if link is not None:
                absn.num_style_link = link.get(W_VAL)
            self.abstracts.setdefault(aid, absn)
        for el in root.iterchildren(w("num")):
            nid = el.get(w("numId"))
            if nid is None:
                continue
            ab = el.find(w("abstractNumId"))
            num = Num(nid, ab.get(W_VAL) if ab is not None else None)
            for ov in el.iterchildren(w("lvlOverride")):
                ilvl = int_attr(ov, w("ilvl"), 0) or 0
                so = ov.find(w("startOverride"))
                if so is not None:
                    num.start_overrides[ilvl] = int_attr(so, default=1)
                lvl_el = ov.find(w("lvl"))
                if lvl_el is not None:
                    lvl = _parse_level(lvl_el)
                    lvl.ilvl = ilvl
                    num.level_overrides[ilvl] = lvl
            self.nums.setdefault(nid, num)

    def is_defined(self, num_id: str | None) -> bool:
        return bool(num_id) and num_id in self.nums

    def abstract_for(self, num_id: str) -> AbstractNum | None:
        """The abstract definition of an instance, following numStyleLink through a numbering style."""
        num = self.nums.get(num_id)
        seen: set[str] = set()
        while num is not None and num.num_id not in seen:
            seen.add(num.num_id)
            absn = self.abstracts.get(num.abstract_id or "")
            if absn is None:
                return None
            if absn.num_style_link and not absn.levels:
                linked_num, _ = self.styles.numbering(absn.num_style_link)
                num = self.nums.get(linked_num or "")
                continue
            return absn
        return None

    def level(self, num_id: str, ilvl: int) -> Level | None:
        num = self.nums.get(num_id)
        if num is None:
            return None
        if ilvl in num.level_overrides:
            return num.level_overrides[ilvl]
        absn = self.abstract_for(num_id)
        if absn is None:
            return None
        return absn.levels.get(ilvl)

    def level_for_style(self, num_id: str, style_id: str | None) -> int | None:
        """The level whose w:pStyle names this paragraph style (how heading styles pick a level)."""
        absn = self.abstract_for(num_id)
        if absn is None or not style_id:
            return None
        for ilvl, lvl in sorted(absn.levels.items()):
            if lvl.p_style == style_id:
                return ilvl
        return None

    def definitions(self) -> list[dict]:
        """readNumberingDefinitions(): {numId, level, format, levelText, start?} sorted by numId, level."""
        out = []
        for nid in sorted(self.nums, key=lambda n: (int(n) if n.isdigit() else 1 << 30, n)):
            for ilvl in range(MAX_LEVELS):
                lvl = self.level(nid, ilvl)
                if lvl is None:
                    continue
                item = {"numId": int(nid) if nid.isdigit() else nid, "level": ilvl, "format": lvl.num_fmt,
                        "levelText": lvl.lvl_text or ""}
                if lvl.start != 1:
                    item["start"] = lvl.start
                out.append(item)
        return out


# -- formatting a counter value -----------------------------------------------------------------

_ROMAN = [(1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"), (50, "l"), (40, "xl"),
          (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")]
_ONES = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
         "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
_TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_ORD_WORDS = {"one": "first", "two": "second", "three": "third", "five": "fifth", "eight": "eighth",
              "nine": "ninth", "twelve": "twelfth"}


def _roman(n: int) -> str:
    if n <= 0 or n >= 4000:
        return str(n)
    out = []
    for value, sym in _ROMAN:
        while n >= value:
            out.append(sym)
            n -= value
    return "".join(out)


def _letters(n: int) -> str:
    # Word repeats the letter: 1..26 = a..z, 27 = aa, 28 = bb, ...
    if n <= 0:
        return str(n)
    letter = chr(ord("a") + (n - 1) % 26)
    return letter * ((n - 1) // 26 + 1)


def _cardinal_words(n: int) -> str:
    if n < 0 or n >= 1000:
        return str(n)
    if n < 20:
        return _ONES[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _TENS[tens] + ("-" + _ONES[ones] if ones else "")
    hundreds, rest = divmod(n, 100)
    return _ONES[hundreds] + " hundred" + (" " + _cardinal_words(rest) if rest else "")


def _ordinal_words(n: int) -> str:
    words = _cardinal_words(n)
    head, _, last = words.rpartition("-") if "-" in words else words.rpartition(" ")
    sep = "-" if "-" in words else " "
    if last in _ORD_WORDS:
        last = _ORD_WORDS[last]
    elif last.endswith("y"):
        last = last[:-1] + "ieth"
    else:
        last += "th"
    return (head + sep if head else "") + last


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def format_number(n: int, fmt: str, custom: str | None = None) -> str:
    if fmt == "decimal":
        return str(n)
    if fmt in ("lowerLetter", "upperLetter"):
        s = _letters(n)
        return s.upper() if fmt == "upperLetter" else s
    if fmt in ("lowerRoman", "upperRoman"):
        s = _roman(n)
        return s.upper() if fmt == "upperRoman" else s
    if fmt == "decimalZero":
        return f"{n:02d}" if 0 <= n < 10 else str(n)
    if fmt == "custom" and custom:
        first = custom.split(",")[0].strip()
        if first.isdigit():
            return str(n).zfill(len(first))
        return str(n)
    if fmt == "ordinal":
        return _ordinal(n)
    if fmt == "cardinalText":
        return _cardinal_words(n).capitalize()
    if fmt == "ordinalText":
        return _ordinal_words(n).capitalize()
    if fmt == "none":
        return ""
    if fmt == "chicago":
        marks = "*\u2020\u2021\u00a7"
        return marks[(n - 1) % 4] * ((n - 1) // 4 + 1) if n > 0 else ""
    if fmt in ("decimalEnclosedParen",):
        return f"({n})"
    if fmt in ("decimalEnclosedFullstop",):
        return f"{n}."
    if fmt == "hex":
        return f"{n:X}"
    return str(n)


# Private-use glyphs of the Symbol and Wingdings fonts that lists use as bullets, as Unicode.
_SYMBOL = {0xB7: "\u2022", 0xA7: "\u2663", 0xA8: "\u2666", 0xA9: "\u2665", 0xAA: "\u2660", 0xAE: "\u2192",
           0xDE: "\u21d2", 0xD8: "\u00ac", 0x2D: "\u2212", 0xB0: "\u00b0", 0x6F: "\u03bf"}
_WINGDINGS = {0xA7: "\u25aa", 0x6C: "\u25cf", 0x6E: "\u25a0", 0x71: "\u2751", 0x75: "\u25c6", 0x76: "\u2756",
              0xD8: "\u27a2", 0xFC: "\u2714", 0xFB: "\u2718", 0x9F: "\u2022", 0xA1: "\u25cb", 0xA8: "\u25fb",
              0x77: "\u2b25", 0xE0: "\u2192", 0xE8: "\u2794", 0x6F: "\u25a1", 0x70: "\u25a0", 0xF0: "\u21e8"}


def bullet_glyph(text: str, font: str | None) -> str:
    out = []
    family = (font or "").lower()
    for ch in text:
        code = ord(ch)
        low = code - 0xF000 if 0xF000 <= code <= 0xF0FF else code
        if "wingdings" in family and low in _WINGDINGS:
            out.append(_WINGDINGS[low])
        elif "symbol" in family and low in _SYMBOL:
            out.append(_SYMBOL[low])
        elif 0xF000 <= code <= 0xF0FF:
            out.append(_SYMBOL.get(low) or _WINGDINGS.get(low) or "\u2022")
        else:
            out.append(ch)
    return "".join(out)


class LabelCounter:
    """Counts list labels over paragraphs fed in reading order (one instance per story walk)."""

    def __init__(self, numbering: Numbering):
        self.numbering = numbering
        self._counters: dict[str, list[int | None]] = {}
        self._starts: dict[str, list[int]] = {}
        self._seen_nums: set[str] = set()
        # the definitions looked up, per instance and level: a counter lives for one walk of a story,
        # over which the definitions do not change
        self._levels: dict[tuple[str, int], Level | None] = {}
        self._abstracts: dict[str, AbstractNum | None] = {}

    def fork(self) -> LabelCounter:
        """A counter that goes on from this one's state without changing it."""
        out = LabelCounter(self.numbering)
        out._counters = {key: list(values) for key, values in self._counters.items()}
        out._starts = self._starts  # (read only once made)
        out._seen_nums = set(self._seen_nums)
        out._levels, out._abstracts = self._levels, self._abstracts
        return out

    def _level(self, num_id: str, ilvl: int) -> Level | None:
        key = (num_id, ilvl)
        try:
            return self._levels[key]
        except KeyError:
            level = self._levels[key] = self.numbering.level(num_id, ilvl)
            return level

    def _abstract(self, num_id: str) -> AbstractNum | None:
        try:
            return self._abstracts[num_id]
        except KeyError:
            absn = self._abstracts[num_id] = self.numbering.abstract_for(num_id)
            return absn

    def _state(self, key: str, num_id: str) -> tuple[list[int | None], list[int]]:
        counters = self._counters.get(key)
        if counters is None:
            counters = self._counters[key] = [None] * MAX_LEVELS
            starts = self._starts[key] = []
            for ilvl in range(MAX_LEVELS):
                lvl = self._level(num_id, ilvl)
                starts.append(lvl.start if lvl is not None else 1)
        return counters, self._starts[key]

    def feed(self, num_id: str, ilvl: int) -> tuple[str | None, Level | None]:
        """Advance the counters for a paragraph in list num_id at level ilvl; return its label
        (None when the list or level is undefined, or the level is hidden) and the level."""
        numbering = self.numbering
        level = self._level(num_id, ilvl)
        absn = self._abstract(num_id)
        if level is None or absn is None:
            return None, None
        key = absn.abstract_id
        counters, starts = self._state(key, num_id)
        if num_id not in self._seen_nums:
            self._seen_nums.add(num_id)
            num = numbering.nums[num_id]
            # an instance's start override restarts the level it is first used at; the levels above
            # keep counting and the shared definition's own start values are left alone (a "(a)"
            # list restarted inside clause 1.1 neither renumbers clause 1.1 nor later lists)
            override = num.start_overrides.get(ilvl)
            if override is None and ilvl in num.level_overrides:
                override = num.level_overrides[ilvl].start
            if override is not None:
                counters[ilvl] = override - 1
        current = counters[ilvl]
        counters[ilvl] = starts[ilvl] if current is None else current + 1
        for deeper in range(ilvl + 1, MAX_LEVELS):
            dl = self._level(num_id, deeper)
            restart = dl.restart if dl is not None and dl.restart is not None else deeper
            if restart != 0 and ilvl < restart:
                counters[deeper] = None
        if level.hidden:
            return None, level
        return self._render(num_id, level, counters, starts), level

    def _render(self, num_id: str, level: Level, counters: list[int | None], starts: list[int]) -> str:
        template = level.lvl_text
        if template is None:
            return ""
        if level.num_fmt == "bullet":
            return bullet_glyph(template, level.font).strip()
        out = []
        i = 0
        while i < len(template):
            ch = template[i]
            if ch == "%" and i + 1 < len(template) and template[i + 1] in "123456789":
                ref = int(template[i + 1]) - 1
                ref_level = self._level(num_id, ref)
                value = counters[ref]
                if value is None:
                    # A level never used yet shows its start value (Word and LibreOffice agree).
                    value = starts[ref]
                if ref_level is None:
                    out.append(str(value))
                elif level.is_lgl and ref_level.num_fmt not in ("decimalZero",):
                    out.append(str(value))
                else:
                    out.append(format_number(value, ref_level.num_fmt, ref_level.custom_format))
                i += 2
                continue
            out.append(ch)
            i += 1
        return "".join(out).strip()


def list_membership(styles: Styles, numbering: Numbering, style_id: str | None,
                    numpr: etree._Element | None) -> tuple[dict, str | None, int | None]:
    """A paragraph's list membership: (stated numbering as spec §5.7 reports it, effective numId,
    effective ilvl). The stated tier (the paragraph's own w:numPr) wins over the style tier (the
    numbering its paragraph style, or the default paragraph style, supplies through basedOn).
    numId is None when the paragraph is not in a list; the level may still be None."""
    num_id = ilvl = None
    if numpr is not None:
        nid = numpr.find(_W + "numId")
        num_id = nid.get(W_VAL) if nid is not None else None
        ilvl = int_attr(numpr.find(_W + "ilvl"))
    return membership(styles, numbering, style_id, numpr is not None, num_id, ilvl)


def membership(styles: Styles, numbering: Numbering, style_id: str | None, stated_tier: bool,
               num_id: str | None, ilvl: int | None) -> tuple[dict, str | None, int | None]:
    """list_membership from what the paragraph's w:numPr says (`stated_tier`: it has one; its numId
    and ilvl): a function of its arguments alone, which a reader may keep per distinct arguments."""
    numpr = True if stated_tier else None
    if numpr is None:
        stated: dict = {"kind": "inherit"}
    elif num_id is not None:
        if num_id == "0":
            stated = {"kind": "none"}
        else:
            stated = {"kind": "reference", "numId": _num(num_id)}
            if ilvl is not None:
                stated["ilvl"] = ilvl
    elif ilvl is not None:
        stated = {"kind": "levelOnly", "ilvl": ilvl}
    else:
        stated = {"kind": "inherit"}

    # effective membership: stated tier over the style tier
    effective_style = style_id or styles.default_paragraph_style
    s_num, s_ilvl = styles.numbering(effective_style)
    if s_num is not None and s_num != "0" and s_ilvl is None:
        s_ilvl = numbering.level_for_style(s_num, effective_style)
    kind = stated["kind"]
    if kind == "none":
        eff_num, eff_lvl = None, None
    elif kind == "reference":
        eff_num = num_id
        eff_lvl = ilvl if ilvl is not None else (s_ilvl if s_ilvl is not None else 0)
    elif kind == "levelOnly":
        eff_num = s_num if s_num not in (None, "0") else None
        eff_lvl = ilvl
    else:
        eff_num = s_num if s_num not in (None, "0") else None
        eff_lvl = s_ilvl if s_ilvl is not None else 0
    return stated, eff_num, eff_lvl


def _num(value: str):
    return int(value) if value.lstrip("-").isdigit() else value


def _index_levels(root: etree._Element | None) -> tuple[dict, dict]:
    """(abstractNumId, ilvl) -> w:lvl and (numId, ilvl) -> override w:lvl, chosen as numbering.py
    chooses them (first abstractNum/num of an id wins; within one, the first lvl of a level)."""
    abstract: dict[tuple[str, int], etree._Element] = {}
    overrides: dict[tuple[str, int], etree._Element] = {}
    if root is None:
        return abstract, overrides
    seen: set[str] = set()
    for el in root.iterchildren(_W + "abstractNum"):
        aid = el.get(_W + "abstractNumId")
        if aid is None or aid in seen:
            continue
        seen.add(aid)
        for lvl in el.iterchildren(_W + "lvl"):
            ilvl = int_attr(lvl, _W + "ilvl", 0) or 0
            if 0 <= ilvl < 9:
                abstract.setdefault((aid, ilvl), lvl)
    seen.clear()
    for el in root.iterchildren(_W + "num"):
        nid = el.get(_W + "numId")
        if nid is None or nid in seen:
            continue
        seen.add(nid)
        for ov in el.iterchildren(_W + "lvlOverride"):
            lvl = ov.find(_W + "lvl")
            if lvl is not None:
                overrides[(nid, int_attr(ov, _W + "ilvl", 0) or 0)] = lvl
    return abstract, overrides
