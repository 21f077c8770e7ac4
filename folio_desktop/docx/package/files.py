"""Document files on disk: read with a plain-words error, written atomically (a temporary file, then a
rename) with the mode a new file would get, and their sha256, by which a change behind our back is seen.

A save writes where the lawyer thinks it does: through a symbolic link the file it points to is replaced
and the link kept; a file with other hard links is rewritten in place (its other names see the edits),
after a complete copy was written beside it; temporary files an interrupted save left in a folder are
removed the next time that folder is written to. Private files (credentials, recovery copies, logs) are
0600 after every write, in 0700 folders, whatever modes were there before.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
import time
from contextlib import contextmanager
from pathlib import Path

from ..errors import DocxError

TEMP_PREFIX = ".~folio-"
TEMP_SUFFIX = ".tmp"
_OURS = re.compile(re.escape(TEMP_PREFIX) + r"(\d+)-[0-9a-f]+" + re.escape(TEMP_SUFFIX) + "$")
STALE_TEMP_S = 24 * 3600  # a temporary file this old is left over whoever made it
ORPHAN_TEMP_S = 600  # one without an owner's pid in its name (older versions' names): after ten minutes


def read_document_file(path: str | os.PathLike) -> bytes:
    """A file's bytes, or a DocxError that says in plain words why it cannot be read."""
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        raise DocxError(f"{os.fspath(path)} does not exist.") from None
    except IsADirectoryError:
        raise DocxError(f"{os.fspath(path)} is a folder, not a document.") from None
    except PermissionError:
        raise DocxError(f"You do not have permission to read {os.fspath(path)}.") from None
    except OSError as exc:
        raise DocxError(f"{os.fspath(path)} could not be read ({exc.strerror or exc}).") from None


def write_document_file(path: str | os.PathLike, data: bytes, retry: str = "save it somewhere else",
                        work_open: bool = True) -> None:
    """atomic_write, with a failure as a DocxError saying what to do (`retry`) and, for a document
    being edited, that the work is still open."""
    path = os.fspath(path)
    try:
        atomic_write(path, data)
    except PermissionError:
        raise DocxError(f"You do not have permission to write {path}; {retry}.") from None
    except OSError as exc:
        tail = "; your work is still open." if work_open else "."
        raise DocxError(f"{path} could not be written ({exc.strerror or exc}){tail}") from None


def new_file_mode() -> int:
    """The permissions a program gives a new file: 0666 less the process's umask (mkstemp's 0600
    would make every exported PDF and saved copy readable by its owner only)."""
    if not hasattr(new_file_mode, "umask"):
        new_file_mode.umask = _read_umask()
    return 0o666 & ~new_file_mode.umask


def _read_umask() -> int:
    try:  # Linux says it without changing it (setting it, even briefly, is process-wide)
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    current = os.umask(0o022)  # elsewhere the only way POSIX allows: set, then put back at once
    os.umask(current)
    return current


def write_target(path: str | os.PathLike) -> str:
    """The file a write to `path` must replace: the end of its chain of symbolic links (a dangling
    link's target, too), so the link itself stays a link."""
    return os.path.realpath(os.fspath(path))


def atomic_write(path: str | os.PathLike, data: bytes, private: bool = False) -> None:
    """Write `data` to `path` so that a crash leaves the old file or the new one, never half of either:
    a temporary file in the target's folder, fsynced, then renamed over the target. Through a symbolic
    link the target is written and the link kept. A file with other hard links is rewritten in place
    instead (a rename would split its names), once the new bytes are safely on disk beside it. A file
    that existed keeps its permissions; a new one gets the user's usual ones. `private` files
    (credentials, recovery copies) are 0600 whatever they were before."""
    target = write_target(path)
    folder = os.path.dirname(target)
    if private:
        private_folder(folder)
    remove_stale_temps(folder)
    try:
        st = os.stat(target)
    except FileNotFoundError:
        st = None
    mode = 0o600 if private else (st.st_mode & 0o7777 if st is not None else new_file_mode())
    tmp = _write_temp(folder, data, mode)
    with _removed_on_failure(tmp):
        if st is not None and st.st_nlink > 1 and not private:
            _rewrite_in_place(target, data)
            os.unlink(tmp)
        else:
            os.replace(tmp, target)
            _sync_folder(folder)


