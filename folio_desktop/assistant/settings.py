"""Assistant settings: provider, API key, base URL, model and the author name tracked changes are made under.

The API key comes from ANTHROPIC_API_KEY when set (the SDK's own variable), else from the system
keyring when a working backend exists, else from a credentials file only its owner can read
(0600). The other preferences live in settings.json next to it. ANTHROPIC_BASE_URL (or, for
Bedrock and Vertex, the SDK's ANTHROPIC_BEDROCK_BASE_URL / ANTHROPIC_VERTEX_BASE_URL) is honoured
unless the settings give a base URL of their own. Bedrock and Vertex credentials are never kept
here: their own chains supply them (providers.py).
"""

from __future__ import annotations

import getpass
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import platformdirs

from ..docx.package.files import private_folder
from .providers import ANTHROPIC, BEDROCK, PROVIDERS, VERTEX, provider_for

DEFAULT_MODEL = "claude-sonnet-5-5"
DEFAULT_ASSISTANT_AUTHOR = "Claude"  # so the lawyer can tell Claude's proposals from their own edits
KEYRING_SERVICE = "folio-desktop"
KEYRING_USER = "anthropic-api-key"
APP_DIR = "folio-desktop"  # the settings folder's name in the platform's config folder
SETTINGS_FILE = "settings.json"
CREDENTIALS_FILE = "credentials.json"

SOURCE_ENVIRONMENT = "environment"
SOURCE_KEYRING = "keyring"
SOURCE_FILE = "settings file"


def default_config_dir() -> Path:
    """Where settings live: FOLIO_DESKTOP_CONFIG_DIR, else the platform's per-user config folder
    (platformdirs: the roaming AppData folder as Windows reports it, Application Support on macOS,
    XDG_CONFIG_HOME elsewhere, where an empty or relative value is ignored as the XDG spec says)."""
    override = os.environ.get("FOLIO_DESKTOP_CONFIG_DIR")
    if override:
        return Path(override)
    return Path(platformdirs.user_config_dir(APP_DIR, appauthor=False, roaming=True))


DEFAULT_AUTHOR = "Reviewer"  # until the lawyer gives a name: never the login ("root", "jsmith")


def login_name() -> str:
    try:
        return getpass.getuser() or ""
    except (KeyError, OSError):  # no user name in this environment (containers)
        return ""


def account_full_name() -> str:
    """The account's full name as the system records it (the first field of the password entry's
    GECOS, "Jane Q. Lawyer,Room 4,,"), or "" when there is none, or it is only the login again."""
    try:
        import pwd

        gecos = pwd.getpwuid(os.getuid()).pw_gecos or ""
    except (ImportError, KeyError, OSError, AttributeError):  # Windows, or no entry for this user
        return ""
    name = gecos.split(",")[0].strip()
    login = login_name()
    if not name or name.casefold() in {login.casefold(), "root"}:
        return ""
    return name.replace("&", login.capitalize())  # the old BSD shorthand for the login, capitalised


def _default_author() -> str:
    return account_full_name() or DEFAULT_AUTHOR


@dataclass
class AssistantSettings:
    provider: str = ANTHROPIC  # providers.ANTHROPIC | BEDROCK | VERTEX
    region: str | None = None  # Bedrock or Vertex; None: the provider's environment variable or profile
    project: str | None = None  # Vertex's Google Cloud project; None: ANTHROPIC_VERTEX_PROJECT_ID or the ADC's
    api_key: str | None = None
    key_source: str | None = None  # SOURCE_ENVIRONMENT | SOURCE_KEYRING | SOURCE_FILE | None
    base_url: str | None = None  # the settings' own override; None: the provider's variable or the SDK's default
    model: str = DEFAULT_MODEL
    author: str = field(default_factory=_default_author)  # the lawyer's own edits and comments
    # the lawyer gave the author name (the first run asks: ui/desk/app_shell/author_prompt.py)
    author_chosen: bool = True
    assistant_author: str = DEFAULT_ASSISTANT_AUTHOR  # Claude's tracked changes, comments and replies
    # resolving a comment is not a tracked change: closing someone else's thread takes the lawyer's leave
    allow_resolving_others: bool = False
    config_dir: Path = field(default_factory=default_config_dir)

    @property
    def effective_base_url(self) -> str | None:
        """The URL requests go to: the override, else the provider's variable (the SDK reads it itself)."""
        return self.base_url or os.environ.get(provider_for(self.provider).base_url_env) or None

    def describe_key(self) -> str:
        """One sentence for the settings dialog: where the key (or the cloud's credentials) comes from."""
        if self.provider == BEDROCK:
            return ("Amazon Bedrock uses your AWS credentials as the AWS tools find them (AWS_ACCESS_KEY_ID and "
                    "AWS_SECRET_ACCESS_KEY, AWS_PROFILE, or an SSO login); this app does not store them.")
        if self.provider == VERTEX:
            return ("Google Vertex AI uses your Google Application Default Credentials (gcloud auth "
                    "application-default login, or GOOGLE_APPLICATION_CREDENTIALS); this app does not store them.")
        if not self.api_key:
            return "No API key is set."
        return {
            SOURCE_ENVIRONMENT: "The API key comes from the ANTHROPIC_API_KEY environment variable.",
            SOURCE_KEYRING: "The API key is stored in the system keyring.",
            SOURCE_FILE: f"The API key is stored in {self.config_dir / CREDENTIALS_FILE}, readable only by you.",
        }.get(self.key_source or "", "An API key is set.")


