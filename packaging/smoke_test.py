"""Smoke test of the PyInstaller bundle: does the frozen app work the way the installed package does?

    python packaging/smoke_test.py [--build] [--dist DIR] [--work DIR] [--corpus DIR]

--build runs PyInstaller on packaging/folio_desktop.spec first (into dist/ and build/, git-ignored);
without it the bundle already in --dist is tested. Then the frozen binary, from a temporary folder,
with a temporary settings folder:

  size       the bundle folder is under 250 MB
  version    --version prints the package's version
  self-test  --self-test passes headless (QT_QPA_PLATFORM=offscreen)
  read       `read --json` of a corpus contract equals the installed package's output
  pages      `pages --json` of the same contract equals the installed package's output
  compare    `compare OLD NEW` on a corpus pair writes the same redline as the installed package
             (same tracked changes, same text with all accepted and all rejected)
  review     `review` drives the bundled Claude SDK against a local fake Messages API and saves
             the tracked insertion it was told to make
  mcp        `mcp FILE` serves the mcp SDK's own client over stdio and saves its edit; `mcp --window`
             forwards to a document shared over HTTP through the share file, as Claude Desktop would use it
  window     the window opens (on the sample and on the corpus contract) under Xvfb, shows pages and
             closes cleanly by itself (--quit-after); skipped where there is no display or xvfb-run

Prints one line per check and a summary; exits 1 when any check failed. Needs the package installed
(pip install -e ".[build]") for the comparisons and the shared corpus beside the checkout.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "packaging" / "folio_desktop.spec"
APP = "folio-desktop"
MAX_BUNDLE_MB = 250
CONTRACT = "contract_commonpaper_pilot_agreement.docx"
COMPARE_PAIR = ("folio/sample.docx", "folio/contract-stella-style.docx")
INSERTED = "Each party bears its own costs of this review."
TIMEOUT = 180


class CheckFailed(Exception):
    pass


@dataclass
class Context:
    binary: Path
    corpus: Path
    tmp: Path
    results: list[tuple[str, str, str]] = field(default_factory=list)

    def env(self, **extra: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("ANTHROPIC_", "PYTHON", "FOLIO_DESKTOP_")) and k != "QT_QPA_PLATFORM"}
        env.update(FOLIO_DESKTOP_CONFIG_DIR=str(self.tmp / "config"), QT_QPA_PLATFORM="offscreen")
        env.update(extra)
        return {k: v for k, v in env.items() if v}  # an empty value removes the variable

    def run(self, cmd: list[str], timeout: float = TIMEOUT, **env: str) -> subprocess.CompletedProcess:
        try:
            return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=self.tmp,
                                  env=self.env(**env))
        except subprocess.TimeoutExpired:
            raise CheckFailed(f"{' '.join(cmd[:3])} … did not finish within {timeout:.0f} s") from None

    def frozen(self, *args: str, **env: str) -> subprocess.CompletedProcess:
        return self.run([str(self.binary), *args], **env)

    def installed(self, *args: str, **env: str) -> subprocess.CompletedProcess:
        return self.run([sys.executable, "-m", "folio_desktop", *args], **env)


def ok(proc: subprocess.CompletedProcess, what: str) -> str:
    if proc.returncode != 0:
        raise CheckFailed(f"{what} exited {proc.returncode}: {(proc.stderr or proc.stdout).strip()[-600:]}")
    return proc.stdout


# -- the checks ---------------------------------------------------------------------------------------

def check_size(ctx: Context) -> str:
    folder = ctx.binary.parent
    total = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())
    mb = total / 1e6
    if mb >= MAX_BUNDLE_MB:
        raise CheckFailed(f"{folder} is {mb:.0f} MB, over the {MAX_BUNDLE_MB} MB limit")
    return f"{mb:.0f} MB in {folder}"


def check_version(ctx: Context) -> str:
    from folio_desktop import __version__

    line = ok(ctx.frozen("--version"), "--version").strip()
    if line != f"{APP} {__version__}":
        raise CheckFailed(f"--version printed {line!r}, the package is {__version__}")
    return line


def check_self_test(ctx: Context) -> str:
    out = ok(ctx.frozen("--self-test"), "--self-test")
    steps = [line for line in out.splitlines() if line.startswith("ok  ")]
    if "(frozen)" not in out or "self-test passed" not in out or len(steps) < 6:
        raise CheckFailed(f"unexpected self-test output:\n{out}")
    return f"{len(steps)} steps ok (" + "; ".join(s[4:] for s in steps[:2]) + "; …)"


def check_read(ctx: Context) -> str:
    path = str(ctx.corpus / CONTRACT)
    frozen = json.loads(ok(ctx.frozen("read", path, "--json"), "frozen read"))
    installed = json.loads(ok(ctx.installed("read", path, "--json"), "installed read"))
    if frozen != installed:
        raise CheckFailed(f"read --json of {CONTRACT} differs from the installed package's")
    return f"{CONTRACT}: {len(frozen)} blocks, identical to the installed package"


def check_pages(ctx: Context) -> str:
    path = str(ctx.corpus / CONTRACT)
    frozen = json.loads(ok(ctx.frozen("pages", path, "--json"), "frozen pages"))
    installed = json.loads(ok(ctx.installed("pages", path, "--json"), "installed pages"))
    if frozen != installed:
        raise CheckFailed(f"pages differ: frozen {frozen['pageCount']} page(s) {frozen['pages'][:2]}, "
                          f"installed {installed['pageCount']} {installed['pages'][:2]}")
    return f"{CONTRACT}: {frozen['pageCount']} pages, same page breaks and first words as the installed package"


def redline_content(path: Path) -> dict:
    """What a redline says, without the dates and ids that may differ between two runs."""
    from folio_desktop.docx import DocxReviewer

    rev = DocxReviewer.open(path)
    changes = sorted((c.type, c.author, c.story, c.text) for c in rev.get_changes())
    views = {}
    for view in ("accept_all", "reject_all"):
        copy = DocxReviewer.open(path)
        getattr(copy, view)()
        views[view] = [b.text for b in copy.snapshot().blocks]
    return {"changes": changes, **views}


def check_compare(ctx: Context) -> str:
    old, new = (str(ctx.corpus / name) for name in COMPARE_PAIR)
    frozen_out, installed_out = ctx.tmp / "redline-frozen.docx", ctx.tmp / "redline-installed.docx"
    summary = ok(ctx.frozen("compare", old, new, "-o", str(frozen_out)), "frozen compare").strip()
    ok(ctx.installed("compare", old, new, "-o", str(installed_out)), "installed compare")
    frozen, installed = redline_content(frozen_out), redline_content(installed_out)
    for key in ("changes", "accept_all", "reject_all"):
        if frozen[key] != installed[key]:
            raise CheckFailed(f"the frozen redline's {key.replace('_', ' ')} differs from the installed package's")
    same_bytes = frozen_out.read_bytes() == installed_out.read_bytes()
    return (f"{' -> '.join(COMPARE_PAIR)}: {len(frozen['changes'])} tracked changes, same accepted and "
            f"rejected text{' (byte-identical)' if same_bytes else ''}; {summary.split(': ', 1)[-1]}")


def check_review(ctx: Context) -> str:
    sys.path.insert(0, str(ROOT / "tests"))
    from fake_messages_api import FakeMessagesAPI, Reply, Text, ToolUse

    from folio_desktop.assets import sample_contract_path
    from folio_desktop.docx import DocxReviewer

    document = ctx.tmp / "review-me.docx"
    shutil.copyfile(sample_contract_path(), document)
    anchor = next(b for b in DocxReviewer.open(document).snapshot().content_blocks if len(b.text) > 40)
    ops = {"operations": [{"type": "insertAfterBlock", "blockId": anchor.id, "text": INSERTED}]}
    out = ctx.tmp / "reviewed.docx"
    with FakeMessagesAPI() as api:
        api.script(Reply([Text("Reading the outline."), ToolUse("get_document_outline", {})], stop_reason="tool_use"),
                   Reply([ToolUse("suggest_changes", ops)], stop_reason="tool_use"),
                   Reply([Text("I proposed one insertion.")]))
        ok(ctx.frozen("review", str(document), "--prompt", "Review it", "-o", str(out), "--base-url", api.base_url,
                      ANTHROPIC_API_KEY="smoke-test-key"), "frozen review")
        calls = len(api.requests)
    added = [c for c in DocxReviewer.open(out).get_changes() if c.type == "insertion" and c.author == "Claude"]
    if [c.text.strip() for c in added] != [INSERTED]:
        raise CheckFailed(f"the reviewed copy's insertions by Claude are {[c.text for c in added]}")
    return f"{calls} streamed API calls through the bundled anthropic SDK; the tracked insertion was saved"


def check_mcp(ctx: Context) -> str:
    """The frozen `folio-desktop mcp` answers the mcp SDK's own client over stdio; its edit is saved."""
    import anyio
    from mcp.client.stdio import StdioServerParameters

    from folio_desktop.docx import DocxReviewer

    document, out = ctx.tmp / "mcp-me.docx", ctx.tmp / "mcp-reviewed.docx"
    shutil.copyfile(ctx.corpus / CONTRACT, document)
    anchor = next(b for b in DocxReviewer.open(document).snapshot().content_blocks if len(b.text) > 40)
    params = StdioServerParameters(command=str(ctx.binary), args=["mcp", str(document), "--save-to", str(out)],
                                   env=ctx.env(), cwd=str(ctx.tmp))

    async def session() -> int:
        with anyio.fail_after(TIMEOUT):
            return await _suggest_over_mcp(params, anchor.id)

    count = anyio.run(session)
    added = [c.text.strip() for c in DocxReviewer.open(out).get_changes()
             if c.type == "insertion" and c.author == "Claude"]
    if added != [INSERTED]:
        raise CheckFailed(f"the MCP session's saved insertions by Claude are {added}")
    forwarded = _check_mcp_window(ctx, document, anchor.id)
    return (f"{count} tools over stdio to the mcp SDK's client; the tracked insertion was saved; "
            f"`mcp --window` forwarded {forwarded} tools to a shared document over HTTP")


