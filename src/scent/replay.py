"""Fusion functions replayed on recorded candidate lists (scent.candidates), compared on
held-out folds: a parameter is chosen on the other folds' queries and scored on this fold's, so
no query is ever scored by a choice made on it.

The replay of RRF gives back the pipeline's own runs (tests/test_replay.py checks this on a real
index), so a difference between two replays is a difference between the fusion functions.
"""
from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from . import search as pipeline
from .candidates import OFF_TOPIC, Record
from .evaluate import paired_bootstrap
from .fuse import rrf
from .settings import Settings
from .kinds import PICTURE_KINDS
from .metrics import BEIR_METRICS, FOLDER_METRICS
from .search import replaced

LISTS = ("dense", "keyword", "ids", "pictures")
# Scores no list can go below: cosine -1, BM25 (as scent negates FTS5's) and ID matches 0.
THEORETICAL_MIN = {"dense": -1.0, "pictures": -1.0, "keyword": 0.0, "ids": 0.0}


class Replayed:
    """One record made ready for replays: unit facts by integer id, the lists' file runs."""

    def __init__(self, rec: Record):
        self.rec = rec
        self.units = {int(k): v for k, v in rec.units.items()}
        self.lists = {n: [(int(u), s) for u, s in hits] for n, hits in rec.lists.items()}
        self.unit_runs: dict[str, list] = {n: [u for u, _ in hits] for n, hits in self.lists.items()}
        self.file_runs: dict[str, list] = {n: list(dict.fromkeys(self.units[u]["path"] for u in run))
                                           for n, run in self.unit_runs.items()}
        if rec.stand_in:
            self.unit_runs["stand_in"] = list(rec.stand_in)
            # As search.stand_in: each file of the dense top, held by its first unit there.
            run, seen = [], set()
            for u, _ in self.lists["dense"][:len(rec.stand_in)]:
                path = self.units[u]["path"]
                if path not in seen:
                    seen.add(path)
                    run.append(path if u in rec.stand_in else None)
            self.file_runs["stand_in"] = run
            if "keyword" in self.unit_runs:  # as search.fuse: a stand-in replaces a keyword rank
                self.unit_runs["keyword"], self.file_runs["keyword"] = replaced(
                    self.unit_runs["keyword"], run, lambda u: self.units[u]["path"])
        self.picture_intent = bool(rec.facts.get("picture_intent"))

    @property
    def beir(self) -> bool:
        return self.rec.category == "beir"

    def answer(self, unit_scores: dict[int, float], file_scores: list[tuple[str, float]], depth: int = 100) -> list[str]:
        """The keys shown: files in `file_scores` order, each by its best unit as search.choose picks it."""
        return list(dict.fromkeys(self.units[u]["key"] for _, u in self.shown(unit_scores, file_scores, depth)))

    def shown(self, unit_scores: dict[int, float], file_scores: list[tuple[str, float]],
              depth: int = 100) -> list[tuple[str, int]]:
        """(file, its shown unit) in `file_scores` order."""
        def preference(u):
            return self.picture_intent and self.units[u]["kind"] in PICTURE_KINDS, unit_scores[u]

        by_file: dict[str, list[int]] = {}
        for u in unit_scores:
            by_file.setdefault(self.units[u]["path"], []).append(u)
        keyword = dict(self.lists.get("keyword", ()))
        best: dict[str, int] = {}
        for path, us in by_file.items():
            top = max(us, key=preference)
            # A record made with page_choice=proximity holds each unit's page evidence ("near"):
            # fused ties go as search.choose sends them (page_proximity 0, the default, assumed).
            tied = [u for u in us if "near" in self.units[u] and preference(u)[0] == preference(top)[0]
                    and unit_scores[u] >= unit_scores[top] - pipeline.TIE]
            best[path] = top if len(tied) < 2 else max(
                tied, key=lambda u: pipeline.page_key(unit_scores[u], 0.0, self.units[u]["near"], keyword.get(u)))
        return [(p, best[p]) for p, _ in file_scores[:depth]]


# ---- fusion functions: (replayed record, parameters) -> keys shown, best first -----------------

