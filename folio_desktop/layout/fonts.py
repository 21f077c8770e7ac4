"""Fonts for layout: Word's font names mapped to what is installed, each substitution reported once.

Metric-compatible stand-ins keep line breaks where Word has them: Carlito for Calibri, the
Liberation family for Times New Roman, Arial and Courier New, URW's clones of the PostScript fonts
for Palatino, Century Schoolbook, Bookman, Avant Garde (Century Gothic's metrics) and Arial Narrow;
Caladea (for Cambria) and Liberation Sans (for Aptos) are given the original's widths
(metric_shims.py). Any other missing font falls back by what the document's font table says of it:
its w:altName when that is installed, else a serif, sans or monospaced face by its PANOSE, pitch
and family (a name's hints only when the table is silent).
"""

from __future__ import annotations

import logging
import re
import struct

from PySide6.QtGui import QFont, QFontDatabase, QFontInfo, QFontMetricsF, QRawFont

from .metric_shims import build_family

log = logging.getLogger(__name__)

SUBSTITUTES = {
    "calibri": "Carlito",
    "calibri light": "Carlito",
    "cambria": "Caladea",
    "times new roman": "Liberation Serif",
    "times": "Liberation Serif",
    "arial": "Liberation Sans",
    "helvetica": "Liberation Sans",
    "courier new": "Liberation Mono",
    "courier": "Liberation Mono",
    "segoe ui": "Liberation Sans",
    "tahoma": "Liberation Sans",
    "verdana": "Liberation Sans",
    "georgia": "Liberation Serif",
    "garamond": "Liberation Serif",
    "book antiqua": "P052",  # Monotype's Palatino: the same widths
    "palatino linotype": "P052",
    "palatino": "P052",
    "century schoolbook": "C059",
    "new century schoolbook": "C059",
    "bookman old style": "URW Bookman",
    "bookman": "URW Bookman",
    "itc bookman": "URW Bookman",
    "century gothic": "URW Gothic",  # drawn to ITC Avant Garde Gothic's widths
    "avant garde": "URW Gothic",
    "itc avant garde gothic": "URW Gothic",
    "arial narrow": "Nimbus Sans Narrow",  # Helvetica Narrow's widths, as Arial Narrow's
    "helvetica narrow": "Nimbus Sans Narrow",
    "symbol": "DejaVu Sans",
    "wingdings": "DejaVu Sans",
}
# Stand-ins whose letters are not as wide as the font they replace. Caladea has neither Cambria's
# widths (e 441 against 488 per 1000 em, the figure 1 362 against 554) nor its line (LINE_FACTORS), and
# Aptos, Word's newer default, has no free clone: without a correction Cambria text breaks its
# lines about a word early (line-end F1 0.6 against Word). metric_shims.py gives the stand-in the
# original's widths for every character Word's PDFs show (word_widths.py); the factors here, how
# much wider the original sets ordinary text per (bold, italic), measured over those PDFs' text,
# scale the other characters, or all of them when the copy cannot be built.
WIDTH_FACTORS = {
    ("cambria", "Caladea"): {(False, False): 1.048, (True, False): 1.027, (False, True): 1.031, (True, True): 1.027},
    ("aptos", "Liberation Sans"): dict.fromkeys([(False, False), (True, False), (False, True), (True, True)], 0.974),
}
# Word's single line per em of originals whose stand-in is shorter or taller (its hhea ascender,
# descender and line gap): Caladea's is 1.15 em, Cambria's 2401/2048; Liberation Sans's 1.15,
# Aptos's 2500/2048. Measured in Word's PDFs (word-pdf/): Cambria 11 pt at 1.15 lines is 14.81 pt a
# line (docxide-case22), Aptos 12 pt at 1.15 lines 16.84 pt (docxide-case05); with the stand-in's own
# heights every page of such a document fell short by a line or two.
LINE_FACTORS = {"cambria": 2401 / 2048, "aptos": 2500 / 2048}
# Fonts with Chinese, Japanese and Korean glyphs, in order of preference, for text whose East Asian
# font is not installed. The fonts Word falls back to (MS Mincho, SimSun, ...) set every ideograph
# and kana one em wide; WenQuanYi Zen Hei sets its kana 1048/1024 em (ideographs one em), so kana
# are set in KANA + its name and scaled back by KANA_WIDTH.
CJK_STAND_INS = ("WenQuanYi Zen Hei", "Noto Sans CJK JP", "Noto Sans CJK SC", "Droid Sans Fallback")
KANA = "\x00kana"
KANA_WIDTH = {"WenQuanYi Zen Hei": 1024 / 1048}
_NO_LIGATURES = (QFont.Tag("liga"), QFont.Tag("clig"))
FALLBACK_SERIF = "Liberation Serif"
FALLBACK_SANS = "Liberation Sans"
FALLBACK_MONO = "Liberation Mono"
_FALLBACKS = {"serif": FALLBACK_SERIF, "sans": FALLBACK_SANS, "mono": FALLBACK_MONO}
# a name says sans serif (for fonts the table does not describe: web fonts, documents made by tools)
_SANS_HINTS = ("sans", "arial", "helv", "gothic", "grotesk", "segoe", "verdana", "tahoma", "calibri", "aptos",
               "inter", "roboto", "lato", "montserrat", "poppins", "nunito", "futura", "frutiger", "univers",
               "myriad", "avenir", "trebuchet", "lucida grande", "ubuntu", "franklin", "swis721")
