"""The first run asks for the name tracked changes carry, offering the account's full name (never a
login such as "root"), keeps the answer in settings.json, and the lawyer's typing is filed under it;
a later start does not ask again."""

from __future__ import annotations

import json
import pwd
import shutil
from types import SimpleNamespace

import pytest
from key_helpers import no_blocking_dialogs
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from typing_helpers import SAMPLE, click_at

from folio_desktop.assistant import settings as settings_module
from folio_desktop.assistant.settings import account_full_name, load_settings
from folio_desktop.ui import app as desk_app
from folio_desktop.ui.desk.app_shell.author_prompt import AuthorPrompt


def account(monkeypatch, gecos: str, login: str = "root") -> None:
    monkeypatch.setattr(pwd, "getpwuid", lambda _uid: SimpleNamespace(pw_gecos=gecos, pw_name=login))
    monkeypatch.setattr(settings_module.getpass, "getuser", lambda: login)


@pytest.fixture
def config(tmp_path, monkeypatch):
    no_blocking_dialogs(monkeypatch)
    folder = tmp_path / "config"
    monkeypatch.setenv("FOLIO_DESKTOP_CONFIG_DIR", str(folder))
    monkeypatch.setenv("ANTHROPIC_API_KEY", "")
    return folder


def start(qtbot, tmp_path):
    copy = tmp_path / SAMPLE.name
    shutil.copyfile(SAMPLE, copy)
    window = desk_app.start_window(str(copy))
    qtbot.addWidget(window)
    window.files.ask_before_discarding = False
    qtbot.waitExposed(window)
    return window


def the_prompt(qtbot) -> AuthorPrompt:
    qtbot.waitUntil(lambda: isinstance(QApplication.activeWindow(), AuthorPrompt), timeout=3_000)
    return QApplication.activeWindow()


@pytest.mark.parametrize(("gecos", "login", "expected"), [
    ("Jane Q. Lawyer,Room 4,555-0100,", "jql", "Jane Q. Lawyer"),
    ("root", "root", ""), ("jsmith,,,", "jsmith", ""), ("", "jsmith", ""), ("& Smith,,", "john", "John Smith"),
])
def test_the_full_name_comes_from_the_account_never_its_login(monkeypatch, gecos, login, expected):
    account(monkeypatch, gecos, login)
    assert account_full_name() == expected


def test_the_first_run_offers_the_full_name_and_the_typing_carries_it(qtbot, tmp_path, config, monkeypatch):
    account(monkeypatch, "Jane Q. Lawyer,Room 4,,")
    window = start(qtbot, tmp_path)
    prompt = the_prompt(qtbot)
    assert prompt.name.text() == "Jane Q. Lawyer" and QApplication.focusWidget() is prompt.name
    QTest.keyClick(prompt.name, Qt.Key_Return)
    qtbot.waitUntil(lambda: not prompt.isVisible(), timeout=2_000)
    saved = json.loads((config / "settings.json").read_text())
    assert saved["author"] == "Jane Q. Lawyer" and saved["authorChosen"] is True
    assert window.settings.author == "Jane Q. Lawyer"
    # the lawyer's typing is a tracked change under that name, not the login's
    qtbot.waitUntil(lambda: window.view.is_laid_out, timeout=10_000)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=2_000)
    block = window.reviewer.snapshot().content_blocks[0].id
    click_at(qtbot, window.view, block, 0)
    QTest.keyClicks(window.view, "New ")
    authors = {c.author for c in window.reviewer.get_changes() if c.type == "insertion" and "New" in c.text}
    assert authors == {"Jane Q. Lawyer"}
    window.close()
    # the next start asks nothing
    again = start(qtbot, tmp_path)
    QApplication.processEvents()
    assert not isinstance(QApplication.activeModalWidget(), AuthorPrompt)
    assert again.settings.author == "Jane Q. Lawyer"


def test_a_login_is_never_offered_and_the_name_is_typed(qtbot, tmp_path, config, monkeypatch):
    account(monkeypatch, "root")
    assert load_settings(config, environ={}, use_keyring=False).author == "Reviewer"
    window = start(qtbot, tmp_path)
    prompt = the_prompt(qtbot)
    assert prompt.name.text() == "" and not prompt.use_button.isEnabled()
    QTest.keyClicks(prompt.name, "A. Counsel")
    QTest.keyClick(prompt.name, Qt.Key_U, Qt.AltModifier)  # Use This Name
    qtbot.waitUntil(lambda: not prompt.isVisible(), timeout=2_000)
    assert window.settings.author == "A. Counsel" == window.review_actions.author
    assert json.loads((config / "settings.json").read_text())["author"] == "A. Counsel"


def test_settings_that_kept_the_login_ask_again(config, monkeypatch):
    account(monkeypatch, "", login="jsmith")
    config.mkdir(parents=True)
    (config / "settings.json").write_text(json.dumps({"author": "jsmith", "model": "m"}))
    assert not load_settings(config, environ={}, use_keyring=False).author_chosen
    (config / "settings.json").write_text(json.dumps({"author": "J. Smith", "model": "m"}))
    assert load_settings(config, environ={}, use_keyring=False).author_chosen