def replay_rrf(q: Replayed, k: float = 60, weights: dict | None = None) -> list[str]:
    w = {name: 1.0 for name in (*LISTS, "stand_in")} | (weights or {})
    unit_scores = dict(rrf(q.unit_runs, k=k, weights=w))
    return q.answer(unit_scores, pipeline.archive_weighed(rrf(q.file_runs, k=k, weights=w), Settings().archived_weight))


def normalised(hits: list[tuple[int, float]], name: str, how: str) -> dict[int, float]:
    """Each unit's score in one list mapped to [0, 1]: by the list's own min and max ("minmax"), or
    from the score's theoretical minimum to the list's max ("tmm", Bruch et al.'s TM2C2)."""
    if not hits:
        return {}
    scores = np.array([s for _, s in hits], dtype=np.float64)
    high = scores.max()
    low = scores.min() if how == "minmax" else min(THEORETICAL_MIN[name], scores.min())
    span = high - low
    values = (scores - low) / span if span > 0 else np.ones_like(scores)
    return {u: float(v) for (u, _), v in zip(hits, values)}


def replay_convex(q: Replayed, alpha: float = 0.5, norm: str = "minmax") -> list[str]:
    """alpha x dense + (1 - alpha) x keyword, each normalised; the pictures list counts as dense,
    the ID list as keyword, and an other-language stand-in's dense score stands in for its missing
    keyword score (as its dense rank does in RRF). A file takes, in each list, its best unit's score."""
    weight = {"dense": alpha, "pictures": alpha, "keyword": 1 - alpha, "ids": 1 - alpha}
    norms = {n: normalised(hits, n, norm) for n, hits in q.lists.items()}
    if q.rec.stand_in:
        stand = {u for u in q.rec.stand_in if u is not None}
        norms["keyword"] = {**norms.get("keyword", {}), **{u: norms["dense"][u] for u in stand}}
    unit_scores: dict[int, float] = defaultdict(float)
    file_best: dict[str, dict[str, float]] = defaultdict(dict)
    for name, values in norms.items():
        for u, v in values.items():
            unit_scores[u] += weight[name] * v
            per_file = file_best[q.units[u]["path"]]
            per_file[name] = max(per_file.get(name, 0.0), v)
    files = {p: sum(weight[n] * v for n, v in per.items()) for p, per in file_best.items()}
    ordered_units = dict(sorted(unit_scores.items(), key=lambda t: -t[1]))
    return q.answer(ordered_units, sorted(files.items(), key=lambda t: -t[1]))


# ---- a small learned ranker over file features ---------------------------------------------------

def file_features(q: Replayed) -> tuple[list[str], np.ndarray]:
    """Per candidate file: for each list, in it or not, its normalised (min-max) score, 1/rank; the
    best coverage of the query's words among its units; kind; language match; picture intent."""
    paths = list(dict.fromkeys(q.units[u]["path"] for run in q.unit_runs.values() for u in run if u is not None))
    at = {p: i for i, p in enumerate(paths)}
    cols = []
    for name in (*LISTS, "stand_in"):
        present, score, inv = np.zeros(len(paths)), np.zeros(len(paths)), np.zeros(len(paths))
        run = q.file_runs.get(name, [])
        for rank, p in enumerate(run, start=1):
            if p is not None:
                present[at[p]], inv[at[p]] = 1.0, 1.0 / rank
        if name in q.lists:
            for u, v in normalised(q.lists[name], name, "minmax").items():
                i = at[q.units[u]["path"]]
                score[i] = max(score[i], v)
        cols += [present, score, inv]
    cov, picture, text_kind, same_lang, other_lang = (np.zeros(len(paths)) for _ in range(5))
    lang = q.rec.facts.get("lang")
    for u, f in q.units.items():
        i = at[f["path"]]
        cov[i] = max(cov[i], f.get("coverage", 0.0))
        picture[i] = max(picture[i], float(f["kind"] in PICTURE_KINDS))
        text_kind[i] = max(text_kind[i], float(f["file_kind"] == "text"))
        if lang and f.get("lang"):
            same_lang[i] = max(same_lang[i], float(f["lang"] == lang))
            other_lang[i] = max(other_lang[i], float(f["lang"] != lang))
    intent = float(q.picture_intent)
    cols += [cov, picture, picture * intent, text_kind, same_lang, other_lang]
    return paths, np.column_stack(cols)


