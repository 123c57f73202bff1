"""How sure a result is: cheap facts about a query and a result unit, and the confidence (0..1)
a logistic model gives them (fitted by scent.replay on recorded lists: true to its word for a
query's answer and for filler, too high for a wrong result that shares the query's words).

Why these facts: a dense cosine alone says almost nothing (nonsense strings reach the cosines of
right answers, e5's scores sit in a narrow band), while whether the index holds the query's
words at all, and how many of them a result holds, separate most right answers from filler
(docs/retrieval-tuning.md, 2026-12-01). An answer in another language than the query, or a
picture described in other words, cannot hold the query's words: its language and kind are facts
of their own, so the model does not read their low coverage as weakness.
"""
from __future__ import annotations

import math
import re
from dataclasses import replace
from functools import lru_cache

from .filters import Filters
from .kinds import PICTURE_KINDS
from .language import reads_as_english
from .query import (WORD, KeywordQuery, Term, _chunks, _parts, id_tokens, identifier_parts, is_dotted_name, normalise_id,
                    split_identifier, symbol_names)
from .snippet import stem
from .stopwords import STOPWORDS
from .syntax import contains, words

# Words that ask for a picture rather than text (the same list decides which unit of a file answers).
ASKS_FOR_PICTURE = re.compile(
    r"\b(photos?|pictures?|pics?|images?|charts?|graphs?|plots?|diagrams?|drawings?|sketch(es)?|"
    r"floor ?plans?|maps?|screenshots?|figures?|illustrations?)\b", re.I)


def asks_for_picture(text: str) -> bool:
    """Whether `text` names a kind of picture (ASKS_FOR_PICTURE) in a word written as a word: one
    with a capital after its first letter is an acronym ("mAP", mean average precision, in nearly
    every question a machine-learning researcher asks; "MAP" estimates), not a map."""
    return any(_as_word(m.group()) for m in ASKS_FOR_PICTURE.finditer(text))


def _as_word(word: str) -> bool:
    return word[1:] == word[1:].lower()


_TOKEN = re.compile(WORD)
_CAMEL_WORD = re.compile(r"\w*[a-z][A-Z]\w*")


@lru_cache(maxsize=4096)
def _unit_stems(text: str) -> frozenset[str]:
    """The stems a text holds, identifier parts included (read_file, parseHttpHeader: read, file,
    parse, http, header). A regex pass, not the query parser's character loops: this runs on the
    text of every shown result of every query."""
    tokens = set(_TOKEN.findall(text.lower()))
    parts = {p for t in tokens if "_" in t for p in t.split("_") if p}
    parts.update(p for t in _CAMEL_WORD.findall(text) for p in split_identifier(t))
    parts.update(symbol_names(text))
    return frozenset(stem(t) for t in tokens | parts)


def coverage(query: KeywordQuery, text: str) -> float:
    """The share of the query's topic terms (topic_terms) that `text` holds: words by English stem
    ("trucks" ~ "truck"), identifiers split as the index splits them (`test_settlement_rounding` ~
    "settlement rounding"), IDs by their normalised form ("LD-2026-0417" ~ "LD20260417"). 0 for no
    terms."""
    terms = topic_terms(query)
    if not terms:
        return 0.0
    have = _unit_stems(text)
    have_ids = _unit_ids(text) if query.ids else frozenset()
    found = 0
    for term in terms:
        found += any(_holds(typed, term.is_id, have, have_ids, text) for typed in term.texts)
    return found / len(terms)


@lru_cache(maxsize=256)
def topic_terms(query: KeywordQuery) -> tuple[Term, ...]:
    """The query's terms less those that name a kind of picture ("photo", "chart", "screenshot"),
    unless that is all it says. "photo of the eiffel tower" asks about the tower: every photo's
    description holds "photo", and counted as held it made any photo of a folder without the
    tower look like the answer (72% of 40 such questions on bench/ showed one sure). Which kind is
    asked still steers the lists and the page shown (scent.search.choose)."""
    topical = tuple(t for t in query.terms if not _names_kind(t))
    return topical or query.terms


def _names_kind(term: Term) -> bool:
    return not term.is_id and all(ASKS_FOR_PICTURE.fullmatch(t) and _as_word(t) for t in term.texts)


@lru_cache(maxsize=4096)
def _unit_ids(text: str) -> frozenset[str]:
    return frozenset(id_tokens(text).split())


@lru_cache(maxsize=1024)
def _term_stems(text: str) -> tuple[str, ...]:
    """A query term's stems, identifiers split (worked out once, not once per result); a name with
    symbols as one word (C++ is held by a note that says C++, not by one that says C)."""
    named = symbol_names(text)
    if len(named) == 1 and len(words(text)) == 1:
        return (stem(named[0]),)
    return tuple(stem(p) for chunk in _chunks(text) for w in _parts(chunk) for p in identifier_parts(w))


