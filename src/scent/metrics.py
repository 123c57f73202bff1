"""Retrieval metrics with trec_eval semantics, over one query's ranked run and its judgments.

`run` is the ranked list of document keys (best first, no duplicates); `qrels` maps document
keys to graded relevance (> 0 relevant). Every function returns a float in [0, 1].
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence


def _relevant(qrels: Mapping[str, float]) -> set[str]:
    return {d for d, g in qrels.items() if g > 0}


def first_rank(run: Sequence[str], qrels: Mapping[str, float]) -> int | None:
    rel = _relevant(qrels)
    return next((i for i, d in enumerate(run, start=1) if d in rel), None)


def hit(run, qrels, k: int) -> float:
    r = first_rank(run[:k], qrels)
    return 1.0 if r is not None else 0.0


def mrr(run, qrels, k: int = 10) -> float:
    r = first_rank(run[:k], qrels)
    return 1.0 / r if r is not None else 0.0


def recall(run, qrels, k: int) -> float:
    rel = _relevant(qrels)
    return len(rel & set(run[:k])) / len(rel) if rel else 0.0


def precision(run, qrels, k: int) -> float:
    rel = _relevant(qrels)
    return len(rel & set(run[:k])) / k


def average_precision(run, qrels) -> float:
    rel = _relevant(qrels)
    if not rel:
        return 0.0
    found, total = 0, 0.0
    for i, d in enumerate(run, start=1):
        if d in rel:
            found += 1
            total += found / i
    return total / len(rel)


def ndcg(run, qrels, k: int = 10) -> float:
    """Linear gains (gain = grade), log2 discount, as trec_eval's ndcg_cut."""
    dcg = sum(qrels.get(d, 0) / math.log2(i + 1) for i, d in enumerate(run[:k], start=1) if qrels.get(d, 0) > 0)
    ideal = sorted((g for g in qrels.values() if g > 0), reverse=True)[:k]
    idcg = sum(g / math.log2(i + 1) for i, g in enumerate(ideal, start=1))
    return dcg / idcg if idcg else 0.0


# name -> function(run, qrels); the tables and JSON use these names
FOLDER_METRICS = {
    "hit@1": lambda r, q: hit(r, q, 1),
    "hit@5": lambda r, q: hit(r, q, 5),
    "mrr@10": lambda r, q: mrr(r, q, 10),
    "recall@10": lambda r, q: recall(r, q, 10),
    "precision@5": lambda r, q: precision(r, q, 5),
    "map": average_precision,
    "ndcg@10": lambda r, q: ndcg(r, q, 10),
}
BEIR_METRICS = {
    "ndcg@10": lambda r, q: ndcg(r, q, 10),
    "map": average_precision,
    "mrr@10": lambda r, q: mrr(r, q, 10),
    "recall@100": lambda r, q: recall(r, q, 100),
}
