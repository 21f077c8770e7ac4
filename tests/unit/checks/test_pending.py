"""pendingChange: whether a pending tracked change caused a finding (it is not there once every change
is rejected). Small contracts built in code with Word's own revision markup, and a corpus redline."""

from conftest import SHARED
from docbuilder import build_docx, p

from folio_desktop.checks import CheckSession, check_document
from folio_desktop.docx import DocxReviewer

_MARK = 'w:author="Counsel" w:date="2026-01-05T10:00:00Z"'


def _ins(text: str, n: int) -> str:
    return f'<w:ins w:id="{n}" {_MARK}><w:r><w:t xml:space="preserve">{text}</w:t></w:r></w:ins>'


def _del(text: str, n: int) -> str:
    return f'<w:del w:id="{n}" {_MARK}><w:r><w:delText xml:space="preserve">{text}</w:delText></w:r></w:del>'


def _run(text: str) -> str:
    return f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>'


def _para(*runs: str, para_id: str, mark: str = "") -> str:
    """A paragraph of these runs; mark "ins"/"del": its paragraph mark is a tracked insertion/deletion."""
    ppr = f'<w:pPr><w:rPr><w:{mark} w:id="9{para_id[-2:]}" {_MARK}/></w:rPr></w:pPr>' if mark else ""
    return f'<w:p w14:paraId="{para_id}" w14:textId="{para_id}">{ppr}{"".join(runs)}</w:p>'


def _report(body: str) -> dict:
    return check_document(DocxReviewer.from_bytes(build_docx(body)))


def _found(report: dict, kind: str) -> dict:
    """text -> pendingChange of the findings of that kind."""
    return {f["text"]: f["pendingChange"] for f in report["findings"] if f["kind"] == kind}


def test_reference_broken_by_a_tracked_deletion_of_its_target():
    body = (p("1. Payment. The Buyer shall pay the price within thirty days.", "00000011")
            + _para(_del("2. Delivery. The Seller shall deliver the goods to the Buyer.", 1), para_id="00000012",
                    mark="del")
            + p("3. Notices. Notices about delivery are governed by Section 2.", "00000013")
            + p("4. Remedies. The remedies in Section 7 are cumulative.", "00000014"))
    report = _report(body)
    broken = [f for f in report["findings"] if f["kind"] == "brokenCrossReference"]
    by_text = {f["text"]: f for f in broken}
    assert set(by_text) == {"Section 2", "Section 7"}
    assert by_text["Section 2"]["pendingChange"] is True
    assert "tracked change deletes or renumbers it" in by_text["Section 2"]["message"]
    assert by_text["Section 7"]["pendingChange"] is False
    assert "tracked change" not in by_text["Section 7"]["message"]
    # the gap the deletion leaves (1, 3) is the change's too
    assert _found(report, "numberingGap") == {"3.": True}


def test_reference_a_tracked_insertion_fixes_is_not_reported():
    body = (p("1. Payment. The Buyer shall pay the price within thirty days.", "00000021")
            + _para(_ins("2. Delivery. The Seller shall deliver the goods on [●].", 2), para_id="00000022",
                    mark="ins")
            + p("3. Notices. Notices about delivery are governed by Section 2.", "00000023")
            + p("4. Price. The price is $[_____].", "00000024"))
    report = _report(body)
    assert _found(report, "brokenCrossReference") == {}
    assert _found(report, "numberingGap") == {}
    # the clause the insertion adds brings its own blank; the one already there is no change's
    assert _found(report, "placeholder") == {"[●]": True, "$[_____]": False}
    rejected = DocxReviewer.from_bytes(build_docx(body))
    rejected.reject_all()
    before = check_document(rejected)
    assert _found(before, "brokenCrossReference") == {"Section 2": False}


def test_undefined_term_introduced_by_a_tracked_insertion():
    body = (p("1. Agreement. The Supplier shall supply the goods and invoice them monthly.", "00000031")
            + _para(_run("2. Escrow. Each month the supplier shall pay into escrow"),
                    _ins(" with the Escrow Agent, and the Escrow Agent shall hold the funds", 3),
                    _run("."), para_id="00000032")
            + p("3. Payment. Each month the Paying Agent pays, and the Paying Agent reports.", "00000033"))
    report = _report(body)
    assert _found(report, "undefinedTerm") == {"Escrow Agent": True, "Paying Agent": False}


def test_placeholder_a_tracked_change_fills_and_one_it_brings():
    body = (p("1. Price. The price is fixed.", "00000041")
            + _para(_run("2. Date. The Closing takes place on "), _del("[Date]", 4), _ins("1 March 2026", 5),
                    _run("."), para_id="00000042")
            + _para(_run("3. Amount. The deposit is "), _del("$5,000", 6), _ins("$[●]", 7), _run("."),
                    para_id="00000043")
            + p("4. Notices. Notices go to [NAME].", "00000044"))
    report = _report(body)
    found = _found(report, "placeholder")
    assert "[Date]" not in found  # filled by the pending change
    assert found["[NAME]"] is False
    assert any(text.endswith("[●]") and pending for text, pending in found.items())


def test_session_after_tracked_edits_marks_only_what_they_caused():
    """The window's loop: a clean contract checked, then edited through the reviewer's own API."""
    body = (p("1. Payment. The Buyer shall pay the price within thirty days.", "00000051")
            + p("2. Delivery. The Seller shall deliver the goods to the Buyer.", "00000052")
            + p("3. Notices. Notices about delivery are governed by Section 2 and Section 9.", "00000053"))
    reviewer = DocxReviewer.from_bytes(build_docx(body))
    session = CheckSession()
    assert _found(session.run(reviewer), "brokenCrossReference") == {"Section 9": False}
    result = reviewer.apply_document_operations({"version": 1, "mode": "tracked-changes", "operations": [
        {"type": "deleteBlock", "blockId": "00000052"},
        {"type": "insertAfterBlock", "blockId": "00000053",
         "text": "4. Escrow. Each month the Escrow Agent reports, and the Escrow Agent pays."}]})
    assert result["applied"], result
    report = session.run(reviewer)
    assert _found(report, "brokenCrossReference") == {"Section 2": True, "Section 9": False}
    assert _found(report, "undefinedTerm") == {"Escrow Agent": True}
    assert report == check_document(DocxReviewer.from_bytes(reviewer.to_bytes()))


def test_corpus_redline_marks_the_findings_its_changes_caused():
    # a Word document whose tracked changes rewrite two paragraphs of its sample text
    path = SHARED / "corpus" / "openxmlsdk_comment042_tracked_pPr_rPr_changes_notes.docx"
    report = check_document(DocxReviewer.open(str(path)))
    found = _found(report, "undefinedTerm")
    # undefined before the changes too (the insertion only moves where they are first met): no change's
    assert found["Quick Style"] is False and found["Home"] is False
    # brought in by the tracked insertion of a paragraph
    assert found["Theme"] is True and found["Page Layout"] is True
    # the endnote the insertion brings shows as its mark, [^e1]: a note, not a blank left to fill
    assert not [f for f in report["findings"] if f["kind"] == "placeholder"]
