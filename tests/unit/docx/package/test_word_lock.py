"""The owner file Word (or LibreOffice) keeps beside a document it has open: its name, and the user
name read from it, tolerantly."""

from __future__ import annotations

import pytest
from owner_files import word_owner_file

from folio_desktop.docx.package.word_lock import (
    find_lock_owner,
    owner_file_names,
    read_libreoffice_owner,
    read_owner_name,
)


@pytest.mark.parametrize(("name", "expected"), [
    ("Contract.docx", ["~$ntract.docx"]),  # 8 characters before .docx: the first two go
    ("Agreement of sale.docx", ["~$reement of sale.docx"]),
    ("Lease A.docx", ["~$ease A.docx", "~$ase A.docx"]),  # 7: the first (or, some say, two)
    ("NDA.docx", ["~$NDA.docx"]),  # 6 or fewer: kept whole
    ("abcdef.docx", ["~$abcdef.docx"]),
])
def test_owner_file_names_follow_words_convention(name, expected):
    assert owner_file_names(name) == expected


def test_the_utf16_copy_gives_the_name_the_8_bit_copy_cannot_hold():
    assert read_owner_name(word_owner_file("Jane Doe")) == "Jane Doe"
    assert read_owner_name(word_owner_file("Zoë Łukasiewicz")) == "Zoë Łukasiewicz"
    assert read_owner_name(word_owner_file("Иван Петров")) == "Иван Петров"


def test_excel_and_powerpoints_offset_is_read_too():
    data = bytearray(word_owner_file("Jane Doe", utf16_at=55, size=165))
    data[1 + len("Jane Doe"):55] = b" " * (55 - 1 - len("Jane Doe"))  # Excel pads with spaces
    assert read_owner_name(bytes(data)) == "Jane Doe"


def test_reading_is_tolerant():
    ansi_only = bytes([8]) + b"Jane Doe" + bytes(20)  # cut short before the UTF-16 copy
    assert read_owner_name(ansi_only) == "Jane Doe"
    assert read_owner_name(b"") is None
    assert read_owner_name(bytes(162)) is None
    assert read_owner_name(bytes([200]) + b"x" * 161) is None  # a length no name has
    garbled = bytearray(word_owner_file("Jane Doe"))
    garbled[54:56] = (300).to_bytes(2, "little")
    assert read_owner_name(bytes(garbled)) == "Jane Doe"  # the 8-bit copy when the UTF-16 one is wrong


def test_libreoffice_lock_gives_the_first_field():
    assert read_libreoffice_owner(b"Jane Doe,host,jdoe,02.12.2025 10:00,file:///home/jdoe/.config;") == "Jane Doe"
    assert read_libreoffice_owner(b"Doe\\, Jane,host,jdoe,date,profile;") == "Doe, Jane"
    assert read_libreoffice_owner(b"") is None


def test_find_lock_owner_looks_beside_the_document(tmp_path):
    document = tmp_path / "Contract.docx"
    document.write_bytes(b"")
    assert find_lock_owner(document) is None
    (tmp_path / "~$ntract.docx").write_bytes(word_owner_file("Jane Doe"))
    owner = find_lock_owner(document)
    assert (owner.program, owner.user, owner.lock_path) == ("Word", "Jane Doe", str(tmp_path / "~$ntract.docx"))
    (tmp_path / "~$ntract.docx").write_bytes(b"\x00")  # unreadable: open in Word all the same, by someone
    assert find_lock_owner(document).user is None
    (tmp_path / ".~lock.Contract.docx#").write_bytes(b"Max Mustermann,host,max,date,profile;")
    assert find_lock_owner(document).program == "LibreOffice"

    short = tmp_path / "NDA.docx"
    (tmp_path / "~$NDA.docx").write_bytes(word_owner_file("Sam"))
    assert find_lock_owner(short).user == "Sam"
