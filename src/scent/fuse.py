"""Fusion of ranked lists (Reciprocal Rank Fusion) and diversity re-ranking (MMR)."""
from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence

import numpy as np


def rrf(runs: Mapping[str, Sequence[Hashable]], k: float = 60,
        weights: Mapping[str, float] | None = None) -> list[tuple[Hashable, float]]:
    """score(d) = sum over lists of weight / (k + rank), rank starting at 1; best first.

    Ties keep the order in which documents were first seen, walking the lists in the order given.
    A None in a list holds a rank without giving it to anything.
    """
    scores: dict[Hashable, float] = {}
    for name, docs in runs.items():
        w = 1.0 if weights is None else weights.get(name, 1.0)
        for rank, doc in enumerate(docs, start=1):
            if doc is None:
                continue
            scores[doc] = scores.get(doc, 0.0) + w / (k + rank)
    return sorted(scores.items(), key=lambda item: -item[1])


def mmr(ranked: Sequence[tuple[Hashable, float]], vectors: Mapping[Hashable, np.ndarray],
        lam: float = 0.7, k: int = 10) -> list[tuple[Hashable, float]]:
    """Maximal Marginal Relevance: pick, one at a time, the item maximising
    lam * relevance - (1 - lam) * (highest cosine to an item already picked).

    Relevance is the fused score scaled to [0, 1]; items without a vector are never penalised.
    """
    if not ranked:
        return []
    top = max(s for _, s in ranked)
    low = min(s for _, s in ranked)
    span = (top - low) or 1.0
    pool = [(doc, (s - low) / span, s) for doc, s in ranked]
    picked: list[tuple[Hashable, float]] = []
    picked_vecs: list[np.ndarray] = []
    while pool and len(picked) < k:
        best_i, best_val = 0, -np.inf
        for i, (doc, rel, _) in enumerate(pool):
            vec = vectors.get(doc)
            sim = max((float(vec @ p) for p in picked_vecs), default=0.0) if vec is not None else 0.0
            value = lam * rel - (1 - lam) * sim
            if value > best_val:
                best_i, best_val = i, value
        doc, _, score = pool.pop(best_i)
        picked.append((doc, score))
        if vectors.get(doc) is not None:
            picked_vecs.append(vectors[doc])
    return picked
