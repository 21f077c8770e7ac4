"""The audit log of one document: every model tool call, every proposal with its reason, every
accept, reject, edit and save, with who did it and when.

Plain Python (no Qt). Events are appended to a JSON Lines file in the app's config folder as they
happen, so a crash loses nothing already recorded; the file is keyed by the document's absolute
path and read back when the same document is opened again. Exports: JSON Lines and a
self-contained HTML report for a file note or a client.
"""

from __future__ import annotations

import getpass
import hashlib
import html
import json
import logging
import os
import re
from datetime import UTC, datetime
from pathlib import Path

from ...assistant.settings import default_config_dir
from ...docx.package.files import append_private, atomic_write

log = logging.getLogger(__name__)

ARGS_CLIP = 160  # characters of a tool call's arguments shown in the HTML report
TEXT_CLIP = 300
_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def _user() -> str:
    try:
        return getpass.getuser() or "Reviewer"
    except (KeyError, OSError):  # no user name in this environment (containers)
        return "Reviewer"


def log_file_for(document_path: str | os.PathLike, folder: Path) -> Path:
    """The log file of a document: a readable stem plus a hash of the absolute path, so two
    contracts both called "agreement.docx" in different folders never share a log."""
    absolute = os.path.abspath(os.fspath(document_path))
    digest = hashlib.sha256(absolute.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    stem = _UNSAFE_NAME.sub("_", Path(absolute).stem)[:40] or "document"
    return folder / f"{stem}-{digest}.jsonl"


class AuditLog:
    """Events of one document, in the order they happened."""

    def __init__(self, document_path: str, folder: Path | None = None):
        self.document_path = os.path.abspath(os.fspath(document_path))
        self.folder = Path(folder) if folder is not None else default_config_dir() / "audit"
        self.path = log_file_for(self.document_path, self.folder)
        self.who = _user()  # the window sets the lawyer's name from the settings
        self.write_error: str | None = None  # the last failure to append (the entry stays in memory)
        self.entries: list[dict] = self._load()

    def _load(self) -> list[dict]:
        try:
            lines = self.path.read_text(encoding="utf-8").splitlines()
        except FileNotFoundError:
            return []
        except (OSError, UnicodeDecodeError) as exc:
            log.warning("audit log %s could not be read: %s", self.path, exc)
            return []
        out = []
        for line in lines:
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                continue  # a line cut short by a crash mid-write
            if isinstance(entry, dict):
                out.append(entry)
        return out

    def record(self, kind: str, **fields) -> dict:
        """Append one event; `at` (UTC, ISO 8601) and `who` are filled in when not given."""
        entry = {"kind": kind, **fields}
        entry.setdefault("at", _now())
        entry.setdefault("who", self.who)
        line = json.dumps(entry, ensure_ascii=False, default=str)
        entry = json.loads(line)  # what is kept in memory is exactly what a reopen reads back
        self.entries.append(entry)
        try:
            append_private(self.path, line + "\n")  # paths, comment text, proposals: the user's eyes only
            self.write_error = None
        except OSError as exc:  # a full disk must not stop the review; the window can show this
            self.write_error = f"The audit log could not be written to {self.path} ({exc.strerror or exc})."
            log.warning("%s", self.write_error)
        return entry

    def continue_as(self, document_path: str) -> AuditLog:
        """The log of the same document saved under a new name: the history so far carries over (once:
        a log that already has entries for that path keeps them and gets only the new events)."""
        follower = AuditLog(document_path, folder=self.folder)
        follower.who = self.who
        if not follower.entries:
            for entry in self.entries:
                follower.record(**entry)
        return follower

    # -- exports ------------------------------------------------------------------------------

    def export_jsonl(self, path) -> None:
        data = "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in self.entries)
        atomic_write(path, data.encode("utf-8"))

    def export_html(self, path) -> None:
        atomic_write(path, render_html(self.entries, self.document_path).encode("utf-8"))


# -- the HTML report ------------------------------------------------------------------------------

_STYLE = """
body { font: 14px/1.4 -apple-system, "Segoe UI", "Liberation Sans", Arial, sans-serif; margin: 2em; color: #222; }
h1 { font-size: 20px; margin-bottom: 0.2em; }
p.meta { color: #666; margin-top: 0; }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid #ddd; padding: 6px 8px; text-align: left; vertical-align: top; }
th { background: #f3f4f6; }
td.when { white-space: nowrap; color: #555; }
td.details { white-space: pre-wrap; word-break: break-word; }
tr.accept td.what { color: #0a7d32; } tr.reject td.what { color: #b42318; }
"""

_WHAT = {"tool_call": "Tool call", "proposal": "Proposal", "accept": "Accepted", "reject": "Rejected",
         "edit": "Edit", "comment": "Comment", "save": "Saved"}


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _compact(value) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)


def details(entry: dict) -> str:
    """One plain-text line (or a few) saying what the event was about."""
    kind = entry.get("kind")
    rest = {k: v for k, v in entry.items() if k not in ("kind", "at", "who") and v not in (None, "")}
    parts: list[str] = []
    if kind == "tool_call":
        name = rest.pop("tool", None) or rest.pop("name", None) or "?"
        args = rest.pop("args", None)
        if args is None:
            args = rest.pop("arguments", None)
        parts.append(str(name) + (f" {_clip(_compact(args), ARGS_CLIP)}" if args not in (None, {}, "") else ""))
    elif kind == "proposal":
        what, text, reason = rest.pop("type", None), rest.pop("text", None), rest.pop("reason", None)
        if what or text:
            parts.append(" ".join(x for x in (str(what or ""), f"“{_clip(str(text), TEXT_CLIP)}”" if text else "") if x))
        if reason:
            parts.append(f"Reason: {reason}")
    elif kind in ("accept", "reject"):
        ids = rest.pop("change_id", None) or rest.pop("change_ids", None)
        ctype = rest.pop("type", None) or rest.pop("change_type", None)
        text = rest.pop("text", None)
        head = " ".join(str(x) for x in (f"change {_compact(ids)}" if ids is not None else None, ctype) if x)
        if head:
            parts.append(head)
        if text:
            parts.append(f"“{_clip(str(text), TEXT_CLIP)}”")
    for key, value in rest.items():
        parts.append(f"{key}: {_clip(_compact(value), TEXT_CLIP)}")
    return "\n".join(parts)


def render_html(entries: list[dict], document_path: str) -> str:
    """A self-contained page: every value escaped, no scripts, no outside resources."""
    esc = html.escape
    rows = []
    for e in entries:
        kind = str(e.get("kind", ""))
        rows.append(
            f'<tr class="{esc(_UNSAFE_NAME.sub("_", kind))}"><td class="when">{esc(str(e.get("at", "")))}</td>'
            f'<td class="who">{esc(str(e.get("who", "")))}</td>'
            f'<td class="what">{esc(_WHAT.get(kind, kind.replace("_", " ").capitalize()))}</td>'
            f'<td class="details">{esc(details(e))}</td></tr>')
    name = Path(document_path).name
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>Audit log: {esc(name)}</title><style>{_STYLE}</style></head><body>"
        f"<h1>Audit log: {esc(name)}</h1>"
        f"<p class=\"meta\">{esc(document_path)} · {len(entries)} event{'' if len(entries) == 1 else 's'} · exported {esc(_now())}</p>"
        "<table><thead><tr><th>Time (UTC)</th><th>Who</th><th>What</th><th>Details</th></tr></thead><tbody>"
        + "".join(rows) + "</tbody></table></body></html>\n")
