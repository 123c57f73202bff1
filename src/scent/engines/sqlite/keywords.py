"""The keyword index in SQLite: FTS5 over units (kept in step by triggers, see migrations), BM25
ranking, and a trigram index of ID-like tokens for exact and one-off ID lookup."""
from __future__ import annotations

import sqlite3

from ...errors import ScentError
from ...filters import Filters
from ...query import KeywordQuery, match_expression, quote_fts, required_terms
from ...storage import Hit, batched
from ..matching import FUZZY_CANDIDATES, FUZZY_MIN_LENGTH, most_held, one_off, share_first, then_or, token, trigrams
from .filters import where

# bm25 column weights for (text, title, path, extra)
BM25_WEIGHTS = (1.0, 1.0, 1.0, 0.5)


class SqliteKeywords:
    def __init__(self, db: sqlite3.Connection):
        self.db = db

    def search(self, query: KeywordQuery, mode: str, min_share: str, filters: Filters, limit: int) -> list[Hit]:
        if mode == "and_or":
            return then_or(self.search, query, "and", min_share, filters, limit)
        if mode in ("min_share", "min_share_or"):
            need = required_terms(len(query.terms), min_share)
            hits = self.search(query, "or", min_share, filters, limit * 5)
            if need <= 1 or not hits:
                return hits[:limit]
            counts = self._terms_matched(query, [uid for uid, _ in hits])
            return share_first(hits, {uid for uid, n in counts.items() if n >= need}, mode == "min_share_or", limit)
        expression = match_expression(query, mode)
        if expression is None:
            return []
        sql, params = keyword_sql(expression, filters, limit)
        try:
            return [(uid, -score) for uid, score in self.db.execute(sql, params)]
        except sqlite3.OperationalError as err:  # quoting makes this unreachable; say so loudly if not
            raise ScentError(f"keyword search failed for {expression!r}: {err}") from None

    def holds(self, query: KeywordQuery, filters: Filters) -> list[bool]:
        """For each term: does any unit under `filters` hold it? Unranked (no BM25 over every
        match), so a common word costs no more than a rare one."""
        condition, params = where(filters)
        sql = ("SELECT 1 FROM units_fts JOIN units u ON u.row = units_fts.rowid JOIN files f ON f.id = u.file_id "
               f"WHERE units_fts MATCH ? AND {condition} LIMIT 1")
        return [self.db.execute(sql, (t.fts, *params)).fetchone() is not None for t in query.terms]

    def word_counts(self, words: list[str], filters: Filters, limit: int) -> dict[str, int]:
        """How many units under `filters` hold each of `words` (up to `limit`); words none holds are
        left out. FTS5's vocabulary (every unit) says first which words any unit holds, in one
        lookup, so only those are counted under the filters."""
        by_token: dict[str, list[str]] = {}
        for w in words:
            by_token.setdefault(token(w), []).append(w)
        # A temp table is this connection's own: a read-only index can have it too.
        self.db.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.units_vocab USING fts5vocab(main, units_fts, row)")
        held = []
        for part in batched(list(by_token)):
            held += [t for (t,) in self.db.execute(
                f"SELECT term FROM temp.units_vocab WHERE term IN ({', '.join('?' * len(part))})", part)]
        condition, params = where(filters)
        sql = ("SELECT count(*) FROM (SELECT 1 FROM units_fts JOIN units u ON u.row = units_fts.rowid "
               f"JOIN files f ON f.id = u.file_id WHERE units_fts MATCH ? AND {condition} LIMIT ?)")
        counts = {}
        for t in held:
            n = self.db.execute(sql, (quote_fts(by_token[t][0]), *params, limit)).fetchone()[0]
            if n:
                counts.update(dict.fromkeys(by_token[t], n))
        return counts

    def _terms_matched(self, query: KeywordQuery, uids: list[int]) -> dict[int, int]:
        # One plain MATCH per term, intersected here: a `rowid IN (...)` condition would make
        # FTS5 evaluate the term once per candidate row. FTS5 knows units by their local row.
        wanted: dict[int, int] = {}
        for part in batched(uids):
            wanted.update(self.db.execute(
                f"SELECT row, id FROM units WHERE id IN ({', '.join('?' * len(part))})", part))
        counts: dict[int, int] = {}
        for term in query.terms:
            for (row,) in self.db.execute("SELECT rowid FROM units_fts WHERE units_fts MATCH ?", (term.fts,)):
                uid = wanted.get(row)
                if uid is not None:
                    counts[uid] = counts.get(uid, 0) + 1
        return counts

    def id_search(self, ids: tuple[str, ...], filters: Filters, limit: int) -> list[Hit]:
        """Units holding each ID exactly (score 2), or, for an ID found nowhere, one character off (score 1)."""
        condition, params = where(filters)
        scores: dict[int, float] = {}
        for token in ids:
            exact = self._id_candidates(f'"{token}"', condition, params, FUZZY_CANDIDATES)
            found = {uid for uid, toks in exact if token in toks}
            if not found and len(token) >= FUZZY_MIN_LENGTH:
                found = {uid for uid, toks in self._near(token, condition, params) if any(one_off(t, token) for t in toks)}
                weight = 1.0
            else:
                weight = 2.0
            for uid in found:
                scores[uid] = scores.get(uid, 0.0) + weight
        return sorted(scores.items(), key=lambda h: (-h[1], h[0]))[:limit]

    def near_ids(self, ident: str, filters: Filters) -> list[str]:
        """The IDs units hold one character off `ident` (a normalised ID), most held first; none when
        a unit holds it exactly, or it is too short to guess at."""
        condition, params = where(filters)
        if len(ident) < FUZZY_MIN_LENGTH or any(
                ident in toks for _, toks in self._id_candidates(f'"{ident}"', condition, params, FUZZY_CANDIDATES)):
            return []
        return most_held(ident, [toks for _, toks in self._near(ident, condition, params)])

    def _near(self, ident: str, condition: str, params: list) -> list[tuple[int, list[str]]]:
        """Units sharing a trigram with `ident`, with their IDs: those one character off are among them."""
        return self._id_candidates(" OR ".join(f'"{g}"' for g in trigrams(ident)), condition, params, FUZZY_CANDIDATES)

    def _id_candidates(self, expression: str, condition: str, params: list, limit: int) -> list[tuple[int, list[str]]]:
        sql = (f"SELECT u.id, u.ids FROM ids_fts JOIN units u ON u.row = ids_fts.rowid JOIN files f ON f.id = u.file_id "
               f"WHERE ids_fts MATCH ? AND {condition} ORDER BY rank LIMIT ?")
        return [(uid, text.split()) for uid, text in self.db.execute(sql, (expression, *params, limit))]


def keyword_sql(expression: str, filters: Filters, limit: int) -> tuple[str, list]:
    """The SQL behind keyword search, kept apart from running it so it can be shown and tested."""
    condition, params = where(filters)
    weights = ", ".join(str(w) for w in BM25_WEIGHTS)
    sql = (f"SELECT u.id, bm25(units_fts, {weights}) AS score "
           "FROM units_fts JOIN units u ON u.row = units_fts.rowid JOIN files f ON f.id = u.file_id "
           f"WHERE units_fts MATCH ? AND {condition} ORDER BY score LIMIT ?")
    return sql, [expression, *params, limit]