def _check_mcp_window(ctx: Context, document: Path, block_id: str) -> int:
    """The frozen `folio-desktop mcp --window` (Claude Desktop's way in) finds a share through the share
    file and forwards to it over HTTP. The share is served here, as the window would serve it."""
    import anyio
    from mcp.client.stdio import StdioServerParameters

    from folio_desktop.sharing.mcp_http import LocalHttpServer
    from folio_desktop.sharing.mcp_server import SharedDocument, build_server
    from folio_desktop.sharing.mcp_window import share_token, write_share_file

    config = ctx.tmp / "config"
    shared = SharedDocument(str(document), "Claude", str(ctx.tmp / "mcp-window-reviewed.docx"))
    token = share_token(config)
    server = LocalHttpServer(build_server(shared), token)
    server.start()
    try:
        write_share_file(config, server.url, token, document.name)
        params = StdioServerParameters(command=str(ctx.binary), args=["mcp", "--window"], env=ctx.env(),
                                       cwd=str(ctx.tmp))

        async def session() -> int:
            with anyio.fail_after(TIMEOUT):
                return await _suggest_over_mcp(params, block_id)

        count = anyio.run(session)
    finally:
        server.stop()
    added = [c.text.strip() for c in shared.reviewer.get_changes() if c.type == "insertion" and c.author == "Claude"]
    if added != [INSERTED]:
        raise CheckFailed(f"the shared document's insertions by Claude through `mcp --window` are {added}")
    return count


