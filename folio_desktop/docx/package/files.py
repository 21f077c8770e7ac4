"""Document files on disk: read with a plain-words error, written atomically (a temporary file, then a
rename) with the mode a new file would get, and their sha256, by which a change behind our back is seen."""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

from ..errors import DocxError


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


def atomic_write(path: str | os.PathLike, data: bytes, private: bool = False) -> None:
    """Write to a temp file in the target's folder, fsync, then rename over the target. A file that
    existed keeps its permissions; a new one gets the user's usual ones (0600 when `private`:
    recovery copies and credentials)."""
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".~folio-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        try:
            mode = os.stat(path).st_mode & 0o7777 if os.path.exists(path) else (0o600 if private else new_file_mode())
            os.chmod(tmp, mode)
        except OSError:
            pass
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def file_digest(path: str | os.PathLike) -> str | None:
    """The sha256 of the file at path, or None when it cannot be read."""
    try:
        with open(path, "rb") as fh:
            return hashlib.file_digest(fh, "sha256").hexdigest()
    except OSError:
        return None
