"""Keyword matching rules every engine applies the same way, whatever answers its queries."""
from __future__ import annotations

import unicodedata
from collections.abc import Callable
from functools import lru_cache

from ..filters import Filters
from ..query import KeywordQuery
from ..storage import Hit

FUZZY_MIN_LENGTH = 6  # one wrong character in a shorter code matches too much
FUZZY_CANDIDATES = 500

Search = Callable[[KeywordQuery, str, str, Filters, int], list[Hit]]


def then_or(search: Search, query: KeywordQuery, first_mode: str, min_share: str, filters: Filters,
            limit: int) -> list[Hit]:
    """The units `first_mode` matches, then the rest of the `or` list: `and_or` is `and` first."""
    first = search(query, first_mode, min_share, filters, limit)
    if len(first) >= limit or len(query.terms) < 2:
        return first
    seen = {uid for uid, _ in first}
    rest = [h for h in search(query, "or", min_share, filters, limit) if h[0] not in seen]
    return (first + rest)[:limit]


def share_first(hits: list[Hit], holds_share: set[int], then_rest: bool, limit: int) -> list[Hit]:
    """`hits` (an `or` list, `limit` x 5 deep) holding the share; with `then_rest` (the
    `min_share_or` mode), then the rest of the top `limit` of the `or` list, in its order (what
    then_or would give, from one `or` search instead of two)."""
    out = [h for h in hits if h[0] in holds_share]
    if then_rest:
        out += [h for h in hits[:limit] if h[0] not in holds_share]
    return out[:limit]


def trigrams(token: str) -> list[str]:
    """The token's three-character pieces, in order, each once: what fuzzy ID lookup matches on."""
    return list(dict.fromkeys(token[i:i + 3] for i in range(len(token) - 2)))


def one_off(token: str, wanted: str) -> bool:
    """At most one character inserted, deleted or changed: an OCR slip or a typo in a code."""
    if abs(len(token) - len(wanted)) > 1:
        return False
    from rapidfuzz.distance import Levenshtein  # only queries with IDs get here: not in every search's start

    return Levenshtein.distance(token, wanted, score_cutoff=1) <= 1


def most_held(wanted: str, held: list[list[str]]) -> list[str]:
    """The tokens one character off `wanted` among the units' tokens `held`, those more units hold first."""
    counts: dict[str, int] = {}
    for tokens in held:
        for t in set(tokens):
            if t != wanted and one_off(t, wanted):
                counts[t] = counts.get(t, 0) + 1
    return sorted(counts, key=lambda t: (-counts[t], t))


@lru_cache(maxsize=1 << 16)
def token(word: str) -> str:
    """One word as the keyword index keeps it: what SQLite's FTS5 tokenizer (unicode61, Latin
    diacritics removed, then Porter) makes of it, so an engine without FTS5 keeps the same tokens
    and a word can be looked up in FTS5's vocabulary."""
    out = []
    for ch in word.lower():
        if ord(ch) > 127 and unicodedata.category(ch).startswith("L"):
            base = unicodedata.normalize("NFKD", ch)[0]
            ch = base if base.isascii() else ch
        out.append(ch)
    word = "".join(out)
    return _porter().stemWord(word) if word.isascii() else word


@lru_cache(maxsize=1)
def _porter():
    import snowballstemmer  # here: only the Qdrant engine's writes and a spelling check stem in Python

    return snowballstemmer.stemmer("porter")
