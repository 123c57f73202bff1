"""An MCP server (stdio) over one open `Index`: tools `search` and `fetch`, for AI assistants.

Uses the official `mcp` SDK: `MCPServer` in mcp 2.x, `FastMCP` in mcp 1.x (the same decorator API).
"""
from __future__ import annotations

from contextlib import contextmanager

try:
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError
except ImportError:  # mcp 1.x
    from mcp.server.fastmcp import FastMCP as MCPServer
    from mcp.server.fastmcp.exceptions import ToolError

from ..errors import ScentError
from ..filters import Filters
from ..index import Index
from ..readers import DEFAULT_READERS, Readers
from .files import resolve

INSTRUCTIONS = ("Search the user's own files (notes, code, PDFs, Word files, pictures ...) with `search`; "
                "read an indexed file's text, or one PDF page's, with `fetch` using a result's path and page.")


def build_server(index: Index, readers: int = DEFAULT_READERS, as_user: str | None = None) -> MCPServer:
    """An MCP server over `index` (already open; the caller closes it). Tools run in worker
    threads: up to `readers` of them read the index at the same time. Every tool answers as
    `as_user` sees the folder (None: the user running the server; over stdio that is who
    started it)."""
    # The agent is told which folder it searches: several scent servers may be configured at once.
    server = MCPServer("scent", instructions=f"{INSTRUCTIONS} The indexed folder is {index.root}.")
    pool = Readers(index, readers)

    @server.tool()
    def search(query: str, k: int = 10, kinds: list[str] | None = None, path: str | None = None) -> dict:
        """Search the indexed folder. `kinds` keeps only these kinds (text, code, html, csv, json, docx,
        pdf, image, sheet, slides, odt, rtf, epub, email); `path` keeps only paths starting with this
        prefix (or matching this glob).
        Returns {"query", "results": [{rank, path, page, kind, score, snippet, title, date ...}]}."""
        with _tool_errors(), pool.use() as idx:
            results = idx.search(query, k=k, filters=Filters.build(kinds or (), path or None), as_user=as_user)
        return {"query": query, "results": [r.to_dict() for r in results]}

    @server.tool()
    def fetch(path: str, page: int | None = None) -> dict:
        """The extracted text of an indexed file (`path` as in search results), or of one PDF page.
        Returns {"path", "kind", "page", "text"}."""
        with _tool_errors(), pool.use() as idx:
            units = idx.file_units(path, as_user)  # None too when as_user may not read it
            resolve(idx.root, path, units is not None)  # the web API's checks: indexed, inside the folder
            if page is not None:
                units = [u for u in units if u.page == page]
                if not units:
                    raise ScentError(f"{path} has no indexed page {page}")
        text = "\n\n".join(u.text for u in units)  # chunks of one section overlap by a few words
        return {"path": path, "kind": units[0].file_kind if units else None, "page": page, "text": text}

    return server


@contextmanager
def _tool_errors():
    """A ScentError reaches the client as the tool's error message (anything else is a crash)."""
    try:
        yield
    except ScentError as err:
        raise ToolError(str(err)) from None

