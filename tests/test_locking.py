"""A rebuild takes the indexing lock before it throws anything away, and keeps it until built."""
import fcntl

import pytest

from scent import Index
from scent.errors import ScentError
from scent.locking import LOCK_NAME, IndexLock, lock_holders

from conftest import FakeEmbedder


@pytest.fixture
def built(notes, tmp_path):
    with Index(notes, index_dir=tmp_path / "idx", embedder=FakeEmbedder()) as idx:
        idx.update()
    return notes, tmp_path / "idx"


def _try_lock(index_dir):
    """What another indexer (another open file) gets: True when it could take the lock."""
    fh = open(index_dir / "lock", "a")
    try:
        fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False
    finally:
        fh.close()


def test_a_rebuild_beside_another_indexer_is_refused_and_deletes_nothing(built):
    notes, index_dir = built
    other = open(index_dir / "lock", "a")
    fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)  # another scent, indexing
    try:
        with pytest.raises(ScentError, match=r"^another scent is indexing into .*; wait for it to finish$"):
            Index(notes, index_dir=index_dir, embedder=FakeEmbedder(), rebuild=True)
    finally:
        other.close()
    with Index(index_dir=index_dir, embedder=FakeEmbedder()) as idx:
        assert idx.status()["files"] == 3
        assert idx.search("deposit refund", k=1)[0].path == "lease.md"


def test_a_rebuild_holds_the_lock_file_it_found_until_built(built):
    notes, index_dir = built
    before = (index_dir / "lock").stat().st_ino
    idx = Index(notes, index_dir=index_dir, embedder=FakeEmbedder(), rebuild=True)
    try:
        assert (index_dir / "lock").stat().st_ino == before  # kept: a new file would lock nobody out
        assert idx.status()["files"] == 0
        assert not _try_lock(index_dir)  # thrown away, not built yet: still locked
        report = idx.update()
        assert report.added == 3
        assert _try_lock(index_dir)
    finally:
        idx.close()


def test_closing_an_unbuilt_rebuild_releases_the_lock(built):
    notes, index_dir = built
    Index(notes, index_dir=index_dir, embedder=FakeEmbedder(), rebuild=True).close()
    assert _try_lock(index_dir)


def test_another_index_in_the_same_thread_cannot_update_during_a_rebuild(built):
    notes, index_dir = built
    with Index(notes, index_dir=index_dir, embedder=FakeEmbedder(), rebuild=True) as idx:
        with Index(notes, index_dir=index_dir, embedder=FakeEmbedder()) as other:
            with pytest.raises(ScentError, match="another scent is indexing"):
                other.update()
        assert idx.update().added == 3


def test_an_open_waits_out_a_rebuild_making_the_index_anew(tmp_path, monkeypatch):
    """SQLite answers "locked" at once, without waiting, when two connections would deadlock on
    a new file (a search opening the index a rebuild in another process is making); the open
    tries again rather than tell the person to delete the index."""
    import sqlite3

    import scent.engines.sqlite as engine_module
    from scent.engines.sqlite import SqliteEngine

    SqliteEngine(tmp_path / "index").close()
    real, calls = engine_module.migrate, []

    def locked_once(db):
        calls.append(1)
        if len(calls) == 1:
            raise sqlite3.OperationalError("database is locked")
        real(db)

    monkeypatch.setattr(engine_module, "migrate", locked_once)
    SqliteEngine(tmp_path / "index").close()
    assert len(calls) == 2

    # Locked for longer than the open's patience: the one-line error, not a wait for ever.
    monkeypatch.setattr(engine_module, "OPEN_PATIENCE_S", 0.2)
    monkeypatch.setattr(engine_module, "migrate", lambda db: (_ for _ in ()).throw(
        sqlite3.OperationalError("database is locked")))
    with pytest.raises(ScentError, match="cannot open the index .*database is locked"):
        SqliteEngine(tmp_path / "index")


def test_a_watch_holding_the_index_is_named_as_one(tmp_path):
    """A watch never finishes: "wait for it to finish" sent the person waiting forever."""
    import subprocess
    import sys

    holding = ("import sys, time; from scent.locking import IndexLock\n"
               "with IndexLock(sys.argv[1]):\n    print('held', flush=True); time.sleep(60)")
    child = subprocess.Popen([sys.executable, "-c", holding, str(tmp_path), "watch"], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline() == "held\n"
        with pytest.raises(ScentError) as said:
            IndexLock(tmp_path).__enter__()
    finally:
        child.kill()
        child.wait()
    if lock_holders(tmp_path / LOCK_NAME) is not None:  # Linux: who holds it can be read
        assert str(said.value).startswith(f"a scent watch (pid {child.pid}) keeps the index in {tmp_path} up to date")


def test_a_rebuild_keeps_the_lock_and_a_running_servers_note(tmp_path):
    from scent.locking import clear_index_dir
    from scent.serve.discovery import SERVER_FILE

    for name in (LOCK_NAME, SERVER_FILE, "index.sqlite", "vectors.bin"):
        (tmp_path / name).write_text("x")
    (tmp_path / "qdrant").mkdir()
    clear_index_dir(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([LOCK_NAME, SERVER_FILE])
