"""An indexing run that stopped midway (Ctrl-C, a kill, a crash) is said by `scent status`, the
API's status and a search, until a run finishes; a run still going is said to be running."""
from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from conftest import FakeEmbedder
from scent import Index
from scent.commands import cli
from scent.locking import LOCK_NAME, RUN_MARK, IndexLock, lock_holders, run_mark, still_running


@pytest.fixture
def stopped(notes, tmp_path, monkeypatch):
    """An index whose first run was stopped after reading its files, before it recorded its end."""
    from scent.engines.sqlite import SqliteEngine

    def interrupted(self, unsupported=None):
        raise KeyboardInterrupt

    with monkeypatch.context() as m:
        m.setattr(SqliteEngine, "finish_run", interrupted)
        with Index(notes, index_dir=tmp_path / "ix", embedder=FakeEmbedder()) as idx, pytest.raises(KeyboardInterrupt):
            idx.update()
    monkeypatch.setattr("scent.index.E5Embedder", FakeEmbedder)  # the commands' own Index.open
    return tmp_path / "ix"


def test_a_stopped_run_is_said_until_a_run_finishes(stopped, notes):
    before = time.time()
    with Index.open(index=stopped, embedder=FakeEmbedder()) as idx:
        run = idx.unfinished_run()
        assert run["running"] is False and before - 60 < run["started"] <= before
        assert idx.status()["unfinished_run"] == run and idx.status()["last_indexed"] is None
        idx.update()
        assert idx.unfinished_run() is None and idx.status()["unfinished_run"] is None


def test_the_commands_say_a_run_stopped(stopped, notes):
    runner = CliRunner()
    said = runner.invoke(cli, ["status", "--index", str(stopped)])
    assert said.exit_code == 0, said.output
    assert "updated  never; the indexing run begun " in said.output
    assert f"stopped before it finished, so some files may be missing; `scent index {notes}` finishes it" in said.output
    as_json = runner.invoke(cli, ["status", "--index", str(stopped), "--json"])
    assert '"unfinished_run": {"started": "20' in as_json.output and '"running": false}' in as_json.output
    found = runner.invoke(cli, ["search", "deposit", "--index", str(stopped), "--strategy", "keyword"])
    assert found.exit_code == 0 and "lease.md" in found.stdout
    assert "stopped before it finished" in found.stderr and "stopped" not in found.stdout
    runner.invoke(cli, ["index", str(notes), "--index", str(stopped), "-q"])
    assert "stopped" not in runner.invoke(cli, ["status", "--index", str(stopped)]).output
    assert "stopped" not in runner.invoke(cli, ["search", "deposit", "--index", str(stopped), "--strategy",
                                                "keyword"]).stderr


def test_a_run_is_running_while_its_process_holds_the_index_lock(tmp_path):
    holding = ("import sys, time; from scent.locking import IndexLock\n"
               "with IndexLock(sys.argv[1]):\n    print('held', flush=True); time.sleep(60)")
    child = subprocess.Popen([sys.executable, "-c", holding, str(tmp_path)], stdout=subprocess.PIPE, text=True)
    alive = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        assert child.stdout.readline() == "held\n"
        at, _, host = run_mark().split(" ", 2)
        assert still_running(f"{at} {child.pid} {host}", tmp_path)
        holders = lock_holders(tmp_path / LOCK_NAME)
        if holders is not None:  # Linux: the kernel's list of locks says who holds it
            assert holders == {child.pid}
            # A live process that does not hold the lock: a stopped run's pid, another process's since.
            assert not still_running(f"{at} {alive.pid} {host}", tmp_path)
    finally:
        for p in (child, alive):
            p.kill()
            p.wait()
    assert not still_running(f"{at} {child.pid} {host}", tmp_path)  # reaped: the pid is free
    assert not still_running(f"{at} {os.getppid()} another-machine", tmp_path)  # not ours to ask
    # In this process: while it holds the index's lock.
    mine = run_mark()
    assert not still_running(mine, tmp_path)
    with IndexLock(tmp_path):
        assert still_running(mine, tmp_path)


def test_a_run_going_on_is_said_to_be_indexing_now(notes, tmp_path):
    with Index(notes, index_dir=tmp_path / "ix", embedder=FakeEmbedder()) as idx:
        idx.update()
        finished = idx.status()["last_indexed"]
        with IndexLock(tmp_path / "ix"):  # as a run of this process holds it
            idx.engine.catalog.set_meta(RUN_MARK, run_mark())
            run = idx.unfinished_run()
        assert run["running"] is True and run["started"] >= finished
        assert idx.unfinished_run()["running"] is False  # the lock let go without an end recorded


def test_mcp_status_says_a_run_stopped(stopped):
    pytest.importorskip("mcp")
    import asyncio

    from scent.serve.mcp_server import build_server
    from test_mcp import _payload

    with Index.open(index=stopped, embedder=FakeEmbedder()) as idx:
        st = _payload(asyncio.run(build_server(idx).call_tool("status", {})))
    assert st["unfinished_run"]["running"] is False and st["unfinished_run"]["started"][:2] == "20"
    assert "last_indexed" not in st  # none yet (fields without a value are left out for agents)


