"""`folio-desktop mcp --window`: the document the folio-desktop window shares, for an MCP client that only
starts servers itself over stdio (Claude Desktop).

While the window shares a document (Tools > Share with an MCP client) it keeps a small share file in the
config folder: the server's address, its token and the document's name, readable by this user only, and
removed when sharing stops. This launcher reads it on every call and forwards the call to the window over
streamable HTTP, under the name its own client gave, so the window's audit log and undo steps name Claude
Desktop. Reading the file each time means one configuration keeps working across documents, restarts of
the app and a new port; when nothing is shared the client is told, in words, what to do.
"""

from __future__ import annotations

import json
import os
import secrets
import stat
from pathlib import Path

import anyio
import mcp_types as types

from ..docx.package.files import atomic_write
from .mcp_http import client_session
from .mcp_server import Client, error_result, tool_list

SHARE_FILE = "mcp-share.json"
TOKEN_FILE = "mcp-token"
NOT_SHARED = ("No document is shared by folio-desktop right now. Open the contract in folio-desktop and choose "
              "Tools > Share with an MCP client, then ask again.")


def share_file(config_dir: str | os.PathLike) -> Path:
    return Path(config_dir) / SHARE_FILE


def write_share_file(config_dir, url: str, token: str, document: str) -> Path:
    path = share_file(_private_folder(config_dir))
    data = {"url": url, "token": token, "document": document}
    _write_private(path, json.dumps(data, ensure_ascii=False).encode("utf-8"))  # the token is a credential
    return path


def share_token(config_dir) -> str:
    """The token clients must send: made once and kept (readable by this user only), so a client
    configured once connects again the next time the lawyer shares a document. A token kept where
    others could read it may be known to them: a new one replaces it (clients then need the new one)."""
    path = _private_folder(config_dir) / TOKEN_FILE
    token = _read_private(path)
    if len(token) < 32:
        token = secrets.token_urlsafe(32)
        _write_private(path, token.encode("ascii"))
    return token


def _private_folder(config_dir) -> Path:
    """The config folder, made (or kept) readable by this user only."""
    folder = Path(config_dir)
    folder.mkdir(parents=True, exist_ok=True)
    if os.name == "posix" and stat.S_IMODE(folder.stat().st_mode) != 0o700:
        os.chmod(folder, 0o700)
    return folder


def _read_private(path: Path) -> str:
    """The file's text when it is a file of this user's that nobody else may read or write, else ""."""
    try:
        st = os.lstat(path)
        if not stat.S_ISREG(st.st_mode):
            return ""
        if os.name == "posix" and (st.st_mode & 0o077 or st.st_uid != os.getuid()):
            return ""
        return path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return ""


def _write_private(path: Path, data: bytes) -> None:
    """Write atomically, 0600 whatever the file was before: atomic_write keeps an existing file's mode, so
    an existing file is made 0600 first (and the result checked after, should that have failed)."""
    posix = os.name == "posix"
    if path.is_symlink():
        path.unlink()  # a credential is written here, never through a link to somewhere else
    elif posix and path.is_file():
        try:
            os.chmod(path, 0o600)
        except OSError:
            pass
    atomic_write(path, data, private=True)
    if posix and stat.S_IMODE(path.stat().st_mode) != 0o600:
        os.chmod(path, 0o600)


def remove_share_file(config_dir, url: str) -> None:
    """Remove the share file if it is still this server's (another window may have shared since)."""
    share = read_share_file(config_dir)
    if share is not None and share.get("url") == url:
        share_file(config_dir).unlink(missing_ok=True)


def read_share_file(config_dir) -> dict | None:
    try:
        share = json.loads(share_file(config_dir).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    ok = isinstance(share, dict) and isinstance(share.get("url"), str) and isinstance(share.get("token"), str)
    return share if ok else None


class WindowLauncher:
    """A ToolHost that answers every call from the window sharing a document, through its share file."""

    def __init__(self, config_dir):
        self.config_dir = Path(config_dir)

    def tools(self) -> list[types.Tool]:
        return tool_list()  # the window answers them all, the live-view tools included

    def call(self, name: str, arguments: dict, client: Client) -> types.CallToolResult:
        share = read_share_file(self.config_dir)
        if share is None:
            return error_result(NOT_SHARED)
        try:
            return anyio.run(_forward, share, name, arguments, client.name)
        except Exception as exc:  # noqa: BLE001 - refused, gone, or a token from an older share
            return error_result(f"folio-desktop's window did not answer at {share['url']} "
                                f"({_first_cause(exc)}). Is the document still shared there (Tools > Share with "
                                "an MCP client)? Then ask again.")


async def _forward(share: dict, name: str, arguments: dict, client_name: str) -> types.CallToolResult:
    async with client_session(share["url"], share["token"], client_name) as session:
        return await session.call_tool(name, arguments)


def _first_cause(exc: BaseException) -> str:
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__

