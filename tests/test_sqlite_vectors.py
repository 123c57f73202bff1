"""The SQLite engine's vector snapshots: what a reader holds while another process writes, what
a kill leaves, and int8 codes. The answers every engine gives are in test_engine_contract.py."""
from __future__ import annotations

import numpy as np
import pytest

from scent.engines.sqlite import SqliteEngine, codes, vectors
from scent.errors import ScentError
from scent.filters import Filters
from scent.settings import Settings
from scent.storage import VectorField, text_key, unit_id
from scent.units import FileRecord, FileWrite, UnitRecord

DIMS = 16


def vec(seed: int) -> np.ndarray:
    v = np.random.default_rng(seed).standard_normal(DIMS).astype(np.float32)
    return v / np.linalg.norm(v)


def write(engine: SqliteEngine, path: str, seeds: list[int], kind: str = "text") -> list[int]:
    key = engine.catalog.file_key(path)
    units = [UnitRecord(kind=kind, text=f"unit {s}", text_hash=text_key(f"unit {s}"), page=None, start=0, end=1,
                        title="", lang="en", extra="", ids="", id=unit_id(key, i)) for i, s in enumerate(seeds)]
    engine.write_files([FileWrite(FileRecord(path, kind, 1, 1, "h" + path, 0.0, "", key), units,
                                  {"unit": {u.id: vec(s) for u, s in zip(units, seeds)}})])
    return [u.id for u in units]


def stored(seed: int) -> np.ndarray:
    """vec(seed) as the engine keeps it (int8 codes)."""
    v = codes.decode(codes.encode(vec(seed)[None], "int8"), DIMS, "int8")[0]
    return v / np.linalg.norm(v)


def exact(engine: SqliteEngine, query: np.ndarray, k: int) -> list[int]:
    """The k best units by cosine, worked out here from the vectors as stored."""
    rows = engine.db.execute("SELECT u.id, u.text FROM units u").fetchall()
    scored = sorted(((float(stored(int(text.split()[1])) @ query), uid) for uid, text in rows), reverse=True)
    return [uid for _, uid in scored[:k]]


@pytest.fixture
def approximate(tmp_path, monkeypatch):
    """An engine that writes a snapshot at the end of every run and searches it through its HNSW."""
    monkeypatch.setattr(vectors, "SNAPSHOT_ROWS", 1)
    monkeypatch.setattr(vectors, "EXACT_ROWS", 0)
    eng = SqliteEngine(tmp_path / "index", Settings(vector_index_threshold=0))
    eng.vectors.add_field(VectorField("unit", "test/random", DIMS))
    yield eng
    eng.close()


def test_int8_codes_keep_direction_within_a_step():
    v = np.stack([vec(1), vec(2) * 0.01])  # scale-free: a tiny vector keeps all its bits
    back = codes.decode(codes.encode(v, "int8"), DIMS, "int8")
    assert np.abs(back - v).max(axis=1).tolist() <= (np.abs(v).max(axis=1) / 127 / 2 + 1e-7).tolist()
    cos = (back * v).sum(axis=1) / np.linalg.norm(back, axis=1) / np.linalg.norm(v, axis=1)
    assert cos.min() > 0.999
    assert len(codes.encode(v, "int8")[0]) == 4 + DIMS  # a float32 scale and a byte a dimension


def test_a_reader_sees_snapshot_delta_and_deletions(approximate, tmp_path):
    first = write(approximate, "a.md", list(range(0, 40)))
    approximate.finish_run()  # snapshot 1 holds a.md
    info = approximate.vectors.snapshots()["unit"]
    assert info["rows"] == 40 and info["hnsw"]
    assert approximate.db.execute("SELECT COUNT(*) FROM vector_tail").fetchone() == (0,)  # int8: in the snapshot only
    reader = SqliteEngine(tmp_path / "index", Settings(vector_index_threshold=0))
    try:
        q = vec(7)
        assert [u for u, _ in reader.vectors.search("unit", q, Filters(), 5)] == exact(approximate, q, 5)
        second = write(approximate, "b.md", list(range(100, 120)))  # the delta, no snapshot yet
        approximate.delete_files(["a.md"])  # tombstones for every snapshot row
        got = [u for u, _ in reader.vectors.search("unit", q, Filters(), 30)]
        assert set(got) == set(second) and got == exact(approximate, q, 20)[:len(got)]
        approximate.finish_run()  # snapshot 2: b.md only; a.md's tombstones go
        assert approximate.vectors.snapshots()["unit"]["rows"] == 20
        assert approximate.db.execute("SELECT COUNT(*) FROM vector_tombstones").fetchone() == (0,)
        assert [u for u, _ in reader.vectors.search("unit", q, Filters(), 5)] == exact(approximate, q, 5)
        # A vector only the snapshot holds comes back as it was written, within int8's step.
        assert np.allclose(reader.vectors.get("unit", [second[3]])[second[3]], vec(103), atol=1 / 127)
        assert not set(first) & set(reader.vectors.get("unit", first))
    finally:
        reader.close()