def _holds(term: str, is_id: bool, have: frozenset[str], have_ids: frozenset[str], text: str) -> bool:
    """Whether `text` (whose stems are `have`, IDs `have_ids`) holds the query term `term`. Words
    joined by hyphens ("second-hand") are one term, matched by the keyword list as a phrase: held
    side by side, not anywhere ("the second time ... by hand" is not second-hand)."""
    if is_id and normalise_id(term) in have_ids:
        return True
    stems = _term_stems(term)
    if not stems or not all(s in have for s in stems):
        return False
    return (len(stems) == 1 or len(identifier_parts(term)) > 1 or is_dotted_name(term)
            or contains(_unit_words(text), stems))


@lru_cache(maxsize=1024)
def _unit_words(text: str) -> tuple[str, ...]:
    """A text's word stems in order (for terms of several words)."""
    return tuple(stem(w) for w in words(text))


def query_facts(request) -> dict:
    """The query's own facts: its language, whether it asks for a picture, how many topic terms
    it has (topic_terms), and how many of them the index holds anywhere the asking user may read (none:
    nonsense, or a topic the folder never mentions). One unranked keyword lookup per term.

    Anywhere, not only under the request's other filters: a narrowed search often holds none of
    the query's words where it looks ("recipe" among the Spanish notes, which say "receta"), and
    read as nonsense its right answers were all flagged weak (bench/'s filter queries).

    A query of stop words only ("a", "what is it") is kept whole by the keyword list, and every
    note holds its words: counted as held, they made any result look sure (99% for "a"). They say
    nothing of a topic, so none counts; nor does an OR group of stop words, which the keyword list
    searches as typed ("a AND OR NOT" was 99% sure too); a quoted phrase ("to be or not to be") is
    no stop word."""

    terms = topic_terms(request.keywords)
    readable = Filters(readers=request.filters.readers) if request.filters else Filters()
    if terms and all(_names_no_topic(t) for t in terms):
        in_index = 0
    else:
        in_index = sum(request.engine.keywords.holds(replace(request.keywords, terms=terms), readable))
    return {"lang": request.lang, "picture_intent": asks_for_picture(request.text),
            "terms": len(terms), "terms_in_index": in_index, "has_ids": bool(request.keywords.ids)}


def settle_language(facts: dict, text: str, langs) -> dict:
    """`facts` with the query's language English where it was left open but the query's every word is
    an English one, once a result in another language (`langs`: the results' languages) is to be
    weighed. A short query's language is left open (scent.language.query_language: a guess on a few
    words is often wrong, "Spanish potato omelette" reads as Italian), and then an answer in another
    language was not a fact of its own: the Spanish recipe, first for that query, was flagged weak
    (46%) for holding none of its words. The word list is read only when such a result is shown:
    a fact of other-language results, it changes nothing for the others."""
    if facts.get("lang") is None and any(lang not in (None, "en") for lang in langs) and reads_as_english(text):
        facts["lang"] = "en"
    return facts


def _names_no_topic(term: Term) -> bool:
    """A stop word, or an OR group whose every alternative is one (`the OR a`)."""
    return term.is_stopword or bool(term.also) and all(t.lower() in STOPWORDS for t in term.texts)


# ---- the model -------------------------------------------------------------------------------

# The features of one result, in the model's order. `dense_margin`: its cosine minus the dense
# list's 50th (how far above the crowd; the raw cosine's level moves with the query).
FEATURES = ("bias", "dense", "dense_margin", "coverage", "in_index", "no_word_in_index", "keyword_listed",
            "other_language", "picture", "picture_cov", "id_match", "inv_rank", "inv_dense_rank", "inv_keyword_rank",
            "other_language_dense", "keyword_score", "top_keyword_score", "dense_gap", "below_top_dense")
MARGIN_AT = 50


