"""Filters compiled to one SQL condition over units `u` and files `f`."""
from __future__ import annotations

from ...filters import Filters

# A unit's date: its own (an event's in a calendar, a note's in an Evernote export), else its file's.
UNIT_DATE = "COALESCE(u.date, f.date)"


def where(filters: Filters) -> tuple[str, list]:
    """A WHERE condition (never empty: "1" when there is nothing to filter) and its parameters."""
    clauses, params = [], []
    if filters.kinds:
        unit_kinds = filters.unit_kinds()
        clauses.append(f"(f.kind IN ({_marks(filters.kinds)}) OR u.kind IN ({_marks(unit_kinds)}))")
        params += [*filters.kinds, *unit_kinds]
    if filters.exclude:
        excluded = filters.excluded_unit_kinds()
        clauses.append(f"u.kind NOT IN ({_marks(excluded)})")
        params += excluded
    if filters.path:
        if filters.is_glob():
            globs = filters.globs()
            clauses.append("(" + " OR ".join(["f.path GLOB ?"] * len(globs)) + ")" if len(globs) > 1 else "f.path GLOB ?")
            params += globs
        else:
            clauses.append("substr(f.path, 1, ?) = ?")
            params += [len(filters.path), filters.path]
    if filters.after is not None:
        # A unit that began before `after` and still runs then (units.until) is let through.
        clauses.append(f"({UNIT_DATE} >= ? OR u.until >= ?)")
        params += [filters.after, filters.after]
    if filters.before is not None:
        clauses.append(f"{UNIT_DATE} < ?")
        params.append(filters.before)
    if filters.lang:
        clauses.append("u.lang = ?")
        params.append(filters.lang)
    if filters.readers is not None:
        clause, more = readers_clause(filters.readers)
        clauses.append(clause)
        params += more
    return (" AND ".join(clauses) or "1"), params


def _marks(values) -> str:
    return ", ".join("?" * len(values))


def readers_clause(readers: tuple[str, ...], column: str = "f.access") -> tuple[str, list]:
    """The file's stored readers (space-separated principals) hold one of `readers`."""
    if not readers:
        return "0", []
    padded = f"(' ' || {column} || ' ')"
    return "(" + " OR ".join(f"instr({padded}, ?) > 0" for _ in readers) + ")", [f" {r} " for r in readers]
