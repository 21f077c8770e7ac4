"""The `folio-desktop` command line: one entry point for the app and the headless engine."""

from __future__ import annotations

import argparse
import json
import sys

from . import APP_NAME, __version__
from .assets import sample_contract_path

DESCRIPTION = """\
Review .docx contracts on your own machine: real pages, redlines, comments, and Claude at your side.

  folio-desktop [FILE]                     open the app (the bundled sample contract when no FILE)
  folio-desktop FILE --summary             print the review at a glance instead of opening the app
  folio-desktop --self-test                check this installation headless: open, lay out, edit, save, reopen
  folio-desktop read FILE [--annotated]    print the document as blocks: [blockId] text
  folio-desktop read FILE --json           the block snapshot as JSON (spec §5.3 keys)
  folio-desktop stories FILE               list headers, footers and notes with their text
  folio-desktop changes FILE               list pending tracked changes
  folio-desktop comments FILE              list comment threads
  folio-desktop pages FILE [--json]        lay the document out: page count and each page's first words
  folio-desktop pdf FILE -o OUT.pdf [--no-markup | --view V]
                                           print our layout headless: with redlines and comment balloons
                                           (default), every change accepted (--no-markup), or a view
  folio-desktop tool FILE NAME [JSON]      run one agent tool headless and print its JSON result
                                           (--save OUT.docx keeps the edits suggest_changes made)
  folio-desktop check FILE [--json]        the checks before signing: undefined or unused defined terms, broken
                                           cross-references, placeholders left, numbering gaps, wrong party names
  folio-desktop compare OLD NEW -o OUT.docx [--summary] [--author NAME] [--privacy T ...]
                                           write a redline of OLD -> NEW as tracked changes
  folio-desktop review FILE --prompt TEXT -o OUT.docx [--model ID] [--author NAME]
                                           let Claude review FILE headless; its edits are tracked changes
                                           (key from ANTHROPIC_API_KEY or the app's settings)
  folio-desktop mcp FILE [--author NAME] [--save-to OUT.docx] [--overwrite]
                                           serve FILE's tools to an MCP client over stdio; every edit is a
                                           tracked change or comment, saved to OUT.docx after each call; a
                                           restart carries on from OUT.docx (--overwrite starts over)
  folio-desktop mcp --window               serve over stdio the document the folio-desktop window shares
                                           (Tools > Share with an MCP client): for Claude Desktop
"""

SUBCOMMANDS = ("read", "stories", "changes", "comments", "tool", "compare", "pages", "pdf", "review", "mcp")


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=APP_NAME, description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--version", action="version", version=f"{APP_NAME} {__version__}")
    sub = parser.add_subparsers(dest="command")
    read = sub.add_parser("read", help="print the document as blocks")
    read.add_argument("file")
    read.add_argument("--annotated", action="store_true", help="show tracked changes and comments inline")
    read.add_argument("--json", action="store_true", help="print the snapshot as JSON")
    pages = sub.add_parser("pages", help="lay the document out into pages")
    pages.add_argument("file")
    pages.add_argument("--json", action="store_true", help='print {"pageCount", "pages": [{"number", "firstWords", "text"}]}: each page\'s text in '
                       'reading order, headers, text boxes and shapes included')
    pdf = sub.add_parser("pdf", help="print the document as laid out to a PDF")
    pdf.add_argument("file")
    pdf.add_argument("-o", "--output", required=True, metavar="OUT.pdf", help="where to write the PDF")
    shown = pdf.add_mutually_exclusive_group()
    shown.add_argument("--no-markup", action="store_true", help="every change accepted, nothing marked")
    shown.add_argument("--view", choices=("all", "simple", "none", "original"),
                       help="a markup view: all (default), simple, none or original")
    tool = sub.add_parser("tool", help="run one agent tool headless")
    tool.add_argument("file")
    tool.add_argument("name", help="the tool, e.g. read_document, find_text, suggest_changes")
    tool.add_argument("json", nargs="?", default="{}", help="the tool's arguments as JSON (default {})")
    tool.add_argument("--save", metavar="OUT.docx", help="save the document after the tool ran")
    tool.add_argument("--author", default="AI", help="author of tracked changes (default AI)")
    review = sub.add_parser("review", help="let Claude review the document headless")
    review.add_argument("file")
    review.add_argument("--prompt", required=True, help="what to ask Claude")
    review.add_argument("-o", "--output", required=True, metavar="OUT.docx", help="where to save the result")
    review.add_argument("--model", help="model id (default: the settings' model)")
    review.add_argument("--author", default="Claude", help="author of tracked changes (default Claude)")
    review.add_argument("--base-url", help="API base URL (default: ANTHROPIC_BASE_URL or the SDK's)")
    mcp = sub.add_parser("mcp", help="serve the document's tools to an MCP client over stdio")
    mcp.add_argument("file", nargs="?")
    mcp.add_argument("--window", action="store_true",
                     help="serve the document the folio-desktop window shares (Tools > Share with an MCP client)")
    mcp.add_argument("--author", default="Claude", help="author of tracked changes and comments (default Claude)")
    mcp.add_argument("--save-to", metavar="OUT.docx",
                     help='where edits are saved (default: "FILE (reviewed).docx" beside FILE); when it holds '
                          "an earlier review of FILE, the review carries on from it")
    mcp.add_argument("--overwrite", action="store_true",
                     help="start over from FILE even when OUT.docx holds something else (it is replaced at the "
                          "first edit)")
    for name, help_text in (("stories", "list the document's stories"), ("changes", "list pending changes"),
                            ("comments", "list comment threads")):
        p = sub.add_parser(name, help=help_text)
        p.add_argument("file")
        p.add_argument("--json", action="store_true", help="print JSON")
    return parser


