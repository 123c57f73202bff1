"""Indexing and search plumbing on small real folders, with the fake embedder."""
import os
import sqlite3

import numpy as np
import pytest

from scent import Filters, Index
from scent.errors import IndexVersionError, UsageError
from scent.query import parse as parse_query


def build(folder, embedder, **kw):
    idx = Index(folder, settings=None, embedder=embedder, **kw)
    return idx, idx.update()


def test_first_run_indexes_every_file(notes, fake_embedder):
    idx, report = build(notes, fake_embedder)
    assert (report.added, report.updated, report.deleted) == (3, 0, 0)
    st = idx.status()
    assert st["files"] == 3
    assert st["files_by_kind"] == {"code": 1, "text": 2}


def test_unchanged_rerun_does_no_work(notes, fake_embedder):
    idx, _ = build(notes, fake_embedder)
    seen = fake_embedder.passages_seen
    report = idx.update()
    assert (report.added, report.updated, report.unchanged, report.embedded) == (0, 0, 3, 0)
    assert fake_embedder.passages_seen == seen


def test_touch_only_change_is_not_reextracted(notes, fake_embedder):
    idx, _ = build(notes, fake_embedder)
    os.utime(notes / "recipe.txt", ns=(1, 1_000_000_000_000))
    report = idx.update()
    assert (report.touched, report.updated, report.embedded) == (1, 0, 0)


def test_edit_reindexes_only_that_file(notes, fake_embedder):
    idx, _ = build(notes, fake_embedder)
    (notes / "recipe.txt").write_text("Lentil stew with cumin and carrots.\n")
    report = idx.update()
    assert (report.updated, report.unchanged) == (1, 2)
    assert idx.search("lentil cumin", strategy="keyword")[0].path == "recipe.txt"
    assert not idx.search("tomato garlic basil", strategy="keyword")


@pytest.fixture
def newer_text_reader(monkeypatch):
    """The text reader a version on, as a release whose text reader finds more would have it (the
    readers' names are looked up once per process: the lookup is cleared before and after)."""
    import scent.extract

    monkeypatch.setattr(scent.extract.text, "VERSION", scent.extract.text.VERSION + 1)
    scent.extract._reader_of_name.cache_clear()
    yield
    monkeypatch.undo()
    scent.extract._reader_of_name.cache_clear()


def test_a_newer_reader_reads_its_files_again_keeping_their_vectors(notes, fake_embedder, request):
    """An upgrade whose text reader finds more reaches the files indexed before: their bytes did
    not change, yet they are read again (and said to be), and their unchanged texts are not
    embedded again. The code file's reader did not change: it is left alone."""
    idx, _ = build(notes, fake_embedder)
    assert idx.engine.catalog.file_states()["recipe.txt"].reader == "text 1.3"
    request.getfixturevalue("newer_text_reader")
    seen = fake_embedder.passages_seen
    report = idx.update()
    assert (report.updated, report.unchanged, report.embedded) == (2, 1, 0)
    assert fake_embedder.passages_seen == seen
    assert report.notices == ["2 files read again: this scent reads them better than the one that indexed them "
                              "(text); their vectors are kept where their text did not change"]
    assert idx.engine.catalog.file_states()["lease.md"].reader == "text 1.4"
    report = idx.update()
    assert (report.updated, report.unchanged, report.notices) == (0, 3, [])


def test_an_index_that_recorded_no_readers_reads_every_file_once_more(notes, fake_embedder):
    idx, _ = build(notes, fake_embedder)
    idx.engine.db.execute("UPDATE files SET reader = ''")  # as m018 leaves the files of an older index
    report = idx.update()
    assert (report.updated, report.unchanged, report.embedded) == (3, 0, 0)
    assert "(code, text)" in report.notices[0]
    assert idx.update().unchanged == 3


def test_plan_reads_again_what_another_reader_read(monkeypatch):
    """By hand: a.txt unchanged but read by an older reader; b.zip unchanged, a member read by an
    older one (the archive is read again, with its members); c.txt touched (same bytes) by an
    older reader; d.txt unchanged and current."""
    from scent.indexing import plan
    from scent.units import FileInfo, FileState

    now = {"a.txt": "text 1.2", "b.zip": "archive 1.1", "b.zip#in.pdf": "pdf 1.3", "c.txt": "text 1.2",
           "d.txt": "text 1.2"}
    states = {"a.txt": FileState("a.txt", 1, 1, "ha", reader="text 1.1"),
              "b.zip": FileState("b.zip", 2, 2, "hb", reader="archive 1.1"),
              "b.zip#in.pdf": FileState("b.zip#in.pdf", 2, 2, "hb", container="b.zip", reader="pdf 1.2"),
              "c.txt": FileState("c.txt", 3, 3, "hc", reader="text 1.1"),
              "d.txt": FileState("d.txt", 4, 4, "hd", reader="text 1.2")}
    found = [FileInfo("/f/a.txt", "a.txt", 1, 1), FileInfo("/f/b.zip", "b.zip", 2, 2),
             FileInfo("/f/c.txt", "c.txt", 3, 99), FileInfo("/f/d.txt", "d.txt", 4, 4)]
    monkeypatch.setattr("scent.indexing._hash_file", {"/f/c.txt": "hc"}.__getitem__)  # only c.txt is opened
    p = plan(found, states, lambda *a: None, reader_of=now.__getitem__)
    assert [(f.rel, digest, new) for f, digest, new in p.read] == [("a.txt", "ha", False), ("b.zip", "hb", False),
                                                                  ("c.txt", "hc", False)]
    assert p.inside == {"b.zip": {"b.zip#in.pdf": states["b.zip#in.pdf"]}}
    assert p.newer == {"text": 2, "archive": 1}  # by the kind of file read again
    assert (p.unchanged, p.touched) == (1, [])


def test_rename_moves_without_embedding(notes, fake_embedder):
    idx, _ = build(notes, fake_embedder)
    os.rename(notes / "recipe.txt", notes / "soup.txt")
    report = idx.update()
    assert (report.renamed, report.added, report.deleted, report.embedded) == (1, 0, 0, 0)
    assert idx.search("tomato soup", strategy="keyword")[0].path == "soup.txt"


def test_deleted_file_leaves_the_index(notes, fake_embedder):
    idx, _ = build(notes, fake_embedder)
    os.remove(notes / "lease.md")
    assert idx.update().deleted == 1
    assert all(r.path != "lease.md" for r in idx.search("deposit refund"))
    db = sqlite3.connect(idx.index_dir / "index.db")
    assert db.execute("SELECT COUNT(*) FROM units_fts WHERE units_fts MATCH 'deposit'").fetchone()[0] == 0


