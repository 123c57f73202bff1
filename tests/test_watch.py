"""scent watch: file events turned into refreshes of the index, on a real folder."""
from __future__ import annotations

import json
import threading
import time

import pytest

from scent import Index
from scent.errors import ScentError
from scent.locking import IndexLock
from scent.watch import watch

pytest.importorskip("watchdog")


def until(check, timeout: float = 20.0):
    """Poll `check` until it is true; the time it took (the caller reports it, never asserts it)."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if check():
            return time.monotonic() - started
        time.sleep(0.05)
    raise AssertionError(f"not true within {timeout} s")


@pytest.fixture
def watched(notes, fake_embedder):
    idx = Index(notes, embedder=fake_embedder)
    idx.update()
    reader = idx.reader()  # searches from this thread while the watch thread writes
    stop, ready = threading.Event(), threading.Event()
    refreshed = []
    thread = threading.Thread(target=watch, args=(idx, stop, lambda report, paths: refreshed.append(paths)),
                              kwargs={"debounce": 0.2, "on_ready": lambda report: ready.set()}, daemon=True)
    thread.start()
    assert ready.wait(20)
    yield notes, reader, refreshed
    stop.set()
    thread.join(timeout=10)
    reader.close()
    idx.close()


def paths(reader, query):
    return [r.path for r in reader.search(query, strategy="keyword")]


def test_a_file_written_before_the_first_update_ends_is_not_missed(notes, fake_embedder):
    idx = Index(notes, embedder=fake_embedder)
    stop = threading.Event()

    def ready(report):
        # Written after the events are listened to, while (or just after) the first update ran.
        (notes / "late.md").write_text("A late kingfisher.\n")

    thread = threading.Thread(target=watch, args=(idx, stop), kwargs={"on_ready": ready, "debounce": 0.1},
                              daemon=True)
    thread.start()
    reader = None
    try:
        until(lambda: (notes / "late.md").exists())
        reader = Index(notes, embedder=fake_embedder)
        until(lambda: paths(reader, "kingfisher") == ["late.md"])
    finally:
        stop.set()
        thread.join(timeout=10)
        if reader:
            reader.close()
        idx.close()


def test_new_changed_renamed_and_deleted_files_reach_the_index(watched):
    notes, reader, refreshed = watched
    (notes / "bird.md").write_text("A grey heron fished at the pond.\n")
    until(lambda: paths(reader, "heron") == ["bird.md"])
    (notes / "bird.md").write_text("A kingfisher fished at the pond.\n")
    until(lambda: paths(reader, "kingfisher") == ["bird.md"] and paths(reader, "heron") == [])
    (notes / "bird.md").rename(notes / "pond.md")
    until(lambda: paths(reader, "kingfisher") == ["pond.md"])
    (notes / "pond.md").unlink()
    until(lambda: paths(reader, "kingfisher") == [])
    (notes / "lease.md").unlink()
    (notes / ".lease.md.swp").write_text("an editor's swap file: hidden, never indexed\n")
    until(lambda: paths(reader, "deposit") == [])
    assert not any(".lease.md.swp" in p for batch in refreshed for p in batch)


def test_an_edited_scentignore_leaves_out_and_brings_back_at_once(watched):
    """.scentignore is read by a full walk: written while a watch runs, the files it now names
    leave the index, and come back when it is removed (they stayed until something in them changed)."""
    notes, reader, refreshed = watched
    (notes / "drafts").mkdir()
    (notes / "drafts" / "bird.md").write_text("A grey heron fished at the pond.\n")
    until(lambda: paths(reader, "heron") == ["drafts/bird.md"])
    (notes / ".scentignore").write_text("drafts/\n")
    until(lambda: paths(reader, "heron") == [])
    assert paths(reader, "deposit") == ["lease.md"]  # the rest stays
    (notes / ".scentignore").unlink()
    until(lambda: paths(reader, "heron") == ["drafts/bird.md"])


def test_a_burst_of_files_is_refreshed_in_few_runs(watched):
    notes, reader, refreshed = watched
    (notes / "many").mkdir()
    for i in range(200):
        (notes / "many" / f"n{i:03d}.md").write_text(f"Note {i} about token{i:03d}.\n")
    until(lambda: paths(reader, "token199") == ["many/n199.md"] and paths(reader, "token000") == ["many/n000.md"])
    assert len(refreshed) < 50  # gathered, not one refresh per event


def test_a_second_watcher_or_indexer_is_refused(watched, fake_embedder):
    notes, reader, refreshed = watched
    other = Index(notes, embedder=fake_embedder)
    try:
        with pytest.raises(ScentError, match="another scent is indexing"):
            watch(other, threading.Event())
        with pytest.raises(ScentError, match="another scent is indexing"):
            other.update()
    finally:
        other.close()


def _watch_failure(root, fake_embedder, away) -> tuple[Index, list[str]]:
    """Watch `root` (one note in it), call `away()` once the watch is ready; the ScentErrors that ended it."""
    (root / "a.md").write_text("Heron.\n")
    idx = Index(root, embedder=fake_embedder)
    failure, ready = [], threading.Event()

    def run():
        try:
            watch(idx, threading.Event(), on_ready=lambda report: ready.set(), debounce=0.1)
        except ScentError as err:
            failure.append(str(err))

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert ready.wait(20)
    away()
    thread.join(timeout=20)
    return idx, failure


def test_a_folder_that_goes_away_ends_the_watch_in_one_line(tmp_path, fake_embedder):
    root = tmp_path / "gone"
    root.mkdir()

    def away():
        (root / "a.md").unlink()
        root.rmdir()

    idx, failure = _watch_failure(root, fake_embedder, away)
    assert failure and "was deleted, moved or unmounted" in failure[0]
    with IndexLock(idx.index_dir):  # the watch let its lock go
        pass
    idx.close()


def test_a_quiet_folder_moved_away_ends_the_watch_within_seconds(tmp_path, fake_embedder):
    """The folder's own move is no change of a file in it: a watch found it only at the next event."""
    root = tmp_path / "notes"
    root.mkdir()
    idx, failure = _watch_failure(root, fake_embedder, lambda: root.rename(tmp_path / "elsewhere"))
    assert failure and "was deleted, moved or unmounted" in failure[0]
    idx.close()