async def _suggest_over_mcp(params, block_id: str) -> int:
    from mcp.client.session import ClientSession
    from mcp.client.stdio import stdio_client

    async with stdio_client(params) as streams, ClientSession(*streams) as client:
        await client.initialize()
        tools = (await client.list_tools()).tools
        done = await client.call_tool("suggest_changes", {"operations": [
            {"type": "insertAfterBlock", "blockId": block_id, "text": INSERTED}]})
        if done.is_error:
            raise CheckFailed(f"suggest_changes over MCP failed: {done.content[0].text}")
        return len(tools)


def window_command() -> list[str] | None:
    if not sys.platform.startswith("linux"):
        return []  # macOS and Windows always have a display
    if shutil.which("xvfb-run"):
        return ["xvfb-run", "-a"]
    return [] if os.environ.get("DISPLAY") else None


def check_window(ctx: Context) -> str:
    prefix = window_command()
    if prefix is None:
        return "SKIP: no xvfb-run and no display"
    seen = []
    for document in (None, ctx.corpus / CONTRACT):
        args = ["--quit-after", "4000"] + ([str(document)] if document else [])
        # QT_QPA_PLATFORM unset: the real platform plugin (xcb under Xvfb) must load from the bundle
        proc = ctx.run([*prefix, str(ctx.binary), *args], timeout=120, QT_QPA_PLATFORM="")
        out = ok(proc, "the window")
        name = document.name if document else "sample_contract (copy).docx"  # the sample opens as a copy
        line = next((s for s in out.splitlines() if "window shown on" in s), "")
        if name not in line or " 0 page(s)" in line:
            raise CheckFailed(f"the window did not show {name}: {out.strip() or proc.stderr.strip()[-400:]}")
        seen.append(line.split("window shown on ", 1)[1])
    return "; ".join(seen) + "; closed with exit code 0"