def test_scentignore_and_default_excludes(notes, fake_embedder):
    (notes / ".scentignore").write_text("code/\n*.txt\n")
    (notes / "node_modules").mkdir()
    (notes / "node_modules" / "x.md").write_text("dependency readme")
    (notes / ".hidden").mkdir()
    (notes / ".hidden" / "y.md").write_text("secret")
    (notes / "logseq" / "bak" / "pages").mkdir(parents=True)  # Logseq's backups of pages it rewrote
    (notes / "logseq" / "bak" / "pages" / "lease.md").write_text("deposit refund, an old version")
    (notes / "logseq" / "custom.css").write_text("body {}")
    (notes / "bak").mkdir()  # a folder of that name elsewhere is the user's
    (notes / "bak" / "z.md").write_text("backup plan")
    idx, report = build(notes, fake_embedder)
    assert report.added == 3  # lease.md, bak/z.md and logseq/custom.css (the user's own style)
    assert {r.path for r in idx.search("deposit readme secret tomato backup", match="or")} == {
        "lease.md", "bak/z.md", "logseq/custom.css"}
    from scent.walk import left_out
    assert left_out(["logseq", "bak", "pages", "lease.md"]) and not left_out(["bak", "z.md"])


def test_an_obsidian_vaults_templates_are_not_indexed(notes, fake_embedder):
    (notes / ".obsidian" / "plugins" / "templater-obsidian").mkdir(parents=True)
    (notes / ".obsidian" / "templates.json").write_text('{"folder": "Templates"}')
    (notes / ".obsidian" / "plugins" / "templater-obsidian" / "data.json").write_text('{"templates_folder": "meta/tpl/"}')
    for rel in ("Templates/Daily.md", "meta/tpl/Meeting.md", "meta/notes.md", "other/Templates/kept.md"):
        (notes / rel).parent.mkdir(parents=True, exist_ok=True)
        (notes / rel).write_text("---\ndate: {{date}}\n---\n# {{title}}\n")
    idx, report = build(notes, fake_embedder)
    paths = set(idx.engine.catalog.file_states())
    assert {"meta/notes.md", "other/Templates/kept.md"} <= paths  # only the vault's own template folders
    assert not {"Templates/Daily.md", "meta/tpl/Meeting.md"} & paths
    # a vault below the indexed folder, too
    (notes / "vaults" / "home" / ".obsidian").mkdir(parents=True)
    (notes / "vaults" / "home" / ".obsidian" / "templates.json").write_text('{"folder": "tpl"}')
    (notes / "vaults" / "home" / "tpl").mkdir()
    (notes / "vaults" / "home" / "tpl" / "Weekly.md").write_text("# {{title}}\n")
    (notes / "vaults" / "home" / "plan.md").write_text("# Plan\nPaint the fence.\n")
    idx.update()
    paths = set(idx.engine.catalog.file_states())
    assert "vaults/home/plan.md" in paths and "vaults/home/tpl/Weekly.md" not in paths


def _files(root, rels):
    for rel in rels:
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"text of {rel}")


# A Mac's home folder: an application kept in Downloads, a Photos library (its originals, and the
# resized copies and database beside them), an iPhoto library of the same shape.
_MAC_FOLDER = [
    "notes/a.md", "Downloads/Preview.app/Contents/Resources/help.md", "Downloads/Preview.app/Contents/Info.txt",
    "Music/Song.band/Media/take 1.txt", "Pictures/Photos Library.photoslibrary/originals/0/0A1B.jpg",
    "Pictures/Photos Library.photoslibrary/resources/derivatives/0/0A1B_1_105_c.jpg",
    "Pictures/Photos Library.photoslibrary/database/search.txt",
    "Pictures/Photos Library.photoslibrary/notes.md", "Pictures/Old.photolibrary/Masters/2010/IMG_1.jpg",
    "Pictures/Old.photolibrary/Thumbnails/IMG_1.jpg",
]
_WALKED = ["Pictures/Old.photolibrary/Masters/2010/IMG_1.jpg", "Pictures/Photos Library.photoslibrary/originals/0/0A1B.jpg",
           "notes/a.md"]


def test_applications_and_photo_library_copies_are_not_walked(tmp_path):
    from scent.walk import files_at, walk

    _files(tmp_path, _MAC_FOLDER)
    assert sorted(f.rel for f in walk(tmp_path, accept=lambda p: True)) == _WALKED
    # A refresh of named paths (scent watch) keeps to the same rules.
    assert sorted(f.rel for f in files_at(tmp_path, _MAC_FOLDER, accept=lambda p: True)) == _WALKED
    assert sorted(f.rel for f in files_at(tmp_path, ["Downloads", "Pictures"], accept=lambda p: True)) == _WALKED[:2]


def test_a_folders_event_walks_that_folder_alone_and_names_each_file_once(tmp_path, monkeypatch):
    """A file made in notes/ comes as two events, the file's and its folder's (its list of files
    changed): the refresh found notes/piano.md twice (a watch said "2 new" for it) and, for the
    folder's event, walked every folder of the tree."""
    from scent import walk as walking

    _files(tmp_path, ["notes/piano.md", "notes/sub/a.md", "other/b.md", "c.md", "notes-old/d.md"])
    listed, folders = [], walking._folders

    def listing(root, onerror):
        for top, dirnames, filenames in folders(root, onerror):
            listed.append(os.path.relpath(top, tmp_path))
            yield top, dirnames, filenames

    monkeypatch.setattr(walking, "_folders", listing)
    found = walking.files_at(tmp_path, ["notes", "notes/piano.md"], accept=lambda p: True)
    assert [f.rel for f in found] == ["notes/piano.md", "notes/sub/a.md"]
    assert listed == [".", "notes", "notes/sub"]  # the way there, and below it
    assert sorted(f.rel for f in walking.files_at(tmp_path, ["notes/sub", "notes"], accept=lambda p: True)) == \
        ["notes/piano.md", "notes/sub/a.md"]


def test_watch_passes_by_events_the_walk_would_not_index(tmp_path):
    from scent.watch import _Changes

    changes = _Changes(str(tmp_path), str(tmp_path / ".scent"))
    for rel in [*_MAC_FOLDER, "Downloads/Preview.app", "Pictures/Photos Library.photoslibrary"]:
        changes._add(str(tmp_path / rel))
    assert sorted(changes._paths) == _WALKED


def test_names_the_file_system_marks_hidden_are_not_walked(tmp_path, monkeypatch):
    import stat
    from types import SimpleNamespace

    from scent import walk as walking

    # The mark itself (macOS's UF_HIDDEN flag, Windows' hidden attribute), which Linux has not.
    assert walking.hidden_by_os(SimpleNamespace(st_flags=stat.UF_HIDDEN))
    assert walking.hidden_by_os(SimpleNamespace(st_file_attributes=stat.FILE_ATTRIBUTE_HIDDEN | 0x20))
    assert not walking.hidden_by_os(SimpleNamespace(st_flags=0, st_file_attributes=0x20))
    assert not walking.hidden_by_os(os.stat(tmp_path))
    # The walk asks it of each name, as a Mac's does of ~/Library: here the mark is a folder's inode.
    _files(tmp_path, ["Library/Caches/x.md", "notes/hidden.md", "notes/a.md"])
    marked = {os.stat(tmp_path / "Library").st_ino, os.stat(tmp_path / "notes" / "hidden.md").st_ino}
    monkeypatch.setattr(walking, "_OS_MARKS_HIDDEN", True)
    monkeypatch.setattr(walking, "hidden_by_os", lambda st: st.st_ino in marked)
    assert [f.rel for f in walking.walk(tmp_path, accept=lambda p: True)] == ["notes/a.md"]
    assert [f.rel for f in walking.files_at(tmp_path, ["Library/Caches/x.md", "notes/hidden.md", "notes/a.md"],
                                            accept=lambda p: True)] == ["notes/a.md"]


