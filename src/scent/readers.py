"""Several handles on one index, for a server that answers requests in many threads at once.

One `Index` holds one database connection and caches that are not shared between threads, so a
handle serves one request at a time. `Readers` keeps up to `size` handles on the same index
(WAL lets them read side by side, and beside an indexer), made as requests need them from
`Index.reader()`, which shares the loaded models: a request waits only when all `size` are
busy, never behind another request's search while a handle is free.

A handle whose index was rebuilt or replaced on disk (`Index.replaced`) is opened again when it is
taken, so a long-running server answers from the new index, not the deleted one.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from threading import Condition

from .errors import UsageError
from .index import Index

# Handles a server keeps: searches are CPU-bound, so more than a few buys nothing but memory.
DEFAULT_READERS = 4


class Readers:
    def __init__(self, index: Index, size: int = DEFAULT_READERS):
        """Handles on `index`'s index. `index` itself is the pattern only: it is never handed
        out, and its caller still closes it."""
        if size < 1:
            raise UsageError(f"a pool needs at least one reader, got {size}")
        self.size = size
        self._source = index
        self._idle: list[Index] = []
        self._made = 0
        self._closed = False
        self._cond = Condition()

    @contextmanager
    def use(self) -> Iterator[Index]:
        """A handle for this thread alone until the block ends."""
        idx = self._take()
        try:
            if idx.replaced():
                idx = self._reopen(idx)
            yield idx
        finally:
            with self._cond:
                if self._closed:
                    idx.close()
                else:
                    self._idle.append(idx)
                self._cond.notify()

    def _take(self) -> Index:
        with self._cond:
            while True:
                if self._closed:
                    raise UsageError("the server is shutting down")
                if self._idle:
                    return self._idle.pop()
                if self._made < self.size:
                    self._made += 1
                    break
                self._cond.wait()
        try:  # opened outside the lock: the other threads keep taking idle handles meanwhile
            return self._source.reader()
        except BaseException:
            with self._cond:
                self._made -= 1
                self._cond.notify()
            raise

    def _reopen(self, old: Index) -> Index:
        new = self._source.reader()  # fails (the caller's error) while the new index is unusable
        old.close()
        return new

    def close(self) -> None:
        """Close the idle handles now, the busy ones when they come back."""
        with self._cond:
            self._closed = True
            idle, self._idle = self._idle, []
            self._cond.notify_all()
        for idx in idle:
            idx.close()
