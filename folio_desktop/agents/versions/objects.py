"""What a paragraph shows besides its text: the pictures in it, each named by a digest of its image
bytes and its size on the page, its equations and its fields' codes. A block's text reads a picture as nothing, so
without this a picture replaced by another (or resized) compares as unchanged and the redline's check
cannot see it either; an equation's text reads like plain text, so an equation written out as plain
words would pass the check; a field's code (PAGE, REF Clause3) is no text at all.

The key is independent of the package: relationship ids and part names differ between the base, the
revised document and the redline (which copies a revised picture in under a fresh name), the image
bytes and the extent do not."""

from __future__ import annotations

import hashlib

from lxml import etree

A_BLIP = "{http://schemas.openxmlformats.org/drawingml/2006/main}blip"
V_IMAGEDATA = "{urn:schemas-microsoft-com:vml}imagedata"
WP_NS = "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"
WP_EXTENT = f"{{{WP_NS}}}extent"
WP_HOLDERS = (f"{{{WP_NS}}}inline", f"{{{WP_NS}}}anchor")
R_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_REFS = (f"{{{R_NS}}}embed", f"{{{R_NS}}}link", f"{{{R_NS}}}id")
M_OMATH = "{http://schemas.openxmlformats.org/officeDocument/2006/math}oMath"
W_INSTR = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}instrText"
W_FLD_SIMPLE = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}fldSimple"
W_FLD_CODE = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}instr"
# a drawn shape (a freeform, a text box's frame) has no image, but its holder's extent is its size
_SHOWN = (A_BLIP, V_IMAGEDATA, M_OMATH, W_INSTR, W_FLD_SIMPLE, *WP_HOLDERS)


class ObjectKeys:
    """Picture keys of one document's paragraphs; digests are kept per part, so a picture shown many
    times is read once."""

    def __init__(self, doc):
        self.doc = doc
        self._digests: dict[tuple[str, str], str] = {}

    def key(self, part: str, element: etree._Element | None) -> str:
        """'' for a paragraph without pictures or equations, else one token per picture (and one per
        equation: its text reads like plain text; and one per field code) in document order."""
        if element is None:
            return ""
        tokens = []
        code: list[str] = []  # a field's code may be split over several runs
        for ref in element.iter(*_SHOWN):
            if ref.tag == W_INSTR:
                code.append(ref.text or "")
                continue
            if code:
                tokens.append("field:" + " ".join("".join(code).split()))
                code = []
            if ref.tag == W_FLD_SIMPLE:  # a simple field keeps its code in an attribute
                tokens.append("field:" + " ".join((ref.get(W_FLD_CODE) or "").split()))
                continue
            if ref.tag == M_OMATH:
                tokens.append("equation")
                continue
            if ref.tag in WP_HOLDERS:
                extent = ref.find(WP_EXTENT)
                if extent is not None:
                    tokens.append(f"{extent.get('cx', '')}x{extent.get('cy', '')}")
                continue
            for attr in _REFS:
                rid = ref.get(attr)
                if rid:
                    tokens.append(self._digest(part, rid))
            if ref.tag == V_IMAGEDATA:  # a VML picture's size is in its shape's style
                shape = ref.getparent()
                tokens.append((shape.get("style") or "") if shape is not None else "")
        if code:
            tokens.append("field:" + " ".join("".join(code).split()))
        return " ".join(tokens)

    def _digest(self, part: str, rid: str) -> str:
        found = self._digests.get((part, rid))
        if found is None:
            package = self.doc.package
            rel = next((r for r in package.rels(part) if r.id == rid), None)
            if rel is None:
                found = "missing"
            elif rel.external:
                found = "link:" + rel.target
            else:
                try:
                    found = hashlib.sha1(package.read(rel.target)).hexdigest()[:16]
                except KeyError:
                    found = "missing"  # a dangling target: its name differs between packages
            self._digests[(part, rid)] = found
        return found


def changed_objects(keys: tuple, base_story, base_block, rev_story, rev_block) -> str:
    """'' when two paragraphs of equal text show the same pictures, equations and fields, else what
    differs in plain words ("picture", "equation", "field")."""
    if not (has_objects(base_block.element) or has_objects(rev_block.element)):
        return ""
    old = keys[0].key(base_story.part, base_block.element).split(" ")
    new = keys[1].key(rev_story.part, rev_block.element).split(" ")
    if old == new:
        return ""
    odd = set(old) ^ set(new) or set(old) | set(new)
    kinds = ["field" if t.startswith("field:") else "equation" if t == "equation" else "picture" for t in odd if t]
    return next((k for k in ("picture", "equation", "field") if k in kinds), "picture")


def has_objects(element: etree._Element | None) -> bool:
    """Whether the paragraph shows a picture, a drawn shape, an equation or a field code."""
    return element is not None and next(element.iter(*_SHOWN), None) is not None


def has_math(element: etree._Element | None) -> bool:
    """Whether the paragraph holds an equation, which the word-level editor cannot write."""
    return element is not None and next(element.iter(M_OMATH), None) is not None


__all__ = ["ObjectKeys", "changed_objects", "has_math", "has_objects"]
