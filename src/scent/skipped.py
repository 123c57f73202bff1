"""Files the walk found and did not index, and why: the list `scent status --skipped` shows and
the counts per extension that `scent status` gives.

Two sources. A file of a kind scent reads that could not be read (damaged, too big, encrypted, an
old .doc) is in the catalog's errors with its reason, as every run records it. A file of a kind
scent does not read at all (.exe, .iso) is never opened: the walk of the whole folder counts such
files per extension and readers and keeps the first MAX_LISTED_PER_GROUP paths of each (a folder
of 20,000 disk images costs a few rows, not 20,000). That record is replaced at the end of
each whole-folder run, in the transaction that records the run's end (Engine.finish_run), so a
run killed midway leaves the last complete one's. A refresh of some paths (scent watch) keeps it.

Hidden and ignored files (.scentignore, excluded folders such as .git) are neither: the walk
never asks about them, so they are not listed.
"""
from __future__ import annotations

import os
import stat
from collections import Counter
from collections.abc import Callable

from .access import Access
from .units import Unsupported
from .walk import is_utf8, shown

UNSUPPORTED = "unsupported kind"
CRASHED = "reading it crashed the process reading it"  # how the reason of a file that did begins (scent.indexing)
DAMAGED = "damaged"
ONLINE = "online only"
NO_EXTENSION = "(none)"
MAX_LISTED_PER_GROUP = 20  # paths kept per (extension, readers): enough to see what they are
MAX_LISTED = 2000  # paths kept in all

# The cause an error's reason gives, the first match winning. The reasons are scent's own
# (scent.extract and its formats, scent.walk, the indexer's plan); tests/test_skipped.py holds
# one of each cause. Anything else a reader refused is taken as damaged.
_CAUSES = (
    (ONLINE, ("online only:",)),
    (UNSUPPORTED, ("scent does not index",)),
    ("encrypted", ("password", "encrypted")),
    ("too big", (" limit", "inflates to", "would inflate", "parts (over")),
    ("needs a library", ("not installed",)),
    ("bad name", ("not valid utf-8",)),
    ("broken link", ("broken link", "link loop")),
    ("not a regular file", ("not a regular file",)),
    ("unreadable", ("cannot read (", "vanished or unreadable")),
    ("disk full", ("no space left to read it",)),
    ("crashed its reader", (CRASHED,)),
)


def cause(reason: str) -> str:
    """The short cause of a skip reason: "too big", "damaged", "encrypted" ..."""
    text = reason.lower()
    for name, marks in _CAUSES:
        if any(m in text for m in marks):
            return name
    return DAMAGED


def extension(path: str) -> str:
    """The extension counts are kept by: lower case with its dot, NO_EXTENSION for none."""
    return os.path.splitext(os.path.basename(path))[1].lower() or NO_EXTENSION


def unsupported_reason(ext: str) -> str:
    from .extract import EXTRACTORS  # late: extraction imports every format's library

    what = f"{ext} files" if ext != NO_EXTENSION else "files without an extension"
    ignore = f"*{ext}" if ext != NO_EXTENSION else "its name"
    return (f"scent does not index {what} (it reads {', '.join(sorted(EXTRACTORS))}); "
            f"add {ignore} to .scentignore to stop listing them")


class UnsupportedWalk:
    """What one walk of the whole folder passes by: `accept` is the walk's test by name, and
    counts each regular file it refuses (a link counts only when its target lies inside the
    folder, as the walk would index it)."""

    def __init__(self, root: str, access: Access, known: Callable[[str], bool]):
        self.root = os.path.abspath(root)
        self._real_root = os.path.realpath(self.root)
        self._access = access
        self._known = known
        self.found = Unsupported()

    def accept(self, path: str) -> bool:
        if self._known(path):
            return True
        try:
            st = os.stat(path)
        except OSError:  # gone, or a broken link: nothing of a kind to read either way
            return False
        if not stat.S_ISREG(st.st_mode):
            return False
        if os.path.islink(path):
            target = os.path.realpath(path)
            if not (target == self._real_root or target.startswith(self._real_root.rstrip(os.sep) + os.sep)):
                return False
        rel = os.path.relpath(path, self.root).replace(os.sep, "/")
        rel = rel if is_utf8(rel) else shown(rel)
        ext = extension(rel)
        readers = self._access.readers(rel, st)
        counts, listed = self.found.counts, self.found.listed
        seen = counts.get((ext, readers), 0)
        counts[(ext, readers)] = seen + 1
        if seen < MAX_LISTED_PER_GROUP and len(listed) < MAX_LISTED:
            listed.append((rel, ext, readers))
        return False


def counts(errors: list[dict], unsupported: dict[str, int]) -> list[dict]:
    """Files not indexed per (extension, cause), most first: `{"ext", "cause", "files"}`.
    `errors` are a status's (only those of level "skipped" count: a warning's file is indexed)."""
    by: Counter[tuple[str, str]] = Counter()
    for e in errors:
        if e.get("level", "skipped") == "skipped":
            by[(extension(e["path"]), cause(e["reason"]))] += 1
    for ext, n in unsupported.items():
        by[(ext, UNSUPPORTED)] += n
    return [{"ext": ext, "cause": why, "files": n}
            for (ext, why), n in sorted(by.items(), key=lambda item: (-item[1], item[0]))]


def listing(errors: list[dict], unsupported: dict[str, int], files: list[tuple[str, str]]) -> dict:
    """Every file not indexed that can be named, by path: `{"files": [{"path", "cause", "reason"}],
    "unlisted": [{"ext", "files"}]}`; unlisted counts the files of kinds scent does not read
    beyond those kept by name."""
    out = [{"path": e["path"], "cause": cause(e["reason"]), "reason": e["reason"]}
           for e in errors if e.get("level", "skipped") == "skipped"]
    out += [{"path": path, "cause": UNSUPPORTED, "reason": unsupported_reason(ext)} for path, ext in files]
    named = Counter(ext for _, ext in files)
    unlisted = [{"ext": ext, "files": n - named[ext]} for ext, n in sorted(unsupported.items()) if n > named[ext]]
    return {"files": sorted(out, key=lambda f: f["path"]), "unlisted": unlisted}


def summary(counted: list[dict]) -> str:
    """One line for people: "12 .exe, 3 .doc (encrypted), 1 .xlsx (damaged)"; the cause is said
    for all but unsupported kinds, the common case."""
    return ", ".join(f"{c['files']} {c['ext']}" + (f" ({c['cause']})" if c["cause"] != UNSUPPORTED else "")
                     for c in counted)
