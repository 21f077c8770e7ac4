"""SettingsDialog: where Claude is reached (Anthropic, Amazon Bedrock or Google Vertex AI, with the
cloud's region and project), the Anthropic API key, base URL, model, and the author name of tracked changes.

Bedrock and Vertex take their credentials from the provider's own chain (AWS variables or profile,
Google Application Default Credentials): the dialog only says so, it never asks for them.

The key field is a password field that starts empty: typing a key replaces the stored one (kept
in the system keyring when one works, else in a credentials file only the user can read), leaving
it empty keeps it. The dialog says where the key in use comes from. ANTHROPIC_API_KEY and
ANTHROPIC_BASE_URL, when set, are honoured by load_settings; the dialog says so.
"""

from __future__ import annotations

import os
from dataclasses import replace

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
from ...assistant.providers import ANTHROPIC, PROVIDERS, VERTEX, provider_for
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

        self.provider_combo = QComboBox()
        for provider in PROVIDERS.values():
            self.provider_combo.addItem(provider.title, provider.id)
        self.provider_combo.setCurrentIndex(max(0, self.provider_combo.findData(settings.provider)))
        form.addRow("Claude through", self.provider_combo)
        self.region_edit = QLineEdit(settings.region or "")
        form.addRow("Region", self.region_edit)
        self.project_edit = QLineEdit(settings.project or "")
        self.project_edit.setPlaceholderText("ANTHROPIC_VERTEX_PROJECT_ID, or the credentials' project")
        form.addRow("Google Cloud project", self.project_edit)

        self.key_edit = QLineEdit()
        self.key_edit.setEchoMode(QLineEdit.Password)
        self.key_edit.setPlaceholderText("Paste a new key to replace the current one" if settings.api_key
                                         else "sk-ant-…")
        form.addRow("Anthropic API key", self.key_edit)
        self.key_status = QLabel()
        self.key_status.setWordWrap(True)
        form.addRow("", self.key_status)

        self.base_url_edit = QLineEdit()
        self.base_url_edit.setText(settings.base_url or "")
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
        self.provider_combo.currentIndexChanged.connect(self._show_provider)
        self._show_provider()

    def _show_provider(self) -> None:
        """Only the fields the chosen provider uses are enabled, with its own hints."""
        provider = provider_for(self.provider_combo.currentData())
        self.key_edit.setEnabled(provider.id == ANTHROPIC)
        self.region_edit.setEnabled(provider.id != ANTHROPIC)
        self.project_edit.setEnabled(provider.id == VERTEX)
        env_region = next((f"{name}: {self._environ[name]}" for name in provider.region_envs
                           if self._environ.get(name)), "")
        self.region_edit.setPlaceholderText(env_region or {"bedrock": "e.g. us-east-1 (or AWS_REGION)",
                                                           "vertex": "e.g. us-east5 or global"}.get(provider.id, ""))
        env_url = self._environ.get(provider.base_url_env)
        self.base_url_edit.setPlaceholderText(f"{provider.base_url_env}: {env_url}" if env_url else
                                              f"{provider.title}'s own endpoint (default)")
        self.model_combo.setToolTip({"bedrock": "A Bedrock model or inference profile id, e.g. "
                                                "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
                                     "vertex": "A Vertex AI model id, e.g. claude-sonnet-4-5@20250929"}
                                    .get(provider.id, "An Anthropic model id"))
        self._show_key_status()

    def _show_key_status(self) -> None:
        chosen = self.provider_combo.currentData()
        if chosen != ANTHROPIC:
            self.key_status.setText(replace(self.settings, provider=chosen).describe_key())
            return
        text = self.settings.describe_key()
        if self.settings.key_source != SOURCE_ENVIRONMENT and self._environ.get("ANTHROPIC_API_KEY"):
            text += " ANTHROPIC_API_KEY is set too and takes precedence the next time the app starts."
        elif self.settings.key_source == SOURCE_ENVIRONMENT:
            text += " A key saved here is used when that variable is not set."
        self.key_status.setText(text)

    def apply(self) -> str:
        """Save what the dialog shows into the settings (and to disk); returns a sentence saying
        where the key is kept, which the dialog shows too."""
        key = self.key_edit.text().strip() if self.key_edit.isEnabled() else ""
        self.settings.provider = self.provider_combo.currentData() or ANTHROPIC
        self.settings.region = self.region_edit.text().strip() or None
        self.settings.project = self.project_edit.text().strip() or None
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
