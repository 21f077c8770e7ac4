"""The window's own preferences (an ini file beside settings.json) and the recent-files list.

Window layout and recent files live in a QSettings ini file in the app's config folder rather than
the platform's registry/plist: FOLIO_DESKTOP_CONFIG_DIR then moves every preference at once, and a
test that points the config folder at a temporary directory never touches the user's real state.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QSettings

from ...docx.package.files import private_folder

DESKTOP_FILE = "desktop.ini"
RECENT_KEY = "recentFiles"
MAX_RECENT = 8


def desktop_settings(config_dir: str | os.PathLike) -> QSettings:
    """The window's preferences: geometry, dock layout, recent files, autosave interval."""
    private_folder(config_dir)  # recent files name the lawyer's documents
    return QSettings(str(Path(config_dir) / DESKTOP_FILE), QSettings.IniFormat)


class RecentFiles:
    """Most recent first, at most MAX_RECENT, files that no longer exist dropped when read."""

    def __init__(self, store: QSettings, limit: int = MAX_RECENT):
        self.store = store
        self.limit = limit

    def _read(self) -> list[str]:
        value = self.store.value(RECENT_KEY, [])
        if isinstance(value, str):  # QSettings gives a bare string for a one-item list in ini files
            value = [value]
        return [str(v) for v in value or [] if v]

    def _write(self, paths: list[str]) -> None:
        self.store.setValue(RECENT_KEY, paths)
        self.store.sync()

    def paths(self) -> list[str]:
        stored = self._read()
        present = [p for p in stored if os.path.isfile(p)][: self.limit]
        if present != stored:
            self._write(present)
        return present

    def add(self, path: str | os.PathLike) -> list[str]:
        path = os.path.abspath(os.fspath(path))
        paths = [path] + [p for p in self._read() if os.path.abspath(p) != path]
        self._write(paths[: self.limit])
        return self.paths()

    def remove(self, path: str | os.PathLike) -> None:
        path = os.path.abspath(os.fspath(path))
        self._write([p for p in self._read() if os.path.abspath(p) != path])

    def clear(self) -> None:
        self._write([])
