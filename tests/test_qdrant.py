"""The Qdrant engine end to end in a local folder (the embedded edge shard and qdrant-client's
local mode): the index and search commands on it, which of the two a folder gets, what bad
connections and foreign collections say, and a killed indexer. Shared answers are in
test_engine_contract.py."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("qdrant_client")

from scent import Index  # noqa: E402
from scent.errors import IndexVersionError, ScentError, UsageError  # noqa: E402
from scent.settings import Settings  # noqa: E402
from test_engine_contract import made_by_local_mode  # noqa: E402

QDRANT = Settings(backend="qdrant")


@pytest.fixture(params=["edge", "local"])
def mode(request, tmp_path):
    """The test once on a new folder (the embedded edge shard) and once on a folder qdrant-client's
    local mode made first."""
    if request.param == "edge":
        pytest.importorskip("qdrant_edge")
    else:
        made_by_local_mode(tmp_path / "ix" / "qdrant")
    return request.param


def test_index_and_search_the_notes(notes, fake_embedder, tmp_path, mode):
    with Index(notes, index_dir=tmp_path / "ix", settings=QDRANT, embedder=fake_embedder) as idx:
        report = idx.update()
        assert report.added == 3
        assert [r.path for r in idx.search("deposit refund", k=1)] == ["lease.md"]
        assert [r.path for r in idx.search("LD-2026-0417", strategy="keyword")] == ["lease.md"]
        assert idx.search("parseHttpHeader", k=1)[0].path == "code/http.py"
        st = idx.status()
        assert (st["backend"], st["files"], st["units"]) == ("qdrant", 3, st["vector_fields"]["unit"]["vectors"])
        assert st["qdrant_mode"] == mode
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


def test_a_local_folder_in_use_says_so(notes, fake_embedder, tmp_path, mode):
    import os
    import subprocess

    with Index(notes, index_dir=tmp_path / "ix", settings=QDRANT, embedder=fake_embedder) as idx:
        idx.update()
        # Another handle in this process (a server's readers) shares the open folder ...
        with idx.reader() as other:
            assert [r.path for r in other.search("deposit refund", k=1, strategy="keyword")] == ["lease.md"]
        assert [r.path for r in idx.search("deposit refund", k=1, strategy="keyword")] == ["lease.md"]
        # ... another process is refused in one line.
        code = ("import sys; from scent import Index; from scent.errors import ScentError; "
                "from scent.settings import Settings\n"
                "try:\n    Index(index_dir=sys.argv[1], settings=Settings(backend='qdrant'))\n"
                "except ScentError as err:\n    print(err)")
        out = subprocess.run([sys.executable, "-c", code, str(tmp_path / "ix")], capture_output=True, text=True,
                             env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}, timeout=120)
        assert "open in another process" in out.stdout, out.stderr


def test_a_collection_of_another_schema_is_refused(notes, fake_embedder, tmp_path, mode):
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


def test_a_killed_write_is_completed_by_the_next_run(notes, fake_embedder, tmp_path, monkeypatch, mode):
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


def test_a_new_folder_is_an_edge_shard_and_an_old_one_keeps_its_mode(tmp_path, monkeypatch):
    from scent.engines.qdrant import EDGE_MODE, LOCAL_MODE, local_mode

    pytest.importorskip("qdrant_edge")
    assert local_mode(tmp_path / "new") == EDGE_MODE
    (tmp_path / "empty").mkdir()
    assert local_mode(tmp_path / "empty") == EDGE_MODE
    made_by_local_mode(tmp_path / "old")
    assert local_mode(tmp_path / "old") == LOCAL_MODE
    (tmp_path / "shard" / "edge").mkdir(parents=True)
    assert local_mode(tmp_path / "shard") == EDGE_MODE
    # Without qdrant-edge-py: a new folder gets the local mode, an edge folder says what to install.
    monkeypatch.setitem(sys.modules, "qdrant_edge", None)
    monkeypatch.delitem(sys.modules, "scent.engines.qdrant.edge", raising=False)
    assert local_mode(tmp_path / "new") == LOCAL_MODE
    (tmp_path / "notes").mkdir()
    with pytest.raises(UsageError, match=r"holds an embedded edge shard.*pip install 'scent\[qdrant\]'"):
        Index(tmp_path / "notes", index_dir=tmp_path / "ix",
              settings=Settings(backend="qdrant", qdrant_path=str(tmp_path / "shard")))


def test_an_edge_folder_reopens_with_its_points_and_metadata(notes, fake_embedder, tmp_path):
    pytest.importorskip("qdrant_edge")
    with Index(notes, index_dir=tmp_path / "ix", settings=QDRANT, embedder=fake_embedder) as idx:
        idx.update()
        before = idx.status()
        info = dict(idx.engine._info)
    assert (tmp_path / "ix" / "qdrant" / "edge" / before["collection"] / "collection.json").is_file()
    with Index(notes, index_dir=tmp_path / "ix", settings=QDRANT, embedder=fake_embedder) as idx:
        assert idx.engine.mode == "edge"
        assert idx.engine._info == info  # schema, fields, avgdl, meta, last_indexed
        assert set(info) >= {"scent_schema", "fields", "avgdl", "meta", "last_indexed"}
        st = idx.status()
        assert (st["units"], st["vectors"], st["vector_fields"]) == \
            (before["units"], before["vectors"], before["vector_fields"])
        assert st["backend_detail"] == f"embedded edge shard at {tmp_path / 'ix' / 'qdrant'}"
        assert [r.path for r in idx.search("tomato soup", k=1)] == ["recipe.txt"]
        assert [r.path for r in idx.search("LD-2026-0417", strategy="keyword")] == ["lease.md"]
        assert idx.update().added == 0  # nothing to do: the catalog and the shard agree


def test_a_collection_made_before_spans_gets_the_index_of_until(notes, fake_embedder, tmp_path, monkeypatch):
    pytest.importorskip("qdrant_edge")
    from scent.engines import qdrant

    def indexes(idx):
        return set(idx.engine.client._shard(idx.engine.collection).info().payload_schema)

    # As session 15 made them: no `until` among the indexed payload fields, no "spans" in the metadata.
    with monkeypatch.context() as old:
        old.setattr(qdrant, "PAYLOAD_INDEXES", {k: v for k, v in qdrant.PAYLOAD_INDEXES.items() if k != "until"})
        old.setattr(qdrant.QdrantEngine, "_index_spans", lambda self: None)
        with Index(notes, index_dir=tmp_path / "ix", settings=QDRANT, embedder=fake_embedder) as idx:
            idx.update()
            idx.engine._set_info(spans=0)
            assert "until" not in indexes(idx) and "date" in indexes(idx)
    with Index(notes, index_dir=tmp_path / "ix", settings=QDRANT, embedder=fake_embedder) as idx:
        assert indexes(idx) == set(qdrant.PAYLOAD_INDEXES)
        assert idx.engine._info["spans"] == 1
        assert [r.path for r in idx.search("deposit refund after:2000", k=1)] == ["lease.md"]


def test_an_edge_shard_killed_before_its_flush_keeps_what_it_took(notes, fake_embedder, tmp_path):
    """A process killed (no close, no flush) after the shard took the points and before the catalog
    did: the shard replays its log, the folder is free again, and the next run agrees with it."""
    import subprocess

    pytest.importorskip("qdrant_edge")
    child = f"""