def test_filters_mask_snapshot_rows_before_ranking(approximate):
    texts = write(approximate, "notes.md", list(range(0, 30)))
    pdfs = write(approximate, "scan.pdf", list(range(30, 60)), kind="pdf_page")
    approximate.finish_run()
    q = vec(3)
    got = [u for u, _ in approximate.vectors.search("unit", q, Filters.build(kinds=["pdf"]), 5)]
    assert len(got) == 5 and set(got) <= set(pdfs)
    assert [u for u, _ in approximate.vectors.search("unit", q, Filters(exclude=("pdf_page",)), 40)] == \
        [u for u in exact(approximate, q, 60) if u in set(texts)]


def test_a_killed_snapshot_leaves_the_last_one_in_force(approximate, monkeypatch):
    write(approximate, "a.md", list(range(10)))
    approximate.finish_run()
    write(approximate, "b.md", list(range(10, 15)))  # fewer than the snapshot: no new one while writing

    def killed(*args, **kwargs):
        raise KeyboardInterrupt  # as if the process died while writing the files

    monkeypatch.setattr(vectors.snap, "write", killed)
    with pytest.raises(KeyboardInterrupt):
        approximate.finish_run()
    monkeypatch.undo()
    assert approximate.vectors.snapshots()["unit"]["gen"] == 1
    q = vec(12)
    assert [u for u, _ in approximate.vectors.search("unit", q, Filters(), 20)] == exact(approximate, q, 20)


def test_missing_vector_files_say_what_to_do(approximate, tmp_path):
    import shutil

    write(approximate, "a.md", list(range(10)))
    approximate.finish_run()
    shutil.rmtree(tmp_path / "index" / "vectors")
    fresh = SqliteEngine(tmp_path / "index", Settings())
    try:
        with pytest.raises(ScentError, match="re-index with --rebuild"):
            fresh.vectors.search("unit", vec(1), Filters(), 5)
    finally:
        fresh.close()


