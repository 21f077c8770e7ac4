"""Replace the names on tracked changes and comments with one neutral name (Save As privacy).

The spec's metadata transforms (agents/versions/privacy.py) only touch docProps/core.xml: every w:ins,
w:del, formatting change and comment still says who wrote it. This rewrites those names (and a
comment's initials) to "Author", and the people part Word keeps for comment authors loses the
account it names (provider and user id, often an e-mail address). Dates stay: they say when, not who.
Only the parts that held a name are rewritten; every other part keeps its bytes.
"""

from __future__ import annotations

from ..model.document import Document
from ..package.ooxml import W15_NS, W_NS
from ..package.opc import Package
from ..reading.snapshot import build_snapshot, patched

NEUTRAL_AUTHOR = "Author"
_AUTHOR = f"{{{W_NS}}}author"
_INITIALS = f"{{{W_NS}}}initials"
_COMMENT = f"{{{W_NS}}}comment"
_PERSON = f"{{{W15_NS}}}person"
_PERSON_AUTHOR = f"{{{W15_NS}}}author"
_PRESENCE = f"{{{W15_NS}}}presenceInfo"
_PEOPLE_SUFFIX = "/people"


def anonymise_authors(data: bytes, name: str = NEUTRAL_AUTHOR) -> tuple[bytes, int]:
    """(package bytes with every change and comment author named `name`, how many names were
    replaced). Raises DocxError for a package that cannot be read."""
    doc = Document(Package(data), build_snapshot, patched)
    package = doc.package
    replaced = 0
    parts = [doc.main_part] + [s.part for s in doc.stories() if s.part != doc.main_part]
    comments = doc.related_part("comments")
    if comments:
        parts.append(comments)
    for part in dict.fromkeys(parts):
        root = package.xml(part)
        changed = 0
        for el in root.iter():
            if el.get(_AUTHOR) not in (None, name):
                el.set(_AUTHOR, name)
                changed += 1
            if el.tag == _COMMENT and el.get(_INITIALS) not in (None, "A"):
                el.set(_INITIALS, "A")
        if changed:
            package.mark_dirty(part)
            replaced += changed
    for rel in package.rels(doc.main_part):
        if not rel.type.endswith(_PEOPLE_SUFFIX) or not package.has_part(rel.target):
            continue
        root = package.xml(rel.target)
        for person in root.iter(_PERSON):
            person.set(_PERSON_AUTHOR, name)
            for presence in person.findall(_PRESENCE):
                person.remove(presence)
        package.mark_dirty(rel.target)
    return (package.to_bytes() if replaced or package.dirty else data), replaced