import os, sys
sys.path.insert(0, {str(Path(__file__).parent)!r})
from conftest import FakeEmbedder
from scent import Index
from scent.engines.sqlite import SqliteEngine
from scent.settings import Settings
SqliteEngine.write_files = lambda self, writes: os._exit(3)
Index({str(notes)!r}, index_dir={str(tmp_path / "ix")!r}, settings=Settings(backend="qdrant"),
      embedder=FakeEmbedder()).update()
"""
    assert subprocess.run([sys.executable, "-c", child], timeout=120).returncode == 3
    with Index(notes, index_dir=tmp_path / "ix", settings=QDRANT, embedder=fake_embedder) as idx:
        taken = idx.engine.client.count(idx.engine.collection, exact=True).count
        assert taken > 0 and idx.engine.catalog.file_states() == {}
        assert idx.update().added == 3
        assert idx.engine.client.count(idx.engine.collection, exact=True).count == idx.status()["units"] >= taken


def test_the_edge_adapter_refuses_what_it_does_not_translate(tmp_path):
    pytest.importorskip("qdrant_edge")
    from qdrant_client import models

    from scent.engines.qdrant.edge import EdgeClient, UnsupportedCall

    client = EdgeClient(tmp_path)
    try:
        client.create_collection("c", vectors_config={"unit": models.VectorParams(size=2, distance=models.Distance.COSINE)})
        text = models.Filter(must=[models.FieldCondition(key="text", match=models.MatchText(text="boiler"))])
        with pytest.raises(UnsupportedCall, match="does not translate match MatchText"):
            client.count("c", count_filter=text)
    finally:
        client.close()


@pytest.mark.slow
def test_cli_takes_the_backend_flags(notes, tmp_path):
    import subprocess

    def scent(*args):
        from pathlib import Path

        return subprocess.run([str(Path(sys.executable).with_name("scent")), *args], capture_output=True, text=True,
                              timeout=300)

    where, folder = str(tmp_path / "ix"), str(tmp_path / "q")
    out = scent("index", str(notes), "--index", where, "--backend", "qdrant", "-q", "--qdrant-path", folder,
                "--ocr", "false", "--describe", "false")
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "q" / "edge").is_dir() or "qdrant_edge" not in sys.modules
    out = scent("status", "--index", where, "--backend", "qdrant", "--qdrant-path", folder)
    assert out.returncode == 0, out.stderr
    mode = "embedded edge shard" if (tmp_path / "q" / "edge").is_dir() else "qdrant-client local mode"
    assert f"backend  qdrant ({mode} at {folder})" in out.stdout
    out = scent("search", "tomato", "--index", where, "--backend", "qdrant", "--qdrant-path", folder, "--json",
                "--strategy", "keyword")
    assert out.returncode == 0 and '"path": "recipe.txt"' in out.stdout, out.stderr
    out = scent("status", "--index", where, "--backend", "qdrant", "--qdrant-url", "http://127.0.0.1:9")
    assert out.returncode == 1 and out.stderr.count("\n") == 1 and "does not answer" in out.stderr
