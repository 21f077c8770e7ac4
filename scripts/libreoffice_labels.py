#!/usr/bin/env python3
"""Record ground-truth list labels for numbered paragraphs, as rendered by LibreOffice.

The docx XML is only used to find WHICH paragraphs are numbered (w:numPr on the
paragraph or on its paragraph style chain, numId != 0) and their own text.  The
LABEL comes exclusively from LibreOffice: its plain-text export (one line per
paragraph, "<label><sep><text>") is used to align paragraphs, and every
label+text pair must also be found, in document order, in pdftotext output of
LibreOffice's PDF export.  Paragraphs that fail any check are skipped.

Usage: python scripts/libreoffice_labels.py [--corpus ../shared/corpus] [--out tests/data/libreoffice_labels]
"""
import argparse
import json
import re
import subprocess
import sys
import tempfile
import unicodedata
import zipfile
from pathlib import Path

from lxml import etree

DOCS = [
    "contract_ilpa_model_lpa_whole_of_fund_75p.docx",
    "contract_msdn_eula_legal_numbering.docx",
    "powertools_HC048_dispute_resolution_numbering.docx",
    "docx4j_article_section_isLgl_numbering.docx",
    "contract_nvca_stock_purchase_agreement_27p.docx",
]
W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
NS = {"w": W}
PREFIX = 40      # characters of paragraph text recorded
MAX_LABEL = 30   # a longer "label" means the alignment went wrong


def q(tag):
    return f"{{{W}}}{tag}"


def norm(s):
    return re.sub(r"\s+", " ", s).strip()


def squash(s):
    """Comparison key: NFKC, no whitespace, no soft hyphens / zero-width chars."""
    s = unicodedata.normalize("NFKC", s)
    return re.sub(r"[\s\u00ad\u200b\u200c\u200d\ufeff]+", "", s)


def para_text(p):
    """w:t of the paragraph's own runs (not nested textboxes), w:tab as space,
    skipping runs with direct w:vanish; w:delText is never read."""
    out = []
    for el in p.iter(q("t"), q("tab")):
        run = el.getparent()
        if run.tag != q("r"):  # e.g. w:pPr/w:tabs/w:tab is a tab stop
            continue
        if next(el.iterancestors(q("p"))) is not p:
            continue
        if run.find("w:rPr/w:vanish", NS) is not None:
            continue
        out.append(el.text or "" if el.tag == q("t") else " ")
    return norm("".join(out))


def body_paragraphs(docx):
    """All body paragraphs as (normalized text, is_numbered), in document order."""
    with zipfile.ZipFile(docx) as z:
        doc = etree.fromstring(z.read("word/document.xml"))
        styles = etree.fromstring(z.read("word/styles.xml")) if "word/styles.xml" in z.namelist() else None
    style_el = {}
    if styles is not None:
        for s in styles.iterfind("w:style[@w:type='paragraph']", NS):
            style_el[s.get(q("styleId"))] = s

    def style_num_id(sid, seen=()):
        s = style_el.get(sid)
        if s is None or sid in seen:
            return None
        nid = s.find("w:pPr/w:numPr/w:numId", NS)
        if nid is not None:
            return nid.get(q("val"))
        based = s.find("w:basedOn", NS)
        return style_num_id(based.get(q("val")), seen + (sid,)) if based is not None else None

    paras = []
    for p in doc.find("w:body", NS).iter(q("p")):
        nid = p.find("w:pPr/w:numPr/w:numId", NS)
        if nid is not None:
            num_id = nid.get(q("val"))
        else:
            ps = p.find("w:pPr/w:pStyle", NS)
            num_id = style_num_id(ps.get(q("val"))) if ps is not None else None
        paras.append((para_text(p), num_id not in (None, "0")))
    return paras


def soffice(args, workdir):
    # a private profile so a concurrently running soffice cannot swallow the call
    profile = f"-env:UserInstallation={(workdir / 'lo_profile').as_uri()}"
    subprocess.run(["soffice", profile, "--headless", *args], cwd=workdir, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def split_label(line, text):
    """If squash(text) occurs in line after a short prefix, return that prefix (the label)."""
    keys, idx = [], []
    for i, ch in enumerate(line):
        k = squash(ch)
        keys.append(k)
        idx.extend([i] * len(k))
    pos = "".join(keys).find(squash(text))
    if pos < 0:
        return None
    label = line[:idx[pos]].strip()
    return label if len(label) <= MAX_LABEL else None


def labels_for(docx, workdir, log):
    soffice(["--convert-to", "pdf", "--outdir", str(workdir), str(docx)], workdir)
    soffice(["--convert-to", "txt:Text (encoded):UTF8", "--outdir", str(workdir), str(docx)], workdir)
    pdf = workdir / (docx.stem + ".pdf")
    lo_lines = (workdir / (docx.stem + ".txt")).read_text(encoding="utf-8-sig").splitlines()
    # pdftotext's plain mode sometimes moves a hanging label away from its text,
    # -layout sometimes interleaves columns; a pair found in order in either counts.
    pdf_texts = [squash(subprocess.run(["pdftotext", *mode, str(pdf), "-"], check=True,
                                       capture_output=True, text=True).stdout)
                 for mode in ([], ["-layout"])]

    paras = body_paragraphs(docx)
    all_texts = [t for t, _ in paras]
    labels, pdf_pos, line_pos = [], [0, 0], 0
    for index, (text, numbered) in enumerate(paras):
        if not numbered or not text:
            continue
        prefix = text[:PREFIX]
        # a prefix shared with other paragraphs is told apart by its occurrence among them
        occurrence = sum(t.startswith(prefix) for t in all_texts[:index])
        shared = sum(t.startswith(prefix) for t in all_texts) > 1
        # next LibreOffice text-export line that carries this paragraph's text
        label = None
        for i in range(line_pos, len(lo_lines)):
            label = split_label(lo_lines[i], prefix)
            if label is not None:
                line_pos = i + 1
                break
        if label is None:
            log(f"  skip (not in LibreOffice text export): {prefix!r}")
            continue
        if not label:
            log(f"  skip (LibreOffice shows no label): {prefix!r}")
            continue
        # the same label immediately followed by the text must be in the PDF, in order
        found = [t.find(squash(label + prefix), pos) for t, pos in zip(pdf_texts, pdf_pos)]
        if max(found) < 0:
            log(f"  skip (label+text not in PDF after previous hit): {label!r} {prefix!r}")
            continue
        pdf_pos = [f + 1 if f >= 0 else pos for f, pos in zip(found, pdf_pos)]
        item = {"text": prefix, "label": label}
        if shared:
            item["occurrence"] = occurrence
        labels.append(item)
    return labels


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default="../shared/corpus")
    ap.add_argument("--out", default="tests/data/libreoffice_labels")
    ap.add_argument("-v", "--verbose", action="store_true", help="log skipped paragraphs")
    args = ap.parse_args()
    log = (lambda m: print(m, file=sys.stderr)) if args.verbose else (lambda m: None)

    version = subprocess.run(["soffice", "--version"], check=True, capture_output=True,
                             text=True).stdout.strip()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for name in DOCS:
        with tempfile.TemporaryDirectory() as tmp:
            labels = labels_for(Path(args.corpus, name).resolve(), Path(tmp), log)
        result = {"source": name, "renderer": version, "labels": labels}
        (out / (Path(name).stem + ".json")).write_text(
            json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"{name}: {len(labels)} labels")


if __name__ == "__main__":
    main()
