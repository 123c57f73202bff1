"""An English gloss of text in Spanish, French, German, Portuguese or Hindi: word by word.

Why: a note in another language shares no words with an English query, so keyword search never
finds it and fusion ranks it below English notes that only the keyword list found. Its gloss
(the English words of a bilingual dictionary for each of its words) is stored beside its text as
extra keyword tokens, so "potato omelette" matches "tortilla de patatas" through "potato" and
"omelette". Literal and noisy, but BM25 needs only the words (docs/retrieval-tuning.md).

The word lists (data/glossary/*.tsv.xz) are derived from FreeDict dictionaries by
tools/make_glossary.py and are GPL-licensed (data/glossary/LICENSE). There is none for Tamil.
"""
from __future__ import annotations

import lzma
import re
from functools import lru_cache
from importlib.resources import files

import snowballstemmer

from .stopwords import STOPWORDS

# language (ISO 639-1) -> Snowball stemmer: a word missing from the list is looked up by its stem
# (patatas -> patat <- patata), so inflected forms find their headword.
STEMMERS = {"es": "spanish", "fr": "french", "pt": "portuguese", "de": "german", "hi": "hindi"}
GLOSSED = frozenset(STEMMERS)
# A stem shorter than this matches too many unrelated headwords (Hindi घी -> घ).
MIN_STEM = 3
# Letters with Devanagari's combining vowel signs, which \w does not match.
_TOKEN = re.compile(r"[^\W\d_][\w\u0900-\u0963\u0971-\u097f'-]*")
# Hindi function words: they are in the English->Hindi dictionary as translations of content words.
_HI_STOP = frozenset("के है में की से और को का हैं पर भी एक तो नहीं ने कर ही हो लिए कि इस था यह गया किया जो ये "
                     "आप करने रहे थे थी वह हम तक बहुत साथ अपने कुछ उस वे".split())


@lru_cache(maxsize=len(STEMMERS))
def _table(lang: str) -> tuple[dict[str, str], dict[str, str]]:
    """(word -> English words, stem -> English words) for `lang`."""
    raw = lzma.decompress(files("scent").joinpath(f"data/glossary/{lang}.tsv.xz").read_bytes()).decode("utf8")
    words: dict[str, str] = {}
    for line in raw.splitlines():
        word, _, english = line.partition("\t")
        words[word] = english
    stem = snowballstemmer.stemmer(STEMMERS[lang]).stemWord
    stems: dict[str, str] = {}
    # Shorter headwords first: of the words sharing a stem, the base form (patata) gives the gloss.
    for word in sorted(words, key=lambda w: (len(w), w)):
        s = stem(word)
        if len(s) >= MIN_STEM:
            stems.setdefault(s, words[word])
    return words, stems


def gloss(text: str, lang: str | None) -> str:
    """The English words for `text`'s words, each once, in order of first use; "" when `lang`
    has no word list (English, Tamil, unknown)."""
    if lang not in GLOSSED:
        return ""
    words, stems = _table(lang)
    stem = snowballstemmer.stemmer(STEMMERS[lang]).stemWord
    out: dict[str, None] = {}
    for token in _TOKEN.findall(text.lower()):
        if len(token) < 2 or token in STOPWORDS or token in _HI_STOP:  # one letter: a list item's a), x
            continue
        english = words.get(token)
        if english is None:
            s = stem(token)
            english = stems.get(s) if len(s) >= MIN_STEM else None
        if english:
            out.update(dict.fromkeys(english.split()))
    return " ".join(out)
