"""The vector index in SQLite: named fields of unit vectors.

SQLite holds every vector (as its field's storage says: float32, or int8 codes with a scale).
Search reads a field as its snapshot (memory-mapped files, see snapshot.py) plus the rows
written since, which each reader appends to what it holds instead of loading everything again.
Below `vector_index_threshold` rows search is exact; above it a binary HNSW proposes
`limit x vector_oversample` candidates and the best `rescore_depth` of them are scored exactly
(the float query against the stored codes). A filter is applied to every row the field holds
before any ranking: a filtered-out unit never reaches the list; that includes who may read it
(each row carries its file's readers as a label code, "acl:" + the stored readers).
"""
from __future__ import annotations

import json
import math
import sqlite3
from collections.abc import Callable
from pathlib import Path

import numpy as np

from ...embed import row_dots
from ...errors import IndexVersionError, ScentError
from ...filters import Filters
from ...storage import Hit, VectorField, batched
from . import codes as vcodes
from . import snapshot as snap
from .db import bump, transaction
from .filters import UNIT_DATE, where
from .snapshot import Rows, Snapshot

# A snapshot is written when this many rows came since the last one (at the end of a run), or,
# while a run is writing, when the rows since outnumber max(this x 10, the snapshot's own).
SNAPSHOT_ROWS = 5_000
# ... and, at the end of a run, when at least this many came and outnumber the snapshot's own: a
# small folder's rows are then memory-mapped from a snapshot instead of read from SQLite by every
# fresh search (bench/'s 2,082 sentence rows: 6 ms of a 0.128 s `scent search`, docs/benchmarks.md);
# a large field is still rewritten only every SNAPSHOT_ROWS.
FIRST_SNAPSHOT_ROWS = 1_000
# Rows scored exactly when a filter leaves at most this many (cheaper than asking the HNSW for
# many more candidates than it can give).
EXACT_ROWS = 200_000
# Above this many rows exact search runs on usearch's int8 kernel, then rescores with floats.
SIMD_ROWS = 20_000
# Runs of rows a filter may leave for them to be searched in place, one by one; more are gathered.
MAX_SPANS = 16
NO_LABEL = 0  # the label code of a missing language
NEVER = 2**62  # a row count no field reaches


