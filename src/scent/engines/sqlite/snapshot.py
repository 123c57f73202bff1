"""A field's vectors as read-only files beside the database, memory-mapped by every reader.

A snapshot is a field's rows up to one `seq`, laid out for search: int8 codes with their scales
and norms, the unit id of each row, the attributes filters ask about (unit kind, file kind,
language, date) and, for a large field, an approximate index (usearch HNSW over the sign bits of
the centred vectors). Rows are ordered by file kind, then date: the filters people use most
(a kind, a date range) then leave a few long runs of rows, which exact search reads in place
instead of gathering them (at a million units, the gather was the largest cost of a filtered
query). A snapshot from before readers were recorded has no `access` array: the reader fills
it from SQLite when it opens the snapshot (see vectors.py). Rows written after it are each
reader's delta, read from SQLite and
appended in memory; rows deleted since are masked by tombstones. The next snapshot is this one's
live rows plus the delta. A snapshot's folder is written under a temporary name, renamed, and
only then named in `meta`, in the transaction that drops the int8 bytes it now holds from
SQLite: a kill at any moment leaves either the old snapshot with its tail or the new one.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np


ARRAYS = ("ids", "seqs", "codes", "scales", "norms", "unit_kind", "file_kind", "lang", "date", "access", "until")
CONNECTIVITY = 16  # HNSW links per node: 8 lost 6 points of recall@10 at 100k (scripts/scale_benchmark.py)
EXPANSION_ADD = 128
READ_ROWS = 20_000  # rows read from SQLite at a time while building


@dataclass
class Rows:
    """Rows of one field, as arrays (a snapshot's are memory-mapped; a delta's are in memory)."""
    ids: np.ndarray        # int64 unit id per row
    seqs: np.ndarray       # int64, increasing
    codes: np.ndarray      # int8 (n, dims)
    scales: np.ndarray     # float32: the vector is codes * scale
    norms: np.ndarray      # float32 norm of each row's codes
    unit_kind: np.ndarray  # uint16 label codes (see Labels)
    file_kind: np.ndarray
    lang: np.ndarray
    date: np.ndarray       # float64 UNIX time of the unit's file
    access: np.ndarray     # uint16 label code of the file's readers ("acl:" + FileRecord.access)
    until: np.ndarray      # float64 UNIX time of the unit's last moment (UnitRecord.until), NaN: its date

    def __len__(self) -> int:
        return len(self.ids)

    @classmethod
    def empty(cls, dims: int) -> "Rows":
        return cls(np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros((0, dims), np.int8), np.zeros(0, np.float32),
                   np.zeros(0, np.float32), *(np.zeros(0, np.uint16) for _ in range(3)), np.zeros(0, np.float64),
                   np.zeros(0, np.uint16), np.zeros(0, np.float64))

    def take(self, keep: np.ndarray) -> "Rows":
        return Rows(*(getattr(self, a)[keep] for a in ARRAYS))

    def extend(self, *others: "Rows") -> "Rows":
        """These rows and the others' after them, copied once."""
        return Rows(*(np.concatenate([getattr(self, a), *(getattr(o, a) for o in others)]) for a in ARRAYS))


class Snapshot:
    """One field's snapshot, opened read-only."""

    def __init__(self, folder: Path, info: dict):
        self.folder = folder
        self.info = info
        # Written before m010: no readers per row (None until the reader fills them in).
        self.rows = Rows(*(np.load(folder / f"{a}.npy", mmap_mode="r") if a not in ("access", "until") or
                           (folder / f"{a}.npy").is_file() else None for a in ARRAYS))
        if self.rows.until is None:  # written before m015: no unit lasted past its date
            self.rows.until = np.full(len(self.rows.ids), np.nan)
        self.mean = np.load(folder / "mean.npy")
        self._by_seq: tuple[np.ndarray, np.ndarray] | None = None
        self.hnsw = None
        if info.get("hnsw"):
            from usearch.index import Index as Hnsw

            self.hnsw = Hnsw.restore(str(folder / "rows.hnsw"), view=True)

    @property
    def seq(self) -> int:
        return self.info["seq"]

    def find(self, seqs: np.ndarray) -> np.ndarray:
        """The row of each of `seqs` (-1 where the snapshot has none). Rows are not in seq order,
        so a seq-sorted view is made the first time it is asked for (8 bytes x 2 per row)."""
        if self._by_seq is None:
            order = np.argsort(self.rows.seqs, kind="stable")
            self._by_seq = (np.asarray(self.rows.seqs)[order], order)
        sorted_seqs, order = self._by_seq
        seqs = np.asarray(seqs, np.int64)
        if not len(sorted_seqs):
            return np.full(len(seqs), -1, np.int64)
        at = np.minimum(np.searchsorted(sorted_seqs, seqs), len(sorted_seqs) - 1)
        return np.where(sorted_seqs[at] == seqs, order[at], -1)


