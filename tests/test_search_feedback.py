"""Pseudo-relevance feedback for dense search (scent.search.feedback), with a hand-made folder."""
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
        results, plain = idx.search_with_lists("zebra yak", k=2)
        _, fed = idx.search_with_lists("zebra yak", k=2, feedback_units=1, feedback_weight=1000)
        _, off = idx.search_with_lists("zebra yak", k=2, feedback_units=0, feedback_weight=1000)
    assert [r.path for r in results] == ["b.txt", "a.txt"]
    assert plain["dense"] == off["dense"] == ["a.txt", "b.txt"]
    assert fed["dense"] == ["b.txt", "a.txt"]
    assert fed["keyword"] == plain["keyword"] == ["b.txt"]


def test_expansion_words_by_hand():
    from scent.query import parse
    from scent.search import expansion
    from scent.storage import StoredUnit

    def unit(uid, text):
        return StoredUnit(uid, f"{uid}.txt", "text", "text", None, 0, len(text), "", "en", text, 0.0)

    # one: 9 words of three letters or more ("a", "ox", "42" are not), yak 2/9, fox, owl, bee 1/9 each
    # (the, and: stop words; zebra: the query's); two: 2 words, fox 1/2.
    # fox 1/9 + 1/2 = 0.61 > yak 0.22 > bee 0.11 = owl 0.11 (then by name)
    fed = [unit(1, "The zebra and the yak: a yak, fox, owl, bee, ox 42."), unit(2, "Fox, Zebra!")]
    assert expansion(parse("zebra"), fed, 3) == ["fox", "yak", "bee"]


def test_feedback_terms_add_an_expanded_keyword_list(animals, fake_embedder):
    with Index(animals, embedder=fake_embedder) as idx:
        idx.update()
        _, lists = idx.search_with_lists("zebra", k=2, feedback_units=1, feedback_terms=2)
        _, plain = idx.search_with_lists("zebra", k=2, feedback_units=1)
    # b.txt alone holds "zebra" and is fed back; its most used other words (each 1/7): ant, bee;
    # "zebra OR ant OR bee" finds b.txt alone again
    assert lists["expanded"] == ["b.txt"] and "expanded" not in plain
