"""The embedded store: one SQLite file (WAL) holding files, units, FTS5 indexes and vectors.

Vectors live in SQLite too, so one transaction covers a file's units and vectors; for search
they are loaded once into a numpy matrix (exact cosine is fast enough below ~1M units) and
reloaded only when the index generation changes.
"""
from __future__ import annotations

import os
import sqlite3
import time
from contextlib import contextmanager

import numpy as np
from rapidfuzz.distance import Levenshtein

from .errors import IndexVersionError, ScentError
from .filters import Filters
from .migrations import migrate
from .query import KeywordQuery, extra_tokens, match_expression, required_terms
from .store import FileRecord, FileState, Hit, StoredUnit, UnitRecord, text_key
from .units import PICTURE_KINDS

# bm25 column weights for (text, title, path, extra)
BM25_WEIGHTS = (1.0, 1.0, 1.0, 0.5)
FUZZY_MIN_LENGTH = 6  # one wrong character in a shorter code matches too much
FUZZY_CANDIDATES = 500


class SqliteStore:
    def __init__(self, path: str, model_id: str, dim: int):
        self.path = path
        self.model_id = model_id
        self.dim = dim
        try:
            self.db = sqlite3.connect(path, isolation_level=None, timeout=30, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.execute("PRAGMA foreign_keys=ON")
            migrate(self.db)
        except sqlite3.DatabaseError as err:
            raise ScentError(f"cannot open the index at {path}: {err}; delete that folder and re-index") from None
        self._check_model()
        self._matrix: tuple[int, np.ndarray, np.ndarray] | None = None
        self._pictures: tuple[int, np.ndarray, np.ndarray] | None = None  # the same, of picture vectors
        self._own = 0  # rows of the matrix that are units' own vectors (the rest are parts')
        self._cut: tuple = (None, None)

    def _check_model(self) -> None:
        stored = self.meta("model")
        if stored is None:
            with self.transaction():
                self._set_meta("model", self.model_id)
                self._set_meta("dim", str(self.dim))
        elif stored != self.model_id:
            raise IndexVersionError(
                f"this index was built with {stored}, not {self.model_id}; re-index with --rebuild")

    @contextmanager
    def transaction(self):
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    def meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        with self.transaction():
            self._set_meta(key, value)

    def _set_meta(self, key: str, value: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def _bump(self) -> None:
        self.db.execute("INSERT INTO meta VALUES ('generation', '1') "
                        "ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1")

    # ---- writing -------------------------------------------------------------------------

    def file_states(self) -> dict[str, FileState]:
        return {r[0]: FileState(*r) for r in self.db.execute("SELECT path, size, mtime_ns, hash FROM files")}

    def write_file(self, file: FileRecord, units: list[UnitRecord], vectors: dict[str, np.ndarray],
                   suggestions: list[str] | None = None, warnings: list[str] = (),
                   pictures: dict[str, np.ndarray] | None = None) -> None:
        """The file, its units, their new vectors (and new picture vectors), its example queries and
        what was left out of it (`warnings`), in one transaction."""
        with self.transaction() as db:
            db.execute("DELETE FROM units WHERE file_id = (SELECT id FROM files WHERE path = ?)", (file.path,))
            db.execute(
                "INSERT INTO files (path, kind, size, mtime_ns, hash, date, title, indexed_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(path) DO UPDATE SET kind = excluded.kind, "
                "size = excluded.size, mtime_ns = excluded.mtime_ns, hash = excluded.hash, date = excluded.date, "
                "title = excluded.title, indexed_at = excluded.indexed_at",
                (file.path, file.kind, file.size, file.mtime_ns, file.hash, file.date, file.title, time.time()))
            file_id = db.execute("SELECT id FROM files WHERE path = ?", (file.path,)).fetchone()[0]
            db.executemany(
                "INSERT OR IGNORE INTO embeddings VALUES (?, ?, ?)",
                [(h, self.model_id, _pack(v)) for h, v in vectors.items()])
            path_text = _path_text(file.path)
            for u in units:
                unit_id = db.execute(
                    'INSERT INTO units (file_id, kind, page, start, "end", title, lang, text, text_hash, path, extra, ids) '
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (file_id, u.kind, u.page, u.start, u.end, u.title, u.lang, u.text, u.text_hash, path_text,
                     u.extra, u.ids)).lastrowid
                if u.parts:
                    db.executemany("INSERT INTO unit_parts VALUES (?, ?)", [(unit_id, text_key(p)) for p in u.parts])
                if u.picture:
                    db.execute("INSERT INTO unit_pictures VALUES (?, ?)", (unit_id, u.picture))
            if pictures:
                model = self.meta("picture_model_id")
                db.executemany("INSERT OR IGNORE INTO picture_vectors VALUES (?, ?, ?)",
                               [(key, model, _pack(v)) for key, v in pictures.items()])
            db.execute("DELETE FROM suggestions WHERE file_id = ?", (file_id,))
            db.executemany("INSERT INTO suggestions (file_id, text) VALUES (?, ?)",
                           [(file_id, text) for text in suggestions or ()])
            db.execute("DELETE FROM errors WHERE path = ?", (file.path,))
            if warnings:
                db.execute("INSERT INTO errors (path, reason, at, level) VALUES (?, ?, ?, 'warning')",
                           (file.path, "; ".join(warnings), time.time()))
            self._bump()

    def rename_file(self, old: str, new: FileState) -> None:
        with self.transaction() as db:
            db.execute("UPDATE files SET path = ?, size = ?, mtime_ns = ? WHERE path = ?",
                       (new.path, new.size, new.mtime_ns, old))
            db.execute("UPDATE units SET path = ? WHERE file_id = (SELECT id FROM files WHERE path = ?)",
                       (_path_text(new.path), new.path))
            self._bump()

    def touch_file(self, state: FileState) -> None:
        with self.transaction() as db:
            db.execute("UPDATE files SET size = ?, mtime_ns = ? WHERE path = ?",
                       (state.size, state.mtime_ns, state.path))

    def delete_files(self, paths: list[str]) -> None:
        if not paths:
            return
        with self.transaction() as db:
            for path in paths:
                db.execute("DELETE FROM units WHERE file_id = (SELECT id FROM files WHERE path = ?)", (path,))
                db.execute("DELETE FROM files WHERE path = ?", (path,))
                db.execute("DELETE FROM errors WHERE path = ?", (path,))
            self._bump()

    def record_error(self, path: str, reason: str) -> None:
        with self.transaction() as db:
            db.execute("INSERT OR REPLACE INTO errors (path, reason, at) VALUES (?, ?, ?)",
                       (path, reason, time.time()))

    def prune_errors(self, present: set[str]) -> None:
        """Forget errors of files that are gone: they can no longer be fixed or retried."""
        stale = [p for (p,) in self.db.execute("SELECT path FROM errors") if p not in present]
        if stale:
            with self.transaction() as db:
                db.executemany("DELETE FROM errors WHERE path = ?", [(p,) for p in stale])

    def cached_hashes(self, hashes: list[str]) -> set[str]:
        return self._stored_keys("embeddings", "text_hash", self.model_id, hashes)

    def _stored_keys(self, table: str, column: str, model: str | None, keys: list[str]) -> set[str]:
        """Which of `keys` already have a vector of `model` in `table` (asked 500 at a time)."""
        found: set[str] = set()
        for i in range(0, len(keys), 500):
            part = keys[i:i + 500]
            found.update(r[0] for r in self.db.execute(
                f"SELECT {column} FROM {table} WHERE model = ? AND {column} IN ({', '.join('?' * len(part))})",
                (model, *part)))
        return found

    def use_picture_model(self, name: str, model_id: str, dim: int) -> None:
        """Record the image-text model of this index's picture vectors, or refuse another one.

        An index that already has pictures but no picture vectors is refused too: its pictures
        would not be read again (unchanged files are not), so only some would have vectors.
        """
        stored = self.meta("picture_model_id")
        if stored == model_id:
            return
        if stored is not None:
            raise IndexVersionError(f"this index's pictures were embedded with {stored}, not {model_id} "
                                    f"(image_text_model {name}); re-index with --rebuild")
        if self.db.execute(f"SELECT 1 FROM units WHERE kind IN ({', '.join('?' * len(PICTURE_KINDS))}) LIMIT 1",
                           PICTURE_KINDS).fetchone():
            raise IndexVersionError(f"this index was built without an image_text_model; re-index with --rebuild "
                                    f"to embed its pictures with {name}")
        with self.transaction():
            self._set_meta("image_text_model", name)
            self._set_meta("picture_model_id", model_id)
            self._set_meta("picture_dim", str(dim))

    def picture_model(self) -> str | None:
        return self.meta("image_text_model")

    def cached_pictures(self, keys: list[str]) -> set[str]:
        return self._stored_keys("picture_vectors", "key", self.meta("picture_model_id"), keys)

    def finish_run(self) -> None:
        """Forget vectors no unit uses any more and note when the run ended."""
        with self.transaction() as db:
            db.execute("DELETE FROM embeddings WHERE text_hash NOT IN "
                       "(SELECT text_hash FROM units UNION SELECT text_hash FROM unit_parts)")
            db.execute("DELETE FROM picture_vectors WHERE key NOT IN (SELECT key FROM unit_pictures)")
            self._set_meta("last_indexed", str(time.time()))
        self.db.execute("PRAGMA wal_checkpoint(PASSIVE)")

    # ---- reading -------------------------------------------------------------------------

    def keyword_search(self, query: KeywordQuery, mode: str, min_share: str, filters: Filters,
                       limit: int) -> list[Hit]:
        if mode == "and_or":
            first = self.keyword_search(query, "and", min_share, filters, limit)
            if len(first) >= limit or len(query.terms) < 2:
                return first
            seen = {uid for uid, _ in first}
            rest = [h for h in self.keyword_search(query, "or", min_share, filters, limit) if h[0] not in seen]
            return (first + rest)[:limit]
        if mode == "min_share":
            need = required_terms(len(query.terms), min_share)
            hits = self.keyword_search(query, "or", min_share, filters, limit * 5)
            if need <= 1 or not hits:
                return hits[:limit]
            counts = self._terms_matched(query, [uid for uid, _ in hits])
            return [h for h in hits if counts.get(h[0], 0) >= need][:limit]
        expression = match_expression(query, mode)
        if expression is None:
            return []
        sql, params = keyword_sql(expression, filters, limit)
        try:
            return [(uid, -score) for uid, score in self.db.execute(sql, params)]
        except sqlite3.OperationalError as err:  # quoting makes this unreachable; say so loudly if not
            raise ScentError(f"keyword search failed for {expression!r}: {err}") from None

    def _terms_matched(self, query: KeywordQuery, uids: list[int]) -> dict[int, int]:
        # One plain MATCH per term, intersected here: a `rowid IN (...)` condition would make
        # FTS5 evaluate the term once per candidate row.
        wanted = set(uids)
        counts: dict[int, int] = {}
        for term in query.terms:
            for (uid,) in self.db.execute("SELECT rowid FROM units_fts WHERE units_fts MATCH ?", (term.fts,)):
                if uid in wanted:
                    counts[uid] = counts.get(uid, 0) + 1
        return counts

    def id_search(self, ids: tuple[str, ...], filters: Filters, limit: int) -> list[Hit]:
        """Units holding each ID exactly (score 2), or, for an ID found nowhere, one character off (score 1)."""
        where, params = filters.sql()
        scores: dict[int, float] = {}
        for token in ids:
            exact = self._id_candidates(f'"{token}"', where, params, FUZZY_CANDIDATES)
            found = {uid for uid, toks in exact if token in toks}
            if not found and len(token) >= FUZZY_MIN_LENGTH:
                grams = dict.fromkeys(token[i:i + 3] for i in range(len(token) - 2))
                near = self._id_candidates(" OR ".join(f'"{g}"' for g in grams), where, params, FUZZY_CANDIDATES)
                found = {uid for uid, toks in near
                         if any(abs(len(t) - len(token)) <= 1 and Levenshtein.distance(t, token, score_cutoff=1) <= 1
                                for t in toks)}
                weight = 1.0
            else:
                weight = 2.0
            for uid in found:
                scores[uid] = scores.get(uid, 0.0) + weight
        return sorted(scores.items(), key=lambda h: (-h[1], h[0]))[:limit]

    def _id_candidates(self, expression: str, where: str, params: list, limit: int) -> list[tuple[int, list[str]]]:
        sql = (f"SELECT u.id, u.ids FROM ids_fts JOIN units u ON u.id = ids_fts.rowid JOIN files f ON f.id = u.file_id "
               f"WHERE ids_fts MATCH ? AND {where} ORDER BY rank LIMIT ?")
        return [(uid, text.split()) for uid, text in self.db.execute(sql, (expression, *params, limit))]

    def dense_search(self, vector: np.ndarray, filters: Filters, limit: int, dims: int = 0) -> list[Hit]:
        """Units by cosine similarity, each scored by the best of its own vector and its parts'."""
        ids, matrix = self._load_matrix()
        if not len(ids):
            return []
        if 0 < dims < self.dim:
            matrix, vector = self._truncated(dims), vector[:dims] / (np.linalg.norm(vector[:dims]) or 1.0)
        return self._best(ids, matrix @ vector.astype(np.float32), filters, limit)

    def picture_search(self, vector: np.ndarray, filters: Filters, limit: int) -> list[Hit]:
        """Picture units by cosine similarity of their picture vector to `vector` (a query embedded
        by the index's image-text model), under the same filters as dense search."""
        generation = int(self.meta("generation") or 0)
        if self._pictures is None or self._pictures[0] != generation:
            rows = self.db.execute(
                "SELECT p.unit_id, v.vector FROM unit_pictures p JOIN picture_vectors v ON v.key = p.key "
                "AND v.model = ? ORDER BY p.unit_id", (self.meta("picture_model_id"),)).fetchall()
            self._pictures = (generation, *_stacked(rows, int(self.meta("picture_dim") or 0)))
        _, ids, matrix = self._pictures
        if not len(ids):
            return []
        return self._best(ids, matrix @ vector.astype(np.float32), filters, limit)

    def _best(self, ids: np.ndarray, scores: np.ndarray, filters: Filters, limit: int) -> list[Hit]:
        """The `limit` best units of rows (unit id, score) under `filters`, each by its best row."""
        if not filters.empty:
            where, params = filters.sql()
            allowed = np.fromiter((r[0] for r in self.db.execute(
                f"SELECT u.id FROM units u JOIN files f ON f.id = u.file_id WHERE {where}", params)), dtype=np.int64)
            scores = np.where(np.isin(ids, allowed), scores, -np.inf)
        # Rows of the same unit crowd the top, so take a few times `limit` rows before sorting
        # (a full sort only when those hold too few units).
        take = min(len(scores), limit * 4)
        while True:
            top = np.argpartition(-scores, take - 1)[:take] if take < len(scores) else np.arange(len(scores))
            order = top[np.argsort(-scores[top], kind="stable")]
            # A unit's first row in score order is its best vector.
            _, first = np.unique(ids[order], return_index=True)
            best = order[np.sort(first)]
            best = best[np.isfinite(scores[best])]
            if len(best) >= limit or take >= len(scores):
                break
            take = min(len(scores), take * 4)
        return [(int(ids[i]), float(scores[i])) for i in best[:limit]]

    def _load_matrix(self) -> tuple[np.ndarray, np.ndarray]:
        """(unit id per row, vectors): first each unit's own vector in unit order (so `vectors`
        can find it by position), then the vectors of units' parts."""
        generation = int(self.meta("generation") or 0)
        if self._matrix is None or self._matrix[0] != generation:
            rows = self.db.execute(
                "SELECT u.id, e.vector FROM units u JOIN embeddings e ON e.text_hash = u.text_hash AND e.model = ? "
                "ORDER BY u.id", (self.model_id,)).fetchall()
            self._own = len(rows)
            rows += self.db.execute(
                "SELECT p.unit_id, e.vector FROM unit_parts p JOIN embeddings e ON e.text_hash = p.text_hash "
                "AND e.model = ? ORDER BY p.unit_id", (self.model_id,)).fetchall()
            self._matrix = (generation, *_stacked(rows, self.dim))
        return self._matrix[1], self._matrix[2]

    def _truncated(self, dims: int) -> np.ndarray:
        """The matrix cut to its first `dims` columns, rows re-normalised; cached per generation."""
        key = (self._matrix[0], dims)
        if self._cut[0] != key:
            cut = self._matrix[2][:, :dims]
            norms = np.linalg.norm(cut, axis=1, keepdims=True)
            self._cut = (key, cut / np.where(norms == 0, 1, norms))
        return self._cut[1]

    def units(self, ids: list[int]) -> dict[int, StoredUnit]:
        out: dict[int, StoredUnit] = {}
        for i in range(0, len(ids), 500):
            part = list(ids[i:i + 500])
            for row in self.db.execute(
                    'SELECT u.id, f.path, f.kind, u.kind, u.page, u.start, u."end", u.title, u.lang, u.text, f.date '
                    f"FROM units u JOIN files f ON f.id = u.file_id WHERE u.id IN ({', '.join('?' * len(part))})", part):
                out[row[0]] = StoredUnit(*row)
        return out

    def file_units(self, path: str) -> list[StoredUnit] | None:
        """The units of the indexed file `path` in reading order; None when `path` is not in the index."""
        row = self.db.execute("SELECT id FROM files WHERE path = ?", (path,)).fetchone()
        if row is None:
            return None
        ids = [r[0] for r in self.db.execute("SELECT id FROM units WHERE file_id = ?", (row[0],))]
        found = self.units(ids)
        return sorted(found.values(), key=lambda u: (u.page or 0, u.start, u.id))

    def vectors(self, ids: list[int]) -> dict[int, np.ndarray]:
        all_ids, matrix = self._load_matrix()
        pos = {int(u): i for i, u in enumerate(all_ids[:self._own])}
        return {u: matrix[pos[u]] for u in ids if u in pos}

    def suggestions(self, limit: int) -> list[dict]:
        """Up to `limit` example queries `{"text", "path"}` from different files and kinds.

        Deterministic: per file kind, files in the order of their content hash (a fixed shuffle);
        round one takes each kind's first file's first suggestion, then each kind's second file,
        and so on; later rounds take files' second suggestions.
        """
        if limit < 1:
            return []
        files = self.db.execute(
            "SELECT id, path, kind FROM (SELECT id, path, kind, "
            "ROW_NUMBER() OVER (PARTITION BY kind ORDER BY hash, path) AS r "
            "FROM files WHERE id IN (SELECT file_id FROM suggestions)) WHERE r <= ? ORDER BY kind, r",
            (limit,)).fetchall()
        texts: dict[int, list[str]] = {}
        for i in range(0, len(files), 500):
            part = [f[0] for f in files[i:i + 500]]
            for file_id, text in self.db.execute(
                    f"SELECT file_id, text FROM suggestions WHERE file_id IN ({', '.join('?' * len(part))}) "
                    "ORDER BY file_id, rowid", part):
                texts.setdefault(file_id, []).append(text)
        by_kind: dict[str, list[tuple[int, str]]] = {}
        for file_id, path, kind in files:
            by_kind.setdefault(kind, []).append((file_id, path))
        out: dict[str, dict] = {}
        rounds = max((len(t) for t in texts.values()), default=0)
        for j in range(rounds):
            for r in range(limit):
                for kind in sorted(by_kind):
                    if r < len(by_kind[kind]):
                        file_id, path = by_kind[kind][r]
                        mine = texts.get(file_id, [])
                        if j < len(mine) and mine[j].casefold() not in out:
                            out[mine[j].casefold()] = {"text": mine[j], "path": path}
                            if len(out) == limit:
                                return list(out.values())
        return list(out.values())

    def status(self) -> dict:
        kinds = dict(self.db.execute("SELECT kind, COUNT(*) FROM units GROUP BY kind ORDER BY kind").fetchall())
        file_kinds = dict(self.db.execute("SELECT kind, COUNT(*) FROM files GROUP BY kind ORDER BY kind").fetchall())
        size = sum(os.path.getsize(self.path + s) for s in ("", "-wal", "-shm") if os.path.exists(self.path + s))
        last = self.meta("last_indexed")
        return {
            "files": sum(file_kinds.values()),
            "files_by_kind": file_kinds,
            "units": sum(kinds.values()),
            "units_by_kind": kinds,
            "vectors": self.db.execute("SELECT COUNT(*) FROM embeddings").fetchone()[0],
            "sentence_vectors": self.db.execute("SELECT COUNT(*) FROM unit_parts").fetchone()[0],
            "units_without_vector": self.db.execute(
                "SELECT COUNT(*) FROM units WHERE text != '' AND text_hash NOT IN (SELECT text_hash FROM embeddings)"
            ).fetchone()[0],
            "index_bytes": size,
            "model": self.model_id,
            "last_indexed": float(last) if last else None,
            "errors": [{"path": p, "reason": r, "level": lv} for p, r, lv in self.db.execute(
                "SELECT path, reason, level FROM errors ORDER BY level, path")],
        }

    def close(self) -> None:
        self.db.close()


def keyword_sql(expression: str, filters: Filters, limit: int) -> tuple[str, list]:
    """The SQL behind keyword search, kept apart from running it so it can be shown and tested."""
    where, params = filters.sql()
    weights = ", ".join(str(w) for w in BM25_WEIGHTS)
    sql = (f"SELECT u.id, bm25(units_fts, {weights}) AS score "
           "FROM units_fts JOIN units u ON u.id = units_fts.rowid JOIN files f ON f.id = u.file_id "
           f"WHERE units_fts MATCH ? AND {where} ORDER BY score LIMIT ?")
    return sql, [expression, *params, limit]


def _stacked(rows: list[tuple[int, bytes]], dim: int) -> tuple[np.ndarray, np.ndarray]:
    """(unit ids, matrix) from (unit id, packed vector) rows."""
    ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
    return ids, np.frombuffer(b"".join(r[1] for r in rows), dtype="<f4").reshape(len(rows), dim)


def _pack(vector: np.ndarray) -> bytes:
    return np.asarray(vector, dtype="<f4").tobytes()


def _path_text(path: str) -> str:
    """The path as keywords: folders, name and extension, with identifier parts split out."""
    return f"{path} {extra_tokens(path.replace('/', ' '))}".strip()