def test_office_owner_files_and_the_systems_files_are_not_walked(tmp_path):
    """Word's "~$port.docx" beside report.docx while it is open (left behind by a crash): 162 bytes
    naming who has it open, which read as a damaged Word file each run; Explorer's desktop.ini and
    Thumbs.db, copied from Windows where they are hidden."""
    from scent import walk as walking

    _files(tmp_path, ["report.docx", "~$port.docx", "budget/~$dget.xlsx", "budget/q1.xlsx", "budget/desktop.ini",
                      "budget/Thumbs.db"])
    assert [f.rel for f in walking.walk(tmp_path, accept=lambda p: True)] == ["report.docx", "budget/q1.xlsx"]
    assert [f.rel for f in walking.files_at(tmp_path, ["~$port.docx", "report.docx"], accept=lambda p: True)] == \
        ["report.docx"]


def test_lock_files_and_minified_bundles_are_not_walked(tmp_path):
    """A lock file repeats every dependency's name (package-lock.json came 4th for "retry backoff",
    97% sure); a minified bundle holds the source's names (first for the function it copies)."""
    from scent import walk as walking

    _files(tmp_path, ["web/package.json", "web/package-lock.json", "web/src/api.ts", "web/dist/app.min.js",
                      "web/dist/app.js", "web/dist/site.min.css", "py/poetry.lock", "py/pyproject.toml", "rs/Cargo.lock",
                      "go/go.sum", "notes/fix.patch", "notes/lock.md"])
    assert sorted(f.rel for f in walking.walk(tmp_path, accept=lambda p: True)) == [
        "notes/fix.patch", "notes/lock.md", "py/pyproject.toml", "web/dist/app.js", "web/package.json", "web/src/api.ts"]
    assert walking.left_out(["web", "package-lock.json"]) and not walking.left_out(["web", "package.json"])


def test_bad_file_is_skipped_and_retried(notes, fake_embedder):
    (notes / "broken.pdf").write_bytes(b"%PDF-1.4 this is not really a pdf")
    idx, report = build(notes, fake_embedder)
    assert report.added == 3
    assert [p for p, _ in report.skipped] == ["broken.pdf"]
    assert idx.status()["errors"][0]["path"] == "broken.pdf"
    # retried next run, still skipped, still reported
    assert [p for p, _ in idx.update().skipped] == ["broken.pdf"]


def test_keyword_finds_id_and_code(notes, fake_embedder):
    idx, _ = build(notes, fake_embedder)
    assert idx.search("LD-2026-0417")[0].path == "lease.md"
    assert idx.search("parse http header", strategy="keyword")[0].path == "code/http.py"


def test_fuzzy_id_one_wrong_character(notes, fake_embedder):
    idx, _ = build(notes, fake_embedder)
    top = idx.search("LD-2026-0411", strategy="keyword")
    assert top and top[0].path == "lease.md"


def test_fuzzy_id_inside_a_path_or_an_address(notes, fake_embedder):
    # The whole URL was one ID token, which no ID one character off is ever near.
    (notes / "access.log").write_text('10.0.4.189 - - "GET /api/v2/invoices/INV-2024-00917 HTTP/1.1" 404\n'
                                      "s3://exports/ORD-55812?part=2 uploaded\n")
    idx, _ = build(notes, fake_embedder)
    for typed in ("INV-2024-00918", "ORD-55813"):
        top = idx.search(typed, strategy="keyword")
        assert top and top[0].path == "access.log", typed


def test_filters_exclude_before_fusion(notes, fake_embedder):
    idx, _ = build(notes, fake_embedder)
    only_code = idx.search("deposit refund tomato", filters=Filters.build(kinds=["code"]))
    assert {r.path for r in only_code} <= {"code/http.py"}
    in_path = idx.search("deposit", filters=Filters.build(path="code/"))
    assert all(r.path.startswith("code/") for r in in_path)


def test_explain_shows_each_list(notes, fake_embedder):
    idx, _ = build(notes, fake_embedder)
    r = idx.search("deposit refund", explain=True)[0]
    assert r.path == "lease.md"
    assert r.explain["keyword"]["rank"] == 1
    assert r.explain["keyword"]["contribution"] == pytest.approx(1 / 61, abs=1e-6)
    assert set(r.explain) == {"dense", "keyword"}


def test_snippet_highlights_query_words(notes, fake_embedder):
    idx, _ = build(notes, fake_embedder)
    r = idx.search("deposit refund")[0]
    assert [r.snippet[a:b].lower() for a, b in r.highlights] == ["deposit", "refund"]


def test_empty_query_is_usage_error(notes, fake_embedder):
    idx, _ = build(notes, fake_embedder)
    with pytest.raises(UsageError):
        idx.search("   ")


def test_other_model_is_refused(notes, fake_embedder):
    idx, _ = build(notes, fake_embedder)
    idx.close()
    with pytest.raises(IndexVersionError):
        Index(notes)  # the default model differs from the fake one


def test_newer_index_is_refused(notes, fake_embedder):
    idx, _ = build(notes, fake_embedder)
    idx.close()
    db = sqlite3.connect(idx.index_dir / "index.db")
    db.execute("INSERT INTO migrations VALUES ('m999_from_the_future', 0)")
    db.commit()
    with pytest.raises(IndexVersionError, match="newer"):
        Index(notes, embedder=fake_embedder)


def old_index(index_dir, known: int) -> sqlite3.Connection:
    """An index as written by a scent that knew only the first `known` migrations."""
    from scent.engines.sqlite import migrations

    index_dir.mkdir(parents=True)
    db = sqlite3.connect(index_dir / "index.db", isolation_level=None)
    saved = migrations.MIGRATIONS[:]
    try:
        migrations.MIGRATIONS[:] = saved[:known]
        migrations.migrate(db)
    finally:
        migrations.MIGRATIONS[:] = saved
    return db


