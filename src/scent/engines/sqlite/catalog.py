"""The catalog in SQLite: files, units, errors, meta and suggestions."""
from __future__ import annotations

import os
import sqlite3
import time
from typing import TYPE_CHECKING

from ...query import extra_tokens
from .db import bump, transaction
from .filters import UNIT_DATE, readers_clause, where as filter_sql
from ...storage import StoredSuggestion, StoredUnit, batched

if TYPE_CHECKING:  # indexing's records: a search opens the catalog without them
    from ...filters import Filters
    from ...units import FileRecord, FileState, Suggestion, UnitRecord, Unsupported

_UNIT_COLUMNS = ('u.id, f.path, f.kind, u.kind, u.page, u.start, u."end", u.title, u.lang, u.text, '
                 + UNIT_DATE + ', u.english, u.line')


class SqliteCatalog:
    def __init__(self, db: sqlite3.Connection, path: str):
        self.db = db
        self.path = path

    def meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def bump(self) -> None:
        bump(self.db)

    # ---- change detection ------------------------------------------------------------------

    def file_states(self) -> dict[str, FileState]:
        from ...units import FileState

        return {r[0]: FileState(*r) for r in self.db.execute("SELECT path, size, mtime_ns, hash, access, container, "
                                                     "reader FROM files")}

    def file_key(self, path: str) -> str:
        """The key of the file indexed at `path`; for a new file its path, unless a renamed file
        still holds that key (then the path and a number)."""
        row = self.db.execute("SELECT key FROM files WHERE path = ?", (path,)).fetchone()
        if row:
            return row[0]
        key, n = path, 1
        while self.db.execute("SELECT 1 FROM files WHERE key = ?", (key,)).fetchone():
            n += 1
            key = f"{path}\n{n}"
        return key

    def touch_files(self, states: list[FileState]) -> None:
        # One transaction: a mailbox that gained a message keeps 100,000 others (a commit each was ~2 s).
        with transaction(self.db):
            self.db.executemany("UPDATE files SET size = ?, mtime_ns = ? WHERE path = ?",
                                [(st.size, st.mtime_ns, st.path) for st in states])

    # ---- writing (inside the engine's transaction) -------------------------------------------

    def unit_ids(self, paths: list[str]) -> list[int]:
        out: list[int] = []
        for part in batched(paths):
            out += [r[0] for r in self.db.execute(
                "SELECT u.id FROM units u JOIN files f ON f.id = u.file_id "
                f"WHERE f.path IN ({', '.join('?' * len(part))})", part)]
        return out

    def put_file(self, file: FileRecord, units: list[UnitRecord], suggestions: list[Suggestion],
                 warnings: list[str]) -> None:
        """The file's row, its units (replacing the ones it had), example queries and what was
        left out of it (`warnings`)."""
        db = self.db
        db.execute("DELETE FROM units WHERE file_id = (SELECT id FROM files WHERE path = ?)", (file.path,))
        db.execute(
            "INSERT INTO files (path, key, kind, size, mtime_ns, hash, date, title, indexed_at, access, container, "
            "part_of, reader) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(path) DO UPDATE SET "
            "kind = excluded.kind, reader = excluded.reader, "
            "size = excluded.size, mtime_ns = excluded.mtime_ns, hash = excluded.hash, date = excluded.date, "
            "title = excluded.title, indexed_at = excluded.indexed_at, access = excluded.access, "
            "container = excluded.container, part_of = excluded.part_of",
            (file.path, file.key or file.path, file.kind, file.size, file.mtime_ns, file.hash, file.date, file.title,
             time.time(), file.access, file.container, file.part_of, file.reader))
        file_id = db.execute("SELECT id FROM files WHERE path = ?", (file.path,)).fetchone()[0]
        path_text = path_keywords(file.path)
        db.executemany(
            'INSERT INTO units (id, place, file_id, kind, page, start, "end", title, lang, text, text_hash, path, extra, '
            "ids, date, until, english, line) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(u.id, place, file_id, u.kind, u.page, u.start, u.end, u.title, u.lang, u.text, u.text_hash, path_text,
              u.extra, u.ids, u.date, u.until, u.english, u.line) for place, u in enumerate(units)])
        db.execute("DELETE FROM suggestions WHERE file_id = ?", (file_id,))
        db.executemany("INSERT INTO suggestions (file_id, text, page, aspect) VALUES (?, ?, ?, ?)",
                       [(file_id, s.text, s.page, s.aspect) for s in suggestions])
        db.execute("DELETE FROM errors WHERE path = ?", (file.path,))
        if warnings:
            db.execute("INSERT INTO errors (path, reason, at, level, access) VALUES (?, ?, ?, 'warning', ?)",
                       (file.path, "; ".join(warnings), time.time(), file.access))

    def set_access(self, path: str, access: str) -> None:
        self.db.execute("UPDATE files SET access = ? WHERE path = ?", (access, path))
        self.db.execute("UPDATE errors SET access = ? WHERE path = ?", (access, path))

    def rename_file(self, old: str, new: FileState) -> None:
        self.db.execute("UPDATE files SET path = ?, size = ?, mtime_ns = ?, container = ? WHERE path = ?",
                        (new.path, new.size, new.mtime_ns, new.container, old))
        self.db.execute("UPDATE units SET path = ? WHERE file_id = (SELECT id FROM files WHERE path = ?)",
                        (path_keywords(new.path), new.path))
        self.db.execute("UPDATE files SET part_of = ? WHERE part_of = ?", (new.path, old))

    def delete_files(self, paths: list[str]) -> None:
        for path in paths:
            self.db.execute("DELETE FROM units WHERE file_id = (SELECT id FROM files WHERE path = ?)", (path,))
            self.db.execute("DELETE FROM files WHERE path = ?", (path,))
            self.db.execute("DELETE FROM errors WHERE path = ?", (path,))

    def record_error(self, path: str, reason: str, access: str = "") -> None:
        self.db.execute("INSERT OR REPLACE INTO errors (path, reason, at, access) VALUES (?, ?, ?, ?)",
                        (path, reason, time.time(), access))

    def prune_errors(self, present: set[str], containers: set[str] = frozenset(),
                     within: tuple[str, ...] | None = None) -> None:
        """Forget errors of files that are gone: they can no longer be fixed or retried. The errors
        of files inside a container still there stay (its members are not walked). With `within`,
        only the errors of paths at or under those are judged (the paths a watch's refresh walked)."""
        stale = [p for (p,) in self.db.execute("SELECT path FROM errors")
                 if p not in present and not ("#" in p and _inside_any(p, containers))
                 and (within is None or _at_or_under(p.split("#", 1)[0], within))]
        self.db.executemany("DELETE FROM errors WHERE path = ?", [(p,) for p in stale])

    def skipped_like(self, start: str) -> set[str]:
        """The paths skipped for a reason that begins with `start`."""
        return {p for (p,) in self.db.execute("SELECT path FROM errors WHERE level = 'skipped' AND "
                                              "substr(reason, 1, ?) = ?", (len(start), start))}

    def errors_inside(self, containers: set[str]) -> list[tuple[str, str]]:
        """(path, reason) of the files inside `containers` that were skipped, in path order."""
        if not containers:
            return []
        return [(p, r) for p, r in self.db.execute("SELECT path, reason FROM errors WHERE level = 'skipped' AND "
                                                   "instr(path, '#') > 0 ORDER BY path")
                if _inside_any(p, containers)]

    def forget_errors_inside(self, container: str) -> None:
        """Forget the errors of the files inside `container` (it is read again, or gone)."""
        self.db.execute("DELETE FROM errors WHERE substr(path, 1, ?) = ?", (len(container) + 1, container + "#"))

    def put_unsupported(self, found: Unsupported) -> None:
        """Replace the record of files of kinds scent does not read (inside the run's last transaction)."""
        self.db.execute("DELETE FROM unsupported")
        self.db.execute("DELETE FROM unsupported_files")
        self.db.executemany("INSERT INTO unsupported (ext, access, files) VALUES (?, ?, ?)",
                            [(ext, access, n) for (ext, access), n in found.counts.items()])
        self.db.executemany("INSERT OR IGNORE INTO unsupported_files (path, ext, access) VALUES (?, ?, ?)",
                            found.listed)

    # ---- reading ----------------------------------------------------------------------------

    def unsupported_counts(self, readers: tuple[str, ...] | None = None) -> dict[str, int]:
        condition, params = _readers(readers, "access")
        return dict(self.db.execute(f"SELECT ext, SUM(files) FROM unsupported WHERE {condition} GROUP BY ext "
                                    "ORDER BY ext", params).fetchall())

    def unsupported_files(self, readers: tuple[str, ...] | None = None) -> list[tuple[str, str]]:
        condition, params = _readers(readers, "access")
        return self.db.execute(f"SELECT path, ext FROM unsupported_files WHERE {condition} ORDER BY path",
                               params).fetchall()

    def units(self, ids: list[int]) -> dict[int, StoredUnit]:
        out: dict[int, StoredUnit] = {}
        for part in batched(list(ids)):
            for row in self.db.execute(f"SELECT {_UNIT_COLUMNS} FROM units u JOIN files f ON f.id = u.file_id "
                                       f"WHERE u.id IN ({', '.join('?' * len(part))})", part):
                out[row[0]] = StoredUnit(*row)
        return out

    def newest(self, filters: Filters, limit: int) -> list[int]:
        condition, params = filter_sql(filters)
        rows = self.db.execute(
            f"WITH kept AS (SELECT f.id AS file, f.path AS path, MAX({UNIT_DATE}) AS day, MIN(u.place) AS place "
            f"FROM units u JOIN files f ON f.id = u.file_id WHERE {condition} GROUP BY f.id "
            "ORDER BY day DESC, path LIMIT ?) "
            "SELECT u.id FROM kept JOIN units u ON u.file_id = kept.file AND u.place = kept.place "
            "ORDER BY kept.day DESC, kept.path", (*params, limit))
        return [uid for uid, in rows]

    def file_units(self, path: str, readers: tuple[str, ...] | None = None) -> list[StoredUnit] | None:
        """The units of the indexed file `path` in reading order; None when `path` is not in the
        index, or `readers` may not read it."""
        condition, params = _readers(readers, "access")
        if not self.db.execute(f"SELECT 1 FROM files WHERE path = ? AND {condition}", (path, *params)).fetchone():
            return None
        rows = self.db.execute(f"SELECT {_UNIT_COLUMNS} FROM units u JOIN files f ON f.id = u.file_id "
                               "WHERE f.path = ? ORDER BY coalesce(u.page, 0), u.start, u.place", (path,))
        return [StoredUnit(*r) for r in rows]

    def copies(self, paths: list[str], readers: tuple[str, ...] | None = None) -> dict[str, list[str]]:
        """Each of `paths` that has copies `readers` may read -> their paths, sorted. A copy is another
        indexed file of the same bytes (never of an empty file, whose name is all it says), or the
        other part of a file made of two (a Live Photo's photo and its moving part: FileRecord.part_of)."""
        condition, params = _readers(readers, "b.access")
        out: dict[str, list[str]] = {}
        for part in batched(list(paths)):
            where = f"a.path IN ({', '.join('?' * len(part))}) AND {condition}"
            # Three joins, each on an index (one join ORing the three scanned every file).
            for a, b in self.db.execute(
                    f"SELECT a.path, b.path FROM files a JOIN files b ON b.hash = a.hash AND b.id != a.id "
                    f"WHERE {where} AND a.size > 0 AND a.hash != '' "
                    f"UNION SELECT a.path, b.path FROM files a JOIN files b ON b.part_of = a.path WHERE {where} "
                    f"UNION SELECT a.path, b.path FROM files a JOIN files b ON b.path = a.part_of WHERE {where} "
                    "ORDER BY 2", (*part, *params) * 3):
                out.setdefault(a, []).append(b)
        return out

    def unit_hashes(self, path: str, inside: bool = False) -> dict[str, int]:
        where = "f.path = ? OR f.container = ?" if inside else "f.path = ?"
        return {h: uid for uid, h in self.db.execute(
            f"SELECT u.id, u.text_hash FROM units u JOIN files f ON f.id = u.file_id WHERE {where}",
            (path, path) if inside else (path,))}

    def has_units(self, kinds: tuple[str, ...]) -> bool:
        return self.db.execute(f"SELECT 1 FROM units WHERE kind IN ({', '.join('?' * len(kinds))}) LIMIT 1",
                               kinds).fetchone() is not None

    def suggestions(self, limit: int, readers: tuple[str, ...] | None = None) -> list[dict]:
        """Up to `limit` example queries `{"text", "path", "page", "aspect"}` from different files
        and kinds.

        Deterministic: per file kind, files in the order of their content hash (a fixed shuffle);
        round one takes each kind's first file's first suggestion, then each kind's second file,
        and so on; later rounds take files' second suggestions. A file's own come before its
        pages' (the order they were written in), so the first rounds are titles and headings.
        """
        if limit < 1:
            return []
        condition, params = _readers(readers, "access")
        files = self.db.execute(
            "SELECT id, path, kind FROM (SELECT id, path, kind, "
            "ROW_NUMBER() OVER (PARTITION BY kind ORDER BY hash, path) AS r "
            f"FROM files WHERE id IN (SELECT file_id FROM suggestions) AND {condition}) WHERE r <= ? ORDER BY kind, r",
            (*params, limit)).fetchall()
        texts: dict[int, list[tuple[str, int | None, str]]] = {}
        for part in batched([f[0] for f in files]):
            for file_id, *made in self.db.execute(
                    "SELECT file_id, text, page, aspect FROM suggestions "
                    f"WHERE file_id IN ({', '.join('?' * len(part))}) ORDER BY file_id, rowid", part):
                texts.setdefault(file_id, []).append(tuple(made))
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
                        if j < len(mine) and mine[j][0].casefold() not in out:
                            text, page, aspect = mine[j]
                            out[text.casefold()] = {"text": text, "path": path, "page": page, "aspect": aspect}
                            if len(out) == limit:
                                return list(out.values())
        return list(out.values())

    def generated_queries(self, readers: tuple[str, ...] | None = None) -> list[StoredSuggestion]:
        """Every stored example query of the files `readers` may read, by path, each file's in the
        order they were made."""
        condition, params = _readers(readers)
        return [StoredSuggestion(*row) for row in self.db.execute(
            "SELECT f.path, f.kind, f.title, s.text, s.page, s.aspect "
            f"FROM suggestions s JOIN files f ON f.id = s.file_id WHERE {condition} ORDER BY f.path, s.rowid", params)]

    def status(self, readers: tuple[str, ...] | None = None) -> dict:
        """Counts and problems of the files `readers` may read (None: all of them)."""
        condition, params = _readers(readers)
        kinds = dict(self.db.execute(f"SELECT u.kind, COUNT(*) FROM units u JOIN files f ON f.id = u.file_id "
                                     f"WHERE {condition} GROUP BY u.kind ORDER BY u.kind", params).fetchall())
        file_kinds = dict(self.db.execute(f"SELECT kind, COUNT(*) FROM files f WHERE {condition} GROUP BY kind "
                                          "ORDER BY kind", params).fetchall())
        error_condition, error_params = _readers(readers, "access")
        langs = dict(self.db.execute(f"SELECT u.lang, COUNT(*) FROM units u JOIN files f ON f.id = u.file_id "
                                     f"WHERE u.lang IS NOT NULL AND {condition} GROUP BY u.lang "
                                     "ORDER BY COUNT(*) DESC", params).fetchall())
        size = sum(os.path.getsize(self.path + s) for s in ("", "-wal", "-shm") if os.path.exists(self.path + s))
        last = self.meta("last_indexed")
        return {
            "files": sum(file_kinds.values()),
            "files_by_kind": file_kinds,
            "units": sum(kinds.values()),
            "units_by_kind": kinds,
            "units_by_lang": langs,
            "index_bytes": size,
            "last_indexed": float(last) if last else None,
            "errors": [{"path": p, "reason": r, "level": lv} for p, r, lv in self.db.execute(
                f"SELECT path, reason, level FROM errors WHERE {error_condition} ORDER BY level, path", error_params)],
        }


def path_keywords(path: str) -> str:
    """The path as keywords: folders, name and extension, with identifier parts split out."""
    return f"{path} {extra_tokens(path.replace('/', ' '))}".strip()


def _at_or_under(path: str, places: tuple[str, ...]) -> bool:
    return any(path == at or path.startswith(at + "/") for at in places)


def _inside_any(path: str, containers: set[str]) -> bool:
    """Whether `path` is CONTAINER#... for one of `containers` (a container's own name may hold '#')."""
    at = path.find("#")
    while at != -1:
        if path[:at] in containers:
            return True
        at = path.find("#", at + 1)
    return False


def _readers(readers: tuple[str, ...] | None, column: str = "f.access") -> tuple[str, list]:
    return ("1", []) if readers is None else readers_clause(readers, column)
