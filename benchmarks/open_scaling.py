"""Open scaling benchmark: DocxReviewer.open + snapshot() over 10k..80k paragraphs (issue 15, point 4).

Run from the project root::

    python benchmarks/open_scaling.py [--runs 3] [--sizes 10000,20000,40000,80000] [--huge-mb 50]

Inputs are built in code (``build_contract``): numbered clauses (Heading 1/2 numbered through their
styles, "(a)" items with direct w:numPr), body paragraphs of 3-5 runs with rsids, proofing marks and
bookmarks, a tracked insertion and deletion every 25 paragraphs, a comment range every 60, a
footnote every 80 and a small table every 400. ``build_long_paragraph`` builds one paragraph of
``--huge-mb`` MB of text split into runs of ~100 characters.

Each measurement runs in a fresh process (this script with ``--child``) that imports its reader
first (not timed) and prints wall and processor seconds for open + read:

* ours: ``DocxReviewer.open(path)`` then ``snapshot()`` (open already reads the body; snapshot is
  the cached result) and every block's text hash (computed lazily, so forced here)
* python-docx: ``docx.Document(path)`` then every body paragraph's ``.text`` (reference only)

The table prints the median of ``--runs`` runs, each size's ratio to the smallest, and the
acceptance check: 80k/10k within 12x (8x is linear). A document past the documented content limits
(``folio_desktop/docx/package/limits.py``) is timed too: it must be refused, quickly.
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_SCALING = 12.0  # 80k paragraphs within 12x the time of 10k

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_NSDECL = (
    f'xmlns:w="{W_NS}" xmlns:w14="http://schemas.microsoft.com/office/word/2010/wordml" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" '
    'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" mc:Ignorable="w14"'
)
_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
_SECT = ('<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" '
         'w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>')
_WORDS = ("the Company shall indemnify and hold harmless each Purchaser against any and all losses "
          "claims damages liabilities and expenses arising out of or based upon any breach of the "
          "representations warranties covenants or agreements made by the Company in this Agreement "
          "provided that such obligation shall not apply to amounts paid in settlement of any claim").split()

_STYLES = f"""{_HEAD}<w:styles {_NSDECL}>
<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri"/><w:sz w:val="22"/></w:rPr>
</w:rPrDefault><w:pPrDefault><w:pPr><w:spacing w:after="160" w:line="259" w:lineRule="auto"/></w:pPr>
</w:pPrDefault></w:docDefaults>
<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>
<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/>
<w:pPr><w:keepNext/><w:numPr><w:numId w:val="1"/></w:numPr><w:outlineLvl w:val="0"/></w:pPr>
<w:rPr><w:b/><w:caps/></w:rPr></w:style>
<w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/><w:basedOn w:val="Normal"/>
<w:pPr><w:numPr><w:ilvl w:val="1"/><w:numId w:val="1"/></w:numPr><w:outlineLvl w:val="1"/></w:pPr>
</w:style>
<w:style w:type="paragraph" w:styleId="BodyText"><w:name w:val="Body Text"/><w:basedOn w:val="Normal"/>
<w:pPr><w:jc w:val="both"/></w:pPr></w:style>
<w:style w:type="paragraph" w:styleId="ListParagraph"><w:name w:val="List Paragraph"/>
<w:basedOn w:val="Normal"/><w:pPr><w:ind w:left="720"/></w:pPr></w:style>
<w:style w:type="character" w:default="1" w:styleId="DefaultParagraphFont"><w:name w:val="Default Paragraph Font"/>
</w:style>
<w:style w:type="character" w:styleId="Strong"><w:name w:val="Strong"/><w:rPr><w:b/></w:rPr></w:style>
<w:style w:type="character" w:styleId="FootnoteReference"><w:name w:val="footnote reference"/>
<w:rPr><w:vertAlign w:val="superscript"/></w:rPr></w:style>
</w:styles>"""

_NUMBERING = f"""{_HEAD}<w:numbering {_NSDECL}>
<w:abstractNum w:abstractNumId="0"><w:multiLevelType w:val="multilevel"/>
<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:pStyle w:val="Heading1"/>
<w:lvlText w:val="%1."/></w:lvl>
<w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:pStyle w:val="Heading2"/>
<w:lvlText w:val="%1.%2"/></w:lvl>
<w:lvl w:ilvl="2"><w:start w:val="1"/><w:numFmt w:val="lowerLetter"/><w:lvlText w:val="(%3)"/></w:lvl>
<w:lvl w:ilvl="3"><w:start w:val="1"/><w:numFmt w:val="lowerRoman"/><w:lvlText w:val="(%4)"/></w:lvl>
</w:abstractNum>
<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>
</w:numbering>"""


def _sentence(i: int, words: int) -> str:
    start = (i * 7) % len(_WORDS)
    return " ".join(_WORDS[(start + k) % len(_WORDS)] for k in range(words))


def _rsid(i: int) -> str:
    return f"00{(i * 2654435761) % 0xFFFFFF:06X}"


def _run(text: str, i: int, rpr: str = "") -> str:
    props = f"<w:rPr>{rpr}</w:rPr>" if rpr else ""
    return f'<w:r w:rsidR="{_rsid(i)}">{props}<w:t xml:space="preserve">{text}</w:t></w:r>'


class _Parts:
    """The body, comments and footnotes of a generated contract, as lists of XML strings."""

    def __init__(self):
        self.body: list[str] = []
        self.comments: list[str] = []
        self.footnotes: list[str] = []
        self.count = 0  # paragraphs written

    def paragraph(self, i: int, para_ids: bool) -> str:
        self.count += 1
        pid = f' w14:paraId="{(i + 1) & 0x7FFFFFFF:08X}" w14:textId="77777777"' if para_ids else ""
        attrs = f'{pid} w:rsidR="{_rsid(i)}" w:rsidRDefault="{_rsid(i + 1)}"'
        if i % 40 == 0:
            return (f'<w:p{attrs}><w:pPr><w:pStyle w:val="Heading1"/></w:pPr>'
                    f'<w:bookmarkStart w:id="{i}" w:name="_Toc{i}"/>{_run(_sentence(i, 3).title(), i)}'
                    f'<w:bookmarkEnd w:id="{i}"/></w:p>')
        if i % 8 == 0:
            return (f'<w:p{attrs}><w:pPr><w:pStyle w:val="Heading2"/></w:pPr>'
                    f'{_run(_sentence(i, 4).title() + ". ", i, "<w:b/>")}{_run(_sentence(i + 3, 20), i + 1)}</w:p>')
        runs = []
        if i % 5 == 0:
            ppr = '<w:pPr><w:pStyle w:val="ListParagraph"/><w:numPr><w:ilvl w:val="2"/><w:numId w:val="1"/></w:numPr></w:pPr>'
        else:
            ppr = '<w:pPr><w:pStyle w:val="BodyText"/></w:pPr>'
        for k in range(3 + i % 3):
            text = _sentence(i + k, 6 + (i + k) % 9) + " "
            rpr = '<w:rStyle w:val="Strong"/>' if (i + k) % 11 == 0 else ""
            runs.append(_run(text, i + k, rpr))
            if k == 0:
                runs.append('<w:proofErr w:type="spellStart"/>')
                runs.append(_run("Purchasor", i))
                runs.append('<w:proofErr w:type="spellEnd"/>')
        if i % 25 == 1:
            runs.append(f'<w:ins w:id="{100000 + i}" w:author="Counsel" w:date="2024-01-01T00:00:00Z">'
                        f'{_run("subject to Section 9.2 ", i)}</w:ins>')
            runs.append(f'<w:del w:id="{200000 + i}" w:author="Counsel" w:date="2024-01-01T00:00:00Z">'
                        f'<w:r><w:delText xml:space="preserve">without limitation </w:delText></w:r></w:del>')
        if i % 60 == 3:
            cid = len(self.comments)
            runs.insert(1, f'<w:commentRangeStart w:id="{cid}"/>')
            runs.append(f'<w:commentRangeEnd w:id="{cid}"/><w:r><w:rPr><w:rStyle w:val="CommentReference"/>'
                        f'</w:rPr><w:commentReference w:id="{cid}"/></w:r>')
            self.comments.append(
                f'<w:comment w:id="{cid}" w:author="Reviewer" w:date="2024-01-02T00:00:00Z" w:initials="R">'
                f'<w:p><w:r><w:t>Please confirm clause {i}.</w:t></w:r></w:p></w:comment>')
        if i % 80 == 7:
            fid = len(self.footnotes) + 1
            runs.append(f'<w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr>'
                        f'<w:footnoteReference w:id="{fid}"/></w:r>')
            self.footnotes.append(f'<w:footnote w:id="{fid}"><w:p><w:r><w:t xml:space="preserve">See '
                                  f'Schedule {fid}.</w:t></w:r></w:p></w:footnote>')
        return f'<w:p{attrs}>{ppr}{"".join(runs)}</w:p>'

    def table(self, i: int, para_ids: bool) -> str:
        rows = []
        for r in range(2):
            cells = "".join(f'<w:tc><w:tcPr><w:tcW w:w="4680" w:type="dxa"/></w:tcPr>'
                            f'{self.paragraph(i + r * 2 + c + 1, para_ids)}</w:tc>' for c in range(2))
            rows.append(f"<w:tr>{cells}</w:tr>")
        return (f'<w:tbl><w:tblPr><w:tblW w:w="9360" w:type="dxa"/></w:tblPr><w:tblGrid><w:gridCol w:w="4680"/>'
                f'<w:gridCol w:w="4680"/></w:tblGrid>{"".join(rows)}</w:tbl>')


def _package(body: str, comments: list[str], footnotes: list[str]) -> bytes:
    parts = {
        "word/styles.xml": ("styles", "application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml",
                            _STYLES),
        "word/numbering.xml": ("numbering",
                               "application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml",
                               _NUMBERING),
    }
    if comments:
        parts["word/comments.xml"] = (
            "comments", "application/vnd.openxmlformats-officedocument.wordprocessingml.comments+xml",
            f'{_HEAD}<w:comments {_NSDECL}>{"".join(comments)}</w:comments>')
    if footnotes:
        separators = ('<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
                      '<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/>'
                      '</w:r></w:p></w:footnote>')
        parts["word/footnotes.xml"] = (
            "footnotes", "application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml",
            f'{_HEAD}<w:footnotes {_NSDECL}>{separators}{"".join(footnotes)}</w:footnotes>')
    overrides = ['<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-'
                 'officedocument.wordprocessingml.document.main+xml"/>']
    rels = []
    for n, (name, (rtype, ctype, _xml)) in enumerate(parts.items(), start=2):
        overrides.append(f'<Override PartName="/{name}" ContentType="{ctype}"/>')
        rels.append(f'<Relationship Id="rId{n}" Type="{_REL}/{rtype}" Target="{name[5:]}"/>')
    rels_ns = "http://schemas.openxmlformats.org/package/2006/relationships"
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        z.writestr("[Content_Types].xml", f'{_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/'
                   'content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
                   f'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
                   f'{"".join(overrides)}</Types>')
        z.writestr("_rels/.rels", f'{_HEAD}<Relationships xmlns="{rels_ns}"><Relationship Id="rId1" '
                   f'Type="{_REL}/officeDocument" Target="word/document.xml"/></Relationships>')
        z.writestr("word/document.xml", f"{_HEAD}<w:document {_NSDECL}><w:body>{body}{_SECT}</w:body></w:document>")
        z.writestr("word/_rels/document.xml.rels", f'{_HEAD}<Relationships xmlns="{rels_ns}">{"".join(rels)}'
                   '</Relationships>')
        for name, (_rtype, _ctype, xml) in parts.items():
            z.writestr(name, xml)
    return out.getvalue()


def build_contract(paragraphs: int, para_ids: bool = True) -> bytes:
    """A contract of `paragraphs` paragraphs (table cells included) as .docx bytes, deterministic."""
    parts = _Parts()
    i = 0
    while parts.count < paragraphs:
        if i % 400 == 399 and paragraphs - parts.count >= 4:
            parts.body.append(parts.table(i, para_ids))
            i += 5
        else:
            parts.body.append(parts.paragraph(i, para_ids))
            i += 1
    return _package("".join(parts.body), parts.comments, parts.footnotes)


def build_long_paragraph(megabytes: float, run_chars: int = 100) -> bytes:
    """One paragraph of `megabytes` MB of text in runs of ~run_chars characters (with rsids)."""
    n = max(1, int(megabytes * 1_000_000) // run_chars)
    base = (" ".join(_WORDS) * (run_chars // len(" ".join(_WORDS)) + 2))
    chunks = [base[k % 50:k % 50 + run_chars] for k in range(50)]
    runs = "".join(f'<w:r w:rsidR="{_rsid(k)}"><w:t xml:space="preserve">{chunks[k % 50]}</w:t></w:r>'
                   for k in range(n))
    return _package(f'<w:p><w:pPr><w:pStyle w:val="BodyText"/></w:pPr>{runs}</w:p>', [], [])


# -- child side: one measurement ------------------------------------------------------------------

def _read_ours(path: str) -> int:
    from folio_desktop.docx import DocxReviewer

    snap = DocxReviewer.open(path).snapshot()
    for block in snap.blocks:
        block.text_hash  # noqa: B018 - computed lazily, forced here
    return len(snap.blocks)


def _read_python_docx(path: str) -> int:
    import docx

    return sum(1 for p in docx.Document(path).paragraphs if p.text is not None)


def child(reader: str, path: str) -> None:
    sys.path.insert(0, str(ROOT))
    if reader == "ours":
        import folio_desktop.docx  # noqa: F401 - imported before the clock starts
        read = _read_ours
    else:
        import docx  # noqa: F401
        read = _read_python_docx
    t0, c0 = time.perf_counter(), time.process_time()
    try:
        count = read(path)
        error = None
    except Exception as exc:  # noqa: BLE001 - reported to the parent
        count, error = None, f"{type(exc).__name__}: {exc}"
    print(json.dumps({"seconds": time.perf_counter() - t0, "cpu": time.process_time() - c0,
                      "count": count, "error": error}))


def measure(reader: str, path: Path, timeout: float) -> dict:
    try:
        proc = subprocess.run([sys.executable, __file__, "--child", reader, str(path)],
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"still running after {timeout:g} s"}
    if proc.returncode != 0:
        lines = (proc.stderr or proc.stdout).strip().splitlines() or [f"exit status {proc.returncode}"]
        return {"error": lines[-1]}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def median_of(reader: str, path: Path, runs: int, timeout: float) -> dict:
    samples = [measure(reader, path, timeout) for _ in range(runs)]
    good = [s for s in samples if s.get("count") is not None]
    if not good:
        return {"error": samples[0]["error"], "seconds": statistics.median(s.get("seconds", timeout) for s in samples)}
    return {"seconds": statistics.median(s["seconds"] for s in good), "cpu": statistics.median(s["cpu"] for s in good),
            "count": good[0]["count"]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3, help="runs per reader and input (default 3)")
    ap.add_argument("--sizes", default="10000,20000,40000,80000", help="paragraph counts, smallest first")
    ap.add_argument("--huge-mb", type=float, default=50.0, help="MB of text in the one-paragraph document")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds before a run counts as hung")
    ap.add_argument("--child", nargs=2, metavar=("READER", "PATH"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        child(*args.child)
        return 0

    sys.path.insert(0, str(ROOT))
    from folio_desktop.docx.package.limits import MAX_PARAGRAPHS

    sizes = [int(s) for s in args.sizes.split(",")]
    failed = False
    print(f"{args.runs} runs each (median), fresh process per run, Python {sys.version.split()[0]}; ratios are of "
          "processor time (the machine is shared), wall time beside it")
    print(f"{'input':<30} {'XML MB':>6} {'ours wall':>9} {'cpu':>6} {'x first':>7}   {'python-docx wall':>16} "
          f"{'cpu':>6} {'x first':>7} {'blocks':>7}")
    with tempfile.TemporaryDirectory() as tmp:
        inputs = [(f"{n:,} paragraphs", build_contract(n)) for n in sizes]
        inputs.append((f"1 paragraph, {args.huge_mb:g} MB of text", build_long_paragraph(args.huge_mb)))
        inputs.append((f"{MAX_PARAGRAPHS + 1:,} paragraphs (over)", build_contract(MAX_PARAGRAPHS + 1)))
        first: dict[str, float] = {}
        ours_cpu: dict[int, float] = {}
        for index, (name, data) in enumerate(inputs):
            path = Path(tmp) / f"input{index}.docx"
            path.write_bytes(data)
            with zipfile.ZipFile(path) as z:
                mb = z.getinfo("word/document.xml").file_size / 1e6
            scaled = index < len(sizes)
            cells = []
            for key in ("ours", "python-docx"):
                row = median_of(key, path, args.runs if scaled or key == "ours" else 1, args.timeout)
                if row.get("count") is None:
                    cells.append(f"{row.get('seconds', 0):9.2f} {'':>6} {'':>7}" if key == "ours"
                                 else f"{'error' if row.get('error') else '':>16} {'':>6} {'':>7}")
                    if key == "ours":
                        ours_row = row
                    continue
                if index == 0:
                    first[key] = row["cpu"]
                ratio = f"{row['cpu'] / first[key]:6.2f}x" if scaled and key in first else f"{'':>7}"
                width = 9 if key == "ours" else 16
                cells.append(f"{row['seconds']:{width}.2f} {row['cpu']:6.2f} {ratio}")
                if key == "ours":
                    ours_row = row
                    if scaled:
                        ours_cpu[sizes[index]] = row["cpu"]
            print(f"{name:<30} {mb:6.1f} {cells[0]}   {cells[1]} {ours_row.get('count') or '':>7}", flush=True)
            if ours_row.get("error"):
                print(f"{'':<30} ours: {ours_row['error']}")
                if index < len(sizes):
                    failed = True
            elif index >= len(sizes):
                print(f"{'':<30} NOT REFUSED")
                failed = True
    if sizes[0] in ours_cpu and sizes[-1] in ours_cpu:
        ratio = ours_cpu[sizes[-1]] / ours_cpu[sizes[0]]
        linear = sizes[-1] / sizes[0]
        allowed = MAX_SCALING * linear / 8
        verdict = "ok" if ratio <= allowed else "OVER"
        print(f"\n{sizes[-1]:,} / {sizes[0]:,} paragraphs: {ratio:.2f}x processor time (target <= {allowed:g}x; "
              f"{linear:g}x is linear): {verdict}")
        failed = failed or verdict != "ok"
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
