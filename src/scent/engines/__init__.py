"""The storage engines, by name (setting `backend`). Nothing outside an engine's own package
imports its database client."""
from __future__ import annotations

from pathlib import Path

from ..errors import UsageError
from ..storage import Engine


def _sqlite():
    from .sqlite import SqliteEngine
    return SqliteEngine


def _qdrant():
    from .qdrant import QdrantEngine
    return QdrantEngine


# name -> a function returning the engine's class: a backend's client is imported only when used.
ENGINES = {"sqlite": _sqlite, "qdrant": _qdrant}


def engine_class(name: str):
    try:
        return ENGINES[name]()
    except KeyError:
        raise UsageError(f"unknown backend {name!r}; known backends: {', '.join(sorted(ENGINES))}") from None


def open_engine(settings, index_dir: Path) -> Engine:
    """The engine `settings.backend` for the index in `index_dir` (made there when new)."""
    return engine_class(settings.backend)(index_dir, settings)


def folder_bytes(folder: Path) -> int:
    """The bytes of the files under `folder` (an index's, as `du` counts them, less the blocks)."""
    return sum(p.stat().st_size for p in Path(folder).rglob("*") if p.is_file()) if Path(folder).exists() else 0
