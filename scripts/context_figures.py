"""How good `scent context`'s passages are on a BEIR collection, with a setting and without it.

    .venv/bin/python scripts/context_figures.py BEIR_DIR [SETTING=VALUE] [--tokens 2000]

The collection's folder must be indexed already: run `scent eval --beir BEIR_DIR` once (it writes
the documents into $SCENT_HOME and indexes them). Per judged query, the share of the passages
`Index.context` hands an LLM that come from a document judged relevant (all of them, and the first
five), with the defaults and with SETTING=VALUE (default: feedback_units=0, pseudo-relevance
feedback off); prints one JSON object with both means and the paired-bootstrap interval of the
difference (defaults minus variant).
"""
from __future__ import annotations

import argparse
import json

from scent import Index, location
from scent.commands import _parse_variant
from scent.evaluate import _safe, load_beir, paired_bootstrap


def shares(idx: Index, text: str, relevant: set[str], tokens: int, **overrides) -> tuple[float, float]:
    files = [p.path for p in idx.context(text, tokens=tokens, **overrides).passages]
    if not files:
        return 0.0, 0.0
    return (sum(f in relevant for f in files) / len(files),
            sum(f in relevant for f in files[:5]) / len(files[:5]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("beir")
    ap.add_argument("variant", nargs="?", default="feedback_units=0")
    ap.add_argument("--tokens", type=int, default=2000)
    args = ap.parse_args()
    _, queries, qrels = load_beir(args.beir)
    overrides = _parse_variant(args.variant)
    base_dir = location.default_index_dir(args.beir)
    base_all, base_5, var_all, var_5 = [], [], [], []
    with Index(base_dir.with_name(base_dir.name + "-docs")) as idx:  # where `scent eval --beir` wrote them
        for qid in sorted(queries):
            relevant = {f"{_safe(d)}.txt" for d, g in qrels[qid].items() if g > 0}
            a, a5 = shares(idx, queries[qid], relevant, args.tokens)
            b, b5 = shares(idx, queries[qid], relevant, args.tokens, **overrides)
            base_all.append(a), base_5.append(a5), var_all.append(b), var_5.append(b5)
    n = len(base_all)
    out = {"queries": n, "variant": args.variant, "tokens": args.tokens}
    for name, base, var in (("all_passages", base_all, var_all), ("first_5", base_5, var_5)):
        diff, low, high = paired_bootstrap(var, base)
        out[name] = {"defaults": sum(base) / n, "variant": sum(var) / n, "diff": diff, "low": low, "high": high}
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
