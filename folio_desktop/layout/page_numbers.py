"""Printed page numbers: section restarts and formats (w:pgNumType), and the PAGE, NUMPAGES and
SECTIONPAGES fields of headers and footers with their format switches (ECMA-376 §17.6.12,
§17.16.4.3, §17.16.5.43). No Qt: the paginator asks for strings, the measurer lays them out.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from lxml import etree

from ..docx.model.numbering import format_number as list_number
from ..docx.package.ooxml import W_NS

_W = "{" + W_NS + "}"
PAGE_FIELDS = ("PAGE", "NUMPAGES", "SECTIONPAGES")

def format_number(n: int, fmt: str | None) -> str:
    """n in a w:pgNumType w:fmt value (ST_NumberFormat), as a list number would show it, with the
    page-only "- n -". Formats that cannot show n (roman or letters of zero or less) fall back to
    decimal, as Word does."""
    fmt = fmt or "decimal"
    if n <= 0 and fmt not in ("decimal", "decimalZero", "numberInDash"):
        return str(n)
    if fmt == "numberInDash":
        return f"- {n} -"
    return list_number(n, "hex" if fmt == "hexadecimal" else fmt)


# general format switches (\* name) that pick a number format; the case of roman and alphabetic
# picks lower or upper case (\* roman: "iv", \* ROMAN: "IV")
_SWITCH_FORMATS = {"arabic": "decimal", "arabicdash": "numberInDash", "ordinal": "ordinal",
                   "cardtext": "cardinalText", "ordtext": "ordinalText", "hex": "hex"}


def switch_format(instruction: str) -> str | None:
    """The number format a field instruction's \\* switch asks for (None: no such switch)."""
    words = instruction.replace('"', " ").split()
    fmt = None
    for i, word in enumerate(words[:-1]):
        if word != "\\*":
            continue
        name = words[i + 1]
        low = name.lower()
        if low in ("roman", "alphabetic"):
            upper = name[0].isupper()
            fmt = ("upper" if upper else "lower") + ("Roman" if low == "roman" else "Letter")
        elif low in _SWITCH_FORMATS:
            fmt = _SWITCH_FORMATS[low]
    return fmt


@dataclass(frozen=True)
class PageNumbers:
    """What the page fields of one page print from: its number in its section's numbering, the
    section's format, and the page counts of the section and of the document."""

    value: int
    fmt: str | None
    section_pages: int
    total_pages: int

    def field_result(self, instruction: str) -> str | None:
        """The text a field shows on this page, or None for a field that is not a page field."""
        words = instruction.split()
        name = words[0].upper() if words else ""
        if name not in PAGE_FIELDS:
            return None
        # only PAGE takes the section's page number format; the counts are decimal (Word)
        number, fmt = {"PAGE": (self.value, self.fmt), "NUMPAGES": (self.total_pages, None),
                       "SECTIONPAGES": (self.section_pages, None)}[name]
        return format_number(number, switch_format(instruction) or fmt)


def has_page_field(p: etree._Element) -> bool:
    if p.find(f".//{_W}fldSimple") is not None:
        return True
    text = "".join(t.text or "" for t in p.iter(_W + "instrText"))
    return any(f in text.upper() for f in PAGE_FIELDS)


def with_page_fields(p: etree._Element, numbers: PageNumbers) -> tuple[etree._Element, tuple[str, ...]]:
    """A copy of a header/footer paragraph whose page fields show this page's results, and those
    results (equal results give an equal paragraph, so its measurement can be shared). A paragraph
    without page fields comes back as itself with no results."""
    if not has_page_field(p):
        return p, ()
    out = copy.deepcopy(p)
    return out, _page_fields(out, numbers, show=True)


def page_field_results(p: etree._Element, numbers: PageNumbers) -> tuple[str, ...]:
    """What with_page_fields(p, numbers) would show, without copying the paragraph: what a
    measurement made for another page can be looked up by."""
    return _page_fields(p, numbers, show=False) if has_page_field(p) else ()


def _page_fields(p: etree._Element, numbers: PageNumbers, show: bool) -> tuple[str, ...]:
    """The results of p's page fields on this page, in order; with show, written into p."""
    results: list[str] = []
    for fld in p.iter(_W + "fldSimple"):
        value = numbers.field_result(fld.get(_W + "instr") or "")
        if value is None:
            continue
        results.append(value)
        if not show:
            continue
        texts = list(fld.iter(_W + "t"))
        if texts:
            texts[0].text = value
            for t in texts[1:]:
                t.text = ""
        else:
            run = etree.SubElement(fld, _W + "r")
            etree.SubElement(run, _W + "t").text = value
    # complex fields: begin, instruction runs, separate, result runs, end (nesting kept on a stack,
    # so a PAGE inside an IF or a DOCPROPERTY beside it do not confuse the result runs)
    stack: list[dict] = []
    for el in list(p.iter(_W + "fldChar", _W + "instrText", _W + "t")):
        if el.tag == _W + "fldChar":
            kind = el.get(_W + "fldCharType")
            if kind == "begin":
                stack.append({"instr": "", "result": False, "value": None, "done": False, "run": el.getparent()})
            elif kind == "separate" and stack:
                field = stack[-1]
                field["result"] = True
                field["value"] = numbers.field_result(field["instr"])
            elif kind == "end" and stack:
                field = stack.pop()
                if not field["result"]:
                    field["value"] = numbers.field_result(field["instr"])
                if field["value"] is not None:
                    results.append(field["value"])
                    if show and not field["done"]:  # no result run: show the value before the end mark
                        _insert_result(el.getparent(), field["value"])
        elif el.tag == _W + "instrText" and stack and not stack[-1]["result"]:
            stack[-1]["instr"] += el.text or ""
        elif el.tag == _W + "t" and stack and stack[-1]["result"] and stack[-1]["value"] is not None:
            field = stack[-1]
            if show:
                el.text = "" if field["done"] else field["value"]  # the first result run carries the number
            field["done"] = True
    return tuple(results)


def _insert_result(end_run: etree._Element | None, value: str) -> None:
    if end_run is None or end_run.tag != _W + "r" or end_run.getparent() is None:
        return
    run = etree.Element(_W + "r")
    rpr = end_run.find(_W + "rPr")
    if rpr is not None:
        run.append(copy.deepcopy(rpr))
    etree.SubElement(run, _W + "t").text = value
    end_run.addprevious(run)


def number_pages(page, previous, sections) -> None:
    """Give a page its number in its section's numbering (page.number_value): a section's first
    page starts at its w:pgNumType w:start, any other page follows the one before (a blank parity
    page too: Word counts it)."""
    section = sections[page.section] if 0 <= page.section < len(sections) else None
    first_of_section = previous is None or previous.section != page.section
    start = section.page_number_start if section is not None else None
    if first_of_section and start is not None:
        page.number_value = start
    else:
        page.number_value = (previous.number_value + 1) if previous is not None else 1


def section_counts(pages) -> dict[int, int]:
    counts: dict[int, int] = {}
    for page in pages:
        counts[page.section] = counts.get(page.section, 0) + 1
    return counts


__all__ = ["PAGE_FIELDS", "PageNumbers", "format_number", "has_page_field", "number_pages", "page_field_results",
           "section_counts", "switch_format", "with_page_fields"]