def folder_for(root: Path, field: str, gen: int) -> Path:
    return root / f"{field}-{gen}"


def layout(file_kind: np.ndarray, date: np.ndarray) -> np.ndarray:
    """Where each row goes in the snapshot (its attributes given in the order rows come): by file
    kind, then date, then as they came."""
    order = np.lexsort((np.arange(len(date)), date, file_kind))
    place = np.empty(len(order), np.int64)
    place[order] = np.arange(len(order))
    return place


def write(root: Path, field: str, gen: int, dims: int, chunks, total: int, hnsw_rows: int,
          place: np.ndarray | None = None) -> dict:
    """Write snapshot `gen` of `field` from `chunks` (Rows, `total` in all) and return its
    description for `meta`. Row i of the chunks goes to row `place[i]` (see layout; None: in the
    order they come). An approximate index is made when there are at least `hnsw_rows` rows (0:
    always)."""
    import shutil  # writing only: a search reads snapshots without it

    root.mkdir(parents=True, exist_ok=True)
    final = folder_for(root, field, gen)
    tmp = final.with_name(final.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    shapes = {"codes": (total, dims)}
    dtypes = {"ids": np.int64, "seqs": np.int64, "codes": np.int8, "scales": np.float32, "norms": np.float32,
              "unit_kind": np.uint16,
              "file_kind": np.uint16, "lang": np.uint16, "date": np.float64, "access": np.uint16,
              "until": np.float64}
    out = {a: np.lib.format.open_memmap(tmp / f"{a}.npy", mode="w+", dtype=dtypes[a], shape=shapes.get(a, (total,)))
           for a in ARRAYS}
    at, total_sum = 0, np.zeros(dims, np.float64)
    last_seq = 0
    for rows in chunks:
        n = len(rows)
        if at + n > total:
            raise RuntimeError(f"snapshot of {field}: expected {total} rows, read more")
        to = slice(at, at + n) if place is None else np.sort(place[at:at + n])
        # Rows of one chunk go to their places in increasing order: the pages are written front to back.
        ordered = slice(None) if place is None else np.argsort(place[at:at + n], kind="stable")
        for a in ARRAYS:
            out[a][to] = getattr(rows, a)[ordered]
        total_sum += (rows.codes.astype(np.float32) / rows.norms[:, None]).sum(axis=0)
        at += n
        if n:
            last_seq = max(last_seq, int(rows.seqs.max()))
    if at != total:
        raise RuntimeError(f"snapshot of {field}: expected {total} rows, read {at}")
    mean = (total_sum / max(total, 1)).astype(np.float32)
    np.save(tmp / "mean.npy", mean)
    use_hnsw = total > 0 and total >= hnsw_rows
    if use_hnsw:
        from usearch.index import Index as Hnsw, MetricKind

        index = Hnsw(ndim=dims, metric=MetricKind.Hamming, dtype="b1", connectivity=CONNECTIVITY,
                     expansion_add=EXPANSION_ADD)
        for start in range(0, total, READ_ROWS * 5):
            part = slice(start, min(total, start + READ_ROWS * 5))
            index.add(np.arange(part.start, part.stop), sign_bits(out["codes"][part], out["norms"][part], mean))
        index.save(str(tmp / "rows.hnsw"))
    for array in out.values():
        array.flush()
    del out
    _fsync_dir(tmp)
    shutil.rmtree(final, ignore_errors=True)
    os.replace(tmp, final)
    _fsync_dir(root)
    return {"gen": gen, "seq": last_seq, "rows": total, "hnsw": use_hnsw}


def remove_others(root: Path, field: str, keep: int) -> None:
    """Delete this field's snapshot folders other than `keep` (readers that still map them keep
    their pages: the files go when the last map is closed)."""
    import shutil

    if not root.is_dir():
        return
    for path in root.iterdir():
        name = path.name.removesuffix(".tmp")
        if name.startswith(f"{field}-") and name != f"{field}-{keep}":
            shutil.rmtree(path, ignore_errors=True)


def sign_bits(codes: np.ndarray, norms: np.ndarray, mean: np.ndarray) -> np.ndarray:
    """Packed sign bits of the centred unit vectors. Centring matters for e5-like vectors, which
    share one strong direction: raw signs agree on most bits for any two units (recall@10 of the
    binary first phase at 100k synthetic units, 40x oversampled: 0.968 raw, 0.979 centred)."""
    unit = np.asarray(codes, np.float32) / np.asarray(norms)[:, None]
    return np.packbits(unit - mean > 0, axis=1)


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