_FOUNDRY = re.compile(r"\s*\[[^\]]*\]$")  # Qt's "Family [foundry]" for a family two foundries install
_MONO_HINTS = ("mono", "courier", "consolas", "code", "typewriter")


class FontBook:
    """Maps a document's font family names to installed families and builds cached QFonts."""

    def __init__(self):
        self._families: dict[str, str] = {}
        self._foundries: dict[str, list[str]] = {}  # family -> "Family [foundry]" when Qt lists several
        for installed in QFontDatabase.families():
            self._families.setdefault(installed.lower(), installed)
            base = _FOUNDRY.sub("", installed)
            if base != installed:
                self._families.setdefault(base.lower(), base)
                self._foundries.setdefault(base.lower(), []).append(installed)
        self._resolved: dict[str, str] = {}
        self._fonts: dict[tuple, QFont] = {}
        self._line_factor: dict[tuple, float] = {}
        self._line_override: dict[str, float] = {}  # a stand-in family -> the original's line per em
        self._sample_advances: dict[tuple, list] = {}  # (family, bold, italic, px, kana) -> _sample_advances
        self._east_asian: dict[str, str] = {}
        self.substitutions: dict[str, str] = {}  # document font -> the family used instead
        self._table: dict = {}  # lower-cased name -> docx.font_table.FontEntry

    def use_font_table(self, table: dict) -> None:
        """What the document's font table says of its fonts (docx.font_table.read_font_table), for
        choosing a stand-in; names it describes anew are resolved again."""
        for key, entry in table.items():
            if self._table.get(key) != entry:
                self._table[key] = entry
                self._resolved.pop(key, None)

    def family(self, name: str | None) -> str:
        if name and name.endswith(KANA):  # kana of an East Asian family (east_asian_family)
            return self.family(name[: -len(KANA)])
        key = (name or "").strip().lower()
        found = self._resolved.get(key)
        if found is not None:
            return found
        if key in self._families:
            found = self._families[key]
        else:
            found = self._stand_in(key)
            if name and name not in self.substitutions:
                self.substitutions[name] = found
                log.info("font %r is not installed; using %r", name, found)
            factors = WIDTH_FACTORS.get((key, found))
            if factors:  # the stand-in with the original's widths, where they are known
                built = build_family(key.title(), found, factors)
                if built and key in LINE_FACTORS:  # (a copy of its own: the original's heights too)
                    self._line_override[built] = LINE_FACTORS[key]
                found = built or found
        found = self._resolved[key] = self._outline_font(found)
        return found

    def _outline_font(self, family: str) -> str:
        """Of a family installed twice (URW's fonts come as Type 1 and as OpenType, listed as
        "P052 [urw]" and "P052 [UKWN]"), the copy with TrueType/OpenType tables: Qt would pick
        either, and line heights are read from the hhea table."""
        variants = self._foundries.get(family.lower())
        if not variants:
            return family
        return next((v for v in variants if _hhea_factor(QFont(v)) > 0), family)

    def _stand_in(self, key: str) -> str:
        """The installed family for a missing font: its metric-compatible clone, else (from the
        font table) its alternative name or the clone of that, else a fallback of its kind."""
        entry = self._table.get(key)
        for candidate in (key, *(alt.lower() for alt in (entry.alt_names if entry else ()))):
            for option in (candidate, SUBSTITUTES.get(candidate, "").lower()):
                if option and option in self._families:
                    return self._families[option]
        kind = entry.kind if entry is not None else None
        if kind is None:
            if any(h in key for h in _MONO_HINTS):
                kind = "mono"
            else:
                kind = "sans" if any(h in key for h in _SANS_HINTS) else "serif"
        for option in (_FALLBACKS[kind], FALLBACK_SERIF):
            if option.lower() in self._families:
                return self._families[option.lower()]
        return next(iter(self._families.values()), "Sans")

    def font(self, family: str | None, size_pt: float, bold=False, italic=False, caps=False,
             small_caps=False, spacing_px: float = 0.0) -> QFont:
        key = (family, round(size_pt * 2), bold, italic, caps, small_caps, round(spacing_px, 2))
        font = self._fonts.get(key)
        if font is None:
            used_family = self.family(family)
            font = QFont(used_family)
            font.setPointSizeF(max(size_pt, 1.0))
            font.setBold(bold)
            font.setItalic(italic)
            font.setKerning(False)  # Word does not kern by default
            for tag in _NO_LIGATURES:  # nor join letters (Carlito's "ti" also left PDFs saying "sec on")
                font.setFeature(tag, 0)
            if caps:
                font.setCapitalization(QFont.AllUppercase)
            elif small_caps:
                font.setCapitalization(QFont.SmallCaps)
            # Qt rounds a font's pixel size to a whole pixel (11 pt at 96 dpi: 15 px, not 14.67),
            # so every advance is off by up to 1/2 px per em (+2.3% at 11 pt); scaling the advances
            # back (and by a stand-in's width factor) keeps line breaks where Word puts them, Word
            # setting text at its design widths
            exact = max(size_pt, 1.0) * 96 / 72
            used = QFontInfo(font).pixelSize()
            factor = self.width_factor(family, used_family, bold, italic)
            scale = (exact / used if used > 0 else 1.0) * factor
            if spacing_px:
                # Qt takes one kind of letter spacing: fold the scale in as an average advance
                extra = (scale - 1.0) * QFontMetricsF(font).averageCharWidth() if abs(scale - 1.0) > 1e-4 else 0.0
                font.setLetterSpacing(QFont.AbsoluteSpacing, spacing_px + extra)
            else:
                percent = self._calibrated_percent(font, 100.0 * scale, exact * factor, (family or '').endswith(KANA))
                if abs(percent - 100.0) > 1e-3:
                    font.setLetterSpacing(QFont.PercentageSpacing, percent)
            self._fonts[key] = font
        return font

    def _calibrated_percent(self, font: QFont, percent: float, em_px: float, kana: bool = False) -> float:
        """The letter spacing (percent) under which Qt sets each letter closest to its design
        width at em_px (Word sets text at its design widths).

        Qt keeps advances in 1/64 px: it truncates each glyph's advance at the whole pixel size,
        then adds the spacing's share truncated too. The glyphs of ordinary text share a handful of
        advances, so the nearest percentage can still leave the commonest letters 1/64 px short
        (Calibri 10 pt: a 300 pt line 1 pt short, one word more than Word fits). Each candidate
        step of the percentage is tried on every letter of _SAMPLE, as Qt computes it."""
        probe = QFont(font)
        probe.setCapitalization(QFont.MixedCase)
        key = (font.family(), font.bold(), font.italic(), QFontInfo(probe).pixelSize(), kana)
        glyphs = self._sample_advances.get(key)
        if glyphs is None:  # (the kana stand-in sets only kana: weigh only those)
            glyphs = self._sample_advances[key] = _sample_advances(probe, _KANA_SAMPLE if kana else _SAMPLE)
        if not glyphs:
            return percent
        start = int(percent * 64)

        def error(step: int) -> float:
            # how far a line of such text is off, and (so that other text is not far off either)
            # how far its letters are one by one
            errors = [(count, _qt_advance(base, step) - design * em_px * 64) for base, design, count in glyphs]
            return abs(sum(c * e for c, e in errors)) + 0.1 * sum(c * abs(e) for c, e in errors)

        def signed(step: int) -> float:
            return sum(count * (_qt_advance(base, step) - design * em_px * 64) for base, design, count in glyphs)

        # the line error grows with the step: find where it crosses zero (within 3/4 %), then weigh
        # the steps around it
        low, high = start - 48, start + 48
        while high - low > 1:
            middle = (low + high) // 2
            if signed(middle) < 0:
                low = middle
            else:
                high = middle
        best = min(range(low - 3, high + 4), key=lambda step: (error(step), abs(step - start)))
        return best / 64

    def east_asian_family(self, name: str | None) -> str:
        """The family Chinese, Japanese and Korean characters are set in: the run's East Asian font
        when it is installed and has them, else the CJK stand-in. Word falls back the same way when
        the named font lacks them (OpenChain's handouts name Arial and print in MS Mincho)."""
        key = (name or "").strip().lower()
        found = self._east_asian.get(key)
        if found is None:
            installed = self._families.get(key)
            if installed is not None and _has_cjk(installed):
                found = installed
            else:
                found = next((self._families[f.lower()] for f in CJK_STAND_INS if f.lower() in self._families),
                             self.family(name))
            self._east_asian[key] = found
        return found

    @staticmethod
    def width_factor(requested: str | None, used: str, bold: bool, italic: bool) -> float:
        """How much wider the requested font sets text than the stand-in used for it (1.0 when
        the font is installed or its stand-in is metric-compatible)."""
        factors = WIDTH_FACTORS.get(((requested or "").strip().lower(), used))
        if factors:
            return factors[(bool(bold), bool(italic))]
        if (requested or "").endswith(KANA):
            return KANA_WIDTH.get(used, 1.0)
        return 1.0

    def line_height(self, font: QFont) -> float:
        """Single line height in px from the font's hhea ascender, descender and line gap, as Word
        and LibreOffice compute it (Qt's own metrics leave the gap out)."""
        key = (font.family(), font.bold(), font.italic())
        factor = self._line_factor.get(key)
        if factor is None:
            factor = self._line_override.get(font.family()) or _hhea_factor(font)
            self._line_factor[key] = factor
        if factor <= 0:
            return QFontMetricsF(font).lineSpacing()
        return factor * font.pointSizeF() * 96 / 72


