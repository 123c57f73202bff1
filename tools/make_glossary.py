"""Derive scent's word glossaries (src/scent/data/glossary/*.tsv.xz) from FreeDict dictionaries.

    cd /tmp && apt-get download dict-freedict-spa-eng dict-freedict-fra-eng dict-freedict-deu-eng \
        dict-freedict-por-eng dict-freedict-eng-hin && for f in dict-freedict-*.deb; do dpkg -x $f fd; done
    python tools/make_glossary.py /tmp/fd/usr/share/dictd src/scent/data/glossary
    python tools/make_glossary.py --headwords src/scent/data/glossary   # headwords.txt.gz alone, from the tables

Each output line is `word<TAB>english english ...` (then `~stem<TAB>english ...`, see stem_lines): a word of the other language (lowercase, one
token) and the first English words of its first senses, English function words dropped. Only
one-word headwords are kept, and (German, 517k headwords, most of them compounds and phrases) only
those short enough to be ordinary words. Hindi has only an English->Hindi dictionary: it is read
backwards, each one-word Hindi translation pointing at the English headword.

The dictionaries are GPL (FreeDict spa/fra/por-eng, eng-hin: GPL-2+; deu-eng, Ding: GPL-3+), and
so is what this writes: src/scent/data/glossary/LICENSE says so, and this script is its source.
"""
from __future__ import annotations

import gzip
import lzma
import re
import sys
import unicodedata
from pathlib import Path

import snowballstemmer

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
from scent.stopwords import STOPWORDS  # noqa: E402

_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
SENSES = 2          # senses read per headword
WORDS_PER_SENSE = 2  # translations kept of each sense
MAX_ENGLISH = 4     # English words kept per headword
MIN_STEM = 3        # as scent.gloss.MIN_STEM
FREQUENT = 80_000   # a headword is kept when it shares its stem with one of the language's most frequent words
_ENGLISH = re.compile(r"[a-z]+(?:'[a-z]+)?")


def _num(s: str) -> int:
    n = 0
    for c in s:
        n = n * 64 + _B64.index(c)
    return n


def entries(folder: Path, pair: str):
    """(headword, entry text) of a dictd dictionary."""
    data = gzip.open(folder / f"freedict-{pair}.dict.dz").read()
    for line in (folder / f"freedict-{pair}.index").read_text(encoding="utf8").splitlines():
        head, off, length = line.split("\t")[:3]
        if head.startswith("00-database") or head.startswith("00database"):
            continue
        yield head, data[_num(off):_num(off) + _num(length)].decode("utf8")


def senses(entry: str) -> list[list[str]]:
    """The translations of each sense: lines after the headword line, without examples and notes."""
    out = []
    for line in entry.splitlines()[1:]:
        s = line.strip()
        if not s or line.startswith("  ") or s.startswith(("see:", "Synonym", "Note", '"')):
            continue
        s = re.sub(r"^\d+\.\s*", "", s)
        s = re.sub(r"\([^)]*\)|\[[^]]*\]|<[^>]*>|\{[^}]*\}", " ", s)
        out.append([t.strip() for t in s.split(",") if t.strip()])
    return out


def english_words(phrases: list[str]) -> list[str]:
    words = []
    for p in phrases[:WORDS_PER_SENSE]:
        for w in _ENGLISH.findall(p.lower()):
            if w not in STOPWORDS and len(w) > 1 and w not in ("sth", "sb", "etc", "esp", "coll"):
                words.append(w)
    return words


def is_word(w: str) -> bool:
    """One token of letters (and the combining vowel signs of Devanagari, which are not \\w)."""
    return bool(w) and w[0].isalpha() and all(unicodedata.category(c)[0] in "LM" or c in "'-" for c in w)


def frequent_stems(lang: str) -> set[str] | None:
    """Stems of the language's FREQUENT most frequent words (wordfreq, used here only to choose)."""
    try:
        import wordfreq
    except ImportError:
        return None
    stem = snowballstemmer.stemmer(STEMMERS[lang]).stemWord
    return {stem(w) for w in wordfreq.top_n_list(lang, FREQUENT)} | set(wordfreq.top_n_list(lang, FREQUENT))


