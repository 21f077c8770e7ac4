"""How much a document may hold, and the counts that refuse it before any of it is built.

Every limit is checked on the bytes as they are inflated, before the part's tree is built, so a
refusal costs little more memory than the file itself (benchmarks/open_memory.py measures it: under
100 MB for every hostile shape it builds). A refusal is a DocxTooLargeError whose message names the
figure and the limit.

The package (opc.py reads the zip; the sizes are those its directory declares, then those inflated):

* the file: 512 MiB
* zip entries: 10,000
* one part, inflated: 256 MiB; all parts together: 1 GiB
* compression ratio of an XML part over 1 MiB: 250:1 (text XML compresses ~10-90:1; a zip bomb a
  thousand to one). Pictures and other binary parts have no ratio rule (a blank EMF compresses as
  well as a bomb), and are never held at open.

The markup of all the XML parts together (a tree costs ~140 bytes an element and ~250 an
attribute; 100,000 paragraphs of a heavily formatted contract hold some 6.5 million elements, most
with an end tag, and as many attributes):

* tags (start, end or empty-element; counted as the '<'): 16,000,000
* attributes (counted as the '='): 8,000,000
* bytes from one '<' to the next (one tag, text or comment): 16 MiB. The parser refuses a text or an
  attribute over 10 MB itself, but only once it has buffered it: a 50 MB attribute cost 100 MB.

What the main part holds (benchmarks/open_scaling.py: 10,000 generated paragraphs are ~500 pages
and 2.5 million characters; 80,000 open in ~9 s of processor time and less memory than python-docx):

* paragraphs (w:p), table cells and text boxes included: 100,000
* text of one paragraph (w:t and w:delText, in characters): 1,000,000
* text of the main part: 40,000,000 characters

PartScan counts them on the main part's bytes as they stream past: the paragraph starts (a regular
expression over each chunk), and the text of a paragraph only once its bytes could hold more than
the limit (text costs at least a byte a character), of all of them only when the part's bytes could
hold more than the document limit. When the part is UTF-8 with one binding of the
WordprocessingML namespace and no CDATA section, those counts are what the tree holds (a comment or
processing instruction in a w:t ends its text for both); otherwise they only refuse what is surely
over, and check_tree counts on the tree. (Markup inside a comment is counted: such a part may be
refused for what its comments say, as it was when the count was taken on the whole part's bytes.)
A part that binds the namespace more than once, or that is not in an ASCII-compatible encoding, is
counted by the parser itself (count_events) before its tree is built.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from lxml import etree

from ..errors import DocxTooLargeError
from .ooxml import STRICT_W_NS, W_NS

MAX_PACKAGE_BYTES = 512 * 1024 * 1024
MAX_ENTRIES = 10_000
MAX_PART_BYTES = 256 * 1024 * 1024
MAX_TOTAL_BYTES = 1024 * 1024 * 1024
MAX_RATIO = 250
RATIO_FLOOR_BYTES = 1024 * 1024

MAX_TAGS = 16_000_000
MAX_ATTRIBUTES = 8_000_000
MAX_STRETCH_BYTES = 16 * 1024 * 1024

MAX_PARAGRAPHS = 100_000
MAX_PARAGRAPH_CHARS = 1_000_000
MAX_TEXT_CHARS = 40_000_000

_W = "{" + W_NS + "}"
_T_P, _T_T, _T_DELTEXT = _W + "p", _W + "t", _W + "delText"
_STRICT = "{" + STRICT_W_NS + "}"
_NAMESPACES = rb"(?:" + re.escape(W_NS.encode()) + rb"|" + re.escape(STRICT_W_NS.encode()) + rb")"
# a binding of the WordprocessingML namespace (group 1: the prefix, None for the default namespace)
_W_DECLARATION = re.compile(rb"""xmlns(?::([A-Za-z_][\w.\-]*))?\s*=\s*["']""" + _NAMESPACES + rb"""["']""")
_ENCODING = re.compile(rb"""^\s*<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._\-]+)["']""")
_HEAD_BYTES = 65536
_ENTITY = re.compile(rb"&[^;&<]{1,12};")
_CONTINUATION = bytes(range(0x80, 0xC0))
_OOXML = b"http://purl.oclc.org/ooxml/"
_CDATA = b"<![CDATA["


