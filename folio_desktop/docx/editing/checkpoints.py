"""Whole-document checkpoints, for undo steps larger than one batch (an accept, a reject, an agent turn).

The engine's per-batch undo (OperationEngine.undo) keeps Package.checkpoint() states; this module
takes the same states over every part an edit, an accept or a reject can touch (all stories, the
comment parts, numbering, relationships, content types) and keeps them compact: an undo history of
deep-copied trees would cost ~10 MB a step on a 75-page contract, serialized and compressed it
costs ~0.1 MB. Restoring parses them back and hands them to Package.restore().
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..package.opc import parse_xml, serialize_xml

if TYPE_CHECKING:
    from ..model.document import Document
    from .operations import OperationEngine


@dataclass(frozen=True)
class Checkpoint:
    trees: dict[str, bytes]  # part name -> compressed XML (story, comment, numbering parts)
    rels_trees: dict[str, bytes]
    content_types: bytes | None
    dirty: frozenset[str]
    added: dict[str, bytes]
    registry: dict  # the engine's replayable operation ids as they stood


def editable_parts(doc: Document, engine: OperationEngine) -> list[str]:
    """The parts the engine checkpoints for a batch, plus every story part (accept/reject touch them)."""
    names = list(engine.parts_to_checkpoint())
    for story in doc.stories():
        # parse and stamp paraIds now: a copy without them would give the blocks other ids once restored
        doc.story_container(story)
        if story.part not in names:
            names.append(story.part)
    return [name for name in names if doc.package.has_part(name)]


def take(doc: Document, engine: OperationEngine) -> Checkpoint:
    package = doc.package
    names = editable_parts(doc, engine)
    for name in names:
        package.xml(name)  # Package.checkpoint copies parsed trees only
    state = package.checkpoint(names)
    ct = state["content_types"]
    return Checkpoint(
        trees={name: _pack(tree) for name, tree in state["trees"].items()},
        rels_trees={name: _pack(tree) for name, tree in state["rels_trees"].items()},
        content_types=_pack(ct) if ct is not None else None,
        dirty=frozenset(state["dirty"]),
        added=dict(state["added"]),
        registry=dict(engine.registry),
    )


def restore(doc: Document, engine: OperationEngine, checkpoint: Checkpoint) -> None:
    """Put the parts back as they were (a checkpoint can be restored any number of times)."""
    state = {
        "trees": {name: _unpack(data, name) for name, data in checkpoint.trees.items()},
        "rels_trees": {name: _unpack(data, name) for name, data in checkpoint.rels_trees.items()},
        "content_types": _unpack(checkpoint.content_types, "[Content_Types].xml")
        if checkpoint.content_types is not None else None,
        "dirty": set(checkpoint.dirty),
        "added": dict(checkpoint.added),
    }
    doc.package.restore(state)
    doc.reload()  # counts as a change: batches pinned to an older version are refused
    engine.registry = dict(checkpoint.registry)


def _pack(tree) -> bytes:
    return zlib.compress(serialize_xml(tree), 1)


def _unpack(data: bytes, name: str):
    return parse_xml(zlib.decompress(data), name)
