"""Reading comments: comments.xml threads through commentsExtended paraIdParent (spec §7.1)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..package.ooxml import W14_PARA_ID, W15_NS, W_NS, w

if TYPE_CHECKING:
    from ..model.document import Document
    from .blocks import Snapshot

# Word 2013 previews wrote commentsExtended in a namespace of their own; both are read.
W15_NAMESPACES = (W15_NS, "http://schemas.microsoft.com/office/word/2010/11/wordml")


@dataclass
class Comment:
    id: int
    author: str
    date: str | None
    initials: str | None
    text: str
    para_id: str | None  # w14:paraId of the comment's last paragraph (the commentsExtended key)
    parent_id: int | None = None
    done: bool = False
    anchored_text: str = ""
    block_id: str | None = None
    replies: list[Comment] = field(default_factory=list)

    def to_json(self) -> dict:
        """The reviewer's thread shape (spec §7.1)."""
        out = {"id": self.id, "author": self.author, "date": self.date, "text": self.text,
               "anchoredText": self.anchored_text, "blockId": self.block_id, "done": self.done}
        if self.parent_id is None:
            out["replies"] = [{"id": r.id, "author": r.author, "date": r.date, "text": r.text}
                              for r in self.replies]
        return out

    def to_agent_json(self) -> dict:
        """What read_comments shows the model: no dates, ids as strings, done -> resolved."""
        return {
            "id": str(self.id),
            "author": self.author,
            "text": self.text,
            "resolved": self.done,
            "blockId": self.block_id,
            "quote": self.anchored_text,
            "replies": [{"id": str(r.id), "author": r.author, "text": r.text} for r in self.replies],
        }


def _comment_text(el) -> str:
    paragraphs = []
    for p in el.iter(w("p")):
        parts = []
        for node in p.iter(w("t"), w("tab"), w("br")):
            if node.tag == w("t"):
                parts.append(node.text or "")
            elif node.tag == w("tab"):
                parts.append("\t")
            else:
                parts.append("\n")
        paragraphs.append("".join(parts))
    return "\n".join(paragraphs)


def read_comments(doc: Document, snapshot: Snapshot) -> list[Comment]:
    """Every comment of the package, threaded: top-level comments carry their replies."""
    part = doc.related_part("comments")
    if part is None:
        return []
    root = doc.package.xml(part)
    comments: list[Comment] = []
    by_para: dict[str, Comment] = {}
    for el in root.iterchildren(w("comment")):
        raw_id = el.get(w("id"))
        try:
            cid = int(raw_id)
        except (TypeError, ValueError):
            continue
        paras = el.findall(w("p"))
        para_id = paras[-1].get(W14_PARA_ID) if paras else None
        comment = Comment(
            id=cid,
            author=el.get(w("author"), ""),
            date=el.get(w("date")),
            initials=el.get(w("initials")),
            text=_comment_text(el),
            para_id=para_id,
        )
        anchor = snapshot.comment_anchors.get(raw_id)
        if anchor is not None:
            comment.anchored_text = "".join(anchor.quote)
            comment.block_id = anchor.block_id
        comments.append(comment)
        if para_id:
            by_para.setdefault(para_id, comment)

    ext_part = doc.related_part("commentsExtended")
    parent_para: dict[str, str] = {}
    if ext_part is not None:
        ext_root = doc.package.xml(ext_part)
        for ns in W15_NAMESPACES:
            w15 = "{" + ns + "}"
            for ex in ext_root.iter(w15 + "commentEx"):
                pid = ex.get(w15 + "paraId")
                if not pid:
                    continue
                target = by_para.get(pid)
                if target is not None:
                    done = ex.get(w15 + "done")
                    target.done = done is not None and done.lower() in ("1", "true", "on")
                parent = ex.get(w15 + "paraIdParent")
                if parent:
                    parent_para[pid] = parent

    by_id = {c.id: c for c in comments}
    for comment in comments:
        parent_pid = parent_para.get(comment.para_id or "")
        seen = set()
        root_comment = None
        while parent_pid and parent_pid not in seen:
            seen.add(parent_pid)
            candidate = by_para.get(parent_pid)
            if candidate is None or candidate is comment:
                break
            root_comment = candidate
            parent_pid = parent_para.get(candidate.para_id or "")
        if root_comment is not None:
            comment.parent_id = root_comment.id
    for comment in comments:
        if comment.parent_id is not None:
            by_id[comment.parent_id].replies.append(comment)
    return comments


def threads(comments: list[Comment]) -> list[Comment]:
    return [c for c in comments if c.parent_id is None]


__all__ = ["Comment", "read_comments", "threads", "W_NS"]
