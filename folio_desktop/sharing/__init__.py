"""Sharing the open document with other programs: an MCP server over the agent tools (issue 17)."""
