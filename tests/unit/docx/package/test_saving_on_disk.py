"""Saving writes where the lawyer thinks it does: through a symbolic link the file it points to gets the
edits and the link stays a link; a hard-linked file keeps its identity (its other names see the edits);
a file moved or deleted while open is a question, not a silent re-create; temporary files an
interrupted save left behind go the next time that folder is saved to; private files are 0600 in a
0700 folder after every write, whatever was there before."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import time

import pytest
from docbuilder import build_docx, p

from folio_desktop.docx import DocxReviewer, SaveTargetMissingError
from folio_desktop.docx.package.files import (
    ORPHAN_TEMP_S,
    append_private,
    atomic_write,
    private_folder,
    remove_stale_temps,
)

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX links and modes")


def contract(path) -> None:
    path.write_bytes(build_docx(p("The Supplier shall deliver the Goods.") + p("Payment is due in 30 days.")))


def commented(path) -> str:
    """Open `path`, comment on its first paragraph, save it back through the same name; the comment."""
    rev = DocxReviewer.open(path, author="Lawyer")
    block = rev.snapshot().content_blocks[0]
    rev.add_comment(block.id, "Which Goods?")
    rev.save(path)
    return "Which Goods?"


def comments_in(path) -> list[str]:
    return [c.text for c in DocxReviewer.open(path).all_comments()]


def test_saving_through_a_symbolic_link_updates_the_target_and_keeps_the_link(tmp_path):
    real = tmp_path / "matters" / "msa.docx"
    real.parent.mkdir()
    contract(real)
    link = tmp_path / "desktop" / "msa shortcut.docx"
    link.parent.mkdir()
    link.symlink_to(os.path.relpath(real, link.parent))

    text = commented(link)

    assert link.is_symlink(), "the link was replaced by a plain file"
    assert os.readlink(link) == os.path.relpath(real, link.parent)
    assert comments_in(real) == [text]
    assert not [n for n in os.listdir(link.parent) if n != link.name], "a file was written beside the link"


def test_saving_through_a_chain_of_links_writes_the_file_at_its_end(tmp_path):
    real = tmp_path / "real.docx"
    contract(real)
    first, second = tmp_path / "a.docx", tmp_path / "b.docx"
    first.symlink_to(real)
    second.symlink_to(first)

    commented(second)

    assert second.is_symlink() and first.is_symlink()
    assert comments_in(real) == ["Which Goods?"]


def test_a_hard_linked_file_keeps_its_identity_and_every_name_sees_the_edits(tmp_path):
    one = tmp_path / "one.docx"
    contract(one)
    other = tmp_path / "filed copy.docx"
    os.link(one, other)
    inode = one.stat().st_ino

    commented(one)

    assert one.stat().st_ino == inode == other.stat().st_ino
    assert one.stat().st_nlink == 2
    assert comments_in(other) == ["Which Goods?"]
    assert not [n for n in os.listdir(tmp_path) if n.startswith(".~folio-")], "the copy beside it was left"


def test_a_file_deleted_while_open_is_not_silently_created_again(tmp_path):
    path = tmp_path / "msa.docx"
    contract(path)
    rev = DocxReviewer.open(path, author="Lawyer")
    rev.add_comment(rev.snapshot().content_blocks[0].id, "Check")
    path.unlink()

    with pytest.raises(SaveTargetMissingError, match="moved or deleted"):
        rev.save()
    with pytest.raises(SaveTargetMissingError):
        rev.save(path)
    assert not path.exists()

    rev.save(path, force=True)  # saving it there again, on purpose
    assert comments_in(path) == ["Check"]


def test_a_file_renamed_away_while_open_is_a_question_too(tmp_path):
    path = tmp_path / "msa.docx"
    contract(path)
    rev = DocxReviewer.open(path, author="Lawyer")
    path.rename(tmp_path / "msa (final).docx")
    with pytest.raises(SaveTargetMissingError):
        rev.save()
    assert not path.exists()
    rev.save(tmp_path / "elsewhere.docx")  # a new name is an ordinary Save As
    assert (tmp_path / "elsewhere.docx").exists()


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_temporary_files_of_an_interrupted_save_go_the_next_time_the_folder_is_saved_to(tmp_path):
    path = tmp_path / "msa.docx"
    contract(path)
    dead = tmp_path / f".~folio-{_dead_pid()}-0a1b2c3d4e5f.tmp"
    dead.write_bytes(b"x" * 1000)
    old_style = tmp_path / ".~folio-k2j4h5gq.tmp"  # the name an earlier version gave its temporary files
    old_style.write_bytes(b"y")
    an_hour_ago = time.time() - 3600
    os.utime(old_style, (an_hour_ago, an_hour_ago))
    fresh_old_style = tmp_path / ".~folio-zzzzzzzz.tmp"  # maybe another program's save in flight
    fresh_old_style.write_bytes(b"z")
    ours_in_flight = tmp_path / f".~folio-{os.getpid()}-ffffffffffff.tmp"
    ours_in_flight.write_bytes(b"w")
    unrelated = tmp_path / "~$msa.docx"
    unrelated.write_bytes(b"word's lock")

    commented(path)

    left = sorted(n for n in os.listdir(tmp_path))
    assert dead.name not in left and old_style.name not in left
    assert fresh_old_style.name in left and ours_in_flight.name in left and unrelated.name in left
    assert comments_in(path) == ["Which Goods?"]


def test_stale_temporaries_are_judged_by_age_and_owner(tmp_path):
    alive = tmp_path / f".~folio-{os.getpid()}-000000000000.tmp"
    alive.write_bytes(b"")
    assert remove_stale_temps(tmp_path) == []
    assert remove_stale_temps(tmp_path, now=time.time() + 2 * 24 * 3600) == [alive.name]  # a day old: gone
    orphan = tmp_path / ".~folio-abcdefgh.tmp"
    orphan.write_bytes(b"")
    assert remove_stale_temps(tmp_path, now=time.time() + ORPHAN_TEMP_S - 30) == []
    assert remove_stale_temps(tmp_path, now=time.time() + ORPHAN_TEMP_S + 30) == [orphan.name]


def test_a_private_file_is_0600_in_a_0700_folder_whatever_was_there_before(tmp_path):
    folder = tmp_path / "config"
    folder.mkdir(mode=0o755)
    os.chmod(folder, 0o755)
    token = folder / "token"
    token.write_text("old")
    os.chmod(token, 0o644)

    atomic_write(token, b"new", private=True)

    assert stat.S_IMODE(token.stat().st_mode) == 0o600
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert token.read_bytes() == b"new"


def test_an_ordinary_file_keeps_its_mode_and_its_folder_is_left_alone(tmp_path):
    folder = tmp_path / "matters"
    folder.mkdir()
    os.chmod(folder, 0o755)
    shared = folder / "shared.docx"
    shared.write_bytes(b"old")
    os.chmod(shared, 0o640)
    atomic_write(shared, b"new")
    assert stat.S_IMODE(shared.stat().st_mode) == 0o640
    assert stat.S_IMODE(folder.stat().st_mode) == 0o755
    assert shared.read_bytes() == b"new"


def test_appending_to_a_private_log_makes_it_private_again(tmp_path):
    folder = tmp_path / "audit"
    folder.mkdir(mode=0o755)
    os.chmod(folder, 0o755)
    log = folder / "msa.jsonl"
    log.write_text('{"kind": "open"}\n')
    os.chmod(log, 0o644)

    append_private(log, '{"kind": "save"}\n')

    assert stat.S_IMODE(log.stat().st_mode) == 0o600
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert log.read_text().splitlines() == ['{"kind": "open"}', '{"kind": "save"}']


def test_private_folder_creates_missing_parents(tmp_path):
    made = private_folder(tmp_path / "a" / "b")
    assert made.is_dir() and stat.S_IMODE(made.stat().st_mode) == 0o700
