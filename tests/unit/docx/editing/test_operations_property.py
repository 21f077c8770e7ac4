"""Random valid batches on real contracts (issue 3, acceptance 2).

For every generated batch: the saved output reopens in our reader and in python-docx; every part we
wrote validates against the OOXML schemas whenever the input part did; rejecting all of our changes
restores every block's original text; accepting all of them gives the text the operations describe
(computed here by a small model of each operation); blocks no operation touched keep their XML.
"""

from __future__ import annotations

import io
import zipfile

import docx as python_docx
import pytest
from conftest import CORPUS
from document_state import open_state
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree
from ooxml_validate import load_wml_schema, part_errors

from folio_desktop.docx import DocxReviewer
from folio_desktop.docx.editing.ops.context import is_last_paragraph
from folio_desktop.docx.editing.resolve import accept_changes, reject_changes
from folio_desktop.docx.model.textkit import index_to_utf16, text_hash, utf16_to_index

DOCS = {
    name: (CORPUS / name).read_bytes()
    for name in ("contract_commonpaper_pilot_agreement.docx", "contract_msdn_eula_legal_numbering.docx",
                 "powertools_HC048_dispute_resolution_numbering.docx")
}
SCHEMA_CHECKED = ("word/document.xml", "word/comments.xml", "word/numbering.xml")


@pytest.fixture(scope="module")
def schema():
    return load_wml_schema()


def _candidates(rev):
    """Body paragraphs with text that a model would edit: not in tables, with a following paragraph."""
    out = []
    for b in rev.snapshot().content_blocks:
        if b.table is not None or b.kind == "diagnostic" or "[^" in b.text or len(b.text.split()) < 3:
            continue
        if is_last_paragraph(b.element):
            continue
        out.append(b)
    return out


@st.composite
def batches(draw):
    name = draw(st.sampled_from(sorted(DOCS)))
    rev = DocxReviewer.from_bytes(DOCS[name])
    blocks = _candidates(rev)
    count = draw(st.integers(1, min(5, len(blocks))))
    chosen = draw(st.lists(st.sampled_from(blocks), min_size=count, max_size=count, unique_by=lambda b: b.id))
    ops = []
    words = st.text(alphabet=st.sampled_from("abcdefghij KLMNOP,.;'-"), min_size=1, max_size=12).filter(str.strip)
    for n, b in enumerate(chosen):
        kind = draw(st.sampled_from(["replaceInBlock", "replaceRange", "insertAfterBlock", "insertBeforeBlock",
                                     "deleteBlock", "formatRange", "commentOnRange", "commentOnBlock", "splitBlock",
                                     "setBlockParagraphProperties", "replaceBlock"]))
        tokens = b.text.split()
        unique = [t for t in tokens if b.text.count(t) == 1]
        op: dict = {"id": f"p{n}", "type": kind}
        if kind == "replaceInBlock":
            if not unique:
                continue
            op.update(blockId=b.id, find=draw(st.sampled_from(unique)), replace=draw(words))
        elif kind in ("replaceRange", "formatRange", "commentOnRange"):
            word = draw(st.sampled_from(tokens))
            start = b.text.index(word)
            op["range"] = {"type": "textRange", "story": "main", "blockId": b.id,
                           "startOffset": index_to_utf16(b.text, start),
                           "endOffset": index_to_utf16(b.text, start + len(word)),
                           "selectedTextHash": text_hash(word)}
            if kind == "replaceRange":
                op["replace"] = draw(words)
            elif kind == "formatRange":
                op["formatting"] = draw(st.sampled_from([{"bold": True}, {"italic": True}, {"underline": True},
                                                         {"bold": True, "italic": False}]))
            else:
                op["comment"] = {"text": draw(words)}
        elif kind in ("insertAfterBlock", "insertBeforeBlock"):
            op.update(blockId=b.id, text=draw(st.lists(words, min_size=1, max_size=2).map("\n".join)))
        elif kind == "deleteBlock":
            op["blockId"] = b.id
        elif kind == "commentOnBlock":
            op.update(blockId=b.id, comment={"text": draw(words)})
        elif kind == "splitBlock":
            spaces = [i for i, ch in enumerate(b.text) if ch == " " and 0 < i < len(b.text) - 1]
            if not spaces:
                continue
            op.update(blockId=b.id, offset=index_to_utf16(b.text, draw(st.sampled_from(spaces))))
        elif kind == "setBlockParagraphProperties":
            op.update(blockId=b.id, properties=draw(st.sampled_from(
                [{"alignment": "center"}, {"alignment": "both"}, {"spacing": {"spaceAfter": 120}},
                 {"indentation": {"left": 720}}])))
        elif kind == "replaceBlock":
            op.update(blockId=b.id, text=b.text + " " + draw(words))
        ops.append(op)
    mode = draw(st.sampled_from(["tracked-changes", "tracked-changes", "direct"]))
    return name, mode, ops


