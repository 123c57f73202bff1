"""Handles for concurrent readers: a search held up in one thread does not hold up another."""
import threading

import pytest

import scent.search
from scent import Index
from scent.readers import Readers

from conftest import FakeEmbedder

GUARD = 30  # seconds before a test that would hang gives up; no timing is asserted


@pytest.fixture
def index(notes, tmp_path):
    with Index(notes, index_dir=tmp_path / "idx", embedder=FakeEmbedder()) as idx:
        idx.update()
        yield idx


@pytest.fixture
def held(monkeypatch):
    """Searches for "tomato" stop inside the pipeline until `release` is set."""
    started, release = threading.Event(), threading.Event()
    run = scent.search.run

    def held_run(request, k, explain):
        if request.text == "tomato":
            started.set()
            assert release.wait(GUARD)
        return run(request, k, explain)

    monkeypatch.setattr(scent.search, "run", held_run)
    yield started, release
    release.set()


def _in_thread(fn):
    out = {}
    t = threading.Thread(target=lambda: out.setdefault("value", fn()), daemon=True)
    t.start()
    return t, out


def test_a_held_search_does_not_hold_up_another_reader(index, held):
    started, release = held
    pool = Readers(index, size=2)

    def search(q):
        with pool.use() as idx:
            return [r.path for r in idx.search(q, k=1)]

    slow, slow_out = _in_thread(lambda: search("tomato"))
    assert started.wait(GUARD)
    assert search("deposit refund") == ["lease.md"]  # while the other is still inside its search
    assert slow.is_alive()
    release.set()
    slow.join(GUARD)
    assert slow_out["value"] == ["recipe.txt"]
    pool.close()


def test_handles_are_shared_models_own_connections_and_bounded(index):
    pool = Readers(index, size=2)
    with pool.use() as a, pool.use() as b:
        assert a is not b and a is not index
        assert a.engine.db is not b.engine.db
        assert a.embedder is b.embedder is index.embedder
        third, out = _in_thread(lambda: pool.use().__enter__())
        third.join(0.2)
        assert third.is_alive()  # a third waits: two is the bound
    third.join(GUARD)
    assert out["value"] in (a, b)  # it got a handle back, no new one
    pool.close()


def test_size_must_be_positive(index):
    from scent.errors import UsageError
    with pytest.raises(UsageError, match="at least one reader"):
        Readers(index, size=0)


def test_a_handle_reopens_an_index_rebuilt_under_it(index, notes):
    pool = Readers(index, size=1)
    with pool.use() as idx:
        assert idx.status()["files"] == 3
    (notes / "walrus.txt").write_text("Walrus tusks grow all their lives.\n")
    with Index(notes, index_dir=index.index_dir, embedder=FakeEmbedder(), rebuild=True) as rebuilt:
        rebuilt.update()
    with pool.use() as idx:
        assert not idx.replaced()
        assert idx.status()["files"] == 4
        assert idx.search("walrus tusks", k=1)[0].path == "walrus.txt"
    pool.close()
