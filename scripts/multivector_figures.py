"""Figures for late interaction (docs/retrieval-tuning.md, issue #10).

    python scripts/multivector_figures.py profiles QUERIES FOLDER INDEX_DIR   # R@k per profile, MRR@10 per category
    python scripts/multivector_figures.py first-phase QUERIES FOLDER INDEX_DIR  # binary first phase vs exact MaxSim
    python scripts/multivector_figures.py int8 QUERIES FOLDER INDEX_DIR       # float32 vs int8 rescoring, on a sample
    python scripts/multivector_figures.py scale                               # synthetic 1,000 / 100,000 pages

Each prints one JSON object. The index must have been built with region_vectors (the default).
Timings are ratios on a shared machine, not absolute figures.
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np

from scent import multivector as mv
from scent.chunk import regions
from scent.engines.sqlite import codes as vcodes
from scent.evaluate import evaluate, load_queries
from scent.filters import Filters
from scent.index import Index

PROFILES = tuple(sys.argv[5].split(",")) if len(sys.argv) > 5 and sys.argv[1] == "profiles" and "=" not in sys.argv[5] \
    else ("keyword", "dense", "hybrid", "multivector", "hybrid+multivector")
KS = (1, 5, 10, 20)
CATEGORIES = ("pdf-text-page", "pdf-visual-page", "pdf-embedded-image", "needle", "image-ocr")


def _recall(result, k: int) -> float:
    return sum(1 for q in result.queries if q.rank is not None and q.rank <= k) / len(result.queries)


def profiles(queries_file: str, folder: str, index_dir: str, extra: list[str]) -> dict:
    queries = load_queries(queries_file)
    variants = {p: {"strategy": p} for p in PROFILES}
    for text in extra:  # NAME:SETTING=VALUE,SETTING=VALUE
        name, _, spec = text.partition(":")
        variants[name] = dict(part.split("=", 1) for part in spec.split(","))
    out = {}
    with Index(folder, index_dir=index_dir) as idx:
        for name, values in variants.items():
            started = time.perf_counter()
            result = evaluate(idx, queries, **values)
            out[name] = {"settings": values, "seconds": round(time.perf_counter() - started, 1),
                         **{f"R@{k}": round(_recall(result, k), 3) for k in KS},
                         "mrr@10": round(result.overall["mrr@10"], 3),
                         "by_category": {c: round(m["mrr@10"], 3) for c, m in result.by_category.items()}}
    return out


def _query_vectors(idx: Index, texts: list[str]) -> list[np.ndarray]:
    return [idx.embedder.embed_queries(mv.query_phrases(t)) for t in texts]


def first_phase(queries_file: str, folder: str, index_dir: str, depths=(25, 50, 100, 200, 400)) -> dict:
    """recall@10 of the two-phase search against exact MaxSim over every unit, per first-phase depth."""
    queries = load_queries(queries_file)
    out = {}
    with Index(folder, index_dir=index_dir) as idx:
        vectors = idx.engine.vectors
        units = vectors.db.execute("SELECT COUNT(DISTINCT unit_id) FROM vectors WHERE field = 'regions'").fetchone()[0]
        qv = _query_vectors(idx, [q.query for q in queries])
        started = time.perf_counter()
        exact = [[u for u, _ in vectors.multi_search("regions", q, Filters(), 10, first_phase=units)] for q in qv]
        exact_s = time.perf_counter() - started
        out["units"], out["queries"] = units, len(queries)
        out["exact_ms_per_query"] = round(1000 * exact_s / len(qv), 2)
        for n in depths:
            started = time.perf_counter()
            got = [[u for u, _ in vectors.multi_search("regions", q, Filters(), 10, first_phase=n)] for q in qv]
            seconds = time.perf_counter() - started
            recall = np.mean([len(set(a) & set(b)) / max(1, len(b)) for a, b in zip(got, exact)])
            out[f"N={n}"] = {"recall@10": round(float(recall), 4), "ms_per_query": round(1000 * seconds / len(qv), 2)}
    return out


def int8(queries_file: str, folder: str, index_dir: str, sample: int = 150, seed: int = 3) -> dict:
    """MaxSim with float32 region vectors against the same vectors as int8 codes (what the index
    keeps), over a sample of units re-embedded here: top-10 overlap and score differences."""
    queries = load_queries(queries_file)
    with Index(folder, index_dir=index_dir) as idx:
        ids = [r[0] for r in idx.engine.db.execute("SELECT DISTINCT unit_id FROM vectors WHERE field = 'regions'")]
        rng = np.random.default_rng(seed)
        picked = sorted(rng.choice(ids, min(sample, len(ids)), replace=False).tolist())
        units = idx.engine.catalog.units(picked)
        texts = [regions(units[u].text) for u in picked]
        floats = [idx.embedder.embed_passages(t) for t in texts]
        quantised = [vcodes.decode(vcodes.encode(f, "int8"), f.shape[1], "int8") for f in floats]
        quantised = [q / np.linalg.norm(q, axis=1, keepdims=True) for q in quantised]
        starts = np.concatenate([[0], np.cumsum([len(f) for f in floats])[:-1]])
        F, Q8 = np.concatenate(floats), np.concatenate(quantised)
        overlaps, diffs, same_top = [], [], 0
        for qv in _query_vectors(idx, [q.query for q in queries]):
            a, b = mv.maxsim(qv, F, starts), mv.maxsim(qv, Q8, starts)
            ta, tb = np.argsort(-a)[:10], np.argsort(-b)[:10]
            overlaps.append(len(set(ta) & set(tb)) / 10)
            same_top += ta[0] == tb[0]
            diffs.append(float(np.abs(a - b).max() / len(qv)))
    return {"units": len(picked), "regions": int(len(F)), "queries": len(queries),
            "top10_overlap": round(float(np.mean(overlaps)), 4), "same_first": round(same_top / len(queries), 4),
            "max_abs_diff_per_query_vector": round(float(np.max(diffs)), 5),
            "mean_abs_diff_per_query_vector": round(float(np.mean(diffs)), 6)}


def scale(pages_list=(1_000, 100_000), per_page: int = 12, dims: int = 384, m: int = 7, n: int = 100,
          reps: int = 3) -> dict:
    """Synthetic pages (random unit vectors, `per_page` regions each): latency of the two-phase
    search and of exact MaxSim over everything, and bytes a page keeps (int8 record + sign bits)."""
    out = {}
    rng = np.random.default_rng(0)
    for pages in pages_list:
        rows = pages * per_page
        vecs = rng.standard_normal((rows, dims), dtype=np.float32)
        codes, _ = vcodes.quantise(vecs)
        del vecs
        norms = vcodes.norms(codes)
        bits = mv.words(mv.sign_bits(codes))
        starts = np.arange(0, rows, per_page)
        queries = rng.standard_normal((m, dims)).astype(np.float32)
        queries /= np.linalg.norm(queries, axis=1, keepdims=True)
        qbits = mv.words(mv.sign_bits(queries))

        def two_phase():
            approx = mv.hamming_maxsim(qbits, bits, starts, dims)
            top = np.argpartition(-approx, n)[:n]
            at = (top[:, None] * per_page + np.arange(per_page)).ravel()
            vectors = codes[at].astype(np.float32) / norms[at, None]
            return top, mv.maxsim(queries, vectors, np.arange(0, len(at), per_page))

        def exact(block: int = 100_000):
            scores = []
            for a in range(0, rows, block):
                vectors = codes[a:a + block].astype(np.float32) / norms[a:a + block, None]
                scores.append(mv.maxsim(queries, vectors, np.arange(0, len(vectors), per_page)))
            return np.concatenate(scores)

        timings = {}
        for name, fn in (("two_phase", two_phase), ("exact", exact)):
            fn()
            started = time.perf_counter()
            for _ in range(reps):
                got = fn()
            timings[name] = (time.perf_counter() - started) / reps
        top, _ = two_phase()
        truth = np.argsort(-exact())[:10]
        out[f"{pages}_pages"] = {
            "rows": rows, "two_phase_ms": round(1000 * timings["two_phase"], 1), "exact_ms": round(1000 * timings["exact"], 1),
            "speedup": round(timings["exact"] / timings["two_phase"], 1),
            "first_phase_recall@10": round(len(set(truth) & set(top)) / 10, 2),
            "bytes_per_page": int((codes.nbytes + 4 * rows + norms.nbytes + bits.nbytes + 8 * rows) / pages),
            "sign_bits_bytes_per_page": int(bits.nbytes / pages)}
        del codes, bits, norms
    return out


def main(argv: list[str]) -> None:
    what, *args = argv
    if what == "scale":
        print(json.dumps(scale()))
        return
    fn = {"profiles": lambda *a: profiles(*a[:3], [x for x in a[3:] if ":" in x]), "first-phase": first_phase, "int8": int8}[what]
    print(json.dumps(fn(*args)))


if __name__ == "__main__":
    main(sys.argv[1:])