def test_index_from_before_m002_upgrades_in_place(notes, fake_embedder, tmp_path):
    from scent.engines.sqlite import migrations

    db = old_index(tmp_path / "ix", 1)
    assert not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'suggestions'").fetchone()
    db.execute("INSERT INTO files (path, kind, size, mtime_ns, hash, date, title, indexed_at) "
               "VALUES ('old.txt', 'text', 1, 1, 'x', 0, 'Old', 0)")
    db.close()
    idx = Index(notes, index_dir=tmp_path / "ix", embedder=fake_embedder)  # applies the later migrations
    assert {r[0] for r in idx.engine.db.execute("SELECT name FROM migrations")} == {
        fn.__name__ for fn in migrations.MIGRATIONS}
    assert idx.suggestions(10) == []  # old files have none until re-indexed
    idx.update()  # old.txt is not on disk: deleted; the notes are indexed with suggestions
    got = idx.suggestions(10)
    assert {"text": "Lease", "path": "lease.md", "page": None, "aspect": "file"} in got
    assert {s["path"] for s in got} == {"lease.md", "recipe.txt"}  # this code has no prose to suggest
    idx.engine.delete_files(["lease.md"])  # suggestions go with their file
    assert all(s["path"] != "lease.md" for s in idx.suggestions(10))


def test_index_from_before_m013_keeps_its_suggestions_as_the_files_own(notes, fake_embedder, tmp_path):
    from scent.engines.sqlite import migrations
    from scent.storage import StoredSuggestion

    db = old_index(tmp_path / "ix", [fn.__name__ for fn in migrations.MIGRATIONS].index("m013_suggestion_pages"))
    assert [r[1] for r in db.execute("PRAGMA table_info(suggestions)")] == ["file_id", "text"]
    db.execute("INSERT INTO files (path, kind, size, mtime_ns, hash, date, title, indexed_at) "
               "VALUES ('old.pdf', 'pdf', 1, 1, 'x', 0, 'Old', 0)")
    db.execute("INSERT INTO suggestions (file_id, text) VALUES (1, 'boiler repair')")
    db.close()
    idx = Index(notes, index_dir=tmp_path / "ix", embedder=fake_embedder)
    assert [r[1] for r in idx.engine.db.execute("PRAGMA table_info(suggestions)")] == ["file_id", "text", "page",
                                                                                       "aspect"]
    # made for the whole file, as every suggestion was before pages had their own
    assert idx.engine.catalog.suggestions(5) == [{"text": "boiler repair", "path": "old.pdf", "page": None,
                                                  "aspect": "file"}]
    assert idx.engine.catalog.generated_queries() == [StoredSuggestion("old.pdf", "pdf", "Old", "boiler repair",
                                                                       None, "file")]
    idx.update()  # old.pdf is gone; the notes come with their pages' queries
    assert ("lease.md", None, "topic") in {(q.path, q.page, q.aspect) for q in idx.engine.catalog.generated_queries()}
    idx.close()


def test_index_from_before_m007_gets_stable_ids_and_keeps_its_vectors(notes, fake_embedder, tmp_path):
    """m007: rowid unit ids become ids made from the file and the unit's place; the text-keyed
    embeddings become the `unit` and `sentences` fields of the units that used them."""
    from scent.storage import text_key, unit_id

    db = old_index(tmp_path / "ix", 6)
    texts = ["Bird log: a heron at the pond.", "Two coots on the water."]
    sentence = "a heron at the pond"
    db.executescript(f"""
        INSERT INTO meta VALUES ('model', '{fake_embedder.model_id}'), ('dim', '{fake_embedder.dim}');
        INSERT INTO files (id, path, kind, size, mtime_ns, hash, date, title, indexed_at)
            VALUES (7, 'birds.md', 'text', 1, 1, 'h', 0, 'Birds', 0);""")
    for rowid, text in ((40, texts[0]), (41, texts[1])):
        db.execute("INSERT INTO units (id, file_id, kind, start, \"end\", text, text_hash, path) "
                   "VALUES (?, 7, 'text', 0, 1, ?, ?, 'birds.md')", (rowid, text, text_key(text)))
        db.execute("INSERT INTO embeddings VALUES (?, ?, ?)",
                   (text_key(text), fake_embedder.model_id, fake_embedder.embed_passages([text])[0].tobytes()))
    db.execute("INSERT INTO unit_parts VALUES (40, ?)", (text_key(sentence),))
    db.execute("INSERT INTO embeddings VALUES (?, ?, ?)",
               (text_key(sentence), fake_embedder.model_id, fake_embedder.embed_passages([sentence])[0].tobytes()))
    db.close()

    idx = Index(index_dir=tmp_path / "ix", embedder=fake_embedder)
    first, second = unit_id("birds.md", 0), unit_id("birds.md", 1)
    assert {u.id: u.text for u in idx.file_units("birds.md")} == {first: texts[0], second: texts[1]}
    fields = idx.engine.vectors.fields()
    assert (fields["unit"].model, fields["unit"].dims, fields["sentences"].multi) == \
        (fake_embedder.model_id, fake_embedder.dim, True)
    assert np.allclose(idx.engine.vectors.get("unit", [second])[second], fake_embedder.embed_passages([texts[1]])[0])
    assert idx.engine.vectors.get("sentences", [first])[first].shape == (1, fake_embedder.dim)
    assert [r.unit_id for r in idx.search("coots", strategy="keyword")] == [second]  # the keyword index follows
    assert idx.search("heron pond", strategy="dense")[0].unit_id == first
    assert not idx.engine.db.execute("SELECT 1 FROM sqlite_master WHERE name = 'embeddings'").fetchone()


def test_excluded_kinds_leave_every_list(notes, fake_embedder):
    idx, _ = build(notes, fake_embedder)
    got = idx.search("parse http header read file deposit", exclude_kinds="code")
    assert got and all(r.kind != "code" for r in got)


def test_truncated_dims_still_rank(notes, fake_embedder):
    idx, _ = build(notes, fake_embedder)
    full = idx.search("deposit refund", strategy="dense")
    cut = idx.search("deposit refund", strategy="dense", dims=32)
    assert {r.path for r in full} == {r.path for r in cut}


def test_symlink_out_of_the_folder_is_not_indexed(notes, fake_embedder, tmp_path):
    outside = tmp_path / "outside.txt"
    outside.write_text("zanzibar secret outside the folder")
    (notes / "leak.txt").symlink_to(outside)
    (notes / "inner.txt").symlink_to(notes / "recipe.txt")
    idx, report = build(notes, fake_embedder)
    assert report.added == 4  # lease, recipe, http.py and the inner link
    assert not idx.search("zanzibar", strategy="keyword")


def test_long_pdf_is_indexed_up_to_the_page_limit_with_a_warning(notes, fake_embedder):
    from fpdf import FPDF

    from scent import Settings

    pdf = FPDF()
    pdf.set_font("Helvetica", size=12)
    for word in ("alpha", "bravo", "charlie"):
        pdf.add_page()
        pdf.cell(text=f"page about {word}")
    pdf.output(str(notes / "three.pdf"))
    idx = Index(notes, settings=Settings(max_pdf_pages=2), embedder=fake_embedder)
    report = idx.update()
    assert report.skipped == []
    assert [p for p, _ in report.warnings] == ["three.pdf"]
    assert "max_pdf_pages" in report.warnings[0][1]
    assert idx.status()["errors"] == [{"path": "three.pdf", "reason": report.warnings[0][1], "level": "warning"}]
    assert idx.search("bravo", strategy="keyword")[0].page == 2
    assert not idx.search("charlie", strategy="keyword")