class SqliteVectors:
    def __init__(self, db: sqlite3.Connection, generation: Callable[[], int], folder: Path, settings=None):
        self.db = db
        self._generation = generation
        self.folder = folder
        self.hnsw_rows = getattr(settings, "vector_index_threshold", 50_000)
        self.storage = getattr(settings, "vector_storage", "int8")
        self._states: dict[str, _FieldState] = {}
        self._since: dict[str, int] = {}  # see _rows_since
        self._labels: dict[str, int] = {}

    # ---- fields ------------------------------------------------------------------------------

    def fields(self) -> dict[str, VectorField]:
        return {r[0]: VectorField(r[0], r[1], r[2], bool(r[3]), r[4]) for r in self.db.execute(
            "SELECT name, model, dims, multi, storage FROM vector_fields")}

    def add_field(self, field: VectorField) -> None:
        """Record a field (stored as `vector_storage` says, unless `field.storage` is given), or
        check that it is the one recorded: another model, size or storage needs a rebuild."""
        storage = field.storage or self.storage
        stored = self.fields().get(field.name)
        if stored is None:
            self.db.execute("INSERT INTO vector_fields VALUES (?, ?, ?, ?, ?)",
                            (field.name, field.model, field.dims, int(field.multi), storage))
        elif (stored.model, stored.dims, stored.multi) != (field.model, field.dims, field.multi):
            raise IndexVersionError(f"this index's {field.name} vectors were made by {stored.model} "
                                    f"({stored.dims} dims), not {field.model} ({field.dims}); re-index with --rebuild")
        elif stored.storage != storage:
            raise IndexVersionError(f"this index keeps its {field.name} vectors as {stored.storage}, not {storage} "
                                    f"(vector_storage); re-index with --rebuild to change how they are kept")

    # ---- writing (inside the engine's transaction) -------------------------------------------

    def put(self, field: str, vectors: dict[int, np.ndarray]) -> None:
        """Add the vectors of `field` for these units; the engine's write removed the ones they had."""
        if not vectors:
            return
        info = self.fields()[field]
        tail = []
        for uid, v in vectors.items():
            for blob in vcodes.encode(np.asarray(v, np.float32).reshape(-1, info.dims), info.storage):
                seq = self.db.execute("INSERT INTO vectors (field, unit_id) VALUES (?, ?)", (field, uid)).lastrowid
                tail.append((seq, blob))
        self.db.executemany("INSERT INTO vector_tail (seq, vector) VALUES (?, ?)", tail)
        if field in self._since:
            self._since[field] += len(tail)

    def delete(self, ids: list[int]) -> None:
        for part in batched(ids):
            self.db.execute(f"DELETE FROM vectors WHERE unit_id IN ({', '.join('?' * len(part))})", part)

    # ---- snapshots (the indexer's, outside any other transaction) ------------------------------

    def maybe_snapshot(self, final: bool) -> bool:
        """Write a new snapshot of each field that has drifted far enough from its last one:
        while writing, when the rows since outnumber the snapshot (so a growing index is
        rewritten a logarithmic number of times); at the end of a run, when SNAPSHOT_ROWS came or
        a fifth of the snapshot was deleted. Returns whether one was written."""
        wrote = False
        for name, field in self.fields().items():
            info = self._snapshot_info(name) or {"seq": 0, "rows": 0, "tomb": 0}
            if final:
                since = self._rows_since(name, info, exact=True)
                dead = self.db.execute("SELECT COUNT(*) FROM vector_tombstones WHERE field = ? AND id > ? "
                                       "AND seq <= ?", (name, info["tomb"], info["seq"])).fetchone()[0]
                due = (since and since >= min(SNAPSHOT_ROWS, self.hnsw_rows, max(FIRST_SNAPSHOT_ROWS, info["rows"]))) \
                    or (info["rows"] and dead >= info["rows"] / 5)
            else:
                due = self._rows_since(name, info) >= max(SNAPSHOT_ROWS * 10, info["rows"])
            if due:
                self.write_snapshot(field, info.get("gen", 0) + 1)
                wrote = True
        if final:
            self._prune_tombstones()
        return wrote

    def _rows_since(self, name: str, info: dict, exact: bool = False) -> int:
        """Rows of a field written since its snapshot: counted once, then kept up by `put` (asked
        after every batch, a count would scan every row since the snapshot each time). Rows deleted
        meanwhile stay counted: a snapshot may come a little early, never late."""
        if exact or name not in self._since:
            self._since[name] = self.db.execute("SELECT COUNT(*) FROM vectors WHERE field = ? AND seq > ?",
                                                (name, info["seq"])).fetchone()[0]
        return self._since[name]

    def write_snapshot(self, field: VectorField, gen: int) -> None:
        """The next snapshot: the live rows of the one in force, then the rows written since."""
        state = self._state(field.name)
        with transaction(self.db, "DEFERRED"):  # one read view for the tombstones, the count and the rows
            tomb = self.db.execute("SELECT COALESCE(MAX(id), 0) FROM vector_tombstones").fetchone()[0]
            old = state.snapshot if state else None
            since = 0
            dead = np.zeros(len(old.rows), bool) if old else None
            if old:
                gone = np.array([r[0] for r in self.db.execute(
                    "SELECT seq FROM vector_tombstones WHERE field = ? AND seq <= ?", (field.name, old.seq))], np.int64)
                dead[np.isin(old.rows.seqs, gone)] = True
                since = old.seq
            after = self.db.execute("SELECT COUNT(*) FROM vectors WHERE field = ? AND seq > ?",
                                    (field.name, since)).fetchone()[0]
            total = (int((~dead).sum()) if old else 0) + after

            def chunks():
                if old:
                    for start in range(0, len(old.rows), snap.READ_ROWS):
                        part = np.arange(start, min(len(old.rows), start + snap.READ_ROWS))
                        yield old.rows.take(part[~dead[part]])
                yield from self._read_rows(field, since)

            kinds, dates = self._row_places(field, since)
            if old:
                kinds = np.concatenate([old.rows.file_kind[~dead], kinds])
                dates = np.concatenate([old.rows.date[~dead], dates])
            # A binary field's first phase is its packed sign bits, read whole (scent.multivector):
            # an HNSW of single rows would not rank pages by MaxSim.
            hnsw_rows = NEVER if field.storage == "binary" else self.hnsw_rows
            info = snap.write(self.folder, field.name, gen, field.dims, chunks(), total, hnsw_rows,
                              place=snap.layout(kinds, dates))
            info["seq"] = max(info["seq"], since)
            units = self.db.execute("SELECT COUNT(DISTINCT unit_id) FROM vectors WHERE field = ? AND seq <= ?",
                                    (field.name, info["seq"])).fetchone()[0]
        info.update(tomb=tomb, units=units)
        with transaction(self.db) as db:
            db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (f"snapshot.{field.name}", json.dumps(info)))
            if field.storage in ("int8", "binary"):
                # The snapshot holds these rows' codes exactly; float32 fields keep their floats here.
                db.execute("DELETE FROM vector_tail WHERE seq IN (SELECT seq FROM vectors WHERE field = ? "
                           "AND seq <= ?)", (field.name, info["seq"]))
            # Tombstones of rows this snapshot no longer holds are no reader's concern once it is in force.
            db.execute("DELETE FROM vector_tombstones WHERE field = ? AND id <= ?", (field.name, tomb))
            bump(db)
        self._since.pop(field.name, None)
        snap.remove_others(self.folder, field.name, gen)

    def _prune_tombstones(self) -> None:
        """Tombstones of rows written after each field's snapshot are only for readers that hold
        those rows; such readers see the pruning mark and read the rows after the snapshot again."""
        infos = {name: (self._snapshot_info(name) or {"seq": 0}) for name in self.fields()}
        with transaction(self.db) as db:
            top = db.execute("SELECT COALESCE(MAX(id), 0) FROM vector_tombstones").fetchone()[0]
            for name, info in infos.items():
                db.execute("DELETE FROM vector_tombstones WHERE field = ? AND seq > ?", (name, info["seq"]))
            db.execute("INSERT OR REPLACE INTO meta VALUES ('tombstones_pruned', ?)", (str(top),))

    def _snapshot_info(self, name: str) -> dict | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (f"snapshot.{name}",)).fetchone()
        return json.loads(row[0]) if row else None

    def _row_places(self, field: VectorField, after_seq: int) -> tuple[np.ndarray, np.ndarray]:
        """File kind and date of the rows `_read_rows` gives, in its order (where each goes in a
        snapshot)."""
        found = self.db.execute(
            f"SELECT f.kind, {UNIT_DATE} FROM vectors v JOIN vector_tail t ON t.seq = v.seq JOIN units u ON u.id = v.unit_id "
            "JOIN files f ON f.id = u.file_id WHERE v.field = ? AND v.seq > ? ORDER BY v.seq",
            (field.name, after_seq)).fetchall()
        return self._codes([r[0] for r in found]), np.fromiter((r[1] for r in found), np.float64, len(found))

    def _read_rows(self, field: VectorField, after_seq: int, chunk: int = snap.READ_ROWS):
        """Rows of `field` with seq > `after_seq` (not yet in a snapshot), with their filter
        attributes, as Rows chunks."""
        cursor = self.db.execute(
            f"SELECT v.seq, v.unit_id, t.vector, u.kind, f.kind, u.lang, {UNIT_DATE}, 'acl:' || f.access, u.until "
            "FROM vectors v "
            "JOIN vector_tail t ON t.seq = v.seq JOIN units u ON u.id = v.unit_id JOIN files f ON f.id = u.file_id "
            "WHERE v.field = ? AND v.seq > ? ORDER BY v.seq", (field.name, after_seq))
        while rows := cursor.fetchmany(chunk):
            codes, scales = vcodes.split([r[2] for r in rows], field.dims, field.storage)
            yield Rows(np.fromiter((r[1] for r in rows), np.int64, len(rows)),
                       np.fromiter((r[0] for r in rows), np.int64, len(rows)),
                       codes, scales, vcodes.norms(codes),
                       self._codes([r[3] for r in rows]), self._codes([r[4] for r in rows]),
                       self._codes([r[5] for r in rows]),
                       np.fromiter((r[6] for r in rows), np.float64, len(rows)), self._codes([r[7] for r in rows]),
                       np.fromiter((np.nan if r[8] is None else r[8] for r in rows), np.float64, len(rows)))

    def record_labels(self, labels: set[str | None]) -> None:
        """Give codes to the kinds and languages of rows being written (in the writer's transaction,
        so every row's labels are in the table before any reader sees the row)."""
        self.db.executemany("INSERT OR IGNORE INTO vector_labels (label) VALUES (?)", [(lb,) for lb in labels if lb])

    def _codes(self, labels: list[str | None]) -> np.ndarray:
        if any(lb and lb not in self._labels for lb in labels):
            self._load_labels()
        return np.fromiter((self._labels[lb] if lb else NO_LABEL for lb in labels), np.uint16, len(labels))

    def _load_labels(self) -> None:
        self._labels = {lb: code for code, lb in self.db.execute("SELECT code, label FROM vector_labels")}

    # ---- reading ----------------------------------------------------------------------------

    def search(self, field: str, query: np.ndarray, filters: Filters, limit: int, dims: int = 0,
               oversample: int = 4, rescore_depth: int = 1000) -> list[Hit]:
        """Units by cosine similarity of their `field` vectors to `query`; a unit with many scores
        by its best one. `dims` > 0 uses only the first `dims` dimensions (what would smaller
        vectors cost), exactly."""
        state = self._state(field)
        if state is None:
            return []
        query = np.asarray(query, np.float32)
        if 0 < dims < len(query):
            query = query[:dims]
        query = query / (np.linalg.norm(query) or 1.0)
        allowed = self._path_ids(filters)
        ids, scores = [], []
        per_unit = state.rows_per_unit
        for rows, dead, index, mean in state.parts():
            keep = self._mask(rows, filters, allowed, dead)
            if not len(rows) or (keep is not None and not keep.any()):
                continue
            if index is not None and not dims and (keep is None or keep.sum() > EXACT_ROWS):
                found = _approximate(rows, index, mean, query, keep, math.ceil(limit * per_unit), oversample,
                                     rescore_depth)
                if found is not None:
                    ids.append(found[0])
                    scores.append(found[1])
                    continue
            rows_at = np.flatnonzero(keep) if keep is not None else None
            got = _exact(rows, rows_at, query, math.ceil(limit * per_unit), dims)
            ids.append(got[0])
            scores.append(got[1])
        if not ids:
            return []
        return _best_per_unit(np.concatenate(ids), np.concatenate(scores), limit)

    def prepare(self, fields: tuple[str, ...]) -> None:
        """Load the fields' snapshots and the rows after them (what `search` reads first): ~4 ms of
        bench/'s 13,000 rows in a fresh process."""
        for name in fields:
            self._state(name)

    def get(self, field: str, ids: list[int]) -> dict[int, np.ndarray]:
        """Each unit's vector of `field` (for a multi field, its (n, dims) matrix), as stored."""
        info = self.fields().get(field)
        if info is None:
            return {}
        rows: dict[int, list[np.ndarray]] = {}
        state = None
        for part in batched(list(ids)):
            found = self.db.execute(
                f"SELECT v.unit_id, v.seq, t.vector FROM vectors v LEFT JOIN vector_tail t ON t.seq = v.seq "
                f"WHERE v.field = ? AND v.unit_id IN ({', '.join('?' * len(part))}) ORDER BY v.seq",
                (field, *part)).fetchall()
            for uid, seq, blob in found:
                if blob is not None:
                    vector = vcodes.decode([blob], info.dims, info.storage)[0]
                else:  # in the snapshot only
                    state = state or self._state(field)
                    rows_ = state.snapshot.rows
                    at = int(state.snapshot.find(np.array([seq]))[0])
                    vector = np.asarray(rows_.codes[at], np.float32) * rows_.scales[at]
                rows.setdefault(uid, []).append(vector)
        return {uid: (np.stack(vs) if info.multi else vs[0]) for uid, vs in rows.items()}

    def multi_search(self, field: str, queries: np.ndarray, filters: Filters, limit: int,
                     first_phase: int = 100) -> list[Hit]:
        """Units by MaxSim of `queries` against their `field` vectors: the hamming MaxSim of the
        sign bits ranks every unit the filter lets through, and its best `first_phase` are scored
        exactly (the float queries against the stored int8 codes). Every unit when there are
        no more than `first_phase`."""
        from ... import multivector as mv  # here: a search without a multi-vector field never needs it

        state = self._state(field)
        if state is None or limit < 1:
            return []
        queries = np.asarray(queries, np.float32).reshape(-1, state.field.dims)
        queries = queries / np.maximum(np.linalg.norm(queries, axis=1, keepdims=True), 1e-12)
        allowed = self._path_ids(filters)
        found = []  # (rows, row numbers in unit order, where each unit begins, unit ids, their sign words, the queries')
        for rows, dead, _index, _mean in state.parts():
            keep = self._mask(rows, filters, allowed, dead)
            if not len(rows) or (keep is not None and not keep.any()):
                continue
            words, mean, order, starts, uids = state.grouped(rows, keep)
            found.append([rows, order, starts, uids, words, mv.words(mv.sign_bits(queries - mean))])
        units = sum(len(f[3]) for f in found)
        if not units:
            return []
        if units > first_phase:
            scores = [mv.hamming_maxsim(f[5], f[4], f[2], state.field.dims) for f in found]
            floor = np.partition(np.concatenate(scores), units - first_phase)[units - first_phase]
            chosen = [np.flatnonzero(sc >= floor) for sc in scores]
        else:
            chosen = [np.arange(len(f[3])) for f in found]
        ids, exact = [], []
        for (rows, order, starts, uids, _words, _query), picked in zip(found, chosen):
            if not len(picked):
                continue
            ends = np.append(starts[1:], len(order))
            at = np.concatenate([order[starts[j]:ends[j]] for j in picked])
            sizes = ends[picked] - starts[picked]
            vectors = np.asarray(rows.codes[at], np.float32) / rows.norms[at][:, None]
            exact.append(mv.maxsim(queries, vectors, np.concatenate([[0], np.cumsum(sizes)[:-1]])))
            ids.append(uids[picked])
        ids, exact = np.concatenate(ids), np.concatenate(exact)
        top = np.argsort(-exact, kind="stable")[:limit]
        return [(int(ids[i]), float(exact[i])) for i in top]

    def count(self, field: str) -> int:
        return self.db.execute("SELECT COUNT(*) FROM vectors WHERE field = ?", (field,)).fetchone()[0]

    def snapshots(self) -> dict[str, dict]:
        return {name: info for name in self.fields() if (info := self._snapshot_info(name))}

    # ---- what a reader holds ------------------------------------------------------------------

    def _state(self, name: str) -> "_FieldState | None":
        generation = self._generation()
        state = self._states.get(name)
        if state is not None and state.generation == generation:
            return state
        field = self.fields().get(name)
        if field is None:
            return None
        for attempt in range(3):
            try:
                state = self._sync(field, state, generation)
                break
            except FileNotFoundError as err:  # the snapshot named a moment ago was replaced meanwhile
                state = None
                if attempt == 2:
                    raise ScentError(f"the index's {name} vectors are missing from {self.folder} ({err.filename}); "
                                     "re-index with --rebuild") from None
            except (ValueError, EOFError, OSError) as err:  # a snapshot's file cut short, emptied or overwritten
                # (numpy's EOFError, escaping, read as Ctrl-C: "scent: interrupted")
                raise ScentError(f"the index's {name} vectors in {self.folder} are damaged ({type(err).__name__}: "
                                 f"{' '.join(str(err).split())[:120]}); re-index with --rebuild") from None
        self._states[name] = state
        return state

    def _sync(self, field: VectorField, state: "_FieldState | None", generation: int) -> "_FieldState":
        own = not self.db.in_transaction
        if own:
            self.db.execute("BEGIN")  # one read view: snapshot, tombstones and rows after it agree
        try:
            info = self._snapshot_info(field.name)
            pruned = int(self.db.execute("SELECT COALESCE((SELECT value FROM meta WHERE key = 'tombstones_pruned'), 0)")
                         .fetchone()[0])
            if state is None or state.gen != (info or {}).get("gen") or state.tomb_seen < pruned:
                snapshot = Snapshot(snap.folder_for(self.folder, field.name, info["gen"]), info) if info else None
                if snapshot is not None and snapshot.rows.access is None:
                    snapshot.rows.access = self._access_of(snapshot.rows.ids)
                state = _FieldState(field, snapshot, (info or {}).get("tomb", 0))
            tombs = self.db.execute("SELECT id, seq FROM vector_tombstones WHERE field = ? AND id > ? ORDER BY id",
                                    (field.name, state.tomb_seen)).fetchall()
            new = list(self._read_rows(field, state.delta_seq))
        finally:
            if own:
                self.db.execute("COMMIT")
        state.apply(tombs, new)
        state.generation = generation
        return state

    def _mask(self, rows: Rows, filters: Filters, allowed: np.ndarray | None, dead: np.ndarray | None):
        """Which rows the filter lets through (None: all of them)."""
        keep = None if dead is None or not dead.any() else ~dead
        if filters.empty:
            return keep
        keep = np.ones(len(rows), bool) if keep is None else keep
        named = (*filters.kinds, *filters.unit_kinds(), *filters.excluded_unit_kinds(), *filter(None, [filters.lang]))
        if any(n not in self._labels for n in named):
            self._load_labels()  # a label the writer recorded after this reader last looked
        label = lambda names: _among([self._labels[n] for n in names if n in self._labels])  # noqa: E731
        if filters.kinds:
            keep &= label(filters.kinds)[rows.file_kind] | label(filters.unit_kinds())[rows.unit_kind]
        if filters.exclude:
            keep &= ~label(filters.excluded_unit_kinds())[rows.unit_kind]
        if filters.after is not None:  # or still running then (NaN: no span)
            keep &= (rows.date >= filters.after) | (rows.until >= filters.after)
        if filters.before is not None:
            keep &= rows.date < filters.before
        if filters.lang:
            keep &= rows.lang == self._labels.get(filters.lang, -1)
        if filters.readers is not None:
            keep &= _among(self._readable(filters.readers))[rows.access]
        if allowed is not None:
            keep &= np.isin(rows.ids, allowed)
        return keep

    def _access_of(self, ids: np.ndarray) -> np.ndarray:
        """The readers' label codes of these units' files (for a snapshot written without them);
        a unit no longer in the catalog is nobody's (its row is dead anyway)."""
        found: dict[int, str] = {}
        for part in batched([int(i) for i in np.unique(ids)]):
            found.update(self.db.execute(
                f"SELECT u.id, 'acl:' || f.access FROM units u JOIN files f ON f.id = u.file_id "
                f"WHERE u.id IN ({', '.join('?' * len(part))})", part))
        return self._codes([found.get(int(i)) for i in ids])

    def _readable(self, readers: tuple[str, ...]) -> list[int]:
        """The label codes of the stored readers that let in one of `readers`."""
        if not any(lb.startswith("acl:") for lb in self._labels):
            self._load_labels()
        wanted = set(readers)
        return [code for lb, code in self._labels.items() if lb.startswith("acl:") and wanted & set(lb[4:].split())]

    def _path_ids(self, filters: Filters) -> np.ndarray | None:
        """Units under the path filter (prefixes and globs are SQLite's to match)."""
        if not filters.path:
            return None
        condition, params = where(Filters(path=filters.path))
        return np.fromiter((r[0] for r in self.db.execute(
            f"SELECT u.id FROM units u JOIN files f ON f.id = u.file_id WHERE {condition}", params)), np.int64)