@contextmanager
def _removed_on_failure(tmp: str):
    """A temporary file that must not outlive a failure (the error goes on up)."""
    try:
        yield
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _write_temp(folder: str, data: bytes, mode: int) -> str:
    """A complete, fsynced copy of `data` in `folder`, named so a later save can tell its owner."""
    while True:
        tmp = os.path.join(folder, f"{TEMP_PREFIX}{os.getpid()}-{os.urandom(6).hex()}{TEMP_SUFFIX}")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600)
            break
        except FileExistsError:
            continue
    with _removed_on_failure(tmp):
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        try:
            os.chmod(tmp, mode)
        except OSError:
            pass
    return tmp


def _rewrite_in_place(target: str, data: bytes) -> None:
    """Overwrite a hard-linked file's bytes through the same inode. Should the write fail halfway (a
    full disk), the old bytes are put back before the error goes up."""
    with open(target, "r+b") as fh:
        old = fh.read()
        try:
            fh.seek(0)
            fh.write(data)
            fh.truncate()
            fh.flush()
            os.fsync(fh.fileno())
        except BaseException:
            fh.seek(0)
            fh.write(old)
            fh.truncate()
            fh.flush()
            raise


def _sync_folder(folder: str) -> None:
    """Make the rename itself durable (POSIX); a no-op where folders cannot be opened."""
    if sys.platform == "win32":
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def remove_stale_temps(folder: str | os.PathLike, now: float | None = None) -> list[str]:
    """Remove the temporary files interrupted saves left in `folder`: ours whose process has ended,
    any older than a day, and ones without an owner in their name after ten minutes. The names
    removed."""
    now = time.time() if now is None else now
    removed = []
    try:
        names = [n for n in os.listdir(folder) if n.startswith(TEMP_PREFIX) and n.endswith(TEMP_SUFFIX)]
    except OSError:
        return removed
    for name in names:
        path = os.path.join(folder, name)
        try:
            age = now - os.lstat(path).st_mtime
        except OSError:
            continue
        owner = _OURS.match(name)
        if owner:
            stale = age > STALE_TEMP_S or not _process_alive(int(owner.group(1)))
        else:
            stale = age > ORPHAN_TEMP_S
        if stale:
            try:
                os.unlink(path)
                removed.append(name)
            except OSError:
                pass
    return removed


def _process_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True  # a save of ours in flight on another thread
    if sys.platform == "win32" or pid <= 0:
        return True  # no harmless probe there: the age rule decides
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # another user's process: alive
    return True


def private_folder(path: str | os.PathLike) -> Path:
    """`path` as a folder readable by its owner only (0700), created with its parents if missing."""
    folder = Path(path)
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    try:
        os.chmod(folder, 0o700)
    except OSError:
        pass  # a folder someone else owns: left as it is
    return folder


def append_private(path: str | os.PathLike, text: str) -> None:
    """Append `text` to a file readable by its owner only (0600 whatever it was), in a 0700 folder."""
    private_folder(os.path.dirname(os.path.abspath(path)))
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    with os.fdopen(fd, "a", encoding="utf-8") as fh:
        if hasattr(os, "fchmod"):
            os.fchmod(fh.fileno(), 0o600)
        fh.write(text)


def file_digest(path: str | os.PathLike) -> str | None:
    """The sha256 of the file at path, or None when it cannot be read."""
    try:
        with open(path, "rb") as fh:
            return hashlib.file_digest(fh, "sha256").hexdigest()
    except OSError:
        return None
