"""pyproject.toml names every package of the code: a package left out is missing from a wheel (a
non-editable install, the PyInstaller build from one) while an editable install still works."""

import tomllib

from conftest import ROOT


def test_every_package_is_listed_in_pyproject():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]["packages"])
    found = {".".join(init.parent.relative_to(ROOT).parts) for init in (ROOT / "folio_desktop").rglob("__init__.py")}
    assert found - listed == set(), "add these to [tool.setuptools] packages in pyproject.toml"
    assert listed - found == {"folio_desktop.resources"}, "a listed package no longer exists"
