"""Hindi and Tamil words as a person types them in Latin letters ("shaadi", "sambar"), for keyword search.

Families write Hindi and Tamil in the Latin alphabet as often as in their own scripts (Hinglish,
Tanglish), and spell it freely: शादी is shaadi or shadi, சாம்பார் sambar or saambaar, चेन्नई or
சென்னை chennai. No dictionary bridges the two, and the text model only half does. So each
Devanagari or Tamil word of a unit is read aloud in Latin letters (`romanized`), and that reading
and every Latin query word are reduced to one sound key (`sound_key`), where the distinctions
people drop when typing are dropped too: long and short vowels, aspiration (kh, th, bh), the
voicing Tamil's script does not write (b/p, d/t, g/k), doubled letters, sh/s, ch/c/s, w/v, zh/l.
A unit stores its words' keys (with KEY_PREFIX, so no English word meets them); a query in Latin
letters asks for its words' keys too, only in an index that holds Hindi or Tamil.

Hindi's written consonants carry an "a" that is not always said: कब is kab, not kaba, and कतली
katli. `romanized` drops it at a word's end and between a vowel and a consonant that has a vowel
of its own (the usual schwa-deletion rule, Choudhury et al. 2004, in its simplest form).
"""
from __future__ import annotations

import re
from dataclasses import replace

from .query import KeywordQuery, Term, any_of

KEY_PREFIX = "zq"  # no word of a language scent reads begins so
SOUND_KEYS = "sound_keys"  # the catalog's meta: "1" once a unit with sound keys was written (Index._request reads it)
MIN_KEY = 3  # keys shorter than this (of "ki", "hai") would join unrelated words
# Queries read as these languages ask for no keys (a Hindi or Tamil query in Latin letters reads as
# no language, or as English or Indonesian).
LATIN_LANGUAGES = frozenset({"es", "fr", "pt", "de"})

_DEVANAGARI_VOWELS = {"अ": "a", "आ": "aa", "इ": "i", "ई": "ii", "उ": "u", "ऊ": "uu", "ऋ": "ri", "ए": "e", "ऐ": "ai",
                      "ओ": "o", "औ": "au", "ऑ": "o", "ऍ": "e"}
_DEVANAGARI_SIGNS = {"ा": "aa", "ि": "i", "ी": "ii", "ु": "u", "ू": "uu", "ृ": "ri", "े": "e", "ै": "ai", "ो": "o",
                     "ौ": "au", "ॉ": "o", "ॅ": "e"}
_DEVANAGARI_CONSONANTS = dict(zip(
    "कखगघङचछजझञटठडढणतथदधनपफबभमयरलवशषसहळ",
    "k kh g gh n ch chh j jh n t th d dh n t th d dh n p ph b bh m y r l v sh sh s h l".split()))
_NUKTA = {"क": "q", "ख": "kh", "ग": "g", "ज": "z", "ड": "r", "ढ": "rh", "फ": "f"}
# Tamil's long e and o as one letter: people type கோவில் kovil and வேண்டும் vendum ("oo" would read as u).
_TAMIL_VOWELS = {"அ": "a", "ஆ": "aa", "இ": "i", "ஈ": "ii", "உ": "u", "ஊ": "uu", "எ": "e", "ஏ": "e", "ஐ": "ai",
                 "ஒ": "o", "ஓ": "o", "ஔ": "au"}
_TAMIL_SIGNS = {"ா": "aa", "ி": "i", "ீ": "ii", "ு": "u", "ூ": "uu", "ெ": "e", "ே": "e", "ை": "ai", "ொ": "o",
                "ோ": "o", "ௌ": "au"}
_TAMIL_CONSONANTS = dict(zip("கஙசஞடணதநபமயரலவழளறனஜஷஸஹ",
                             "k ng ch nj t n th n p m y r l v zh l r n j sh s h".split()))
_VIRAMA = {"्", "்"}
_NASALS = {"ं": "n", "ँ": "n"}
_WORD = re.compile(r"[\u0900-\u097f\u0b80-\u0bff]+")


def romanized(word: str, medial: bool = True) -> str:
    """A Devanagari or Tamil word in Latin letters, as said: "शादी" -> "shaadii", "कब" -> "kab",
    "சாம்பார்" -> "chaampaar". `medial`: Hindi's unsaid "a" dropped inside the word too (कतली
    katlii), which the rule gets wrong for some words (योजना is yojanaa, not yojnaa)."""
    # Syllables: [consonant or "", vowel (None: the consonant's own "a", "" : none)]
    syllables: list[list] = []
    tamil = any("\u0b80" <= ch <= "\u0bff" for ch in word)
    consonants, vowels, signs = ((_TAMIL_CONSONANTS, _TAMIL_VOWELS, _TAMIL_SIGNS) if tamil else
                                 (_DEVANAGARI_CONSONANTS, _DEVANAGARI_VOWELS, _DEVANAGARI_SIGNS))
    previous = ""
    for ch in word:
        if ch in consonants:
            syllables.append([consonants[ch], None])
        elif ch == "\u093c" and previous in _NUKTA and syllables[-1][1] is None:  # nukta: ज़ is z, फ़ f
            syllables[-1][0] = _NUKTA[previous]
        elif ch in vowels:
            syllables.append(["", vowels[ch]])
        elif ch in signs and syllables and syllables[-1][1] is None:
            syllables[-1][1] = signs[ch]
        elif ch in _VIRAMA and syllables and syllables[-1][1] is None:
            syllables[-1][1] = ""
        elif ch in _NASALS and syllables:
            syllables[-1].append(_NASALS[ch])
        elif ch == "ः" and syllables:
            syllables[-1].append("h")
        previous = ch
    if not tamil:
        _drop_schwas(syllables, medial)
    return "".join(s[0] + ("a" if s[1] is None else s[1]) + "".join(s[2:]) for s in syllables)