def features(result: dict, facts: dict) -> list[float]:
    """`result`: dense (its file's best cosine, None when not in the dense list), dense_50 (the
    dense list's 50th cosine), coverage, keyword (in the keyword list), lang (the unit's), kind, id
    (in the ID list), rank (fused), dense_rank and keyword_rank (its file's, None when absent)."""
    dense = result.get("dense")
    d = float(dense) if dense is not None else 0.0
    margin = d - float(result.get("dense_50") or d) if dense is not None else 0.0
    terms = facts.get("terms") or 0
    in_index = facts.get("terms_in_index", 0) / terms if terms else 0.0
    other = facts.get("lang") is not None and result.get("lang") not in (None, facts.get("lang"))
    picture = result.get("kind") in PICTURE_KINDS
    cov = float(result.get("coverage") or 0.0)
    return [1.0, d, margin, cov, in_index, float(terms > 0 and facts.get("terms_in_index", 0) == 0),
            float(bool(result.get("keyword"))), float(other), float(picture), cov * picture,
            float(bool(result.get("id"))), 1.0 / result.get("rank", 1), _inv(result.get("dense_rank")),
            _inv(result.get("keyword_rank")), float(other) * margin,
            # BM25 holds the words' rarity: an off-topic question matches common words only. Per
            # query term, so long queries do not score higher for their length.
            float(result.get("keyword_score") or 0.0) / max(terms, 1), float(result.get("top_keyword") or 0.0) / max(terms, 1),
            float(result.get("dense_top") or 0.0) - float(result.get("dense_50") or 0.0) if dense is not None else 0.0,
            d - float(result.get("dense_top") or d) if dense is not None else 0.0]


def _inv(rank: int | None) -> float:
    return 1.0 / rank if rank else 0.0


def probability(weights: dict[str, float], x: list[float]) -> float:
    z = sum(weights.get(name, 0.0) * v for name, v in zip(FEATURES, x))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def result_inputs(lists: dict[str, list], path_of, shown: list[tuple[str, int]], unit_facts) -> list[dict]:
    """What `features` reads for each shown result (file path, shown unit id), from the fused
    lists: a file's dense score is its best unit's there (a file ranks as its best unit), or where
    the list lacks the file, the shown unit's own cosine (`cosine` of unit_facts, when known).
    `path_of(uid)` gives a unit's file; `unit_facts(uid)` its lang, kind, coverage and cosine."""
    dense = lists.get("dense") or []
    best_dense: dict[str, float] = {}
    for uid, s in dense:
        best_dense.setdefault(path_of(uid), s)  # the list is best first
    dense_rank = {p: n for n, p in enumerate(best_dense, start=1)}
    dense_50 = dense[min(MARGIN_AT, len(dense)) - 1][1] if dense else None
    keyword_best: dict[str, float] = {}
    for uid, s in lists.get("keyword") or ():
        keyword_best.setdefault(path_of(uid), s)
    keyword_rank = {p: n for n, p in enumerate(keyword_best, start=1)}
    top_keyword = next(iter(keyword_best.values()), 0.0)
    dense_top = dense[0][1] if dense else None
    ids = {path_of(uid) for uid, _ in lists.get("ids") or ()}
    out = []
    for rank, (path, uid) in enumerate(shown, start=1):
        facts = dict(unit_facts(uid))
        cosine = facts.pop("cosine", None)
        out.append({"dense": best_dense.get(path, cosine), "dense_50": dense_50, "keyword": path in keyword_rank,
                    "id": path in ids, "rank": rank, "dense_rank": dense_rank.get(path),
                    "keyword_rank": keyword_rank.get(path), "keyword_score": keyword_best.get(path),
                    "top_keyword": top_keyword, "dense_top": dense_top, **facts})
    return out


# Fitted by scent.replay.fit_confidence (scripts/confidence_figures.py --fit) on recorded lists of
# bench/ (159 queries, 60 off-topic in bench/offtopic.txt), Cranfield, chart-pages and photo-captions
# (with the 52 off-topic queries of bench/offtopic-shared.txt each), recorded at 9aa8c29 (session 17):
# right answers and every result of an off-topic query, and the other results of answered queries
# at replay.CONFIDENCE_OTHERS each. docs/retrieval-tuning.md (session 17) gives the held-out table.
MODEL: dict[str, float] = {
    "bias": -11.9834, "dense": 4.8238, "dense_margin": 2.6666, "coverage": 5.1159, "in_index": 5.2259,
    "no_word_in_index": -0.8642, "keyword_listed": 0.1611, "other_language": 2.6679, "picture": 2.2595,
    "picture_cov": 2.0545, "id_match": -0.0742, "inv_rank": -0.4629, "inv_dense_rank": 2.8263,
    "inv_keyword_rank": 1.1909, "other_language_dense": 0.4726, "keyword_score": 0.3418,
    "top_keyword_score": -0.2456, "dense_gap": 1.7976, "below_top_dense": 0.8690
}


def assess(x: list[float], model: dict[str, float] | None = None, floor: float = 0.5) -> tuple[float, bool]:
    """(confidence, weak) of one result's features; the floor is the `confidence_floor` setting."""
    p = probability(MODEL if model is None else model, x)
    return round(p, 4), p < floor
