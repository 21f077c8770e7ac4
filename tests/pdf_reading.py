"""A small PDF reader for what QPdfWriter writes: page objects and MediaBoxes, the text drawn on each
page (through the fonts' ToUnicode maps) and the fill colours of its content. Pure Python: no pdftotext in CI."""

from __future__ import annotations

import re
import zlib

from PySide6.QtGui import QColor


class Pdf:
    def __init__(self, data: bytes):
        assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
        self.objects = {int(n): body for n, body in re.findall(rb"(\d+) 0 obj\s*(.*?)\bendobj", data, re.S)}
        order = re.search(rb"/Kids\s*\[([^\]]*)\]", data).group(1)
        self.pages = [int(n) for n in re.findall(rb"(\d+) 0 R", order)]

    def ref(self, body: bytes, key: bytes) -> int:
        return int(re.search(rb"/" + key + rb"\s+(\d+) 0 R", body).group(1))

    def stream(self, number: int) -> bytes:
        body = self.objects[number]
        head, raw = body.split(b"stream", 1)
        raw = raw[raw.index(b"\n") + 1:raw.rindex(b"endstream")]
        return zlib.decompress(raw) if b"FlateDecode" in head else raw

    def page_objects(self) -> list[bytes]:
        return [self.objects[n] for n in self.pages]

    def media_box(self, index: int) -> tuple[float, float]:
        box = re.search(rb"/MediaBox\s*\[([^\]]*)\]", self.page_objects()[index]).group(1).split()
        return float(box[2]) - float(box[0]), float(box[3]) - float(box[1])

    def content(self, index: int) -> bytes:
        return self.stream(self.ref(self.page_objects()[index], b"Contents"))

    def _fonts(self, index: int) -> dict[bytes, dict[int, str]]:
        resources = self.objects[self.ref(self.page_objects()[index], b"Resources")]
        fonts = re.search(rb"/Font\s*<<(.*?)>>", resources, re.S).group(1)
        return {name: _cmap(self.stream(self.ref(self.objects[int(obj)], b"ToUnicode")))
                for name, obj in re.findall(rb"/(\w+)\s+(\d+) 0 R", fonts)}

    def text(self, index: int) -> str:
        """The characters drawn on a page in content order (Qt draws no glyph for a space)."""
        fonts, cmap, out = self._fonts(index), {}, []
        for font, hexes in re.findall(rb"/(\w+) [\d.]+ Tf|<([0-9A-Fa-f]+)> Tj", self.content(index)):
            if font:
                cmap = fonts[font]
            else:
                out += [cmap.get(int(hexes[i:i + 4], 16), "") for i in range(0, len(hexes), 4)]
        return "".join(out)

    def fill_colours(self, index: int) -> list[tuple[float, float, float]]:
        found = re.findall(rb"([\d.]+) ([\d.]+) ([\d.]+) scn", self.content(index))
        return [tuple(float(x) for x in rgb) for rgb in found]


def _cmap(data: bytes) -> dict[int, str]:
    out: dict[int, str] = {}
    for block in re.findall(rb"beginbfrange(.*?)endbfrange", data, re.S):
        for lo, hi, target in re.findall(rb"<(\w+)>\s*<(\w+)>\s*(\[[^\]]*\]|<\w+>)", block):
            lo, hi = int(lo, 16), int(hi, 16)
            if target.startswith(b"["):
                for k, u in enumerate(re.findall(rb"<(\w+)>", target)):
                    out[lo + k] = bytes.fromhex(u.decode()).decode("utf-16-be")
            else:
                first = int(target[1:-1], 16)
                for k in range(hi - lo + 1):
                    out[lo + k] = chr(first + k)
    for block in re.findall(rb"beginbfchar(.*?)endbfchar", data, re.S):
        for code, u in re.findall(rb"<(\w+)>\s*<(\w+)>", block):
            out[int(code, 16)] = bytes.fromhex(u.decode()).decode("utf-16-be")
    return out


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def has_colour(colours, colour: QColor, tolerance: float = 0.003) -> bool:
    want = (colour.redF(), colour.greenF(), colour.blueF())
    return any(all(abs(a - b) <= tolerance for a, b in zip(rgb, want)) for rgb in colours)
