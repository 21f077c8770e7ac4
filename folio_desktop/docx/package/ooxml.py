"""Namespaces and qualified names of WordprocessingML used across the engine."""

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
W14_NS = "http://schemas.microsoft.com/office/word/2010/wordml"
W15_NS = "http://schemas.microsoft.com/office/word/2012/wordml"
MC_NS = "http://schemas.openxmlformats.org/markup-compatibility/2006"
R_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
CP_NS = "http://schemas.openxmlformats.org/package/2006/metadata/core-properties"
DC_NS = "http://purl.org/dc/elements/1.1/"
DCTERMS_NS = "http://purl.org/dc/terms/"
STRICT_W_NS = "http://purl.oclc.org/ooxml/wordprocessingml/main"


def w(tag: str) -> str:
    return f"{{{W_NS}}}{tag}"


W_VAL = w("val")
W_ID = w("id")
W14_PARA_ID = f"{{{W14_NS}}}paraId"
W14_TEXT_ID = f"{{{W14_NS}}}textId"
MC_ALTERNATE = f"{{{MC_NS}}}AlternateContent"
MC_CHOICE = f"{{{MC_NS}}}Choice"
MC_FALLBACK = f"{{{MC_NS}}}Fallback"

W_P = w("p")
W_R = w("r")
W_T = w("t")
W_PPR = w("pPr")
W_RPR = w("rPr")
W_TBL = w("tbl")
W_TR = w("tr")
W_TC = w("tc")
W_BODY = w("body")


def first_child(el, tag: str):
    """el's first child named tag (a qualified name, not a path), or None. The same as el.find(tag)
    at a fraction of the cost: lxml's find parses its path on every call, and the properties looked
    up per run and per paragraph (w:rPr, w:pPr) are the first child, where this loop stops at once."""
    for node in el:
        if node.tag == tag:
            return node
    return None


def structure_key(el) -> tuple:
    """A hashable key, equal for elements with the same descendants and attributes in the same
    order: what a cache of resolved properties (w:rPr, w:pPr) is keyed on. etree.tostring would
    serve, but it writes out every namespace declared in scope (some 35 in a recent Word file),
    which makes it eight times slower than this walk."""
    key = []
    for node in el:
        key.append(node.tag)
        key.append(tuple(node.items()))
        if len(node):
            key.append(structure_key(node))
    return tuple(key)


def on_off(el) -> bool:
    """Value of a CT_OnOff element: present and not false/0/off means on."""
    if el is None:
        return False
    val = el.get(W_VAL)
    return val is None or val.lower() not in ("0", "false", "off")


def int_attr(el, name: str = W_VAL, default: int | None = None) -> int | None:
    if el is None:
        return default
    raw = el.get(name)
    if raw is None:
        return default
    try:
        return int(float(raw))
    except ValueError:
        return default


def ancestor(el, tag: str, stop=None):
    """The nearest ancestor of el with this tag, looking no higher than stop (exclusive)."""
    anc = el.getparent()
    while anc is not None and anc is not stop:
        if anc.tag == tag:
            return anc
        anc = anc.getparent()
    return None
