"""Keep an index fresh while a folder changes: file events (watchdog; inotify on Linux) are gathered
until the folder has been quiet for a moment, then one `Index.refresh` brings the paths they named
in line (new, changed, renamed, gone; a folder's path stands for the files under it).

The watcher holds the index's indexing lock for as long as it runs, so a second watcher or a
`scent index` beside it is refused with one line instead of the two taking turns.
"""
from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable

from .access import RULES_FILE
from .errors import ScentError, UsageError
from .index import Index
from .locking import IndexLock
from .walk import IGNORE_FILE, left_out, package_of

# inotify names every entry created, written, moved or deleted, beside its folder's "modified";
# macOS's FSEvents may name only the folder (events merged, or "scan this folder again").
_EACH_ENTRY_SAYS = sys.platform.startswith("linux")
DEBOUNCE_S = 0.5  # quiet time before a refresh: one editor save is several events
MAX_WAIT_S = 3.0  # during a burst (a git checkout of thousands of files) refresh at least this often
# How often a quiet watch looks whether its folder is still there: the folder's own deletion or move
# is no event of a path inside it, and it was found only at the next change (a minute, an hour).
IDLE_S = 2.0


class _Changes:
    """Paths the events named, relative to the folder, minus those no refresh would index."""

    def __init__(self, root: str, index_dir: str):
        self.root, self.index_dir = root, index_dir
        self._paths: set[str] = set()
        self._first = self._last = 0.0
        self._cond = threading.Condition()

    def dispatch(self, event) -> None:  # watchdog's handler interface
        if event.event_type in ("opened", "closed_no_write"):
            return  # read, not changed
        if event.is_directory and event.event_type == "modified" and _EACH_ENTRY_SAYS:
            return  # its entries changed: each says so itself (a note's save refreshed its whole folder too)
        for path in (event.src_path, getattr(event, "dest_path", "")):
            if path:
                self._add(os.fsdecode(path))

    def _add(self, path: str) -> None:
        if path == self.index_dir or path.startswith(self.index_dir + os.sep):
            return  # the index writing itself: refreshing on it would never stop
        rel = os.path.relpath(path, self.root).replace(os.sep, "/")
        parts = rel.split("/")
        # The path may be a folder's (its creation, a rename): its own name is judged as a folder's.
        if rel not in (RULES_FILE, IGNORE_FILE) and (rel.startswith("..") or left_out([*parts, ""])):
            return  # hidden files (editors' swap files), tool folders, applications: never indexed
        rel = package_of(rel)  # a document saved as a folder changes as one file
        with self._cond:
            now = time.monotonic()
            if not self._paths:
                self._first = now
            self._paths.add(rel)
            self._last = now
            self._cond.notify()

    def take(self, stop: threading.Event, debounce: float, max_wait: float, idle: float = IDLE_S) -> list[str]:
        """The paths gathered once the folder has been quiet for `debounce` seconds (or for
        `max_wait` since the first of them); [] when `stop` is set first, or after `idle` seconds
        without any (the caller looks whether the folder is still there)."""
        until = time.monotonic() + idle
        with self._cond:
            while not stop.is_set() and (self._paths or time.monotonic() < until):
                now = time.monotonic()
                if self._paths and (now - self._last >= debounce or now - self._first >= max_wait):
                    paths, self._paths = sorted(self._paths), set()
                    return paths
                self._cond.wait(timeout=min(debounce, 0.2) if self._paths else 0.2)
        return []


def watch(index: Index, stop: threading.Event, on_refresh: Callable | None = None,
          on_error: Callable[[str], None] | None = None, on_ready: Callable | None = None, *,
          debounce: float = DEBOUNCE_S, max_wait: float = MAX_WAIT_S, progress: Callable | None = None) -> None:
    """Bring `index` up to date with its folder, then refresh it from the folder's events until
    `stop` is set. The events are listened to before that first update, so nothing written
    meanwhile is missed; `on_ready(report)` hears the update, `on_refresh(report, paths)` each
    refresh, `on_error(message)` each refresh that failed (the watch goes on); `progress` hears the
    first update's progress (scent.progress: a whole folder's, which may take hours). The folder
    going away ends the watch with a ScentError."""
    try:
        from watchdog.observers import Observer
    except ImportError:  # pragma: no cover - a broken install
        raise UsageError("scent watch needs watchdog: pip install watchdog") from None
    root = index.root
    if not root or not os.path.isdir(root):
        raise ScentError(f"folder {root} does not exist (or is not a folder); nothing to watch")
    changes = _Changes(os.path.realpath(root), os.path.realpath(index.index_dir))
    with IndexLock(index.index_dir, owner=index.engine):
        observer = Observer()
        observer.schedule(changes, os.path.realpath(root), recursive=True)
        observer.start()
        try:
            report = index.update(progress=progress)
            if on_ready:
                on_ready(report)
            while not stop.is_set():
                paths = changes.take(stop, debounce, max_wait)
                if not os.path.isdir(root):
                    raise ScentError(f"the watched folder {root} was deleted, moved or unmounted; its index is "
                                     "kept: run scent watch again once it is back")
                if not paths:
                    continue
                try:
                    report = index.refresh(paths)
                except ScentError as err:
                    if on_error:
                        on_error(str(err))
                    continue
                if on_refresh:
                    on_refresh(report, paths)
        finally:
            observer.stop()
            observer.join(timeout=5)


class Live:
    """A watch running beside a server (`scent serve --watch`), and what it last did, for the UI
    to show how fresh the index is."""

    def __init__(self, index: Index, on_problem: Callable[[str], None] | None = None):
        """`on_problem(message)` hears why the watch stopped, or why a refresh failed (the server's
        terminal says so: a watch refused beside another was said only by /api/status)."""
        self._on_problem = on_problem
        self._stop = threading.Event()
        self._since = time.time()
        self._ready = False
        self._last: float | None = None
        self._problem: str | None = None
        self._thread = threading.Thread(target=self._run, args=(index,), name="scent-watch", daemon=True)

    def start(self) -> "Live":
        self._thread.start()
        return self

    def _run(self, index: Index) -> None:
        try:
            watch(index, self._stop, on_refresh=lambda report, paths: self._note(None),
                  on_error=self._note, on_ready=lambda report: self._note(None, ready=True))
        except ScentError as err:
            self._problem = f"{err}; search goes on over the index as it is"
            if self._on_problem:
                self._on_problem(self._problem)
        finally:
            self._stop.set()

    def _note(self, problem: str | None, ready: bool = False) -> None:
        self._ready = self._ready or ready
        self._last, self._problem = time.time(), problem
        if problem and self._on_problem:
            self._on_problem(problem)

    def state(self) -> dict:
        """`watching` (still running), `ready` (its first update is written), `since`,
        `last_refresh` (Unix times) and `problem` (the last refresh's error, or why it stopped)."""
        return {"watching": not self._stop.is_set(), "ready": self._ready, "since": self._since,
                "last_refresh": self._last, "problem": self._problem}

    def stop(self, timeout: float = 30) -> None:
        """End the watch once the refresh in progress is written."""
        self._stop.set()
        self._thread.join(timeout)