CHECKS = (check_size, check_version, check_self_test, check_read, check_pages, check_compare, check_review,
          check_mcp, check_window)


# -- building and running -----------------------------------------------------------------------------

def build(dist: Path, work: Path) -> float:
    start = time.monotonic()
    cmd = [sys.executable, "-m", "PyInstaller", str(SPEC), "--noconfirm", "--distpath", str(dist),
           "--workpath", str(work)]
    print("building:", " ".join(cmd), flush=True)
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if proc.returncode != 0:
        print(proc.stdout[-2000:], proc.stderr[-4000:], sep="\n", file=sys.stderr)
        raise SystemExit(f"the PyInstaller build failed (exit {proc.returncode})")
    return time.monotonic() - start


def binary_in(dist: Path) -> Path:
    return dist / APP / (f"{APP}.exe" if sys.platform == "win32" else APP)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build (optionally) and smoke-test the frozen folio-desktop.")
    parser.add_argument("--build", action="store_true", help="run PyInstaller on packaging/folio_desktop.spec first")
    parser.add_argument("--dist", type=Path, default=ROOT / "dist", help="PyInstaller's dist folder (default dist/)")
    parser.add_argument("--work", type=Path, default=ROOT / "build", help="PyInstaller's work folder (default build/)")
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus", help="the shared corpus")
    args = parser.parse_args(argv)
    if args.build:
        print(f"built in {build(args.dist.resolve(), args.work.resolve()):.0f} s", flush=True)
    binary = binary_in(args.dist.resolve())
    if not binary.is_file():
        print(f"no bundle at {binary}; build one with --build", file=sys.stderr)
        return 1
    if not (args.corpus / CONTRACT).is_file():
        print(f"the shared corpus is missing at {args.corpus}; pass --corpus DIR", file=sys.stderr)
        return 1
    failed = 0
    with tempfile.TemporaryDirectory(prefix="folio-smoke-") as tmp:
        ctx = Context(binary=binary, corpus=args.corpus.resolve(), tmp=Path(tmp))
        for check in CHECKS:
            name = check.__name__.removeprefix("check_").replace("_", "-")
            started = time.monotonic()
            try:
                detail = check(ctx)
                status = "SKIP" if detail.startswith("SKIP: ") else "PASS"
                detail = detail.removeprefix("SKIP: ")
            except CheckFailed as exc:
                status, detail, failed = "FAIL", str(exc), failed + 1
            print(f"{status} {name:<10} {detail} [{time.monotonic() - started:.1f} s]", flush=True)
    print(f"{len(CHECKS) - failed} of {len(CHECKS)} checks passed" if not failed else f"{failed} check(s) FAILED")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
