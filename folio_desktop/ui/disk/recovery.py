"""Crash recovery: the open document's bytes written to a recovery folder while there is unsaved
work, and offered back at the next start when the app did not get to remove them.

One document is one pair of files named by a hash of its path: KEY.docx (the bytes) and KEY.json
(the original path, when the copy was made, and the digest the original had when it was opened, so
a restore can tell whether the file on disk has changed since). A clean save or close removes the
pair; anything left at start-up is work a crash (or a kill) would otherwise have lost.

A copy is offered back only when the session that wrote it has ended: while its autosaver runs it
holds OWNER.lock (a QLockFile, which Qt finds stale once the process that made it is gone), and the
meta names that owner. So a second window or a second start of the app never offers the work
another window is still keeping.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from PySide6.QtCore import QLockFile, QObject, QSysInfo, QTimer, Signal

from ...docx.package.files import atomic_write, private_folder

RECOVERY_DIR = "recovery"
DEFAULT_INTERVAL_MS = 60_000
DEBOUNCE_MS = 3_000  # after a change, wait this long for more before writing a copy
INTERVAL_ENV = "FOLIO_DESKTOP_AUTOSAVE_MS"  # overrides the interval (tests, the crash test's child)


def autosave_interval_ms(configured_seconds=None) -> int:
    override = os.environ.get(INTERVAL_ENV)
    if override and override.isdigit() and int(override) > 0:
        return int(override)
    try:
        seconds = float(configured_seconds)
    except (TypeError, ValueError):
        return DEFAULT_INTERVAL_MS
    return max(1000, int(seconds * 1000)) if seconds > 0 else DEFAULT_INTERVAL_MS


@dataclass
class RecoveryEntry:
    key: str
    data_path: Path
    original_path: str | None
    saved_at: str
    source_digest: str | None
    owner: str | None = None  # the session that wrote it (its lock file is OWNER.lock)

    @property
    def name(self) -> str:
        return Path(self.original_path).name if self.original_path else "Untitled document"

    def read(self) -> bytes:
        return self.data_path.read_bytes()


class RecoveryStore:
    """The recovery folder (plain files; no Qt)."""

    def __init__(self, folder: str | os.PathLike):
        self.folder = Path(folder)

    @staticmethod
    def key_for(original_path: str | None) -> str:
        name = os.path.abspath(original_path) if original_path else "untitled"
        return hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:20]

    def write(self, original_path: str | None, data: bytes, source_digest: str | None = None,
              owner: str | None = None) -> RecoveryEntry:
        private_folder(self.folder)  # the work's text, readable by this user only
        key = self.key_for(original_path)
        entry = RecoveryEntry(key, self.folder / f"{key}.docx", original_path,
                              datetime.now(UTC).isoformat(timespec="seconds"), source_digest, owner)
        atomic_write(entry.data_path, data, private=True)  # bytes first: a meta file never points at half a copy
        meta = {"originalPath": original_path, "savedAt": entry.saved_at, "sourceDigest": source_digest,
                "owner": owner}
        atomic_write(self.folder / f"{key}.json", json.dumps(meta, ensure_ascii=False).encode("utf-8"), private=True)
        return entry

    def remove(self, original_path: str | None) -> None:
        key = self.key_for(original_path)
        for suffix in (".docx", ".json"):
            try:
                (self.folder / f"{key}{suffix}").unlink()
            except FileNotFoundError:
                pass

    def discard(self, entry: RecoveryEntry) -> None:
        for path in (entry.data_path, entry.data_path.with_suffix(".json")):
            try:
                path.unlink()
            except FileNotFoundError:
                pass

    def set_aside(self, entry: RecoveryEntry) -> RecoveryEntry:
        """Keep a copy the lawyer put off under a key of its own, so new autosaves of the same file
        (which use the path's key) do not overwrite it; it is offered again at the next start."""
        key = f"{entry.key}-{hashlib.sha256(entry.saved_at.encode()).hexdigest()[:8]}"
        moved = RecoveryEntry(key, self.folder / f"{key}.docx", entry.original_path, entry.saved_at,
                              entry.source_digest, entry.owner)
        os.replace(entry.data_path, moved.data_path)  # bytes first, as in write()
        os.replace(entry.data_path.with_suffix(".json"), self.folder / f"{key}.json")
        return moved

    def entries(self) -> list[RecoveryEntry]:
        """Copies left behind, newest first; a pair missing half, or unreadable, is skipped."""
        out = []
        for meta_path in sorted(self.folder.glob("*.json")) if self.folder.is_dir() else ():
            data_path = meta_path.with_suffix(".docx")
            try:
                meta = json.loads(meta_path.read_text("utf-8"))
            except (OSError, ValueError):
                continue
            if not data_path.is_file() or not isinstance(meta, dict):
                continue
            owner = meta.get("owner")
            out.append(RecoveryEntry(meta_path.stem, data_path, meta.get("originalPath"), str(meta.get("savedAt") or ""),
                                     meta.get("sourceDigest"), owner if isinstance(owner, str) else None))
        return sorted(out, key=lambda e: e.saved_at, reverse=True)

    def left_behind(self) -> list[RecoveryEntry]:
        """The copies to offer back: those whose session has ended (newest first)."""
        entries = self.entries()
        running = {owner: self.session_running(owner) for owner in {e.owner for e in entries}}
        return [e for e in entries if not running[e.owner]]

    def owner_lock(self, owner: str) -> QLockFile:
        lock = QLockFile(str(self.folder / f"{owner}.lock"))
        lock.setStaleLockTime(0)  # a session keeps its lock for hours: only a dead process makes it stale
        return lock

    def session_running(self, owner: str | None) -> bool:
        """Whether the session that wrote a copy is still running (its lock is held). A copy from
        before owners were recorded, or whose lock cannot be read, counts as left behind."""
        if not owner or not owner.isalnum() or not (self.folder / f"{owner}.lock").exists():
            return False
        probe = self.owner_lock(owner)
        if probe.tryLock(0):
            probe.unlock()  # the owner was gone: Qt removed its stale lock, and this removes ours
            return False
        if probe.error() != QLockFile.LockError.LockFailedError:
            return False
        # Qt cannot tell whether a process on another computer (a roaming profile) still runs: its
        # copy is offered, as before locks, rather than never again
        info = probe.getLockInfo()
        host = info[1] if isinstance(info, tuple) and len(info) == 3 else ""
        return not host or host == QSysInfo.machineHostName()


class Autosaver(QObject):
    """Writes a recovery copy every interval, and shortly after each change, while `source()`
    returns something: (original path, bytes, source digest), or None when nothing is unsaved."""

    saved = Signal(str)  # the recovery file written
    failed = Signal(str)  # a message: the copy could not be written (the work itself is untouched)

    def __init__(self, store: RecoveryStore, source, interval_ms: int = DEFAULT_INTERVAL_MS,
                 debounce_ms: int = DEBOUNCE_MS, parent=None):
        super().__init__(parent)
        self.store = store
        self.source = source
        self.owner = f"{os.getpid()}x{secrets.token_hex(6)}"  # this session, named in the copies it writes
        self._lock: QLockFile | None = None  # held from the first copy until stop()
        self._timer = QTimer(self)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self.save_now)
        self._soon = QTimer(self)
        self._soon.setSingleShot(True)
        self._soon.setInterval(min(debounce_ms, interval_ms))
        self._soon.timeout.connect(self.save_now)
        self._timer.start()

    @property
    def interval_ms(self) -> int:
        return self._timer.interval()

    def changed(self) -> None:
        """The document changed: write a copy soon (once, however many changes come meanwhile)."""
        self._soon.start()

    def save_now(self) -> str | None:
        self._soon.stop()
        item = self.source()
        if item is None:
            return None
        original, data, digest = item
        try:
            entry = self.store.write(original, data, digest, owner=self._hold_lock())
        except OSError as exc:
            self.failed.emit(f"The recovery copy could not be written to {self.store.folder} "
                             f"({exc.strerror or exc}); save your work to be safe.")
            return None
        self.saved.emit(str(entry.data_path))
        return str(entry.data_path)

    def _hold_lock(self) -> str | None:
        """This session's owner name, its lock held; None when the lock cannot be made (the copy is
        then written without an owner and offered as a crash's would be)."""
        if self._lock is None:
            self.store.folder.mkdir(parents=True, exist_ok=True)
            lock = self.store.owner_lock(self.owner)
            if not lock.tryLock(0):
                return None
            self._lock = lock
        return self.owner

    def stop(self) -> None:
        """No more copies from this session: what it wrote is left behind, for the next start."""
        self._timer.stop()
        self._soon.stop()
        if self._lock is not None:
            self._lock.unlock()
            self._lock = None
