"""The confidence model's trade-off on recorded candidate lists, held out, and the model fitted on all.

    .venv/bin/python scripts/confidence_figures.py bench=B.lists.jsonl cranfield=C.lists.jsonl ... [--fit]

Each NAME=FILE is a recording of `scent eval ... --record FILE --off-topic OFFTOPIC.txt`. Prints, per
collection and for all together, the share of answered queries whose answer is flagged weak and the
share of off-topic queries that still show a confident result at each floor (5 folds, stratified by
collection and category, each fold scored by a model fitted on the others), with how many confident
results that are not right an answered query shows besides its answer, then the shipped model's
figures on the same records (scent.confidence.MODEL, fitted earlier: in-sample where it saw them).
With --fit, the weights of a model fitted on every record, to paste into scent.confidence.MODEL.
With --others=W, an answered query's other results count W each in the fit (replay.CONFIDENCE_OTHERS).
"""
from __future__ import annotations

import sys

from scent import candidates, replay


def rows(table: list[dict]) -> str:
    return "  ".join(f"{r['floor']:.1f}: {100 * r['answers_weak']:.1f}% / {100 * r['off_topic_confident']:.1f}%"
                     f" / {r['others_confident']:.2f}" for r in table)


def main(argv: list[str]) -> None:
    fit = "--fit" in argv
    for arg in argv:
        if arg.startswith("--others="):
            replay.CONFIDENCE_OTHERS = float(arg.partition("=")[2])
    collections = {}
    for arg in (a for a in argv if not a.startswith("--")):
        name, _, path = arg.partition("=")
        collections[name] = candidates.load(path)
    out = replay.confidence_report(collections)
    print("held out (answers weak / off-topic confident / other results confident a query, per floor)")
    for name, table in out["collections"].items():
        print(f"  {name:<16} {rows(table)}")
    print(f"  {'all':<16} {rows(out['all'])}")
    print("shipped model (scent.confidence.MODEL)")
    floors = tuple(r["floor"] for r in out["all"])
    for name, recs in collections.items():
        p, y, qi, answer = replay.shipped_confidence(recs)
        print(f"  {name:<16} {rows(replay.trade_off(recs, p, qi, answer, floors, y))}")
    if fit:
        weights = replay.fit_confidence([r for recs in collections.values() for r in recs])
        print("fitted on every record:")
        print("MODEL: dict[str, float] = {\n    " + ", ".join(f'"{k}": {v:.4f}' for k, v in weights.items()) + "\n}")


if __name__ == "__main__":
    main(sys.argv[1:])