def test_photo_units_name_only_folders_inside_the_indexed_one(tmp_path, fake_embedder):
    from PIL import Image

    root = tmp_path / "zebulon" / "pictures"
    (root / "2025-07-brittany").mkdir(parents=True)
    Image.new("RGB", (40, 30), "blue").save(root / "2025-07-brittany" / "IMG_1.jpg")
    idx = Index(root, embedder=fake_embedder)
    idx.update()
    text = idx.engine.db.execute("SELECT text FROM units WHERE kind = 'image' ORDER BY id").fetchone()[0]
    assert "brittany" in text and "zebulon" not in text and "pictures" not in text


def test_keywords_in_tamil_and_hindi_are_whole_words(notes, fake_embedder):
    # unicode61 keeps combining vowel signs inside a word (they are marks, not separators) and
    # the Porter stemmer leaves non-Latin words alone: a word matches itself, not its pieces.
    (notes / "amma.md").write_text("மல்லிகை செடிக்கு வேப்பெண்ணெய் தெளிக்க வேண்டும்.\n", encoding="utf-8")
    (notes / "dal.md").write_text("दादी की दाल में घी और जीरा का तड़का।\n", encoding="utf-8")
    idx, _ = build(notes, fake_embedder)
    assert [r.path for r in idx.search("வேப்பெண்ணெய்", strategy="keyword")] == ["amma.md"]
    assert [r.path for r in idx.search("जीरा", strategy="keyword")] == ["dal.md"]
    assert idx.search("जी", strategy="keyword") == []  # a piece of a word is not the word


def test_index_from_before_m005_is_rebuilt_with_whole_indic_words(notes, fake_embedder, tmp_path):
    db = old_index(tmp_path / "ix", 4)  # m001's tokenizer: a vowel sign splits a word
    db.executescript("""
        INSERT INTO files (id, path, kind, size, mtime_ns, hash, date, title, indexed_at)
            VALUES (1, 'dal.md', 'text', 1, 1, 'h', 0, '', 0);
        INSERT INTO units (id, file_id, kind, start, "end", text, text_hash, path)
            VALUES (5, 1, 'text', 0, 1, 'दादी की दाल में घी और जीरा का तड़का।', 'x', 'dal.md');""")
    assert db.execute("SELECT COUNT(*) FROM units_fts WHERE units_fts MATCH 'ज'").fetchone()[0] == 1
    db.close()
    idx = Index(notes, index_dir=tmp_path / "ix", embedder=fake_embedder)
    assert [r.path for r in idx.search("जीरा", strategy="keyword")] == ["dal.md"]
    assert idx.search("जी", strategy="keyword") == []
    assert idx.search("ज", strategy="keyword") == []


def test_changed_index_settings_are_noticed_until_a_rebuild(notes, fake_embedder, tmp_path):
    from scent.settings import Settings
    where = tmp_path / "idx"

    def run(**values):
        idx = Index(notes, index_dir=where, embedder=fake_embedder, settings=Settings(**values))
        try:
            return idx.update().notices
        finally:
            idx.close()

    assert run(describe=False) == []  # a new index records what it was built with
    assert run(describe=False) == []
    [notice] = run(describe=True, chunk_words=100)
    assert "describe False -> True" in notice and "chunk_words 180 -> 100" in notice and "--rebuild" in notice
    assert run(describe=True, chunk_words=100, embed_batch=4)  # still a mix: said again
    assert run(describe=False, embed_batch=4) == []  # back to how it was built; batch size is not content


def test_an_index_from_an_earlier_scent_is_noticed(notes, fake_embedder):
    idx, _ = build(notes, fake_embedder)
    idx.engine.db.execute("DELETE FROM meta WHERE key = 'content_settings'")  # as session-1 indexes are
    [notice] = idx.update().notices
    assert "earlier scent" in notice and "--rebuild" in notice


def test_index_from_before_m009_gets_dense_rows_and_keeps_its_ids(notes, fake_embedder, tmp_path):
    """m009: the FTS5 indexes move from the random stable ids to a dense local row; every unit
    keeps its stable id, and the keyword and ID indexes find the same units as before."""
    db = old_index(tmp_path / "ix", 8)
    big = [(2**62 + 977, 1, "Tickets LD-2026-0417 and the heron.", "LD-2026-0417"),
           (12345, 0, "The heron sat at the pond.", ""),
           (2**61 + 3, 2, "Coots on the water.", "")]
    db.execute("INSERT INTO files (id, path, kind, size, mtime_ns, hash, date, title, indexed_at, key) "
               "VALUES (7, 'birds.md', 'text', 1, 1, 'h', 0, 'Birds', 0, 'birds.md')")
    for uid, place, text, ids in big:
        db.execute("INSERT INTO units (id, place, file_id, kind, start, \"end\", text, text_hash, path, ids) "
                   "VALUES (?, ?, 7, 'text', 0, 1, ?, 'x', 'birds.md', ?)", (uid, place, text, ids))
    db.close()
    idx = Index(notes, index_dir=tmp_path / "ix", embedder=fake_embedder)
    rows = idx.engine.db.execute("SELECT row, id FROM units ORDER BY row").fetchall()
    assert rows == [(1, 12345), (2, 2**62 + 977), (3, 2**61 + 3)]  # reading order, ids kept
    assert sorted(u for u, _ in idx.engine.keywords.search(
        parse_query("heron"), "or", "", Filters(), 10)) == [12345, 2**62 + 977]
    assert [u for u, _ in idx.engine.keywords.id_search(("LD-2026-0417",), Filters(), 10)] == [2**62 + 977]
    for fts in ("units_fts", "ids_fts"):  # each index agrees with its content table
        idx.engine.db.execute(f"INSERT INTO {fts}({fts}, rank) VALUES ('integrity-check', 1)")
    idx.engine.delete_files(["birds.md"])
    assert idx.engine.keywords.search(parse_query("heron"), "or", "", Filters(), 10) == []
    assert idx.engine.keywords.id_search(("LD-2026-0417",), Filters(), 10) == []


def test_two_processes_opening_a_new_index_at_once_both_succeed(tmp_path, monkeypatch):
    """A search opening the index a rebuild has just made migrates it too; whichever takes the write lock
    second must find the work done, not fail on the record (seen in CI as 'UNIQUE constraint failed')."""
    from scent.engines.sqlite import migrations

    path = tmp_path / "index.db"
    winner = sqlite3.connect(path, isolation_level=None)
    loser = sqlite3.connect(path, isolation_level=None)
    first = migrations.MIGRATIONS[0]
    raced = []

    def first_after_the_other_process_won():
        if not raced:  # the loser has read the records; now the winner applies everything
            raced.append(True)
            migrations.migrate(winner)
        return first()

    first_after_the_other_process_won.__name__ = first.__name__
    monkeypatch.setattr(migrations, "MIGRATIONS", [first_after_the_other_process_won, *migrations.MIGRATIONS[1:]])
    migrations.migrate(loser)
    assert raced
    names = [r[0] for r in loser.execute("SELECT name FROM migrations ORDER BY rowid")]
    assert names == [fn.__name__ for fn in migrations.MIGRATIONS]


