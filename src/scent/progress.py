"""Where an index run is: its stage, files and units done, rates, time left, the current file.

The indexer keeps a `Tracker` and hands each change to the caller's callback as a `Progress`
snapshot; the CLI prints them (scent.terminal.ProgressPrinter). Stages that happen deep inside
extraction (OCR, describing a picture, loading their models), and translating, are announced with
`stage(...)`, which reaches the run's tracker through a context variable, so the extractors need
no extra argument and code run outside an index run (a test, a script) announces to nobody.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

# Files read, at most, before a time left is said (and a fifth of them where fewer).
ESTIMATE_AFTER_FILES = 50
# In the order a file meets them; "scanning" is the walk and the size/mtime/hash check before.
STAGES = ("scanning", "models loading", "reading", "OCR", "describing", "translating", "embedding", "writing")


@dataclass(frozen=True)
class Progress:
    stage: str
    files_done: int
    files_total: int
    units_embedded: int  # texts given a vector so far (units and their sentences)
    path: str            # the file the stage is about ("" when it is about several)
    elapsed: float       # seconds since the run started
    files_read: int = 0  # files whose texts to embed are known (read, or done without embedding)
    texts_found: int = 0  # texts to embed found in those files, embedded or not
    embedding_for: float = 0.0  # seconds since the model's first batch came back (0: not yet)
    embedded_since: int = 0     # texts embedded since then

    @property
    def files_per_s(self) -> float:
        return self.files_done / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def units_per_s(self) -> float:
        return self.units_embedded / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def seconds_left(self) -> float | None:
        """At the pace so far; None before there is one.

        Measured in texts embedded where there are any, the texts of the files not read yet
        reckoned at the files read so far's rate (per byte it was worse: a folder's photos are most
        of its bytes and few of its texts): embedding is most of a run, and files are done
        in reading order, so one long file holds every file read after it. Counted in files done,
        the time left grew for as long as a thesis chapter's 500 sentences were embedded ("1/36
        files ... ~25 min left" of a run that took 47 s). Said once a fifth of the files (or 50) are
        read: the first file's texts say little of the others' (a paper's 165 made it ~11 min)."""
        if self.units_embedded and self.texts_found:
            if self.files_read < min(self.files_total / 5, ESTIMATE_AFTER_FILES) or not self.embedded_since:
                return None
            texts = self.texts_found * max(1.0, self.files_total / self.files_read)
            # At the pace since the model's first batch: that one holds its loading (counted, the sample
            # folder's first estimates were 14 and 5 minutes for a run of half a minute)
            return max(0.0, texts - self.units_embedded) * self.embedding_for / self.embedded_since
        if not self.files_done:
            return None
        return (self.files_total - self.files_done) * self.elapsed / self.files_done


OnProgress = Callable[[Progress], None]


class Tracker:
    """The run's counters; every change is reported at once (the printer decides what to show)."""

    def __init__(self, files_total: int, report: OnProgress | None, clock: Callable[[], float] = time.monotonic):
        self.files_total = files_total
        self.files_done = 0
        self.units_embedded = 0
        self.files_read = 0
        self.texts_found = 0
        self._first_batch: tuple[float, int] | None = None  # when the model's first batch came back, its texts
        self._waiting: set[str] = set()  # files read whose texts are not all embedded yet
        self.current = ("scanning", "")
        self._report = report
        self._clock = clock
        self._started = clock()

    def snapshot(self) -> Progress:
        stage, path = self.current
        now = self._clock()
        at, first = self._first_batch or (now, self.units_embedded)
        return Progress(stage, self.files_done, self.files_total, self.units_embedded, path,
                        now - self._started, self.files_read, self.texts_found, now - at,
                        self.units_embedded - first)

    def _changed(self) -> None:
        if self._report is not None:
            self._report(self.snapshot())

    def stage(self, name: str, path: str | None = None) -> None:
        self.current = (name, self.current[1] if path is None else path)
        self._changed()

    def found(self, path: str, texts: int) -> None:
        """File `path` read: `texts` more texts to embed (not counting those already known)."""
        self.files_read += 1
        self.texts_found += texts
        self._waiting.add(path)

    def file_done(self, path: str) -> None:
        if path in self._waiting:
            self._waiting.discard(path)
        else:  # done as it was read (skipped, unchanged inside a container)
            self.files_read += 1
        self.files_done += 1
        self.current = ("writing", path)
        self._changed()

    def embedded(self, n: int) -> None:
        self.units_embedded += n
        if self._first_batch is None:
            self._first_batch = (self._clock(), self.units_embedded)
        self._changed()

    @contextmanager
    def during(self, name: str, path: str | None = None) -> Iterator[None]:
        """Stage `name` until the block ends, then the stage before it again."""
        before = self.current
        self.stage(name, path)
        try:
            yield
        finally:
            self.current = before
            self._changed()


class Relay:
    """A reader process's tracker (scent.indexing reads files in a pool of them): the stages its
    extraction announces (OCR, describing, models loading) go on `queue` as (stage, path), for the
    indexing process's tracker to show. Forked, a reader held a copy of that tracker instead, whose
    printer wrote its own stale line ("OCR  0/137 files") beside the real one."""

    def __init__(self, queue):
        self.queue = queue
        self.path = ""  # the file being read
        self.current = "reading"

    @contextmanager
    def during(self, name: str, path: str | None = None) -> Iterator[None]:
        """Stage `name` until the block ends, then the stage before it again (as Tracker.during)."""
        before, self.current = self.current, name
        self.queue.put((name, self.path if path is None else path))
        try:
            yield
        finally:
            self.current = before
            self.queue.put((before, self.path))


_current: ContextVar["Tracker | Relay | None"] = ContextVar("scent_progress", default=None)


def relay_to(queue) -> None:
    """In a reader process: announce stages on `queue` from here on (see Relay)."""
    _current.set(Relay(queue))


def reading(path: str) -> None:
    """In a reader process: the file its stages are about."""
    relay = _current.get()
    if isinstance(relay, Relay):
        relay.path = path


def relayed(queue, tracker: Tracker) -> None:
    """In the indexing process: show the stages readers announced since the last call."""
    while not queue.empty():
        name, path = queue.get()
        tracker.stage(name, path)


@contextmanager
def tracking(tracker: Tracker) -> Iterator[Tracker]:
    """Make `tracker` the one `stage` announces to, for the block."""
    token = _current.set(tracker)
    try:
        yield tracker
    finally:
        _current.reset(token)


@contextmanager
def stage(name: str) -> Iterator[None]:
    """Announce stage `name` (OCR, describing, models loading) to the run's tracker, if any."""
    tracker = _current.get()
    if tracker is None:
        yield
        return
    with tracker.during(name):
        yield
