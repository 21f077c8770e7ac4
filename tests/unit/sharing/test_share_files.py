"""The token and the share file hold a credential (sharing/mcp_window.py): they are 0600 after every write,
whatever they were before, in a config folder only this user may enter; a token found where others
could read it is replaced, one kept privately is reused."""

import os
import stat
import sys

import pytest

from folio_desktop.sharing.mcp_window import (
    TOKEN_FILE,
    read_share_file,
    share_file,
    share_token,
    write_share_file,
)

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_a_token_others_could_read_is_replaced_and_everything_ends_up_private(tmp_path):
    config = tmp_path / "config"
    config.mkdir(mode=0o755)
    os.chmod(config, 0o755)
    leaked = "x" * 43
    (config / TOKEN_FILE).write_text(leaked)
    os.chmod(config / TOKEN_FILE, 0o644)
    share_file(config).write_text("{}")
    os.chmod(share_file(config), 0o644)

    token = share_token(config)
    assert token != leaked and len(token) >= 32
    assert (config / TOKEN_FILE).read_text() == token
    write_share_file(config, "http://127.0.0.1:1/mcp", token, "pilot.docx")
    assert read_share_file(config)["token"] == token
    assert mode(config / TOKEN_FILE) == 0o600 and mode(share_file(config)) == 0o600 and mode(config) == 0o700


def test_a_private_token_is_kept_and_rewrites_stay_private(tmp_path):
    config = tmp_path / "config"
    first = share_token(config)
    assert mode(config) == 0o700 and mode(config / TOKEN_FILE) == 0o600
    assert share_token(config) == first  # a client configured once connects again

    os.chmod(config / TOKEN_FILE, 0o640)  # readable by the group now
    second = share_token(config)
    assert second != first and mode(config / TOKEN_FILE) == 0o600

    write_share_file(config, "http://127.0.0.1:1/mcp", second, "a.docx")
    os.chmod(share_file(config), 0o644)
    write_share_file(config, "http://127.0.0.1:2/mcp", second, "b.docx")
    assert mode(share_file(config)) == 0o600 and read_share_file(config)["document"] == "b.docx"


def test_a_token_file_that_is_a_link_is_not_trusted(tmp_path):
    config = tmp_path / "config"
    config.mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.write_text("y" * 43)
    os.chmod(elsewhere, 0o600)
    (config / TOKEN_FILE).symlink_to(elsewhere)
    assert share_token(config) != "y" * 43
    assert (config / TOKEN_FILE).is_file() and not (config / TOKEN_FILE).is_symlink()
    assert elsewhere.read_text() == "y" * 43  # written in place of the link, not through it
