"""Guess the natural language of a unit's text (ISO 639-1), or None when unsure."""
from __future__ import annotations

import math
import os
import re
import unicodedata
import zlib
from collections import Counter
from functools import lru_cache
from pathlib import Path

import numpy as np

from .embed import row_dots
from .settings import scent_home

# Below this many letters a guess is noise (file names, a table cell).
MIN_LETTERS = 20
MIN_CONFIDENCE = 0.6
NO_LANGUAGE_KINDS = frozenset({"code", "image", "json"})
# Restricting the guesser to widely written languages stops short Spanish notes being called
# Aragonese or Extremaduran (probability 0.56 -> 0.99 on a one-line note).
LANGUAGES = (
    "en", "es", "fr", "de", "pt", "it", "nl", "sv", "da", "no", "fi", "pl", "cs", "hu", "ro", "el",
    "ru", "uk", "tr", "ar", "he", "fa", "ur", "hi", "bn", "mr", "ta", "te", "th", "vi", "id",
    "zh", "ja", "ko",
)


# Each of LANGUAGES by its English name, for a filter written as a word (`--lang tamil`, lang:German).
NAMES = {"english": "en", "spanish": "es", "french": "fr", "german": "de", "portuguese": "pt", "italian": "it",
         "dutch": "nl", "swedish": "sv", "danish": "da", "norwegian": "no", "finnish": "fi", "polish": "pl",
         "czech": "cs", "hungarian": "hu", "romanian": "ro", "greek": "el", "russian": "ru", "ukrainian": "uk",
         "turkish": "tr", "arabic": "ar", "hebrew": "he", "persian": "fa", "farsi": "fa", "urdu": "ur", "hindi": "hi",
         "bengali": "bn", "marathi": "mr", "tamil": "ta", "telugu": "te", "thai": "th", "vietnamese": "vi",
         "indonesian": "id", "chinese": "zh", "japanese": "ja", "korean": "ko"}

# The script each of LANGUAGES is written in, where it is not Latin (the first word of its letters'
# Unicode names).
SCRIPTS = {"el": "GREEK", "ru": "CYRILLIC", "uk": "CYRILLIC", "ar": "ARABIC", "fa": "ARABIC", "ur": "ARABIC",
           "he": "HEBREW", "hi": "DEVANAGARI", "mr": "DEVANAGARI", "bn": "BENGALI", "ta": "TAMIL", "te": "TELUGU",
           "th": "THAI", "zh": "CJK", "ja": "CJK", "ko": "HANGUL"}


def script(text: str) -> str | None:
    """The one script `text`'s letters are written in (LATIN, DEVANAGARI, TAMIL ...); None for a
    text without letters or with letters of several scripts."""
    found = {unicodedata.name(ch, "?").split(" ", 1)[0] for ch in text[:2000] if ch.isalpha()}
    return found.pop() if len(found) == 1 else None


def written_apart(text_script: str | None, lang: str | None) -> bool:
    """Whether a text in `text_script` cannot be in `lang`: a query in Latin letters is no Tamil,
    whatever its few words leave the guesser unsure of."""
    return text_script is not None and lang is not None and SCRIPTS.get(lang, "LATIN") != text_script


class _Model:
    """py3langid's naive Bayes model restricted to LANGUAGES, read from memory-mapped arrays.

    Why: py3langid keeps its model LZMA-compressed (68 MB of arrays), and unpacking it took
    0.5 s, the largest part of a fresh `scent search` (the query's language picks its stand-in,
    scent.search.stand_in). The arrays restricted to LANGUAGES are written once, uncompressed,
    under $SCENT_HOME/cache, and mapped from there: opening them takes about a millisecond.
    The arithmetic is py3langid's (LanguageIdentifier.classify with norm_probs), so the answers
    are the same; tests/test_language.py compares them."""

    def __init__(self, arrays: dict):
        self.ptc, self.pc = arrays["ptc"], arrays["pc"]
        self.classes = [str(c) for c in arrays["classes"]]
        # memoryviews: indexing one gives a Python int, as fast as py3langid's array.array
        self.nextmove = memoryview(arrays["nextmove"])
        self.rowbase = memoryview(arrays["rowbase"])
        self.out = memoryview(arrays["out"])

    def classify(self, text: str) -> tuple[str, float]:
        if text.isupper():
            text = text.lower()
        data = unicodedata.normalize("NFC", text).encode("utf8", errors="surrogatepass")
        nm, rowbase, out = self.nextmove, self.rowbase, self.out
        state, seen = 0, []
        for byte in data:
            state = nm[rowbase[state] + byte]
            if out[state] >= 0:
                seen.append(out[state])
        if not seen:
            return self.classes[0], 1.0 / len(self.classes)  # py3langid: uniform scores
        counts = Counter(seen)
        idx = np.fromiter(counts.keys(), dtype=np.intp, count=len(counts))
        n = np.fromiter(counts.values(), dtype=np.float32, count=len(counts))
        scores = row_dots(self.ptc[idx].T, np.log1p(n)) + self.pc
        scores *= 1.0 / math.sqrt(len(data) or 1)
        np.exp(scores - scores.max(), out=scores)
        scores /= scores.sum()
        i = int(scores.argmax())
        return self.classes[i], float(scores[i])


