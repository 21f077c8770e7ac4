"""Declaring a namespace on an existing root, the way Word expects an extension namespace to be."""

from __future__ import annotations

from lxml import etree

from .ooxml import MC_NS

MC_IGNORABLE = f"{{{MC_NS}}}Ignorable"


def declare_ignorable_namespace(root: etree._Element, uri: str, prefix: str) -> str:
    """Make ``root`` declare ``uri`` and list it in its ``mc:Ignorable``; returns the prefix used.

    A namespace already declared on the root keeps its prefix. Otherwise the declaration is added
    to the root in place (lxml's cleanup_namespaces with top_nsmap, every prefix in the tree kept),
    which also folds the per-element ``xmlns:ns0`` declarations lxml made when attributes of that
    namespace were set below a root that did not declare it. The root element keeps its identity,
    so nobody holding it (Document.root, the package's tree cache) needs to be told.
    """
    found = _declared_prefix(root, uri)
    if found is None:
        found = _free_prefix(root, prefix)
        _add_root_namespace(root, found, uri)
    if _declared_prefix(root, MC_NS) is None:
        _add_root_namespace(root, _free_prefix(root, "mc"), MC_NS)
    ignorable = (root.get(MC_IGNORABLE) or "").split()
    if found not in ignorable:
        root.set(MC_IGNORABLE, " ".join([*ignorable, found]))
    return found


def _declared_prefix(root: etree._Element, uri: str) -> str | None:
    return next((p for p, u in root.nsmap.items() if u == uri and p), None)


def _free_prefix(root: etree._Element, prefix: str) -> str:
    taken = set(root.nsmap)
    candidate, n = prefix, 1
    while candidate in taken:
        candidate = f"{prefix}x{n}"
        n += 1
    return candidate


def _add_root_namespace(root: etree._Element, prefix: str, uri: str) -> None:
    keep = {p for el in root.iter() if isinstance(el.tag, str) for p in el.nsmap if p}
    etree.cleanup_namespaces(root, top_nsmap={prefix: uri}, keep_ns_prefixes=sorted(keep))
