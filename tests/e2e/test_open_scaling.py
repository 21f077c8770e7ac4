"""Open scales linearly, and a document past the content limits is refused at once (issue 15, point 4).

The full figures (10k..80k paragraphs, a 50 MB paragraph) come from benchmarks/open_scaling.py; the
suite keeps to small documents and processor time, because the machine is shared and noisy.
"""

from __future__ import annotations

import gc
import io
import time
import zipfile

import pytest
from docbuilder import W_NS, build_docx

from benchmarks.open_scaling import build_contract
from folio_desktop.docx import DocxReviewer, DocxTooLargeError
from folio_desktop.docx.package import limits as content_limits
from folio_desktop.docx.package.limits import MAX_PARAGRAPH_CHARS, MAX_PARAGRAPHS


def _paragraphs(n: int, text: str | None = None) -> str:
    """n one-run paragraphs, "Clause 1", "Clause 2", ... (or `text` in each)."""
    return "".join(f'<w:p><w:r><w:t xml:space="preserve">{text or f"Clause {i}"}</w:t></w:r></w:p>'
                   for i in range(1, n + 1))


def _open_cpu(data: bytes) -> float:
    """Processor seconds of open + snapshot + every block's hash, the collector as the suite left it."""
    gc.collect()
    t0 = time.process_time()
    snap = DocxReviewer.from_bytes(data).snapshot()
    for block in snap.blocks:
        block.text_hash  # noqa: B018 - computed lazily, forced here
    return time.process_time() - t0


def test_a_document_past_the_paragraph_limit_is_refused_at_once():
    data = build_docx(_paragraphs(MAX_PARAGRAPHS + 1))
    t0 = time.perf_counter()
    with pytest.raises(DocxTooLargeError) as info:
        DocxReviewer.from_bytes(data)
    assert time.perf_counter() - t0 < 5.0
    message = str(info.value)
    assert f"{MAX_PARAGRAPHS + 1:,} paragraphs" in message
    assert f"limit of {MAX_PARAGRAPHS:,} paragraphs" in message


def test_a_paragraph_past_the_text_limit_is_refused_at_once():
    """One paragraph of a million characters and more, in runs of 1,000 (no paraId, as an
    untrusted file may come): refused before its paraId is derived from all of its text."""
    run = "<w:r><w:t>" + "abcdefghij" * 100 + "</w:t></w:r>"
    data = build_docx(_paragraphs(3) + "<w:p>" + run * (MAX_PARAGRAPH_CHARS // 1000 + 1) + "</w:p>")
    t0 = time.perf_counter()
    with pytest.raises(DocxTooLargeError) as info:
        DocxReviewer.from_bytes(data)
    assert time.perf_counter() - t0 < 5.0
    message = str(info.value)
    assert message.startswith("Paragraph 4 of the document holds more than 1,000,000 characters")
    assert f"limit of {MAX_PARAGRAPH_CHARS:,} for one paragraph" in message


def test_a_paragraph_at_the_text_limit_opens(monkeypatch):
    monkeypatch.setattr(content_limits, "MAX_PARAGRAPH_CHARS", 5000)
    data = build_docx(_paragraphs(2) + "<w:p>" + "<w:r><w:t>abcde</w:t></w:r>" * 1000 + "</w:p>")
    snap = DocxReviewer.from_bytes(data).snapshot()
    assert len(snap.blocks[2].text) == 5000
    over = build_docx(_paragraphs(2) + "<w:p>" + "<w:r><w:t>abcde</w:t></w:r>" * 1000
                      + "<w:r><w:delText>x</w:delText></w:r></w:p>")
    with pytest.raises(DocxTooLargeError, match="Paragraph 3 of the document holds more than 5,000"):
        DocxReviewer.from_bytes(over)
    # an entity is one character: 4,000 of them in 8,000 bytes are under the limit
    escaped = build_docx("<w:p>" + "<w:r><w:t>a&amp;bc</w:t></w:r>" * 1000 + "</w:p>")
    assert len(DocxReviewer.from_bytes(escaped).snapshot().blocks[0].text) == 4000


def test_a_document_past_the_text_limit_is_refused(monkeypatch):
    monkeypatch.setattr(content_limits, "MAX_TEXT_CHARS", 10_000)
    DocxReviewer.from_bytes(build_docx(_paragraphs(100, "x" * 100)))  # exactly at the limit
    with pytest.raises(DocxTooLargeError) as info:
        DocxReviewer.from_bytes(build_docx(_paragraphs(101, "x" * 100)))
    assert "holds 10,100 characters of text, over the limit of 10,000 characters" in str(info.value)


@pytest.mark.parametrize("binding", ["prefix", "default"])
def test_the_paragraph_count_does_not_depend_on_the_namespace_prefix(monkeypatch, binding):
    """The count on bytes follows the prefix the root binds (or the default namespace)."""
    monkeypatch.setattr(content_limits, "MAX_PARAGRAPHS", 50)
    if binding == "prefix":
        body = _paragraphs(51).replace("w:", "x:")
        root = f'<x:document xmlns:x="{W_NS}"><x:body>{body}</x:body></x:document>'
    else:
        body = _paragraphs(51).replace("w:", "")
        root = f'<document xmlns="{W_NS}"><body>{body}</body></document>'
    data = build_docx("")
    src, out = zipfile.ZipFile(io.BytesIO(data)), io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for info in src.infolist():
            z.writestr(info, root if info.filename == "word/document.xml" else src.read(info))
    with pytest.raises(DocxTooLargeError, match="51 paragraphs, over the limit of 50"):
        DocxReviewer.from_bytes(out.getvalue())


def test_reading_the_body_runs_no_full_collection():
    """The cycle collector stays off while the body is read: every collection would walk all the
    blocks, anchors and preview runs made so far again (0.8 s of a 40,000-paragraph open, 10x the
    share it took at 10,000), which is what made open grow faster than the document."""
    data = build_contract(5000)
    started = [0, 0, 0]

    def count(phase, info):
        if phase == "start":
            started[info["generation"]] += 1

    gc.collect()
    gc.callbacks.append(count)
    try:
        DocxReviewer.from_bytes(data).snapshot()
    finally:
        gc.callbacks.remove(count)
    assert started[1] == started[2] == 0, started
    assert started[0] <= 3, started  # (the one after reading, over what it made)


def test_open_time_grows_linearly_with_the_paragraph_count():
    """2,500 and 10,000 realistic paragraphs (numbered clauses, rsids, tracked changes, comments,
    footnotes, tables): four times the paragraphs within six times the processor time. A guard
    kept small for the suite: the curve bent past 20,000 (benchmarks/open_scaling.py has 80,000)."""
    small, large = build_contract(2500), build_contract(10000)
    times: dict[bytes, list[float]] = {small: [], large: []}
    for _ in range(3):  # interleaved, so both sizes see the same load; the quickest of each counts
        for data in (small, large):
            times[data].append(_open_cpu(data))
    t_small, t_large = min(times[small]), min(times[large])
    assert t_large / t_small < 6.0, f"2,500 paragraphs {t_small:.2f} s, 10,000 {t_large:.2f} s"
