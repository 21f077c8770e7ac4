"""Run every check over the accepted view of every story, and tell which findings a pending tracked
change caused (they are not there when every change is rejected)."""

from __future__ import annotations

from collections import Counter

from .findings import KINDS, Finding
from .numbering import check_numbering
from .parties import _TWO_WORD, ROLES, check_parties
from .placeholders import check_placeholders
from .references import Targets, check_references
from .terms import check_terms
from .view import has_pending_changes, original_signature, original_units, read_units

_CACHE_LIMIT = 200_000


class _Original:
    """The document as it read before its pending changes: its signature (view.original_signature),
    the keys of its findings, and its clause numbers (read when first asked for)."""

    def __init__(self, signature, keys: set, units):
        self.signature, self.keys, self._units, self._targets = signature, keys, units, None

    def targets(self) -> Targets:
        if self._targets is None:
            self._targets, self._units = Targets(self._units), None
        return self._targets


class CheckSession:
    """Checks one document again and again (after every edit): what was read from a paragraph's text
    is kept, keyed by that text, so a run after an edit reads only the paragraphs that changed; and
    the checks of the document as it read before its pending changes are kept under
    view.original_signature, which tracked edits do not change, so they are not redone after each."""

    def __init__(self):
        self._cache: dict = {}
        self._before: _Original | None = None
        self.reopened = 0  # how often the original view had to be read by reopening the document

    def run(self, reviewer) -> dict:
        if len(self._cache) > _CACHE_LIMIT:
            self._cache.clear()
        units = read_units(reviewer)
        signature = original_signature(reviewer)
        pending = has_pending_changes(reviewer)
        before = self._before if signature is not None and self._before and self._before.signature == signature \
            else None
        if pending and before is None:
            self.reopened += 1
            old_units = original_units(reviewer)
            before = self._before = _Original(signature, {f.key for f in self.findings(old_units)}, old_units)
        findings = self.findings(units, before.targets() if pending else None)
        if pending:
            for f in findings:
                f.pending_change = f.pending_change or f.key not in before.keys
        elif signature is not None:
            # with nothing pending, this is also the view before the edits to come
            self._before = _Original(signature, {f.key for f in findings}, units)
        return {"findings": [f.to_json() for f in findings],
                "counts": dict(Counter(f.kind for f in findings))}

    def findings(self, units, targets_before=None) -> list[Finding]:
        """The findings on these units (view.read_units), in document order; `targets_before`: the clause
        numbers before the pending changes (references.Targets), to tell a reference a change broke."""
        out: list[Finding] = []
        seen = set()

        def emit(kind, text, unit, start, message, pending=False):
            key = (kind, text, unit.block_id, start)
            if key in seen:
                return
            seen.add(key)
            out.append(Finding(kind, text, unit.block_id, unit.shown_label, unit.story, message, pending,
                               (unit.story_index, unit.index, start, KINDS.index(kind))))

        roles = ROLES | set(_TWO_WORD)
        index = check_terms(units, self._cache, roles, emit)
        spans = index.spans
        check_parties(units, emit, set(index.definitions), lambda u: [(s, e) for _f, s, e in spans.get(u.index, ())])
        check_references(units, emit, targets_before)
        check_placeholders(units, emit)
        check_numbering(units, emit)
        out.sort(key=lambda f: f.order)
        return out


def check_document(reviewer) -> dict:
    """{"findings": [...], "counts": {kind: n}}: every finding in document order (see findings.Finding)."""
    return CheckSession().run(reviewer)
