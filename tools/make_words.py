"""Derive scent's English word list (src/scent/data/words/en.txt.gz) from WordNet 3.0.

    cd /tmp && apt-get download wordnet-base && dpkg -x wordnet-base_*.deb wn
    python tools/make_words.py /tmp/wn/usr/share/wordnet src/scent/data/words/en.txt.gz

scent.spelling reads it to tell a misspelt query word from a real word that the indexed folder
happens not to hold ("chess" is not a typo of "cheese"). One word a line: WordNet's one-word
lemmas and irregular forms (*.exc: "geese", "went"), letters a-z only (regular forms, "rigs",
"stones", are known by rules: scent.spelling.is_known).
WordNet's licence (permissive, its notice kept) is in src/scent/data/words/LICENSE.
"""
from __future__ import annotations

import gzip
import re
import sys
from pathlib import Path

_WORD = re.compile(r"[a-z]+")


def words(wordnet: Path) -> set[str]:
    found: set[str] = set()
    for pos in ("noun", "verb", "adj", "adv"):
        for line in (wordnet / f"index.{pos}").read_text("latin-1").splitlines():
            if line.startswith(" "):  # the licence at the top
                continue
            lemma = line.split(" ", 1)[0]
            if _WORD.fullmatch(lemma):
                found.add(lemma)
        for line in (wordnet / f"{pos}.exc").read_text("latin-1").splitlines():
            form = line.split(" ", 1)[0]
            if _WORD.fullmatch(form):
                found.add(form)
    return found


def main(wordnet: str, out: str) -> None:
    found = words(Path(wordnet))
    text = "\n".join(sorted(found)) + "\n"
    # gzip, not xz: scent reads it in a fresh search, and zlib unpacks it in 3 ms against xz's 12.
    Path(out).write_bytes(gzip.compress(text.encode(), compresslevel=9, mtime=0))
    print(f"{len(found):,} words -> {out}")


if __name__ == "__main__":
    main(*sys.argv[1:])