def _open(path: str):
    from .docx import DocxReviewer

    rev = DocxReviewer.open(path)
    for warning in rev.open_warnings:
        print(f"warning: {warning}", file=sys.stderr)
    return rev


def _changes_as_listed(rev) -> list[dict]:
    """The pending changes as the panels and read_changes list them: a move's two halves as one
    `moved` change, with where its text left and arrived."""
    from .agents.read_tools import fold_moves
    return fold_moves([c.to_agent_json() for c in rev.get_changes()])


def _summary(path: str) -> int:
    """`folio-desktop FILE --summary`: the review at a glance, without opening the app."""
    rev = _open(path)
    snap = rev.snapshot()
    changes = _changes_as_listed(rev)
    threads = rev.get_comments()
    print(f"{path}")
    print(f"  {len(snap.content_blocks)} paragraphs, {len(changes)} pending change(s), "
          f"{sum(not t.done for t in threads)} open comment thread(s)")
    concealed = rev.concealed_text()
    if not concealed.is_empty():
        print(f"  {concealed.describe()}")
    for entry in rev.outline():
        label = entry.block.display_label if entry.block.display_label != entry.block.style_id else ""
        print(f"  {'  ' * (entry.level - 1)}{label + ' ' if label else ''}{entry.block.text}")
    return 0


def _run_tool(args) -> int:
    from .agents import create_reviewer_bridge, execute_tool_call
    from .docx import DocxReviewer

    try:
        tool_args = json.loads(args.json)
    except ValueError as exc:
        print(f"{APP_NAME}: the tool arguments are not valid JSON ({exc}).", file=sys.stderr)
        return 2
    rev = DocxReviewer.open(args.file, author=args.author)
    result = execute_tool_call(args.name, tool_args, create_reviewer_bridge(rev))
    print(json.dumps(result, ensure_ascii=False, indent=1))
    if args.save and result.get("ok"):
        rev.save(args.save)
    return 0 if result.get("ok") else 1


def _run_pages(args) -> int:
    import os

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication

    from .layout import layout_document

    app = QGuiApplication.instance() or QGuiApplication([APP_NAME])  # noqa: F841 - fonts need it
    rev = _open(args.file)
    lay = layout_document(rev.document)
    pages = []
    for page in lay.pages:
        # in reading order, text boxes and shapes included: a page opening with a drawn title is not empty
        text = page.text(include_headers=True, boxes=True)
        item = {"number": page.number, "firstWords": " ".join(text.split()[:8])}
        if args.json:
            item["text"] = text
        pages.append(item)
    if args.json:
        out = {"pageCount": lay.page_count, "pages": pages}
        if rev.open_warnings:
            out["warnings"] = rev.open_warnings
        print(json.dumps(out, ensure_ascii=False))
    else:
        print(f"{lay.page_count} page(s)")
        for item in pages:
            print(f"{item['number']:4}  {item['firstWords']}")
        for original, used in lay.font_substitutions.items():
            print(f"font {original!r} is not installed; laid out with {used!r}", file=sys.stderr)
    return 0


def _run_pdf(args) -> int:
    import os

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication

    from .ui.desk.export import export_pdf

    app = QGuiApplication.instance() or QGuiApplication([APP_NAME])  # noqa: F841 - fonts need it
    rev = _open(args.file)
    if args.no_markup:
        pages = export_pdf(rev, args.output, markup=False)
        what = "every change accepted"
    else:
        view = args.view or "all"
        pages = export_pdf(rev, args.output, markup=True, view=view)
        what = {"all": "with redlines and comments", "simple": "in Simple Markup",
                "none": "every change accepted", "original": "as before the tracked changes"}[view]
    print(f"{pages} page(s) {what} written to {args.output}")
    return 0