class _FieldState:
    """A reader's view of one field: its snapshot (with rows deleted since masked) and the rows
    written after it (kept in memory, appended as they come)."""

    def __init__(self, field: VectorField, snapshot: Snapshot | None, tomb_seen: int):
        self.field = field
        self.snapshot = snapshot
        self.gen = snapshot.info["gen"] if snapshot else None
        self.tomb_seen = tomb_seen
        self.dead = np.zeros(len(snapshot.rows), bool) if snapshot else None
        self.delta = Rows.empty(field.dims)
        self.delta_seq = snapshot.seq if snapshot else 0
        self.generation = -1
        self.rows_per_unit = 1.0
        self._grouped: dict[int, tuple] = {}  # id(rows) -> (rows, sign bits, order, starts, unit ids)

    def _rows_per_unit(self) -> float:
        """How many rows make one unit, on average (1 for single-vector fields)."""
        if not self.field.multi:
            return 1.0
        if self.snapshot and self.snapshot.info.get("units"):
            return max(1.0, self.snapshot.info["rows"] / self.snapshot.info["units"])
        n = len(self.delta)
        return max(1.0, n / max(1, _distinct(self.delta.ids))) if n else 1.0

    def apply(self, tombs: list[tuple[int, int]], new: list[Rows]) -> None:
        if tombs:
            seqs = np.array([s for _, s in tombs], np.int64)
            if self.snapshot is not None:
                at = self.snapshot.find(seqs[seqs <= self.snapshot.seq])
                self.dead[at[at >= 0]] = True
            if len(self.delta):
                self.delta = self.delta.take(~np.isin(self.delta.seqs, seqs))
            self.tomb_seen = tombs[-1][0]
        if new:
            self.delta = self.delta.extend(*new)
            self.delta_seq = int(self.delta.seqs[-1])
        self.rows_per_unit = self._rows_per_unit()  # asked by every search: worked out once per change

    def grouped(self, rows: Rows, keep: np.ndarray | None) -> tuple:
        """(centred sign bits of the kept rows as uint64 words, the mean they were centred on,
        those rows' numbers in unit order, where each unit begins, their ids). The bits and the grouping of all rows are
        made once per rows held, not per query."""
        from ... import multivector as mv

        cached = self._grouped.get(id(rows))
        if cached is None or cached[0] is not rows:
            self._grouped = {k: v for k, v in self._grouped.items() if v[0] is self.snapshot_rows()}
            order, starts, uids = mv.groups(np.asarray(rows.ids))
            cached = (rows, *mv.centred_words(rows.codes, rows.norms, order), order, starts, uids)
            self._grouped[id(rows)] = cached
        _, words, mean, order, starts, uids = cached
        if keep is None:
            return words, mean, order, starts, uids
        at = np.flatnonzero(keep[order])
        sub_starts, sub_uids = mv._starts(np.asarray(rows.ids)[order[at]])
        return words[at], mean, order[at], sub_starts, sub_uids

    def snapshot_rows(self) -> Rows | None:
        return self.snapshot.rows if self.snapshot is not None else None

    def parts(self):
        """(rows, dead mask or None, approximate index or None, mean) for the snapshot and the delta."""
        if self.snapshot is not None:
            yield self.snapshot.rows, self.dead, self.snapshot.hnsw, self.snapshot.mean
        if len(self.delta):
            yield self.delta, None, None, None


