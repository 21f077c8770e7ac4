"""One running app per user and config folder: the first claim listens, a later one hands its file
over; config folders of their own never meet; a crashed app's lock and socket do not block the next."""

from __future__ import annotations

import os
import stat
import subprocess
import sys

import pytest
from conftest import ROOT
from PySide6.QtWidgets import QApplication

from folio_desktop.ui.single_instance import INSTANCE_LOCK, SingleInstance, server_name


def make(config, released: list) -> SingleInstance:
    instance = SingleInstance(config)
    released.append(instance)
    return instance


@pytest.fixture
def instances():
    made: list[SingleInstance] = []
    yield made
    for instance in made:
        instance.release()


def test_a_second_claim_hands_its_file_to_the_first(qtbot, tmp_path, instances):
    config = tmp_path / "config"
    first, second = make(config, instances), make(config, instances)
    assert first.claim()
    assert not second.claim()  # the app runs already for this config folder
    document = tmp_path / "Contract.docx"
    with qtbot.waitSignal(first.requested, timeout=5000) as asked:
        assert second.hand_over(document)
    assert asked.args == [str(document)]
    with qtbot.waitSignal(first.requested, timeout=5000) as asked:
        assert second.hand_over(None)  # no file: the app comes forward
    assert asked.args == [None]


def test_a_relative_path_is_handed_over_absolute(qtbot, tmp_path, instances, monkeypatch):
    monkeypatch.chdir(tmp_path)
    first, second = make(tmp_path / "c", instances), make(tmp_path / "c", instances)
    assert first.claim() and not second.claim()
    with qtbot.waitSignal(first.requested, timeout=5000) as asked:
        assert second.hand_over("Contract.docx")
    assert asked.args == [str(tmp_path / "Contract.docx")]


def test_config_folders_of_their_own_do_not_meet(tmp_path, instances):
    assert server_name(tmp_path / "a") != server_name(tmp_path / "b")
    assert make(tmp_path / "a", instances).claim()
    assert make(tmp_path / "b", instances).claim()


def test_released_the_next_claim_is_the_app(tmp_path, instances):
    first = make(tmp_path / "c", instances)
    assert first.claim()
    first.release()
    assert not (tmp_path / "c" / INSTANCE_LOCK).exists()
    assert make(tmp_path / "c", instances).claim()


@pytest.mark.skipif(sys.platform == "win32", reason="a POSIX socket file")
def test_only_this_user_can_reach_the_socket(tmp_path, instances):
    instance = make(tmp_path / "c", instances)
    assert instance.claim() and instance.server is not None
    socket_path = instance.server.fullServerName()
    assert socket_path == instance.name and os.path.isabs(socket_path)
    assert stat.S_ISSOCK(os.stat(socket_path).st_mode)
    assert os.stat(socket_path).st_mode & 0o077 == 0
    folder = os.stat(os.path.dirname(socket_path))
    assert folder.st_uid == os.getuid() and folder.st_mode & 0o077 == 0


def test_a_crashed_apps_lock_and_socket_do_not_block_the_next_start(qtbot, tmp_path, instances):
    config = tmp_path / "config"
    crash = ("import os, sys\n"
             "from PySide6.QtCore import QCoreApplication\n"
             "from folio_desktop.ui.single_instance import SingleInstance\n"
             "app = QCoreApplication([])\n"
             "instance = SingleInstance(sys.argv[1])\n"
             "assert instance.claim()\n"
             "os._exit(0)  # no release: the lock and the socket stay behind, as after a crash\n")
    proc = subprocess.run([sys.executable, "-c", crash, str(config)], cwd=ROOT, capture_output=True, text=True,
                          timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stderr
    assert (config / INSTANCE_LOCK).exists()
    if sys.platform != "win32":
        assert os.path.exists(server_name(config))
    first, second = make(config, instances), make(config, instances)
    assert first.claim()  # the dead app's lock is stale, its socket removed
    assert not second.claim()
    with qtbot.waitSignal(first.requested, timeout=5000):
        assert second.hand_over(tmp_path / "x.docx")


def test_a_bad_request_is_dropped_and_the_app_still_answers(qtbot, tmp_path, instances):
    from PySide6.QtNetwork import QLocalSocket

    first = make(tmp_path / "c", instances)
    assert first.claim()
    heard = []
    first.requested.connect(heard.append)
    for junk in (b"not json\n", b'{"open": "relative.docx"}\n', b'["open"]\n'):
        socket = QLocalSocket()
        socket.connectToServer(first.name)
        assert socket.waitForConnected(2000)
        socket.write(junk)
        socket.flush()
        qtbot.waitUntil(lambda s=socket: s.state() == QLocalSocket.LocalSocketState.UnconnectedState, timeout=3000)
    QApplication.processEvents()
    assert heard == []
    with qtbot.waitSignal(first.requested, timeout=5000):
        assert make(tmp_path / "c", instances).hand_over(tmp_path / "x.docx")
