"""The Qdrant engine end to end (local mode): the index and search commands on it, what bad
connections and foreign collections say, and a killed indexer. Shared answers are in
test_engine_contract.py."""
from __future__ import annotations

import pytest

pytest.importorskip("qdrant_client")

from scent import Index  # noqa: E402
from scent.errors import IndexVersionError, ScentError  # noqa: E402
from scent.settings import Settings  # noqa: E402

QDRANT = Settings(backend="qdrant")


def test_index_and_search_the_notes(notes, fake_embedder, tmp_path):
    with Index(notes, index_dir=tmp_path / "ix", settings=QDRANT, embedder=fake_embedder) as idx:
        report = idx.update()
        assert report.added == 3
        assert [r.path for r in idx.search("deposit refund", k=1)] == ["lease.md"]
        assert [r.path for r in idx.search("LD-2026-0417", strategy="keyword")] == ["lease.md"]
        assert idx.search("parseHttpHeader", k=1)[0].path == "code/http.py"
        st = idx.status()
        assert (st["backend"], st["files"], st["units"]) == ("qdrant", 3, st["vector_fields"]["unit"]["vectors"])
        (notes / "recipe.txt").unlink()
        (notes / "lease.md").rename(notes / "old-lease.md")
        report = idx.update()
        assert (report.deleted, report.renamed) == (1, 1)
        assert [r.path for r in idx.search("deposit refund", k=1)] == ["old-lease.md"]
        assert not idx.search("tomato", strategy="keyword")
        assert [r.path for r in idx.search("old", strategy="keyword")] == ["old-lease.md"]  # the path is a keyword


def test_a_server_that_does_not_answer_says_so(notes, fake_embedder, tmp_path):
    settings = Settings(backend="qdrant", qdrant_url="http://127.0.0.1:9")
    with pytest.raises(ScentError, match=r"Qdrant at http://127.0.0.1:9 does not answer .*--qdrant-url"):
        Index(notes, index_dir=tmp_path / "ix", settings=settings, embedder=fake_embedder)
    assert not (tmp_path / "ix" / "catalog.db").exists()  # nothing half-written


def test_a_local_folder_in_use_says_so(notes, fake_embedder, tmp_path):
    with Index(notes, index_dir=tmp_path / "ix", settings=QDRANT, embedder=fake_embedder) as idx:
        idx.update()
        with pytest.raises(ScentError, match="open in another process"):
            Index(notes, index_dir=tmp_path / "ix", settings=QDRANT, embedder=fake_embedder)


def test_a_collection_of_another_schema_is_refused(notes, fake_embedder, tmp_path):
    from scent.engines import qdrant

    with Index(notes, index_dir=tmp_path / "ix", settings=QDRANT, embedder=fake_embedder) as idx:
        idx.update()
        idx.engine.client.update_collection(idx.engine.collection, metadata={"scent_schema": qdrant.SCHEMA + 1})
    with pytest.raises(IndexVersionError, match="another scent .*--rebuild --backend qdrant"):
        Index(notes, index_dir=tmp_path / "ix", settings=QDRANT, embedder=fake_embedder)
    # The rebuild throws the collection away and makes it again from the files.
    with Index(notes, index_dir=tmp_path / "ix", settings=QDRANT, embedder=fake_embedder, rebuild=True) as idx:
        assert idx.update().added == 3


def test_another_model_is_refused(notes, fake_embedder, tmp_path):
    with Index(notes, index_dir=tmp_path / "ix", settings=QDRANT, embedder=fake_embedder) as idx:
        idx.update()
    with pytest.raises(IndexVersionError, match="re-index with --rebuild"):
        Index(notes, index_dir=tmp_path / "ix", settings=QDRANT)  # the real model, not the fake one


def test_a_killed_write_is_completed_by_the_next_run(notes, fake_embedder, tmp_path, monkeypatch):
    """Killed after Qdrant took a file but before the catalog did: the next run writes the same
    points again (same ids) and the two agree."""
    from scent.engines.sqlite import SqliteEngine

    with Index(notes, index_dir=tmp_path / "ix", settings=QDRANT, embedder=fake_embedder) as idx:
        def killed(self, writes):
            raise KeyboardInterrupt

        monkeypatch.setattr(SqliteEngine, "write_files", killed)
        with pytest.raises(KeyboardInterrupt):
            idx.update()
        monkeypatch.undo()
        assert idx.engine.catalog.file_states() == {}
        # Files are written one by one: the kill came in the first, lease.md, of one unit.
        assert idx.engine.client.count(idx.engine.collection, exact=True).count == 1
        report = idx.update()
        assert report.added == 3
        points = idx.engine.client.count(idx.engine.collection, exact=True).count
        assert points == idx.status()["units"] == 4  # lease.md 1, recipe.txt 1, code/http.py 2
        assert [r.path for r in idx.search("tomato soup", k=1)] == ["recipe.txt"]


@pytest.mark.slow
def test_cli_takes_the_backend_flags(notes, tmp_path):
    import subprocess
    import sys

    def scent(*args):
        from pathlib import Path

        return subprocess.run([str(Path(sys.executable).with_name("scent")), *args], capture_output=True, text=True,
                              timeout=300)

    where, folder = str(tmp_path / "ix"), str(tmp_path / "q")
    out = scent("index", str(notes), "--index", where, "--backend", "qdrant", "-q", "--qdrant-path", folder,
                "--ocr", "false", "--describe", "false")
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "q").is_dir()
    out = scent("search", "tomato", "--index", where, "--backend", "qdrant", "--qdrant-path", folder, "--json",
                "--strategy", "keyword")
    assert out.returncode == 0 and '"path": "recipe.txt"' in out.stdout, out.stderr
    out = scent("status", "--index", where, "--backend", "qdrant", "--qdrant-url", "http://127.0.0.1:9")
    assert out.returncode == 1 and out.stderr.count("\n") == 1 and "does not answer" in out.stderr
