"""Keywords in Qdrant: BM25 as sparse vectors, and IDs as payload.

A unit's sparse vector holds, for each of its tokens, BM25's saturated term frequency (k1 1.2,
b 0.75, the length against the collection's recorded average); the collection multiplies it by
the IDF it keeps itself (`Modifier.IDF`), so the score is BM25's. Tokens are made as the SQLite
engine's FTS5 tokenizer makes them (unicode61 with marks and `_` inside words, Latin diacritics
removed, Porter stems), over the text, title, path and extra tokens (the extra ones at half
weight, like FTS5's column weights). The sparse index matches any token; `and` and `min_share`
count, in the `limit x 5` best, the query terms each unit holds, as the SQLite engine does.
"""
from __future__ import annotations

import re
import zlib

from ...filters import Filters
from ...query import WORD, KeywordQuery, Term, _parts, identifier_parts, is_id_like, normalise_id, required_terms
from ...storage import Hit
from ..matching import FUZZY_CANDIDATES, FUZZY_MIN_LENGTH, most_held, one_off, share_first, then_or, token, trigrams

K1, B = 1.2, 0.75
EXTRA_WEIGHT = 0.5
_TOKEN = re.compile(WORD)


def tokens(text: str) -> list[str]:
    return [token(w) for w in _TOKEN.findall(text)]


def token_id(tok: str) -> int:
    return zlib.crc32(tok.encode())


def document_vector(text: str, title: str, path_words: str, extra: str, avgdl: float) -> tuple[list[int], list[float]]:
    """(indices, values) of a unit's sparse vector."""
    tf: dict[int, float] = {}
    length = 0.0
    for part, weight in ((text, 1.0), (title, 1.0), (path_words, 1.0), (extra, EXTRA_WEIGHT)):
        for tok in tokens(part):
            key = token_id(tok)
            tf[key] = tf.get(key, 0.0) + weight
            length += weight
    norm = K1 * (1 - B + B * length / max(avgdl, 1.0))
    indices = sorted(tf)
    return indices, [tf[i] * (K1 + 1) / (tf[i] + norm) for i in indices]


def term_tokens(term: Term) -> list[list[int]]:
    """The token ids a unit must hold to match a query term, one list for each of its texts (any
    of them matches: `invoice OR receipt`): an ID by its joined form (what extra_tokens stores
    beside the text), other texts by all their parts."""
    out = []
    for text in term.texts:
        parts = _parts(text)
        if term.is_id or is_id_like(text):
            joined = normalise_id(text).lower()
            out.append([token_id(token(joined if len(parts) > 1 else parts[0]))])
        else:
            out.append(list(dict.fromkeys(token_id(token(w)) for p in parts for w in _TOKEN.findall(p))))
            if len(parts) == 1 and len(pieces := identifier_parts(parts[0])) > 1:  # as the SQLite engine's term
                out.append([token_id(token(w)) for w in dict.fromkeys(pieces)])
    return [t for t in out if t]


class QdrantKeywords:
    def __init__(self, engine):
        self.engine = engine

    def search(self, query: KeywordQuery, mode: str, min_share: str, filters: Filters, limit: int) -> list[Hit]:
        if mode == "and_or":
            return then_or(self.search, query, "and", min_share, filters, limit)
        terms = [term_tokens(t) for t in query.terms]
        terms = [t for t in terms if t]
        if not terms:
            return []
        need = (len(terms) if mode == "and" else required_terms(len(terms), min_share)
                if mode in ("min_share", "min_share_or") else 1)
        wanted = sorted({i for t in terms for alt in t for i in alt})
        found = self.engine.sparse_search(wanted, filters, limit * 5 if need > 1 else limit, with_vector=need > 1)
        hits = [(uid, score) for uid, score, _ in found]
        if need <= 1:
            return hits[:limit]
        enough = {uid for uid, _, held in found if sum(any(all(i in held for i in alt) for alt in t) for t in terms) >= need}
        return share_first(hits, enough, mode == "min_share_or", limit)

    def holds(self, query: KeywordQuery, filters: Filters) -> list[bool]:
        """For each term: does any unit under `filters` hold it?"""
        return [bool(self.search(KeywordQuery((t,), ()), "or", "1", filters, 1)) for t in query.terms]

    def word_counts(self, words: list[str], filters: Filters, limit: int) -> dict[str, int]:
        """How many of the `limit` units under `filters` that hold most of `words` hold each one (a
        sparse index lists no vocabulary: this counts in one search what it finds); words none of
        them holds are left out."""
        ids = {w: token_id(token(w)) for w in words}
        found = self.engine.sparse_search(sorted(set(ids.values())), filters, limit, with_vector=True)
        counts: dict[int, int] = {}
        for _, _, held in found:
            for i in held:
                counts[i] = counts.get(i, 0) + 1
        return {w: counts[i] for w, i in ids.items() if i in counts}

    def near_ids(self, ident: str, filters: Filters) -> list[str]:
        """The IDs units hold one character off `ident` (a normalised ID), most held first; none when
        a unit holds it exactly, or it is too short to guess at."""
        if len(ident) < FUZZY_MIN_LENGTH or self.engine.payload_match("ids", [ident], 1, filters, 1):
            return []
        return most_held(ident, [held for _, held in self._near(ident, filters)])

    def id_search(self, ids: tuple[str, ...], filters: Filters, limit: int) -> list[Hit]:
        """Units holding each ID exactly (score 2), or, for an ID found nowhere, one character off (score 1)."""
        scores: dict[int, float] = {}
        for ident in ids:
            found = {uid for uid, _ in self.engine.payload_match("ids", [ident], 1, filters, FUZZY_CANDIDATES)}
            weight = 2.0
            if not found and len(ident) >= FUZZY_MIN_LENGTH:
                found = {uid for uid, held in self._near(ident, filters) if any(one_off(t, ident) for t in held)}
                weight = 1.0
            for uid in found:
                scores[uid] = scores.get(uid, 0.0) + weight
        return sorted(scores.items(), key=lambda h: (-h[1], h[0]))[:limit]

    def _near(self, ident: str, filters: Filters) -> list[tuple[int, list[str]]]:
        """Units holding all but three of `ident`'s trigrams (one character changed, added or dropped
        touches at most three), with their IDs: those one character off are among them."""
        wanted = trigrams(ident)
        return self.engine.payload_match("id_grams", wanted, max(1, len(wanted) - 3), filters, FUZZY_CANDIDATES)
