"""How much a document may hold: the paragraph count and text sizes past which it is refused.

Reading costs time in proportion to paragraphs and text (paraIds, hashes, labels, pages), so a
document past these limits is refused before any of that work, with the figure and the limit in
the message. The package limits (file, entries, part sizes, compression) are in opc.py.

Limits (benchmarks/open_scaling.py builds contracts in code: 10,000 paragraphs are ~500 pages and
2.5 million characters; one of 100,000 opens in 20 s of processor time, 1.2 GB, on a shared 2-core
machine, 50 s wall under its load of 5):

* paragraphs (w:p) in the main part, table cells and text boxes included: 100,000
* text of one paragraph (w:t and w:delText, in characters): 1,000,000
* text of the main part: 40,000,000 characters

The paragraph count and the text of any paragraph long enough in bytes to be over the limit are
taken on the main part's bytes (regular-expression scans, ~0.2 s for 60 MB) as soon as the package
is read, before any paragraph is looked at; the text sizes are counted exactly on the tree, and
only when the bytes could hold that much text at all (walking the tree costs five times the scan).
"""

from __future__ import annotations

import re

from lxml import etree

from ..errors import DocxTooLargeError
from .ooxml import W_NS

MAX_PARAGRAPHS = 100_000
MAX_PARAGRAPH_CHARS = 1_000_000
MAX_TEXT_CHARS = 40_000_000

_W = "{" + W_NS + "}"
_T_P, _T_T, _T_DELTEXT = _W + "p", _W + "t", _W + "delText"
# the prefix the root binds to the WordprocessingML namespace (group 1 empty: the default namespace)
_W_DECLARATION = re.compile(rb"""xmlns(?::([A-Za-z_][\w.\-]*))?\s*=\s*["']""" + re.escape(W_NS.encode()) + rb"""["']""")
_HEAD_BYTES = 65536
_ENTITY = re.compile(rb"&[^;&<]{1,12};")


def scan_bytes(data: bytes, part: str) -> bool:
    """Refuse a part holding more than MAX_PARAGRAPHS paragraphs, counted on its bytes. Returns
    whether the text sizes must be counted on the tree (check_tree): the bytes could hold a
    paragraph or a document over the text limits, or the count could not be taken on bytes."""
    head = data[:_HEAD_BYTES]
    declared = _W_DECLARATION.search(head)
    if declared is None or head.startswith((b"\xff\xfe", b"\xfe\xff")) or head[:2] in (b"<\x00", b"\x00<"):
        return True  # an unusual encoding or binding: the tree is counted instead
    prefix = declared.group(1)
    name = re.escape(prefix) + rb":p" if prefix else rb"p"
    starts = [m.start() for m in re.finditer(rb"<" + name + rb"[\s/>]", data)]
    if len(starts) > MAX_PARAGRAPHS:
        raise _too_many(len(starts), part)
    starts.append(len(data))
    long_stretches = [(i, a, b) for i, (a, b) in enumerate(zip(starts, starts[1:]), start=1)
                      if b - a >= MAX_PARAGRAPH_CHARS]
    if long_stretches:
        text = re.compile(rb"<" + (re.escape(prefix) + rb":" if prefix else b"") + rb"(?:t|delText)(?:\s[^>]*)?(?<!/)>([^<]*)<")
        for number, a, b in long_stretches:
            if _text_chars(text, data, a, b) > MAX_PARAGRAPH_CHARS:
                raise _too_long(number, part)
    # every character of a paragraph's text takes at least a byte between its start and the next
    # paragraph's start, so when no such stretch is that long, no paragraph can be over the limit
    # (the count on bytes above is a first look: the tree has the last word)
    return bool(long_stretches) or len(data) >= MAX_TEXT_CHARS


def _text_chars(text: re.Pattern, data: bytes, start: int, end: int) -> int:
    """Characters of the w:t and w:delText text between two byte offsets (an entity is one),
    counted until they pass the paragraph limit."""
    count = 0
    for match in text.finditer(data, start, end):
        chunk = match.group(1)
        count += len(chunk.decode("utf-8", "replace"))
        if b"&" in chunk:
            count -= sum(len(entity) - 1 for entity in _ENTITY.findall(chunk))
        if count > MAX_PARAGRAPH_CHARS:
            break
    return count


def check_tree(root: etree._Element, part: str) -> None:
    """Refuse a parsed part over the paragraph or text limits. A paragraph's text is that of its
    w:t and w:delText, up to the next paragraph that starts (a text box's paragraphs count alone)."""
    count = 0
    total = 0
    current = 0
    for el in root.iter(_T_P, _T_T, _T_DELTEXT):
        if el.tag == _T_P:
            count += 1
            current = 0
            continue
        text = el.text
        if text:
            n = len(text)
            current += n
            total += n
            if current > MAX_PARAGRAPH_CHARS:
                raise _too_long(count, part)
    if count > MAX_PARAGRAPHS:
        raise _too_many(count, part)
    if total > MAX_TEXT_CHARS:
        raise DocxTooLargeError(
            f"The document holds {total:,} characters of text, over the limit of {MAX_TEXT_CHARS:,} "
            f"characters ({part}). Split it into smaller documents in Word and open them one at a time."
        )


def _too_long(number: int, part: str) -> DocxTooLargeError:
    return DocxTooLargeError(
        f"Paragraph {number:,} of the document holds more than {MAX_PARAGRAPH_CHARS:,} characters of text, over "
        f"the limit of {MAX_PARAGRAPH_CHARS:,} for one paragraph ({part}). Split it into smaller paragraphs in "
        "Word, or open a shorter part of the document."
    )


def _too_many(count: int, part: str) -> DocxTooLargeError:
    return DocxTooLargeError(
        f"The document has {count:,} paragraphs, over the limit of {MAX_PARAGRAPHS:,} paragraphs ({part}). "
        "Split it into smaller documents in Word and open them one at a time."
    )
