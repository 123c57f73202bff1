"""Who may see what through the web API, MCP and the CLI: every way out answers as the asking
user (`request.state.user`, `scent mcp --as`, `scent search --as` ...), on both engines.
The folder and what each made-up user may read are test_access.py's; here a photo only root may
read (for thumbnails) and a damaged PDF in the private folder (for status) join them."""
from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from scent import Index

from conftest import EXAMPLES, FakeEmbedder
from test_access import EVERY_WORD, FILES, SEES, make_folder, reachable, settings_for  # noqa: F401

# Words only the files bob may not read hold: none may reach him in any answer.
HIDDEN = ("vault", "VX-9001", "secret.md", "lighthouse", "diary", "orchard", "plan.md", "violin", "carol.md",
          "boat.jpg", "broken.pdf", "kdbx")


def add_photo_and_damage(folder: Path) -> None:
    (folder / "photos").mkdir()
    shutil.copy(EXAMPLES / "photos" / "2024-05-amsterdam" / "IMG_0381.jpg", folder / "photos" / "boat.jpg")
    (folder / "photos" / "boat.jpg").chmod(0o600)
    (folder / "private" / "broken.pdf").write_bytes(b"%PDF-1.4 cut short")
    # Of a kind scent does not read: one everyone may read, one in the private folder (root only).
    (folder / "setup.exe").write_bytes(b"MZ\0")
    (folder / "setup.exe").chmod(0o644)
    (folder / "private" / "keys.kdbx").write_bytes(b"\0binary")


# The web app and the MCP server read through a pool of handles (scent.readers); over a local
# Qdrant folder (the embedded edge shard) they share the process's one client, and over a
# server (SCENT_QDRANT_URL) each has its own.
SERVED = ["sqlite", "qdrant", "qdrant-server"] if os.environ.get("SCENT_QDRANT_URL") else ["sqlite", "qdrant"]


@pytest.fixture(params=SERVED)
def served(request, tmp_path):
    folder = make_folder(tmp_path / "folder")
    add_photo_and_damage(folder)
    settings = settings_for(request.param.removesuffix("-server"))
    if request.param == "qdrant":
        pytest.importorskip("qdrant_edge")
    if request.param == "qdrant-server":
        settings = settings.with_values(qdrant_url=os.environ["SCENT_QDRANT_URL"], qdrant_collection=f"acl-{tmp_path.name}")
    idx = Index(folder, index_dir=tmp_path / "idx", settings=settings, embedder=FakeEmbedder())
    idx.update()
    yield idx
    idx.close()


@pytest.fixture
def client(served, tmp_path):
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
    from fastapi.testclient import TestClient

    from scent.serve.app import create_app
    from scent.serve.tokens import Tokens

    # An evaluation report whose top results name files bob may not read.
    report = tmp_path / "report"
    report.mkdir()
    (report / "report.json").write_text(json.dumps({"overall": {}, "queries": [
        {"id": "q1", "query": "vault", "top": [{"path": "secret.md", "page": None}, {"path": "public.md", "page": None}]}]}))
    served.remember_report(report)
    # The guard names each request's user from its bearer token (serve/guard.py).
    tokens = Tokens(tmp_path / "tokens.json")
    bearer = {user: tokens.add(user) for user in ("bob", "alice", "carol")}
    with TestClient(create_app(served, tokens=tokens), raise_server_exceptions=False) as c:
        c.bearer = bearer
        yield c


def ask(client, user: str | None, url: str, **params):
    return client.get(url, params=params, headers={"authorization": f"Bearer {client.bearer[user]}"} if user else {})