def file_labels(q: Replayed, paths: list[str]) -> np.ndarray:
    """1 for a file that holds a judged-relevant key (the file itself, or one of its pages)."""
    rel = {k for k, g in q.rec.qrels.items() if g > 0}
    rel_paths = {k.split("#", 1)[0] for k in rel} | {f["path"] for f in q.units.values() if f["key"] in rel}
    return np.array([float(p in rel_paths) for p in paths])


def fit_logistic(x: np.ndarray, y: np.ndarray, ridge: float = 1.0, steps: int = 30,
                 weights: np.ndarray | None = None) -> np.ndarray:
    """Weights (bias last) of an L2-regularised logistic regression, by Newton's method; `weights`
    counts each row that many times (default: once)."""
    x = np.column_stack([x, np.ones(len(x))])
    s = np.ones(len(x)) if weights is None else np.asarray(weights, float)
    w = np.zeros(x.shape[1])
    penalty = np.full(x.shape[1], ridge)
    penalty[-1] = 0.0
    for _ in range(steps):
        p = 1 / (1 + np.exp(-np.clip(x @ w, -30, 30)))
        grad = x.T @ (s * (p - y)) + penalty * w
        hess = (x * (s * p * (1 - p))[:, None]).T @ x + np.diag(penalty) + 1e-9 * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-6:
            break
    return w


class Learned:
    """Logistic regression over file features, trained on some records, ranking others' files;
    each file's shown unit is chosen by unit-level RRF, as the pipeline does."""

    def __init__(self, train: list[Replayed], ridge: float = 1.0):
        xs, ys = [], []
        for q in train:
            paths, x = file_features(q)
            xs.append(x)
            ys.append(file_labels(q, paths))
        x, y = np.vstack(xs), np.concatenate(ys)
        self.mean, self.scale = x.mean(0), x.std(0) + 1e-9
        self.w = fit_logistic((x - self.mean) / self.scale, y, ridge)

    def __call__(self, q: Replayed) -> list[str]:
        paths, x = file_features(q)
        s = np.column_stack([(x - self.mean) / self.scale, np.ones(len(x))]) @ self.w
        files = sorted(zip(paths, s.tolist()), key=lambda t: -t[1])
        return q.answer(dict(rrf(q.unit_runs, k=60)), files)


# ---- scoring and held-out folds -----------------------------------------------------------------

def metric_fns(q: Replayed) -> dict[str, Callable]:
    return BEIR_METRICS if q.beir else FOLDER_METRICS


def score(q: Replayed, run: list[str], metric: str) -> float:
    return metric_fns(q)[metric](run, q.rec.qrels)


def folds_of(queries: list[Replayed], folds: int = 5, seed: int = 0) -> list[int]:
    """Each query's fold, every category spread evenly over the folds."""
    rnd = random.Random(seed)
    by_cat: dict[str, list[int]] = defaultdict(list)
    for i, q in enumerate(queries):
        by_cat[q.rec.category].append(i)
    fold = [0] * len(queries)
    start = 0
    for cat in sorted(by_cat):
        idx = by_cat[cat][:]
        rnd.shuffle(idx)
        for n, i in enumerate(idx):
            fold[i] = (start + n) % folds
        start += len(idx)
    return fold


@dataclass
class HeldOut:
    method: str
    per_query: dict[str, list[float]]   # metric -> each query's held-out score
    chosen: list                        # per fold: the parameters picked on the other folds

    def mean(self, metric: str) -> float:
        xs = self.per_query[metric]
        return sum(xs) / len(xs)


def held_out_grid(queries: list[Replayed], name: str, fuse: Callable, grid: list[dict], metrics: tuple[str, ...],
                  fold: list[int], tune_on: str) -> HeldOut:
    """For each fold: the grid point with the best mean `tune_on` on the other folds, scored on it."""
    runs = [[fuse(q, **p) for q in queries] for p in grid]
    tuned = [[score(q, r, tune_on) for q, r in zip(queries, point_runs)] for point_runs in runs]
    per_query = {m: [0.0] * len(queries) for m in metrics}
    chosen = []
    for f in sorted(set(fold)):
        train = [i for i, g in enumerate(fold) if g != f]
        best = max(range(len(grid)), key=lambda c: (sum(tuned[c][i] for i in train), -c))
        chosen.append(grid[best])
        for i, g in enumerate(fold):
            if g == f:
                for m in metrics:
                    per_query[m][i] = score(queries[i], runs[best][i], m)
    return HeldOut(name, per_query, chosen)


