"""Query words no file holds, read as the word one typing slip away that files do hold.

Why: a misspelt word matches nothing in the keyword list, and the confidence reads a query word
the index lacks as a sign that there is no answer: one letter dropped from a query's longest word
cost bench/ MRR@10 0.855 -> 0.763 and flagged a quarter of the found answers weak
(docs/retrieval-tuning.md, sessions 17 and 18).

A word is corrected only when no unit the asker may read holds it, no dictionary knows it (a
real word the folder lacks, "chess", is searched as typed, not turned into one the folder holds,
"cheese"), and it has at least MIN_LENGTH letters: a short word is one slip from too many others,
but a stop word with two letters swapped or one dropped, its first letter kept ("teh", "abou"),
is read as that stop word.
The dictionaries are WordNet's English words (data/words, with regular endings by rule), English
function words, and the headwords of scent.gloss's Spanish, French, Portuguese and German lists.

Its correction is a word one slip away (a letter dropped, added or changed, two neighbours
swapped) that units the asker may read hold, ranked by: the same first letter (a slip of the
first letter is rare), held in one unit with the query's other words, known to a dictionary,
in how many units with the other words, in how many units, the longer (a dropped letter is the
commonest slip). A word whose first letter differs is taken only with the other words.
A quoted word is never corrected: that is how to search a word as typed. Nor is a word of a query in
another language than English (scent.language.query_language): the dictionaries are English.

A word no unit holds that files write with a hyphen ("readonly", files "read-only"; "secondhand",
files "second-hand") is searched as they write it, before any slip, dictionary word or not: the
two parts side by side in a unit the asker may read, joined there by a hyphen (side by side with
a space is no evidence: "therapist" is not "the rapist"). The other way, a hyphenated word no unit
holds ("on-call") is searched joined ("oncall") when units hold that.
"""
from __future__ import annotations

import re
from dataclasses import replace

from .filters import Filters
from .language import query_language
from .query import KeywordQuery, Term, any_of, normalise_id, parse, quote_fts
from .stopwords import ENGLISH as ENGLISH_STOPWORDS
from .storage import Engine, KeywordIndex
from .syntax import words
from .words import Words, load

MIN_LENGTH = 5
# A word longer than this is no slip of a word (English's long ones are under 30 letters): its
# slips are 53 a letter to look up, and a 1,000-letter word held a server's request 2.9 s.
MAX_LENGTH = 40
# A word this short is not looked for as two hyphenated parts.
MIN_SPLIT = 4
# Units read for a hyphen between the two parts of a split: the phrase's best keyword matches.
SPLIT_EVIDENCE = 20
# Units counted per candidate word: enough to rank candidates, bounded for a common word.
COUNT_LIMIT = 1000
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_PLAIN = re.compile(r"[a-z]+")
_HYPHENATED = re.compile(r"[a-z]+(?:-[a-z]+)+")
# The hyphens a text may join a word's parts with (ASCII, Unicode's hyphen and non-breaking hyphen).
_HYPHENS = "-\u2010\u2011"


def _english() -> Words:
    """WordNet's one-word lemmas and irregular forms (tools/make_words.py)."""
    return load("words/en.txt.gz", "English word list")


def _other_languages() -> Words:
    """The Spanish, French, Portuguese and German glossaries' headwords (tools/make_glossary.py
    writes them apart: reading the glossaries themselves took ~0.12 s of a fresh search)."""
    return load("glossary/headwords.txt.gz", "glossaries' headwords")


# Words of five letters or more that WordNet leaves out (it lists nouns, verbs, adjectives and
# adverbs): prepositions, pronouns, determiners, conjunctions, auxiliaries.
FUNCTION_WORDS = frozenset(
    "about above across after against along among amongst around before behind below beneath beside besides "
    "between beyond concerning despite during except inside into near onto opposite outside regarding since "
    "through throughout toward towards under underneath unlike until unto upon versus within without myself "
    "yours yourself yourselves himself herself itself ourselves themselves whose which whatever whoever "
    "whichever these those someone somebody something anyone anybody anything everyone everybody everything "
    "nobody nothing either neither several fewer least other another enough because although though while "
    "whilst whereas unless whether whenever where wherever would should could might shall cannot ought doing "
    "having being their theirs there".split())


# English endings WordNet does not list forms with: (ending, what the base ends with instead).
# Rules, not a stemmer: a Porter stem is shared by too many slips ("certifiate" and "certify").
_ENDINGS = (("s", ""), ("es", ""), ("ies", "y"), ("ed", ""), ("ed", "e"), ("ied", "y"), ("ing", ""), ("ing", "e"),
            ("er", ""), ("er", "e"), ("ier", "y"), ("est", ""), ("est", "e"), ("iest", "y"), ("ly", ""),
            ("ily", "y"), ("less", ""), ("ness", ""), ("iness", "y"), ("ful", ""), ("able", ""), ("able", "e"),
            ("ish", ""), ("ment", ""))