def _run_mcp(args) -> int:
    import anyio

    from .sharing.mcp_server import SharedDocument, serve_stdio

    if args.window == bool(args.file):
        print(f"{APP_NAME} mcp: give a FILE to serve, or --window for the document the window shares "
              "(not both).", file=sys.stderr)
        return 2
    if args.window:
        from .assistant.settings import default_config_dir
        from .sharing.mcp_window import WindowLauncher

        host = WindowLauncher(default_config_dir())
    else:
        from .docx import DocxError
        from .sharing.review_record import ReviewRefused

        try:
            host = SharedDocument(args.file, args.author, args.save_to, overwrite=args.overwrite)
        except (ReviewRefused, DocxError) as exc:  # said on stderr, which MCP clients keep in their logs
            print(f"{APP_NAME} mcp: {exc}", file=sys.stderr)
            return 2
        if host.continued:
            print(f"{APP_NAME} mcp: carrying on with the review saved in {host.save_to}.", file=sys.stderr)
    anyio.run(serve_stdio, host)
    return 0


def _run_headless(args) -> int:
    if args.command == "review":
        from .assistant.headless import run_review

        # the reader of the run's output is told first what the document hides (issue 12)
        concealed = _open(args.file).concealed_text()
        if not concealed.is_empty():
            print(f"[notice] {concealed.describe()}", flush=True)
        return run_review(args.file, args.prompt, args.output, model=args.model, author=args.author,
                          base_url=args.base_url)
    if args.command == "tool":
        return _run_tool(args)
    if args.command == "mcp":
        return _run_mcp(args)
    if args.command == "pages":
        return _run_pages(args)
    if args.command == "pdf":
        return _run_pdf(args)
    rev = _open(args.file)
    if args.command == "read":
        if args.json:
            print(json.dumps([b.to_json() for b in rev.snapshot().blocks], ensure_ascii=False, indent=1))
        else:
            print(rev.get_content_as_text(annotated=args.annotated))
    elif args.command == "stories":
        stories = rev.list_stories()
        if args.json:
            print(json.dumps(stories, ensure_ascii=False, indent=1))
        else:
            for story in stories:
                handle = story["handle"]
                label = " ".join(str(v) for v in handle.values())
                text = story["text"] if handle["type"] != "main" else f"{len(rev.snapshot().content_blocks)} blocks"
                print(f"{label}: {text}")
    elif args.command == "changes":
        if args.json:
            print(json.dumps([c.to_json() for c in rev.get_changes()], ensure_ascii=False, indent=1))
        else:
            changes = _changes_as_listed(rev)
            for c in changes:
                where = f"{c['from']['blockId']} -> {c['to']['blockId']}" if c["type"] == "moved" else c["blockId"]
                print(f"#{c['id']} {c['type']} by {c['author'] or '?'} [{where}] {c['text']!r}")
            print(f"{len(changes)} pending change(s)")
    elif args.command == "comments":
        comments = rev.get_comments()
        if args.json:
            print(json.dumps([c.to_agent_json() for c in comments], ensure_ascii=False, indent=1))
        else:
            for c in comments:
                state = "resolved" if c.done else "open"
                print(f"#{c.id} {c.author} ({state}) on {c.anchored_text[:60]!r}: {c.text}")
                for r in c.replies:
                    print(f"    #{r.id} {r.author}: {r.text}")
            print(f"{len(comments)} thread(s)")
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "compare":
        from .agents.versions.cli import run

        return run(argv[1:])
    if argv and argv[0] == "check":
        from .checks.cli import run as run_checks

        return run_checks(argv[1:])
    parser = _build_parser()
    if argv and argv[0] in SUBCOMMANDS or any(a in ("-h", "--help", "--version") for a in argv[:1]):
        args = parser.parse_args(argv)
    else:
        # `folio-desktop [FILE]` opens the app.
        app_parser = argparse.ArgumentParser(prog=APP_NAME, add_help=False)
        app_parser.add_argument("file", nargs="?")
        app_parser.add_argument("--summary", action="store_true")
        app_parser.add_argument("--self-test", action="store_true")
        app_parser.add_argument("--quit-after", type=int, metavar="MS")
        args = app_parser.parse_args(argv)
        args.command = None
    from .docx import DocxError

    try:
        if args.command is None:
            if args.self_test:
                from .self_test import run_self_test

                return run_self_test()
            path = args.file or str(sample_contract_path())
            if args.summary:
                return _summary(path)
            from .ui.app import run_app

            # the bundled sample opens as an untitled copy: Save must never write inside the installation
            return run_app(path, quit_after_ms=args.quit_after, as_copy=not args.file)
        return _run_headless(args)
    except DocxError as exc:
        print(f"{APP_NAME}: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
