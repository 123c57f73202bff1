"""scent: local-first search over a person's own files.

    from scent import Index
    with Index("~/notes") as idx:
        idx.update()
        for r in idx.search("deposit refund"):
            print(r.rank, r.path, r.page, r.snippet)
"""
from .embed import settle_threads
from .errors import ScentError, UsageError

settle_threads()

__all__ = ["__version__", "Index", "IndexReport", "SearchResult", "Filters", "Settings", "ScentError", "UsageError"]

# Imported when first asked for, so that `scent search` can start loading the model before the
# search pipeline's imports (scent.cli, scent.embed.Prefetched), and indexing's stay out of a search.
_LAZY = {"Index": "index", "SearchResult": "index", "IndexReport": "index", "Filters": "filters", "Settings": "settings"}


def _version() -> str:
    # The installed package's, so a report or an MCP client sees the real one. Looked up when asked
    # for: importlib.metadata costs a fresh `scent search` ~25 ms of imports it never uses.
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("scent")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "0+unknown"


def __getattr__(name: str):
    if name == "__version__":
        globals()[name] = value = _version()
        return value
    if name in _LAZY:
        from importlib import import_module

        value = getattr(import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
