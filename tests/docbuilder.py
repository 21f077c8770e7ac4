"""Build small .docx packages in code, one feature at a time (lxml-free string templates)."""

from __future__ import annotations

import io
import zipfile

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
NSDECL = (
    f'xmlns:w="{W_NS}" '
    'xmlns:w14="http://schemas.microsoft.com/office/word/2010/wordml" '
    'xmlns:w15="http://schemas.microsoft.com/office/word/2012/wordml" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" '
    'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" '
    'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" '
    'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" '
    'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
    'xmlns:v="urn:schemas-microsoft-com:vml" mc:Ignorable="w14 w15"'
)
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PARTS = {
    "styles": ("word/styles.xml", "styles", "application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml", "styles"),
    "numbering": ("word/numbering.xml", "numbering", "application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml", "numbering"),
    "comments": ("word/comments.xml", "comments", "application/vnd.openxmlformats-officedocument.wordprocessingml.comments+xml", "comments"),
    "commentsExtended": ("word/commentsExtended.xml", "w15:commentsEx", "application/vnd.openxmlformats-officedocument.wordprocessingml.commentsExtended+xml", "http://schemas.microsoft.com/office/2011/relationships/commentsExtended"),
    "footnotes": ("word/footnotes.xml", "footnotes", "application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml", "footnotes"),
    "settings": ("word/settings.xml", "settings", "application/vnd.openxmlformats-officedocument.wordprocessingml.settings+xml", "settings"),
    "endnotes": ("word/endnotes.xml", "endnotes", "application/vnd.openxmlformats-officedocument.wordprocessingml.endnotes+xml", "endnotes"),
    "fontTable": ("word/fontTable.xml", "fonts", "application/vnd.openxmlformats-officedocument.wordprocessingml.fontTable+xml", "fontTable"),
}


def p(text: str = "", para_id: str | None = None, ppr: str = "", rpr: str = "") -> str:
    pid = f' w14:paraId="{para_id}" w14:textId="{para_id}"' if para_id else ""
    pp = f"<w:pPr>{ppr}</w:pPr>" if ppr else ""
    run = f'<w:r>{f"<w:rPr>{rpr}</w:rPr>" if rpr else ""}<w:t xml:space="preserve">{text}</w:t></w:r>' if text else ""
    return f"<w:p{pid}>{pp}{run}</w:p>"


def build_docx(body: str, media: dict[str, tuple[str, bytes]] | None = None, **parts: str) -> bytes:
    """A package with document.xml holding `body` and any of styles/numbering/comments/... given as
    inner XML of their root element. media: relationship id -> (name under word/media/, bytes), for
    pictures whose a:blip r:embed names that id."""
    out = io.BytesIO()
    overrides = ['<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>']
    rels = []
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("_rels/.rels", f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="{REL}/officeDocument" Target="word/document.xml"/></Relationships>')
        z.writestr("word/document.xml", f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document {NSDECL}><w:body>{body}<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr></w:body></w:document>')
        for i, (key, inner) in enumerate(parts.items(), start=2):
            name, root, ctype, rtype = PARTS[key]
            tag = root if ":" in root else f"w:{root}"
            z.writestr(name, f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><{tag} {NSDECL}>{inner}</{tag}>')
            overrides.append(f'<Override PartName="/{name}" ContentType="{ctype}"/>')
            full_type = rtype if rtype.startswith("http") else f"{REL}/{rtype}"
            rels.append(f'<Relationship Id="rId{i}" Type="{full_type}" Target="{name.split("/", 1)[1]}"/>')
        defaults = {}
        for rid, (name, data) in (media or {}).items():
            z.writestr(f"word/media/{name}", data)
            ext = name.rsplit(".", 1)[-1].lower()
            defaults[ext] = {"png": "image/png", "jpeg": "image/jpeg", "jpg": "image/jpeg", "gif": "image/gif",
                             "bmp": "image/bmp", "emf": "image/x-emf", "wmf": "image/x-wmf"}.get(ext, "image/" + ext)
            rels.append(f'<Relationship Id="{rid}" Type="{REL}/image" Target="media/{name}"/>')
        z.writestr("word/_rels/document.xml.rels", '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' + "".join(rels) + "</Relationships>")
        z.writestr("[Content_Types].xml", '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' + "".join(f'<Default Extension="{e}" ContentType="{t}"/>' for e, t in defaults.items()) + "".join(overrides) + "</Types>")
    return out.getvalue()


# -- tables --------------------------------------------------------------------------------------------

GRID2 = '<w:tblPr/><w:tblGrid><w:gridCol w:w="2000"/><w:gridCol w:w="2000"/></w:tblGrid>'


def cell(*paragraphs: str) -> str:
    return '<w:tc><w:tcPr><w:tcW w:w="2000" w:type="dxa"/></w:tcPr>' + "".join(paragraphs) + "</w:tc>"


def row(*cells: str, in_control: bool = False) -> str:
    xml = "<w:tr>" + "".join(cells) + "</w:tr>"
    return f"<w:sdt><w:sdtPr/><w:sdtContent>{xml}</w:sdtContent></w:sdt>" if in_control else xml


def table(*rows: str) -> str:
    return f"<w:tbl>{GRID2}{''.join(rows)}</w:tbl>"


def long_table(edited: int | None = None, dropped: int | None = None, rows: int = 60) -> str:
    """A table of `rows` rows (a few pages), every fifth row in a repeating-section content control."""
    out = []
    for n in range(rows):
        if n == dropped:
            continue
        b = f"Amount {n}" + (" (revised)" if n == edited else "")
        out.append(row(cell(p(f"Item {n}")), cell(p(b)), in_control=n % 5 == 4))
    return table(*out)


# -- headers and footers -----------------------------------------------------------------------------------

STORY_TYPES = {"header": ("hdr", "application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml"),
               "footer": ("ftr", "application/vnd.openxmlformats-officedocument.wordprocessingml.footer+xml")}


def with_stories(data: bytes, *stories: tuple) -> bytes:
    """`data` (a build_docx package) with header and footer parts: each story is (kind, relationship id,
    inner XML, [(section index, type)...]): the part, its relationship, and a reference from the n-th
    w:sectPr of document.xml (section breaks in the body first, the body's own last) per place."""
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        files = {n: z.read(n) for n in z.namelist()}
    document = files["word/document.xml"].decode()
    rels = files["word/_rels/document.xml.rels"].decode()
    types = files["[Content_Types].xml"].decode()
    for n, (kind, rid, inner, places) in enumerate(stories, start=1):
        tag, ctype = STORY_TYPES[kind]
        name = f"{kind}{n}.xml"
        files[f"word/{name}"] = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
                                 f'<w:{tag} {NSDECL}>{inner}</w:{tag}>').encode()
        rels = rels.replace("</Relationships>",
                            f'<Relationship Id="{rid}" Type="{REL}/{kind}" Target="{name}"/></Relationships>')
        types = types.replace("</Types>", f'<Override PartName="/word/{name}" ContentType="{ctype}"/></Types>')
        for section, kind_type in places:
            pieces = document.split("<w:sectPr>")  # section n's properties open pieces[n + 1]
            pieces[section + 1] = f'<w:{kind}Reference w:type="{kind_type}" r:id="{rid}"/>' + pieces[section + 1]
            document = "<w:sectPr>".join(pieces)
    files["word/document.xml"] = document.encode()
    files["word/_rels/document.xml.rels"] = rels.encode()
    files["[Content_Types].xml"] = types.encode()
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, body in files.items():
            z.writestr(name, body)
    return out.getvalue()