@pytest.mark.parametrize("damage", ["emptied", "cut short", "overwritten"])
def test_damaged_vector_files_say_what_to_do(approximate, tmp_path, damage):
    # An emptied .npy made numpy raise EOFError, which the CLI took for Ctrl-C ("scent: interrupted").
    write(approximate, "a.md", list(range(10)))
    approximate.finish_run()
    for npy in (tmp_path / "index" / "vectors").rglob("*.npy"):
        data = npy.read_bytes()
        npy.write_bytes({"emptied": b"", "cut short": data[: len(data) // 3],
                         "overwritten": b"\x00" * 128 + data[128:]}[damage])
    fresh = SqliteEngine(tmp_path / "index", Settings())
    try:
        with pytest.raises(ScentError, match=r"vectors in .* are damaged \(.*\); re-index with --rebuild$"):
            fresh.vectors.search("unit", vec(1), Filters(), 5)
    finally:
        fresh.close()


def test_the_int8_kernel_ranks_as_exact_search_does(tmp_path, monkeypatch):
    """Above SIMD_ROWS rows exact search runs on usearch's int8 kernel, then rescores with floats."""
    eng = SqliteEngine(tmp_path / "index", Settings())
    eng.vectors.add_field(VectorField("unit", "test/random", DIMS))
    try:
        pdfs = write(eng, "scan.pdf", list(range(100)), kind="pdf_page")
        write(eng, "notes.md", list(range(100, 300)))
        q = vec(1234)
        plain = [u for u, _ in eng.vectors.search("unit", q, Filters(), 20)]
        filtered = [u for u, _ in eng.vectors.search("unit", q, Filters.build(kinds=["pdf"]), 20)]
        monkeypatch.setattr(vectors, "SIMD_ROWS", 0)
        eng.vectors._states.clear()
        assert [u for u, _ in eng.vectors.search("unit", q, Filters(), 20)] == plain == exact(eng, q, 20)
        assert [u for u, _ in eng.vectors.search("unit", q, Filters.build(kinds=["pdf"]), 20)] == filtered
        assert set(filtered) <= set(pdfs)
    finally:
        eng.close()


def test_a_run_gives_back_the_pages_its_snapshot_freed(approximate):
    # Once a snapshot holds int8 rows their blobs leave vector_tail; finish_run returns those
    # pages to the file system instead of leaving them on the free list.
    for n in range(40):
        write(approximate, f"f{n}.md", list(range(n * 30, n * 30 + 30)))
    approximate.finish_run()
    assert approximate.db.execute("SELECT COUNT(*) FROM vector_tail").fetchone() == (0,)
    assert approximate.db.execute("PRAGMA freelist_count").fetchone() == (0,)


def _dated(engine, path, seeds, file_kind, unit_kind, date):
    key = engine.catalog.file_key(path)
    units = [UnitRecord(kind=unit_kind, text=f"unit {s}", text_hash=text_key(f"unit {s}"), page=None, start=0, end=1,
                        title="", lang="en", extra="", ids="", id=unit_id(key, i)) for i, s in enumerate(seeds)]
    engine.write_files([FileWrite(FileRecord(path, file_kind, 1, 1, "h" + path, date, "", key), units,
                                  {"unit": {u.id: vec(s) for u, s in zip(units, seeds)}})])
    return [u.id for u in units]


def test_spans_are_runs_of_consecutive_rows():
    assert vectors._spans(np.array([3, 4, 5, 9, 10, 20])) == [(3, 6), (9, 11), (20, 21)]
    assert vectors._spans(np.array([7])) == [(7, 8)]
    assert vectors._spans(np.array([1, 3, 5]), most=2) is None  # three runs: gathered instead


def test_a_snapshot_is_laid_out_by_kind_then_date_and_filtered_search_reads_runs_in_place(tmp_path, monkeypatch):
    """Files written in mixed order; in the snapshot a kind's rows are one run in date order, so a
    kind+date filter leaves one run, searched in place. Every way of reading it ranks the same."""
    monkeypatch.setattr(vectors, "SNAPSHOT_ROWS", 1)
    eng = SqliteEngine(tmp_path / "index", Settings())
    eng.vectors.add_field(VectorField("unit", "test/random", DIMS))
    try:
        written = {}
        for n, (fk, uk) in enumerate([("text", "text"), ("pdf", "pdf_page"), ("code", "code")] * 10):
            date = 1.6e9 + ((n * 7) % 30) * 86400.0  # dates out of writing order
            written[f"f{n}"] = (fk, date, _dated(eng, f"f{n}.{fk}", list(range(n * 10, n * 10 + 10)), fk, uk, date))
        eng.finish_run()
        snapshot = eng.vectors._state("unit").snapshot
        rows = snapshot.rows
        labels = eng.vectors._labels
        keyed = list(zip(rows.file_kind.tolist(), rows.date.tolist()))
        assert keyed == sorted(keyed) and len(keyed) == 300
        assert np.array_equal(np.sort(rows.seqs), np.arange(1, 301))
        # find() maps seqs to rows although rows are not in seq order
        assert np.array_equal(rows.seqs[snapshot.find(np.array([5, 150, 299]))], [5, 150, 299])
        assert snapshot.find(np.array([10_000]))[0] == -1
        pdf_rows = np.flatnonzero(rows.file_kind == labels["pdf"])
        assert pdf_rows[-1] - pdf_rows[0] + 1 == len(pdf_rows) == 100  # one run
        # a vector read back from the snapshot is the one written
        some = written["f4"][2][3]
        assert np.allclose(eng.vectors.get("unit", [some])[some], vec(43), atol=1 / 127)

        q = vec(4242)
        after, before = 1.6e9 + 5 * 86400.0, 1.6e9 + 20 * 86400.0
        f = Filters(kinds=("pdf",), after=after, before=before)
        want_ids = {u for fk, date, ids in written.values() if fk == "pdf" and after <= date < before for u in ids}
        want = [u for u in exact(eng, q, 300) if u in want_ids][:20]
        calls = []
        real = vectors._spans
        monkeypatch.setattr(vectors, "_spans", lambda at, most=vectors.MAX_SPANS: calls.append(real(at, most))
                            or calls[-1])
        monkeypatch.setattr(vectors, "SIMD_ROWS", 0)
        assert [u for u, _ in eng.vectors.search("unit", q, f, 20)] == want
        assert len(calls[-1]) == 1  # the filter left one run
        monkeypatch.setattr(vectors, "MAX_SPANS", 0)  # gathered instead
        assert [u for u, _ in eng.vectors.search("unit", q, f, 20)] == want
        # deleting a file masks its rows at their new places
        name, (kind, _, gone) = next((n, w) for n, w in written.items() if set(w[2]) & set(want))
        eng.delete_files([f"{name}.{kind}"])
        got = [u for u, _ in eng.vectors.search("unit", q, f, 20)]
        assert not set(got) & set(gone) and got == [u for u in exact(eng, q, 300) if u in want_ids - set(gone)][:20]
    finally:
        eng.close()


def test_a_small_field_gets_its_first_snapshot_early_and_a_large_one_every_snapshot_rows(tmp_path, monkeypatch):
    """At the end of a run: a snapshot once FIRST_SNAPSHOT_ROWS rows came and outnumber the one in
    force, or SNAPSHOT_ROWS came, whichever is fewer."""
    monkeypatch.setattr(vectors, "FIRST_SNAPSHOT_ROWS", 10)
    monkeypatch.setattr(vectors, "SNAPSHOT_ROWS", 50)
    eng = SqliteEngine(tmp_path / "index", Settings())
    try:
        eng.vectors.add_field(VectorField("unit", "test/random", DIMS))
        write(eng, "a.md", list(range(9)))
        eng.finish_run()
        assert "unit" not in eng.vectors.snapshots()  # 9 rows: read from SQLite
        write(eng, "b.md", list(range(100, 112)))
        eng.finish_run()
        assert eng.vectors.snapshots()["unit"]["rows"] == 21  # 21 since: the first snapshot
        write(eng, "c.md", list(range(200, 220)))
        eng.finish_run()
        assert eng.vectors.snapshots()["unit"]["rows"] == 21  # 20 since, under the snapshot's own 21
        write(eng, "d.md", list(range(300, 302)))
        eng.finish_run()
        assert eng.vectors.snapshots()["unit"]["rows"] == 43  # 22 since: more than the snapshot's 21
        write(eng, "e.md", list(range(400, 449)))
        eng.finish_run()
        assert eng.vectors.snapshots()["unit"]["rows"] == 92  # 49 since: more than 43
        write(eng, "f.md", list(range(500, 549)))
        eng.finish_run()
        assert eng.vectors.snapshots()["unit"]["rows"] == 92  # 49 since: under SNAPSHOT_ROWS (50)
        write(eng, "g.md", [600])
        eng.finish_run()
        assert eng.vectors.snapshots()["unit"]["rows"] == 142  # 50 since
    finally:
        eng.close()


def test_a_new_index_gives_back_free_pages_and_opening_one_writes_nothing(tmp_path):
    engine = SqliteEngine(tmp_path, Settings())
    engine.vectors.add_field(VectorField("unit", "test/random", DIMS))
    write(engine, "a.md", [1, 2])
    engine.close()
    db = tmp_path / "index.db"
    stamp = db.stat().st_mtime_ns, db.stat().st_size
    engine = SqliteEngine(tmp_path, Settings())
    # incremental: 2. Set on a file with tables, the pragma wrote its header again, and an index on
    # a full disk could not be opened to search (tests/test_crash.py's full disk).
    assert engine.db.execute("PRAGMA auto_vacuum").fetchone() == (2,)
    assert (tmp_path / "index.db-wal").stat().st_size == 0
    engine.close()
    assert (db.stat().st_mtime_ns, db.stat().st_size) == stamp
