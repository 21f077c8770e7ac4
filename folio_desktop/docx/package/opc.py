"""The OPC package: zip entries, relationships, content types, the package as bytes (files.py writes them to disk;
xml_parts.py parses a part's bytes safely).

Every .docx is hostile until proven otherwise. This module is the only place that touches the zip
and the only caller of xml_parts, which turns part bytes into lxml trees, so the limits (limits.py) hold everywhere.

Every entry is checked at open, once, in stored order: its declared sizes against the limits before
a byte is inflated, then inflated in 1 MiB chunks under a running cap (a header that understates the
size cannot make the read allocate past it) with its CRC checked. The chunks of an XML part stream
through its counts (limits.PartScan: markup, and the main part's paragraphs and text), so a part over
a limit is refused before its tree is built and without being held; then it is parsed (from the bytes
when they are few, else inflated again into the parser). The trees of the package's bookkeeping and
of the WordprocessingML parts are kept; other parts (custom XML, document properties, the theme)
are parsed again when asked for. Inflated bytes are never kept: a save inflates an unchanged part
again. Damage in an essential part (damage.ESSENTIAL) refuses the open, naming the part; damage
elsewhere (theme, font table, settings, custom XML, document properties) opens with a warning in
`Package.warnings`, and at save the part is kept as it was or rebuilt minimal. The limits guard what
we read, never what we write. XML is parsed with entity resolution, DTD loading and network access
off, and a part that declares a DTD at all is refused (OOXML never needs one).
"""

from __future__ import annotations

import copy
import io
import posixpath
import zipfile
import zlib
from dataclasses import dataclass
from urllib.parse import unquote

from lxml import etree

from ..errors import CorruptDocxError, DocxTooLargeError, EncryptedDocxError, NotADocxError
from . import limits
from .damage import (
    DAMAGED_PART_CHOICES,
    KEEP,
    REBUILD,
    DamagedPart,
    damage_reason,
    essential_parts,
    kind_of,
    stand_in_for,
)
from .limits import Markup, PartScan
from .strict import to_transitional
from .xml_parts import parse_xml, parse_xml_chunks, serialize_xml

HOLD_BYTES = 4 * 1024 * 1024  # an XML part up to this size is parsed from its bytes; a larger one is inflated again
_ZIP_ERRORS = (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError, NotImplementedError)

CFB_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
ZIP_MAGICS = (b"PK\x03\x04", b"PK\x05\x06")

REL_NS = "http://schemas.openxmlformats.org/package/2006/relationships"
CT_NS = "http://schemas.openxmlformats.org/package/2006/content-types"
RT_OFFICE_DOCUMENT = (
    "http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument",
    "http://purl.oclc.org/ooxml/officeDocument/relationships/officeDocument",
)
MAIN_CONTENT_TYPES = (
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml",
    "application/vnd.ms-word.document.macroEnabled.main+xml",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml",
    "application/vnd.ms-word.template.macroEnabledTemplate.main+xml",
)

_BOOKKEEPING = ("[content_types].xml",)


def _keeps_tree(name: str, content_type: str) -> bool:
    """Whether an XML part's tree is kept from the open: the package's bookkeeping and the
    WordprocessingML parts, which reading and editing use; any other (custom XML, document properties,
    the theme) is parsed again when asked for."""
    low = name.lower()
    return low in _BOOKKEEPING or low.endswith(".rels") or "wordprocessingml" in content_type


def _is_xml(name: str, content_type: str) -> bool:
    """Whether a part is XML (parsed and kept at open), by its content type, else its extension."""
    if content_type:
        return content_type.endswith("xml")
    return name.lower().endswith((".xml", ".rels"))


@dataclass(frozen=True)
class Relationship:
    id: str
    type: str
    target: str  # resolved part name (no leading slash) or the raw target when external
    external: bool


def _resolve_target(source_part: str, target: str) -> str:
    target = unquote(target)
    if target.startswith("/"):
        return posixpath.normpath(target.lstrip("/"))
    base = posixpath.dirname(source_part)
    return posixpath.normpath(posixpath.join(base, target)).lstrip("/")


def rels_name_for(part_name: str) -> str:
    folder, name = posixpath.split(part_name)
    return posixpath.join(folder, "_rels", name + ".rels")


