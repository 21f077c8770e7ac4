"""The first run's question: the name the lawyer's tracked changes and comments carry.

Word asks for it once and marks every change with it; so does the app, before anything is filed under
an account's login ("root", "jsmith"). The account's full name, when the system records one, is offered
ready to accept. The answer is kept in the settings (the Settings dialog changes it later); Later keeps
"Reviewer" for this session and asks again at the next start.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QLineEdit, QVBoxLayout

from ....assistant.settings import account_full_name, save_preferences


class AuthorPrompt(QDialog):
    def __init__(self, settings, parent=None):
        super().__init__(parent)
        self.settings = settings
        self.setObjectName("authorPrompt")
        self.setWindowTitle("Your name on tracked changes")
        intro = QLabel("Your tracked changes and comments are marked with your name, as in Word, so others "
                       "can tell them apart. Which name should they carry?")
        intro.setWordWrap(True)
        self.name = QLineEdit(account_full_name())
        self.name.setObjectName("authorName")
        self.name.setPlaceholderText("Your full name, for example Jane Smith")
        label = QLabel("&Name:")
        label.setBuddy(self.name)
        hint = QLabel("You can change it later in File > Settings.")
        hint.setEnabled(False)
        self.buttons = QDialogButtonBox()
        self.use_button = self.buttons.addButton("&Use This Name", QDialogButtonBox.AcceptRole)
        self.buttons.addButton("&Later", QDialogButtonBox.RejectRole)
        self.use_button.setDefault(True)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.name.textChanged.connect(lambda text: self.use_button.setEnabled(bool(text.strip())))
        self.use_button.setEnabled(bool(self.name.text().strip()))
        column = QVBoxLayout(self)
        column.addWidget(intro)
        column.addWidget(label)
        column.addWidget(self.name)
        column.addWidget(hint)
        column.addWidget(self.buttons)
        self.name.selectAll()
        self.name.setFocus(Qt.OtherFocusReason)

    def accept(self) -> None:
        name = self.name.text().strip()
        if not name:
            return
        self.settings.author = name
        self.settings.author_chosen = True
        save_preferences(self.settings)
        super().accept()


def ask_author_name(window) -> AuthorPrompt | None:
    """Ask the window's lawyer for their name when the settings have none chosen yet (the first run),
    without blocking: the answer takes effect in the window when given. None when nothing to ask."""
    if window.settings.author_chosen:
        return None
    prompt = AuthorPrompt(window.settings, window)
    prompt.setWindowModality(Qt.WindowModal)

    def chosen() -> None:
        window.apply_settings()
        window.statusBar().showMessage(f"Your tracked changes and comments will carry the name "
                                       f"{window.settings.author}.", 8000)

    prompt.accepted.connect(chosen)
    prompt.open()
    prompt.raise_()
    prompt.activateWindow()
    prompt.name.setFocus(Qt.OtherFocusReason)
    return prompt
