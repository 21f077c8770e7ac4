"""Write folio_desktop/layout/word_widths.py: the advance widths of the fonts Word used in the PDFs
it made of ../shared/corpus/word-pdf/, for the fonts we lay out with a stand-in that is not metric
compatible (Cambria in Caladea, Aptos in Liberation Sans).

Each PDF's simple TrueType fonts carry /FirstChar and /Widths (per 1000 em, WinAnsi codes); the
union over the PDFs, per font, is what Word set those characters with.

    python benchmarks/word_widths.py
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORD_PDF = ROOT.parent / "shared" / "corpus" / "word-pdf"
OUT = ROOT / "folio_desktop" / "layout" / "word_widths.py"
FONTS = {"Cambria": ("cambria", False, False), "Cambria-Bold": ("cambria", True, False),
         "Cambria-Italic": ("cambria", False, True), "Cambria-BoldItalic": ("cambria", True, True),
         "Aptos": ("aptos", False, False), "Aptos-Bold": ("aptos", True, False),
         "Aptos-Italic": ("aptos", False, True), "Aptos-BoldItalic": ("aptos", True, True)}
_FONT = re.compile(rb"/BaseFont\s*/[A-Z]{6}\+([\w-]+)\s*/Encoding\s*/WinAnsiEncoding.*?/FirstChar\s+(\d+)"
                   rb".*?/Widths\s+(\d+)\s+0\s+R", re.S)
# WinAnsi codes 128-159 that are not Latin-1
_WINANSI = {0x80: 0x20AC, 0x82: 0x201A, 0x83: 0x0192, 0x84: 0x201E, 0x85: 0x2026, 0x86: 0x2020, 0x87: 0x2021,
            0x88: 0x02C6, 0x89: 0x2030, 0x8A: 0x0160, 0x8B: 0x2039, 0x8C: 0x0152, 0x8E: 0x017D, 0x91: 0x2018,
            0x92: 0x2019, 0x93: 0x201C, 0x94: 0x201D, 0x95: 0x2022, 0x96: 0x2013, 0x97: 0x2014, 0x98: 0x02DC,
            0x99: 0x2122, 0x9A: 0x0161, 0x9B: 0x203A, 0x9C: 0x0153, 0x9E: 0x017E, 0x9F: 0x0178}


def widths_of(pdf: Path) -> dict[str, dict[int, int]]:
    data = pdf.read_bytes()
    objects = {int(n): body for n, body in re.findall(rb"(\d+) 0 obj(.*?)endobj", data, re.S)}
    found: dict[str, dict[int, int]] = {}
    for body in objects.values():
        match = _FONT.search(body)
        if not match or match.group(1).decode() not in FONTS:
            continue
        array = objects.get(int(match.group(3)), b"")
        if b"[" not in array:
            continue
        values = [int(v) for v in re.findall(rb"\d+", array.split(b"[", 1)[1].split(b"]", 1)[0])]
        first = int(match.group(2))
        table = found.setdefault(match.group(1).decode(), {})
        for i, width in enumerate(values):
            code = first + i
            if width and code >= 32:
                table[_WINANSI.get(code, code)] = width
    return found


def main() -> int:
    merged: dict[tuple, dict[int, int]] = {}
    for pdf in sorted(WORD_PDF.glob("*.pdf")):
        for name, table in widths_of(pdf).items():
            merged.setdefault(FONTS[name], {}).update(table)
    lines = ['"""Advance widths (per 1000 em) Word set these fonts with, read from the PDFs Word made of the',
             "word-pdf/ corpus by benchmarks/word_widths.py (generated: do not edit). Keys: (font, bold, italic).",
             '"""', "", "WIDTHS = {"]
    for key in sorted(merged):
        table = merged[key]
        body = ", ".join(f"{code}: {table[code]}" for code in sorted(table))
        lines.append(f"    {key!r}: {{{body}}},")
    lines.append("}")
    text = "\n".join(lines) + "\n"
    # keep lines within the project's 120 columns
    wrapped = []
    for line in text.splitlines():
        while len(line) > 118:
            cut = line.rfind(", ", 0, 116) + 1
            wrapped.append(line[:cut])
            line = "        " + line[cut:].lstrip()
        wrapped.append(line)
    OUT.write_text("\n".join(wrapped) + "\n")
    for key in sorted(merged):
        print(key, len(merged[key]), "characters")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
