"""The embedded engine: one SQLite file (WAL) plays all three roles, so one transaction covers a
file's catalog rows, its keyword index entries (kept by triggers) and its vectors."""
from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path
from typing import TYPE_CHECKING

from ...errors import IndexVersionError, ScentError, cannot_write, write_refusal
from ...locking import clear_index_dir
from ...storage import unit_id
from .. import folder_bytes
from .catalog import SqliteCatalog
from .db import transaction
from .keywords import SqliteKeywords
from .migrations import MIGRATIONS, migrate
from .vectors import SqliteVectors

if TYPE_CHECKING:
    from ...units import FileState, FileWrite, Unsupported

DB_NAME = "index.db"
# How long an open waits out a rebuild in another process making the index anew.
OPEN_PATIENCE_S = 30.0
EMPTY_PATIENCE_S = 1.0


class SqliteEngine:
    name = "sqlite"

    def __init__(self, index_dir: Path, settings=None, db_name: str = DB_NAME):
        self.path = str(Path(index_dir) / db_name)
        self._vectors_dir = Path(index_dir) / "vectors"
        deadline = time.monotonic() + OPEN_PATIENCE_S
        empty_until = time.monotonic() + EMPTY_PATIENCE_S
        while True:
            before = self._mine = None
            try:
                Path(index_dir).mkdir(parents=True, exist_ok=True)
                before = _file_id(self.path)
                if before is not None and os.path.getsize(self.path) == 0:
                    # Opening writes its header at once (WAL mode), so an empty file for longer than
                    # another process's opening takes was cut off by a crash or a full disk; SQLite
                    # would take it for a new index, and every search would find nothing, unexplained.
                    if time.monotonic() < empty_until:
                        time.sleep(0.05)
                        continue
                    raise ScentError(f"the index at {index_dir} is damaged (its database {DB_NAME} is an empty "
                                     "file, left by a crash or a full disk); index the folder again with "
                                     "scent index FOLDER --rebuild")
                self.db, self._opened = self._connect(before)
                break
            except (sqlite3.DatabaseError, OSError) as err:
                if getattr(self, "db", None) is not None:
                    self.db.close()
                    self.db = None
                # A rebuild in another process throws the old file away and makes the new one
                # while this one opens: SQLite then says "locked" without waiting (its deadlock
                # guard, while the new file is still in rollback mode) or "read-only" (the file
                # it opened was unlinked). Both pass within moments; a real fault does not.
                if time.monotonic() < deadline and _in_flux(err, self._mine, _file_id(self.path)):
                    time.sleep(0.05)
                    continue
                if write_refusal(err) is None:
                    raise ScentError(f"cannot open the index at {self.path}: {err}; delete that folder and re-index") from None
                if write_refusal(err) == "full" or not os.path.isfile(self.path):
                    raise cannot_write(index_dir, err) from None
                # A read-only folder (a backup, a read-only mount, another user's index): searches still
                # work; a write says why it cannot be.
                self.db = _open_read_only(self.path)
                self._opened = _file_id(self.path)
                break
        self.catalog = SqliteCatalog(self.db, self.path)
        self.keywords = SqliteKeywords(self.db)
        self.vectors = SqliteVectors(self.db, lambda: int(self.catalog.meta("generation") or 0),
                                     self._vectors_dir, settings)

    def _connect(self, before) -> tuple[sqlite3.Connection, tuple[int, int] | None]:
        db = sqlite3.connect(self.path, isolation_level=None, timeout=30, check_same_thread=False)
        self.db = db  # closed by the caller if what follows fails
        self._mine = _file_id(self.path)  # the file this connection holds (SQLite made it, if new)
        # A new index gives back the pages vector bytes leave when a snapshot takes them over
        # (set before its first table; an older index keeps its setting). Only a new file: on
        # one with tables the pragma writes its header again, and an index on a full disk
        # could then not even be opened to search.
        if before is None:
            db.execute("PRAGMA auto_vacuum=INCREMENTAL")
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA foreign_keys=ON")
        migrate(db)
        # Which file this connection reads (made by it when new); unknown (None) when it was
        # swapped while opening, so the first check reopens.
        after = _file_id(self.path)
        return db, after if before in (None, after) else None

    @staticmethod
    def exists(index_dir: Path, settings=None) -> bool:
        return (Path(index_dir) / DB_NAME).is_file()

    @staticmethod
    def destroy(index_dir: Path, settings=None) -> None:
        clear_index_dir(index_dir)

    def replaced(self) -> bool:
        """Whether the index on disk is another database file than the one open here (rebuilt)."""
        now = _file_id(self.path)
        return now is not None and now != self._opened

    def transaction(self):
        return transaction(self.db)

    def write_files(self, writes: list[FileWrite]) -> None:
        with self.transaction():
            for w in writes:
                self.vectors.delete(self.catalog.unit_ids([w.file.path]))
                self.catalog.put_file(w.file, w.units, w.suggestions, w.warnings)
                self.vectors.record_labels({w.file.kind, *(u.kind for u in w.units), *(u.lang for u in w.units),
                                            "acl:" + w.file.access})
                for field, vectors in w.vectors.items():
                    self.vectors.put(field, vectors)
            self.catalog.bump()
        self.vectors.maybe_snapshot(final=False)

    def rename_file(self, old: str, new: FileState) -> None:
        with self.transaction():
            self.catalog.rename_file(old, new)
            self.catalog.bump()

    def set_access(self, changes: dict[str, str]) -> None:
        """New readers for files whose bytes did not change. Each row of their vectors carries its
        file's readers, so the rows are written again (same vectors, new seq; the old ones leave
        tombstones): every reader sees the new readers at its next search."""
        if not changes:
            return
        with self.transaction():
            fields = list(self.vectors.fields())
            for path, access in changes.items():
                ids = self.catalog.unit_ids([path])
                kept = {name: self.vectors.get(name, ids) for name in fields} if ids else {}
                self.vectors.delete(ids)
                self.catalog.set_access(path, access)
                self.vectors.record_labels({"acl:" + access})
                for name, vectors in kept.items():
                    self.vectors.put(name, vectors)
            self.catalog.bump()

    def delete_files(self, paths: list[str]) -> None:
        if not paths:
            return
        with self.transaction():
            self.vectors.delete(self.catalog.unit_ids(paths))
            self.catalog.delete_files(paths)
            self.catalog.bump()

    def finish_run(self, unsupported: Unsupported | None = None) -> None:
        self.vectors.maybe_snapshot(final=True)
        # One transaction: a run killed before its end keeps the last run's record of what it
        # did not read, never half of this one's.
        with self.transaction():
            if unsupported is not None:
                self.catalog.put_unsupported(unsupported)
            self.catalog.set_meta("last_indexed", str(time.time()))
        # The pages the snapshot's int8 rows left go back to the file system. sqlite3's execute
        # steps this pragma once (one page); executescript runs it to the end.
        self.db.executescript("PRAGMA incremental_vacuum;")
        self.db.execute("PRAGMA wal_checkpoint(PASSIVE)")

    def status(self, readers: tuple[str, ...] | None = None) -> dict:
        """The catalog's counts and problems as `readers` may see them; the vector counts are the
        whole index's (they name no file)."""
        st = self.catalog.status(readers)
        fields = self.vectors.fields()
        counts = {name: self.vectors.count(name) for name in fields}
        snapshots = self.vectors.snapshots()
        st["vector_fields"] = {name: {"model": f.model, "dims": f.dims, "multi": f.multi, "storage": f.storage,
                                      "vectors": counts[name], "snapshot_rows": snapshots.get(name, {}).get("rows", 0),
                                      "approximate": bool(snapshots.get(name, {}).get("hnsw"))}
                               for name, f in fields.items()}
        st["vectors"] = counts.get("unit", 0) + counts.get("sentences", 0)
        st["sentence_vectors"] = counts.get("sentences", 0)
        st["index_bytes"] += folder_bytes(self._vectors_dir)  # the database's files and the vectors beside it
        st["units_without_vector"] = self.db.execute(
            "SELECT COUNT(*) FROM units WHERE text != '' AND id NOT IN (SELECT unit_id FROM vectors "
            "WHERE field = 'unit')").fetchone()[0]
        return st

    def close(self) -> None:
        self.db.close()