def _keyring():
    """The keyring module when a real backend works here, else None (headless Linux has none)."""
    try:
        import keyring
        from keyring.backends import fail
    except Exception:  # noqa: BLE001 - keyring is optional; any import failure means "no keyring"
        return None
    try:
        backend = keyring.get_keyring()
    except Exception:  # noqa: BLE001
        return None
    if isinstance(backend, fail.Keyring) or getattr(backend, "priority", 0) <= 0:
        return None
    return keyring


def load_settings(config_dir: Path | None = None, environ=None, use_keyring: bool = True) -> AssistantSettings:
    """The settings in the config folder, with the API key from ANTHROPIC_API_KEY, else the system
    keyring, else the credentials file. `use_keyring=False` leaves the keyring out (finding its backend
    takes a few tenths of a second: the window asks it after its first page shows, read_keyring_key)."""
    environ = os.environ if environ is None else environ
    config_dir = Path(config_dir) if config_dir is not None else default_config_dir()
    prefs = _read_json(config_dir / SETTINGS_FILE)
    settings = AssistantSettings(config_dir=config_dir)
    if isinstance(prefs.get("model"), str) and prefs["model"].strip():
        settings.model = prefs["model"].strip()
    if isinstance(prefs.get("author"), str) and prefs["author"].strip():
        settings.author = prefs["author"].strip()
    # settings written before the first run asked kept the login as the author: that was never chosen
    settings.author_chosen = prefs.get("authorChosen") is True or (
        "authorChosen" not in prefs and isinstance(prefs.get("author"), str) and bool(prefs["author"].strip())
        and prefs["author"].strip() != login_name())
    if isinstance(prefs.get("assistantAuthor"), str) and prefs["assistantAuthor"].strip():
        settings.assistant_author = prefs["assistantAuthor"].strip()
    settings.allow_resolving_others = prefs.get("allowResolvingOthersComments") is True
    if prefs.get("provider") in PROVIDERS:
        settings.provider = prefs["provider"]
    for name in ("region", "project"):
        value = prefs.get(name)
        setattr(settings, name, (value.strip() or None) if isinstance(value, str) else None)
    base = prefs.get("baseUrl") if isinstance(prefs.get("baseUrl"), str) else None
    # only the override is kept here: ANTHROPIC_BASE_URL stays the environment's (the SDK reads it), so
    # saving preferences never writes it into settings.json
    settings.base_url = (base or "").strip() or None

    key = environ.get("ANTHROPIC_API_KEY")
    if key:
        settings.api_key, settings.key_source = key, SOURCE_ENVIRONMENT
        return settings
    key = keyring_key() if use_keyring else None
    if key:
        settings.api_key, settings.key_source = key, SOURCE_KEYRING
        return settings
    key = _read_json(config_dir / CREDENTIALS_FILE).get("apiKey")
    if isinstance(key, str) and key:
        settings.api_key, settings.key_source = key, SOURCE_FILE
    return settings


def keyring_key() -> str | None:
    """The API key stored in the system keyring, or None (no keyring here, none stored, or it is locked)."""
    ring = _keyring()
    if ring is None:
        return None
    try:
        return ring.get_password(KEYRING_SERVICE, KEYRING_USER) or None
    except Exception:  # noqa: BLE001 - a locked or broken keyring: fall through to the file
        return None


def read_keyring_key(settings: AssistantSettings, key: str | None) -> bool:
    """Settings loaded with use_keyring=False, given what keyring_key() found: the keyring's key takes
    the place of the credentials file's, as load_settings would have chosen it. True when it did."""
    if not key or settings.key_source in (SOURCE_ENVIRONMENT, SOURCE_KEYRING):
        return False
    settings.api_key, settings.key_source = key, SOURCE_KEYRING
    return True


def save_preferences(settings: AssistantSettings) -> None:
    """Write provider, region, project, model, authors, base URL and permissions (never a key) to settings.json."""
    private_folder(settings.config_dir)
    data = {"provider": settings.provider, "region": settings.region or "", "project": settings.project or "",
            "model": settings.model, "author": settings.author, "assistantAuthor": settings.assistant_author,
            "baseUrl": settings.base_url or "", "allowResolvingOthersComments": settings.allow_resolving_others,
            "authorChosen": settings.author_chosen}
    _write_private(settings.config_dir / SETTINGS_FILE, data)


def store_api_key(settings: AssistantSettings, key: str) -> str:
    """Keep a key the user typed: in the keyring when one works, else in the 0600 credentials file.
    Returns where it went (SOURCE_KEYRING or SOURCE_FILE) and updates settings."""
    key = key.strip()
    ring = _keyring()
    if ring is not None:
        try:
            ring.set_password(KEYRING_SERVICE, KEYRING_USER, key)
            _forget_file_key(settings.config_dir)
            settings.api_key, settings.key_source = key, SOURCE_KEYRING
            return SOURCE_KEYRING
        except Exception:  # noqa: BLE001 - fall back to the file below
            pass
    private_folder(settings.config_dir)
    _write_private(settings.config_dir / CREDENTIALS_FILE, {"apiKey": key})
    settings.api_key, settings.key_source = key, SOURCE_FILE
    return SOURCE_FILE


def _forget_file_key(config_dir: Path) -> None:
    try:
        (config_dir / CREDENTIALS_FILE).unlink()
    except FileNotFoundError:
        pass


def _read_json(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _write_private(path: Path, data: dict) -> None:
    """Write JSON readable only by its owner: created 0600, then renamed over the old file."""
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=1)
    os.chmod(tmp, 0o600)
    os.replace(tmp, path)
