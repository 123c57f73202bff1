"""Files scent derives once from other files and keeps under $SCENT_HOME/cache.

Why: deriving them again in every process is what a fresh `scent search` or an indexing run's
reader would otherwise pay: a word list or a glossary unpacked and parsed (10-80 ms; read back
memory-mapped or marshalled, 1-20 ms), a picture model converted to ONNX (the `onnx` import alone
~0.4 s). A kept file is named by its sources' paths, sizes and times (a checksum of those, not of
the bytes: reading 20 MB of weights to hash them would cost what the cache saves), so changed
sources or an upgraded scent make a new one, and the older ones of the same name are removed. It
is written whole or not at all (a temporary file renamed), and a home that cannot be written is no
error: the caller keeps what it derived in memory, the same answers every time.
"""
from __future__ import annotations

import os
import re
import zlib
from collections.abc import Callable, Sequence
from contextlib import suppress
from pathlib import Path
from typing import BinaryIO

from .settings import scent_home


def path_for(sources: Path | Sequence[Path], name: str) -> Path:
    """Where what is derived from `sources` is kept: $SCENT_HOME/cache/[FOLDER/]NAME-KEY.EXT for
    `name` "[FOLDER/]NAME.EXT". OSError when a source is missing."""
    sources = [sources] if isinstance(sources, Path) else list(sources)
    # A checksum, not hashlib: loading OpenSSL for it was milliseconds of every fresh search.
    what = "|".join(f"{p}:{st.st_size}:{st.st_mtime_ns}" for p in sources for st in [p.stat()])
    folder, _, file = name.rpartition("/")
    stem, _, ext = file.partition(".")
    return scent_home() / "cache" / folder / f"{stem}-{zlib.crc32(what.encode()):08x}.{ext}"


def keep(target: Path, write: Callable[[BinaryIO], None]) -> None:
    """`write` into `target`, whole or not at all, whoever writes it first or last; nothing when
    it cannot be written. The older files of its name (other keys) are removed: never read again."""
    tmp = target.with_name(f"{target.name}.{os.getpid()}.tmp")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as f:
            write(f)
        os.replace(tmp, target)
        keyed, _, ext = target.name.partition(".")  # as path_for splits the name: NAME-KEY.EXT
        for old in _of_name(target.parent, keyed[:-9], ext):
            if old != target:
                old.unlink(missing_ok=True)
    except OSError:
        with suppress(OSError):
            tmp.unlink(missing_ok=True)


def kept(name: str) -> list[Path]:
    """What is kept under `name` ("[FOLDER/]NAME.EXT", as `path_for` takes it) for whatever sources
    (any key), newest first: what was derived from an earlier state of them."""
    folder, _, file = name.rpartition("/")
    stem, _, ext = file.partition(".")
    found = []
    for p in _of_name(scent_home() / "cache" / folder, stem, ext):
        with suppress(OSError):
            found.append((p.stat().st_mtime_ns, p))
    return [p for _, p in sorted(found, reverse=True)]


def forget(name: str) -> None:
    """Remove what is kept under `name`, whatever its sources were: they are gone (a deleted
    mailbox's message places)."""
    for p in kept(name):
        p.unlink(missing_ok=True)


def _of_name(folder: Path, stem: str, ext: str) -> list[Path]:
    """The kept files in `folder` named STEM-KEY.EXT, any key."""
    same = re.compile(rf"{re.escape(stem)}-[0-9a-f]{{8}}\.{re.escape(ext)}")
    try:
        return [p for p in folder.iterdir() if same.fullmatch(p.name)]
    except OSError:
        return []