@pytest.mark.parametrize("user", ["bob", "alice", "carol"])
def test_web_search_explain_suggestions_status_and_eval_show_only_readable_files(client, user):
    found = ask(client, user, "/api/search", q=EVERY_WORD, k=50, explain="true")
    assert found.status_code == 200
    assert {r["path"] for r in found.json()["results"]} == SEES[user]
    context = ask(client, user, "/api/context", q=EVERY_WORD, tokens=5000).json()
    assert {p["path"] for p in context["passages"]} <= SEES[user] and context["passages"]
    suggestions = ask(client, user, "/api/suggestions", limit=50).json()["suggestions"]
    assert {s["path"] for s in suggestions} <= SEES[user]
    status = ask(client, user, "/api/status").json()
    assert status["files"] == len(SEES[user]) and status["errors"] == []
    assert status["not_indexed"] == [{"ext": ".exe", "cause": "unsupported kind", "files": 1}]
    listed = ask(client, user, "/api/status", skipped="true").json()["skipped"]
    assert [f["path"] for f in listed["files"]] == ["setup.exe"] and listed["unlisted"] == []
    report = ask(client, user, "/api/eval").json()
    assert [t["path"] for t in report["queries"][0]["top"]] == ["public.md"]
    if user == "bob":  # (the query itself is echoed: the results, snippets and explain are what count)
        for text in (json.dumps(found.json()["results"]), ask(client, user, "/api/suggestions", limit=50).text,
                     ask(client, user, "/api/status").text, ask(client, user, "/api/status", skipped="true").text,
                     json.dumps(report["queries"][0]["top"])):
            assert not [w for w in HIDDEN if w in text], text


def test_web_file_and_thumbnail_refuse_what_the_user_may_not_read(client):
    not_indexed = ask(client, "bob", "/api/file", path="nothing-here.md")
    for path in ("secret.md", "private/diary.md", "team/plan.md", "carol.md"):
        refused = ask(client, "bob", "/api/file", path=path)
        assert refused.status_code == 404
        # Told apart from a file that is not indexed by nothing but the name.
        assert refused.json()["error"] == not_indexed.json()["error"].replace("nothing-here.md", path)
    assert ask(client, "bob", "/api/thumb", path="photos/boat.jpg").status_code == 404
    assert ask(client, "bob", "/api/file", path="public.md").status_code == 200
    assert ask(client, "alice", "/api/file", path="team/plan.md").status_code == 200
    # No user named: the user running the server (root here) reads everything, as before.
    if os.geteuid() == 0:
        assert ask(client, None, "/api/file", path="secret.md").status_code == 200
        assert ask(client, None, "/api/thumb", path="photos/boat.jpg").status_code == 200
        assert {e["path"] for e in ask(client, None, "/api/status").json()["errors"]} == {"private/broken.pdf"}
        listed = ask(client, None, "/api/status", skipped="true").json()["skipped"]
        assert [f["path"] for f in listed["files"]] == ["private/broken.pdf", "private/keys.kdbx", "setup.exe"]


def test_a_server_started_as_a_user_answers_tokenless_requests_as_that_user(served, tmp_path):
    """scent serve --as bob: a request without a token is bob's; one with a token is its user's."""
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
    from fastapi.testclient import TestClient

    from scent.serve.app import create_app
    from scent.serve.tokens import Tokens

    tokens = Tokens(tmp_path / "tokens.json")
    alice = tokens.add("alice")
    with TestClient(create_app(served, tokens=tokens, as_user="bob"), raise_server_exceptions=False) as c:
        found = c.get("/api/search", params={"q": EVERY_WORD, "k": 50})
        assert {r["path"] for r in found.json()["results"]} == SEES["bob"]
        assert c.get("/api/file", params={"path": "secret.md"}).status_code == 404
        assert c.get("/api/status").json()["files"] == len(SEES["bob"])
        as_alice = c.get("/api/search", params={"q": EVERY_WORD, "k": 50}, headers={"authorization": f"Bearer {alice}"})
        assert {r["path"] for r in as_alice.json()["results"]} == SEES["alice"]


