"""Pseudo-relevance feedback for dense search (scent.search.feedback), with a hand-made folder."""
import numpy as np
import pytest

from scent import Index


@pytest.fixture
def animals(tmp_path):
    root = tmp_path / "animals"
    root.mkdir()
    (root / "a.txt").write_text("yak\n")
    (root / "b.txt").write_text("zebra yak fox owl emu ant bee\n")
    return root


def test_feedback_moves_the_dense_query_toward_the_file_fused_first(animals, fake_embedder):
    # By hand, for "zebra yak" (fake vectors: one dimension a word, unit length):
    # dense: a.txt 1/sqrt(2) = 0.71 > b.txt 2/(sqrt(2) sqrt(7)) = 0.53; keyword: only b.txt holds both words.
    # fused: b.txt 1/61 + 1/62 > a.txt 1/61, so b.txt is fed back, and a query vector moved almost all
    # the way to b.txt's own (weight 1000) finds b.txt first in the dense list searched again.
    with Index(animals, embedder=fake_embedder) as idx:
        idx.update()
        results, plain = idx.search_with_lists("zebra yak", k=2, feedback_units=0)
        _, fed = idx.search_with_lists("zebra yak", k=2, feedback_units=1, feedback_weight=1000, feedback_floor=0)
        _, off = idx.search_with_lists("zebra yak", k=2, feedback_units=0, feedback_weight=1000)
    assert [r.path for r in results] == ["b.txt", "a.txt"]
    assert plain["dense"] == off["dense"] == ["a.txt", "b.txt"]
    assert fed["dense"] == ["b.txt", "a.txt"]
    assert fed["keyword"] == plain["keyword"] == ["b.txt"]


def test_a_huge_feedback_weight_moves_the_query_all_the_way_without_overflowing(animals, fake_embedder):
    # 1e308 is finite (the setting takes it) but past float32's range: the moved vector is b.txt's
    # own, so the dense list searched again scores b.txt 1 (its vector against itself), not NaN.
    with Index(animals, embedder=fake_embedder) as idx:
        idx.update()
        with np.errstate(over="raise", invalid="raise"):  # an underflow to 0 is the right answer
            results, fed = idx.search_with_lists("zebra yak", k=2, feedback_units=1, feedback_weight=1e308,
                                                 feedback_floor=0, explain=True)
    assert fed["dense"] == ["b.txt", "a.txt"]
    assert all(np.isfinite(r.score) for r in results)


def test_only_files_as_sure_as_the_floor_are_fed_back(animals, fake_embedder):
    # b.txt, fused first, is fed back when its confidence (as the plain search shows it) reaches the
    # floor, and not when the floor is a hair above it: then nothing is, and the dense list is the plain one.
    with Index(animals, embedder=fake_embedder) as idx:
        idx.update()
        results, plain = idx.search_with_lists("zebra yak", k=2, feedback_units=0)
        sure = results[0].confidence
        _, at = idx.search_with_lists("zebra yak", k=2, feedback_units=1, feedback_weight=1000, feedback_floor=sure)
        _, above = idx.search_with_lists("zebra yak", k=2, feedback_units=1, feedback_weight=1000,
                                         feedback_floor=min(1.0, sure + 1e-4))
    assert results[0].path == "b.txt" and 0 < sure < 1
    assert at["dense"] == ["b.txt", "a.txt"]
    assert above["dense"] == plain["dense"] == ["a.txt", "b.txt"]


def test_the_keyword_profile_lists_units_below_the_share_after_it(tmp_path, fake_embedder):
    # "boiler serviced tomorrow": three words, so min_share (3<30%) asks every unit for all three;
    # no note holds them. Fused with dense, the keyword list stays empty (one-word matches would
    # each collect a share); alone, it lists the notes by BM25 after those that hold the share.
    root = tmp_path / "notes"
    root.mkdir()
    (root / "a.txt").write_text("The boiler was serviced in March.\n")
    (root / "b.txt").write_text("Boiler pressure dropped again.\n")
    (root / "c.txt").write_text("Tomatoes in the greenhouse.\n")
    with Index(root, embedder=fake_embedder) as idx:
        idx.update()
        _, hybrid = idx.search_with_lists("boiler serviced tomorrow", k=3)
        alone = idx.search("boiler serviced tomorrow", k=3, strategy="keyword")
        strict = idx.search("boiler serviced tomorrow", k=3, strategy="keyword", match="and")
        held = idx.search("boiler serviced march", k=3, strategy="keyword")
    assert hybrid["keyword"] == []
    assert [r.path for r in alone] == ["a.txt", "b.txt"]  # two of the words, then one
    assert strict == []
    assert [r.path for r in held] == ["a.txt", "b.txt"]  # all three first, then the rest
