"""`scent mcp` as a real subprocess, driven by the mcp SDK's stdio client."""
import asyncio
import json
import os
import sys
from pathlib import Path

import pytest

pytest.importorskip("mcp")
from mcp import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402

from scent import Index  # noqa: E402

SCENT = Path(sys.executable).with_name("scent")


@pytest.fixture
def index_dir(notes, tmp_path):
    target = tmp_path / "idx"
    with Index(notes, index_dir=target) as idx:  # the real model: the subprocess opens it with the real one
        idx.update()
    (notes / "after.txt").write_text("written after indexing\n")
    return target


def _field(obj, snake: str, camel: str):
    """mcp 2.x names fields in snake_case, mcp 1.x in camelCase."""
    return getattr(obj, snake) if hasattr(obj, snake) else getattr(obj, camel)


def _is_error(result) -> bool:
    return bool(_field(result, "is_error", "isError"))


def _payload(result) -> dict:
    assert not _is_error(result), result.content
    structured = _field(result, "structured_content", "structuredContent")
    return structured if structured else json.loads(result.content[0].text)


async def _session(index_dir, work):
    params = StdioServerParameters(command=str(SCENT), args=["mcp", "--index", str(index_dir)],
                                   env={**os.environ})
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            return await work(session)


def test_mcp_tools_search_and_fetch(index_dir):
    async def work(session):
        tools = {t.name: t for t in (await session.list_tools()).tools}
        assert {"search", "fetch"} <= set(tools)
        assert {"query", "k", "kinds", "path"} <= set(_field(tools["search"], "input_schema", "inputSchema")["properties"])

        found = await session.call_tool("search", {"query": "LD-2026-0417", "k": 3})
        results = _payload(found)["results"]
        assert results[0]["path"] == "lease.md" and "LD-2026-0417" in results[0]["snippet"]

        only_code = _payload(await session.call_tool("search", {"query": "header", "kinds": ["code"]}))["results"]
        assert only_code and all(r["kind"] == "code" for r in only_code)
        in_code = _payload(await session.call_tool("search", {"query": "file", "path": "code/"}))["results"]
        assert in_code and all(r["path"].startswith("code/") for r in in_code)

        got = await session.call_tool("fetch", {"path": "lease.md"})
        body = _payload(got)
        assert body["path"] == "lease.md" and body["kind"] == "text" and "deposit refund" in body["text"]

        for bad in ("after.txt", "../lease.md", "/etc/passwd", "nope.md"):
            refused = await session.call_tool("fetch", {"path": bad})
            assert _is_error(refused), bad
            assert "written after indexing" not in str(refused.content)
            assert "index" in str(refused.content) or "folder" in str(refused.content) or "'..'" in str(refused.content)

        bad_kind = await session.call_tool("search", {"query": "x", "kinds": ["spreadsheet"]})
        assert _is_error(bad_kind) and "unknown kind" in str(bad_kind.content)

    asyncio.run(_session(index_dir, work))


def test_fetch_reads_a_percent_named_file_as_named(tmp_path):
    """In process (fake embedder): MCP arguments arrive decoded; `%2e%2e%2f` is part of the name."""
    from conftest import FakeEmbedder
    from scent.serve.mcp_server import build_server

    folder = tmp_path / "pct"
    folder.mkdir()
    (folder / "%2e%2e%2fpercent.txt").write_text("walrus tusks measured in percent\n")
    with Index(folder, index_dir=tmp_path / "idx", embedder=FakeEmbedder()) as idx:
        idx.update()
        server = build_server(idx)
        result = asyncio.run(server.call_tool("fetch", {"path": "%2e%2e%2fpercent.txt"}))
    assert _payload(result) == {"path": "%2e%2e%2fpercent.txt", "kind": "text", "page": None,
                          "text": "walrus tusks measured in percent"}


def test_a_held_search_does_not_hold_up_another_tool_call(tmp_path, notes, monkeypatch):
    """Tools run in worker threads; one held inside its search leaves the index to the others."""
    import threading

    import scent.search
    from conftest import FakeEmbedder
    from scent.serve.mcp_server import build_server

    started, release = threading.Event(), threading.Event()
    run = scent.search.run

    def held_run(request, k, explain):
        if request.text == "tomato":
            started.set()
            assert release.wait(30)
        return run(request, k, explain)

    monkeypatch.setattr(scent.search, "run", held_run)

    async def work(server):
        slow = asyncio.ensure_future(server.call_tool("search", {"query": "tomato", "k": 1}))
        try:
            assert await asyncio.to_thread(started.wait, 30)
            fast = await asyncio.wait_for(server.call_tool("search", {"query": "deposit refund", "k": 1}), 30)
            fetched = await asyncio.wait_for(server.call_tool("fetch", {"path": "lease.md"}), 30)
            assert not slow.done()
        finally:
            release.set()
        return _payload(fast), _payload(fetched), _payload(await slow)

    with Index(notes, index_dir=tmp_path / "idx", embedder=FakeEmbedder()) as idx:
        idx.update()
        fast, fetched, slow = asyncio.run(work(build_server(idx)))
    assert fast["results"][0]["path"] == "lease.md" and "deposit refund" in fetched["text"]
    assert slow["results"][0]["path"] == "recipe.txt"
