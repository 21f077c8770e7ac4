"""Bundled assets (sample contract, icons), importable as folio_desktop.resources."""

from pathlib import Path

RESOURCE_DIR = Path(__file__).resolve().parent
