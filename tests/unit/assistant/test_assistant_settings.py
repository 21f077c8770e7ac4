"""Assistant settings: where the key comes from, where a typed key is kept, and prices."""

from __future__ import annotations

import json
import os
import sys

import pytest

from folio_desktop.assistant import settings as settings_mod
from folio_desktop.assistant.pricing import Usage, price_for
from folio_desktop.assistant.settings import (
    CREDENTIALS_FILE,
    DEFAULT_MODEL,
    SETTINGS_FILE,
    load_settings,
    save_preferences,
    store_api_key,
)


class MemoryKeyring:
    """A keyring backend that works (the test machine has none)."""

    def __init__(self):
        self.store = {}

    def get_password(self, service, user):
        return self.store.get((service, user))

    def set_password(self, service, user, value):
        self.store[(service, user)] = value


@pytest.fixture
def no_keyring(monkeypatch):
    monkeypatch.setattr(settings_mod, "_keyring", lambda: None)


def test_the_environment_key_wins_and_base_url_comes_from_the_sdk_variable(tmp_path, no_keyring):
    (tmp_path / CREDENTIALS_FILE).write_text(json.dumps({"apiKey": "from-file"}))
    env = {"ANTHROPIC_API_KEY": "from-env", "ANTHROPIC_BASE_URL": "http://127.0.0.1:9"}
    s = load_settings(tmp_path, environ=env)
    assert (s.api_key, s.key_source, s.base_url, s.model) == ("from-env", "environment", None, DEFAULT_MODEL)
    assert "ANTHROPIC_API_KEY" in s.describe_key()


def test_the_environment_base_url_is_used_but_never_saved(tmp_path, no_keyring, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "http://proxy.invalid")
    loaded = load_settings(tmp_path)
    assert loaded.base_url is None and loaded.effective_base_url == "http://proxy.invalid"
    loaded.author = "A. Lawyer"
    save_preferences(loaded)
    monkeypatch.delenv("ANTHROPIC_BASE_URL")
    again = load_settings(tmp_path)
    assert again.author == "A. Lawyer" and again.base_url is None and again.effective_base_url is None


def test_a_typed_key_goes_to_an_owner_only_file_without_a_keyring(tmp_path, no_keyring):
    s = load_settings(tmp_path, environ={})
    assert s.api_key is None and s.describe_key() == "No API key is set."
    assert store_api_key(s, "  sk-typed  ") == "settings file"
    path = tmp_path / CREDENTIALS_FILE
    assert os.stat(path).st_mode & 0o777 == 0o600
    again = load_settings(tmp_path, environ={})
    assert (again.api_key, again.key_source) == ("sk-typed", "settings file")
    assert str(path) in again.describe_key() and "readable only by you" in again.describe_key()


def test_a_working_keyring_keeps_the_key_and_the_file_copy_goes(tmp_path, monkeypatch):
    ring = MemoryKeyring()
    monkeypatch.setattr(settings_mod, "_keyring", lambda: ring)
    (tmp_path / CREDENTIALS_FILE).write_text(json.dumps({"apiKey": "old"}))
    s = load_settings(tmp_path, environ={})
    assert store_api_key(s, "sk-ring") == "keyring"
    assert not (tmp_path / CREDENTIALS_FILE).exists()
    assert load_settings(tmp_path, environ={}).key_source == "keyring"


def test_preferences_round_trip_and_override_the_base_url_variable(tmp_path, no_keyring):
    s = load_settings(tmp_path, environ={})
    assert s.assistant_author == "Claude"  # Claude's proposals are told apart from the lawyer's edits
    s.model, s.author, s.base_url = "claude-opus-5-5", "Jane Lawyer", "http://proxy.local"
    s.assistant_author = "AI reviewer"
    save_preferences(s)
    assert "apiKey" not in json.loads((tmp_path / SETTINGS_FILE).read_text())
    again = load_settings(tmp_path, environ={"ANTHROPIC_BASE_URL": "http://elsewhere"})
    assert (again.model, again.author, again.base_url) == ("claude-opus-5-5", "Jane Lawyer", "http://proxy.local")
    assert again.assistant_author == "AI reviewer"


def test_unreadable_settings_fall_back_to_defaults(tmp_path, no_keyring):
    (tmp_path / SETTINGS_FILE).write_text("{not json")
    (tmp_path / CREDENTIALS_FILE).write_text("[1, 2]")
    s = load_settings(tmp_path, environ={})
    assert s.model == DEFAULT_MODEL and s.api_key is None


def test_cost_uses_the_longest_matching_price():
    usage = Usage(input_tokens=1_000_000, output_tokens=100_000, cache_creation_input_tokens=0,
                  cache_read_input_tokens=1_000_000)
    assert price_for("claude-sonnet-5-5-20260929") == price_for("claude-sonnet-5-5") != price_for("claude-opus-5")
    assert usage.cost("claude-sonnet-5-5") == pytest.approx(2.0 + 1.0 + 0.2)
    assert usage.cost("some-other-model") is None
    assert "no price known" in usage.describe("some-other-model")
    # a cloud's id is priced as the Anthropic model it names
    assert usage.cost("us.anthropic.claude-sonnet-5-5-20260929-v1:0") == usage.cost("claude-sonnet-5-5@20260929") \
        == pytest.approx(3.2)


@pytest.mark.skipif(os.name != "posix" or sys.platform == "darwin", reason="the XDG rules are the Linux/BSD ones")
@pytest.mark.parametrize("xdg", ["", "relative/config"])
def test_an_empty_or_relative_xdg_config_home_is_ignored_as_the_spec_says(monkeypatch, tmp_path, xdg):
    # the XDG spec: such a value is invalid; the settings must not land in whatever folder is current
    monkeypatch.delenv("FOLIO_DESKTOP_CONFIG_DIR", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", xdg)
    assert settings_mod.default_config_dir() == tmp_path / ".config" / "folio-desktop"


def test_the_config_folder_follows_xdg_config_home_and_the_override(monkeypatch, tmp_path):
    monkeypatch.delenv("FOLIO_DESKTOP_CONFIG_DIR", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    if os.name == "posix" and sys.platform != "darwin":
        assert settings_mod.default_config_dir() == tmp_path / "xdg" / "folio-desktop"
    monkeypatch.setenv("FOLIO_DESKTOP_CONFIG_DIR", str(tmp_path / "mine"))
    assert settings_mod.default_config_dir() == tmp_path / "mine"
