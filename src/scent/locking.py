"""One indexer per index at a time: an exclusive flock on `index_dir/lock`. Searches never take it.

It is the lock file, not the folder, that is locked, so a rebuild keeps that file while it throws
the rest of the index away: otherwise another indexer would lock a new file and run beside it.
The lock is reentrant for the owner that holds it (an index's engine), so a rebuild can hold it
from throwing the old index away until the new one is built, across the indexer's own taking of
it; any other owner, in this process or another, is refused.
"""
from __future__ import annotations

import fcntl
import os
import threading
import weakref
from pathlib import Path

from .errors import IndexBusy

LOCK_NAME = "lock"
RUN_MARK = "run_started"  # the catalog's meta key of run_mark(): the run that began last

_guard = threading.Lock()
_held: dict[str, list] = {}  # path -> [file, owner, depth]
_other = weakref.WeakSet()  # other lock files this process holds (a local Qdrant folder's)
_stores: set[str] = set()    # the folders they guard


class IndexLock:
    def __init__(self, index_dir: str | Path, owner: object | None = None):
        self.path = Path(index_dir) / LOCK_NAME
        self.owner = owner if owner is not None else object()

    def __enter__(self) -> "IndexLock":
        key = os.path.abspath(self.path)
        with _guard:
            held = _held.get(key)
            if held is not None and held[1] is self.owner:
                held[2] += 1
                return self
            if held is None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                fh = open(self.path, "a")
                try:
                    fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    fh.close()
                else:
                    _held[key] = [fh, self.owner, 1]
                    return self
        raise IndexBusy(_busy(self.path))

    def hand_to(self, owner: object) -> None:
        """Let `owner` take this held lock again (the engine opened after the lock was taken)."""
        with _guard:
            _held[os.path.abspath(self.path)][1] = self.owner = owner

    def __exit__(self, *exc) -> None:
        key = os.path.abspath(self.path)
        with _guard:
            held = _held[key]
            held[2] -= 1
            if held[2] == 0:
                del _held[key]
                fcntl.flock(held[0], fcntl.LOCK_UN)
                held[0].close()


def run_mark() -> str:
    """What a run writes when it begins (meta RUN_MARK): when, and which process on which machine."""
    import time

    return f"{time.time()} {os.getpid()} {os.uname().nodename}"


def still_running(mark: str, index_dir: str | Path) -> bool:
    """Whether the run that wrote `mark` (run_mark) still runs: its process holds the index's lock
    on this machine (where the kernel's list of locks cannot be read: its process is alive). Another
    machine's run counts as stopped."""
    _, pid, host = mark.split(" ", 2)
    if host != os.uname().nodename:
        return False
    if int(pid) == os.getpid():
        with _guard:
            return os.path.abspath(Path(index_dir) / LOCK_NAME) in _held
    holders = lock_holders(Path(index_dir) / LOCK_NAME)
    if holders is not None:
        # Not "is the pid alive": a stopped run's pid may be another process's by now.
        return int(pid) in holders
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, another user's
        return True
    return True


def alive(pid: int) -> bool:
    """Whether process `pid` runs (a killed one its parent has not yet reaped does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # there, as another user's
        return True
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rpartition(b")")[2].split()[0] != b"Z"
    except (OSError, IndexError):  # no /proc (macOS): running, as far as can be told
        return True


def watcher(index_dir: str | Path) -> int | None:
    """The pid of the `scent watch` (or `scent serve --watch`) keeping the index in `index_dir`
    fresh, where one does (Linux: its lock's holder); else None."""
    holders = sorted(lock_holders(Path(index_dir) / LOCK_NAME) or ())
    return holders[0] if holders and _watches(holders[0]) else None


def _watches(pid: int) -> bool:
    try:
        words = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return False
    return b"watch" in words or b"--watch" in words


def _busy(path: Path) -> str:
    """Who holds the index's lock, as a person needs it: a watch never finishes, so "wait for it"
    was no answer while `scent watch` kept the index."""
    holders = sorted(lock_holders(path) or ())
    if not holders:
        return f"another scent is indexing into {path.parent}; wait for it to finish"
    pid = holders[0]
    if _watches(pid):
        return (f"a scent watch (pid {pid}) keeps the index in {path.parent} up to date as files change, so there is "
                f"nothing to run; stop it (Ctrl-C where it runs, or kill {pid}) to index here instead")
    return f"another scent is indexing into {path.parent} (pid {pid}); wait for it to finish"


def lock_holders(path: Path) -> set[int] | None:
    """The processes holding a flock on `path`, from Linux's /proc/locks; None where it cannot be
    read (another system). A file no one locks (or that is missing): the empty set."""
    try:
        text = Path("/proc/locks").read_text()
    except OSError:
        return None
    try:
        st = os.stat(path)
    except OSError:
        return set()
    # "1: FLOCK  ADVISORY  WRITE 6632 fe:00:2310606 0 EOF": the holder's pid, then major:minor:inode
    where = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    return {int(f[4]) for f in map(str.split, text.splitlines()) if len(f) > 5 and f[1] == "FLOCK" and f[5] == where}


# Kept when an index is rebuilt: the lock (see the module's note), and the note of a server that
# answers for the index (scent.serve.discovery), which reopens the rebuilt index: removed, `scent
# search` stopped asking a server that was still running.
KEPT = (LOCK_NAME, "server.json")


def clear_index_dir(index_dir: str | Path) -> None:
    """Remove everything in `index_dir` but the files it keeps across a rebuild (KEPT)."""
    import shutil

    folder = Path(index_dir)
    if not folder.is_dir():
        return
    for entry in folder.iterdir():
        if entry.name in KEPT:
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            entry.unlink(missing_ok=True)


def held_elsewhere(fh, store: str | Path) -> None:
    """Name a lock file held outside IndexLock and the store folder it guards (a local Qdrant
    folder), so that close_in_child closes a forked reader's copies of both's open files: the
    store locks files of its own (Qdrant's write-ahead log holds a flock on its folder)."""
    _other.add(fh)
    _stores.add(os.path.realpath(store))


def close_in_child() -> None:
    """In a forked process (an indexing run's reader): close its copies of the held lock files.
    A flock belongs to the open file, which a fork shares: a reader outliving its killed parent
    kept the index (or its Qdrant folder) locked until it noticed. Closing the copy leaves the
    parent's lock as it was."""
    for fh, _, _ in _held.values():
        fh.close()
    _held.clear()
    for fh in list(_other):
        fh.close()
    _other.clear()
    _close_files_under(_stores)
    _stores.clear()


def _close_files_under(folders: set[str]) -> None:
    """Close this process's descriptors of files in `folders`: a reader never touches them, and
    it ends by os._exit, so nothing writes through them after."""
    if not folders:
        return
    try:
        names = os.listdir("/proc/self/fd")
    except OSError:  # no /proc (macOS): the lock files are closed above; the store's own stay open
        return       # until the reader sees its parent gone (half a second)
    for name in names:
        try:
            target = os.readlink(f"/proc/self/fd/{name}")
        except OSError:
            continue
        if any(target == f or target.startswith(f + os.sep) for f in folders):
            try:
                os.close(int(name))
            except OSError:
                pass