def _expected_texts(rev, ops, applied_ids) -> list[str]:
    """What accepting everything should read as, modelled per operation on the original blocks."""
    blocks = [b for b in rev.snapshot().blocks if b.kind != "diagnostic"]
    out = {b.id: [b.text] for b in blocks}  # each block maps to the texts it becomes
    for op in ops:
        if op["id"] not in applied_ids:
            continue
        t = op["type"]
        bid = op.get("blockId") or op["range"]["blockId"]
        text = out[bid][0] if out[bid] else None
        if t == "replaceInBlock":
            out[bid] = [text.replace(op["find"], op["replace"], 1)]
        elif t == "replaceRange":
            start = utf16_to_index(text, op["range"]["startOffset"])
            end = utf16_to_index(text, op["range"]["endOffset"])
            out[bid] = [text[:start] + op["replace"] + text[end:]]
        elif t == "replaceBlock":
            out[bid] = [op["text"]]
        elif t == "deleteBlock":
            out[bid] = []
        elif t == "splitBlock":
            k = utf16_to_index(text, op["offset"])
            out[bid] = [text[:k], text[k:]]
        elif t in ("insertAfterBlock", "insertBeforeBlock"):
            lines = [line for line in op["text"].split("\n") if line.strip()]
            out[bid] = (out[bid] + lines) if t == "insertAfterBlock" else (lines + out[bid])
    return [t for b in blocks for t in out[b.id]]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(batches())
def test_random_batches_keep_every_invariant(schema, case):
    name, mode, ops = case
    if not ops:
        return
    data = DOCS[name]
    rev = DocxReviewer.from_bytes(data)
    original_blocks = [b for b in rev.snapshot().blocks if b.kind != "diagnostic"]
    original_texts = [b.text for b in original_blocks]
    original_xml = {b.id: etree.tostring(b.element) for b in original_blocks}
    original_state = open_state(rev, version=False)
    result = rev.apply_document_operations({"version": 1, "mode": mode, "operations": ops})
    applied = {a["id"] for a in result["applied"]}
    # replace ops on one block may legitimately overlap; nothing else may be refused
    for skip in result["skipped"]:
        assert skip["reason"] in ("overlappingOperation", "noopOperation"), (skip, ops)
    out = rev.to_bytes()

    # reopens in our reader and python-docx
    saved = DocxReviewer.from_bytes(out)
    python_docx.Document(io.BytesIO(out))
    # parts we wrote validate whenever the input part did
    with zipfile.ZipFile(io.BytesIO(data)) as before, zipfile.ZipFile(io.BytesIO(out)) as after:
        for part in SCHEMA_CHECKED:
            if part in after.namelist() and part in rev.document.package.dirty:
                was_valid = part not in before.namelist() or not part_errors(schema, before.read(part))
                if was_valid:
                    assert part_errors(schema, after.read(part)) == [], (part, ops)
    # untouched blocks keep their XML
    touched = {op.get("blockId") or op["range"]["blockId"] for op in ops}
    for b in saved.snapshot().blocks:
        if b.id in original_xml and b.id not in touched:
            assert etree.tostring(b.element) == original_xml[b.id], (b.id, ops)
    # undo gives back exactly the document as it was
    if result["undoHandle"] is not None:
        assert rev.undo_document_operations(result["undoHandle"])["status"] == "undone"
        assert open_state(rev, version=False) == original_state, ops
        assert rev.to_bytes() == DocxReviewer.from_bytes(data).to_bytes(), ops
    expected = _expected_texts(DocxReviewer.from_bytes(data), ops, applied)
    if mode == "direct":
        assert [b.text for b in saved.snapshot().blocks if b.kind != "diagnostic"] == expected
        return
    ours = {c.id for c in saved.get_changes() if c.author == "AI"}
    rejected = DocxReviewer.from_bytes(out)
    reject_changes(rejected.document, ours)
    assert [b.text for b in rejected.snapshot().blocks if b.kind != "diagnostic"] == original_texts, ops
    accepted = DocxReviewer.from_bytes(out)
    accept_changes(accepted.document, ours)
    assert [b.text for b in accepted.snapshot().blocks if b.kind != "diagnostic"] == expected, ops
