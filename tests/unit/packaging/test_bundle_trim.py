"""packaging/bundle_trim.py: which Qt plugins, translations and libraries the PyInstaller build leaves out."""

import sys

from conftest import ROOT

sys.path.insert(0, str(ROOT / "packaging"))

from bundle_trim import plugin_wanted, qt_plugin, trim, unwanted  # noqa: E402

PLUGINS = "PySide6/Qt/plugins"
# source path -> the libraries it links to (as PyInstaller's get_imports reports them)
LINKS = {
    "/src/libqxcb.so": ["libQt6XcbQpa.so.6", "libQt6Gui.so.6", "libxcb-cursor.so.0"],
    "/src/libqwayland.so": ["libQt6WaylandClient.so.6", "libQt6Gui.so.6", "libwayland-client.so.0"],
    "/src/libqgtk3.so": ["libgtk-3.so.0", "libcairo.so.2", "libQt6Gui.so.6"],
    "/src/libqsvgicon.so": ["libQt6Svg.so.6"],
    "/src/libqjpeg.so": ["libjpeg.so.62", "libQt6Gui.so.6"],
    "/src/libQt6WaylandClient.so.6": ["libQt6Gui.so.6", "libwayland-cursor.so.0"],
    "/src/libQt6Gui.so.6": ["libQt6Core.so.6", "libpng16.so.16"],
    "/src/libQt6XcbQpa.so.6": ["libQt6Gui.so.6"],
    "/src/QtGui.abi3.so": ["libQt6Gui.so.6", "libcairo.so.2"],  # something kept also needs cairo
}


def imports(path):
    return [(name, f"/usr/lib/{name}") for name in LINKS.get(path, [])]


def lib(name, folder=""):
    return (f"{folder}{name}", f"/src/{name}", "BINARY")


BINARIES = [
    lib("libqxcb.so", f"{PLUGINS}/platforms/"), lib("libqwayland.so", f"{PLUGINS}/platforms/"),
    lib("libqgtk3.so", f"{PLUGINS}/platformthemes/"), lib("libqsvgicon.so", f"{PLUGINS}/iconengines/"),
    lib("libqjpeg.so", f"{PLUGINS}/imageformats/"),
    lib("libQt6WaylandClient.so.6", "PySide6/Qt/lib/"), lib("libQt6Gui.so.6", "PySide6/Qt/lib/"),
    lib("libQt6XcbQpa.so.6", "PySide6/Qt/lib/"), lib("libQt6Svg.so.6", "PySide6/Qt/lib/"),
    lib("libQt6Core.so.6", "PySide6/Qt/lib/"),
    ("PySide6/QtGui.abi3.so", "/src/QtGui.abi3.so", "EXTENSION"),
    lib("libxcb-cursor.so.0"), lib("libwayland-client.so.0"), lib("libwayland-cursor.so.0"),
    lib("libcairo.so.2"), lib("libjpeg.so.62"), lib("libpng16.so.16"),
]
DATAS = [
    ("PySide6/Qt/translations/qtbase_de.qm", "/src/qtbase_de.qm", "DATA"),
    ("folio_desktop/resources/sample_contract.docx", "/src/sample_contract.docx", "DATA"),
    # PyInstaller's top-level links to libraries it collected in a subfolder
    ("libQt6WaylandClient.so.6", "PySide6/Qt/lib/libQt6WaylandClient.so.6", "SYMLINK"),
    ("libQt6Gui.so.6", "PySide6/Qt/lib/libQt6Gui.so.6", "SYMLINK"),
]


def test_plugins_are_named_by_folder_and_stem():
    assert qt_plugin(f"{PLUGINS}/platforms/libqxcb.so") == ("platforms", "qxcb")
    assert qt_plugin("PySide6\\plugins\\platforms\\qwindows.dll") == ("platforms", "qwindows")
    assert qt_plugin("PySide6/Qt/lib/libQt6Gui.so.6") is None
    assert plugin_wanted("platforms", "qcocoa") and plugin_wanted("styles", "qmodernwindowsstyle")
    assert not plugin_wanted("platforms", "qeglfs") and not plugin_wanted("sqldrivers", "qsqlite")
    assert unwanted("PySide6/Qt/translations/qt_fr.qm") and not unwanted("folio_desktop/resources/x.qm")


def test_trim_drops_unused_plugins_and_only_the_libraries_nothing_else_needs():
    binaries, datas, gone = trim(BINARIES, DATAS, imports)
    kept = {b[0] for b in binaries} | {d[0] for d in datas}
    assert gone == sorted([
        f"{PLUGINS}/imageformats/libqjpeg.so", f"{PLUGINS}/platforms/libqwayland.so",
        f"{PLUGINS}/platformthemes/libqgtk3.so", "PySide6/Qt/lib/libQt6WaylandClient.so.6",
        "PySide6/Qt/translations/qtbase_de.qm", "libQt6WaylandClient.so.6", "libjpeg.so.62",
        "libwayland-client.so.0", "libwayland-cursor.so.0",
    ])
    # shared with kept files: Qt's own Gui library, and cairo, which a kept extension module links to
    assert {"PySide6/Qt/lib/libQt6Gui.so.6", "libcairo.so.2", "libpng16.so.16", "libQt6Gui.so.6"} <= kept
    assert {f"{PLUGINS}/platforms/libqxcb.so", "libxcb-cursor.so.0", f"{PLUGINS}/iconengines/libqsvgicon.so",
            "PySide6/Qt/lib/libQt6Svg.so.6", "folio_desktop/resources/sample_contract.docx"} <= kept
    assert len(binaries) + len(datas) + len(gone) == len(BINARIES) + len(DATAS)
