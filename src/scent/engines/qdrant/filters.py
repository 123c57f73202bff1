"""Filters compiled to a Qdrant payload filter, the same condition the SQLite engine's SQL states."""
from __future__ import annotations

from collections.abc import Callable
from fnmatch import fnmatchcase

from qdrant_client import models

from ...filters import Filters


class NothingMatches(Exception):
    """The filter names paths no unit has: every list is empty without asking the engine."""


def dirs(path: str) -> list[str]:
    """What a path-prefix filter can name exactly: every folder of the path ("notes/", "notes/work/")
    and the path itself."""
    parts = path.split("/")
    return ["/".join(parts[:i]) + "/" for i in range(1, len(parts))] + [path]


def compile_filter(filters: Filters, paths: Callable[[], list[str]]) -> models.Filter | None:
    """The payload filter for `filters` (None: nothing to filter). `paths` lists the indexed paths,
    asked only for a glob or a prefix that ends inside a name (no payload index can answer those)."""
    if filters.empty:
        return None
    must: list = []
    must_not: list = []
    if filters.kinds:
        must.append(models.Filter(should=[
            models.FieldCondition(key="file_kind", match=models.MatchAny(any=list(filters.kinds))),
            models.FieldCondition(key="kind", match=models.MatchAny(any=list(filters.unit_kinds())))]))
    if filters.exclude:
        must_not.append(models.FieldCondition(key="kind", match=models.MatchAny(any=list(filters.excluded_unit_kinds()))))
    if filters.path:
        if not filters.is_glob() and filters.path.endswith("/"):
            must.append(models.FieldCondition(key="dirs", match=models.MatchValue(value=filters.path)))
        else:
            if filters.is_glob():
                globs = filters.globs()
                chosen = [p for p in paths() if any(fnmatchcase(p, g) for g in globs)]
            else:
                chosen = [p for p in paths() if p.startswith(filters.path)]
            if not chosen:
                raise NothingMatches
            must.append(models.FieldCondition(key="path", match=models.MatchAny(any=chosen)))
    if filters.after is not None:  # or still running then: a point without "until" lasts no longer than its date
        must.append(models.Filter(should=[models.FieldCondition(key=key, range=models.Range(gte=filters.after))
                                          for key in ("date", "until")]))
    if filters.before is not None:
        must.append(models.FieldCondition(key="date", range=models.Range(lt=filters.before)))
    if filters.lang:
        must.append(models.FieldCondition(key="lang", match=models.MatchValue(value=filters.lang)))
    if filters.readers is not None:
        if not filters.readers:
            raise NothingMatches
        must.append(models.FieldCondition(key="access", match=models.MatchAny(any=list(filters.readers))))
    return models.Filter(must=must or None, must_not=must_not or None)