def _exact(rows: Rows, at: np.ndarray | None, query: np.ndarray, limit: int, dims: int = 0,
           block: int = 32_768) -> tuple[np.ndarray, np.ndarray]:
    """The `limit x 4` best rows (unit ids, cosines) among `at` (None: all), scored exactly."""
    n = len(rows) if at is None else len(at)
    want = min(n, limit * 4)
    if n > SIMD_ROWS and not dims:
        # usearch's int8 kernel ranks the rows (the query rounded to int8 too), and the best few
        # times `want` are scored again with the float query: ~3x faster than numpy's float copy.
        from usearch.index import MetricKind, search as int8_search

        scale = float(np.abs(query).max()) / 127 or 1.0
        query8 = np.rint(query / scale).astype(np.int8)
        spans = [(0, len(rows))] if at is None else _spans(at)
        picked = []
        if spans is None:  # rows scattered: gathered into one matrix
            found = int8_search(np.asarray(rows.codes[at]), query8, min(n, want * 2), MetricKind.Cos, exact=True,
                                threads=1)
            picked.append(at[np.asarray(found.keys, np.int64)[:len(found)]])
        else:  # a few runs of rows (see snapshot.layout): each read in place
            for a, b in spans:
                found = int8_search(np.asarray(rows.codes[a:b]), query8, min(b - a, want * 2), MetricKind.Cos,
                                    exact=True, threads=1)
                picked.append(a + np.asarray(found.keys, np.int64)[:len(found)])
        at_rows = np.sort(np.concatenate(picked))
        scores = row_dots(np.asarray(rows.codes[at_rows], np.float32), query) / rows.norms[at_rows]
        top = np.argpartition(-scores, want - 1)[:want] if len(scores) > want else np.arange(len(scores))
        return np.asarray(rows.ids[at_rows[top]]), scores[top]
    best_scores, best_rows = np.zeros(0, np.float32), np.zeros(0, np.int64)
    for start in range(0, n, block):
        part = np.arange(start, min(n, start + block)) if at is None else at[start:start + block]
        codes = np.asarray(rows.codes[part[0]:part[-1] + 1] if at is None else rows.codes[part], np.float32)
        if dims:
            codes = codes[:, :dims]
            scores = row_dots(codes, query) / np.maximum(np.linalg.norm(codes, axis=1), 1e-6)
        else:
            scores = row_dots(codes, query) / rows.norms[part]
        best_scores = np.concatenate([best_scores, scores])
        best_rows = np.concatenate([best_rows, part])
        if len(best_scores) > want:
            top = np.argpartition(-best_scores, want - 1)[:want]
            best_scores, best_rows = best_scores[top], best_rows[top]
    return np.asarray(rows.ids[best_rows]), best_scores