# ---- copies: one result per content ----------------------------------------------------------

BOILER = "# Boiler\n\nThe boiler service is due in March, ticket BX-4410.\n"
COPIES = ("notes/boiler.md", "downloads/boiler.md", "old/boiler copy.md")


@pytest.fixture
def with_copies(tmp_path, fake_embedder):
    root = tmp_path / "f"
    for rel in COPIES:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(BOILER)
    (root / "notes" / "kettle.md").write_text("# Kettle\n\nThe kettle and the boiler share a socket.\n")
    (root / "empty-a.md").write_text("")
    (root / "empty-b.md").write_text("")
    (root / ".scent-access").write_text("**  u:bob u:carol\nold/**  u:carol\n")
    idx, _ = build(root, fake_embedder, index_dir=tmp_path / "ix")
    yield idx
    idx.close()


def test_copies_of_a_file_are_one_result_that_names_them(with_copies):
    first, second = with_copies.search("boiler service", k=2)
    # The three copies score alike; whichever comes first names the other two, sorted.
    assert {first.path, *first.copies} == set(COPIES) and list(first.copies) == sorted(first.copies)
    assert second.path == "notes/kettle.md" and second.copies == ()  # k=2: two different contents
    assert first.to_dict()["copies"] == list(first.copies)


def test_a_result_names_the_plainest_of_its_copies(with_copies):
    """Not the copy in a downloads folder; of the others the first by name, whichever ranked first."""
    first = with_copies.search("boiler service", k=1)[0]
    assert (first.path, first.copies) == ("notes/boiler.md", ("downloads/boiler.md", "old/boiler copy.md"))
    assert first.unit_id in {u.id for u in with_copies.engine.catalog.file_units("notes/boiler.md")}
    [explained] = with_copies.search("boiler service", k=1, explain=True)
    assert explained.path == "notes/boiler.md" and explained.explain["keyword"]["rank"] == 1  # the copy that ranked