@pytest.mark.slow  # the refresh embeds with the real model
def test_cli_watch_reports_each_refresh_and_stops_on_ctrl_c(tmp_path, scent_home):
    import os
    import signal
    import subprocess
    import sys
    from pathlib import Path

    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "lease.md").write_text("The deposit is returned within 30 days.\n")
    scent = Path(sys.executable).with_name("scent")
    proc = subprocess.Popen([str(scent), "watch", str(folder)], stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "SCENT_HOME": str(scent_home)})
    lines = []
    try:
        # The first update's progress (to a pipe: a plain line), then the watch begins.
        while not lines or "watching" not in lines[-1]:
            lines.append(proc.stderr.readline())
            assert lines[-1], lines
        assert any(" 0/1 files" in line or " 1/1 files" in line for line in lines[:-1]), lines
        assert "scent: watching " in lines[-1] and "(1 files indexed, 1 new, 0 changed, 0 deleted); Ctrl-C stops" in lines[-1]
        # `scent status` names the watch that keeps the index fresh
        status = subprocess.run([str(scent), "status", "--folder", str(folder), "--json"], capture_output=True,
                                text=True, env={**os.environ, "SCENT_HOME": str(scent_home)})
        assert json.loads(status.stdout)["watch_pid"] == proc.pid, status.stderr
        (folder / "birds").mkdir()
        lines.append(proc.stderr.readline())  # the new folder: nothing in it to index
        (folder / "birds" / "heron.md").write_text("A grey heron at the pond.\n")
        lines.append(proc.stderr.readline())
        # the note alone: not its folder too (a folder's "modified" is its entries' own events)
        assert lines[-1].startswith("scent: 1 new, 0 changed, 0 renamed, 0 deleted, 0 skipped (1 path changed, ")
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)
    assert proc.returncode == 0, lines
    assert proc.stderr.read().startswith("scent: stopping once the refresh in progress is written")


def test_a_server_with_a_watch_finds_new_files_and_shows_its_freshness(notes, fake_embedder):
    """`scent serve --watch`: the watch writes in its thread while the app's readers answer."""
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from scent.serve.app import create_app
    from scent.watch import Live

    idx = Index(notes, embedder=fake_embedder)
    live = Live(idx).start()
    try:
        with TestClient(create_app(idx, live=live)) as client:
            until(lambda: client.get("/api/status").json()["live"]["ready"])
            state = client.get("/api/status").json()["live"]
            assert state["watching"] and state["problem"] is None and state["last_refresh"] >= state["since"]
            (notes / "heron.md").write_text("A grey heron stood at the pond all morning.\n")
            until(lambda: any(r["path"] == "heron.md" for r in
                              client.get("/api/search", params={"q": "grey heron pond"}).json()["results"]))
            assert client.get("/api/status").json()["files"] == 4
    finally:
        live.stop()
        idx.close()
    assert not live.state()["watching"]


def test_a_watch_beside_a_server_that_cannot_start_says_why(tmp_path, fake_embedder):
    from scent.watch import Live

    folder = tmp_path / "gone"
    folder.mkdir()
    idx = Index(folder, embedder=fake_embedder)
    folder.rmdir()
    said = []
    live = Live(idx, on_problem=said.append).start()
    until(lambda: not live.state()["watching"])
    assert "does not exist" in live.state()["problem"] and "search goes on" in live.state()["problem"]
    assert said == [live.state()["problem"]]  # the server's terminal says it too
    idx.close()
