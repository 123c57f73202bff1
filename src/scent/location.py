"""Where an index lives.

By default each indexed folder gets its own directory under $SCENT_HOME/indexes (SCENT_HOME
defaults to $XDG_DATA_HOME/scent or ~/.local/share/scent), named after the folder and a hash of
its absolute path. `--index DIR` puts it anywhere. A search without a folder uses the index of
the current folder (or its nearest indexed parent), else the folder indexed last, and says which
(`Found.how`): a search never answers from another folder without saying so.
"""
from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .errors import IndexNotFound, ScentError
from .settings import scent_home

def default_index_dir(folder: str | Path) -> Path:
    import hashlib  # here: a search of a named --index needs no hash (OpenSSL loads in milliseconds)

    folder = Path(folder).resolve()
    digest = hashlib.sha1(os.fsencode(folder)).hexdigest()[:10]
    name = re.sub(r"[^\w.-]+", "_", folder.name) or "root"
    return scent_home() / "indexes" / f"{name}-{digest}"


def make_home() -> Path:
    """$SCENT_HOME, made when missing, for its owner only: the indexes in it hold the text of every
    file indexed, whoever may read each (see scent.access), so no other account may look in."""
    home = scent_home()
    if not home.exists():
        try:
            home.mkdir(parents=True, exist_ok=True)
            home.chmod(0o700)  # mkdir's mode is masked by the umask
        except OSError as err:
            raise ScentError(f"cannot make scent's folder {home} ({err.strerror or err}); set SCENT_HOME to a folder "
                             "you can write, or name one with --index") from None
    return home


def remember_last(index_dir: Path) -> None:
    home = make_home()
    tmp = home / "last_index.tmp"
    tmp.write_text(str(Path(index_dir).resolve()), encoding="utf-8")
    os.replace(tmp, home / "last_index")


def indexes_dir() -> Path:
    return scent_home() / "indexes"


def known_index_dirs(exists: Callable[[Path], bool]) -> list[Path]:
    """The index directories under $SCENT_HOME that hold an index, by name (`--index DIR` ones
    elsewhere are the user's to keep track of)."""
    root = indexes_dir()
    return sorted(p for p in root.iterdir() if p.is_dir() and exists(p)) if root.is_dir() else []


def forget_last(index_dir: Path) -> None:
    """Stop naming `index_dir` as the folder indexed last (it is being removed)."""
    last = scent_home() / "last_index"
    if last.is_file() and last.read_text(encoding="utf-8").strip() == str(Path(index_dir).resolve()):
        last.unlink()


@dataclass(frozen=True)
class Found:
    """The index directory a command uses, and how it was found."""

    index_dir: Path
    how: str  # "named" (--index or --folder), "here" (this folder or a parent) or "last" (indexed last)


def find_index(folder: str | Path | None, index: str | Path | None, exists: Callable[[Path], bool],
               near: str | Path | None = None) -> Found:
    """The index directory to search, by the rules in this module's docstring; `exists` says
    whether a directory holds an index (each engine knows its own). `near`: the folder whose index
    (or whose parents') is meant, where not the current one (the folder a file named on the
    command line lies in)."""
    if index:
        path = Path(index)
        if not exists(path):
            raise IndexNotFound(f"no index in {path}; build one with: scent index FOLDER --index {path}")
        return Found(path, "named")
    if folder:
        path = default_index_dir(folder)
        if not exists(path):
            if not os.path.isdir(folder):  # a typo, most likely: indexing it would fail too
                raise IndexNotFound(f"{folder} is not indexed, and no such folder is here; check the path "
                                    "(scent list shows the indexed folders)")
            raise IndexNotFound(f"{folder} is not indexed yet; run: scent index {folder}")
        return Found(path, "named")
    here = Path(near or Path.cwd()).resolve()
    for candidate in (here, *here.parents):
        path = default_index_dir(candidate)
        if exists(path):
            return Found(path, "here")
    last = scent_home() / "last_index"
    if last.is_file():
        path = Path(last.read_text(encoding="utf-8").strip())
        if exists(path):
            return Found(path, "last")
    if len(known := known_index_dirs(exists)) == 1:  # the one left when the last was forgotten
        return Found(known[0], "last")
    raise IndexNotFound("no index found for this folder or its parents; index one first: scent index FOLDER "
                        "(scent list shows the indexed folders)")