def test_mcp_search_and_fetch_answer_as_the_server_user(served):
    pytest.importorskip("mcp")
    from scent.serve.mcp_server import build_server

    server = build_server(served, as_user="bob")

    def call(name, args):
        result = asyncio.run(server.call_tool(name, args))
        return result, _payload(result), str(result.content)

    _, found, _ = call("search", {"query": EVERY_WORD, "k": 50})
    assert {r["path"] for r in found["results"]} == SEES["bob"]
    assert not [w for w in HIDDEN if w in json.dumps(found["results"])]
    # fetch takes a result's id: the ids of files bob may not read are no results of his
    for path in ("secret.md", "private/diary.md", "photos/boat.jpg"):
        uid = str(served.file_units(path)[0].id)
        with pytest.raises(Exception, match=f"no result has id {uid} in this index") as refused:  # in process: raised
            call("fetch", {"id": uid})
        assert type(refused.value).__name__ == "ToolError" and "vault" not in str(refused.value)
    _, fetched, _ = call("fetch", {"id": str(served.file_units("public.md")[0].id)})
    assert "Harbour timetable" in fetched["text"]
    _, context, text = call("context", {"question": EVERY_WORD, "tokens": 5000})
    assert {p["path"] for p in context["passages"]} <= SEES["bob"] and not [w for w in HIDDEN if w in text]
    _, status, text = call("status", {})
    assert status["files"] == len(SEES["bob"])
    assert status["not_indexed"] == [{"ext": ".exe", "cause": "unsupported kind", "files": 1}]
    assert not [w for w in HIDDEN if w in text]


def _is_error(result) -> bool:
    return bool(getattr(result, "is_error", None) or getattr(result, "isError", None))


def _payload(result) -> dict:
    structured = getattr(result, "structured_content", None) or getattr(result, "structuredContent", None)
    return structured if structured else json.loads(result.content[0].text)


# ---- the CLI, with the real model (what `scent` loads) --------------------------------------------

SCENT = Path(sys.executable).with_name("scent")


@pytest.fixture
def cli_index(tmp_path):
    folder = make_folder(tmp_path / "folder")
    (folder / "private" / "keys.kdbx").write_bytes(b"\0binary")  # root only, and of a kind scent does not read
    env = {**os.environ, "SCENT_HOME": str(tmp_path / "home")}
    run = lambda *args: subprocess.run([str(SCENT), *args], env=env, capture_output=True, text=True,  # noqa: E731
                                       timeout=300)
    done = run("index", str(folder), "-q")
    assert done.returncode == 0, done.stderr
    return folder, run


def test_cli_search_status_and_eval_as_a_user(cli_index, tmp_path):
    folder, run = cli_index
    for user in ("bob", "alice", "carol"):
        found = run("search", "--folder", str(folder), "--as", user, "--json", "--explain", "-k", "50", EVERY_WORD)
        assert found.returncode == 0, found.stderr
        assert {json.loads(line)["path"] for line in found.stdout.splitlines()} == SEES[user]
    st = json.loads(run("status", "--folder", str(folder), "--as", "bob", "--json").stdout)
    assert (st["files"], st["errors"], st["not_indexed"]) == (1, [], [])
    listed = run("status", "--folder", str(folder), "--as", "bob", "--skipped")
    assert listed.returncode == 0 and listed.stdout == "every file walked at the last run was indexed\n"
    if os.geteuid() == 0:
        assert "private/keys.kdbx: unsupported kind" in run("status", "--folder", str(folder), "--skipped").stdout
    queries = tmp_path / "q.jsonl"
    queries.write_text('{"query": "vault combination", "expect": "secret.md"}\n')
    scored = json.loads(run("eval", str(queries), "--folder", str(folder), "--as", "bob", "--json").stdout)
    assert scored["overall"]["mrr@10"] == 0.0 and scored["queries"][0]["top"] == [
        {"path": "public.md", "page": None}]
    empty = run("search", "--folder", str(folder), "--as", " ", "vault")
    assert empty.returncode == 1 and empty.stderr.strip() == "scent: error: the user to search as is empty; give a user name"


def test_cli_mcp_as_a_user(cli_index):
    pytest.importorskip("mcp")
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    folder, _ = cli_index

    async def work():
        params = StdioServerParameters(command=str(SCENT), args=["mcp", "--folder", str(folder), "--as", "bob"],
                                       env={**os.environ, "SCENT_HOME": str(folder.parent / "home")})
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                found = await session.call_tool("search", {"query": EVERY_WORD, "k": 50})
                fetched = await session.call_tool("fetch", {"path": "secret.md"})
                return found, fetched

    found, fetched = asyncio.run(work())
    assert {r["path"] for r in _payload(found)["results"]} == SEES["bob"]
    assert _is_error(fetched) and "vault" not in str(fetched.content)
