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

import re
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

import snowballstemmer

from . import cache
from .errors import ScentError
from .query import KeywordQuery
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


GLOSSARIES = Path(__file__).resolve().parent / "data" / "glossary"


@lru_cache(maxsize=len(STEMMERS))
def _table(lang: str) -> tuple[dict[str, str], dict[str, str]]:
    """(word -> English words, stem -> English words) for `lang`; the stems are written by
    tools/make_glossary.py (`~stem` lines: the gloss of the shortest headword with that stem).
    Parsed once into $SCENT_HOME/cache (scent.cache) and read back from there: German's list took
    77 ms to unpack and parse in a fresh search, its marshalled tables 24 ms; Spanish's 15 and 1."""
    import marshal

    source = GLOSSARIES / f"{lang}.tsv.xz"
    try:
        target = cache.path_for(source, f"gloss-{lang}.marshal")
    except OSError:
        return _parse(source, lang)  # says what is missing
    try:
        return marshal.loads(target.read_bytes())
    except (OSError, ValueError, EOFError, TypeError):  # not kept yet, or damaged: derived again
        pass
    tables = _parse(source, lang)
    cache.keep(target, lambda f: f.write(marshal.dumps(tables)))
    return tables


def _parse(source: Path, lang: str) -> tuple[dict[str, str], dict[str, str]]:
    # Imported here: a search of English words needs no table.
    import lzma

    try:
        packed = source.read_bytes()
    except OSError as err:
        raise ScentError(f"scent's {lang} word list is missing ({err.strerror}): reinstall scent, or index with "
                         "--english-gloss false and search with --translate-query off") from None
    raw = lzma.decompress(packed).decode("utf8")
    words: dict[str, str] = {}
    stems: dict[str, str] = {}
    for line in raw.splitlines():
        key, _, english = line.partition("\t")
        if key.startswith("~"):
            stems[key[1:]] = english
        else:
            words[key] = english
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
        english = _look_up(token, words, stems, stem)
        if english is None and lang in PLURAL_S:
            english = _singular(token, words)
        if english is None and lang == "de":
            english = _compound(token, words, stems, stem)
        if english:
            out.update(dict.fromkeys(english.split()))
    return " ".join(out)


def _look_up(token: str, words: dict[str, str], stems: dict[str, str], stem) -> str | None:
    english = words.get(token)
    if english is None:
        s = stem(token)
        english = stems.get(s) if len(s) >= MIN_STEM else None
    return english


# Languages whose plurals end in -s, and the plural endings tried. A short word's stem is under
# MIN_STEM letters and is not looked up (Portuguese "ovos" stems to "ov"): its singular is.
PLURAL_S = frozenset({"es", "fr", "pt"})
_PLURALS = ("s", "es", "x")


def _singular(token: str, words: dict[str, str]) -> str | None:
    """The gloss of a plural's singular headword ("ovos" -> "ovo": egg), or None."""
    for ending in _PLURALS:
        if token.endswith(ending) and len(token) > len(ending) + 1 and token[:-len(ending)] in words:
            return words[token[:-len(ending)]]
    return None


# German writes compounds as one word (Autoversicherung, Heizkessel) that no dictionary lists.
MIN_PART = 4


def _compound(token: str, words: dict[str, str], stems: dict[str, str], stem) -> str | None:
    """The glosses of a German compound's two parts (see _split); None when no split is found."""
    found = _split(token, words, stems, stem)
    return None if found is None else f"{found[2]} {found[3]}"


def _split(token: str, words: dict[str, str], stems: dict[str, str], stem) -> tuple[str, str, str, str] | None:
    """A German compound's two parts and their glosses, (head, tail, head's, tail's): the longest
    known head (a word, with or without the linking s, or a verb's stem, as Abtast- of Abtastrate,
    sampling rate) whose remainder is a known word; None when no split is found."""
    for cut in range(len(token) - MIN_PART, MIN_PART - 1, -1):
        head, tail = token[:cut], token[cut:]
        first = words.get(head)
        if first is None and head.endswith("s") and cut > MIN_PART and (first := words.get(head[:-1])):
            head = head[:-1]  # the linking s (Geburtsurkunde)
        first = first or stems.get(head)
        if first is None:
            continue
        last = _look_up(tail, words, stems, stem)
        if last is not None:
            return head, tail, first, last
    return None


