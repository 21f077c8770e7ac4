"""The ids a new comment takes (spec §7.1) and must not take: comment and revision ids (w:id), paragraph
ids (w14:paraId), durable ids. Apart from comment_store.py, whose CommentStore draws them.

The ids in use are read from every story once per store, or once for as long as the store's
`shared` dict lives: the operation engine keeps one across its batches, adds the ids they give out,
and drops it when the document goes back to an earlier state.
"""

from __future__ import annotations

from ..package.ooxml import W_NS, w

# The id conflict, documented as asked:
# * ISO/IEC 29500-4 transitional wml.xsd (the schema we validate against) types every annotation
#   w:id as ST_DecimalNumber = xsd:integer, unbounded, so an epoch-milliseconds id (~1.7e12, the
#   reference's seed, spec §7.1) validates.
# * Office does not read it that way: the Open XML SDK (built from Office's own schema) types the
#   annotation id as Int32, python-docx types ST_DecimalNumber as a signed 32-bit XsdInt and refuses
#   to write a larger comment id, and Word-made documents number comments from 0.
# Epoch milliseconds overflow Int32 (it passed 2^31 in January 1970), so ids stay within the signed
# 32-bit range: the cursor is seeded with the epoch in *seconds* (the largest clock-derived seed that
# fits, ~1.7e9 until 2038; folded modulo 2^31 after that), is incremented, skips ids in use and wraps
# to 0 past MAX_COMMENT_ID.
MAX_COMMENT_ID = 2**31 - 1
# w14:paraId / textId: ST_LongHexNumber, and MS-DOCX 2.6.2.3 says greater than 0 and below 0x80000000.
MAX_PARA_ID = 0x7FFFFFFF
# w16cid:durableId: Word rejects values from 0x7FFFFFFF up (an undocumented Office limit).
MAX_DURABLE_ID = 0x7FFFFFFE

_PARA_ID_PARTS = ("main+xml", "glossary+xml", "header+xml", "footer+xml", "footnotes+xml", "endnotes+xml",
                  "comments+xml", "commentsextended+xml", "commentsids+xml")


class CommentIds:
    """The id half of CommentStore (which provides doc, package, _cursor, _allocated, _shared,
    _comments_root, _stories and _fresh_hex)."""

    def allocate_id(self) -> int:
        """A fresh comment id: the cursor, incremented, skipping every id in use.

        In use = w:comment ids in comments.xml and every w:id in the stories. The brief asks for
        the comment markers' ids; all of a story's w:id values are skipped because Word draws
        comment and revision ids from one sequence, and a superset costs nothing.
        """
        used = self._ids_in_use()
        if len(used) > MAX_COMMENT_ID:  # pragma: no cover - 2^31 ids cannot fit in memory anyway
            raise RuntimeError("no comment id is free")
        while True:
            candidate = self._cursor
            self._cursor = 0 if candidate >= MAX_COMMENT_ID else candidate + 1
            if candidate not in used:
                self._allocated.add(candidate)
                used.add(candidate)
                return candidate

    def _ids_in_use(self) -> set[int]:
        ids = self._shared.get("ids")
        if ids is None:
            ids = self._shared["ids"] = self._scan_ids()
        return ids

    def _scan_ids(self) -> set[int]:
        used: set[int] = set()
        comments = self._comments_root(create=False)
        if comments is not None:
            for el in comments.iterchildren(w("comment")):
                cid = _int_id(el)
                if cid is not None:
                    used.add(cid)
        for _part, root in self._stories():
            for raw in root.xpath("//@w:id", namespaces={"w": W_NS}):
                raw = raw.strip()
                if raw.lstrip("-").isdigit():
                    used.add(int(raw))
        return used

    def _used_para_ids(self) -> set[str]:
        """Every w14:paraId of the package (stories stamped first, as the reader would) and every
        paraId the comment side parts mention. Callers add the ids they mint to this same set."""
        ids = self._shared.get("paras")
        if ids is None:
            ids = self._shared["paras"] = self._scan_para_ids()
        return ids

    def _scan_para_ids(self) -> set[str]:
        pkg = self.package
        for part, root in self._stories():
            self.doc.ensure_para_ids(part, root)
        types = pkg.content_types()
        # an altChunk's content is imported by Word as it stands (HTML, RTF, even a whole .docx
        # declared as a main part): not ours to read, whatever its content type says
        chunks = {pkg.canonical_name(rel.target).lower() for rel in pkg.related(self.doc.main_part, "aFChunk")}
        used: set[str] = set()
        for name in pkg.part_names():
            ctype = types.get(name.lower(), "").lower()
            if not ctype.endswith(_PARA_ID_PARTS) or name.lower() in chunks:
                continue
            root = pkg.xml(name)
            used.update(v.upper() for v in root.xpath("//@*[local-name()='paraId']"))
        return used


def _int_id(el) -> int | None:
    raw = el.get(w("id"))
    if raw is None:
        return None
    raw = raw.strip()
    if not raw.lstrip("-").isdigit():
        return None
    return int(raw)
