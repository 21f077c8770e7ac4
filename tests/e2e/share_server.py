"""An MCP share served over HTTP in a process of its own, for the tests that flood it as another local
program would (the flood then cannot starve the test's own file descriptors, nor its GIL).

    python tests/e2e/share_server.py TOKEN [--open-files N] [MODULE.NAME=SECONDS ...]

--open-files sets the process's open-files limit, soft and hard (a desktop's usual 1,024), before the
server starts; MODULE.NAME=SECONDS sets a constant of folio_desktop.sharing.MODULE. Prints the server's
URL, then answers each line on stdin: "sessions" prints how many MCP sessions the SDK holds open.
The server stops when stdin closes.
"""

from __future__ import annotations

import argparse
import importlib
import resource
import sys


class QuietHost:
    """A ToolHost with the document's tool list and no document: the floods never get as far as a call."""

    def tools(self):
        from folio_desktop.sharing.mcp_server import tool_list
        return tool_list()

    def call(self, name, arguments, client):
        from folio_desktop.sharing.mcp_server import error_result
        return error_result(f"{name}: no document here")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("token")
    parser.add_argument("--open-files", type=int)
    parser.add_argument("constants", nargs="*")
    args = parser.parse_args()
    if args.open_files:
        resource.setrlimit(resource.RLIMIT_NOFILE, (args.open_files, args.open_files))
    for setting in args.constants:
        name, value = setting.split("=")
        module, constant = name.rsplit(".", 1)
        setattr(importlib.import_module(f"folio_desktop.sharing.{module}"), constant, float(value))

    from folio_desktop.sharing.mcp_http import LocalHttpServer
    from folio_desktop.sharing.mcp_server import build_server

    server = build_server(QuietHost())
    http = LocalHttpServer(server, args.token)
    http.start()
    print(http.url, flush=True)
    for line in sys.stdin:
        if line.strip() == "sessions":
            print(len(server._session_manager._server_instances), flush=True)  # the SDK's own count
    http.stop()


if __name__ == "__main__":
    main()