def _among(codes: list[int]) -> np.ndarray:
    """A table of every uint16 label code, true for `codes`: indexing it with a row attribute is a
    membership test several times faster than np.isin at a million rows."""
    table = np.zeros(1 << 16, bool)
    table[codes] = True
    return table


def _spans(at: np.ndarray, most: int = MAX_SPANS) -> list[tuple[int, int]] | None:
    """`at` (sorted row numbers) as runs of consecutive rows, [start, stop) each; None when there
    are more than `most` of them."""
    breaks = np.flatnonzero(np.diff(at) != 1) + 1
    if len(breaks) >= most:
        return None
    starts = np.concatenate([[0], breaks])
    stops = np.concatenate([breaks, [len(at)]])
    return [(int(at[a]), int(at[b - 1]) + 1) for a, b in zip(starts, stops)]


def _approximate(rows: Rows, index, mean: np.ndarray, query: np.ndarray, keep: np.ndarray | None, limit: int,
                 oversample: int, rescore_depth: int) -> tuple[np.ndarray, np.ndarray] | None:
    """Candidates from the binary HNSW, filtered, the first `rescore_depth` scored exactly and
    the rest placed after them in the HNSW's order; None when a filter leaves too few of them."""
    share = 1.0 if keep is None else max(keep.mean(), 1e-9)
    count = min(len(rows), int(limit * max(1, oversample) / share))
    bits = np.packbits(query - mean > 0)
    found = index.search(bits, count)
    at = np.asarray(found.keys, np.int64)[:len(found)]
    if keep is not None:
        at = at[keep[at]]
        if _distinct(rows.ids[at]) < min(limit, int(keep.sum())):
            return None
    # Rows in file order: the memory-mapped pages are read front to back.
    order, rest = np.sort(at[:rescore_depth]), at[rescore_depth:]
    exact_scores = row_dots(np.asarray(rows.codes[order], np.float32), query) / rows.norms[order]
    if len(rest):
        floor = float(exact_scores.min()) if len(exact_scores) else 0.0
        rest_scores = floor - 1e-6 * np.arange(1, len(rest) + 1, dtype=np.float32)
        return np.concatenate([rows.ids[order], rows.ids[rest]]), np.concatenate([exact_scores, rest_scores])
    return np.asarray(rows.ids[order]), exact_scores


def _distinct(ids: np.ndarray) -> int:
    """How many different ids. (np.unique without return_index imports numpy.ma, 10-20 ms of a
    fresh process's first search.)"""
    return len(np.unique(ids, return_index=True)[0])


def _best_per_unit(ids: np.ndarray, scores: np.ndarray, limit: int) -> list[Hit]:
    order = np.argsort(-scores, kind="stable")
    ids, scores = ids[order], scores[order]
    _, first = np.unique(ids, return_index=True)
    first = np.sort(first)[:limit]
    return [(int(ids[i]), float(scores[i])) for i in first]
