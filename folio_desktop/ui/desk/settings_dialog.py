"""SettingsDialog: the Anthropic API key, base URL, model, and the author name of tracked changes.

The key field is a password field that starts empty: typing a key replaces the stored one (kept
in the system keyring when one works, else in a credentials file only the user can read), leaving
it empty keeps it. The dialog says where the key in use comes from. ANTHROPIC_API_KEY and
ANTHROPIC_BASE_URL, when set, are honoured by load_settings; the dialog says so.
"""

from __future__ import annotations

import os

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
)

from ...assistant import AssistantSettings, save_preferences, store_api_key
from ...assistant.pricing import PRICES
from ...assistant.settings import SOURCE_ENVIRONMENT
from ..access_keys import give_access_keys


class SettingsDialog(QDialog):
    def __init__(self, settings: AssistantSettings, parent=None, environ=None):
        super().__init__(parent)
        self.settings = settings
        self._environ = os.environ if environ is None else environ
        self.setWindowTitle("Assistant settings")
        self.setMinimumWidth(480)
        form = QFormLayout()

        self.key_edit = QLineEdit()
        self.key_edit.setEchoMode(QLineEdit.Password)
        self.key_edit.setPlaceholderText("Paste a new key to replace the current one" if settings.api_key
                                         else "sk-ant-…")
        form.addRow("Anthropic API key", self.key_edit)
        self.key_status = QLabel()
        self.key_status.setWordWrap(True)
        form.addRow("", self.key_status)

        self.base_url_edit = QLineEdit()
        env_url = self._environ.get("ANTHROPIC_BASE_URL")
        self.base_url_edit.setText(settings.base_url or "")
        self.base_url_edit.setPlaceholderText(f"ANTHROPIC_BASE_URL: {env_url}" if env_url
                                              else "https://api.anthropic.com (default)")
        form.addRow("Base URL", self.base_url_edit)

        self.model_combo = QComboBox()
        self.model_combo.setEditable(True)
        models = list(dict.fromkeys([settings.model, *PRICES]))
        self.model_combo.addItems(models)
        self.model_combo.setCurrentText(settings.model)
        form.addRow("Model", self.model_combo)

        self.author_edit = QLineEdit(settings.author)
        self.author_edit.setPlaceholderText("The name tracked changes and comments are made under")
        form.addRow("Author name", self.author_edit)
        self.assistant_author_edit = QLineEdit(settings.assistant_author)
        self.assistant_author_edit.setPlaceholderText("The name Claude's proposals are made under")
        form.addRow("Claude's changes by", self.assistant_author_edit)
        self.resolve_others_check = QCheckBox("Let Claude resolve and reopen comments other people wrote")
        self.resolve_others_check.setToolTip("Resolving a comment is not a tracked change: it hides the thread at "
                                             "once. Off, Claude may resolve only its own comments.")
        self.resolve_others_check.setChecked(settings.allow_resolving_others)
        form.addRow("Comments", self.resolve_others_check)

        buttons = QDialogButtonBox(QDialogButtonBox.Save | QDialogButtonBox.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        outer = QVBoxLayout(self)
        outer.addLayout(form)
        outer.addWidget(buttons)
        give_access_keys(self)
        self.message = ""
        self._show_key_status()

    def _show_key_status(self) -> None:
        text = self.settings.describe_key()
        if self.settings.key_source != SOURCE_ENVIRONMENT and self._environ.get("ANTHROPIC_API_KEY"):
            text += " ANTHROPIC_API_KEY is set too and takes precedence the next time the app starts."
        elif self.settings.key_source == SOURCE_ENVIRONMENT:
            text += " A key saved here is used when that variable is not set."
        self.key_status.setText(text)

    def apply(self) -> str:
        """Save what the dialog shows into the settings (and to disk); returns a sentence saying
        where the key is kept, which the dialog shows too."""
        key = self.key_edit.text().strip()
        if key:
            store_api_key(self.settings, key)
            self.key_edit.clear()
        self.settings.model = self.model_combo.currentText().strip() or self.settings.model
        self.settings.author = self.author_edit.text().strip() or self.settings.author
        self.settings.author_chosen = True  # seen and saved here: the first run need not ask
        self.settings.assistant_author = self.assistant_author_edit.text().strip() or self.settings.assistant_author
        self.settings.allow_resolving_others = self.resolve_others_check.isChecked()
        # settings.json keeps only a URL typed here; ANTHROPIC_BASE_URL stays the environment's
        self.settings.base_url = self.base_url_edit.text().strip() or None
        save_preferences(self.settings)
        self._show_key_status()
        self.message = self.settings.describe_key() if key else "Settings saved."
        return self.message

    def accept(self) -> None:
        try:
            self.apply()
        except OSError as exc:
            self.key_status.setText(f"The settings could not be saved ({exc.strerror or exc}).")
            return
        super().accept()
