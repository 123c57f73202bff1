"""scent: local-first search over a person's own files.

    from scent import Index
    with Index("~/notes") as idx:
        idx.update()
        for r in idx.search("deposit refund"):
            print(r.rank, r.path, r.page, r.snippet)
"""
from .errors import ScentError, UsageError
from .filters import Filters
from .index import Index, IndexReport, SearchResult
from .settings import Settings

__all__ = ["Index", "IndexReport", "SearchResult", "Filters", "Settings", "ScentError", "UsageError"]