def compound_parts(text: str, lang: str | None) -> str:
    """The parts of `text`'s German compounds, each once, in order of first use: "Schornsteinfeger"
    -> "schornstein feger", so a search for Schornstein finds the note that says only
    Schornsteinfeger (and Rundfunk the Rundfunkbeitrag's letter); "" for other languages. A word
    that is no compound may be cut too, where both its halves are German words: a wrong part costs
    a keyword match, never a missed one."""
    if lang != "de":
        return ""
    words, stems = _table(lang)
    stem = snowballstemmer.stemmer(STEMMERS[lang]).stemWord
    out: dict[str, None] = {}

    def parts(token: str, depth: int) -> None:
        # Listed compounds too (Schornsteinfeger is a headword), and a part's own parts (Restmüll).
        found = _split(token, words, stems, stem) if len(token) >= 2 * MIN_PART and depth else None
        if found is None:
            return
        head, tail = found[:2]
        if len(head) + len(tail) < len(token) and _look_up(token[len(head):], words, stems, stem):
            out[token[len(head):]] = None  # the s read as the tail's too: Einkommens|teuer, Einkommen|steuer
        for part in (head, tail):
            out[part] = None
            parts(part, depth - 1)

    for token in dict.fromkeys(_TOKEN.findall(text.lower())):
        if "-" not in token:
            parts(token, COMPOUND_DEPTH)
    return " ".join(out)


COMPOUND_DEPTH = 2  # a compound's parts, and theirs (Restmülltonne: restmüll, tonne, rest, müll)


# ---- the query side: each word also matches its translation ------------------------------------

# Words of the other languages an English query word also matches, per language: the headwords
# that gloss it earliest (shortest first), so "potato" asks for patata and Kartoffel, not every
# word whose fourth sense mentions a potato.
PER_LANGUAGE = 2


@lru_cache(maxsize=len(STEMMERS))
def _inverse(lang: str) -> dict[str, tuple[str, ...]]:
    """English stem -> the `lang` words that gloss to it."""
    from .snippet import stem

    ranked: dict[str, list[tuple[int, int, str]]] = {}
    for word, english in _table(lang)[0].items():
        for place, e in enumerate(english.split()):
            ranked.setdefault(stem(e), []).append((place, len(word), word))
    return {e: tuple(w for *_, w in sorted(c)[:PER_LANGUAGE]) for e, c in ranked.items()}


def to_english(lang: str | None, mode: str) -> bool:
    """Whether a query in `lang` is also searched by its words' English gloss (translate_query):
    then English units can hold its words."""
    return mode != "off" and lang in GLOSSED


def translate_query(query: KeywordQuery, lang: str | None, mode: str) -> KeywordQuery:
    """`query` with each plain word term widened to (word OR its translations).

    mode "to_english": a query written in a glossed language also matches its words' English
    gloss (a Spanish query finds English notes). "all": an English query's words also match
    their words in every glossed language (an English query finds notes that have no gloss
    stored). "off": unchanged. Each term stays one term, so matching by share (min_share) counts
    a word and its translation as one."""
    if mode == "off" or not query.terms:
        return query
    english = to_english(lang, mode)
    if not english and (mode != "all" or lang not in (None, "en")):
        return query
    from .query import Term, any_of, quote_fts
    from .snippet import stem

    terms = []
    for t in query.terms:
        if t.is_id or " " in t.text.strip() or t.fts != quote_fts(t.text) and not t.fts.startswith('"'):
            terms.append(t)
            continue
        word = t.text.lower()
        if english:
            others = gloss(word, lang).split()
        else:
            others = [w for g in sorted(GLOSSED) for w in _inverse(g).get(stem(word), ())]
        others = [w for w in dict.fromkeys(others) if w != word]
        terms.append(any_of(t, [Term(w, quote_fts(w)) for w in others]) if others else t)
    return replace(query, terms=tuple(terms))


def with_translation(query: KeywordQuery, english: str) -> KeywordQuery:
    """`query`'s terms (each widened by its gloss), then those of its sentence translation
    (scent.translate) that it lacks: the translation's words hold the sense a word-by-word gloss
    loses ("a que horas" is "at what time"), the query's own words the names and terms a
    translation may render wrongly or drop."""
    from .query import MAX_TERMS, parse

    seen = {x.casefold() for t in query.terms for x in t.texts}  # a word the gloss gave already counts once
    added = []
    for t in parse(english).terms:
        if t.text.casefold() not in seen:
            seen.add(t.text.casefold())
            added.append(t)
    return replace(query, terms=(*query.terms, *added)[:MAX_TERMS])
