"""scent: local-first search over a person's own files.

    from scent import Index
    with Index("~/notes") as idx:
        idx.update()
        for r in idx.search("deposit refund"):
            print(r.rank, r.path, r.page, r.snippet)
"""
from .errors import ScentError, UsageError
from .filters import Filters
from .index import Index, SearchResult
from .settings import Settings

__all__ = ["Index", "IndexReport", "SearchResult", "Filters", "Settings", "ScentError", "UsageError"]


def __getattr__(name: str):
    if name == "IndexReport":  # imported when first asked for: see scent.index
        from .index import IndexReport
        return IndexReport
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
