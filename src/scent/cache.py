"""Files scent derives once from its packaged data and keeps under $SCENT_HOME/cache.

Why: unpacking a word list or a glossary (xz or gzip text parsed into Python objects) is
10-80 ms, paid again by every fresh `scent search` that needs it; read back in a ready form
(a memory-mapped array, a marshalled table) it is 1-20 ms. A cached file is named by its source's
path, size and time, so an upgraded scent derives its own; it is written whole or not at all (a
temporary file renamed), and a home that cannot be written is no error: the caller keeps what it
derived in memory, the same answers every time.
"""
from __future__ import annotations

import os
import zlib
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import BinaryIO

from .settings import scent_home


def path_for(source: Path, name: str) -> Path:
    """Where what is derived from `source` is kept ($SCENT_HOME/cache/NAME-KEY.EXT); `name` is
    "NAME.EXT". OSError when `source` is missing."""
    st = source.stat()
    # A checksum, not hashlib: loading OpenSSL for it was milliseconds of every fresh search.
    key = zlib.crc32(f"{source}|{st.st_size}|{st.st_mtime_ns}".encode())
    stem, _, ext = name.partition(".")
    return scent_home() / "cache" / f"{stem}-{key:08x}.{ext}"


def keep(target: Path, write: Callable[[BinaryIO], None]) -> None:
    """`write` into `target`, whole or not at all; nothing when it cannot be written."""
    tmp = target.with_name(f"{target.name}.{os.getpid()}.tmp")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as f:
            write(f)
        os.replace(tmp, target)
    except OSError:
        with suppress(OSError):
            tmp.unlink(missing_ok=True)
