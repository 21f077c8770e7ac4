"""Replacing found text: the matches of a search (find_bar.find_hits, the engine's matcher) made into one
batch of replaceRange operations, applied as the lawyer through ReviewActions, so a Replace All is one
tracked-changes batch under the lawyer's name (direct edits with Track Changes off) and one undo step.

Each replacement is written as Word's Replace writes it: the found text struck through whole and the
replacement inserted in its place, in the formatting of the found text's first character (the engine's
keystrokes mode; when the replacement only adds to the found text, "Pilot" to "Pilots", only what it adds
is inserted).

The search reads the accepted view, as find_text does: text already struck through (a pending deletion)
is not there to be found, so it is never replaced; it is only counted, to tell the lawyer why an
occurrence they can see on the page was left alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...docx.editing.contract import InvalidDocumentOperationBatchError, touched_blocks
from ...docx.reading.search import block_matches, compile_query, iter_matches
from ..review_actions import REFUSALS, STALE

STALE_MESSAGE = "the paragraph changed meanwhile"


def occurrences(count: int) -> str:
    """"1 occurrence", "12 occurrences"."""
    return f"{count} occurrence{'' if count == 1 else 's'}"


@dataclass
class Replaced:
    """What a replacement did: how many it made, how many already read so, how many the engine refused
    (by the lawyer's reason), and how many stand in text already struck through and were left alone."""

    made: int = 0
    unchanged: int = 0  # occurrences that already read as the replacement would make them
    refused: dict[str, int] = field(default_factory=dict)
    struck: int = 0
    blocks: set[str] = field(default_factory=set)

    @property
    def refused_count(self) -> int:
        return sum(self.refused.values())


@dataclass(frozen=True)
class Search:
    """What to look for, as the dialog's boxes say it."""

    query: str
    match_case: bool = False
    whole_word: bool = False

    def hits(self, reviewer) -> list[tuple]:
        """(block, start, end, range handle) of every match that can be edited, in document order
        (str offsets into the block's accepted-view text)."""
        if not self.query:
            return []
        return list(block_matches(reviewer.snapshot().blocks, self.query, self.match_case, self.whole_word))

    def struck(self, reviewer) -> int:
        """Occurrences inside text pending deletion in the main story: shown struck through in the
        pages, absent from the text as it reads, never replaced."""
        if not self.query:
            return 0
        pattern = compile_query(self.query, self.match_case)
        return sum(1 for change in reviewer.get_changes(main_only=True) if change.type == "deletion"
                   for _span in iter_matches(pattern, change.text, self.whole_word))


def clause(sentence: str) -> str:
    """A sentence said after a colon: its first letter in lower case (not an initialism's) and no full stop."""
    if sentence[1:2].islower():
        sentence = sentence[:1].lower() + sentence[1:]
    return sentence.rstrip(".")


def cased(replacement: str, found: str, match_case: bool) -> str:
    """The replacement as Word writes it: without Match case, a replacement typed all in lower case
    takes the case of the text it replaces ("pilot" found as "PILOT" or "Pilot" becomes "TRIAL" or
    "Trial"); one typed with a capital is written as typed."""
    if match_case or replacement != replacement.lower() or not found[:1].isupper():
        return replacement
    if len(found) > 1 and found.isupper():
        return replacement.upper()
    return replacement[:1].upper() + replacement[1:]


def replace_hits(actions, hits: list[tuple], replacement: str, label: str, match_case: bool = True) -> Replaced:
    """Replace these hits (Search.hits) with `replacement` (cased() after each hit unless match_case) as
    one batch and one undo step named `label`, in the Track Changes mode of `actions` (ReviewActions)
    under its author. A hit that already reads so is left out; the engine may refuse some (a footnote
    marker inside, hidden text...): the rest are made all the same."""
    ops = []
    outcome = Replaced()
    for block, start, end, rng in hits:
        found = block.text[start:end]
        text = cased(replacement, found, match_case)
        if text == found:
            outcome.unchanged += 1
        else:
            ops.append({"type": "replaceRange", "id": f"replace-{len(ops) + 1}", "replace": text, "range": rng})
    if not ops:
        return outcome
    batch = {"version": 1, "mode": actions.mode, "operations": ops}

    def run() -> dict:
        # as the lawyer's keystrokes, not a rewrite diffed word by word: the found text struck whole and
        # the replacement typed in its place in the formatting of its first character, as Word's Replace
        # writes it (a diff would keep equal words and clear a highlight with a formatting change)
        result = actions.reviewer.engine.apply(batch, author=actions.author, keystrokes=True)
        outcome.blocks.update(touched_blocks(result))  # before perform() tells the window what changed
        return result

    try:
        result = actions.perform(label, run, outcome.blocks)
    except InvalidDocumentOperationBatchError as exc:
        outcome.refused[f"the edit was not valid ({exc.reason})"] = len(ops)
        return outcome
    outcome.made = len(result.get("applied") or ())
    for skip in result.get("skipped") or ():
        reason = skip.get("reason", "")
        if reason == "noopOperation":
            continue
        message = STALE_MESSAGE if reason in STALE else REFUSALS.get(reason) or skip.get("message") or reason
        outcome.refused[message] = outcome.refused.get(message, 0) + 1
    return outcome


def replaced_message(search: Search, replacement: str, outcome: Replaced, tracked: bool, author: str) -> str:
    """What a Replace All says: how many it made and how, and what it left alone and why."""
    quoted = f"“{search.query}”"
    if outcome.made:
        how = f"as tracked changes under {author}" if tracked else "directly (Track Changes is off)"
        text = f"Replaced {occurrences(outcome.made)} of {quoted} with “{replacement}”, {how}."
    elif outcome.refused_count or outcome.struck:
        text = f"No occurrence of {quoted} was replaced."
    elif outcome.unchanged:
        verb = "reads" if outcome.unchanged == 1 else "read"
        return f"Nothing to replace: {occurrences(outcome.unchanged)} of {quoted} already {verb} “{replacement}”."
    else:
        return f"No occurrences of {quoted}."
    if outcome.refused_count:
        reasons = "; ".join(clause(reason) for reason in outcome.refused)
        text += f" {occurrences(outcome.refused_count)} could not be replaced: {reasons}."
    if outcome.struck == 1:
        text += " 1 occurrence in text already deleted (struck through) is left as it is."
    elif outcome.struck:
        text += f" {occurrences(outcome.struck)} in text already deleted (struck through) are left as they are."
    return text