def held_out_learned(queries: list[Replayed], metrics: tuple[str, ...], fold: list[int], ridge: float = 1.0) -> HeldOut:
    per_query = {m: [0.0] * len(queries) for m in metrics}
    weights = []
    for f in sorted(set(fold)):
        model = Learned([q for q, g in zip(queries, fold) if g != f], ridge)
        weights.append([round(float(v), 3) for v in model.w])
        for i, g in enumerate(fold):
            if g == f:
                run = model(queries[i])
                for m in metrics:
                    per_query[m][i] = score(queries[i], run, m)
    return HeldOut("learned", per_query, weights)


ALPHAS = [round(float(a), 2) for a in np.arange(0.0, 1.0001, 0.05)]
RRF_KS = [1, 5, 10, 20, 40, 60, 100]


def compare_methods(records: list[Record], folds: int = 5, seed: int = 0, learned: bool = True,
                    metrics: tuple[str, ...] = ("ndcg@10", "mrr@10")) -> dict:
    """RRF as shipped, RRF with k chosen on the other folds, convex combinations (min-max and
    theoretical-min normalisation, alpha chosen on the other folds) and the learned ranker, each
    scored on held-out folds, with paired-bootstrap intervals of its difference from RRF."""
    queries = [Replayed(r) for r in records if r.category != OFF_TOPIC]
    fold = folds_of(queries, folds, seed)
    results = _held_out_methods(queries, fold, metrics, learned)
    out = {"queries": len(queries), "folds": folds, "methods": []}
    for r in results:
        row = {"method": r.method, "chosen": r.chosen}
        row.update(_against_rrf(results[0], r, metrics, range(len(queries))))
        out["methods"].append(row)
    return out


def compare_across(collections: dict[str, list[Record]], learned: bool = True,
                   metrics: tuple[str, ...] = ("ndcg@10", "mrr@10")) -> list[dict]:
    """Each collection scored by the methods of compare_methods tuned (or trained) on the other
    collections alone: how a fusion chosen on the folders at hand fares on a folder it never saw,
    which is the choice a shipped default makes. Folds within one collection let a method learn
    that collection; here it cannot. The others' queries are pooled, so larger ones weigh more."""
    if len(collections) < 2:
        raise ValueError("compare_across needs two collections or more")
    queries: list[Replayed] = []
    fold: list[int] = []
    for c, recs in enumerate(collections.values()):
        held = [Replayed(r) for r in recs if r.category != OFF_TOPIC]
        if not held:
            raise ValueError(f"{list(collections)[c]} holds no answered query")
        queries += held
        fold += [c] * len(held)
    results = _held_out_methods(queries, fold, metrics, learned)
    out = []
    for c, name in enumerate(collections):
        mine = [i for i, g in enumerate(fold) if g == c]
        rows = []
        for r in results:
            row = {"method": r.method, "chosen": r.chosen[c]}
            row.update(_against_rrf(results[0], r, metrics, mine))
            rows.append(row)
        out.append({"records": name, "queries": len(mine), "methods": rows})
    return out


def _held_out_methods(queries: list[Replayed], fold: list[int], metrics: tuple[str, ...],
                      learned: bool) -> list[HeldOut]:
    tune_on = metrics[0]
    results = [
        held_out_grid(queries, "rrf", replay_rrf, [{}], metrics, fold, tune_on),
        held_out_grid(queries, "rrf (k tuned)", replay_rrf, [{"k": k} for k in RRF_KS], metrics, fold, tune_on),
        held_out_grid(queries, "convex minmax", replay_convex, [{"alpha": a, "norm": "minmax"} for a in ALPHAS],
                      metrics, fold, tune_on),
        held_out_grid(queries, "convex tmm", replay_convex, [{"alpha": a, "norm": "tmm"} for a in ALPHAS],
                      metrics, fold, tune_on),
    ]
    if learned:
        results.append(held_out_learned(queries, metrics, fold))
    return results


