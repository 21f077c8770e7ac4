"""Where the bundled assets (sample contract, app icon) are: installed package, source checkout or
a frozen PyInstaller bundle."""

from __future__ import annotations

import sys
from pathlib import Path

SAMPLE_CONTRACT = "sample_contract.docx"
ICON = "folio-desktop.png"


def resource_dir() -> Path:
    if getattr(sys, "frozen", False):
        # The spec copies resources/ to folio_desktop/resources inside the bundle; looking there
        # directly does not depend on PyInstaller having found the remapped resources package.
        return Path(getattr(sys, "_MEIPASS", Path(sys.executable).parent)) / "folio_desktop" / "resources"
    checkout = Path(__file__).resolve().parent.parent / "resources"
    if (checkout / ICON).is_file():
        # a source checkout's own resources/, even when an editable install maps the package elsewhere
        # (another checkout of the same project)
        return checkout
    try:
        from .resources import RESOURCE_DIR
    except ImportError:  # nowhere else to look
        return checkout
    return RESOURCE_DIR


def sample_contract_path() -> Path:
    return resource_dir() / SAMPLE_CONTRACT


def icon_path() -> Path:
    return resource_dir() / ICON