def test_a_copy_in_a_backup_folder_is_not_the_one_named(tmp_path, fake_embedder):
    root = tmp_path / "f"
    for rel in ("backup-old-laptop/journal/boiler.md", "journal/boiler.md", "bak/boiler.md"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(BOILER)
    idx, _ = build(root, fake_embedder, index_dir=tmp_path / "ix")
    first = idx.search("boiler service", k=1)[0]
    assert (first.path, first.copies) == ("journal/boiler.md", ("backup-old-laptop/journal/boiler.md", "bak/boiler.md"))
    idx.close()


def test_a_file_like_another_names_the_plainest_of_its_copies(with_copies):
    """As a search does: the copies score alike, and by name the downloads folder's came first."""
    found = next(r for r in with_copies.similar("notes/kettle.md", k=3) if "boiler" in r.path)
    assert (found.path, found.copies) == ("notes/boiler.md", ("downloads/boiler.md", "old/boiler copy.md"))
    assert found.unit_id in {u.id for u in with_copies.engine.catalog.file_units("notes/boiler.md")}


def test_a_result_is_the_file_itself_not_a_link_to_it_or_its_copy_in_an_archive(tmp_path, fake_embedder):
    import zipfile

    root = tmp_path / "f"
    (root / "payments").mkdir(parents=True)
    (root / "payments" / "client.py").write_text("def retry_with_backoff(call):\n    return call()\n")
    (root / "a_link.py").symlink_to(root / "payments" / "client.py")
    with zipfile.ZipFile(root / "a_backup.zip", "w") as z:
        z.write(root / "payments" / "client.py", "client.py")
    idx, _ = build(root, fake_embedder, index_dir=tmp_path / "ix")
    with idx:
        [found] = idx.search("retry_with_backoff", k=1)
    assert (found.path, found.copies) == ("payments/client.py", ("a_backup.zip#client.py", "a_link.py"))


def test_a_file_deleted_since_the_run_is_said_gone_until_the_next(tmp_path, fake_embedder, capsys):
    from scent import commands

    root = tmp_path / "f"
    root.mkdir()
    (root / "alarm.md").write_text("The burglar alarm code is 4471.\n")
    (root / "wifi.md").write_text("The wifi password is on the router.\n")
    idx, _ = build(root, fake_embedder, index_dir=tmp_path / "ix")
    with idx:
        (root / "alarm.md").unlink()
        results = idx.search("burglar alarm code wifi", k=2)
        assert {(r.path, r.gone) for r in results} == {("alarm.md", True), ("wifi.md", False)}
        assert next(r for r in results if r.gone).to_dict()["gone"] is True
        commands._show(results, False, False)
        assert "    deleted since the folder was indexed (scent index drops it)\n" in capsys.readouterr().out
        idx.update()
        assert [r.path for r in idx.search("burglar alarm code wifi", k=2)] == ["wifi.md"]


def test_a_code_result_says_the_line_it_shows(tmp_path, fake_embedder, capsys):
    from scent import commands

    root = tmp_path / "f"
    root.mkdir()
    (root / "client.py").write_text("import time\n\n\ndef connect():\n    pass\n\n\n"
                                    "def retry_with_backoff(call):\n    time.sleep(1)\n    return call()\n")
    idx, _ = build(root, fake_embedder, index_dir=tmp_path / "ix")
    with idx:
        [found] = idx.search("retry_with_backoff", k=1)
    assert (found.path, found.line, found.to_dict()["line"]) == ("client.py", 8, 8)
    commands._show([found], False, False)
    assert capsys.readouterr().out.startswith(" 1. client.py:8  [code]")


def test_a_code_result_says_the_line_of_its_match_and_shows_the_definition_of_a_name(tmp_path, fake_embedder):
    root = tmp_path / "f"
    root.mkdir()
    body = "".join(f"    step_{i} = {i}\n" for i in range(30))
    (root / "pool.py").write_text(
        "class ConnectionPool:\n    pass\n\n\n"
        "class HTTPConnectionPool(ConnectionPool):\n" + body + "    def get_backoff_time(self):\n        return 2\n\n\n"
        "class HTTPSConnectionPool(HTTPConnectionPool):\n    scheme = 'https'\n")
    idx, _ = build(root, fake_embedder, index_dir=tmp_path / "ix")
    with idx:
        # a method inside its class's passage (line 5): the line of the match, 31 lines below
        assert idx.search("get_backoff_time", k=1, strategy="keyword")[0].line == 36
        # the name of a class: where it is defined (line 5), not where a subclass uses it (line 40)
        units = {u.line: u.title for u in idx.engine.catalog.file_units("pool.py")}
        assert units[5] == "HTTPConnectionPool" and units[40] == "HTTPSConnectionPool"
        for query in ("HTTPConnectionPool", "class HTTPConnectionPool"):
            assert idx.search(query, k=1, strategy="keyword")[0].line == 5
        # its snippet begins at the definition, not at a comment above it that names it more often
        (root / "errors.py").write_text("# ProtocolError: the base.\n# LocalProtocolError: ours. LocalProtocolError is\n"
                                        "# raised by LocalProtocolError checks.\nclass LocalProtocolError(Exception):\n"
                                        "    pass\n")
        idx.update()
        found = idx.search("LocalProtocolError", k=1, strategy="keyword")[0]
        assert (found.path, found.line) == ("errors.py", 4)
        assert found.snippet.startswith("class LocalProtocolError(Exception):")
        # the file that defines a name of code comes before a shorter one that only uses it (a patch of it)
        (root / "fix.diff").write_text("-    return reconcile_settlements(rows)\n+    return reconcile_settlements(rows, cents=True)\n")
        (root / "ledger.py").write_text("import csv\n\n\ndef reconcile_settlements(rows, cents=False):\n"
                                        "    # match the payouts against the ledger, row by row, by their reference\n"
                                        + "".join(f"    total_{i} = sum(r[{i}] for r in rows)\n" for i in range(12)))
        idx.update()
        assert [r.path for r in idx.search("reconcile_settlements", k=2, strategy="keyword")] == ["ledger.py", "fix.diff"]
        # a plain word asks for no definition: a file that merely says it may come first
        assert "fix.diff" in [r.path for r in idx.search("rows", k=2, strategy="keyword")]


def test_a_latex_label_or_bibtex_key_shows_where_it_is_defined(tmp_path, fake_embedder):
    root = tmp_path / "f"
    root.mkdir()
    (root / "todo.md").write_text("- fix fig:loss, the y axis label is missing\n- cite smith2021attention in 3.2\n")
    (root / "chapter3.tex").write_text(
        "\\section{Motivation}\nLong articles.\n\n\\section{Results}\n\\begin{figure}[t]\n"
        "  \\includegraphics{loss.pdf}\n  \\caption{Training loss over 50 epochs.}\n  \\label{fig:loss}\n"
        "\\end{figure}\nWe follow \\citet{smith2021attention}.\n" + "Filler words of the results.\n" * 40)
    (root / "refs.bib").write_text("@book{bishop2006pattern,\n  title = {Pattern Recognition}\n}\n\n"
                                   "@inproceedings{smith2021attention,\n  title = {Sparse Routed Attention}\n}\n")
    idx, _ = build(root, fake_embedder, index_dir=tmp_path / "ix")
    with idx:
        for k in (1, 3):  # the first result does not depend on how many are asked for
            found = idx.search("fig:loss", k=k, strategy="keyword")[0]
            assert (found.path, found.line) == ("chapter3.tex", 5)  # its figure, caption included
        assert "\\caption{Training loss over 50 epochs.} \\label{fig:loss}" in found.snippet
        found = idx.search("smith2021attention", k=1, strategy="keyword")[0]
        assert (found.path, found.line) == ("refs.bib", 5)  # the entry, not the note or the citation
        # a plain word is no label: the note that says it most may come first
        assert idx.search("fix", k=1, strategy="keyword")[0].path == "todo.md"


def test_a_query_of_an_id_shows_the_document_named_by_it_at_its_first_page(tmp_path, fake_embedder):
    """The invoice named by its number comes before the bank statement that pays it, and shows its
    page 1 (header, client, total), not its short page 2 whose running header repeats the number."""
    from fpdf import FPDF

    root = tmp_path / "f"
    (root / "invoices").mkdir(parents=True)
    pdf = FPDF()
    pdf.set_font("helvetica", size=11)
    pdf.add_page()
    pdf.multi_cell(0, 6, "INVOICE RE-2025-4471\nDruckerei Hoffmann GmbH, Leipzig. Printing of 400 gift boxes, "
                         "two colours, matt laminate. Net 2,162.00 EUR, VAT 19% 410.78 EUR, total 2,572.78 EUR. "
                         "Payment within 14 days; 2% discount within 7 days.")
    pdf.add_page()
    pdf.multi_cell(0, 6, "RE-2025-4471 page 2\nDelivery notes.")
    pdf.output(str(root / "invoices" / "Hoffmann_RE-2025-4471.pdf"))
    (root / "statement.csv").write_text("date,reference,amount\n2025-07-02,RE-2025-4471,-2118.76\n"
                                        "2025-07-03,card,-12.40\n")
    idx, _ = build(root, fake_embedder, index_dir=tmp_path / "ix")
    with idx:
        found = idx.search("RE-2025-4471", k=2)
        assert [(r.path, r.page) for r in found] == [("invoices/Hoffmann_RE-2025-4471.pdf", 1), ("statement.csv", None)]
        # Not for a question in words: there the lists decide, as for any query.
        assert "statement.csv" in [r.path for r in idx.search("what did we pay for RE-2025-4471", k=2)]


def test_copies_picked_by_mmr_still_leave_k_results(with_copies):
    # lambda 1: MMR ranks by relevance alone, so it picks two of the copies; the third file fills in.
    results = with_copies.search("boiler service", k=2, strategy="hybrid+mmr", mmr_lambda=1.0)
    assert [len(results), results[1].path] == [2, "notes/kettle.md"]
    assert {results[0].path, *results[0].copies} == set(COPIES)


def test_a_copy_the_asker_may_not_read_is_not_named(with_copies):
    me = with_copies.search("boiler service", k=2)[0]  # the folder's owner reads every file
    assert "old/boiler copy.md" in {me.path, *me.copies}
    bob = with_copies.search("boiler service", k=2, as_user="bob")[0]
    assert {bob.path, *bob.copies} == {"notes/boiler.md", "downloads/boiler.md"}


def test_empty_files_are_no_copies_of_each_other(with_copies):
    catalog = with_copies.engine.catalog
    assert {f for f in catalog.file_states() if f.startswith("empty")} == {"empty-a.md", "empty-b.md"}
    assert catalog.copies(["empty-a.md", "notes/boiler.md", "notes/kettle.md"]) == \
        {"notes/boiler.md": ["downloads/boiler.md", "old/boiler copy.md"]}


def test_the_command_line_names_a_results_copies(with_copies, capsys):
    from scent import commands

    results = with_copies.search("boiler service", k=1)
    commands._show(results, False, False)
    out = capsys.readouterr().out
    assert f"    also at: {', '.join(results[0].copies)}\n" in out


def test_eval_counts_a_copy_of_the_answer_as_the_answer(with_copies):
    from scent import evaluate

    first = with_copies.search("boiler service", k=1)[0]
    queries = [evaluate.LabelledQuery(id="q1", query="boiler service", category="copies", expect=first.copies[-1])]
    assert evaluate.evaluate(with_copies, queries).queries[0].rank == 1


def test_files_online_only_are_never_opened_and_said_in_one_line(notes, fake_embedder, monkeypatch, request):
    """A cloud folder's placeholder (OneDrive's online-only file, an evicted iCloud one) downloads
    when opened: a new one is skipped unread, an indexed one whose bytes went to the cloud (same size
    and time) stays indexed and is not read again, even for a newer reader."""
    import stat
    from types import SimpleNamespace

    import scent.indexing
    from scent import walk as walking
    from scent.commands import _Skips
    from scent.skipped import ONLINE, cause

    # The marks themselves: macOS's dataless flag, Windows' recall and offline attributes.
    assert walking.online_only(SimpleNamespace(st_flags=0x40000000))
    assert walking.online_only(SimpleNamespace(st_file_attributes=0x400000 | stat.FILE_ATTRIBUTE_ARCHIVE))
    assert walking.online_only(SimpleNamespace(st_file_attributes=stat.FILE_ATTRIBUTE_OFFLINE))
    assert not walking.online_only(SimpleNamespace(st_flags=stat.UF_HIDDEN, st_file_attributes=0x20))
    assert not walking.online_only(os.stat(notes))

    idx, _ = build(notes, fake_embedder)
    (notes / "cloud.md").write_text("Quarterly harbour dues invoice.\n")
    cloudy = {os.stat(notes / "cloud.md").st_ino, os.stat(notes / "lease.md").st_ino}
    monkeypatch.setattr(scent.indexing, "online_only", lambda st: st is not None and st.st_ino in cloudy)
    opened = []
    real_hash = scent.indexing._hash_file
    monkeypatch.setattr(scent.indexing, "_hash_file", lambda path: opened.append(path) or real_hash(path))
    request.getfixturevalue("newer_text_reader")  # a newer reader: the rest are read again
    report = idx.update()
    assert [(p, cause(r)) for p, r in report.skipped] == [("cloud.md", ONLINE)]
    assert not [p for p in opened if p.endswith(("cloud.md", "lease.md"))]
    assert report.updated == 1  # recipe.txt, by the newer reader; lease.md left as it was
    assert idx.search("deposit refund", strategy="keyword")[0].path == "lease.md"
    assert "cloud.md" not in {r.path for r in idx.search("quarterly harbour dues invoice", strategy="keyword")}

    lines = []
    skips = _Skips(lines.append)
    for path, reason in [*report.skipped, ("big.pdf", "text file is 60 MB, over the 50 MB limit"), *report.skipped]:
        skips(path, reason)
    skips.close()
    assert lines[0] == "scent: skipped big.pdf: text file is 60 MB, over the 50 MB limit"
    assert lines[1].startswith("scent: skipped 2 files online only (in the cloud, not on this computer;")
    assert len(lines) == 2


def test_an_index_is_not_made_for_a_folder_that_is_not_there(tmp_path, fake_embedder, monkeypatch):
    monkeypatch.setenv("SCENT_HOME", str(tmp_path / "home"))
    (tmp_path / "note.md").write_text("a note")
    for folder, said in ((tmp_path / "missing", "does not exist"), (tmp_path / "note.md", "is not a folder")):
        with pytest.raises(UsageError, match=said):
            Index(folder, embedder=fake_embedder)
    assert not list((tmp_path / "home").glob("indexes/*"))  # nothing left for `scent list`
    (tmp_path / "gone").mkdir()
    with Index(tmp_path / "gone", embedder=fake_embedder) as idx:
        idx.update()
    (tmp_path / "gone").rmdir()
    with Index(tmp_path / "gone", embedder=fake_embedder) as idx:  # made before: opens without it
        assert idx.search("anything") == []


@pytest.mark.parametrize("call, said", [
    (lambda idx: idx.search("deposit", k="5"), "k must be a whole number, got '5'"),
    (lambda idx: idx.search("deposit", k=2.5), "k must be a whole number"),
    (lambda idx: idx.search("deposit", k=True), "k must be a whole number"),
    (lambda idx: idx.search(None), "the query must be text (str), got NoneType"),
    (lambda idx: idx.search(b"deposit"), "the query must be text (str), got bytes"),
    (lambda idx: idx.search("deposit", filters={"kinds": "pdf"}), "filters must be a scent.Filters"),
    (lambda idx: idx.search("deposit", as_user=0), "as_user must be a user name"),
    (lambda idx: idx.context("deposit", tokens="500"), "tokens must be a whole number"),
    (lambda idx: idx.similar(None), "the path must be text"),
    (lambda idx: idx.similar("lease.md", k=0), "k must be at least 1, got 0"),
])
def test_the_library_says_which_argument_is_wrong(notes, fake_embedder, tmp_path, call, said):
    with Index(notes, index_dir=tmp_path / "ix", embedder=fake_embedder) as idx:
        idx.update()
        with pytest.raises(UsageError) as err:
            call(idx)
    assert said in str(err.value)


def test_a_closed_index_says_so(notes, fake_embedder, tmp_path):
    idx = Index(notes, index_dir=tmp_path / "ix", embedder=fake_embedder)
    idx.update()
    idx.close()
    for call in (lambda: idx.search("deposit"), lambda: idx.similar("lease.md"), lambda: idx.context("deposit")):
        with pytest.raises(UsageError, match="was closed; open it again"):
            call()


def test_strasse_finds_strasse_with_sharp_s_and_back(tmp_path, fake_embedder):
    """Keywords alone, through the real text index: the spelling without ß (Swiss German, an English
    keyboard) finds the note with it, and the other way round."""
    (tmp_path / "berlin.md").write_text("Wir wohnen jetzt in der Leopoldstraße 12, dritter Stock.\n")
    (tmp_path / "zurich.md").write_text("Das Büro ist an der Bahnhofstrasse 40 in Zürich.\n")
    (tmp_path / "other.md").write_text("Nothing about streets here, only a shopping list.\n")
    idx, _ = build(tmp_path, fake_embedder)
    assert [r.path for r in idx.search("Leopoldstrasse", strategy="keyword")] == ["berlin.md"]
    assert [r.path for r in idx.search("Bahnhofstraße", strategy="keyword")] == ["zurich.md"]
    assert [r.path for r in idx.search("Leopoldstraße", strategy="keyword")] == ["berlin.md"]


def test_the_index_size_counts_its_vectors_too(notes, fake_embedder, tmp_path, monkeypatch):
    monkeypatch.setattr("scent.engines.sqlite.vectors.FIRST_SNAPSHOT_ROWS", 1)  # a snapshot of the vectors beside
    idx = Index(notes, index_dir=tmp_path / "ix", embedder=fake_embedder)
    idx.update()
    on_disk = sum(os.path.getsize(os.path.join(top, name)) for top, _, names in os.walk(tmp_path / "ix") for name in names)
    vectors = sum(p.stat().st_size for p in (tmp_path / "ix" / "vectors").rglob("*") if p.is_file())
    assert vectors > 0 and idx.status()["index_bytes"] == on_disk  # the database's files and the vectors
    idx.close()
