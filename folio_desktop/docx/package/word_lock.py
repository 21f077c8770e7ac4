"""The owner file another program keeps beside a document it has open, read to say who has it open.

Word writes `~$` + the file name beside the document while it is open, cutting the name's first
characters when it is long: a name of 8 or more characters before `.docx` loses its first two, one
of 7 loses its first (some accounts say two: both are looked for), a shorter one keeps them all. The
file is 162 bytes: the user name's length in its first byte, the name in 8-bit characters (the
Windows code page), zeros up to offset 54, then the length again as a 16-bit word and the name in
UTF-16LE. Excel and PowerPoint put the second copy one byte later; LibreOffice writes the same
layout. Anything else found under that name still means the file is open somewhere, so the reading
is tolerant: the UTF-16 copy, else the 8-bit one, else no name.

LibreOffice keeps its own `.~lock.NAME#` beside the document too: one CSV line whose first field is
the user's name.

folio-desktop writes no owner file of its own: one left behind by a crash would tell Word users the
document is in use when it is not, and every owner file read here is another program's.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

OWNER_PREFIX = "~$"
UTF16_AT = (54, 55)  # Word's offset of the UTF-16 copy, then Excel's and PowerPoint's
MAX_NAME = 52  # Office refuses longer user names
READ_AT_MOST = 4096  # an owner file is 162 or 165 bytes: anything larger is read no further


@dataclass(frozen=True)
class LockOwner:
    program: str  # "Word" (an Office owner file) or "LibreOffice"
    user: str | None  # None when the file does not say
    lock_path: str


def owner_file_names(document_name: str) -> list[str]:
    """The names Word may give the owner file of `document_name` (most likely first)."""
    stem = os.path.splitext(document_name)[0]
    if len(stem) >= 8:
        cuts = [2]
    elif len(stem) == 7:
        cuts = [1, 2]
    else:
        cuts = [0]
    return [OWNER_PREFIX + document_name[cut:] for cut in cuts]


def read_owner_name(data: bytes) -> str | None:
    """The user name an Office owner file holds, or None when it holds none that reads."""
    for offset in UTF16_AT:
        if len(data) < offset + 2:
            break
        length = int.from_bytes(data[offset:offset + 2], "little")
        raw = data[offset + 2:offset + 2 + 2 * length]
        if 0 < length <= MAX_NAME and len(raw) == 2 * length:
            name = _clean(raw.decode("utf-16-le", "replace"))
            if name and "\ufffd" not in name:
                return name
    length = data[0] if data else 0
    if 0 < length <= MAX_NAME and len(data) > length:
        return _clean(data[1:1 + length].decode("cp1252", "replace")) or None
    return None


def read_libreoffice_owner(data: bytes) -> str | None:
    """The user name of a LibreOffice lock file (`Name,host,user,date,profile;`), or None."""
    text = data.decode("utf-8", "replace").split(";", 1)[0]
    name, escaped = [], False
    for char in text:  # a comma inside the name is written as "\,"
        if escaped:
            name.append(char)
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == ",":
            break
        else:
            name.append(char)
    return _clean("".join(name)) or None


def _clean(name: str) -> str:
    return "".join(c for c in name if c.isprintable()).strip()


def _read_head(path: Path) -> bytes | None:
    try:
        with open(path, "rb") as fh:
            return fh.read(READ_AT_MOST)
    except OSError:
        return None


def find_lock_owner(document: str | os.PathLike) -> LockOwner | None:
    """Who has `document` open in another program, from the owner file beside it; None when no
    owner file is there. LibreOffice's lock is looked for first: LibreOffice may write an Office
    owner file as well, and its own says which program it is."""
    document = Path(document)
    folder, name = document.parent, document.name
    libre = folder / f".~lock.{name}#"
    data = _read_head(libre)
    if data is not None:
        return LockOwner("LibreOffice", read_libreoffice_owner(data), str(libre))
    for candidate in owner_file_names(name):
        path = folder / candidate
        if path == document:
            continue
        data = _read_head(path)
        if data is not None:
            return LockOwner("Word", read_owner_name(data), str(path))
    return None