def _against_rrf(base: HeldOut, r: HeldOut, metrics: tuple[str, ...], which) -> dict:
    """Per metric: `r`'s mean over the queries `which`, and its paired difference from RRF's."""
    row = {}
    for m in metrics:
        mine = [r.per_query[m][i] for i in which]
        diff, low, high = paired_bootstrap([base.per_query[m][i] for i in which], mine, samples=2000)
        row[m] = {"mean": sum(mine) / len(mine), "diff": diff, "low": low, "high": high}
    return row


def check_replay(records: list[Record]) -> int:
    """How many queries' replayed RRF differs from the run the pipeline returned (0 expected)."""
    return sum(replay_rrf(Replayed(r)) != r.run for r in records if r.run)


def table(out: dict) -> str:
    """compare_methods' result as lines a person reads: each method's held-out means and its
    difference from RRF with the 95% paired-bootstrap interval."""
    metrics = [k for k in out["methods"][0] if k not in ("method", "chosen")]
    lines = ["method            " + "".join(f"{m:>34}" for m in metrics)]
    for row in out["methods"]:
        cells = "".join(f"{row[m]['mean']:>10.3f} ({row[m]['diff']:+.3f}, {row[m]['low']:+.3f}..{row[m]['high']:+.3f})"
                        .rjust(34) for m in metrics)
        lines.append(f"{row['method']:<18}{cells}")
    return "\n".join(lines)


# ---- confidence: a logistic model over the shown results' facts ---------------------------------

def confidence_rows(records: list[Record], depth: int = 10):
    """One row per shown result (the first `depth`, fused by RRF as shipped) of every record:
    (features, relevant, query index, whether it is the query's first relevant result)."""
    from .confidence import features, result_inputs

    xs, ys, qs, answer = [], [], [], []
    for i, rec in enumerate(records):
        q = Replayed(rec)
        shown = q.shown(dict(rrf(q.unit_runs, k=60)), rrf(q.file_runs, k=60), depth)
        facts = lambda u: {k: q.units[u].get(k) for k in ("lang", "kind", "coverage", "cosine")}  # noqa: E731
        rel = {k for k, g in rec.qrels.items() if g > 0}
        first = True
        for (path, u), inputs in zip(shown, result_inputs(q.lists, lambda u: q.units[u]["path"], shown, facts)):
            good = q.units[u]["key"] in rel
            xs.append(features(inputs, rec.facts))
            ys.append(float(good))
            qs.append(i)
            answer.append(good and first)
            first = first and not good
    return np.array(xs), np.array(ys), np.array(qs), np.array(answer)


def _row_weights(records: list[Record], qi: np.ndarray, answer: np.ndarray) -> np.ndarray:
    """How much each row counts in a confidence model's fit. Right answers (1) and every result an
    off-topic query shows (0, filler by construction) count fully. The other results of answered
    queries count `CONFIDENCE_OTHERS` each (labelled by their judgments): a neighbouring note or the
    right file's sibling is no clear negative, and counted fully they teach the model that rank 2 is
    never right (every answer below rank 1 flagged weak); left out, the model never learns that a
    result sharing one common word with the question is not an answer, and an answered query
    showed 3 such results "sure" besides its answer (docs/retrieval-tuning.md, session 17)."""
    off = np.array([records[i].category == OFF_TOPIC for i in qi], dtype=bool)
    return np.where(answer | off, 1.0, CONFIDENCE_OTHERS)


CONFIDENCE_RIDGE = 0.3
CONFIDENCE_OTHERS = 0.005


def _fit_rows(x: np.ndarray, y: np.ndarray, weights: np.ndarray, rows: np.ndarray, ridge: float) -> np.ndarray:
    """The confidence model fitted on `rows` (a mask) that count at all."""
    rows = rows & (weights > 0)
    return fit_logistic(x[rows][:, 1:], y[rows], ridge, weights=weights[rows])  # column 0 is the bias


