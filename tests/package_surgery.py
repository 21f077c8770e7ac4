"""Editing a .docx package as bytes, for tests of damaged and altered files: read an entry, cut parts
short, replace the core properties, and check a theme came through sound."""

import io
import zipfile

from lxml import etree

THEME, SETTINGS = "word/theme/theme1.xml", "word/settings.xml"
A_THEME = "{http://schemas.openxmlformats.org/drawingml/2006/main}theme"
CORE = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" '
        'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">{}</cp:coreProperties>')


def with_core(data: bytes, inner: str, name: str = "docProps/core.xml") -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            zout.writestr(info, zin.read(info))
        zout.writestr(name, CORE.format(inner))
    return out.getvalue()


def entry(data: bytes, name: str) -> bytes:
    return zipfile.ZipFile(io.BytesIO(data)).read(name)


def cut_short(data: bytes, *names: str) -> bytes:
    """The package with each named XML part cut off half-way (no longer well-formed), CRCs right."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            body = zin.read(info)
            zout.writestr(info, body[:len(body) // 2] if info.filename in names else body)
    return out.getvalue()


def assert_sound_theme(data: bytes) -> None:
    root = etree.fromstring(entry(data, THEME))
    assert root.tag == A_THEME and root.find(f"{A_THEME[:-5]}themeElements") is not None
