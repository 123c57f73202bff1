"""The vector index in SQLite: named fields of unit vectors, searched exactly.

Each field's vectors are loaded once into a numpy matrix (exact cosine is fast enough below
~1M units) and reloaded only when the index generation changes.
"""
from __future__ import annotations

import sqlite3
from collections.abc import Callable

import numpy as np

from ...errors import IndexVersionError
from ...filters import Filters
from ...storage import Hit, VectorField, batched
from .filters import where


class SqliteVectors:
    def __init__(self, db: sqlite3.Connection, generation: Callable[[], int]):
        self.db = db
        self._generation = generation
        self._matrices: dict[str, tuple[int, np.ndarray, np.ndarray]] = {}  # field -> (generation, ids, matrix)
        self._cut: tuple = (None, None)

    def fields(self) -> dict[str, VectorField]:
        return {r[0]: VectorField(r[0], r[1], r[2], bool(r[3]), r[4]) for r in self.db.execute(
            "SELECT name, model, dims, multi, storage FROM vector_fields")}

    def add_field(self, field: VectorField) -> None:
        stored = self.fields().get(field.name)
        if stored is None:
            self.db.execute("INSERT INTO vector_fields VALUES (?, ?, ?, ?, ?)",
                            (field.name, field.model, field.dims, int(field.multi), field.storage))
        elif (stored.model, stored.dims, stored.multi) != (field.model, field.dims, field.multi):
            raise IndexVersionError(f"this index's {field.name} vectors were made by {stored.model} "
                                    f"({stored.dims} dims), not {field.model} ({field.dims}); re-index with --rebuild")

    # ---- writing (inside the engine's transaction) -------------------------------------------

    def put(self, field: str, vectors: dict[int, np.ndarray]) -> None:
        """Set the vectors of `field` for these units (replacing any they had)."""
        self._delete(list(vectors), "AND field = ?", (field,))
        self.db.executemany("INSERT INTO vectors (field, unit_id, vector) VALUES (?, ?, ?)",
                            [(field, uid, _pack(row)) for uid, v in vectors.items()
                             for row in np.asarray(v, np.float32).reshape(-1, v.shape[-1])])

    def delete(self, ids: list[int]) -> None:
        self._delete(ids, "", ())

    def _delete(self, ids: list[int], extra: str, params: tuple) -> None:
        for part in batched(ids):
            self.db.execute(f"DELETE FROM vectors WHERE unit_id IN ({', '.join('?' * len(part))}) {extra}",
                            (*part, *params))

    # ---- reading ----------------------------------------------------------------------------

    def search(self, field: str, query: np.ndarray, filters: Filters, limit: int, dims: int = 0) -> list[Hit]:
        """Units by cosine similarity of their `field` vectors to `query`; a unit with many scores
        by its best one. `dims` > 0 uses only the first `dims` dimensions (what would smaller
        vectors cost)."""
        ids, matrix = self._load(field)
        if not len(ids):
            return []
        if 0 < dims < matrix.shape[1]:
            matrix, query = self._truncated(field, dims), query[:dims] / (np.linalg.norm(query[:dims]) or 1.0)
        return self._best(ids, matrix @ np.asarray(query, np.float32), filters, limit)

    def get(self, field: str, ids: list[int]) -> dict[int, np.ndarray]:
        """Each unit's vector of `field` (for a multi field, its (n, dims) matrix)."""
        info = self.fields().get(field)
        if info is None:
            return {}
        rows: dict[int, list[bytes]] = {}
        for part in batched(list(ids)):
            for uid, blob in self.db.execute(
                    f"SELECT unit_id, vector FROM vectors WHERE field = ? AND unit_id IN ({', '.join('?' * len(part))}) "
                    "ORDER BY seq", (field, *part)):
                rows.setdefault(uid, []).append(blob)
        out = {}
        for uid, blobs in rows.items():
            m = np.frombuffer(b"".join(blobs), dtype="<f4").reshape(len(blobs), info.dims)
            out[uid] = m if info.multi else m[0]
        return out

    def count(self, field: str) -> int:
        return self.db.execute("SELECT COUNT(*) FROM vectors WHERE field = ?", (field,)).fetchone()[0]

    def _best(self, ids: np.ndarray, scores: np.ndarray, filters: Filters, limit: int) -> list[Hit]:
        """The `limit` best units of rows (unit id, score) under `filters`, each by its best row."""
        if not filters.empty:
            condition, params = where(filters)
            allowed = np.fromiter((r[0] for r in self.db.execute(
                f"SELECT u.id FROM units u JOIN files f ON f.id = u.file_id WHERE {condition}", params)), dtype=np.int64)
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

    def _load(self, field: str) -> tuple[np.ndarray, np.ndarray]:
        """(unit id per row, vectors) of `field`, in the order they were written."""
        generation = self._generation()
        cached = self._matrices.get(field)
        if cached is None or cached[0] != generation:
            info = self.fields().get(field)
            rows = self.db.execute("SELECT unit_id, vector FROM vectors WHERE field = ? ORDER BY seq",
                                   (field,)).fetchall() if info else []
            ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
            matrix = np.frombuffer(b"".join(r[1] for r in rows), dtype="<f4").reshape(len(rows), info.dims if info else 0)
            cached = self._matrices[field] = (generation, ids, matrix)
        return cached[1], cached[2]

    def _truncated(self, field: str, dims: int) -> np.ndarray:
        """The field's matrix cut to its first `dims` columns, rows re-normalised; cached per generation."""
        generation, _, matrix = self._matrices[field]
        key = (field, generation, dims)
        if self._cut[0] != key:
            cut = matrix[:, :dims]
            norms = np.linalg.norm(cut, axis=1, keepdims=True)
            self._cut = (key, cut / np.where(norms == 0, 1, norms))
        return self._cut[1]


def _pack(vector: np.ndarray) -> bytes:
    return np.asarray(vector, dtype="<f4").tobytes()
