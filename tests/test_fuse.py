import numpy as np
import pytest

from scent.fuse import mmr, rrf


def test_rrf_hand_computed():
    runs = {"dense": ["a", "b", "c"], "keyword": ["c", "a"]}
    got = dict(rrf(runs, k=60))
    assert got["a"] == pytest.approx(1 / 61 + 1 / 62)
    assert got["b"] == pytest.approx(1 / 62)
    assert got["c"] == pytest.approx(1 / 63 + 1 / 61)
    assert [d for d, _ in rrf(runs, k=60)] == ["a", "c", "b"]


def test_rrf_weights_and_k():
    runs = {"dense": ["a", "b"], "keyword": ["b"]}
    got = dict(rrf(runs, k=1, weights={"dense": 2.0, "keyword": 0.5}))
    assert got["a"] == pytest.approx(2 / 2)
    assert got["b"] == pytest.approx(2 / 3 + 0.5 / 2)


def test_rrf_zero_weight_removes_a_list():
    runs = {"dense": ["a"], "keyword": ["b"]}
    assert [d for d, _ in rrf(runs, weights={"dense": 0.0})][0] == "b"


def test_rrf_empty():
    assert rrf({}) == []
    assert rrf({"dense": []}) == []


def test_mmr_skips_near_duplicate():
    ranked = [("a", 1.0), ("a2", 0.99), ("b", 0.5)]
    vecs = {"a": np.array([1.0, 0.0]), "a2": np.array([1.0, 0.0]), "b": np.array([0.0, 1.0])}
    picked = [d for d, _ in mmr(ranked, vecs, lam=0.5, k=3)]
    # after "a", a2 scores 0.5*0.98 - 0.5*1 < 0 while b scores 0.5*0 - 0 = 0
    assert picked == ["a", "b", "a2"]


def test_mmr_lambda_one_is_relevance_order():
    ranked = [("a", 3.0), ("b", 2.0), ("c", 1.0)]
    vecs = {d: np.array([1.0, 0.0]) for d in "abc"}
    assert [d for d, _ in mmr(ranked, vecs, lam=1.0, k=3)] == ["a", "b", "c"]


def test_rrf_none_holds_a_rank():
    got = dict(rrf({"dense": ["a", "b", "c"], "stand_in": [None, "b"]}, k=60))
    assert got == pytest.approx({"a": 1 / 61, "b": 1 / 62 + 1 / 62, "c": 1 / 63})
