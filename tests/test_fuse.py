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


def test_a_folder_named_as_an_archive_is_known_by_its_words():
    from scent.search import archived

    assert archived("Sales/Archive/Price_List_2024.xlsx") and archived("old-notes/plan.md")
    assert archived("Backups 2019/report.pdf") and archived("Docs/_deprecated/api.md")
    assert not archived("Sales/Price_List_2025.xlsx") and not archived("notes/archive.md")  # a name, not a folder
    assert not archived("notes/bold/plan.md") and not archived("archive.zip#inside/a.txt")


def test_of_two_near_equal_files_the_one_outside_the_archive_comes_first(tmp_path, fake_embedder):
    from scent import Index

    root = tmp_path / "drive"
    (root / "Sales" / "Archive").mkdir(parents=True)
    # Last year's list says "price" twice: first in both lists (RRF 2/61 = 0.0328 against 2/62 = 0.0323);
    # at 0.98 of its score (0.0321) it falls behind this year's.
    (root / "Sales" / "Archive" / "price-list.md").write_text("Price list: pallet racking beam price 84.90.\n")
    (root / "Sales" / "price-list.md").write_text("Price list: pallet racking beam 86.10 a pair.\n")
    with Index(root, embedder=fake_embedder) as idx:
        idx.update()
        assert [r.path for r in idx.search("pallet racking beam price", k=2)] == [
            "Sales/price-list.md", "Sales/Archive/price-list.md"]
        assert [r.path for r in idx.search("pallet racking beam price", k=2, archived_weight=1)] == [
            "Sales/Archive/price-list.md", "Sales/price-list.md"]