# ordinary text, for how often each letter counts in _calibrated_percent: mostly a contract's English
_SAMPLE = ("This Agreement is made between the Parties named above. Each Party shall keep the other "
           "Party's Confidential Information secret, use it only for the Purpose and disclose it only to "
           "its employees and advisers who need to know it, provided that they are bound by obligations "
           "no less strict. The Limited Partners agree that the General Partner may, subject to Section "
           "12(b), call capital of up to $1,000,000 on 30 days' notice in writing (the \"Notice\"); any "
           "dispute shall be governed by the laws of the State of Delaware, 1 January 2024. "
           "Die Vertragsparteien vereinbaren; les parties conviennent; las partes acuerdan; følgende. "
           # and for the East Asian stand-in, Japanese and Chinese (a font weighs only what it has)
           "オープンソースソフトウェアのための共通プロセス。本协议受中华人民共和国法律管辖。")
_KANA_SAMPLE = "オープンソースソフトウェアのためのプロセス、ひらがなとカタカナ"


def _sample_advances(font: QFont, sample: str) -> list[tuple[int, float, int]]:
    """(Qt's advance in 1/64 px at the font's whole pixel size, design advance per em, count) of
    each distinct letter of sample; empty when the font's glyphs cannot be read."""
    raw = QRawFont.fromFont(font)
    if not raw.isValid():
        return []
    counts: dict[str, int] = {}
    for ch in sample:
        counts[ch] = counts.get(ch, 0) + 1
    chars = "".join(counts)
    indexes = raw.glyphIndexesForString(chars)
    if len(indexes) != len(chars):
        return []
    used = raw.advancesForGlyphIndexes(indexes, QRawFont.UseDesignMetrics)
    raw.setPixelSize(2048)  # at 2048 px the 1/64 px steps are nothing: the design widths
    design = raw.advancesForGlyphIndexes(indexes, QRawFont.UseDesignMetrics)
    return [(round(u.x() * 64), d.x() / 2048, counts[ch])
            for index, u, d, ch in zip(indexes, used, design, chars, strict=True) if index and u.x() > 0]


def _qt_advance(base: int, step: int) -> int:
    """A glyph's advance (1/64 px) under percentage letter spacing step/64 %, as Qt's text engine
    computes it in fixed point: the extra, (percent - 100) * advance / 100, truncated."""
    product = ((step - 6400) * base + 32) >> 6
    extra = abs(product) // 100
    return base + (extra if product >= 0 else -extra)


def _hhea_factor(font: QFont) -> float:
    """(ascender - descender + lineGap) per em, or 0 when the font's tables cannot be read."""
    try:
        raw = QRawFont.fromFont(font)
        hhea = bytes(raw.fontTable("hhea"))
        if len(hhea) < 10 or raw.unitsPerEm() <= 0:
            return 0.0
        ascender, descender, gap = struct.unpack(">hhh", hhea[4:10])
        return (ascender - descender + gap) / raw.unitsPerEm()
    except Exception:  # noqa: BLE001 - a font without tables falls back to Qt's metrics
        return 0.0


def _has_cjk(family: str) -> bool:
    systems = QFontDatabase.writingSystems(family)
    return any(ws in systems for ws in (QFontDatabase.SimplifiedChinese, QFontDatabase.TraditionalChinese,
                                        QFontDatabase.Japanese, QFontDatabase.Korean))