def trade_off(records: list[Record], p: np.ndarray, qi: np.ndarray, answer: np.ndarray,
              floors=tuple(round(float(f), 2) for f in np.arange(0.05, 0.96, 0.05)),
              y: np.ndarray | None = None) -> list[dict]:
    """Per floor: the share of answered queries whose answer is flagged weak, the share of
    off-topic queries that still show a confident result, and (given `y`, each row's relevance) how
    many confident results that are not right an answered query shows on average."""
    answered = sorted(set(qi[answer].tolist()))
    off_queries = sorted({i for i, r in enumerate(records) if r.category == OFF_TOPIC})
    on_topic = np.isin(qi, answered)
    rows = []
    for f in floors:
        weak = float(np.mean(p[answer] < f)) if answered else 0.0
        confident = [bool(np.any(p[(qi == i)] >= f)) for i in off_queries]
        row = {"floor": f, "answers_weak": weak, "off_topic_confident":
               float(np.mean(confident)) if confident else 0.0,
               "answered": len(answered), "off_topic": len(off_queries)}
        if y is not None:
            row["others_confident"] = float(np.sum(on_topic & (p >= f) & (y == 0)) / max(1, len(answered)))
        rows.append(row)
    return rows


def calibration(p: np.ndarray, y: np.ndarray, bins: int = 10) -> list[dict]:
    """Reliability: per confidence bin, the mean confidence and the share that were right."""
    out = []
    for b in range(bins):
        lo, hi = b / bins, (b + 1) / bins
        m = (p >= lo) & ((p < hi) if b < bins - 1 else (p <= hi))
        if m.any():
            out.append({"bin": f"{lo:.1f}-{hi:.1f}", "n": int(m.sum()), "mean_confidence": float(p[m].mean()),
                        "right": float(y[m].mean())})
    return out


def fit_confidence(records: list[Record], ridge: float = CONFIDENCE_RIDGE) -> dict[str, float]:
    """The model fitted on every record: feature name -> weight (for scent.confidence.MODEL)."""
    from .confidence import FEATURES

    x, y, qi, answer = confidence_rows(records)
    weights = _row_weights(records, qi, answer)
    w = _fit_rows(x, y, weights, np.ones(len(y), bool), ridge)
    return {"bias": float(w[-1]), **{name: float(v) for name, v in zip(FEATURES[1:], w[:-1])}}


def shipped_confidence(records: list[Record]):
    """Each shown result's confidence under the shipped model (scent.confidence.MODEL): on a
    collection it was not fitted on, a held-out measure as it stands."""
    from .confidence import MODEL, probability

    x, y, qi, answer = confidence_rows(records)
    return np.array([probability(MODEL, list(row)) for row in x]), y, qi, answer


def confidence_report(collections: dict[str, list[Record]], folds: int = 5, seed: int = 0,
                      floors=tuple(round(float(f), 2) for f in np.arange(0.1, 0.91, 0.1))) -> dict:
    """The confidence model fitted on several collections' records at once, measured on held-out
    folds (stratified by collection and category): the trade-off table of each collection and of
    all, and the calibration of the held-out confidences."""
    records, names = [], []
    for name, recs in collections.items():
        records += recs
        names += [name] * len(recs)
    x, y, qi, answer = confidence_rows(records)
    weights = _row_weights(records, qi, answer)
    strata = [Replayed(Record(**{**vars(r), "category": f"{n}:{r.category}"})) for r, n in zip(records, names)]
    fold_of_query = folds_of(strata, folds, seed)
    fold = np.array([fold_of_query[i] for i in qi])
    p = np.zeros(len(y))
    for f in range(folds):
        w = _fit_rows(x, y, weights, fold != f, CONFIDENCE_RIDGE)
        p[fold == f] = 1 / (1 + np.exp(-np.clip(x[fold == f][:, 1:] @ w[:-1] + w[-1], -30, 30)))
    row_names = np.array([names[i] for i in qi])
    out = {"collections": {}, "calibration": calibration(p, y)}
    for name in collections:
        at = [i for i, n in enumerate(names) if n == name]
        renumber = {old: new for new, old in enumerate(at)}
        m = row_names == name
        out["collections"][name] = trade_off([records[i] for i in at], p[m],
                                             np.array([renumber[i] for i in qi[m]]), answer[m], floors, y[m])
    out["all"] = trade_off(records, p, qi, answer, floors, y)
    return out
