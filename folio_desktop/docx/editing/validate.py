"""The save-time structural check every applied operation passes before it is kept (spec §3.5 #11).

It checks the shapes Word refuses to open or silently repairs: content in the wrong container,
live text inside a deletion, deleted text outside one (text moved away, in w:moveFrom, may be either:
Word and LibreOffice write w:t there, we write w:delText), empty revision wrappers, cells without their
closing paragraph, rows without cells. It returns the first problem as "path: reason", or None.
"""

from __future__ import annotations

from lxml import etree

from ..package.ooxml import W_NS

_W = "{" + W_NS + "}"
T_P, T_R, T_T, T_DELTEXT, T_TBL, T_TR, T_TC = (_W + t for t in ("p", "r", "t", "delText", "tbl", "tr", "tc"))
_DELETIONS = {_W + "del", _W + "moveFrom"}  # where w:delText belongs
_STRUCK = {_W + "del"}  # where w:t does not: text moved away (w:moveFrom) is still live text to Word
_WRAPPERS = {_W + "ins", _W + "del", _W + "moveFrom", _W + "moveTo"}
_NOT_IN_RUN = {T_P, T_TBL, T_TR, T_TC, _W + "hyperlink", _W + "ins", _W + "del"}


def _path(el) -> str:
    parts = []
    while el is not None:
        tag = etree.QName(el).localname
        parent = el.getparent()
        if parent is not None:
            same = [c for c in parent if c.tag == el.tag]
            tag += f"[{same.index(el)}]" if len(same) > 1 else ""
        parts.append(tag)
        el = parent
    return "/".join(reversed(parts))


def validate_elements(elements) -> str | None:
    for root in elements:
        problem = _check(root)
        if problem:
            return problem
    return None


def _check(root) -> str | None:
    for el in root.iter(T_T, T_DELTEXT):
        above = {a.tag for a in el.iterancestors()}
        if el.tag == T_T and above & _STRUCK:
            return f"{_path(el)}: live text inside a tracked deletion"
        if el.tag == T_DELTEXT and not above & _DELETIONS:
            return f"{_path(el)}: deleted text outside a tracked deletion"
    for el in root.iter(*_WRAPPERS):
        parent = el.getparent()
        if parent is not None and parent.tag in (_W + "rPr", _W + "trPr"):
            continue
        if len(el) == 0:
            return f"{_path(el)}: empty revision"
        if el.get(_W + "id") is None or el.get(_W + "author") is None:
            return f"{_path(el)}: revision without id or author"
    for run in root.iter(T_R):
        for child in run:
            if child.tag in _NOT_IN_RUN:
                return f"{_path(child)}: not allowed inside a run"
    for p in root.iter(T_P):
        for child in p:
            if child.tag in (T_P, T_TBL, T_TR, T_TC):
                return f"{_path(child)}: not allowed inside a paragraph"
    for tc in root.iter(T_TC):
        blocks = [c for c in tc if c.tag in (T_P, T_TBL, _W + "sdt", _W + "customXml")]
        if not blocks or blocks[-1].tag == T_TBL:
            return f"{_path(tc)}: a table cell must end with a paragraph"
    for tr in root.iter(T_TR):
        if not any(c.tag in (T_TC, _W + "sdt", _W + "customXml") for c in tr):
            return f"{_path(tr)}: a table row without cells"
    for tbl in root.iter(T_TBL):
        if not any(c.tag in (T_TR, _W + "sdt", _W + "customXml") for c in tbl):
            return f"{_path(tbl)}: a table without rows"
    return None
