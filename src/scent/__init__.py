"""scent: local-first search over a person's own files.

    from scent import Index
    with Index("~/notes") as idx:
        idx.update()
        for r in idx.search("deposit refund"):
            print(r.rank, r.path, r.page, r.snippet)
"""
from importlib.metadata import PackageNotFoundError, version as _version

from .errors import ScentError, UsageError
from .filters import Filters
from .index import Index, SearchResult
from .settings import Settings

try:
    __version__ = _version("scent")  # the installed package's, so a report or an MCP client sees the real one
except PackageNotFoundError:  # run from a source tree that was never installed
    __version__ = "0+unknown"

__all__ = ["__version__", "Index", "IndexReport", "SearchResult", "Filters", "Settings", "ScentError", "UsageError"]


def __getattr__(name: str):
    if name == "IndexReport":  # imported when first asked for: see scent.index
        from .index import IndexReport
        return IndexReport
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
