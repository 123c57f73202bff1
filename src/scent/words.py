"""scent's word lists (WordNet's English words, the glossaries' headwords), asked `word in words`.

Why not sets: a fresh `scent search` whose query holds a word its folder lacks asks whether it is
a word at all (scent.spelling), and unpacking the English list into a set took ~20 ms of it, the
other languages' headwords ~15 ms more. Each list is written once, sorted and uncompressed, under
$SCENT_HOME/cache (scent.cache) and memory-mapped from there (~1 ms); a word is found by binary
search (~2-5 us).
"""
from __future__ import annotations

import zlib
from functools import lru_cache
from pathlib import Path

import numpy as np

from . import cache
from .errors import ScentError

DATA = Path(__file__).resolve().parent / "data"


class Words:
    """Sorted UTF-8 words in a numpy bytes array: membership by binary search."""

    def __init__(self, words: np.ndarray):
        self._words = words

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        w = word.encode("utf-8", "surrogatepass")
        if not w or len(w) > self._words.itemsize:  # longer than any: numpy would compare it cut short
            return False
        at = int(np.searchsorted(self._words, w))
        return at < len(self._words) and bytes(self._words[at]) == w

    def __len__(self) -> int:
        return len(self._words)


@lru_cache(maxsize=None)
def load(name: str, what: str) -> Words:
    """The list in data/`name` (gzipped text, one word a line); `what` names it in the error."""
    source = DATA / name
    try:
        target = cache.path_for(source, f"words-{source.name.split('.')[0]}.npy")
    except OSError as err:
        raise ScentError(f"scent's {what} is missing ({err.strerror}): reinstall scent, or search with "
                         "--spelling false") from None
    try:
        return Words(np.load(target, mmap_mode="r", allow_pickle=False))
    except (OSError, ValueError):
        pass
    try:
        text = zlib.decompress(source.read_bytes(), wbits=31)
    except (OSError, zlib.error) as err:
        raise ScentError(f"scent's {what} cannot be read ({err}): reinstall scent, or search with "
                         "--spelling false") from None
    found = sorted(set(text.split()))
    words = np.array(found, dtype=f"S{max(1, max(map(len, found), default=1))}")
    cache.keep(target, lambda f: np.save(f, words, allow_pickle=False))
    return Words(words)