def sniff(data: bytes) -> None:
    """Refuse what is plainly not a .docx before any zip parsing, with the specific reason."""
    if data.startswith(CFB_MAGIC):
        # An encrypted OOXML package is a CFB container holding an "EncryptedPackage" stream
        # (directory names are UTF-16LE). Anything else in CFB is a legacy binary Office file.
        if "EncryptedPackage".encode("utf-16-le") in data or b"EncryptionInfo" in data.replace(b"\x00", b""):
            raise EncryptedDocxError(
                "This document is password-protected (encrypted). Open it in Word, remove the "
                "password (File > Info > Protect Document), save, and open it again."
            )
        raise NotADocxError(
            "This is a legacy Word 97-2003 .doc file (or another binary Office file), not a .docx. "
            "Open it in Word or LibreOffice and save it as .docx first."
        )
    if not data.startswith(ZIP_MAGICS):
        if data[:5].lower() in (b"{\\rtf",):
            kind = "an RTF file"
        elif data.lstrip()[:1] == b"<":
            kind = "an XML or HTML file"
        elif data.startswith(b"%PDF"):
            kind = "a PDF file"
        elif not data:
            kind = "empty"
        else:
            kind = "not a zip package"
        raise NotADocxError(f"This file is {kind}, not a Word .docx document.")


