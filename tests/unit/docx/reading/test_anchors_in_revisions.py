"""Comments whose range starts or ends inside a tracked change keep their anchor (spec §2.7: the quote
is every run the range covers, deleted runs included, and the block is that of its first run), and a
revision with nothing in it is no change to review (§2.8, §7.2)."""

import pytest
from conftest import CORPUS, ok
from docbuilder import build_docx, p

from folio_desktop.agents import create_reviewer_bridge, execute_tool_call
from folio_desktop.docx import DocxReviewer

GDOCS = CORPUS / "superdoc_gdocs_comments_and_tracked_changes.docx"
NUMBERING = ('<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/>'
             '<w:lvlText w:val="%1."/></w:lvl></w:abstractNum><w:num w:numId="3"><w:abstractNumId w:val="0"/></w:num>')
NUMBERED = '<w:numPr><w:ilvl w:val="0"/><w:numId w:val="3"/></w:numPr>'
MARK = 'w:id="{rid}" w:author="Bo" w:date="2024-05-01T00:00:00Z"'


def run(text, deleted=False):
    tag = "w:delText" if deleted else "w:t"
    return f'<w:r><{tag} xml:space="preserve">{text}</{tag}></w:r>'


def start(cid):
    return f'<w:commentRangeStart w:id="{cid}"/>'


def end(cid):
    return f'<w:commentRangeEnd w:id="{cid}"/><w:r><w:commentReference w:id="{cid}"/></w:r>'


def comments(*ids):
    return "".join(f'<w:comment w:id="{cid}" w:author="Ann" w:date="2024-01-01T00:00:00Z"><w:p><w:r>'
                   f"<w:t>note {cid}</w:t></w:r></w:p></w:comment>" for cid in ids)


def threads(rev):
    return {t["id"]: t for t in ok(execute_tool_call("read_comments", {}, create_reviewer_bridge(rev)))["threads"]}


def changes(rev):
    return ok(execute_tool_call("read_changes", {}, create_reviewer_bridge(rev)))


def test_google_docs_comment_on_a_deletion_keeps_its_block_and_quote():
    rev = DocxReviewer.open(GDOCS)
    comment = threads(rev)["4"]  # its range starts inside the w:del around "Tracked changes"
    deletion = next(c for c in changes(rev)["changes"] if c["type"] == "deletion" and c["text"] == "Tracked changes")
    assert (comment["blockId"], comment["quote"]) == (deletion["blockId"], "Tracked changes")
    assert comment["blockId"] is not None
    # every thread of the file is anchored
    assert all(t["blockId"] and t["quote"] for t in threads(rev).values())


# (wrapper tag, is its text struck?) for each kind of tracked change a range may start or end in
KINDS = [("w:del", True), ("w:ins", False), ("w:moveFrom", True), ("w:moveTo", False)]


@pytest.mark.parametrize("tag, struck", KINDS)
def test_range_starting_inside_a_tracked_change(tag, struck):
    # "Pay " then [the change: start of comment 1, "promptly"] then " within 30 days" end of comment 1
    body = (p("Definitions.", "0000000A", ppr=NUMBERED)
            + f'<w:p w14:paraId="0000000B"><w:pPr>{NUMBERED}</w:pPr>{run("Pay ")}'
            f'<{tag} {MARK.format(rid=7)}>{start(1)}{run("promptly ", struck)}</{tag}>'
            f'{run("within 30 days")}{end(1)}</w:p>')
    rev = DocxReviewer.from_bytes(build_docx(body, numbering=NUMBERING, comments=comments(1)))
    thread = threads(rev)["1"]
    assert (thread["blockId"], thread["displayLabel"]) == ("0000000B", "2.")
    assert thread["quote"] == "promptly within 30 days"  # as the lawyer sees it: struck words included


@pytest.mark.parametrize("tag, struck", KINDS)
def test_range_ending_inside_a_tracked_change(tag, struck):
    body = (f'<w:p w14:paraId="0000000C"><w:pPr>{NUMBERED}</w:pPr>{start(2)}{run("Net ")}'
            f'<{tag} {MARK.format(rid=8)}>{run("thirty", struck)}{end(2)}</{tag}>{run(" days")}</w:p>')
    rev = DocxReviewer.from_bytes(build_docx(body, numbering=NUMBERING, comments=comments(2)))
    thread = threads(rev)["2"]
    assert (thread["blockId"], thread["displayLabel"], thread["quote"]) == ("0000000C", "1.", "Net thirty")


