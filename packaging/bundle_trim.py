"""What the PyInstaller build leaves out of Qt: used by folio_desktop.spec on the Analysis' file lists.

PyInstaller's Qt hooks collect every plugin of every type QtGui might load (Wayland, EGL/KMS, the
virtual keyboard, the GTK theme, ...) and every translation, and its dependency analysis then adds
each plugin's libraries (Qt's and the system's: GTK's cairo and pango, libjpeg, ...). The app needs
only the plugins in KEEP_PLUGINS. Once the others are dropped, a library goes too when only they
needed it; a library that anything kept still links to stays, whatever its name.

A table-of-contents entry is (destination in the bundle, source, type code); for a SYMLINK entry the
source is the link's target relative to its folder.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterable

# Plugin folder -> file stems kept (lib prefix and suffix dropped); None keeps the whole folder.
# Platforms: a real window on each OS (xcb under X11 and XWayland, cocoa, windows) and offscreen and
# minimal for headless runs.
KEEP_PLUGINS: dict[str, set[str] | None] = {
    "platforms": {"qxcb", "qoffscreen", "qminimal", "qcocoa", "qwindows"},
    "styles": None,  # the native look on Windows and macOS
    "iconengines": {"qsvgicon"},  # icon themes (file dialogs) are mostly SVG
    "imageformats": {"qsvg", "qico"},  # PNG is built into QtGui
    "platforminputcontexts": {"composeplatforminputcontextplugin", "ibusplatforminputcontextplugin"},
    "platformthemes": {"qxdgdesktopportal"},  # native file dialogs through the desktop portal
    "printsupport": {"cupsprintersupport"},  # File > Print to the printers CUPS knows (Linux, macOS)
}

Entry = tuple[str, str, str]
Imports = Callable[[str], Iterable[tuple[str, "str | None"]]]


def _posix(path: str) -> str:
    return path.replace("\\", "/")


def _name(path: str) -> str:
    return posixpath.basename(_posix(path))


def qt_plugin(dest: str) -> tuple[str, str] | None:
    """(folder, stem) when `dest` is a Qt plugin inside the bundle, else None."""
    parts = _posix(dest).split("/")
    if parts[0] not in ("PySide6", "PyQt6") or "plugins" not in parts:
        return None
    rest = parts[parts.index("plugins") + 1:]
    if len(rest) < 2:
        return None
    return rest[0], rest[-1].split(".")[0].removeprefix("lib")


def plugin_wanted(folder: str, stem: str) -> bool:
    wanted = KEEP_PLUGINS.get(folder, set())
    return wanted is None or stem in wanted


def unwanted(dest: str) -> bool:
    """A Qt plugin the app does not use, or a Qt translation (the app installs no QTranslator)."""
    plugin = qt_plugin(dest)
    if plugin is not None:
        return not plugin_wanted(*plugin)
    parts = _posix(dest).split("/")
    return parts[0] in ("PySide6", "PyQt6") and "translations" in parts and dest.endswith(".qm")


def _needed_by(paths: Iterable[str], imports: Imports, by_name: dict[str, str]) -> set[str]:
    """Every bundled library (by file name) that `paths` link to, directly or through each other."""
    seen: set[str] = set()
    todo = list(paths)
    while todo:
        for name, resolved in imports(todo.pop()):
            for key in {_name(name), _name(resolved) if resolved else ""} - {""}:
                if key in by_name and key not in seen:
                    seen.add(key)
                    todo.append(by_name[key])
    return seen


def trim(binaries: list[Entry], datas: list[Entry], imports: Imports) -> tuple[list[Entry], list[Entry], list[str]]:
    """The binaries and datas to bundle, and the destinations left out. `imports(path)` lists a
    binary's link-time dependencies as (name, resolved path or None): PyInstaller's get_imports."""
    files = [e for e in binaries if e[2] != "SYMLINK"]
    removed = {_posix(e[0]) for e in files + datas if e[2] != "SYMLINK" and unwanted(e[0])}
    by_name = {_name(e[0]): e[1] for e in files if _posix(e[0]) not in removed}
    candidates = _needed_by((e[1] for e in files if _posix(e[0]) in removed), imports, by_name)
    roots = [e[1] for e in files if _posix(e[0]) not in removed and _name(e[0]) not in candidates]
    orphans = candidates - _needed_by(roots, imports, by_name)
    removed |= {_posix(e[0]) for e in files if _name(e[0]) in orphans}

    def keep(entry: Entry) -> bool:
        if entry[2] == "SYMLINK":  # PyInstaller links top-level names to libraries in subfolders
            dest = _posix(entry[0])
            return posixpath.normpath(posixpath.join(posixpath.dirname(dest), _posix(entry[1]))) not in removed
        return _posix(entry[0]) not in removed

    gone = sorted({_posix(e[0]) for e in binaries + datas if not keep(e)})
    return [e for e in binaries if keep(e)], [e for e in datas if keep(e)], gone
