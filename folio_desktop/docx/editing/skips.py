"""Skip reasons: their recovery hint, whether a retry can work, and the prose the model reads (spec §3.7)."""

from __future__ import annotations

# reason -> (recovery, retryable, prose)
SKIP_REASONS: dict[str, tuple[str, bool, str]] = {
    "missingBlock": ("refreshDocument", True,
                     "the blockId was not found in the document; re-read it (read_document or find_text) and retry "
                     "with a fresh block id"),
    "changedBlock": ("refreshDocument", True,
                     "the block changed since your snapshot; re-read the document and retry with fresh ids"),
    "ambiguousFind": ("narrowMatch", True,
                      "`find` matches more than once in the block; make it longer so it matches exactly once, "
                      "or use replaceBlock"),
    "missingFind": ("refreshDocument", True,
                    "`find` was not found in the block; re-read the block's current text and retry"),
    "unsupportedBlock": ("changeTarget", True, "this block does not support this operation"),
    "unsupportedMode": ("changeMode", True,
                        "the operation does not support the requested mutation mode; inspect the capabilities and "
                        "retry with a supported mode"),
    "atomicBatchRejected": ("inspectBatch", True,
                            "another operation in this atomic batch could not be applied, so nothing was committed"),
    "preconditionFailed": ("refreshDocument", True,
                           "the target block changed after the operation was prepared; re-read it and retry"),
    "staleRange": ("refreshDocument", True, "the selected range changed or shifted; run find_text again"),
    "emptyOperation": ("removeOperation", False, "this operation has no effect; there is nothing to apply"),
    "noopOperation": ("removeOperation", False, "the operation would not change the document (the text already matches)"),
    "pendingParagraphPropertyChange": ("resolveTrackedChange", False,
                                       "the paragraph already carries a pending paragraph-property change; accept "
                                       "or reject it first"),
    "pendingRunPropertyChange": ("resolveTrackedChange", False,
                                 "the text already carries a pending formatting change; accept or reject it first"),
    "documentVersionMismatch": ("refreshDocument", True,
                                "the document changed after these edits were proposed; re-read it and regenerate the "
                                "edits against the current version"),
    "documentNotEditable": ("retryLater", True,
                            "the document is not open for editing, so nothing was applied or queued; ask the user to "
                            "open it, then retry"),
    "overlappingOperation": ("refreshDocument", True,
                             "it targets text that an earlier operation in this batch already changes"),
    "splitsCharacter": ("changeTarget", True, "an offset falls inside a single character"),
    "missingStyle": ("refreshDocument", True, "the styleId names no paragraph style this document defines"),
    "missingNumbering": ("refreshDocument", True, "the numbering names a numbering instance this document does not define"),
    "pendingDeletion": ("resolveTrackedChange", False,
                        "the target is pending deletion; reject the deletion first or insert beside it"),
    "payloadDoesNotFit": ("changeTarget", False, "the payload does not fit the target"),
    "protectedReference": ("changeTarget", True,
                           "the edit would remove or rewrite a footnote or endnote marker; keep each [^n] marker in "
                           "the replacement, in order"),
    "invalidResult": ("inspectBatch", False, "the result would not save as a valid document, so it was not applied"),
    "hiddenText": ("changeTarget", False, "the edit would pass over hidden text"),
    "unpairedMove": ("inspectBatch", True, "the moveId does not pair exactly one deletion with one insertion"),
}


def issue_for(reason: str, op_id: str, index: int, message: str | None) -> dict:
    recovery, retryable, _ = SKIP_REASONS.get(reason, ("inspectBatch", False, reason))
    issue = {"operationId": op_id, "operationIndex": index, "path": f"$.operations[{index}]", "code": reason,
             "retryable": retryable, "recovery": recovery}
    if message:
        issue["message"] = message
    return issue


def prose_for(reason: str, message: str | None = None) -> str:
    """The sentence a model reads for a skip; the detail message is appended for the newer reasons."""
    entry = SKIP_REASONS.get(reason)
    if entry is None:
        return reason if not message else f"{reason}: {message}"
    prose = entry[2]
    if message:
        prose = f"{prose}: {message}"
    return prose[0].upper() + prose[1:] + ("" if prose.endswith(".") else ".")
