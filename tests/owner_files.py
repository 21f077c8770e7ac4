"""Owner files as other programs leave them beside a document they have open (for the tests of
docx/package/word_lock.py and of the window that reads them)."""

from __future__ import annotations


def word_owner_file(user: str, utf16_at: int = 54, size: int = 162) -> bytes:
    """An owner file as Word writes it: the name's length, the name in 8-bit characters, zeros up to
    `utf16_at` (55 for Excel and PowerPoint), the length as a 16-bit word and the name in UTF-16LE,
    zeros to `size` bytes."""
    data = bytearray(size)
    data[0] = len(user)
    ansi = user.encode("cp1252", "replace")
    data[1:1 + len(ansi)] = ansi
    data[utf16_at:utf16_at + 2] = len(user).to_bytes(2, "little")
    wide = user.encode("utf-16-le")
    data[utf16_at + 2:utf16_at + 2 + len(wide)] = wide
    return bytes(data)