def is_known(word: str) -> bool:
    """Whether `word` is a dictionary's word, or an English one with an ending of _ENDINGS
    ("rigs", "largest", "flourless", "running")."""
    # English first: the other languages' headwords take ~0.12 s to read, which a fresh search
    # paid for every English plural or past tense its folder does not hold.
    return word in _english() or word in FUNCTION_WORDS or _english_form(word) or word in _other_languages()


def is_english(word: str) -> bool:
    """Whether `word` (lowercase) is an English word: WordNet's, a function or stop word, or one
    of those with an English ending. Other languages' words are not, even where spelling knows them."""
    return word in _english() or word in FUNCTION_WORDS or word in ENGLISH_STOPWORDS or _english_form(word)


def _english_form(word: str) -> bool:
    english = _english()
    for ending, instead in _ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= 2:
            base = word[:-len(ending)] + instead
            if base in english or instead == "" and len(base) > 2 and base[-1] == base[-2] and base[:-1] in english:
                return True
    return False


def slips(word: str) -> set[str]:
    """The words one typing slip from `word`: a letter dropped, added or changed, two neighbours swapped."""
    cuts = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    return ({a + b[1:] for a, b in cuts if b} | set(_swapped(word))
            | {a + c + b[1:] for a, b in cuts if b for c in _LETTERS} | set(_added(word))) - {word}


def _swapped(word: str) -> list[str]:
    """`word` with two neighbouring letters swapped, each way, in order."""
    return [word[:i] + word[i + 1] + word[i] + word[i + 2:] for i in range(len(word) - 1)]


def _added(word: str, start: int = 0) -> list[str]:
    """`word` with a letter added at `start` or after, each way, in order."""
    return [word[:i] + c + word[i:] for i in range(start, len(word) + 1) for c in _LETTERS]


def _checked(term: Term, exact: frozenset[str]) -> str | None:
    """The word a term is, when it is one spelling can correct (None: an ID, an OR group, a
    phrase, a quoted word, one letter, one over MAX_LENGTH letters, a word not of plain letters
    a-z, or of such words joined by hyphens)."""
    word = term.text.lower()
    if term.is_id or term.also or word in exact or len(word) > MAX_LENGTH:
        return None
    if _HYPHENATED.fullmatch(word):
        parts = word.split("-")
        return word if term.fts == quote_fts(" ".join(parts)) and not exact.intersection(parts) else None
    return word if len(word) >= 2 and term.fts == quote_fts(term.text) and _PLAIN.fullmatch(word) else None


def _slipped_stop_word(word: str) -> str | None:
    """The stop word `word` is with two neighbouring letters swapped ("teh") or one letter dropped
    ("abou"), its first letter kept; or None."""
    from .stopwords import STOPWORDS

    return next((w for w in _swapped(word) + _added(word, 1) if w in STOPWORDS and w[0] == word[0]), None)


def corrections(engine: Engine, query: KeywordQuery, filters: Filters,
                exact: frozenset[str] = frozenset(), text: str = "") -> dict[str, str]:
    """Each misspelt word of `query` (as typed, lowercase) -> the word to search instead; `exact`:
    words searched as typed (the quoted ones); `text`: the query as typed, whose language says
    whether its words are English ones to correct."""
    from .engines.matching import token

    keywords = engine.keywords
    out = _id_corrections(keywords, query, filters, exact)
    words = {t: w for t in query.terms if (w := _checked(t, exact))}
    if not words:
        return out
    held = keywords.holds(KeywordQuery(tuple(words), ()), filters)
    missing = {}
    for (term, word), h in zip(words.items(), held):
        if h:
            continue
        if "-" in word:
            if keywords.word_counts([joined := word.replace("-", "")], filters, 1):
                out[word] = joined
        elif len(word) >= MIN_SPLIT and (split := _hyphenated(engine, word, filters)):
            out[word] = split
        else:
            missing[term] = word
    if missing and query_language(text) not in (None, "en"):
        # The dictionaries are English (other languages' are a few thousand headwords): in
        # "combien coûte le loyer", combien is no slip of "combine". Asked before the words are
        # looked up: reading the dictionaries was ~0.1 s of a fresh search in another language.
        missing = {}
    missing = {term: word for term, word in missing.items() if not is_known(word)}
    for term, word in missing.items():
        if len(word) < MIN_LENGTH:
            # Too many words are one slip from a short one, but a stop word typed with two letters
            # swapped or one dropped is common, and reads as no answer to the confidence.
            if stop_word := _slipped_stop_word(word):
                out[word] = stop_word
            continue
        counts = keywords.word_counts(sorted(slips(word)), filters, COUNT_LIMIT)
        # A word no dictionary lists stands only as itself or with a short ending ("debounce" is
        # held as "debounc"), not as a longer form of what the index holds ("covereation" is held
        # as "cover": no).
        counts = {c: n for c, n in counts.items()
                  if is_known(c) or c.startswith(stem := token(c)) and len(c) - len(stem) <= 2}
        others = [t for t in query.terms if t is not term and t not in missing and not t.is_stopword]
        together = {c: _together(keywords, c, others, filters) if others else 0 for c in counts}
        # Without the other words, a word the folder lacks ("aarti") would become one it holds ("parti").
        counts = {c: n for c, n in counts.items() if together[c] or c[0] == word[0]}
        if counts:
            out[word] = max(counts, key=lambda c: (c[0] == word[0], together[c] > 0, is_known(c), together[c],
                                                   counts[c], len(c), c))
    return out


