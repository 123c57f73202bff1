"""How an engine holds up with many units: build time, query latency (dense, keyword, hybrid with a
kind+date filter), recall@10 of its dense list against exact search, peak RSS and disk per unit.

    .venv/bin/python scripts/scale_benchmark.py --units 100000 --backend sqlite [--json]

The units are synthetic, made without the model so that a million fit in minutes: files of 1-19
units with realistic kinds, folders, dates, languages and text lengths (words drawn from a Zipf
vocabulary plus each topic's own words, an ID now and then), and vectors shaped like
multilingual-e5's: a strong shared direction (any two units score ~0.75), a topic direction
(same topic ~0.88) and the unit's own part. Queries are topic-level: a dense vector near a topic,
two or three of its words, and for the filtered hybrid query a kind and a date range.

Build and search run in two child processes, so each one's peak RSS is its own (VmHWM). Exact
search is done here, streaming over the same vectors in float32, to score recall@10.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

DIMS = 384
FILE_KINDS = [("text", "text", 0.45), ("code", "code", 0.15), ("pdf", "pdf_page", 0.2), ("html", "html", 0.1),
              ("docx", "docx", 0.05), ("image", "image", 0.05)]
LANGS = [("en", 0.8), ("fr", 0.06), ("es", 0.06), ("de", 0.04), ("hi", 0.02), ("ta", 0.02)]
YEARS = (2015, 2026)
BATCH_FILES = 200
SHARED, TOPIC, OWN = 0.75 ** 0.5, 0.13 ** 0.5, 0.12 ** 0.5  # squared: the shares of a unit's vector


class Synthetic:
    """Deterministic units for `units` (file by file) and topic-level queries, from one seed."""

    def __init__(self, units: int, seed: int = 0):
        self.units = units
        self.seed = seed
        rng = np.random.default_rng(seed)
        self.topics = max(50, units // 200)
        self.shared = _unit(rng.standard_normal(DIMS))
        self.centres = _unit(rng.standard_normal((self.topics, DIMS)))
        self.vocab = list(dict.fromkeys(_word(rng, i) for i in range(40_000)))[:30_000]
        zipf = 1 / np.arange(1, len(self.vocab) + 1)
        self.zipf = zipf / zipf.sum()
        self.topic_words = rng.integers(5_000, len(self.vocab), size=(self.topics, 12))

    def files(self):
        """(path, file kind, unit kind, date, lang, [(text, vector)]) batches of BATCH_FILES files."""
        rng = np.random.default_rng(self.seed + 1)
        made, n = 0, 0
        kinds, kind_p = [k[:2] for k in FILE_KINDS], np.array([k[2] for k in FILE_KINDS])
        langs, lang_p = [lang for lang, _ in LANGS], np.array([p for _, p in LANGS])
        start, end = (np.datetime64(f"{y}-01-01").astype("datetime64[s]").astype(float) for y in YEARS)
        while made < self.units:
            batch = []
            for _ in range(BATCH_FILES):
                if made >= self.units:
                    break
                count = int(min(self.units - made, rng.integers(1, 20)))
                file_kind, unit_kind = kinds[rng.choice(len(kinds), p=kind_p)]
                topic = int(rng.integers(self.topics))
                lang = langs[rng.choice(len(langs), p=lang_p)]
                date = float(rng.uniform(start, end))
                path = f"{['notes', 'work', 'archive', 'projects'][n % 4]}/{2015 + n % 12}/t{topic}/f{n}.{file_kind}"
                own = _unit(rng.standard_normal((count, DIMS)))
                vectors = _unit(SHARED * self.shared + TOPIC * self.centres[topic] + OWN * own)
                texts = [self._text(rng, topic) for _ in range(count)]
                batch.append((path, file_kind, unit_kind, date, lang, list(zip(texts, vectors.astype(np.float32)))))
                made += count
                n += 1
            yield batch

    def _text(self, rng, topic: int) -> str:
        length = int(np.clip(rng.lognormal(4.6, 0.6), 5, 180))  # median ~100 words, chunks cut at 180
        words = [self.vocab[i] for i in rng.choice(len(self.vocab), size=length, p=self.zipf)]
        for i in rng.integers(0, length, size=max(1, length // 12)):
            words[i] = self.vocab[self.topic_words[topic, rng.integers(12)]]
        if rng.random() < 0.05:
            words.append(f"INV-{rng.integers(10_000, 99_999)}")
        return " ".join(words)

    def queries(self, count: int) -> list[dict]:
        rng = np.random.default_rng(self.seed + 2)
        out = []
        for i in range(count):
            topic = int(rng.integers(self.topics))
            vector = _unit(SHARED * self.shared + TOPIC * self.centres[topic] + OWN * _unit(rng.standard_normal(DIMS)))
            words = [self.vocab[w] for w in rng.choice(self.topic_words[topic], size=int(rng.integers(2, 4)),
                                                        replace=False)]
            year = int(rng.integers(YEARS[0], YEARS[1] - 3))
            out.append({"text": " ".join(words), "vector": vector.astype(np.float32).tolist(),
                        "kind": FILE_KINDS[int(rng.integers(4))][0],
                        "after": f"{year}-01-01", "before": f"{year + 3}-12-31"})
        return out


def _unit(x: np.ndarray) -> np.ndarray:
    return x / np.linalg.norm(x, axis=-1, keepdims=True)


def _word(rng, i: int) -> str:
    """A made-up word, 3-10 letters with a vowel every other letter or so (no digits: those look like IDs)."""
    consonants, vowels = "bcdfghjklmnprstvwz", "aeiou"
    size = int(rng.integers(3, 11))
    return "".join((vowels if j % 2 else consonants)[rng.integers(0, 5 if j % 2 else 18)] for j in range(size))


# ---- the two children ------------------------------------------------------------------------------

def build(args) -> dict:
    from scent.engines import engine_class
    from scent.query import extra_tokens, id_tokens
    from scent.settings import Settings
    from scent.storage import VectorField, text_key, unit_id
    from scent.units import FileRecord, FileWrite, UnitRecord

    settings = Settings(backend=args.backend, **_engine_settings(args))
    engine = None
    if not args.exact_only:
        engine = engine_class(args.backend)(Path(args.dir), settings)
        engine.vectors.add_field(VectorField("unit", "synthetic/e5-like", DIMS))
    data = Synthetic(args.units, args.seed)
    queries = data.queries(args.queries)
    qmatrix = np.array([q["vector"] for q in queries], np.float32)
    best = np.full((len(queries), 10), -np.inf, np.float32)
    best_ids = np.zeros((len(queries), 10), np.int64)
    text_bytes = 0
    started = time.perf_counter()
    for batch in data.files():
        writes, ids, vectors = [], [], []
        for path, file_kind, unit_kind, date, lang, units in batch:
            key = path
            records = []
            for place, (text, vector) in enumerate(units):
                uid = unit_id(key, place)
                records.append(UnitRecord(kind=unit_kind, text=text, text_hash=text_key(text), page=None, start=0,
                                          end=len(text), title="", lang=lang, extra=extra_tokens(text),
                                          ids=id_tokens(text), id=uid))
                ids.append(uid)
                vectors.append(vector)
                text_bytes += len(text.encode())
            record = FileRecord(path, file_kind, 1000, 1, text_key(path), date, path.rsplit("/", 1)[-1], key)
            writes.append(FileWrite(record, records, {"unit": {u.id: v for u, (_, v) in zip(records, units)}}))
        if engine is not None:
            engine.write_files(writes)
        # Exact top 10 per query, kept while streaming (float32, the vectors as made).
        scores = qmatrix @ np.stack(vectors).T
        merged = np.concatenate([best, scores], axis=1)
        merged_ids = np.concatenate([best_ids, np.broadcast_to(np.array(ids), scores.shape)], axis=1)
        top = np.argsort(-merged, axis=1)[:, :10]
        best, best_ids = np.take_along_axis(merged, top, 1), np.take_along_axis(merged_ids, top, 1)
    if engine is not None:
        engine.finish_run()
        engine.close()
    build_s = time.perf_counter() - started
    return {"build_s": build_s, "text_bytes": text_bytes, "exact": best_ids.tolist(), "queries": queries,
            "rss_mb": _peak_rss_mb()}


def search(args, queries: list[dict], exact: list[list[int]]) -> dict:
    from scent import search as pipeline
    from scent.engines import engine_class
    from scent.filters import Filters
    from scent.language import detect
    from scent.query import parse
    from scent.settings import Settings

    settings = Settings(backend=args.backend, **_engine_settings(args))
    engine = engine_class(args.backend)(Path(args.dir), settings)
    vectors = {q["text"]: np.array(q["vector"], np.float32) for q in queries}

    def run(q: dict, strategy: str, filters: Filters) -> list:
        s = settings.with_values(strategy=strategy)
        request = pipeline.Request(q["text"], parse(q["text"], s.stopwords), filters, s, engine, vectors.__getitem__,
                                   lang=detect(q["text"]))
        return pipeline.run(request, 10)[0]

    # Warm: the first query opens files and loads what a long-running server would hold.
    run(queries[0], "hybrid", Filters())
    times: dict[str, list[float]] = {"dense": [], "keyword": [], "hybrid": [], "hybrid_filter": []}
    recall = []
    for q, want in zip(queries, exact):
        for name, strategy, filters in (
                ("dense", "dense", Filters()), ("keyword", "keyword", Filters()), ("hybrid", "hybrid", Filters()),
                ("hybrid_filter", "hybrid", Filters.build(kinds=[q["kind"]], after=q["after"], before=q["before"]))):
            t = time.perf_counter()
            run(q, strategy, filters)
            times[name].append((time.perf_counter() - t) * 1000)
        # The dense list as search asks for it (`candidates` deep), its first 10 against exact search.
        got = [uid for uid, _ in engine.vectors.search("unit", vectors[q["text"]], Filters(), settings.candidates,
                                                       oversample=settings.vector_oversample,
                                                       rescore_depth=settings.rescore_depth)][:10]
        recall.append(len(set(got) & set(want)) / 10)
    engine.close()
    out = {"rss_mb": _peak_rss_mb(), "recall_at_10": statistics.mean(recall)}
    for name, ts in times.items():
        out[f"{name}_p50_ms"] = _percentile(ts, 50)
        out[f"{name}_p95_ms"] = _percentile(ts, 95)
    return out


def _engine_settings(args) -> dict:
    return dict(json.loads(args.settings)) if args.settings else {}


def _percentile(values: list[float], p: float) -> float:
    return float(np.percentile(np.array(values), p))


def _peak_rss_mb() -> float:
    with open("/proc/self/status") as fh:
        kb = next(int(line.split()[1]) for line in fh if line.startswith("VmHWM"))
    return kb / 1024


def _disk_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--units", type=int, required=True)
    ap.add_argument("--backend", default="sqlite")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--settings", help="engine settings as JSON, e.g. '{\"vector_index_threshold\": 0}'")
    ap.add_argument("--dir", help="where the index is built (default: a temporary folder, removed after)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--keep", help="keep what the build measured (queries, exact answers, build time) in this JSON "
                    "file; given again with the same --dir, the build is skipped and only search is measured")
    ap.add_argument("--exact-only", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--child", choices=["build", "search"], help=argparse.SUPPRESS)
    ap.add_argument("--state", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child == "build":
        Path(args.state).write_text(json.dumps(build(args)))
        return
    if args.child == "search":
        state = json.loads(Path(args.state).read_text())
        Path(args.state).write_text(json.dumps(search(args, state["queries"], state["exact"])))
        return

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.dir) if args.dir else Path(tmp) / "index"
        state = Path(tmp) / "state.json"
        child = [sys.executable, __file__, "--units", str(args.units), "--backend", args.backend, "--queries",
                 str(args.queries), "--seed", str(args.seed), "--dir", str(folder), "--state", str(state)]
        if args.settings:
            child += ["--settings", args.settings]
        kept = Path(args.keep) if args.keep else None
        if kept and kept.is_file() and folder.is_dir():
            built = json.loads(kept.read_text())
        else:
            subprocess.run(child + ["--child", "build"], check=True)
            built = json.loads(state.read_text())
            if kept:
                kept.write_text(json.dumps(built))
        state.write_text(json.dumps(built))
        disk = _disk_bytes(folder)
        subprocess.run(child + ["--child", "search"], check=True)
        searched = json.loads(state.read_text())
    result = {
        "units": args.units, "backend": args.backend, "settings": _engine_settings(args),
        "build_s": round(built["build_s"], 1),
        "p50_ms": round(searched["hybrid_p50_ms"], 2), "p95_ms": round(searched["hybrid_p95_ms"], 2),
        "hybrid_filter_p95_ms": round(searched["hybrid_filter_p95_ms"], 2),
        "recall_at_10": round(searched["recall_at_10"], 4),
        "rss_mb": round(max(built["rss_mb"], searched["rss_mb"]), 1),
        "build_rss_mb": round(built["rss_mb"], 1), "search_rss_mb": round(searched["rss_mb"], 1),
        "disk_bytes_per_unit": round(disk / args.units, 1),
        "text_bytes_per_unit": round(built["text_bytes"] / args.units, 1),
        "beyond_text_bytes_per_unit": round((disk - built["text_bytes"]) / args.units, 1),
        **{k: round(v, 2) for k, v in searched.items() if k.endswith("_ms")},
    }
    if args.json:
        print(json.dumps(result))
    else:
        for k, v in result.items():
            print(f"{k:28} {v}")


if __name__ == "__main__":
    main()