class Markup:
    """The tags and attributes of every XML part read so far, against their limits."""

    __slots__ = ("tags", "attributes")

    def __init__(self):
        self.tags = 0
        self.attributes = 0

    def feed(self, chunk: bytes, part: str) -> None:
        self.tags += chunk.count(b"<")
        self.attributes += chunk.count(b"=")
        if self.tags > MAX_TAGS or self.attributes > MAX_ATTRIBUTES:
            what, count, limit = (("tags", self.tags, MAX_TAGS) if self.tags > MAX_TAGS
                                  else ("attributes", self.attributes, MAX_ATTRIBUTES))
            raise DocxTooLargeError(
                f"The document's markup holds more than {count:,} {what} by {part}, over the limit of {limit:,} "
                f"{what} for a document. Split it into smaller documents in Word and open them one at a time."
            )


def _chars(text: bytes) -> int:
    """Characters of UTF-8 text as the parser reads it: an entity or a character reference is one, so
    is a CR LF."""
    count = len(text.translate(None, _CONTINUATION))
    if b"&" in text:
        count -= sum(map(len, _ENTITY.findall(text))) - len(_ENTITY.findall(text))
    if b"\r" in text:
        count -= text.count(b"\r\n")
    return count


class PartScan:
    """The counts of one XML part, fed its bytes chunk by chunk as they are inflated.

    Every part: its markup (Markup) and whether it is Strict Open XML. The main part (`main`): its
    paragraphs and their text against the content limits; a paragraph over the text limit is refused
    at once, too many paragraphs or too much text once the part is read (with the figure). close()
    says whether the text must still be counted on the tree (check_tree), and `unusual` whether the
    paragraphs must be counted by the parser (count_events) before the tree is built."""

    def __init__(self, part: str, markup: Markup, main: bool = False, declared: int = 0):
        self.part = part
        self.markup = markup
        self.main = main
        self.strict = False
        self.unusual = False  # the namespace is bound twice, or the bytes are not ASCII-compatible markup
        self.exact = True  # the counts are the tree's (see the module's docstring)
        self.paragraphs = 0
        self._tail = b""  # the last bytes of the previous chunk (a name may straddle two chunks)
        self._head: bytearray | None = bytearray()  # the start of a main part, until its binding is known
        self._carry = b""  # the bytes since the last '<' (pieces run from a '<' up to the next)
        self._prefix: bytes | None = None
        self._p = self._p_last = self._t = self._t_tag = None  # paragraph start and text patterns
        self._stretch = 0  # bytes of the current paragraph so far (while it has not ended)
        self._held: list[bytes] = []  # and those bytes, while too few to hold too much text
        self._long = False  # the current paragraph's text is being counted
        self._current = 0  # characters of the current paragraph counted
        self._long_seen = False  # some paragraph was long enough in bytes to be over the limit
        self._total = 0  # characters of text of the part (counted when it could be over the limit)
        self._count_total = declared >= MAX_TEXT_CHARS
        self._stretch_bytes = 0  # bytes since the last '<'

    # -- feeding ---------------------------------------------------------------------------------

    def feed(self, chunk: bytes) -> None:
        self.markup.feed(chunk, self.part)
        first = chunk.find(b"<")
        if self._stretch_bytes + (len(chunk) if first < 0 else first) > MAX_STRETCH_BYTES:
            raise DocxTooLargeError(
                f"The part {self.part} holds more than {MAX_STRETCH_BYTES:,} bytes from one tag to the next (one "
                "text, attribute or comment that long, which no document needs); the document was refused as unsafe."
            )
        self._stretch_bytes = self._stretch_bytes + len(chunk) if first < 0 else len(chunk) - chunk.rfind(b"<") - 1
        edge = self._tail + chunk[:len(_OOXML)]
        if not self.strict:
            self.strict = _OOXML in edge or _OOXML in chunk
        if self.main and self.exact and (_CDATA in chunk or _CDATA in edge):
            self.exact = False  # a CDATA section's text is the tree's but not the patterns'
        self._tail = chunk[-len(_OOXML):]
        if not self.main:
            return
        if self._head is not None:
            self._head += chunk
            if len(self._head) < _HEAD_BYTES:
                return
            chunk = self._start()
        self._scan(chunk)

    def close(self) -> bool:
        """The end of the part; returns whether its text must still be counted on the tree."""
        if not self.main:
            return False
        if self._head is not None:
            self._scan(self._start())
        if not self.unusual:
            self._piece(self._carry, last=True)
            self._carry = b""
        if self.unusual:
            return True
        if self.paragraphs > MAX_PARAGRAPHS:
            raise _too_many(self.paragraphs, self.part)
        if self._total > MAX_TEXT_CHARS:
            raise _too_much_text(self._total, self.part, "" if self.exact else "at least ")
        return not self.exact and (self._long_seen or self._count_total)

    def _start(self) -> bytes:
        """Read the head of a main part: its encoding and the prefix of the WordprocessingML namespace;
        returns the head, to be scanned as the first chunk."""
        head, self._head = bytes(self._head), None
        body = head.lstrip(b"\xef\xbb\xbf \t\r\n")
        if head.startswith((b"\xff\xfe", b"\xfe\xff")) or head[:2] in (b"<\x00", b"\x00<") \
                or not body.startswith(b"<"):
            self.unusual = True  # UTF-16, or another encoding the patterns cannot read
            return head
        encoding = _ENCODING.match(body)
        if encoding is not None and encoding.group(1).lower() not in (b"utf-8", b"utf8"):
            self.exact = False  # ASCII markup, but its text is not counted as UTF-8
        declared = _W_DECLARATION.search(head)
        if declared is None:
            self.unusual = True
            return head
        self._prefix = declared.group(1) or b""
        prefix = re.escape(self._prefix) + b":" if self._prefix else b""
        self._p = re.compile(rb"<" + prefix + rb"p[\s/>]")
        self._p_last = re.compile(rb"(?s).*(<" + prefix + rb"p[\s/>])")  # (group 1: the last start)
        self._t = re.compile(rb"<" + prefix + rb"(?:t|delText)(?:\s[^>]*)?(?<!/)>([^<]*)")
        self._t_tag = re.compile(rb"<" + prefix + rb"(?:t|delText)(?:\s[^>]*)?(?<!/)>")
        return head

    def _scan(self, chunk: bytes) -> None:
        if self.unusual:
            return
        data = self._carry + chunk if self._carry else chunk
        cut = data.rfind(b"<")
        if cut <= 0:
            self._carry = data
            if len(data) > max(MAX_PARAGRAPH_CHARS, 1 << 16):
                self._flush()
            return
        self._carry = data[cut:]
        self._piece(data[:cut])

    # -- pieces: whole tags and whole text, from a '<' up to the next -------------------------------

    def _piece(self, piece: bytes, last: bool = False) -> None:
        if not piece or self.unusual:
            return
        if len(piece) >= MAX_PARAGRAPH_CHARS:  # in halves, at a '<': each then takes the quick way below
            mid = piece.find(b"<", len(piece) // 2)
            if mid > 0:
                self._piece(piece[:mid])
                self._piece(piece[mid:], last)
                return
        if b"xmlns" in piece:
            for declared in _W_DECLARATION.finditer(piece):
                if (declared.group(1) or b"") != self._prefix:
                    self.unusual = True  # a second prefix: the patterns cannot follow it
                    return
        if self.paragraphs > MAX_PARAGRAPHS:  # refused at close: only counted on, to say how many
            self.paragraphs += len(self._p.findall(piece))
            return
        if self._count_total:
            self._total += _chars(b"".join(self._t.findall(piece)))
        limit = MAX_PARAGRAPH_CHARS
        if len(piece) < limit:  # no paragraph that starts and ends in it can be long: count them only
            count = len(self._p.findall(piece))
            if not count:
                self._segment(piece, 0, len(piece), ends=last)
                return
            first = self._p.search(piece).start()
            self._segment(piece, 0, first, ends=True)
            self.paragraphs += count
            if self.paragraphs <= MAX_PARAGRAPHS:
                self._current = 0
                self._segment(piece, self._p_last.match(piece).start(1), len(piece), ends=last)
            return
        starts = [m.start() for m in self._p.finditer(piece)]
        if not starts:
            self._segment(piece, 0, len(piece), ends=last)
            return
        self._segment(piece, 0, starts[0], ends=True)
        number = self.paragraphs
        self.paragraphs += len(starts)
        if self.paragraphs > MAX_PARAGRAPHS:
            return
        for a, b in zip(starts, starts[1:]):
            number += 1
            if b - a >= limit:  # a paragraph whose bytes could hold too much text
                self._long_seen = True
                self._current = 0
                self._count(piece, a, b, number)
        self._current = 0
        self._segment(piece, starts[-1], len(piece), ends=last)

    def _segment(self, piece: bytes, start: int, end: int, ends: bool) -> None:
        """Bytes [start, end) of a piece belong to the current paragraph; `ends`: it ends there."""
        size = end - start
        if self._long:
            self._count(piece, start, end)
        elif self._stretch + size >= MAX_PARAGRAPH_CHARS:
            self._long = self._long_seen = True
            for held in self._held:
                self._count(held, 0, len(held))
            self._held = []
            self._count(piece, start, end)
        elif not ends and size:
            self._held.append(piece[start:end])
        self._stretch += size
        if ends:
            self._stretch = self._current = 0
            self._held = []
            self._long = False

    def _count(self, data: bytes, start: int, end: int, number: int | None = None) -> None:
        for match in self._t.finditer(data, start, end):
            self._current += _chars(match.group(1))
            if self._current > MAX_PARAGRAPH_CHARS:
                raise _too_long(self.paragraphs if number is None else number, self.part)

    def _flush(self) -> None:
        """The carry grew past a paragraph's limit without a '<': the inside of one huge tag, text or
        comment. A w:t's text is counted, any other dropped; the tag that opened it is kept."""
        data = self._carry
        gt = data.find(b">")
        if gt < 0:  # inside a tag: its name is all the patterns need (a binding in it: see above)
            if b"xmlns" in data[1:]:
                self.unusual = True
            self._carry = data[:256] + data[-16:]
            return
        tag, text = data[:gt + 1], data[gt + 1:]
        cut = len(text) - 16  # the last bytes wait for the next chunk: they may open an entity or a CR LF
        amp = text.rfind(b"&", cut)
        body, tail = text[:amp if amp >= 0 else cut], text[amp if amp >= 0 else cut:]
        if self._t_tag.fullmatch(tag):
            chars = _chars(body)
            self._total += chars if self._count_total else 0
            if not self._long:  # (it is past the limit in bytes now)
                self._long = self._long_seen = True
                for held in self._held:
                    self._count(held, 0, len(held))
                self._held = []
            self._current += chars
            if self._current > MAX_PARAGRAPH_CHARS:
                raise _too_long(self.paragraphs, self.part)
        self._stretch += len(body)
        self._carry = tag + tail


def count_events(chunks: Iterable[bytes], part: str) -> bool:
    """Count the paragraphs and their text with the parser itself, on a tree it clears as it goes
    (for a part whose bytes the patterns cannot read); refuses what is over the limits. Returns
    whether the count was made (False: the part is not well-formed, which its tree will report)."""
    tags = [ns + name for ns in (_W, _STRICT) for name in ("p", "t", "delText")]
    parser = etree.XMLPullParser(events=("start", "end"), tag=tags, resolve_entities=False, no_network=True,
                                 load_dtd=False, huge_tree=False)
    count = current = total = 0
    try:
        for chunk in chunks:
            parser.feed(chunk)
            for event, el in parser.read_events():
                if el.tag in (_T_P, _STRICT + "p"):
                    if event == "start":
                        count += 1
                        current = 0
                        if count > MAX_PARAGRAPHS:  # (what the tree holds past here is not counted)
                            raise _too_many(MAX_PARAGRAPHS, part, "more than ")
                        continue
                    el.clear(keep_tail=True)
                    parent = el.getparent()
                    while parent is not None and el.getprevious() is not None:
                        del parent[0]
                    continue
                if event == "end":
                    n = len(el.text or "")
                    current += n
                    total += n
                    el.clear(keep_tail=True)
                    if current > MAX_PARAGRAPH_CHARS:
                        raise _too_long(count, part)
                    if total > MAX_TEXT_CHARS:
                        raise _too_much_text(total, part, "more than ")
        parser.close()
    except etree.XMLSyntaxError:
        return False
    return True


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
        raise _too_much_text(total, part)


def _too_long(number: int, part: str) -> DocxTooLargeError:
    return DocxTooLargeError(
        f"Paragraph {number:,} of the document holds more than {MAX_PARAGRAPH_CHARS:,} characters of text, over "
        f"the limit of {MAX_PARAGRAPH_CHARS:,} for one paragraph ({part}). Split it into smaller paragraphs in "
        "Word, or open a shorter part of the document."
    )


def _too_many(count: int, part: str, more: str = "") -> DocxTooLargeError:
    return DocxTooLargeError(
        f"The document has {more}{count:,} paragraphs, over the limit of {MAX_PARAGRAPHS:,} paragraphs ({part}). "
        "Split it into smaller documents in Word and open them one at a time."
    )


def _too_much_text(total: int, part: str, more: str = "") -> DocxTooLargeError:
    return DocxTooLargeError(
        f"The document holds {more}{total:,} characters of text, over the limit of {MAX_TEXT_CHARS:,} "
        f"characters ({part}). Split it into smaller documents in Word and open them one at a time."
    )
