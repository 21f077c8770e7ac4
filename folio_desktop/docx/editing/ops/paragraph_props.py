"""Writing paragraph properties in schema order: style, alignment, spacing, indentation, numbering
and outline level (spec §3.3 field rules, §5.7 numbering requests)."""

from __future__ import annotations

from lxml import etree

from ...package.ooxml import W_NS, W_PPR, W_VAL
from ..paragraph_edit import EditError

_W = "{" + W_NS + "}"

# CT_PPr child order (ISO 29500 §17.3.1.26)
PPR_ORDER = [
    "pStyle", "keepNext", "keepLines", "pageBreakBefore", "framePr", "widowControl", "numPr", "suppressLineNumbers",
    "pBdr", "shd", "tabs", "suppressAutoHyphens", "kinsoku", "wordWrap", "overflowPunct", "topLinePunct",
    "autoSpaceDE", "autoSpaceDN", "bidi", "adjustRightInd", "snapToGrid", "spacing", "ind", "contextualSpacing",
    "mirrorIndents", "suppressOverlap", "jc", "textDirection", "textAlignment", "textboxTightWrap", "outlineLvl",
    "divId", "cnfStyle", "rPr", "sectPr", "pPrChange",
]


def ensure_ppr(p: etree._Element) -> etree._Element:
    ppr = p.find(W_PPR)
    if ppr is None:
        ppr = etree.Element(W_PPR)
        p.insert(0, ppr)
    return ppr


def set_child(ppr: etree._Element, name: str) -> etree._Element:
    """Replace (or create) the pPr child `name` at its schema position; return the fresh element."""
    old = ppr.find(_W + name)
    el = etree.Element(_W + name)
    if old is not None:
        old.addprevious(el)
        ppr.remove(old)
        return el
    rank = PPR_ORDER.index(name)
    for i, child in enumerate(ppr):
        local = child.tag[len(_W):] if isinstance(child.tag, str) and child.tag.startswith(_W) else ""
        if local in PPR_ORDER and PPR_ORDER.index(local) > rank:
            ppr.insert(i, el)
            return el
    ppr.append(el)
    return el


def remove_child(ppr: etree._Element, name: str) -> None:
    old = ppr.find(_W + name)
    if old is not None:
        ppr.remove(old)


def property_elements(ppr: etree._Element | None) -> list[etree._Element]:
    """The paragraph's own properties (what a w:pPrChange records): all but rPr, sectPr, pPrChange."""
    if ppr is None:
        return []
    skip = {_W + "rPr", _W + "sectPr", _W + "pPrChange"}
    return [c for c in ppr if c.tag not in skip]


def apply_properties(doc, p: etree._Element, props: dict, numbering_cache: dict | None = None) -> None:
    """Set the given paragraph properties directly (callers record a w:pPrChange first when tracked)."""
    ppr = ensure_ppr(p)
    if "styleId" in props:
        if props["styleId"] is None:
            remove_child(ppr, "pStyle")
        else:
            set_child(ppr, "pStyle").set(W_VAL, props["styleId"])
    if "alignment" in props:
        if props["alignment"] is None:
            remove_child(ppr, "jc")
        else:
            value = "both" if props["alignment"] == "justify" else props["alignment"]
            set_child(ppr, "jc").set(W_VAL, value)
    if "spacing" in props:
        sp = props["spacing"]
        if sp is None:
            remove_child(ppr, "spacing")
        else:
            el = ppr.find(_W + "spacing")
            if el is None:
                el = set_child(ppr, "spacing")
            for key, attr in (("spaceBefore", "before"), ("spaceAfter", "after"), ("lineSpacing", "line")):
                if key in sp:
                    el.set(_W + attr, str(sp[key]))
            if "lineSpacingRule" in sp:
                el.set(_W + "lineRule", sp["lineSpacingRule"])
            for key in ("beforeAutospacing", "afterAutospacing"):
                if key in sp:
                    el.set(_W + key, "1" if sp[key] else "0")
    if "indentation" in props:
        ind = props["indentation"]
        if ind is None:
            remove_child(ppr, "ind")
        else:
            el = set_child(ppr, "ind")
            for key in ("left", "right", "firstLine", "hanging"):
                if key in ind:
                    el.set(_W + key, str(ind[key]))
    if "outlineLevel" in props:
        if props["outlineLevel"] is None:
            remove_child(ppr, "outlineLvl")
        else:
            set_child(ppr, "outlineLvl").set(W_VAL, str(props["outlineLevel"]))
    if "numbering" in props:
        apply_numbering(doc, ppr, props["numbering"], numbering_cache)
    if "listLevel" in props:
        level = props["listLevel"]
        numpr = ppr.find(_W + "numPr")
        if level is None:
            if numpr is not None:
                ppr.remove(numpr)
        else:
            if numpr is None:
                numpr = set_child(ppr, "numPr")
            ilvl = numpr.find(_W + "ilvl")
            if ilvl is None:
                ilvl = etree.Element(_W + "ilvl")
                numpr.insert(0, ilvl)
            ilvl.set(W_VAL, str(level))
    if len(ppr) == 0:
        p.remove(ppr)