class Package:
    """A .docx zip held in memory. Parts are raw bytes until someone asks for their XML tree."""

    def __init__(self, data: bytes):
        if len(data) > limits.MAX_PACKAGE_BYTES:
            raise DocxTooLargeError(
                f"The file is {len(data):,} bytes, over the {limits.MAX_PACKAGE_BYTES:,}-byte limit for a document."
            )
        sniff(data)
        self._data = data
        try:
            self._zip = zipfile.ZipFile(io.BytesIO(data))
            infos = self._zip.infolist()
        except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError) as exc:
            raise CorruptDocxError(f"The file is a damaged zip package and cannot be opened ({exc}).") from None
        if len(infos) > limits.MAX_ENTRIES:
            raise DocxTooLargeError(
                f"The package has {len(infos):,} entries, over the {limits.MAX_ENTRIES:,}-entry limit."
            )
        self.entries = infos  # every entry, folders included, in stored order (for saving)
        self.infos: list[zipfile.ZipInfo] = []
        self._by_lower: dict[str, zipfile.ZipInfo] = {}
        for info in infos:
            if info.is_dir():
                continue
            if info.flag_bits & 0x1:
                raise EncryptedDocxError(
                    f"The zip entry {info.filename} is encrypted; this is not a document Word writes."
                )
            self.infos.append(info)
            self._by_lower.setdefault(info.filename.lower(), info)
        # bytes held: binary parts once read, Strict parts as translated, damaged parts' stand-ins
        self._raw: dict[str, bytes] = {}
        self._trees: dict[str, etree._Element] = {}
        self._strict: set[str] = set()  # parts in Strict Open XML, translated whenever read (strict.py)
        self._markup = Markup()
        self._xml_names: set[str] | None = None
        self._total = 0
        self.dirty: set[str] = set()
        self.added: dict[str, bytes] = {}
        self._rels: dict[str, list[Relationship]] = {}
        self._failed: dict[str, CorruptDocxError] = {}  # entries that failed their check, until classified
        self.damaged: dict[str, DamagedPart] = {}  # non-essential parts that failed (opened with a warning)
        self.from_strict = False  # the parts were Strict Open XML, translated as read (strict.py)
        # main document part -> whether its text must still be counted on the tree (limits.py)
        self.text_to_count: dict[str, bool] = {}
        self._check_every_entry()

    @property
    def warnings(self) -> list[str]:
        """One sentence per damaged non-essential part, naming it, for the lawyer; and one when the
        document was Strict Open XML (it will be saved as a standard Word document)."""
        strict = ["This document is in Strict Open XML format. It was read as a standard Word document "
                  "and will be saved as one (Word opens both)."] if self.from_strict else []
        return strict + [d.warning() for d in self.damaged.values()]

    # -- the check at open -----------------------------------------------------------------------

    def _check_every_entry(self) -> None:
        """Read every entry once, now: declared sizes first, then inflate with CRC check, counting and
        parsing every XML part. Damage in an essential part raises; elsewhere it becomes a warning and
        a stand-in."""
        for info in self.infos:
            if info.file_size > limits.MAX_PART_BYTES:
                raise DocxTooLargeError(
                    f"The part {info.filename} inflates to more than {limits.MAX_PART_BYTES:,} bytes (its zip entry "
                    f"says {info.file_size:,}); the document was refused as unsafe."
                )
        declared = sum(i.file_size for i in self.infos)
        if declared > limits.MAX_TOTAL_BYTES:
            raise DocxTooLargeError(
                f"The package inflates to more than {limits.MAX_TOTAL_BYTES:,} bytes in total (its zip directory "
                f"says {declared:,}); the document was refused as unsafe."
            )
        ct = self._by_lower.get("[content_types].xml")
        if ct is not None:  # first: it says which other parts are XML
            self._check_entry(ct, xml=True, keep=True)
            if ct.filename in self._failed:
                raise self._failed[ct.filename]
        types = self.content_types()
        xml_names = self._xml_names = {i.filename for i in self.infos
                                       if _is_xml(i.filename, types.get(i.filename.lower(), ""))}
        for info in self.infos:
            if info is not ct:
                ctype = types.get(info.filename.lower(), "")
                self._check_entry(info, xml=info.filename in xml_names, main=ctype in MAIN_CONTENT_TYPES,
                                  keep=_keeps_tree(info.filename, ctype))
        if not self._failed:
            return
        failed = {n.lower(): n for n in self._failed}
        if "_rels/.rels" in failed:  # these three say what the rest is, so they are checked first
            raise self._failed[failed["_rels/.rels"]]
        main = self.main_document_part()
        for low in (main.lower(), rels_name_for(main).lower()):
            if low in failed:
                raise self._failed[failed[low]]
        essential = essential_parts(self.rels, main)
        for low, name in failed.items():
            if low in essential:
                raise self._failed[name]
        for name, error in self._failed.items():
            label, known = kind_of(self._readable_rels, main, name)
            salvage = self._salvage(self._by_lower[name.lower()])
            stand_in = stand_in_for(salvage, known) if name in xml_names else None
            self.damaged[name] = DamagedPart(name, label, damage_reason(error, name), salvage, stand_in)
            if stand_in is not None:
                self._raw[name] = stand_in
                self._trees[name] = parse_xml(stand_in, name)
        self._failed.clear()
        self._rels.clear()

    def _readable_rels(self, source_part: str) -> list[Relationship]:
        try:
            return self.rels(source_part)
        except CorruptDocxError:  # that rels part is damaged itself
            return []

    def _check_entry(self, info: zipfile.ZipInfo, xml: bool, main: bool = False, keep: bool = True) -> None:
        """Refuse an entry past the limits from its declared sizes, before inflating it; then inflate
        it: an XML part through its counts, then parsed (its tree kept when `keep`); anything else only
        CRC-checked and dropped."""
        name = info.filename
        if xml and info.file_size > limits.RATIO_FLOOR_BYTES \
                and info.file_size > limits.MAX_RATIO * max(info.compress_size, 1):
            raise DocxTooLargeError(
                f"The part {name} expands more than {limits.MAX_RATIO}:1 when inflated ({info.compress_size:,} "
                f"to {info.file_size:,} bytes), as a zip bomb does; the document was refused as unsafe."
            )
        if self._by_lower[name.lower()] is not info:
            # a second entry of the same name: never read (the first is the part), and saved with the
            # first's bytes, so its damage costs nothing; its size still counts
            try:
                self._inflate(info, keep=False, ratio=xml, count=True)
            except CorruptDocxError:
                pass
            return
        if not xml:
            try:
                self._inflate(info, keep=False, ratio=False, count=True)
            except CorruptDocxError as exc:
                self._failed[name] = exc
            return
        scan = PartScan(name, self._markup, main=main, declared=info.file_size)
        held: list[bytes] | None = [] if info.file_size <= HOLD_BYTES else None
        try:
            for chunk in self._chunks(info, ratio=True, count=True):
                scan.feed(chunk)
                if held is not None:
                    held.append(chunk)
        except CorruptDocxError as exc:
            self._failed[name] = exc
            return
        count_text = scan.close()  # past a content limit a main part is refused here, before its tree
        data = b"".join(held) if held is not None else None
        del held
        if scan.strict:  # read (and saved) in the transitional vocabulary: strict.py
            self._strict.add(name)
            self.from_strict = True
            data = self._raw[name] = to_transitional(data if data is not None else self._inflate(
                info, keep=True, ratio=False, count=False))
        if main:
            if scan.unusual and limits.count_events(self._stream(name, data), name):
                count_text = False
            self.text_to_count[name] = count_text
        try:
            tree = parse_xml(data, name) if data is not None else parse_xml_chunks(self._stream(name), name)
        except CorruptDocxError as exc:
            self._failed[name] = exc
            return
        if keep:
            self._trees[name] = tree

    def _stream(self, name: str, data: bytes | None = None):
        """A part's bytes in chunks: `data` when given, the held bytes, else inflated again (the entry
        was checked at open)."""
        data = data if data is not None else self._raw.get(name)
        if data is not None:
            yield from (data[i:i + (1 << 20)] for i in range(0, max(len(data), 1), 1 << 20))
            return
        yield from self._chunks(self._by_lower[name.lower()], ratio=False, count=False)

    def _salvage(self, info: zipfile.ZipInfo) -> bytes:
        """What a damaged entry inflates to, CRC unchecked, up to the first broken byte (never past
        its declared size): "keep" writes exactly this back."""
        if info.filename in self._raw:
            return self._raw[info.filename]
        data = self._raw_entry(info)
        return to_transitional(data) if info.filename in self._strict else data

    def _raw_entry(self, info: zipfile.ZipInfo) -> bytes:
        data = self._data
        start = info.header_offset
        if len(data) < start + 30 or data[start:start + 4] != b"PK\x03\x04":
            return b""
        body = start + 30 + int.from_bytes(data[start + 26:start + 28], "little") \
            + int.from_bytes(data[start + 28:start + 30], "little")
        raw = data[body:body + info.compress_size]
        if info.compress_type == zipfile.ZIP_STORED:
            return raw[:info.file_size]
        if info.compress_type != zipfile.ZIP_DEFLATED:
            return b""
        inflater = zlib.decompressobj(-15)
        out = bytearray()
        try:
            while raw and len(out) < info.file_size:
                out += inflater.decompress(raw, min(1 << 20, info.file_size - len(out)))
                raw = inflater.unconsumed_tail
                if inflater.eof:
                    break
        except zlib.error:
            pass
        return bytes(out[:info.file_size])

    # -- raw parts -----------------------------------------------------------------------

    def canonical_name(self, name: str) -> str:
        """The entry name as stored in the zip (OPC part names are case-insensitive)."""
        info = self._by_lower.get(name.lower())
        return info.filename if info is not None else name

    def has_part(self, name: str) -> bool:
        return name.lower() in self._by_lower or name in self.added

    def part_names(self) -> list[str]:
        return [i.filename for i in self.infos] + [n for n in self.added if n.lower() not in self._by_lower]

    def read(self, name: str) -> bytes:
        """Uncompressed bytes of a part, inflated again (every entry was checked at open; none is held
        from it). A picture or other binary part is kept once asked for; an XML part is not (its tree
        is what the engine reads), except one translated from Strict."""
        if name in self.added:
            return self.added[name]
        info = self._by_lower.get(name.lower())
        if info is None:
            raise KeyError(name)
        key = info.filename
        if key in self._raw:
            return self._raw[key]
        damaged = self.damaged.get(key)
        if damaged is not None:  # a damaged picture: its bytes as read (it draws as a placeholder)
            return damaged.salvage
        data = self._inflate(info, keep=True, ratio=False, count=False)
        if not self._is_xml_part(key):
            self._raw[key] = data
        return data

    def _is_xml_part(self, name: str) -> bool:
        if self._xml_names is None:
            types = self.content_types()
            self._xml_names = {i.filename for i in self.infos if _is_xml(i.filename, types.get(i.filename.lower(), ""))}
        return name in self._xml_names

    def _inflate(self, info: zipfile.ZipInfo, *, keep: bool, ratio: bool, count: bool) -> bytes:
        """An entry's bytes (`keep`), or only checked (the chunks dropped as they come): _chunks."""
        if keep:
            return b"".join(self._chunks(info, ratio=ratio, count=count))
        for _chunk in self._chunks(info, ratio=ratio, count=count):
            pass
        return b""

    def _chunks(self, info: zipfile.ZipInfo, *, ratio: bool, count: bool):
        """Inflate one entry in 1 MiB chunks under a running cap: the declared size (already checked
        against the limits), so a header that lies cannot make this allocate past it; zipfile checks
        the CRC at the end. `ratio`: the zip-bomb ratio rule (XML input only). `count`: add to the
        package total."""
        size = 0
        cap = min(info.file_size, limits.MAX_PART_BYTES)
        try:
            stream = self._zip.open(info)
        except _ZIP_ERRORS as exc:
            raise self._broken(info, exc) from None
        with stream:
            while True:
                try:
                    chunk = stream.read(1 << 20)
                except _ZIP_ERRORS as exc:
                    raise self._broken(info, exc) from None
                if not chunk:
                    break
                size += len(chunk)
                if size > cap:
                    raise DocxTooLargeError(
                        f"The part {info.filename} inflates to more than {cap:,} bytes; "
                        "the document was refused as unsafe."
                    )
                if ratio and size > limits.RATIO_FLOOR_BYTES and size > limits.MAX_RATIO * max(info.compress_size, 1):
                    raise DocxTooLargeError(
                        f"The part {info.filename} expands more than {limits.MAX_RATIO}:1 when inflated, "
                        "as a zip bomb does; the document was refused as unsafe."
                    )
                if count and self._total + size > limits.MAX_TOTAL_BYTES:
                    raise DocxTooLargeError(
                        f"The package inflates to more than {limits.MAX_TOTAL_BYTES:,} bytes in total; "
                        "the document was refused as unsafe."
                    )
                yield chunk
        if count:
            self._total += size

    @staticmethod
    def _broken(info: zipfile.ZipInfo, exc: Exception) -> CorruptDocxError:
        return CorruptDocxError(f"The part {info.filename} is damaged inside the zip ({exc}).", info.filename)

    # -- XML -------------------------------------------------------------------------------

    def xml(self, name: str) -> etree._Element:
        """The parsed tree of a part (cached; edits to it are saved once the part is marked dirty)."""
        key = self.canonical_name(name)
        tree = self._trees.get(key)
        if tree is None:
            if key in self._failed:  # asked for while the open still classifies the damage
                raise self._failed[key]
            if key in self.added or key in self._raw:
                tree = parse_xml(self.read(key), key)
            else:
                info = self._by_lower.get(key.lower())
                if info is None:
                    raise KeyError(name)
                tree = parse_xml_chunks(self._stream(key), key) if info.file_size > HOLD_BYTES \
                    else parse_xml(self.read(key), key)
            self._trees[key] = tree
        return tree

    def main_tree(self, name: str) -> tuple[etree._Element, bool]:
        """The main part's tree, and whether its text must still be counted on it (limits.check_tree).
        A main part its content type did not name was not counted at open: it is now, on its bytes,
        before its tree is built (or kept)."""
        key = self.canonical_name(name)
        count_text = self.text_to_count.get(key)
        if count_text is None:
            info = self._by_lower[key.lower()]
            scan = PartScan(key, Markup(), main=True, declared=info.file_size)
            for chunk in self._stream(key):
                scan.feed(chunk)
            count_text = scan.close()
            if scan.unusual and limits.count_events(self._stream(key), key):
                count_text = False
            self.text_to_count[key] = count_text
        return self.xml(key), count_text

    def mark_dirty(self, name: str) -> None:
        self.dirty.add(self.canonical_name(name))

    def add_part(self, name: str, data: bytes | etree._Element, content_type: str) -> None:
        """Add a new part (bytes, or an XML tree that is serialized on save) with its content type."""
        if isinstance(data, bytes):
            self.added[name] = data
        else:
            self.added[name] = b""
            self._trees[name] = data
            self.dirty.add(name)
        ct_root = self.xml("[Content_Types].xml")
        override = etree.SubElement(ct_root, f"{{{CT_NS}}}Override")
        override.set("PartName", "/" + name)
        override.set("ContentType", content_type)
        self.mark_dirty("[Content_Types].xml")

    def add_relationship(self, source_part: str, rel_type: str, target_part: str) -> str:
        """Relate source_part to target_part; returns the new relationship id."""
        rels_part = "_rels/.rels" if source_part == "" else rels_name_for(source_part)
        if not self.has_part(rels_part):
            root = etree.Element(f"{{{REL_NS}}}Relationships", nsmap={None: REL_NS})
            self.added[rels_part] = b""
            self._trees[rels_part] = root
            self.dirty.add(rels_part)
        root = self.xml(rels_part)
        taken = {el.get("Id") for el in root}
        n = len(taken) + 1
        while f"rId{n}" in taken:
            n += 1
        rid = f"rId{n}"
        el = etree.SubElement(root, f"{{{REL_NS}}}Relationship")
        el.set("Id", rid)
        el.set("Type", rel_type)
        base = posixpath.dirname(source_part)
        el.set("Target", posixpath.relpath(target_part, base) if base else target_part)
        self.mark_dirty(rels_part)
        self._rels.pop(source_part, None)
        return rid

    # -- checkpoints (undo, atomic batches, dry runs) ----------------------------------------------

    def checkpoint(self, names: list[str], pack=copy.deepcopy) -> dict:
        """The named parts' trees (those parsed), every relationships tree and the content types, each
        through `pack` (a deep copy by default), and the bookkeeping, for restore() (the trees as they
        were: unpack what `pack` made first)."""
        trees = {}
        for name in names:
            key = self.canonical_name(name)
            if key in self._trees:
                trees[key] = pack(self._trees[key])
        ct = self._trees.get("[Content_Types].xml")
        return {"trees": trees, "dirty": set(self.dirty), "added": dict(self.added),
                "content_types": pack(ct) if ct is not None else None,
                "rels_trees": {k: pack(v) for k, v in self._trees.items() if k.endswith(".rels")}}

    def restore(self, state: dict) -> None:
        for name in list(self._trees):
            if name in self.added and name not in state["added"]:
                del self._trees[name]
        for name, tree in state["trees"].items():
            self._trees[name] = tree
        for name, tree in state["rels_trees"].items():
            self._trees[name] = tree
        if state["content_types"] is not None:
            self._trees["[Content_Types].xml"] = state["content_types"]
        self.added = dict(state["added"])
        self.dirty = set(state["dirty"])
        self._rels.clear()

    def keep_parts(self, names: list[str]) -> dict[str, bytes]:
        """The named parts' trees as they are now, serialized and compressed, for put_parts(); a part
        the package does not have, or cannot read, is left out (an edit cannot have changed it)."""
        kept = {}
        for name in names:
            key = self.canonical_name(name)
            if key in kept or not self.has_part(key):
                continue
            try:
                tree = self.xml(key)
            except CorruptDocxError:
                continue
            kept[key] = zlib.compress(serialize_xml(tree), 1)
        return kept

    def put_parts(self, kept: dict[str, bytes]) -> dict[str, bytes]:
        """Give the parts the trees keep_parts() kept; returns them as they were, kept the same way."""
        now = self.keep_parts(list(kept))
        for name, data in kept.items():
            self._trees[name] = parse_xml(zlib.decompress(data), name)
        self._rels.clear()
        return now

    def bookkeeping(self) -> tuple:
        """Which parts are dirty and which were added, for put_bookkeeping()."""
        return frozenset(self.dirty), dict(self.added), {}

    def put_bookkeeping(self, books: tuple) -> tuple:
        """Set the dirty and added parts back as bookkeeping() saw them: a part added since goes (its
        tree kept, compressed, in what this returns), one that comes back gets its tree from `books`;
        returns the bookkeeping as it was."""
        dirty, added, trees = books
        gone = {}
        for name in [n for n in self.added if n not in added]:
            tree = self._trees.pop(name, None)
            if tree is not None:
                gone[name] = zlib.compress(serialize_xml(tree), 1)
        now = (frozenset(self.dirty), dict(self.added), gone)
        for name, data in trees.items():
            if name not in self.added:
                self._trees[name] = parse_xml(zlib.decompress(data), name)
        self.dirty, self.added = set(dirty), dict(added)
        self._rels.clear()
        return now

    # -- relationships -----------------------------------------------------------------------

    def rels(self, source_part: str = "") -> list[Relationship]:
        """Relationships of a part ('' = the package itself), in document order."""
        if source_part in self._rels:
            return self._rels[source_part]
        rels_part = "_rels/.rels" if source_part == "" else rels_name_for(source_part)
        result: list[Relationship] = []
        if self.has_part(rels_part):
            root = self.xml(rels_part)
            for el in root.iter(f"{{{REL_NS}}}Relationship"):
                rid, rtype, target = el.get("Id"), el.get("Type"), el.get("Target")
                if not rid or not rtype or target is None:
                    continue
                external = el.get("TargetMode") == "External"
                resolved = target if external else _resolve_target(source_part, target)
                result.append(Relationship(rid, rtype, resolved, external))
        self._rels[source_part] = result
        return result

    def related(self, source_part: str, rel_type_suffix: str) -> list[Relationship]:
        """Internal relationships of a part whose type ends with '/<suffix>' (transitional or strict)."""
        return [
            r
            for r in self.rels(source_part)
            if not r.external and r.type.rsplit("/", 1)[-1] == rel_type_suffix and self.has_part(r.target)
        ]

    def content_types(self) -> dict[str, str]:
        """Part name (lower case) -> content type, overrides over defaults by extension."""
        if not self.has_part("[Content_Types].xml"):
            return {}
        root = self.xml("[Content_Types].xml")
        defaults = {
            (el.get("Extension") or "").lower(): el.get("ContentType", "")
            for el in root.iter(f"{{{CT_NS}}}Default")
        }
        overrides = {
            (el.get("PartName") or "").lstrip("/").lower(): el.get("ContentType", "")
            for el in root.iter(f"{{{CT_NS}}}Override")
        }
        result = {}
        for name in self.part_names():
            low = name.lower()
            ext = low.rsplit(".", 1)[-1] if "." in low else ""
            result[low] = overrides.get(low, defaults.get(ext, ""))
        return result

    def main_document_part(self) -> str:
        """The officeDocument part, found through _rels/.rels (never by assuming a path)."""
        for rel in self.rels(""):
            if rel.type in RT_OFFICE_DOCUMENT and not rel.external:
                if self.has_part(rel.target):
                    return self.canonical_name(rel.target)
                raise CorruptDocxError(
                    f"The package names {rel.target} as its main document, but that part is missing.",
                    rel.target,
                )
        # No usable package relationship: fall back to the content types, then give up clearly.
        for name, ctype in self.content_types().items():
            if ctype in MAIN_CONTENT_TYPES:
                return self._by_lower[name].filename
        if not self.has_part("[Content_Types].xml") and not self.has_part("_rels/.rels"):
            raise NotADocxError("This zip file is not an Office document (it has no package relationships).")
        raise NotADocxError(
            "This package has no Word main document part; it may be a spreadsheet, a presentation "
            "or another kind of Office file."
        )

    # -- saving ------------------------------------------------------------------------------

    def to_bytes(self, damaged_parts: str = KEEP) -> bytes:
        """Write the package: untouched entries byte-identical and in their original order. A damaged
        non-essential part the engine did not edit is written as it was read (KEEP) or as its minimal
        stand-in (REBUILD). No input limit applies here: every part read was checked at open."""
        if damaged_parts not in DAMAGED_PART_CHOICES:
            raise ValueError(f"damaged_parts must be one of {DAMAGED_PART_CHOICES}, not {damaged_parts!r}")
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w") as zout:
            for info in self.entries:
                name = info.filename
                zinfo = zipfile.ZipInfo(name, date_time=info.date_time)
                zinfo.compress_type = info.compress_type
                zinfo.external_attr = info.external_attr
                zinfo.create_system = info.create_system
                zinfo.comment = info.comment
                zout.writestr(zinfo, b"" if info.is_dir() else self._bytes_for(name, damaged_parts))
            known = {i.filename.lower() for i in self.entries}
            for name in self.added:
                if name.lower() not in known:
                    zinfo = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
                    zinfo.compress_type = zipfile.ZIP_DEFLATED
                    zout.writestr(zinfo, self._bytes_for(name, damaged_parts))
        return out.getvalue()

    def _bytes_for(self, name: str, damaged_parts: str = KEEP) -> bytes:
        if name in self.dirty and name in self._trees:
            return serialize_xml(self._trees[name])
        damaged = self.damaged.get(name)
        if damaged is not None:
            if damaged_parts == REBUILD and damaged.stand_in is not None:
                return damaged.stand_in
            return damaged.salvage
        return self.read(name)
