"""Check that LibreOffice opens a saved document and reads the expected text in it.

    python scripts/check_with_libreoffice.py OUT.docx [--expect TEXT ...] [--absent TEXT ...]
                                                      [--comment TEXT ...]

Converts OUT.docx to PDF with `soffice --headless --convert-to pdf` (in a private profile, so a
running LibreOffice is not disturbed), extracts the text with `pdftotext`, and checks that every
--expect text is present and every --absent text is not (whitespace is compared collapsed, as
PDF text wraps at line ends; LibreOffice prints pending tracked changes inline, deletions
included). Comments are not printed in the PDF, so each --comment text is looked for among the
annotations of the document LibreOffice writes when it converts OUT.docx to ODT. Without checks
it checks that the PDF has some text. Prints one line per check and exits 1 when any fails, 2
when LibreOffice or pdftotext is missing or a conversion fails. Not part of the default test run:
it needs LibreOffice and poppler-utils.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from xml.etree import ElementTree

CONVERT_TIMEOUT_S = 180
OFFICE_NS = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"


def squash(text: str) -> str:
    return " ".join(text.split())


def convert(docx: Path, work: Path, fmt: str) -> Path:
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if soffice is None:
        raise RuntimeError("this check needs LibreOffice (soffice) installed")
    profile = (work / "profile").as_uri()
    proc = subprocess.run([soffice, f"-env:UserInstallation={profile}", "--headless", "--convert-to", fmt,
                           "--outdir", str(work), str(docx)], capture_output=True, text=True,
                          timeout=CONVERT_TIMEOUT_S)
    out = work / f"{docx.stem}.{fmt}"
    if proc.returncode != 0 or not out.is_file():
        raise RuntimeError(f"LibreOffice could not convert {docx} to {fmt}: {(proc.stderr or proc.stdout).strip()}")
    return out


def pdf_text_of(docx: Path, work: Path) -> str:
    pdftotext = shutil.which("pdftotext")
    if pdftotext is None:
        raise RuntimeError("this check needs poppler-utils (pdftotext) installed")
    pdf = convert(docx, work, "pdf")
    return subprocess.run([pdftotext, "-layout", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout


def comments_of(docx: Path, work: Path) -> list[str]:
    """The text of every annotation (comment or reply) LibreOffice read from the document."""
    with zipfile.ZipFile(convert(docx, work, "odt")) as odt:
        root = ElementTree.fromstring(odt.read("content.xml"))
    out = []
    for note in root.iter(f"{{{OFFICE_NS}}}annotation"):
        paragraphs = [" ".join(p.itertext()) for p in note if p.tag.endswith("}p")]
        out.append(squash(" ".join(paragraphs)))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("docx", type=Path)
    parser.add_argument("--expect", action="append", default=[], metavar="TEXT", help="text that must be there")
    parser.add_argument("--absent", action="append", default=[], metavar="TEXT", help="text that must not be")
    parser.add_argument("--comment", action="append", default=[], metavar="TEXT",
                        help="the text of a comment that must be there")
    args = parser.parse_args(argv)
    if not args.docx.is_file():
        print(f"{args.docx} does not exist", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="folio-lo-") as tmp:
        try:
            text = squash(pdf_text_of(args.docx.resolve(), Path(tmp)))
            comments = comments_of(args.docx.resolve(), Path(tmp)) if args.comment else []
        except (RuntimeError, subprocess.SubprocessError, zipfile.BadZipFile, ElementTree.ParseError) as exc:
            print(exc, file=sys.stderr)
            return 2
    failures = 0
    checks = [("text", t, True) for t in args.expect] + [("text", t, False) for t in args.absent]
    checks += [("comment", t, True) for t in args.comment]
    if not checks:
        checks = [("text", "", True)]
    for kind, wanted, present in checks:
        if kind == "comment":
            found = any(squash(wanted) in c for c in comments)
        else:
            found = squash(wanted) in text if wanted else bool(text)
        ok = found == present
        failures += not ok
        what = f"{kind} “{wanted}”" if wanted else "some text"
        print(f"{'ok  ' if ok else 'FAIL'} {what} {'present' if present else 'absent'}")
    print(f"{len(checks) - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
