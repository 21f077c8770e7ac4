"""What a failed save tells the lawyer: a read-only file, a full disk, no permission, a file that
another program changed. Each message names the file and says what to do; the work stays open.

Read-only is checked from the file's mode bits rather than os.access: os.access says yes to root
(and to some network mounts) even for a file marked read-only, and Word refuses to replace a
read-only file as well.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from ...docx.package.files import write_target

KEEP = "Your work is still open and unsaved here."


def read_only_problem(target: str | os.PathLike) -> str | None:
    """A message when `target` is marked read-only or its folder cannot be written; else None."""
    path = Path(write_target(target))  # through a symbolic link: the file that will be replaced
    if path.exists():
        try:
            mode = path.stat().st_mode
        except OSError:
            return None
        if stat.S_ISREG(mode) and not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
            return (f"{path} is read-only, so it was not replaced. Use File > Save As… to save under another "
                    f"name, or make the file writable and save again. {KEEP}")
    folder = path.parent if str(path.parent) else Path(".")
    if folder.is_dir() and not os.access(folder, os.W_OK):
        return (f"The folder {folder} cannot be written to, so {path.name} was not saved. Use File > Save As… "
                f"to choose another folder. {KEEP}")
    return None


def write_problem(target: str | os.PathLike, exc: BaseException) -> str:
    """The message for an exception from saving to `target` (a DocxError wrapping an OSError, or the
    OSError itself)."""
    cause = exc if isinstance(exc, OSError) else exc.__cause__ or exc.__context__
    code = getattr(cause, "errno", None)
    name = os.fspath(target)
    if code == errno.ENOSPC or code == getattr(errno, "EDQUOT", -1):
        return (f"The disk is full, so {name} was not saved. Free some space (or use File > Save As… to save "
                f"on another drive) and save again. {KEEP}")
    if code in (errno.EACCES, errno.EPERM):
        return (f"You do not have permission to write {name}. Use File > Save As… to save somewhere else. {KEEP}")
    if code == errno.EROFS:
        return (f"{name} is on a read-only drive, so it was not saved. Use File > Save As… to save on another "
                f"drive. {KEEP}")
    detail = str(exc).strip() or type(exc).__name__
    return f"{name} was not saved: {detail} {KEEP}" if KEEP not in detail else f"{name} was not saved: {detail}"
