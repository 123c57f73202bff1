"""Write bench/queries-typos.jsonl: bench/queries.jsonl with one slip of the keyboard in each query.

    .venv/bin/python bench/make_typos.py

A person types fast: "securty depost" for "security deposit". Each query's longest word of five
letters or more (not a number, not an ID) loses one inner letter, chosen by a fixed seed, so the
file is the same on every run. Only queries with such a word are kept; ids and answers are the
originals', so `scent eval bench/queries-typos.jsonl --folder BENCH` compares with the clean run
query by query. It measures how far a typo costs the right answer; it is no tuning set.
"""
from __future__ import annotations

import json
import random
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
_WORD = re.compile(r"[A-Za-z]{5,}")


def slip(query: str, rng: random.Random) -> str | None:
    words = [m for m in _WORD.finditer(query) if not any(c.isdigit() for c in m.group())]
    if not words:
        return None
    word = max(words, key=lambda m: (len(m.group()), -m.start()))
    at = word.start() + rng.randrange(1, len(word.group()) - 1)  # never the first or last letter
    return query[:at] + query[at + 1:]


def main() -> None:
    rng = random.Random(17)
    out = []
    for line in (HERE / "queries.jsonl").read_text().splitlines():
        q = json.loads(line)
        typed = slip(q["query"], rng)
        if typed is not None:
            out.append({**q, "query": typed, "note": f"typo of: {q['query']}"})
    (HERE / "queries-typos.jsonl").write_text("".join(json.dumps(q, ensure_ascii=False) + "\n" for q in out))
    print(f"{len(out)} queries written to {HERE / 'queries-typos.jsonl'}")


if __name__ == "__main__":
    main()