def _drop_schwas(syllables: list[list], medial: bool) -> None:
    """Hindi's unsaid "a": at the end of a word of more than one syllable, and, from the right,
    between a said vowel and a consonant with a vowel of its own (कतली: ka-ta-lii -> katlii)."""
    def bare(s: list) -> bool:  # a consonant with its own "a" and no nasal or h after it
        return s[1] is None and bool(s[0]) and len(s) == 2

    if len(syllables) > 1 and bare(syllables[-1]):
        syllables[-1][1] = ""
    for i in range(len(syllables) - 2, 0, -1) if medial else ():
        before, after = syllables[i - 1], syllables[i + 1]
        if bare(syllables[i]) and before[1] != "" and after[0] and after[1] != "":
            syllables[i][1] = ""


# Applied in order to a lower-case Latin word.
_SOUNDS = [(re.compile(p), r) for p, r in (
    (r"[^a-z]", ""), (r"chh|ch|sh", "s"), (r"zh", "l"), (r"ph", "f"), (r"([kgjtdpb])h", r"\1"),
    (r"w", "v"), (r"z", "j"), (r"q", "k"), (r"x", "ks"),
    (r"b", "p"), (r"g", "k"), (r"d", "t"), (r"[jc]", "s"), (r"n[gj]", "n"), (r"m(?=[pbtdk])", "n"),
    (r"ee", "i"), (r"oo", "u"), (r"ey|ay|ei", "ai"), (r"ou|au", "o"),
    (r"(.)\1+", r"\1"),
    (r"(?<=.)h$", ""), (r"(?<=[^aeiou])a$", ""),
)]


def sound_key(word: str) -> str:
    """What a Latin spelling of a Hindi or Tamil word sounds like, with the distinctions people
    drop in typing dropped: "shaadi", "shadi" and "शादी"'s "shaadii" are all "sati"."""
    key = word.lower()
    for pattern, repl in _SOUNDS:
        key = pattern.sub(repl, key)
    return key


# Tamil joins its case endings to the word (கோவிலுக்கு, to the temple; நண்பர்களின், of the friends):
# a word's key is also kept without one of these (in key spelling: -ukku is "uku"), then without a
# plural -kal, so "kovil" and "nanbargal" find them.
_TAMIL_ENDINGS = ("iliruntu", "ukaka", "uku", "ku", "otu", "al", "il", "in", "ai")
_TAMIL_PLURAL = "kal"


def keys(text: str) -> str:
    """The sound keys of `text`'s Devanagari and Tamil words (KEY_PREFIX + key), each once; a Hindi
    word's with and without its inner unsaid "a" dropped (katli and katali, yojna and yojana), a
    Tamil word's also without its case ending and plural."""
    out: dict[str, None] = {}
    for word in dict.fromkeys(_WORD.findall(text)):
        tamil = any("\u0b80" <= ch <= "\u0bff" for ch in word)
        for medial in (False,) if tamil else (True, False):
            key = sound_key(romanized(word, medial))
            found = [key]
            if tamil:
                bare = next((key[:-len(e)] for e in _TAMIL_ENDINGS if key.endswith(e) and len(key) - len(e) >= MIN_KEY), key)
                if bare != key and bare[-1] in "yv" and key[len(bare)] in "aeiou":
                    bare = bare[:-1]  # the glide before a vowel ending: விடுமுறையில் vidumurai-y-il
                found += [bare, bare[:-len(_TAMIL_PLURAL)] if bare.endswith(_TAMIL_PLURAL) else bare]
            out.update(dict.fromkeys(KEY_PREFIX + k for k in found if len(k) >= MIN_KEY))
    return " ".join(out)


def query_key(word: str) -> str | None:
    """The stored form of a Latin query word's sound key, or None for a word too short to key."""
    key = sound_key(word)
    return KEY_PREFIX + key if len(key) >= MIN_KEY and word.isascii() and word.isalpha() else None


def with_sound_keys(query: KeywordQuery) -> KeywordQuery:
    """`query` with each Latin word also matching its sound key: "shaadi" finds the note that
    writes शादी. Words of other scripts, IDs and stop words are left as they are."""
    terms = []
    for t in query.terms:
        key = None if t.is_id or t.is_stopword or " " in t.text.strip() else query_key(t.text)
        terms.append(any_of(t, [Term(key, f'"{key}"')]) if key else t)
    return replace(query, terms=tuple(terms))
