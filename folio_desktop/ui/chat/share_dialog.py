"""The Share with an MCP client window: where the shared document is served, and how to connect a client.

Modeless, so the lawyer keeps reviewing while a client works; closing it does not stop the sharing
(Stop sharing does, as does closing the document)."""

from __future__ import annotations

import json
import sys
from html import escape
from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
)

from ..access_keys import give_access_keys

SERVER_NAME = "folio-desktop"


def claude_code_command(url: str, token: str) -> str:
    return f'claude mcp add --transport http {SERVER_NAME} {url} --header "Authorization: Bearer {token}"'


def client_config(url: str, token: str) -> str:
    """The entry most MCP clients read (.mcp.json, VS Code, Cursor): a streamable HTTP server with a header."""
    entry = {"type": "http", "url": url, "headers": {"Authorization": f"Bearer {token}"}}
    return json.dumps({"mcpServers": {SERVER_NAME: entry}}, indent=2)


def launcher_entry() -> dict:
    """How Claude Desktop starts `folio-desktop mcp --window` on this machine (it launches stdio servers only)."""
    if getattr(sys, "frozen", False):  # the packaged app is its own command line
        return {"command": sys.executable, "args": ["mcp", "--window"]}
    script = Path(sys.executable).with_name("folio-desktop" + (".exe" if sys.platform == "win32" else ""))
    if script.exists():
        return {"command": str(script), "args": ["mcp", "--window"]}
    return {"command": sys.executable, "args": ["-m", "folio_desktop", "mcp", "--window"]}


def claude_desktop_config() -> str:
    return json.dumps({"mcpServers": {SERVER_NAME: launcher_entry()}}, indent=2)


class ShareDialog(QDialog):
    stopRequested = Signal()

    def __init__(self, document_name: str, url: str, token: str, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Share with an MCP client")
        self.setObjectName("shareDialog")
        column = QVBoxLayout(self)
        intro = QLabel(f"<b>{escape(document_name)}</b> is shared with MCP clients on this computer "
                       "(Claude Code, Claude Desktop, other AI tools). Their edits arrive as tracked changes and "
                       "comments for you to review, in the pages as they are made; Undo takes back a client's "
                       "turn as one step. Only a client given this token can connect. Sharing stops when you "
                       "close the document or press Stop sharing.")
        intro.setWordWrap(True)
        column.addWidget(intro)

        grid = QGridLayout()
        self.url_field = self._field(url)
        self.token_field = self._field(token)
        for row, (label, field, copy) in enumerate((("Server address", self.url_field, "Copy &address"),
                                                    ("Token", self.token_field, "Copy &token"))):
            grid.addWidget(QLabel(label), row, 0)
            grid.addWidget(field, row, 1)
            grid.addWidget(self._copy_button(field.text(), copy), row, 2)
        column.addLayout(grid)

        self.command_text = claude_code_command(url, token)
        self.desktop_text = claude_desktop_config()
        self.config_text = client_config(url, token)
        for title, text, copy in (("Claude Code: run once in a terminal", self.command_text, "Copy co&mmand"),
                                  ("Claude Desktop: add to claude_desktop_config.json once (it finds whatever "
                                   "document is shared here)", self.desktop_text, "Copy for Claude &Desktop"),
                                  ("Other clients: add to their MCP configuration", self.config_text,
                                   "Copy c&onfiguration")):
            heading = QHBoxLayout()
            heading.addWidget(QLabel(title), 1)
            heading.addWidget(self._copy_button(text, copy))
            column.addLayout(heading)
            box = QPlainTextEdit(text)
            box.setReadOnly(True)
            box.setMaximumHeight(44 if "\n" not in text else 130)
            column.addWidget(box)

        buttons = QDialogButtonBox(QDialogButtonBox.Close)
        self.stop_button = buttons.addButton("&Stop sharing", QDialogButtonBox.DestructiveRole)
        self.stop_button.clicked.connect(self._stop)
        buttons.rejected.connect(self.close)
        column.addWidget(buttons)
        give_access_keys(self)  # the Copy buttons too (access_keys.py)
        self.resize(620, self.sizeHint().height())

    def _field(self, text: str) -> QLineEdit:
        field = QLineEdit(text)
        field.setReadOnly(True)
        field.setCursorPosition(0)
        return field

    def _copy_button(self, text: str, label: str) -> QPushButton:
        button = QPushButton(label)  # each its own access key: Alt+A copies the address
        button.setToolTip("Copy to the clipboard")
        button.clicked.connect(lambda: QGuiApplication.clipboard().setText(text))
        return button

    def _stop(self) -> None:
        self.stopRequested.emit()
        self.close()