# py3langid's model, found without importing py3langid (its import alone is milliseconds)
MODEL_FILE = "data/model.npz.xz"


def _cache_dir() -> Path:
    from importlib.util import find_spec

    model = Path(find_spec("py3langid").origin).parent / MODEL_FILE
    st = model.stat()
    # A checksum, not hashlib: loading OpenSSL for it was milliseconds of every fresh search.
    what = f"{model}|{st.st_size}|{st.st_mtime_ns}|{','.join(LANGUAGES)}"
    key = f"{zlib.crc32(what.encode()):08x}"
    return scent_home() / "cache" / f"langid-{key}"


_NAMES = ("ptc", "pc", "classes", "nextmove", "rowbase", "out")


def _build(target: Path) -> dict:
    """The restricted arrays from py3langid's own model, written to `target` when it can be."""
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    identifier = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    identifier.set_languages(list(LANGUAGES))
    if identifier._alias_pairs:  # pragma: no cover - none among LANGUAGES (tests/test_language.py)
        raise RuntimeError("LANGUAGES holds a language py3langid models twice; fold its columns")
    arrays = {"ptc": np.ascontiguousarray(identifier.nb_ptc), "pc": np.asarray(identifier.nb_pc, np.float32),
              "classes": np.array(identifier.nb_classes),
              "nextmove": np.frombuffer(identifier.tk_nextmove, np.uint32),
              "rowbase": np.frombuffer(identifier.tk_row, np.uint16).astype(np.uint32) << 8,
              "out": np.asarray(identifier.tk_output, np.int32)}
    tmp = target.with_name(f"{target.name}.{os.getpid()}.tmp")
    try:
        tmp.mkdir(parents=True, exist_ok=True)
        for name in _NAMES:
            np.save(tmp / f"{name}.npy", arrays[name], allow_pickle=False)
        os.rename(tmp, target)
    except OSError:
        # A read-only home (every process unpacks the model again: slower, the same answers), or
        # another process wrote the cache first (theirs is the same).
        import shutil  # here: a search's process never gets this far

        shutil.rmtree(tmp, ignore_errors=True)
    return arrays


@lru_cache(maxsize=1)
def _identifier() -> _Model:
    target = _cache_dir()
    try:
        arrays = {name: np.load(target / f"{name}.npy", mmap_mode="r", allow_pickle=False) for name in _NAMES}
    except (OSError, ValueError):
        arrays = _build(target)
    return _Model(arrays)


def detect(text: str, kind: str = "text") -> str | None:
    if kind in NO_LANGUAGE_KINDS or sum(ch.isalpha() for ch in text[:2000]) < MIN_LETTERS:
        return None
    lang, prob = _identifier().classify(text[:2000])
    return lang if prob >= MIN_CONFIDENCE else None


# A short text's guess counts when the guesser is this sure of it (and a word bears it out).
SHORT_TEXT_CONFIDENCE = 0.5
_LETTER_RUNS = re.compile(r"[^\W\d_]+")  # a query's words as the language tests read them: runs of letters


def reads_as_english(text: str) -> bool:
    """Whether every word of `text` is an English word (scent.spelling's dictionary: ~40 ms to load
    once, so asked only where the answer matters)."""
    from .spelling import is_english

    found = _LETTER_RUNS.findall(text.lower())
    return bool(found) and all(w.isascii() and is_english(w) for w in found)


def query_language(text: str) -> str | None:
    """A query's language: as `detect` for a text of MIN_LETTERS letters or more; a shorter one
    ("combien coûte le loyer", 19 letters), or a longer one `detect` is unsure of ("foto del faro al
    atardecer", Spanish at 0.55), only when the guesser names a language other than English and a
    word of it is no English word but that language's (a headword of its glossary, or a word
    written with letters beyond a-z). Of the collections' 1,520 English queries, none is read as
    another language that way (docs/retrieval-tuning.md, sessions 19 and 24)."""
    if sum(ch.isalpha() for ch in text[:2000]) >= MIN_LETTERS and (found := detect(text)) is not None:
        return found
    lang, prob = _identifier().classify(text[:2000])
    if lang == "en" or prob < SHORT_TEXT_CONFIDENCE:
        return None
    from .gloss import GLOSSED, _table
    from .spelling import is_english

    headwords = _table(lang)[0] if lang in GLOSSED else {}
    # The language's own words first: the English word list (~30 ms to load) is read only for them,
    # not for every short English query the guesser calls Dutch.
    own = [w for w in _LETTER_RUNS.findall(text.lower()) if w in headwords or not w.isascii()]
    return lang if any(not is_english(w) for w in own) else None