def forward(folder: Path, pair: str, max_len: int) -> dict[str, list[str]]:
    table: dict[str, list[str]] = {}
    for head, entry in entries(folder, pair):
        word = head.strip().lower()
        if not is_word(word) or len(word) > max_len:
            continue
        got = table.setdefault(word, [])
        for sense in senses(entry)[:SENSES]:
            for w in english_words(sense):
                if w not in got and len(got) < MAX_ENGLISH:
                    got.append(w)
    return {w: e for w, e in table.items() if e}


def backward(folder: Path, pair: str) -> dict[str, list[str]]:
    """Hindi word -> English headwords, from English->Hindi: first senses first."""
    table: dict[str, list[str]] = {}
    for head, entry in entries(folder, pair):
        english = head.strip().lower()
        if not _ENGLISH.fullmatch(english) or english in STOPWORDS:
            continue
        for rank, sense in enumerate(senses(entry)[:SENSES]):
            for hindi in sense[:3]:
                if not is_word(hindi):
                    continue
                table.setdefault(hindi, []).append((rank, english))
    out = {}
    for hindi, pairs in table.items():
        ordered = [e for _, e in sorted(pairs, key=lambda p: p[0])]
        out[hindi] = list(dict.fromkeys(ordered))[:MAX_ENGLISH]
    return out


def stem_lines(lang: str, table: dict[str, list[str]]) -> str:
    """`~stem<TAB>english` for each stem (of MIN_STEM letters or more) of the headwords, the
    shortest headword's gloss (the base form: patata for patat): scent.gloss reads them instead
    of stemming 55,000 German headwords each time it loads."""
    stem = snowballstemmer.stemmer(STEMMERS[lang]).stemWord
    stems: dict[str, list[str]] = {}
    for word in sorted(table, key=lambda w: (len(w), w)):
        s = stem(word)
        if len(s) >= MIN_STEM:
            stems.setdefault(s, table[word])
    return "".join(f"~{s}\t{' '.join(e)}\n" for s, e in sorted(stems.items()))


STEMMERS = {"es": "spanish", "fr": "french", "pt": "portuguese", "de": "german", "hi": "hindi"}
LANGUAGES = {"es": ("spa-eng", 30), "fr": ("fra-eng", 30), "pt": ("por-eng", 30), "de": ("deu-eng", 16)}
SPELLING = ("es", "fr", "pt", "de")  # the tables whose headwords scent.spelling knows as words


def main(src: str, dest: str) -> None:
    folder, out = Path(src), Path(dest)
    out.mkdir(parents=True, exist_ok=True)
    tables = {lang: forward(folder, pair, n) for lang, (pair, n) in LANGUAGES.items()}
    tables["hi"] = backward(folder, "eng-hin")
    for lang, table in tables.items():
        keep = frequent_stems(lang)
        if keep is not None:
            stem = snowballstemmer.stemmer(STEMMERS[lang]).stemWord
            table = {w: e for w, e in table.items() if w in keep or stem(w) in keep}
        text = "".join(f"{w}\t{' '.join(e)}\n" for w, e in sorted(table.items())) + stem_lines(lang, table)
        (out / f"{lang}.tsv.xz").write_bytes(lzma.compress(text.encode("utf8"), preset=9 | lzma.PRESET_EXTREME))
        print(lang, len(table), "words", (out / f"{lang}.tsv.xz").stat().st_size, "bytes")
    write_headwords(out)


def write_headwords(out: Path) -> None:
    """headwords.txt.gz: the headwords of the tables scent.spelling takes for known words (not
    Hindi's), one a line, so that it need not read and parse every table (~0.12 s) to learn that
    a misspelt English word is no Spanish, French, Portuguese or German one."""
    words: set[str] = set()
    for lang in SPELLING:
        raw = lzma.decompress((out / f"{lang}.tsv.xz").read_bytes()).decode("utf8")
        words.update(key for line in raw.splitlines() if not (key := line.partition("\t")[0]).startswith("~"))
    text = "".join(f"{w}\n" for w in sorted(words))
    # gzip, not xz: read in a fresh search, where zlib unpacks it in ~3 ms against xz's ~10.
    (out / "headwords.txt.gz").write_bytes(gzip.compress(text.encode("utf8"), compresslevel=9, mtime=0))
    print("headwords", len(words), "words", (out / "headwords.txt.gz").stat().st_size, "bytes")


if __name__ == "__main__":
    if sys.argv[1] == "--headwords":
        write_headwords(Path(sys.argv[2]))
    else:
        main(*sys.argv[1:3])