def _id_corrections(keywords: KeywordIndex, query: KeywordQuery, filters: Filters, exact: frozenset[str]) -> dict[str, str]:
    """Each ID of `query` (as typed, lowercase) that no unit holds, but one holds one character
    off, in one way only -> that ID, written as it was typed ("LD-2026-0418" -> "LD-2026-0417").
    The ID list finds it either way (one character off is an OCR slip or a typo); said, the query
    is searched and weighed as the ID the folder holds: it read as no good match. Where several IDs
    are one off, none is said: the ID list finds them all."""
    out = {}
    for term in query.terms:
        # A quoted ID is held as its parts ("LD-2026-0418": ld, 2026, 0418): searched as typed
        if term.is_id and not term.also and not exact.intersection(words(term.text.lower())):
            near = keywords.near_ids(normalise_id(term.text), filters)
            if len(near) == 1:
                out[term.text.lower()] = respelt(term.text, near[0])
    return out


def respelt(typed: str, found: str) -> str:
    """`typed` (an ID as typed) with the one character where its normalised form differs from
    `found` (a normalised ID) changed, added or dropped, its separators and case kept:
    ("ld-2026-0418", "LD20260417") -> "ld-2026-0417"."""
    import difflib  # only a query with an ID one off gets here

    at = [i for i, ch in enumerate(typed) if ch.isalnum()]  # where each normalised character was typed
    norm = normalise_id(typed)
    edits = [op for op in difflib.SequenceMatcher(None, norm, found, autojunk=False).get_opcodes() if op[0] != "equal"]
    if len(at) != len(norm) or len(edits) != 1:
        return found
    _, i1, i2, j1, j2 = edits[0]
    new = found[j1:j2].lower() if typed == typed.lower() else found[j1:j2]
    begin = at[i1] if i1 < len(at) else len(typed)
    end = at[i2 - 1] + 1 if i2 > i1 else begin
    return typed[:begin] + new + typed[end:]


def _hyphenated(engine: Engine, word: str, filters: Filters) -> str | None:
    """`word` as units the asker may read write it with a hyphen ("readonly" -> "read-only"), or None."""
    cuts = [(word[:i], word[i:]) for i in range(1, len(word))]
    held = engine.keywords.word_counts(sorted({part for cut in cuts for part in cut}), filters, 1)
    for a, b in sorted((c for c in cuts if c[0] in held and c[1] in held), key=lambda c: -min(map(len, c))):
        phrase = KeywordQuery((Term(f"{a}-{b}", quote_fts(f"{a} {b}")),), ())
        hits = engine.keywords.search(phrase, "and", "1", filters, SPLIT_EVIDENCE)
        joined = re.compile(rf"(?<!\w){a}[{_HYPHENS}]{b}(?!\w)", re.I)
        if any(joined.search(f"{u.title}\n{u.text}") for u in engine.catalog.units([uid for uid, _ in hits]).values()):
            return f"{a}-{b}"
    return None


def _together(keywords: KeywordIndex, word: str, others: list[Term], filters: Filters) -> int:
    """How many units hold `word` and one of `others` (up to COUNT_LIMIT)."""
    both = KeywordQuery((Term(word, quote_fts(word)), any_of(others[0], others[1:])), ())
    return len(keywords.search(both, "and", "1", filters, COUNT_LIMIT))


def corrected_query(query: KeywordQuery, fixed: dict[str, str], stopwords: bool = True) -> KeywordQuery:
    """`query` with each misspelt word's term matching its correction instead; a correction that is
    a stop word is left out with `stopwords` (as query.parse leaves them out), unless all are."""
    if not fixed:
        return query
    terms = [_term(fixed[w]) if (w := t.text.lower()) in fixed else t for t in query.terms]
    if stopwords and any(not t.is_stopword for t in terms):
        terms = [t for t in terms if not t.is_stopword]
    ids = {normalise_id(typed): normalise_id(word) for typed, word in fixed.items()}
    return replace(query, terms=tuple(terms), ids=tuple(dict.fromkeys(ids.get(i, i) for i in query.ids)))


def _term(word: str) -> Term:
    """The term a correction is searched as, as the query parser reads it: a word, or hyphenated
    parts side by side ("read-only")."""
    return parse(word, stopwords=False).terms[0]


def corrected_text(text: str, fixed: dict[str, str]) -> str:
    """`text` with each misspelt word (any case) replaced by its correction."""
    if not fixed:
        return text
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, fixed)) + r")\b", re.I)
    return pattern.sub(lambda m: fixed[m.group(0).lower()], text)
