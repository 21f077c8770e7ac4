"""What an insertion or a deletion without words holds, named for its row ("Inserted footnote reference",
"Deleted 2 spaces", "Inserted comment mark"), so that no row of the reviewing pane reads just
"Inserted" over nothing. No Qt here."""

from __future__ import annotations

from lxml import etree

from ...docx.package.ooxml import W_NS

_W = "{" + W_NS + "}"
# element -> what a lawyer calls it (singular, plural)
NAMES = {
    "commentReference": ("comment mark", "comment marks"),
    "footnoteReference": ("footnote reference", "footnote references"),
    "endnoteReference": ("endnote reference", "endnote references"),
    "drawing": ("picture", "pictures"), "pict": ("picture", "pictures"),
    "object": ("embedded object", "embedded objects"),
    "tab": ("tab", "tabs"), "ptab": ("tab", "tabs"),
    "br": ("line break", "line breaks"), "cr": ("line break", "line breaks"),
    "fldSimple": ("field", "fields"), "sym": ("symbol", "symbols"),
    "noBreakHyphen": ("non-breaking hyphen", "non-breaking hyphens"),
    "softHyphen": ("optional hyphen", "optional hyphens"),
}
PAGE_BREAK = ("page break", "page breaks")
TEXT = (_W + "t", _W + "delText")


def _held(elements) -> dict[tuple[str, str], int]:
    counts: dict[tuple[str, str], int] = {}
    for element in elements:
        fields = 0
        for node in element.iter():
            if not isinstance(node.tag, str):
                continue
            local = etree.QName(node).localname
            if local == "fldChar" and node.get(_W + "fldCharType") == "begin":
                fields += 1
            name = PAGE_BREAK if local == "br" and node.get(_W + "type") == "page" else NAMES.get(local)
            if name is not None and not (local == "tab" and node.getparent() is not None
                                         and etree.QName(node.getparent()).localname == "tabs"):
                counts[name] = counts.get(name, 0) + 1
        if fields:
            counts[NAMES["fldSimple"]] = counts.get(NAMES["fldSimple"], 0) + fields
    return counts


def describe_content(elements, text: str) -> str:
    """What the revision marks hold when their text is blank: "footnote reference and endnote
    reference", "2 spaces", "nothing visible"."""
    counts = _held(elements)
    if counts:
        parts = [singular if n == 1 else f"{n} {plural}" for (singular, plural), n in counts.items()]
        return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    spaces = len(text)
    if spaces:
        return "space" if spaces == 1 else f"{spaces} spaces"
    return "nothing visible (an empty revision mark)"


def titled(title: str, elements, text: str) -> str:
    """"Inserted" over blank text -> "Inserted footnote reference"; any other title as it is."""
    if title in ("Inserted", "Deleted") and not text.strip():
        return f"{title} {describe_content(elements, text)}"
    return title
