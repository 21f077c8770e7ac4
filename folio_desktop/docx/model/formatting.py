"""Resolved paragraph and run formatting, as Word computes it: the input of page layout.

Paragraph properties stack, lowest first: document defaults (w:pPrDefault), the table style (its
basedOn chain, then the conditional w:tblStylePr the cell's position and the table's w:tblLook
enable), the paragraph style chain (basedOn, root first; the default paragraph style when the
paragraph names none), the numbering level's indents and tabs, and the paragraph's own w:pPr.
The level's indents override indents the style chain inherited; indents the applied style states
itself win when the numbering comes from that style.

Run properties stack the same way: w:rPrDefault, the table style, the paragraph style chain, the
character style chain, the run's own w:rPr. Toggle properties (b, i, caps, strike, vanish, ...)
follow Word's rule: each style level (table, paragraph, character) that turns one on flips it, and
direct formatting sets it absolutely.

Everything is cached on the XML of the properties themselves (a paragraph's w:pPr, a run's w:rPr)
plus the table context, so edits to a paragraph's formatting are picked up without invalidation;
a Formatter notices when the document's styles or numbering were reloaded and starts over.

The records and the parsers of one property element are in properties.py; a table's grid and the
conditional formats its look gives a cell are in tables.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lxml import etree

from ..package.ooxml import W_NS, W_PPR, W_RPR, W_VAL, first_child, int_attr, structure_key, w
from .numbering import _index_levels, list_membership
from .properties import (
    BORDER_SIDES,
    ParagraphFormat,
    RunFormat,
    _flag,
    _resolve,
    _shading,
    _tab_stops,
    merge,
    parse_borders,
    parse_ppr,
    parse_rpr,
)
from .tables import DEFAULT_LOOK, _TableInfo, conditions
from .theme import Theme

if TYPE_CHECKING:
    from .document import Document

_W = "{" + W_NS + "}"
_WLEN = len(_W)
T_P, T_TBL, T_TR, T_TC, T_BODY = (_W + t for t in ("p", "tbl", "tr", "tc", "body"))
T_TXBX = _W + "txbxContent"
T_TBLPR = _W + "tblPr"

DEFAULT_FONT = "Times New Roman"  # Word's face when no level of the hierarchy names one
DEFAULT_SIZE_HALF_POINTS = 20  # 10 pt
DEFAULT_TAB_STOP = 720
LINE_UNIT_TWIPS = 240  # one "line" of w:beforeLines/afterLines (approximation: 12 pt)


class Formatter:
    """Resolves paragraph and run formatting for one document (all stories share it)."""

    def __init__(self, doc: Document):
        self.doc = doc
        self._bind()

    # -- set-up ------------------------------------------------------------------------------------

    def _bind(self) -> None:
        doc = self.doc
        self._styles = doc.styles
        self._numbering = doc.numbering
        self._version = doc.version
        self.theme = Theme.from_document(doc)
        self.default_tab_stop = _default_tab_stop(doc)
        styles_root = doc.optional_part_xml("styles")
        self._style_elements: dict[str, etree._Element] = {}
        self._default_table_style: str | None = None
        doc_ppr = None
        if styles_root is not None:
            defaults = styles_root.find(_W + "docDefaults")
            if defaults is not None:
                doc_ppr = defaults.find(f"{_W}pPrDefault/{W_PPR}")
            for el in styles_root.iterchildren(_W + "style"):
                sid = el.get(_W + "styleId")
                if sid and sid not in self._style_elements:
                    self._style_elements[sid] = el
                    if el.get(_W + "type") == "table" and _flag(el.get(_W + "default")) \
                            and self._default_table_style is None:
                        self._default_table_style = sid
        self._doc_ppr = parse_ppr(doc_ppr)
        self._doc_rpr = parse_rpr(self._styles.doc_rpr)
        self._level_elements: tuple[dict, dict] | None = None
        self._style_ppr: dict[str | None, dict] = {}
        self._style_rpr: dict[str | None, dict] = {}
        self._table_layers: dict[tuple, tuple[dict, dict]] = {}
        self._table_fills: dict[tuple, tuple[str | None, str | None]] = {}
        self._table_borders: dict[tuple, tuple[dict, tuple]] = {}
        self._table_types: dict[str, frozenset] = {}
        self._tables: dict[Any, _TableInfo] = {}
        self._paras: dict[tuple, ParagraphFormat] = {}
        self._para_ctx: dict[int, tuple] = {}
        self._runs: dict[tuple, RunFormat] = {}
        self._run_levels: dict[tuple, tuple] = {}

    def _check(self) -> None:
        doc = self.doc
        if doc.styles is not self._styles or doc.numbering is not self._numbering:
            self._bind()
        elif doc.version != self._version:
            self._tables.clear()  # rows may have moved; everything else is keyed on content
            self._version = doc.version

    # -- public API --------------------------------------------------------------------------------

    def paragraph(self, p: etree._Element, table_style_id: str | None = None,
                  cell_position: tuple[int, int, int, int] | None = None) -> ParagraphFormat:
        """The resolved format of a paragraph. Inside a table, the table's style (table_style_id, else
        the table's w:tblStyle, else the default table style) and the cell's conditional formats
        apply, as the table's w:tblLook enables them. The cell's position is found from the
        paragraph's ancestors; cell_position = (row_index, col_index, row_count, col_count)
        overrides it, where col_index is the cell's index in its row and col_count the number of
        cells in that row (not grid columns: a spanned last cell is still the last column)."""
        self._check()
        table_key = self._table_key(p, table_style_id, cell_position)
        ppr = first_child(p, W_PPR)
        key = (structure_key(ppr) if ppr is not None else (), table_key)
        para = self._paras.get(key)
        if para is None:
            para = self._build_paragraph(ppr, table_key)
            self._paras[key] = para
            self._para_ctx[id(para)] = (para.style_id, table_key)
        return para

    def run(self, run: etree._Element | None, p: etree._Element, para: ParagraphFormat,
            table_style_id: str | None = None) -> RunFormat:
        """The resolved format of a run of paragraph p (para = self.paragraph(p, ...)); None = the
        paragraph mark."""
        if run is None:
            return para.mark
        self._check()
        ctx = self._para_ctx.get(id(para))
        if ctx is None or (table_style_id is not None and (ctx[1] is None or ctx[1][0] != table_style_id)):
            ctx = (para.style_id, self._table_key(p, table_style_id, None))
        style_id, table_key = ctx
        rpr = first_child(run, W_RPR)
        key = (style_id, table_key, structure_key(rpr) if rpr is not None else None)
        fmt = self._runs.get(key)
        if fmt is None:
            direct = parse_rpr(rpr)
            levels = self._levels(style_id, table_key, direct.get("rStyle"))
            fmt = self._run_format(*_resolve(levels, (direct,)))
            self._runs[key] = fmt
        return fmt

    def cell_shading(self, p: etree._Element) -> str | None:
        """The fill (hex) of the table cell behind paragraph p, or None when nothing shades it: the
        cell's own w:tcPr/w:shd, else the table style's cell shading at the cell's position, and
        under an unshaded cell the table's background (w:tblPr/w:shd, then its style's). An
        unshaded cell of a nested table shows the cell around that table."""
        self._check()
        el = p
        while True:
            tc = tbl = None
            parent = el.getparent()
            while parent is not None and tbl is None:
                tag = parent.tag
                if tag == T_TC and tc is None:
                    tc = parent
                elif tag == T_TBL:
                    tbl = parent
                elif tag == T_BODY or tag == T_TXBX:
                    return None  # a text box paints its own background, not the cell's
                parent = parent.getparent()
            if tc is None or tbl is None:
                return None
            key = self._table_key(el, None, None)
            tcpr = tc.find(_W + "tcPr")
            shd = tcpr.find(_W + "shd") if tcpr is not None else None
            fill = _shading(shd) if shd is not None else self._style_cells(key)[0]
            if fill is None:
                tblpr = tbl.find(T_TBLPR)
                shd = tblpr.find(_W + "shd") if tblpr is not None else None
                fill = _shading(shd) if shd is not None else self._style_cells(key)[1]
            if fill is not None:
                return fill
            el = tbl

    def _style_cells(self, table_key: tuple | None) -> tuple[str | None, str | None]:
        """(cell fill, table background) a table style gives a cell with these conditional formats."""
        if table_key is None:
            return None, None
        cached = self._table_fills.get(table_key)
        if cached is None:
            style_id, conds = table_key
            chain = list(reversed(self._styles.chain(style_id)))
            cell = table = None
            for cond in (None, *conds):
                for style in chain:
                    el = self._style_elements.get(style.style_id)
                    if el is None:
                        continue
                    holders = [el] if cond is None else [c for c in el.iterchildren(_W + "tblStylePr")
                                                         if c.get(_W + "type") == cond]
                    for holder in holders:
                        shd = holder.find(f"{_W}tcPr/{_W}shd")
                        if shd is not None:
                            cell = _shading(shd)
                        if cond is None:
                            shd = holder.find(f"{T_TBLPR}/{_W}shd")
                            if shd is not None:
                                table = _shading(shd)
            cached = self._table_fills[table_key] = (cell, table)
        return cached

    def table_style_borders(self, p: etree._Element) -> tuple[dict, tuple]:
        """Borders the table style gives the cell holding paragraph p: (the style chain's w:tblBorders
        sides, [(condition, sides)] of cell-level borders lowest precedence first, where condition
        None is the style's own w:tcPr/w:tcBorders and the others are the w:tblStylePr formats the
        cell's position and the table's w:tblLook enable). Sides map to border_attrs tuples."""
        self._check()
        key = self._table_key(p, None, None)
        if key is None:
            return {}, ()
        cached = self._table_borders.get(key)
        if cached is None:
            style_id, conds = key
            elements = [el for el in (self._style_elements.get(st.style_id)
                                      for st in reversed(self._styles.chain(style_id))) if el is not None]
            table: dict = {}
            own: dict = {}
            for el in elements:
                table.update(parse_borders(el.find(f"{T_TBLPR}/{_W}tblBorders")))
                own.update(parse_borders(el.find(f"{_W}tcPr/{_W}tcBorders")))
            cells = [(None, own)] if own else []
            for cond in conds:
                sides: dict = {}
                for el in elements:
                    for cpr in el.iterchildren(_W + "tblStylePr"):
                        if cpr.get(_W + "type") == cond:
                            sides.update(parse_borders(cpr.find(f"{T_TBLPR}/{_W}tblBorders")))
                            sides.update(parse_borders(cpr.find(f"{_W}tcPr/{_W}tcBorders")))
                if sides:
                    cells.append((cond, sides))
            cached = self._table_borders[key] = (table, tuple(cells))
        return cached

    # -- paragraphs --------------------------------------------------------------------------------

    def _build_paragraph(self, ppr: etree._Element | None, table_key: tuple | None) -> ParagraphFormat:
        styles = self._styles
        written = None
        numpr = mark_rpr = None
        if ppr is not None:
            ps = ppr.find(_W + "pStyle")
            written = ps.get(W_VAL) if ps is not None else None
            numpr = ppr.find(_W + "numPr")
            mark_rpr = ppr.find(W_RPR)
        style = styles.get(written)
        style_id = written if style is not None and style.type == "paragraph" else styles.default_paragraph_style

        stated, num_id, ilvl = list_membership(styles, self._numbering, written, numpr)
        level = lvl_el = None
        if num_id is not None and ilvl is not None and 0 <= ilvl < 9 and self._numbering.is_defined(num_id):
            level = self._numbering.level(num_id, ilvl)
            if level is not None:
                lvl_el = self._level_element(num_id, ilvl)
        lvl_ppr = parse_ppr(lvl_el.find(W_PPR), only_indents=True) if lvl_el is not None else {}

        props = self._doc_ppr
        if table_key is not None:
            props = merge(props, self._table_layer(table_key)[0])
        style_ppr = self._paragraph_style_ppr(style_id)
        if stated["kind"] == "none" and styles.numbering(style_id)[0] not in (None, "0"):
            # numId 0 takes a numbered style's paragraph out of its list, and with the list go the
            # indents the style set for it (LibreOffice's PDF of the ILPA LPA)
            style_ppr = {k: v for k, v in style_ppr.items() if k not in ("ind_left", "first")}
        props = merge(props, style_ppr)
        if lvl_ppr:
            # the level's indents override what the style inherited; indents the applied style
            # states itself win when the numbering comes from that style (as LibreOffice and Word do)
            props = merge(props, lvl_ppr)
            if stated["kind"] != "reference":
                own = styles.get(style_id)
                own_ppr = parse_ppr(own.ppr, only_indents=True) if own is not None else {}
                props = merge(props, own_ppr)
            elif (ppr is not None and ppr.find(_W + "ind") is not None
                  and styles.numbering(style_id)[0] not in (None, "0")):
                # a numbered style, a direct numPr and a direct w:ind: the sides the paragraph leaves
                # unstated come from the style chain, not the level (LibreOffice's PDF of the ILPA LPA;
                # without the direct w:ind, or under an unnumbered style as in the MSDN EULA, the level wins)
                for st in reversed(styles.chain(style_id)):
                    props = merge(props, parse_ppr(st.ppr, only_indents=True))
        props = merge(props, parse_ppr(ppr))

        mark_direct = parse_rpr(mark_rpr)
        levels = self._levels(style_id, table_key, mark_direct.get("rStyle"))
        mark_values = _resolve(levels, (mark_direct,))
        mark = self._run_format(*mark_values)
        number_format = None
        suffix = "nothing"
        if level is not None:
            lvl_rpr = parse_rpr(lvl_el.find(W_RPR)) if lvl_el is not None else {}
            number_format = self._run_format(*_resolve(levels, (mark_direct, lvl_rpr)))
            suffix = level.suffix if level.suffix in ("tab", "space", "nothing") else "tab"

        # one character of w:*Chars indents: the mark's font size plus its character spacing (on both
        # sides); fitted to the twips Word writes next to the Chars values in CJK documents
        char_unit = mark.size_pt * 20 + 2 * mark.spacing_twips

        def length(slot, unit: float) -> int:
            if slot is None:
                return 0
            kind, value = slot
            return round(value * unit / 100) if kind != "tw" else value

        return ParagraphFormat(
            style_id=style_id,
            alignment=props.get("jc", "left"),
            indent_left=length(props.get("ind_left"), char_unit),
            indent_right=length(props.get("ind_right"), char_unit),
            first_line=length(props.get("first"), char_unit),
            space_before=length(props.get("before"), LINE_UNIT_TWIPS),
            space_after=length(props.get("after"), LINE_UNIT_TWIPS),
            before_autospacing=props.get("before_auto", False),
            after_autospacing=props.get("after_auto", False),
            line=props.get("line", 240),
            line_rule=props.get("line_rule", "auto"),
            contextual_spacing=props.get("contextual", False),
            keep_next=props.get("keep_next", False),
            keep_lines=props.get("keep_lines", False),
            page_break_before=props.get("page_break_before", False),
            widow_control=props.get("widow", True),  # Word's default is on
            tabs=_tab_stops(props.get("tabs", ())),
            bidi=props.get("bidi", False),
            mark=mark,
            number_format=number_format,
            number_suffix=suffix,
            num_id=num_id if level is not None else None,
            snap_to_grid=props.get("snap_to_grid", True),
            auto_space_de=props.get("auto_space_de", True),
            auto_space_dn=props.get("auto_space_dn", True),
            shading=props.get("shd"),
            borders=tuple((side, props["bdr_" + side]) for side in BORDER_SIDES
                          if props.get("bdr_" + side, ("none",))[0] not in ("none", "nil")),
        )

    def _paragraph_style_ppr(self, style_id: str | None) -> dict:
        cached = self._style_ppr.get(style_id)
        if cached is None:
            cached = {}
            for style in reversed(self._styles.chain(style_id)):
                cached = merge(cached, parse_ppr(style.ppr))
            self._style_ppr[style_id] = cached
        return cached

    def _style_chain_rpr(self, style_id: str | None) -> dict:
        cached = self._style_rpr.get(style_id)
        if cached is None:
            cached = {}
            for style in reversed(self._styles.chain(style_id)):
                cached = merge(cached, parse_rpr(style.rpr))
            cached.pop("rStyle", None)
            self._style_rpr[style_id] = cached
        return cached

    def _level_element(self, num_id: str, ilvl: int) -> etree._Element | None:
        """The w:lvl element Numbering.level(num_id, ilvl) was read from."""
        if self._level_elements is None:
            self._level_elements = _index_levels(self.doc.optional_part_xml("numbering"))
        abstract_lvls, override_lvls = self._level_elements
        num = self._numbering.nums.get(num_id)
        if num is None:
            return None
        if ilvl in num.level_overrides:
            return override_lvls.get((num_id, ilvl))
        absn = self._numbering.abstract_for(num_id)
        return abstract_lvls.get((absn.abstract_id, ilvl)) if absn is not None else None

    # -- tables ------------------------------------------------------------------------------------

    def _table_key(self, p: etree._Element, table_style_id: str | None,
                   cell_position: tuple[int, int, int, int] | None) -> tuple | None:
        tbl = tr = tc = None
        parent = p.getparent()
        while parent is not None:
            tag = parent.tag
            if tag == T_TC:
                if tc is None:
                    tc = parent
            elif tag == T_TR:
                if tr is None:
                    tr = parent
            elif tag == T_TBL:
                tbl = parent
                break
            elif tag == T_BODY or tag == T_TXBX:
                break
            parent = parent.getparent()
        if tbl is None and table_style_id is None:
            return None
        info = None
        if tbl is not None:
            info = self._tables.get(tbl)
            if info is None:
                info = self._tables[tbl] = _TableInfo(tbl)
        style_id = table_style_id or (info.style_id if info is not None else None)
        if style_id is None or style_id not in self._style_elements:
            style_id = self._default_table_style
        if style_id is None:
            return None
        types = self._conditional_types(style_id)
        if not types:
            return (style_id, ())
        position = cell_position
        if position is None and info is not None and tr is not None and tc is not None:
            position = info.position(tr, tc)
        if position is None:
            return (style_id, ("wholeTable",) if "wholeTable" in types else ())
        look = info.look if info is not None else DEFAULT_LOOK
        row_band = (info.row_band if info is not None else None) or self._band_size(style_id, "tblStyleRowBandSize")
        col_band = (info.col_band if info is not None else None) or self._band_size(style_id, "tblStyleColBandSize")
        conds = conditions(position, look, row_band, col_band)
        return (style_id, tuple(c for c in conds if c in types))

    def _conditional_types(self, style_id: str) -> frozenset:
        types = self._table_types.get(style_id)
        if types is None:
            found = set()
            for style in self._styles.chain(style_id):
                el = self._style_elements.get(style.style_id)
                if el is not None:
                    found.update(c.get(_W + "type") for c in el.iterchildren(_W + "tblStylePr"))
            types = self._table_types[style_id] = frozenset(t for t in found if t)
        return types

    def _band_size(self, style_id: str, tag: str) -> int:
        for style in self._styles.chain(style_id):
            el = self._style_elements.get(style.style_id)
            tblpr = el.find(T_TBLPR) if el is not None else None
            if tblpr is not None:
                value = int_attr(tblpr.find(_W + tag))
                if value:
                    return value
        return 1

    def _table_layer(self, table_key: tuple) -> tuple[dict, dict]:
        """(pPr partial, rPr partial) a table style contributes for a set of conditional formats."""
        cached = self._table_layers.get(table_key)
        if cached is None:
            style_id, conds = table_key
            chain = list(reversed(self._styles.chain(style_id)))
            ppr: dict = {}
            rpr: dict = {}
            for style in chain:
                ppr = merge(ppr, parse_ppr(style.ppr))
                rpr = merge(rpr, parse_rpr(style.rpr))
            for cond in conds:
                for style in chain:
                    el = self._style_elements.get(style.style_id)
                    if el is None:
                        continue
                    for cpr in el.iterchildren(_W + "tblStylePr"):
                        if cpr.get(_W + "type") == cond:
                            ppr = merge(ppr, parse_ppr(cpr.find(W_PPR)))
                            rpr = merge(rpr, parse_rpr(cpr.find(W_RPR)))
            rpr.pop("rStyle", None)
            cached = self._table_layers[table_key] = (ppr, rpr)
        return cached

    # -- runs --------------------------------------------------------------------------------------

    def _levels(self, style_id: str | None, table_key: tuple | None, char_style: str | None) -> tuple:
        """The style levels of a run: (document defaults, table style, paragraph style chain,
        character style chain), each a partial rPr dict."""
        key = (style_id, table_key, char_style)
        levels = self._run_levels.get(key)
        if levels is None:
            table = self._table_layer(table_key)[1] if table_key is not None else {}
            char = self._style_chain_rpr(char_style) if char_style else {}
            levels = (self._doc_rpr, table, self._style_chain_rpr(style_id), char)
            self._run_levels[key] = levels
        return levels

    def _font(self, slot) -> str | None:
        if slot is None:
            return None
        if slot[0] == "font":
            return slot[1]
        return self.theme.font(slot[1]) or slot[2]

    def _run_format(self, values: dict, toggles: dict) -> RunFormat:
        complex_script = bool(values.get("rtl") or values.get("cs"))
        size = values.get("szCs" if complex_script else "sz") or DEFAULT_SIZE_HALF_POINTS
        color = values.get("color")
        if isinstance(color, tuple):
            color = self.theme.color(color[1])
        return RunFormat(
            font_family=self._font(values.get("font_ascii")) or self._font(values.get("font_hAnsi")) or DEFAULT_FONT,
            east_asian_font=self._font(values.get("font_eastAsia")),
            complex_font=self._font(values.get("font_cs")),
            size_pt=size / 2,
            bold=toggles["bCs" if complex_script else "b"],
            italic=toggles["iCs" if complex_script else "i"],
            underline=values.get("u"),
            strike=toggles["strike"],
            double_strike=toggles["dstrike"],
            color=color,
            highlight=values.get("highlight"),
            shading=values.get("shd"),
            caps=toggles["caps"],
            small_caps=toggles["smallCaps"],
            vert_align=values.get("vertAlign"),
            position_half_pts=values.get("position", 0),
            hidden=toggles["vanish"] or bool(values.get("specVanish")),  # specVanish is no toggle
            spacing_twips=values.get("spacing", 0),
            rtl=bool(values.get("rtl")),
        )


def _default_tab_stop(doc: Document) -> int:
    settings = doc.optional_part_xml("settings")
    if settings is None:
        return DEFAULT_TAB_STOP
    value = int_attr(settings.find(w("defaultTabStop")))
    return value if value and value > 0 else DEFAULT_TAB_STOP


__all__ = ["Formatter"]
