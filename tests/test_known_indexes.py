"""Indexes as things a user manages: listed, forgotten, and never searched silently by accident."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from scent import Index
from scent.errors import IndexNotFound, ScentError
from scent.locking import IndexLock

SCENT = Path(sys.executable).with_name("scent")


def build(folder: Path, embedder) -> Path:
    with Index(folder, embedder=embedder) as idx:
        idx.update()
        return idx.index_dir


def test_known_lists_each_indexed_folder_with_its_status(notes, tmp_path, fake_embedder):
    other = tmp_path / "other"
    other.mkdir()
    (other / "a.md").write_text("Heron at the pond.\n")
    build(notes, fake_embedder)
    build(other, fake_embedder)
    # The fake model is not the default one: opened without it, each says why it cannot be read.
    known = Index.known()
    assert sorted(Path(st["index"]).name.split("-")[0] for st in known) == ["notes", "other"]
    assert all("fake/hashed-words" in st["error"] for st in known)


def test_forget_removes_the_index_and_not_the_folder(notes, fake_embedder):
    where = build(notes, fake_embedder)
    files = sorted(p.name for p in notes.iterdir())
    assert Index.forget(notes) == where
    assert not where.exists()
    assert sorted(p.name for p in notes.iterdir()) == files
    with pytest.raises(IndexNotFound, match="not indexed yet; run: scent index"):
        Index.forget(notes)
    # a path that is no folder here is a typo, not a folder to index
    with pytest.raises(IndexNotFound, match="not indexed, and no such folder is here; check the path"):
        Index.forget(notes / "gone")


def test_forget_is_refused_while_an_indexer_holds_the_index(notes, fake_embedder):
    where = build(notes, fake_embedder)
    with IndexLock(where):
        with pytest.raises(ScentError, match="another scent is indexing"):
            Index.forget(notes)
    assert (where / "index.db").is_file()


def test_forget_is_refused_while_a_server_answers_from_the_index(notes, fake_embedder):
    # A server announces itself in the index folder (scent.serve.discovery); forgotten under it, it
    # went on answering searches from the removed database.
    from scent.serve import discovery

    where = build(notes, fake_embedder)
    with discovery.announced(where, "127.0.0.1", 8799, str(notes), "token"):  # this process as the server
        with pytest.raises(ScentError, match=rf"scent serve \(pid {os.getpid()}, http://127.0.0.1:8799/\) is "
                                             r"serving this index; stop it first"):
            Index.forget(notes)
        assert (where / "index.db").is_file()
    assert Index.forget(notes) == where  # the server stopped


def test_open_says_how_it_found_the_index(notes, tmp_path, fake_embedder, monkeypatch):
    build(notes, fake_embedder)
    monkeypatch.chdir(notes)
    assert Index.open(embedder=fake_embedder).found == "here"
    assert Index.open(notes, embedder=fake_embedder).found == "named"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert Index.open(embedder=fake_embedder).found == "last"
    # The folder indexed last forgotten, the one folder left is searched; of two left, neither
    other, third = tmp_path / "other", tmp_path / "third"
    for folder in (other, third):
        folder.mkdir()
        (folder / "a.md").write_text("Heron at the pond.\n")
    build(other, fake_embedder)
    Index.forget(other)
    assert Index.open(embedder=fake_embedder).root == str(notes.resolve())
    build(third, fake_embedder)
    build(other, fake_embedder)
    Index.forget(other)
    with pytest.raises(IndexNotFound, match="no index found for this folder or its parents"):
        Index.open(embedder=fake_embedder)


def run(*args, cwd, env):
    return subprocess.run([str(SCENT), *args], capture_output=True, text=True, cwd=cwd, env=env)


@pytest.mark.slow  # the search embeds its query with the real model
def test_cli_list_and_forget(notes, tmp_path, scent_home):
    env = {**os.environ, "SCENT_HOME": str(scent_home)}
    out = run("list", cwd=tmp_path, env=env)
    assert out.returncode == 0 and "no folders indexed yet" in out.stderr
    # A folder indexed with the real model's id recorded, without embedding anything: no text.
    empty = tmp_path / "empty"
    empty.mkdir()
    assert run("index", str(empty), "-q", cwd=tmp_path, env=env).returncode == 0
    listed = [json.loads(line) for line in run("list", "--json", cwd=tmp_path, env=env).stdout.splitlines()]
    assert [(st["folder"], st["files"]) for st in listed] == [(str(empty.resolve()), 0)]
    assert listed[0]["last_indexed"][:2] == "20" and listed[0]["last_indexed"][10] == "T"  # ISO 8601
    searched = run("search", "anything", cwd=tmp_path, env=env)
    assert "no index for this folder; searching " + str(empty.resolve()) + " (indexed last" in searched.stderr
    shown = run("status", cwd=tmp_path, env=env)
    assert "no index for this folder; showing " + str(empty.resolve()) + " (indexed last" in shown.stderr
    gone = run("forget", str(empty), cwd=tmp_path, env=env)
    assert gone.returncode == 0 and "removed the index" in gone.stderr
    assert run("list", "--json", cwd=tmp_path, env=env).stdout == ""
    missing = run("search", "anything", cwd=tmp_path, env=env)
    assert missing.returncode == 1 and "no index found for this folder or its parents" in missing.stderr
    assert run("forget", cwd=tmp_path, env=env).returncode == 2


def test_search_many_merges_folders_by_fused_score(tmp_path, fake_embedder):
    birds, trips = tmp_path / "birds", tmp_path / "trips"
    for folder, files in ((birds, {"pond.md": "A heron at the pond, then two coots.\n",
                                   "garden.md": "Sparrows in the garden.\n"}),
                          (trips, {"lake.md": "We saw a heron by the lake.\n"})):
        folder.mkdir()
        for name, text in files.items():
            (folder / name).write_text(text)
    a, b = Index(birds, embedder=fake_embedder), Index(trips, embedder=fake_embedder)
    for idx in (a, b):
        idx.update()
    got = Index.search_many([a, b], "heron", k=5, strategy="keyword")
    # Each folder's own first: the same fused score (rank 1 of the one list); the folder named first wins the tie.
    assert [(r.rank, os.path.basename(r.folder), r.path) for r in got] == [(1, "birds", "pond.md"),
                                                                         (2, "trips", "lake.md")]
    assert got[0].score == got[1].score
    assert [r.path for r in Index.search_many([b, a], "heron", k=1, strategy="keyword")] == ["lake.md"]
    assert all(r.folder == str(birds.resolve()) for r in a.search("heron", strategy="keyword"))


def test_cli_several_folders_and_one_index_is_a_usage_error(tmp_path, scent_home):
    env = {**os.environ, "SCENT_HOME": str(scent_home)}
    out = run("search", "x", "--folder", "a", "--folder", "b", "--index", "c", cwd=tmp_path, env=env)
    assert out.returncode == 2 and "--index names one index" in out.stderr


@pytest.mark.slow  # indexes and searches with the real model
def test_cli_searches_several_folders_at_once(tmp_path, scent_home):
    env = {**os.environ, "SCENT_HOME": str(scent_home)}
    for name, text in (("birds", "A grey heron stood at the pond."), ("trips", "The ferry to the island left at dawn.")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "note.md").write_text(text + "\n")
        assert run("index", str(tmp_path / name), "-q", cwd=tmp_path, env=env).returncode == 0
    out = run("search", "heron at the pond", "--folder", "birds", "--folder", "trips", "--json", cwd=tmp_path, env=env)
    got = [json.loads(line) for line in out.stdout.splitlines()]
    assert [(Path(r["folder"]).name, r["path"], r["rank"]) for r in got][0] == ("birds", "note.md", 1)
    assert {Path(r["folder"]).name for r in got} == {"birds", "trips"}
