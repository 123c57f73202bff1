"""Searches through every surface (the library, the HTTP API, MCP) while another process writes the
index: `scent index` re-reading changed files, `scent index --rebuild` throwing it away and building
it again, and `scent watch` refreshing what a person saves. None may fail; the index is whole after.
(Two indexers on one index are refused: tests/test_robustness.py and tests/test_watch.py.)
"""
from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import FakeEmbedder
from scent import Index
from test_crash import CHILD, SRC, TESTS
from test_robustness import COMMON, N_FILES, check_consistent, write_corpus

pytest.importorskip("fastapi")
pytest.importorskip("mcp")


def start(tmp_path: Path, *args: str, delay: float = 0.01) -> subprocess.Popen:
    child = tmp_path / "scent_child.py"
    child.write_text(CHILD)
    env = {**os.environ, "SCENT_TESTS": str(TESTS), "SCENT_DELAY": str(delay),
           "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])}
    return subprocess.Popen([sys.executable, str(child), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)


class Searchers:
    """One search through each surface per round, over one Index kept open (as `scent serve` and
    `scent mcp` keep theirs) and a fresh one each round (as the CLI opens its own)."""

    def __init__(self, index_dir: Path, folder: Path):
        from fastapi.testclient import TestClient

        from scent.serve.app import create_app
        from scent.serve.mcp_server import build_server

        self.index_dir, self.folder = index_dir, folder
        self.kept = Index(index_dir=index_dir, embedder=FakeEmbedder())
        self.client = TestClient(create_app(self.kept), raise_server_exceptions=True)
        self.client.__enter__()
        self.mcp = build_server(self.kept)
        self.loop = asyncio.new_event_loop()
        self.counts = {"library": 0, "http": 0, "mcp": 0}

    def round(self) -> None:
        with Index(index_dir=self.index_dir, embedder=FakeEmbedder()) as fresh:
            for idx in (self.kept, fresh):
                for r in idx.search(f"{COMMON} pond", k=50):
                    assert r.path.endswith(".md") or r.path == "empty.txt"
                self.counts["library"] += 1
        response = self.client.get("/api/search", params={"q": f"{COMMON} barometer", "k": 20})
        assert response.status_code == 200, response.text
        self.counts["http"] += 1
        self.loop.run_until_complete(self.mcp.call_tool("search", {"query": f"{COMMON} feeder", "k": 5}))
        self.counts["mcp"] += 1

    def close(self) -> None:
        self.client.__exit__(None, None, None)
        self.loop.close()
        self.kept.close()


@pytest.fixture
def indexed(tmp_path):
    folder = tmp_path / "birds"
    write_corpus(folder)
    index_dir = tmp_path / "index"
    with Index(folder, index_dir=index_dir, embedder=FakeEmbedder()) as idx:
        idx.update()
    return folder, index_dir


def search_until_done(proc: subprocess.Popen, searchers: Searchers, during=None) -> None:
    rounds = 0
    while proc.poll() is None:
        searchers.round()
        rounds += 1
        if during:
            during(rounds)
    print(f"\n{searchers.counts} searches, none failed")
    assert all(n > 0 for n in searchers.counts.values())


@pytest.mark.parametrize("rebuild", [False, True], ids=["index", "rebuild"])
def test_searches_never_fail_while_an_index_run_writes(indexed, tmp_path, rebuild):
    folder, index_dir = indexed
    if not rebuild:  # half the files changed: the run re-reads and rewrites them
        for path in sorted(folder.rglob("log*.md"))[::2]:
            path.write_text(path.read_text() + f"\nAnother {COMMON} at dusk.\n")
    searchers = Searchers(index_dir, folder)
    try:
        proc = start(tmp_path, "index", str(folder), "--index", str(index_dir), "-q", *(["--rebuild"] * rebuild))
        search_until_done(proc, searchers)
        out, err = proc.communicate()
        assert proc.returncode == 0, err
        assert searchers.kept.status()["files"] == N_FILES + 1  # the kept Index sees the rebuilt one
    finally:
        searchers.close()
    assert check_consistent(index_dir, folder, tmp_path, FakeEmbedder()) == N_FILES + 1


def test_searches_never_fail_while_a_watch_writes(indexed, tmp_path):
    folder, index_dir = indexed
    searchers = Searchers(index_dir, folder)
    proc = start(tmp_path, "watch", str(folder), "--index", str(index_dir), delay=0.002)
    saved = 15
    try:
        assert "scent: watching " in proc.stderr.readline()
        # A file saved every third round of searches; then searches go on while the watch takes in the last.
        rounds, last_saved = 0, None
        while last_saved is None or time.monotonic() - last_saved < 3:
            assert proc.poll() is None, proc.stderr.read()
            searchers.round()
            rounds += 1
            n = rounds // 3
            if rounds % 3 == 0 and n <= saved:
                (folder / "d1" / f"saved{n:02d}.md").write_text(f"# Saved {n}\n\nA {COMMON} seen from the hide, "
                                                                  f"visit {n}.\n")
                if n == saved:
                    last_saved = time.monotonic()
        print(f"\nwatch: {searchers.counts} searches, none failed")
    finally:
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
        searchers.close()
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    with Index(folder, index_dir=index_dir, embedder=FakeEmbedder()) as idx:
        report = idx.update()
        # The watch took in every saved file: a run after it finds nothing new.
        assert (report.added, report.updated) == (0, 0), (report.added, report.updated)
    assert check_consistent(index_dir, folder, tmp_path, FakeEmbedder()) == N_FILES + 1 + saved
