"""Stems of Arabic words, for keyword search.

The keyword index stems with Porter's English rules (FTS5's `porter` tokenizer), which do nothing
to Arabic: "الكتاب" and "كتاب" (the article joined to its word), "الأبراج" and "الابراج" (a hamza
written or left out), "خَيْرُ" and "خير" (vowel marks) are different words to it, and people write
each both ways. So an Arabic unit keeps its words' Snowball stems (which also normalise those
spellings) among its extra keyword tokens (scent.indexing; beside code identifiers' parts, in the
column read at half weight), and an Arabic query matches a word or its stem (`with_stems`).
"""
from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache

from .query import WORD, KeywordQuery, Term, any_of, quote_fts

# Languages whose words are stored with their Snowball stems. Measured (docs/retrieval-tuning.md,
# session 28): Arabic questions on Arabic passages better; Spanish, French and Portuguese mixed (Porter's
# endings already meet their plurals, and stems stored beside the English gloss lowered its weight for
# English questions); Hindi and Tamil no better. Other scripts Porter cannot stem (Russian, Greek,
# Persian) have no judged collection here to measure them on.
SNOWBALL = {"ar": "arabic"}
_WORD = re.compile(WORD)


@lru_cache(maxsize=None)
def _stemmer(lang: str):
    import Stemmer

    return Stemmer.Stemmer(SNOWBALL[lang])


def stems(text: str, lang: str | None) -> str:
    """The Snowball stems of `text`'s words (in language `lang`) that differ from the words, each
    once, in the order they first occur; "" for a language not stemmed here. A stem of one letter
    is left out: it is what remains of a particle and would match any word reduced to it."""
    if lang not in SNOWBALL:
        return ""
    words = list(dict.fromkeys(w.lower() for w in _WORD.findall(text) if not any(ch.isdigit() for ch in w)))
    return " ".join(dict.fromkeys(s for w, s in zip(words, _stemmer(lang).stemWords(words)) if len(s) > 1 and s != w))


def with_stems(query: KeywordQuery, lang: str | None) -> KeywordQuery:
    """`query` with each plain word term widened to (word OR its stem), for a query in `lang`.
    Each term stays one term: matching by share (min_share) counts a word and its stem once."""
    if lang not in SNOWBALL or not query.terms:
        return query
    terms = []
    for t in query.terms:
        stem = "" if t.is_id or t.is_stopword or " " in t.text.strip() else stems(t.text, lang)
        terms.append(any_of(t, [Term(stem, quote_fts(stem))]) if stem and " " not in stem else t)
    return replace(query, terms=tuple(terms))
