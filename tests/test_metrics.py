import random

import pytest

from scent.evaluate import load_beir, paired_bootstrap
from scent.metrics import average_precision, hit, mrr, ndcg, precision, recall

from conftest import SHARED_DATA


def test_hand_computed():
    run = ["a", "x", "b", "y"]
    qrels = {"a": 1, "b": 2, "c": 1}
    assert hit(run, qrels, 1) == 1.0
    assert mrr(["x", "b"], qrels) == 0.5
    assert recall(run, qrels, 4) == pytest.approx(2 / 3)
    assert precision(run, qrels, 4) == pytest.approx(2 / 4)
    assert average_precision(run, qrels) == pytest.approx((1 / 1 + 2 / 3) / 3)
    dcg = 1 / 1 + 2 / 2  # log2(2) = 1 for rank 1, log2(4) = 2 for rank 3
    idcg = 2 / 1 + 1 / 1.584962500721156 + 1 / 2
    assert ndcg(run, qrels, 10) == pytest.approx(dcg / idcg)


def test_no_relevant_found():
    assert mrr(["x"], {"a": 1}) == 0.0
    assert ndcg(["x"], {"a": 1}) == 0.0
    assert hit([], {"a": 1}, 5) == 0.0


def test_paired_bootstrap_sees_a_consistent_gain_and_noise():
    a = [0.0] * 50
    diff, low, high = paired_bootstrap(a, [1.0] * 50)
    assert (diff, low, high) == (1.0, 1.0, 1.0)
    diff, low, high = paired_bootstrap([0, 1] * 25, [1, 0] * 25)
    assert diff == 0 and low < 0 < high


@pytest.mark.skipif(not (SHARED_DATA / "cranfield").is_dir(), reason="../shared/data is absent")
def test_metrics_match_trec_eval_on_cranfield():
    ir_measures = pytest.importorskip("ir_measures")
    from ir_measures import AP, R, RR, ScoredDoc, nDCG, Qrel

    corpus, queries, qrels = load_beir(SHARED_DATA / "cranfield")
    docs = sorted(corpus)
    rnd = random.Random(3)
    runs = {}
    for qid, judged in qrels.items():
        # a run that holds some relevant documents at random depths among random others
        pool = rnd.sample(docs, 150) + [d for d in judged if rnd.random() < 0.7]
        runs[qid] = list(dict.fromkeys(rnd.sample(pool, len(pool))))
    measures = {"ndcg@10": nDCG @ 10, "map": AP, "mrr@10": RR @ 10, "recall@100": R @ 100}
    ours = {name: {} for name in measures}
    for qid, run in runs.items():
        ours["ndcg@10"][qid] = ndcg(run, qrels[qid], 10)
        ours["map"][qid] = average_precision(run, qrels[qid])
        ours["mrr@10"][qid] = mrr(run, qrels[qid], 10)
        ours["recall@100"][qid] = recall(run, qrels[qid], 100)
    trec_qrels = [Qrel(q, d, int(g)) for q, j in qrels.items() for d, g in j.items()]
    trec_run = [ScoredDoc(q, d, float(len(run) - i)) for q, run in runs.items() for i, d in enumerate(run)]
    theirs = {name: {} for name in measures}
    for m in ir_measures.iter_calc(list(measures.values()), trec_qrels, trec_run):
        name = next(n for n, meas in measures.items() if meas == m.measure)
        theirs[name][m.query_id] = m.value
    for name in measures:
        for qid in runs:
            assert ours[name][qid] == pytest.approx(theirs[name].get(qid, 0.0), abs=1e-9), (name, qid)