def test_scent_list_marks_an_index_whose_run_stopped(notes, monkeypatch):
    from scent.engines.sqlite import SqliteEngine

    with monkeypatch.context() as m:
        m.setattr(SqliteEngine, "finish_run", lambda self, unsupported=None: (_ for _ in ()).throw(KeyboardInterrupt))
        with Index(notes, embedder=FakeEmbedder()) as idx, pytest.raises(KeyboardInterrupt):
            idx.update()
    monkeypatch.setattr("scent.index.E5Embedder", FakeEmbedder)
    listed = CliRunner().invoke(cli, ["list"]).output
    assert f"{notes}  3 files, " in listed and "updated never (the last run stopped midway)" in listed


def test_a_searcher_without_the_qdrant_catalog_sees_a_finished_run(notes, tmp_path):
    pytest.importorskip("qdrant_edge")
    from scent import Settings

    qdrant = Settings(backend="qdrant")
    with Index(notes, index_dir=tmp_path / "ix", settings=qdrant, embedder=FakeEmbedder()) as idx:
        idx.update()
        assert idx.unfinished_run() is None
    # As a searcher on another machine, whose catalog holds neither: only the collection is shared.
    with sqlite3.connect(tmp_path / "ix" / "catalog.db") as db:
        db.execute("DELETE FROM meta WHERE key IN (?, 'last_indexed')", (RUN_MARK,))
    with Index(index_dir=tmp_path / "ix", settings=qdrant, embedder=FakeEmbedder()) as idx:
        assert idx.engine.catalog.meta(RUN_MARK)  # the run's mark is in the collection's metadata
        assert idx.unfinished_run() is None
        assert [r.path for r in idx.search("deposit refund", k=1)] == ["lease.md"]


def test_a_search_of_several_folders_names_the_one_whose_run_stopped(notes, tmp_path, monkeypatch):
    from scent.engines.sqlite import SqliteEngine

    other = tmp_path / "other"
    other.mkdir()
    (other / "garage.md").write_text("# Garage\n\nThe garage deposit is paid.\n")
    with Index(other, embedder=FakeEmbedder()) as idx:
        idx.update()
    with monkeypatch.context() as m:
        m.setattr(SqliteEngine, "finish_run", lambda self, unsupported=None: (_ for _ in ()).throw(KeyboardInterrupt))
        with Index(notes, embedder=FakeEmbedder()) as idx, pytest.raises(KeyboardInterrupt):
            idx.update()
    monkeypatch.setattr("scent.index.E5Embedder", FakeEmbedder)
    found = CliRunner().invoke(cli, ["search", "deposit", "--folder", str(notes), "--folder", str(other),
                                     "--strategy", "keyword"])
    assert found.exit_code == 0, found.output
    assert f"{notes}/lease.md" in found.stdout and f"{other}/garage.md" in found.stdout  # full paths: two folders
    assert found.stderr.count("stopped before it finished") == 1 and f"`scent index {notes}`" in found.stderr


def test_status_takes_the_folder_as_index_and_similar_do(notes, tmp_path, monkeypatch, fake_embedder):
    monkeypatch.setenv("SCENT_HOME", str(tmp_path / "home"))
    with Index(notes, embedder=fake_embedder) as idx:
        idx.update()
    monkeypatch.setattr("scent.index.E5Embedder", FakeEmbedder)
    runner = CliRunner()
    said = runner.invoke(cli, ["status", str(notes), "--json"])
    assert said.exit_code == 0, said.output
    assert '"files": 3' in said.output and f'"folder": "{notes}"' in said.output
    both = runner.invoke(cli, ["status", str(notes), "--folder", str(tmp_path)])
    assert "two folders given" in str(both.exception)  # a UsageError: scent's main says it in one line, exit 2


def test_a_search_while_the_folder_is_indexed_says_files_may_be_missing(stopped):
    """The README's promise: a search says that a run is going on now (it said only a stopped one)."""
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from scent.serve.app import create_app

    holding = ("import sys, time; from scent.locking import IndexLock\n"
               "with IndexLock(sys.argv[1]):\n    print('held', flush=True); time.sleep(60)")
    child = subprocess.Popen([sys.executable, "-c", holding, str(stopped)], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline() == "held\n"
        at, _, host = run_mark().split(" ", 2)
        with Index.open(index=stopped, embedder=FakeEmbedder()) as idx:
            idx.engine.catalog.set_meta(RUN_MARK, f"{at} {child.pid} {host}")
        said = CliRunner().invoke(cli, ["search", "deposit", "--index", str(stopped), "--strategy", "keyword"])
        assert said.exit_code == 0 and "lease.md" in said.stdout
        assert "being indexed now" in said.stderr and "files it has not reached yet are not searched" in said.stderr
        with Index.open(index=stopped, embedder=FakeEmbedder()) as idx, TestClient(create_app(idx)) as client:
            body = client.get("/api/search", params={"q": "deposit"}).json()
        assert body["unfinished_run"]["running"] is True
    finally:
        child.kill()
        child.wait()
    with Index.open(index=stopped, embedder=FakeEmbedder()) as idx:
        idx.update()
        with TestClient(create_app(idx)) as client:
            assert "unfinished_run" not in client.get("/api/search", params={"q": "deposit"}).json()
