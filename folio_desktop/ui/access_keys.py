"""Alt access keys on every dialog button, as Windows and Word have them (Alt+D presses Discard).

Two halves:
- Qt's standard buttons (Save, Discard, Cancel, OK... in every QMessageBox and QDialogButtonBox,
  QMessageBox.question's included) take their label from the platform theme, which gives most of them
  no access key on Linux. StandardButtonKeys, an application-wide translator, hands those labels back
  with one (install_button_keys, once per app).
- Buttons a dialog labels itself get one from give_access_keys: each button without an "&" takes the
  first letter of one of its words not already taken in the dialog, else any free letter of it.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QTranslator
from PySide6.QtWidgets import QAbstractButton, QWidget

# the platform theme's labels (context "QPlatformTheme") and the access key each takes
STANDARD = {"OK": "&OK", "Save": "&Save", "Save All": "Save &All", "Open": "&Open", "Abort": "&Abort",
            "Retry": "&Retry", "Ignore": "&Ignore", "Close": "&Close", "Cancel": "&Cancel", "Discard": "&Discard",
            "Help": "&Help", "Apply": "&Apply", "Reset": "&Reset", "Restore Defaults": "Restore &Defaults",
            "Don't Save": "Do&n't Save", "Close without Saving": "Close &without Saving"}
THEME_CONTEXTS = ("QPlatformTheme", "QGnomeTheme", "QDialogButtonBox", "QMessageBox")


class StandardButtonKeys(QTranslator):
    """Translates the standard buttons' labels to the same words with an access key; nothing else."""

    def translate(self, context, source_text, disambiguation=None, n=-1):  # noqa: D102 - Qt override
        if context in THEME_CONTEXTS:
            return STANDARD.get(source_text)
        return None

    def isEmpty(self) -> bool:  # noqa: N802 - Qt override
        return False


def install_button_keys() -> None:
    """Give the standard buttons access keys from now on, in the whole app (once)."""
    app = QCoreApplication.instance()
    if app is None or app.property("buttonKeys"):
        return
    translator = StandardButtonKeys(app)
    app.installTranslator(translator)
    app.setProperty("buttonKeys", True)


def access_key(text: str) -> str | None:
    """The letter after the single "&" of a label (lower case), or None when it has none."""
    i = 0
    while True:
        i = text.find("&", i)
        if i < 0 or i + 1 >= len(text):
            return None
        if text[i + 1] == "&":  # "&&" is a literal ampersand
            i += 2
            continue
        return text[i + 1].lower()


def with_access_key(text: str, taken: set[str]) -> str:
    """`text` with an access key not in `taken` (which it joins): a word's first letter if one is free,
    else any free letter or digit; unchanged when it has one already or none is free."""
    key = access_key(text)
    if key is not None:
        taken.add(key)
        return text
    starts = [i for i, ch in enumerate(text) if ch.isalnum() and (i == 0 or not text[i - 1].isalnum())]
    rest = [i for i, ch in enumerate(text) if ch.isalnum() and i not in starts]
    for i in starts + rest:
        if text[i].lower() not in taken:
            taken.add(text[i].lower())
            return text[:i] + "&" + text[i:]
    return text


def give_access_keys(dialog: QWidget) -> None:
    """Every button of a dialog (push buttons, check boxes...) with an access key of its own."""
    buttons = [b for b in dialog.findChildren(QAbstractButton) if b.text()]
    taken: set[str] = {k for k in (access_key(b.text()) for b in buttons) if k}
    for button in buttons:
        if access_key(button.text()) is None:
            button.setText(with_access_key(button.text(), taken))
