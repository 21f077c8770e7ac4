"""One running app per user and config folder. The first start claims the folder's instance lock and
listens on a local socket; a later start finds the lock held, hands its file over through the socket
and exits, and the running app shows the file (app.py).

The lock is a QLockFile (INSTANCE_LOCK in the config folder) held while the app runs: Qt finds it
stale once the process that made it is gone, so a crash leaves nothing that blocks the next start,
and the socket a crash left behind is removed before listening. Claiming under the lock is what keeps
two starts at the same moment from both listening.

The socket's name carries a hash of the config folder, so apps (and tests) with config folders of their
own never meet. It is reachable by this user only: on Linux and macOS it lives in a folder only this
user can enter (XDG_RUNTIME_DIR, else one made in the temporary folder and checked), and the socket
itself is made with the user's access only (Windows: the named pipe's access list).
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
import tempfile
import time
from pathlib import Path

from PySide6.QtCore import QEventLoop, QLockFile, QObject, QTimer, Signal
from PySide6.QtNetwork import QLocalServer, QLocalSocket

from .. import APP_NAME

INSTANCE_LOCK = "instance.lock"
CONNECT_MS = 3_000  # a running app that took the lock listens within milliseconds; allow for a busy machine
ANSWER_MS = 5_000  # it answers at once (before it opens anything, which may ask questions)
MAX_REQUEST = 64 * 1024
ACK = b"ok\n"


def _private_folder() -> Path | None:
    """A folder only this user can enter, for the socket (POSIX); None when none can be had."""
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    candidates = [Path(runtime)] if runtime else []
    candidates.append(Path(tempfile.gettempdir()) / f"{APP_NAME}-{os.getuid()}")
    for folder in candidates:
        try:
            folder.mkdir(mode=0o700, exist_ok=True)
            info = folder.lstat()
        except OSError:
            continue
        # another user may have made it first: then it is not ours to trust
        if stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid() and not info.st_mode & 0o077:
            return folder
    return None


def server_name(config_dir: str | os.PathLike) -> str:
    """The local socket of the app running on `config_dir`: a path on POSIX, a pipe name on Windows."""
    folder = os.path.normcase(os.path.abspath(os.fspath(config_dir)))
    user = str(os.getuid()) if hasattr(os, "getuid") else os.environ.get("USERNAME", "")
    key = hashlib.sha256(f"{user}\0{folder}".encode("utf-8", "surrogatepass")).hexdigest()[:16]
    name = f"{APP_NAME}-{key}"
    if sys.platform == "win32":
        return name
    private = _private_folder()
    return str(private / name) if private is not None else name  # else Qt's temp folder, user access only


class SingleInstance(QObject):
    """The app's claim on its config folder. `claim()` once at start: True, this process is the app
    (it listens, and `requested` carries each later start's file, or None for none); False, another
    process is, and `hand_over(path)` passes it the file."""

    requested = Signal(object)  # an absolute path to show, or None (bring the app forward)

    def __init__(self, config_dir: str | os.PathLike, parent=None):
        super().__init__(parent)
        self.config_dir = Path(config_dir)
        self.name = server_name(config_dir)
        self.server: QLocalServer | None = None
        self._lock: QLockFile | None = None

    def claim(self) -> bool:
        try:
            self.config_dir.mkdir(parents=True, exist_ok=True)
        except OSError:
            return True  # no config folder to claim: run alone, as before
        lock = QLockFile(str(self.config_dir / INSTANCE_LOCK))
        lock.setStaleLockTime(0)  # held for hours: only a dead process makes it stale
        if not lock.tryLock(0):
            # held by a running app, or not writable (then run alone rather than not at all)
            return lock.error() != QLockFile.LockError.LockFailedError
        self._lock = lock
        QLocalServer.removeServer(self.name)  # a crashed app's socket: the lock says none is listening
        server = QLocalServer(self)
        server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        if server.listen(self.name):
            server.newConnection.connect(self._accept)
            self.server = server
        else:
            print(f"{APP_NAME}: other starts cannot reach this window ({server.errorString()}).", file=sys.stderr)
        return True

    def release(self) -> None:
        """The app is ending: the next start is the app."""
        if self.server is not None:
            self.server.close()
            self.server = None
        if self._lock is not None:
            self._lock.unlock()
            self._lock = None

    # -- the running app --------------------------------------------------------------------------

    def _accept(self) -> None:
        while self.server is not None and self.server.hasPendingConnections():
            socket = self.server.nextPendingConnection()
            buffer = bytearray()
            socket.readyRead.connect(lambda s=socket, b=buffer: self._read(s, b))
            socket.disconnected.connect(socket.deleteLater)

    def _read(self, socket: QLocalSocket, buffer: bytearray) -> None:
        buffer += bytes(socket.readAll())
        if b"\n" not in buffer:
            if len(buffer) > MAX_REQUEST:
                socket.abort()
            return
        line = bytes(buffer).split(b"\n", 1)[0]
        try:
            request = json.loads(line)
        except ValueError:
            request = None
        path = request.get("open", "") if isinstance(request, dict) else ""
        if path is not None and not (isinstance(path, str) and os.path.isabs(path)):
            socket.abort()
            return
        # answered first: opening may ask the lawyer something, and the other start must not wait for it
        socket.write(ACK)
        socket.flush()
        socket.disconnectFromServer()
        QTimer.singleShot(0, lambda: self.requested.emit(path))

    # -- a later start --------------------------------------------------------------------------------

    def hand_over(self, path: str | os.PathLike | None) -> bool:
        """Ask the running app to show `path` (None: to come forward); True once it has the request.
        False when it cannot be reached or does not answer in time (then this start opens its own window)."""
        request = json.dumps({"open": os.path.abspath(os.fspath(path)) if path else None}) + "\n"
        socket = QLocalSocket()
        deadline = time.monotonic() + CONNECT_MS / 1000
        while True:
            socket.connectToServer(self.name)
            if socket.waitForConnected(500):
                break
            if time.monotonic() > deadline:
                return False
            time.sleep(0.1)  # it holds the lock and is about to listen
        socket.write(request.encode("utf-8"))
        socket.flush()
        answer = bytearray()
        loop = QEventLoop()  # with events running: the running app may be this very process (tests)

        def read():
            answer.extend(bytes(socket.readAll()))
            if ACK in answer:
                loop.quit()

        socket.readyRead.connect(read)
        socket.disconnected.connect(loop.quit)
        timer = QTimer()
        timer.setSingleShot(True)
        timer.timeout.connect(loop.quit)
        timer.start(ANSWER_MS)
        if ACK not in answer:
            loop.exec()
        read()
        socket.abort()
        return ACK in answer