def apply_numbering(doc, ppr: etree._Element, request: dict, cache: dict | None) -> None:
    kind = request["kind"]
    if kind == "inherit":
        remove_child(ppr, "numPr")
        return
    numpr = set_child(ppr, "numPr")
    if kind == "none":
        etree.SubElement(numpr, _W + "numId").set(W_VAL, "0")
        return
    if kind == "levelOnly":
        etree.SubElement(numpr, _W + "ilvl").set(W_VAL, str(request["ilvl"]))
        return
    if kind == "reference":
        if "ilvl" in request:
            etree.SubElement(numpr, _W + "ilvl").set(W_VAL, str(request["ilvl"]))
        etree.SubElement(numpr, _W + "numId").set(W_VAL, str(request["numId"]))
        return
    # newList: one fresh instance per operation (cache keyed by the operation)
    num_id = cache.get("numId") if cache is not None else None
    if num_id is None:
        num_id = new_list(doc, request["format"])
        if cache is not None:
            cache["numId"] = num_id
    etree.SubElement(numpr, _W + "ilvl").set(W_VAL, str(request.get("ilvl", 0)))
    etree.SubElement(numpr, _W + "numId").set(W_VAL, str(num_id))


def check_references(doc, props: dict) -> None:
    """missingStyle / missingNumbering before anything is written (spec §3.5 #9)."""
    style_id = props.get("styleId")
    if style_id is not None:
        style = doc.styles.get(style_id)
        if style is None or style.type != "paragraph":
            defined = ", ".join(f'"{s}"' for s in doc.styles.paragraph_style_ids()) or "none"
            raise EditError("missingStyle",
                            f'styleId "{style_id}" names no paragraph style this document defines; '
                            f"defined paragraph styles: {defined}")
    numbering = props.get("numbering")
    if numbering and numbering.get("kind") == "reference":
        num_id = str(numbering["numId"])
        if not doc.numbering.is_defined(num_id):
            defined = ", ".join(sorted(doc.numbering.nums, key=lambda n: int(n) if n.isdigit() else 0)) or "none"
            raise EditError("missingNumbering",
                            f"numbering refers to numId {num_id}, a numbering instance this document does not "
                            f"define; defined numIds: {defined}")


NUMBERING_CT = "application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml"
NUMBERING_RT = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/numbering"


def new_list(doc, fmt: str) -> int:
    """Mint a fresh abstract definition and instance (creating numbering.xml when absent)."""
    part = doc.related_part("numbering")
    package = doc.package
    if part is None:
        part = "word/numbering.xml" if not package.has_part("word/numbering.xml") else "word/numbering-folio.xml"
        root = etree.Element(_W + "numbering", nsmap={"w": W_NS})
        package.add_part(part, root, NUMBERING_CT)
        package.add_relationship(doc.main_part, NUMBERING_RT, part)
    root = package.xml(part)
    abstract_ids = [int(el.get(_W + "abstractNumId")) for el in root.iterchildren(_W + "abstractNum")
                    if (el.get(_W + "abstractNumId") or "").isdigit()]
    num_ids = [int(el.get(_W + "numId")) for el in root.iterchildren(_W + "num") if (el.get(_W + "numId") or "").isdigit()]
    abstract_id = max(abstract_ids, default=-1) + 1
    num_id = max(num_ids, default=0) + 1
    absn = etree.Element(_W + "abstractNum")
    absn.set(_W + "abstractNumId", str(abstract_id))
    etree.SubElement(absn, _W + "multiLevelType").set(W_VAL, "hybridMultilevel")
    bullets = ["\u2022", "o", "\u25aa"]
    formats = ["decimal", "lowerLetter", "lowerRoman"]
    for ilvl in range(9):
        lvl = etree.SubElement(absn, _W + "lvl")
        lvl.set(_W + "ilvl", str(ilvl))
        etree.SubElement(lvl, _W + "start").set(W_VAL, "1")
        if fmt == "bullet":
            etree.SubElement(lvl, _W + "numFmt").set(W_VAL, "bullet")
            etree.SubElement(lvl, _W + "lvlText").set(W_VAL, bullets[ilvl % 3])
        else:
            etree.SubElement(lvl, _W + "numFmt").set(W_VAL, formats[ilvl % 3])
            etree.SubElement(lvl, _W + "lvlText").set(W_VAL, f"%{ilvl + 1}.")
        etree.SubElement(lvl, _W + "lvlJc").set(W_VAL, "left")
        ppr = etree.SubElement(lvl, _W + "pPr")
        ind = etree.SubElement(ppr, _W + "ind")
        ind.set(_W + "left", str(720 * (ilvl + 1)))
        ind.set(_W + "hanging", "360")
    # abstractNum elements must precede every w:num (CT_Numbering order)
    first_num = root.find(_W + "num")
    if first_num is not None:
        first_num.addprevious(absn)
    else:
        root.append(absn)
    num = etree.Element(_W + "num")
    num.set(_W + "numId", str(num_id))
    etree.SubElement(num, _W + "abstractNumId").set(W_VAL, str(abstract_id))
    cleanup = root.find(_W + "numIdMacAtCleanup")
    if cleanup is not None:
        cleanup.addprevious(num)
    else:
        root.append(num)
    package.mark_dirty(part)
    doc.reload_numbering()
    return num_id