def _file_id(path: str) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except FileNotFoundError:  # a rebuild between throwing the old file away and making the new
        return None
    return st.st_dev, st.st_ino


def _in_flux(err: BaseException, mine, now) -> bool:
    """Whether `err`, met while opening, is a rebuild's passing state rather than a fault: the
    database locked, or the file this connection opened thrown away or replaced since."""
    text = str(err)
    return "locked" in text or "busy" in text or (mine is not None and now != mine)


def _open_read_only(path: str) -> sqlite3.Connection:
    """A read-only connection to the index at `path`. WAL needs its -shm file; where even that cannot be
    made (a read-only mount), the file is opened as immutable (what it holds after its last write)."""
    uri = "file:" + path.replace("?", "%3f").replace("#", "%23")
    for mode in ("mode=ro", "immutable=1"):
        try:
            db = sqlite3.connect(f"{uri}?{mode}", uri=True, isolation_level=None, check_same_thread=False)
            done = {row[0] for row in db.execute("SELECT name FROM migrations")}
            break
        except sqlite3.DatabaseError as err:
            last = err
    else:
        raise ScentError(f"cannot open the index at {path} read-only: {last}") from None
    pending = [fn.__name__ for fn in MIGRATIONS if fn.__name__ not in done]
    if pending:
        raise IndexVersionError(f"the index at {path} needs upgrading ({', '.join(pending)}) and its folder is "
                                "read-only; make it writable and run scent index once")
    db.create_function("scent_unit_id", 2, unit_id, deterministic=True)
    return db
