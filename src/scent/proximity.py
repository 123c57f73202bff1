"""Term proximity: how close together a query's words sit in a unit's text.

A page that holds the query's words in one sentence answers it better than one that holds them
scattered over three paragraphs, or one that holds the most common of them many times (what BM25
counts). The measure is the span-based one of Tao and Zhai ("An exploration of proximity measures
in information retrieval", SIGIR 2007) in its simplest form: the query words found within one
window of `width` consecutive words, as a share of all the query's words, each word weighted.
"""
from __future__ import annotations

import bisect

from .query import KeywordQuery, normalise_id
from .snippet import SUBWORD, matches, stem

# About a sentence: words further apart than this rarely belong to one statement.
WIDTH = 12


def hits(text: str, query: KeywordQuery) -> list[tuple[int, str]]:
    """(word position, query key) of every place `text` matches a query word or ID, in text order."""
    spans = matches(text, query.words, query.ids)
    if not spans:
        return []
    starts = [m.start() for m in SUBWORD.finditer(text)]
    out = []
    for a, b in spans:
        piece = text[a:b]
        as_id = normalise_id(piece)
        out.append((bisect.bisect_right(starts, a) - 1, as_id if as_id in query.ids else stem(piece)))
    return out


def window_share(found: list[tuple[int, str]], weights: dict[str, float], width: int = WIDTH) -> float:
    """The largest weighted share (0..1) of the query keys (`weights`: key -> weight) that sit
    within `width` consecutive words, given a text's `hits`. 0 when no key has weight."""
    total = sum(weights.values())
    if total <= 0 or not found:
        return 0.0
    best, counts, inside, lo = 0.0, {}, 0.0, 0
    for pos, key in found:  # a sliding window over the hits, which are in text order
        while found[lo][0] <= pos - width:
            old = found[lo][1]
            counts[old] -= 1
            if not counts[old]:
                del counts[old]
                inside -= weights.get(old, 0.0)
            lo += 1
        if key not in counts:
            inside += weights.get(key, 0.0)
        counts[key] = counts.get(key, 0) + 1
        best = max(best, inside)
    return best / total
