"""The open document's file, watched on disk (window.files.disk): within seconds of another program
changing, replacing or deleting it, a bar above the pages says so and offers Compare (the redline of
your version against the one on disk), Reload (asking first when there is unsaved work) and Keep mine
(the bar goes; Save still asks before replacing the other version). Another bar says when an owner
file beside the document shows it open in Word or LibreOffice (docx/package/word_lock.py).

FileWatch watches the file and its folder with QFileSystemWatcher (a rename over the file, as Word and
our own save do, drops the file's watch: the folder's still fires, and the file is watched again), and
looks every POLL_MS as well, for file systems that send no events (network drives). A change is a new
digest, not a new time: a touch says nothing, and our own save leaves on disk the digest the window
expects (files._source_digest), so it says nothing either.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer, Signal
from PySide6.QtWidgets import QMessageBox

from ... import APP_NAME
from ...docx.errors import DocxError
from ...docx.package.files import file_digest, read_document_file
from ...docx.package.word_lock import find_lock_owner
from ..panels.info_bar import (
    CHANGED_ON_DISK,
    DELETED_ON_DISK,
    InfoBar,
    describe_disk_change,
    describe_lock_owner,
)

POLL_MS = 2_000
SETTLE_MS = 250  # a save arrives as several events: look once they stop
SAME = "same"  # the file holds what the window expects again


class FileWatch(QObject):
    """Watches one file; `changed` says CHANGED_ON_DISK, DELETED_ON_DISK or SAME each time that
    answer differs from the last (a second, different change is CHANGED_ON_DISK again)."""

    changed = Signal(str)
    looked = Signal()  # each look, so what sits beside the file can be looked at too

    def __init__(self, expected, parent=None):
        super().__init__(parent)
        self.expected = expected  # () -> the digest the file should have: as opened or last saved here
        self.path: str | None = None
        self._watcher = QFileSystemWatcher(self)
        self._watcher.fileChanged.connect(self._soon)
        self._watcher.directoryChanged.connect(self._soon)
        self._settle = QTimer(self)
        self._settle.setSingleShot(True)
        self._settle.setInterval(SETTLE_MS)
        self._settle.timeout.connect(self.look)
        self._poll = QTimer(self)
        self._poll.setInterval(POLL_MS)
        self._poll.timeout.connect(self.look)
        self._seen = None  # the file's stat at the last look: while it stays, the file is not read again
        self._known: str | None = None  # the digest last reported (or expected), DELETED_ON_DISK when gone

    def follow(self, path: str | None) -> None:
        """Watch `path` from now on (None: nothing); it is compared with expected() at the next look."""
        watched = self._watcher.files() + self._watcher.directories()
        if watched:
            self._watcher.removePaths(watched)
        self.path, self._seen, self._known = path, None, None
        if path is None:
            self._poll.stop()
            self._settle.stop()
            return
        self._known = self.expected()
        self._watch()
        self._poll.start()
        self._settle.start()  # soon, not now: the window is still being filled

    def _watch(self) -> None:
        # added again at each look: a rename over the file, or its deletion, ends the file's watch
        folder = os.path.dirname(self.path)
        if self.path not in self._watcher.files() and os.path.isfile(self.path):
            self._watcher.addPath(self.path)
        if folder not in self._watcher.directories() and os.path.isdir(folder):
            self._watcher.addPath(folder)

    def _soon(self, _path: str = "") -> None:
        self._settle.start()

    def look(self) -> None:
        if self.path is None:
            return
        self._watch()
        self.looked.emit()
        try:
            stat = os.stat(self.path)
        except FileNotFoundError:
            self._seen = None
            self._report(DELETED_ON_DISK)
            return
        except OSError:
            return  # cannot tell now (a drive gone away): the next look asks again
        seen = (stat.st_mtime_ns, stat.st_ctime_ns, stat.st_size, stat.st_ino)
        if seen == self._seen:
            return
        digest = file_digest(self.path)
        if digest is None:
            return
        self._seen = seen
        self._report(digest)

    def _report(self, known: str) -> None:
        if known == self._known:
            return
        self._known = known
        if known == DELETED_ON_DISK:
            self.changed.emit(DELETED_ON_DISK)
        else:
            self.changed.emit(SAME if known == self.expected() else CHANGED_ON_DISK)


class DiskWatch:
    """The open document's file on disk, for the window: its FileWatch, and the two bars (changed on
    disk, open in another program) with their buttons."""

    def __init__(self, files):
        self.files = files  # the window's DocumentFiles: its path, the digest it expects, open and compare
        self.watch = FileWatch(lambda: files.source_digest, parent=files.window)
        self.watch.changed.connect(self._tell_change)
        self.watch.looked.connect(self.tell_lock_owner)
        self.reload_chooser = None  # () -> bool instead of the "reload over unsaved work?" box (tests)
        self.change_notice: InfoBar | None = None  # made when first needed, with its three buttons
        self.compare_button = self.reload_button = self.keep_button = None
        self.lock_notice: InfoBar | None = None
        self._lock_told: str | None = None  # the owner last told of: a dismissed bar stays away until it changes

    @property
    def window(self):
        return self.files.window

    def opened(self, path: str | None) -> None:
        """A document was shown: watch its file, and say at once whether another program has it open."""
        self._lock_told = None
        if self.lock_notice is not None:
            self.lock_notice.tell(None)
        self._hide_change()
        self.watch.follow(path)
        self.tell_lock_owner()

    def saved(self, path: str) -> None:
        """The window wrote `path`: what is on disk is its own now."""
        if path != self.watch.path:
            self.opened(path)
            return
        self._hide_change()
        self.watch.follow(path)

    def stop(self) -> None:
        self.watch.follow(None)

    def _bar(self, name: str) -> InfoBar:
        notice = InfoBar(name)
        column = self.window.centralWidget().layout()
        column.insertWidget(column.indexOf(self.window.view), notice)
        return notice

    # -- the file changed, replaced or deleted ---------------------------------------------------------

    def _change_bar(self) -> InfoBar:
        if self.change_notice is None:
            notice = self.change_notice = self._bar("diskChangeNotice")
            notice.close_button.setToolTip("Keep mine: dismiss this notice")
            self.compare_button = notice.add_button("Compare", "Open the redline of your version against the "
                                                    "version on disk")
            self.compare_button.clicked.connect(self.compare)
            self.reload_button = notice.add_button("Reload", "Open the version on disk in place of yours")
            self.reload_button.clicked.connect(self.reload)
            self.keep_button = notice.add_button("Keep mine", "Keep working on your version; saving asks before "
                                                 "it replaces the version on disk")
            self.keep_button.clicked.connect(self.keep_mine)
        return self.change_notice

    def _tell_change(self, kind: str) -> None:
        if kind == SAME:
            self._hide_change()
            return
        notice = self._change_bar()
        self.compare_button.setVisible(kind == CHANGED_ON_DISK)
        self.reload_button.setVisible(kind == CHANGED_ON_DISK)
        notice.tell(describe_disk_change(kind, self.window.display_name, self.window.modified))
        self.window.record("changed_on_disk", path=self.watch.path, change=kind)

    def _hide_change(self) -> None:
        if self.change_notice is not None:
            self.change_notice.tell(None)

    def keep_mine(self) -> None:
        self._hide_change()
        self.window.statusBar().showMessage("Keeping your version: saving asks before it replaces the version on "
                                            "disk.", 8000)

    def reload(self) -> bool:
        """Open the version on disk in place of this one; over unsaved work, only when the lawyer says so."""
        window = self.window
        path = window.path
        if path is None or window.reviewer is None:
            return False
        if window.modified and not (self.reload_chooser or self.ask_reload)():
            return False
        if not self.files.open_document(path, ask=False):
            return False
        window.statusBar().showMessage(f"Reloaded {window.display_name} from disk.", 8000)
        return True

    def ask_reload(self) -> bool:
        box = QMessageBox(QMessageBox.Warning, APP_NAME, f"Reload {self.window.display_name} from disk?",
                          QMessageBox.NoButton, self.window)
        box.setInformativeText("The changes you made here since you last saved are lost.")
        reload = box.addButton("&Reload", QMessageBox.DestructiveRole)
        box.addButton(QMessageBox.Cancel)
        box.setDefaultButton(QMessageBox.Cancel)
        box.exec()
        return box.clickedButton() is reload

    def compare(self):
        """The redline of this version (unsaved work included) against the one on disk, in the compare
        window: what the other program changed shows as tracked changes. None when it cannot be made."""
        window = self.window
        if window.reviewer is None or window.path is None:
            return None
        document = Path(window.path)
        folder = Path(tempfile.mkdtemp(prefix=f"{APP_NAME}-compare-"))  # private to this user (0700)
        try:
            mine = folder / f"{document.stem} (yours).docx"
            disk = folder / f"{document.stem} (on disk).docx"
            try:
                disk.write_bytes(read_document_file(document))
            except DocxError as exc:  # deleted or unreadable since the bar was shown
                QMessageBox.warning(window, "The versions could not be compared", str(exc))
                return None
            mine.write_bytes(window.reviewer.to_bytes(damaged_parts=self.files.damaged_parts))
            shown = self.files.compare(str(mine), str(disk))
        finally:
            shutil.rmtree(folder, ignore_errors=True)  # the compare window has read both
        if shown is not None:
            # the names stay for the title; a saved redline is suggested beside the document, not in the
            # temporary folder
            shown.base_path, shown.revised_path = str(document.with_name(mine.name)), str(document.with_name(disk.name))
        return shown

    # -- open in another program -------------------------------------------------------------------

    def tell_lock_owner(self) -> None:
        """An owner file beside the document (Word's ~$, LibreOffice's .~lock) is told in a bar, once
        for each owner; the bar goes when the file does."""
        path = self.watch.path
        owner = find_lock_owner(path) if path else None
        text = describe_lock_owner(owner.program, owner.user, Path(path).name) if owner else None
        if text == self._lock_told:
            return
        self._lock_told = text
        if text is None and self.lock_notice is None:
            return
        if self.lock_notice is None:
            self.lock_notice = self._bar("lockOwnerNotice")
        self.lock_notice.tell(text)