@pytest.mark.parametrize("tag, struck", KINDS)
def test_range_wholly_inside_a_tracked_change(tag, struck):
    body = (p("Opening.", "0000000D")
            + f'<w:p w14:paraId="0000000E"><w:pPr>{NUMBERED}</w:pPr>{run("Keep ")}'
            f'<{tag} {MARK.format(rid=9)}>{start(3)}{run("this part", struck)}{end(3)}</{tag}></w:p>')
    rev = DocxReviewer.from_bytes(build_docx(body, numbering=NUMBERING, comments=comments(3)))
    thread = threads(rev)["3"]
    assert (thread["blockId"], thread["displayLabel"], thread["quote"]) == ("0000000E", "1.", "this part")
    change = next(c for c in changes(rev)["changes"] if "this part" in c["text"])
    assert change["blockId"] == thread["blockId"]


def test_hidden_text_in_a_deletion_stays_out_of_the_quote():
    body = (f'<w:p w14:paraId="0000000F"><w:del {MARK.format(rid=4)}>{start(5)}{run("shown ", True)}'
            f'<w:r><w:rPr><w:vanish/></w:rPr><w:delText>secret</w:delText></w:r>{end(5)}</w:del>'
            f'{run("rest")}</w:p>')
    rev = DocxReviewer.from_bytes(build_docx(body, comments=comments(5)))
    thread = threads(rev)["5"]
    assert (thread["blockId"], thread["quote"]) == ("0000000F", "shown ")


def test_range_across_paragraphs_from_a_deletion():
    body = (f'<w:p w14:paraId="00000010"><w:del {MARK.format(rid=4)}>{start(6)}{run("old words", True)}</w:del>'
            f'{run("kept")}</w:p>' + f'<w:p w14:paraId="00000011">{run("next line")}{end(6)}</w:p>')
    rev = DocxReviewer.from_bytes(build_docx(body, comments=comments(6)))
    thread = threads(rev)["6"]
    assert (thread["blockId"], thread["quote"]) == ("00000010", "old wordskept\nnext line")


EMPTY_INS = f'<w:ins {MARK.format(rid=21)}><w:r><w:t></w:t></w:r></w:ins>'
EMPTY_DEL = f'<w:del {MARK.format(rid=22)}><w:r><w:rPr><w:b/></w:rPr><w:delText/></w:r><w:bookmarkStart w:id="0" ' \
            'w:name="x"/><w:bookmarkEnd w:id="0"/></w:del>'


def test_empty_revisions_are_not_listed_nor_counted():
    body = (f'<w:p w14:paraId="00000012">{run("Fee ")}{EMPTY_INS}{run("is due")}{EMPTY_DEL}'
            f'<w:ins {MARK.format(rid=23)}>{run(" monthly")}</w:ins></w:p>')
    rev = DocxReviewer.from_bytes(build_docx(body))
    listed = changes(rev)
    assert [(c["id"], c["type"], c["text"]) for c in listed["changes"]] == [("23", "insertion", " monthly")]
    assert listed["totalChanges"] == 1
    assert [c.id for c in rev.get_changes()] == [23]
    assert rev.accept_all() == 1  # the count of changes; the empty marks go too
    w = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
    assert not list(rev.document.body.iter(w + "ins", w + "del"))
    assert rev.snapshot().block("00000012").text == "Fee is due monthly"


def test_a_revision_with_an_object_but_no_text_is_still_listed():
    tab_ins = f'<w:ins {MARK.format(rid=31)}><w:r><w:tab/></w:r></w:ins>'
    break_del = f'<w:del {MARK.format(rid=32)}><w:r><w:br/></w:r></w:del>'
    note_ins = f'<w:ins {MARK.format(rid=33)}><w:r><w:footnoteReference w:id="1"/></w:r></w:ins>'
    body = f'<w:p w14:paraId="00000013">{run("A")}{tab_ins}{run("B")}{break_del}{run("C")}{note_ins}</w:p>'
    rev = DocxReviewer.from_bytes(build_docx(body))
    assert [c["id"] for c in changes(rev)["changes"]] == ["31", "32", "33"]
