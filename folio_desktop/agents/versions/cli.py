"""`folio-desktop compare OLD NEW -o OUT.docx`: write a redline of OLD -> NEW as tracked changes.

Prints one result line (and with --summary the notes on how the redline was written, from
notes.py, then the diff text the model reads, at most 100,000 characters of it: --summary-from
continues where it stopped, --include-minor lists the whitespace-only and field-result-only
differences it leaves out); progress goes to stderr only for steps that
take longer than half a second; bad input is one plain line and exit code 1.
"""

from __future__ import annotations

import argparse
import sys
import threading
from contextlib import contextmanager

from folio_desktop.docx.errors import DocxError
from folio_desktop.docx.package.files import atomic_write, read_document_file

from . import privacy as privacy_mod
from .compare import diff_reviewers, open_view, page_version_diff
from .notes import redline_notes
from .redline import redline_reviewers
from .redline_errors import (
    GenerateRedlineDocxResourceImportError,
    InvalidGenerateRedlineDocxOptionsError,
    RedlineVerificationError,
)

PROG = "folio-desktop compare"
PROGRESS_AFTER_S = 0.5
# how the summary says to ask for its next part or for the minor differences it left out
SUMMARY_ASKS = {"start": "--summary-from {n}", "minor": "--include-minor"}
PRIVACY_HELP = ("make the output anonymous: remove-attribution, remove-timestamps and remove-descriptive-metadata "
                "strip the file's properties (docProps/core.xml); anonymize-revisions names every tracked change "
                "and comment \"Author\" (and drops the accounts Word keeps for them); remove-revision-dates drops "
                "their dates")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=PROG, description="Write a redline of OLD -> NEW as tracked changes.")
    parser.add_argument("old", metavar="OLD", help="the earlier version (.docx)")
    parser.add_argument("new", metavar="NEW", help="the later version (.docx)")
    parser.add_argument("-o", "--output", required=True, metavar="OUT.docx", help="where to write the redline")
    parser.add_argument("--summary", action="store_true", help="also print the change summary the model reads "
                        "(at most 100,000 characters; it says how to ask for the rest)")
    parser.add_argument("--summary-from", type=int, default=0, metavar="N",
                        help="with --summary: start at change N (the number the previous summary gave)")
    parser.add_argument("--include-minor", action="store_true",
                        help="with --summary: also list differences only in tabs, spaces or blank paragraphs and "
                        "only in field results (table-of-contents page numbers, cross-reference numbers)")
    parser.add_argument("--author", default="folio compare", help='author of the tracked changes (default "folio compare")')
    parser.add_argument("--privacy", action="extend", nargs="+", default=[], metavar="TRANSFORM",
                        choices=list(privacy_mod.TRANSFORM_NAMES), help=PRIVACY_HELP)
    parser.add_argument("--no-formatting", action="store_true",
                        help="do not show formatting changes (bold, fonts, styles...) as revisions")
    parser.add_argument("--no-moves", action="store_true",
                        help="show moved paragraphs as a deletion and an insertion, not as moves")
    return parser


@contextmanager
def _step(label: str, stream):
    """Say what is happening on stderr, but only once the step has taken long enough to notice."""
    timer = threading.Timer(PROGRESS_AFTER_S, lambda: print(f"{label}…", file=stream, flush=True))
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


def run(argv: list[str], stdout=None, stderr=None) -> int:
    out, err = stdout or sys.stdout, stderr or sys.stderr
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:  # argparse already printed its usage line; --help exits 0
        return 0 if not exc.code else 1
    try:
        with _step("reading", err):
            old = read_document_file(args.old)
            base = open_view(old, author=args.author)
            revised = open_view(read_document_file(args.new))
        with _step("aligning", err):
            memo: dict = {}  # the diff's findings of unchanged markup, which the redline asks again
            diff = diff_reviewers(base, revised, privacy={"transforms": args.privacy}, memo=memo)
        with _step("redlining", err):
            result = redline_reviewers(base, revised, args.author, {"transforms": args.privacy},
                                       formatting=not args.no_formatting, moves=not args.no_moves,
                                       reopen=lambda: open_view(old, author=args.author), memo=memo)
        with _step("writing", err):
            atomic_write(args.output, result["buffer"])
    except DocxError as exc:
        print(f"{PROG}: {exc}", file=err)
        return 1
    except (RedlineVerificationError, GenerateRedlineDocxResourceImportError,
            InvalidGenerateRedlineDocxOptionsError, privacy_mod.FolioDocumentPrivacyArchiveError) as exc:
        print(f"{PROG}: {exc}", file=err)
        return 1
    except OSError as exc:
        print(f"{PROG}: {args.output} could not be written ({exc.strerror or exc}).", file=err)
        return 1
    c = diff["summaryCounts"]
    line = (f"Wrote {args.output}: {c['added']} added, {c['deleted']} deleted, {c['modified']} modified, "
            f"{c['formatChanged']} format-changed, {c['moved']} moved, {c['unchanged']} unchanged "
            f"({len(result['applied'])} edits by {args.author})")
    skipped, unprocessed = len(result["skipped"]), len(result["unprocessedStories"])
    if skipped or unprocessed:
        line += f"; {skipped} edit(s) skipped, {unprocessed} unreferenced note(s) left as in OLD"
    if result["fallbacks"]:
        line += f"; {len(result['fallbacks'])} story part(s) redlined as whole paragraphs and tables"
    print(line + ".", file=out)
    if args.summary:
        for note in redline_notes(result):
            print(note, file=out)
        print(page_version_diff(diff, args.summary_from, args.include_minor, asks=SUMMARY_ASKS).text, file=out)
    return 0


def main() -> int:
    return run(sys.argv[1:])


if __name__ == "__main__":
    raise SystemExit(main())
